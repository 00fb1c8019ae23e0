//===- RemoveRedundantArrays.cpp - copies, dead and overwritten stores ----===//

#include "passes/DomainUtils.h"
#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Interfaces/LoopLikeInterface.h"

namespace fusec {
#define GEN_PASS_DEF_REMOVEREDUNDANTARRAYS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

constexpr llvm::StringLiteral kPass = "stn-remove-redundant-arrays";

std::string bufferName(AllocOp alloc) {
  return ("'" + alloc.getName().value_or("buffer") + "'").str();
}

/// The field `apply` copies unchanged (a load at the centre and current
/// level, yielded as its only result), or null.
Value copiedField(ApplyOp apply) {
  if (apply.getNumResults() != 1)
    return {};
  Block &body = apply.getBody().front();
  if (body.getOperations().size() != 2)
    return {};
  auto load = dyn_cast<LoadOp>(body.front());
  if (!load || load.getPoint() != apply.getPoint() || load.getLevelOffset() != 0 ||
      load.getDynOffset() || load.getNbr() || !isa<FieldType>(load.getField().getType()) ||
      apply.getYield().getValues()[0] != load.getResult())
    return {};
  return load.getField();
}

class RedundantArrays {
public:
  explicit RedundantArrays(ProgramOp program) : program(program) {}

  void run() {
    while (removeOneCopy() || removeOneDeadStore() || removeOneOverwrittenStore() ||
           forwardOneStore()) {
    }
    eraseDeadApplies();
  }

private:
  template <typename OpT>
  SmallVector<OpT> all() {
    SmallVector<OpT> result;
    program.walk([&](OpT op) { result.push_back(op); });
    return result;
  }

  /// `buffer = copy(field)` where every read of `buffer` happens before
  /// anything writes `field` again: read `field` directly.
  bool removeOneCopy() {
    for (ApplyOp apply : all<ApplyOp>()) {
      Value source = copiedField(apply);
      if (!source || !apply->hasOneUse())
        continue;
      auto store = dyn_cast<StoreOp>(*apply->getUsers().begin());
      auto alloc = store ? store.getField().getDefiningOp<AllocOp>() : AllocOp();
      if (!alloc || alloc.getType() != source.getType() || !alloc->getBlock() ||
          store->getBlock() != apply->getBlock())
        continue;
      if (!copyIsRedundant(apply, store, alloc, source))
        continue;
      if (auto diag = remark(kPass, apply))
        *diag << "removed the copy into " << bufferName(alloc)
              << ": its readers read the original, which nothing writes before them";
      alloc.getResult().replaceUsesWithIf(source, [&](OpOperand &use) {
        return use.getOwner() != store.getOperation();
      });
      store.erase();
      apply.erase();
      return true;
    }
    return false;
  }

  bool copyIsRedundant(ApplyOp copy, StoreOp store, AllocOp alloc, Value source) {
    for (Operation *user : alloc->getUsers()) {
      if (user == store.getOperation())
        continue;
      if (!isa<LoadOp>(user))
        return false; // written again or exchanged: it is a buffer of its own
      Operation *reader = copy->getBlock()->findAncestorOpInBlock(*user);
      if (!reader)
        return false;
      // A `where` split into stores can leave the reader behind writes of the
      // source in the same branch.
      for (Operation *nested = user; nested != reader; nested = nested->getParentOp())
        if (writtenBefore(nested, source))
          return false;
      if (reader->isBeforeInBlock(store))
        return false;
      for (Operation *op = copy->getNextNode(); op && op != reader; op = op->getNextNode())
        if (writesField(op, source))
          return false;
    }
    return true;
  }

  /// Whether an operation that may run before `op` in its block writes
  /// `field`: one before it, or in a loop any of them.
  static bool writtenBefore(Operation *op, Value field) {
    bool loop = isa<LoopLikeOpInterface>(op->getParentOp());
    for (Operation &earlier : *op->getBlock()) {
      if (&earlier == op && !loop)
        return false;
      if (writesField(&earlier, field))
        return true;
    }
    return false;
  }

  /// A store into a program-local buffer nothing reads.
  bool removeOneDeadStore() {
    for (StoreOp store : all<StoreOp>()) {
      auto alloc = store.getField().getDefiningOp<AllocOp>();
      if (!alloc)
        continue;
      bool read = llvm::any_of(alloc->getUsers(),
                               [](Operation *user) { return !isa<StoreOp>(user); });
      if (read)
        continue;
      if (auto diag = remark(kPass, store))
        *diag << "removed a store into " << bufferName(alloc) << ", which nothing reads";
      store.erase();
      return true;
    }
    return false;
  }

  /// A store that a later store over the same domain overwrites before
  /// anything reads the field.
  bool removeOneOverwrittenStore() {
    for (StoreOp store : all<StoreOp>())
      for (Operation *op = store->getNextNode(); op; op = op->getNextNode()) {
        if (auto later = dyn_cast<StoreOp>(op); later && later.getField() == store.getField()) {
          if (!sameDomain(getDomain(store), getDomain(later)))
            break;
          if (auto diag = remark(kPass, store))
            *diag << "removed a store overwritten by a later store before any read";
          store.erase();
          return true;
        }
        if (writesField(op, store.getField()) ||
            llvm::is_contained(fieldsReadBy(op), store.getField()))
          break;
      }
    return false;
  }

  /// A program-local buffer written once and read only at the centre by
  /// applications over exactly the stored domain: read the value instead, so
  /// it can stay in registers.
  bool forwardOneStore() {
    for (StoreOp store : all<StoreOp>()) {
      auto alloc = store.getField().getDefiningOp<AllocOp>();
      if (!alloc)
        continue;
      SmallVector<LoadOp> loads;
      bool forwardable = true;
      for (Operation *user : alloc->getUsers()) {
        if (user == store.getOperation())
          continue;
        auto load = dyn_cast<LoadOp>(user);
        auto reader = load ? load->getParentOfType<ApplyOp>() : ApplyOp();
        if (!reader || reader->getBlock() != store->getBlock() ||
            reader->isBeforeInBlock(store) || load.getPoint() != reader.getPoint() ||
            load.getLevelOffset() != 0 || load.getDynOffset() ||
            !sameDomain(getDomain(reader), getDomain(store))) {
          forwardable = false;
          break;
        }
        loads.push_back(load);
      }
      if (!forwardable || loads.empty())
        continue;
      for (LoadOp load : loads)
        load.getFieldMutable().assign(store.getValue());
      if (auto diag = remark(kPass, store))
        *diag << "the readers of " << bufferName(alloc)
              << " now read the stored value directly (kernel-local)";
      return true;
    }
    return false;
  }

  void eraseDeadApplies() {
    SmallVector<ApplyOp> applies = all<ApplyOp>();
    for (ApplyOp apply : llvm::reverse(applies))
      if (apply.use_empty())
        apply.erase();
    for (AllocOp alloc : all<AllocOp>())
      if (alloc.use_empty())
        alloc.erase();
  }

  ProgramOp program;
};

struct RemoveRedundantArraysPass
    : public fusec::impl::RemoveRedundantArraysBase<RemoveRedundantArraysPass> {
  void runOnOperation() override {
    getOperation().walk([&](ProgramOp program) { RedundantArrays(program).run(); });
  }
};

} // namespace
