//===- SplitApplies.cpp - one application per group of independent results ===//

#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <map>
#include <tuple>

namespace fusec {
#define GEN_PASS_DEF_SPLITAPPLIES
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

constexpr llvm::StringLiteral kPass = "stn-split-applies";

/// Whether copying `op` into several parts repeats no read: no memory, no
/// neighbour table, no region (a fold reads).
bool cheapToCopy(Operation *op) {
  return op->getNumRegions() == 0 && !isa<LoadOp, NeighborOp>(op) && isMemoryEffectFree(op);
}

/// The operations of `body` (top level) that `value` depends on, in no order.
void collectSlice(Value value, Block &body, llvm::SmallPtrSetImpl<Operation *> &slice) {
  Operation *definition = value.getDefiningOp();
  if (!definition)
    return;
  definition = body.findAncestorOpInBlock(*definition);
  if (!definition || !slice.insert(definition).second)
    return;
  definition->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      collectSlice(operand, body, slice);
  });
}

/// What a read reads: the field, the connectivity through which its point
/// is reached (empty at the application's own point), the slot where one
/// neighbour is named, and the level offset. Two folds over one table reading
/// one field read the same memory. Only compared, never iterated in order.
using ReadKey = std::tuple<const void *, std::string, const void *, int64_t>;

std::optional<ReadKey> readKey(LoadOp load, Value centre) {
  if (load.getDynOffset())
    return std::nullopt; // a data-dependent level: never the same read
  Value point = load.getPoint();
  std::string through;
  Value slot; // which neighbour, where the point names one
  if (point && point != centre) {
    std::optional<StringRef> table = neighborTable(point);
    if (!table)
      return std::nullopt;
    through = table->str();
    if (auto neighbor = point.getDefiningOp<NeighborOp>())
      slot = neighbor.getIndex();
  }
  return ReadKey{load.getField().getAsOpaquePointer(), through, slot.getAsOpaquePointer(),
                 load.getLevelOffset()};
}

/// Splits `apply` into one application per group of results sharing a read;
/// returns whether it did.
bool splitApply(ApplyOp apply) {
  unsigned numResults = apply.getNumResults();
  if (numResults < 2)
    return false;
  Block &body = apply.getBody().front();
  auto yielded = apply.getYield().getValues();
  SmallVector<llvm::SmallPtrSet<Operation *, 16>> slices(numResults);
  for (unsigned i = 0; i < numResults; ++i)
    collectSlice(yielded[i], body, slices[i]);

  llvm::EquivalenceClasses<unsigned> groups;
  for (unsigned i = 0; i < numResults; ++i)
    groups.insert(i);
  // Results reading the same memory (in separate operations) stay together.
  std::map<ReadKey, unsigned> firstReader;
  for (unsigned i = 0; i < numResults; ++i)
    for (Operation *op : slices[i])
      op->walk([&](LoadOp load) {
        std::optional<ReadKey> key = readKey(load, apply.getPoint());
        if (!key)
          return;
        auto [known, inserted] = firstReader.try_emplace(*key, i);
        if (!inserted)
          groups.unionSets(known->second, i);
      });
  for (Operation &op : body.without_terminator()) {
    if (cheapToCopy(&op))
      continue;
    std::optional<unsigned> first;
    for (unsigned i = 0; i < numResults; ++i)
      if (slices[i].contains(&op)) {
        if (first)
          groups.unionSets(*first, i);
        else
          first = i;
      }
  }
  // Parts in the order of their first result: the output does not depend on
  // the classes' internal order.
  SmallVector<SmallVector<unsigned>> parts;
  for (unsigned i = 0; i < numResults; ++i) {
    unsigned leader = groups.getLeaderValue(i);
    auto part = llvm::find_if(parts, [&](const SmallVector<unsigned> &members) {
      return groups.getLeaderValue(members.front()) == leader;
    });
    if (part == parts.end())
      parts.push_back({i});
    else
      part->push_back(i);
  }
  if (parts.size() < 2)
    return false;

  OpBuilder builder(apply);
  for (const SmallVector<unsigned> &members : parts) {
    SmallVector<Type> types;
    llvm::SmallPtrSet<Operation *, 16> needed;
    for (unsigned i : members) {
      types.push_back(apply.getResult(i).getType());
      needed.insert(slices[i].begin(), slices[i].end());
    }
    auto part = builder.create<ApplyOp>(apply.getLoc(), types, apply.getLocation(), apply.getHlb(),
                                        apply.getHub(), apply.getKlb(), apply.getKub());
    if (Value points = apply.getPoints())
      part.setPointList(points);
    part.setNameAttr(apply.getNameAttr());
    part.setKblockAttr(apply.getKblockAttr());
    part.setKeepInMemory(apply.getKeepInMemory());
    part.setNoLevelCarry(apply.getNoLevelCarry());
    IRMapping mapping;
    if (apply.getPoint())
      mapping.map(apply.getPoint(), part.getPoint());
    OpBuilder inside = OpBuilder::atBlockEnd(&part.getBody().front());
    for (Operation &op : body.without_terminator())
      if (needed.contains(&op))
        inside.clone(op, mapping);
    SmallVector<Value> values;
    for (unsigned i : members)
      values.push_back(mapping.lookupOrDefault(yielded[i]));
    inside.create<YieldOp>(apply.getLoc(), values);
    for (auto [index, i] : llvm::enumerate(members))
      apply.getResult(i).replaceAllUsesWith(part.getResult(index));
  }
  if (auto diag = remark(kPass, apply)) {
    std::string groupsText;
    llvm::raw_string_ostream os(groupsText);
    for (const SmallVector<unsigned> &members : parts) {
      os << " {";
      llvm::interleaveComma(members, os);
      os << "}";
    }
    *diag << "split into " << parts.size() << " applications by results" << groupsText
          << ": no read is shared between them";
  }
  apply.erase();
  return true;
}

struct SplitAppliesPass : public fusec::impl::SplitAppliesBase<SplitAppliesPass> {
  void runOnOperation() override {
    SmallVector<ApplyOp> applies;
    getOperation().walk([&](ApplyOp apply) { applies.push_back(apply); });
    for (ApplyOp apply : applies)
      splitApply(apply);
  }
};

} // namespace
