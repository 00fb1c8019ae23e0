//===- Sema.cpp - declarations, stencils and programs ---------------------===//

#include "compiler/Sema.h"
#include "compiler/LevelReach.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace fusec;
using namespace fusec::ast;

bool Sema::check(TranslationUnit &translationUnit) {
  unit = &translationUnit;
  unit->nlev.type = SemType::scalar(ScalarKind::I32);
  declareGlobals();
  resolvePrecisions();
  resolveConnectivities();
  for (auto &file : unit->files)
    for (DeclPtr &decl : file->decls) {
      if (auto *stencil = llvm::dyn_cast<StencilDecl>(decl.get()))
        resolveStencilSignature(*stencil);
      else if (auto *program = llvm::dyn_cast<ProgramDecl>(decl.get()))
        for (auto &param : program->params) {
          param->type = resolveType(param->typeSyntax);
          if (param->type.isScalar() && param->intent != Intent::In)
            diag.error(param->name.loc, "scalar parameter '" + param->name.name +
                                            "' cannot be an output: results are fields");
          if (param->type.isPoints() && param->intent != Intent::In)
            diag.error(param->name.loc, "point list '" + param->name.name +
                                            "' cannot be an output: it is a domain");
        }
    }
  applyDefines();
  unsigned errorsBefore = diag.getErrorCount();
  checkRecursion();
  // Level reads are summarised through calls, which needs an acyclic call
  // graph.
  callGraphIsAcyclic = diag.getErrorCount() == errorsBefore;
  for (auto &file : unit->files)
    for (DeclPtr &decl : file->decls) {
      if (diag.shouldStop())
        return false;
      if (auto *stencil = llvm::dyn_cast<StencilDecl>(decl.get()))
        checkStencilBody(*stencil);
    }
  // Programs come last, so that the level reach of an application is only
  // computed over stencils that checked without errors.
  bool stencilsValid = !diag.hasErrors();
  for (auto &file : unit->files)
    for (DeclPtr &decl : file->decls) {
      if (diag.shouldStop())
        return false;
      if (auto *program = llvm::dyn_cast<ProgramDecl>(decl.get()))
        checkProgram(*program, stencilsValid);
    }
  return !diag.hasErrors();
}

//===----------------------------------------------------------------------===//
// Global declarations
//===----------------------------------------------------------------------===//

bool Sema::isReservedName(llvm::StringRef name) const {
  return parseLocation(name) || parseScalarKind(name) || name == "K" || name == "KHalf" ||
         name == "nlev";
}

static bool isBuiltinFunction(llvm::StringRef name) {
  return llvm::is_contained({"sqrt", "exp", "log", "abs", "floor", "ceil"}, name);
}

void Sema::declareGlobals() {
  for (auto &file : unit->files)
    for (DeclPtr &decl : file->decls) {
      if (llvm::isa<ImportDecl>(decl.get()))
        continue;
      const Identifier &name = decl->name;
      if (isReservedName(name.name) || isBuiltinFunction(name.name)) {
        diag.error(name.loc, "'" + name.name + "' is a built-in name and cannot be declared");
        continue;
      }
      auto [it, inserted] = globals.try_emplace(name.name, decl.get());
      if (!inserted) {
        diag.error(name.loc, "'" + name.name + "' is already declared");
        diag.note(it->second->name.loc, "as a " + it->second->getKindName() + " here");
      }
    }
}

bool Sema::checkLocalName(const Identifier &name) {
  if (isReservedName(name.name)) {
    diag.error(name.loc, "'" + name.name + "' is a built-in name and cannot be declared");
    return false;
  }
  if (auto it = globals.find(name.name); it != globals.end()) {
    diag.error(name.loc, "'" + name.name + "' is already declared as a " +
                             it->second->getKindName());
    diag.note(it->second->name.loc, "declared here");
    return false;
  }
  return true;
}

bool Sema::declareLocal(ValueDecl &decl) {
  if (!checkLocalName(decl.name))
    return false;
  auto [it, inserted] = locals.try_emplace(decl.name.name, &decl);
  if (!inserted) {
    diag.error(decl.name.loc, "'" + decl.name.name + "' is already declared");
    diag.note(it->second->name.loc, "previous declaration here");
    return false;
  }
  return true;
}

