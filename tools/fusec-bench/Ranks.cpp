//===- Ranks.cpp - fusec-bench run --ranks N ------------------------------===//
//
// Compiles the variants as `run` does (the build that rounds like the
// interpreter), writes one job per variant (RankJob.h) and runs it with
// `mpirun --oversubscribe -np N fusec-bench-ranks JOB --result RESULT`, then
// prints per program and variant whether the owned points of the N-rank run
// equal the one-rank run bit for bit, and the step time split into compute
// and exchange (docs/bench.md, "Many ranks").
//
//===----------------------------------------------------------------------===//

#include "Ranks.h"

#include "RankJob.h"
#include "Session.h"
#include "Timing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <unistd.h>

namespace fusec::bench {

namespace {

/// The inputs file `session` read: --inputs-file, else FILE.inputs.yaml when it exists.
std::optional<std::string> inputsFilePath(const BenchOptions &options) {
  if (options.inputsFile)
    return options.inputsFile;
  llvm::SmallString<256> candidate(options.inputPath);
  llvm::sys::path::replace_extension(candidate, ".inputs.yaml");
  if (llvm::sys::fs::exists(candidate))
    return candidate.str().str();
  return std::nullopt;
}

std::string absolute(const std::string &path) {
  llvm::SmallString<256> full(path);
  llvm::sys::fs::make_absolute(full);
  return full.str().str();
}

struct Row {
  std::string program, variant;
  std::optional<RankProgramResult> result;
  std::string error;
};

double maximum(const std::vector<double> &values) {
  return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
}

/// `options` as the session sees them: no timed build with FMA contraction (the ranks run
/// the build that rounds like the interpreter, which the bit-for-bit comparison needs).
BenchOptions withoutTimedBuild(const BenchOptions &options) {
  BenchOptions copy = options;
  copy.repeat = 0;
  return copy;
}

class RankRun {
public:
  RankRun(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs)
      : options(options), sessionOptions(withoutTimedBuild(options)), out(out), errs(errs),
        progress(errs, false), session(sessionOptions, errs, progress) {}
  int run();

private:
  bool fail(const std::string &message) {
    errs << "fusec-bench: error: " << message << "\n";
    return false;
  }
  bool check();
  std::optional<std::vector<RankProgramResult>> runVariant(const Variant &variant,
                                                           const std::string &directory);
  void print(const std::vector<Row> &rows);

