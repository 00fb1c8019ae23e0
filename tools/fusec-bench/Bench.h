//===- Bench.h - fusec-bench run: compile, run, verify, time ------*- C++ -*-===//
//
// `fusec-bench run FILE` parses a .stn file once; for each pipeline compiles
// the selected programs and (compiled backends) builds one shared library from
// the emitted C++ or CUDA; measures a copy kernel's bandwidth; then, for each
// program, generates identical inputs for every variant, runs the reference
// interpreter on the unoptimised program as the oracle, runs each variant
// (verification on fresh copies of the inputs, then timed runs with the
// emitted code's per-kernel timers), compares every output and reports
// verdicts, times, speed-ups, the memory-bandwidth limit, the whole step and
// ICON's OpenACC timers. With `autotune`, it searches per program for the
// fastest configuration instead (Autotune.h). docs/bench.md describes the
// command line, the inputs file and the outputs.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_BENCH_H
#define FUSEC_TOOLS_BENCH_BENCH_H

#include "passes/PipelineConfig.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fusec::bench {

/// What runs the variants: compiled code, or the reference interpreter on
/// the optimised program-level IR or on the loop form a backend emits.
enum class Backend { Cpp, Cuda, CudaHost, Interpreter, InterpreterCppLoops, InterpreterCudaLoops };

/// Whether `backend` is the reference interpreter (nothing is compiled).
inline bool runsInterpreter(Backend backend) {
  return backend == Backend::Interpreter || backend == Backend::InterpreterCppLoops ||
         backend == Backend::InterpreterCudaLoops;
}

/// Whether `backend` compiles emitted CUDA (on a GPU or through fusec/cuda_host).
inline bool compilesCuda(Backend backend) {
  return backend == Backend::Cuda || backend == Backend::CudaHost;
}

struct BenchOptions {
  std::string inputPath;
  /// Program names, or {"all"}.
  std::vector<std::string> programs{"all"};
  /// Pipeline variants: `none`, `fuse-all`, a pass list with `+` between
  /// passes, or `config` (the per-program choices of `configPath`).
  std::vector<std::string> pipelines{"none", "fuse-all"};
  Backend backend = Backend::Cpp;
  std::string grid = "r2b4";
  /// Default: the value of `-D nlev=N`, else 80.
  std::optional<int32_t> nlev;
  /// `random`, `realistic`, or a directory of .npy files.
  std::string inputs = "random";
  /// Default: FILE with `.stn` replaced by `.inputs.yaml`, when it exists.
  std::optional<std::string> inputsFile;
  uint64_t seed = 0;
  unsigned repeat = 10;
  unsigned warmup = 1;
  /// MiB of other memory written before every run of a variant, so that each starts with its
  /// data in memory rather than where the previous run left it in the caches (0: off).
  unsigned evictMiB = 0;
  /// Count what each kernel of a compiled variant reads and writes by running the variant's
  /// optimised program once in the interpreter (the kernel table then shows MB per call).
  bool kernelTraffic = false;
  std::optional<std::string> configPath;
  std::vector<std::string> defines;
  std::vector<std::string> includeDirs;
  std::optional<std::string> saveOutputs;
  std::optional<std::string> jsonPath;
  /// Replace the default tolerances of every field (the inputs file still wins).
  std::optional<double> rtol, atol;
  std::string cacheDirectory;
  std::string runtimeInclude;
  /// GPU architecture of --backend cuda.
  std::string cudaArch = "sm_80";
  /// Let the compiler contract `a*b+c` into FMAs (nvcc's default). Off, CUDA
  /// builds (cuda, cuda-host) round like the interpreter and verify exactly.
  bool fma = false;
  std::optional<std::string> markdownPath;
  /// ICON's OpenACC timers (bencher JSON) to compare with.
  std::optional<std::string> openaccPath;
  /// The program whose one call is the whole step (weights from its structure).
  std::string stepProgram = "diffusion_step";
  /// Search per program and write the winners to `writeConfig`.
  bool autotune = false;
  std::optional<std::string> writeConfig;
  /// Autotune keeps a change only when the median drops by at least this fraction.
  double minimumGain = 0.05;
  /// fusec-bench pack: emit each variant's source and build nothing (no compiler needed).
  bool emitOnly = false;
  /// Compiled C++ programs run in ICON's blocked layout with this many points
  /// per block (--layout blocked:N); 0: the flat layout.
  int64_t nproma = 0;
  /// --layout columns: nproma 1, and the programs compiled for that layout
  /// (`stn.layout`), so that their kernels vectorise over levels.
  bool columnsLayout = false;
  /// Calls in a row, each from the outputs of the one before, as time steps
  /// (--steps): per verification and reference, and per --ranks comparison.
  unsigned steps = 1;
  /// --ranks N (0: a one-rank run as usual): decomposed over N MPI ranks (Ranks.h).
  int32_t ranks = 0;
  /// --rank-dir: where the jobs and results of --ranks are kept (default: a temporary one).
  std::optional<std::string> rankDirectory;
  /// fusec-bench-ranks (next to fusec-bench; empty when built without MPI) and mpirun.
  std::string rankDriver;
  std::string mpiexec;
};

/// The `targets:` section of a pipeline configuration that applies to code built
/// for `backend`: cpp for cpp, cuda for cuda and cuda-host (the same emitted CUDA);
/// none for the interpreter, which runs no target's code.
std::optional<ConfigTarget> configTargetOf(Backend backend);

/// `config` as it applies to `backend`: resolved for its target, or the top level alone.
PipelineConfig resolveForBackend(const PipelineConfig &config, Backend backend);

/// Splits a --pipelines or --programs value at the commas outside braces.
std::vector<std::string> splitList(const std::string &text);

/// Runs the whole benchmark (or, with `autotune`, the search). The report goes
/// to `out`; errors, notes and the progress bar to `errs`. Returns the exit
/// status: 0 when every variant of every program verified, 1 otherwise (and
/// on any error).
int runBench(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_BENCH_H
