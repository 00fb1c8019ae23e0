//===- Driver.h - the fusec compiler driver -----------------------*- C++ -*-===//
//
// `fusec FILE [-o OUT] [--emit=...] [-O PIPELINE] [--config FILE] [-D name=value]...
//  [-I DIR]...`
// reads a .stn file, translates it to the stn dialect, runs an optimisation
// pipeline and writes MLIR or emitted sources.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_COMPILER_DRIVER_H
#define FUSEC_COMPILER_DRIVER_H

#include "passes/PipelineConfig.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace fusec {

/// What the driver writes.
enum class EmitKind {
  Mlir,         // the stn dialect after the optimisation pipeline
  MlirFrontend, // the stn dialect as the frontend produced it, before any pass
  Cuda,
  Cpp,
  Header,
  Fortran
};

/// The kind an output file's extension implies (`.mlir .cu .cpp .cc .h .f90`).
std::optional<EmitKind> inferEmitKind(llvm::StringRef outputPath);

/// The `targets:` section of a --config file that applies to `emit`: `cpp` for
/// C++ output, `cuda` for everything else.
ConfigTarget configTargetOf(EmitKind emit);

/// The field layouts compiled code runs in.
enum class CodeLayout {
  /// Any layout given at run time: flat, or ICON's blocked layout.
  Any,
  /// ICON's blocked layout with one point per block only (C++): each point's
  /// levels lie next to each other, and the kernels vectorise over levels.
  Columns,
};

struct CompileOptions {
  std::string inputPath;
  /// `-` for standard output.
  std::string outputPath = "-";
  /// Inferred from `outputPath` when absent (MLIR on standard output).
  std::optional<EmitKind> emit;
  /// A named pipeline (`none`, `fuse-all`) or a textual one; `fuse-all`
  /// when absent (or the configuration's default).
  std::optional<std::string> pipeline;
  /// A YAML pipeline configuration (passes/PipelineConfig.h): the pipeline of
  /// each program and options of stencils, resolved for the emit kind's target
  /// (`configTargetOf`). `pipeline` replaces its default.
  std::string configPath;
  /// `name=value` strings from -D.
  std::vector<std::string> defines;
  std::vector<std::string> includeDirs;
  /// Print kernel statistics of the compiled module to standard output.
  bool printStatistics = false;
  /// The columns layout is for the C++ backend (and its header, Fortran
  /// module and MLIR); CUDA output refuses it.
  CodeLayout layout = CodeLayout::Any;
};

/// Runs one compilation. Errors are printed to `errs`; the output file is
/// written only when everything succeeded. Returns the exit status (0 or 1).
int compile(const CompileOptions &options, llvm::raw_ostream &errs);

/// The fusec command line: parses `argv` and runs `compile`.
int fusecMain(int argc, char **argv);

} // namespace fusec

#endif // FUSEC_COMPILER_DRIVER_H
