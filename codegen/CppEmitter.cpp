//===- CppEmitter.cpp - kernel form to C++17 with OpenMP ------------------===//
//
// A program run is one OpenMP parallel region: every thread of the team runs
// the program body (fusec::run_on_team), host work that must happen once (the
// exchange callback, stn.image) runs on the team's master, the caller's thread
// (fusec::on_one_thread), and each kernel shares its work items among the team
// with an orphaned `omp for` whose barrier a kernel marked `nowait`
// (stn-elide-barriers) leaves out. A launch on an empty domain skips its
// kernel but not that barrier: kernels before it may still be running.
//
// Work items (docs/dialect.md, loop form): the team shares (level tile, block
// of kHorizontalBlock points) pairs (`omp for collapse(2)`); a tile holds
// `kblock` levels and a kernel's `hblock` attribute replaces kHorizontalBlock
// as the points per block. 2-D kernels share the blocks of points; a
// vertical-only kernel is one work item (`omp single`). Inside a work item
// the kernel's loop form is printed as it is: ICON's order, levels and then an
// `omp simd` loop over the unit-stride points of the block.
//
// Each kernel with points also has a blocked variant (`<kernel>_blocked`) for
// ICON's CPU layout (fusec_layout.nproma > 0), following ICON's loops: OpenMP
// threads share the layout's blocks `jb` of nproma points; a work item is a
// chunk of at most kHorizontalBlock points of one block, clipped to
// [h_lb, h_ub), with all levels.
//
// A kernel on a point list shares blocks of kHorizontalBlock (or `hblock`)
// consecutive entries in both layouts; each entry is one point at one level,
// read from the list's arrays. The entries hold flat cell indices, so in the
// blocked variant each one is located in its own block (h / nproma).
//
// A kernel that is a stage of an stn.wavefront (columns layout) takes the
// range of points it runs as its last two parameters and has no `omp for`:
// the plan gives each thread its ranges; its launcher, which runs it when the
// group runs kernel by kernel, gives each thread a static share instead.
//
// A module compiled for the columns layout (`stn.layout = "columns"`: the
// blocked layout with nproma = 1) has only the blocked variants, with nproma
// and every leading dimension printed as 1, so that the compiler sees the
// unit stride of the loop form's vectorised level loop; its create functions
// refuse every other layout.
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
    os << "#include \"fusec/kernel_support.h\"\n#include \"fusec/wavefront.h\"\n\n"
          "#include <algorithm>\n#include <math.h>\n#include <stdint.h>\n\n";
    if (hasKernels)
      os << "// Points per OpenMP work item: the extent of the vectorised innermost loop.\n"
            "constexpr int32_t kHorizontalBlock = "
         << stn::StnDialect::kCppPointsPerWorkItem << ";\n";
  }

  std::string bufferType(StringRef elementType) const override {
    return "fusec::HostArray<" + elementType.str() + ">";
  }
  StringRef kernelTableType() const override { return "fusec::HostTable"; }
  bool kernelTablesOnHost() const override { return true; }
  bool supportsBlockedLayout() const override { return true; }
  StringRef streamType() const override { return "void *"; }
  std::string streamFromArgument(StringRef argument) const override { return argument.str(); }
  std::vector<std::string>
  emptyDomainStatements(const codegen::KernelPlan &plan) const override {
    if (nowait(plan))
      return {"return FUSEC_SUCCESS;"};
    return {"fusec::team_barrier();", "return FUSEC_SUCCESS;"};
  }
  std::string runBody(StringRef call) const override {
    return "fusec::run_on_team([&] { return " + call.str() + "; })";
  }
  std::string onOneThread(StringRef call) const override {
    return "fusec::on_one_thread([&] { return " + call.str() + "; })";
  }
  bool supportsWavefronts() const override { return true; }

  LogicalResult emitKernel(codegen::KernelPlan &plan, raw_ostream &os) const override {
    if (plan.staged && !(stn::columnsLayout(plan.op) && plan.hasPoints()))
      return plan.op.emitError() << "a wavefront stage needs the columns layout and a range of "
                                    "points";
    if (stn::columnsLayout(plan.op) && hasBlockedVariant(plan)) {
      useColumnsStrides(plan.scope);
      return plan.hasPointList() ? emitListKernel(plan, plan.scope, /*blocked=*/true, os)
                                 : emitBlockedKernel(plan, plan.scope, os);
    }
    // The blocked variant's body is emitted from the scope before the flat one used it.
    codegen::KernelScope blockedScope = plan.scope;
    if (plan.hasPointList()) {
      if (failed(emitListKernel(plan, plan.scope, /*blocked=*/false, os)))
        return failure();
      os << "\n";
      return emitListKernel(plan, blockedScope, /*blocked=*/true, os);
    }
    if (failed(emitFlatKernel(plan, os)))
      return failure();
    if (!plan.hasPoints())
      return success();
    os << "\n";
    return emitBlockedKernel(plan, blockedScope, os);
  }

  void emitLaunch(const codegen::KernelPlan &plan, StringRef state,
                  raw_ostream &os) const override {
    if (plan.staged) {
      // Shared statically, as the kernel runs ranges of points.
      os << "{\nconst fusec::wavefront::Domain share = fusec::wavefront::static_share(" << plan.hlb
         << ", " << plan.hub << ");\n"
         << plan.function << "_blocked(" << plan.kernelArguments(/*blocked=*/true)
         << ", share.begin, share.end);\n}\n";
      if (!nowait(plan))
        os << "fusec::team_barrier();\n";
      os << "return FUSEC_SUCCESS;\n";
      return;
    }
    if (stn::columnsLayout(plan.op) && hasBlockedVariant(plan)) {
      // The create function accepted the columns layout only.
      os << plan.function << "_blocked(" << plan.kernelArguments(/*blocked=*/true)
         << ");\nreturn FUSEC_SUCCESS;\n";
      return;
    }
    if (hasBlockedVariant(plan))
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

  /// Kernels stay out of line: GCC inlined some of them into the program's
  /// executor, where the same kernel ran 12% slower (docs/bench.md,
  /// "Kernels out of line").
  static constexpr const char *kKernelFunction = "[[gnu::noinline]]\nstatic void ";

  static std::string declare(StringRef name, StringRef value) {
    return "const int32_t " + name.str() + " = " + value.str() + ";\n";
  }

  /// The columns layout's strides as literals: nproma and every location's
  /// leading dimension are 1 there.
  static void useColumnsStrides(codegen::KernelScope &scope) {
    scope.blocked = true;
    scope.nproma = "1";
    for (std::string &ld : scope.leadingDimensions)
      if (!ld.empty())
        ld = "1";
  }

  /// Vertical-only kernels are the same in both layouts.
  static bool hasBlockedVariant(const codegen::KernelPlan &plan) {
    return plan.hasPoints() || plan.hasPointList();
  }

  static bool nowait(const codegen::KernelPlan &plan) {
    return stn::KernelOp(plan.op).getNowait();
  }

  /// The worksharing construct of a kernel: its barrier unless `nowait`. A
  /// kernel with column stages waits after them instead (openStages).
  static std::string workshare(const codegen::KernelPlan &plan, StringRef construct,
                               StringRef stages = "") {
    return "#pragma omp " + construct.str() + (nowait(plan) || !stages.empty() ? " nowait" : "") +
           "\n";
  }

  /// The column stages of a kernel's non-temporal writes live in a block
  /// around its work items, whose end orders their stores before the barrier.
  static std::string openStages(StringRef stages) {
    return stages.empty() ? "" : "{\n" + stages.str();
  }
  static std::string closeStages(const codegen::KernelPlan &plan, StringRef stages) {
    if (stages.empty())
      return "";
    return plan.staged || nowait(plan) ? "}\n" : "}\nfusec::team_barrier();\n";
  }

  static std::string layoutComment(const codegen::KernelPlan &plan) {
    return stn::columnsLayout(plan.op) ? " in the columns layout (one point per block).\n"
                                       : " in the blocked layout (nproma points per block).\n";
  }

  /// ICON's loop nest: blocks (OpenMP) -> chunks of at most kHorizontalBlock
  /// points, each a work item with all levels.
  static LogicalResult emitBlockedKernel(codegen::KernelPlan &plan, codegen::KernelScope &scope,
                                         raw_ostream &os) {
    scope.blocked = true;
    codegen::NameTable &names = scope.names;
    std::string block = names.unique("jb"), firstBlock = names.unique("jb_first"),
                endBlock = names.unique("jb_end"), blockBegin = names.unique("block_begin"),
                blockEnd = names.unique("block_end"), chunk = names.unique("chunk");
    scope.workItemBlock = block;
    std::string points = plan.horizontalBlock("kHorizontalBlock");
    const std::string &nproma = scope.nproma;
    // In the columns layout a block is its one point.
    bool columns = stn::columnsLayout(plan.op);
    std::string signature = plan.kernelSignature(true), rangeBegin, rangeEnd;
    // A wavefront stage runs the points its caller gives it, on the calling thread.
    if (plan.staged) {
      rangeBegin = names.unique("range_begin");
      rangeEnd = names.unique("range_end");
      signature += ", const int32_t " + rangeBegin + ", const int32_t " + rangeEnd;
    }
    codegen::KernelBodyEmitter body(plan.op, scope, /*unrollReductions=*/false);
    std::string stages = body.declareColumnStages();
    os << "// " << plan.function << layoutComment(plan)
       << kKernelFunction << plan.function << "_blocked(" << signature << ") {\n"
       << declare(firstBlock, plan.staged ? rangeBegin
                              : columns   ? plan.hlb
                                          : plan.hlb + " / " + nproma)
       << declare(endBlock, plan.staged ? rangeEnd
                            : columns   ? plan.hub
                                        : "static_cast<int32_t>((int64_t(" + plan.hub + ") + " +
                                              nproma + " - 1) / " + nproma + ")")
       << openStages(stages) << (plan.staged ? "" : workshare(plan, "for schedule(static)", stages))
       << loop(block, firstBlock, endBlock)
       << declare(blockBegin,
                  columns ? block : "std::max(" + plan.hlb + ", " + block + " * " + nproma + ")")
       << declare(blockEnd, columns ? block + " + 1"
                                    : "static_cast<int32_t>(std::min<int64_t>(" + plan.hub +
                                          ", int64_t(" + block + " + 1) * " + nproma + "))")
       << "for (int32_t " << chunk << " = " << blockBegin << "; " << chunk << " < " << blockEnd
       << "; " << chunk << " += " << points << ") {\n"
       << declare(plan.hBegin, chunk)
       << declare(plan.hEnd, "std::min(" + chunk + " + " + points + ", " + blockEnd + ")");
    if (plan.hasLevels())
      os << declare(plan.kBegin, plan.klb) << declare(plan.kEnd, plan.kub);
    if (failed(body.emit(os)))
      return failure();
    os << "}\n}\n" << closeStages(plan, stages) << "}\n";
    return success();
  }

  /// A kernel on a point list, in the flat or the blocked layout: the team
  /// shares blocks of consecutive entries, each a work item.
  static LogicalResult emitListKernel(codegen::KernelPlan &plan, codegen::KernelScope &scope,
                                      bool blocked, raw_ostream &os) {
    scope.blocked = blocked;
    codegen::NameTable &names = scope.names;
    std::string blocks = names.unique("e_blocks"), block = names.unique("eb");
    std::string entries = plan.horizontalBlock("kHorizontalBlock");
    const std::string &count = plan.list.count;
    if (blocked)
      os << "// " << plan.function << layoutComment(plan);
    codegen::KernelBodyEmitter body(plan.op, scope, /*unrollReductions=*/false);
    std::string stages = body.declareColumnStages();
    // The block count in int64_t and the last block's end as a difference, so
    // that a count near INT32_MAX cannot overflow.
    os << kKernelFunction << plan.function << (blocked ? "_blocked(" : "(")
       << plan.kernelSignature(blocked) << ") {\n"
       << declare(blocks, "static_cast<int32_t>((int64_t(" + count + ") + " + entries + " - 1) / " +
                              entries + ")")
       << openStages(stages) << workshare(plan, "for schedule(static)", stages)
       << loop(block, "0", blocks) << declare(plan.eBegin, block + " * " + entries)
       << declare(plan.eEnd, plan.eBegin + " + std::min(" + entries + ", " + count + " - " +
                                 plan.eBegin + ")");
    if (failed(body.emit(os)))
      return failure();
    os << "}\n" << closeStages(plan, stages) << "}\n";
    return success();
  }

  static LogicalResult emitFlatKernel(codegen::KernelPlan &plan, raw_ostream &os) {
    os << kKernelFunction << plan.function << "(" << plan.kernelSignature() << ") {\n";
    codegen::KernelBodyEmitter body(plan.op, plan.scope, /*unrollReductions=*/false);
    codegen::NameTable &names = plan.scope.names;
    if (!plan.hasPoints()) {
      os << workshare(plan, "single") << "{\n"
         << declare(plan.kBegin, plan.klb) << declare(plan.kEnd, plan.kub);
      if (failed(body.emit(os)))
        return failure();
      os << "}\n}\n";
      return success();
    }
    std::string blocks = names.unique("h_blocks"), block = names.unique("hb");
    std::string points = plan.horizontalBlock("kHorizontalBlock");
    os << declare(blocks, "(" + plan.hub + " - " + plan.hlb + " + " + points + " - 1) / " + points);
    std::string tile;
    if (!plan.hasLevels()) {
      os << workshare(plan, "for schedule(static)") << loop(block, "0", blocks);
    } else {
      std::string tiles = names.unique("k_tiles");
      tile = names.unique("kt");
      os << declare(tiles, plan.kblock == 1
                               ? plan.kub + " - " + plan.klb
                               : "(" + plan.kub + " - " + plan.klb + " + " +
                                     std::to_string(plan.kblock - 1) + ") / " +
                                     std::to_string(plan.kblock))
         << workshare(plan, "for collapse(2) schedule(static)") << loop(tile, "0", tiles)
         << loop(block, "0", blocks);
    }
    os << declare(plan.hBegin, plan.hlb + " + " + block + " * " + points)
       << declare(plan.hEnd, "std::min(" + plan.hBegin + " + " + points + ", " + plan.hub + ")");
    if (plan.hasLevels())
      os << plan.declareLevelTile(tile, "std::min");
    if (failed(body.emit(os)))
      return failure();
    os << (plan.hasLevels() ? "}\n}\n}\n" : "}\n}\n");
    return success();
  }
};

} // namespace

LogicalResult emitCpp(ModuleOp module, raw_ostream &os) {
  return codegen::emitCFamily(module, CppTarget(), os);
}

} // namespace fusec
