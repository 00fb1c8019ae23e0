//===- Bench.cpp - fusec-bench run: compile, run, verify, time ------------===//

#include "Bench.h"

#include "CallShim.h"
#include "InputGenerator.h"
#include "InputsFileReader.h"
#include "NativeLibrary.h"
#include "OutputFiles.h"
#include "ProgramRunner.h"
#include "ProgramSignature.h"
#include "Report.h"

#include "codegen/Emitters.h"
#include "codegen/interpreter/Interpreter.h"
#include "compiler/Frontend.h"
#include "fusec/grid_generator.h"
#include "ir/StnOps.h"
#include "passes/PipelineConfig.h"
#include "passes/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <cstring>
#include <omp.h>
#include <set>

namespace fusec::bench {

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> items;
  std::string current;
  int depth = 0;
  for (char c : text) {
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (c == ',' && depth == 0) {
      items.push_back(llvm::StringRef(current).trim().str());
      current.clear();
      continue;
    }
    current += c;
  }
  items.push_back(llvm::StringRef(current).trim().str());
  return items;
}

namespace {

/// One pipeline variant: its compiled module and what runs it.
struct Variant {
  std::string name;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<SharedLibrary> library;   // C++ backend
  std::unique_ptr<Interpreter> interpreter; // interpreter backend
  std::string error;                        // the variant failed to build
};

/// Collects the MLIR diagnostics emitted while it lives, for error messages.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext &context)
      : handler(&context, [this](mlir::Diagnostic &diagnostic) {
          std::string text;
          llvm::raw_string_ostream os(text);
          os << diagnostic.getLocation() << ": " << diagnostic;
          for (const mlir::Diagnostic &note : diagnostic.getNotes())
            os << "\n  note: " << note;
          messages.push_back(os.str());
          return mlir::success();
        }) {}

  std::string text() const { return llvm::join(messages, "\n"); }

private:
  std::vector<std::string> messages;
  mlir::ScopedDiagnosticHandler handler;
};

class BenchRun {
public:
  BenchRun(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs)
      : options(options), out(out), errs(errs), context(mlir::MLIRContext::Threading::DISABLED) {}

  int run();

private:
  bool fail(const std::string &message) {
    errs << "fusec-bench: error: " << message << "\n";
    return false;
  }

  bool loadModule();
  bool resolveLevels();
  bool selectPrograms();
  bool loadInputsFile();
  bool makeGrid();
  bool makeInputSource();
  void describeRun();
  bool compileOracle();
  void compileVariant(Variant &variant);
  ProgramResult runProgram(const ProgramSignature &program);
  VariantResult runVariant(Variant &variant, const ProgramSignature &program,
                           const std::vector<ArgumentValue> &inputs,
                           const std::vector<ArgumentValue> &reference);
  Tolerances tolerancesFor(const ProgramSignature &program, const Parameter &parameter) const;
  void saveArguments(const ProgramSignature &program, const std::string &subdirectory,
                     const std::vector<ArgumentValue> &values, bool outputsOnly);

  const BenchOptions &options;
  llvm::raw_ostream &out;
  llvm::raw_ostream &errs;

  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  mlir::OwningOpRef<mlir::ModuleOp> module;    // the whole file
  mlir::OwningOpRef<mlir::ModuleOp> selection; // only the programs to run: what is compiled
  std::vector<ProgramSignature> signatures;    // every program of the file
  std::vector<const ProgramSignature *> selected;
  InputsFile inputsFile;
  int32_t nlev = 0;
  std::optional<Grid> grid;
  fusec_mesh mesh{};
  InputSource inputSource;
  std::unique_ptr<InputGenerator> generator;
  mlir::OwningOpRef<mlir::ModuleOp> oracleModule;
  std::unique_ptr<Interpreter> oracle;
  std::vector<Variant> variants;
  std::optional<HostCompiler> compiler;
  std::optional<OutputDirectory> outputDirectory;
  BenchReport report;
  bool saveFailed = false;
};

