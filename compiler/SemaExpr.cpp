//===- SemaExpr.cpp - names and types of expressions ----------------------===//

#include "compiler/Sema.h"

#include "llvm/ADT/StringSwitch.h"

using namespace fusec;
using namespace fusec::ast;

using ExprInfo = Sema::ExprInfo;

static ExprInfo typed(ScalarKind type, bool uniform) {
  ExprInfo info;
  info.valid = true;
  info.type = type;
  info.uniform = uniform;
  return info;
}

static std::string describeType(const ExprInfo &info) {
  switch (info.literal) {
  case ExprInfo::Literal::Int: return "an integer literal";
  case ExprInfo::Literal::Float: return "a floating-point literal";
  case ExprInfo::Literal::None: return scalarKindName(info.type).str();
  }
  return "?";
}

/// Gives every node of a literal expression (literals, unary minus and
/// arithmetic on them) the type `type`.
static void setLiteralType(Expr &expr, ScalarKind type) {
  expr.type = type;
  if (auto *unary = llvm::dyn_cast<UnaryExpr>(&expr)) {
    setLiteralType(*unary->operand, type);
  } else if (auto *binary = llvm::dyn_cast<BinaryExpr>(&expr)) {
    setLiteralType(*binary->lhs, type);
    setLiteralType(*binary->rhs, type);
  }
}

bool fusec::isPassedAsField(const Expr &arg) {
  if (const auto *call = llvm::dyn_cast<CallExpr>(&arg))
    return call->calleeKind == CallExpr::Callee::Stencil;
  const auto *name = llvm::dyn_cast<NameExpr>(&arg);
  if (!name || !name->subscripts.empty() || !name->decl)
    return false;
  if (const auto *let = llvm::dyn_cast<LetDecl>(name->decl))
    return let->form != LetForm::List;
  return name->decl->type.isField();
}

//===----------------------------------------------------------------------===//
// Type agreement
//===----------------------------------------------------------------------===//

bool Sema::coerce(Expr &expr, ExprInfo &info, ScalarKind type, llvm::StringRef context) {
  if (info.literal == ExprInfo::Literal::None) {
    if (info.type == type)
      return true;
    diag.error(expr.getLoc(), context + " must be " + scalarKindName(type) + ", not " +
                                  scalarKindName(info.type));
    return false;
  }
  if (type == ScalarKind::Bool ||
      (info.literal == ExprInfo::Literal::Float && type == ScalarKind::I32)) {
    diag.error(expr.getLoc(), context + " must be " + scalarKindName(type) + ", not " +
                                  describeType(info));
    return false;
  }
  setLiteralType(expr, type);
  info.literal = ExprInfo::Literal::None;
  info.type = type;
  return true;
}

void Sema::finalize(Expr &expr, ExprInfo &info) {
  if (info.literal == ExprInfo::Literal::None)
    return;
  info.type = info.literal == ExprInfo::Literal::Float ? ScalarKind::F64 : ScalarKind::I32;
  setLiteralType(expr, info.type);
  info.literal = ExprInfo::Literal::None;
}

