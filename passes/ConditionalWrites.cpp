//===- ConditionalWrites.cpp - keep a field's value by not writing it -----===//

#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/SetVector.h"

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
    // Writes under the same condition share one branch (scf.if's canonical form).
    RewritePatternSet patterns(&getContext());
    scf::IfOp::getCanonicalizationPatterns(patterns, &getContext());
    (void)applyOpPatternsAndFold(branches, std::move(patterns));
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
    return branches.empty() ? nullptr : branches.front();
  }

  /// Erases `root` if unused, then every producer that becomes unused. A worklist, not a
  /// recursion over the erased op's operands: erasing one operand's producers may erase
  /// another operand's producer, which must not be visited again.
  void eraseIfDead(Operation *root) {
    llvm::SetVector<Operation *> worklist;
    if (root)
      worklist.insert(root);
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!op->use_empty() || !isa<arith::SelectOp, LoadOp>(op))
        continue;
      for (Value operand : op->getOperands())
        if (Operation *producer = operand.getDefiningOp())
          worklist.insert(producer);
      op->erase();
    }
  }
};

} // namespace
