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
      Value field = effect.getValue();
      if (!field)
        unknown = true;
      else if (isa<MemoryEffects::Read>(effect.getEffect()))
        reads.insert(field);
      else
        writes.insert(field);
    }
  }

  /// The first field through which `later` depends on these accesses, or
  /// null when it does not (`conflict` is then false).
  Value dependence(const FieldAccesses &later, bool &conflict) const {
    conflict = unknown || later.unknown;
    for (Value field : writes)
      if (later.reads.contains(field) || later.writes.contains(field)) {
        conflict = true;
        return field;
      }
    for (Value field : later.writes)
      if (reads.contains(field)) {
        conflict = true;
        return field;
      }
    return Value();
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

/// A field's name for remarks: its stn.name or the buffer's name.
std::string fieldName(Value field) {
  if (auto arg = dyn_cast<BlockArgument>(field))
    if (auto name = dyn_cast_or_null<StringAttr>(
            cast<ProgramOp>(arg.getOwner()->getParentOp()).getArgAttr(arg.getArgNumber(),
                                                                      "stn.name")))
      return name.str();
  if (auto alloc = field.getDefiningOp<AllocOp>())
    if (std::optional<StringRef> name = alloc.getName())
      return name->str();
  return "a field";
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
        bool conflict = true;
        Value through;
        if (next) {
          FieldAccesses nextAccesses;
          nextAccesses.add(next);
          through = inFlight.dependence(nextAccesses, conflict);
        }
        if (auto diag = remark("stn-elide-barriers", kernel)) {
          *diag << "kernel '" << kernel.getName() << "': ";
          if (!next)
            *diag << "barrier kept (no kernel follows it directly)";
          else if (conflict)
            *diag << "barrier kept ('" << next.getName() << "' "
                  << (through ? "accesses " + fieldName(through) : std::string("may access it"))
                  << ")";
          else
            *diag << "no barrier ('" << next.getName() << "' is independent of it)";
        }
        kernel.setNowait(!conflict);
        if (conflict) {
          inFlight = FieldAccesses();
          continue;
        }
        ++numElided;
      }
    });
  }
};

} // namespace
