//===- Pack.cpp - fusec-bench pack: a GPU bundle without the compiler -----===//

#include "Pack.h"

#include "OutputFiles.h"
#include "Progress.h"
#include "Session.h"
#include "StepWeights.h"

#include "passes/Pipelines.h"

#include "fusec/grid_generator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <map>

namespace fusec::bench {
namespace {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// The runtime's sources a bundle compiles (grid files need NetCDF: left out).
constexpr const char *kRuntimeSkipped = "netcdf_io.cpp";

/// fusec-bench's compiler-free files (CMakeLists.txt: FUSEC_BENCH_CORE_SOURCES,
/// their headers, the header-only ones) and the runner's, from tools/fusec-bench.
const char *const kBenchFiles[] = {
    "CallShimNames.h",       "HostField.cpp",        "HostField.h",
    "InputGenerator.cpp",    "InputGenerator.h",     "InputSpec.cpp",
    "InputSpec.h",           "MemoryLimit.cpp",      "MemoryLimit.h",
    "ProgramRunner.cpp",     "ProgramRunner.h",      "ProgramSignature.cpp",
    "ProgramSignature.h",    "RankJob.cpp",          "RankJob.h",
    "SharedLibrary.cpp",     "SharedLibrary.h",
    "Timing.cpp",            "Timing.h",             "Verification.cpp",
    "Verification.h",        "bundle/BundleModel.h", "bundle/BundleRunner.cpp",
    "bundle/Json.h",
};

/// A C++ string literal.
std::string cString(llvm::StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += std::string("\\") + c;
    else if (c == '\n')
      out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20)
      out += llvm::formatv("\\{0:o3}", static_cast<unsigned>(c)).str();
    else
      out += c;
  }
  return out + "\"";
}

std::string cDouble(double value) { return llvm::formatv("{0}", llvm::format("%.17g", value)); }

Status copyFile(const std::string &from, const std::string &to) {
  if (std::error_code error = fs::create_directories(path::parent_path(to)))
    return Status::failure("cannot create the directory of '" + to + "': " + error.message());
  if (std::error_code error = fs::copy_file(from, to))
    return Status::failure("cannot copy '" + from + "' to '" + to + "': " + error.message());
  return Status::success();
}

/// Copies the directory tree `from` to `to`, leaving out files named `skipped`.
Status copyTree(const std::string &from, const std::string &to, llvm::StringRef skipped) {
  std::error_code error;
  std::vector<std::string> files;
  for (fs::recursive_directory_iterator it(from, error), end; it != end && !error;
       it.increment(error))
    if (it->type() == fs::file_type::regular_file && path::filename(it->path()) != skipped)
      files.push_back(it->path());
  if (error)
    return Status::failure("cannot read '" + from + "': " + error.message());
  llvm::sort(files); // a deterministic bundle
  for (const std::string &file : files) {
    llvm::SmallString<256> target(to);
    path::append(target, llvm::StringRef(file).drop_front(from.size()));
    if (Status status = copyFile(file, std::string(target)); !status)
      return status;
  }
  return Status::success();
}

/// Every regular file under `root` with its size, by relative path.
std::map<std::string, uint64_t> fileSizes(const std::string &root) {
  std::map<std::string, uint64_t> sizes;
  std::error_code error;
  for (fs::recursive_directory_iterator it(root, error), end; it != end && !error;
       it.increment(error)) {
    fs::file_status status;
    if (it->type() == fs::file_type::regular_file && !fs::status(it->path(), status))
      sizes[llvm::StringRef(it->path()).drop_front(root.size() + 1).str()] = status.getSize();
  }
  return sizes;
}

std::string megabytes(uint64_t bytes) {
  return llvm::formatv("{0:f1} MiB", double(bytes) / double(1 << 20)).str();
}

/// The generated model.cpp (BundleModel.h).
class ModelWriter {
public:
  explicit ModelWriter(llvm::raw_ostream &os) : os(os) {}

  void parameter(const Parameter &parameter) {
    if (parameter.isScalar()) {
      os << "      bundleScalarParameter(" << cString(parameter.name) << ", ScalarArgument::Type("
         << int(parameter.scalarType) << ")),\n";
      return;
    }
    if (parameter.isPoints()) {
      os << "      bundlePointsParameter(" << cString(parameter.name) << ", Location("
         << int(*parameter.location) << ")),\n";
      return;
    }
    os << "      bundleFieldParameter(" << cString(parameter.name) << ", Parameter::Intent("
       << int(parameter.intent) << "), " << (parameter.location ? int(*parameter.location) : -1)
       << ", " << parameter.neighbors << ", Parameter::Vertical(" << int(parameter.vertical)
       << "), DType(" << int(parameter.dtype) << ")),\n";
  }