void Sema::resolvePrecisions() {
  for (auto &file : unit->files)
    for (DeclPtr &decl : file->decls) {
      auto *precision = llvm::dyn_cast<PrecisionDecl>(decl.get());
      if (!precision)
        continue;
      std::optional<ScalarKind> type = parseScalarKind(precision->type.name);
      if (!type || !isFloat(*type)) {
        diag.error(precision->type.loc, "a precision is f64 or f32, not '" +
                                            precision->type.name + "'");
        continue;
      }
      precision->resolved = *type;
      for (const Define &define : defines) {
        if (define.name != precision->name.name)
          continue;
        std::optional<ScalarKind> override = parseScalarKind(define.value);
        if (!override || !isFloat(*override))
          diag.error({}, "-D " + define.name + "=" + define.value + ": the precision '" +
                             define.name + "' can only be set to f64 or f32");
        else
          precision->resolved = *override;
      }
    }
}

void Sema::resolveConnectivities() {
  for (auto &file : unit->files)
    for (DeclPtr &decl : file->decls) {
      auto *conn = llvm::dyn_cast<ConnectivityDecl>(decl.get());
      if (!conn)
        continue;
      std::optional<Location> from = parseLocation(conn->source.name);
      std::optional<Location> to = parseLocation(conn->target.name);
      if (!from)
        diag.error(conn->source.loc,
                   "'" + conn->source.name + "' is not a location (Cell, Edge or Vertex)");
      if (!to)
        diag.error(conn->target.loc,
                   "'" + conn->target.name + "' is not a location (Cell, Edge or Vertex)");
      if (conn->size < 1 || conn->size > 64)
        diag.error(conn->sizeLoc, "a connectivity has between 1 and 64 neighbours, not " +
                                      llvm::Twine(conn->size));
      conn->from = from.value_or(Location::Cell);
      conn->to = to.value_or(Location::Cell);
    }
}

void Sema::applyDefines() {
  for (const Define &define : defines) {
    std::string prefix = "-D " + define.name + "=" + define.value + ": ";
    if (auto it = globals.find(define.name); it != globals.end()) {
      if (!llvm::isa<PrecisionDecl>(it->second))
        diag.error({}, prefix + "'" + define.name + "' is a " + it->second->getKindName() +
                           "; -D sets scalar parameters, nlev and precisions");
      continue; // precisions were resolved with their overrides
    }
    if (define.name == "nlev") {
      std::optional<Constant> value = parseConstant(define.value, ScalarKind::I32);
      if (!value || value->intValue < 1)
        diag.error({}, prefix + "nlev must be a positive integer");
      else
        unit->fixedNlev = value->intValue;
      continue;
    }
    bool found = false;
    for (auto &file : unit->files)
      for (DeclPtr &decl : file->decls) {
        auto *program = llvm::dyn_cast<ProgramDecl>(decl.get());
        if (!program)
          continue;
        for (auto &param : program->params) {
          if (param->name.name != define.name || !param->type.isValid())
            continue;
          found = true;
          if (!param->type.isScalar()) {
            diag.error({}, prefix + "'" + define.name + "' is a field parameter of program '" +
                               program->name.name + "'; only scalars can be fixed");
            continue;
          }
          param->fixedValue = parseConstant(define.value, param->type.element);
          if (!param->fixedValue)
            diag.error({}, prefix + "'" + define.name + "' is a " +
                               scalarKindName(param->type.element) + " parameter of program '" +
                               program->name.name + "', and '" + define.value +
                               "' is not a " + scalarKindName(param->type.element) + " value");
        }
      }
    if (!found)
      diag.error({}, prefix + "no program has a scalar parameter '" + define.name +
                         "' (and it is neither nlev nor a precision)");
  }
}

std::optional<ScalarKind> Sema::resolveScalarType(const Identifier &name) {
  if (std::optional<ScalarKind> kind = parseScalarKind(name.name))
    return kind;
  if (auto it = globals.find(name.name); it != globals.end())
    if (auto *precision = llvm::dyn_cast<PrecisionDecl>(it->second))
      return precision->resolved;
  return std::nullopt;
}

