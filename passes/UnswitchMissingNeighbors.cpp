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

GuardedLookups guardedLookupsOf(scf::ForOp loop) {
  GuardedLookups found;
  Value point = loop.getInductionVar();
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
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(StnDialect::kSimdAttr) && loop.getNumResults() == 0)
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      unswitch(loop);
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
    loop->moveBefore(versions.elseBlock()->getTerminator());
    if (auto diag = remark("stn-unswitch-missing-neighbors", versions))
      *diag << "loop over points gets a copy without guards, run where the rows it visits of "
            << names << " hold no missing neighbour";
    numUnswitched++;
  }
};

} // namespace
