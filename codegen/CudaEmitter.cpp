//===- CudaEmitter.cpp - kernel form to CUDA ------------------------------===//
//
// Thread mapping: the horizontal index on threadIdx.x/blockIdx.x (blocks of
// kThreadsPerBlock consecutive points, so accesses coalesce; a kernel's
// `hblock` attribute replaces kThreadsPerBlock), levels on
// blockIdx.y with each thread computing `kblock` consecutive levels in a
// loop; work that does not depend on the level (neighbour indices, 2-D
// loads) is computed once per thread before that loop, and values the level
// below already computed (`k - 1` reads, see LevelCarrying.h) are carried in
// registers from one iteration to the next. Vertical-only kernels put the
// levels on x.
//
//===----------------------------------------------------------------------===//

#include "codegen/CEmitterCommon.h"
#include "codegen/CFamilyEmitter.h"
#include "codegen/Emitters.h"

using namespace mlir;

namespace fusec {
namespace {

class CudaTarget : public codegen::CFamilyTarget {
public:
  StringRef description() const override { return "CUDA kernels"; }
  StringRef backendName() const override { return "cuda"; }

  void emitPrelude(bool hasKernels, raw_ostream &os) const override {
    os << "#include \"fusec/kernel_support.h\"\n\n"
          "#include <cuda_runtime.h>\n#include <math.h>\n#include <stdint.h>\n\n";
    if (hasKernels)
      os << "// Threads per block: consecutive horizontal points, so accesses coalesce.\n"
            "constexpr int32_t kThreadsPerBlock = 128;\n";
  }

  std::string bufferType(StringRef elementType) const override {
    return "fusec::DeviceArray<" + elementType.str() + ">";
  }
  StringRef kernelTableType() const override { return "fusec::DeviceTable"; }
  bool kernelTablesOnHost() const override { return false; }
  bool supportsBlockedLayout() const override { return false; }
  StringRef streamType() const override { return "cudaStream_t"; }
  std::string streamFromArgument(StringRef argument) const override {
    return "static_cast<cudaStream_t>(" + argument.str() + ")";
  }

  LogicalResult emitKernel(codegen::KernelPlan &plan, raw_ostream &os) const override {
    std::string threads = plan.horizontalBlock("kThreadsPerBlock");
    os << "static __global__ void __launch_bounds__(" << threads << ") " << plan.function << "("
       << plan.kernelSignature() << ") {\n";
    codegen::KernelBodyEmitter body(plan.op, plan.scope, /*unrollReductions=*/true);
    std::string thread = "static_cast<int32_t>(blockIdx.x * " + threads + " + threadIdx.x)";
    // The thread's index along x: the point, or the level of a vertical-only kernel.
    const std::string &xIndex = plan.hasPoints() ? plan.point : plan.scope.level;
    os << "const int32_t " << xIndex << " = " << (plan.hasPoints() ? plan.hlb : plan.klb) << " + "
       << thread << ";\nif (" << xIndex << " >= " << (plan.hasPoints() ? plan.hub : plan.kub)
       << ")\nreturn;\n";
    if (failed(plan.hasPoints() && plan.hasLevels() ? emitLevelLoop(plan, body, os)
                                                    : body.emit(plan.bodyOps(), os)))
      return failure();
    os << "}\n";
    return success();
  }

  void emitLaunch(const codegen::KernelPlan &plan, StringRef state,
                  raw_ostream &os) const override {
    auto blocksOf = [](StringRef lb, StringRef ub, StringRef perBlock, StringRef roundUp) {
      if (perBlock == "1")
        return "static_cast<unsigned>(" + ub.str() + " - " + lb.str() + ")";
      return "static_cast<unsigned>((" + ub.str() + " - " + lb.str() + " + " + roundUp.str() +
             ") / " + perBlock.str() + ")";
    };
    std::string threads = plan.horizontalBlock("kThreadsPerBlock");
    std::string threadsRoundUp = threads + " - 1";
    std::string grid;
    if (!plan.hasPoints()) {
      grid = blocksOf(plan.klb, plan.kub, threads, threadsRoundUp);
    } else {
      grid = blocksOf(plan.hlb, plan.hub, threads, threadsRoundUp);
      if (plan.hasLevels())
        grid += ", " + blocksOf(plan.klb, plan.kub, std::to_string(plan.kblock),
                                std::to_string(plan.kblock - 1));
    }
    // FUSEC_LAUNCH is `k<<<...>>>` under nvcc and a loop over the threads on
    // the host (cuda-host), so the same .cu serves both.
    os << "FUSEC_LAUNCH(" << plan.function << ", dim3(" << grid << "), " << threads << ", 0, "
       << state << ".stream)(" << plan.kernelArguments() << ");\nreturn fusec::launch_status();\n";
  }

private:
  /// This thread's `kblock` levels, after what does not depend on the level.
  static LogicalResult emitLevelLoop(codegen::KernelPlan &plan, codegen::KernelBodyEmitter &body,
                                     raw_ostream &os) {
    SmallVector<Operation *> levelInvariant, perLevel;
    codegen::KernelBodyEmitter::splitByLevel(plan.op, levelInvariant, perLevel);
    if (failed(body.emit(levelInvariant, os)))
      return failure();
    const std::string &level = plan.scope.level;
    std::string tile = "static_cast<int32_t>(blockIdx.y)";
    if (plan.kblock == 1) {
      os << "const int32_t " << level << " = " << plan.klb << " + " << tile << ";\n";
      return body.emit(perLevel, os);
    }
    std::string begin = plan.scope.names.unique("k_begin");
    std::string end = plan.scope.names.unique("k_end");
    os << "const int32_t " << begin << " = " << plan.klb << " + " << tile << " * " << plan.kblock
       << ";\nconst int32_t " << end << " = min(" << begin << " + " << plan.kblock << ", "
       << plan.kub << ");\n";
    codegen::LevelCarrying carrying =
        plan.op.getNoLevelCarry() ? codegen::LevelCarrying() : codegen::analyzeLevelCarrying(plan.op, /*carryLoads=*/true);
    if (carrying.empty()) {
      os << "for (int32_t " << level << " = " << begin << "; " << level << " < " << end << "; ++"
         << level << ") {\n";
      if (failed(body.emit(perLevel, os)))
        return failure();
      os << "}\n";
      return success();
    }
    // The first level computes everything; later ones take what the level
    // below computed from registers.
    SmallVector<std::string> carries;
    for (Operation *source : carrying.sources) {
      carries.push_back(plan.scope.names.unique("carry"));
      os << *codegen::cScalarType(source->getResult(0).getType()) << " " << carries.back()
         << ";\n";
    }
    os << "{\nconst int32_t " << level << " = " << begin << ";\n";
    if (failed(body.emitCarryingLevel(perLevel, carrying, carries, /*steady=*/false, os)))
      return failure();
    os << "}\nfor (int32_t " << level << " = " << begin << " + 1; " << level << " < " << end
       << "; ++" << level << ") {\n";
    if (failed(body.emitCarryingLevel(perLevel, carrying, carries, /*steady=*/true, os)))
      return failure();
    os << "}\n";
    return success();
  }
};

} // namespace

LogicalResult emitCuda(ModuleOp module, raw_ostream &os) {
  return codegen::emitCFamily(module, CudaTarget(), os);
}

} // namespace fusec
