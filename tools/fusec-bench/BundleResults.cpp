//===- BundleResults.cpp - a GPU bundle's results, read back --------------===//

#include "BundleResults.h"
#include "GeneratedTimers.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace fusec::bench {
namespace {

using llvm::json::Array;
using llvm::json::Object;

/// Reads one results file; the first missing or mistyped member is the error.
class ResultsReader {
public:
  explicit ResultsReader(std::string path) : path(std::move(path)) {}

  Result<BenchReport> read();

private:
  void missing(const std::string &what) {
    if (error.empty())
      error = path + ": expected " + what;
  }
  std::string string(const Object &object, llvm::StringRef key) {
    if (std::optional<llvm::StringRef> value = object.getString(key))
      return value->str();
    missing("a string '" + key.str() + "'");
    return "";
  }
  double number(const Object &object, llvm::StringRef key) {
    if (std::optional<double> value = object.getNumber(key))
      return *value;
    missing("a number '" + key.str() + "'");
    return 0.0;
  }
  bool boolean(const Object &object, llvm::StringRef key) {
    if (std::optional<bool> value = object.getBoolean(key))
      return *value;
    missing("a boolean '" + key.str() + "'");
    return false;
  }
  const Object &object(const Object &parent, llvm::StringRef key) {
    if (const Object *value = parent.getObject(key))
      return *value;
    missing("an object '" + key.str() + "'");
    return empty;
  }
  const Array &array(const Object &parent, llvm::StringRef key) {
    if (const Array *value = parent.getArray(key))
      return *value;
    missing("an array '" + key.str() + "'");
    return emptyArray;
  }
  /// The objects of `list`, each checked to be one.
  std::vector<const Object *> objects(const Array &list, const std::string &what) {
    std::vector<const Object *> result;
    for (const llvm::json::Value &value : list) {
      if (const Object *entry = value.getAsObject())
        result.push_back(entry);
      else
        missing("objects in '" + what + "'");
    }
    return result;
  }

  RunDescription run(const Object &root);
  std::vector<FieldResult> fields(const Array &list, const std::string &suffix);
  VariantResult variant(const Object &entry, const std::string &program);
  std::vector<StepCount> counts(const Array &list);

