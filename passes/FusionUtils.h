//===- FusionUtils.h - shared pieces of the fusion passes ---------*- C++ -*-===//

#ifndef FUSEC_PASSES_FUSIONUTILS_H
#define FUSEC_PASSES_FUSIONUTILS_H

#include "ir/StnOps.h"

#include "llvm/ADT/DenseMap.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace fusec {

/// A stencil-level name for diagnostics: the application's name, quoted.
std::string describeApply(stn::ApplyOp apply);

/// Clones `producer`'s region at `point` and `levelOffset` levels away from
/// the current level, before the builder's insertion point, and returns the
/// value of result `resultIndex`. When `point` may be a missing neighbour, the
/// value is 0 there, as a read of the materialised temporary would give.
mlir::Value inlineProducer(mlir::OpBuilder &builder, stn::ApplyOp producer,
                           unsigned resultIndex, mlir::Value point, int64_t levelOffset);

/// Whether `value` is the same at every point and level of `root` (an
/// application or a kernel): defined outside it, or computed inside it by
/// effect-free operations without regions from such values (stn operations
/// read the point or level, so none of them is uniform but `stn.nlev`).
/// `known` memoises the answers.
bool isUniformIn(mlir::Value value, mlir::Operation *root,
                 llvm::DenseMap<mlir::Value, bool> &known);

/// Clones the computation of `value`, uniform in `root` (an application or a
/// kernel), at the builder's insertion point: the operations of `root` it
/// depends on, each once (`mapping` remembers them). Values defined outside
/// `root` are used as they are.
mlir::Value cloneUniformComputation(mlir::OpBuilder &builder, mlir::Value value,
                                    mlir::Operation *root, mlir::IRMapping &mapping);

/// How often `op` runs per point of `root` (an application or a kernel): the
/// product of the neighbour counts of the folds between them.
int64_t multiplicity(mlir::Operation *op, mlir::Operation *root);

/// Why the reads of `reader` cannot move across the operations strictly
/// between `from` and `to` (same block): a halo exchange, or a write to a field
/// `reader` reads. Only independent operations may be skipped over. Returns an
/// empty string when nothing in between interferes.
std::string interferenceBetween(mlir::Operation *from, mlir::Operation *to,
                                mlir::Operation *reader);

/// True when `apply` reads `field` anywhere but the point and level it is
/// computing.
bool readsAwayFromCentre(stn::ApplyOp apply, mlir::Value field);

/// A read of `field` by `apply` at the point and level it computes, directly
/// in its body (not in a fold or a branch).
bool isCentreRead(stn::LoadOp load, stn::ApplyOp apply, mlir::Value field);

/// True when `apply` reads a field at data-dependent levels (`k + %offset`).
bool readsAtDataDependentLevels(stn::ApplyOp apply);

/// Fields (block arguments or allocations) that `op` and its regions read.
llvm::SmallVector<mlir::Value> fieldsReadBy(mlir::Operation *op);

/// `lb <= index < ub` (i32 values), built at the builder's insertion point.
mlir::Value inRangeTest(mlir::OpBuilder &builder, mlir::Location loc, mlir::Value index,
                        mlir::Value lb, mlir::Value ub);

/// True when `op` or anything nested in it uses `value`.
bool touches(mlir::Operation *op, mlir::Value value);

/// True when `op` writes `field` (store, kernel write, exchange).
bool writesField(mlir::Operation *op, mlir::Value field);

} // namespace fusec


namespace fusec {

/// Merges `later` into `earlier` (same location): one application over the
/// union of their domains computing the results of both. When the domains
/// differ, each part is computed under an index/level predicate so it never
/// runs outside the domain it had. The caller checked that `later` neither
/// reads results of `earlier` nor depends on anything in between; values
/// `later` uses must be computable before `earlier`. Returns the merged
/// application, or failure (nothing changed) when a bound of `later` cannot
/// be computed before `earlier`.
mlir::FailureOr<stn::ApplyOp> mergeApplies(stn::ApplyOp earlier, stn::ApplyOp later);

/// Merges the first pair of applications, in program order, that
/// `compatible` accepts and that can legally become one (the later reads no
/// result of the earlier, and nothing between them writes what the later
/// reads). Reports the merge through `explain`; returns whether it merged.
bool mergeFirstCompatiblePair(
    stn::ProgramOp program, llvm::function_ref<bool(stn::ApplyOp, stn::ApplyOp)> compatible,
    llvm::function_ref<void(stn::ApplyOp merged, const std::string &message)> explain);

/// For each pair of applications that `compatible` accepts but that stay
/// apart, in program order, why they cannot become one (different branches,
/// a dependence, a halo exchange or a write in between, a bound computed only
/// later). Reported through `explain` at the later application.
void explainUnmergedPairs(
    stn::ProgramOp program, llvm::function_ref<bool(stn::ApplyOp, stn::ApplyOp)> compatible,
    llvm::function_ref<void(stn::ApplyOp later, const std::string &message)> explain);

/// True when `apply` reads a result of `producer`.
bool readsResultOf(stn::ApplyOp apply, stn::ApplyOp producer);

} // namespace fusec

#endif // FUSEC_PASSES_FUSIONUTILS_H
