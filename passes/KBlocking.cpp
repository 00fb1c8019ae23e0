//===- KBlocking.cpp - several consecutive levels per thread --------------===//

#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "llvm/Support/Regex.h"

namespace fusec {
#define GEN_PASS_DEF_KBLOCKING
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

struct KBlockingPass : public fusec::impl::KBlockingBase<KBlockingPass> {
  using KBlockingBase::KBlockingBase;
  void runOnOperation() override {
    if (block < 1) {
      getOperation().emitError("stn-k-blocking: block must be at least 1");
      return signalPassFailure();
    }
    std::optional<llvm::Regex> only;
    if (!stencils.empty())
      only.emplace("^(" + stencils + ")$");
    getOperation().walk([&](Operation *op) {
      if (auto apply = dyn_cast<ApplyOp>(op))
        annotate(op, apply.getKlb() != nullptr, apply.getName(), only);
      else if (auto kernel = dyn_cast<KernelOp>(op))
        annotate(op, kernel.getKlb() != nullptr, kernel.getName(), only);
    });
  }

  void annotate(Operation *op, bool hasLevels, std::optional<StringRef> name,
                const std::optional<llvm::Regex> &only) {
    if (!hasLevels || (only && !(name && only->match(*name))))
      return;
    Builder builder(op->getContext());
    op->setAttr("kblock", builder.getI64IntegerAttr(block));
    if (!carry)
      op->setAttr("no_level_carry", builder.getUnitAttr());
    if (auto diag = remark("stn-k-blocking", op))
      *diag << "each thread computes " << block << " consecutive levels of '"
            << name.value_or("kernel") << "'";
  }
};

} // namespace
