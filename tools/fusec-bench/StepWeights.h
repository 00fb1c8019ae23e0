//===- StepWeights.h - how often one step calls each program ------*- C++ -*-===//
//
// A "step" program (diffusion_step) is a sequence of statements
// `outputs = S(...) @ domain`, each applying a stencil S that a standalone
// program applies in its one statement too (diffusion.stn builds both from the
// same stencils). With the step's scalar arguments fixed to the values
// fusec-bench calls it with, MLIR's canonicalizer folds the step's `if`s, and
// the statements that remain are exactly those one call runs. A program whose
// one statement applies S is then called as often per step as the step has
// statements applying S (RBF: twice), on a point list if and only if the
// program's is. The step's total from per-program times is the sum
// of calls x time; the applications no selected program computes (copies,
// scaling) are listed, since their time is missing from that sum.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_STEPWEIGHTS_H
#define FUSEC_TOOLS_BENCH_STEPWEIGHTS_H

#include "HostField.h"
#include "ProgramSignature.h"

#include "fusec/status.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace fusec::bench {

struct StepCount {
  std::string name; // a program, or the stencil of an application
  unsigned count = 0;
};

struct StepStructure {
  std::string step;
  /// The programs of `programs` that one step calls, with how often, in the
  /// order of `programs`.
  std::vector<StepCount> calls;
  /// Statements of the step that none of `programs` computes, by stencil, in
  /// the step's order.
  std::vector<StepCount> uncovered;
};

/// The structure of one call of `step` (of `frontend`, the module as the
/// frontend made it) with `arguments`, against `programs`.
Result<StepStructure> deriveStepStructure(mlir::ModuleOp frontend, const ProgramSignature &step,
                                          const std::vector<ArgumentValue> &arguments,
                                          const std::vector<std::string> &programs);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_STEPWEIGHTS_H