bool BenchRun::loadModule() {
  FrontendOptions frontend;
  frontend.includeDirs = options.includeDirs;
  for (const std::string &text : options.defines) {
    std::string error;
    std::optional<Define> define = parseDefine(text, error);
    if (!define)
      return fail(error);
    frontend.defines.push_back(*define);
  }
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, errs);
  module = translateStnFile(options.inputPath, frontend, sourceMgr, context, errs);
  if (!module)
    return false;
  if (mlir::failed(mlir::verify(*module)))
    return fail("the IR of '" + options.inputPath + "' does not verify");
  for (auto program : module->getOps<stn::ProgramOp>()) {
    Result<ProgramSignature> signature = describeProgram(program);
    if (!signature)
      return fail(signature.error());
    signatures.push_back(std::move(*signature));
  }
  return true;
}

/// --nlev, else `-D nlev=N` (which the frontend has checked), else 80.
bool BenchRun::resolveLevels() {
  std::optional<int32_t> defined;
  for (const std::string &text : options.defines) {
    std::string error;
    if (std::optional<Define> define = parseDefine(text, error); define && define->name == "nlev")
      defined = static_cast<int32_t>(std::strtol(define->value.c_str(), nullptr, 10));
  }
  if (options.nlev && defined && *options.nlev != *defined)
    return fail("--nlev " + std::to_string(*options.nlev) +
                " contradicts -D nlev=" + std::to_string(*defined));
  nlev = options.nlev ? *options.nlev : defined ? *defined : 80;
  if (nlev < 1)
    return fail("--nlev must be at least 1");
  return true;
}

bool BenchRun::selectPrograms() {
  std::vector<std::string> names;
  for (const std::string &name : options.programs)
    if (name == "all") {
      for (const ProgramSignature &signature : signatures)
        names.push_back(signature.name);
    } else {
      names.push_back(name);
    }
  for (const std::string &name : names) {
    const ProgramSignature *found = nullptr;
    for (const ProgramSignature &signature : signatures)
      if (signature.name == name)
        found = &signature;
    if (!found) {
      std::string known;
      for (const ProgramSignature &signature : signatures)
        known += (known.empty() ? "" : ", ") + signature.name;
      return fail("unknown program '" + name + "' (" + options.inputPath + " defines: " + known +
                  ")");
    }
    if (!llvm::is_contained(selected, found))
      selected.push_back(found);
  }
  if (selected.empty())
    return fail("no programs to run");
  // Only the selected programs are compiled (all of them with --programs all).
  selection = module->clone();
  for (auto program : llvm::make_early_inc_range(selection->getOps<stn::ProgramOp>()))
    if (!llvm::any_of(selected, [&](const ProgramSignature *signature) {
          return signature->name == program.getSymName();
        }))
      program.erase();
  return true;
}

bool BenchRun::loadInputsFile() {
  std::string path;
  if (options.inputsFile) {
    path = *options.inputsFile;
  } else {
    llvm::SmallString<256> candidate(options.inputPath);
    llvm::sys::path::replace_extension(candidate, ".inputs.yaml");
    if (!llvm::sys::fs::exists(candidate))
      return true; // built-in defaults only
    path = candidate.str().str();
  }
  std::string error;
  if (!fusec::bench::loadInputsFile(path, inputsFile, error)) {
    errs << error << "\n";
    return false;
  }
  if (Status status = checkInputsFile(inputsFile, signatures); !status) {
    errs << status.message() << "\n";
    return false;
  }
  return true;
}

bool BenchRun::makeGrid() {
  Result<Grid> made = make_grid(options.grid);
  if (!made)
    return fail(made.error());
  grid = std::move(*made);
  mesh = grid->mesh();
  return true;
}

bool BenchRun::makeInputSource() {
  inputSource.seed = options.seed;
  if (options.inputs == "random") {
    inputSource.mode = InputMode::Random;
  } else if (options.inputs == "realistic") {
    inputSource.mode = InputMode::Realistic;
  } else if (llvm::sys::fs::is_directory(options.inputs)) {
    inputSource.mode = InputMode::Random;
    inputSource.directory = options.inputs;
  } else {
    return fail("--inputs must be random, realistic or a directory of .npy files, not '" +
                options.inputs + "'");
  }
  generator = std::make_unique<InputGenerator>(*grid, nlev, inputSource, inputsFile);
  return true;
}

