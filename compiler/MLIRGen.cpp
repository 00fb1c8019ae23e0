//===- MLIRGen.cpp - from the checked AST to the stn dialect --------------===//
//
// Programs become stn.program ops whose bodies apply stencils in order. A
// stencil call is instantiated at its call site: the temporaries it needs
// (lets bound to calls, lets read at neighbours or other levels, expression
// arguments of calls) become applies of their own, inserted before the apply
// that computes the stencil's outputs. Lets used only at the current point are
// SSA values inside each apply that reads them.
//
//===----------------------------------------------------------------------===//

#include "compiler/MLIRGen.h"
#include "compiler/ConstantEval.h"
#include "compiler/Sema.h"

#include "ir/StnOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <set>

using namespace mlir;
using namespace fusec;
using namespace fusec::ast;
namespace stn = fusec::stn;

namespace {

/// One call of a stencil: what its parameters are bound to, and the
/// temporaries computed for it so far.
struct StencilInstance {
  const StencilDecl *stencil = nullptr;
  /// Program-level values: fields, temporaries or scalars.
  llvm::DenseMap<const ParamDecl *, Value> params;
  /// Temporaries of lets (materialised lets and call results).
  llvm::DenseMap<const LetDecl *, Value> temps;
  /// Results of stencil calls made by this instance.
  llvm::DenseMap<const CallExpr *, SmallVector<Value, 2>> calls;
};

/// The neighbour a fold or each-entry is at.
struct FoldFrame {
  Value slot;     // index
  Value neighbor; // !stn.point
};

/// The apply region being filled.
struct RegionState {
  Value point; // null for vertical-only applies
  llvm::DenseMap<const LetDecl *, Value> lets;
  llvm::DenseMap<std::pair<const LetDecl *, int64_t>, Value> listEntries;
  llvm::DenseMap<const FoldExpr *, FoldFrame> folds;
};

/// Where an expression is evaluated: at program level of a program (no
/// instance), at program level of a stencil instance (its scalar arguments),
/// or inside an apply region.
struct Scope {
  StencilInstance *instance = nullptr;
  RegionState *region = nullptr;
};

struct DomainValues {
  Value hlb, hub, klb, kub;
  Value points; // a point list instead of the ranges
};

class MLIRGenerator {
public:
  MLIRGenerator(MLIRContext &context, const TranslationUnit &unit,
                const llvm::SourceMgr &sourceMgr)
      : context(context), unit(unit), sourceMgr(sourceMgr), builder(&context) {}

  OwningOpRef<ModuleOp> generate();

private:
  // Types and locations.
  mlir::Location loc(llvm::SMLoc where);
  Type scalarType(ScalarKind kind);
  Type fieldType(const SemType &type);
  stn::TempType tempType(const Space &space, ScalarKind element);
  static std::optional<stn::GridLocation> gridLocation(std::optional<ast::Location> location);

  // Programs.
  void emitConnectivity(const ConnectivityDecl &conn);
  void emitProgram(const ProgramDecl &program);
  void emitProgramBody(const std::vector<StmtPtr> &body);
  void emitAssignment(const AssignStmt &assign);
  void emitIf(const IfStmt &ifStmt);
  Value getNlev();

  // Stencil instances.
  SmallVector<Value, 2> instantiate(const StencilDecl &stencil,
                                    llvm::DenseMap<const ParamDecl *, Value> params,
                                    const DomainValues *domain, mlir::Location where);
  SmallVector<Value, 2> emitStencilCall(const CallExpr &call, StencilInstance &caller);
  Value emitFieldArgument(const Expr &arg, const StencilDecl &callee, const ParamDecl &param,
                          StencilInstance &caller);
  /// Creates an apply at the program insertion point whose region yields the
  /// values of `exprs`.
  stn::ApplyOp createApply(mlir::Location where, llvm::StringRef name, TypeRange resultTypes,
                           const Space &space, const DomainValues *domain,
                           StencilInstance &instance, llvm::ArrayRef<const Expr *> exprs);
  /// Emits, in statement order, the lets that `exprs` read as SSA values.
  void emitNeededLets(llvm::ArrayRef<const Expr *> exprs, StencilInstance &instance,
                      OpBuilder &b, RegionState &region);

  // Expressions.
  Value emitExpr(const Expr &expr, OpBuilder &b, Scope scope);
  Value emitName(const NameExpr &expr, OpBuilder &b, Scope scope);
  Value emitLoad(Value source, const NameExpr &expr, OpBuilder &b, Scope scope);
  Value emitCall(const CallExpr &expr, OpBuilder &b, Scope scope);
  Value emitFold(const FoldExpr &expr, OpBuilder &b, Scope scope);
  Value emitEachEntry(const FoldExpr &each, int64_t entry, OpBuilder &b, Scope scope);
  Value emitBinary(const BinaryExpr &expr, OpBuilder &b, Scope scope);
  Value emitConstant(OpBuilder &b, mlir::Location where, ScalarKind type, double floatValue,
                     int64_t intValue);
  Value emitIndexConstant(OpBuilder &b, mlir::Location where, int64_t value);

