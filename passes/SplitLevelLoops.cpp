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

/// The level tests (in body order) among the conditions of the selects and
/// branches in `loop` and the conjunctions and disjunctions they are made of.
SmallVector<LevelTest> levelTests(scf::ForOp loop) {
  SmallVector<LevelTest> tests;
  std::function<void(Value)> search = [&](Value condition) {
    if (llvm::any_of(tests, [&](const LevelTest &test) { return test.condition == condition; }))
      return;
    if (std::optional<LevelTest> test = levelTestOf(condition, loop)) {
      tests.push_back(*test);
      return;
    }
    if (Operation *op = condition.getDefiningOp(); isa_and_nonnull<arith::AndIOp, arith::OrIOp>(op))
      for (Value operand : op->getOperands())
        search(operand);
  };
  visitConditions(loop, [&](Value condition) {
    search(condition);
    return false;
  });
  return tests;
}

int64_t countLoads(scf::ForOp loop) {
  int64_t loads = 0;
  loop.walk([&](LoadOp) { ++loads; });
  return loads;
}

struct SplitLevelLoopsPass : public fusec::impl::SplitLevelLoopsBase<SplitLevelLoopsPass> {
  using SplitLevelLoopsBase::SplitLevelLoopsBase;

  void runOnOperation() override {
    for (scf::ForOp loop : simdLoopsIn(getOperation().getBodyRegion()))
      if (failed(split(loop, maxTests)))
        return signalPassFailure();
  }

  /// Splits `loop` where the first of its level tests that pays changes, then
  /// each part on its next, at most `budget` tests deep.
  LogicalResult split(scf::ForOp loop, int64_t budget) {
    if (budget <= 0 || !matchPattern(loop.getStep(), m_One()))
      return success();
    for (const LevelTest &test : levelTests(loop)) {
      FailureOr<SmallVector<scf::ForOp>> parts = trySplit(loop, test);
      if (failed(parts))
        return failure();
      if (parts->empty())
        continue;
      for (scf::ForOp part : *parts)
        if (failed(split(part, budget - 1)))
          return failure();
      return success();
    }
    return success();
  }

  /// Splits `loop` in two at the first level where `test` changes and folds
  /// each part; the parts left with work to do, or none when no part reads
  /// less than the loop (only the stores' tests would go: the split costs
  /// loops and buys nothing, and `loop` stays as it was).
  FailureOr<SmallVector<scf::ForOp>> trySplit(scf::ForOp loop, const LevelTest &test) {
    // Everything the attempt builds goes right before `loop`.
    Operation *before = loop->getPrevNode();
    auto rollBack = [&]() {
      while (loop->getPrevNode() != before)
        loop->getPrevNode()->erase();
    };
    Location loc = loop.getLoc();
    OpBuilder builder(loop);
    // The first level where the test changes, clamped to the loop's range.
    Value at = builder.createOrFold<arith::IndexCastOp>(loc, builder.getIndexType(), test.bound);
    if (test.offset != 0)
      at = builder.createOrFold<arith::AddIOp>(
          loc, at, builder.create<arith::ConstantIndexOp>(loc, test.offset));
    at = builder.createOrFold<arith::MaxSIOp>(
        loc, builder.createOrFold<arith::MinSIOp>(loc, at, loop.getUpperBound()),
        loop.getLowerBound());

    SmallVector<scf::ForOp> parts;
    SmallVector<Operation *> outcomes;
    for (bool below : {true, false}) {
      IRMapping mapping;
      outcomes.push_back(builder.create<arith::ConstantIntOp>(loc, below != test.lower, 1));
      auto part = cast<scf::ForOp>(builder.clone(*loop, mapping));
      mapping.lookup(test.condition).replaceAllUsesWith(outcomes.back()->getResult(0));
      if (below)
        part.setUpperBound(at);
      else {
        part.setLowerBound(at);
        // Values carried between levels flow from the levels below.
        part.getInitArgsMutable().assign(parts.front().getResults());
      }
      parts.push_back(part);
    }
    for (scf::ForOp part : parts)
      if (failed(resolveVersion(part.getRegion()))) {
        rollBack();
        return loop.emitError("stn-split-level-loops: simplifying a part did not converge");
      }
    int64_t loads = countLoads(loop);
    if (llvm::none_of(parts, [&](scf::ForOp part) { return countLoads(part) < loads; })) {
      rollBack();
      return SmallVector<scf::ForOp>();
    }

    loop.replaceAllUsesWith(parts.back().getResults());
    loop.erase();
    for (Operation *outcome : outcomes)
      if (outcome->use_empty())
        outcome->erase();
    numSplit++;
    if (auto diag = remark("stn-split-level-loops", parts.back()))
      *diag << "loop over levels split where a level test changes (the test holds for "
            << (test.lower ? "k >= " : "k < ") << "bound"
            << (test.offset > 0 ? " + " : test.offset < 0 ? " - " : "")
            << (test.offset != 0 ? std::to_string(std::abs(test.offset)) : "")
            << "): each part without it, one reads less";
    // A part left with nothing to do (the levels where a field keeps its value) goes.
    SmallVector<scf::ForOp> busy;
    for (scf::ForOp part : parts) {
      if (part.getNumResults() == 0 && part.getBody()->without_terminator().empty())
        part.erase();
      else
        busy.push_back(part);
    }
    return busy;
  }
};

} // namespace