  void inputs(const std::string &prefix, const ParameterInputs &inputs) {
    for (const auto &[name, entry] : inputs.scalars)
      perMode(prefix + ".scalars[" + cString(name) + "]", entry, "bundleScalar");
    for (const auto &[name, entry] : inputs.fields)
      perMode(prefix + ".fields[" + cString(name) + "]", entry, "bundleField");
    for (const auto &[name, entry] : inputs.points)
      perMode(prefix + ".points[" + cString(name) + "]", entry, "bundlePoints");
  }

private:
  static const std::string &textOf(const ScalarExpression &scalar) { return scalar.text(); }
  static const std::string &textOf(const FieldGenerator &field) { return field.text; }
  static const std::string &textOf(const PointsGenerator &points) { return points.text; }

  template <typename T>
  void perMode(const std::string &target, const PerMode<T> &entry, const char *parse) {
    if (entry.random)
      os << "  " << target << ".random = " << parse << "(" << cString(textOf(*entry.random))
         << ");\n";
    if (entry.realistic)
      os << "  " << target << ".realistic = " << parse << "(" << cString(textOf(*entry.realistic))
         << ");\n";
  }

  llvm::raw_ostream &os;
};

class Packer {
public:
  Packer(const PackOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs)
      : options(options), out(out), errs(errs),
        progress(errs, llvm::sys::Process::StandardErrIsDisplayed()) {}

  int run();

private:
  bool fail(const std::string &message) {
    progress.clear();
    errs << "fusec-bench: error: " << message << "\n";
    return false;
  }
  bool checkOptions();
  bool emitVariants(BenchSession &session);
  bool prepareSmallGrid(BenchSession &session);
  bool deriveSteps(BenchSession &session);
  bool writeModel(BenchSession &session);
  bool copySources();
  bool writeManifest(BenchSession &session, const std::map<std::string, uint64_t> &sizes);

  const PackOptions &options;
  llvm::raw_ostream &out, &errs;
  Progress progress;
  std::string staging; // the bundle while it is written
  BenchOptions bench;
  /// Owns the MLIR context of the variants' modules: declared before them.
  std::unique_ptr<BenchSession> session;
  /// The variants with their library names, `none` first.
  std::vector<std::unique_ptr<Variant>> variants;
  std::vector<std::string> libraries;
  /// Per program: the tolerances of each parameter.
  std::map<std::string, std::vector<Tolerances>> tolerances;
  std::vector<std::pair<bool, StepStructure>> steps; // (limited area, structure)
};

bool Packer::checkOptions() {
  if (fs::exists(options.directory))
    return fail("'" + options.directory +
                "' exists; pack writes a new directory (remove it or name another)");
  for (const std::string &grid : options.largeGrids) {
    Result<GridSpec> spec = parse_grid_spec(grid);
    if (!spec)
      return fail("--large-grids: " + spec.error());
    if (spec->kind == GridSpec::Kind::File)
      return fail("--large-grids: '" + grid +
                  "' is a grid file; bundles generate their grids (rNbK, lam-rNbK), since "
                  "GPU machines have no NetCDF");
  }
  if (Result<GridSpec> spec = parse_grid_spec(options.bench.grid);
      spec && spec->kind == GridSpec::Kind::File)
    return fail("--grid: bundles generate their grids (rNbK, lam-rNbK), not '" +
                options.bench.grid + "'");
  if (options.largeNlev < 1)
    return fail("--large-nlev must be at least 1");
  return true;
}

bool Packer::emitVariants(BenchSession &session) {
  std::vector<std::string> names = bench.pipelines;
  // The reference of the large grids is the first variant: `none` when packed.
  if (auto none = llvm::find(names, "none"); none != names.end())
    std::rotate(names.begin(), none, none + 1);
  for (const std::string &name : names) {
    if (llvm::any_of(variants, [&](const auto &v) { return v->name == name; }))
      continue;
    progress.advance("emitting " + name);
    Result<PipelineConfig> config = session.configFor(name);
    if (!config)
      return fail("pipeline '" + name + "': " + config.error());
    std::unique_ptr<Variant> variant =
        session.compile(name, resolveForBackend(*config, Backend::Cuda), {}, /*announce=*/false);
    if (!variant->error.empty())
      return false; // the session printed it
    std::string library = std::to_string(variants.size()) + "-" + variantDirectoryName(name);
    if (Status status = writeTextFile(staging + "/variants/" + library + ".cu", variant->source);
        !status)
      return fail(status.message());
    libraries.push_back(library);
    variants.push_back(std::move(variant));
  }
  return true;
}

