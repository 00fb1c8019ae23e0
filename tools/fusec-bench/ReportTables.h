//===- ReportTables.h - the report's tables, for each output format -*- C++ -*-===//
//
// The comparison, whole-step and OpenACC tables as rows of text (header row
// first), which the terminal report pads and the Markdown report pipes.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_REPORTTABLES_H
#define FUSEC_TOOLS_BENCH_REPORTTABLES_H

#include "Report.h"

#include <string>
#include <vector>

namespace fusec::bench {

using TableRows = std::vector<std::vector<std::string>>;

/// Per program and variant: median, speed-up, compulsory MB, GB/s, time over the limit.
TableRows comparisonRows(const BenchReport &report);
/// Per variant: the step from its programs, as measured, and the difference (needs `step`).
TableRows stepRows(const BenchReport &report);
/// Per ICON timer: its time per call and each variant's (needs `openacc`).
TableRows openAccRows(const BenchReport &report);
/// "calls per step: a x2, b x1".
std::string stepCallsText(const BenchReport &report);
/// The step's applications no program of the run computes; empty when none.
std::string stepUncoveredText(const BenchReport &report);
/// The copy kernel measured again after the programs, against the first; empty without both.
std::string copyAfterText(const BenchReport &report);

/// A fixed-width text table: the first row is the header; columns after the
/// first `leftColumns` are right-aligned.
void printTable(const TableRows &rows, size_t leftColumns, llvm::raw_ostream &os);

const char *verdictName(Verdict verdict);
std::string formatError(double error);
/// printf-style formatting of one number.
std::string formatNumber(const char *format, double value);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_REPORTTABLES_H
