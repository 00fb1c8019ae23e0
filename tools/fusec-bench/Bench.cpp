//===- Bench.cpp - fusec-bench run: compile, run, verify, time ------------===//

#include "Bench.h"
#include "Ranks.h"

#include "Autotune.h"
#include "MemoryLimit.h"
#include "OpenAccTimers.h"
#include "Progress.h"
#include "Report.h"
#include "Session.h"
#include "StepWeights.h"

#include "passes/Pipelines.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Process.h"

namespace fusec::bench {

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> items;
  std::string current;
  int depth = 0;
  for (char c : text) {
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (c == ',' && depth == 0) {
      items.push_back(llvm::StringRef(current).trim().str());
      current.clear();
      continue;
    }
    current += c;
  }
  items.push_back(llvm::StringRef(current).trim().str());
  return items;
}

std::optional<ConfigTarget> configTargetOf(Backend backend) {
  switch (backend) {
  case Backend::Cpp:
  case Backend::InterpreterCppLoops: return ConfigTarget::Cpp;
  case Backend::Cuda:
  case Backend::CudaHost:
  case Backend::InterpreterCudaLoops: return ConfigTarget::Cuda;
  case Backend::Interpreter: return std::nullopt;
  }
  return std::nullopt;
}

PipelineConfig resolveForBackend(const PipelineConfig &config, Backend backend) {
  std::optional<ConfigTarget> target = configTargetOf(backend);
  return target ? config.forTarget(*target) : config.topLevel();
}

namespace {

/// The side-by-side comparison of every pipeline on every selected program.
class Comparison {
public:
  Comparison(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs)
      : options(options), out(out),
        progress(errs, llvm::sys::Process::StandardErrIsDisplayed()),
        session(options, errs, progress) {}

  int run();

private:
  bool fail(const std::string &message) {
    progress.note("fusec-bench: error: " + message);
    return false;
  }
  void compileVariants();
  void measureCopies(std::optional<CopyBandwidth> &ordinary,
                     std::optional<CopyBandwidth> &nonTemporal);
  ProgramResult runProgram(const ProgramSignature &program);
  bool writeFiles();

