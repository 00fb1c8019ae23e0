//===- CarryLevels.cpp - values a level loop takes from its last level ----===//
//
// In a level loop that computes consecutive levels k, k+1, ..., an operation
// A of the body may compute at level k exactly what another operation B
// computed at level k - 1: A is B with every level access moved down by one
// (loads and `stn.level` at offset o - 1 where B has o, other operands the
// same level-independent values or again such pairs). From the second level
// on, A's result is B's result of the previous iteration, an `iter_args`
// value, and what only A needed is not computed any more.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

namespace fusec {
#define GEN_PASS_DEF_CARRYLEVELS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// The level operand of a level access, or null.
Value levelOperand(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getLevel();
  if (auto level = dyn_cast<LevelOp>(op))
    return level.getLevel();
  return {};
}

/// Decides whether one top-level op of a level loop's body computes at level
/// k what another computes at level k - 1, comparing structure with
/// memoisation.
class ShiftMatcher {
public:
  ShiftMatcher(Block &body, Value level, const llvm::DenseSet<Value> &levelDependent)
      : body(body), level(level), levelDependent(levelDependent) {}

  bool isOneLevelBelow(Operation *below, Operation *source) {
    auto key = std::make_pair(below, source);
    auto found = memo.find(key);
    if (found != memo.end())
      return found->second;
    IRMapping inner;
    bool result = opsMatch(below, source, inner);
    memo[key] = result;
    return result;
  }

private:
  bool valuesMatch(Value below, Value source, IRMapping &inner) {
    if (Value mapped = inner.lookupOrNull(below))
      return mapped == source;
    // The same value is the same at both levels only if it has no level.
    if (below == source)
      return !levelDependent.contains(below);
    auto belowResult = dyn_cast<OpResult>(below), sourceResult = dyn_cast<OpResult>(source);
    if (!belowResult || !sourceResult ||
        belowResult.getResultNumber() != sourceResult.getResultNumber() ||
        belowResult.getOwner()->getBlock() != &body ||
        sourceResult.getOwner()->getBlock() != &body)
      return false;
    return isOneLevelBelow(belowResult.getOwner(), sourceResult.getOwner());
  }

  /// The attributes of `op` without its level offset.
  static DictionaryAttr withoutOffset(Operation *op) {
    NamedAttrList attrs(op->getAttrDictionary());
    attrs.erase("offset");
    return attrs.getDictionary(op->getContext());
  }

  static int64_t offsetOf(Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      return load.getLevelOffset();
    return cast<LevelOp>(op).getLevelOffset();
  }

  bool opsMatch(Operation *below, Operation *source, IRMapping &inner) {
    if (below->getName() != source->getName() || isa<WriteOp>(below) ||
        below->getNumOperands() != source->getNumOperands() ||
        below->getNumRegions() != source->getNumRegions() ||
        below->getResultTypes() != source->getResultTypes())
      return false;
    // A level access at this loop's level: one level down means offset - 1.
    bool shifted = levelOperand(below) == level && levelOperand(source) == level;
    if (shifted) {
      if (offsetOf(below) + 1 != offsetOf(source) ||
          withoutOffset(below) != withoutOffset(source))
        return false;
    } else if (below->getAttrDictionary() != source->getAttrDictionary()) {
      return false;
    }
    for (auto [belowOperand, sourceOperand] :
         llvm::zip_equal(below->getOperands(), source->getOperands())) {
      if (shifted && belowOperand == level && sourceOperand == level)
        continue;
      if (!valuesMatch(belowOperand, sourceOperand, inner))
        return false;
    }
    for (auto [belowRegion, sourceRegion] :
         llvm::zip_equal(below->getRegions(), source->getRegions()))
      if (!regionsMatch(belowRegion, sourceRegion, inner))
        return false;
    inner.map(below->getResults(), source->getResults());
    return true;
  }

  bool regionsMatch(Region &below, Region &source, IRMapping &inner) {
    if (below.getBlocks().size() != source.getBlocks().size())
      return false;
    for (auto [belowBlock, sourceBlock] : llvm::zip_equal(below, source)) {
      if (belowBlock.getArgumentTypes() != sourceBlock.getArgumentTypes() ||
          belowBlock.getOperations().size() != sourceBlock.getOperations().size())
        return false;
      inner.map(belowBlock.getArguments(), sourceBlock.getArguments());
      for (auto [belowOp, sourceOp] : llvm::zip_equal(belowBlock, sourceBlock))
        if (!opsMatch(&belowOp, &sourceOp, inner))
          return false;
    }
    return true;
  }

