//===- fuzz_stn.cpp - libFuzzer target: bytes as a .stn file through fusec ===//
//
// Each input is a .stn source file, held in memory, whose imports resolve to
// stencils/ (`import "icon.stn";`) and tests/frontend/ (`import
// "Inputs/prelude.stn";`, as the seeds from there do). What `fusec -O
// fuse-all` does to it runs: the frontend and, when that accepts the file, the
// fuse-all pipeline, the kernel lowering and the four emitters, into memory.
// Diagnostics go nowhere. Rejected files and failing passes are expected
// outcomes; crashes, sanitizer reports, leaks, timeouts and internal errors are
// bugs.
//
//===----------------------------------------------------------------------===//

#include "codegen/Emitters.h"
#include "compiler/Frontend.h"
#include "passes/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/ErrorHandling.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace fusec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One context for all inputs (a fresh module each): creating it and loading
  // the dialects costs more than most inputs.
  static mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  static const FrontendOptions options = [] {
    FrontendOptions options;
    options.includeDirs = {FUSEC_FUZZ_STENCILS_DIR, FUSEC_FUZZ_FRONTEND_TESTS_DIR};
    return options;
  }();

  llvm::SourceMgr sourceMgr;
  // Internal errors are bugs whatever the input; the rest are the input's fault.
  mlir::ScopedDiagnosticHandler diagnostics(&context, [](mlir::Diagnostic &diagnostic) {
    if (llvm::StringRef(diagnostic.str()).contains("internal error"))
      llvm::report_fatal_error(llvm::Twine("fusec reported: ") + diagnostic.str());
    return mlir::success();
  });
  // Named as a file in stencils/, so that imports never depend on the
  // directory the fuzzer runs in.
  mlir::OwningOpRef<mlir::ModuleOp> module = translateStnSource(
      llvm::StringRef(reinterpret_cast<const char *>(data), size),
      FUSEC_FUZZ_STENCILS_DIR "/fuzz-input.stn", options, sourceMgr, context, llvm::nulls());
  if (!module)
    return 0;
  if (mlir::failed(mlir::verify(*module)))
    llvm::report_fatal_error("the frontend accepted the input but its IR does not verify");

  mlir::PassManager pm(&context);
  std::string error;
  if (mlir::failed(buildOptimisationPipeline(pm, "fuse-all", error)))
    llvm::report_fatal_error(llvm::Twine("fuse-all: ") + error);
  buildKernelLoweringPipeline(pm, "fuse-all");
  if (mlir::failed(pm.run(*module)))
    return 0;

  // As fusec names the module after the input file.
  module->setSymName("fuzz_input");
  std::string text;
  llvm::raw_string_ostream os(text);
  (void)emitHeader(*module, os);
  (void)emitFortran(*module, os);
  // Each backend reads the loop form of its own target.
  for (fusec::ConfigTarget target : {fusec::ConfigTarget::Cuda, fusec::ConfigTarget::Cpp}) {
    mlir::OwningOpRef<mlir::ModuleOp> scheduled = module->clone();
    setOptimisationTarget(*scheduled, target);
    mlir::PassManager loops(&context);
    buildLoopLoweringPipeline(loops);
    if (mlir::failed(loops.run(*scheduled)))
      continue;
    (void)(target == fusec::ConfigTarget::Cuda ? emitCuda(*scheduled, os) : emitCpp(*scheduled, os));
  }
  return 0;
}
