// Unit tests of the .stn lexer.
#include "compiler/Lexer.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using fusec::DiagnosticEngine;
using fusec::Lexer;
using fusec::Token;

namespace {
/// Lexes `source` to the end; errors go to `errors`.
struct Lexed {
  explicit Lexed(const std::string &source) {
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, "test.stn"),
                                 llvm::SMLoc());
    llvm::StringRef buffer = sourceMgr.getMemoryBuffer(1)->getBuffer();
    llvm::raw_string_ostream os(errors);
    DiagnosticEngine diag(sourceMgr, os);
    Lexer lexer(buffer, diag);
    while (true) {
      Token token = lexer.next();
      if (token.is(Token::Eof))
        break;
      kinds.push_back(token.kind);
      spellings.push_back(token.spelling.str());
    }
    errorCount = diag.getErrorCount();
  }

  llvm::SourceMgr sourceMgr;
  std::string errors;
  unsigned errorCount = 0;
  std::vector<Token::Kind> kinds;
  std::vector<std::string> spellings;
};
} // namespace

TEST_CASE("keywords, identifiers and punctuation", "[lexer]") {
  Lexed lexed("stencil f(x: field<Edge, K, wp>) -> wp { return x[E2C:1] ^ 2; }");
  CHECK(lexed.errorCount == 0);
  std::vector<Token::Kind> expected = {
      Token::KwStencil, Token::Identifier, Token::LParen, Token::Identifier, Token::Colon,
      Token::KwField, Token::Less, Token::Identifier, Token::Comma, Token::Identifier,
      Token::Comma, Token::Identifier, Token::Greater, Token::RParen, Token::Arrow,
      Token::Identifier, Token::LBrace, Token::KwReturn, Token::Identifier, Token::LSquare,
      Token::Identifier, Token::Colon, Token::Integer, Token::RSquare, Token::Caret,
      Token::Integer, Token::Semicolon, Token::RBrace};
  CHECK(lexed.kinds == expected);
}

TEST_CASE("two-character operators", "[lexer]") {
  Lexed lexed("<= >= == != && || -> < > = ! -");
  std::vector<Token::Kind> expected = {Token::LessEqual, Token::GreaterEqual, Token::EqualEqual,
                                       Token::NotEqual,  Token::AmpAmp,       Token::PipePipe,
                                       Token::Arrow,     Token::Less,         Token::Greater,
                                       Token::Equal,     Token::Bang,         Token::Minus};
  CHECK(lexed.kinds == expected);
}

TEST_CASE("numbers", "[lexer]") {
  Lexed lexed("0 42 1.0 .5 1e-3 2.0e+5 3.");
  std::vector<Token::Kind> expected = {Token::Integer, Token::Integer, Token::Float, Token::Float,
                                       Token::Float,   Token::Float,   Token::Float};
  CHECK(lexed.kinds == expected);
  CHECK(lexed.spellings[5] == "2.0e+5");
  CHECK(lexed.errorCount == 0);
}

TEST_CASE("malformed numbers are reported", "[lexer]") {
  Lexed lexed("12abc 1e+");
  CHECK(lexed.errorCount == 2);
  CHECK(lexed.errors.find("test.stn:1:3: error: invalid number '12abc'") != std::string::npos);
  CHECK(lexed.errors.find("test.stn:1:8: error: expected digits in the exponent") !=
        std::string::npos);
}

TEST_CASE("comments are skipped", "[lexer]") {
  Lexed lexed("a // line comment ä\n/* block\n comment ü */ b");
  CHECK(lexed.spellings == std::vector<std::string>{"a", "b"});
  CHECK(lexed.errorCount == 0);
}

TEST_CASE("an unterminated block comment is an error", "[lexer]") {
  Lexed lexed("a /* never closed");
  CHECK(lexed.errorCount == 1);
  CHECK(lexed.errors.find("test.stn:1:3: error: unterminated '/*' comment") !=
        std::string::npos);
}

TEST_CASE("strings", "[lexer]") {
  Lexed ok("import \"icon.stn\";");
  REQUIRE(ok.kinds.size() == 3);
  CHECK(ok.kinds[1] == Token::String);
  CHECK(ok.spellings[1] == "\"icon.stn\"");
  Lexed unterminated("import \"icon.stn\n;");
  CHECK(unterminated.errorCount == 1);
  CHECK(unterminated.errors.find("unterminated string") != std::string::npos);
}

TEST_CASE("unexpected characters and bytes", "[lexer]") {
  Lexed dollar("a $ b");
  CHECK(dollar.errorCount == 1);
  CHECK(dollar.errors.find("test.stn:1:3: error: unexpected character '$'") != std::string::npos);
  // A run of bytes outside ASCII is reported once.
  Lexed bytes("a \xff\xfe\x01 b");
  CHECK(bytes.errorCount == 1);
  CHECK(bytes.errors.find("unexpected byte 0xFF") != std::string::npos);
  CHECK(bytes.kinds.back() == Token::Identifier);
  Lexed single("a & b | c");
  CHECK(single.errorCount == 2);
  CHECK(single.errors.find("did you mean '&&'?") != std::string::npos);
}

TEST_CASE("peek looks ahead without consuming", "[lexer]") {
  llvm::SourceMgr sourceMgr;
  std::string errors;
  llvm::raw_string_ostream os(errors);
  DiagnosticEngine diag(sourceMgr, os);
  Lexer lexer("min ( C2E ) x", diag);
  CHECK(lexer.peek(3).is(Token::RParen));
  CHECK(lexer.peek(0).is(Token::KwMin));
  CHECK(lexer.next().is(Token::KwMin));
  CHECK(lexer.next().is(Token::LParen));
  CHECK(lexer.peek(2).is(Token::Identifier));
  CHECK(lexer.peek(3).is(Token::Eof));
  CHECK(lexer.peek(4).is(Token::Eof));
}
