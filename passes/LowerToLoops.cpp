//===- LowerToLoops.cpp - kernel form to explicit loops per target --------===//

#include "passes/CostModel.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace fusec {
#define GEN_PASS_DEF_LOWERTOLOOPS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

bool hasLevels(Value field) {
  return FieldShape::of(field.getType()).vertical != VerticalKind::None;
}

/// Fails at the first use of the current level in a kernel without levels.
LogicalResult checkLevelsExist(KernelOp kernel) {
  if (kernel.getKlb())
    return success();
  WalkResult result = kernel.getBody().walk([&](Operation *op) {
    Value field;
    if (auto load = dyn_cast<LoadOp>(op))
      field = load.getField();
    else if (auto write = dyn_cast<WriteOp>(op))
      field = write.getField();
    if (!isa<LevelOp>(op) && !(field && hasLevels(field)))
      return WalkResult::advance();
    op->emitError() << "kernel '" << kernel.getName()
                    << "' has no vertical range but uses the current level";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Gives every level access inside `block` the explicit level `level`.
void makeLevelsExplicit(Block &block, Value level) {
  block.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (hasLevels(load.getField()))
        load.getLevelMutable().assign(level);
    } else if (auto write = dyn_cast<WriteOp>(op)) {
      if (hasLevels(write.getField()))
        write.getLevelMutable().assign(level);
    } else if (auto levelOp = dyn_cast<LevelOp>(op)) {
      levelOp.getLevelMutable().assign(level);
    }
  });
}

/// How a kernel over a point list loops over its entries.
enum class ListLoop {
  /// CUDA: a plain loop (a thread per entry).
  Entries,
  /// C++: a simd loop over the entries, vectorised with gathers.
  SimdEntries,
  /// C++ in the columns layout: a loop over the runs (entries of one point
  /// at consecutive levels, `stn.list_run`), a simd loop over each run's
  /// levels, which lie next to each other there.
  SimdRuns,
};

/// Entries per work item of a kernel that loops over runs (unless a
/// configuration chose its `hblock`). A run ends at its work item's last
/// entry: with 128 entries a column of 80 levels was cut in two at most work
/// items' ends; 1024 hold about thirteen such columns (the steep-point
/// correction on its list with every level steep, r2b5, 1 thread: 36.5 ->
/// 28.1 ms; docs/bench.md).
constexpr int64_t kEntriesPerRunWorkItem = 1024;

/// Rewrites a kernel over a point list into loop form; nothing is carried
/// (the entries scatter over points and levels).
void lowerListKernel(KernelOp kernel, ListLoop form) {
  Location loc = kernel.getLoc();
  MLIRContext *context = kernel.getContext();
  Block &old = kernel.getBody().front();
  BlockArgument point = kernel.getPoint();
  auto *entries = new Block();
  kernel.getBody().push_back(entries);
  IndexType index = IndexType::get(context);
  Value begin = entries->addArgument(index, loc), end = entries->addArgument(index, loc);
  OpBuilder builder = OpBuilder::atBlockEnd(entries);
  Value one = builder.create<arith::ConstantIndexOp>(loc, 1);
  Block *body;
  Value level;
  if (form == ListLoop::SimdRuns) {
    if (!kernel->hasAttr("hblock"))
      kernel->setAttr("hblock", builder.getI64IntegerAttr(kEntriesPerRunWorkItem));
    // From each run's first entry to the entry after the run: every entry is
    // read once, to find where its run ends.
    auto runs = builder.create<scf::WhileOp>(loc, TypeRange{index}, ValueRange{begin});
    Block *before = builder.createBlock(&runs.getBefore(), {}, {index}, {loc});
    Value more = builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt,
                                               before->getArgument(0), end);
    builder.create<scf::ConditionOp>(loc, more, before->getArguments());
    Block *after = builder.createBlock(&runs.getAfter(), {}, {index}, {loc});
    Value entry = after->getArgument(0);
    Value length = builder.create<ListRunOp>(loc, index, kernel.getPoints(), entry, end);
    auto first = builder.create<ListPointOp>(loc, kernel.getPoints(), entry);
    point.replaceAllUsesWith(first.getPoint());
    Value last = builder.create<arith::AddIOp>(loc, first.getLevel(), length);
    auto levels = builder.create<scf::ForOp>(loc, first.getLevel(), last, one);
    levels->setAttr(StnDialect::kSimdAttr, UnitAttr::get(context));
    Value next = builder.create<arith::AddIOp>(loc, entry, length);
    builder.create<scf::YieldOp>(loc, next);
    body = levels.getBody();
    level = levels.getInductionVar();
  } else {
    auto loop = builder.create<scf::ForOp>(loc, begin, end, one);
    // A list's entries are distinct points, so its iterations are independent.
    if (form == ListLoop::SimdEntries)
      loop->setAttr(StnDialect::kSimdAttr, UnitAttr::get(context));
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    auto first = builder.create<ListPointOp>(loc, kernel.getPoints(), loop.getInductionVar());
    point.replaceAllUsesWith(first.getPoint());
    body = loop.getBody();
    level = first.getLevel();
  }
  body->getOperations().splice(body->getTerminator()->getIterator(), old.getOperations(),
                               old.begin(), std::prev(old.end()));
  makeLevelsExplicit(*body, level);
  builder.setInsertionPointToEnd(entries);
  builder.create<YieldOp>(loc);
  old.erase();
  kernel.setLoopForm(true);
}

