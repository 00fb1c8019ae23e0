//===- Session.h - what every fusec-bench run sets up once --------*- C++ -*-===//
//
// The parsed file, the selected programs, the inputs file, the grid, the
// compiler and the oracle (the interpreter on the unoptimised programs),
// with the three things both the comparison and the autotuner do:
// compile programs under a pipeline configuration, prepare a program's
// inputs and reference outputs, and measure one program of one compiled
// variant (verify once, then time).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_SESSION_H
#define FUSEC_TOOLS_BENCH_SESSION_H

#include "Bench.h"
#include "GeneratedTimers.h"
#include "InputGenerator.h"
#include "NativeLibrary.h"
#include "OutputFiles.h"
#include "ProgramSignature.h"
#include "Progress.h"
#include "Report.h"

#include "codegen/interpreter/Interpreter.h"
#include "passes/PipelineConfig.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fusec::bench {

/// Programs compiled under one pipeline configuration, and what runs them.
struct Variant {
  std::string name;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<SharedLibrary> library;   // compiled backends
  /// Compiled backends, when timed: the build with FMA contraction that is timed
  /// (after a check with the FMA tolerances); `library` rounds like the
  /// interpreter and is verified exactly.
  std::unique_ptr<SharedLibrary> timedLibrary;
  std::unique_ptr<Interpreter> interpreter; // interpreter backend
  std::string source;     // compiled backends: the emitted code with the bench shims
  std::string error;                        // the variant failed to build
};

/// One program's arguments (the same for every variant) and the oracle's outputs.
struct PreparedProgram {
  const ProgramSignature *signature = nullptr;
  std::vector<ArgumentValue> inputs;
  std::vector<ArgumentValue> reference;
  std::string inputsNote; // with an input directory: how many arguments came from it
  /// Bytes of the field arguments the reference run read and wrote, each element once.
  uint64_t compulsoryBytes = 0;
};

class BenchSession {
public:
  BenchSession(const BenchOptions &options, llvm::raw_ostream &errs, Progress &progress);
  ~BenchSession();

  /// Parses the file, selects the programs, reads the inputs file, builds the
  /// grid, finds the compiler and prepares the oracle. Prints what failed.
  bool open();

  const std::vector<const ProgramSignature *> &programs() const { return selected; }
  std::vector<std::string> programNames() const;
  RunDescription describe() const;
  /// The whole file as the frontend made it.
  mlir::ModuleOp frontend() { return *module; }
  const Grid &grid() const { return *grid_; }
  int32_t levels() const { return nlev; }

  /// The configuration of variant `name`: `config` is the --config file, any
  /// other name a pipeline for every program (`+` between passes).
  Result<PipelineConfig> configFor(const std::string &name) const;
  /// Compiles `programs` (every selected one when empty) under `config`; with
  /// the options' `emitOnly`, only emits the variant's source.
  /// A failure is recorded in the variant's `error` and printed; with
  /// `announce`, so is the compile time.
  std::unique_ptr<Variant> compile(const std::string &name, const PipelineConfig &config,
                                   const std::vector<std::string> &programs = {},
                                   bool announce = true);
  Result<PreparedProgram> prepare(const ProgramSignature &program);
  /// Verifies `program` on each variant from fresh copies of the inputs, then
  /// times `repeat` runs of each after `warmup` untimed ones, each run from
  /// the initial outputs (restored outside the timed region). The timed runs
  /// go round the variants (run 1 of each, then run 2 of each, ...) so that a
  /// machine whose speed drifts during the measurement slows all variants
  /// alike instead of whichever ran last; all variants hold their fields
  /// meanwhile.
  std::vector<VariantResult> measure(llvm::ArrayRef<Variant *> variants,
                                     const PreparedProgram &program, unsigned warmup,
                                     unsigned repeat);
  /// Whether `variant` left `program` as written (the same IR as the oracle:
  /// domain inference and lowering, no pass).
  bool unchangedByPasses(const Variant &variant, const std::string &program);
  /// Saves the code `variant` was compiled from (when saving outputs).
  void saveSource(const Variant &variant);
  /// Whether a --save-outputs directory could not be written.
  bool savingFailed() const { return saveFailed; }
  /// Writes the --save-outputs manifest (when saving).
  Status finishSaving(const BenchReport &report);

  /// The tolerances of `parameter`'s comparisons: the defaults of its type,
  /// --rtol/--atol, then the inputs file's.
  Tolerances tolerancesFor(const ProgramSignature &program, const Parameter &parameter) const;
  /// The inputs file (empty without one).
  const InputsFile &inputs() const { return inputsFile; }

private:
  bool fail(const std::string &message);
  bool loadModule();
  bool resolveLevels();
  bool selectPrograms();
  bool loadInputsFile();
  bool makeGrid();
  bool makeInputSource();
  bool findCompiler();
  bool compileOracle();
  void saveArguments(const ProgramSignature &program, const std::string &subdirectory,
                     const std::vector<ArgumentValue> &values, bool outputsOnly);

  const BenchOptions &options;
  llvm::raw_ostream &errs;
  Progress &progress;

  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  mlir::OwningOpRef<mlir::ModuleOp> module;    // the whole file
  mlir::OwningOpRef<mlir::ModuleOp> selection; // only the selected programs
  std::vector<ProgramSignature> signatures;    // every program of the file
  std::vector<const ProgramSignature *> selected;
  InputsFile inputsFile;
  int32_t nlev = 0;
  std::optional<Grid> grid_;
  fusec_mesh mesh{};
  InputSource inputSource;
  std::unique_ptr<InputGenerator> generator;
  mlir::OwningOpRef<mlir::ModuleOp> oracleModule;
  std::unique_ptr<Interpreter> oracle;
  /// The oracle's programs in kernel form, for comparing lowered variants.
  mlir::OwningOpRef<mlir::ModuleOp> loweredOracle;
  std::optional<Compiler> compiler;
  std::optional<Compiler> timedCompiler; // see Variant::timedLibrary
  std::string compilerDescription;       // the timed build's (describeCompiler)
  std::optional<OutputDirectory> outputDirectory;
  bool saveFailed = false;
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_SESSION_H
