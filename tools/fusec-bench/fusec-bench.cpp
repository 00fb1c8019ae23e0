//===- fusec-bench.cpp - run, verify and time stencil programs ------------===//
//
// fusec-bench run FILE.stn [--programs P1,P2|all] [--pipelines none,fuse-all,...]
//     [--backend cpp|cuda|interp] [--grid r2b4|lam-r2b4|FILE.nc] [--nlev N]
//     [--inputs random|realistic|DIR] [--seed S] [--repeat N] [--warmup W]
//     [--json F] [--markdown F] [--compare-openacc F] [--autotune --write-config F] ...
//
// fusec-bench pack DIR FILE.stn [run's program, pipeline, grid and inputs options]
//     [--large-grids r2b6,lam-r2b7:21.25] [--large-nlev 80]      (Pack.h)
// fusec-bench report DIR/results/GRID.json [--markdown F] [--json F] (BundleResults.h)
//
// The command line only; the work is done by the FusecBench library (Bench.h).
// docs/bench.md describes every option.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "BundleResults.h"
#include "Pack.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace {

cl::SubCommand runCommand("run", "Compile programs with pipelines, run them on a grid, verify "
                                 "them against the reference interpreter and time them");
cl::SubCommand packCommand(
    "pack", "Write a GPU bundle: the emitted CUDA of every variant, the runtime, small-grid "
            "inputs and interpreter outputs, and a CMake project that verifies and times them "
            "with only CMake, nvcc and a C++ compiler (DIR/run.sh)");
cl::SubCommand reportCommand("report",
                             "Print the tables of a GPU bundle's results (DIR/results/GRID.json) "
                             "as `run` does, and write them as Markdown or run's JSON");
cl::OptionCategory category("fusec-bench run options");
cl::OptionCategory reportCategory("fusec-bench report options");
cl::opt<std::string> reportResults(cl::Positional, cl::Required, cl::desc("<results .json>"),
                                   cl::sub(reportCommand), cl::cat(reportCategory));
cl::OptionCategory packCategory("fusec-bench pack options");

cl::opt<std::string> input(cl::Positional, cl::Required, cl::desc("<input .stn file>"),
                           cl::sub(runCommand), cl::cat(category));
cl::opt<std::string> programs("programs",
                              cl::desc("Programs to run, comma-separated, or 'all' (default)"),
                              cl::value_desc("P1,P2|all"), cl::init("all"), cl::sub(runCommand), cl::sub(packCommand),
                              cl::cat(category));
cl::opt<std::string> pipelines(
    "pipelines",
    cl::desc("Pipeline variants, comma-separated: none, fuse-all, a pass (options in braces), "
             "passes joined by '+', or 'config' (the --config file); default none,fuse-all"),
    cl::value_desc("list"), cl::init("none,fuse-all"), cl::sub(runCommand), cl::sub(packCommand), cl::cat(category));
cl::opt<fusec::bench::Backend> backend(
    "backend", cl::desc("What runs the variants (default cpp)"),
    cl::values(clEnumValN(fusec::bench::Backend::Cpp, "cpp",
                          "emitted C++/OpenMP, compiled with the host compiler ($CXX or c++)"),
               clEnumValN(fusec::bench::Backend::Cuda, "cuda",
                          "emitted CUDA, compiled with nvcc ($NVCC or nvcc), run on the GPU"),
               clEnumValN(fusec::bench::Backend::CudaHost, "cuda-host",
                          "emitted CUDA compiled as host C++ ($CXX or c++) through "
                          "fusec/cuda_host/cuda_runtime.h: kernels run as loops over blocks and "
                          "threads in the order $FUSEC_CUDA_HOST_ORDER names (forward, reverse, "
                          "shuffled), device memory has guard pages"),
               clEnumValN(fusec::bench::Backend::Interpreter, "interp",
                          "the reference interpreter on the optimised program-level IR"),
               clEnumValN(fusec::bench::Backend::InterpreterCppLoops, "interp-cpp",
                          "the reference interpreter on the loop form the C++ backend prints"),
               clEnumValN(fusec::bench::Backend::InterpreterCudaLoops, "interp-cuda",
                          "the reference interpreter on the loop form the CUDA backend prints")),
    cl::init(fusec::bench::Backend::Cpp), cl::sub(runCommand), cl::cat(category));
