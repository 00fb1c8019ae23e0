//===- CostModel.cpp - what the fusion passes count as work, per target ---===//

#include "passes/CostModel.h"
#include "passes/DomainUtils.h"
#include "passes/FusionUtils.h"

#include "ir/StnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace fusec::stn;

namespace fusec {

StringRef targetOf(Operation *op) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  if (module)
    if (auto target = module->getAttrOfType<StringAttr>(StnDialect::kTargetAttr))
      return target.getValue();
  return "cuda";
}

CostWeights costWeightsFor(Operation *op) {
  // scripts/calibrate_cost_model.py (docs/bench.md, "Calibrating the cost model"), rounded.
  // cpp: the development machine, 2 threads (gather 26.4, byte 4.5). cuda: an H100 bundle
  // run on r2b6 with 80 levels (gather 13.9, byte 24.7; lam-r2b7:21.25 gave 25.1 and 29.4,
  // which make the same decisions on diffusion). The address-stream limits were set from
  // fused kernels that won or lost (docs/bench.md, "An address-stream limit"): in the columns
  // layout the streams are loop-invariant bases of a level loop, which spill more cheaply
  // than a point loop's pointers (vn's 24 pay there), but a level loop that reads at
  // data-dependent levels gathers each level, and theta's Laplacian fused into its
  // steep-point correction ran slower. The calibrated gather weight of that layout (5)
  // recomputes what then runs slower, so it is not used.
  if (targetOf(op) == "cpp") {
    if (stn::columnsLayout(op))
      return {/*load=*/2, /*gather=*/26, /*bytes=*/5, /*mergeUnrelatedGathers=*/false,
              /*addressStreams=*/24, /*mixDataDependentLevels=*/false,
              /*name=*/"cpp (columns layout)"};
    return {/*load=*/2, /*gather=*/26, /*bytes=*/5, /*mergeUnrelatedGathers=*/false,
            /*addressStreams=*/20, /*mixDataDependentLevels=*/true, /*name=*/"cpp"};
  }
  return {/*load=*/2, /*gather=*/14, /*bytes=*/25, /*mergeUnrelatedGathers=*/true,
          /*addressStreams=*/0, /*mixDataDependentLevels=*/true, /*name=*/"cuda"};
}

/// The work of `root`'s region per point `point`; see CostModel.h.
static int64_t regionWork(Operation *root, Value point, const CostWeights &weights,
                          bool atNeighbour) {
  int64_t work = 0;
  root->walk([&](Operation *op) {
    if (op == root)
      return;
    int64_t times = multiplicity(op, root);
    if (auto load = dyn_cast<LoadOp>(op)) {
      bool gathered = load.getPoint() && (atNeighbour || load.getPoint() != point);
      work += (gathered ? weights.gather : weights.load) * times;
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      if (ConnectivityOp conn = lookupConnectivity(reduce, reduce.getConnAttr()))
        work += times * conn.getSize(); // one accumulation per neighbour
    } else if (op->getDialect() && op->getDialect()->getNamespace() != "stn" &&
               !isa<arith::ConstantOp>(op) && !op->hasTrait<OpTrait::IsTerminator>()) {
      work += times;
    }
  });
  return work;
}

RecomputationCost recomputationCost(ApplyOp producer, Value result, int64_t centre,
                                    int64_t neighbour, bool stays, const CostWeights &weights) {
  // Recomputing costs the producer's work at every read, its own loads
  // turning into gathers where it is evaluated at a neighbour; keeping it
  // costs one evaluation, a write and a read of the temporary through DRAM,
  // and the readers' loads or gathers of it.
  RecomputationCost cost;
  cost.work = estimateWork(producer, weights, /*atNeighbour=*/false);
  int64_t workThere = neighbour > 0 ? estimateWork(producer, weights, /*atNeighbour=*/true) : 0;
  int64_t bytes = 2 * (getElementType(result.getType()).getIntOrFloatBitWidth() / 8);
  cost.recompute = centre * cost.work + neighbour * workThere;
  cost.keep = (stays ? 0 : cost.work) + weights.bytes * bytes + centre * weights.load +
              neighbour * weights.gather;
  if (centre + neighbour <= 1 && neighbour == 0)
    cost.recompute = std::min(cost.recompute, cost.keep);
  return cost;
}

int64_t estimateWork(ApplyOp apply, const CostWeights &weights, bool atNeighbour) {
  return regionWork(apply, apply.getPoint(), weights, atNeighbour);
}

int64_t estimateWork(KernelOp kernel, const CostWeights &weights) {
  return regionWork(kernel, kernel.getPoint(), weights, /*atNeighbour=*/false);
}

SmallVector<std::pair<Value, StringRef>> gatheredReads(Operation *root, Value point) {
  SmallVector<std::pair<Value, StringRef>> reads;
  root->walk([&](LoadOp load) {
    Value at = load.getPoint();
    if (!at || at == point)
      return;
    std::pair<Value, StringRef> read{load.getField(), neighborTable(at).value_or("")};
    if (!llvm::is_contained(reads, read))
      reads.push_back(read);
  });
  return reads;
}

/// The neighbour slots `index` stands for once folds are unrolled: a
/// constant, every slot of the fold whose slot it is, or one unknown (-1).
static SmallVector<int64_t> slotsOf(Value index) {
  if (llvm::APInt constant; matchPattern(index, m_ConstantInt(&constant)))
    return {constant.getSExtValue()};
  if (auto argument = dyn_cast<BlockArgument>(index))
    if (auto reduce = dyn_cast<ReduceOp>(argument.getOwner()->getParentOp()))
      if (argument == reduce.getSlot() || argument == reduce.getNeighbor())
        if (ConnectivityOp conn = lookupConnectivity(reduce, reduce.getConnAttr()))
          return llvm::to_vector(llvm::seq<int64_t>(0, conn.getSize()));
  return {-1};
}

SmallVector<AddressStream> addressStreams(Operation *root, Value point) {
  SmallVector<AddressStream> streams;
  auto add = [&](AddressStream stream) {
    if (!llvm::is_contained(streams, stream))
      streams.push_back(stream);
  };
  root->walk([&](LoadOp load) {
    Value at = load.getPoint();
    if (!at)
      return; // a field of levels only: one value per level, hoisted
    const void *field = load.getField().getAsOpaquePointer();
    int64_t offset = load.getLevelOffset();
    if (at != point) {
      std::optional<StringRef> table = neighborTable(at);
      SmallVector<int64_t> slots{-1};
      if (auto neighbor = at.getDefiningOp<NeighborOp>())
        slots = slotsOf(neighbor.getIndex());
      else if (table)
        slots = slotsOf(at);
      for (int64_t slot : slots)
        add({nullptr, table.value_or("").str(), slot, 0});
      add({field, "gathered", -1, offset}); // the table's entry is the index
      return;
    }
    for (int64_t slot : load.getNbr() ? slotsOf(load.getNbr()) : SmallVector<int64_t>{-1})
      add({field, "", slot, offset});
  });
  return streams;
}

int64_t countGathers(Operation *root, Value point) {
  int64_t gathers = 0;
  root->walk([&](LoadOp load) {
    if (load.getPoint() && load.getPoint() != point)
      gathers += multiplicity(load, root);
  });
  return gathers;
}

} // namespace fusec