  Block &body;
  Value level;
  const llvm::DenseSet<Value> &levelDependent;
  /// Keyed by op pairs but only looked up, never iterated.
  std::map<std::pair<Operation *, Operation *>, bool> memo;
};

/// A value an `iter_args` argument can hold: one used float or integer.
bool carriable(Operation *op) {
  return op->getNumResults() == 1 && !op->use_empty() &&
         (isa<FloatType>(op->getResult(0).getType()) ||
          op->getResult(0).getType().isSignlessInteger());
}

/// The carries of one level loop: `carriedFrom[A]` indexes `sources`, and
/// `steadyLive` holds the body ops the levels after the first still compute.
struct Carries {
  llvm::DenseMap<Operation *, unsigned> carriedFrom;
  SmallVector<Operation *> sources;
  llvm::DenseSet<Operation *> steadyLive;
};

Carries analyze(scf::ForOp loop) {
  Carries carries;
  Block &body = *loop.getBody();
  Value level = loop.getInductionVar();
  llvm::DenseSet<Value> levelDependent{level};
  SmallVector<Operation *> perLevel;
  for (Operation &op : body.without_terminator()) {
    bool dependent = false;
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        dependent |= levelDependent.contains(operand);
    });
    if (!dependent)
      continue;
    levelDependent.insert(op.getResults().begin(), op.getResults().end());
    perLevel.push_back(&op);
  }
  ShiftMatcher matcher(body, level, levelDependent);
  llvm::DenseMap<Operation *, Operation *> sourceOf;
  for (Operation *below : perLevel) {
    if (!carriable(below))
      continue;
    for (Operation *source : perLevel)
      if (source != below && carriable(source) && matcher.isOneLevelBelow(below, source)) {
        sourceOf[below] = source;
        break;
      }
  }
  if (sourceOf.empty())
    return carries;

  // What the steady levels compute: everything writes need, where a carried
  // op needs only its source (from the previous level).
  SmallVector<Operation *> worklist;
  auto need = [&](Operation *op) {
    if (op && op->getBlock() == &body && carries.steadyLive.insert(op).second)
      worklist.push_back(op);
  };
  for (Operation &op : body.without_terminator())
    if (op.walk([](WriteOp) { return WalkResult::interrupt(); }).wasInterrupted())
      need(&op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (Operation *source = sourceOf.lookup(op)) {
      need(source);
      continue;
    }
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        need(operand.getDefiningOp());
    });
  }

  // One carry per source, in program order of the carried ops.
  llvm::DenseMap<Operation *, unsigned> sourceIndex;
  for (Operation &op : body.without_terminator()) {
    Operation *source = sourceOf.lookup(&op);
    if (!source || !carries.steadyLive.contains(&op))
      continue;
    auto [it, inserted] = sourceIndex.try_emplace(source, carries.sources.size());
    if (inserted)
      carries.sources.push_back(source);
    carries.carriedFrom[&op] = it->second;
  }
  return carries;
}

/// Peels the first level of `loop` and carries `carries` through the rest.
void carry(scf::ForOp loop, const Carries &carries) {
  Location loc = loop.getLoc();
  Block &body = *loop.getBody();
  OpBuilder builder(loop);
  IRMapping first;
  first.map(loop.getInductionVar(), loop.getLowerBound());
  for (Operation &op : body.without_terminator())
    builder.clone(op, first);
  SmallVector<Value> initial;
  for (Operation *source : carries.sources)
    initial.push_back(first.lookup(source->getResult(0)));
  Value second = builder.create<arith::AddIOp>(loc, loop.getLowerBound(), loop.getStep());
  auto steady =
      builder.create<scf::ForOp>(loc, second, loop.getUpperBound(), loop.getStep(), initial);
  steady->setDiscardableAttrs(loop->getDiscardableAttrDictionary());

  OpBuilder inside = OpBuilder::atBlockEnd(steady.getBody());
  IRMapping next;
  next.map(loop.getInductionVar(), steady.getInductionVar());
  for (Operation &op : body.without_terminator()) {
    if (!carries.steadyLive.contains(&op))
      continue;
    if (auto carried = carries.carriedFrom.find(&op); carried != carries.carriedFrom.end()) {
      next.map(op.getResult(0), steady.getRegionIterArgs()[carried->second]);
      continue;
    }
    inside.clone(op, next);
  }
  SmallVector<Value> yielded;
  for (Operation *source : carries.sources)
    yielded.push_back(next.lookup(source->getResult(0)));
  inside.create<scf::YieldOp>(loc, yielded);
  loop.erase();
}

/// A level loop whose body holds the operations: its induction variable is
/// the level of an access at the top of the body.
bool isCarryCandidate(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 0)
    return false;
  Value level = loop.getInductionVar();
  return llvm::any_of(level.getUsers(), [&](Operation *user) {
    return user->getBlock() == loop.getBody() && levelOperand(user) == level;
  });
}

struct CarryLevelsPass : public fusec::impl::CarryLevelsBase<CarryLevelsPass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.getLoopForm() || kernel.getKblock() < 2 || kernel.getNoLevelCarry())
        return;
      SmallVector<scf::ForOp> loops;
      kernel.walk([&](scf::ForOp loop) {
        if (isCarryCandidate(loop))
          loops.push_back(loop);
      });
      for (scf::ForOp loop : loops) {
        Carries carries = analyze(loop);
        if (carries.sources.empty())
          continue;
        numCarried += carries.sources.size();
        if (auto diag = remark("stn-carry-levels", kernel))
          *diag << "'" << kernel.getName() << "' carries " << carries.sources.size()
                << " value(s) from one level to the next";
        carry(loop, carries);
      }
    });
  }
};

} // namespace