SemType Sema::resolveType(const TypeSyntax &syntax) {
  if (syntax.isPoints) {
    std::optional<Location> location =
        syntax.parts.size() == 2 && syntax.parts[1].name == "K"
            ? parseLocation(syntax.parts[0].name)
            : std::nullopt;
    if (!location) {
      diag.error(syntax.loc, "a point list is points<Cell, K> (or Edge or Vertex): a location "
                             "and K, one level per point");
      return {};
    }
    return SemType::points(*location);
  }
  if (!syntax.isField) {
    const Identifier &name = syntax.parts.front();
    if (std::optional<ScalarKind> kind = resolveScalarType(name))
      return SemType::scalar(*kind);
    diag.error(name.loc, "unknown type '" + name.name +
                             "' (expected f64, f32, i32, bool, a precision or field<...>)");
    return {};
  }
  const Identifier &elementName = syntax.parts.back();
  std::optional<ScalarKind> element = resolveScalarType(elementName);
  if (!element) {
    diag.error(elementName.loc, "a field type ends with its element type (f64, f32, i32, "
                                "bool or a precision), not '" +
                                    elementName.name + "'");
    return {};
  }
  std::optional<Location> location;
  const ConnectivityDecl *sparse = nullptr;
  Vertical vertical = Vertical::None;
  // The order is fixed: location, sparse connectivity, K or KHalf.
  enum { AtStart, AfterLocation, AfterSparse, AfterLevels } position = AtStart;
  for (const Identifier &part : llvm::ArrayRef(syntax.parts).drop_back()) {
    if (std::optional<Location> loc = parseLocation(part.name)) {
      if (position != AtStart) {
        diag.error(part.loc, "the location comes first in a field type");
        return {};
      }
      location = loc;
      position = AfterLocation;
    } else if (part.name == "K" || part.name == "KHalf") {
      if (position == AfterLevels) {
        diag.error(part.loc, "a field has at most one vertical dimension");
        return {};
      }
      vertical = part.name == "K" ? Vertical::Full : Vertical::Half;
      position = AfterLevels;
    } else if (auto it = globals.find(part.name);
               it != globals.end() && llvm::isa<ConnectivityDecl>(it->second)) {
      const auto *conn = llvm::cast<ConnectivityDecl>(it->second);
      if (position != AfterLocation) {
        diag.error(part.loc, position == AtStart
                                 ? "a sparse field needs its location first: field<" +
                                       locationName(conn->from) + ", " + conn->name.name + ", ...>"
                                 : "the sparse connectivity comes right after the location");
        return {};
      }
      if (conn->from != *location) {
        diag.error(part.loc, conn->name.name + " starts at " + locationName(conn->from) +
                                 ", but the field lives on " + locationName(*location));
        return {};
      }
      sparse = conn;
      position = AfterSparse;
    } else if (resolveScalarType(part)) {
      diag.error(part.loc, "the element type comes last in a field type");
      return {};
    } else {
      diag.error(part.loc, "'" + part.name +
                               "' is not a location, connectivity, K or KHalf");
      return {};
    }
  }
  if (!location && vertical == Vertical::None) {
    diag.error(syntax.loc, "a field needs a location (Cell, Edge, Vertex), K or both");
    return {};
  }
  return SemType::field(location, sparse, vertical, *element);
}

//===----------------------------------------------------------------------===//
// Stencils
//===----------------------------------------------------------------------===//