cl::opt<std::string> grid("grid",
                          cl::desc("rNbK, lam-rNbK[:radius[@lat,lon]] or an ICON grid "
                                   "file (.nc); default r2b4"),
                          cl::value_desc("grid"), cl::init("r2b4"), cl::sub(runCommand), cl::sub(packCommand),
                          cl::cat(category));
cl::opt<int> nlev("nlev", cl::desc("Number of full levels (default: -D nlev, else 80)"),
                  cl::value_desc("N"), cl::sub(runCommand), cl::sub(packCommand), cl::cat(category));
cl::opt<std::string> layout("layout",
                            cl::desc("Field layout of compiled programs: flat (default), "
                                     "blocked:NPROMA (ICON's CPU layout, C++ backend) or "
                                     "columns (blocked:1 with code compiled for it: kernels "
                                     "vectorise over levels; cpp and interp-cpp)"),
                            cl::value_desc("flat|blocked:N|columns"), cl::init("flat"),
                            cl::sub(runCommand),
                            cl::cat(category));
cl::opt<unsigned> steps("steps",
                        cl::desc("Runs per verification and reference, each from the outputs "
                                 "of the one before (time steps; default 1); with --ranks, "
                                 "the calls compared with the one-rank run"),
                        cl::value_desc("N"), cl::init(1), cl::sub(runCommand), cl::cat(category));
cl::opt<std::string> inputs("inputs",
                            cl::desc("random (ICON4Py-style, seeded), realistic (computed "
                                     "coefficients, smooth fields) or a directory of .npy files"),
                            cl::value_desc("random|realistic|DIR"), cl::init("random"),
                            cl::sub(runCommand), cl::sub(packCommand), cl::cat(category));
cl::opt<std::string> inputsFile(
    "inputs-file",
    cl::desc("How to call each program (default: FILE with .stn replaced by .inputs.yaml)"),
    cl::value_desc("file"), cl::sub(runCommand), cl::sub(packCommand), cl::cat(category));
cl::opt<unsigned long long> seed("seed", cl::desc("Seed of random inputs (default 0)"),
                                 cl::value_desc("S"), cl::init(0), cl::sub(runCommand), cl::sub(packCommand),
                                 cl::cat(category));
cl::opt<unsigned> repeat("repeat", cl::desc("Timed runs per variant (default 10; 0: no timing)"),
                         cl::value_desc("N"), cl::init(10), cl::sub(runCommand), cl::cat(category));
cl::opt<unsigned> warmup("warmup", cl::desc("Untimed runs before the timed ones (default 1)"),
                         cl::value_desc("W"), cl::init(1), cl::sub(runCommand), cl::cat(category));
cl::opt<unsigned> evictCaches(
    "evict-caches",
    cl::desc("Write this many MiB of other memory before every run, more than the caches hold, "
             "so that each run reads its data from memory, as in a model step where other "
             "programs ran in between (default 0: a run finds what the one before left in cache)"),
    cl::value_desc("MiB"), cl::init(0), cl::sub(runCommand), cl::cat(category));
cl::opt<bool> kernelTraffic(
    "kernel-traffic",
    cl::desc("Count the bytes each kernel of a compiled variant reads and writes (the "
             "interpreter runs the variant's optimised program once more); the kernel table then "
             "shows MB per call, GB/s and time over the copy kernel's bandwidth"),
    cl::init(false), cl::sub(runCommand), cl::cat(category));
cl::opt<std::string> config("config",
                            cl::desc("Per-program pipeline configuration (YAML): the variant "
                                     "'config', added to --pipelines if absent"),
                            cl::value_desc("file"), cl::sub(runCommand), cl::sub(packCommand), cl::cat(category));
cl::list<std::string> defines("D", cl::Prefix,
                              cl::desc("Fix a scalar parameter or nlev, or set a precision "
                                       "(-D vp=f32), as for fusec"),
                              cl::value_desc("name=value"), cl::sub(runCommand), cl::sub(packCommand), cl::cat(category));
cl::list<std::string> includeDirs("I", cl::Prefix,
                                  cl::desc("Directory searched for imported .stn files"),
                                  cl::value_desc("dir"), cl::sub(runCommand), cl::sub(packCommand), cl::cat(category));
