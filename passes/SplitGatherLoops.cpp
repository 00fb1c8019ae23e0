//===- SplitGatherLoops.cpp - gathers in a scalar loop, arithmetic vectorised ===//

#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace fusec {
#define GEN_PASS_DEF_SPLITGATHERLOOPS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// Adds to `slice` what `root` needs from `loop`'s body: ops without regions
/// that only compute or read fields. False when it needs anything else (a
/// row or a branch).
bool collectSlice(Operation *root, scf::ForOp loop, llvm::SetVector<Operation *> &slice) {
  if (slice.contains(root))
    return true;
  if (root->getNumRegions() != 0 || root->getBlock() != loop.getBody() ||
      !(isMemoryEffectFree(root) || isa<LoadOp>(root)))
    return false;
  for (Value operand : root->getOperands()) {
    Operation *producer = operand.getDefiningOp();
    if (!producer || !loop.getRegion().isAncestor(producer->getParentRegion()))
      continue; // the induction variable, or defined outside the loop
    if (!collectSlice(producer, loop, slice))
      return false;
  }
  slice.insert(root);
  return true;
}

struct SplitGatherLoopsPass : public fusec::impl::SplitGatherLoopsBase<SplitGatherLoopsPass> {
  using SplitGatherLoopsBase::SplitGatherLoopsBase;

  void runOnOperation() override {
    // Only the C++ loop form has `stn.simd` point loops.
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.getLoopForm() || !kernel->hasAttr(StnDialect::kSplitGathersAttr) ||
          kernel.getPoints())
        return;
      // The point loops: those that start at the work item's first point.
      Value firstPoint = kernel.getBody().front().getArgument(0);
      SmallVector<scf::ForOp> loops;
      kernel.getBody().walk([&](scf::ForOp loop) {
        if (loop->hasAttr(StnDialect::kSimdAttr) && loop.getLowerBound() == firstPoint &&
            loop.getNumResults() == 0)
          loops.push_back(loop);
      });
      for (scf::ForOp loop : loops)
        split(kernel, loop);
    });
  }

  /// Moves the gathers of `loop` (loads through neighbour tables, with what
  /// they need) into a scalar loop before it, which stores them into rows;
  /// `loop` reads the rows instead.
  void split(KernelOp kernel, scf::ForOp loop) {
    llvm::SetVector<Operation *> slice;
    SmallVector<LoadOp> gathers;
    for (Operation &op : loop.getBody()->without_terminator()) {
      auto load = dyn_cast<LoadOp>(op);
      if (!load || !load.getPoint() || !load.getPoint().getDefiningOp<NeighborOp>())
        continue;
      // A kernel loads a field before it writes it (the kernel verifier's
      // rule), so the loads can run ahead of the loop.
      llvm::SetVector<Operation *> needed = slice;
      if (!collectSlice(load, loop, needed))
        continue;
      slice = std::move(needed);
      gathers.push_back(load);
    }
    if (gathers.empty())
      return;

    Location loc = loop.getLoc();
    int64_t rowSize = cppPointsPerWorkItem(kernel);
    OpBuilder rows = OpBuilder::atBlockBegin(&kernel.getBody().front());
    SmallVector<Value> gathered;
    for (LoadOp load : gathers)
      gathered.push_back(rows.create<RowOp>(
          loc, RowType::get(rows.getContext(), rowSize, load.getResult().getType())));

    // The scalar loop: the slice in body order, then each gather into its row.
    OpBuilder before(loop);
    auto scalar = before.create<scf::ForOp>(loc, loop.getLowerBound(), loop.getUpperBound(),
                                            loop.getStep());
    OpBuilder inside = OpBuilder::atBlockBegin(scalar.getBody());
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), scalar.getInductionVar());
    Value scalarSlot =
        inside.create<arith::SubIOp>(loc, scalar.getInductionVar(), scalar.getLowerBound());
    SmallVector<Operation *> ordered(slice.begin(), slice.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    for (Operation *op : ordered)
      inside.clone(*op, mapping);
    for (auto [load, row] : llvm::zip_equal(gathers, gathered))
      inside.create<RowStoreOp>(loc, mapping.lookup(load.getResult()), row, scalarSlot);

    // The vectorised loop reads the rows.
    OpBuilder top = OpBuilder::atBlockBegin(loop.getBody());
    Value slot = top.create<arith::SubIOp>(loc, loop.getInductionVar(), loop.getLowerBound());
    for (auto [load, row] : llvm::zip_equal(gathers, gathered)) {
      OpBuilder at(load);
      Value element = at.create<RowLoadOp>(loc, load.getResult().getType(), row, slot);
      load.getResult().replaceAllUsesWith(element);
      load.erase();
    }
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*loop.getBody())))
      if (isOpTriviallyDead(&op))
        op.erase();

    if (auto diag = remark("stn-split-gather-loops", kernel))
      *diag << "kernel '" << kernel.getName() << "': " << gathers.size()
            << " read(s) through neighbour tables move to a scalar loop before its vectorised "
               "point loop, through rows of "
            << rowSize << " points";
    numSplit++;
    numGathers += gathers.size();
  }
};

} // namespace
