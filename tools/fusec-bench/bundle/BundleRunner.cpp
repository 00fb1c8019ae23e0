//===- BundleRunner.cpp - verify and time a GPU bundle's variants ---------===//
//
//   fusec-bundle-run --libraries DIR --json FILE
//       [--grid SPEC --nlev N | --small DIR] [--programs P1,P2] [--repeat N] [--warmup W]
//   fusec-bundle-run --list-grids        # the packed large grids, one SPEC/NLEV per line
//
// For each program of the bundle (bundleModel(), BundleModel.h):
//   1. its arguments: on the small grid the packed .npy inputs (--small DIR),
//      on any other grid generated here from the packed inputs file;
//   2. verification: every variant's exact build (-fmad=false) runs once from
//      fresh inputs and each output is compared with the reference, the packed
//      interpreter outputs on the small grid, else the outputs of variant
//      `none` (the first variant without it), with the program's tolerances;
//   3. the timed build (FMA contraction, nvcc's default) is checked against
//      the same reference with the FMA tolerances below, warmed up, then timed
//      with CUDA events around the program's launches, round the variants
//      (run 1 of each, then run 2 of each, ...), every run from the initial
//      outputs (restored outside the timed region); the emitted code's own
//      timers are on for the timed runs, and their samples of each kernel
//      go to the results as `kernel_metrics`.
// Before the programs, the device-to-device copy kernel of the first variant's
// timed build measures the memory bandwidth (the limit). The results go to
// FILE as JSON (format fusec-bundle-results/1, docs/bench.md), which
// `fusec-bench report FILE` renders. Exit status 0 when every variant of every
// program verified, 1 otherwise.
//
//===----------------------------------------------------------------------===//

#include "BundleModel.h"
#include "Json.h"

#include "CallShimNames.h"
#include "InputGenerator.h"
#include "MemoryLimit.h"
#include "ProgramRunner.h"
#include "SharedLibrary.h"
#include "Timing.h"
#include "Verification.h"

#include "fusec/grid_generator.h"
#include "fusec/npy.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

using namespace fusec;
using namespace fusec::bench;

namespace {

#ifdef FUSEC_BUNDLE_HOST
constexpr const char *kBackend = "cuda-host";
#else
constexpr const char *kBackend = "cuda";
#endif

struct Options {
  std::string libraries;
  std::string json;
  std::optional<std::string> grid;
  std::optional<int32_t> nlev;
  std::optional<std::string> small;
  std::vector<std::string> programs;
  unsigned repeat = 10;
  unsigned warmup = 2;
  bool listGrids = false;
};

[[noreturn]] void usage(const std::string &message) {
  std::fprintf(stderr,
               "fusec-bundle-run: error: %s\n"
               "usage: fusec-bundle-run --libraries DIR --json FILE [--grid SPEC --nlev N | "
               "--small DIR] [--programs P1,P2] [--repeat N] [--warmup W]\n",
               message.c_str());
  std::exit(1);
}

std::vector<std::string> splitCommas(const std::string &text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos)
      comma = text.size();
    if (comma > start)
      parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

unsigned parseCount(const std::string &option, const std::string &text) {
  char *end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < 0 || value > 100000)
    usage(option + " expects a count from 0 to 100000, not '" + text + "'");
  return static_cast<unsigned>(value);
}

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string option = argv[i];
    if (option == "--list-grids") {
      options.listGrids = true;
      continue;
    }
    if (i + 1 >= argc)
      usage("option '" + option + "' expects a value");
    std::string value = argv[++i];
    if (option == "--libraries")
      options.libraries = value;
    else if (option == "--json")
      options.json = value;
    else if (option == "--grid")
      options.grid = value;
    else if (option == "--nlev")
      options.nlev = static_cast<int32_t>(parseCount(option, value));
    else if (option == "--small")
      options.small = value;
    else if (option == "--programs")
      options.programs = splitCommas(value);
    else if (option == "--repeat")
      options.repeat = parseCount(option, value);
    else if (option == "--warmup")
      options.warmup = parseCount(option, value);
    else
      usage("unknown option '" + option + "'");
  }
  if (options.listGrids)
    return options;
  if (options.libraries.empty() || options.json.empty())
    usage("--libraries and --json are required");
  if (options.grid.has_value() == options.small.has_value())
    usage("give either --grid (and --nlev) or --small");
  if (options.grid && !options.nlev)
    usage("--grid needs --nlev");
  return options;
}