/// The stencils whose applications `module` holds (fused ones are named `a+b`).
static std::set<std::string> appliedStencils(mlir::ModuleOp module) {
  std::set<std::string> names;
  module.walk([&](stn::ApplyOp apply) {
    llvm::SmallVector<llvm::StringRef> parts;
    apply.getName().value_or("").split(parts, '+');
    for (llvm::StringRef part : parts)
      names.insert(part.str());
  });
  return names;
}

/// `config` without the entries that concern only programs left out of `selection`. Names
/// the whole file does not define stay, so runPipelines still reports them.
static PipelineConfig restrictToSelection(const PipelineConfig &config, mlir::ModuleOp whole,
                                          mlir::ModuleOp selection) {
  PipelineConfig restricted = config;
  for (const auto &[name, choice] : config.programs)
    if (mlir::SymbolTable::lookupSymbolIn(whole, name) &&
        !mlir::SymbolTable::lookupSymbolIn(selection, name))
      restricted.programs.erase(name);
  std::set<std::string> inWhole = appliedStencils(whole);
  std::set<std::string> inSelection = appliedStencils(selection);
  for (const auto &[name, choice] : config.stencils)
    if (inWhole.count(name) && !inSelection.count(name))
      restricted.stencils.erase(name);
  return restricted;
}

/// The variant's pipeline choice: `config` is the --config file, any other entry a
/// pipeline for every program, with `+` between passes.
static bool pipelineConfigFor(const std::string &variant, const BenchOptions &options,
                              mlir::ModuleOp whole, mlir::ModuleOp selection,
                              PipelineConfig &config, std::string &error) {
  if (variant == "config") {
    PipelineConfig loaded;
    if (!loadPipelineConfig(*options.configPath, loaded, error))
      return false;
    config = restrictToSelection(loaded, whole, selection);
    return true;
  }
  // `+` joins passes; inside options (`{stencils=a+b}`) it is part of the value.
  config.defaultPipeline = variant;
  int depth = 0;
  for (char &c : config.defaultPipeline) {
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (c == '+' && depth == 0)
      c = ',';
  }
  return true;
}

bool BenchRun::compileOracle() {
  oracleModule = selection->clone();
  PipelineConfig unoptimised;
  unoptimised.defaultPipeline = "none";
  std::string error;
  DiagnosticCollector diagnostics(context);
  if (mlir::failed(runPipelines(*oracleModule, unoptimised, /*lower=*/false, error)))
    return fail("domain inference of the reference failed: " + error + "\n" + diagnostics.text());
  oracle = std::make_unique<Interpreter>(*oracleModule, mesh, nlev);
  return true;
}

void BenchRun::compileVariant(Variant &variant) {
  PipelineConfig config;
  std::string error;
  if (!pipelineConfigFor(variant.name, options, *module, *selection, config, error)) {
    variant.error = error;
    return;
  }
  bool native = options.backend == Backend::Cpp;
  variant.module = selection->clone();
  DiagnosticCollector diagnostics(context);
  auto failed = [&](const std::string &what) {
    std::string details = diagnostics.text();
    variant.error = what + (details.empty() ? "" : "\n" + details);
  };
  if (mlir::failed(runPipelines(*variant.module, config, /*lower=*/native, error)))
    return failed(error);
  if (!native) {
    variant.interpreter = std::make_unique<Interpreter>(*variant.module, mesh, nlev);
    return;
  }
  std::string source;
  llvm::raw_string_ostream os(source);
  if (mlir::failed(emitCpp(*variant.module, os)))
    return failed("emitting C++ failed");
  mlir::FailureOr<std::string> shims = emitCallShims(*variant.module);
  if (mlir::failed(shims))
    return failed("describing the C interface failed");
  os << *shims;
  Result<BuiltLibrary> built = buildSharedLibrary(os.str(), *compiler, options.cacheDirectory);
  if (!built)
    return failed(built.error());
  errs << "fusec-bench: note: pipeline '" << variant.name << "': "
       << (built->fromCache
               ? std::string("library from the cache")
               : "compiled in " + llvm::formatv("{0:f1}", built->compileSeconds).str() + " s")
       << "\n";
  variant.library = std::move(built->library);
}

