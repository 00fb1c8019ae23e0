//===- LoopVersioning.cpp - copies of a loop with a test decided ----------===//

#include "passes/LoopVersioning.h"

#include "ir/StnDialect.h"
#include "ir/StnOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace fusec::stn;

/// Folds what a constant condition decides in `region`: selects, branches,
/// boolean arithmetic, the operations left without a use and loops left
/// without a body.
static LogicalResult simplify(Region &region) {
  MLIRContext *context = region.getContext();
  RewritePatternSet patterns(context);
  arith::SelectOp::getCanonicalizationPatterns(patterns, context);
  arith::AndIOp::getCanonicalizationPatterns(patterns, context);
  arith::OrIOp::getCanonicalizationPatterns(patterns, context);
  arith::XOrIOp::getCanonicalizationPatterns(patterns, context);
  scf::IfOp::getCanonicalizationPatterns(patterns, context);
  scf::ForOp::getCanonicalizationPatterns(patterns, context);
  GreedyRewriteConfig config;
  config.enableRegionSimplification = GreedySimplifyRegionLevel::Disabled;
  return applyPatternsAndFoldGreedily(region, std::move(patterns), config);
}

/// Erases the writes in `region` that store back what the same iteration
/// loaded from the same element (a side of a select that keeps the old value)
/// when nothing else in `region` writes that field: loads come before writes
/// of a field, so the element still holds what was loaded.
static void eraseWritesOfUnchangedValues(Region &region) {
  llvm::SmallDenseMap<Value, unsigned> writesPerField;
  region.walk([&](WriteOp write) { ++writesPerField[write.getField()]; });
  SmallVector<WriteOp> unchanged;
  region.walk([&](WriteOp write) {
    auto load = write.getValue().getDefiningOp<LoadOp>();
    if (load && writesPerField[write.getField()] == 1 && load.getField() == write.getField() &&
        load.getPoint() == write.getPoint() && !load.getNbr() && !load.getDynOffset() &&
        load.getLevel() == write.getLevel() && load.getOffset() == 0)
      unchanged.push_back(write);
  });
  for (WriteOp write : unchanged) {
    Operation *load = write.getValue().getDefiningOp();
    write.erase();
    if (load->use_empty())
      load->erase();
  }
}

// The writes of unchanged values show only once the selects are folded, and
// the loads they stored are left without a use once those writes are gone.
LogicalResult fusec::resolveVersion(Region &side) {
  if (failed(simplify(side)))
    return failure();
  eraseWritesOfUnchangedValues(side);
  return simplify(side);
}

void fusec::visitConditions(scf::ForOp loop, function_ref<bool(Value)> visit) {
  loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    Value condition;
    if (auto select = dyn_cast<arith::SelectOp>(op))
      condition = select.getCondition();
    else if (auto branch = dyn_cast<scf::IfOp>(op))
      condition = branch.getCondition();
    return condition && visit(condition) ? WalkResult::interrupt() : WalkResult::advance();
  });
}

SmallVector<scf::ForOp> fusec::simdLoopsIn(Region &region) {
  SmallVector<scf::ForOp> loops;
  region.walk([&](scf::ForOp loop) {
    if (loop->hasAttr(StnDialect::kSimdAttr))
      loops.push_back(loop);
  });
  return loops;
}
