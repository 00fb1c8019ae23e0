//===- Report.h - what a fusec-bench run found --------------------*- C++ -*-===//

#ifndef FUSEC_TOOLS_BENCH_REPORT_H
#define FUSEC_TOOLS_BENCH_REPORT_H

#include "HostField.h"
#include "Timing.h"
#include "Verification.h"

#include "fusec/status.h"
#include "llvm/Support/raw_ostream.h"

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

struct VariantResult {
  std::string variant;
  Verdict verdict = Verdict::Pass;
  std::string error; // Error: what went wrong
  std::vector<FieldResult> fields;
  double maxRelativeError = 0.0;
  std::vector<double> samples; // seconds per timed run
  TimeSummary time;
};

struct ProgramResult {
  std::string program;
  std::string inputsNote; // with an input directory: how many arguments came from it
  std::string error;      // inputs or oracle failure: no variant ran
  std::vector<VariantResult> variants;
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
  int threads = 1; // OpenMP threads of the compiled variants
  unsigned repeat = 0, warmup = 0;
};

struct BenchReport {
  RunDescription run;
  std::vector<std::string> variants;
  std::vector<ProgramResult> programs;

  bool allPassed() const;
};

/// The verdict of a variant from its field comparisons.
void setVerdict(VariantResult &variant);

/// The human-readable report, deterministic apart from the times: a header,
/// one block per program (printed as soon as it is done) with one line per
/// variant and the details of every failing field, and a summary.
void printHeader(const BenchReport &report, llvm::raw_ostream &os);
void printProgram(const BenchReport &report, const ProgramResult &program, llvm::raw_ostream &os);
void printSummary(const BenchReport &report, llvm::raw_ostream &os);

/// GT4Py's metrics layout, one object per variant:
/// {"<variant>": {"<program>": {"metadata": {...}, "metrics": {"compute": [s, ...]}}}}.
Status writeJsonReport(const BenchReport &report, const std::string &path);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_REPORT_H