void Sema::resolveStencilSignature(StencilDecl &stencil) {
  llvm::StringSet<> names;
  for (auto &param : stencil.params) {
    param->type = resolveType(param->typeSyntax);
    if (param->type.isPoints()) {
      diag.error(param->typeSyntax.loc, "a point list is a program parameter, applied as a "
                                        "domain (@ " + param->name.name + "); a stencil "
                                        "reads fields and scalars");
      param->type = {};
    }
    if (checkLocalName(param->name) && !names.insert(param->name.name).second)
      diag.error(param->name.loc, "parameter '" + param->name.name + "' is declared twice");
  }
  const OutputDecl *first = nullptr;
  for (OutputDecl &output : stencil.outputs) {
    output.type = resolveType(output.typeSyntax);
    if (!output.name.name.empty() && !names.insert(output.name.name).second)
      diag.error(output.name.loc, "'" + output.name.name + "' is already declared");
    if (!output.type.isValid())
      continue;
    if (output.type.isPoints()) {
      diag.error(output.typeSyntax.loc, "a stencil output is a field, not a point list");
      output.type = {};
      continue;
    }
    if (!output.type.isField()) {
      diag.error(output.typeSyntax.loc, "a stencil output is a field (e.g. field<Edge, K, " +
                                            scalarKindName(output.type.element) + ">), not a " +
                                            output.type.str());
      output.type = {};
      continue;
    }
    if (output.type.sparse) {
      diag.error(output.typeSyntax.loc, "a stencil output cannot be sparse");
      output.type = {};
      continue;
    }
    if (!first) {
      first = &output;
      stencil.space = Space{output.type.location, output.type.vertical};
    } else if (output.type.location != first->type.location ||
               output.type.vertical != first->type.vertical) {
      diag.error(output.typeSyntax.loc,
                 "all outputs of a stencil live on the same location and levels: this one is " +
                     output.type.str() + " but the first is " + first->type.str());
    }
  }
}

void Sema::checkRecursion() {
  // Depth-first search over the calls of each stencil; a call that reaches a
  // stencil still on the stack closes a cycle.
  enum class State { Unvisited, Active, Done };
  llvm::DenseMap<const StencilDecl *, State> states;
  std::vector<const StencilDecl *> stack;
  std::function<void(const StencilDecl &)> visit = [&](const StencilDecl &stencil) {
    states[&stencil] = State::Active;
    stack.push_back(&stencil);
    auto visitCall = [&](const Expr &expr) {
      const auto *call = llvm::dyn_cast<CallExpr>(&expr);
      if (!call || diag.shouldStop())
        return;
      auto it = globals.find(call->callee.name);
      if (it == globals.end())
        return;
      const auto *callee = llvm::dyn_cast<StencilDecl>(it->second);
      if (!callee)
        return;
      State state = states.lookup(callee);
      if (state == State::Active) {
        std::string cycle;
        for (const StencilDecl *frame :
             llvm::make_range(llvm::find(stack, callee), stack.end()))
          cycle += frame->name.name + " -> ";
        diag.error(call->callee.loc, "stencil '" + callee->name.name +
                                         "' calls itself (" + cycle + callee->name.name +
                                         "); recursion is not allowed");
      } else if (state == State::Unvisited) {
        if (stack.size() >= kMaxCallDepth)
          diag.error(call->callee.loc, "stencil calls are nested more than " +
                                           llvm::Twine(kMaxCallDepth) + " deep");
        else
          visit(*callee);
      }
    };
    for (const StmtPtr &stmt : stencil.body) {
      if (const auto *let = llvm::dyn_cast<LetStmt>(stmt.get()))
        walk(*let->value, visitCall);
      else if (const auto *ret = llvm::dyn_cast<ReturnStmt>(stmt.get()))
        for (const ExprPtr &value : ret->values)
          walk(*value, visitCall);
    }
    stack.pop_back();
    states[&stencil] = State::Done;
  };
  for (auto &file : unit->files)
    for (DeclPtr &decl : file->decls)
      if (auto *stencil = llvm::dyn_cast<StencilDecl>(decl.get()))
        if (states.lookup(stencil) == State::Unvisited)
          visit(*stencil);
}

void Sema::checkStencilBody(StencilDecl &stencil) {
  // Where the outputs live decides every check of the body.
  if (llvm::any_of(stencil.outputs,
                   [](const OutputDecl &output) { return !output.type.isValid(); }))
    return;
  currentStencil = &stencil;
  currentProgram = nullptr;
  locals.clear();
  for (auto &param : stencil.params)
    locals.try_emplace(param->name.name, param.get());
  const ReturnStmt *ret = nullptr;
  for (StmtPtr &stmt : stencil.body) {
    if (diag.shouldStop())
      break;
    if (ret) {
      diag.error(stmt->loc, "nothing may follow 'return' in a stencil");
      break;
    }
    if (auto *let = llvm::dyn_cast<LetStmt>(stmt.get())) {
      checkLet(*let);
    } else if (auto *returnStmt = llvm::dyn_cast<ReturnStmt>(stmt.get())) {
      checkReturn(*returnStmt);
      ret = returnStmt;
    }
  }
  if (!ret)
    diag.error(stencil.name.loc, "stencil '" + stencil.name.name + "' has no 'return'");
  currentStencil = nullptr;
}

