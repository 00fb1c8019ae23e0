//===- Lexer.h - tokens of the .stn language ----------------------*- C++ -*-===//

#ifndef FUSEC_COMPILER_LEXER_H
#define FUSEC_COMPILER_LEXER_H

#include "compiler/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <deque>

namespace fusec {

struct Token {
  enum Kind {
    Eof,
    Invalid, // already diagnosed by the lexer
    Identifier,
    Integer,
    Float,
    String,
    // Keywords.
    KwImport,
    KwPrecision,
    KwConnectivity,
    KwStencil,
    KwProgram,
    KwLet,
    KwReturn,
    KwSum,
    KwMin,
    KwMax,
    KwProd,
    KwEach,
    KwWhere,
    KwIndex,
    KwExchange,
    KwIf,
    KwElse,
    KwIn,
    KwOut,
    KwInout,
    KwVar,
    KwSkip,
    KwField,
    KwTrue,
    KwFalse,
    // Punctuation and operators.
    LParen,
    RParen,
    LBrace,
    RBrace,
    LSquare,
    RSquare,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    EqualEqual,
    NotEqual,
    Comma,
    Semicolon,
    Colon,
    Arrow,
    Equal,
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    Bang,
    AmpAmp,
    PipePipe,
    At,
  };

  Kind kind = Eof;
  llvm::StringRef spelling;

  llvm::SMLoc getLoc() const { return llvm::SMLoc::getFromPointer(spelling.data()); }
  bool is(Kind k) const { return kind == k; }
  bool isKeyword() const { return kind >= KwImport && kind <= KwFalse; }
  /// The text of a string token without its quotes.
  llvm::StringRef getStringValue() const { return spelling.drop_front().drop_back(); }
};

/// How a token kind is written, for messages: `')'`, `identifier`.
llvm::StringRef describeTokenKind(Token::Kind kind);

/// Splits one source buffer into tokens. Lexical errors are reported through
/// the DiagnosticEngine and produce an `Invalid` token.
class Lexer {
public:
  Lexer(llvm::StringRef buffer, DiagnosticEngine &diag)
      : buffer(buffer), cur(buffer.begin()), diag(diag) {}

  /// The token `n` places ahead of the current one (0: the current token).
  const Token &peek(unsigned n = 0);
  /// Consumes and returns the current token.
  Token next();

private:
  Token lex();
  Token lexIdentifier(const char *start);
  Token lexNumber(const char *start);
  Token lexString(const char *start);
  /// Skips whitespace and comments (diagnosing an unterminated one).
  void skipTrivia();
  Token make(Token::Kind kind, const char *start) const {
    return Token{kind, llvm::StringRef(start, cur - start)};
  }

  llvm::StringRef buffer;
  const char *cur;
  DiagnosticEngine &diag;
  std::deque<Token> lookahead;
};

} // namespace fusec

#endif // FUSEC_COMPILER_LEXER_H