bool Packer::prepareSmallGrid(BenchSession &session) {
  // The .npy files' size, known before the interpreter runs: every field argument
  // in inputs/, every output in reference/ (point lists, whose length is not known yet,
  // count in the bundle's size only).
  uint64_t npyBytes = 0;
  for (const ProgramSignature *program : session.programs())
    for (const Parameter &parameter : program->parameters) {
      if (!parameter.isField())
        continue;
      FieldFormat format = parameter.format(session.grid(), session.levels());
      uint64_t bytes = uint64_t(format.size()) * dtype_size(format.dtype);
      npyBytes += parameter.isOutput() ? 2 * bytes : bytes;
    }
  if (npyBytes > options.sizeLimit)
    return fail("the small grid's inputs and reference outputs would take " +
                megabytes(npyBytes) + ", over the bundle's limit of " +
                megabytes(options.sizeLimit) +
                ": use a smaller --grid or --nlev, or fewer --programs");
  for (const ProgramSignature *program : session.programs()) {
    progress.advance(program->name + ": inputs and reference");
    Result<PreparedProgram> prepared = session.prepare(*program);
    if (!prepared)
      return fail(program->name + ": " + prepared.error());
    if (session.savingFailed())
      return false;
    std::vector<Tolerances> &perParameter = tolerances[program->name];
    for (const Parameter &parameter : program->parameters)
      perParameter.push_back(session.tolerancesFor(*program, parameter));
    if (program->name == bench.stepProgram && session.programs().size() > 1) {
      Result<StepStructure> step = deriveStepStructure(session.frontend(), *program,
                                                       prepared->inputs, session.programNames());
      if (!step)
        return fail(step.error());
      steps.emplace_back(session.grid().limited_area(), std::move(*step));
    }
  }
  return true;
}

/// The step's structure on the kinds of large grid the small one is not: on
/// a small grid of that kind with the large grids' levels, since `limited_area`
/// and the zones decide which of the step's statements run.
bool Packer::deriveSteps(BenchSession &small) {
  if (steps.empty())
    return true;
  for (const std::string &grid : options.largeGrids) {
    bool limitedArea = parse_grid_spec(grid)->kind == GridSpec::Kind::LimitedArea;
    if (llvm::any_of(steps, [&](const auto &step) { return step.first == limitedArea; }))
      continue;
    progress.advance("the step on a " + std::string(limitedArea ? "limited-area" : "global") +
                     " grid");
    BenchOptions stand = bench;
    stand.grid = limitedArea ? "lam-r2b3" : "r2b2";
    stand.nlev = options.largeNlev;
    stand.saveOutputs.reset();
    stand.programs = small.programNames();
    BenchSession session(stand, errs, progress);
    if (!session.open())
      return false;
    const ProgramSignature *step = nullptr;
    for (const ProgramSignature *program : session.programs())
      if (program->name == bench.stepProgram)
        step = program;
    Result<PreparedProgram> prepared = session.prepare(*step);
    if (!prepared)
      return fail(bench.stepProgram + " on " + stand.grid + ": " + prepared.error());
    Result<StepStructure> structure = deriveStepStructure(
        session.frontend(), *step, prepared->inputs, session.programNames());
    if (!structure)
      return fail(structure.error());
    steps.emplace_back(limitedArea, std::move(*structure));
  }
  return true;
}