bool Sema::unify(Expr &lhs, ExprInfo &lhsInfo, Expr &rhs, ExprInfo &rhsInfo, llvm::SMLoc loc,
                 llvm::StringRef what, ExprInfo &result) {
  result = typed(lhsInfo.type, lhsInfo.uniform && rhsInfo.uniform);
  bool lhsLiteral = lhsInfo.literal != ExprInfo::Literal::None;
  bool rhsLiteral = rhsInfo.literal != ExprInfo::Literal::None;
  if (lhsLiteral && rhsLiteral) {
    bool isFloatLiteral = lhsInfo.literal == ExprInfo::Literal::Float ||
                          rhsInfo.literal == ExprInfo::Literal::Float;
    result.literal = isFloatLiteral ? ExprInfo::Literal::Float : ExprInfo::Literal::Int;
    result.type = isFloatLiteral ? ScalarKind::F64 : ScalarKind::I32;
    return true;
  }
  auto mismatch = [&] {
    diag.error(loc, "the operands of '" + what + "' have different types: " +
                        describeType(lhsInfo) + " and " + describeType(rhsInfo) +
                        " (convert one with a cast such as f64(x))");
    return false;
  };
  auto adapts = [](const ExprInfo &literal, ScalarKind type) {
    return type != ScalarKind::Bool &&
           !(literal.literal == ExprInfo::Literal::Float && type == ScalarKind::I32);
  };
  if (lhsLiteral) {
    if (!adapts(lhsInfo, rhsInfo.type))
      return mismatch();
    setLiteralType(lhs, rhsInfo.type);
    result.type = rhsInfo.type;
    return true;
  }
  if (rhsLiteral) {
    if (!adapts(rhsInfo, lhsInfo.type))
      return mismatch();
    setLiteralType(rhs, lhsInfo.type);
    return true;
  }
  if (lhsInfo.type != rhsInfo.type)
    return mismatch();
  return true;
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

ValueDecl *Sema::lookupValue(llvm::StringRef name) {
  if (auto it = locals.find(name); it != locals.end())
    return it->second;
  if (currentProgram && name == "nlev")
    return &unit->nlev;
  return nullptr;
}

void Sema::reportUnknownName(const Identifier &name) {
  if (auto it = globals.find(name.name); it != globals.end()) {
    if (llvm::isa<StencilDecl>(it->second))
      diag.error(name.loc, "'" + name.name + "' is a stencil; call it with " + name.name +
                               "(...)");
    else
      diag.error(name.loc, "'" + name.name + "' is a " + it->second->getKindName() +
                               ", not a value");
    return;
  }
  if (name.name == "nlev")
    diag.error(name.loc, "'nlev' is only available in programs; pass it to the stencil as a "
                         "parameter");
  else if (name.name == "K" || name.name == "KHalf")
    diag.error(name.loc, "'" + name.name + "' is only valid in subscripts (f[K-1]) and "
                                           "index(K)");
  else
    diag.error(name.loc, "unknown name '" + name.name + "'");
}

const ConnectivityDecl *Sema::lookupConnectivity(const Identifier &name) {
  auto it = globals.find(name.name);
  if (it == globals.end()) {
    diag.error(name.loc, "unknown connectivity '" + name.name + "'");
    return nullptr;
  }
  const auto *conn = llvm::dyn_cast<ConnectivityDecl>(it->second);
  if (!conn)
    diag.error(name.loc, "'" + name.name + "' is a " + it->second->getKindName() +
                             ", not a connectivity");
  return conn;
}

bool Sema::checkConnectivityStart(const ConnectivityDecl &conn, llvm::SMLoc loc) {
  const Space &space = currentStencil->space;
  if (!space.location) {
    diag.error(loc, conn.name.name + " starts at " + locationName(conn.from) + ", but stencil '" +
                        currentStencil->name.name + "' computes levels only (it has no point)");
    return false;
  }
  if (conn.from != *space.location) {
    diag.error(loc, conn.name.name + " starts at " + locationName(conn.from) +
                        ", but the current point is a" +
                        (*space.location == Location::Edge ? "n " : " ") +
                        locationName(*space.location));
    return false;
  }
  return true;
}

/// The innermost enclosing fold or each over `conn`.
static const FoldExpr *findFold(llvm::ArrayRef<const FoldExpr *> folds,
                                const ConnectivityDecl *conn) {
  for (const FoldExpr *fold : llvm::reverse(folds))
    if (fold->resolved == conn)
      return fold;
  return nullptr;
}

ExprInfo Sema::checkName(NameExpr &expr) {
  ValueDecl *decl = lookupValue(expr.name.name);
  if (!decl) {
    reportUnknownName(expr.name);
    return ExprInfo::invalid();
  }
  expr.decl = decl;
  const std::string &name = expr.name.name;
  const Subscript *neighbor = nullptr, *level = nullptr, *entry = nullptr;
  for (const Subscript &subscript : expr.subscripts) {
    const Subscript *&slot = subscript.kind == Subscript::Kind::Neighbor ? neighbor
                             : subscript.kind == Subscript::Kind::Level  ? level
                                                                         : entry;
    if (slot) {
      diag.error(subscript.loc, "'" + name + "' has two subscripts of the same kind");
      return ExprInfo::invalid();
    }
    slot = &subscript;
  }
  if (entry && (neighbor || level)) {
    diag.error(entry->loc, "a list entry v[j] takes no other subscript");
    return ExprInfo::invalid();
  }

  if (currentProgram) {
    if (decl->type.isField()) {
      diag.error(expr.getLoc(), "'" + name + "' is a field; only scalars can be used here");
      return ExprInfo::invalid();
    }
    if (decl->type.isPoints()) {
      diag.error(expr.getLoc(), "'" + name + "' is a point list; it is used only as a domain "
                                "(@ " + name + ")");
      return ExprInfo::invalid();
    }
    if (!expr.subscripts.empty()) {
      diag.error(expr.subscripts.front().loc,
                 "'" + name + "' is a scalar; it has no neighbours or levels");
      return ExprInfo::invalid();
    }
    return typed(decl->type.element, /*uniform=*/true);
  }

  auto *let = llvm::dyn_cast<LetDecl>(decl);
  if (let && let->form == LetForm::List) {
    // An each(...) over an unknown or misplaced connectivity was reported at the let.
    if (!let->listConnectivity)
      return ExprInfo::invalid();
    if (!entry) {
      diag.error(expr.getLoc(), "'" + name + "' is a list (each over " +
                                    let->listConnectivity->name.name +
                                    "); pick an entry with " + name + "[j]");
      return ExprInfo::invalid();
    }
    if (entry->entry >= let->listConnectivity->size) {
      diag.error(entry->loc, "'" + name + "' has " + llvm::Twine(let->listConnectivity->size) +
                                 " entries (one per " + let->listConnectivity->name.name +
                                 " neighbour); entry " + llvm::Twine(entry->entry) +
                                 " does not exist");
      return ExprInfo::invalid();
    }
    expr.listEntry = entry->entry;
    if (!let->type.isValid())
      return ExprInfo::invalid();
    return typed(let->type.element, /*uniform=*/false);
  }
  if (entry) {
    diag.error(entry->loc, "'" + name + "' is not a list; only lets bound to each(...) have "
                                        "entries");
    return ExprInfo::invalid();
  }
  if (!decl->type.isValid())
    return ExprInfo::invalid();
  if (decl->type.isScalar()) {
    if (!expr.subscripts.empty()) {
      diag.error(expr.subscripts.front().loc,
                 "'" + name + "' is a scalar parameter; it has no neighbours or levels");
      return ExprInfo::invalid();
    }
    return typed(decl->type.element, /*uniform=*/true);
  }
  std::string what = (let ? "'" : "field '") + name + "'";
  return checkFieldRead(expr, decl->type, what);
}

ExprInfo Sema::checkFieldRead(NameExpr &expr, const SemType &type, llvm::StringRef what) {
  const Space &space = currentStencil->space;
  const Subscript *neighbor = nullptr;
  for (const Subscript &subscript : expr.subscripts)
    if (subscript.kind == Subscript::Kind::Neighbor)
      neighbor = &subscript;
  const std::string &name = expr.name.name;
  if (neighbor) {
    const ConnectivityDecl *conn = lookupConnectivity(neighbor->connectivity);
    if (!conn || !checkConnectivityStart(*conn, neighbor->connectivity.loc))
      return ExprInfo::invalid();
    expr.neighborConnectivity = conn;
    if (neighbor->slot) {
      if (*neighbor->slot >= conn->size) {
        diag.error(neighbor->loc, conn->name.name + " has " + llvm::Twine(conn->size) +
                                      " neighbours; slot " + llvm::Twine(*neighbor->slot) +
                                      " does not exist");
        return ExprInfo::invalid();
      }
      expr.slot = neighbor->slot;
    } else {
      expr.fold = findFold(folds, conn);
      if (!expr.fold) {
        diag.error(neighbor->loc, name + "[" + conn->name.name +
                                      "] is only valid inside a fold or each over " +
                                      conn->name.name + "; write " + name + "[" +
                                      conn->name.name + ":j] for one neighbour");
        return ExprInfo::invalid();
      }
    }
    if (type.sparse) {
      if (type.sparse != conn) {
        diag.error(neighbor->loc, what + " is sparse over " + type.sparse->name.name +
                                      ", not over " + conn->name.name);
        return ExprInfo::invalid();
      }
    } else if (!type.location) {
      diag.error(neighbor->loc, what + " has no horizontal location; it cannot be read at a "
                                       "neighbour");
      return ExprInfo::invalid();
    } else if (*type.location != conn->to) {
      diag.error(neighbor->loc, what + " lives on " + locationName(*type.location) + " but " +
                                    conn->name.name + " leads to " + locationName(conn->to));
      return ExprInfo::invalid();
    }
  } else if (type.sparse) {
    expr.fold = findFold(folds, type.sparse);
    if (!expr.fold) {
      diag.error(expr.getLoc(), what + " is sparse over " + type.sparse->name.name +
                                    ": name it alone inside a fold or each over " +
                                    type.sparse->name.name + ", or pick an entry with " + name +
                                    "[" + type.sparse->name.name + ":j]");
      return ExprInfo::invalid();
    }
  } else if (type.location) {
    if (!space.location) {
      diag.error(expr.getLoc(), what + " lives on " + locationName(*type.location) +
                                    " but stencil '" + currentStencil->name.name +
                                    "' computes levels only");
      return ExprInfo::invalid();
    }
    if (*type.location != *space.location) {
      auto *let = llvm::dyn_cast<LetDecl>(expr.decl);
      if (let && let->form == LetForm::CallResult)
        diag.error(expr.getLoc(), what + " is computed on " + locationName(*type.location) +
                                      " but the current point is a" +
                                      (*space.location == Location::Edge ? "n " : " ") +
                                      locationName(*space.location) +
                                      ": read it through a connectivity, e.g. " + name +
                                      "[X:0]");
      else
        diag.error(expr.getLoc(), what + " lives on " + locationName(*type.location) +
                                      " but the stencil is applied on " +
                                      locationName(*space.location));
      return ExprInfo::invalid();
    }
  }
  if (!checkLevelSubscript(expr, type))
    return ExprInfo::invalid();
  if (auto *let = llvm::dyn_cast<LetDecl>(expr.decl);
      let && let->form == LetForm::Value &&
      (neighbor || expr.levelOffset != 0 || expr.levelShift))
    let->form = LetForm::Temporary;
  return typed(type.element, /*uniform=*/false);
}

bool Sema::checkLevelSubscript(NameExpr &expr, const SemType &type) {
  const Subscript *level = nullptr;
  for (const Subscript &subscript : expr.subscripts)
    if (subscript.kind == Subscript::Kind::Level)
      level = &subscript;
  const std::string &name = expr.name.name;
  if (!type.hasLevels()) {
    if (level) {
      diag.error(level->loc, "'" + name + "' has no levels; it cannot be read at a level "
                                          "offset");
      return false;
    }
    return true;
  }
  if (currentStencil->space.vertical == Vertical::None) {
    diag.error(expr.getLoc(), "'" + name + "' has levels but stencil '" +
                                  currentStencil->name.name +
                                  "' computes values without levels");
    return false;
  }
  if (!level)
    return true;
  expr.levelOffset = level->levelOffset;
  if (level->levelShift) {
    ExprInfo shift = checkExpr(*level->levelShift);
    if (!shift.valid || !coerce(*level->levelShift, shift, ScalarKind::I32, "a level shift"))
      return false;
    expr.levelShift = level->levelShift.get();
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

ExprInfo Sema::checkExpr(Expr &expr) {
  ExprInfo info;
  switch (expr.getKind()) {
  case Expr::Kind::IntLiteral:
    info = typed(ScalarKind::I32, true);
    info.literal = ExprInfo::Literal::Int;
    break;
  case Expr::Kind::FloatLiteral:
    info = typed(ScalarKind::F64, true);
    info.literal = ExprInfo::Literal::Float;
    break;
  case Expr::Kind::BoolLiteral: info = typed(ScalarKind::Bool, true); break;
  case Expr::Kind::Name: info = checkName(llvm::cast<NameExpr>(expr)); break;
  case Expr::Kind::Call: info = checkCall(llvm::cast<CallExpr>(expr)); break;
  case Expr::Kind::Fold: info = checkFold(llvm::cast<FoldExpr>(expr)); break;
  case Expr::Kind::Index: info = checkIndex(llvm::cast<IndexExpr>(expr)); break;
  case Expr::Kind::Unary: info = checkUnary(llvm::cast<UnaryExpr>(expr)); break;
  case Expr::Kind::Binary: info = checkBinary(llvm::cast<BinaryExpr>(expr)); break;
  case Expr::Kind::Tuple:
    diag.error(expr.getLoc(), "a list of values '(a, b)' can only be returned");
    return ExprInfo::invalid();
  }
  if (info.valid)
    expr.type = info.type;
  return info;
}

ExprInfo Sema::checkFold(FoldExpr &fold) {
  if (currentProgram) {
    diag.error(fold.getLoc(), "folds are only available inside stencils");
    return ExprInfo::invalid();
  }
  if (fold.op == FoldExpr::Op::Each) {
    diag.error(fold.getLoc(), "each(...) builds a list: bind it with 'let v = each(" +
                                  fold.connectivity.name + ") ...' and pick entries with v[j]");
    return ExprInfo::invalid();
  }
  const ConnectivityDecl *conn = lookupConnectivity(fold.connectivity);
  if (!conn || !checkConnectivityStart(*conn, fold.connectivity.loc))
    return ExprInfo::invalid();
  fold.resolved = conn;
  folds.push_back(&fold);
  ExprInfo body = checkExpr(*fold.body);
  folds.pop_back();
  if (!body.valid)
    return ExprInfo::invalid();
  if (body.type == ScalarKind::Bool && body.literal == ExprInfo::Literal::None) {
    diag.error(fold.body->getLoc(), "a fold needs numbers, not bool");
    return ExprInfo::invalid();
  }
  finalize(*fold.body, body);
  return typed(body.type, /*uniform=*/false);
}

ExprInfo Sema::checkIndex(IndexExpr &index) {
  if (currentProgram) {
    diag.error(index.getLoc(), "index(...) is only available inside stencils");
    return ExprInfo::invalid();
  }
  const Space &space = currentStencil->space;
  const Identifier &dimension = index.dimension;
  if (dimension.name == "K") {
    if (space.vertical == Vertical::None) {
      diag.error(dimension.loc, "index(K) needs levels, but stencil '" +
                                    currentStencil->name.name +
                                    "' computes values without levels");
      return ExprInfo::invalid();
    }
    return typed(ScalarKind::I32, /*uniform=*/false);
  }
  std::optional<Location> location = parseLocation(dimension.name);
  if (!location) {
    diag.error(dimension.loc, "index(...) takes Cell, Edge, Vertex or K, not '" +
                                  dimension.name + "'");
    return ExprInfo::invalid();
  }
  if (space.location != location) {
    diag.error(dimension.loc, "index(" + dimension.name + ") in stencil '" +
                                  currentStencil->name.name + "', whose points are " +
                                  (space.location ? locationName(*space.location).str() +
                                                        ": use index(" +
                                                        locationName(*space.location).str() + ")"
                                                  : std::string("levels only")));
    return ExprInfo::invalid();
  }
  index.location = location;
  return typed(ScalarKind::I32, /*uniform=*/false);
}

ExprInfo Sema::checkUnary(UnaryExpr &unary) {
  ExprInfo operand = checkExpr(*unary.operand);
  if (!operand.valid)
    return ExprInfo::invalid();
  if (unary.op == UnaryExpr::Op::Not) {
    if (!coerce(*unary.operand, operand, ScalarKind::Bool, "the operand of '!'"))
      return ExprInfo::invalid();
    return typed(ScalarKind::Bool, operand.uniform);
  }
  if (operand.type == ScalarKind::Bool) {
    diag.error(unary.getLoc(), "'-' needs a number, not bool");
    return ExprInfo::invalid();
  }
  return operand;
}

ExprInfo Sema::checkBinary(BinaryExpr &binary) {
  ExprInfo lhs = checkExpr(*binary.lhs);
  ExprInfo rhs = checkExpr(*binary.rhs);
  if (!lhs.valid || !rhs.valid)
    return ExprInfo::invalid();
  using Op = BinaryExpr::Op;
  std::string spelling = binaryOpSpelling(binary.op).str();
  bool uniform = lhs.uniform && rhs.uniform;
  if (binary.op == Op::And || binary.op == Op::Or) {
    if (!coerce(*binary.lhs, lhs, ScalarKind::Bool, "the operands of '" + spelling + "'") ||
        !coerce(*binary.rhs, rhs, ScalarKind::Bool, "the operands of '" + spelling + "'"))
      return ExprInfo::invalid();
    return typed(ScalarKind::Bool, uniform);
  }
  auto rejectBool = [&](const ExprInfo &info) {
    if (info.literal != ExprInfo::Literal::None || info.type != ScalarKind::Bool)
      return false;
    diag.error(binary.getLoc(), "'" + spelling + "' needs numbers, not bool");
    return true;
  };
  if (binary.op == Op::Pow) {
    if (rejectBool(lhs) || rejectBool(rhs))
      return ExprInfo::invalid();
    auto *exponent = llvm::dyn_cast<IntLiteralExpr>(binary.rhs.get());
    if (exponent && exponent->value <= 8) {
      // Small integer powers are products; the base keeps its type.
      binary.rhs->type = ScalarKind::I32;
      lhs.uniform = uniform;
      return lhs;
    }
    ExprInfo result;
    if (!unify(*binary.lhs, lhs, *binary.rhs, rhs, binary.getLoc(), spelling, result))
      return ExprInfo::invalid();
    if (result.literal == ExprInfo::Literal::None && !isFloat(result.type)) {
      diag.error(binary.getLoc(), "'^' on " + scalarKindName(result.type) +
                                      " needs a literal exponent between 0 and 8");
      return ExprInfo::invalid();
    }
    if (result.literal == ExprInfo::Literal::Int)
      result.literal = ExprInfo::Literal::Float;
    return result;
  }
  if (!isComparison(binary.op) && (rejectBool(lhs) || rejectBool(rhs)))
    return ExprInfo::invalid();
  ExprInfo result;
  if (!unify(*binary.lhs, lhs, *binary.rhs, rhs, binary.getLoc(), spelling, result))
    return ExprInfo::invalid();
  if (isComparison(binary.op)) {
    if (result.literal != ExprInfo::Literal::None) {
      ScalarKind type =
          result.literal == ExprInfo::Literal::Float ? ScalarKind::F64 : ScalarKind::I32;
      setLiteralType(*binary.lhs, type);
      setLiteralType(*binary.rhs, type);
    } else if (result.type == ScalarKind::Bool && binary.op != Op::Eq && binary.op != Op::Ne) {
      diag.error(binary.getLoc(), "'" + spelling + "' needs numbers, not bool");
      return ExprInfo::invalid();
    }
    return typed(ScalarKind::Bool, uniform);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

ExprInfo Sema::checkCall(CallExpr &call) {
  auto it = globals.find(call.callee.name);
  if (it == globals.end() || !llvm::isa<StencilDecl>(it->second))
    return checkBuiltinCall(call);
  if (currentProgram) {
    diag.error(call.getLoc(), "stencils are applied by assignments in programs ('out = " +
                                  call.callee.name + "(...) @ ...'), not inside expressions");
    return ExprInfo::invalid();
  }
  call.calleeKind = CallExpr::Callee::Stencil;
  call.stencil = llvm::cast<StencilDecl>(it->second);
  if (!checkStencilCall(call, /*isInline=*/true))
    return ExprInfo::invalid();
  return typed(call.stencil->outputs.front().type.element, /*uniform=*/false);
}

ExprInfo Sema::checkBuiltinCall(CallExpr &call) {
  using Callee = CallExpr::Callee;
  const std::string &name = call.callee.name;
  Callee kind = llvm::StringSwitch<Callee>(name)
                    .Case("sqrt", Callee::Sqrt)
                    .Case("exp", Callee::Exp)
                    .Case("log", Callee::Log)
                    .Case("abs", Callee::Abs)
                    .Case("floor", Callee::Floor)
                    .Case("ceil", Callee::Ceil)
                    .Case("min", Callee::Min)
                    .Case("max", Callee::Max)
                    .Case("where", Callee::Where)
                    .Default(Callee::Unresolved);
  if (kind == Callee::Unresolved) {
    std::optional<ScalarKind> target = resolveScalarType(call.callee);
    if (!target) {
      if (auto it = globals.find(name); it != globals.end())
        diag.error(call.callee.loc, "'" + name + "' is a " + it->second->getKindName() +
                                        ", not a function");
      else
        diag.error(call.callee.loc, "unknown function or stencil '" + name + "'");
      return ExprInfo::invalid();
    }
    kind = Callee::Cast;
    call.castTarget = *target;
  }
  call.calleeKind = kind;
  size_t expected = kind == Callee::Where ? 3 : (kind == Callee::Min || kind == Callee::Max) ? 2 : 1;
  if (call.args.size() != expected) {
    diag.error(call.callee.loc, "'" + name + "' takes " + llvm::Twine(expected) +
                                    " argument(s) but " + llvm::Twine(call.args.size()) +
                                    (call.args.size() == 1 ? " was" : " were") + " given");
    return ExprInfo::invalid();
  }
  llvm::SmallVector<ExprInfo, 3> args;
  for (ExprPtr &arg : call.args) {
    args.push_back(checkExpr(*arg));
    if (!args.back().valid)
      return ExprInfo::invalid();
  }
  bool uniform = llvm::all_of(args, [](const ExprInfo &info) { return info.uniform; });
  std::string context = "the argument of '" + name + "'";
  switch (kind) {
  case Callee::Sqrt:
  case Callee::Exp:
  case Callee::Log:
  case Callee::Floor:
  case Callee::Ceil: {
    ExprInfo &arg = args[0];
    if (arg.literal != ExprInfo::Literal::None)
      coerce(*call.args[0], arg, ScalarKind::F64, context);
    if (!isFloat(arg.type)) {
      diag.error(call.args[0]->getLoc(), "'" + name + "' needs a floating-point argument, not " +
                                             scalarKindName(arg.type));
      return ExprInfo::invalid();
    }
    return typed(arg.type, uniform);
  }
  case Callee::Abs: {
    finalize(*call.args[0], args[0]);
    if (args[0].type == ScalarKind::Bool) {
      diag.error(call.args[0]->getLoc(), "'abs' needs a number, not bool");
      return ExprInfo::invalid();
    }
    return typed(args[0].type, uniform);
  }
  case Callee::Min:
  case Callee::Max:
  case Callee::Where: {
    if (kind == Callee::Where &&
        !coerce(*call.args[0], args[0], ScalarKind::Bool, "the condition of 'where'"))
      return ExprInfo::invalid();
    size_t first = kind == Callee::Where ? 1 : 0;
    ExprInfo result;
    if (!unify(*call.args[first], args[first], *call.args[first + 1], args[first + 1],
               call.callee.loc, name, result))
      return ExprInfo::invalid();
    if (result.literal != ExprInfo::Literal::None) {
      finalize(*call.args[first], args[first]);
      coerce(*call.args[first + 1], args[first + 1], args[first].type, context);
      result.type = args[first].type;
      result.literal = ExprInfo::Literal::None;
    }
    if (kind != Callee::Where && result.type == ScalarKind::Bool) {
      diag.error(call.callee.loc, "'" + name + "' needs numbers, not bool");
      return ExprInfo::invalid();
    }
    return typed(result.type, uniform);
  }
  case Callee::Cast: {
    ExprInfo &arg = args[0];
    if (call.castTarget == ScalarKind::Bool) {
      diag.error(call.callee.loc, "there is no conversion to bool; compare instead (x != 0)");
      return ExprInfo::invalid();
    }
    if (arg.literal == ExprInfo::Literal::Int ||
        (arg.literal == ExprInfo::Literal::Float && isFloat(call.castTarget)))
      coerce(*call.args[0], arg, call.castTarget, context);
    else
      finalize(*call.args[0], arg);
    if (arg.type == ScalarKind::Bool) {
      diag.error(call.args[0]->getLoc(), "there is no conversion from bool; use where(c, 1.0, "
                                         "0.0)");
      return ExprInfo::invalid();
    }
    return typed(call.castTarget, uniform);
  }
  default:
    return ExprInfo::invalid();
  }
}

bool Sema::checkStencilCall(CallExpr &call, bool isInline) {
  const StencilDecl &callee = *call.stencil;
  if (!checkStencilArguments(call))
    return false;
  if (!isInline)
    return true;
  if (callee.outputs.size() != 1) {
    diag.error(call.callee.loc, "'" + callee.name.name + "' returns " +
                                    llvm::Twine(callee.outputs.size()) +
                                    " values; bind them with let (a, b, ...) = " +
                                    callee.name.name + "(...)");
    return false;
  }
  if (!callee.outputs.front().type.isValid())
    return false;
  const Space &space = currentStencil->space;
  if (callee.space.location && callee.space.location != space.location) {
    diag.error(call.callee.loc,
               "'" + callee.name.name + "' computes values on " +
                   locationName(*callee.space.location) + " but the current point is " +
                   (space.location ? "a" + std::string(*space.location == Location::Edge ? "n "
                                                                                         : " ") +
                                         locationName(*space.location).str()
                                   : std::string("a level")) +
                   ": bind it with let and read it through a connectivity");
    return false;
  }
  if (callee.space.vertical != Vertical::None && space.vertical == Vertical::None) {
    diag.error(call.callee.loc, "'" + callee.name.name + "' computes values with levels but "
                                "stencil '" + currentStencil->name.name + "' has none");
    return false;
  }
  return true;
}

bool Sema::checkStencilArguments(CallExpr &call) {
  const StencilDecl &callee = *call.stencil;
  if (call.args.size() != callee.params.size()) {
    diag.error(call.callee.loc, "'" + callee.name.name + "' takes " +
                                    llvm::Twine(callee.params.size()) + " argument(s) but " +
                                    llvm::Twine(call.args.size()) +
                                    (call.args.size() == 1 ? " was" : " were") + " given");
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < call.args.size(); ++i) {
    const ParamDecl &param = *callee.params[i];
    if (!param.type.isValid()) {
      ok = false;
      continue;
    }
    if (param.type.isField()) {
      ok &= currentProgram ? checkProgramFieldArgument(call, i) : checkFieldArgument(call, i);
      continue;
    }
    Expr &arg = *call.args[i];
    ExprInfo info = checkExpr(arg);
    std::string what = "argument " + std::to_string(i + 1) + " of '" + callee.name.name +
                       "' ('" + param.name.name + "')";
    if (!info.valid) {
      ok = false;
      continue;
    }
    if (!info.uniform) {
      diag.error(arg.getLoc(), what + " is a scalar, so it must be computed from scalar "
                                      "parameters and literals; this one varies from point "
                                      "to point");
      ok = false;
      continue;
    }
    ok &= coerce(arg, info, param.type.element, what);
  }
  return ok;
}

/// Whether a field of type `actual` can be passed for a parameter `expected`
/// (a half-level field can stand for a full-level one).
static bool fitsParameter(const SemType &actual, const SemType &expected) {
  return actual.isField() && actual.location == expected.location &&
         actual.sparse == expected.sparse && actual.element == expected.element &&
         (actual.vertical == expected.vertical ||
          (actual.vertical == Vertical::Half && expected.vertical == Vertical::Full));
}

bool Sema::checkFieldArgument(CallExpr &call, unsigned index) {
  const StencilDecl &callee = *call.stencil;
  const ParamDecl &param = *callee.params[index];
  Expr &arg = *call.args[index];
  std::string what = "argument " + std::to_string(index + 1) + " of '" + callee.name.name +
                     "' ('" + param.name.name + "')";
  SemType actual;
  auto *name = llvm::dyn_cast<NameExpr>(&arg);
  ValueDecl *decl = name && name->subscripts.empty() ? lookupValue(name->name.name) : nullptr;
  auto *let = llvm::dyn_cast_or_null<LetDecl>(decl);
  auto *nested = llvm::dyn_cast<CallExpr>(&arg);
  if (decl && (decl->type.isField() || let)) {
    name->decl = decl;
    if (let && let->form == LetForm::List) {
      diag.error(arg.getLoc(), "'" + name->name.name + "' is a list; pick an entry with " +
                                   name->name.name + "[j]");
      return false;
    }
    if (let && let->form == LetForm::Value)
      let->form = LetForm::Temporary;
    actual = decl->type;
    if (!actual.isValid())
      return false;
  } else if (nested && globals.count(nested->callee.name) &&
             llvm::isa<StencilDecl>(globals.lookup(nested->callee.name))) {
    nested->calleeKind = CallExpr::Callee::Stencil;
    nested->stencil = llvm::cast<StencilDecl>(globals.lookup(nested->callee.name));
    if (!checkStencilArguments(*nested))
      return false;
    if (nested->stencil->outputs.size() != 1) {
      diag.error(nested->callee.loc, "'" + nested->callee.name +
                                         "' returns several values; bind them with let first");
      return false;
    }
    actual = nested->stencil->outputs.front().type;
    if (!actual.isValid())
      return false;
  } else {
    // Any other expression is computed by an application of its own at the
    // caller's points.
    ExprInfo info = checkExpr(arg);
    if (!info.valid)
      return false;
    if (info.literal != ExprInfo::Literal::None &&
        !coerce(arg, info, param.type.element, what))
      return false;
    // That application runs outside any fold around the call: it cannot read
    // the fold's current neighbour.
    const NameExpr *atNeighbor = nullptr;
    ast::walk(arg, [&](const Expr &sub) {
      if (const auto *read = llvm::dyn_cast<NameExpr>(&sub);
          read && read->fold && llvm::is_contained(folds, read->fold) && !atNeighbor)
        atNeighbor = read;
    });
    if (atNeighbor) {
      diag.error(atNeighbor->getLoc(),
                 what + " reads '" + atNeighbor->name.name +
                     "' at the current neighbour of the fold over " +
                     atNeighbor->fold->connectivity.name +
                     ", but an expression argument is computed by an application of its own "
                     "at the current point, outside the fold; compute it in the fold's body");
      return false;
    }
    const Space &space = currentStencil->space;
    if (param.type.location != space.location || param.type.sparse) {
      diag.error(arg.getLoc(), what + " is " + param.type.str() +
                                   ", but an expression is computed at the current point (" +
                                   space.str() + "); pass a field or a let of that type");
      return false;
    }
    actual = SemType::field(space.location, nullptr, space.vertical, info.type);
  }
  if (!fitsParameter(actual, param.type)) {
    diag.error(arg.getLoc(), what + " is " + param.type.str() + " but the argument is " +
                                 actual.str());
    return false;
  }
  return true;
}

bool Sema::checkProgramFieldArgument(CallExpr &call, unsigned index) {
  const StencilDecl &callee = *call.stencil;
  const ParamDecl &param = *callee.params[index];
  Expr &arg = *call.args[index];
  std::string what = "argument " + std::to_string(index + 1) + " of '" + callee.name.name +
                     "' ('" + param.name.name + "')";
  auto *name = llvm::dyn_cast<NameExpr>(&arg);
  ValueDecl *decl = name && name->subscripts.empty() ? lookupValue(name->name.name) : nullptr;
  if (decl && !decl->type.isValid())
    return false; // its declaration is wrong, and reported
  if (!decl || !decl->type.isField()) {
    if (name && name->subscripts.empty() && !decl) {
      reportUnknownName(name->name);
      return false;
    }
    diag.error(arg.getLoc(), what + " is a field: pass a field parameter or a var of the "
                                    "program");
    return false;
  }
  name->decl = decl;
  if (!fitsParameter(decl->type, param.type)) {
    diag.error(arg.getLoc(), what + " is " + param.type.str() + " but '" + name->name.name +
                                 "' is " + decl->type.str());
    return false;
  }
  return true;
}
