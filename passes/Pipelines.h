//===- Pipelines.h - named and textual pass pipelines -------------*- C++ -*-===//

#ifndef FUSEC_PASSES_PIPELINES_H
#define FUSEC_PASSES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace fusec {

/// Adds the optimisation pipeline `spec` to `pm`: a named pipeline (`none`,
/// `fuse-all`) or a textual one (`stn-map-fusion,stn-k-blocking{block=8}`).
/// Domain inference always runs first. On error, `error` lists the valid
/// names and options.
mlir::LogicalResult buildOptimisationPipeline(mlir::OpPassManager &pm, llvm::StringRef spec,
                                              std::string &error);

/// Adds the lowering from program level to kernel form (what emitters read).
void buildKernelLoweringPipeline(mlir::OpPassManager &pm);

/// Registers every fusec pass and named pipeline (for fusec-opt).
void registerFusecPasses();

} // namespace fusec

#endif // FUSEC_PASSES_PIPELINES_H