cl::opt<std::string> saveOutputs("save-outputs",
                                 cl::desc("Write every input and output as .npy files here, and the code "
                                          "each variant was compiled from (sources/)"),
                                 cl::value_desc("dir"), cl::sub(runCommand), cl::cat(category));
cl::opt<std::string> json("json", cl::desc("Write the results as JSON (GT4Py metrics layout)"),
                          cl::value_desc("file"), cl::sub(runCommand), cl::sub(reportCommand), cl::cat(category));
cl::opt<double> relativeTolerance("rtol",
                                  cl::desc("Relative tolerance of floating-point outputs (default "
                                           "1e-12 for f64, 1e-5 for f32)"),
                                  cl::sub(runCommand), cl::sub(packCommand), cl::cat(category));
cl::opt<double> absoluteTolerance("atol",
                                  cl::desc("Absolute tolerance of floating-point outputs (default "
                                           "1e-15 for f64, 1e-6 for f32)"),
                                  cl::sub(runCommand), cl::sub(packCommand), cl::cat(category));
cl::opt<std::string> cacheDir("cache-dir",
                              cl::desc("Where compiled libraries are kept (default: "
                                       "$FUSEC_BENCH_CACHE, else bench-cache next to bin/)"),
                              cl::value_desc("dir"), cl::sub(runCommand), cl::cat(category));

cl::opt<bool> fmaContraction(
    "fma",
    cl::desc("Build once, with FMA contraction, and verify that build with the tolerances. "
             "Default: verify a build without contraction (-fmad=false, -ffp-contract=off) "
             "exactly and time a second build with it, checked with the FMA tolerances"),
    cl::init(false), cl::sub(runCommand), cl::cat(category));
cl::opt<std::string> cudaArch("cuda-arch",
                              cl::desc("GPU architecture of --backend cuda (default sm_80)"),
                              cl::value_desc("sm_XY"), cl::init("sm_80"), cl::sub(runCommand),
                              cl::cat(category));
cl::opt<std::string> markdown("markdown", cl::desc("Write the comparison tables as Markdown"),
                              cl::value_desc("file"), cl::sub(runCommand), cl::sub(reportCommand), cl::cat(category));
cl::opt<std::string> compareOpenAcc(
    "compare-openacc",
    cl::desc("ICON OpenACC timers to compare with (bencher JSON: latency_total, num_calls)"),
    cl::value_desc("file"), cl::sub(runCommand), cl::cat(category));
cl::opt<std::string> stepProgram(
    "step",
    cl::desc("The program that is one whole step, for the step's total from its programs "
             "(default diffusion_step)"),
    cl::value_desc("program"), cl::init("diffusion_step"), cl::sub(runCommand), cl::sub(packCommand),
    cl::cat(category));
cl::opt<bool> autotune("autotune",
                       cl::desc("Search per program for the fastest pipeline, recomputation, "
                                "kblock and hblock, instead of comparing --pipelines"),
                       cl::sub(runCommand), cl::cat(category));
cl::opt<std::string> writeConfig("write-config",
                                 cl::desc("With --autotune: write the winners here (YAML)"),
                                 cl::value_desc("file"), cl::sub(runCommand), cl::cat(category));
cl::opt<double> minimumGain("min-gain",
                            cl::desc("With --autotune: the smallest relative drop of the median "
                                     "that keeps a change, from 0 to 1 (default 0.05; 1 keeps "
                                     "none)"),
                            cl::value_desc("fraction"), cl::init(0.05), cl::sub(runCommand),
                            cl::cat(category));

cl::opt<int> ranks(
    "ranks",
    cl::desc("Run each variant decomposed over N MPI ranks (mpirun --oversubscribe -np N "
             "fusec-bench-ranks) and compare the owned points with the one-rank run bit for "
             "bit; report the step time split into compute and exchange"),
    cl::value_desc("N"), cl::sub(runCommand), cl::cat(category));
cl::opt<std::string> rankDir("rank-dir",
                             cl::desc("With --ranks: keep the jobs and results here (default: a "
                                      "temporary directory)"),
                             cl::value_desc("dir"), cl::sub(runCommand), cl::cat(category));

