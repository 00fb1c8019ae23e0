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
// On CPUs the level loop holds the loop over the work item's points, so a
// carried value is one per point: it goes through a scratch row
// (`stn.row`), stored at one level and loaded at the next.
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
  /// Compares ops of `scope`: the loop body and, for a point loop, the body
  /// of the level loop around it.
  ShiftMatcher(ArrayRef<Block *> scope, Value level, const llvm::DenseSet<Value> &levelDependent)
      : scope(scope), level(level), levelDependent(levelDependent) {}

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
        !llvm::is_contained(scope, belowResult.getOwner()->getBlock()) ||
        !llvm::is_contained(scope, sourceResult.getOwner()->getBlock()))
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

  ArrayRef<Block *> scope;
  Value level;
  const llvm::DenseSet<Value> &levelDependent;
  /// Keyed by op pairs but only looked up, never iterated.
  std::map<std::pair<Operation *, Operation *>, bool> memo;
};

/// A value a carry can hold: one used float or integer. (A kernel reads a
/// field it writes only at the point and level it writes, so nothing it
/// writes is read one level down.)
bool carriable(Operation *op) {
  return op->getNumResults() == 1 && !op->use_empty() &&
         (isa<FloatType>(op->getResult(0).getType()) ||
          op->getResult(0).getType().isSignlessInteger());
}

/// Whether `op` or an op nested in it uses one of `values`.
bool dependsOn(Operation &op, const llvm::DenseSet<Value> &values) {
  return op.walk([&](Operation *inner) {
             return llvm::any_of(inner->getOperands(),
                                 [&](Value operand) { return values.contains(operand); })
                        ? WalkResult::interrupt()
                        : WalkResult::advance();
           }).wasInterrupted();
}

/// The carries of one loop body: `carriedFrom[A]` indexes `sources`, and
/// `steadyLive` holds the body ops the levels after the first still compute.
struct Carries {
  llvm::DenseMap<Operation *, unsigned> carriedFrom;
  SmallVector<Operation *> sources;
  llvm::DenseSet<Operation *> steadyLive;
};