/// The loops of a work item, outermost first, and the one that vectorises.
enum class LoopOrder {
  /// CUDA: points outside (a thread's one point), levels inside, nothing marked.
  LevelsInside,
  /// C++, ICON's order: levels outside, a simd loop over the block's points.
  SimdPoints,
  /// C++ in the columns layout: points outside, a simd loop over the
  /// point's levels, which lie next to each other there.
  SimdLevels,
};

/// Rewrites `kernel` into loop form in `order`.
LogicalResult lowerKernel(KernelOp kernel, LoopOrder order) {
  if (kernel.getPoints()) {
    lowerListKernel(kernel, order == LoopOrder::LevelsInside ? ListLoop::Entries
                            : order == LoopOrder::SimdPoints ? ListLoop::SimdEntries
                                                             : ListLoop::SimdRuns);
    return success();
  }
  if (failed(checkLevelsExist(kernel)))
    return failure();
  Location loc = kernel.getLoc();
  MLIRContext *context = kernel.getContext();
  Block &old = kernel.getBody().front();
  BlockArgument point = kernel.getPoint();
  bool points = kernel.getHlb() != nullptr, levels = kernel.getKlb() != nullptr;

  auto *box = new Block();
  kernel.getBody().push_back(box);
  IndexType index = IndexType::get(context);
  Value hBegin, hEnd, kBegin, kEnd;
  if (points) {
    hBegin = box->addArgument(index, loc);
    hEnd = box->addArgument(index, loc);
  }
  if (levels) {
    kBegin = box->addArgument(index, loc);
    kEnd = box->addArgument(index, loc);
  }
  OpBuilder builder = OpBuilder::atBlockEnd(box);
  Value one = builder.create<arith::ConstantIndexOp>(loc, 1);
  auto simd = [&](scf::ForOp loop) { loop->setAttr(StnDialect::kSimdAttr, UnitAttr::get(context)); };

  // The loops, outermost first; the body goes into the innermost.
  Value levelIv, pointIv;
  Block *innermost = box;
  auto openLoop = [&](Value begin, Value end) {
    if (innermost == box)
      builder.setInsertionPointToEnd(box);
    else
      builder.setInsertionPoint(innermost->getTerminator());
    auto loop = builder.create<scf::ForOp>(loc, begin, end, one);
    innermost = loop.getBody();
    return loop;
  };
  bool cpp = order != LoopOrder::LevelsInside;
  if (levels && (order == LoopOrder::SimdPoints || !points)) {
    scf::ForOp loop = openLoop(kBegin, kEnd);
    levelIv = loop.getInductionVar();
    if (!points && cpp)
      simd(loop);
  }
  if (points) {
    scf::ForOp loop = openLoop(hBegin, hEnd);
    pointIv = loop.getInductionVar();
    if (order == LoopOrder::SimdPoints || (order == LoopOrder::SimdLevels && !levels))
      simd(loop);
    builder.setInsertionPoint(innermost->getTerminator());
    Value current = builder.create<PointAtOp>(loc, point.getType(), pointIv);
    point.replaceAllUsesWith(current);
  }
  if (levels && !levelIv) {
    scf::ForOp loop = openLoop(kBegin, kEnd);
    levelIv = loop.getInductionVar();
    if (order == LoopOrder::SimdLevels)
      simd(loop);
  }

  Operation *yield = innermost->getTerminator();
  innermost->getOperations().splice(yield->getIterator(), old.getOperations(), old.begin(),
                                    std::prev(old.end()));
  if (levelIv)
    makeLevelsExplicit(*innermost, levelIv);
  builder.setInsertionPointToEnd(box);
  builder.create<YieldOp>(loc);
  old.erase();
  kernel.setLoopForm(true);
  return success();
}

struct LowerToLoopsPass : public fusec::impl::LowerToLoopsBase<LowerToLoopsPass> {
  using LowerToLoopsBase::LowerToLoopsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string chosen = target.empty() ? targetOf(module).str() : target.getValue();
    if (chosen != "cpp" && chosen != "cuda") {
      module.emitError() << "stn-lower-to-loops: unknown target '" << chosen
                         << "' (expected cpp or cuda)";
      return signalPassFailure();
    }
    LoopOrder order = chosen == "cuda"      ? LoopOrder::LevelsInside
                      : columnsLayout(module) ? LoopOrder::SimdLevels
                                              : LoopOrder::SimdPoints;
    SmallVector<KernelOp> kernels;
    module.walk([&](KernelOp kernel) {
      if (!kernel.getLoopForm())
        kernels.push_back(kernel);
    });
    for (KernelOp kernel : kernels)
      if (failed(lowerKernel(kernel, order)))
        return signalPassFailure();
  }
};

} // namespace
