//===- Statistics.h - kernels, buffers and modelled traffic -------*- C++ -*-===//

#ifndef FUSEC_PASSES_STATISTICS_H
#define FUSEC_PASSES_STATISTICS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace fusec {

/// What one program costs in kernel form.
struct ProgramStatistics {
  std::string name;
  /// Kernels one call launches when every branch takes its costlier side (an
  /// upper bound per call; each figure below takes the side costlier in it).
  int64_t kernels = 0;
  /// Program-local buffers kernels write: temporaries that go through memory.
  int64_t materialisedTemporaries = 0;
  /// Modelled DRAM traffic per (horizontal point, level): each 3-D field a
  /// kernel reads or writes moves once per kernel (perfect reuse inside a
  /// kernel, none across kernels); 2-D and vertical-only fields are left out.
  int64_t bytesPerPoint = 0;
  /// Reads through neighbour tables per (point, level) of each kernel, summed
  /// over the kernels.
  int64_t gathersPerPoint = 0;
  /// Work units per (point, level) of each kernel, summed, with the module's
  /// target's weights (passes/CostModel.h), bytes not included.
  int64_t workPerPoint = 0;
};

/// Statistics of every program of a module in kernel form, in program order.
std::vector<ProgramStatistics> computeStatistics(mlir::ModuleOp module);

/// A table of the statistics, one line per program.
void printStatistics(const std::vector<ProgramStatistics> &stats, llvm::raw_ostream &os);

} // namespace fusec

#endif // FUSEC_PASSES_STATISTICS_H
