//===- Autotune.cpp - search per program for the fastest configuration ----===//

#include "Autotune.h"

#include "Report.h"
#include "ReportTables.h"
#include "Session.h"

#include "ir/StnOps.h"
#include "passes/PipelineConfig.h"
#include "passes/Pipelines.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <cstring>

namespace fusec::bench {

namespace {

/// Points per tile of fuse-all's wavefronts tried next to the pass's default (1,024): the best
/// tile differs between hosts (docs/bench.md, "A host that is bound by memory").
constexpr int64_t kWavefrontTiles[] = {256, 2048};

constexpr int64_t kKblocks[] = {2, 4, 8};
constexpr int64_t kHblocks[] = {64, 256, 512};

/// One accepted change of the search, with the medians before and after it.
struct Change {
  std::string what;
  double before = 0.0, after = 0.0;

  std::string describe() const {
    return what + " " + formatNumber("%.2fx", before / after) + " (" + formatSeconds(before) +
           " -> " + formatSeconds(after) + ")";
  }
};

/// What the search chose for one program.
struct ProgramTuning {
  std::string program;
  std::optional<std::string> pipeline;             // when not the start's
  std::map<std::string, StencilChoice> stencils;   // of the stencils it owns
  std::vector<Change> pipelineChanges;             // what justifies `pipeline`
  std::map<std::string, std::vector<Change>> stencilChanges;
  std::optional<double> confirmedBaseline, confirmedTuned;

  bool changed() const { return pipeline || !stencils.empty(); }
  double confirmedGain() const { return *confirmedBaseline / *confirmedTuned; }
};

/// Every stencil `program` (as the frontend made it) applies, and those it calls inside
/// another stencil: the applications without a domain, which domain inference gives them.
void stencilsOf(stn::ProgramOp program, std::vector<std::string> &all,
                std::vector<std::string> &nested) {
  program.walk([&](stn::ApplyOp apply) {
    std::string name = apply.getName().value_or("").str();
    if (!llvm::is_contained(all, name))
      all.push_back(name);
    if (!apply.hasHorizontalDomain() && !apply.hasVerticalDomain() &&
        !llvm::is_contained(nested, name))
      nested.push_back(name);
  });
}

class Autotuner {
public:
  Autotuner(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs)
      : options(options), out(out),
        progress(errs, llvm::sys::Process::StandardErrIsDisplayed()),
        session(options, errs, progress) {}

  int run();

private:
  bool fail(const std::string &message) {
    progress.note("fusec-bench: error: " + message);
    return false;
  }
  /// Reads an existing --write-config file, whose top level is where the search starts.
  bool readWrittenFile();
  /// What the search starts from and compares with: `fuse-all`, or the top level of the
  /// --write-config file when that makes choices.
  std::string baselineName() const;
  /// Every program's choices so far, as a target section (with reasons when `explained`).
  TargetChoices tunedChoices(bool explained) const;
  /// The configuration measured: the baseline overlaid by the choices so far.
  PipelineConfig configuration() const;
  /// Median of `program` compiled alone under `config`; none when it fails to verify.
  std::optional<double> evaluate(const PipelineConfig &config, const PreparedProgram &program,
                                 const std::string &what);
  void tune(const ProgramSignature &program);
  /// Times every program under the baseline and under the configuration.
  bool confirm();
  std::string reasonFor(const ProgramTuning &tuning, const std::vector<Change> &changes) const;
  bool writeConfiguration();
  void printResults();

