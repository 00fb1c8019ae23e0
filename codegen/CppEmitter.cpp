//===- CppEmitter.cpp - kernel form to C++17 with OpenMP ------------------===//
//
// Loop nest: OpenMP threads share (level tile, block of kHorizontalBlock
// points) pairs (`parallel for collapse(2)`); inside, the levels of the tile,
// then an `omp simd` loop over the block's points, so the innermost loop runs
// over the unit-stride horizontal index and vectorises. A tile holds `kblock`
// levels, so kblock sets the work per OpenMP iteration as it sets the work
// per CUDA thread, and values a level takes from the level below (`k - 1`
// reductions and expressions, see LevelCarrying.h) are kept per point in a
// small array; a kernel's `hblock` attribute replaces kHorizontalBlock as
// the points per block. 2-D kernels drop the level loops; vertical-only kernels
// are one simd loop over levels (their unit-stride index).
//
// Each kernel with points also has a blocked variant (`<kernel>_blocked`) for
// ICON's CPU layout (fusec_layout.nproma > 0), following ICON's loops: OpenMP
// threads share the layout's blocks `jb` of nproma points; inside, every level,
// then an `omp simd` loop over the block's points clipped to [h_lb, h_ub)
// (blocks larger than kHorizontalBlock are cut into chunks of that many). A
// tile of kblock > 1 levels that carries values is the block's whole level range.
//
//===----------------------------------------------------------------------===//

#include "codegen/CEmitterCommon.h"
#include "codegen/CFamilyEmitter.h"
#include "codegen/Emitters.h"

using namespace mlir;

namespace fusec {
namespace {

class CppTarget : public codegen::CFamilyTarget {
public:
  StringRef description() const override { return "C++17 with OpenMP"; }
  StringRef backendName() const override { return "cpp"; }

  void emitPrelude(bool hasKernels, raw_ostream &os) const override {
    os << "#include \"fusec/kernel_support.h\"\n\n"
          "#include <algorithm>\n#include <math.h>\n#include <stdint.h>\n\n";
    if (hasKernels)
      os << "// Points per OpenMP work item: the extent of the vectorised innermost loop.\n"
            "constexpr int32_t kHorizontalBlock = 128;\n";
  }

  std::string bufferType(StringRef elementType) const override {
    return "fusec::HostArray<" + elementType.str() + ">";
  }
  StringRef kernelTableType() const override { return "fusec::HostTable"; }
  bool kernelTablesOnHost() const override { return true; }
  bool supportsBlockedLayout() const override { return true; }
  StringRef streamType() const override { return "void *"; }
  std::string streamFromArgument(StringRef argument) const override { return argument.str(); }

  LogicalResult emitKernel(codegen::KernelPlan &plan, raw_ostream &os) const override {
    // The blocked variant's body is emitted from the scope before the flat one used it.
    codegen::KernelScope blockedScope = plan.scope;
    if (failed(emitFlatKernel(plan, os)))
      return failure();
    if (!plan.hasPoints())
      return success();
    os << "\n";
    return emitBlockedKernel(plan, blockedScope, os);
  }

  void emitLaunch(const codegen::KernelPlan &plan, StringRef state,
                  raw_ostream &os) const override {
    if (plan.hasPoints())
      os << "if (" << state << ".extents.blocked()) {\n"
         << plan.function << "_blocked(" << plan.kernelArguments(/*blocked=*/true)
         << ");\nreturn FUSEC_SUCCESS;\n}\n";
    os << plan.function << "(" << plan.kernelArguments() << ");\nreturn FUSEC_SUCCESS;\n";
  }

private:
  static std::string loop(StringRef var, StringRef begin, StringRef end) {
    return "for (int32_t " + var.str() + " = " + begin.str() + "; " + var.str() + " < " +
           end.str() + "; ++" + var.str() + ") {\n";
  }

