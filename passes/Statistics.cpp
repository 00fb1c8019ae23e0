//===- Statistics.cpp - kernels, buffers and modelled traffic -------------===//

#include "passes/Statistics.h"

#include "passes/CostModel.h"

#include "ir/StnOps.h"

#include "llvm/Support/Format.h"

using namespace mlir;
using namespace fusec::stn;

namespace fusec {

/// Bytes one point and level of `field` occupies, or 0 for fields without
/// both a location and levels.
static int64_t bytesPerPoint(Value field) {
  FieldShape shape = FieldShape::of(field.getType());
  if (!shape.location || shape.vertical == VerticalKind::None)
    return 0;
  int64_t slots = shape.sparse.empty() ? 1 : shape.sparseSize;
  return slots * std::max<int64_t>(1, shape.elementType.getIntOrFloatBitWidth() / 8);
}

static int64_t kernelTraffic(KernelOp kernel) {
  SmallVector<Value> fields;
  kernel.walk([&](Operation *op) {
    Value field;
    if (auto load = dyn_cast<LoadOp>(op))
      field = load.getField();
    else if (auto write = dyn_cast<WriteOp>(op))
      field = write.getField();
    if (field && !llvm::is_contained(fields, field))
      fields.push_back(field);
  });
  int64_t bytes = 0;
  for (Value field : fields)
    bytes += bytesPerPoint(field);
  return bytes;
}

/// The kernels of `block` and what they cost; of a branch the costlier side
/// in each figure (the two sides of an unswitched kernel never both run).
static void addBlock(Block &block, const CostWeights &weights, ProgramStatistics &stats) {
  for (Operation &op : block) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      ++stats.kernels;
      // A point list's entries are not every grid point: its cost is per
      // entry, which the per-point figures do not count.
      if (kernel.getPoints())
        continue;
      stats.bytesPerPoint += kernelTraffic(kernel);
      stats.gathersPerPoint += countGathers(kernel, kernel.getPoint());
      stats.workPerPoint += estimateWork(kernel, weights);
      continue;
    }
    ProgramStatistics costliest;
    for (Region &region : op.getRegions()) {
      ProgramStatistics side;
      for (Block &nested : region)
        addBlock(nested, weights, side);
      costliest.kernels = std::max(costliest.kernels, side.kernels);
      costliest.bytesPerPoint = std::max(costliest.bytesPerPoint, side.bytesPerPoint);
      costliest.gathersPerPoint = std::max(costliest.gathersPerPoint, side.gathersPerPoint);
      costliest.workPerPoint = std::max(costliest.workPerPoint, side.workPerPoint);
    }
    stats.kernels += costliest.kernels;
    stats.bytesPerPoint += costliest.bytesPerPoint;
    stats.gathersPerPoint += costliest.gathersPerPoint;
    stats.workPerPoint += costliest.workPerPoint;
  }
}

std::vector<ProgramStatistics> computeStatistics(ModuleOp module) {
  std::vector<ProgramStatistics> result;
  CostWeights weights = costWeightsFor(module);
  module.walk([&](ProgramOp program) {
    ProgramStatistics stats;
    stats.name = program.getSymName().str();
    addBlock(program.getBody().front(), weights, stats);
    program.walk([&](AllocOp alloc) {
      bool written = llvm::any_of(alloc->getUsers(), [](Operation *user) {
        return isa<WriteOp>(user);
      });
      stats.materialisedTemporaries += written ? 1 : 0;
    });
    result.push_back(std::move(stats));
  });
  return result;
}

void printStatistics(const std::vector<ProgramStatistics> &stats, llvm::raw_ostream &os) {
  size_t width = 7;
  for (const ProgramStatistics &program : stats)
    width = std::max(width, program.name.size());
  os << llvm::left_justify("program", width)
     << "  kernels  temporaries  bytes/point  gathers/point  work/point\n";
  for (const ProgramStatistics &program : stats)
    os << llvm::left_justify(program.name, width) << "  " << llvm::format("%7lld", program.kernels)
       << "  " << llvm::format("%11lld", program.materialisedTemporaries) << "  "
       << llvm::format("%11lld", program.bytesPerPoint) << "  "
       << llvm::format("%13lld", program.gathersPerPoint) << "  "
       << llvm::format("%10lld", program.workPerPoint) << "\n";
}

} // namespace fusec
