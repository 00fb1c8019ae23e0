//===- UnswitchLoops.cpp - one simd loop per side of a uniform select -----===//

#include "passes/LoopVersioning.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace fusec {
#define GEN_PASS_DEF_UNSWITCHLOOPS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

bool definedOutside(Value value, scf::ForOp loop) {
  return !loop.getRegion().isAncestor(value.getParentRegion());
}

/// A condition of `loop` the same for every point: `condition` itself when
/// defined outside the loop, else the first such operand of the conjunctions
/// and disjunctions it is made of (`interior && k < nrdmax`: deciding the
/// level test decides the select where it fails).
Value uniformPart(Value condition, scf::ForOp loop) {
  if (!condition.getType().isInteger(1) || matchPattern(condition, m_Constant()))
    return {};
  // Whether a neighbour exists is stn-unswitch-missing-neighbors' test: a loop
  // over a point's levels (the columns layout) would otherwise get a copy per
  // combination of its neighbours.
  if (condition.getDefiningOp<ValidOp>())
    return {};
  if (definedOutside(condition, loop))
    return condition;
  Operation *op = condition.getDefiningOp();
  if (!isa_and_nonnull<arith::AndIOp, arith::OrIOp>(op))
    return {};
  for (Value operand : op->getOperands())
    if (Value uniform = uniformPart(operand, loop))
      return uniform;
  return {};
}

/// The first condition (in body order) of a select or branch in `loop`, or
/// part of one, that is the same for every point of the loop.
Value firstUniformCondition(scf::ForOp loop) {
  Value found;
  visitConditions(loop, [&](Value condition) { return bool(found = uniformPart(condition, loop)); });
  return found;
}

struct UnswitchLoopsPass : public fusec::impl::UnswitchLoopsBase<UnswitchLoopsPass> {
  using UnswitchLoopsBase::UnswitchLoopsBase;

  void runOnOperation() override {
    for (scf::ForOp loop : simdLoopsIn(getOperation().getBodyRegion()))
      if (failed(unswitch(loop, maxConditions)))
        return signalPassFailure();
  }

  /// Splits `loop` on its first uniform condition, then each version on its
  /// next, at most `budget` conditions deep.
  LogicalResult unswitch(scf::ForOp loop, int64_t budget) {
    if (budget <= 0 || loop.getNumResults() != 0)
      return success();
    Value condition = firstUniformCondition(loop);
    if (!condition)
      return success();
    OpBuilder builder(loop);
    auto versions = builder.create<scf::IfOp>(loop.getLoc(), TypeRange(), condition,
                                              /*withElseRegion=*/true);
    for (bool taken : {true, false}) {
      Block *block = taken ? versions.thenBlock() : versions.elseBlock();
      OpBuilder inside = OpBuilder::atBlockBegin(block);
      Value decided = inside.create<arith::ConstantIntOp>(loop.getLoc(), taken, 1);
      IRMapping mapping;
      mapping.map(condition, decided);
      inside.clone(*loop, mapping);
    }
    if (auto diag = remark("stn-unswitch-loops", versions))
      *diag << "loop over points unswitched on a condition that is the same for all of them";
    numUnswitched++;
    loop.erase();
    for (Region *side : {&versions.getThenRegion(), &versions.getElseRegion()}) {
      if (failed(resolveVersion(*side)))
        return versions.emitError("stn-unswitch-loops: simplifying a version did not converge");
      for (scf::ForOp inner : simdLoopsIn(*side))
        if (failed(unswitch(inner, budget - 1)))
          return failure();
    }
    // A side left with nothing to do goes (an else) or swaps sides (a then).
    RewritePatternSet patterns(versions.getContext());
    scf::IfOp::getCanonicalizationPatterns(patterns, versions.getContext());
    (void)applyOpPatternsAndFold(ArrayRef<Operation *>{versions}, std::move(patterns));
    return success();
  }
};

} // namespace
