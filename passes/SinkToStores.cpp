//===- SinkToStores.cpp - move applications down to their stores ----------===//

#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

namespace fusec {
#define GEN_PASS_DEF_SINKTOSTORES
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

constexpr llvm::StringLiteral kPass = "stn-sink-to-stores";

/// The first store of `apply`'s results when every result is only stored, in
/// `apply`'s block, into fields `apply` reads at most at the point it
/// computes; null otherwise.
StoreOp firstStore(ApplyOp apply) {
  StoreOp first;
  for (Value result : apply.getResults())
    for (Operation *user : result.getUsers()) {
      auto store = dyn_cast<StoreOp>(user);
      if (!store || store->getBlock() != apply->getBlock() ||
          readsAwayFromCentre(apply, store.getField()))
        return nullptr;
      if (!first || store->isBeforeInBlock(first))
        first = store;
    }
  return first;
}

/// Whether an operation strictly between `apply` and `store` touches a field
/// one of `apply`'s results is stored into: that keeps the kernel from
/// writing it and costs a buffer and a copy.
bool storedFieldTouchedBefore(ApplyOp apply, StoreOp store) {
  SmallVector<Value> stored;
  for (Value result : apply.getResults())
    for (Operation *user : result.getUsers())
      stored.push_back(cast<StoreOp>(user).getField());
  for (Operation *op = apply->getNextNode(); op != store; op = op->getNextNode())
    if (llvm::any_of(stored, [&](Value field) { return touches(op, field); }))
      return true;
  return false;
}

struct SinkToStoresPass : public fusec::impl::SinkToStoresBase<SinkToStoresPass> {
  void runOnOperation() override {
    SmallVector<ApplyOp> applies;
    getOperation().walk([&](ApplyOp apply) { applies.push_back(apply); });
    // Last first, so that an application can sink past a later one that
    // already moved down to its own store.
    for (ApplyOp apply : llvm::reverse(applies))
      sink(apply);
  }

  void sink(ApplyOp apply) {
    if (apply.getNumResults() == 0)
      return;
    StoreOp store = firstStore(apply);
    if (!store || !storedFieldTouchedBefore(apply, store))
      return;
    if (std::string why = interferenceBetween(apply, store, apply); !why.empty()) {
      if (auto diag = remark(kPass, apply))
        *diag << "not moved down to its store: " << why;
      return;
    }
    apply->moveBefore(store);
    ++numSunk;
    if (auto diag = remark(kPass, apply))
      *diag << "moved down to its store: the kernel writes the field itself, without a "
               "buffer and a copy";
  }
};

} // namespace