  const BenchOptions &options;
  /// The session compiles only the exactly rounding build (no timed FMA build).
  BenchOptions sessionOptions;
  llvm::raw_ostream &out;
  llvm::raw_ostream &errs;
  Progress progress;
  BenchSession session;
};

bool RankRun::check() {
  if (options.ranks < 1)
    return fail("--ranks must be at least 1");
  if (options.steps < 1)
    return fail("--steps must be at least 1");
  if (runsInterpreter(options.backend))
    return fail("--ranks runs compiled code: use --backend cpp, cuda or cuda-host");
  if (options.inputs != "random" && options.inputs != "realistic")
    return fail("--ranks generates its inputs: --inputs must be random or realistic");
  if (options.autotune || options.saveOutputs || options.jsonPath || options.markdownPath ||
      options.openaccPath || options.fma)
    return fail("--ranks takes none of --autotune, --save-outputs, --json, --markdown, "
                "--compare-openacc and --fma");
  if (options.rankDriver.empty() || !llvm::sys::fs::can_execute(options.rankDriver))
    return fail("fusec-bench-ranks not found" +
                (options.rankDriver.empty() ? std::string(" (fusec-bench was built without MPI)")
                                            : " at '" + options.rankDriver + "'"));
  if (options.mpiexec.empty())
    return fail("mpirun not found (scripts/install-deps.sh installs OpenMPI)");
  return true;
}

std::optional<std::vector<RankProgramResult>> RankRun::runVariant(const Variant &variant,
                                                                  const std::string &directory) {
  RankJob job;
  job.library = variant.library->path();
  job.variant = variant.name;
  job.grid = options.grid;
  job.nlev = session.levels();
  job.nproma = int32_t(options.nproma);
  job.inputs = options.inputs;
  job.seed = options.seed;
  if (std::optional<std::string> inputs = inputsFilePath(options))
    job.inputsFile = absolute(*inputs);
  job.steps = options.steps;
  job.repeat = int32_t(options.repeat);
  job.warmup = int32_t(options.warmup);
  for (const ProgramSignature *program : session.programs())
    job.programs.push_back(*program);

  std::string safe = variant.name;
  for (char &c : safe)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
      c = '_';
  std::string jobPath = directory + "/" + safe + ".job";
  std::string resultPath = directory + "/" + safe + ".result";
  llvm::sys::fs::remove(resultPath);
  if (Status status = writeTextFile(jobPath, writeRankJob(job)); !status)
    return fail(status.message()), std::nullopt;

  std::string ranks = std::to_string(options.ranks);
  std::vector<llvm::StringRef> arguments{options.mpiexec, "--oversubscribe", "-np", ranks,
                                         "-x",            "OMP_NUM_THREADS",
                                         options.rankDriver, jobPath, "--result", resultPath};
  errs << "fusec-bench: note: pipeline '" << variant.name << "': "
       << llvm::join(arguments, " ") << "\n";
  errs.flush();
  out.flush();
  std::string message;
  int status = llvm::sys::ExecuteAndWait(options.mpiexec, arguments, std::nullopt, {}, 0, 0,
                                         &message);
  if (status != 0 && !llvm::sys::fs::exists(resultPath)) {
    fail("pipeline '" + variant.name + "': " + options.mpiexec + " exited with " +
         std::to_string(status) + (message.empty() ? "" : ": " + message));
    return std::nullopt;
  }
  Result<std::string> text = readTextFile(resultPath);
  if (!text)
    return fail(text.error()), std::nullopt;
  Result<std::vector<RankProgramResult>> results = parseRankResults(*text);
  if (!results)
    return fail(resultPath + ": " + results.error()), std::nullopt;
  return std::move(*results);
}

void RankRun::print(const std::vector<Row> &rows) {
  const Grid &grid = session.grid();
  out << "\nfusec-bench: " << options.ranks << " rank" << (options.ranks == 1 ? "" : "s")
      << " against one, " << options.grid << " (" << grid.num_cells() << " cells"
      << (grid.limited_area() ? ", limited area" : "") << "), " << session.levels()
      << " levels, " << options.steps << " step" << (options.steps == 1 ? "" : "s")
      << " compared, " << options.repeat << " timed step" << (options.repeat == 1 ? "" : "s")
      << "\n\n";
  out << "| program | pipeline | matches 1 rank | values | step ms (median) | min-max ms | "
         "compute ms | exchange ms | exchange share | exchanges | messages | MB/step |\n";
  out << "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const Row &row : rows) {
    out << "| " << row.program << " | " << row.variant << " | ";
    if (!row.result || !row.result->error.empty()) {
      out << "error: " << (row.result ? row.result->error : row.error)
          << " | | | | | | | | | |\n";
      continue;
    }
    const RankProgramResult &r = *row.result;
    out << (r.match ? "yes" : "NO") << " | " << r.compared << " | ";
    if (r.total.empty()) {
      out << "| | | | | " << llvm::formatv("{0:f0}", r.exchangeCalls) << " | "
          << llvm::formatv("{0:f0}", r.messages) << " | "
          << llvm::formatv("{0:f2}", r.bytes / 1e6) << " |\n";
      continue;
    }
    TimeSummary total = summarizeTimes(r.total);
    TimeSummary compute = summarizeTimes(r.compute);
    TimeSummary exchange = summarizeTimes(r.exchange);
    out << llvm::formatv("{0:f2}", 1e3 * total.median) << " | "
        << llvm::formatv("{0:f2}-{1:f2}", 1e3 * total.min, 1e3 * maximum(r.total)) << " | "
        << llvm::formatv("{0:f2}", 1e3 * compute.median) << " | "
        << llvm::formatv("{0:f2}", 1e3 * exchange.median) << " | "
        << llvm::formatv("{0:f0}%", total.median > 0 ? 100.0 * exchange.median / total.median
                                                      : 0.0)
        << " | " << llvm::formatv("{0:f0}", r.exchangeCalls) << " | "
        << llvm::formatv("{0:f0}", r.messages) << " | "
        << llvm::formatv("{0:f2}", r.bytes / 1e6) << " |\n";
  }
  out << "\nstep: one P_run on every rank between barriers, the slowest rank; exchange: time "
         "inside the exchange callback (waiting for peers included), slowest rank; compute: "
         "the rest, slowest rank; messages and MB: all ranks, per step.\n";
}

int RankRun::run() {
  if (!check() || !session.open())
    return 1;
  std::string directory;
  bool temporary = !options.rankDirectory;
  if (options.rankDirectory) {
    directory = absolute(*options.rankDirectory);
    if (std::error_code error = llvm::sys::fs::create_directories(directory))
      return fail("cannot create '" + directory + "': " + error.message()), 1;
  } else {
    llvm::SmallString<256> made;
    if (std::error_code error = llvm::sys::fs::createUniqueDirectory("fusec-ranks", made))
      return fail("cannot create a temporary directory: " + error.message()), 1;
    directory = made.str().str();
  }
  // OpenMPI refuses root without these; each rank gets its share of the cores.
  if (geteuid() == 0) {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  }
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  setenv("OMP_NUM_THREADS",
         std::to_string(std::max(1u, cores / unsigned(options.ranks))).c_str(), 0);

  std::vector<Row> rows;
  bool allMatched = true;
  for (const std::string &name : options.pipelines) {
    Result<PipelineConfig> config = session.configFor(name);
    std::unique_ptr<Variant> variant;
    std::string error;
    if (!config) {
      error = config.error();
      fail("pipeline '" + name + "': " + error);
    } else {
      variant = session.compile(name, resolveForBackend(*config, options.backend));
      if (!variant->error.empty())
        error = variant->error;
    }
    std::optional<std::vector<RankProgramResult>> results;
    if (error.empty()) {
      results = runVariant(*variant, directory);
      if (!results)
        error = "the ranks did not finish (see above)";
    }
    for (const ProgramSignature *program : session.programs()) {
      Row row{program->name, name, std::nullopt, error};
      if (results)
        for (const RankProgramResult &result : *results)
          if (result.program == program->name)
            row.result = result;
      if (!row.result && row.error.empty())
        row.error = "no result";
      allMatched &= row.result && row.result->error.empty() && row.result->match;
      rows.push_back(std::move(row));
    }
  }
  if (temporary)
    llvm::sys::fs::remove_directories(directory);
  print(rows);
  out.flush();
  return allMatched ? 0 : 1;
}

} // namespace

int runRanks(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  return RankRun(options, out, errs).run();
}

} // namespace fusec::bench
