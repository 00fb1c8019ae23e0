//===- Report.cpp - what a fusec-bench run found --------------------------===//

#include "Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

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

static const char *verdictName(Verdict verdict) {
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

/// A duration with three significant digits in a readable unit.
static std::string formatSeconds(double seconds) {
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

static std::string formatError(double error) {
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
  os << ", ";
  if (run.repeat > 0)
    os << run.warmup << " warm-up and " << run.repeat << " timed runs";
  else
    os << "not timed";
  os << "; reference: interpreter on the unoptimised program\n";
}

void printProgram(const BenchReport &report, const ProgramResult &program, llvm::raw_ostream &os) {
  size_t width = 8;
  for (const std::string &variant : report.variants)
    width = std::max(width, variant.size());
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
    os << "  " << llvm::left_justify(variant.variant, width) << "  "
       << llvm::left_justify(verdictName(variant.verdict), 5);
    if (variant.verdict == Verdict::Error) {
      os << "  ";
      printIndented(os, variant.error, static_cast<unsigned>(width) + 11);
      continue;
    }
    os << "  max rel err " << llvm::left_justify(formatError(variant.maxRelativeError), 8);
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

Status writeJsonReport(const BenchReport &report, const std::string &path) {
  llvm::json::Object variants;
  for (const std::string &variant : report.variants) {
    llvm::json::Object programs;
    for (const ProgramResult &program : report.programs)
      for (const VariantResult &result : program.variants) {
        if (result.variant != variant)
          continue;
        const RunDescription &run = report.run;
        llvm::json::Object metadata{
            {"pipeline", variant},
            {"backend", run.backend},
            {"threads", run.threads},
            {"grid", run.grid},
            {"nlev", run.nlev},
            {"inputs", run.inputs},
            {"seed", static_cast<int64_t>(run.seed)},
            {"verdict", verdictName(result.verdict)},
            {"max_relative_error", std::isnan(result.maxRelativeError)
                                       ? llvm::json::Value(nullptr)
                                       : llvm::json::Value(result.maxRelativeError)},
            {"median", result.time.median},
            {"min", result.time.min},
            {"iqr", result.time.interquartileRange()},
        };
        if (!result.error.empty())
          metadata["error"] = result.error;
        llvm::json::Array compute;
        for (double seconds : result.samples)
          compute.push_back(seconds);
        programs[program.program] =
            llvm::json::Object{{"metadata", std::move(metadata)},
                               {"metrics", llvm::json::Object{{"compute", std::move(compute)}}}};
      }
    variants[variant] = std::move(programs);
  }
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_Text);
  if (error)
    return Status::failure("cannot write '" + path + "': " + error.message());
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(variants))) << "\n";
  return Status::success();
}

} // namespace fusec::bench
