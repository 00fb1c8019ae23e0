//===- Driver.cpp - the fusec compiler driver -----------------------------===//

#include "compiler/Driver.h"
#include "compiler/Frontend.h"

#include "codegen/Emitters.h"
#include "passes/PipelineConfig.h"
#include "passes/Pipelines.h"
#include "passes/Statistics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/Statistic.h"

using namespace fusec;

std::optional<EmitKind> fusec::inferEmitKind(llvm::StringRef outputPath) {
  if (outputPath == "-")
    return EmitKind::Mlir;
  return llvm::StringSwitch<std::optional<EmitKind>>(llvm::sys::path::extension(outputPath))
      .Case(".mlir", EmitKind::Mlir)
      .Case(".cu", EmitKind::Cuda)
      .Cases(".cpp", ".cc", EmitKind::Cpp)
      .Case(".h", EmitKind::Header)
      .Cases(".f90", ".F90", EmitKind::Fortran)
      .Default(std::nullopt);
}

ConfigTarget fusec::configTargetOf(EmitKind emit) {
  // Only C++ output is for the cpp target. MLIR shows what the default target (CUDA) is
  // compiled from; the header and the Fortran module do not depend on the choices.
  return emit == EmitKind::Cpp ? ConfigTarget::Cpp : ConfigTarget::Cuda;
}

/// Writes `text` to `path` through a temporary file in the same directory,
/// renamed into place, so that a failed run never leaves a partial file.
static bool writeOutput(llvm::StringRef path, llvm::StringRef text, llvm::raw_ostream &errs) {
  if (path == "-") {
    llvm::outs() << text;
    llvm::outs().flush();
    return true;
  }
  auto temp = llvm::sys::fs::TempFile::create(path + "-%%%%%%.tmp");
  if (!temp) {
    errs << "fusec: error: cannot write '" << path << "': " << llvm::toString(temp.takeError())
         << "\n";
    return false;
  }
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    os << text;
    os.flush();
    if (os.has_error()) {
      errs << "fusec: error: cannot write '" << path << "': " << os.error().message() << "\n";
      os.clear_error();
      llvm::consumeError(temp->discard());
      return false;
    }
  }
  if (llvm::Error error = temp->keep(path)) {
    errs << "fusec: error: cannot write '" << path << "': " << llvm::toString(std::move(error))
         << "\n";
    return false;
  }
  return true;
}

int fusec::compile(const CompileOptions &options, llvm::raw_ostream &errs) {
  // Textual pipelines (`-O 'stn-map-fusion,cse'`) name registered passes.
  registerPipelinePasses();
  std::optional<EmitKind> emit = options.emit ? options.emit : inferEmitKind(options.outputPath);
  if (!emit) {
    errs << "fusec: error: cannot tell what to emit from '" << options.outputPath
         << "'; use --emit=mlir|cuda|cpp|header|fortran\n";
    return 1;
  }
  FrontendOptions frontend;
  frontend.includeDirs = options.includeDirs;
  for (const std::string &text : options.defines) {
    std::string error;
    std::optional<Define> define = parseDefine(text, error);
    if (!define) {
      errs << "fusec: error: " << error << "\n";
      return 1;
    }
    frontend.defines.push_back(*define);
  }

  // An invalid pipeline, layout or configuration is reported before any
  // source is read.
  bool columns = options.layout == CodeLayout::Columns;
  if (columns && *emit == EmitKind::Cuda) {
    errs << "fusec: error: --layout=columns is a layout of the C++ backend; CUDA code runs "
            "in the flat layout\n";
    return 1;
  }
  // The columns layout's loop form is the C++ backend's, whatever is written.
  ConfigTarget target = columns ? ConfigTarget::Cpp : configTargetOf(*emit);
  bool lower = *emit != EmitKind::Mlir && *emit != EmitKind::MlirFrontend;
  std::string error;
  PipelineConfig config;
  if (!options.configPath.empty()) {
    PipelineConfig file;
    if (!loadPipelineConfig(options.configPath, file, error)) {
      errs << error << "\n"; // already `file:line:col: error: message`
      return 1;
    }
    config = file.forTarget(target);
  }
  if (options.pipeline)
    config.defaultPipeline = *options.pipeline;
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  if (mlir::failed(buildOptimisationPipeline(pm, config.defaultPipeline, error))) {
    errs << "fusec: error: " << error << "\n";
    return 1;
  }
  if (lower)
    buildKernelLoweringPipeline(pm, config.defaultPipeline);

  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, errs);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      translateStnFile(options.inputPath, frontend, sourceMgr, context, errs);
  if (!module)
    return 1;
  if (mlir::failed(mlir::verify(*module))) {
    errs << "fusec: internal error: the generated IR does not verify; this is a bug in "
            "fusec's MLIRGen\n";
    return 1;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (*emit == EmitKind::MlirFrontend) {
    module->print(os);
    return writeOutput(options.outputPath, os.str(), errs) ? 0 : 1;
  }

  setOptimisationTarget(*module, target);
  if (columns)
    setColumnsLayout(*module);
  if (options.configPath.empty()) {
    if (mlir::failed(pm.run(*module)))
      return 1;
  } else if (mlir::failed(runPipelines(*module, config, lower, error))) {
    errs << "fusec: error: " << error << "\n";
    return 1;
  }

  if (options.printStatistics) {
    // Statistics count kernels: without an emitted output, lower a copy.
    mlir::OwningOpRef<mlir::ModuleOp> kernels = lower ? mlir::OwningOpRef<mlir::ModuleOp>()
                                                      : module->clone();
    if (!lower) {
      mlir::PassManager lowering(&context);
      buildKernelLoweringPipeline(lowering, config.defaultPipeline);
      if (mlir::failed(lowering.run(*kernels)))
        return 1;
    }
    printStatistics(computeStatistics(lower ? *module : *kernels), llvm::outs());
  }

  if (*emit == EmitKind::Cuda || *emit == EmitKind::Cpp) {
    mlir::PassManager loops(&context);
    if (mlir::failed(mlir::applyPassManagerCLOptions(loops)))
      return 1;
    buildLoopLoweringPipeline(loops);
    if (mlir::failed(loops.run(*module)))
      return 1;
  }

  // Emitted code takes file-wide names from the module (header guard, Fortran module, timers).
  if (lower && !module->getSymName())
    module->setSymName(llvm::sys::path::stem(options.inputPath));
  mlir::LogicalResult emitted = mlir::success();
  switch (*emit) {
  case EmitKind::Mlir:
  case EmitKind::MlirFrontend: module->print(os); break;
  case EmitKind::Cuda: emitted = emitCuda(*module, os); break;
  case EmitKind::Cpp: emitted = emitCpp(*module, os); break;
  case EmitKind::Header: emitted = emitHeader(*module, os); break;
  case EmitKind::Fortran: emitted = emitFortran(*module, os); break;
  }
  if (mlir::failed(emitted))
    return 1;
  return writeOutput(options.outputPath, os.str(), errs) ? 0 : 1;
}

