//===- UnrollReductions.cpp - neighbour folds as straight-line code -------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <limits>

namespace fusec {
#define GEN_PASS_DEF_UNROLLREDUCTIONS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// The fold's starting value, as the interpreter and the emitters define it.
Value identity(OpBuilder &builder, Location loc, ReduceKind kind, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    double inf = std::numeric_limits<double>::infinity();
    double value = kind == ReduceKind::Sum    ? 0.0
                   : kind == ReduceKind::Prod ? 1.0
                   : kind == ReduceKind::Min  ? inf
                                              : -inf;
    return builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(floatType, value));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = kind == ReduceKind::Sum    ? APInt(width, 0)
                : kind == ReduceKind::Prod ? APInt(width, 1)
                : kind == ReduceKind::Min  ? APInt::getSignedMaxValue(width)
                                           : APInt::getSignedMinValue(width);
  return builder.create<arith::ConstantOp>(loc, builder.getIntegerAttr(type, value));
}

/// `FloatOp` or `IntOp` of `acc` and `value`, after the accumulator's type.
template <typename FloatOp, typename IntOp>
Value combine(OpBuilder &builder, Location loc, Value acc, Value value) {
  if (isa<FloatType>(acc.getType()))
    return builder.create<FloatOp>(loc, acc, value);
  return builder.create<IntOp>(loc, acc, value);
}

/// One step of the fold: the arith op computing what the fold computes.
Value step(OpBuilder &builder, Location loc, ReduceKind kind, Value acc, Value value) {
  switch (kind) {
  case ReduceKind::Sum:
    return combine<arith::AddFOp, arith::AddIOp>(builder, loc, acc, value);
  case ReduceKind::Prod:
    return combine<arith::MulFOp, arith::MulIOp>(builder, loc, acc, value);
  case ReduceKind::Min:
    return combine<arith::MinNumFOp, arith::MinSIOp>(builder, loc, acc, value);
  case ReduceKind::Max:
    return combine<arith::MaxNumFOp, arith::MaxSIOp>(builder, loc, acc, value);
  }
  llvm_unreachable("unknown fold");
}

/// Integer division traps on zero, which a body evaluated at a missing
/// neighbour (its loads give 0) could divide by.
bool mayTrap(ReduceOp reduce) {
  return reduce.getBody()
      .walk([](Operation *op) {
        return isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
                   arith::CeilDivSIOp, arith::FloorDivSIOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Replaces `reduce` by its body once per slot, folded in slot order.
LogicalResult unroll(ReduceOp reduce, ConnectivityOp conn) {
  bool maySkip = conn.getSkip() || mayBeMissing(reduce.getPoint());
  if (maySkip && mayTrap(reduce))
    return failure();
  Location loc = reduce.getLoc();
  OpBuilder builder(reduce);
  Block &body = reduce.getBody().front();
  Value yielded = cast<YieldOp>(body.getTerminator()).getValues()[0];
  Type neighborType = reduce.getNeighbor().getType();
  Value acc = identity(builder, loc, reduce.getKind(), reduce.getType());
  for (int64_t slot = 0, size = static_cast<int64_t>(conn.getSize()); slot < size; ++slot) {
    Value index = builder.create<arith::ConstantIndexOp>(loc, slot);
    Value neighbor =
        builder.create<NeighborOp>(loc, neighborType, reduce.getPoint(), reduce.getConnAttr(), index);
    IRMapping mapping;
    mapping.map(reduce.getSlot(), index);
    mapping.map(reduce.getNeighbor(), neighbor);
    for (Operation &op : body.without_terminator())
      builder.clone(op, mapping);
    Value next = step(builder, loc, reduce.getKind(), acc, mapping.lookupOrDefault(yielded));
    // A missing neighbour leaves the fold as it was, without a branch.
    if (maySkip)
      next = builder.create<arith::SelectOp>(loc, builder.create<ValidOp>(loc, neighbor), next,
                                             acc);
    acc = next;
  }
  reduce.getResult().replaceAllUsesWith(acc);
  reduce.erase();
  return success();
}

struct UnrollReductionsPass : public fusec::impl::UnrollReductionsBase<UnrollReductionsPass> {
  void runOnOperation() override {
    // Innermost first, so an unrolled body holds no fold any more.
    SmallVector<ReduceOp> reductions;
    getOperation().walk([&](KernelOp kernel) {
      if (kernel.getLoopForm())
        kernel.walk([&](ReduceOp reduce) { reductions.push_back(reduce); });
    });
    for (ReduceOp reduce : reductions) {
      ConnectivityOp conn = lookupConnectivity(reduce, reduce.getConnAttr());
      if (succeeded(unroll(reduce, conn)))
        ++numUnrolled;
    }
  }
};

} // namespace
