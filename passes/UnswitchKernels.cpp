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

/// The side of `branch` (0 then, 1 else) that holds every use of `buffer`
/// outside `producer`, if one side holds them all.
std::optional<unsigned> onlySideUsing(Value buffer, KernelOp producer, scf::IfOp branch) {
  std::optional<unsigned> side;
  for (Operation *user : buffer.getUsers()) {
    if (producer->isAncestor(user))
      continue;
    unsigned index;
    if (branch.getThenRegion().isAncestor(user->getParentRegion()))
      index = 0;
    else if (branch.getElseRegion().isAncestor(user->getParentRegion()))
      index = 1;
    else
      return std::nullopt;
    if (side && *side != index)
      return std::nullopt;
    side = index;
  }
  return side;
}

/// Moves the kernels just before `branch` whose results only one side reads
/// into that side, nearest first: the other side no longer computes them.
/// Only temporaries (`stn.alloc`) qualify; nothing runs between such a
/// kernel and the branch, so it still runs right before what reads it.
unsigned sinkProducers(scf::IfOp branch) {
  unsigned sunk = 0;
  while (auto producer = dyn_cast_or_null<KernelOp>(branch->getPrevNode())) {
    SmallVector<Value> written;
    producer.getBody().walk([&](WriteOp write) {
      if (!llvm::is_contained(written, write.getField()))
        written.push_back(write.getField());
    });
    std::optional<unsigned> side;
    for (Value buffer : written) {
      std::optional<unsigned> used =
          buffer.getDefiningOp<AllocOp>() ? onlySideUsing(buffer, producer, branch) : std::nullopt;
      if (!used || (side && *side != *used)) {
        side.reset();
        break;
      }
      side = used;
    }
    if (!side)
      break;
    Block *block = *side == 0 ? branch.thenBlock() : branch.elseBlock();
    producer->moveBefore(block, block->begin());
    if (auto diag = remark("stn-unswitch-kernels", producer))
      *diag << "kernel '" << producer.getName() << "' moved into the "
            << (*side == 0 ? "then" : "else")
            << " side: only that side reads what it computes";
    ++sunk;
  }
  return sunk;
}

struct UnswitchKernelsPass : public fusec::impl::UnswitchKernelsBase<UnswitchKernelsPass> {
  using UnswitchKernelsBase::UnswitchKernelsBase;

  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels)
      unswitch(kernel, maxConditions);
    // Outer branches first: what sinks into a side may sink again into a
    // branch nested there.
    SmallVector<scf::IfOp> branches;
    getOperation().walk<WalkOrder::PreOrder>([&](scf::IfOp branch) {
      if (!branch->getParentOfType<KernelOp>())
        branches.push_back(branch);
    });
    for (scf::IfOp branch : branches)
      numSunk += sinkProducers(branch);
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
