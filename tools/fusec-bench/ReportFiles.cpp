//===- ReportFiles.cpp - the report as JSON and as Markdown ---------------===//

#include "Report.h"
#include "ReportTables.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

namespace fusec::bench {

static llvm::json::Value optionalNumber(std::optional<double> value) {
  return value && std::isfinite(*value) ? llvm::json::Value(*value) : llvm::json::Value(nullptr);
}

static llvm::json::Array samplesOf(const std::vector<double> &seconds) {
  llvm::json::Array array;
  for (double value : seconds)
    array.push_back(value);
  return array;
}

/// One variant's GT4Py metrics: an entry per program and per kernel.
static llvm::json::Object metricsOf(const BenchReport &report, const std::string &variant) {
  const RunDescription &run = report.run;
  llvm::json::Object entries;
  for (const ProgramResult &program : report.programs) {
    const VariantResult *result = program.variant(variant);
    if (!result)
      continue;
    llvm::json::Object metadata{
        {"name", program.program},
        {"kind", "program"},
        {"pipeline", variant},
        {"backend", run.backend},
        {"threads", run.threads},
        {"grid", run.grid},
        {"nlev", run.nlev},
        {"inputs", run.inputs},
        {"seed", static_cast<int64_t>(run.seed)},
        {"verdict", verdictName(result->verdict)},
        {"max_relative_error", optionalNumber(result->maxRelativeError)},
        {"median", result->time.median},
        {"min", result->time.min},
        {"iqr", result->time.interquartileRange()},
    };
    if (!result->error.empty())
      metadata["error"] = result->error;
    entries[program.program] =
        llvm::json::Object{{"metadata", std::move(metadata)},
                           {"metrics", llvm::json::Object{{"compute", samplesOf(result->samples)}}}};
    for (const KernelResult &kernel : result->kernels) {
      llvm::json::Object kernelMetadata{{"name", kernel.name},
                                        {"kind", "kernel"},
                                        {"program", program.program},
                                        {"pipeline", variant},
                                        {"backend", run.backend},
                                        {"median", kernel.time.median}};
      if (kernel.bytesPerCall > 0) // counted with --kernel-traffic
        kernelMetadata["bytes_per_call"] = static_cast<int64_t>(kernel.bytesPerCall);
      entries[program.program + "/" + kernel.name] =
          llvm::json::Object{{"metadata", std::move(kernelMetadata)},
                             {"metrics", llvm::json::Object{{"compute", samplesOf(kernel.samples)}}}};
    }
  }
  return entries;
}

static llvm::json::Object comparisonOf(const BenchReport &report) {
  llvm::json::Object programs;
  for (const ProgramResult &program : report.programs) {
    llvm::json::Object variants;
    for (const VariantResult &result : program.variants) {
      llvm::json::Object entry{{"verdict", verdictName(result.verdict)},
                               {"unchanged", result.unchanged}};
      if (std::optional<VariantFigures> figures = figuresOf(report, program, result.variant)) {
        entry["median"] = figures->median;
        entry["speedup"] = optionalNumber(figures->speedup);
        entry["bandwidth_bytes_per_second"] = optionalNumber(figures->bandwidth);
        entry["time_over_limit"] = optionalNumber(figures->timeOverLimit);
        if (figures->timeOverStreamLimit)
          entry["time_over_stream_limit"] = *figures->timeOverStreamLimit;
      }
      variants[result.variant] = std::move(entry);
    }
    programs[program.program] = llvm::json::Object{
        {"compulsory_bytes", static_cast<int64_t>(program.compulsoryBytes)},
        {"variants", std::move(variants)}};
  }
  return programs;
}

static llvm::json::Object countsOf(const std::vector<StepCount> &counts) {
  llvm::json::Object object;
  for (const StepCount &count : counts)
    object[count.name] = count.count;
  return object;
}

Status writeJsonReport(const BenchReport &report, const std::string &path) {
  const RunDescription &run = report.run;
  llvm::json::Object description{
      {"input", run.input},     {"grid", run.grid},       {"limited_area", run.limitedArea},
      {"cells", run.cells},     {"edges", run.edges},     {"vertices", run.vertices},
      {"nlev", run.nlev},       {"inputs", run.inputs},   {"seed", static_cast<int64_t>(run.seed)},
      {"backend", run.backend}, {"threads", run.threads}, {"repeat", run.repeat},
      {"warmup", run.warmup},   {"evict_mib", run.evictMiB},
  };
  if (!run.device.empty())
    description["device"] = run.device;
  if (run.layout != "flat")
    description["layout"] = run.layout;
  if (run.cutOff)
    description["cut_off"] = true;
  if (!run.host.empty())
    description["host"] = run.host;
  if (!run.compiler.empty())
    description["compiler"] = run.compiler;
  if (!run.reference.empty())
    description["reference"] = run.reference;
  if (run.timedWithFma)
    description["timed_with_fma"] = true;
  auto copyObject = [](const CopyBandwidth &copy) {
    return llvm::json::Object{{"bytes_per_copy", static_cast<int64_t>(copy.bytesPerCopy)},
                              {"bandwidth_bytes_per_second", copy.bytesPerSecond()},
                              {"min", copy.time.min},
                              {"median", copy.time.median}};
  };
  if (report.copy)
    description["copy"] = copyObject(*report.copy);
  if (report.copyAfter)
    description["copy_after"] = copyObject(*report.copyAfter);
  if (std::optional<double> limit = report.limitBandwidth())
    description["limit_bandwidth_bytes_per_second"] = *limit;
  if (report.streamCopy)
    description["stream_copy"] = copyObject(*report.streamCopy);
  if (report.streamCopyAfter)
    description["stream_copy_after"] = copyObject(*report.streamCopyAfter);
  if (std::optional<double> limit = report.streamLimitBandwidth())
    description["stream_limit_bandwidth_bytes_per_second"] = *limit;
  llvm::json::Object metrics;
  llvm::json::Array variantNames;
  for (const std::string &variant : report.variants) {
    metrics[variant] = metricsOf(report, variant);
    variantNames.push_back(variant);
  }
  llvm::json::Array programNames;
  for (const ProgramResult &program : report.programs)
    programNames.push_back(program.program);
  llvm::json::Object root{{"run", std::move(description)},
                          {"programs", std::move(programNames)},
                          {"variants", std::move(variantNames)},
                          {"baseline", report.baseline()},
                          {"metrics", std::move(metrics)},
                          {"comparison", comparisonOf(report)}};
  if (report.step) {
    llvm::json::Object perVariant;
    for (const std::string &variant : report.variants)
      if (std::optional<StepFigures> figures = stepFiguresOf(report, variant))
        perVariant[variant] = llvm::json::Object{{"from_programs", figures->fromPrograms},
                                                 {"measured", figures->measured}};
    root["step"] = llvm::json::Object{{"program", report.step->step},
                                      {"calls", countsOf(report.step->calls)},
                                      {"uncovered", countsOf(report.step->uncovered)},
                                      {"variants", std::move(perVariant)}};
  }
  if (report.openacc) {
    llvm::json::Array timers;
    for (const OpenAccTimer &timer : report.openacc->matched) {
      llvm::json::Object fusec;
      if (const ProgramResult *program = report.program(timer.program))
        for (const VariantResult &result : program->variants)
          if (result.timed())
            fusec[result.variant] = 1e3 * result.time.median;
      timers.push_back(llvm::json::Object{{"timer", timer.timer},
                                          {"program", timer.program},
                                          {"milliseconds_per_call", timer.millisecondsPerCall},
                                          {"calls", timer.calls},
                                          {"fusec_milliseconds", std::move(fusec)}});
    }
    root["openacc"] = llvm::json::Object{{"file", report.openacc->path},
                                         {"skipped", report.openacc->skipped},
                                         {"timers", std::move(timers)}};
  }
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_Text);
  if (error)
    return Status::failure("cannot write '" + path + "': " + error.message());
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return Status::success();
}