  std::string path;
  std::string error;
  const Object empty;
  const Array emptyArray;
};

RunDescription ResultsReader::run(const Object &root) {
  const Object &run = object(root, "run");
  RunDescription description;
  description.input = string(run, "input");
  description.grid = string(run, "grid");
  description.limitedArea = boolean(run, "limited_area");
  description.cells = static_cast<int32_t>(number(run, "cells"));
  description.edges = static_cast<int32_t>(number(run, "edges"));
  description.vertices = static_cast<int32_t>(number(run, "vertices"));
  description.nlev = static_cast<int32_t>(number(run, "nlev"));
  description.inputs = string(run, "inputs");
  description.seed = static_cast<uint64_t>(number(run, "seed"));
  description.backend = string(run, "backend");
  description.device = string(run, "device");
  description.repeat = static_cast<unsigned>(number(run, "repeat"));
  description.warmup = static_cast<unsigned>(number(run, "warmup"));
  description.reference = string(run, "reference");
  description.fma = true;
  description.timedWithFma = true;
  return description;
}

std::vector<FieldResult> ResultsReader::fields(const Array &list, const std::string &suffix) {
  std::vector<FieldResult> result;
  for (const Object *entry : objects(list, "fields")) {
    FieldResult field;
    field.name = string(*entry, "name") + suffix;
    int location = static_cast<int>(number(*entry, "location"));
    if (location >= 0)
      field.format.location = Location(location);
    field.format.points = static_cast<int32_t>(number(*entry, "points"));
    field.format.neighbors = static_cast<int32_t>(number(*entry, "neighbors"));
    field.format.levels = static_cast<int32_t>(number(*entry, "levels"));
    field.format.dtype = DType(static_cast<int>(number(*entry, "dtype")));
    field.tolerances = {number(*entry, "rtol"), number(*entry, "atol")};
    FieldComparison &comparison = field.comparison;
    comparison.points = static_cast<size_t>(number(*entry, "compared"));
    comparison.failures = static_cast<size_t>(number(*entry, "failures"));
    // JSON has no NaN: the runner writes null for it.
    comparison.maxRelativeError = entry->getNumber("max_relative_error").value_or(NAN);
    comparison.maxAbsoluteError = entry->getNumber("max_absolute_error").value_or(NAN);
    comparison.worstIndex = static_cast<size_t>(number(*entry, "worst_index"));
    comparison.worstValue = entry->getNumber("worst_value").value_or(NAN);
    comparison.worstReference = entry->getNumber("worst_reference").value_or(NAN);
    result.push_back(std::move(field));
  }
  return result;
}

VariantResult ResultsReader::variant(const Object &entry, const std::string &program) {
  VariantResult result;
  result.variant = string(entry, "variant");
  result.unchanged = boolean(entry, "unchanged");
  if (std::optional<llvm::StringRef> failure = entry.getString("error")) {
    result.verdict = Verdict::Error;
    result.error = failure->str();
  }
  if (const Array *verified = entry.getArray("fields"))
    result.fields = fields(*verified, "");
  if (const Array *check = entry.getArray("timed_build_check"))
    for (FieldResult &field : fields(*check, " (timed build)"))
      if (!field.comparison.passed())
        result.fields.push_back(std::move(field));
  setVerdict(result);
  for (const llvm::json::Value &sample : array(entry, "samples"))
    if (std::optional<double> seconds = sample.getAsNumber())
      result.samples.push_back(*seconds);
  if (result.verdict == Verdict::Pass && !result.samples.empty())
    result.time = summarizeTimes(result.samples);
  // The emitted code's timers of the timed runs, in GT4Py's layout.
  if (const Object *metrics = entry.getObject("kernel_metrics")) {
    Result<TimerSamples> timers = parseMetrics(*metrics);
    if (!timers)
      missing("kernel_metrics as the emitted code writes them (" + timers.error() + ")");
    else
      for (auto &[name, samples] : newSamples({}, *timers, program).kernels)
        result.kernels.push_back({name, samples, summarizeTimes(samples)});
  }
  return result;
}

std::vector<StepCount> ResultsReader::counts(const Array &list) {
  std::vector<StepCount> result;
  for (const Object *entry : objects(list, "step"))
    result.push_back({string(*entry, "name"), static_cast<unsigned>(number(*entry, "count"))});
  return result;
}

Result<BenchReport> ResultsReader::read() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return Status::failure("cannot read '" + path + "': " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse((*buffer)->getBuffer());
  if (!parsed)
    return Status::failure(path + ": not JSON: " + llvm::toString(parsed.takeError()));
  const Object *root = parsed->getAsObject();
  if (!root || root->getString("format") != "fusec-bundle-results/1")
    return Status::failure(path + ": not the results of a fusec GPU bundle (expected \"format\": "
                                  "\"fusec-bundle-results/1\")");
  BenchReport report;
  report.run = run(*root);
  // Absent in files written before the runner wrote them incrementally.
  report.run.cutOff = root->getBoolean("complete") == false;
  for (const llvm::json::Value &name : array(*root, "variants"))
    if (std::optional<llvm::StringRef> text = name.getAsString())
      report.variants.push_back(text->str());
  if (const Object *copy = root->getObject("copy")) {
    CopyBandwidth bandwidth;
    bandwidth.bytesPerCopy = static_cast<uint64_t>(number(*copy, "bytes_per_copy"));
    bandwidth.time.samples = static_cast<size_t>(number(*copy, "runs"));
    bandwidth.time.min = number(*copy, "min");
    bandwidth.time.median = number(*copy, "median");
    bandwidth.time.firstQuartile = number(*copy, "first_quartile");
    bandwidth.time.thirdQuartile = number(*copy, "third_quartile");
    report.copy = bandwidth;
  }
  if (const Object *step = root->getObject("step"))
    report.step = StepStructure{string(*step, "program"), counts(array(*step, "calls")),
                                counts(array(*step, "uncovered"))};
  for (const Object *entry : objects(array(*root, "programs"), "programs")) {
    ProgramResult program;
    program.program = string(*entry, "program");
    program.compulsoryBytes = static_cast<uint64_t>(number(*entry, "compulsory_bytes"));
    if (std::optional<llvm::StringRef> failure = entry->getString("error"))
      program.error = failure->str();
    if (const Array *variants = entry->getArray("variants"))
      for (const Object *measured : objects(*variants, "variants"))
        program.variants.push_back(variant(*measured, program.program));
    report.programs.push_back(std::move(program));
  }
  if (!error.empty())
    return Status::failure(error);
  return report;
}

} // namespace

Result<BenchReport> readBundleResults(const std::string &path) {
  return ResultsReader(path).read();
}

int runReport(const ReportOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  Result<BenchReport> report = readBundleResults(options.results);
  if (!report) {
    errs << "fusec-bench: error: " << report.error() << "\n";
    return 1;
  }
  printHeader(*report, out);
  for (const ProgramResult &program : report->programs)
    printProgram(*report, program, out);
  printComparison(*report, out);
  printSummary(*report, out);
  out.flush();
  bool written = true;
  auto write = [&](Status status) {
    if (!status) {
      errs << "fusec-bench: error: " << status.message() << "\n";
      written = false;
    }
  };
  if (options.markdownPath)
    write(writeMarkdownReport(*report, *options.markdownPath));
  if (options.jsonPath)
    write(writeJsonReport(*report, *options.jsonPath));
  return report->allPassed() && written ? 0 : 1;
}

} // namespace fusec::bench