cl::opt<std::string> packDirectory(cl::Positional, cl::Required, cl::desc("<bundle directory>"),
                                   cl::sub(packCommand), cl::cat(packCategory));
cl::opt<std::string> packInput(cl::Positional, cl::Required, cl::desc("<input .stn file>"),
                               cl::sub(packCommand), cl::cat(packCategory));
cl::opt<std::string> largeGrids(
    "large-grids",
    cl::desc("Grids the bundle generates and runs on the GPU machine, comma-separated (default "
             "r2b6 and lam-r2b7:21.25, the size of ICON's regional benchmark grid)"),
    cl::value_desc("list"), cl::init("r2b6,lam-r2b7:21.25"), cl::sub(packCommand),
    cl::cat(packCategory));
cl::opt<int> largeNlev("large-nlev", cl::desc("Levels of the large grids (default 80)"),
                       cl::value_desc("N"), cl::init(80), cl::sub(packCommand),
                       cl::cat(packCategory));

/// What `pack` verifies against the interpreter by default: small enough to
/// pack every diffusion program's inputs and outputs well under 64 MiB.
constexpr const char *kPackGrid = "lam-r2b3";
constexpr int kPackLevels = 10;

/// fusec-bench-ranks next to this executable, when fusec-bench was built with MPI.
std::string rankDriverPath(const char *argv0) {
#ifdef FUSEC_MPIEXEC
  static int anchor;
  SmallString<256> path(sys::fs::getMainExecutable(argv0, &anchor));
  sys::path::remove_filename(path);
  sys::path::append(path, "fusec-bench-ranks");
  return std::string(path);
#else
  (void)argv0;
  return "";
#endif
}

/// mpirun as configured (FindMPI's MPIEXEC_EXECUTABLE), else on the PATH.
std::string mpiexecPath() {
#ifdef FUSEC_MPIEXEC
  if (sys::fs::can_execute(FUSEC_MPIEXEC))
    return FUSEC_MPIEXEC;
#endif
  if (ErrorOr<std::string> found = sys::findProgramByName("mpirun"))
    return *found;
  return "";
}

/// $FUSEC_BENCH_CACHE, else <directory of the executable>/../bench-cache.
std::string defaultCacheDirectory(const char *argv0) {
  if (std::optional<std::string> fromEnvironment = sys::Process::GetEnv("FUSEC_BENCH_CACHE"))
    return *fromEnvironment;
  static int anchor;
  SmallString<256> path(sys::fs::getMainExecutable(argv0, &anchor));
  sys::path::remove_filename(path);
  sys::path::append(path, "..", "bench-cache");
  return std::string(path);
}

} // namespace

/// The options `run` and `pack` share.
void setCommonOptions(fusec::bench::BenchOptions &options) {
  options.programs = fusec::bench::splitList(programs);
  options.pipelines = fusec::bench::splitList(pipelines);
  options.grid = grid;
  if (nlev.getNumOccurrences())
    options.nlev = nlev;
  options.inputs = inputs;
  if (inputsFile.getNumOccurrences())
    options.inputsFile = inputsFile;
  options.seed = seed;
  if (config.getNumOccurrences()) {
    options.configPath = config;
    if (!llvm::is_contained(options.pipelines, "config"))
      options.pipelines.push_back("config");
  }
  options.defines.assign(defines.begin(), defines.end());
  options.includeDirs.assign(includeDirs.begin(), includeDirs.end());
  if (relativeTolerance.getNumOccurrences())
    options.rtol = relativeTolerance;
  if (absoluteTolerance.getNumOccurrences())
    options.atol = absoluteTolerance;
  options.runtimeInclude = FUSEC_RUNTIME_INCLUDE_DIR;
  options.stepProgram = stepProgram;
}

