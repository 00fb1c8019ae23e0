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

/// The columns a point loop reads at a neighbour of its point: per field,
/// connectivity and slot, the smallest and largest level offset read.
struct NeighborColumn {
  Value field;
  FlatSymbolRefAttr conn;
  int64_t slot;
  Type pointType;
};
struct LevelOffsets {
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
      SmallVector<scf::ForOp> pointLoops;
      kernel.getBody().walk([&](scf::ForOp loop) {
        if (llvm::any_of(loop.getInductionVar().getUsers(),
                         [](Operation *user) { return isa<PointAtOp>(user); }))
          pointLoops.push_back(loop);
      });
      for (scf::ForOp loop : pointLoops)
        prefetch(kernel, loop);
    });
  }

  /// The column a load reads at a neighbour of `point` (a constant slot, a
  /// field with levels, a constant level offset), if it does.
  static std::optional<std::pair<NeighborColumn, int64_t>> columnOf(LoadOp load, Value point) {
    auto neighbor = load.getPoint() ? load.getPoint().getDefiningOp<NeighborOp>() : NeighborOp();
    if (!neighbor || neighbor.getPoint() != point || load.getDynOffset() || !load.getLevel() ||
        !isa<FieldType>(load.getField().getType()))
      return std::nullopt;
    FieldShape shape = FieldShape::of(load.getField().getType());
    std::optional<int64_t> slot = getConstantIntValue(neighbor.getIndex());
    if (!slot || !shape.sparse.empty() || shape.vertical == VerticalKind::None)
      return std::nullopt;
    return std::make_pair(
        NeighborColumn{load.getField(), neighbor.getConnAttr(), *slot, neighbor.getType()},
        load.getLevelOffset());
  }

  /// Puts, at the top of `loop`'s body, a prefetch of each neighbour column
  /// the loop reads at the same neighbour of the point `distance` points on
  /// in the kernel's domain (clamped to its last point).
  void prefetch(KernelOp kernel, scf::ForOp loop) {
    auto pointAt = cast<PointAtOp>(*llvm::find_if(
        loop.getInductionVar().getUsers(), [](Operation *user) { return isa<PointAtOp>(user); }));
    Value point = pointAt.getResult();
    // In order of first read, so the printed prefetches follow the loads.
    llvm::MapVector<std::tuple<const void *, StringRef, int64_t>,
                    std::pair<NeighborColumn, LevelOffsets>>
        columns;
    loop.getBody()->walk([&](LoadOp load) {
      auto column = columnOf(load, point);
      if (!column)
        return;
      auto [it, inserted] = columns.insert(
          {{column->first.field.getAsOpaquePointer(), column->first.conn.getValue(),
            column->first.slot},
           {column->first, LevelOffsets{column->second, column->second}}});
      LevelOffsets &offsets = it->second.second;
      offsets.lowest = std::min(offsets.lowest, column->second);
      offsets.highest = std::max(offsets.highest, column->second);
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
    llvm::DenseMap<std::pair<StringRef, int64_t>, Value> neighbors;
    for (auto &[key, entry] : columns) {
      auto &[column, offsets] = entry;
      Value &neighbor = neighbors[{column.conn.getValue(), column.slot}];
      if (!neighbor)
        neighbor = builder.create<NeighborOp>(
            loc, column.pointType, nextPoint, column.conn,
            builder.create<arith::ConstantIndexOp>(loc, column.slot));
      builder.create<PrefetchOp>(loc, column.field, neighbor,
                                 shifted(levelsBegin, offsets.lowest),
                                 shifted(levelsEnd, offsets.highest));
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
