//===- DomainUtils.cpp - building domain bounds at program level ----------===//

#include "passes/DomainUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace fusec::stn;

namespace fusec {

static Domain makeDomain(Value hlb, Value hub, Value klb, Value kub) {
  Domain domain;
  if (hlb)
    domain.horizontal = IndexRange{hlb, hub};
  if (klb)
    domain.vertical = IndexRange{klb, kub};
  return domain;
}

Domain getDomain(ApplyOp apply) {
  return makeDomain(apply.getHlb(), apply.getHub(), apply.getKlb(), apply.getKub());
}
Domain getDomain(StoreOp store) {
  return makeDomain(store.getHlb(), store.getHub(), store.getKlb(), store.getKub());
}
Domain getDomain(KernelOp kernel) {
  return makeDomain(kernel.getHlb(), kernel.getHub(), kernel.getKlb(), kernel.getKub());
}

std::optional<int64_t> getConstantBound(Value value) {
  APInt constant;
  if (value && matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

Value BoundsBuilder::constant(int64_t value) {
  return builder.create<arith::ConstantIntOp>(loc, value, 32);
}

Value BoundsBuilder::add(Value value, int64_t offset) {
  if (offset == 0)
    return value;
  if (auto known = getConstantBound(value))
    return constant(*known + offset);
  return builder.create<arith::AddIOp>(loc, value, constant(offset));
}

Value BoundsBuilder::min(Value a, Value b) {
  if (a == b)
    return a;
  auto ca = getConstantBound(a), cb = getConstantBound(b);
  if (ca && cb)
    return *ca <= *cb ? a : b;
  return builder.create<arith::MinSIOp>(loc, a, b);
}

Value BoundsBuilder::max(Value a, Value b) {
  if (a == b)
    return a;
  auto ca = getConstantBound(a), cb = getConstantBound(b);
  if (ca && cb)
    return *ca >= *cb ? a : b;
  return builder.create<arith::MaxSIOp>(loc, a, b);
}

IndexRange BoundsBuilder::shift(IndexRange range, int64_t offset) {
  return {add(range.lb, offset), add(range.ub, offset)};
}

IndexRange BoundsBuilder::hull(IndexRange a, IndexRange b) {
  if (a == b)
    return a;
  return {min(a.lb, b.lb), max(a.ub, b.ub)};
}

IndexRange BoundsBuilder::image(IndexRange range, FlatSymbolRefAttr conn) {
  auto image = builder.create<ImageOp>(loc, range.lb, range.ub, conn);
  return {image.getImageLb(), image.getImageUb()};
}

Value BoundsBuilder::levels(VerticalKind vertical) {
  Value nlev = builder.create<NumLevelsOp>(loc);
  return vertical == VerticalKind::Half ? add(nlev, 1) : nlev;
}

LogicalResult hoistAbove(Value value, Operation *anchor) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != anchor->getBlock() || def->isBeforeInBlock(anchor))
    return success();
  if (def == anchor || !isPure(def) || def->getNumRegions() != 0)
    return failure();
  for (Value operand : def->getOperands())
    if (failed(hoistAbove(operand, anchor)))
      return failure();
  def->moveBefore(anchor);
  return success();
}

} // namespace fusec