int fusec::fusecMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  static llvm::cl::OptionCategory category("fusec options");
  static llvm::cl::opt<std::string> input(llvm::cl::Positional, llvm::cl::Required,
                                          llvm::cl::desc("<input .stn file>"),
                                          llvm::cl::cat(category));
  static llvm::cl::opt<std::string> output(
      "o", llvm::cl::desc("Output file (default: standard output, as MLIR)"),
      llvm::cl::value_desc("file"), llvm::cl::init("-"), llvm::cl::cat(category));
  static llvm::cl::opt<EmitKind> emit(
      "emit", llvm::cl::desc("What to write (default: from the output file's extension)"),
      llvm::cl::values(clEnumValN(EmitKind::Mlir, "mlir", "stn dialect after optimisation"),
                       clEnumValN(EmitKind::MlirFrontend, "mlir-frontend",
                                  "stn dialect as the frontend produced it, before any pass"),
                       clEnumValN(EmitKind::Cuda, "cuda", "CUDA kernels and C interface (.cu)"),
                       clEnumValN(EmitKind::Cpp, "cpp", "C++/OpenMP and C interface (.cpp)"),
                       clEnumValN(EmitKind::Header, "header", "C header (.h)"),
                       clEnumValN(EmitKind::Fortran, "fortran", "Fortran module (.f90)")),
      llvm::cl::cat(category));
  static llvm::cl::opt<std::string> pipeline(
      "O", llvm::cl::Prefix,
      llvm::cl::desc("Optimisation pipeline: none, fuse-all or a pass list (default fuse-all)"),
      llvm::cl::value_desc("pipeline"), llvm::cl::cat(category));
  static llvm::cl::opt<std::string> config(
      "config",
      llvm::cl::desc("YAML file choosing the pipeline of each program and options of "
                     "stencils (-O replaces its default pipeline)"),
      llvm::cl::value_desc("file.yaml"), llvm::cl::cat(category));
  static llvm::cl::list<std::string> defines(
      "D", llvm::cl::Prefix,
      llvm::cl::desc("Fix a scalar parameter or nlev (-D nlev=80), or set a precision "
                     "(-D vp=f32)"),
      llvm::cl::value_desc("name=value"), llvm::cl::cat(category));
  static llvm::cl::opt<bool> stats(
      "kernel-stats",
      llvm::cl::desc("Print per program: kernels, materialised temporaries and modelled DRAM "
                     "bytes per grid point (also --stats)"),
      llvm::cl::cat(category));
  static llvm::cl::opt<CodeLayout> layout(
      "layout", llvm::cl::desc("Field layout of the compiled C++ code (default: any)"),
      llvm::cl::values(
          clEnumValN(CodeLayout::Any, "any", "flat or ICON's blocked layout, chosen at run time"),
          clEnumValN(CodeLayout::Columns, "columns",
                     "ICON's blocked layout with nproma = 1 only: kernels vectorise over levels")),
      llvm::cl::init(CodeLayout::Any), llvm::cl::cat(category));
  static llvm::cl::list<std::string> includeDirs(
      "I", llvm::cl::Prefix, llvm::cl::desc("Directory searched for imported files"),
      llvm::cl::value_desc("dir"), llvm::cl::cat(category));

  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "fusec " FUSEC_VERSION " (stencil fusion compiler for ICON, MLIR "
       << LLVM_VERSION_STRING << ")\n";
  });
  mlir::registerPassManagerCLOptions();
  llvm::cl::HideUnrelatedOptions(category);
  // The passes' own -Rpass=<regex> (optimisation remarks) belongs in --help.
  if (llvm::cl::Option *rpass = llvm::cl::getRegisteredOptions().lookup("Rpass")) {
    rpass->addCategory(category);
    rpass->setHiddenFlag(llvm::cl::NotHidden);
  }
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "fusec: compiles .stn stencil programs for ICON\n");

  CompileOptions options;
  options.inputPath = input;
  options.outputPath = output;
  if (emit.getNumOccurrences())
    options.emit = emit;
  if (pipeline.getNumOccurrences())
    options.pipeline = pipeline;
  options.configPath = config;
  // `--stats` is LLVM's own flag for its statistics; fusec answers it with its own.
  options.printStatistics = stats || llvm::AreStatisticsEnabled();
  options.layout = layout;
  options.defines.assign(defines.begin(), defines.end());
  options.includeDirs.assign(includeDirs.begin(), includeDirs.end());
  return compile(options, llvm::errs());
}
