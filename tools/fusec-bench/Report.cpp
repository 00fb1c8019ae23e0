//===- Report.cpp - what a fusec-bench run found --------------------------===//

#include "Report.h"
#include "ReportTables.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fusec::bench {

bool BenchReport::allPassed() const {
  for (const ProgramResult &program : programs) {
    if (!program.error.empty())
      return false;
    for (const VariantResult &variant : program.variants)
      if (variant.verdict != Verdict::Pass)
        return false;
  }
  return true;
}

const VariantResult *ProgramResult::variant(const std::string &name) const {
  for (const VariantResult &result : variants)
    if (result.variant == name)
      return &result;
  return nullptr;
}

const ProgramResult *BenchReport::program(const std::string &name) const {
  for (const ProgramResult &result : programs)
    if (result.program == name)
      return &result;
  return nullptr;
}

const std::string &BenchReport::baseline() const {
  for (const std::string &variant : variants)
    if (variant == "none")
      return variant;
  return variants.front();
}

static std::optional<double> fasterCopy(const std::optional<CopyBandwidth> &before,
                                        const std::optional<CopyBandwidth> &after) {
  double fastest = 0.0;
  for (const std::optional<CopyBandwidth> &measured : {before, after})
    if (measured)
      fastest = std::max(fastest, measured->bytesPerSecond());
  if (fastest <= 0)
    return std::nullopt;
  return fastest;
}

std::optional<double> BenchReport::limitBandwidth() const { return fasterCopy(copy, copyAfter); }

std::optional<double> BenchReport::streamLimitBandwidth() const {
  return fasterCopy(streamCopy, streamCopyAfter);
}

std::optional<double> BenchReport::copyChange() const {
  if (!copy || !copyAfter || copy->bytesPerSecond() <= 0 || copyAfter->bytesPerSecond() <= 0)
    return std::nullopt;
  double before = copy->bytesPerSecond(), after = copyAfter->bytesPerSecond();
  return std::max(before, after) / std::min(before, after);
}

std::optional<VariantFigures> figuresOf(const BenchReport &report, const ProgramResult &program,
                                        const std::string &variant) {
  const VariantResult *result = program.variant(variant);
  if (!result || !result->timed())
    return std::nullopt;
  VariantFigures figures;
  figures.median = result->time.median;
  if (const VariantResult *baseline = program.variant(report.baseline());
      baseline && baseline->timed() && figures.median > 0)
    figures.speedup = baseline->time.median / figures.median;
  std::optional<double> limit = report.limitBandwidth();
  if (limit && program.compulsoryBytes > 0 && figures.median > 0) {
    figures.bandwidth = double(program.compulsoryBytes) / figures.median;
    figures.timeOverLimit = *figures.bandwidth > 0 ? *limit / *figures.bandwidth : 0.0;
    if (std::optional<double> streamLimit = report.streamLimitBandwidth())
      figures.timeOverStreamLimit =
          *figures.bandwidth > 0 ? *streamLimit / *figures.bandwidth : 0.0;
  }
  return figures;
}

std::optional<KernelFigures> figuresOf(const BenchReport &report, const KernelResult &kernel) {
  if (kernel.bytesPerCall == 0 || kernel.time.median <= 0)
    return std::nullopt;
  KernelFigures figures;
  figures.bandwidth = double(kernel.bytesPerCall) / kernel.time.median;
  if (std::optional<double> limit = report.limitBandwidth())
    figures.timeOverLimit = *limit / figures.bandwidth;
  return figures;
}

std::optional<StepFigures> stepFiguresOf(const BenchReport &report, const std::string &variant) {
  if (!report.step)
    return std::nullopt;
  const ProgramResult *step = report.program(report.step->step);
  const VariantResult *measured = step ? step->variant(variant) : nullptr;
  if (!measured || !measured->timed())
    return std::nullopt;
  StepFigures figures;
  figures.measured = measured->time.median;
  for (const StepCount &call : report.step->calls) {
    const ProgramResult *program = report.program(call.name);
    const VariantResult *result = program ? program->variant(variant) : nullptr;
    if (!result || !result->timed())
      return std::nullopt;
    figures.fromPrograms += call.count * result->time.median;
  }
  return figures;
}

