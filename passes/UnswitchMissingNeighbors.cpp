//===- UnswitchMissingNeighbors.cpp - C++ point loops without guards ------===//

#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

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

/// The lookups in `block` through `skip` tables at the points `isOwn` accepts.
GuardedLookups guardedLookupsIn(Block *block, function_ref<bool(Value)> isOwn) {
  GuardedLookups found;
  block->walk([&](NeighborOp neighbor) {
    if (!isOwn(neighbor.getPoint()) || neighbor.getPresent())
      return;
    ConnectivityOp conn = lookupConnectivity(neighbor, neighbor.getConnAttr());
    if (!conn || !conn.getSkip())
      return;
    found.lookups.push_back(neighbor);
    found.tables.emplace(conn.getSymName().str(), neighbor.getConnAttr());
  });
  return found;
}

GuardedLookups guardedLookupsOf(scf::ForOp loop) {
  Value index = loop.getInductionVar();
  // Lookups at the points of the loop (point loops of both orders).
  return guardedLookupsIn(loop.getBody(), [&](Value point) {
    auto at = point.getDefiningOp<PointAtOp>();
    return at && at.getIndex() == index;
  });
}

/// Whether `op` is or holds a `stn.simd` loop.
bool holdsSimdLoop(Operation *op) {
  return op
      ->walk([](scf::ForOp loop) {
        return loop->hasAttr(StnDialect::kSimdAttr) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Puts `work` (consecutive ops of one block, after the builder's insertion
/// point) on the else side of an `scf.if` on whether the rows [lo, hi) of the
/// guarded tables hold no -1, and a copy of it with the lookups `present` on
/// the then side; returns the `scf.if` and the tables' names.
std::pair<scf::IfOp, std::string> versionByRows(OpBuilder &builder, Location loc, Value lo,
                                                Value hi, const GuardedLookups &guarded,
                                                ArrayRef<Operation *> work) {
  Value complete;
  std::string names;
  for (const auto &[name, conn] : guarded.tables) {
    Value row = builder.create<TableCompleteOp>(loc, conn, lo, hi);
    complete = complete ? builder.create<arith::AndIOp>(loc, complete, row) : row;
    names += (names.empty() ? "" : ", ") + name;
  }
  auto versions = builder.create<scf::IfOp>(loc, TypeRange(), complete, /*withElseRegion=*/true);
  OpBuilder inside = OpBuilder::atBlockBegin(versions.thenBlock());
  IRMapping copies;
  for (Operation *op : work)
    inside.clone(*op, copies);
  for (NeighborOp neighbor : guarded.lookups)
    cast<NeighborOp>(copies.lookup(neighbor.getOperation())).setPresent(true);
  takePresentSides(versions.getThenRegion());
  for (Operation *op : work)
    op->moveBefore(versions.elseBlock()->getTerminator());
  return {versions, names};
}

/// The entry of a list kernel's loop in the columns layout (the `do` block of
/// the `scf.while` over its entries reads it at its argument, the run's first
/// entry); else null.
ListPointOp columnsListEntry(scf::WhileOp loop) {
  Block &body = loop.getAfter().front();
  if (body.getNumArguments() != 1)
    return {};
  for (ListPointOp candidate : body.getOps<ListPointOp>())
    if (candidate.getEntry() == body.getArgument(0))
      return candidate;
  return {};
}

struct UnswitchMissingNeighborsPass
    : public fusec::impl::UnswitchMissingNeighborsBase<UnswitchMissingNeighborsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops, columns;
    SmallVector<ListPointOp> entries;
    getOperation().walk([&](Operation *op) {
      if (auto loop = dyn_cast<scf::WhileOp>(op)) {
        if (ListPointOp entry = columnsListEntry(loop))
          entries.push_back(entry);
        return;
      }
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop || loop.getNumResults() != 0)
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
    for (ListPointOp entry : entries)
      unswitchEntry(entry);
  }

  /// Versions the work of a list entry in the columns layout (its lookups and
  /// its loop over levels, up to the last op holding a simd loop): a copy
  /// without guards where the entry's point has complete rows. Left alone
  /// when a later op of the block uses what that work defines.
  void unswitchEntry(ListPointOp entry) {
    Value point = entry.getPoint();
    Block *body = entry->getBlock();
    GuardedLookups guarded =
        guardedLookupsIn(body, [&](Value candidate) { return candidate == point; });
    if (guarded.lookups.empty())
      return;
    Operation *last = nullptr;
    for (Operation &op : *body)
      if (holdsSimdLoop(&op))
        last = &op;
    if (!last || last->isBeforeInBlock(entry))
      return;
    llvm::SetVector<Operation *> work;
    for (Operation *op = entry->getNextNode(); op != last->getNextNode(); op = op->getNextNode())
      work.insert(op);
    auto inWork = [&](Operation *op) { return work.contains(body->findAncestorOpInBlock(*op)); };
    if (!llvm::all_of(guarded.lookups, [&](NeighborOp lookup) { return inWork(lookup); }))
      return;
    for (Operation *op = last->getNextNode(); op; op = op->getNextNode()) {
      WalkResult uses = op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (Operation *definer = operand.getDefiningOp(); definer && inWork(definer))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (uses.wasInterrupted())
        return;
    }
    Location loc = entry.getLoc();
    OpBuilder builder(entry->getBlock(), std::next(entry->getIterator()));
    Value index = builder.create<arith::IndexCastOp>(loc, builder.getIndexType(),
                                                     builder.create<IndexOp>(loc, point));
    Value next = builder.create<arith::AddIOp>(
        loc, index, builder.create<arith::ConstantIndexOp>(loc, 1));
    auto [versions, names] =
        versionByRows(builder, loc, index, next, guarded, work.getArrayRef());
    if (auto diag = remark("stn-unswitch-missing-neighbors", versions))
      *diag << "a list entry's loop over levels gets a copy without guards, run where the "
            << "entry's rows of " << names << " hold no missing neighbour";
    numUnswitched++;
  }

  /// The columns layout's loop over points: its body holds a point's lookups
  /// (hoisted) and the simd loop over its levels.
  static bool isColumnsPointLoop(scf::ForOp loop) {
    Value point = loop.getInductionVar();
    bool makesPoints =
        llvm::any_of(point.getUsers(), [](Operation *user) { return isa<PointAtOp>(user); });
    return makesPoints && llvm::any_of(loop.getBody()->getOperations(),
                                       [](Operation &op) { return holdsSimdLoop(&op); });
  }

  /// Versions the body of a loop over points per point: a copy without guards
  /// where the point's row of every table it reads through is complete.
  void unswitchPoint(scf::ForOp loop) {
    GuardedLookups guarded = guardedLookupsOf(loop);
    if (guarded.lookups.empty())
      return;
    Location loc = loop.getLoc();
    Block *body = loop.getBody();
    SmallVector<Operation *> work;
    for (Operation &op : body->without_terminator())
      work.push_back(&op);
    OpBuilder builder = OpBuilder::atBlockBegin(body);
    Value point = loop.getInductionVar();
    Value next = builder.create<arith::AddIOp>(
        loc, point, builder.create<arith::ConstantIndexOp>(loc, 1));
    auto [versions, names] = versionByRows(builder, loc, point, next, guarded, work);
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
