//===- Lexer.cpp - tokens of the .stn language ----------------------------===//

#include "compiler/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace fusec;

llvm::StringRef fusec::describeTokenKind(Token::Kind kind) {
  switch (kind) {
  case Token::Eof: return "end of file";
  case Token::Invalid: return "invalid token";
  case Token::Identifier: return "identifier";
  case Token::Integer: return "integer";
  case Token::Float: return "number";
  case Token::String: return "string";
  case Token::KwImport: return "'import'";
  case Token::KwPrecision: return "'precision'";
  case Token::KwConnectivity: return "'connectivity'";
  case Token::KwStencil: return "'stencil'";
  case Token::KwProgram: return "'program'";
  case Token::KwLet: return "'let'";
  case Token::KwReturn: return "'return'";
  case Token::KwSum: return "'sum'";
  case Token::KwMin: return "'min'";
  case Token::KwMax: return "'max'";
  case Token::KwProd: return "'prod'";
  case Token::KwEach: return "'each'";
  case Token::KwWhere: return "'where'";
  case Token::KwIndex: return "'index'";
  case Token::KwExchange: return "'exchange'";
  case Token::KwIf: return "'if'";
  case Token::KwElse: return "'else'";
  case Token::KwIn: return "'in'";
  case Token::KwOut: return "'out'";
  case Token::KwInout: return "'inout'";
  case Token::KwVar: return "'var'";
  case Token::KwSkip: return "'skip'";
  case Token::KwField: return "'field'";
  case Token::KwTrue: return "'true'";
  case Token::KwFalse: return "'false'";
  case Token::LParen: return "'('";
  case Token::RParen: return "')'";
  case Token::LBrace: return "'{'";
  case Token::RBrace: return "'}'";
  case Token::LSquare: return "'['";
  case Token::RSquare: return "']'";
  case Token::Less: return "'<'";
  case Token::Greater: return "'>'";
  case Token::LessEqual: return "'<='";
  case Token::GreaterEqual: return "'>='";
  case Token::EqualEqual: return "'=='";
  case Token::NotEqual: return "'!='";
  case Token::Comma: return "','";
  case Token::Semicolon: return "';'";
  case Token::Colon: return "':'";
  case Token::Arrow: return "'->'";
  case Token::Equal: return "'='";
  case Token::Plus: return "'+'";
  case Token::Minus: return "'-'";
  case Token::Star: return "'*'";
  case Token::Slash: return "'/'";
  case Token::Caret: return "'^'";
  case Token::Bang: return "'!'";
  case Token::AmpAmp: return "'&&'";
  case Token::PipePipe: return "'||'";
  case Token::At: return "'@'";
  }
  return "token";
}

static bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }
static bool isIdentifierChar(char c) { return isIdentifierStart(c) || isDigit(c); }

const Token &Lexer::peek(unsigned n) {
  while (lookahead.size() <= n)
    lookahead.push_back(lex());
  return lookahead[n];
}

Token Lexer::next() {
  peek();
  Token token = lookahead.front();
  lookahead.pop_front();
  return token;
}

void Lexer::skipTrivia() {
  const char *end = buffer.end();
  while (cur != end) {
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
      ++cur;
    } else if (c == '/' && cur + 1 != end && cur[1] == '/') {
      while (cur != end && *cur != '\n')
        ++cur;
    } else if (c == '/' && cur + 1 != end && cur[1] == '*') {
      const char *start = cur;
      cur += 2;
      while (cur != end && !(*cur == '*' && cur + 1 != end && cur[1] == '/'))
        ++cur;
      if (cur == end) {
        diag.error(llvm::SMLoc::getFromPointer(start), "unterminated '/*' comment");
        return;
      }
      cur += 2;
    } else {
      return;
    }
  }
}

