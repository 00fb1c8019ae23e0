//===- LevelReach.h - compile-time checks of vertical reads -------*- C++ -*-===//
//
// A stencil that reads `f[K-1]` applied from level 0 reads below the first
// level. LevelReach computes, for every field parameter of a stencil, the
// lowest and highest level offsets it is read at (through lets and stencil
// calls), and reports applications whose known vertical bounds make a read
// leave the field.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_COMPILER_LEVELREACH_H
#define FUSEC_COMPILER_LEVELREACH_H

#include "compiler/AST.h"
#include "compiler/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <vector>

namespace fusec {

class LevelReach {
public:
  LevelReach(const ast::TranslationUnit &unit, DiagnosticEngine &diag)
      : unit(unit), diag(diag) {}

  /// Checks one checked program application (stencils must not recurse).
  void checkApplication(const ast::AssignStmt &assign);

private:
  /// The level offsets at which a field parameter is read, and the
  /// expressions (in the stencil being summarised) that read the extremes.
  struct Range {
    int64_t min = 0, max = 0;
    const ast::Expr *minCulprit = nullptr, *maxCulprit = nullptr;
  };
  /// One entry per parameter of the summarised stencil.
  using Summary = std::vector<std::optional<Range>>;

  const Summary &summarize(const ast::StencilDecl &stencil);
  const Summary &letReach(const ast::LetDecl &let, const ast::StencilDecl &stencil);
  Summary exprReach(const ast::Expr &expr, const ast::StencilDecl &stencil);
  void collect(const ast::Expr &expr, const ast::StencilDecl &stencil, Summary &out);
  Summary callReach(const ast::CallExpr &call, const ast::StencilDecl &stencil);
  /// Adds `from` shifted by `shift` into `into`; a non-null `culprit`
  /// replaces the culprits of the added ranges.
  static void merge(Summary &into, const Summary &from, int64_t shift, const ast::Expr *culprit);

  const ast::TranslationUnit &unit;
  DiagnosticEngine &diag;
  llvm::DenseMap<const ast::StencilDecl *, Summary> stencilSummaries;
  llvm::DenseMap<const ast::LetDecl *, Summary> letSummaries;
};

} // namespace fusec

#endif // FUSEC_COMPILER_LEVELREACH_H
