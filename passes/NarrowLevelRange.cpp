//===- NarrowLevelRange.cpp - run only on the levels where results change ---===//

#include "passes/DomainUtils.h"
#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace fusec {
#define GEN_PASS_DEF_NARROWLEVELRANGE
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

constexpr llvm::StringLiteral kPass = "stn-narrow-level-range";

/// `level >= bound + offset` (lower) or `level < bound + offset`.
struct LevelBound {
  arith::CmpIOp compare;
  bool lower;
  Value bound;
  int64_t offset;
};

/// `compare` as a bound on the current level of `apply`, when one side is the
/// level and the other is uniform in `apply`.
std::optional<LevelBound> levelBoundOf(arith::CmpIOp compare, ApplyOp apply,
                                       llvm::DenseMap<Value, bool> &uniform) {
  auto levelOf = [&](Value value) {
    auto level = value.getDefiningOp<LevelOp>();
    return level && !level.getLevel() && apply->isProperAncestor(level) ? level : LevelOp();
  };
  arith::CmpIPredicate predicate = compare.getPredicate();
  Value bound = compare.getRhs();
  LevelOp level = levelOf(compare.getLhs());
  if (!level) {
    level = levelOf(compare.getRhs());
    bound = compare.getLhs();
    predicate = swapOperands(predicate);
  }
  if (!level || !isUniformIn(bound, apply, uniform))
    return std::nullopt;
  // `level + o >= b` is `k >= b - o`.
  std::optional<RangeEnd> end = rangeEndOf(predicate, -level.getLevelOffset());
  if (!end)
    return std::nullopt;
  return LevelBound{compare, end->lower, bound, end->offset};
}

/// The bounds on the level among the conjuncts of `condition` (an `and` tree).
void collectLevelBounds(Value condition, ApplyOp apply, llvm::DenseMap<Value, bool> &uniform,
                        SmallVector<LevelBound> &bounds) {
  Operation *def = condition.getDefiningOp();
  if (auto conjunction = dyn_cast_or_null<arith::AndIOp>(def)) {
    collectLevelBounds(conjunction.getLhs(), apply, uniform, bounds);
    collectLevelBounds(conjunction.getRhs(), apply, uniform, bounds);
  } else if (auto compare = dyn_cast_or_null<arith::CmpIOp>(def)) {
    if (std::optional<LevelBound> bound = levelBoundOf(compare, apply, uniform))
      bounds.push_back(*bound);
  }
}

/// The stores of `apply`'s results, one per result, each over the
/// application's own domain, with nothing in between writing its field (the
/// value in place is then the one the store would write back); empty when
/// the results are used otherwise.
SmallVector<StoreOp> storesOverOwnDomain(ApplyOp apply) {
  SmallVector<StoreOp> stores;
  for (Value result : apply.getResults()) {
    if (!result.hasOneUse())
      return {};
    auto store = dyn_cast<StoreOp>(*result.getUsers().begin());
    if (!store || store->getBlock() != apply->getBlock() ||
        !sameDomain(getDomain(store), getDomain(apply)))
      return {};
    for (Operation *op = apply->getNextNode(); op != store; op = op->getNextNode())
      if (writesField(op, store.getField()))
        return {};
    stores.push_back(store);
  }
  return stores;
}

/// The condition every result of `apply` is selected on, the other side the
/// value in place (a load of the stored field at the point and level).
Value commonInPlaceCondition(ApplyOp apply, MutableArrayRef<StoreOp> stores) {
  auto yield = cast<YieldOp>(apply.getBody().front().getTerminator());
  Value condition;
  for (auto [value, store] : llvm::zip_equal(yield.getOperands(), stores)) {
    auto select = value.getDefiningOp<arith::SelectOp>();
    if (!select || (condition && select.getCondition() != condition))
      return nullptr;
    auto old = select.getFalseValue().getDefiningOp<LoadOp>();
    if (!old || !isCentreRead(old, apply, store.getField()))
      return nullptr;
    condition = select.getCondition();
  }
  return condition;
}

struct NarrowLevelRangePass : public fusec::impl::NarrowLevelRangeBase<NarrowLevelRangePass> {
  void runOnOperation() override {
    SmallVector<ApplyOp> applies;
    getOperation().walk([&](ApplyOp apply) { applies.push_back(apply); });
    for (ApplyOp apply : applies)
      narrow(apply);
  }

  void narrow(ApplyOp apply) {
    if (!apply.getPoint() || apply.getPoints() || !apply.getKlb() || apply.getNumResults() == 0)
      return;
    SmallVector<StoreOp> stores = storesOverOwnDomain(apply);
    if (stores.empty())
      return;
    Value condition = commonInPlaceCondition(apply, stores);
    if (!condition)
      return;
    llvm::DenseMap<Value, bool> uniform;
    SmallVector<LevelBound> bounds;
    collectLevelBounds(condition, apply, uniform, bounds);
    if (bounds.empty())
      return;

    // Outside [lb, ub) the condition fails, every result is the value in
    // place and its store changes nothing; inside, each bound holds.
    OpBuilder builder(apply);
    BoundsBuilder at(builder, apply.getLoc());
    IRMapping mapping;
    Value lb = apply.getKlb(), ub = apply.getKub();
    for (const LevelBound &bound : bounds) {
      Value value = at.add(cloneUniformComputation(builder, bound.bound, apply, mapping),
                           bound.offset);
      if (bound.lower)
        lb = at.max(lb, value);
      else
        ub = at.min(ub, value);
    }
    lb = at.min(lb, ub);
    OpBuilder inside = OpBuilder::atBlockBegin(&apply.getBody().front());
    Value always = inside.create<arith::ConstantOp>(apply.getLoc(), inside.getBoolAttr(true));
    for (LevelBound &bound : bounds)
      bound.compare.getResult().replaceAllUsesWith(always);
    apply.getKlbMutable().assign(lb);
    apply.getKubMutable().assign(ub);
    for (StoreOp store : stores) {
      store.getKlbMutable().assign(lb);
      store.getKubMutable().assign(ub);
    }
    ++numNarrowed;
    if (auto diag = remark(kPass, apply))
      *diag << "runs on the levels where its condition can hold: outside them each result "
               "is the value in place";
  }
};

} // namespace
