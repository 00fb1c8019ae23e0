//===- Parser.h - recursive-descent parser for .stn ---------------*- C++ -*-===//

#ifndef FUSEC_COMPILER_PARSER_H
#define FUSEC_COMPILER_PARSER_H

#include "compiler/AST.h"
#include "compiler/Diagnostics.h"
#include "compiler/Lexer.h"

namespace fusec {

/// Parses one source buffer. Syntax errors are reported through the
/// DiagnosticEngine; after an error the parser skips to the end of the
/// statement (or declaration) and goes on, so each statement reports its first
/// error.
class Parser {
public:
  /// Deepest nesting of parentheses, operators and blocks the parser accepts
  /// (deeper input is an error, never a stack overflow).
  static constexpr unsigned kMaxNesting = 256;

  Parser(llvm::StringRef buffer, DiagnosticEngine &diag) : lexer(buffer, diag), diag(diag) {}

  /// Parses a whole file into `file.decls`.
  void parseFile(ast::SourceFile &file);
  /// Parses one expression followed by the end of the buffer (for tests).
  ast::ExprPtr parseStandaloneExpression();

private:
  // Declarations.
  ast::DeclPtr parseDeclaration();
  ast::DeclPtr parseImport();
  ast::DeclPtr parsePrecision();
  ast::DeclPtr parseConnectivity();
  ast::DeclPtr parseStencil();
  ast::DeclPtr parseProgram();
  bool parseParams(std::vector<std::unique_ptr<ast::ParamDecl>> &params, bool isProgram);
  bool parseOutputs(ast::StencilDecl &stencil);
  std::optional<ast::TypeSyntax> parseType();

  // Statements.
  bool parseBlock(std::vector<ast::StmtPtr> &body, bool isProgram, llvm::StringRef owner);
  ast::StmtPtr parseStencilStatement();
  ast::StmtPtr parseProgramStatement();
  ast::StmtPtr parseLet();
  ast::StmtPtr parseReturn();
  ast::StmtPtr parseVar();
  ast::StmtPtr parseExchange();
  ast::StmtPtr parseIf();
  ast::StmtPtr parseAssignment();
  bool parseDomain(ast::Domain &domain);
  bool parseRange(ast::ExprPtr &lower, ast::ExprPtr &upper);

  // Expressions.
  ast::ExprPtr parseExpression();
  ast::ExprPtr parseBinary(unsigned minPrecedence);
  ast::ExprPtr parseUnary();
  ast::ExprPtr parsePower();
  ast::ExprPtr parsePrimary();
  ast::ExprPtr parseNameOrCall();
  ast::ExprPtr parseFold(ast::FoldExpr::Op op);
  ast::ExprPtr parseIndex();
  ast::ExprPtr parseParenthesized();
  bool parseSubscript(std::vector<ast::Subscript> &subscripts);
  bool parseLevelSubscript(ast::Subscript &subscript);
  bool parseCallArguments(std::vector<ast::ExprPtr> &args, llvm::SMLoc &rparenLoc);
  /// Computes `expr`'s tree height and rejects trees deeper than kMaxNesting.
  ast::ExprPtr finish(ast::ExprPtr expr);

  // Literals.
  std::optional<int64_t> parseIntegerToken(const Token &token);
  std::optional<double> parseFloatToken(const Token &token);

  // Tokens.
  const Token &tok() { return lexer.peek(); }
  const Token &peek(unsigned n) { return lexer.peek(n); }
  Token consume() { return lexer.next(); }
  bool consumeIf(Token::Kind kind);
  /// Consumes a token of `kind` or reports `expected <what>`.
  bool expect(Token::Kind kind, llvm::StringRef what);
  std::optional<ast::Identifier> expectIdentifier(llvm::StringRef what);
  /// Reports `expected <what>, found <token>` (unless the lexer already
  /// reported the token).
  void errorExpected(llvm::StringRef what);

  // Recovery.
  void skipStatement();
  void skipDeclaration();

  /// Counts recursion through nested constructs.
  struct NestingGuard {
    NestingGuard(Parser &parser);
    ~NestingGuard() { --parser.nesting; }
    bool tooDeep() const { return parser.nesting > kMaxNesting; }
    Parser &parser;
  };

  Lexer lexer;
  DiagnosticEngine &diag;
  unsigned nesting = 0;
  bool reportedTooDeep = false;
};

} // namespace fusec

#endif // FUSEC_COMPILER_PARSER_H
