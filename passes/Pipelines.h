//===- Pipelines.h - named and textual pass pipelines -------------*- C++ -*-===//

#ifndef FUSEC_PASSES_PIPELINES_H
#define FUSEC_PASSES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace fusec {

struct PipelineConfig;
enum class ConfigTarget;

/// Marks `module` as optimised for `target` (its `stn.target` attribute): the
/// cost model of the fusion passes uses that target's weights.
void setOptimisationTarget(mlir::ModuleOp module, ConfigTarget target);

/// Marks a module with target cpp for the columns layout (`stn.layout`).
void setColumnsLayout(mlir::ModuleOp module);

/// Adds the optimisation pipeline `spec` to `pm`: a named pipeline (`none`,
/// `fuse-all`) or a textual one (`stn-map-fusion,stn-k-blocking{block=8}`).
/// Domain inference always runs first. On error, `error` lists the valid
/// names and options.
mlir::LogicalResult buildOptimisationPipeline(mlir::OpPassManager &pm, llvm::StringRef spec,
                                              std::string &error);

/// fuse-all as a textual pipeline that runs what `fuse-all` runs, with
/// `mapFusionOptions` on its map fusion (`{bytes-weight=2}`), without vertical
/// merging unless `mergeVertical`, and with `wavefrontTile` points per tile of
/// its wavefronts (0: the pass's default): the variants `fusec-bench
/// --autotune` tries keep every other pass of fuse-all.
std::string fuseAllPipeline(llvm::StringRef mapFusionOptions = "", bool mergeVertical = true,
                            int64_t wavefrontTile = 0);

/// Adds the lowering from program level to kernel form, then the kernel-form
/// passes of the optimisation pipeline `spec` (fuse-all's `stn-wavefront`, or
/// one a pass list names); `spec` was checked by buildOptimisationPipeline.
void buildKernelLoweringPipeline(mlir::OpPassManager &pm, llvm::StringRef spec = "");

/// Adds the lowering from kernel form to the loop form of the module's target
/// (`stn.target`), with hoisting and level carrying: what the CUDA and C++
/// emitters read.
void buildLoopLoweringPipeline(mlir::OpPassManager &pm);

/// Runs on every program of `module` the optimisation pipeline `config` picks
/// for it (programs sharing a pipeline run together), after marking the
/// applications of configured stencils (`kblock`, `keep_in_memory`), and then,
/// when `lower` is set, the kernel lowering, after which the kernels computing
/// a stencil with `hblock` carry it as an attribute. Unknown programs or
/// stencils in the configuration, and invalid pipelines, are errors.
mlir::LogicalResult runPipelines(mlir::ModuleOp module, const PipelineConfig &config, bool lower,
                                 std::string &error);

/// Registers every fusec pass and named pipeline (for fusec-opt).
void registerFusecPasses();

/// Registers, once, every pass a textual pipeline may name: fusec's (as
/// registerFusecPasses) and MLIR's `canonicalize` and `cse`.
void registerPipelinePasses();

} // namespace fusec

#endif // FUSEC_PASSES_PIPELINES_H