void Sema::checkLet(LetStmt &let) {
  Expr &value = *let.value;
  auto declareAll = [&] {
    for (auto &name : let.names)
      declareLocal(*name);
  };
  auto *call = llvm::dyn_cast<CallExpr>(&value);
  bool isStencilCall = call && globals.count(call->callee.name) &&
                       llvm::isa<StencilDecl>(globals.lookup(call->callee.name));
  if (isStencilCall) {
    call->calleeKind = CallExpr::Callee::Stencil;
    call->stencil = llvm::cast<StencilDecl>(globals.lookup(call->callee.name));
    const StencilDecl &callee = *call->stencil;
    bool valid = checkStencilCall(*call, /*isInline=*/false);
    if (valid && let.names.size() != callee.outputs.size()) {
      diag.error(let.names.front().get()->name.loc,
                 "'" + callee.name.name + "' returns " + llvm::Twine(callee.outputs.size()) +
                     " value(s) but " + llvm::Twine(let.names.size()) + " name(s) are bound");
      valid = false;
    }
    for (auto &name : let.names) {
      name->form = LetForm::CallResult;
      name->space = callee.space;
      if (valid)
        name->type = callee.outputs[name->resultIndex].type;
    }
    declareAll();
    return;
  }
  if (let.names.size() != 1) {
    diag.error(let.names[1]->name.loc,
               "only a call of a stencil with several outputs binds several names");
    declareAll();
    return;
  }
  LetDecl &decl = *let.names.front();
  decl.space = currentStencil->space;
  auto *fold = llvm::dyn_cast<FoldExpr>(&value);
  if (fold && fold->op == FoldExpr::Op::Each) {
    decl.form = LetForm::List;
    const ConnectivityDecl *conn = lookupConnectivity(fold->connectivity);
    if (conn && checkConnectivityStart(*conn, fold->connectivity.loc)) {
      fold->resolved = conn;
      decl.listConnectivity = conn;
      folds.push_back(fold);
      ExprInfo body = checkExpr(*fold->body);
      folds.pop_back();
      if (body.valid) {
        finalize(*fold->body, body);
        fold->type = body.type;
        decl.type = SemType::field(decl.space.location, nullptr, decl.space.vertical, body.type);
      }
    }
    declareAll();
    return;
  }
  ExprInfo info = checkExpr(value);
  if (info.valid) {
    finalize(value, info);
    decl.type = SemType::field(decl.space.location, nullptr, decl.space.vertical, info.type);
  }
  declareAll();
}

