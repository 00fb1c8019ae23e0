//===- CudaEmitter.cpp - kernel form to CUDA ------------------------------===//
//
// Thread mapping: a work item (docs/dialect.md, loop form) per thread, one
// horizontal point on threadIdx.x/blockIdx.x (blocks of kThreadsPerBlock
// consecutive points, so accesses coalesce; a kernel's `hblock` attribute
// replaces kThreadsPerBlock) and `kblock` consecutive levels on blockIdx.y.
// A kernel with `column_order` may number its blocks column by column on
// blockIdx.x alone (block b is level tile b % tiles of point block b / tiles):
// its launcher does when a level tile of all the launch's points (the bytes
// their levels share and those of the tile's levels) does not fit in the
// device's L2 (fusec::column_order_pays).
// Vertical-only kernels put one level per thread on x, kernels on a point
// list one entry. What the thread does with its work item (the level loop,
// hoisted work, carried values) is the kernel's loop form, printed as it is.
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
    if (!plan.uses.tablesTested.empty())
      return plan.op.emitError() << "kernel '" << plan.op.getName()
                                 << "' tests its tables for missing neighbours "
                                    "(stn.table_complete), which only the C++ target can";
    std::string threads = plan.horizontalBlock("kThreadsPerBlock");
    os << "static __global__ void __launch_bounds__(" << threads << ") " << plan.function << "("
       << plan.kernelSignature() << ") {\n";
    std::string thread = "static_cast<int32_t>(blockIdx.x * " + threads + " + threadIdx.x)";
    std::string levelTile = "static_cast<int32_t>(blockIdx.y)";
    if (plan.columnOrderBytes) {
      // The launcher's order: column by column is a grid on x alone; with one
      // level tile the two orders number the blocks alike.
      os << "const int32_t " << plan.levelTiles << " = " << levelTiles(plan) << ";\nconst bool "
         << plan.byColumn << " = gridDim.y == 1;\n";
      std::string block = "static_cast<int32_t>(blockIdx.x)";
      thread = "(" + plan.byColumn + " ? " + block + " / " + plan.levelTiles + " : " + block +
               ") * " + threads + " + static_cast<int32_t>(threadIdx.x)";
      levelTile = "(" + plan.byColumn + " ? " + block + " % " + plan.levelTiles +
                  " : static_cast<int32_t>(blockIdx.y))";
    }
    // The thread's index along x: its point, its entry of a point list, or
    // its level in a vertical-only kernel.
    bool pointsOnX = plan.hasPoints();
    std::string xBegin, xEnd, first, end;
    if (plan.hasPointList()) {
      xBegin = plan.eBegin;
      xEnd = plan.eEnd;
      first = thread;
      end = plan.list.count;
    } else {
      xBegin = pointsOnX ? plan.hBegin : plan.kBegin;
      xEnd = pointsOnX ? plan.hEnd : plan.kEnd;
      first = (pointsOnX ? plan.hlb : plan.klb) + " + " + thread;
      end = pointsOnX ? plan.hub : plan.kub;
    }
    os << "const int32_t " << xBegin << " = " << first << ";\nif (" << xBegin << " >= " << end
       << ")\nreturn;\nconst int32_t " << xEnd << " = " << xBegin << " + 1;\n";
    if (pointsOnX && plan.hasLevels())
      os << plan.declareLevelTile(levelTile, "min");
    codegen::KernelBodyEmitter body(plan.op, plan.scope, /*unrollReductions=*/true);
    if (failed(body.emit(os)))
      return failure();
    os << "}\n";
    return success();
  }

  void emitLaunch(const codegen::KernelPlan &plan, StringRef state,
                  raw_ostream &os) const override {
    // Blocks of `perBlock` for `extent` items (a C expression).
    auto blocksOf = [](StringRef extent, StringRef perBlock, StringRef roundUp) {
      if (perBlock == "1")
        return "static_cast<unsigned>(" + extent.str() + ")";
      return "static_cast<unsigned>((" + extent.str() + " + " + roundUp.str() + ") / " +
             perBlock.str() + ")";
    };
    auto range = [](StringRef lb, StringRef ub) { return ub.str() + " - " + lb.str(); };
    std::string threads = plan.horizontalBlock("kThreadsPerBlock");
    std::string threadsRoundUp = threads + " - 1";
    std::string grid;
    if (plan.hasPointList()) {
      // In int64_t: a count near INT32_MAX must not overflow.
      grid = blocksOf("int64_t(" + plan.list.count + ")", threads, threadsRoundUp);
    } else if (!plan.hasPoints()) {
      grid = blocksOf(range(plan.klb, plan.kub), threads, threadsRoundUp);
    } else {
      grid = blocksOf(range(plan.hlb, plan.hub), threads, threadsRoundUp);
      if (plan.hasLevels())
        grid += ", " + blocksOf(range(plan.klb, plan.kub), std::to_string(plan.kblock),
                                std::to_string(plan.kblock - 1));
    }
    // FUSEC_LAUNCH is `k<<<...>>>` under nvcc and a loop over the threads on
    // the host (cuda-host), so the same .cu serves both.
    auto launch = [&](StringRef grid) {
      os << "FUSEC_LAUNCH(" << plan.function << ", dim3(" << grid << "), " << threads << ", 0, "
         << state << ".stream)(" << plan.kernelArguments() << ");\n";
    };
    if (plan.columnOrderBytes) {
      // Column by column when the points' shared data would not stay in L2
      // from one level tile to the next. In int64_t: point blocks times level
      // tiles may pass CUDA's limit of INT32_MAX blocks on x, which the
      // launcher reports rather than wrap.
      std::string blocks = "int64_t((" + range(plan.hlb, plan.hub) + " + " + threadsRoundUp +
                           ") / " + threads + ") * (" + levelTiles(plan) + ")";
      os << "if (fusec::column_order_pays(" << range(plan.hlb, plan.hub) << ", "
         << plan.columnOrderBytes << ")) {\nif (" << blocks
         << " > INT32_MAX)\nreturn FUSEC_ERROR_CUDA;\n";
      launch("static_cast<unsigned>(" + blocks + ")");
      os << "} else {\n";
      launch(grid);
      os << "}\n";
    } else {
      launch(grid);
    }
    os << "return fusec::launch_status();\n";
  }

private:
  /// The number of level tiles of `kblock` levels in [k_lb, k_ub).
  static std::string levelTiles(const codegen::KernelPlan &plan) {
    if (plan.kblock == 1)
      return plan.kub + " - " + plan.klb;
    return "(" + plan.kub + " - " + plan.klb + " + " + std::to_string(plan.kblock - 1) + ") / " +
           std::to_string(plan.kblock);
  }
};

} // namespace

LogicalResult emitCuda(ModuleOp module, raw_ostream &os) {
  return codegen::emitCFamily(module, CudaTarget(), os);
}

} // namespace fusec
