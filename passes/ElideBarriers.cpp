//===- ElideBarriers.cpp - kernels the next one need not wait for ---------===//
//
// A C++ program run is one OpenMP parallel region, and each kernel's `omp
// for` ends in a barrier. The barrier after kernel A is needed only when the
// launch that follows A depends on it. This pass marks A `nowait` when the
// operation after it (past operations without memory effects) is a kernel B
// that neither reads nor writes a field A writes and writes no field A reads.
// The kernels marked so far since the last barrier stay in flight on other
// threads, so B is checked against all of them.
//
//===----------------------------------------------------------------------===//

#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "passes/Remarks.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace fusec {
#define GEN_PASS_DEF_ELIDEBARRIERS
#include "passes/Passes.h.inc"
} // namespace fusec

using namespace mlir;
using namespace fusec;
using namespace fusec::stn;

namespace {

/// The fields a set of kernels reads and writes. `unknown`: an effect without
/// a field, which conflicts with everything.
struct FieldAccesses {
  llvm::SetVector<Value> reads, writes;
  bool unknown = false;

  void add(KernelOp kernel) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    kernel.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      // A stage's slot in its wavefront orders nothing between kernels.
      if (isa<WavefrontStageResource>(effect.getResource()))
        continue;
      Value field = effect.getValue();
      if (!field)
        unknown = true;
      else if (isa<MemoryEffects::Read>(effect.getEffect()))
        reads.insert(field);
      else
        writes.insert(field);
    }
  }

  /// Whether `later` may depend on these accesses: the first field through
  /// which it does, or null when an effect names no field; nothing when it
  /// is independent of them.
  std::optional<Value> dependence(const FieldAccesses &later) const {
    for (Value field : writes)
      if (later.reads.contains(field) || later.writes.contains(field))
        return field;
    for (Value field : later.writes)
      if (reads.contains(field))
        return field;
    if (unknown || later.unknown)
      return Value();
    return std::nullopt;
  }
};

/// The kernel that runs right after `op` in its block, or null when an
/// operation with memory effects (an exchange, an image, a branch) or the
/// end of the block comes first.
KernelOp nextKernel(Operation *op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (auto kernel = dyn_cast<KernelOp>(next))
      return kernel;
    if (next->getNumRegions() != 0 || !isMemoryEffectFree(next))
      return KernelOp();
  }
  return KernelOp();
}

struct ElideBarriersPass : public fusec::impl::ElideBarriersBase<ElideBarriersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (targetOf(module) != "cpp")
      return;
    module.walk([&](Block *block) {
      FieldAccesses inFlight;
      for (KernelOp kernel : block->getOps<KernelOp>()) {
        inFlight.add(kernel);
        KernelOp next = nextKernel(kernel);
        std::optional<Value> through;
        if (next) {
          FieldAccesses nextAccesses;
          nextAccesses.add(next);
          through = inFlight.dependence(nextAccesses);
        }
        bool barrier = !next || through;
        if (auto diag = remark("stn-elide-barriers", kernel)) {
          *diag << "kernel '" << kernel.getName() << "': ";
          if (!next) {
            *diag << "barrier kept (no kernel follows it directly)";
          } else if (barrier) {
            StringRef field = *through ? fieldName(*through) : StringRef();
            *diag << "barrier kept ('" << next.getName() << "' "
                  << (field.empty() ? std::string("may access it") : "accesses " + field.str())
                  << ")";
          } else {
            *diag << "no barrier ('" << next.getName() << "' is independent of it)";
          }
        }
        kernel.setNowait(!barrier);
        if (barrier) {
          inFlight = FieldAccesses();
          continue;
        }
        ++numElided;
      }
    });
  }
};

} // namespace
