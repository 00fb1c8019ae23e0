//===- AST.h - abstract syntax tree of the .stn language ----------*- C++ -*-===//
//
// The parser builds these nodes; Sema resolves names and types in place (the
// fields marked "Set by Sema"), and MLIRGen reads the checked tree.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_COMPILER_AST_H
#define FUSEC_COMPILER_AST_H

#include "compiler/Types.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fusec::ast {

struct Identifier {
  std::string name;
  llvm::SMLoc loc;
};

/// A type as written: `f64`, `wp` or `field<Edge, E2C2V, K, wp>` (the
/// dimensions and the element type, in order, in `parts`).
struct TypeSyntax {
  llvm::SMLoc loc;
  bool isField = false;
  bool isPoints = false; // `points<Cell, K>`
  std::vector<Identifier> parts;
};

struct StencilDecl;
struct FoldExpr;

//===----------------------------------------------------------------------===//
// Named values: parameters, lets, vars and the built-in nlev
//===----------------------------------------------------------------------===//

struct ValueDecl {
  enum class Kind { Param, Let, Var, Nlev };

  ValueDecl(Kind kind, Identifier name) : kind(kind), name(std::move(name)) {}
  virtual ~ValueDecl() = default;
  Kind getKind() const { return kind; }

  Kind kind;
  Identifier name;
  /// Set by Sema (for lets: the temporary field the value would be).
  SemType type;
};

enum class Intent { In, Out, InOut };

struct ParamDecl : ValueDecl {
  ParamDecl(Identifier name, TypeSyntax typeSyntax, Intent intent, bool intentWritten)
      : ValueDecl(Kind::Param, std::move(name)), typeSyntax(std::move(typeSyntax)),
        intent(intent), intentWritten(intentWritten) {}
  static bool classof(const ValueDecl *decl) { return decl->getKind() == Kind::Param; }

  TypeSyntax typeSyntax;
  Intent intent;
  bool intentWritten;
  unsigned index = 0;
  /// Set by Sema: the value fixed with -D (program scalars only).
  std::optional<Constant> fixedValue;
};

struct VarDecl : ValueDecl {
  VarDecl(Identifier name, TypeSyntax typeSyntax)
      : ValueDecl(Kind::Var, std::move(name)), typeSyntax(std::move(typeSyntax)) {}
  static bool classof(const ValueDecl *decl) { return decl->getKind() == Kind::Var; }

  TypeSyntax typeSyntax;
};

struct LetStmt;

/// How a let is realised.
enum class LetForm {
  Value,      // an SSA value inside the apply that uses it
  Temporary,  // read at a neighbour or another level, or passed to a call: its own apply
  CallResult, // an output of a stencil call: the callee's apply
  List,       // each(X) e: one value per neighbour slot
};

struct LetDecl : ValueDecl {
  LetDecl(Identifier name, LetStmt *stmt, unsigned resultIndex)
      : ValueDecl(Kind::Let, std::move(name)), stmt(stmt), resultIndex(resultIndex) {}
  static bool classof(const ValueDecl *decl) { return decl->getKind() == Kind::Let; }

  LetStmt *stmt;
  unsigned resultIndex;
  // Set by Sema.
  LetForm form = LetForm::Value;
  /// Where the value lives (the callee's outputs for call results).
  Space space;
  /// For lists: the connectivity and the number of entries.
  const struct ConnectivityDecl *listConnectivity = nullptr;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

struct Expr {
  enum class Kind {
    IntLiteral,
    FloatLiteral,
    BoolLiteral,
    Name,
    Call,
    Fold,
    Index,
    Unary,
    Binary,
    Tuple
  };

  Expr(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
  virtual ~Expr() = default;
  Kind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return loc; }

  Kind kind;
  llvm::SMLoc loc;
  /// Height of the tree below this node (the parser limits it).
  unsigned depth = 1;
  /// Set by Sema: the type of the value at one point.
  ScalarKind type = ScalarKind::F64;
};
using ExprPtr = std::unique_ptr<Expr>;

struct IntLiteralExpr : Expr {
  IntLiteralExpr(llvm::SMLoc loc, int64_t value) : Expr(Kind::IntLiteral, loc), value(value) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::IntLiteral; }
  int64_t value;
};

struct FloatLiteralExpr : Expr {
  FloatLiteralExpr(llvm::SMLoc loc, double value) : Expr(Kind::FloatLiteral, loc), value(value) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::FloatLiteral; }
  double value;
};

struct BoolLiteralExpr : Expr {
  BoolLiteralExpr(llvm::SMLoc loc, bool value) : Expr(Kind::BoolLiteral, loc), value(value) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolLiteral; }
  bool value;
};

/// One entry of `f[...]`: `E2C:1`, `C2E` (the current neighbour of a fold),
/// `K-1` / `K + e` (a level), or `2` (an entry of an each-list).
struct Subscript {
  enum class Kind { Neighbor, Level, ListEntry };
  Kind kind;
  llvm::SMLoc loc;
  Identifier connectivity;          // Neighbor
  std::optional<int64_t> slot;      // Neighbor: `E2C:1`
  int64_t levelOffset = 0;          // Level: the constant part
  std::unique_ptr<Expr> levelShift; // Level: the data-dependent part, or null
  int64_t entry = 0;                // ListEntry
};