Token Lexer::lex() {
  skipTrivia();
  const char *start = cur;
  if (cur == buffer.end())
    return make(Token::Eof, start);
  char c = *cur++;
  if (isIdentifierStart(c))
    return lexIdentifier(start);
  if (isDigit(c) || (c == '.' && cur != buffer.end() && isDigit(*cur)))
    return lexNumber(start);
  auto followedBy = [&](char expected) {
    if (cur != buffer.end() && *cur == expected) {
      ++cur;
      return true;
    }
    return false;
  };
  switch (c) {
  case '"': return lexString(start);
  case '(': return make(Token::LParen, start);
  case ')': return make(Token::RParen, start);
  case '{': return make(Token::LBrace, start);
  case '}': return make(Token::RBrace, start);
  case '[': return make(Token::LSquare, start);
  case ']': return make(Token::RSquare, start);
  case ',': return make(Token::Comma, start);
  case ';': return make(Token::Semicolon, start);
  case ':': return make(Token::Colon, start);
  case '+': return make(Token::Plus, start);
  case '*': return make(Token::Star, start);
  case '/': return make(Token::Slash, start);
  case '^': return make(Token::Caret, start);
  case '@': return make(Token::At, start);
  case '-': return make(followedBy('>') ? Token::Arrow : Token::Minus, start);
  case '<': return make(followedBy('=') ? Token::LessEqual : Token::Less, start);
  case '>': return make(followedBy('=') ? Token::GreaterEqual : Token::Greater, start);
  case '=': return make(followedBy('=') ? Token::EqualEqual : Token::Equal, start);
  case '!': return make(followedBy('=') ? Token::NotEqual : Token::Bang, start);
  case '&':
    if (followedBy('&'))
      return make(Token::AmpAmp, start);
    diag.error(llvm::SMLoc::getFromPointer(start), "unexpected '&'; did you mean '&&'?");
    return make(Token::Invalid, start);
  case '|':
    if (followedBy('|'))
      return make(Token::PipePipe, start);
    diag.error(llvm::SMLoc::getFromPointer(start), "unexpected '|'; did you mean '||'?");
    return make(Token::Invalid, start);
  default:
    break;
  }
  // Anything else is a character the language does not use. A run of such
  // bytes (binary data, UTF-8 outside comments) is reported once.
  auto isPrintable = [](char ch) { return ch > 0x20 && ch < 0x7f; };
  if (isPrintable(c))
    diag.error(llvm::SMLoc::getFromPointer(start),
               llvm::Twine("unexpected character '") + llvm::Twine(c) + "'");
  else
    diag.error(llvm::SMLoc::getFromPointer(start),
               "unexpected byte 0x" + llvm::utohexstr(static_cast<unsigned char>(c)) +
                   " (the language is ASCII outside comments)");
  if (!isPrintable(c))
    while (cur != buffer.end() && !isPrintable(*cur) && *cur != ' ' && *cur != '\n' &&
           *cur != '\t' && *cur != '\r')
      ++cur;
  return make(Token::Invalid, start);
}

Token Lexer::lexIdentifier(const char *start) {
  while (cur != buffer.end() && isIdentifierChar(*cur))
    ++cur;
  llvm::StringRef text(start, cur - start);
  Token::Kind kind = llvm::StringSwitch<Token::Kind>(text)
                         .Case("import", Token::KwImport)
                         .Case("precision", Token::KwPrecision)
                         .Case("connectivity", Token::KwConnectivity)
                         .Case("stencil", Token::KwStencil)
                         .Case("program", Token::KwProgram)
                         .Case("let", Token::KwLet)
                         .Case("return", Token::KwReturn)
                         .Case("sum", Token::KwSum)
                         .Case("min", Token::KwMin)
                         .Case("max", Token::KwMax)
                         .Case("prod", Token::KwProd)
                         .Case("each", Token::KwEach)
                         .Case("where", Token::KwWhere)
                         .Case("index", Token::KwIndex)
                         .Case("exchange", Token::KwExchange)
                         .Case("if", Token::KwIf)
                         .Case("else", Token::KwElse)
                         .Case("in", Token::KwIn)
                         .Case("out", Token::KwOut)
                         .Case("inout", Token::KwInout)
                         .Case("var", Token::KwVar)
                         .Case("skip", Token::KwSkip)
                         .Case("field", Token::KwField)
                         .Case("true", Token::KwTrue)
                         .Case("false", Token::KwFalse)
                         .Default(Token::Identifier);
  return make(kind, start);
}

Token Lexer::lexNumber(const char *start) {
  const char *end = buffer.end();
  auto digits = [&] {
    while (cur != end && isDigit(*cur))
      ++cur;
  };
  bool isFloat = *start == '.';
  digits();
  if (!isFloat && cur != end && *cur == '.') {
    isFloat = true;
    ++cur;
    digits();
  }
  if (cur != end && (*cur == 'e' || *cur == 'E')) {
    const char *exponent = cur++;
    if (cur != end && (*cur == '+' || *cur == '-'))
      ++cur;
    if (cur == end || !isDigit(*cur)) {
      diag.error(llvm::SMLoc::getFromPointer(exponent), "expected digits in the exponent");
      return make(Token::Invalid, start);
    }
    digits();
    isFloat = true;
  }
  if (cur != end && (isIdentifierStart(*cur) || *cur == '.')) {
    const char *suffix = cur;
    while (cur != end && (isIdentifierChar(*cur) || *cur == '.'))
      ++cur;
    diag.error(llvm::SMLoc::getFromPointer(suffix),
               "invalid number '" + llvm::StringRef(start, cur - start) + "'");
    return make(Token::Invalid, start);
  }
  return make(isFloat ? Token::Float : Token::Integer, start);
}

Token Lexer::lexString(const char *start) {
  const char *end = buffer.end();
  while (cur != end && *cur != '"' && *cur != '\n') {
    unsigned char c = static_cast<unsigned char>(*cur);
    if (c < 0x20 && c != '\t') {
      diag.error(llvm::SMLoc::getFromPointer(cur), "unexpected control character in a string");
      ++cur;
      return make(Token::Invalid, start);
    }
    ++cur;
  }
  if (cur == end || *cur != '"') {
    diag.error(llvm::SMLoc::getFromPointer(start), "unterminated string");
    return make(Token::Invalid, start);
  }
  ++cur;
  return make(Token::String, start);
}
