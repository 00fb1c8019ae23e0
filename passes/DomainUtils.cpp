//===- DomainUtils.cpp - building domain bounds at program level ----------===//

#include "passes/DomainUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace mlir;
using namespace fusec::stn;

namespace fusec {

static Domain makeDomain(Value hlb, Value hub, Value klb, Value kub, Value points) {
  Domain domain;
  domain.points = points;
  if (hlb)
    domain.horizontal = IndexRange{hlb, hub};
  if (klb)
    domain.vertical = IndexRange{klb, kub};
  return domain;
}

Domain getDomain(ApplyOp apply) {
  return makeDomain(apply.getHlb(), apply.getHub(), apply.getKlb(), apply.getKub(),
                    apply.getPoints());
}
Domain getDomain(StoreOp store) {
  return makeDomain(store.getHlb(), store.getHub(), store.getKlb(), store.getKub(),
                    store.getPoints());
}
Domain getDomain(KernelOp kernel) {
  return makeDomain(kernel.getHlb(), kernel.getHub(), kernel.getKlb(), kernel.getKub(),
                    kernel.getPoints());
}

bool sameRange(const std::optional<IndexRange> &a, const std::optional<IndexRange> &b) {
  return a.has_value() == b.has_value() && (!a || *a == *b);
}

bool sameDomain(const Domain &a, const Domain &b) {
  return a.points == b.points && sameRange(a.horizontal, b.horizontal) &&
         sameRange(a.vertical, b.vertical);
}

bool rangeContains(const IndexRange &outer, const IndexRange &inner) {
  return boundAtMost(outer.lb, inner.lb) && boundAtMost(inner.ub, outer.ub);
}

bool containsDomain(const Domain &outer, const Domain &inner) {
  auto holds = [](const std::optional<IndexRange> &big, const std::optional<IndexRange> &small) {
    return big && small ? rangeContains(*big, *small) : big.has_value() == small.has_value();
  };
  return outer.points == inner.points && holds(outer.horizontal, inner.horizontal) &&
         holds(outer.vertical, inner.vertical);
}

bool disjointDomains(const Domain &a, const Domain &b) {
  for (auto [x, y] : {std::pair(a.horizontal, b.horizontal), std::pair(a.vertical, b.vertical)})
    if (x && y && (sameBound(x->ub, y->lb) || sameBound(y->ub, x->lb)))
      return true;
  return false;
}

namespace {

/// An i32 bound as `constant + sum(coefficient * term)`. Terms are the
/// canonical spellings of what is not a sum: scalar parameters (`%arg3`),
/// `nlev`, images and min/max of canonical forms, other pure ops over
/// canonical operands. Keyed by spelling, so equal forms print equally.
struct AffineBound {
  int64_t constant = 0;
  std::map<std::string, int64_t> terms;

  void add(const AffineBound &other, int64_t factor) {
    constant += factor * other.constant;
    for (const auto &[term, coefficient] : other.terms)
      if ((terms[term] += factor * coefficient) == 0)
        terms.erase(term);
  }

