//===- Sema.h - name resolution and type checking of .stn ---------*- C++ -*-===//
//
// Sema resolves every name of a parsed translation unit, computes the type of
// every expression and checks the rules of docs/language.md. It writes its
// results into the AST (the fields marked "Set by Sema"); MLIRGen relies on a
// tree that passed Sema without errors.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_COMPILER_SEMA_H
#define FUSEC_COMPILER_SEMA_H

#include "compiler/AST.h"
#include "compiler/Defines.h"
#include "compiler/Diagnostics.h"

#include "llvm/ADT/StringMap.h"

#include <vector>

namespace fusec {

class Sema {
public:
  /// Longest chain of stencils calling stencils.
  static constexpr unsigned kMaxCallDepth = 64;

  Sema(DiagnosticEngine &diag, const std::vector<Define> &defines)
      : diag(diag), defines(defines) {}

  /// Checks `unit`; false when an error was reported.
  bool check(ast::TranslationUnit &unit);

private:
  //===--- Declarations (Sema.cpp) ---===//
  void declareGlobals();
  bool isReservedName(llvm::StringRef name) const;
  /// Reports a local name that is reserved or clashes with a global.
  bool checkLocalName(const ast::Identifier &name);
  void resolvePrecisions();
  void resolveConnectivities();
  void applyDefines();
  ast::SemType resolveType(const ast::TypeSyntax &syntax);
  std::optional<ast::ScalarKind> resolveScalarType(const ast::Identifier &name);
  void resolveStencilSignature(ast::StencilDecl &stencil);
  void checkRecursion();
  void checkStencilBody(ast::StencilDecl &stencil);
  void checkLet(ast::LetStmt &let);
  void checkReturn(ast::ReturnStmt &ret);
  void checkProgram(ast::ProgramDecl &program, bool stencilsValid);
  void checkProgramBody(std::vector<ast::StmtPtr> &body, bool topLevel);
  void checkAssignment(ast::AssignStmt &assign);
  void checkDomain(ast::AssignStmt &assign, const ast::StencilDecl &stencil);
  void checkPointsDomain(ast::Domain &domain, const ast::StencilDecl &stencil);
  void checkExchange(ast::ExchangeStmt &exchange);
  bool declareLocal(ast::ValueDecl &decl);

  //===--- Expressions (SemaExpr.cpp) ---===//
public:
  /// What Sema knows about an expression while checking it.
  struct ExprInfo {
    bool valid = false;
    ast::ScalarKind type = ast::ScalarKind::F64;
    /// A literal expression whose type its context decides.
    enum class Literal { None, Int, Float } literal = Literal::None;
    /// Computed from scalar parameters and literals only.
    bool uniform = true;

    static ExprInfo invalid() { return ExprInfo(); }
  };

private:
  ExprInfo checkExpr(ast::Expr &expr);
  ExprInfo checkName(ast::NameExpr &expr);
  ExprInfo checkCall(ast::CallExpr &expr);
  ExprInfo checkBuiltinCall(ast::CallExpr &expr);
  ExprInfo checkFold(ast::FoldExpr &expr);
  ExprInfo checkIndex(ast::IndexExpr &expr);
  ExprInfo checkUnary(ast::UnaryExpr &expr);
  ExprInfo checkBinary(ast::BinaryExpr &expr);
  /// Checks a call of a stencil inside a stencil (`inline`: its value is used
  /// at the current point, rather than bound by a let).
  bool checkStencilCall(ast::CallExpr &call, bool isInline);
  /// Checks the arguments of a stencil call against the callee's parameters.
  bool checkStencilArguments(ast::CallExpr &call);
  bool checkFieldArgument(ast::CallExpr &call, unsigned index);
  bool checkProgramFieldArgument(ast::CallExpr &call, unsigned index);
  /// Reads a field-like value (parameter or let) as `expr` says.
  ExprInfo checkFieldRead(ast::NameExpr &expr, const ast::SemType &type, llvm::StringRef what);
  bool checkLevelSubscript(ast::NameExpr &expr, const ast::SemType &type);

  /// Gives a literal expression the type `type`; false (with an error) when a
  /// typed expression has another type.
  bool coerce(ast::Expr &expr, ExprInfo &info, ast::ScalarKind type, llvm::StringRef context);
  /// Gives an untyped literal its default type (i32 or f64).
  void finalize(ast::Expr &expr, ExprInfo &info);
  /// Makes two operands agree on a type (literals adapt).
  bool unify(ast::Expr &lhs, ExprInfo &lhsInfo, ast::Expr &rhs, ExprInfo &rhsInfo,
             llvm::SMLoc loc, llvm::StringRef what, ExprInfo &result);
  ast::ValueDecl *lookupValue(llvm::StringRef name);
  void reportUnknownName(const ast::Identifier &name);
  const ast::ConnectivityDecl *lookupConnectivity(const ast::Identifier &name);
  /// Checks that `conn` starts at the current point.
  bool checkConnectivityStart(const ast::ConnectivityDecl &conn, llvm::SMLoc loc);

  DiagnosticEngine &diag;
  const std::vector<Define> &defines;
  ast::TranslationUnit *unit = nullptr;
  llvm::StringMap<ast::Decl *> globals;
  /// Names visible in the stencil or program being checked.
  llvm::StringMap<ast::ValueDecl *> locals;
  /// The stencil being checked (null in programs).
  ast::StencilDecl *currentStencil = nullptr;
  ast::ProgramDecl *currentProgram = nullptr;
  bool callGraphIsAcyclic = false;
  /// Whether applications are checked for reads outside the levels.
  bool checkLevelReach = false;
  /// Enclosing folds and each-lists, innermost last.
  std::vector<const ast::FoldExpr *> folds;
};

/// Whether a field argument of a stencil call is passed as it is (a field,
/// a let's temporary or the result of another call) rather than computed by
/// an application of its own.
bool isPassedAsField(const ast::Expr &arg);

} // namespace fusec

#endif // FUSEC_COMPILER_SEMA_H
