//===- SplitLevelLoops.cpp - one simd loop per range of a level test ------===//

#include "passes/DomainUtils.h"
#include "passes/LoopVersioning.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace fusec {
#define GEN_PASS_DEF_SPLITLEVELLOOPS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// A test of the level a loop over levels visits against a bound the same for
/// the whole loop: it holds from `split` on (`lower`) or before it.
struct LevelTest {
  Value condition;
  Value bound;      // i32, defined outside the loop
  int64_t offset;   // split = bound + offset
  bool lower;
};

/// `condition` as a test of `loop`'s level against a bound defined outside
/// it (`stn.level(%k) > %c0_i32`), if it is one.
std::optional<LevelTest> levelTestOf(Value condition, scf::ForOp loop) {
  auto compare = condition.getDefiningOp<arith::CmpIOp>();
  if (!compare)
    return std::nullopt;
  arith::CmpIPredicate predicate = compare.getPredicate();
  Value levelSide = compare.getLhs(), bound = compare.getRhs();
  auto level = levelSide.getDefiningOp<LevelOp>();
  if (!level || level.getLevel() != loop.getInductionVar()) {
    std::swap(levelSide, bound);
    predicate = swapOperands(predicate);
    level = levelSide.getDefiningOp<LevelOp>();
  }
  if (!level || level.getLevel() != loop.getInductionVar() ||
      loop.getRegion().isAncestor(bound.getParentRegion()))
    return std::nullopt;
  // `k + offset <predicate> bound` is `k <predicate> bound - offset`.
  std::optional<RangeEnd> end = rangeEndOf(predicate, -level.getLevelOffset());
  if (!end)
    return std::nullopt;
  return LevelTest{condition, bound, end->offset, end->lower};
}

/// The first level test (in body order) among the conditions of the selects
/// and branches in `loop` and the conjunctions and disjunctions they are made of.
std::optional<LevelTest> firstLevelTest(scf::ForOp loop) {
  std::optional<LevelTest> found;
  std::function<void(Value)> search = [&](Value condition) {
    if (found)
      return;
    if ((found = levelTestOf(condition, loop)))
      return;
    if (Operation *op = condition.getDefiningOp(); isa_and_nonnull<arith::AndIOp, arith::OrIOp>(op))
      for (Value operand : op->getOperands())
        search(operand);
  };
  visitConditions(loop, [&](Value condition) {
    search(condition);
    return found.has_value();
  });
  return found;
}

struct SplitLevelLoopsPass : public fusec::impl::SplitLevelLoopsBase<SplitLevelLoopsPass> {
  using SplitLevelLoopsBase::SplitLevelLoopsBase;

  void runOnOperation() override {
    for (scf::ForOp loop : simdLoopsIn(getOperation().getBodyRegion()))
      if (failed(split(loop, maxTests)))
        return signalPassFailure();
  }

  /// Splits `loop` where its first level test changes, then each part on its
  /// next test, at most `budget` tests deep.
  LogicalResult split(scf::ForOp loop, int64_t budget) {
    if (budget <= 0 || !matchPattern(loop.getStep(), m_One()))
      return success();
    std::optional<LevelTest> test = firstLevelTest(loop);
    if (!test)
      return success();
    Location loc = loop.getLoc();
    OpBuilder builder(loop);
    // The first level where the test changes, clamped to the loop's range.
    Value at = builder.createOrFold<arith::IndexCastOp>(loc, builder.getIndexType(), test->bound);
    if (test->offset != 0)
      at = builder.createOrFold<arith::AddIOp>(
          loc, at, builder.create<arith::ConstantIndexOp>(loc, test->offset));
    at = builder.createOrFold<arith::MaxSIOp>(
        loc, builder.createOrFold<arith::MinSIOp>(loc, at, loop.getUpperBound()),
        loop.getLowerBound());

    SmallVector<scf::ForOp> parts;
    SmallVector<Operation *> outcomes;
    for (bool below : {true, false}) {
      IRMapping mapping;
      outcomes.push_back(builder.create<arith::ConstantIntOp>(loc, below != test->lower, 1));
      auto part = cast<scf::ForOp>(builder.clone(*loop, mapping));
      mapping.lookup(test->condition).replaceAllUsesWith(outcomes.back()->getResult(0));
      if (below)
        part.setUpperBound(at);
      else {
        part.setLowerBound(at);
        // Values carried between levels flow from the levels below.
        part.getInitArgsMutable().assign(parts.front().getResults());
      }
      parts.push_back(part);
    }
    loop.replaceAllUsesWith(parts.back().getResults());
    loop.erase();
    numSplit++;
    if (auto diag = remark("stn-split-level-loops", parts.back()))
      *diag << "loop over levels split where a level test changes (the test holds for "
            << (test->lower ? "k >= " : "k < ") << "bound"
            << (test->offset > 0 ? " + " : test->offset < 0 ? " - " : "")
            << (test->offset != 0 ? std::to_string(std::abs(test->offset)) : "")
            << "): each part without it";
    for (scf::ForOp part : parts)
      if (failed(resolveVersion(part.getRegion())))
        return part.emitError("stn-split-level-loops: simplifying a part did not converge");
    for (Operation *outcome : outcomes)
      if (outcome->use_empty())
        outcome->erase();
    for (scf::ForOp part : parts) {
      // A part left with nothing to do (the levels where a field keeps its value) goes.
      if (part.getNumResults() == 0 && part.getBody()->without_terminator().empty()) {
        part.erase();
        continue;
      }
      if (failed(split(part, budget - 1)))
        return failure();
    }
    return success();
  }
};

} // namespace