/// One variant's two builds.
struct LoadedVariant {
  const BundleVariant *model = nullptr;
  std::unique_ptr<SharedLibrary> exact, fma;
};

/// One variant during one program's measurement.
struct Measurement {
  LoadedVariant *variant = nullptr;
  std::unique_ptr<NativeRunner> runner; // the timed build
  std::vector<ArgumentValue> arguments;
  Json result = Json::object();
  std::vector<double> samples;
  bool timing = false;
  bool verified = false; // the exact build matched the reference
  bool fmaChecked = false; // the timed build is within the FMA tolerances
  std::string error;
  /// The emitted code's timers (P_enable_timers, P_write_metrics), on for
  /// the timed runs only; absent in code emitted without them.
  void (*enableTimers)(void *, int) = nullptr;
  int (*writeMetrics)(const void *, const char *) = nullptr;
};

class BundleRun {
public:
  BundleRun(const Options &options, const BundleModel &model) : options(options), model(model) {}
  int run();

private:
  bool fail(const std::string &message) {
    std::fprintf(stderr, "fusec-bundle-run: error: %s\n", message.c_str());
    failed = true;
    return false;
  }
  bool loadLibraries();
  void measureCopy();
  /// One line per variant on stdout: verdicts, median and spread, time over the limit.
  void printSummary(const std::string &program, const BundleVariant &variant,
                    const Measurement &m, uint64_t bytes) const;
  std::string deviceName();
  Json runProgram(const BundleProgram &program);
  /// Writes the results so far to the --json file (through a temporary and a
  /// rename: a reader never sees half a file); `complete`: every selected
  /// program ran.
  bool writeResults(bool complete);
  /// The reference outputs of `program` (in parameter order; inputs unchanged).
  Result<std::vector<ArgumentValue>> reference(const BundleProgram &program,
                                               const std::vector<ArgumentValue> &inputs);
  Json compareOutputs(const BundleProgram &program, const std::vector<ArgumentValue> &actual,
                      const std::vector<ArgumentValue> &expected, bool fmaCheck, bool &passed);

  const Options &options;
  const BundleModel &model;
  std::optional<Grid> grid;
  fusec_mesh mesh{};
  int32_t nlev = 0;
  std::vector<LoadedVariant> variants;
  std::unique_ptr<InputGenerator> generator;
  Json results = Json::object();
  std::optional<CopyBandwidth> copy;
  bool failed = false;
};

void BundleRun::printSummary(const std::string &program, const BundleVariant &variant,
                             const Measurement &m, uint64_t bytes) const {
  const char *verdict = !m.error.empty()  ? "ERROR"
                        : !m.verified     ? "FAIL"
                        : !m.fmaChecked   ? "FAIL(fma)"
                                          : "PASS";
  std::printf("%-58s %-24s %-9s", program.c_str(), variant.name.c_str(), verdict);
  if (!m.samples.empty()) {
    TimeSummary time = summarizeTimes(m.samples);
    std::printf(" median %10.1f us  IQR %8.1f us", 1e6 * time.median,
                1e6 * time.interquartileRange());
    if (copy && copy->bytesPerSecond() > 0)
      std::printf("  %5.2fx the copy limit", time.median / (double(bytes) / copy->bytesPerSecond()));
  }
  std::printf("\n");
  std::fflush(stdout);
}