  MLIRContext &context;
  const TranslationUnit &unit;
  const llvm::SourceMgr &sourceMgr;
  /// The program-level builder. While an apply's region is filled, it
  /// inserts before that apply, so that the applies and scalars the region
  /// needs are computed first.
  OpBuilder builder;
  ModuleOp module;
  // Per program.
  llvm::DenseMap<const ValueDecl *, Value> programValues;
  Block *programBlock = nullptr;
  Value nlev;
};

} // namespace

//===----------------------------------------------------------------------===//
// Types and locations
//===----------------------------------------------------------------------===//

mlir::Location MLIRGenerator::loc(llvm::SMLoc where) {
  unsigned bufferId = sourceMgr.FindBufferContainingLoc(where);
  if (!bufferId)
    return UnknownLoc::get(&context);
  auto [line, column] = sourceMgr.getLineAndColumn(where, bufferId);
  return FileLineColLoc::get(&context,
                             sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier(), line,
                             column);
}

Type MLIRGenerator::scalarType(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F64: return builder.getF64Type();
  case ScalarKind::F32: return builder.getF32Type();
  case ScalarKind::I32: return builder.getI32Type();
  case ScalarKind::Bool: return builder.getI1Type();
  }
  return {};
}

std::optional<stn::GridLocation>
MLIRGenerator::gridLocation(std::optional<ast::Location> location) {
  if (!location)
    return std::nullopt;
  switch (*location) {
  case ast::Location::Cell: return stn::GridLocation::Cell;
  case ast::Location::Edge: return stn::GridLocation::Edge;
  case ast::Location::Vertex: return stn::GridLocation::Vertex;
  }
  return std::nullopt;
}

static stn::VerticalKind verticalKind(Vertical vertical) {
  switch (vertical) {
  case Vertical::None: return stn::VerticalKind::None;
  case Vertical::Full: return stn::VerticalKind::Full;
  case Vertical::Half: return stn::VerticalKind::Half;
  }
  return stn::VerticalKind::None;
}

Type MLIRGenerator::fieldType(const SemType &type) {
  if (type.isScalar())
    return scalarType(type.element);
  if (type.isPoints())
    return stn::PointsType::get(&context, *gridLocation(type.location));
  llvm::StringRef sparse = type.sparse ? llvm::StringRef(type.sparse->name.name) : "";
  int64_t sparseSize = type.sparse ? type.sparse->size : 0;
  return stn::FieldType::get(&context, gridLocation(type.location), sparse, sparseSize,
                             verticalKind(type.vertical), scalarType(type.element));
}

stn::TempType MLIRGenerator::tempType(const Space &space, ScalarKind element) {
  return stn::TempType::get(&context, gridLocation(space.location), "", 0,
                            verticalKind(space.vertical), scalarType(element));
}

//===----------------------------------------------------------------------===//
// Module and programs
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> MLIRGenerator::generate() {
  mlir::Location moduleLoc = unit.mainFile
                                 ? FileLineColLoc::get(&context, unit.mainFile->path, 1, 1)
                                 : mlir::Location(UnknownLoc::get(&context));
  OwningOpRef<ModuleOp> owned = ModuleOp::create(moduleLoc);
  module = *owned;
  builder.setInsertionPointToEnd(module.getBody());
  for (const auto &file : unit.files)
    for (const DeclPtr &decl : file->decls)
      if (const auto *conn = llvm::dyn_cast<ConnectivityDecl>(decl.get()))
        emitConnectivity(*conn);
  if (unit.mainFile)
    for (const DeclPtr &decl : unit.mainFile->decls)
      if (const auto *program = llvm::dyn_cast<ProgramDecl>(decl.get()))
        emitProgram(*program);
  return owned;
}

void MLIRGenerator::emitConnectivity(const ConnectivityDecl &conn) {
  builder.create<stn::ConnectivityOp>(loc(conn.name.loc), conn.name.name,
                                      *gridLocation(conn.from), *gridLocation(conn.to),
                                      static_cast<uint64_t>(conn.size), conn.skip);
}

