//===- Parser.cpp - recursive-descent parser for .stn ---------------------===//

#include "compiler/Parser.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Error.h"
#include "llvm/ADT/STLExtras.h"

#include <limits>

using namespace fusec;
using namespace fusec::ast;

//===----------------------------------------------------------------------===//
// Tokens and recovery
//===----------------------------------------------------------------------===//

Parser::NestingGuard::NestingGuard(Parser &parser) : parser(parser) {
  if (++parser.nesting > kMaxNesting && !parser.reportedTooDeep) {
    parser.reportedTooDeep = true;
    parser.diag.error(parser.tok().getLoc(), "nesting is too deep (the limit is " +
                                                 llvm::Twine(kMaxNesting) + " levels)");
  }
}

bool Parser::consumeIf(Token::Kind kind) {
  if (!tok().is(kind))
    return false;
  consume();
  return true;
}

void Parser::errorExpected(llvm::StringRef what) {
  if (tok().is(Token::Invalid))
    return; // the lexer has reported it
  std::string found = tok().is(Token::Eof) ? "end of file"
                      : tok().is(Token::Identifier) || tok().is(Token::Integer) ||
                              tok().is(Token::Float)
                          ? ("'" + tok().spelling + "'").str()
                          : describeTokenKind(tok().kind).str();
  diag.error(tok().getLoc(), "expected " + what + ", found " + found);
}

bool Parser::expect(Token::Kind kind, llvm::StringRef what) {
  if (consumeIf(kind))
    return true;
  errorExpected(what);
  return false;
}

std::optional<Identifier> Parser::expectIdentifier(llvm::StringRef what) {
  if (tok().is(Token::Identifier)) {
    Token token = consume();
    return Identifier{token.spelling.str(), token.getLoc()};
  }
  if (tok().isKeyword()) {
    diag.error(tok().getLoc(), "expected " + what + ", found the keyword '" + tok().spelling +
                                   "'");
    return std::nullopt;
  }
  errorExpected(what);
  return std::nullopt;
}

void Parser::skipStatement() {
  unsigned braces = 0;
  while (!tok().is(Token::Eof)) {
    if (tok().is(Token::LBrace)) {
      ++braces;
    } else if (tok().is(Token::RBrace)) {
      if (braces == 0)
        return;
      --braces;
    } else if (tok().is(Token::Semicolon) && braces == 0) {
      consume();
      return;
    }
    consume();
  }
}

void Parser::skipDeclaration() {
  while (true) {
    switch (tok().kind) {
    case Token::Eof:
    case Token::KwImport:
    case Token::KwPrecision:
    case Token::KwConnectivity:
    case Token::KwStencil:
    case Token::KwProgram:
      return;
    default:
      consume();
    }
  }
}

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

std::optional<int64_t> Parser::parseIntegerToken(const Token &token) {
  uint64_t value;
  if (token.spelling.getAsInteger(10, value) ||
      value > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
    diag.error(token.getLoc(), "integer literal '" + token.spelling + "' does not fit in i32");
    return std::nullopt;
  }
  return static_cast<int64_t>(value);
}