bool BundleRun::loadLibraries() {
  for (const BundleVariant &variant : model.variants) {
    LoadedVariant loaded;
    loaded.model = &variant;
    for (auto [build, library] : {std::pair{"exact", &loaded.exact}, {"fma", &loaded.fma}}) {
      std::string path = options.libraries + "/" + variant.library + "." + build + ".so";
      Result<std::unique_ptr<SharedLibrary>> opened = SharedLibrary::open(path);
      if (!opened)
        return fail(opened.error());
      *library = std::move(*opened);
    }
    variants.push_back(std::move(loaded));
  }
  return !variants.empty() || fail("the bundle has no variants");
}

std::string BundleRun::deviceName() {
  using NameFunction = int (*)(char *, size_t);
  auto name = reinterpret_cast<NameFunction>(variants[0].fma->symbol("fusec_bench_device_name"));
  char text[256] = "unknown";
  if (!name || name(text, sizeof text) != 0)
    fail("cannot ask the CUDA runtime for the device's name");
  return text;
}

void BundleRun::measureCopy() {
  Result<CopyBandwidth> measured = measureCopyBandwidth(*variants[0].fma, options.repeat);
  if (!measured) {
    fail(measured.error() + " (no memory-bandwidth limit in these results)");
    return;
  }
  copy = *measured;
  std::printf("copy kernel: %.1f GB/s (best of %zu)\n", copy->bytesPerSecond() / 1e9,
              copy->time.samples);
  results.set("copy", Json::object()
                          .set("bytes_per_copy", Json::number(double(copy->bytesPerCopy)))
                          .set("min", Json::number(copy->time.min))
                          .set("median", Json::number(copy->time.median))
                          .set("first_quartile", Json::number(copy->time.firstQuartile))
                          .set("third_quartile", Json::number(copy->time.thirdQuartile))
                          .set("runs", Json::number(double(copy->time.samples))));
}

/// A .npy file's values into `field` (its format).
Status loadNpy(const std::string &path, HostField &field) {
  return load_field_npy(path, field.format().npyLayout(), field.format().dtype, field.data());
}

Result<std::vector<ArgumentValue>> BundleRun::reference(const BundleProgram &program,
                                                        const std::vector<ArgumentValue> &inputs) {
  std::vector<ArgumentValue> expected = inputs;
  const std::vector<Parameter> &parameters = program.signature.parameters;
  if (options.small) {
    for (size_t i = 0; i < parameters.size(); ++i)
      if (parameters[i].isOutput())
        if (Status status = loadNpy(*options.small + "/" + program.signature.name +
                                        "/reference/" + parameters[i].name + ".npy",
                                    expected[i].field);
            !status)
          return status;
    return expected;
  }
  // The first variant is `none` when the bundle has it (pack puts it first).
  Result<std::unique_ptr<NativeRunner>> runner =
      NativeRunner::create(*variants[0].exact, program.signature.name, mesh, nlev);
  if (!runner)
    return runner.status();
  if (Status status = (*runner)->runOnce(expected); !status)
    return Status::failure("reference run of variant '" + variants[0].model->name +
                           "': " + status.message());
  return expected;
}

