//===- LevelReach.cpp - compile-time checks of vertical reads --------------===//

#include "compiler/LevelReach.h"
#include "compiler/ConstantEval.h"

using namespace fusec;
using namespace fusec::ast;

void LevelReach::merge(Summary &into, const Summary &from, int64_t shift, const Expr *culprit) {
  for (size_t i = 0; i < from.size(); ++i) {
    if (!from[i])
      continue;
    Range shifted = *from[i];
    shifted.min += shift;
    shifted.max += shift;
    if (culprit)
      shifted.minCulprit = shifted.maxCulprit = culprit;
    std::optional<Range> &slot = into[i];
    if (!slot) {
      slot = shifted;
      continue;
    }
    if (shifted.min < slot->min) {
      slot->min = shifted.min;
      slot->minCulprit = shifted.minCulprit;
    }
    if (shifted.max > slot->max) {
      slot->max = shifted.max;
      slot->maxCulprit = shifted.maxCulprit;
    }
  }
}

const LevelReach::Summary &LevelReach::summarize(const StencilDecl &stencil) {
  if (auto it = stencilSummaries.find(&stencil); it != stencilSummaries.end())
    return it->second;
  Summary summary(stencil.params.size());
  // Lets in statement order: each only reads earlier ones, whose summaries
  // are then known, so long chains of lets do not recurse deeply.
  for (const StmtPtr &stmt : stencil.body) {
    if (const auto *let = llvm::dyn_cast<LetStmt>(stmt.get()))
      letReach(*let->names.front(), stencil);
    else if (const auto *ret = llvm::dyn_cast<ReturnStmt>(stmt.get()))
      for (const ExprPtr &value : ret->values)
        collect(*value, stencil, summary);
  }
  return stencilSummaries[&stencil] = std::move(summary);
}

const LevelReach::Summary &LevelReach::letReach(const LetDecl &let, const StencilDecl &stencil) {
  if (auto it = letSummaries.find(&let); it != letSummaries.end())
    return it->second;
  const Expr &value = *let.stmt->value;
  Summary summary;
  if (let.form == LetForm::CallResult)
    summary = callReach(llvm::cast<CallExpr>(value), stencil);
  else if (const auto *each = llvm::dyn_cast<FoldExpr>(&value); each && let.form == LetForm::List)
    summary = exprReach(*each->body, stencil);
  else
    summary = exprReach(value, stencil);
  return letSummaries[&let] = std::move(summary);
}

LevelReach::Summary LevelReach::exprReach(const Expr &expr, const StencilDecl &stencil) {
  Summary summary(stencil.params.size());
  collect(expr, stencil, summary);
  return summary;
}

void LevelReach::collect(const Expr &expr, const StencilDecl &stencil, Summary &out) {
  switch (expr.getKind()) {
  case Expr::Kind::Name: {
    const auto &name = llvm::cast<NameExpr>(expr);
    if (name.levelShift) {
      // A data-dependent level is unknown here; only its own reads count.
      collect(*name.levelShift, stencil, out);
      return;
    }
    if (const auto *param = llvm::dyn_cast_or_null<ParamDecl>(name.decl)) {
      if (param->type.isField() && param->type.hasLevels()) {
        Summary direct(stencil.params.size());
        direct[param->index] = Range{name.levelOffset, name.levelOffset, &name, &name};
        merge(out, direct, 0, nullptr);
      }
    } else if (const auto *let = llvm::dyn_cast_or_null<LetDecl>(name.decl)) {
      // Copy: letReach may grow the map that holds the summary.
      Summary inner = letReach(*let, stencil);
      merge(out, inner, name.levelOffset, &name);
    }
    return;
  }
  case Expr::Kind::Call: {
    const auto &call = llvm::cast<CallExpr>(expr);
    if (call.calleeKind == CallExpr::Callee::Stencil) {
      merge(out, callReach(call, stencil), 0, &call);
      return;
    }
    for (const ExprPtr &arg : call.args)
      collect(*arg, stencil, out);
    return;
  }
  case Expr::Kind::Fold: collect(*llvm::cast<FoldExpr>(expr).body, stencil, out); return;
  case Expr::Kind::Unary: collect(*llvm::cast<UnaryExpr>(expr).operand, stencil, out); return;
  case Expr::Kind::Binary:
    collect(*llvm::cast<BinaryExpr>(expr).lhs, stencil, out);
    collect(*llvm::cast<BinaryExpr>(expr).rhs, stencil, out);
    return;
  default:
    return;
  }
}

LevelReach::Summary LevelReach::callReach(const CallExpr &call, const StencilDecl &stencil) {
  Summary result(stencil.params.size());
  // Copy: summarize may grow the map that holds the summary.
  Summary callee = summarize(*call.stencil);
  for (size_t i = 0; i < callee.size() && i < call.args.size(); ++i) {
    if (!callee[i])
      continue;
    Summary arg = exprReach(*call.args[i], stencil);
    for (std::optional<Range> &range : arg) {
      if (!range)
        continue;
      range->min += callee[i]->min;
      range->max += callee[i]->max;
    }
    merge(result, arg, 0, nullptr);
  }
  return result;
}

