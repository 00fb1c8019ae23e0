//===- UnswitchKernels.cpp - one kernel per side of a uniform branch ------===//

#include "passes/FusionUtils.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace fusec {
#define GEN_PASS_DEF_UNSWITCHKERNELS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// The first branch of `kernel` (in body order) on a uniform condition.
scf::IfOp firstUniformBranch(KernelOp kernel) {
  scf::IfOp found;
  llvm::DenseMap<Value, bool> uniform;
  kernel.getBody().walk<WalkOrder::PreOrder>([&](scf::IfOp branch) {
    if (!isUniformIn(branch.getCondition(), kernel, uniform))
      return WalkResult::advance();
    found = branch;
    return WalkResult::interrupt();
  });
  return found;
}

/// Replaces every branch of `kernel` on `condition` by the side it takes when
/// the condition is `taken`.
void resolveBranches(KernelOp kernel, Value condition, bool taken) {
  SmallVector<scf::IfOp> branches;
  kernel.getBody().walk([&](scf::IfOp branch) {
    if (branch.getCondition() == condition)
      branches.push_back(branch);
  });
  for (scf::IfOp branch : branches) {
    Region &side = taken ? branch.getThenRegion() : branch.getElseRegion();
    if (side.empty()) { // a branch without else that is not taken does nothing
      branch.erase();
      continue;
    }
    Block &block = side.front();
    auto yield = cast<scf::YieldOp>(block.getTerminator());
    branch.replaceAllUsesWith(yield.getOperands());
    for (Operation &op : llvm::make_early_inc_range(block.without_terminator()))
      op.moveBefore(branch);
    branch.erase();
  }
}

/// How a condition appears in kernel names and remarks: the program argument
/// it is, else "condition".
std::string describeCondition(Value condition) {
  if (auto argument = dyn_cast<BlockArgument>(condition))
    if (auto program = dyn_cast<ProgramOp>(argument.getOwner()->getParentOp()))
      if (auto name = program.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                            ProgramOp::kNameAttr))
        return name.str();
  return "condition";
}

struct UnswitchKernelsPass : public fusec::impl::UnswitchKernelsBase<UnswitchKernelsPass> {
  using UnswitchKernelsBase::UnswitchKernelsBase;

  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels)
      unswitch(kernel, maxConditions);
  }

  /// Splits `kernel` on its first uniform branch, then each part on the next,
  /// at most `budget` conditions deep.
  void unswitch(KernelOp kernel, int64_t budget) {
    if (budget <= 0)
      return;
    scf::IfOp branch = firstUniformBranch(kernel);
    if (!branch)
      return;
    Value condition = branch.getCondition();
    std::string described = describeCondition(condition);
    OpBuilder builder(kernel);
    IRMapping hoisted;
    Value outside = cloneUniformComputation(builder, condition, kernel, hoisted);
    auto versions = builder.create<scf::IfOp>(kernel.getLoc(), TypeRange(), outside,
                                              /*withElseRegion=*/true);
    std::string name = kernel.getName().str();
    KernelOp sides[2];
    for (bool taken : {true, false}) {
      Block *block = taken ? versions.thenBlock() : versions.elseBlock();
      OpBuilder inside = OpBuilder::atBlockBegin(block);
      IRMapping mapping;
      auto version = cast<KernelOp>(inside.clone(*kernel, mapping));
      resolveBranches(version, mapping.lookupOrDefault(condition), taken);
      version.setName((name + (taken ? ".if_" : ".unless_") + described));
      sides[taken ? 0 : 1] = version;
    }
    if (auto diag = remark("stn-unswitch-kernels", versions))
      *diag << "kernel '" << name << "' unswitched on " << described
            << ": one kernel for each side, launched by a branch on the host";
    numUnswitched++;
    kernel.erase();
    for (KernelOp side : sides)
      unswitch(side, budget - 1);
  }
};

} // namespace