Json BundleRun::compareOutputs(const BundleProgram &program,
                               const std::vector<ArgumentValue> &actual,
                               const std::vector<ArgumentValue> &expected, bool fmaCheck,
                               bool &passed) {
  Json fields = Json::array();
  passed = true;
  const std::vector<Parameter> &parameters = program.signature.parameters;
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (!parameters[i].isOutput())
      continue;
    Tolerances tolerances =
        fmaCheck ? Tolerances::withFmaFor(parameters[i].dtype) : program.tolerances[i];
    FieldComparison comparison = compareFields(actual[i].field, expected[i].field, tolerances);
    passed = passed && comparison.passed();
    const FieldFormat &format = actual[i].field.format();
    fields.push(Json::object()
                    .set("name", Json::string(parameters[i].name))
                    .set("location", Json::number(format.location ? int(*format.location) : -1))
                    .set("points", Json::number(format.points))
                    .set("neighbors", Json::number(format.neighbors))
                    .set("levels", Json::number(format.levels))
                    .set("dtype", Json::number(int(format.dtype)))
                    .set("rtol", Json::number(tolerances.rtol))
                    .set("atol", Json::number(tolerances.atol))
                    .set("compared", Json::number(double(comparison.points)))
                    .set("failures", Json::number(double(comparison.failures)))
                    .set("max_relative_error", Json::number(comparison.maxRelativeError))
                    .set("max_absolute_error", Json::number(comparison.maxAbsoluteError))
                    .set("worst_index", Json::number(double(comparison.worstIndex)))
                    .set("worst_value", Json::number(comparison.worstValue))
                    .set("worst_reference", Json::number(comparison.worstReference)));
  }
  return fields;
}

Json BundleRun::runProgram(const BundleProgram &program) {
  const ProgramSignature &signature = program.signature;
  uint64_t bytes = compulsoryBytes(signature, *grid, nlev);
  Json result = Json::object()
                    .set("program", Json::string(signature.name))
                    .set("compulsory_bytes", Json::number(double(bytes)));
  std::fprintf(stderr, "fusec-bundle-run: %s\n", signature.name.c_str());
  Result<GeneratedArguments> generated = generator->generate(signature);
  Result<std::vector<ArgumentValue>> expected =
      generated ? reference(program, generated->values)
                : Result<std::vector<ArgumentValue>>(generated.status());
  if (!expected) {
    fail(signature.name + ": " + expected.error());
    return result.set("error", Json::string(expected.error()));
  }
  const std::vector<ArgumentValue> &inputs = generated->values;

  std::vector<Measurement> measurements(variants.size());
  for (size_t v = 0; v < variants.size(); ++v) {
    Measurement &m = measurements[v];
    m.variant = &variants[v];
    const BundleVariant &variant = *m.variant->model;
    m.result.set("variant", Json::string(variant.name));
    bool unchanged = false;
    for (const std::string &name : variant.unchangedPrograms)
      unchanged = unchanged || name == signature.name;
    m.result.set("unchanged", Json::boolean(unchanged));
    auto error = [&](const std::string &what) {
      m.error = what;
      m.timing = false;
      fail(signature.name + " (" + variant.name + "): " + what);
    };
    // Verification: the exact build from fresh inputs.
    {
      std::vector<ArgumentValue> arguments = inputs;
      Result<std::unique_ptr<NativeRunner>> runner =
          NativeRunner::create(*m.variant->exact, signature.name, mesh, nlev);
      Status status = runner ? (*runner)->runOnce(arguments) : runner.status();
      if (!status) {
        error(status.message());
        continue;
      }
      m.result.set("fields", compareOutputs(program, arguments, *expected, false, m.verified));
      if (!m.verified)
        failed = true;
    }
    // The timed build: checked, warmed up, then bound for the timed runs.
    Result<std::unique_ptr<NativeRunner>> runner =
        NativeRunner::create(*m.variant->fma, signature.name, mesh, nlev);
    if (!runner) {
      error(runner.error());
      continue;
    }
    m.runner = std::move(*runner);
    m.enableTimers = reinterpret_cast<void (*)(void *, int)>(
        m.variant->fma->symbol(signature.name + "_enable_timers"));
    m.writeMetrics = reinterpret_cast<int (*)(const void *, const char *)>(
        m.variant->fma->symbol(signature.name + "_write_metrics"));
    m.arguments = inputs;
    if (Status status = m.runner->runOnce(m.arguments); !status) {
      error("timed build: " + status.message());
      continue;
    }
    m.result.set("timed_build_check",
                 compareOutputs(program, m.arguments, *expected, true, m.fmaChecked));
    if (!m.fmaChecked)
      failed = true;
    m.timing = options.repeat > 0;
    for (unsigned w = 0; w < options.warmup && m.timing; ++w) {
      Status status = m.runner->restoreOutputs(inputs);
      if (status)
        status = m.runner->run();
      if (!status)
        error("warm-up: " + status.message());
    }
  }

  for (unsigned r = 0; r < options.repeat; ++r)
    for (Measurement &m : measurements) {
      if (!m.timing)
        continue;
      Status status = m.runner->restoreOutputs(inputs);
      if (m.enableTimers)
        m.enableTimers(m.runner->handle(), 1);
      auto start = std::chrono::steady_clock::now();
      if (status)
        status = m.runner->run();
      double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (m.enableTimers)
        m.enableTimers(m.runner->handle(), 0);
      if (!status) {
        m.error = "timed run " + std::to_string(r + 1) + ": " + status.message();
        m.timing = false;
        fail(signature.name + " (" + m.variant->model->name + "): " + m.error);
        continue;
      }
      m.samples.push_back(m.runner->lastDeviceSeconds().value_or(wall));
    }

  Json variantResults = Json::array();
  for (Measurement &m : measurements) {
    Json samples = Json::array();
    for (double seconds : m.samples)
      samples.push(Json::number(seconds));
    printSummary(signature.name, *m.variant->model, m, bytes);
    m.result.set("samples", std::move(samples));
    if (!m.samples.empty() && m.writeMetrics) {
      // The timed runs' samples of the program and each of its kernels, in
      // GT4Py's metrics layout as the emitted code writes them.
      std::string path = options.json + ".metrics";
      std::ifstream file;
      if (m.writeMetrics(m.runner->handle(), path.c_str()) == 0)
        file.open(path);
      std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      std::remove(path.c_str());
      if (text.empty())
        fail(signature.name + " (" + m.variant->model->name + "): its kernels' timers could not "
             "be written to '" + path + "'");
      else
        m.result.set("kernel_metrics", Json::raw(text));
    }
    if (!m.error.empty())
      m.result.set("error", Json::string(m.error));
    m.runner.reset(); // frees the device copies before the next program
    variantResults.push(std::move(m.result));
  }
  return result.set("variants", std::move(variantResults));
}

