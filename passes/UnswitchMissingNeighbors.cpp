//===- UnswitchMissingNeighbors.cpp - C++ point loops without guards ------===//

#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <map>

namespace fusec {
#define GEN_PASS_DEF_UNSWITCHMISSINGNEIGHBORS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// The neighbour lookups in `loop` at the loop's own point through a table
/// that may hold -1, and those tables by name (the order of the tests).
struct GuardedLookups {
  SmallVector<NeighborOp> lookups;
  std::map<std::string, FlatSymbolRefAttr> tables;
};

/// In the copy without guards every lookup is present: a select on whether
/// one exists takes its first value, and the test goes where nothing reads it.
void takePresentSides(Region &copy) {
  SmallVector<ValidOp> tests;
  copy.walk([&](ValidOp test) {
    if (!mayBeMissing(test.getPoint()))
      tests.push_back(test);
  });
  for (ValidOp test : tests) {
    for (OpOperand &use : llvm::make_early_inc_range(test->getUses())) {
      auto select = dyn_cast<arith::SelectOp>(use.getOwner());
      if (!select || use.getOperandNumber() != 0)
        continue;
      select.replaceAllUsesWith(select.getTrueValue());
      select.erase();
    }
    if (test->use_empty())
      test.erase();
  }
}

GuardedLookups guardedLookupsOf(scf::ForOp loop) {
  GuardedLookups found;
  Value point = loop.getInductionVar();
  // Lookups at the points of the loop (point loops of both orders).
  loop.getBody()->walk([&](NeighborOp neighbor) {
    auto at = neighbor.getPoint().getDefiningOp<PointAtOp>();
    if (!at || at.getIndex() != point || neighbor.getPresent())
      return;
    ConnectivityOp conn = lookupConnectivity(neighbor, neighbor.getConnAttr());
    if (!conn || !conn.getSkip())
      return;
    found.lookups.push_back(neighbor);
    found.tables.emplace(conn.getSymName().str(), neighbor.getConnAttr());
  });
  return found;
}

struct UnswitchMissingNeighborsPass
    : public fusec::impl::UnswitchMissingNeighborsBase<UnswitchMissingNeighborsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops, columns;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop.getNumResults() != 0)
        return;
      if (loop->hasAttr(StnDialect::kSimdAttr))
        loops.push_back(loop);
      else if (isColumnsPointLoop(loop))
        columns.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      unswitch(loop);
    for (scf::ForOp loop : columns)
      unswitchPoint(loop);
  }

  /// The columns layout's loop over points: its body holds a point's lookups
  /// (hoisted) and the simd loop over its levels.
  static bool isColumnsPointLoop(scf::ForOp loop) {
    Value point = loop.getInductionVar();
    bool makesPoints =
        llvm::any_of(point.getUsers(), [](Operation *user) { return isa<PointAtOp>(user); });
    bool vectorisedInside = false;
    loop.getBody()->walk([&](scf::ForOp inner) {
      vectorisedInside |= inner->hasAttr(StnDialect::kSimdAttr);
    });
    return makesPoints && vectorisedInside;
  }

  /// Versions the body of a loop over points per point: a copy without guards
  /// where the point's row of every table it reads through is complete.
  void unswitchPoint(scf::ForOp loop) {
    GuardedLookups guarded = guardedLookupsOf(loop);
    if (guarded.lookups.empty())
      return;
    Location loc = loop.getLoc();
    Block *body = loop.getBody();
    OpBuilder builder = OpBuilder::atBlockBegin(body);
    Value point = loop.getInductionVar();
    Value next = builder.create<arith::AddIOp>(
        loc, point, builder.create<arith::ConstantIndexOp>(loc, 1));
    Value complete;
    std::string names;
    for (const auto &[name, conn] : guarded.tables) {
      Value row = builder.create<TableCompleteOp>(loc, conn, point, next);
      complete = complete ? builder.create<arith::AndIOp>(loc, complete, row) : row;
      names += (names.empty() ? "" : ", ") + name;
    }
    auto versions =
        builder.create<scf::IfOp>(loc, TypeRange(), complete, /*withElseRegion=*/true);
    SmallVector<Operation *> work;
    for (Operation &op : llvm::make_range(std::next(versions->getIterator()),
                                          body->getTerminator()->getIterator()))
      work.push_back(&op);
    OpBuilder inside = OpBuilder::atBlockBegin(versions.thenBlock());
    IRMapping copies;
    for (Operation *op : work)
      inside.clone(*op, copies);
    for (NeighborOp neighbor : guarded.lookups)
      cast<NeighborOp>(copies.lookup(neighbor.getOperation())).setPresent(true);
    takePresentSides(versions.getThenRegion());
    for (Operation *op : work)
      op->moveBefore(versions.elseBlock()->getTerminator());
    if (auto diag = remark("stn-unswitch-missing-neighbors", versions))
      *diag << "a point's loop over levels gets a copy without guards, run where the point's "
            << "rows of " << names << " hold no missing neighbour";
    numUnswitched++;
  }

  void unswitch(scf::ForOp loop) {
    GuardedLookups guarded = guardedLookupsOf(loop);
    if (guarded.lookups.empty())
      return;
    Location loc = loop.getLoc();
    // The tests go out of the loops around this one that do not define its
    // bounds (the level loop): once per work item, not per level.
    Operation *outermost = loop;
    auto definedIn = [](Value value, Operation *op) {
      return op->isAncestor(value.getParentRegion()->getParentOp());
    };
    while (isa<scf::ForOp, scf::IfOp>(outermost->getParentOp()) &&
           !definedIn(loop.getLowerBound(), outermost->getParentOp()) &&
           !definedIn(loop.getUpperBound(), outermost->getParentOp()))
      outermost = outermost->getParentOp();
    OpBuilder builder(outermost);
    Value complete;
    std::string names;
    for (const auto &[name, conn] : guarded.tables) {
      Value rows = builder.create<TableCompleteOp>(loc, conn, loop.getLowerBound(),
                                                   loop.getUpperBound());
      complete = complete ? builder.create<arith::AndIOp>(loc, complete, rows) : rows;
      names += (names.empty() ? "" : ", ") + name;
    }
    builder.setInsertionPoint(loop);
    auto versions =
        builder.create<scf::IfOp>(loc, TypeRange(), complete, /*withElseRegion=*/true);
    OpBuilder inside = OpBuilder::atBlockBegin(versions.thenBlock());
    IRMapping copies;
    inside.clone(*loop, copies);
    for (NeighborOp neighbor : guarded.lookups)
      cast<NeighborOp>(copies.lookup(neighbor.getOperation())).setPresent(true);
    takePresentSides(versions.getThenRegion());
    loop->moveBefore(versions.elseBlock()->getTerminator());
    if (auto diag = remark("stn-unswitch-missing-neighbors", versions))
      *diag << "loop over points gets a copy without guards, run where the rows it visits of "
            << names << " hold no missing neighbour";
    numUnswitched++;
  }
};

} // namespace