/// Finds the carries among the ops of `body` (a level loop's body, or the
/// point loop inside one), where `level` is the level loop's induction
/// variable and `levelDependent` the values outside `body` that change with
/// it.
Carries analyze(Block &body, Value level, ArrayRef<Block *> scope,
                llvm::DenseSet<Value> levelDependent) {
  Carries carries;
  levelDependent.insert(level);
  SmallVector<Operation *> perLevel;
  for (Operation &op : body.without_terminator()) {
    if (!dependsOn(op, levelDependent))
      continue;
    levelDependent.insert(op.getResults().begin(), op.getResults().end());
    perLevel.push_back(&op);
  }
  ShiftMatcher matcher(scope, level, levelDependent);
  llvm::DenseMap<Operation *, Operation *> sourceOf;
  for (Operation *below : perLevel) {
    if (!carriable(below))
      continue;
    for (Operation *source : perLevel)
      if (source != below && carriable(source) &&
          matcher.isOneLevelBelow(below, source)) {
        sourceOf[below] = source;
        break;
      }
  }
  if (sourceOf.empty())
    return carries;

  // What the steady levels compute: everything writes (and nested loops)
  // need, where a carried op needs only its source (from the previous level).
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

/// Peels the first level of `loop` and carries `carries` (of its body)
/// through the rest in `iter_args`.
void carryInIterArgs(scf::ForOp loop, const Carries &carries) {
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

/// Clones the body of the point loop `points` into `into` (a clone of
/// `points` itself, empty but for its terminator) as one level computes it:
/// every op, or with `carries`, the steady ones, carried values loaded from
/// `rows` first. Either way the sources are stored into `rows` last.
void clonePointBody(scf::ForOp points, scf::ForOp into, IRMapping mapping,
                    ArrayRef<Value> rows, const Carries &carries, bool steady) {
  Location loc = points.getLoc();
  OpBuilder builder(into.getBody()->getTerminator());
  mapping.map(points.getInductionVar(), into.getInductionVar());
  Value slot = builder.create<arith::SubIOp>(loc, into.getInductionVar(), into.getLowerBound());
  SmallVector<Value> previous;
  if (steady)
    for (Value row : rows)
      previous.push_back(builder.create<RowLoadOp>(
          loc, cast<RowType>(row.getType()).getElementType(), row, slot));
  for (Operation &op : points.getBody()->without_terminator()) {
    if (steady) {
      if (!carries.steadyLive.contains(&op))
        continue;
      if (auto carried = carries.carriedFrom.find(&op); carried != carries.carriedFrom.end()) {
        mapping.map(op.getResult(0), previous[carried->second]);
        continue;
      }
    }
    builder.clone(op, mapping);
  }
  for (auto [source, row] : llvm::zip_equal(carries.sources, rows))
    builder.create<RowStoreOp>(loc, mapping.lookup(source->getResult(0)), row, slot);
}

/// Peels the first level of `levels` and carries `carries` (of the point
/// loop `points` in its body) through the rest in rows of `rowSize` points.
void carryInRows(scf::ForOp levels, scf::ForOp points, const Carries &carries, int64_t rowSize) {
  Location loc = levels.getLoc();
  OpBuilder builder(levels);
  SmallVector<Value> rows;
  for (Operation *source : carries.sources)
    rows.push_back(
        builder.create<RowOp>(loc, RowType::get(builder.getContext(), rowSize,
                                                source->getResult(0).getType())));

  // Clones the level loop's body at `level` into the block before `at`, its
  // point loop as `clonePointBody` says.
  auto cloneLevel = [&](OpBuilder &at, Value level, bool steady) {
    IRMapping mapping;
    mapping.map(levels.getInductionVar(), level);
    for (Operation &op : levels.getBody()->without_terminator()) {
      if (&op != points.getOperation()) {
        at.clone(op, mapping);
        continue;
      }
      auto copy = at.create<scf::ForOp>(loc, mapping.lookupOrDefault(points.getLowerBound()),
                                        mapping.lookupOrDefault(points.getUpperBound()),
                                        mapping.lookupOrDefault(points.getStep()));
      copy->setDiscardableAttrs(points->getDiscardableAttrDictionary());
      clonePointBody(points, copy, mapping, rows, carries, steady);
    }
  };
  cloneLevel(builder, levels.getLowerBound(), /*steady=*/false);
  Value second = builder.create<arith::AddIOp>(loc, levels.getLowerBound(), levels.getStep());
  auto rest = builder.create<scf::ForOp>(loc, second, levels.getUpperBound(), levels.getStep());
  rest->setDiscardableAttrs(levels->getDiscardableAttrDictionary());
  OpBuilder inside(rest.getBody()->getTerminator());
  cloneLevel(inside, rest.getInductionVar(), /*steady=*/true);
  levels.erase();
}

/// A level loop whose body holds the operations: its induction variable is
/// the level of an access at the top of the body.
bool isLevelLoop(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 0)
    return false;
  Value level = loop.getInductionVar();
  return llvm::any_of(level.getUsers(), [&](Operation *user) {
    return user->getBlock() == loop.getBody() && levelOperand(user) == level;
  });
}

/// The one point loop (`stn.simd`, no results) of a level loop's body, or null.
scf::ForOp pointLoopIn(scf::ForOp levels) {
  scf::ForOp found;
  for (Operation &op : levels.getBody()->without_terminator()) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || !loop->hasAttr(StnDialect::kSimdAttr))
      continue;
    if (found || loop.getNumRegionIterArgs() != 0)
      return {};
    found = loop;
  }
  return found;
}

struct CarryLevelsPass : public fusec::impl::CarryLevelsBase<CarryLevelsPass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.getLoopForm() || kernel.getKblock() < 2 || kernel.getNoLevelCarry())
        return;
      auto report = [&](size_t count, StringRef where) {
        numCarried += count;
        if (auto diag = remark("stn-carry-levels", kernel))
          *diag << "'" << kernel.getName() << "' carries " << count
                << " value(s) from one level to the next" << where;
      };
      SmallVector<scf::ForOp> loops;
      kernel.walk([&](scf::ForOp loop) {
        if (!loop->hasAttr(StnDialect::kSimdAttr) && !loop.getNumRegionIterArgs())
          loops.push_back(loop);
      });
      for (scf::ForOp loop : loops) {
        Block *body = loop.getBody();
        if (scf::ForOp points = pointLoopIn(loop)) {
          // Levels outside, points inside (C++): one row per carried value.
          llvm::DenseSet<Value> levelDependent{loop.getInductionVar()};
          for (Operation &op : body->without_terminator())
            if (&op != points.getOperation() && dependsOn(op, levelDependent))
              levelDependent.insert(op.getResults().begin(), op.getResults().end());
          Block *scope[] = {points.getBody(), body};
          Carries carries =
              analyze(*points.getBody(), loop.getInductionVar(), scope, levelDependent);
          if (carries.sources.empty())
            continue;
          report(carries.sources.size(), " in rows of the work item's points");
          carryInRows(loop, points, carries, cppPointsPerWorkItem(kernel));
          continue;
        }
        if (!isLevelLoop(loop))
          continue;
        Block *scope[] = {body};
        Carries carries = analyze(*body, loop.getInductionVar(), scope, {});
        if (carries.sources.empty())
          continue;
        report(carries.sources.size(), "");
        carryInIterArgs(loop, carries);
      }
    });
  }
};

} // namespace