bool BundleRun::writeResults(bool complete) {
  results.set("complete", Json::boolean(complete));
  std::string temporary = options.json + ".partial";
  std::ofstream file(temporary);
  file << results.text() << "\n";
  file.close();
  if (!file || std::rename(temporary.c_str(), options.json.c_str()) != 0)
    return fail("cannot write '" + options.json + "'"), false;
  return true;
}

int BundleRun::run() {
  BundleGrid chosen = model.smallGrid;
  if (options.grid)
    chosen = BundleGrid{*options.grid, *options.nlev};
  nlev = chosen.nlev;
  Result<Grid> made = make_grid(chosen.spec);
  if (!made)
    return fail(made.error()), 1;
  grid = std::move(*made);
  mesh = grid->mesh();
  if (!loadLibraries())
    return 1;

  InputSource source;
  source.mode = model.inputs == "realistic" ? InputMode::Realistic : InputMode::Random;
  source.seed = model.seed;
  if (options.small)
    source.directory = *options.small;
  generator = std::make_unique<InputGenerator>(*grid, nlev, source, model.inputsFile);

  std::string device = deviceName();
  std::fprintf(stderr, "fusec-bundle-run: %s, grid %s (%d cells), %d levels, device %s\n",
               model.input.c_str(), chosen.spec.c_str(), grid->num_cells(), nlev, device.c_str());
  Json variantNames = Json::array();
  for (const BundleVariant &variant : model.variants)
    variantNames.push(Json::string(variant.name));
  results.set("format", Json::string("fusec-bundle-results/1"))
      .set("run", Json::object()
                      .set("input", Json::string(model.input))
                      .set("grid", Json::string(chosen.spec))
                      .set("limited_area", Json::boolean(grid->limited_area()))
                      .set("cells", Json::number(grid->num_cells()))
                      .set("edges", Json::number(grid->num_edges()))
                      .set("vertices", Json::number(grid->num_vertices()))
                      .set("nlev", Json::number(nlev))
                      .set("inputs", Json::string(options.small ? "packed (" + model.inputs + ")"
                                                                : model.inputs))
                      .set("seed", Json::number(double(model.seed)))
                      .set("backend", Json::string(kBackend))
                      .set("device", Json::string(device))
                      .set("repeat", Json::number(options.repeat))
                      .set("warmup", Json::number(options.warmup))
                      .set("reference",
                           Json::string(options.small
                                            ? "the reference interpreter (packed outputs)"
                                            : "variant '" + model.variants[0].name +
                                                  "', exact build")))
      .set("variants", std::move(variantNames));
  if (!model.stepProgram.empty())
    for (const BundleStep &step : model.steps) {
      if (step.limitedArea != grid->limited_area())
        continue;
      auto counts = [](const std::vector<BundleStepCount> &list) {
        Json array = Json::array();
        for (const BundleStepCount &count : list)
          array.push(Json::object()
                         .set("name", Json::string(count.name))
                         .set("count", Json::number(count.count)));
        return array;
      };
      results.set("step", Json::object()
                              .set("program", Json::string(model.stepProgram))
                              .set("calls", counts(step.calls))
                              .set("uncovered", counts(step.uncovered)));
    }
  if (options.repeat > 0)
    measureCopy();

  // The file is rewritten after every program, so a run cut off by a time
  // limit (a lent GPU machine's) leaves the programs it finished.
  Json programs = Json::array();
  for (const BundleProgram &program : model.programs) {
    bool selected = options.programs.empty();
    for (const std::string &name : options.programs)
      selected = selected || name == program.signature.name;
    if (!selected)
      continue;
    // Host-side work (inputs, references, comparisons) dominates on large grids: the
    // wall time per program is what plans a session's device time (docs/bench.md).
    auto started = std::chrono::steady_clock::now();
    programs.push(runProgram(program));
    std::fprintf(stderr, "fusec-bundle-run: %s took %.1f s\n", program.signature.name.c_str(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    results.set("programs", programs);
    if (!writeResults(/*complete=*/false))
      return 1;
  }
  results.set("programs", std::move(programs));
  if (!writeResults(/*complete=*/true))
    return 1;
  std::fprintf(stderr, "fusec-bundle-run: results in %s (%s)\n", options.json.c_str(),
               failed ? "FAILED: see the errors above and the verdicts in the file"
                      : "every variant verified");
  return failed ? 1 : 0;
}

} // namespace

namespace fusec::bench {

/// What `T::parse` makes of `text`, or the end of the run with a message.
template <typename T> static T parsedOrExit(const char *text) {
  std::string error;
  std::optional<T> parsed = T::parse(text, error);
  if (!parsed) {
    std::fprintf(stderr, "fusec-bundle-run: error: model.cpp: '%s': %s\n", text, error.c_str());
    std::exit(1);
  }
  return *parsed;
}

ScalarExpression bundleScalar(const char *text) { return parsedOrExit<ScalarExpression>(text); }

FieldGenerator bundleField(const char *text) { return parsedOrExit<FieldGenerator>(text); }

PointsGenerator bundlePoints(const char *text) { return parsedOrExit<PointsGenerator>(text); }

} // namespace fusec::bench

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  BundleModel model = bundleModel();
  if (options.listGrids) {
    for (const BundleGrid &grid : model.largeGrids)
      std::printf("%s/%d\n", grid.spec.c_str(), grid.nlev);
    return 0;
  }
  for (const std::string &name : options.programs) {
    bool known = false;
    for (const BundleProgram &program : model.programs)
      known = known || program.signature.name == name;
    if (!known)
      usage("the bundle has no program '" + name + "'");
  }
  return BundleRun(options, model).run();
}