void MLIRGenerator::emitProgram(const ProgramDecl &program) {
  SmallVector<Type> argTypes;
  SmallVector<Attribute> argAttrs;
  for (const auto &param : program.params) {
    argTypes.push_back(fieldType(param->type));
    SmallVector<NamedAttribute, 2> attrs{
        builder.getNamedAttr(stn::ProgramOp::kNameAttr, builder.getStringAttr(param->name.name))};
    if (param->type.isField()) {
      stn::Intent intent = param->intent == Intent::Out     ? stn::Intent::Out
                           : param->intent == Intent::InOut ? stn::Intent::InOut
                                                            : stn::Intent::In;
      attrs.push_back(builder.getNamedAttr(
          stn::ProgramOp::kIntentAttr, builder.getI32IntegerAttr(static_cast<int32_t>(intent))));
    }
    argAttrs.push_back(builder.getDictionaryAttr(attrs));
  }
  auto op = builder.create<stn::ProgramOp>(
      loc(program.name.loc), program.name.name, builder.getFunctionType(argTypes, {}),
      builder.getArrayAttr(argAttrs), ArrayAttr());
  programBlock = new Block();
  op.getBody().push_back(programBlock);
  programValues.clear();
  nlev = nullptr;

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(programBlock);
  for (const auto &param : program.params) {
    Value arg = programBlock->addArgument(fieldType(param->type), loc(param->name.loc));
    // A parameter fixed with -D keeps its place in the signature; its
    // run-time value is ignored.
    if (param->fixedValue)
      programValues[param.get()] =
          emitConstant(builder, loc(param->name.loc), param->type.element,
                       param->fixedValue->floatValue, param->fixedValue->intValue);
    else
      programValues[param.get()] = arg;
  }
  emitProgramBody(program.body);
  builder.create<stn::ReturnOp>(loc(program.name.loc));
}

Value MLIRGenerator::getNlev() {
  if (nlev)
    return nlev;
  OpBuilder b = OpBuilder::atBlockBegin(programBlock);
  mlir::Location where = UnknownLoc::get(&context);
  if (unit.fixedNlev)
    nlev = emitConstant(b, where, ScalarKind::I32, 0, *unit.fixedNlev);
  else
    nlev = b.create<stn::NumLevelsOp>(where, b.getI32Type());
  return nlev;
}

void MLIRGenerator::emitProgramBody(const std::vector<StmtPtr> &body) {
  for (const StmtPtr &stmt : body) {
    switch (stmt->getKind()) {
    case Stmt::Kind::Var: {
      const VarDecl &var = *llvm::cast<VarStmt>(*stmt).var;
      auto alloc = builder.create<stn::AllocOp>(loc(stmt->loc), fieldType(var.type),
                                                builder.getStringAttr(var.name.name));
      programValues[&var] = alloc;
      break;
    }
    case Stmt::Kind::Assign: emitAssignment(llvm::cast<AssignStmt>(*stmt)); break;
    case Stmt::Kind::Exchange: {
      SmallVector<Value> fields;
      for (const ValueDecl *decl : llvm::cast<ExchangeStmt>(*stmt).decls)
        fields.push_back(programValues.lookup(decl));
      builder.create<stn::ExchangeOp>(loc(stmt->loc), fields);
      break;
    }
    case Stmt::Kind::If: emitIf(llvm::cast<IfStmt>(*stmt)); break;
    default: break;
    }
  }
}

void MLIRGenerator::emitIf(const IfStmt &ifStmt) {
  if (std::optional<Constant> value = evaluateConstant(*ifStmt.condition, unit)) {
    emitProgramBody(value->intValue ? ifStmt.thenBody : ifStmt.elseBody);
    return;
  }
  Value condition = emitExpr(*ifStmt.condition, builder, Scope());
  auto op = builder.create<scf::IfOp>(loc(ifStmt.loc), condition,
                                      /*withElseRegion=*/!ifStmt.elseBody.empty());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(op.thenBlock()->getTerminator());
  emitProgramBody(ifStmt.thenBody);
  if (!ifStmt.elseBody.empty()) {
    builder.setInsertionPoint(op.elseBlock()->getTerminator());
    emitProgramBody(ifStmt.elseBody);
  }
}

