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
  StringRef streamType() const override { return "void *"; }
  std::string streamFromArgument(StringRef argument) const override { return argument.str(); }

  LogicalResult emitKernel(codegen::KernelPlan &plan, raw_ostream &os) const override {
    os << "static void " << plan.function << "(" << plan.kernelSignature() << ") {\n";
    codegen::KernelBodyEmitter body(plan.op, plan.scope, /*unrollReductions=*/false);
    SmallVector<Operation *> ops = plan.bodyOps();
    codegen::NameTable &names = plan.scope.names;
    const std::string &level = plan.scope.level;
    auto loop = [](StringRef var, StringRef begin, StringRef end) {
      return "for (int32_t " + var.str() + " = " + begin.str() + "; " + var.str() + " < " +
             end.str() + "; ++" + var.str() + ") {\n";
    };

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
      } else if (failed(emitCarryingTile(plan, body, carrying, kBegin, kEnd, block, hBegin, hEnd, os))) {
        return failure();
      }
      os << "}\n}\n";
    }
    os << "}\n";
    return success();
  }

  void emitLaunch(const codegen::KernelPlan &plan, StringRef /*state*/,
                  raw_ostream &os) const override {
    os << plan.function << "(" << plan.kernelArguments() << ");\nreturn FUSEC_SUCCESS;\n";
  }

private:
  /// The levels of one tile when values carry from each level to the next:
  /// per point of the block, an array element holds what the level below
  /// computed (LevelCarrying.h), so the first level computes everything and
  /// later ones read those elements instead.
  static LogicalResult emitCarryingTile(codegen::KernelPlan &plan,
                                        codegen::KernelBodyEmitter &body,
                                        const codegen::LevelCarrying &carrying,
                                        StringRef kBegin, StringRef kEnd, StringRef block,
                                        StringRef hBegin, StringRef hEnd, raw_ostream &os) {
    codegen::NameTable &names = plan.scope.names;
    const std::string &level = plan.scope.level;
    std::string points = plan.horizontalBlock("kHorizontalBlock");
    os << "const int32_t " << hBegin << " = " << plan.hlb << " + " << block << " * " << points
       << ";\nconst int32_t " << hEnd << " = std::min(" << hBegin << " + " << points << ", "
       << plan.hub << ");\n";
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
