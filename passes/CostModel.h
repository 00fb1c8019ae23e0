//===- CostModel.h - what the fusion passes count as work, per target -*- C++ -*-===//
//
// The fusion cost model counts work units: one per arithmetic operation and
// per fold step, `load` per read at the point being computed (consecutive
// points read consecutive memory), `gather` per read at another point
// through a neighbour table (the table entry included), and `bytes` per byte
// of DRAM traffic. The weights differ between targets: a CPU vectorises
// arithmetic and contiguous loads but not gathers, a GPU hides latency with
// threads. scripts/calibrate_cost_model.py measures them on a machine
// (docs/architecture.md §5).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_PASSES_COSTMODEL_H
#define FUSEC_PASSES_COSTMODEL_H

#include "ir/StnOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <tuple>

namespace fusec {

struct CostWeights {
  int64_t load;
  int64_t gather;
  int64_t bytes;
  /// Whether sibling fusion may put reads through neighbour tables of
  /// unrelated fields into one kernel. Scalar CPU code keeps an address
  /// stream per gathered field and neighbour in registers, and the merged
  /// kernel spills where its parts did not (docs/bench.md).
  bool mergeUnrelatedGathers;
  /// How many address streams one kernel may advance before its point loop
  /// spills them (0: no limit). Scalar CPU code keeps a pointer per field,
  /// level offset, neighbour slot and table slot in the 16 general registers;
  /// fusion that pushes a kernel past this is refused (docs/bench.md).
  int64_t addressStreams;
  /// Whether map fusion may put an application that reads at data-dependent
  /// levels and one that does not into one kernel. In the columns layout the
  /// level loop is the vector loop, and such reads make it gather every level
  /// (docs/bench.md).
  bool mixDataDependentLevels;
  /// Whose weights these are, for remarks ("cpp", "cpp (columns layout)", "cuda").
  llvm::StringRef name;
};

/// The code a module is optimised for: its `stn.target` attribute, else
/// "cuda" (the default target, docs/dialect.md).
llvm::StringRef targetOf(mlir::Operation *op);

/// The calibrated weights of the code `op`'s module is compiled for: its
/// target ("cpp" or "cuda") and, for "cpp", its layout (`stn.layout`).
CostWeights costWeightsFor(mlir::Operation *op);

/// The work of evaluating an application's region once, each operation times
/// the neighbour counts of the folds around it. With `atNeighbour`, the
/// region is evaluated at a neighbour of the reader's point (recomputation
/// through a table), so its reads at its own point are gathers too.
int64_t estimateWork(stn::ApplyOp apply, const CostWeights &weights, bool atNeighbour);

/// The same for a kernel's body at its point, both sides of every branch
/// counted (an upper bound, as the kernel statistics are).
int64_t estimateWork(stn::KernelOp kernel, const CostWeights &weights);

/// Recomputing a producer at its reads against keeping its result in memory.
struct RecomputationCost {
  int64_t work;      // one evaluation at the point it is computed for
  int64_t recompute; // every evaluation at the reads
  int64_t keep;      // one evaluation (unless computed anyway), DRAM, the reads
  /// Map fusion's rule: a single read at the centre is always fused.
  bool pays() const { return recompute <= keep; }
};
/// The cost of `producer`'s result `result` read `centre` times at the
/// readers' own points and `neighbour` times through neighbour tables per
/// point of the readers; `stays`: the producer is computed anyway.
RecomputationCost recomputationCost(stn::ApplyOp producer, mlir::Value result, int64_t centre,
                                    int64_t neighbour, bool stays, const CostWeights &weights);
/// The fields `root` reads through neighbour tables, with the table, in
/// program order (each pair once).
llvm::SmallVector<std::pair<mlir::Value, llvm::StringRef>> gatheredReads(mlir::Operation *root,
                                                                         mlir::Value point);
/// One address the point loop of `root`'s kernel advances: a field (by its
/// value) at a level offset and neighbour slot, read at the point or gathered,
/// or a slot of a neighbour table. Comparable across applications of one program.
using AddressStream = std::tuple<const void *, std::string, int64_t, int64_t>;
/// The address streams of `root`'s reads once its folds are unrolled, each
/// once, in program order; fields without a horizontal location are hoisted
/// out of the point loop and not counted.
llvm::SmallVector<AddressStream> addressStreams(mlir::Operation *root, mlir::Value point);
/// Reads at another point than `root`'s own (through neighbour tables) per
/// point of `root`, an application or a kernel.
int64_t countGathers(mlir::Operation *root, mlir::Value point);

} // namespace fusec

#endif // FUSEC_PASSES_COSTMODEL_H
