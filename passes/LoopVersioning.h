//===- LoopVersioning.h - copies of a loop with a test decided ----*- C++ -*-===//
//
// The unswitching passes (stn-unswitch-loops, stn-unswitch-column-tests) copy a
// loop once per outcome of a test and fold each copy with the outcome known.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_PASSES_LOOPVERSIONING_H
#define FUSEC_PASSES_LOOPVERSIONING_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Region.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace fusec {

/// Folds a copy of a loop whose test was replaced by a constant: selects,
/// branches and boolean arithmetic on it, then the writes that store back
/// what the same iteration loaded from the same element (the side of a select
/// that keeps the old value), then what is left without a use and loops left
/// without a body. Fails when the folding does not converge.
mlir::LogicalResult resolveVersion(mlir::Region &side);

/// Calls `visit` with the condition of each select and branch in `loop`, in
/// body order, until it returns true.
void visitConditions(mlir::scf::ForOp loop, llvm::function_ref<bool(mlir::Value)> visit);

/// The `stn.simd` loops in `region`, in body order.
llvm::SmallVector<mlir::scf::ForOp> simdLoopsIn(mlir::Region &region);

} // namespace fusec

#endif // FUSEC_PASSES_LOOPVERSIONING_H
