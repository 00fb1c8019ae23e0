//===- StreamStores.cpp - write output columns past the cache -------------===//

#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseSet.h"

namespace fusec {
#define GEN_PASS_DEF_STREAMSTORES
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

constexpr llvm::StringLiteral kPass = "stn-stream-stores";

/// The fields that the kernels of `scope` (a kernel, or the wavefront whose
/// stages run tile by tile) read or ask the cache for.
llvm::DenseSet<Value> fieldsRead(Operation *scope) {
  llvm::DenseSet<Value> read;
  scope->walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      read.insert(load.getField());
    else if (auto prefetch = dyn_cast<PrefetchOp>(op))
      read.insert(prefetch.getField());
  });
  return read;
}

/// The SIMD loop over levels whose body holds `write` and whose level it
/// writes, at a point fixed in the loop and with a step of one; null
/// otherwise.
scf::ForOp levelLoopOf(WriteOp write) {
  auto loop = dyn_cast<scf::ForOp>(write->getParentOp());
  if (!loop || !loop->hasAttr(StnDialect::kSimdAttr) ||
      write.getLevel() != loop.getInductionVar() || !write.getPoint() ||
      !loop.isDefinedOutsideOfLoop(write.getPoint()))
    return nullptr;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  return step == 1 ? loop : nullptr;
}

struct StreamStoresPass : public fusec::impl::StreamStoresBase<StreamStoresPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (targetOf(module) != "cpp" || !columnsLayout(module))
      return;
    module.walk([&](KernelOp kernel) {
      if (!kernel.getLoopForm())
        return;
      // Read in the wavefront means read soon, from the cache the write
      // leaves it in (a folded temporary, or a field a later stage gathers).
      Operation *scope = kernel->getParentOfType<WavefrontOp>();
      llvm::DenseSet<Value> read = fieldsRead(scope ? scope : kernel.getOperation());
      unsigned streamed = 0, keptForReaders = 0;
      kernel.walk([&](WriteOp write) {
        scf::ForOp loop = levelLoopOf(write);
        Type element = cast<FieldType>(write.getField().getType()).getElementType();
        if (!loop || !element.isF64() && !element.isF32())
          return;
        // The stage holds one value per level: one write of the field per loop.
        if (llvm::count_if(loop.getBody()->getOps<WriteOp>(), [&](WriteOp other) {
              return other.getField() == write.getField();
            }) != 1)
          return;
        if (read.contains(write.getField())) {
          ++keptForReaders;
          return;
        }
        write.setNontemporal(true);
        ++streamed;
        ++numStreamed;
      });
      if (streamed + keptForReaders == 0)
        return;
      if (auto diag = remark(kPass, kernel)) {
        *diag << "kernel '" << kernel.getName() << "': " << streamed << " column write"
              << (streamed == 1 ? "" : "s") << " streamed past the cache";
        if (keptForReaders)
          *diag << ", " << keptForReaders << " kept in it for "
                << (scope ? "stages of its wavefront" : "its own reads");
      }
    });
  }
};

} // namespace