void MLIRGenerator::emitAssignment(const AssignStmt &assign) {
  const CallExpr &call = *assign.call;
  const StencilDecl &stencil = *call.stencil;
  llvm::DenseMap<const ParamDecl *, Value> params;
  for (auto [param, arg] : llvm::zip(stencil.params, call.args)) {
    if (param->type.isField())
      params[param.get()] = programValues.lookup(llvm::cast<NameExpr>(*arg).decl);
    else
      params[param.get()] = emitExpr(*arg, builder, Scope());
  }
  const Domain &domain = assign.domain;
  DomainValues bounds;
  if (domain.pointsDecl) {
    bounds.points = programValues.lookup(domain.pointsDecl);
  } else if (domain.location) {
    bounds.hlb = emitExpr(*domain.lower, builder, Scope());
    bounds.hub = emitExpr(*domain.upper, builder, Scope());
  }
  if (domain.hasLevels) {
    bounds.klb = emitExpr(*domain.levelLower, builder, Scope());
    bounds.kub = emitExpr(*domain.levelUpper, builder, Scope());
  } else if (stencil.space.vertical != Vertical::None && !bounds.points) {
    mlir::Location where = loc(domain.loc);
    bounds.klb = emitConstant(builder, where, ScalarKind::I32, 0, 0);
    bounds.kub = getNlev();
    if (stencil.space.vertical == Vertical::Half)
      bounds.kub = builder.create<arith::AddIOp>(
          where, bounds.kub, emitConstant(builder, where, ScalarKind::I32, 0, 1));
  }
  SmallVector<Value, 2> results = instantiate(stencil, std::move(params), &bounds, loc(call.loc));
  for (auto [result, target] : llvm::zip(results, assign.targetDecls)) {
    Value field = programValues.lookup(target);
    bool hasLocation = target->type.location.has_value();
    bool hasLevels = target->type.hasLevels();
    builder.create<stn::StoreOp>(loc(assign.loc), result, field,
                                 hasLocation ? bounds.hlb : Value(),
                                 hasLocation ? bounds.hub : Value(),
                                 hasLevels ? bounds.klb : Value(), hasLevels ? bounds.kub : Value(),
                                 bounds.points);
  }
}

//===----------------------------------------------------------------------===//
// Stencil instances
//===----------------------------------------------------------------------===//

SmallVector<Value, 2> MLIRGenerator::instantiate(const StencilDecl &stencil,
                                                 llvm::DenseMap<const ParamDecl *, Value> params,
                                                 const DomainValues *domain,
                                                 mlir::Location where) {
  StencilInstance instance;
  instance.stencil = &stencil;
  instance.params = std::move(params);
  const ReturnStmt *ret = nullptr;
  // Temporaries first, in statement order: each one only reads earlier ones.
  for (const StmtPtr &stmt : stencil.body) {
    if (const auto *returnStmt = llvm::dyn_cast<ReturnStmt>(stmt.get())) {
      ret = returnStmt;
      continue;
    }
    const auto &let = llvm::cast<LetStmt>(*stmt);
    const LetDecl &first = *let.names.front();
    if (first.form == LetForm::CallResult) {
      SmallVector<Value, 2> results =
          emitStencilCall(llvm::cast<CallExpr>(*let.value), instance);
      for (const auto &name : let.names)
        instance.temps[name.get()] = results[name->resultIndex];
    } else if (first.form == LetForm::Temporary) {
      const Expr *value = let.value.get();
      stn::ApplyOp apply =
          createApply(loc(let.loc), stencil.name.name + "." + first.name.name,
                      tempType(stencil.space, value->type), stencil.space, nullptr, instance,
                      value);
      instance.temps[&first] = apply.getResult(0);
    }
  }
  SmallVector<Type, 2> resultTypes;
  for (const OutputDecl &output : stencil.outputs)
    resultTypes.push_back(tempType(stencil.space, output.type.element));
  SmallVector<const Expr *, 2> values;
  for (const ExprPtr &value : ret->values)
    values.push_back(value.get());
  stn::ApplyOp apply = createApply(where, stencil.name.name, resultTypes, stencil.space, domain,
                                   instance, values);
  return SmallVector<Value, 2>(apply.getResults());
}

SmallVector<Value, 2> MLIRGenerator::emitStencilCall(const CallExpr &call,
                                                     StencilInstance &caller) {
  if (auto it = caller.calls.find(&call); it != caller.calls.end())
    return it->second;
  const StencilDecl &callee = *call.stencil;
  llvm::DenseMap<const ParamDecl *, Value> params;
  for (auto [param, arg] : llvm::zip(callee.params, call.args)) {
    if (param->type.isField())
      params[param.get()] = emitFieldArgument(*arg, callee, *param, caller);
    else
      params[param.get()] = emitExpr(*arg, builder, Scope{&caller, nullptr});
  }
  SmallVector<Value, 2> results = instantiate(callee, std::move(params), nullptr, loc(call.loc));
  caller.calls[&call] = results;
  return results;
}