  const BenchOptions &options;
  llvm::raw_ostream &out;
  Progress progress;
  BenchSession session;
  /// The --write-config file as it was (empty when it did not exist); the search starts
  /// from its top level and replaces only this backend's section.
  PipelineConfig written;
  PipelineConfig baseline;
  ConfigTarget target = ConfigTarget::Cpp; // this backend's section, set by run()
  std::vector<ProgramTuning> tunings;
  std::map<std::string, std::string> owners; // stencil -> the program that tunes it
  unsigned candidate = 0;
};

bool Autotuner::readWrittenFile() {
  if (!options.writeConfig || !llvm::sys::fs::exists(*options.writeConfig))
    return true;
  // A file that does not read would be lost when rewritten: stop before the search.
  std::string error;
  if (!loadPipelineConfig(*options.writeConfig, written, error)) {
    progress.note(error); // already `file:line:col: error: message`
    progress.note("fusec-bench: note: --write-config keeps the rest of an existing file, so "
                  "it must read");
    return false;
  }
  baseline = written.topLevel();
  return true;
}

std::string Autotuner::baselineName() const {
  if (baseline.defaultPipeline == "fuse-all" && baseline.programs.empty() &&
      baseline.stencils.empty())
    return "fuse-all";
  return "the top level of " + llvm::sys::path::filename(*options.writeConfig).str();
}

TargetChoices Autotuner::tunedChoices(bool explained) const {
  TargetChoices choices;
  for (const ProgramTuning &tuning : tunings) {
    if (tuning.pipeline)
      choices.programs[tuning.program] = {
          *tuning.pipeline, explained ? reasonFor(tuning, tuning.pipelineChanges) : "autotuned"};
    for (const auto &[stencil, choice] : tuning.stencils) {
      StencilChoice &entry = choices.stencils[stencil] = choice;
      entry.reason =
          explained ? reasonFor(tuning, tuning.stencilChanges.at(stencil)) : "autotuned";
    }
  }
  return choices;
}

PipelineConfig Autotuner::configuration() const {
  // The same overlay as `fusec --config` applies to the written file, so what is measured
  // is what the file will give this target.
  PipelineConfig config = baseline;
  config.targets[target] = tunedChoices(/*explained=*/false);
  return config.forTarget(target);
}

std::optional<double> Autotuner::evaluate(const PipelineConfig &config,
                                          const PreparedProgram &program,
                                          const std::string &what) {
  const std::string &name = program.signature->name;
  progress.advance(name + ": " + what);
  std::unique_ptr<Variant> variant = session.compile(
      "candidate " + std::to_string(++candidate), config, {name}, /*announce=*/false);
  VariantResult result =
      std::move(session.measure({variant.get()}, program, options.warmup, options.repeat)[0]);
  if (!result.timed()) {
    progress.note("fusec-bench: note: " + name + ": " + what + " rejected (" +
                  (result.verdict == Verdict::Error ? "error: " + result.error
                                                    : std::string("does not verify")) +
                  ")");
    return std::nullopt;
  }
  return result.time.median;
}

void Autotuner::tune(const ProgramSignature &signature) {
  const std::string &name = signature.name;
  auto program = mlir::cast<stn::ProgramOp>(
      mlir::SymbolTable::lookupSymbolIn(session.frontend(), name));
  std::vector<std::string> applied, nested, own, producers;
  stencilsOf(program, applied, nested);
  for (const std::string &stencil : applied)
    if (owners.emplace(stencil, name).first->second == name) {
      own.push_back(stencil);
      if (llvm::is_contained(nested, stencil))
        producers.push_back(stencil);
    }
  const std::string &startPipeline = baseline.pipelineFor(name);
  std::vector<std::string> pipelines;
  bool wavefronts = target == ConfigTarget::Cpp && options.columnsLayout;
  for (const std::string &pipeline : pipelineCandidates(startPipeline, wavefronts))
    pipelines.push_back("pipeline " + pipeline);
  // Per own stencil on the C++ backend: split_gathers, and prefetch in the columns layout.
  size_t perStencil = target != ConfigTarget::Cpp ? 0 : options.columnsLayout ? 2 : 1;
  progress.expect(static_cast<unsigned>(
      2 + pipelines.size() + producers.size() + perStencil * own.size() +
      (own.empty() ? 0 : std::size(kKblocks) + std::size(kHblocks))));
  progress.advance(name + ": inputs and reference");
  Result<PreparedProgram> prepared = session.prepare(signature);
  if (!prepared) {
    fail(name + ": " + prepared.error());
    return;
  }

  tunings.push_back({name});
  std::optional<double> best =
      evaluate(configuration(), *prepared, "start (" + baselineName() + ")");
  if (!best) {
    fail(name + ": the start (" + baselineName() + ") does not verify; not tuned");
    return;
  }
  // Tries `change` on the current choices; keeps it when it gains enough. Returns what
  // was kept.
  auto attempt = [&](const std::string &what, auto &&change) -> std::optional<std::string> {
    ProgramTuning saved = tunings.back();
    change(tunings.back());
    std::optional<double> median = evaluate(configuration(), *prepared, what);
    if (median && *median < *best * (1.0 - options.minimumGain)) {
      best = median;
      return what;
    }
    tunings.back() = saved;
    return std::nullopt;
  };
  // One stage: alternatives for the same choice; the last one kept wins, and the stage's
  // gain is from its start to its end.
  auto stage = [&](const std::vector<std::string> &names, auto &&change) -> std::optional<Change> {
    double start = *best;
    std::optional<std::string> kept;
    for (const std::string &name : names)
      if (std::optional<std::string> what = attempt(name, [&](ProgramTuning &t) { change(t, name); }))
        kept = what;
    if (!kept)
      return std::nullopt;
    return Change{*kept, start, *best};
  };

  if (std::optional<Change> change = stage(pipelines, [&](ProgramTuning &t, const std::string &n) {
        t.pipeline = n.substr(std::strlen("pipeline "));
      }))
    tunings.back().pipelineChanges.push_back(*change);
  if (tunings.back().pipeline.value_or(startPipeline) != "none")
    for (const std::string &stencil : producers)
      if (std::optional<Change> change =
              stage({"recompute false on " + stencil},
                    [&](ProgramTuning &t, const std::string &) {
                      t.stencils[stencil].recompute = false;
                    }))
        tunings.back().stencilChanges[stencil].push_back(*change);
  if (own.empty())
    return;
  auto onOwnStencils = [&](const char *knob, const int64_t *values, size_t count,
                           std::optional<int64_t> StencilChoice::*member) {
    std::vector<std::string> names;
    for (size_t i = 0; i < count; ++i)
      names.push_back(std::string(knob) + " " + std::to_string(values[i]));
    std::optional<Change> change = stage(names, [&](ProgramTuning &t, const std::string &n) {
      int64_t value = std::stoll(n.substr(std::strlen(knob) + 1));
      for (const std::string &stencil : own)
        t.stencils[stencil].*member = value;
    });
    if (change)
      for (const std::string &stencil : own)
        tunings.back().stencilChanges[stencil].push_back(*change);
  };
  onOwnStencils("kblock", kKblocks, std::size(kKblocks), &StencilChoice::kblock);
  onOwnStencils("hblock", kHblocks, std::size(kHblocks), &StencilChoice::hblock);
  // Per stencil on the C++ backend: splitting the gathers off pays for some kernels and loses
  // for others; in the columns layout, so does stn-prefetch-columns' rule, tried turned off.
  auto eachOwnStencil = [&](const std::string &knob, std::optional<bool> StencilChoice::*member,
                            bool value) {
    for (const std::string &stencil : own)
      if (std::optional<Change> change = stage(
              {knob + " on " + stencil},
              [&](ProgramTuning &t, const std::string &) { t.stencils[stencil].*member = value; }))
        tunings.back().stencilChanges[stencil].push_back(*change);
  };
  if (target == ConfigTarget::Cpp)
    eachOwnStencil("split_gathers", &StencilChoice::splitGathers, true);
  if (target == ConfigTarget::Cpp && options.columnsLayout)
    eachOwnStencil("prefetch false", &StencilChoice::prefetch, false);
}

bool Autotuner::confirm() {
  std::unique_ptr<Variant> base = session.compile("baseline", baseline, {}, /*announce=*/false);
  std::unique_ptr<Variant> tuned =
      session.compile("autotuned", configuration(), {}, /*announce=*/false);
  if (!base->error.empty() || !tuned->error.empty())
    return false;
  unsigned repeat = 2 * std::max(options.repeat, 1u);
  progress.expect(static_cast<unsigned>(tunings.size()));
  for (ProgramTuning &tuning : tunings) {
    const ProgramSignature *signature = nullptr;
    for (const ProgramSignature *program : session.programs())
      if (program->name == tuning.program)
        signature = program;
    progress.advance(tuning.program + ": confirmation");
    Result<PreparedProgram> prepared = session.prepare(*signature);
    if (!prepared)
      return fail(tuning.program + ": " + prepared.error());
    std::vector<VariantResult> confirmed =
        session.measure({base.get(), tuned.get()}, *prepared, options.warmup, repeat);
    const VariantResult &before = confirmed[0], &after = confirmed[1];
    if (!before.timed() || !after.timed())
      return fail(tuning.program + ": the confirmation run failed");
    tuning.confirmedBaseline = before.time.median;
    tuning.confirmedTuned = after.time.median;
  }
  return true;
}

std::string Autotuner::reasonFor(const ProgramTuning &tuning,
                                 const std::vector<Change> &changes) const {
  RunDescription run = session.describe();
  std::string where =
      run.grid + ", " + std::to_string(run.nlev) + " levels, " + run.backend +
      (run.backend == "cpp"
           ? ", " + std::to_string(run.threads) + (run.threads == 1 ? " thread" : " threads")
           : "");
  std::vector<std::string> steps;
  for (const Change &change : changes)
    steps.push_back(change.describe());
  return "fusec-bench --autotune (" + where + "), " + tuning.program + ": " +
         llvm::join(steps, ", ") + "; all its choices " +
         formatNumber("%.2fx", tuning.confirmedGain()) + " faster than " + baselineName() +
         " (confirmed " + formatSeconds(*tuning.confirmedBaseline) + " -> " +
         formatSeconds(*tuning.confirmedTuned) + ")";
}

bool Autotuner::writeConfiguration() {
  PipelineConfig file = written;
  file.targets[target] = tunedChoices(/*explained=*/true);
  RunDescription run = session.describe();
  std::string text = printPipelineConfig(
      file, "targets: " + std::string(configTargetName(target)) +
                ": written by fusec-bench --autotune on " + run.grid + " with " +
                std::to_string(run.nlev) + " levels (" + run.backend + " backend" +
                (run.host.empty() ? "" : "; " + run.host) +
                "); every entry says what it gained.");
  std::error_code error;
  llvm::raw_fd_ostream os(*options.writeConfig, error, llvm::sys::fs::OF_Text);
  if (error)
    return fail("cannot write '" + *options.writeConfig + "': " + error.message());
  os << text;
  return true;
}

void Autotuner::printResults() {
  TableRows rows{{"program", baselineName(), "tuned", "gain"}};
  std::vector<std::string> lines;
  for (const ProgramTuning &tuning : tunings) {
    std::vector<std::string> choices;
    if (tuning.pipeline)
      choices.push_back("pipeline " + *tuning.pipeline);
    for (const auto &[stencil, choice] : tuning.stencils) {
      std::vector<std::string> set;
      if (choice.recompute)
        set.push_back("recompute false");
      if (choice.kblock)
        set.push_back("kblock " + std::to_string(*choice.kblock));
      if (choice.hblock)
        set.push_back("hblock " + std::to_string(*choice.hblock));
      if (choice.splitGathers)
        set.push_back("split_gathers");
      if (choice.prefetch)
        set.push_back(*choice.prefetch ? "prefetch" : "prefetch false");
      choices.push_back(stencil + ": " + llvm::join(set, ", "));
    }
    bool confirmed = tuning.confirmedBaseline && tuning.confirmedTuned;
    rows.push_back({tuning.program, confirmed ? formatSeconds(*tuning.confirmedBaseline) : "",
                    confirmed ? formatSeconds(*tuning.confirmedTuned) : "",
                    confirmed ? formatNumber("%.2fx", tuning.confirmedGain()) : ""});
    lines.push_back("  " + tuning.program + ": " +
                    (choices.empty() ? baselineName() : llvm::join(choices, "; ")));
  }
  out << "\nautotune: medians under " << baselineName()
      << " and under the tuned configuration (confirmation run)\n";
  printTable(rows, 1, out);
  out << "\nchoices:\n" << llvm::join(lines, "\n") << "\n";
}

int Autotuner::run() {
  if (!session.open())
    return 1;
  if (runsInterpreter(options.backend)) {
    fail("--autotune times compiled code: use --backend cpp or cuda");
    return 1;
  }
  target = *configTargetOf(options.backend);
  if (!readWrittenFile())
    return 1;
  BenchReport header;
  header.run = session.describe();
  printHeader(header, out);
  out.flush();
  for (const ProgramSignature *program : session.programs())
    tune(*program);
  if (!confirm())
    return 1;
  // A program whose choices do not hold up in the confirmation keeps the baseline.
  bool dropped = false;
  for (ProgramTuning &tuning : tunings)
    if (tuning.changed() && tuning.confirmedGain() < 1.0 + options.minimumGain) {
      progress.note("fusec-bench: note: " + tuning.program + ": " +
                    formatNumber("%.2fx", tuning.confirmedGain()) +
                    " in the confirmation, below --min-gain: keeps " + baselineName());
      tuning.pipeline.reset();
      tuning.stencils.clear();
      dropped = true;
    }
  if (dropped && !confirm())
    return 1;
  progress.clear();
  printResults();
  out.flush();
  if (options.writeConfig && !writeConfiguration())
    return 1;
  return 0;
}

} // namespace

std::vector<std::string> pipelineCandidates(const std::string &start, bool wavefronts) {
  std::vector<std::string> candidates;
  std::vector<std::string> pipelines = {"fuse-all",
                                        "none",
                                        fuseAllPipeline("{bytes-weight=2}"),
                                        fuseAllPipeline("{bytes-weight=32}"),
                                        fuseAllPipeline("{gather-weight=2}"),
                                        fuseAllPipeline("", /*mergeVertical=*/false)};
  if (wavefronts)
    for (int64_t tile : kWavefrontTiles)
      pipelines.push_back(fuseAllPipeline("", /*mergeVertical=*/true, tile));
  for (const std::string &pipeline : pipelines)
    if (pipeline != start)
      candidates.push_back(pipeline);
  return candidates;
}

int runAutotune(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  return Autotuner(options, out, errs).run();
}

} // namespace fusec::bench