/// A named value, optionally subscripted: `vn`, `vn[E2C:1, K-1]`, `v[2]`.
struct NameExpr : Expr {
  NameExpr(Identifier name, std::vector<Subscript> subscripts)
      : Expr(Kind::Name, name.loc), name(std::move(name)), subscripts(std::move(subscripts)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

  Identifier name;
  std::vector<Subscript> subscripts;

  // Set by Sema.
  ValueDecl *decl = nullptr;
  /// The connectivity of a neighbour read, or null for the current point.
  const struct ConnectivityDecl *neighborConnectivity = nullptr;
  /// The slot of a neighbour read; none for the current neighbour of `fold`.
  std::optional<int64_t> slot;
  /// The fold or each whose current neighbour is read (`f[C2E]`, or a field
  /// sparse over C2E named alone inside a fold over C2E).
  const FoldExpr *fold = nullptr;
  int64_t levelOffset = 0;
  const Expr *levelShift = nullptr;
  /// The entry of an each-list.
  std::optional<int64_t> listEntry;
};

struct CallExpr : Expr {
  enum class Callee { Unresolved, Stencil, Sqrt, Exp, Log, Abs, Floor, Ceil, Min, Max, Where, Cast };

  CallExpr(Identifier callee, std::vector<ExprPtr> args, llvm::SMLoc rparenLoc)
      : Expr(Kind::Call, callee.loc), callee(std::move(callee)), args(std::move(args)),
        rparenLoc(rparenLoc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

  Identifier callee;
  std::vector<ExprPtr> args;
  llvm::SMLoc rparenLoc;

  // Set by Sema.
  Callee calleeKind = Callee::Unresolved;
  StencilDecl *stencil = nullptr;
  ScalarKind castTarget = ScalarKind::F64;
};

/// `sum(C2E) e` and friends, and `each(C2E) e`.
struct FoldExpr : Expr {
  enum class Op { Sum, Min, Max, Prod, Each };

  FoldExpr(llvm::SMLoc loc, Op op, Identifier connectivity, ExprPtr body)
      : Expr(Kind::Fold, loc), op(op), connectivity(std::move(connectivity)),
        body(std::move(body)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Fold; }

  Op op;
  Identifier connectivity;
  ExprPtr body;
  // Set by Sema.
  const struct ConnectivityDecl *resolved = nullptr;
};

/// `index(Cell)` or `index(K)`.
struct IndexExpr : Expr {
  IndexExpr(llvm::SMLoc loc, Identifier dimension)
      : Expr(Kind::Index, loc), dimension(std::move(dimension)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Index; }

  Identifier dimension;
  // Set by Sema: the horizontal location, or none for K.
  std::optional<Location> location;
};

struct UnaryExpr : Expr {
  enum class Op { Neg, Not };
  UnaryExpr(llvm::SMLoc loc, Op op, ExprPtr operand)
      : Expr(Kind::Unary, loc), op(op), operand(std::move(operand)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }

  Op op;
  ExprPtr operand;
};

struct BinaryExpr : Expr {
  enum class Op { Add, Sub, Mul, Div, Pow, Eq, Ne, Lt, Le, Gt, Ge, And, Or };
  BinaryExpr(llvm::SMLoc loc, Op op, ExprPtr lhs, ExprPtr rhs)
      : Expr(Kind::Binary, loc), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }

  Op op;
  ExprPtr lhs, rhs;
};

/// Calls `fn` on `expr` and every expression below it, parents first.
void walk(const Expr &expr, llvm::function_ref<void(const Expr &)> fn);

llvm::StringRef binaryOpSpelling(BinaryExpr::Op op);
bool isComparison(BinaryExpr::Op op);

/// `(a, b)`: only valid as the value of `return`.
struct TupleExpr : Expr {
  TupleExpr(llvm::SMLoc loc, std::vector<ExprPtr> elements)
      : Expr(Kind::Tuple, loc), elements(std::move(elements)) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }

  std::vector<ExprPtr> elements;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

struct Stmt {
  enum class Kind { Let, Return, Var, Assign, Exchange, If };
  Stmt(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }

  Kind kind;
  llvm::SMLoc loc;
};
using StmtPtr = std::unique_ptr<Stmt>;

struct LetStmt : Stmt {
  LetStmt(llvm::SMLoc loc) : Stmt(Kind::Let, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Let; }

  std::vector<std::unique_ptr<LetDecl>> names;
  ExprPtr value;
};

struct ReturnStmt : Stmt {
  ReturnStmt(llvm::SMLoc loc, std::vector<ExprPtr> values)
      : Stmt(Kind::Return, loc), values(std::move(values)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }

  std::vector<ExprPtr> values;
};

struct VarStmt : Stmt {
  VarStmt(llvm::SMLoc loc, std::unique_ptr<VarDecl> var)
      : Stmt(Kind::Var, loc), var(std::move(var)) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Var; }

  std::unique_ptr<VarDecl> var;
};

/// `@ Edge[lo:hi], K[lo:hi]`, `@ Edge[lo:hi]`, `@ K[lo:hi]` or `@ list` (a
/// `points` parameter).
struct Domain {
  llvm::SMLoc loc;
  std::optional<Identifier> points;
  std::optional<Identifier> location;
  ExprPtr lower, upper;
  bool hasLevels = false;
  llvm::SMLoc levelsLoc;
  ExprPtr levelLower, levelUpper;
  // Set by Sema.
  std::optional<Location> resolvedLocation;
  const struct ParamDecl *pointsDecl = nullptr;
};

struct AssignStmt : Stmt {
  AssignStmt(llvm::SMLoc loc) : Stmt(Kind::Assign, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }

  std::vector<Identifier> targets;
  std::unique_ptr<CallExpr> call;
  Domain domain;
  // Set by Sema.
  std::vector<ValueDecl *> targetDecls;
};

struct ExchangeStmt : Stmt {
  ExchangeStmt(llvm::SMLoc loc) : Stmt(Kind::Exchange, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Exchange; }

  std::vector<Identifier> fields;
  // Set by Sema.
  std::vector<ValueDecl *> decls;
};

struct IfStmt : Stmt {
  IfStmt(llvm::SMLoc loc) : Stmt(Kind::If, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }

  ExprPtr condition;
  std::vector<StmtPtr> thenBody, elseBody;
};

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

struct Decl {
  enum class Kind { Import, Precision, Connectivity, Stencil, Program };
  Decl(Kind kind, Identifier name) : kind(kind), name(std::move(name)) {}
  virtual ~Decl() = default;
  Kind getKind() const { return kind; }
  /// `stencil`, `program`, ... for messages.
  llvm::StringRef getKindName() const;

  Kind kind;
  Identifier name;
};
using DeclPtr = std::unique_ptr<Decl>;

struct ImportDecl : Decl {
  ImportDecl(llvm::SMLoc loc, std::string path)
      : Decl(Kind::Import, Identifier{"", loc}), path(std::move(path)) {}
  static bool classof(const Decl *d) { return d->getKind() == Kind::Import; }
  std::string path;
};

struct PrecisionDecl : Decl {
  PrecisionDecl(Identifier name, Identifier type)
      : Decl(Kind::Precision, std::move(name)), type(std::move(type)) {}
  static bool classof(const Decl *d) { return d->getKind() == Kind::Precision; }

  Identifier type;
  // Set by Sema (after -D overrides).
  ScalarKind resolved = ScalarKind::F64;
};

struct ConnectivityDecl : Decl {
  ConnectivityDecl(Identifier name, Identifier source, Identifier target, int64_t size,
                   llvm::SMLoc sizeLoc, bool skip)
      : Decl(Kind::Connectivity, std::move(name)), source(std::move(source)),
        target(std::move(target)), size(size), sizeLoc(sizeLoc), skip(skip) {}
  static bool classof(const Decl *d) { return d->getKind() == Kind::Connectivity; }

  Identifier source, target;
  int64_t size;
  llvm::SMLoc sizeLoc;
  bool skip;
  // Set by Sema.
  Location from = Location::Cell, to = Location::Cell;
};

struct OutputDecl {
  Identifier name; // empty for `-> T`
  TypeSyntax typeSyntax;
  // Set by Sema.
  SemType type;
};

struct StencilDecl : Decl {
  StencilDecl(Identifier name) : Decl(Kind::Stencil, std::move(name)) {}
  static bool classof(const Decl *d) { return d->getKind() == Kind::Stencil; }

  std::vector<std::unique_ptr<ParamDecl>> params;
  std::vector<OutputDecl> outputs;
  std::vector<StmtPtr> body;
  // Set by Sema: where the outputs live (every output shares it).
  Space space;
};

struct ProgramDecl : Decl {
  ProgramDecl(Identifier name) : Decl(Kind::Program, std::move(name)) {}
  static bool classof(const Decl *d) { return d->getKind() == Kind::Program; }

  std::vector<std::unique_ptr<ParamDecl>> params;
  std::vector<StmtPtr> body;
};

/// One parsed file.
struct SourceFile {
  std::string path;
  unsigned bufferId = 0;
  std::vector<DeclPtr> decls;
};

/// The file given on the command line and everything it imports, imported
/// files first (each file once).
struct TranslationUnit {
  std::vector<std::unique_ptr<SourceFile>> files;
  /// The file whose programs are compiled.
  SourceFile *mainFile = nullptr;
  /// The built-in `nlev` of programs.
  ValueDecl nlev{ValueDecl::Kind::Nlev, Identifier{"nlev", {}}};
  /// Set by Sema: `nlev` fixed with -D.
  std::optional<int64_t> fixedNlev;
};

} // namespace fusec::ast

#endif // FUSEC_COMPILER_AST_H