/// A Markdown table; columns after `leftColumns` are right-aligned.
static void markdownTable(const TableRows &rows, size_t leftColumns, llvm::raw_ostream &os) {
  for (size_t r = 0; r < rows.size(); ++r) {
    os << "|";
    for (const std::string &cell : rows[r])
      os << " " << (cell.empty() ? " " : cell) << " |";
    os << "\n";
    if (r == 0) {
      os << "|";
      for (size_t c = 0; c < rows[r].size(); ++c)
        os << (c < leftColumns ? "---|" : "---:|");
      os << "\n";
    }
  }
}

Status writeMarkdownReport(const BenchReport &report, const std::string &path) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_Text);
  if (error)
    return Status::failure("cannot write '" + path + "': " + error.message());
  const RunDescription &run = report.run;
  os << "# fusec-bench: `" << run.input << "`\n\n"
     << "Grid " << run.grid << " (" << (run.limitedArea ? "limited area" : "global") << ": "
     << run.cells << " cells, " << run.edges << " edges, " << run.vertices << " vertices), "
     << run.nlev << " levels; inputs " << run.inputs << " (seed " << run.seed << "); backend "
     << run.backend;
  if (run.backend == "cpp")
    os << " (" << run.threads << " OpenMP threads)";
  if (!run.device.empty())
    os << " on " << run.device;
  os << "; " << run.warmup << " warm-up and " << run.repeat << " timed runs per variant";
  if (run.evictMiB > 0)
    os << " (caches evicted before each: " << run.evictMiB << " MiB written)";
  os << ", every variant verified against "
     << (run.reference.empty() ? "the reference interpreter" : run.reference) << ".";
  if (run.cutOff)
    os << " The run was stopped after the " << report.programs.size()
       << " program(s) below; the others did not run.";
  if (run.timedWithFma)
    os << " Verified builds round like the interpreter (no FMA contraction); timed builds "
          "contract a*b+c into FMAs, as nvcc does by default.";
  if (report.copy)
    os << " Copy kernel: " << formatNumber("%.3g", report.copy->bytesPerSecond() / 1e9)
       << " GB/s.";
  if (report.streamCopy)
    os << " With non-temporal stores: "
       << formatNumber("%.3g", report.streamCopy->bytesPerSecond() / 1e9) << " GB/s.";
  if (std::string after = copyAfterText(report); !after.empty())
    os << " The " << after << ".";
  os << "\n\n## Programs\n\nMedian time, speed-up against `" << report.baseline() << "`";
  if (report.copy)
    os << ", MB read and written at least once, achieved GB/s, and time over that traffic at the "
          "copy kernel's bandwidth (1.00 = the memory-bandwidth limit)";
  if (report.streamCopy)
    os << "; time/nt-limit at the bandwidth of the copy with non-temporal stores";
  os << ".\n\n";
  markdownTable(comparisonRows(report), 2, os);
  if (report.step) {
    os << "\n## Whole step\n\n`" << report.step->step << "`, " << stepCallsText(report) << ".";
    if (std::string uncovered = stepUncoveredText(report); !uncovered.empty())
      os << " " << uncovered << ".";
    os << "\n\n";
    markdownTable(stepRows(report), 1, os);
  }
  if (report.openacc) {
    os << "\n## ICON OpenACC timers\n\n`" << report.openacc->path
       << "`: ms per call; OpenACC time over fusec's in brackets.\n\n";
    markdownTable(openAccRows(report), 2, os);
  }
  os << "\n## Kernels\n\nMedian per kernel (the emitted code's timers); with `--kernel-traffic`, "
        "the MB one call reads and writes (each element once, counted by the interpreter) and "
        "its time over that traffic at the copy kernel's bandwidth.\n";
  for (const ProgramResult &program : report.programs) {
    TableRows rows{{"variant", "kernel", "median", "share", "MB per call", "time/limit"}};
    for (const VariantResult &variant : program.variants)
      if (variant.timed())
        for (const KernelResult &kernel : variant.kernels) {
          std::optional<KernelFigures> figures = figuresOf(report, kernel);
          rows.push_back(
              {variant.variant, "`" + kernel.name + "`", formatSeconds(kernel.time.median),
               formatNumber("%.0f%%", 100.0 * kernel.time.median / variant.time.median),
               figures ? formatNumber("%.1f", double(kernel.bytesPerCall) / 1e6) : "",
               figures && figures->timeOverLimit ? formatNumber("%.2f", *figures->timeOverLimit)
                                                 : ""});
        }
    if (rows.size() == 1)
      continue;
    os << "\n### " << program.program << "\n\n";
    markdownTable(rows, 2, os);
  }
  return Status::success();
}

} // namespace fusec::bench
