//===- BundleResults.h - a GPU bundle's results, read back --------*- C++ -*-===//
//
// A bundle's runner (bundle/BundleRunner.cpp) writes what it measured as
// JSON (format fusec-bundle-results/1, docs/bench.md): the run, the copy
// kernel, the step's structure, and per program and variant the field
// comparisons of the verified build, those of the timed build's FMA check,
// and the timed samples. `fusec-bench report` reads it into the report
// `fusec-bench run` builds, so both print the same tables and files.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_BUNDLERESULTS_H
#define FUSEC_TOOLS_BENCH_BUNDLERESULTS_H

#include "Report.h"

#include "fusec/status.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace fusec::bench {

struct ReportOptions {
  std::string results;
  std::optional<std::string> markdownPath;
  /// fusec-bench run's JSON layout (GT4Py metrics), e.g. for scripts/plot_bench.py.
  std::optional<std::string> jsonPath;
};

/// `fusec-bench report`: prints the tables `run` prints and writes its files.
/// Returns 0 when every variant of every program passed.
int runReport(const ReportOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs);

/// The report of the results file `path`. A failed FMA check of a timed build
/// makes its variant FAIL, with the field listed as "<name> (timed build)".
Result<BenchReport> readBundleResults(const std::string &path);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_BUNDLERESULTS_H
