//===- PrefetchColumns.cpp - ask for the next point's neighbour columns ---===//

#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

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

struct PrefetchColumnsPass : public fusec::impl::PrefetchColumnsBase<PrefetchColumnsPass> {
  using PrefetchColumnsBase::PrefetchColumnsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!columnsLayout(module))
      return;
    module.walk([&](KernelOp kernel) {
      if (!kernel.getLoopForm() || kernel.getPoints() || !kernel.getHub() ||
          !kernel.getLevelsBegin() || !(everyKernel || kernel->hasAttr(StnDialect::kPrefetchAttr)))
        return;
      // The point loops, each with the point its induction variable makes.
      SmallVector<std::pair<scf::ForOp, PointAtOp>> pointLoops;
      kernel.getBody().walk([&](scf::ForOp loop) {
        auto users = loop.getInductionVar().getUsers();
        auto pointAt = llvm::find_if(users, [](Operation *user) { return isa<PointAtOp>(user); });
        if (pointAt != users.end())
          pointLoops.push_back({loop, cast<PointAtOp>(*pointAt)});
      });
      for (auto [loop, pointAt] : pointLoops)
        prefetch(kernel, loop, pointAt.getResult());
    });
  }

  /// The column a load reads at a neighbour of `point` (a constant slot, a
  /// field with levels, a constant level offset), if it does.
  static std::optional<Column> columnOf(LoadOp load, Value point) {
    auto neighbor = load.getPoint() ? load.getPoint().getDefiningOp<NeighborOp>() : NeighborOp();
    if (!neighbor || neighbor.getPoint() != point || load.getDynOffset() || !load.getLevel() ||
        !isa<FieldType>(load.getField().getType()))
      return std::nullopt;
    FieldShape shape = FieldShape::of(load.getField().getType());
    std::optional<int64_t> slot = getConstantIntValue(neighbor.getIndex());
    if (!slot || !shape.sparse.empty() || shape.vertical == VerticalKind::None)
      return std::nullopt;
    return Column{load.getField(), neighbor.getConnAttr(), *slot};
  }

  /// Puts, at the top of `loop`'s body, a prefetch of each neighbour column
  /// the loop reads at the same neighbour of the point `distance` points on
  /// in the kernel's domain (clamped to its last point).
  void prefetch(KernelOp kernel, scf::ForOp loop, Value point) {
    // In order of first read, so the printed prefetches follow the loads.
    llvm::MapVector<Column, ColumnReads> columns;
    loop.getBody()->walk([&](LoadOp load) {
      std::optional<Column> column = columnOf(load, point);
      if (!column)
        return;
      int64_t offset = load.getLevelOffset();
      auto [it, inserted] =
          columns.insert({*column, ColumnReads{load.getPoint().getType(), offset, offset}});
      it->second.lowest = std::min(it->second.lowest, offset);
      it->second.highest = std::max(it->second.highest, offset);
    });
    if (columns.empty())
      return;

    Location loc = kernel.getLoc();
    // The domain's last point and the distance, once before the loop.
    OpBuilder builder(loop);
    Value end = builder.create<arith::IndexCastOp>(loc, builder.getIndexType(), kernel.getHub());
    Value one = builder.create<arith::ConstantIndexOp>(loc, 1);
    Value last = builder.create<arith::SubIOp>(loc, end, one);
    Value ahead = builder.create<arith::ConstantIndexOp>(loc, distance);
    builder.setInsertionPointToStart(loop.getBody());
    Value after = builder.create<arith::AddIOp>(loc, loop.getInductionVar(), ahead);
    Value next = builder.create<arith::MinSIOp>(loc, after, last);
    Value nextPoint = builder.create<PointAtOp>(loc, point.getType(), next);
    Value levelsBegin = kernel.getLevelsBegin(), levelsEnd = kernel.getLevelsEnd();
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
    llvm::DenseMap<std::pair<SymbolRefAttr, int64_t>, Value> neighbors;
    for (const auto &[column, reads] : columns) {
      auto [field, conn, slot] = column;
      Value &neighbor = neighbors[{conn, slot}];
      if (!neighbor)
        neighbor = builder.create<NeighborOp>(loc, reads.pointType, nextPoint,
                                              cast<FlatSymbolRefAttr>(conn),
                                              builder.create<arith::ConstantIndexOp>(loc, slot));
      builder.create<PrefetchOp>(loc, field, neighbor, shifted(levelsBegin, reads.lowest),
                                 shifted(levelsEnd, reads.highest));
    }
    if (auto diag = remark("stn-prefetch-columns", kernel))
      *diag << "kernel '" << kernel.getName() << "': " << columns.size()
            << " column(s) read at neighbours prefetched " << static_cast<int64_t>(distance)
            << " point(s) ahead";
    numLoops++;
    numColumns += columns.size();
  }
};

} // namespace
