//===- ColumnOrder.cpp - CUDA blocks numbered column by column ------------===//

#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

namespace fusec {
#define GEN_PASS_DEF_COLUMNORDER
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// What a point's levels share: reads of 2-D fields at a point and walks
/// through neighbour tables (the table entries).
struct PerPointData {
  int64_t reads2d = 0;
  int64_t tableWalks = 0;
};

PerPointData perPointData(Operation *root) {
  PerPointData data;
  root->walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      auto field = dyn_cast<FieldType>(load.getField().getType());
      if (field && load.getPoint() && !field.hasVertical())
        ++data.reads2d;
    } else if (isa<ReduceOp, NeighborOp>(op)) {
      ++data.tableWalks;
    }
  });
  return data;
}

struct ColumnOrderPass : public fusec::impl::ColumnOrderBase<ColumnOrderPass> {
  void runOnOperation() override {
    if (targetOf(getOperation()) != "cuda")
      return;
    getOperation().walk([&](Operation *op) {
      if (auto apply = dyn_cast<ApplyOp>(op)) {
        if (apply.getHlb() && apply.getKlb() &&
            sharesPerPointData(op, apply.getName().value_or("apply")))
          apply.setColumnOrder(true);
      } else if (auto kernel = dyn_cast<KernelOp>(op)) {
        if (kernel.getHlb() && kernel.getKlb() && sharesPerPointData(op, kernel.getName()))
          kernel.setColumnOrder(true);
      }
    });
  }

  /// Whether the levels of `op`'s points share data; the remark says what.
  bool sharesPerPointData(Operation *op, StringRef name) {
    PerPointData data = perPointData(op);
    if (data.reads2d == 0 && data.tableWalks == 0)
      return false;
    if (auto diag = remark("stn-column-order", op))
      *diag << "'" << name << "' runs the levels of a block of points together: they share "
            << data.reads2d << " read(s) of 2-D data and " << data.tableWalks
            << " walk(s) through neighbour tables per point";
    return true;
  }
};

} // namespace
