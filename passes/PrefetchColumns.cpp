//===- PrefetchColumns.cpp - ask for the next point's neighbour columns ---===//

#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <tuple>

namespace fusec {
#define GEN_PASS_DEF_PREFETCHCOLUMNS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// A column read at a neighbour of a loop's point: the field, the
/// connectivity and the slot.
using Column = std::tuple<Value, SymbolRefAttr, int64_t>;
/// How a point loop reads a column: the neighbour's point type and the
/// smallest and largest level offset.
struct ColumnReads {
  Type pointType;
  int64_t lowest, highest;
};
/// The columns a loop over levels reads at neighbours at data-dependent
/// levels, with the neighbours' point type.
using WholeColumns = llvm::MapVector<Column, Type>;
/// The point whose columns a loop asks for, the first level to ask for there
/// and the last (or, on a list, the levels of this entry's run after the
/// first), and where the ops that made them end; the work item's number of
/// levels where it was made before the loop (null otherwise).
struct Ahead {
  Value point, levelsBegin, levelsEnd, run;
  OpBuilder::InsertPoint after;
  Value levelCount;
};
/// A loop over a kernel's points: the loop (`scf.for` over a domain's points
/// or a list's entries, `scf.while` over a list's runs), its body, the index
/// of its point or entry, and the op that makes the point from that index
/// (`stn.point_at`, or `stn.list_point`: an entry's point and level).
struct PointLoop {
  Operation *loop;
  Block *body;
  Value index;
  Operation *pointMaker;
};
/// Program values a kernel's prefetches read, made before the kernel once
/// for all its point loops.
struct ProgramValues {
  KernelOp kernel;
  Value nlev, listSize;