  /// ICON's loop nest: blocks (OpenMP) -> chunks of at most kHorizontalBlock
  /// points -> levels -> points (simd).
  static LogicalResult emitBlockedKernel(codegen::KernelPlan &plan, codegen::KernelScope &scope,
                                         raw_ostream &os) {
    scope.blocked = true;
    codegen::NameTable &names = scope.names;
    std::string block = names.unique("jb"), firstBlock = names.unique("jb_first"),
                endBlock = names.unique("jb_end"), blockBegin = names.unique("block_begin"),
                blockEnd = names.unique("block_end"), chunk = names.unique("chunk"),
                hBegin = names.unique("h_begin"), hEnd = names.unique("h_end");
    scope.pointBlocks[plan.op.getPoint()] = block;
    codegen::KernelBodyEmitter body(plan.op, scope, /*unrollReductions=*/false);
    SmallVector<Operation *> ops = plan.bodyOps();
    std::string points = plan.horizontalBlock("kHorizontalBlock");
    const std::string &nproma = plan.nproma;
    os << "// " << plan.function << " in the blocked layout (nproma points per block).\n"
       << "static void " << plan.function << "_blocked(" << plan.kernelSignature(true) << ") {\n"
       << "const int32_t " << firstBlock << " = " << plan.hlb << " / " << nproma << ";\n"
       << "const int32_t " << endBlock << " = static_cast<int32_t>((int64_t(" << plan.hub
       << ") + " << nproma << " - 1) / " << nproma << ");\n"
       << "#pragma omp parallel for schedule(static)\n"
       << loop(block, firstBlock, endBlock) << "const int32_t " << blockBegin
       << " = std::max(" << plan.hlb << ", " << block << " * " << nproma << ");\n"
       << "const int32_t " << blockEnd << " = static_cast<int32_t>(std::min<int64_t>("
       << plan.hub << ", int64_t(" << block << " + 1) * " << nproma << "));\n"
       << "for (int32_t " << chunk << " = " << blockBegin << "; " << chunk << " < " << blockEnd
       << "; " << chunk << " += " << points << ") {\n"
       << "const int32_t " << hBegin << " = " << chunk << ";\n"
       << "const int32_t " << hEnd << " = std::min(" << chunk << " + " << points << ", "
       << blockEnd << ");\n";
    auto pointLoop = [&]() -> LogicalResult {
      os << "#pragma omp simd\n" << loop(plan.point, hBegin, hEnd);
      if (failed(body.emit(ops, os)))
        return failure();
      os << "}\n";
      return success();
    };
    codegen::LevelCarrying carrying;
    if (plan.hasLevels() && plan.kblock > 1 && !plan.op.getNoLevelCarry())
      carrying = codegen::analyzeLevelCarrying(plan.op, /*carryLoads=*/false);
    if (!plan.hasLevels()) {
      if (failed(pointLoop()))
        return failure();
    } else if (carrying.empty()) {
      os << loop(scope.level, plan.klb, plan.kub);
      if (failed(pointLoop()))
        return failure();
      os << "}\n";
    } else if (failed(emitCarryingLevels(plan, scope, body, carrying, plan.klb, plan.kub, hBegin,
                                         hEnd, os))) {
      return failure();
    }
    os << "}\n}\n}\n";
    return success();
  }