bool Packer::writeModel(BenchSession &session) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by fusec-bench pack: the bundle's programs, variants and inputs\n"
        "// (BundleModel.h). Command: "
     << options.commandLine << "\n\n#include \"BundleModel.h\"\n\nnamespace fusec::bench {\n\n"
     << "BundleModel bundleModel() {\n  BundleModel model;\n"
     << "  model.input = " << cString(path::filename(bench.inputPath)) << ";\n"
     << "  model.inputs = " << cString(bench.inputs) << ";\n"
     << "  model.seed = " << bench.seed << "ULL;\n"
     << "  model.packedBy = " << cString(options.commandLine) << ";\n"
     << "  model.smallGrid = {" << cString(bench.grid) << ", " << session.levels() << "};\n";
  for (const std::string &grid : options.largeGrids)
    os << "  model.largeGrids.push_back({" << cString(grid) << ", " << options.largeNlev << "});\n";
  for (auto [variant, library] : llvm::zip_equal(variants, libraries)) {
    os << "  model.variants.push_back({" << cString(variant->name) << ", " << cString(library)
       << ", {";
    for (const ProgramSignature *program : session.programs())
      if (variant->name != "none" && session.unchangedByPasses(*variant, program->name))
        os << cString(program->name) << ", ";
    os << "}});\n";
  }
  ModelWriter writer(os);
  for (const ProgramSignature *program : session.programs()) {
    os << "  {\n    BundleProgram program;\n    program.signature.name = "
       << cString(program->name) << ";\n";
    if (program->outputLocation)
      os << "    program.signature.outputLocation = Location(" << int(*program->outputLocation)
         << ");\n";
    os << "    program.signature.parameters = {\n";
    for (const Parameter &parameter : program->parameters)
      writer.parameter(parameter);
    os << "    };\n    program.tolerances = {\n";
    for (const Tolerances &t : tolerances[program->name])
      os << "      {" << cDouble(t.rtol) << ", " << cDouble(t.atol) << "},\n";
    os << "    };\n    model.programs.push_back(std::move(program));\n  }\n";
  }
  const InputsFile &file = session.inputs();
  os << "  model.inputsFile.path = " << cString(path::filename(file.path)) << ";\n";
  writer.inputs("model.inputsFile.defaults", file.defaults);
  for (const auto &[name, entry] : file.programs)
    writer.inputs("model.inputsFile.programs[" + cString(name) + "].inputs", entry.inputs);
  if (!steps.empty()) {
    os << "  model.stepProgram = " << cString(bench.stepProgram) << ";\n";
    for (const auto &[limitedArea, step] : steps) {
      os << "  model.steps.push_back({" << (limitedArea ? "true" : "false") << ", {";
      for (const StepCount &count : step.calls)
        os << "{" << cString(count.name) << ", " << count.count << "}, ";
      os << "}, {";
      for (const StepCount &count : step.uncovered)
        os << "{" << cString(count.name) << ", " << count.count << "}, ";
      os << "}});\n";
    }
  }
  os << "  return model;\n}\n\n} // namespace fusec::bench\n";
  if (Status status = writeTextFile(staging + "/model.cpp", os.str()); !status)
    return fail(status.message());
  return true;
}

bool Packer::copySources() {
  std::string root = options.sourceRoot;
  std::string runtime = root + "/runtime";
  for (const char *directory : {"include", "src"})
    if (Status status = copyTree(runtime + "/" + directory,
                                 staging + "/src/runtime/" + directory, kRuntimeSkipped);
        !status)
      return fail(status.message());
  std::string bench = root + "/tools/fusec-bench";
  std::vector<std::pair<std::string, std::string>> copies = {
      {runtime + "/CMakeLists.txt", staging + "/src/runtime/CMakeLists.txt"},
      {bench + "/bundle/CMakeLists.bundle.txt", staging + "/CMakeLists.txt"},
      {bench + "/bundle/run.sh", staging + "/run.sh"},
  };
  for (const char *file : kBenchFiles)
    copies.emplace_back(bench + "/" + file,
                        staging + "/src/bench/" + path::filename(file).str());
  for (const auto &[from, to] : copies)
    if (Status status = copyFile(from, to); !status)
      return fail(status.message());
  fs::setPermissions(staging + "/run.sh", fs::perms::all_read | fs::perms::owner_write |
                                              fs::perms::all_exe);
  return true;
}