Tolerances BenchRun::tolerancesFor(const ProgramSignature &program,
                                   const Parameter &parameter) const {
  Tolerances tolerances = Tolerances::defaultFor(parameter.dtype);
  if (parameter.dtype == DType::Float64 || parameter.dtype == DType::Float32) {
    tolerances.rtol = options.rtol.value_or(tolerances.rtol);
    tolerances.atol = options.atol.value_or(tolerances.atol);
  }
  auto apply = [&](const std::map<std::string, Tolerance> &entries) {
    auto found = entries.find(parameter.name);
    if (found == entries.end())
      return;
    tolerances.rtol = found->second.rtol.value_or(tolerances.rtol);
    tolerances.atol = found->second.atol.value_or(tolerances.atol);
  };
  apply(inputsFile.defaults.tolerances);
  if (auto entry = inputsFile.programs.find(program.name); entry != inputsFile.programs.end())
    apply(entry->second.inputs.tolerances);
  return tolerances;
}

void BenchRun::saveArguments(const ProgramSignature &program, const std::string &subdirectory,
                             const std::vector<ArgumentValue> &values, bool outputsOnly) {
  if (!outputDirectory || saveFailed)
    return;
  if (Status status = outputDirectory->saveArguments(program, subdirectory, values, outputsOnly);
      !status) {
    errs << "fusec-bench: error: " << status.message() << "\n";
    saveFailed = true;
  }
}

/// Copies the output fields of `from` into the buffers of `to` (same formats).
static void restoreOutputs(const ProgramSignature &program, const std::vector<ArgumentValue> &from,
                           std::vector<ArgumentValue> &to) {
  for (size_t i = 0; i < program.parameters.size(); ++i)
    if (program.parameters[i].isOutput())
      std::memcpy(to[i].field.data(), from[i].field.data(), from[i].field.bytes().size());
}

VariantResult BenchRun::runVariant(Variant &variant, const ProgramSignature &program,
                                   const std::vector<ArgumentValue> &inputs,
                                   const std::vector<ArgumentValue> &reference) {
  VariantResult result;
  result.variant = variant.name;
  auto error = [&](const std::string &message) {
    result.verdict = Verdict::Error;
    result.error = message;
    return result;
  };
  if (!variant.error.empty())
    return error("pipeline '" + variant.name + "' could not be built (see the error above)");

  std::unique_ptr<ProgramRunner> runner;
  if (variant.library) {
    Result<std::unique_ptr<NativeRunner>> native =
        NativeRunner::create(*variant.library, program.name, mesh, nlev);
    if (!native)
      return error(native.error());
    runner = std::move(*native);
  } else {
    runner = std::make_unique<InterpreterRunner>(*variant.interpreter, program.name);
  }

  // Verification: the first run, from fresh copies of the inputs.
  std::vector<ArgumentValue> arguments = inputs;
  runner->bind(arguments);
  if (Status status = runner->run(); !status)
    return error(status.message());
  for (size_t i = 0; i < program.parameters.size(); ++i) {
    const Parameter &parameter = program.parameters[i];
    if (!parameter.isOutput())
      continue;
    FieldResult field;
    field.name = parameter.name;
    field.format = arguments[i].field.format();
    field.tolerances = tolerancesFor(program, parameter);
    field.comparison = compareFields(arguments[i].field, reference[i].field, field.tolerances);
    result.fields.push_back(std::move(field));
  }
  setVerdict(result);
  saveArguments(program, variantDirectoryName(variant.name), arguments, /*outputsOnly=*/true);

  // Timed runs, each from the initial outputs (restored outside the timed region).
  unsigned runs = options.repeat > 0 ? options.warmup + options.repeat : 0;
  for (unsigned run = 0; run < runs; ++run) {
    restoreOutputs(program, inputs, arguments);
    auto start = std::chrono::steady_clock::now();
    Status status = runner->run();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!status)
      return error("timed run " + std::to_string(run + 1) + ": " + status.message());
    if (run >= options.warmup)
      result.samples.push_back(seconds);
  }
  result.time = summarizeTimes(result.samples);
  return result;
}

