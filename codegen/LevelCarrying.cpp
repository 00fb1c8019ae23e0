//===- LevelCarrying.cpp - values a level loop takes from its last level ---===//

#include "codegen/LevelCarrying.h"

#include "codegen/KernelBodyEmitter.h"
#include "codegen/KernelForm.h"

#include "mlir/IR/IRMapping.h"

#include <map>

using namespace mlir;
using namespace fusec::stn;

namespace fusec::codegen {
namespace {

/// Decides whether one op computes at level k what another computes at level
/// k - 1 ("is one level below"), comparing structure with memoisation.
class ShiftMatcher {
public:
  ShiftMatcher(Block &body, const llvm::DenseSet<Value> &levelDependent)
      : body(body), levelDependent(levelDependent) {}

  /// Whether top-level `below` at level k equals top-level `source` at k - 1.
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

  bool attributesMatch(Operation *below, Operation *source) {
    std::optional<std::pair<int64_t, int64_t>> offsets;
    bool hasLevel = false;
    if (auto load = dyn_cast<LoadOp>(below)) {
      // Fields the kernel writes are read only at the written level (the
      // kernel verifier's race rule), so no k - 1 read of them reaches here.
      offsets = {load.getLevelOffset(), cast<LoadOp>(source).getLevelOffset()};
      hasLevel = FieldShape::of(load.getField().getType()).vertical != VerticalKind::None;
    } else if (auto level = dyn_cast<LevelOp>(below)) {
      offsets = {level.getLevelOffset(), cast<LevelOp>(source).getLevelOffset()};
      hasLevel = true;
    }
    if (!offsets)
      return below->getAttrDictionary() == source->getAttrDictionary();
    int64_t shift = hasLevel ? 1 : 0;
    return offsets->first + shift == offsets->second &&
           withoutOffset(below) == withoutOffset(source);
  }

  bool opsMatch(Operation *below, Operation *source, IRMapping &inner) {
    if (below->getName() != source->getName() || isa<WriteOp>(below) ||
        below->getNumOperands() != source->getNumOperands() ||
        below->getNumRegions() != source->getNumRegions() ||
        below->getResultTypes() != source->getResultTypes() || !attributesMatch(below, source))
      return false;
    for (auto [belowOperand, sourceOperand] :
         llvm::zip_equal(below->getOperands(), source->getOperands()))
      if (!valuesMatch(belowOperand, sourceOperand, inner))
        return false;
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
  const llvm::DenseSet<Value> &levelDependent;
  /// Keyed by op pairs but only looked up, never iterated.
  std::map<std::pair<Operation *, Operation *>, bool> memo;
};

/// A value a register (or array element) can hold: one float or integer.
bool carriable(Operation *op) {
  return op->getNumResults() == 1 && !isDead(op) &&
         (isa<FloatType>(op->getResult(0).getType()) ||
          op->getResult(0).getType().isSignlessInteger());
}

/// The top-level op of `body` defining `value`, or null.
Operation *topLevelDefinition(Value value, Block &body) {
  Operation *def = value.getDefiningOp();
  return def && def->getBlock() == &body ? def : nullptr;
}

} // namespace

LevelCarrying analyzeLevelCarrying(KernelOp kernel, bool carryLoads) {
  LevelCarrying carrying;
  if (!kernel.getKlb())
    return carrying;
  Block &body = kernel.getBody().front();
  SmallVector<Operation *> levelInvariant, perLevel;
  KernelBodyEmitter::splitByLevel(kernel, levelInvariant, perLevel);
  llvm::DenseSet<Value> levelDependent;
  for (Operation *op : perLevel)
    levelDependent.insert(op->getResults().begin(), op->getResults().end());
  ShiftMatcher matcher(body, levelDependent);

  llvm::DenseMap<Operation *, Operation *> sourceOf;
  for (Operation *below : perLevel) {
    if (!carriable(below) || (!carryLoads && isa<LoadOp>(below)))
      continue;
    for (Operation *source : perLevel)
      if (source != below && carriable(source) && matcher.isOneLevelBelow(below, source)) {
        sourceOf[below] = source;
        break;
      }
  }
  if (sourceOf.empty())
    return carrying;

  // What the level loop still computes: everything writes need, where a
  // carried op needs only its source (from the previous level).
  SmallVector<Operation *> worklist;
  auto need = [&](Operation *op) {
    if (op && carrying.steadyLive.insert(op).second)
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
        need(topLevelDefinition(operand, body));
    });
  }

  // Carries in program order of their readers; one per source.
  llvm::DenseMap<Operation *, unsigned> sourceIndex;
  for (Operation &op : body.without_terminator()) {
    Operation *source = sourceOf.lookup(&op);
    if (!source || !carrying.steadyLive.contains(&op))
      continue;
    auto [it, inserted] = sourceIndex.try_emplace(source, carrying.sources.size());
    if (inserted)
      carrying.sources.push_back(source);
    carrying.carriedFrom[&op] = it->second;
  }
  return carrying;
}

} // namespace fusec::codegen