  Value getNlev() {
    if (!nlev)
      nlev = outside().create<NumLevelsOp>(kernel.getLoc());
    return nlev;
  }
  Value getListSize() {
    if (!listSize)
      listSize = outside().create<ListSizeOp>(kernel.getLoc(), kernel.getPoints());
    return listSize;
  }
  /// Before the kernel, or before its wavefront, whose region holds no values.
  OpBuilder outside() {
    auto wavefront = kernel->getParentOfType<WavefrontOp>();
    return wavefront ? OpBuilder(wavefront) : OpBuilder(kernel);
  }
};

/// Points of each location per vertex on a grid of triangles (ICON's:
/// twice as many cells as vertices, three times as many edges).
int64_t pointsPerVertex(GridLocation location) {
  switch (location) {
  case GridLocation::Cell: return 2;
  case GridLocation::Edge: return 3;
  case GridLocation::Vertex: return 1;
  }
  llvm_unreachable("unknown grid location");
}

/// How many points read each neighbour through `conn`, on average: its
/// entries per point times the points of its source per point of its target
/// (C2E: 3 x 2/3 = 2 cells read each edge; E2C2V: 4 x 3 = 12 edges read each
/// vertex).
int64_t readersPerNeighbor(ConnectivityOp conn) {
  return conn.getSize() * pointsPerVertex(conn.getSource()) / pointsPerVertex(conn.getTarget());
}

struct PrefetchColumnsPass : public fusec::impl::PrefetchColumnsBase<PrefetchColumnsPass> {
  using PrefetchColumnsBase::PrefetchColumnsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!columnsLayout(module))
      return;
    SymbolTable symbols(module);
    module.walk([&](KernelOp kernel) {
      auto choice = kernel->getAttrOfType<BoolAttr>(StnDialect::kPrefetchAttr);
      if (!kernel.getLoopForm() || (choice && !choice.getValue()))
        return;
      bool onList = kernel.getPoints() != nullptr;
      if (!onList && (!kernel.getHub() || !kernel.getLevelsBegin()))
        return;
      SmallVector<PointLoop> pointLoops;
      auto addIfPointLoop = [&](Operation *loop, Block *body, Value index) {
        auto users = index.getUsers();
        auto maker = llvm::find_if(users, [&](Operation *user) {
          return onList ? isa<ListPointOp>(user) : isa<PointAtOp>(user);
        });
        if (maker != users.end())
          pointLoops.push_back({loop, body, index, *maker});
      };
      kernel.getBody().walk([&](Operation *op) {
        if (auto loop = dyn_cast<scf::ForOp>(op))
          addIfPointLoop(loop, loop.getBody(), loop.getInductionVar());
        else if (auto loop = dyn_cast<scf::WhileOp>(op))
          for (BlockArgument arg : loop.getAfterArguments())
            addIfPointLoop(loop, loop.getAfterBody(), arg);
      });
      // A kernel's point loops (split gathers: two per work item) say the same once.
      SmallVector<std::string> notes;
      ProgramValues program{kernel};
      for (const PointLoop &loop : pointLoops)
        prefetch(kernel, loop, program, symbols, /*everyColumn=*/choice != nullptr, notes);
      for (const std::string &note : notes)
        if (auto diag = remark("stn-prefetch-columns", kernel))
          *diag << note;
    });
  }

  /// Whether a load reads a column: a level of a dense field with levels.
  static bool readsColumn(LoadOp load) {
    if (!load.getLevel() || !isa<FieldType>(load.getField().getType()))
      return false;
    FieldShape shape = FieldShape::of(load.getField().getType());
    return shape.sparse.empty() && shape.vertical != VerticalKind::None;
  }

  /// The column a load reads at a neighbour of `point` (a constant slot), if
  /// it does.
  static std::optional<Column> columnOf(LoadOp load, Value point) {
    auto neighbor = load.getPoint() ? load.getPoint().getDefiningOp<NeighborOp>() : NeighborOp();
    if (!neighbor || neighbor.getPoint() != point || !readsColumn(load))
      return std::nullopt;
    std::optional<int64_t> slot = getConstantIntValue(neighbor.getIndex());
    if (!slot)
      return std::nullopt;
    return Column{load.getField(), neighbor.getConnAttr(), *slot};
  }

  /// Whether a load reads `point`'s own column at a constant level offset.
  static bool isOwnColumn(LoadOp load, Value point) {
    return load.getPoint() == point && !load.getDynOffset() && readsColumn(load);
  }

  /// Records a read at level offset `offset` of `key`'s column at a point of
  /// `pointType`, widening the offsets of the reads before it.
  template <typename Key>
  static void noteRead(llvm::MapVector<Key, ColumnReads> &reads, Key key, Type pointType,
                       int64_t offset) {
    auto [it, inserted] = reads.insert({key, ColumnReads{pointType, offset, offset}});
    it->second.lowest = std::min(it->second.lowest, offset);
    it->second.highest = std::max(it->second.highest, offset);
  }

  /// The outermost loop between `pointLoop` and `op` (or, without one, the
  /// op of `pointLoop`'s body that holds `op`).
  static Operation *outermostLoopIn(const PointLoop &pointLoop, Operation *op) {
    Operation *anchor = pointLoop.body->findAncestorOpInBlock(*op);
    for (Operation *at = op->getParentOp(); at != pointLoop.loop; at = at->getParentOp())
      if (isa<scf::ForOp>(at))
        anchor = at;
    return anchor;
  }

  /// The point ahead of a loop over a domain's points and the levels to
  /// prefetch there: at the top of the loop's body, the point `distance`
  /// points on in the kernel's domain, or `lead-levels` / levels where a work
  /// item has few levels (clamped to its last point); the work item's levels.
  Ahead pointAhead(KernelOp kernel, const PointLoop &loop, Type pointType) {
    Location loc = kernel.getLoc();
    // The domain's last point and the distance, once before the loop. A
    // point of two levels computes in a few nanoseconds, so its columns are
    // asked for more points ahead than one of eighty levels.
    OpBuilder builder(loop.loop);
    Value levelsBegin = kernel.getLevelsBegin(), levelsEnd = kernel.getLevelsEnd();
    Value end = builder.create<arith::IndexCastOp>(loc, builder.getIndexType(), kernel.getHub());
    Value one = builder.create<arith::ConstantIndexOp>(loc, 1);
    Value last = builder.create<arith::SubIOp>(loc, end, one);
    Value ahead = builder.create<arith::ConstantIndexOp>(loc, distance);
    Value levelCount;
    if (leadLevels > 0) {
      levelCount = builder.create<arith::SubIOp>(loc, levelsEnd, levelsBegin);
      Value levels = builder.create<arith::MaxSIOp>(loc, levelCount, one);
      Value lead = builder.create<arith::DivSIOp>(
          loc, builder.create<arith::ConstantIndexOp>(loc, leadLevels), levels);
      ahead = builder.create<arith::MaxSIOp>(loc, ahead, lead);
    }
    builder.setInsertionPointToStart(loop.body);
    Value after = builder.create<arith::AddIOp>(loc, loop.index, ahead);
    Value next = builder.create<arith::MinSIOp>(loc, after, last);
    Value nextPoint = builder.create<PointAtOp>(loc, pointType, next);
    return {nextPoint, levelsBegin, levelsEnd, Value(), builder.saveInsertionPoint(), levelCount};
  }

  /// The point ahead of a loop over a list's entries and the levels to
  /// prefetch there: just after the entry's `stn.list_point`, the entry
  /// `distance` runs on, taking this entry's run (`stn.list_run`; one entry
  /// without) as the length of the next ones, or `lead-levels` entries where
  /// that is more (clamped to the list's last entry); its level to that
  /// level plus this run.
  Ahead entryAhead(KernelOp kernel, const PointLoop &loop, ProgramValues &program) {
    Location loc = kernel.getLoc();
    OpBuilder builder(loop.loop);
    Value size =
        builder.create<arith::IndexCastOp>(loc, builder.getIndexType(), program.getListSize());
    Value one = builder.create<arith::ConstantIndexOp>(loc, 1);
    Value last = builder.create<arith::SubIOp>(loc, size, one);
    Value run = one;
    for (Operation *user : loop.index.getUsers())
      if (auto listRun = dyn_cast<ListRunOp>(user))
        run = listRun.getLength();
    builder.setInsertionPointAfter(loop.pointMaker);
    Value entries = builder.create<arith::MulIOp>(
        loc, run, builder.create<arith::ConstantIndexOp>(loc, distance));
    if (leadLevels > 0)
      entries = builder.create<arith::MaxSIOp>(
          loc, entries, builder.create<arith::ConstantIndexOp>(loc, leadLevels));
    Value after = builder.create<arith::AddIOp>(loc, loop.index, entries);
    Value next = builder.create<arith::MinSIOp>(loc, after, last);
    auto nextEntry = builder.create<ListPointOp>(loc, kernel.getPoints(), next);
    return {nextEntry.getPoint(), nextEntry.getLevel(), Value(), run,
            builder.saveInsertionPoint()};
  }

  /// Puts, at the top of `loop`'s body (on a list: after the entry's
  /// `stn.list_point`), a prefetch of each neighbour column the loop reads at
  /// constant level offsets, at the same neighbour of the point ahead
  /// (`pointAhead`, `entryAhead`). A
  /// column read at data-dependent levels is prefetched whole, just before
  /// the loop over levels that reads it (inside the branches that run that
  /// loop: where no level of a point needs it, nothing is fetched). Unless
  /// `everyColumn`, leaves out the columns that more than `maxReaders` points
  /// read (the points before this one have brought them in already), and asks
  /// for those of temporaries folded in the kernel's wavefront only where a
  /// work item has fewer levels than the wavefront's `min_levels`.
  void prefetch(KernelOp kernel, const PointLoop &loop, ProgramValues &program,
                SymbolTable &symbols, bool everyColumn, SmallVector<std::string> &notes) {
    Value point = loop.pointMaker->getResult(0);
    auto wavefront = kernel->getParentOfType<WavefrontOp>();
    // In order of first read, so the printed prefetches follow the loads.
    llvm::MapVector<Column, ColumnReads> columns;
    llvm::MapVector<Operation *, WholeColumns> wholeColumns;
    llvm::MapVector<Value, ColumnReads> ownColumns;
    bool overPoints = isa<PointAtOp>(loop.pointMaker);
    loop.body->walk([&](LoadOp load) {
      if (overPoints && ownLevels > 0 && isOwnColumn(load, point) &&
          !(wavefront && wavefront.foldIndexOf(load.getField()))) {
        noteRead(ownColumns, load.getField(), point.getType(), load.getLevelOffset());
        return;
      }
      std::optional<Column> column = columnOf(load, point);
      if (!column)
        return;
      if (load.getDynOffset()) {
        wholeColumns[outermostLoopIn(loop, load)].insert({*column, load.getPoint().getType()});
        return;
      }
      noteRead(columns, *column, load.getPoint().getType(), load.getLevelOffset());
    });
    // Connectivities left out, with how many points read each neighbour.
    llvm::MapVector<StringRef, int64_t> shared;
    auto sharedColumn = [&](const Column &column) {
      if (everyColumn)
        return false;
      StringRef conn = cast<FlatSymbolRefAttr>(std::get<1>(column)).getValue();
      int64_t readers = readersPerNeighbor(symbols.lookup<ConnectivityOp>(conn));
      if (readers <= maxReaders)
        return false;
      shared[conn] = readers;
      return true;
    };
    columns.remove_if([&](const auto &entry) { return sharedColumn(entry.first); });
    // A field prefetched at neighbours of the point's own location: the
    // points around the one ahead, its own column mostly among them.
    ownColumns.remove_if([&](const auto &entry) {
      return llvm::any_of(columns, [&](const auto &column) {
        return std::get<0>(column.first) == entry.first &&
               column.second.pointType == point.getType();
      });
    });
    // Columns of temporaries folded in the kernel's wavefront: when the group
    // runs as a plan, the stage that writes them ran on the same tile just
    // before, so they are in the cache. It runs as a plan where a work item of
    // this kernel has min_levels levels or more; with fewer it may run as
    // written, and their columns are asked for only then.
    llvm::MapVector<Column, ColumnReads> foldedColumns;
    if (wavefront && !everyColumn)
      for (const auto &entry : columns)
        if (wavefront.foldIndexOf(std::get<0>(entry.first)))
          foldedColumns.insert(entry);
    columns.remove_if([&](const auto &entry) { return foldedColumns.contains(entry.first); });
    for (auto &[anchor, reads] : wholeColumns)
      reads.remove_if([&](const auto &entry) { return sharedColumn(entry.first); });
    wholeColumns.remove_if([](const auto &entry) { return entry.second.empty(); });
    if (!foldedColumns.empty()) {
      llvm::SetVector<Value> folded;
      for (const auto &entry : foldedColumns)
        folded.insert(std::get<0>(entry.first));
      std::string note;
      llvm::raw_string_ostream os(note);
      os << "kernel '" << kernel.getName() << "': columns of " << folded.size()
         << " folded temporar" << (folded.size() == 1 ? "y" : "ies")
         << " prefetched only where a work item has fewer than " << wavefront.getMinLevels()
         << " levels (its wavefront may then run as written)";
      if (!llvm::is_contained(notes, note))
        notes.push_back(note);
    }
    if (!shared.empty()) {
      std::string note;
      llvm::raw_string_ostream os(note);
      os << "kernel '" << kernel.getName() << "': columns read through ";
      llvm::interleaveComma(shared, os, [&](const auto &entry) {
        os << entry.first << " (" << entry.second << " points per neighbour)";
      });
      os << " not prefetched";
      if (!llvm::is_contained(notes, note))
        notes.push_back(note);
    }
    size_t wholeCount = 0;
    for (const auto &[anchor, reads] : wholeColumns)
      wholeCount += reads.size();
    if (columns.empty() && foldedColumns.empty() && wholeCount == 0 && ownColumns.empty())
      return;

    Location loc = kernel.getLoc();
    Ahead ahead = isa<ListPointOp>(loop.pointMaker) ? entryAhead(kernel, loop, program)
                                                    : pointAhead(kernel, loop, point.getType());
    Value nextPoint = ahead.point;
    OpBuilder builder(kernel.getContext());
    builder.restoreInsertionPoint(ahead.after);
    // One op per neighbour and per shifted level (maps only looked up).
    llvm::DenseMap<std::pair<Value, int64_t>, Value> shiftedLevels;
    auto shifted = [&](Value level, int64_t offset) -> Value {
      if (offset == 0)
        return level;
      Value &value = shiftedLevels[{level, offset}];
      if (!value)
        value = builder.create<arith::AddIOp>(
            loc, level, builder.create<arith::ConstantIndexOp>(loc, offset));
      return value;
    };
    using Neighbors = llvm::DenseMap<std::pair<SymbolRefAttr, int64_t>, Value>;
    Neighbors neighbors;
    auto neighborOf = [&](Neighbors &made, const Column &column, Type pointType) {
      auto [field, conn, slot] = column;
      Value &neighbor = made[{conn, slot}];
      if (!neighbor)
        neighbor = builder.create<NeighborOp>(loc, pointType, nextPoint,
                                              cast<FlatSymbolRefAttr>(conn),
                                              builder.create<arith::ConstantIndexOp>(loc, slot));
      return neighbor;
    };
    if (!ahead.levelsEnd && !(columns.empty() && foldedColumns.empty() && ownColumns.empty()))
      ahead.levelsEnd = builder.create<arith::AddIOp>(loc, ahead.levelsBegin, ahead.run);
    // One statement per op created: the printed order does not depend on the
    // order the compiler evaluates arguments in.
    auto prefetchAll = [&](const llvm::MapVector<Column, ColumnReads> &reads, Neighbors &made) {
      for (const auto &[column, read] : reads) {
        Value neighbor = neighborOf(made, column, read.pointType);
        Value from = shifted(ahead.levelsBegin, read.lowest);
        Value to = shifted(ahead.levelsEnd, read.highest);
        builder.create<PrefetchOp>(loc, std::get<0>(column), neighbor, from, to);
      }
    };
    prefetchAll(columns, neighbors);
    // The own columns' levels, made here so that they dominate both branches below.
    SmallVector<std::pair<Value, Value>> ownLevelRanges;
    for (const auto &[field, read] : ownColumns) {
      Value from = shifted(ahead.levelsBegin, read.lowest);
      Value to = shifted(ahead.levelsEnd, read.highest);
      ownLevelRanges.push_back({from, to});
    }
    // Where a work item has fewer levels than `bound`: a test made before the
    // point loop (its level count once for both tests), an `scf.if` on it here.
    auto ifFewerLevels = [&](int64_t bound) {
      OpBuilder before(loop.loop);
      if (!ahead.levelCount)
        ahead.levelCount =
            before.create<arith::SubIOp>(loc, kernel.getLevelsEnd(), kernel.getLevelsBegin());
      Value fewer = before.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::slt, ahead.levelCount,
          before.create<arith::ConstantIndexOp>(loc, bound));
      return builder.create<scf::IfOp>(loc, TypeRange(), fewer, /*withElseRegion=*/false);
    };
    if (!foldedColumns.empty()) {
      auto asWritten = ifFewerLevels(wavefront.getMinLevels());
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(asWritten.thenBlock());
      Neighbors inside = neighbors;
      prefetchAll(foldedColumns, inside);
    }
    if (!ownColumns.empty()) {
      auto strided = ifFewerLevels(ownLevels);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(strided.thenBlock());
      for (auto [entry, range] : llvm::zip_equal(ownColumns, ownLevelRanges))
        builder.create<PrefetchOp>(loc, entry.first, nextPoint, range.first, range.second);
    }
    if (!wholeColumns.empty()) {
      // A whole column: levels 0 to nlev, nlev + 1 for half levels (the
      // printed prefetch clamps to the field's levels).
      Value nlev =
          builder.create<arith::IndexCastOp>(loc, builder.getIndexType(), program.getNlev());
      Value zero = builder.create<arith::ConstantIndexOp>(loc, 0);
      Value halfLevels;
      for (auto &[anchor, reads] : wholeColumns) {
        builder.setInsertionPoint(anchor);
        // The neighbours made for all levels dominate every loop; those made
        // here, only this one.
        Neighbors anchorNeighbors = neighbors;
        for (const auto &[column, pointType] : reads) {
          Value field = std::get<0>(column), levels = nlev;
          if (FieldShape::of(field.getType()).vertical == VerticalKind::Half) {
            if (!halfLevels) {
              OpBuilder::InsertionGuard guard(builder);
              builder.setInsertionPointAfter(nlev.getDefiningOp());
              halfLevels = builder.create<arith::AddIOp>(
                  loc, nlev, builder.create<arith::ConstantIndexOp>(loc, 1));
            }
            levels = halfLevels;
          }
          Value neighbor = neighborOf(anchorNeighbors, column, pointType);
          builder.create<PrefetchOp>(loc, field, neighbor, zero, levels);
        }
      }
    }
    std::string note;
    llvm::raw_string_ostream os(note);
    os << "kernel '" << kernel.getName() << "': ";
    size_t constantCount = columns.size() + foldedColumns.size();
    if (constantCount > 0) {
      bool onList = ahead.run != nullptr;
      os << constantCount << " column(s) read at neighbours prefetched "
         << static_cast<int64_t>(distance) << (onList ? " run(s)" : " point(s)") << " ahead";
      if (leadLevels > 0)
        os << " (" << static_cast<int64_t>(leadLevels)
           << (onList ? " entries where more)" : " / levels where more)");
    }
    if (wholeCount > 0)
      os << (constantCount == 0 ? "" : "; ") << wholeCount
         << " column(s) read at data-dependent levels prefetched whole before their loop";
    if (!ownColumns.empty())
      os << (constantCount + wholeCount == 0 ? "" : "; ") << ownColumns.size()
         << " own column(s) prefetched where a work item has fewer than "
         << static_cast<int64_t>(ownLevels) << " levels";
    if (!llvm::is_contained(notes, note))
      notes.push_back(note);
    numLoops++;
    numColumns += constantCount + wholeCount + ownColumns.size();
  }
};

} // namespace