/// `K-1`, `K+2` or `` for a plain read.
static std::string describeOffset(int64_t offset) {
  if (offset == 0)
    return "";
  return " at K" + std::string(offset > 0 ? "+" : "-") + std::to_string(std::abs(offset));
}

/// What reads the field, in the words of the stencil's source: `'vn' is read
/// at K-1` for a field parameter, `computing 'div' at K-1 reads` otherwise.
static std::string describeCulprit(const Expr &culprit) {
  if (const auto *name = llvm::dyn_cast<NameExpr>(&culprit)) {
    if (llvm::isa<ParamDecl>(name->decl))
      return "'" + name->name.name + "' is read" + describeOffset(name->levelOffset);
    return "computing '" + name->name.name + "'" + describeOffset(name->levelOffset) + " reads";
  }
  return "calling '" + llvm::cast<CallExpr>(culprit).callee.name + "' reads";
}

void LevelReach::checkApplication(const AssignStmt &assign) {
  const CallExpr &call = *assign.call;
  if (!call.stencil)
    return;
  const StencilDecl &stencil = *call.stencil;
  if (stencil.space.vertical == Vertical::None)
    return;
  const Domain &domain = assign.domain;
  std::optional<LevelNumber> lower = LevelNumber{0, 0};
  std::optional<LevelNumber> upper =
      LevelNumber{1, stencil.space.vertical == Vertical::Half ? 1 : 0};
  llvm::SMLoc lowerLoc = domain.loc, upperLoc = domain.loc;
  if (domain.hasLevels) {
    lower = evaluateLevelNumber(*domain.levelLower, unit);
    upper = evaluateLevelNumber(*domain.levelUpper, unit);
    lowerLoc = domain.levelLower->getLoc();
    upperLoc = domain.levelUpper->getLoc();
  }
  if (upper && unit.fixedNlev && upper->nlevFactor != 0)
    upper = LevelNumber{0, upper->nlevFactor * *unit.fixedNlev + upper->constant};
  if (lower && unit.fixedNlev && lower->nlevFactor != 0)
    lower = LevelNumber{0, lower->nlevFactor * *unit.fixedNlev + lower->constant};
  // An empty application reads nothing.
  if (lower && upper && lower->nlevFactor == upper->nlevFactor &&
      upper->constant <= lower->constant)
    return;

  Summary summary = summarize(stencil);
  for (size_t i = 0; i < summary.size() && i < call.args.size(); ++i) {
    const auto *arg = llvm::dyn_cast<NameExpr>(call.args[i].get());
    if (!summary[i] || !arg || !arg->decl || !arg->decl->type.hasLevels())
      continue;
    const Range &range = *summary[i];
    const std::string &field = arg->name.name;
    if (lower && lower->nlevFactor == 0 && lower->constant + range.min < 0) {
      const Expr &culprit = *range.minCulprit;
      const auto *name = llvm::dyn_cast<NameExpr>(&culprit);
      int64_t firstRead = lower->constant + range.min;
      std::string start = " but the application starts at level " + std::to_string(lower->constant);
      if (name && (llvm::isa<ParamDecl>(name->decl) || lower->constant + name->levelOffset < 0))
        diag.error(lowerLoc, "'" + name->name.name + "' is read" +
                                 describeOffset(name->levelOffset) + start);
      else
        diag.error(lowerLoc, describeCulprit(culprit) + " '" + field + "' at level " +
                                 std::to_string(firstRead) + start);
      diag.note(culprit.getLoc(), "read here, in stencil '" + stencil.name.name + "'");
      return;
    }
    if (!upper)
      continue;
    LevelNumber count{unit.fixedNlev ? 0 : 1,
                      (unit.fixedNlev ? *unit.fixedNlev : 0) +
                          (arg->decl->type.vertical == Vertical::Half ? 1 : 0)};
    LevelNumber lastRead{upper->nlevFactor, upper->constant - 1 + range.max};
    LevelNumber lastLevel{count.nlevFactor, count.constant - 1};
    if (lastRead.nlevFactor == lastLevel.nlevFactor && lastRead.constant > lastLevel.constant) {
      const Expr &culprit = *range.maxCulprit;
      const auto *name = llvm::dyn_cast<NameExpr>(&culprit);
      std::string reads = name && llvm::isa<ParamDecl>(name->decl)
                              ? describeCulprit(culprit) + ", up to level "
                              : describeCulprit(culprit) + " '" + field + "' up to level ";
      diag.error(upperLoc, reads + lastRead.str() + ", but the last level of '" + field +
                               "' is " + lastLevel.str());
      diag.note(culprit.getLoc(), "read here, in stencil '" + stencil.name.name + "'");
      return;
    }
  }
}