  const BenchOptions &options;
  llvm::raw_ostream &out;
  Progress progress;
  BenchSession session;
  std::vector<std::unique_ptr<Variant>> variants;
  BenchReport report;
};

void Comparison::compileVariants() {
  for (const std::string &name : options.pipelines) {
    if (llvm::is_contained(report.variants, name))
      continue;
    progress.advance("compiling " + name);
    report.variants.push_back(name);
    Result<PipelineConfig> config = session.configFor(name);
    if (!config) {
      auto failed = std::make_unique<Variant>();
      failed->name = name;
      failed->error = config.error();
      fail("pipeline '" + name + "': " + failed->error);
      variants.push_back(std::move(failed));
      continue;
    }
    variants.push_back(session.compile(name, resolveForBackend(*config, options.backend)));
    session.saveSource(*variants.back());
  }
}

/// The copy kernels of the first compiled library, when times are taken: the ordinary one, and
/// the one with non-temporal stores where the library has it.
void Comparison::measureCopies(std::optional<CopyBandwidth> &ordinary,
                               std::optional<CopyBandwidth> &nonTemporal) {
  if (options.repeat == 0)
    return;
  // Device memory has its own caches; host memory is measured past the host's.
  const int64_t elements = options.backend == Backend::Cuda ? kCopyElements : hostCopyElements();
  for (const auto &variant : variants) {
    if (!variant->library)
      continue;
    Result<CopyBandwidth> copy =
        measureCopyBandwidth(*variant->library, options.repeat, CopyStores::Ordinary, elements);
    if (!copy) {
      fail(copy.error() + " (no memory-bandwidth limit in this report)");
      return;
    }
    ordinary = *copy;
    if (!hasCopyKernel(*variant->library, CopyStores::NonTemporal))
      return;
    Result<CopyBandwidth> streamed =
        measureCopyBandwidth(*variant->library, options.repeat, CopyStores::NonTemporal, elements);
    if (streamed)
      nonTemporal = *streamed;
    else
      fail(streamed.error() + " (no time/nt-limit in this report)");
    return;
  }
}

ProgramResult Comparison::runProgram(const ProgramSignature &program) {
  ProgramResult result;
  result.program = program.name;
  progress.advance(program.name + ": inputs and reference");
  Result<PreparedProgram> prepared = session.prepare(program);
  // What the reference run touched; the whole fields where it could not run.
  result.compulsoryBytes = prepared ? prepared->compulsoryBytes
                                    : compulsoryBytes(program, session.grid(), session.levels());
  if (!prepared) {
    result.error = prepared.error();
    for (size_t i = 0; i < variants.size(); ++i)
      progress.advance(program.name);
    return result;
  }
  result.inputsNote = prepared->inputsNote;
  std::vector<Variant *> measured;
  for (const auto &variant : variants)
    measured.push_back(variant.get());
  result.variants = session.measure(measured, *prepared, options.warmup, options.repeat);
  for (auto [variant, measuredResult] : llvm::zip_equal(variants, result.variants))
    measuredResult.unchanged =
        variant->name != "none" && session.unchangedByPasses(*variant, program.name);
  for (const auto &variant : variants)
    progress.advance(program.name + ": " + variant->name);
  if (program.name == options.stepProgram && session.programs().size() > 1) {
    Result<StepStructure> step = deriveStepStructure(session.frontend(), program,
                                                     prepared->inputs, session.programNames());
    if (step)
      report.step = std::move(*step);
    else
      fail(step.error());
  }
  return result;
}

bool Comparison::writeFiles() {
  bool written = true;
  if (Status status = session.finishSaving(report); !status)
    written = fail(status.message());
  if (options.jsonPath)
    if (Status status = writeJsonReport(report, *options.jsonPath); !status)
      written = fail(status.message());
  if (options.markdownPath)
    if (Status status = writeMarkdownReport(report, *options.markdownPath); !status)
      written = fail(status.message());
  return written;
}

int Comparison::run() {
  if (!session.open())
    return 1;
  if (options.openaccPath) {
    Result<OpenAccTimers> timers = readOpenAccTimers(*options.openaccPath, session.programNames());
    if (!timers)
      return fail(timers.error()), 1;
    report.openacc = std::move(*timers);
  }
  report.run = session.describe();
  size_t programs = session.programs().size();
  progress.expect(static_cast<unsigned>(options.pipelines.size() +
                                        programs * (1 + options.pipelines.size())));
  compileVariants();
  measureCopies(report.copy, report.streamCopy);

  progress.clear();
  printHeader(report, out);
  for (const ProgramSignature *program : session.programs()) {
    report.programs.push_back(runProgram(*program));
    progress.clear();
    printProgram(report, report.programs.back(), out);
  }
  // Again after the programs: a shared machine's bandwidth can change during a long run.
  if (report.copy)
    measureCopies(report.copyAfter, report.streamCopyAfter);
  progress.clear();
  printComparison(report, out);
  printSummary(report, out);
  out.flush();
  bool written = writeFiles();
  return report.allPassed() && written && !session.savingFailed() ? 0 : 1;
}

} // namespace

int runBench(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  // Textual pipelines (`stn-map-fusion+cse`) name passes through MLIR's registry.
  registerPipelinePasses();
  if (options.pipelines.empty() || llvm::is_contained(options.pipelines, "")) {
    errs << "fusec-bench: error: --pipelines needs a comma-separated list of pipelines\n";
    return 1;
  }
  if (llvm::is_contained(options.pipelines, "config") && !options.configPath) {
    errs << "fusec-bench: error: the pipeline 'config' needs --config FILE\n";
    return 1;
  }
  if (options.autotune && options.ranks == 0)
    return runAutotune(options, out, errs);
  if (options.rankDirectory && options.ranks == 0) {
    errs << "fusec-bench: error: --rank-dir goes with --ranks\n";
    return 1;
  }
  if (options.ranks != 0)
    return runRanks(options, out, errs);
  return Comparison(options, out, errs).run();
}

} // namespace fusec::bench