  LogicalResult emitFlatKernel(codegen::KernelPlan &plan, raw_ostream &os) const {
    os << "static void " << plan.function << "(" << plan.kernelSignature() << ") {\n";
    codegen::KernelBodyEmitter body(plan.op, plan.scope, /*unrollReductions=*/false);
    SmallVector<Operation *> ops = plan.bodyOps();
    codegen::NameTable &names = plan.scope.names;
    const std::string &level = plan.scope.level;

    if (!plan.hasPoints()) {
      os << "#pragma omp simd\n" << loop(level, plan.klb, plan.kub);
      if (failed(body.emit(ops, os)))
        return failure();
      os << "}\n}\n";
      return success();
    }

    std::string blocks = names.unique("h_blocks"), block = names.unique("hb");
    std::string hBegin = names.unique("h_begin"), hEnd = names.unique("h_end");
    std::string points = plan.horizontalBlock("kHorizontalBlock");
    os << "const int32_t " << blocks << " = (" << plan.hub << " - " << plan.hlb << " + " << points
       << " - 1) / " << points << ";\n";
    auto pointLoop = [&]() -> LogicalResult {
      os << "const int32_t " << hBegin << " = " << plan.hlb << " + " << block << " * " << points
         << ";\nconst int32_t " << hEnd << " = std::min(" << hBegin << " + " << points << ", "
         << plan.hub << ");\n#pragma omp simd\n"
         << loop(plan.point, hBegin, hEnd);
      if (failed(body.emit(ops, os)))
        return failure();
      os << "}\n";
      return success();
    };

    int64_t kblock = plan.kblock;
    if (!plan.hasLevels()) {
      os << "#pragma omp parallel for schedule(static)\n" << loop(block, "0", blocks);
      if (failed(pointLoop()))
        return failure();
      os << "}\n";
    } else if (kblock == 1) {
      os << "#pragma omp parallel for collapse(2) schedule(static)\n"
         << loop(level, plan.klb, plan.kub) << loop(block, "0", blocks);
      if (failed(pointLoop()))
        return failure();
      os << "}\n}\n";
    } else {
      std::string tiles = names.unique("k_tiles"), tile = names.unique("kt");
      std::string kBegin = names.unique("k_begin"), kEnd = names.unique("k_end");
      os << "const int32_t " << tiles << " = (" << plan.kub << " - " << plan.klb << " + "
         << kblock - 1 << ") / " << kblock << ";\n"
         << "#pragma omp parallel for collapse(2) schedule(static)\n"
         << loop(tile, "0", tiles) << loop(block, "0", blocks) << "const int32_t " << kBegin
         << " = " << plan.klb << " + " << tile << " * " << kblock << ";\nconst int32_t " << kEnd
         << " = std::min(" << kBegin << " + " << kblock << ", " << plan.kub << ");\n";
      codegen::LevelCarrying carrying =
        plan.op.getNoLevelCarry() ? codegen::LevelCarrying() : codegen::analyzeLevelCarrying(plan.op, /*carryLoads=*/false);
      if (carrying.empty()) {
        os << loop(level, kBegin, kEnd);
        if (failed(pointLoop()))
          return failure();
        os << "}\n";
      } else {
        os << "const int32_t " << hBegin << " = " << plan.hlb << " + " << block << " * "
           << points << ";\nconst int32_t " << hEnd << " = std::min(" << hBegin << " + "
           << points << ", " << plan.hub << ");\n";
        if (failed(emitCarryingLevels(plan, plan.scope, body, carrying, kBegin, kEnd, hBegin,
                                      hEnd, os)))
          return failure();
      }
      os << "}\n}\n";
    }
    os << "}\n";
    return success();
  }

  /// Levels [kBegin, kEnd) of points [hBegin, hEnd) (at most a block's) when
  /// values carry from each level to the next: per point, an array element
  /// holds what the level below computed (LevelCarrying.h), so the first level
  /// computes everything and later ones read those elements instead.
  static LogicalResult emitCarryingLevels(codegen::KernelPlan &plan, codegen::KernelScope &scope,
                                          codegen::KernelBodyEmitter &body,
                                          const codegen::LevelCarrying &carrying,
                                          StringRef kBegin, StringRef kEnd, StringRef hBegin,
                                          StringRef hEnd, raw_ostream &os) {
    codegen::NameTable &names = scope.names;
    const std::string &level = scope.level;
    std::string points = plan.horizontalBlock("kHorizontalBlock");
    SmallVector<std::string> carries;
    for (Operation *source : carrying.sources) {
      std::string carry = names.unique("carry");
      os << *codegen::cScalarType(source->getResult(0).getType()) << " " << carry << "["
         << points << "];\n";
      carries.push_back(carry + "[" + plan.point + " - " + hBegin.str() + "]");
    }
    auto pointLoop = [&](bool steady) {
      os << "#pragma omp simd\nfor (int32_t " << plan.point << " = " << hBegin << "; "
         << plan.point << " < " << hEnd << "; ++" << plan.point << ") {\n";
      if (failed(body.emitCarryingLevel(plan.bodyOps(), carrying, carries, steady, os)))
        return failure();
      os << "}\n";
      return success();
    };
    os << "{\nconst int32_t " << level << " = " << kBegin << ";\n";
    if (failed(pointLoop(/*steady=*/false)))
      return failure();
    os << "}\nfor (int32_t " << level << " = " << kBegin << " + 1; " << level << " < " << kEnd
       << "; ++" << level << ") {\n";
    if (failed(pointLoop(/*steady=*/true)))
      return failure();
    os << "}\n";
    return success();
  }
};

} // namespace

LogicalResult emitCpp(ModuleOp module, raw_ostream &os) {
  return codegen::emitCFamily(module, CppTarget(), os);
}

} // namespace fusec
