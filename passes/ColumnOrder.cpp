//===- ColumnOrder.cpp - CUDA blocks numbered column by column ------------===//

#include "passes/CostModel.h"
#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include <algorithm>
#include <array>
#include <optional>

namespace fusec {
#define GEN_PASS_DEF_COLUMNORDER
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// What a point's levels share (2-D values read at or around the point and
/// the neighbour-table entries walked to reach them) and what it moves per
/// level (3-D values read and written), each counted once per evaluation
/// (times the sizes of the folds around it).
struct PointData {
  int64_t reads2d = 0;
  int64_t tableEntries = 0;
  int64_t sharedBytes = 0;
  int64_t levelBytes = 0;
};

constexpr int64_t kTableEntryBytes = 4; // int32_t

int64_t elementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

PointData pointData(Operation *root) {
  PointData data;
  if (auto apply = dyn_cast<ApplyOp>(root))
    for (Type type : apply.getResultTypes())
      if (auto temp = dyn_cast<TempType>(type); temp && temp.hasVertical())
        data.levelBytes += elementBytes(temp.getElementType());
  root->walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      auto field = dyn_cast<FieldType>(load.getField().getType());
      if (!field || !load.getPoint())
        return;
      int64_t count = multiplicity(op, root);
      int64_t bytes = count * elementBytes(field.getElementType());
      if (field.hasVertical()) {
        data.levelBytes += bytes;
      } else {
        data.reads2d += count;
        data.sharedBytes += bytes;
      }
      return;
    }
    if (auto write = dyn_cast<WriteOp>(op)) {
      auto field = cast<FieldType>(write.getField().getType());
      if (field.hasVertical())
        data.levelBytes += multiplicity(op, root) * elementBytes(field.getElementType());
      return;
    }
    FlatSymbolRefAttr table;
    if (auto reduce = dyn_cast<ReduceOp>(op))
      table = reduce.getConnAttr();
    else if (auto neighbor = dyn_cast<NeighborOp>(op))
      table = neighbor.getConnAttr();
    else
      return;
    ConnectivityOp conn = lookupConnectivity(op, table);
    int64_t entries = multiplicity(op, root) * (isa<ReduceOp>(op) && conn ? conn.getSize() : 1);
    data.tableEntries += entries;
    data.sharedBytes += entries * kTableEntryBytes;
  });
  return data;
}

struct ColumnOrderPass : public fusec::impl::ColumnOrderBase<ColumnOrderPass> {
  void runOnOperation() override {
    if (targetOf(getOperation()) != "cuda")
      return;
    Builder builder(&getContext());
    auto mark = [&](auto op, StringRef name) {
      if (op.getHlb() && op.getKlb())
        if (auto bytes = columnBytes(op, name))
          op.setColumnOrderAttr(builder.getDenseI64ArrayAttr(*bytes));
    };
    getOperation().walk([&](Operation *op) {
      if (auto apply = dyn_cast<ApplyOp>(op))
        mark(apply, apply.getName().value_or("apply"));
      else if (auto kernel = dyn_cast<KernelOp>(op))
        mark(kernel, kernel.getName());
    });
  }

  /// The bytes the levels of one of `op`'s points share and those it moves
  /// per level, or nothing when they share none; the remark says what.
  std::optional<std::array<int64_t, 2>> columnBytes(Operation *op, StringRef name) {
    PointData data = pointData(op);
    if (data.sharedBytes == 0)
      return std::nullopt;
    if (auto diag = remark("stn-column-order", op))
      *diag << "'" << name << "' may run the levels of a block of points together: they share "
            << data.sharedBytes << " bytes per point (" << data.reads2d << " 2-D value(s), "
            << data.tableEntries << " neighbour-table entr"
            << (data.tableEntries == 1 ? "y" : "ies") << "), and move " << data.levelBytes
            << " bytes per point and level";
    return std::array<int64_t, 2>{data.sharedBytes, data.levelBytes};
  }
};

} // namespace
