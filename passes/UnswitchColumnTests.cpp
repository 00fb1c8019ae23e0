//===- UnswitchColumnTests.cpp - skip a side no level of a column takes ---===//

#include "passes/LoopVersioning.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace fusec {
#define GEN_PASS_DEF_UNSWITCHCOLUMNTESTS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// A loop over the levels of one point (the columns layout's `stn.simd`
/// loop), carrying nothing.
bool isLevelLoop(scf::ForOp loop) {
  if (!loop->hasAttr(StnDialect::kSimdAttr) || !loop.getInitArgs().empty())
    return false;
  return llvm::none_of(loop.getInductionVar().getUsers(), [](Operation *user) {
    return isa<PointAtOp, ListPointOp>(user);
  });
}

/// Reads whose level the data chooses (`K + zd_vertoffset`): gathers.
unsigned gathersIn(scf::ForOp loop) {
  unsigned count = 0;
  loop.getBody()->walk([&](LoadOp load) { count += load.getDynOffset() != nullptr; });
  return count;
}

/// The operations of `loop`'s body that compute `condition`, in body order,
/// when a scan over the same levels can recompute it: effect-free operations
/// without regions and loads at the loop's level (plus a constant offset) of
/// fields the loop does not write, at least one of them, all in the body's
/// own block (not under a branch). Empty otherwise.
SmallVector<Operation *> scannableSlice(Value condition, scf::ForOp loop,
                                        const llvm::DenseSet<Value> &written) {
  Block *body = loop.getBody();
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> pending{condition};
  bool readsData = false;
  while (!pending.empty()) {
    Value value = pending.pop_back_val();
    Operation *op = value.getDefiningOp();
    if (!op || !loop->isProperAncestor(op))
      continue; // defined outside: the scan uses it as it is
    if (op->getBlock() != body)
      return {};
    if (slice.contains(op))
      continue;
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (load.getDynOffset() || load.getLevel() != loop.getInductionVar() ||
          written.contains(load.getField()))
        return {};
      readsData = true;
    } else if (op->getNumRegions() != 0 || !isPure(op) || isa<ValidOp>(op)) {
      return {};
    }
    slice.insert(op);
    llvm::append_range(pending, op->getOperands());
  }
  if (!readsData)
    return {};
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

struct UnswitchColumnTestsPass
    : public fusec::impl::UnswitchColumnTestsBase<UnswitchColumnTestsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    // The versions of one loop (stn-unswitch-missing-neighbors' two) explain
    // the same select once: the selects explained, by kernel.
    llvm::DenseSet<std::pair<Operation *, Location>> explained;
    getOperation().walk([&](scf::ForOp loop) {
      // A list's entries are the points its caller chose to compute (ICON's list of
      // steep points is where the test passes): a scan there would only add work.
      if (isLevelLoop(loop) && !loop->getParentOfType<KernelOp>().getPoints())
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      if (failed(unswitch(loop, explained)))
        return signalPassFailure();
  }

  LogicalResult unswitch(scf::ForOp loop,
                         llvm::DenseSet<std::pair<Operation *, Location>> &explained) {
    llvm::DenseSet<Value> written;
    loop.getBody()->walk([&](WriteOp write) { written.insert(write.getField()); });
    unsigned gathers = gathersIn(loop);
    if (gathers == 0)
      return success();
    llvm::DenseSet<Value> tried;
    for (Operation &op : loop.getBody()->without_terminator()) {
      auto select = dyn_cast<arith::SelectOp>(op);
      if (!select || !tried.insert(select.getCondition()).second)
        continue;
      Value condition = select.getCondition();
      if (!condition.getType().isInteger(1))
        continue;
      SmallVector<Operation *> slice = scannableSlice(condition, loop, written);
      if (slice.empty())
        continue;
      FailureOr<scf::ForOp> copy = copyFailingEverywhere(loop, condition);
      if (failed(copy))
        return failure();
      unsigned left = gathersIn(*copy);
      if (left >= gathers) {
        (*copy)->erase();
        continue;
      }
      bool copyKept = versionOnScan(loop, *copy, condition, slice);
      numUnswitched++;
      auto kernel = select->getParentOfType<KernelOp>();
      if (!explained.insert({kernel, select.getLoc()}).second)
        return success();
      if (auto diag = remark("stn-unswitch-column-tests", select)) {
        *diag << "a point's levels are scanned for this test first; where no level passes it, ";
        if (copyKept)
          *diag << "a copy of the loop over levels without what the test selects runs ("
                << gathers - left << " of " << gathers
                << " read(s) at data-dependent levels left out)";
        else
          *diag << "the loop over levels is skipped (it would change nothing there; "
                << gathers << " read(s) at data-dependent levels left out)";
      }
      return success();
    }
    return success();
  }

  /// A copy of `loop` before it, with `condition` false at every level and
  /// folded.
  static FailureOr<scf::ForOp> copyFailingEverywhere(scf::ForOp loop, Value condition) {
    OpBuilder builder(loop);
    IRMapping mapping;
    auto copy = cast<scf::ForOp>(builder.clone(*loop, mapping));
    // Inside the copy, so that it goes with it; folding drops it once unused.
    builder.setInsertionPointToStart(copy.getBody());
    Value never = builder.create<arith::ConstantIntOp>(loop.getLoc(), 0, 1);
    mapping.lookup(condition).replaceAllUsesWith(never);
    if (failed(resolveVersion(copy.getRegion())))
      return loop.emitError("stn-unswitch-column-tests: simplifying the copy did not converge");
    return copy;
  }

  /// Puts a scan of `condition` over the loop's levels before `loop`, and
  /// runs `loop` where some level passes it and `copy` (moved) elsewhere; a
  /// copy left with nothing to do goes. Returns whether the copy stays.
  static bool versionOnScan(scf::ForOp loop, scf::ForOp copy, Value condition,
                            ArrayRef<Operation *> slice) {
    Location loc = loop.getLoc();
    OpBuilder builder(loop);
    Value none = builder.create<arith::ConstantIntOp>(loc, 0, 32);
    auto scan = builder.create<scf::ForOp>(
        loc, loop.getLowerBound(), loop.getUpperBound(), loop.getStep(), ValueRange{none},
        [&](OpBuilder &inside, Location at, Value level, ValueRange carried) {
          IRMapping mapping;
          mapping.map(loop.getInductionVar(), level);
          for (Operation *op : slice)
            inside.clone(*op, mapping);
          Value passes = inside.create<arith::ExtUIOp>(at, inside.getI32Type(),
                                                       mapping.lookup(condition));
          Value any = inside.create<arith::OrIOp>(at, carried.front(), passes);
          inside.create<scf::YieldOp>(at, any);
        });
    Value somewhere =
        builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, scan.getResult(0), none);
    bool copyWorks = !llvm::hasSingleElement(copy.getBody()->getOperations());
    auto versions = builder.create<scf::IfOp>(loc, TypeRange(), somewhere,
                                              /*withElseRegion=*/copyWorks);
    loop->moveBefore(versions.thenBlock()->getTerminator());
    if (copyWorks)
      copy->moveBefore(versions.elseBlock()->getTerminator());
    else
      copy->erase();
    return copyWorks;
  }
};

} // namespace
