//===- Report.h - what a fusec-bench run found --------------------*- C++ -*-===//

#ifndef FUSEC_TOOLS_BENCH_REPORT_H
#define FUSEC_TOOLS_BENCH_REPORT_H

#include "HostField.h"
#include "MemoryLimit.h"
#include "OpenAccTimers.h"
#include "StepWeights.h"
#include "Timing.h"
#include "Verification.h"

#include "fusec/status.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace fusec::bench {

struct FieldResult {
  std::string name;
  FieldFormat format;
  Tolerances tolerances;
  FieldComparison comparison;
};

enum class Verdict { Pass, Fail, Error };

/// One kernel of a compiled variant, timed by the emitted code's timers.
struct KernelResult {
  std::string name; // the kernel function
  std::vector<double> samples;
  TimeSummary time;
  /// With --kernel-traffic: the bytes one call reads and writes (fields and temporaries, each
  /// element once), counted by the interpreter on the same optimised program; 0: not counted.
  uint64_t bytesPerCall = 0;
};

struct VariantResult {
  std::string variant;
  Verdict verdict = Verdict::Pass;
  /// The pipeline left the program as `-O none` compiles it: its check
  /// validates nothing new, and the report says so instead of PASS.
  bool unchanged = false;
  std::string error; // Error: what went wrong
  std::vector<FieldResult> fields;
  double maxRelativeError = 0.0;
  std::vector<double> samples; // seconds per timed run
  TimeSummary time;
  std::vector<KernelResult> kernels; // by name; empty without the emitted code's timers

  bool timed() const { return verdict == Verdict::Pass && time.samples > 0; }
};

struct ProgramResult {
  std::string program;
  std::string inputsNote; // with an input directory: how many arguments came from it
  std::string error;      // inputs or oracle failure: no variant ran
  uint64_t compulsoryBytes = 0;
  std::vector<VariantResult> variants;

  const VariantResult *variant(const std::string &name) const;
};

struct RunDescription {
  std::string input;
  std::string grid;
  bool limitedArea = false;
  int32_t cells = 0, edges = 0, vertices = 0;
  int32_t nlev = 0;
  std::string inputs; // random, realistic or a directory
  uint64_t seed = 0;
  std::string backend;
  bool fma = false; // CUDA built with FMA contraction
  /// A GPU bundle's results: verified built without FMA contraction, timed
  /// built with it (and checked within looser tolerances).
  bool timedWithFma = false;
  std::string device;    // the GPU (or stand-in) that ran a bundle; empty: this machine
  std::string host;      // this machine (describeHost); empty in a bundle's results
  std::string compiler;  // version and flags of the timed build; empty when interpreted
  std::string reference; // what verified the variants; empty: the interpreter
  int threads = 1; // OpenMP threads of the compiled C++ variants
  std::string layout = "flat"; // of the compiled variants: flat, blocked:N or columns
  unsigned repeat = 0, warmup = 0;
  unsigned evictMiB = 0; // written before every run to evict the caches; 0: not
  /// A bundle's run that was stopped (a time limit) before every selected
  /// program ran: the report holds the programs it finished.
  bool cutOff = false;
};

struct BenchReport {
  RunDescription run;
  std::vector<std::string> variants;
  std::vector<ProgramResult> programs;
  std::optional<CopyBandwidth> copy;       // compiled backends, before the programs
  std::optional<CopyBandwidth> copyAfter;  // the same copy again, after the programs
  // The copy with non-temporal stores (MemoryLimit.h), before and after the programs, where the
  // backend has them.
  std::optional<CopyBandwidth> streamCopy, streamCopyAfter;
  std::optional<StepStructure> step;  // when the step program ran
  std::optional<OpenAccTimers> openacc;

  bool allPassed() const;
  const ProgramResult *program(const std::string &name) const;
  /// What speed-ups are measured against: `none` when it ran, else the first variant.
  const std::string &baseline() const;
  /// The memory-bandwidth limit, bytes per second: the faster of the copies before and after
  /// the programs (STREAM's best rate; the machine's bandwidth may change during a run).
  std::optional<double> limitBandwidth() const;
  /// The same from the copies with non-temporal stores, where they ran.
  std::optional<double> streamLimitBandwidth() const;
  /// How many times faster the faster copy ran than the slower, when both ran.
  std::optional<double> copyChange() const;
};

/// The numbers derived from one program's result in one variant.
struct VariantFigures {
  double median = 0.0;
  std::optional<double> speedup;         // baseline median / median
  std::optional<double> bandwidth;       // compulsory bytes / median, bytes per second
  std::optional<double> timeOverLimit;   // median / (compulsory bytes / copy bandwidth)
  std::optional<double> timeOverStreamLimit; // the same at the non-temporal copy's bandwidth
};
std::optional<VariantFigures> figuresOf(const BenchReport &report, const ProgramResult &program,
                                        const std::string &variant);

/// A kernel's counted traffic (--kernel-traffic) against its median: bytes per second, and
/// time over that traffic at the copy kernel's bandwidth (without a copy kernel: none).
struct KernelFigures {
  double bandwidth = 0.0;
  std::optional<double> timeOverLimit;
};
std::optional<KernelFigures> figuresOf(const BenchReport &report, const KernelResult &kernel);

/// The step's time from its programs' medians (sum of calls x median) and as
/// measured, per variant; absent when a program or the step did not pass.
struct StepFigures {
  double fromPrograms = 0.0;
  double measured = 0.0;
};
std::optional<StepFigures> stepFiguresOf(const BenchReport &report, const std::string &variant);

/// The verdict of a variant from its field comparisons.
void setVerdict(VariantResult &variant);

/// The human-readable report, deterministic apart from the times: a header,
/// one block per program (printed as soon as it is done) with one line per
/// variant, the details of every failing field and the times of each kernel,
/// then the comparison tables (speed-up, bandwidth and limit per program; the
/// whole step; ICON's OpenACC timers) and a summary.
void printHeader(const BenchReport &report, llvm::raw_ostream &os);
void printProgram(const BenchReport &report, const ProgramResult &program, llvm::raw_ostream &os);
void printComparison(const BenchReport &report, llvm::raw_ostream &os);
void printSummary(const BenchReport &report, llvm::raw_ostream &os);

/// The JSON report (docs/bench.md): the run, per variant its metrics in
/// GT4Py's layout ({"<program>": {"metadata": {...}, "metrics": {"compute":
/// [s, ...]}}, "<program>/<kernel>": ...}), and the comparison.
Status writeJsonReport(const BenchReport &report, const std::string &path);
/// The same tables as the terminal comparison, and every kernel, in Markdown.
Status writeMarkdownReport(const BenchReport &report, const std::string &path);

/// "74.8 us", "1.42 s": three significant digits in a readable unit.
std::string formatSeconds(double seconds);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_REPORT_H
