//===- HoistLoopInvariant.cpp - loop-invariant code motion in kernels -----===//

#include "passes/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace fusec {
#define GEN_PASS_DEF_HOISTLOOPINVARIANT
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// Whether `op` may run once before the loop instead of in every iteration:
/// it writes nothing, reads no field the kernel writes, and nothing in it can
/// fault (an integer division) should the loop run no iteration, as the
/// loops that unswitching and splitting leave may.
bool isHoistable(Operation *op, const llvm::SmallPtrSetImpl<Value> &written) {
  WalkResult result = op->walk([&](Operation *inner) {
    if (isa<WriteOp>(inner))
      return WalkResult::interrupt();
    if (auto load = dyn_cast<LoadOp>(inner); load && written.contains(load.getField()))
      return WalkResult::interrupt();
    auto speculation = dyn_cast<ConditionallySpeculatable>(inner);
    if (!isa<StnDialect>(inner->getDialect()) &&
        (!speculation || speculation.getSpeculatability() == Speculation::NotSpeculatable))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

struct HoistLoopInvariantPass
    : public fusec::impl::HoistLoopInvariantBase<HoistLoopInvariantPass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.getLoopForm())
        return;
      llvm::SmallPtrSet<Value, 8> written;
      kernel.walk([&](WriteOp write) { written.insert(write.getField()); });
      // Inner loops first, so what leaves them can leave the outer ones too.
      kernel.walk([&](LoopLikeOpInterface loop) {
        if (!isa<scf::ForOp, scf::WhileOp>(loop))
          return;
        numHoisted += moveLoopInvariantCode(
            loop.getLoopRegions(),
            [](Value value, Region *region) { return !region->isAncestor(value.getParentRegion()); },
            [&](Operation *op, Region *) { return isHoistable(op, written); },
            [](Operation *op, Region *region) { op->moveBefore(region->getParentOp()); });
      });
    });
  }
};

} // namespace
