//===- UniformIf.cpp - branch instead of select on uniform conditions -----===//

#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace fusec {
#define GEN_PASS_DEF_UNIFORMIF
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// Whether moving `op` into a branch keeps the program's meaning: it only
/// reads (or has no effects at all, nested operations included).
bool onlyReads(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(op);
  return effects && llvm::all_of(*effects, [](const MemoryEffects::EffectInstance &effect) {
           return isa<MemoryEffects::Read>(effect.getEffect());
         });
}

/// The operations of `block` before `select` that only `side` (operand
/// `sideIndex` of `select`) needs, in block order.
SmallVector<Operation *> ownOperations(arith::SelectOp select, unsigned sideIndex) {
  Block *block = select->getBlock();
  // The backward slice of the side within the block.
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist{select->getOperand(sideIndex)};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val().getDefiningOp();
    if (!op || op->getBlock() != block || !slice.insert(op))
      continue;
    worklist.append(op->operand_begin(), op->operand_end());
    // Values a nested region reads from the block count as operands too.
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (operand.getParentBlock() == block)
          worklist.push_back(operand);
    });
  }
  // Keep only operations whose every user moves with them (or is this side of
  // the select), until nothing changes.
  llvm::DenseSet<Operation *> moving(slice.begin(), slice.end());
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : slice) {
      if (!moving.contains(op))
        continue;
      bool own = onlyReads(op);
      for (OpOperand &use : op->getUses()) {
        Operation *user = block->findAncestorOpInBlock(*use.getOwner());
        if (user == select.getOperation())
          own = own && use.getOperandNumber() == sideIndex &&
                select->getOperand(3 - sideIndex) != use.get();
        else
          own = own && user && moving.contains(user);
      }
      if (!own) {
        moving.erase(op);
        changed = true;
      }
    }
  }
  SmallVector<Operation *> own;
  for (Operation &op : *block)
    if (moving.contains(&op))
      own.push_back(&op);
  return own;
}

/// For a select on `uniform && rest` (`uniform || rest`), the uniform
/// operand, whose outcome alone decides the select when it fails (holds).
Value uniformOperand(Value condition, ApplyOp apply, llvm::DenseMap<Value, bool> &uniform) {
  Operation *op = condition.getDefiningOp();
  if (!isa_and_nonnull<arith::AndIOp, arith::OrIOp>(op))
    return {};
  for (Value operand : op->getOperands())
    if (isUniformIn(operand, apply, uniform))
      return operand;
  return {};
}

struct UniformIfPass : public fusec::impl::UniformIfBase<UniformIfPass> {
  void runOnOperation() override {
    getOperation().walk([&](ApplyOp apply) {
      llvm::DenseMap<Value, bool> uniform;
      // Each select to branch, with the uniform operand to split off first
      // where its condition as a whole is not uniform.
      SmallVector<std::pair<arith::SelectOp, Value>> selects;
      apply.getBody().walk([&](arith::SelectOp select) {
        Value condition = select.getCondition();
        if (!condition.getType().isInteger(1))
          return;
        if (isUniformIn(condition, apply, uniform))
          selects.emplace_back(select, Value());
        else if (Value operand = uniformOperand(condition, apply, uniform))
          selects.emplace_back(select, operand);
      });
      for (auto [select, operand] : selects) {
        if (operand)
          splitOffUniformOperand(select, operand);
        branch(select, apply);
      }
    });
  }

  /// `select(u && rest, a, b)` becomes `select(u, select(rest, a, b), b)`,
  /// `select(u || rest, a, b)` becomes `select(u, a, select(rest, a, b))`.
  void splitOffUniformOperand(arith::SelectOp select, Value uniform) {
    Operation *junction = select.getCondition().getDefiningOp();
    Value rest = junction->getOperand(junction->getOperand(0) == uniform ? 1 : 0);
    OpBuilder builder(select);
    Value inner = builder.create<arith::SelectOp>(select.getLoc(), rest, select.getTrueValue(),
                                                  select.getFalseValue());
    select.setOperand(0, uniform);
    select.setOperand(isa<arith::AndIOp>(junction) ? 1 : 2, inner);
    if (junction->use_empty())
      junction->erase();
  }

  void branch(arith::SelectOp select, ApplyOp apply) {
    SmallVector<Operation *> whenTrue = ownOperations(select, 1);
    SmallVector<Operation *> whenFalse = ownOperations(select, 2);
    if (whenTrue.empty() && whenFalse.empty())
      return;
    OpBuilder builder(select);
    auto branches = builder.create<scf::IfOp>(select.getLoc(), select.getType(),
                                              select.getCondition(), /*withElseRegion=*/true);
    auto fill = [&](Block *block, ArrayRef<Operation *> moved, Value result) {
      OpBuilder inside = OpBuilder::atBlockEnd(block);
      auto yield = inside.create<scf::YieldOp>(select.getLoc(), result);
      for (Operation *op : moved)
        op->moveBefore(yield);
    };
    fill(branches.thenBlock(), whenTrue, select.getTrueValue());
    fill(branches.elseBlock(), whenFalse, select.getFalseValue());
    select.replaceAllUsesWith(branches.getResult(0));
    select.erase();
    numBranches++;
    numMovedOps += whenTrue.size() + whenFalse.size();
    if (auto diag = remark("stn-uniform-if", branches))
      *diag << "a uniform condition of '" << apply.getName().value_or("application")
            << "' now selects by branching: " << whenTrue.size() << " operations run only when "
            << "it holds, " << whenFalse.size() << " only when it does not";
  }
};

} // namespace