bool Packer::writeManifest(BenchSession &session, const std::map<std::string, uint64_t> &sizes) {
  const Grid &grid = session.grid();
  llvm::json::Array variantList, programList, largeGrids, files;
  for (auto [variant, library] : llvm::zip_equal(variants, libraries))
    variantList.push_back(llvm::json::Object{{"name", variant->name},
                                             {"source", "variants/" + library + ".cu"}});
  for (const ProgramSignature *program : session.programs()) {
    llvm::json::Array parameters;
    for (const Parameter &parameter : program->parameters)
      parameters.push_back(
          llvm::json::Object{{"name", parameter.name}, {"type", parameter.describe()}});
    programList.push_back(
        llvm::json::Object{{"name", program->name}, {"parameters", std::move(parameters)}});
  }
  for (const std::string &large : options.largeGrids)
    largeGrids.push_back(llvm::json::Object{{"grid", large}, {"nlev", options.largeNlev}});
  uint64_t total = 0;
  for (const auto &[file, size] : sizes) {
    files.push_back(llvm::json::Object{{"path", file}, {"bytes", static_cast<int64_t>(size)}});
    total += size;
  }
  llvm::json::Object manifest{
      {"format", "fusec-bundle/1"},
      {"packed_by", options.commandLine},
      {"input", path::filename(bench.inputPath).str()},
      {"inputs", bench.inputs},
      {"seed", static_cast<int64_t>(bench.seed)},
      {"small_grid", llvm::json::Object{{"grid", bench.grid},
                                        {"nlev", session.levels()},
                                        {"cells", grid.num_cells()},
                                        {"edges", grid.num_edges()},
                                        {"vertices", grid.num_vertices()}}},
      {"large_grids", std::move(largeGrids)},
      {"variants", std::move(variantList)},
      {"programs", std::move(programList)},
      {"files", std::move(files)},
      {"bytes_before_manifest", static_cast<int64_t>(total)},
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  if (Status status = writeTextFile(staging + "/manifest.json", os.str()); !status)
    return fail(status.message());
  return true;
}

int Packer::run() {
  if (!checkOptions())
    return 1;
  bench = options.bench;
  bench.emitOnly = true;
  bench.backend = Backend::Cuda;
  llvm::SmallString<256> temporary(options.directory);
  temporary += ".partial-%%%%%%";
  fs::createUniqueDirectory(temporary, temporary); // unique, next to the target
  staging = std::string(temporary);
  bench.saveOutputs = staging + "/small";
  auto cleanup = llvm::make_scope_exit([&] {
    if (!staging.empty())
      fs::remove_directories(staging);
  });

  session = std::make_unique<BenchSession>(bench, errs, progress);
  if (!session->open())
    return 1;
  BenchSession &session = *this->session;
  progress.expect(static_cast<unsigned>(bench.pipelines.size() + session.programs().size() + 2));
  if (!emitVariants(session) || !prepareSmallGrid(session) || !deriveSteps(session) ||
      !writeModel(session) || !copySources())
    return 1;
  // The grid's tables are for Python tools; the runner generates the grid.
  fs::remove_directories(staging + "/small/grid");
  std::map<std::string, uint64_t> sizes = fileSizes(staging);
  if (!writeManifest(session, sizes))
    return 1;
  uint64_t total = 0;
  for (const auto &[file, size] : fileSizes(staging))
    total += size;
  if (total > options.sizeLimit) {
    std::map<std::string, uint64_t> byTop;
    for (const auto &[file, size] : sizes)
      byTop[llvm::StringRef(file).split('/').first.str()] += size;
    std::string parts;
    for (const auto &[top, size] : byTop)
      parts += "\n  " + top + ": " + megabytes(size);
    fail("the bundle would take " + megabytes(total) + ", over the limit of " +
         megabytes(options.sizeLimit) + ":" + parts +
         "\nuse a smaller --grid or --nlev, or fewer --programs");
    return 1;
  }
  if (std::error_code error = fs::rename(staging, options.directory)) {
    fail("cannot rename '" + staging + "' to '" + options.directory + "': " + error.message());
    return 1;
  }
  staging.clear();
  progress.clear();
  out << "fusec-bench: packed " << session.programs().size() << " programs x "
      << variants.size() << " variants (" << llvm::join(llvm::map_range(variants, [](const auto &v) {
           return v->name;
         }),
                                                         ", ")
      << ") into " << options.directory << " (" << megabytes(total) << ")\n"
      << "  small grid " << bench.grid << ", " << session.levels()
      << " levels: inputs and interpreter outputs packed\n";
  for (const std::string &grid : options.largeGrids)
    out << "  large grid " << grid << ", " << options.largeNlev
        << " levels: generated on the GPU machine\n";
  out << "run it where nvcc and a GPU are: " << options.directory
      << "/run.sh   (then: fusec-bench report " << options.directory << "/results/<grid>.json)\n";
  return 0;
}

} // namespace

int runPack(const PackOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  registerPipelinePasses();
  return Packer(options, out, errs).run();
}

} // namespace fusec::bench