Value MLIRGenerator::emitFieldArgument(const Expr &arg, const StencilDecl &callee,
                                       const ParamDecl &param, StencilInstance &caller) {
  if (isPassedAsField(arg)) {
    if (const auto *call = llvm::dyn_cast<CallExpr>(&arg))
      return emitStencilCall(*call, caller).front();
    const ValueDecl *decl = llvm::cast<NameExpr>(arg).decl;
    if (const auto *let = llvm::dyn_cast<LetDecl>(decl))
      return caller.temps.lookup(let);
    return caller.params.lookup(llvm::cast<ParamDecl>(decl));
  }
  // Any other expression is computed at the caller's points.
  const StencilDecl &stencil = *caller.stencil;
  stn::ApplyOp apply = createApply(
      loc(arg.getLoc()), stencil.name.name + "." + callee.name.name + "." + param.name.name,
      tempType(stencil.space, arg.type), stencil.space, nullptr, caller, &arg);
  return apply.getResult(0);
}

stn::ApplyOp MLIRGenerator::createApply(mlir::Location where, llvm::StringRef name,
                                        TypeRange resultTypes, const Space &space,
                                        const DomainValues *domain, StencilInstance &instance,
                                        llvm::ArrayRef<const Expr *> exprs) {
  DomainValues none;
  if (!domain)
    domain = &none;
  auto apply = builder.create<stn::ApplyOp>(where, resultTypes, gridLocation(space.location),
                                            domain->hlb, domain->hub, domain->klb, domain->kub);
  if (domain->points)
    apply.setPointList(domain->points);
  apply.setNameAttr(builder.getStringAttr(name));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(apply);
  OpBuilder b = OpBuilder::atBlockBegin(&apply.getBody().front());
  RegionState region;
  region.point = apply.getPoint();
  emitNeededLets(exprs, instance, b, region);
  SmallVector<Value, 2> values;
  for (const Expr *expr : exprs)
    values.push_back(emitExpr(*expr, b, Scope{&instance, &region}));
  b.create<stn::YieldOp>(where, values);
  return apply;
}