void Sema::checkReturn(ReturnStmt &ret) {
  const StencilDecl &stencil = *currentStencil;
  if (ret.values.size() != stencil.outputs.size()) {
    diag.error(ret.loc, "stencil '" + stencil.name.name + "' has " +
                            llvm::Twine(stencil.outputs.size()) + " output(s) but returns " +
                            llvm::Twine(ret.values.size()) + " value(s)");
    return;
  }
  for (auto [index, value] : llvm::enumerate(ret.values)) {
    ExprInfo info = checkExpr(*value);
    const OutputDecl &output = stencil.outputs[index];
    if (!info.valid || !output.type.isValid())
      continue;
    std::string what = output.name.name.empty()
                           ? "the output of '" + stencil.name.name + "'"
                           : "output '" + output.name.name + "'";
    coerce(*value, info, output.type.element, "the value returned for " + what);
  }
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

void Sema::checkProgram(ProgramDecl &program, bool stencilsValid) {
  checkLevelReach = stencilsValid && callGraphIsAcyclic;
  currentProgram = &program;
  currentStencil = nullptr;
  locals.clear();
  for (auto &param : program.params)
    declareLocal(*param);
  checkProgramBody(program.body, /*topLevel=*/true);
  currentProgram = nullptr;
}

void Sema::checkProgramBody(std::vector<StmtPtr> &body, bool topLevel) {
  for (StmtPtr &stmt : body) {
    if (diag.shouldStop())
      return;
    switch (stmt->getKind()) {
    case Stmt::Kind::Var: {
      VarDecl &var = *llvm::cast<VarStmt>(*stmt).var;
      if (!topLevel)
        diag.error(stmt->loc, "'var' declarations belong at the top level of a program, "
                              "outside 'if'");
      var.type = resolveType(var.typeSyntax);
      if (var.type.isPoints())
        diag.error(var.typeSyntax.loc, "a var is a field buffer; a point list is a program "
                                       "parameter");
      else if (var.type.isScalar())
        diag.error(var.typeSyntax.loc, "a var is a field buffer, not a " + var.type.str());
      else if (var.type.sparse)
        diag.error(var.typeSyntax.loc, "a var cannot be sparse: stencils never write sparse "
                                       "fields");
      declareLocal(var);
      break;
    }
    case Stmt::Kind::Assign: checkAssignment(llvm::cast<AssignStmt>(*stmt)); break;
    case Stmt::Kind::Exchange: checkExchange(llvm::cast<ExchangeStmt>(*stmt)); break;
    case Stmt::Kind::If: {
      auto &ifStmt = llvm::cast<IfStmt>(*stmt);
      ExprInfo condition = checkExpr(*ifStmt.condition);
      if (condition.valid)
        coerce(*ifStmt.condition, condition, ScalarKind::Bool, "the condition of 'if'");
      checkProgramBody(ifStmt.thenBody, /*topLevel=*/false);
      checkProgramBody(ifStmt.elseBody, /*topLevel=*/false);
      break;
    }
    default:
      break;
    }
  }
}

void Sema::checkExchange(ExchangeStmt &exchange) {
  llvm::StringSet<> seen;
  for (const Identifier &name : exchange.fields) {
    ValueDecl *decl = lookupValue(name.name);
    if (!decl) {
      reportUnknownName(name);
      continue;
    }
    if (!decl->type.isValid())
      continue; // its declaration is wrong, and reported
    if (!decl->type.isField()) {
      diag.error(name.loc, "'" + name.name + "' is not a field: only fields are exchanged");
      continue;
    }
    if (!seen.insert(name.name).second) {
      diag.error(name.loc, "'" + name.name + "' is exchanged twice");
      continue;
    }
    exchange.decls.push_back(decl);
  }
}

void Sema::checkAssignment(AssignStmt &assign) {
  CallExpr &call = *assign.call;
  auto it = globals.find(call.callee.name);
  if (it == globals.end()) {
    diag.error(call.callee.loc, "unknown stencil '" + call.callee.name + "'");
    return;
  }
  auto *stencil = llvm::dyn_cast<StencilDecl>(it->second);
  if (!stencil) {
    diag.error(call.callee.loc, "'" + call.callee.name + "' is a " +
                                    it->second->getKindName() + ", not a stencil");
    return;
  }
  call.calleeKind = CallExpr::Callee::Stencil;
  call.stencil = stencil;
  unsigned errorsBefore = diag.getErrorCount();
  checkStencilArguments(call);
  // Targets and domain depend on the outputs, whose errors are reported.
  if (llvm::any_of(stencil->outputs,
                   [](const OutputDecl &output) { return !output.type.isValid(); }))
    return;

  // Targets.
  if (assign.targets.size() != stencil->outputs.size()) {
    diag.error(assign.targets.front().loc,
               "'" + stencil->name.name + "' returns " + llvm::Twine(stencil->outputs.size()) +
                   " value(s) but " + llvm::Twine(assign.targets.size()) +
                   " field(s) are assigned");
  } else {
    llvm::StringSet<> seen;
    for (auto [index, target] : llvm::enumerate(assign.targets)) {
      ValueDecl *decl = lookupValue(target.name);
      if (!decl) {
        reportUnknownName(target);
        continue;
      }
      if (!seen.insert(target.name).second) {
        diag.error(target.loc, "'" + target.name + "' is assigned twice");
        continue;
      }
      auto *param = llvm::dyn_cast<ParamDecl>(decl);
      if (!decl->type.isValid())
        continue; // its declaration is wrong, and reported
      if (decl->type.isPoints()) {
        diag.error(target.loc, "'" + target.name + "' is a point list; only fields are assigned");
        continue;
      }
      if (decl->getKind() == ValueDecl::Kind::Nlev || !decl->type.isField()) {
        diag.error(target.loc, "'" + target.name + "' is a scalar; only fields are assigned");
        continue;
      }
      if (param && param->intent == Intent::In) {
        diag.error(target.loc, "cannot assign to '" + target.name +
                                   "': it is an 'in' parameter (declare it 'out' or 'inout')");
        diag.note(param->name.loc, "declared here");
        continue;
      }
      const SemType &output = stencil->outputs[index].type;
      const SemType &field = decl->type;
      bool fits = output.isValid() && field.location == output.location &&
                  field.element == output.element && !field.sparse &&
                  (field.vertical == output.vertical ||
                   (field.vertical == Vertical::Half && output.vertical == Vertical::Full));
      if (output.isValid() && !fits)
        diag.error(target.loc, "'" + target.name + "' is " + field.str() + " but output " +
                                   llvm::Twine(index + 1) + " of '" + stencil->name.name +
                                   "' is " + output.str());
      assign.targetDecls.push_back(decl);
    }
  }
  checkDomain(assign, *stencil);
  if (checkLevelReach && diag.getErrorCount() == errorsBefore)
    LevelReach(*unit, diag).checkApplication(assign);
}

void Sema::checkDomain(AssignStmt &assign, const StencilDecl &stencil) {
  Domain &domain = assign.domain;
  const Space &space = stencil.space;
  if (domain.points) {
    checkPointsDomain(domain, stencil);
    return;
  }
  auto checkBound = [&](ExprPtr &bound) {
    ExprInfo info = checkExpr(*bound);
    if (info.valid)
      coerce(*bound, info, ScalarKind::I32, "a domain bound");
  };
  if (domain.location) {
    std::optional<Location> location = parseLocation(domain.location->name);
    if (!location) {
      diag.error(domain.location->loc, "'" + domain.location->name +
                                           "' is not a location (Cell, Edge, Vertex) or K");
      return;
    }
    domain.resolvedLocation = location;
    if (!space.location)
      diag.error(domain.location->loc, "'" + stencil.name.name +
                                           "' computes levels only; its domain is @ K[lo:hi]");
    else if (*space.location != *location)
      diag.error(domain.location->loc, "'" + stencil.name.name + "' computes values on " +
                                           locationName(*space.location) +
                                           " but the domain is on " + locationName(*location));
    checkBound(domain.lower);
    checkBound(domain.upper);
  } else if (space.location) {
    diag.error(domain.loc, "'" + stencil.name.name + "' computes values on " +
                               locationName(*space.location) + "; the domain needs @ " +
                               locationName(*space.location) + "[lo:hi]");
  }
  if (domain.hasLevels) {
    if (space.vertical == Vertical::None)
      diag.error(domain.levelsLoc, "'" + stencil.name.name +
                                       "' computes values without levels; the domain takes "
                                       "no K[lo:hi]");
    checkBound(domain.levelLower);
    checkBound(domain.levelUpper);
  }
}

void Sema::checkPointsDomain(Domain &domain, const StencilDecl &stencil) {
  const Identifier &name = *domain.points;
  ValueDecl *decl = lookupValue(name.name);
  if (!decl) {
    reportUnknownName(name);
    return;
  }
  if (!decl->type.isValid())
    return; // its declaration is wrong, and reported
  if (!decl->type.isPoints()) {
    diag.error(name.loc, "'" + name.name + "' is not a point list; a domain is @ Loc[lo:hi], "
                         "K[lo:hi] or a points<Loc, K> parameter");
    return;
  }
  const Space &space = stencil.space;
  if (space.location != decl->type.location || space.vertical != Vertical::Full) {
    diag.error(name.loc, "'" + stencil.name.name + "' computes values on " + space.str() +
                             " but '" + name.name + "' lists " +
                             locationName(*decl->type.location).str() +
                             " points, each at one level (" +
                             locationName(*decl->type.location).str() + " x K)");
    return;
  }
  domain.pointsDecl = llvm::cast<ParamDecl>(decl);
  domain.resolvedLocation = decl->type.location;
}
