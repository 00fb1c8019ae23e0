//===- AST.cpp - abstract syntax tree of the .stn language ----------------===//

#include "compiler/AST.h"

using namespace fusec::ast;

void fusec::ast::walk(const Expr &expr, llvm::function_ref<void(const Expr &)> fn) {
  fn(expr);
  switch (expr.getKind()) {
  case Expr::Kind::Name:
    for (const Subscript &subscript : llvm::cast<NameExpr>(expr).subscripts)
      if (subscript.levelShift)
        walk(*subscript.levelShift, fn);
    break;
  case Expr::Kind::Call:
    for (const ExprPtr &arg : llvm::cast<CallExpr>(expr).args)
      walk(*arg, fn);
    break;
  case Expr::Kind::Fold: walk(*llvm::cast<FoldExpr>(expr).body, fn); break;
  case Expr::Kind::Unary: walk(*llvm::cast<UnaryExpr>(expr).operand, fn); break;
  case Expr::Kind::Binary:
    walk(*llvm::cast<BinaryExpr>(expr).lhs, fn);
    walk(*llvm::cast<BinaryExpr>(expr).rhs, fn);
    break;
  case Expr::Kind::Tuple:
    for (const ExprPtr &element : llvm::cast<TupleExpr>(expr).elements)
      walk(*element, fn);
    break;
  default:
    break;
  }
}

llvm::StringRef fusec::ast::binaryOpSpelling(BinaryExpr::Op op) {
  switch (op) {
  case BinaryExpr::Op::Add: return "+";
  case BinaryExpr::Op::Sub: return "-";
  case BinaryExpr::Op::Mul: return "*";
  case BinaryExpr::Op::Div: return "/";
  case BinaryExpr::Op::Pow: return "^";
  case BinaryExpr::Op::Eq: return "==";
  case BinaryExpr::Op::Ne: return "!=";
  case BinaryExpr::Op::Lt: return "<";
  case BinaryExpr::Op::Le: return "<=";
  case BinaryExpr::Op::Gt: return ">";
  case BinaryExpr::Op::Ge: return ">=";
  case BinaryExpr::Op::And: return "&&";
  case BinaryExpr::Op::Or: return "||";
  }
  return "?";
}

bool fusec::ast::isComparison(BinaryExpr::Op op) {
  return op >= BinaryExpr::Op::Eq && op <= BinaryExpr::Op::Ge;
}

llvm::StringRef Decl::getKindName() const {
  switch (kind) {
  case Kind::Import: return "import";
  case Kind::Precision: return "precision";
  case Kind::Connectivity: return "connectivity";
  case Kind::Stencil: return "stencil";
  case Kind::Program: return "program";
  }
  return "declaration";
}