  std::string spelling() const {
    std::string text = std::to_string(constant);
    for (const auto &[term, coefficient] : terms)
      text += " + " + std::to_string(coefficient) + "*" + term;
    return text;
  }
};

AffineBound affineBound(Value value);

AffineBound termBound(std::string term) {
  AffineBound bound;
  bound.terms[std::move(term)] = 1;
  return bound;
}

/// The canonical spelling of a value that is not a sum or a constant.
std::string termSpelling(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return "%arg" + std::to_string(arg.getArgNumber());
  Operation *def = value.getDefiningOp();
  if (isa<NumLevelsOp>(def))
    return "nlev";
  auto result = cast<OpResult>(value);
  SmallVector<std::string> operands;
  for (Value operand : def->getOperands())
    operands.push_back(operand.getType().isSignlessInteger()
                           ? "(" + affineBound(operand).spelling() + ")"
                           : "?");
  if (isa<arith::MinSIOp, arith::MaxSIOp, arith::AddIOp, arith::MulIOp>(def))
    llvm::sort(operands); // commutative
  // Two equal pure ops over equal operands compute the same value.
  std::string identity;
  if (!isPure(def) || def->getNumRegions() != 0 ||
      llvm::any_of(operands, [](const std::string &operand) { return operand == "?"; }))
    identity = "@" + std::to_string(reinterpret_cast<uintptr_t>(def));
  std::string attrs;
  llvm::raw_string_ostream os(attrs);
  os << def->getAttrDictionary();
  return (def->getName().getStringRef() + identity + attrs + "#" +
          std::to_string(result.getResultNumber()) + "(" + llvm::join(operands, ", ") + ")")
      .str();
}

AffineBound affineBound(Value value) {
  AffineBound bound;
  if (std::optional<int64_t> constant = getConstantBound(value)) {
    bound.constant = *constant;
    return bound;
  }
  Operation *def = value.getDefiningOp();
  if (auto add = dyn_cast_or_null<arith::AddIOp>(def)) {
    bound.add(affineBound(add.getLhs()), 1);
    bound.add(affineBound(add.getRhs()), 1);
    return bound;
  }
  if (auto sub = dyn_cast_or_null<arith::SubIOp>(def)) {
    bound.add(affineBound(sub.getLhs()), 1);
    bound.add(affineBound(sub.getRhs()), -1);
    return bound;
  }
  if (auto mul = dyn_cast_or_null<arith::MulIOp>(def)) {
    for (auto [factor, other] : {std::pair(mul.getLhs(), mul.getRhs()),
                                 std::pair(mul.getRhs(), mul.getLhs())})
      if (std::optional<int64_t> constant = getConstantBound(factor)) {
        bound.add(affineBound(other), *constant);
        return bound;
      }
  }
  return termBound(termSpelling(value));
}

} // namespace

bool sameBound(Value a, Value b) {
  if (a == b)
    return true;
  if (!a || !b)
    return false;
  return affineBound(a).spelling() == affineBound(b).spelling();
}

std::optional<int64_t> constantDifference(Value a, Value b) {
  if (!a || !b)
    return std::nullopt;
  AffineBound difference = affineBound(a);
  difference.add(affineBound(b), -1);
  if (!difference.terms.empty())
    return std::nullopt;
  return difference.constant;
}

bool boundAtMost(Value a, Value b) {
  if (!a || !b)
    return false;
  if (std::optional<int64_t> difference = constantDifference(a, b))
    return *difference <= 0;
  if (auto min = a.getDefiningOp<arith::MinSIOp>())
    return boundAtMost(min.getLhs(), b) || boundAtMost(min.getRhs(), b);
  if (auto max = b.getDefiningOp<arith::MaxSIOp>())
    return boundAtMost(a, max.getLhs()) || boundAtMost(a, max.getRhs());
  if (auto min = b.getDefiningOp<arith::MinSIOp>())
    return boundAtMost(a, min.getLhs()) && boundAtMost(a, min.getRhs());
  if (auto max = a.getDefiningOp<arith::MaxSIOp>())
    return boundAtMost(max.getLhs(), b) && boundAtMost(max.getRhs(), b);
  return false;
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
  if (boundAtMost(a, b))
    return a;
  if (boundAtMost(b, a))
    return b;
  return builder.create<arith::MinSIOp>(loc, a, b);
}

Value BoundsBuilder::max(Value a, Value b) {
  if (boundAtMost(b, a))
    return a;
  if (boundAtMost(a, b))
    return b;
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

arith::CmpIPredicate swapOperands(arith::CmpIPredicate predicate) {
  switch (predicate) {
  case arith::CmpIPredicate::slt: return arith::CmpIPredicate::sgt;
  case arith::CmpIPredicate::sle: return arith::CmpIPredicate::sge;
  case arith::CmpIPredicate::sgt: return arith::CmpIPredicate::slt;
  case arith::CmpIPredicate::sge: return arith::CmpIPredicate::sle;
  default: return predicate;
  }
}

std::optional<RangeEnd> rangeEndOf(arith::CmpIPredicate predicate, int64_t offset) {
  switch (predicate) {
  case arith::CmpIPredicate::sge: return RangeEnd{true, offset};
  case arith::CmpIPredicate::sgt: return RangeEnd{true, offset + 1};
  case arith::CmpIPredicate::slt: return RangeEnd{false, offset};
  case arith::CmpIPredicate::sle: return RangeEnd{false, offset + 1};
  default: return std::nullopt;
  }
}

} // namespace fusec