void MLIRGenerator::emitNeededLets(llvm::ArrayRef<const Expr *> exprs, StencilInstance &instance,
                                   OpBuilder &b, RegionState &region) {
  // Collect the SSA lets (and list entries) read by `exprs`, transitively.
  // Arguments of stencil calls are computed by applies of their own and do
  // not count.
  llvm::SmallPtrSet<const LetDecl *, 8> needed;
  std::map<const LetDecl *, std::set<int64_t>> entries; // looked up, never iterated
  SmallVector<const Expr *, 8> worklist(exprs.begin(), exprs.end());
  while (!worklist.empty()) {
    const Expr *expr = worklist.pop_back_val();
    SmallVector<const Expr *, 16> stack{expr};
    while (!stack.empty()) {
      const Expr *e = stack.pop_back_val();
      if (const auto *call = llvm::dyn_cast<CallExpr>(e);
          call && call->calleeKind == CallExpr::Callee::Stencil)
        continue;
      if (const auto *name = llvm::dyn_cast<NameExpr>(e)) {
        const auto *let = llvm::dyn_cast_or_null<LetDecl>(name->decl);
        if (let && (let->form == LetForm::Value || let->form == LetForm::List)) {
          if (name->listEntry)
            entries[let].insert(*name->listEntry);
          if (needed.insert(let).second) {
            const Expr *value = let->stmt->value.get();
            if (let->form == LetForm::List)
              value = llvm::cast<FoldExpr>(value)->body.get();
            worklist.push_back(value);
          }
        }
        for (const Subscript &subscript : name->subscripts)
          if (subscript.levelShift)
            stack.push_back(subscript.levelShift.get());
        continue;
      }
      switch (e->getKind()) {
      case Expr::Kind::Call:
        for (const ExprPtr &arg : llvm::cast<CallExpr>(e)->args)
          stack.push_back(arg.get());
        break;
      case Expr::Kind::Fold: stack.push_back(llvm::cast<FoldExpr>(e)->body.get()); break;
      case Expr::Kind::Unary: stack.push_back(llvm::cast<UnaryExpr>(e)->operand.get()); break;
      case Expr::Kind::Binary:
        stack.push_back(llvm::cast<BinaryExpr>(e)->lhs.get());
        stack.push_back(llvm::cast<BinaryExpr>(e)->rhs.get());
        break;
      default: break;
      }
    }
  }
  // Statement order is source order: each let only reads earlier ones.
  SmallVector<const LetDecl *, 8> ordered(needed.begin(), needed.end());
  llvm::sort(ordered, [](const LetDecl *a, const LetDecl *b) {
    return a->stmt->loc.getPointer() < b->stmt->loc.getPointer();
  });
  Scope scope{&instance, &region};
  for (const LetDecl *let : ordered) {
    const Expr &value = *let->stmt->value;
    if (let->form == LetForm::List) {
      for (int64_t entry : entries[let])
        region.listEntries[{let, entry}] =
            emitEachEntry(llvm::cast<FoldExpr>(value), entry, b, scope);
    } else {
      region.lets[let] = emitExpr(value, b, scope);
    }
  }
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Value MLIRGenerator::emitConstant(OpBuilder &b, mlir::Location where, ScalarKind type,
                                  double floatValue, int64_t intValue) {
  Type mlirType = scalarType(type);
  if (isFloat(type))
    return b.create<arith::ConstantOp>(where, b.getFloatAttr(mlirType, floatValue));
  return b.create<arith::ConstantOp>(where, b.getIntegerAttr(mlirType, intValue));
}

Value MLIRGenerator::emitIndexConstant(OpBuilder &b, mlir::Location where, int64_t value) {
  return b.create<arith::ConstantIndexOp>(where, value);
}

Value MLIRGenerator::emitExpr(const Expr &expr, OpBuilder &b, Scope scope) {
  mlir::Location where = loc(expr.getLoc());
  switch (expr.getKind()) {
  case Expr::Kind::IntLiteral: {
    int64_t value = llvm::cast<IntLiteralExpr>(expr).value;
    return emitConstant(b, where, expr.type, static_cast<double>(value), value);
  }
  case Expr::Kind::FloatLiteral:
    return emitConstant(b, where, expr.type, llvm::cast<FloatLiteralExpr>(expr).value, 0);
  case Expr::Kind::BoolLiteral:
    return emitConstant(b, where, ScalarKind::Bool, 0, llvm::cast<BoolLiteralExpr>(expr).value);
  case Expr::Kind::Name: return emitName(llvm::cast<NameExpr>(expr), b, scope);
  case Expr::Kind::Call: return emitCall(llvm::cast<CallExpr>(expr), b, scope);
  case Expr::Kind::Fold: return emitFold(llvm::cast<FoldExpr>(expr), b, scope);
  case Expr::Kind::Index: {
    const auto &index = llvm::cast<IndexExpr>(expr);
    if (index.location)
      return b.create<stn::IndexOp>(where, scope.region->point);
    return b.create<stn::LevelOp>(where, int64_t(0));
  }
  case Expr::Kind::Unary: {
    const auto &unary = llvm::cast<UnaryExpr>(expr);
    Value operand = emitExpr(*unary.operand, b, scope);
    if (unary.op == UnaryExpr::Op::Not)
      return b.create<arith::XOrIOp>(where, operand,
                                     emitConstant(b, where, ScalarKind::Bool, 0, 1));
    if (isFloat(expr.type))
      return b.create<arith::NegFOp>(where, operand);
    return b.create<arith::SubIOp>(where, emitConstant(b, where, expr.type, 0, 0), operand);
  }
  case Expr::Kind::Binary: return emitBinary(llvm::cast<BinaryExpr>(expr), b, scope);
  case Expr::Kind::Tuple: break;
  }
  llvm_unreachable("Sema rejects tuples outside return");
}

Value MLIRGenerator::emitName(const NameExpr &expr, OpBuilder &b, Scope scope) {
  const ValueDecl *decl = expr.decl;
  if (decl->getKind() == ValueDecl::Kind::Nlev)
    return getNlev();
  if (const auto *let = llvm::dyn_cast<LetDecl>(decl)) {
    if (let->form == LetForm::List)
      return scope.region->listEntries.lookup({let, *expr.listEntry});
    if (let->form == LetForm::Value)
      return scope.region->lets.lookup(let);
    return emitLoad(scope.instance->temps.lookup(let), expr, b, scope);
  }
  Value value = scope.instance
                    ? scope.instance->params.lookup(llvm::cast<ParamDecl>(decl))
                    : programValues.lookup(decl);
  if (decl->type.isScalar())
    return value;
  return emitLoad(value, expr, b, scope);
}

Value MLIRGenerator::emitLoad(Value source, const NameExpr &expr, OpBuilder &b, Scope scope) {
  mlir::Location where = loc(expr.getLoc());
  RegionState &region = *scope.region;
  stn::FieldShape shape = stn::FieldShape::of(source.getType());
  Value point, nbr;
  auto slotOf = [&](int64_t slot) { return emitIndexConstant(b, where, slot); };
  if (const ConnectivityDecl *conn = expr.neighborConnectivity) {
    if (!shape.sparse.empty()) {
      point = region.point;
      nbr = expr.slot ? slotOf(*expr.slot) : region.folds.lookup(expr.fold).slot;
    } else if (expr.slot) {
      point = b.create<stn::NeighborOp>(
          where, stn::PointType::get(&context, *gridLocation(conn->to)), region.point,
          FlatSymbolRefAttr::get(&context, conn->name.name), slotOf(*expr.slot));
    } else {
      point = region.folds.lookup(expr.fold).neighbor;
    }
  } else if (!shape.sparse.empty()) {
    point = region.point;
    nbr = region.folds.lookup(expr.fold).slot;
  } else if (shape.location) {
    point = region.point;
  }
  Value shift;
  int64_t offset = 0;
  if (shape.vertical != stn::VerticalKind::None) {
    offset = expr.levelOffset;
    if (expr.levelShift)
      shift = emitExpr(*expr.levelShift, b, scope);
  }
  return b.create<stn::LoadOp>(where, shape.elementType, source, point, nbr, shift, Value(),
                               b.getI64IntegerAttr(offset));
}

Value MLIRGenerator::emitCall(const CallExpr &call, OpBuilder &b, Scope scope) {
  using Callee = CallExpr::Callee;
  mlir::Location where = loc(call.getLoc());
  if (call.calleeKind == Callee::Stencil) {
    // The call is an apply of its own; its result is read at the current point.
    Value temp = emitStencilCall(call, *scope.instance).front();
    stn::FieldShape shape = stn::FieldShape::of(temp.getType());
    return b.create<stn::LoadOp>(where, shape.elementType, temp,
                                 shape.location ? scope.region->point : Value(), Value(),
                                 Value(), Value(), b.getI64IntegerAttr(0));
  }
  SmallVector<Value, 3> args;
  for (const ExprPtr &arg : call.args)
    args.push_back(emitExpr(*arg, b, scope));
  bool floatArgs = isFloat(call.args.back()->type);
  switch (call.calleeKind) {
  case Callee::Sqrt: return b.create<math::SqrtOp>(where, args[0]);
  case Callee::Exp: return b.create<math::ExpOp>(where, args[0]);
  case Callee::Log: return b.create<math::LogOp>(where, args[0]);
  case Callee::Floor: return b.create<math::FloorOp>(where, args[0]);
  case Callee::Ceil: return b.create<math::CeilOp>(where, args[0]);
  case Callee::Abs:
    if (floatArgs)
      return b.create<math::AbsFOp>(where, args[0]);
    return b.create<math::AbsIOp>(where, args[0]);
  case Callee::Min:
    if (floatArgs)
      return b.create<arith::MinNumFOp>(where, args[0], args[1]);
    return b.create<arith::MinSIOp>(where, args[0], args[1]);
  case Callee::Max:
    if (floatArgs)
      return b.create<arith::MaxNumFOp>(where, args[0], args[1]);
    return b.create<arith::MaxSIOp>(where, args[0], args[1]);
  case Callee::Where: return b.create<arith::SelectOp>(where, args[0], args[1], args[2]);
  case Callee::Cast: {
    ScalarKind from = call.args[0]->type, to = call.castTarget;
    Type target = scalarType(to);
    if (from == to)
      return args[0];
    if (isFloat(from) && isFloat(to)) {
      if (to == ScalarKind::F32)
        return b.create<arith::TruncFOp>(where, target, args[0]);
      return b.create<arith::ExtFOp>(where, target, args[0]);
    }
    if (isFloat(to))
      return b.create<arith::SIToFPOp>(where, target, args[0]);
    return b.create<arith::FPToSIOp>(where, target, args[0]);
  }
  default: break;
  }
  llvm_unreachable("Sema resolves every call");
}

static stn::ReduceKind reduceKind(FoldExpr::Op op) {
  switch (op) {
  case FoldExpr::Op::Sum: return stn::ReduceKind::Sum;
  case FoldExpr::Op::Min: return stn::ReduceKind::Min;
  case FoldExpr::Op::Max: return stn::ReduceKind::Max;
  case FoldExpr::Op::Prod:
  case FoldExpr::Op::Each: break;
  }
  return stn::ReduceKind::Prod;
}

Value MLIRGenerator::emitFold(const FoldExpr &fold, OpBuilder &b, Scope scope) {
  mlir::Location where = loc(fold.getLoc());
  const ConnectivityDecl &conn = *fold.resolved;
  auto reduce = b.create<stn::ReduceOp>(
      where, scalarType(fold.type),
      stn::ReduceKindAttr::get(&context, reduceKind(fold.op)),
      FlatSymbolRefAttr::get(&context, conn.name.name), scope.region->point);
  Block *block = new Block();
  reduce.getBody().push_back(block);
  Value slot = block->addArgument(b.getIndexType(), where);
  Value neighbor =
      block->addArgument(stn::PointType::get(&context, *gridLocation(conn.to)), where);
  OpBuilder inner = OpBuilder::atBlockBegin(block);
  scope.region->folds[&fold] = FoldFrame{slot, neighbor};
  Value value = emitExpr(*fold.body, inner, scope);
  scope.region->folds.erase(&fold);
  inner.create<stn::YieldOp>(where, value);
  return reduce;
}

Value MLIRGenerator::emitEachEntry(const FoldExpr &each, int64_t entry, OpBuilder &b,
                                   Scope scope) {
  mlir::Location where = loc(each.getLoc());
  const ConnectivityDecl &conn = *each.resolved;
  Value slot = emitIndexConstant(b, where, entry);
  Value neighbor = b.create<stn::NeighborOp>(
      where, stn::PointType::get(&context, *gridLocation(conn.to)), scope.region->point,
      FlatSymbolRefAttr::get(&context, conn.name.name), slot);
  scope.region->folds[&each] = FoldFrame{slot, neighbor};
  Value value = emitExpr(*each.body, b, scope);
  scope.region->folds.erase(&each);
  return value;
}

Value MLIRGenerator::emitBinary(const BinaryExpr &expr, OpBuilder &b, Scope scope) {
  using Op = BinaryExpr::Op;
  mlir::Location where = loc(expr.getLoc());
  if (expr.op == Op::Pow) {
    // Small integer powers are products, which every backend evaluates
    // exactly as written.
    if (const auto *exponent = llvm::dyn_cast<IntLiteralExpr>(expr.rhs.get());
        exponent && exponent->value <= 8) {
      if (exponent->value == 0)
        return emitConstant(b, where, expr.type, 1.0, 1);
      Value lhs = emitExpr(*expr.lhs, b, scope);
      Value result = lhs;
      for (int64_t i = 1; i < exponent->value; ++i)
        result = isFloat(expr.type) ? Value(b.create<arith::MulFOp>(where, result, lhs))
                                    : Value(b.create<arith::MulIOp>(where, result, lhs));
      return result;
    }
    Value lhs = emitExpr(*expr.lhs, b, scope);
    return b.create<math::PowFOp>(where, lhs, emitExpr(*expr.rhs, b, scope));
  }
  Value lhs = emitExpr(*expr.lhs, b, scope);
  Value rhs = emitExpr(*expr.rhs, b, scope);
  ScalarKind operandType = expr.lhs->type;
  bool isFloatOp = isFloat(operandType);
  switch (expr.op) {
  case Op::Add:
    return isFloatOp ? Value(b.create<arith::AddFOp>(where, lhs, rhs))
                     : Value(b.create<arith::AddIOp>(where, lhs, rhs));
  case Op::Sub:
    return isFloatOp ? Value(b.create<arith::SubFOp>(where, lhs, rhs))
                     : Value(b.create<arith::SubIOp>(where, lhs, rhs));
  case Op::Mul:
    return isFloatOp ? Value(b.create<arith::MulFOp>(where, lhs, rhs))
                     : Value(b.create<arith::MulIOp>(where, lhs, rhs));
  case Op::Div:
    return isFloatOp ? Value(b.create<arith::DivFOp>(where, lhs, rhs))
                     : Value(b.create<arith::DivSIOp>(where, lhs, rhs));
  case Op::And: return b.create<arith::AndIOp>(where, lhs, rhs);
  case Op::Or: return b.create<arith::OrIOp>(where, lhs, rhs);
  default: break;
  }
  if (isFloatOp) {
    arith::CmpFPredicate predicate;
    switch (expr.op) {
    case Op::Eq: predicate = arith::CmpFPredicate::OEQ; break;
    case Op::Ne: predicate = arith::CmpFPredicate::UNE; break;
    case Op::Lt: predicate = arith::CmpFPredicate::OLT; break;
    case Op::Le: predicate = arith::CmpFPredicate::OLE; break;
    case Op::Gt: predicate = arith::CmpFPredicate::OGT; break;
    default: predicate = arith::CmpFPredicate::OGE; break;
    }
    return b.create<arith::CmpFOp>(where, predicate, lhs, rhs);
  }
  arith::CmpIPredicate predicate;
  switch (expr.op) {
  case Op::Eq: predicate = arith::CmpIPredicate::eq; break;
  case Op::Ne: predicate = arith::CmpIPredicate::ne; break;
  case Op::Lt: predicate = arith::CmpIPredicate::slt; break;
  case Op::Le: predicate = arith::CmpIPredicate::sle; break;
  case Op::Gt: predicate = arith::CmpIPredicate::sgt; break;
  default: predicate = arith::CmpIPredicate::sge; break;
  }
  return b.create<arith::CmpIOp>(where, predicate, lhs, rhs);
}

OwningOpRef<ModuleOp> fusec::generateMLIR(MLIRContext &context, const TranslationUnit &unit,
                                          const llvm::SourceMgr &sourceMgr) {
  context.loadDialect<stn::StnDialect, arith::ArithDialect, math::MathDialect,
                      scf::SCFDialect>();
  return MLIRGenerator(context, unit, sourceMgr).generate();
}