int runPackCommand(int argc, char **argv) {
  fusec::bench::PackOptions options;
  options.bench.inputPath = packInput;
  setCommonOptions(options.bench);
  if (!grid.getNumOccurrences())
    options.bench.grid = kPackGrid;
  if (!nlev.getNumOccurrences())
    options.bench.nlev = kPackLevels;
  options.directory = packDirectory;
  options.largeGrids = fusec::bench::splitList(largeGrids);
  options.largeNlev = largeNlev;
  options.sourceRoot = FUSEC_SOURCE_DIR;
  for (int i = 0; i < argc; ++i)
    options.commandLine += (i ? " " : "") + std::string(i ? argv[i] : "fusec-bench");
  return fusec::bench::runPack(options, outs(), errs());
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions({&category, &packCategory, &reportCategory});
  cl::ParseCommandLineOptions(argc, argv,
                              "fusec-bench: runs, verifies and times stencil "
                              "programs compiled by fusec\n");
  if (packCommand)
    return runPackCommand(argc, argv);
  if (reportCommand) {
    fusec::bench::ReportOptions options;
    options.results = reportResults;
    if (markdown.getNumOccurrences())
      options.markdownPath = markdown;
    if (json.getNumOccurrences())
      options.jsonPath = json;
    return fusec::bench::runReport(options, outs(), errs());
  }
  if (!runCommand) {
    errs() << "fusec-bench: error: expected a command: fusec-bench run FILE.stn [options], "
              "fusec-bench pack DIR FILE.stn [options] or fusec-bench report RESULTS.json "
              "(see fusec-bench run --help)\n";
    return 1;
  }

  fusec::bench::BenchOptions options;
  options.inputPath = input;
  setCommonOptions(options);
  options.backend = backend;
  options.repeat = repeat;
  options.warmup = warmup;
  options.evictMiB = evictCaches;
  options.kernelTraffic = kernelTraffic;
  if (saveOutputs.getNumOccurrences())
    options.saveOutputs = saveOutputs;
  if (json.getNumOccurrences())
    options.jsonPath = json;
  options.cacheDirectory =
      cacheDir.getNumOccurrences() ? std::string(cacheDir) : defaultCacheDirectory(argv[0]);
  options.cudaArch = cudaArch;
  options.fma = fmaContraction;
  if (markdown.getNumOccurrences())
    options.markdownPath = markdown;
  if (compareOpenAcc.getNumOccurrences())
    options.openaccPath = compareOpenAcc;
  options.autotune = autotune;
  if (writeConfig.getNumOccurrences())
    options.writeConfig = writeConfig;
  options.minimumGain = minimumGain;
  if (steps < 1) {
    errs() << "fusec-bench: error: --steps must be at least 1\n";
    return 1;
  }
  options.steps = steps;
  if (layout == "columns") {
    if (backend != fusec::bench::Backend::Cpp &&
        backend != fusec::bench::Backend::InterpreterCppLoops) {
      errs() << "fusec-bench: error: --layout columns is a layout of the C++ backend (--backend "
                "cpp or interp-cpp)\n";
      return 1;
    }
    options.nproma = 1;
    options.columnsLayout = true;
  } else if (layout != "flat") {
    llvm::StringRef text(layout);
    long long nproma = 0;
    if (!text.consume_front("blocked:") || text.getAsInteger(10, nproma) || nproma < 1 ||
        nproma > INT32_MAX) {
      errs() << "fusec-bench: error: --layout takes flat, columns or blocked:N with N from 1 to "
             << INT32_MAX << ", not '" << layout << "'\n";
      return 1;
    }
    options.nproma = nproma;
  }
  if (ranks.getNumOccurrences()) {
    options.ranks = ranks;
    if (ranks < 1) {
      errs() << "fusec-bench: error: --ranks must be at least 1\n";
      return 1;
    }
  }
  if (rankDir.getNumOccurrences())
    options.rankDirectory = rankDir;
  options.rankDriver = rankDriverPath(argv[0]);
  options.mpiexec = mpiexecPath();
  if (!autotune && (writeConfig.getNumOccurrences() || minimumGain.getNumOccurrences())) {
    errs() << "fusec-bench: error: --write-config and --min-gain go with --autotune\n";
    return 1;
  }
  if (minimumGain < 0.0 || minimumGain > 1.0) {
    errs() << "fusec-bench: error: --min-gain must be from 0 to 1\n";
    return 1;
  }
  if (autotune && (config.getNumOccurrences() || saveOutputs.getNumOccurrences() ||
                   pipelines.getNumOccurrences())) {
    errs() << "fusec-bench: error: --autotune searches from fuse-all with its own candidates; "
              "it takes no --config, --pipelines or --save-outputs\n";
    return 1;
  }
  return fusec::bench::runBench(options, outs(), errs());
}