ProgramResult BenchRun::runProgram(const ProgramSignature &program) {
  ProgramResult result;
  result.program = program.name;
  Result<GeneratedArguments> generated = generator->generate(program);
  if (!generated) {
    result.error = generated.error();
    return result;
  }
  const std::vector<ArgumentValue> &inputs = generated->values;
  if (inputSource.directory)
    result.inputsNote = std::to_string(generated->loadedFromDirectory) + " of " +
                        std::to_string(inputs.size()) + " arguments from the directory";
  saveArguments(program, "inputs", inputs, /*outputsOnly=*/false);

  std::vector<ArgumentValue> reference = inputs;
  InterpreterRunner oracleRunner(*oracle, program.name);
  oracleRunner.bind(reference);
  if (Status status = oracleRunner.run(); !status) {
    result.error = "reference run: " + status.message();
    return result;
  }
  saveArguments(program, "reference", reference, /*outputsOnly=*/true);

  for (Variant &variant : variants)
    result.variants.push_back(runVariant(variant, program, inputs, reference));
  return result;
}

void BenchRun::describeRun() {
  RunDescription &description = report.run;
  description.input = options.inputPath;
  description.grid = options.grid;
  description.limitedArea = grid->limited_area();
  description.cells = grid->num_cells();
  description.edges = grid->num_edges();
  description.vertices = grid->num_vertices();
  description.nlev = nlev;
  description.inputs = options.inputs;
  description.seed = options.seed;
  description.backend = options.backend == Backend::Cpp ? "cpp" : "interp";
  description.threads = omp_get_max_threads();
  description.repeat = options.repeat;
  description.warmup = options.warmup;
}

int BenchRun::run() {
  if (options.pipelines.empty() || llvm::is_contained(options.pipelines, "")) {
    fail("--pipelines needs a comma-separated list of pipelines");
    return 1;
  }
  if (llvm::is_contained(options.pipelines, "config") && !options.configPath) {
    fail("the pipeline 'config' needs --config FILE");
    return 1;
  }
  if (!loadModule() || !resolveLevels() || !selectPrograms() || !loadInputsFile() || !makeGrid() ||
      !makeInputSource())
    return 1;
  if (options.backend == Backend::Cpp) {
    Result<HostCompiler> found = HostCompiler::find(options.runtimeInclude);
    if (!found) {
      fail(found.error());
      return 1;
    }
    compiler = std::move(*found);
  }
  if (options.saveOutputs) {
    outputDirectory.emplace(*options.saveOutputs);
    if (Status status = outputDirectory->saveGrid(*grid); !status) {
      fail(status.message());
      return 1;
    }
  }

  describeRun();
  if (!compileOracle())
    return 1;
  for (const std::string &name : options.pipelines) {
    if (llvm::any_of(variants, [&](const Variant &v) { return v.name == name; }))
      continue;
    Variant &variant = variants.emplace_back();
    variant.name = name;
    report.variants.push_back(name);
    compileVariant(variant);
    if (!variant.error.empty())
      errs << "fusec-bench: error: pipeline '" << name << "': " << variant.error << "\n";
  }
  errs.flush();

  printHeader(report, out);
  for (const ProgramSignature *program : selected) {
    report.programs.push_back(runProgram(*program));
    printProgram(report, report.programs.back(), out);
  }
  printSummary(report, out);
  out.flush();

  bool written = true;
  if (outputDirectory) {
    std::vector<ProgramSignature> saved;
    for (const ProgramSignature *program : selected)
      saved.push_back(*program);
    if (Status status = outputDirectory->writeManifest(report, saved); !status)
      written = fail(status.message());
  }
  if (options.jsonPath)
    if (Status status = writeJsonReport(report, *options.jsonPath); !status)
      written = fail(status.message());
  return report.allPassed() && written && !saveFailed ? 0 : 1;
}

} // namespace

int runBench(const BenchOptions &options, llvm::raw_ostream &out, llvm::raw_ostream &errs) {
  // Textual pipelines (`stn-map-fusion+cse`) name passes through MLIR's registry.
  static const bool registered = [] {
    registerFusecPasses();
    mlir::registerCanonicalizerPass();
    mlir::registerCSEPass();
    return true;
  }();
  (void)registered;
  return BenchRun(options, out, errs).run();
}

} // namespace fusec::bench