void setVerdict(VariantResult &variant) {
  variant.maxRelativeError = 0.0;
  bool failed = false;
  for (const FieldResult &field : variant.fields) {
    failed |= !field.comparison.passed();
    double error = field.comparison.maxRelativeError;
    if (std::isnan(error) || error > variant.maxRelativeError)
      variant.maxRelativeError = error;
  }
  if (variant.verdict != Verdict::Error)
    variant.verdict = failed ? Verdict::Fail : Verdict::Pass;
}

const char *verdictName(Verdict verdict) {
  switch (verdict) {
  case Verdict::Pass:
    return "PASS";
  case Verdict::Fail:
    return "FAIL";
  case Verdict::Error:
    return "ERROR";
  }
  return "?";
}

std::string formatSeconds(double seconds) {
  const char *unit = "s";
  double value = seconds;
  if (seconds < 1e-3) {
    unit = "us";
    value = seconds * 1e6;
  } else if (seconds < 1.0) {
    unit = "ms";
    value = seconds * 1e3;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g %s", value, unit);
  return buffer;
}

std::string formatError(double error) {
  if (error == 0.0)
    return "0";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2g", error);
  return buffer;
}

/// Every digit of a value (17 significant digits reads back exactly).
static std::string formatValue(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

std::string formatNumber(const char *format, double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

/// Continuation lines of a message, indented under its first line.
static void printIndented(llvm::raw_ostream &os, llvm::StringRef text, unsigned indent) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, false);
  for (size_t i = 0; i < lines.size(); ++i)
    os << (i ? std::string(indent, ' ') : "") << lines[i] << "\n";
}

void printHeader(const BenchReport &report, llvm::raw_ostream &os) {
  const RunDescription &run = report.run;
  os << "fusec-bench: " << run.input << " on " << run.grid << " ("
     << (run.limitedArea ? "limited area" : "global") << ": " << run.cells << " cells, "
     << run.edges << " edges, " << run.vertices << " vertices), nlev " << run.nlev << "\n";
  os << "inputs " << run.inputs << " (seed " << run.seed << "), backend " << run.backend;
  if (run.backend == "cpp")
    os << " (" << run.threads << " OpenMP threads)";
  if (run.layout != "flat")
    os << ", layout " << run.layout;
  if (run.timedWithFma)
    os << " (verified built without FMA contraction, timed built with it)";
  else if (run.backend == "cuda" || run.backend == "cuda-host")
    os << (run.fma ? " (FMA contraction on: rounding differs from the interpreter)"
                   : " (no FMA contraction: rounds like the interpreter)");
  os << ", ";
  if (run.repeat > 0)
    os << run.warmup << " warm-up and " << run.repeat << " timed runs";
  else
    os << "not timed";
  if (run.repeat > 0 && run.evictMiB > 0)
    os << " (caches evicted before each: " << run.evictMiB << " MiB written)";
  os << "; reference: "
     << (run.reference.empty() ? "interpreter on the unoptimised program" : run.reference)
     << "\n";
  if (!run.device.empty())
    os << "device: " << run.device << "\n";
  if (run.cutOff)
    os << "cut off: the run was stopped after the " << report.programs.size()
       << " program(s) below; the others did not run\n";
  if (!run.host.empty())
    os << "host: " << run.host << "\n";
  if (!run.compiler.empty())
    os << "compiler: " << run.compiler << "\n";
  if (report.copy) {
    os << "copy kernel: " << formatNumber("%.3g", report.copy->bytesPerSecond() / 1e9)
       << " GB/s (best of " << report.copy->time.samples << " copies of "
       << report.copy->bytesPerCopy / 2 / (1 << 20) << " MiB)";
    if (report.streamCopy)
      os << "; with non-temporal stores "
         << formatNumber("%.3g", report.streamCopy->bytesPerSecond() / 1e9) << " GB/s";
    os << "\n";
  }
}

/// The widest variant name, at least 8.
static size_t variantWidth(const BenchReport &report) {
  size_t width = 8;
  for (const std::string &variant : report.variants)
    width = std::max(width, variant.size());
  return width;
}

void printProgram(const BenchReport &report, const ProgramResult &program, llvm::raw_ostream &os) {
  size_t width = variantWidth(report);
  os << "\n" << program.program;
  if (!program.inputsNote.empty())
    os << " (" << program.inputsNote << ")";
  os << "\n";
  if (!program.error.empty()) {
    os << "  error: ";
    printIndented(os, program.error, 9);
    return;
  }
  for (const VariantResult &variant : program.variants) {
    bool unchanged = variant.unchanged && variant.verdict == Verdict::Pass;
    os << "  " << llvm::left_justify(variant.variant, width) << "  "
       << llvm::left_justify(unchanged ? "UNCHANGED" : verdictName(variant.verdict), 5);
    if (variant.verdict == Verdict::Error) {
      os << "  ";
      printIndented(os, variant.error, static_cast<unsigned>(width) + 11);
      continue;
    }
    os << "  max rel err " << llvm::left_justify(formatError(variant.maxRelativeError), 8);
    if (unchanged)
      os << "  (the pipeline changed nothing: the program as written)";
    if (variant.time.samples > 0)
      os << "  median " << llvm::right_justify(formatSeconds(variant.time.median), 9) << "  min "
         << llvm::right_justify(formatSeconds(variant.time.min), 9) << "  iqr "
         << llvm::right_justify(formatSeconds(variant.time.interquartileRange()), 9);
    os << "\n";
    for (const FieldResult &field : variant.fields) {
      const FieldComparison &c = field.comparison;
      if (c.passed())
        continue;
      os << "    " << field.name << ": " << c.failures << " of " << c.points
         << " values outside rtol " << formatError(field.tolerances.rtol) << " atol "
         << formatError(field.tolerances.atol) << ", max rel err "
         << formatError(c.maxRelativeError) << ", max abs err " << formatError(c.maxAbsoluteError)
         << "; worst at " << describePosition(field.format, c.worstIndex) << ": "
         << formatValue(c.worstValue) << ", reference " << formatValue(c.worstReference) << "\n";
    }
  }
  bool anyKernels = llvm::any_of(program.variants, [](const VariantResult &v) {
    return v.timed() && !v.kernels.empty();
  });
  if (anyKernels) {
    size_t nameWidth = 0;
    for (const VariantResult &variant : program.variants)
      for (const KernelResult &kernel : variant.kernels)
        nameWidth = std::max(nameWidth, kernel.name.size());
    bool anyTraffic = llvm::any_of(program.variants, [](const VariantResult &v) {
      return llvm::any_of(v.kernels, [](const KernelResult &k) { return k.bytesPerCall > 0; });
    });
    os << "  kernels (median, share of the program's median"
       << (anyTraffic ? "; MB a call reads and writes, achieved GB/s, time over that traffic at "
                        "the copy kernel's bandwidth"
                      : "")
       << "):\n";
    for (const VariantResult &variant : program.variants) {
      if (!variant.timed())
        continue;
      for (auto [index, kernel] : llvm::enumerate(variant.kernels)) {
        os << "    " << llvm::left_justify(index == 0 ? variant.variant : "", width) << "  "
           << llvm::left_justify(kernel.name, nameWidth) << "  "
           << llvm::right_justify(formatSeconds(kernel.time.median), 9) << "  "
           << llvm::right_justify(
                  formatNumber("%.0f%%", 100.0 * kernel.time.median / variant.time.median), 4);
        if (std::optional<KernelFigures> figures = figuresOf(report, kernel)) {
          os << "  "
             << llvm::right_justify(formatNumber("%.1f MB", double(kernel.bytesPerCall) / 1e6), 10)
             << "  " << llvm::right_justify(formatNumber("%.1f GB/s", figures->bandwidth / 1e9), 10);
          if (figures->timeOverLimit)
            os << "  " << formatNumber("%.2f", *figures->timeOverLimit);
        }
        os << "\n";
      }
    }
  }
  os.flush();
}

void printTable(const TableRows &rows, size_t leftColumns, llvm::raw_ostream &os) {
  std::vector<size_t> widths;
  for (const auto &row : rows)
    for (size_t i = 0; i < row.size(); ++i) {
      widths.resize(std::max(widths.size(), row.size()), 0);
      widths[i] = std::max(widths[i], row[i].size());
    }
  for (const auto &row : rows) {
    std::string line = " ";
    for (size_t i = 0; i < row.size(); ++i) {
      size_t pad = widths[i] - row[i].size();
      line += " " + (i < leftColumns ? row[i] + std::string(pad, ' ')
                                     : std::string(pad, ' ') + row[i]);
      line += " ";
    }
    os << llvm::StringRef(line).rtrim() << "\n";
  }
}

/// The rows of the comparison table (header first); shared with the Markdown writer.
TableRows comparisonRows(const BenchReport &report) {
  TableRows rows;
  const bool streamLimit = report.streamLimitBandwidth().has_value();
  rows.push_back({"program", "variant", "median", "speed-up", "MB", "GB/s", "time/limit"});
  if (streamLimit)
    rows.back().push_back("time/nt-limit");
  for (const ProgramResult &program : report.programs) {
    bool first = true;
    for (const VariantResult &variant : program.variants) {
      std::vector<std::string> row{first ? program.program : "", variant.variant};
      std::optional<VariantFigures> figures = figuresOf(report, program, variant.variant);
      if (!figures) {
        row.push_back(variant.verdict == Verdict::Pass ? "not timed" : verdictName(variant.verdict));
        rows.push_back(row);
        first = false;
        continue;
      }
      row.push_back(formatSeconds(figures->median));
      row.push_back(figures->speedup ? formatNumber("%.2fx", *figures->speedup) : "");
      row.push_back(first && program.compulsoryBytes
                        ? formatNumber("%.1f", double(program.compulsoryBytes) / 1e6)
                        : "");
      row.push_back(figures->bandwidth ? formatNumber("%.3g", *figures->bandwidth / 1e9) : "");
      row.push_back(figures->timeOverLimit ? formatNumber("%.2f", *figures->timeOverLimit) : "");
      if (streamLimit)
        row.push_back(figures->timeOverStreamLimit
                          ? formatNumber("%.2f", *figures->timeOverStreamLimit)
                          : "");
      rows.push_back(row);
      first = false;
    }
  }
  return rows;
}

/// "a x2, b x1".
static std::string describeCounts(const std::vector<StepCount> &counts) {
  std::string text;
  for (const StepCount &count : counts)
    text += (text.empty() ? "" : ", ") + count.name + " x" + std::to_string(count.count);
  return text;
}

TableRows stepRows(const BenchReport &report) {
  TableRows rows;
  rows.push_back({"variant", "sum of programs", report.step->step, "difference"});
  for (const std::string &variant : report.variants) {
    std::optional<StepFigures> figures = stepFiguresOf(report, variant);
    if (!figures)
      continue;
    double difference = figures->measured - figures->fromPrograms;
    rows.push_back({variant, formatSeconds(figures->fromPrograms), formatSeconds(figures->measured),
                    (difference < 0 ? "-" : "+") + formatSeconds(std::fabs(difference)) + " (" +
                        formatNumber("%+.1f%%", 100.0 * difference / figures->fromPrograms) +
                        ")"});
  }
  return rows;
}

TableRows openAccRows(const BenchReport &report) {
  TableRows rows;
  std::vector<std::string> header{"timer", "program", "OpenACC ms"};
  for (const std::string &variant : report.variants)
    header.push_back(variant + " ms");
  rows.push_back(header);
  for (const OpenAccTimer &timer : report.openacc->matched) {
    std::vector<std::string> row{timer.timer, timer.program,
                                 formatNumber("%.4g", timer.millisecondsPerCall)};
    const ProgramResult *program = report.program(timer.program);
    for (const std::string &variant : report.variants) {
      const VariantResult *result = program ? program->variant(variant) : nullptr;
      row.push_back(result && result->timed()
                        ? formatNumber("%.4g", 1e3 * result->time.median) + " (" +
                              formatNumber("%.3gx", timer.millisecondsPerCall /
                                                        (1e3 * result->time.median)) +
                              ")"
                        : "");
    }
    rows.push_back(row);
  }
  return rows;
}

std::string stepCallsText(const BenchReport &report) {
  return "calls per step: " + describeCounts(report.step->calls);
}

std::string stepUncoveredText(const BenchReport &report) {
  return report.step->uncovered.empty()
             ? ""
             : "applied by the step but by no program of this run (missing from the sum): " +
                   describeCounts(report.step->uncovered);
}

std::string copyAfterText(const BenchReport &report) {
  if (!report.copy || !report.copyAfter)
    return "";
  auto rates = [](const std::optional<CopyBandwidth> &ordinary,
                  const std::optional<CopyBandwidth> &nonTemporal) {
    std::string text = formatNumber("%.3g", ordinary->bytesPerSecond() / 1e9) + " GB/s";
    if (nonTemporal)
      text += " (" + formatNumber("%.3g", nonTemporal->bytesPerSecond() / 1e9) +
              " with non-temporal stores)";
    return text;
  };
  std::string text = "copy kernel after the programs: " +
                     rates(report.copyAfter, report.streamCopyAfter) + ", before them " +
                     rates(report.copy, report.streamCopy) + "; time/limit uses the faster";
  // Beyond the spread of one machine's copies: its memory bandwidth changed mid-run.
  if (std::optional<double> change = report.copyChange(); change && *change > 1.15)
    text += ". The machine's memory bandwidth changed by " +
            formatNumber("%.0f", (*change - 1) * 100) +
            "% during the run: a program's variants ran interleaved and compare with each other, "
            "its time/limit may not hold for the whole run";
  return text;
}

void printComparison(const BenchReport &report, llvm::raw_ostream &os) {
  if (report.run.repeat == 0)
    return;
  os << "\ncomparison: median time, speed-up against " << report.baseline();
  if (report.copy)
    os << "; MB read and written at least once, achieved GB/s, and time over that traffic at the "
          "copy kernel's bandwidth";
  if (report.streamCopy)
    os << " (time/nt-limit: at the bandwidth of the copy with non-temporal stores)";
  os << "\n";
  if (std::string after = copyAfterText(report); !after.empty())
    os << after << "\n";
  printTable(comparisonRows(report), 2, os);
  if (report.step) {
    os << "\nwhole step " << report.step->step << ": " << stepCallsText(report) << "\n";
    if (std::string uncovered = stepUncoveredText(report); !uncovered.empty())
      os << uncovered << "\n";
    printTable(stepRows(report), 1, os);
  }
  if (report.openacc) {
    os << "\nICON OpenACC timers (" << report.openacc->path
       << "): ms per call, and OpenACC time over fusec's in brackets";
    if (report.openacc->skipped)
      os << "; " << report.openacc->skipped << " timers of no program of this run skipped";
    os << "\n";
    printTable(openAccRows(report), 2, os);
  }
  os.flush();
}

void printSummary(const BenchReport &report, llvm::raw_ostream &os) {
  unsigned passed = 0, total = 0;
  std::vector<std::string> failures;
  for (const ProgramResult &program : report.programs) {
    if (!program.error.empty()) {
      ++total;
      failures.push_back(program.program);
      continue;
    }
    for (const VariantResult &variant : program.variants) {
      ++total;
      if (variant.verdict == Verdict::Pass)
        ++passed;
      else
        failures.push_back(program.program + " [" + variant.variant + "]");
    }
  }
  os << "\nsummary: " << passed << " of " << total << " passed";
  if (!failures.empty()) {
    os << "; failed:";
    for (const std::string &failure : failures)
      os << " " << failure;
  }
  os << "\n";
}

} // namespace fusec::bench
