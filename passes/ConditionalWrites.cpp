//===- ConditionalWrites.cpp - keep a field's value by not writing it -----===//

#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace fusec {
#define GEN_PASS_DEF_CONDITIONALWRITES
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// True when `value` is what `write` finds in place: a load of the written
/// field at the written point and the current level.
bool isValueInPlace(Value value, WriteOp write) {
  auto load = value.getDefiningOp<LoadOp>();
  return load && load.getField() == write.getField() && load.getPoint() == write.getPoint() &&
         !load.getNbr() && !load.getDynOffset() && !load.getLevel() && !write.getLevel() &&
         load.getLevelOffset() == 0;
}

/// True when some choice of the selects that compute `value` keeps the value in place.
bool keepsValueSomewhere(Value value, WriteOp write) {
  if (isValueInPlace(value, write))
    return true;
  auto select = value.getDefiningOp<arith::SelectOp>();
  return select && (keepsValueSomewhere(select.getTrueValue(), write) ||
                    keepsValueSomewhere(select.getFalseValue(), write));
}

struct ConditionalWritesPass
    : public fusec::impl::ConditionalWritesBase<ConditionalWritesPass> {
  void runOnOperation() override {
    if (targetOf(getOperation()) != "cuda")
      return;
    SmallVector<WriteOp> writes;
    getOperation().walk([&](WriteOp write) {
      auto kernel = write->getParentOfType<KernelOp>();
      if (kernel && !kernel.getLoopForm() && keepsValueSomewhere(write.getValue(), write))
        writes.push_back(write);
    });
    SmallVector<Operation *> branches;
    for (WriteOp write : writes)
      if (scf::IfOp branch = rewrite(write))
        branches.push_back(branch);
    // Writes under the same condition share one branch (scf.if's canonical
    // form), so the loop form's CSE merges the reads they share.
    RewritePatternSet patterns(&getContext());
    scf::IfOp::getCanonicalizationPatterns(patterns, &getContext());
    (void)applyOpPatternsAndFold(branches, std::move(patterns));
    // A merged branch reads for its second write after its first; writes go
    // last, so the reads come first and CSE merges those they share.
    getOperation().walk([&](scf::IfOp branch) {
      auto kernel = branch->getParentOfType<KernelOp>();
      if (kernel && !kernel.getLoopForm())
        for (Region &region : branch->getRegions())
          if (!region.empty())
            writesLast(region.front());
    });
  }

  /// Moves the block's writes after its other operations where those read no
  /// field the block writes.
  static void writesLast(Block &block) {
    SmallVector<WriteOp> writes;
    llvm::SmallDenseSet<Value> written;
    for (Operation &op : block)
      if (auto write = dyn_cast<WriteOp>(op)) {
        writes.push_back(write);
        written.insert(write.getField());
      }
    if (writes.empty())
      return;
    bool readsWritten = false;
    for (Operation &op : block)
      op.walk([&](LoadOp load) { readsWritten = readsWritten || written.contains(load.getField()); });
    if (readsWritten)
      return;
    for (WriteOp write : writes)
      write->moveBefore(block.getTerminator());
  }

  /// Writes `value` where the selects computing it choose something other
  /// than the value in place, as nested scf.if on their conditions.
  void emitWrites(OpBuilder &builder, Value value, WriteOp write,
                  SmallVectorImpl<scf::IfOp> &branches) {
    if (isValueInPlace(value, write))
      return;
    auto select = value.getDefiningOp<arith::SelectOp>();
    if (!select || !keepsValueSomewhere(value, write)) {
      builder.create<WriteOp>(write.getLoc(), value, write.getField(), write.getPoint(),
                              Value());
      return;
    }
    bool elseWrites = !isValueInPlace(select.getFalseValue(), write);
    auto branch = builder.create<scf::IfOp>(write.getLoc(), TypeRange(), select.getCondition(),
                                            elseWrites);
    branches.push_back(branch);
    OpBuilder inside = OpBuilder::atBlockBegin(branch.thenBlock());
    emitWrites(inside, select.getTrueValue(), write, branches);
    if (elseWrites) {
      inside.setInsertionPointToStart(branch.elseBlock());
      emitWrites(inside, select.getFalseValue(), write, branches);
    }
  }

  /// Returns the outermost branch made (null when the write only restored the value).
  scf::IfOp rewrite(WriteOp write) {
    OpBuilder builder(write);
    SmallVector<scf::IfOp> branches;
    emitWrites(builder, write.getValue(), write, branches);
    if (auto diag = remark("stn-conditional-writes", write))
      *diag << "keeps the value of the written field by not writing it ("
            << (branches.empty() ? "the write only restored it"
                                 : std::to_string(branches.size()) + " condition(s)")
            << ")";
    Value value = write.getValue();
    write.erase();
    // The selects, and the loads of the value in place, go if nothing else uses them.
    eraseIfDead(value.getDefiningOp());
    if (branches.empty())
      return nullptr;
    sinkInto(branches.front());
    return branches.front();
  }

  void eraseIfDead(Operation *op) {
    if (!op || !op->use_empty() || !isa<arith::SelectOp, LoadOp>(op))
      return;
    SmallVector<Operation *> operands;
    for (Value operand : op->getOperands())
      operands.push_back(operand.getDefiningOp());
    op->erase();
    for (Operation *operand : operands)
      eraseIfDead(operand);
  }

  /// Moves into `branch` the work only its regions use, so that a point that
  /// keeps its value does not compute the one it would have written. Reads of
  /// fields the kernel writes stay before every write (the kernel's rule).
  void sinkInto(scf::IfOp branch) {
    auto kernel = branch->getParentOfType<KernelOp>();
    llvm::SmallDenseSet<Value> written;
    kernel.walk([&](WriteOp write) { written.insert(write.getField()); });
    for (Operation *op = branch->getPrevNode(); op;) {
      Operation *previous = op->getPrevNode();
      if (Region *region = soleRegionUsing(op, branch); region && mayMove(op, written))
        op->moveBefore(&region->front(), region->front().begin());
      op = previous;
    }
  }

  /// The region of `branch` that holds every use of `op`'s results, if one does.
  static Region *soleRegionUsing(Operation *op, scf::IfOp branch) {
    Region *found = nullptr;
    for (Operation *user : op->getUsers()) {
      Region *region = nullptr;
      for (Region *candidate : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (candidate->findAncestorOpInRegion(*user))
          region = candidate;
      if (!region || (found && found != region))
        return nullptr;
      found = region;
    }
    return found;
  }

  /// Computations and reads move; reads of written fields and anything that writes stay.
  static bool mayMove(Operation *op, const llvm::SmallDenseSet<Value> &written) {
    if (op->hasTrait<OpTrait::IsTerminator>() || isa<WriteOp, scf::IfOp>(op))
      return false;
    bool readsWritten = false, writes = false;
    op->walk([&](Operation *inner) {
      if (auto load = dyn_cast<LoadOp>(inner))
        readsWritten = readsWritten || written.contains(load.getField());
      else if (isa<WriteOp>(inner))
        writes = true;
    });
    return !readsWritten && !writes;
  }
};

} // namespace