std::optional<double> Parser::parseFloatToken(const Token &token) {
  llvm::APFloat value(llvm::APFloat::IEEEdouble());
  auto status = value.convertFromString(token.spelling, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    diag.error(token.getLoc(), "invalid number '" + token.spelling + "'");
    return std::nullopt;
  }
  if ((*status & llvm::APFloat::opOverflow) || !value.isFinite()) {
    diag.error(token.getLoc(), "number '" + token.spelling + "' is out of range for f64");
    return std::nullopt;
  }
  return value.convertToDouble();
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

void Parser::parseFile(SourceFile &file) {
  while (!tok().is(Token::Eof) && !diag.shouldStop()) {
    if (DeclPtr decl = parseDeclaration())
      file.decls.push_back(std::move(decl));
    else
      skipDeclaration();
  }
}

DeclPtr Parser::parseDeclaration() {
  switch (tok().kind) {
  case Token::KwImport: return parseImport();
  case Token::KwPrecision: return parsePrecision();
  case Token::KwConnectivity: return parseConnectivity();
  case Token::KwStencil: return parseStencil();
  case Token::KwProgram: return parseProgram();
  default:
    errorExpected("a declaration (import, precision, connectivity, stencil or program)");
    consume();
    return nullptr;
  }
}

DeclPtr Parser::parseImport() {
  consume();
  if (!tok().is(Token::String)) {
    errorExpected("a file name in quotes after 'import'");
    return nullptr;
  }
  Token path = consume();
  if (!expect(Token::Semicolon, "';' after the import"))
    return nullptr;
  return std::make_unique<ImportDecl>(path.getLoc(), path.getStringValue().str());
}

DeclPtr Parser::parsePrecision() {
  consume();
  auto name = expectIdentifier("the name of the precision");
  if (!name || !expect(Token::Equal, "'=' after the precision name"))
    return nullptr;
  auto type = expectIdentifier("a scalar type (f64 or f32)");
  if (!type || !expect(Token::Semicolon, "';' after the precision"))
    return nullptr;
  return std::make_unique<PrecisionDecl>(std::move(*name), std::move(*type));
}

DeclPtr Parser::parseConnectivity() {
  consume();
  auto name = expectIdentifier("the name of the connectivity");
  if (!name || !expect(Token::Colon, "':' after the connectivity name"))
    return nullptr;
  auto source = expectIdentifier("the source location (Cell, Edge or Vertex)");
  if (!source || !expect(Token::Arrow, "'->' after the source location"))
    return nullptr;
  auto target = expectIdentifier("the target location (Cell, Edge or Vertex)");
  if (!target || !expect(Token::LSquare, "'[' and the number of neighbours"))
    return nullptr;
  if (!tok().is(Token::Integer)) {
    errorExpected("the number of neighbours");
    return nullptr;
  }
  Token sizeToken = consume();
  std::optional<int64_t> size = parseIntegerToken(sizeToken);
  if (!size || !expect(Token::RSquare, "']' after the number of neighbours"))
    return nullptr;
  bool skip = consumeIf(Token::KwSkip);
  if (!expect(Token::Semicolon, skip ? "';'" : "';' or 'skip'"))
    return nullptr;
  return std::make_unique<ConnectivityDecl>(std::move(*name), std::move(*source),
                                            std::move(*target), *size, sizeToken.getLoc(),
                                            skip);
}

std::optional<TypeSyntax> Parser::parseType() {
  TypeSyntax type;
  type.loc = tok().getLoc();
  if (!consumeIf(Token::KwField)) {
    auto name = expectIdentifier("a type");
    if (!name)
      return std::nullopt;
    // `points<...>`: `points` is not reserved, it is a type only before '<'.
    if (name->name != "points" || !tok().is(Token::Less)) {
      type.parts.push_back(std::move(*name));
      return type;
    }
    type.isPoints = true;
  } else {
    type.isField = true;
  }
  if (!expect(Token::Less, type.isField ? "'<' after 'field'" : "'<' after 'points'"))
    return std::nullopt;
  do {
    auto part = expectIdentifier("a location, connectivity, K, KHalf or element type");
    if (!part)
      return std::nullopt;
    type.parts.push_back(std::move(*part));
  } while (consumeIf(Token::Comma));
  if (!expect(Token::Greater, type.isField ? "',' or '>' in the field type"
                                           : "',' or '>' in the points type"))
    return std::nullopt;
  return type;
}

bool Parser::parseParams(std::vector<std::unique_ptr<ParamDecl>> &params, bool isProgram) {
  if (!expect(Token::LParen, "'(' before the parameters"))
    return false;
  if (consumeIf(Token::RParen))
    return true;
  do {
    Intent intent = Intent::In;
    bool intentWritten = true;
    llvm::SMLoc intentLoc = tok().getLoc();
    if (consumeIf(Token::KwIn))
      intent = Intent::In;
    else if (consumeIf(Token::KwOut))
      intent = Intent::Out;
    else if (consumeIf(Token::KwInout))
      intent = Intent::InOut;
    else
      intentWritten = false;
    if (intentWritten && !isProgram) {
      diag.error(intentLoc, "stencil parameters have no intent: stencils return their outputs");
      return false;
    }
    auto name = expectIdentifier(intentWritten ? "a parameter name"
                                               : "a parameter name (or in, out, inout)");
    if (!name || !expect(Token::Colon, "':' and a type after the parameter name"))
      return false;
    auto type = parseType();
    if (!type)
      return false;
    params.push_back(
        std::make_unique<ParamDecl>(std::move(*name), std::move(*type), intent, intentWritten));
    params.back()->index = params.size() - 1;
  } while (consumeIf(Token::Comma));
  return expect(Token::RParen, "',' or ')' after a parameter");
}

bool Parser::parseOutputs(StencilDecl &stencil) {
  if (!consumeIf(Token::LParen)) {
    auto type = parseType();
    if (!type)
      return false;
    stencil.outputs.push_back(OutputDecl{Identifier{"", type->loc}, std::move(*type), {}});
    return true;
  }
  do {
    auto name = expectIdentifier("an output name");
    if (!name || !expect(Token::Colon, "':' and a type after the output name"))
      return false;
    auto type = parseType();
    if (!type)
      return false;
    stencil.outputs.push_back(OutputDecl{std::move(*name), std::move(*type), {}});
  } while (consumeIf(Token::Comma));
  return expect(Token::RParen, "',' or ')' after an output");
}

DeclPtr Parser::parseStencil() {
  consume();
  auto name = expectIdentifier("the name of the stencil");
  if (!name)
    return nullptr;
  auto stencil = std::make_unique<StencilDecl>(std::move(*name));
  if (!parseParams(stencil->params, /*isProgram=*/false) ||
      !expect(Token::Arrow, "'->' and the output types") || !parseOutputs(*stencil) ||
      !parseBlock(stencil->body, /*isProgram=*/false, "stencil '" + stencil->name.name + "'"))
    return nullptr;
  return stencil;
}

DeclPtr Parser::parseProgram() {
  consume();
  auto name = expectIdentifier("the name of the program");
  if (!name)
    return nullptr;
  auto program = std::make_unique<ProgramDecl>(std::move(*name));
  if (!parseParams(program->params, /*isProgram=*/true) ||
      !parseBlock(program->body, /*isProgram=*/true, "program '" + program->name.name + "'"))
    return nullptr;
  return program;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool Parser::parseBlock(std::vector<StmtPtr> &body, bool isProgram, llvm::StringRef owner) {
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return false;
  if (!expect(Token::LBrace, ("'{' to start the body of " + owner).str()))
    return false;
  while (!tok().is(Token::RBrace) && !tok().is(Token::Eof) && !diag.shouldStop()) {
    StmtPtr stmt = isProgram ? parseProgramStatement() : parseStencilStatement();
    if (stmt)
      body.push_back(std::move(stmt));
    else if (guard.tooDeep() || reportedTooDeep)
      return false;
    else
      skipStatement();
  }
  return expect(Token::RBrace, ("'}' at the end of " + owner).str());
}

StmtPtr Parser::parseStencilStatement() {
  switch (tok().kind) {
  case Token::KwLet: return parseLet();
  case Token::KwReturn: return parseReturn();
  default:
    errorExpected("'let' or 'return' in a stencil body");
    return nullptr;
  }
}

StmtPtr Parser::parseProgramStatement() {
  switch (tok().kind) {
  case Token::KwVar: return parseVar();
  case Token::KwExchange: return parseExchange();
  case Token::KwIf: return parseIf();
  case Token::Identifier:
  case Token::LParen: return parseAssignment();
  default:
    errorExpected("a statement (an application 'out = stencil(...) @ ...', 'var', 'exchange' "
                  "or 'if')");
    return nullptr;
  }
}

StmtPtr Parser::parseLet() {
  llvm::SMLoc loc = consume().getLoc();
  auto let = std::make_unique<LetStmt>(loc);
  std::vector<Identifier> names;
  if (consumeIf(Token::LParen)) {
    do {
      auto name = expectIdentifier("a name");
      if (!name)
        return nullptr;
      names.push_back(std::move(*name));
    } while (consumeIf(Token::Comma));
    if (!expect(Token::RParen, "',' or ')' after a name"))
      return nullptr;
  } else {
    auto name = expectIdentifier("a name after 'let'");
    if (!name)
      return nullptr;
    names.push_back(std::move(*name));
  }
  if (!expect(Token::Equal, "'=' after the name"))
    return nullptr;
  let->value = parseExpression();
  if (!let->value || !expect(Token::Semicolon, "';' at the end of the let"))
    return nullptr;
  for (Identifier &name : names)
    let->names.push_back(std::make_unique<LetDecl>(std::move(name), let.get(), let->names.size()));
  return let;
}

StmtPtr Parser::parseReturn() {
  llvm::SMLoc loc = consume().getLoc();
  ExprPtr value = parseExpression();
  if (!value || !expect(Token::Semicolon, "';' at the end of the return"))
    return nullptr;
  std::vector<ExprPtr> values;
  if (auto *tuple = llvm::dyn_cast<TupleExpr>(value.get()))
    values = std::move(tuple->elements);
  else
    values.push_back(std::move(value));
  return std::make_unique<ReturnStmt>(loc, std::move(values));
}

StmtPtr Parser::parseVar() {
  llvm::SMLoc loc = consume().getLoc();
  auto name = expectIdentifier("a name after 'var'");
  if (!name || !expect(Token::Colon, "':' and a field type after the name"))
    return nullptr;
  auto type = parseType();
  if (!type || !expect(Token::Semicolon, "';' after the type"))
    return nullptr;
  return std::make_unique<VarStmt>(loc,
                                   std::make_unique<VarDecl>(std::move(*name), std::move(*type)));
}

StmtPtr Parser::parseExchange() {
  llvm::SMLoc loc = consume().getLoc();
  auto exchange = std::make_unique<ExchangeStmt>(loc);
  do {
    auto name = expectIdentifier("a field name");
    if (!name)
      return nullptr;
    exchange->fields.push_back(std::move(*name));
  } while (consumeIf(Token::Comma));
  if (!expect(Token::Semicolon, "',' or ';' after a field name"))
    return nullptr;
  return exchange;
}

StmtPtr Parser::parseIf() {
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return nullptr;
  llvm::SMLoc loc = consume().getLoc();
  auto ifStmt = std::make_unique<IfStmt>(loc);
  if (!expect(Token::LParen, "'(' after 'if'"))
    return nullptr;
  ifStmt->condition = parseExpression();
  if (!ifStmt->condition || !expect(Token::RParen, "')' after the condition") ||
      !parseBlock(ifStmt->thenBody, /*isProgram=*/true, "the 'if' branch"))
    return nullptr;
  if (!consumeIf(Token::KwElse))
    return ifStmt;
  if (tok().is(Token::KwIf)) {
    StmtPtr nested = parseIf();
    if (!nested)
      return nullptr;
    ifStmt->elseBody.push_back(std::move(nested));
    return ifStmt;
  }
  if (!parseBlock(ifStmt->elseBody, /*isProgram=*/true, "the 'else' branch"))
    return nullptr;
  return ifStmt;
}

StmtPtr Parser::parseAssignment() {
  auto assign = std::make_unique<AssignStmt>(tok().getLoc());
  bool parenthesized = consumeIf(Token::LParen);
  do {
    auto target = expectIdentifier("the name of an output field");
    if (!target)
      return nullptr;
    assign->targets.push_back(std::move(*target));
  } while (consumeIf(Token::Comma));
  if (parenthesized && !expect(Token::RParen, "',' or ')' after an output field"))
    return nullptr;
  if (!expect(Token::Equal, parenthesized || assign->targets.size() > 1
                                ? "'=' after the output fields"
                                : "'=' after the output field"))
    return nullptr;
  auto callee = expectIdentifier("the name of a stencil");
  if (!callee)
    return nullptr;
  std::vector<ExprPtr> args;
  llvm::SMLoc rparenLoc;
  if (!tok().is(Token::LParen)) {
    errorExpected("'(' and the arguments of the stencil");
    return nullptr;
  }
  if (!parseCallArguments(args, rparenLoc))
    return nullptr;
  assign->call = std::make_unique<CallExpr>(std::move(*callee), std::move(args), rparenLoc);
  if (!tok().is(Token::At)) {
    errorExpected("'@' and the domain of the application (e.g. '@ Edge[lo:hi]')");
    return nullptr;
  }
  if (!parseDomain(assign->domain) ||
      !expect(Token::Semicolon, "';' at the end of the application"))
    return nullptr;
  return assign;
}

bool Parser::parseRange(ExprPtr &lower, ExprPtr &upper) {
  if (!expect(Token::LSquare, "'[' and a range 'lo:hi'"))
    return false;
  lower = parseExpression();
  if (!lower || !expect(Token::Colon, "':' between the bounds of the range"))
    return false;
  upper = parseExpression();
  return upper && expect(Token::RSquare, "']' at the end of the range");
}

bool Parser::parseDomain(Domain &domain) {
  domain.loc = consume().getLoc();
  auto first = expectIdentifier("a location (Cell, Edge, Vertex), K or a point list");
  if (!first)
    return false;
  if (first->name != "K" && !parseLocation(first->name) && !tok().is(Token::LSquare)) {
    domain.points = std::move(*first);
    return true;
  }
  if (first->name == "K") {
    domain.hasLevels = true;
    domain.levelsLoc = first->loc;
    return parseRange(domain.levelLower, domain.levelUpper);
  }
  domain.location = std::move(*first);
  if (!parseRange(domain.lower, domain.upper))
    return false;
  if (!consumeIf(Token::Comma))
    return true;
  if (!tok().is(Token::Identifier) || tok().spelling != "K") {
    errorExpected("'K[lo:hi]' after ','");
    return false;
  }
  domain.hasLevels = true;
  domain.levelsLoc = consume().getLoc();
  return parseRange(domain.levelLower, domain.levelUpper);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

ExprPtr Parser::finish(ExprPtr expr) {
  unsigned childDepth = 0;
  auto visit = [&](const Expr *child) {
    if (child)
      childDepth = std::max(childDepth, child->depth);
  };
  switch (expr->getKind()) {
  case Expr::Kind::Name:
    for (const Subscript &subscript : llvm::cast<NameExpr>(*expr).subscripts)
      visit(subscript.levelShift.get());
    break;
  case Expr::Kind::Call:
    for (const ExprPtr &arg : llvm::cast<CallExpr>(*expr).args)
      visit(arg.get());
    break;
  case Expr::Kind::Fold: visit(llvm::cast<FoldExpr>(*expr).body.get()); break;
  case Expr::Kind::Unary: visit(llvm::cast<UnaryExpr>(*expr).operand.get()); break;
  case Expr::Kind::Binary:
    visit(llvm::cast<BinaryExpr>(*expr).lhs.get());
    visit(llvm::cast<BinaryExpr>(*expr).rhs.get());
    break;
  case Expr::Kind::Tuple:
    for (const ExprPtr &element : llvm::cast<TupleExpr>(*expr).elements)
      visit(element.get());
    break;
  default:
    break;
  }
  expr->depth = childDepth + 1;
  if (expr->depth > kMaxNesting) {
    if (!reportedTooDeep)
      diag.error(expr->getLoc(), "expression is nested too deeply (the limit is " +
                                     llvm::Twine(kMaxNesting) + " levels)");
    reportedTooDeep = true;
    return nullptr;
  }
  return expr;
}

ExprPtr Parser::parseStandaloneExpression() {
  ExprPtr expr = parseExpression();
  if (expr && !tok().is(Token::Eof)) {
    errorExpected("end of input");
    return nullptr;
  }
  return expr;
}

ExprPtr Parser::parseExpression() { return parseBinary(1); }

namespace {
struct BinaryOpInfo {
  BinaryExpr::Op op;
  unsigned precedence;
};
} // namespace

static std::optional<BinaryOpInfo> getBinaryOp(Token::Kind kind) {
  using Op = BinaryExpr::Op;
  switch (kind) {
  case Token::PipePipe: return BinaryOpInfo{Op::Or, 1};
  case Token::AmpAmp: return BinaryOpInfo{Op::And, 2};
  case Token::EqualEqual: return BinaryOpInfo{Op::Eq, 3};
  case Token::NotEqual: return BinaryOpInfo{Op::Ne, 3};
  case Token::Less: return BinaryOpInfo{Op::Lt, 3};
  case Token::LessEqual: return BinaryOpInfo{Op::Le, 3};
  case Token::Greater: return BinaryOpInfo{Op::Gt, 3};
  case Token::GreaterEqual: return BinaryOpInfo{Op::Ge, 3};
  case Token::Plus: return BinaryOpInfo{Op::Add, 4};
  case Token::Minus: return BinaryOpInfo{Op::Sub, 4};
  case Token::Star: return BinaryOpInfo{Op::Mul, 5};
  case Token::Slash: return BinaryOpInfo{Op::Div, 5};
  default: return std::nullopt;
  }
}

ExprPtr Parser::parseBinary(unsigned minPrecedence) {
  ExprPtr lhs = parseUnary();
  if (!lhs)
    return nullptr;
  bool lhsIsComparison = false;
  while (auto info = getBinaryOp(tok().kind)) {
    if (info->precedence < minPrecedence)
      break;
    if (isComparison(info->op) && lhsIsComparison) {
      diag.error(tok().getLoc(), "comparisons cannot be chained; combine them with '&&'");
      return nullptr;
    }
    Token opToken = consume();
    ExprPtr rhs = parseBinary(info->precedence + 1);
    if (!rhs)
      return nullptr;
    lhs = finish(std::make_unique<BinaryExpr>(opToken.getLoc(), info->op, std::move(lhs),
                                              std::move(rhs)));
    if (!lhs)
      return nullptr;
    lhsIsComparison = isComparison(info->op);
  }
  return lhs;
}

ExprPtr Parser::parseUnary() {
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return nullptr;
  std::optional<UnaryExpr::Op> op;
  if (tok().is(Token::Minus))
    op = UnaryExpr::Op::Neg;
  else if (tok().is(Token::Bang))
    op = UnaryExpr::Op::Not;
  if (!op)
    return parsePower();
  llvm::SMLoc loc = consume().getLoc();
  ExprPtr operand = parseUnary();
  if (!operand)
    return nullptr;
  return finish(std::make_unique<UnaryExpr>(loc, *op, std::move(operand)));
}

ExprPtr Parser::parsePower() {
  ExprPtr base = parsePrimary();
  if (!base || !tok().is(Token::Caret))
    return base;
  llvm::SMLoc loc = consume().getLoc();
  // Right-associative, and the exponent may carry a sign: a^-2, a^b^c = a^(b^c).
  ExprPtr exponent = parseUnary();
  if (!exponent)
    return nullptr;
  return finish(
      std::make_unique<BinaryExpr>(loc, BinaryExpr::Op::Pow, std::move(base), std::move(exponent)));
}

ExprPtr Parser::parsePrimary() {
  const Token &token = tok();
  switch (token.kind) {
  case Token::Integer: {
    Token literal = consume();
    std::optional<int64_t> value = parseIntegerToken(literal);
    if (!value)
      return nullptr;
    return finish(std::make_unique<IntLiteralExpr>(literal.getLoc(), *value));
  }
  case Token::Float: {
    Token literal = consume();
    std::optional<double> value = parseFloatToken(literal);
    if (!value)
      return nullptr;
    return finish(std::make_unique<FloatLiteralExpr>(literal.getLoc(), *value));
  }
  case Token::KwTrue:
  case Token::KwFalse: {
    Token literal = consume();
    return finish(std::make_unique<BoolLiteralExpr>(literal.getLoc(), literal.is(Token::KwTrue)));
  }
  case Token::Identifier:
  case Token::KwWhere:
    return parseNameOrCall();
  case Token::KwMin:
  case Token::KwMax:
    // `min(C2E) e` folds; `min(a, b)` is the two-argument function.
    if (peek(1).is(Token::LParen) && peek(2).is(Token::Identifier) && peek(3).is(Token::RParen))
      return parseFold(token.is(Token::KwMin) ? FoldExpr::Op::Min : FoldExpr::Op::Max);
    return parseNameOrCall();
  case Token::KwSum: return parseFold(FoldExpr::Op::Sum);
  case Token::KwProd: return parseFold(FoldExpr::Op::Prod);
  case Token::KwEach: return parseFold(FoldExpr::Op::Each);
  case Token::KwIndex: return parseIndex();
  case Token::LParen: return parseParenthesized();
  default:
    errorExpected("an expression");
    return nullptr;
  }
}

bool Parser::parseCallArguments(std::vector<ExprPtr> &args, llvm::SMLoc &rparenLoc) {
  consume(); // '('
  if (!tok().is(Token::RParen)) {
    do {
      ExprPtr arg = parseExpression();
      if (!arg)
        return false;
      args.push_back(std::move(arg));
    } while (consumeIf(Token::Comma));
  }
  rparenLoc = tok().getLoc();
  return expect(Token::RParen, "',' or ')' after an argument");
}

ExprPtr Parser::parseNameOrCall() {
  Token nameToken = consume();
  Identifier name{nameToken.spelling.str(), nameToken.getLoc()};
  if (tok().is(Token::LParen)) {
    std::vector<ExprPtr> args;
    llvm::SMLoc rparenLoc;
    if (!parseCallArguments(args, rparenLoc))
      return nullptr;
    return finish(std::make_unique<CallExpr>(std::move(name), std::move(args), rparenLoc));
  }
  if (!nameToken.is(Token::Identifier)) {
    errorExpected(("'(' after '" + nameToken.spelling + "'").str());
    return nullptr;
  }
  std::vector<Subscript> subscripts;
  if (consumeIf(Token::LSquare)) {
    do {
      if (!parseSubscript(subscripts))
        return nullptr;
    } while (consumeIf(Token::Comma));
    if (!expect(Token::RSquare, "',' or ']' after a subscript"))
      return nullptr;
  }
  return finish(std::make_unique<NameExpr>(std::move(name), std::move(subscripts)));
}

bool Parser::parseSubscript(std::vector<Subscript> &subscripts) {
  Subscript subscript;
  subscript.loc = tok().getLoc();
  if (tok().is(Token::Integer)) {
    subscript.kind = Subscript::Kind::ListEntry;
    std::optional<int64_t> entry = parseIntegerToken(consume());
    if (!entry)
      return false;
    subscript.entry = *entry;
  } else if (tok().is(Token::Identifier) && tok().spelling == "K") {
    consume();
    subscript.kind = Subscript::Kind::Level;
    if (!parseLevelSubscript(subscript))
      return false;
  } else if (tok().is(Token::Identifier)) {
    Token conn = consume();
    subscript.kind = Subscript::Kind::Neighbor;
    subscript.connectivity = Identifier{conn.spelling.str(), conn.getLoc()};
    if (consumeIf(Token::Colon)) {
      if (!tok().is(Token::Integer)) {
        errorExpected("a neighbour slot number after ':'");
        return false;
      }
      std::optional<int64_t> slot = parseIntegerToken(consume());
      if (!slot)
        return false;
      subscript.slot = *slot;
    }
  } else {
    errorExpected("a neighbour (E2C:1), a level (K-1) or a list entry (2) inside '[...]'");
    return false;
  }
  subscripts.push_back(std::move(subscript));
  return true;
}

bool Parser::parseLevelSubscript(Subscript &subscript) {
  // `K`, `K-1`, `K + off`, `K + off + 1`: literal terms form the constant
  // offset, the others the data-dependent shift.
  while (tok().is(Token::Plus) || tok().is(Token::Minus)) {
    Token sign = consume();
    bool negative = sign.is(Token::Minus);
    ExprPtr term = parseBinary(5);
    if (!term)
      return false;
    if (auto *literal = llvm::dyn_cast<IntLiteralExpr>(term.get())) {
      subscript.levelOffset += negative ? -literal->value : literal->value;
      if (std::abs(subscript.levelOffset) > std::numeric_limits<int32_t>::max()) {
        diag.error(literal->getLoc(), "level offset is too large");
        return false;
      }
      continue;
    }
    if (!subscript.levelShift) {
      subscript.levelShift =
          negative ? finish(std::make_unique<UnaryExpr>(sign.getLoc(), UnaryExpr::Op::Neg,
                                                        std::move(term)))
                   : std::move(term);
    } else {
      subscript.levelShift = finish(std::make_unique<BinaryExpr>(
          sign.getLoc(), negative ? BinaryExpr::Op::Sub : BinaryExpr::Op::Add,
          std::move(subscript.levelShift), std::move(term)));
    }
    if (!subscript.levelShift)
      return false;
  }
  return true;
}

ExprPtr Parser::parseFold(FoldExpr::Op op) {
  llvm::SMLoc loc = consume().getLoc();
  if (!expect(Token::LParen, "'(' and a connectivity"))
    return nullptr;
  auto conn = expectIdentifier("a connectivity");
  if (!conn || !expect(Token::RParen, "')' after the connectivity"))
    return nullptr;
  ExprPtr body = parseExpression();
  if (!body)
    return nullptr;
  return finish(std::make_unique<FoldExpr>(loc, op, std::move(*conn), std::move(body)));
}

ExprPtr Parser::parseIndex() {
  llvm::SMLoc loc = consume().getLoc();
  if (!expect(Token::LParen, "'(' after 'index'"))
    return nullptr;
  auto dimension = expectIdentifier("Cell, Edge, Vertex or K");
  if (!dimension || !expect(Token::RParen, "')' after the dimension"))
    return nullptr;
  return finish(std::make_unique<IndexExpr>(loc, std::move(*dimension)));
}

ExprPtr Parser::parseParenthesized() {
  llvm::SMLoc loc = consume().getLoc();
  ExprPtr first = parseExpression();
  if (!first)
    return nullptr;
  if (consumeIf(Token::RParen))
    return first;
  if (!tok().is(Token::Comma)) {
    errorExpected("')'");
    return nullptr;
  }
  std::vector<ExprPtr> elements;
  elements.push_back(std::move(first));
  while (consumeIf(Token::Comma)) {
    ExprPtr element = parseExpression();
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  if (!expect(Token::RParen, "',' or ')'"))
    return nullptr;
  return finish(std::make_unique<TupleExpr>(loc, std::move(elements)));
}
