//===- Session.cpp - what every fusec-bench run sets up once --------------===//

#include "Session.h"

#include "CallShim.h"
#include "Host.h"
#include "InputsFileReader.h"
#include "InterpreterRunner.h"

#include "codegen/Emitters.h"
#include "codegen/NameTable.h"
#include "compiler/Frontend.h"
#include "fusec/grid_generator.h"
#include "ir/StnOps.h"
#include "passes/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <omp.h>
#include <set>

namespace fusec::bench {

namespace {

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

/// The stencils whose applications `module` holds (fused ones are named `a+b`).
std::set<std::string> appliedStencils(mlir::ModuleOp module) {
  std::set<std::string> names;
  module.walk([&](stn::ApplyOp apply) {
    llvm::SmallVector<llvm::StringRef> parts;
    apply.getName().value_or("").split(parts, '+');
    for (llvm::StringRef part : parts)
      names.insert(part.str());
  });
  return names;
}

/// `config` without the entries that concern only programs left out of `compiled`. Names
/// the whole file does not define stay, so runPipelines still reports them.
PipelineConfig restrictTo(const PipelineConfig &config, mlir::ModuleOp whole,
                          mlir::ModuleOp compiled) {
  PipelineConfig restricted = config;
  for (const auto &[name, choice] : config.programs)
    if (mlir::SymbolTable::lookupSymbolIn(whole, name) &&
        !mlir::SymbolTable::lookupSymbolIn(compiled, name))
      restricted.programs.erase(name);
  std::set<std::string> inWhole = appliedStencils(whole);
  std::set<std::string> inCompiled = appliedStencils(compiled);
  for (const auto &[name, choice] : config.stencils)
    if (inWhole.count(name) && !inCompiled.count(name))
      restricted.stencils.erase(name);
  return restricted;
}

} // namespace

BenchSession::BenchSession(const BenchOptions &options, llvm::raw_ostream &errs,
                           Progress &progress)
    : options(options), errs(errs), progress(progress),
      context(mlir::MLIRContext::Threading::DISABLED) {}

BenchSession::~BenchSession() = default;

bool BenchSession::fail(const std::string &message) {
  progress.note("fusec-bench: error: " + message);
  return false;
}

bool BenchSession::open() {
  if (!loadModule() || !resolveLevels() || !selectPrograms() || !loadInputsFile() || !makeGrid() ||
      !makeInputSource() || !findCompiler())
    return false;
  if (options.saveOutputs) {
    outputDirectory.emplace(*options.saveOutputs);
    if (Status status = outputDirectory->saveGrid(*grid_); !status)
      return fail(status.message());
  }
  return compileOracle();
}

std::vector<std::string> BenchSession::programNames() const {
  std::vector<std::string> names;
  for (const ProgramSignature *program : selected)
    names.push_back(program->name);
  return names;
}

bool BenchSession::loadModule() {
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
bool BenchSession::resolveLevels() {
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

bool BenchSession::selectPrograms() {
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
  std::vector<std::string> kept = programNames();
  for (auto program : llvm::make_early_inc_range(selection->getOps<stn::ProgramOp>()))
    if (!llvm::is_contained(kept, program.getSymName()))
      program.erase();
  return true;
}

bool BenchSession::loadInputsFile() {
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
    progress.note(error);
    return false;
  }
  if (Status status = checkInputsFile(inputsFile, signatures); !status) {
    progress.note(status.message());
    return false;
  }
  return true;
}

bool BenchSession::makeGrid() {
  Result<Grid> made = make_grid(options.grid);
  if (!made)
    return fail(made.error());
  grid_ = std::move(*made);
  mesh = grid_->mesh();
  return true;
}

bool BenchSession::makeInputSource() {
  inputSource.seed = options.seed;
  inputSource.nproma = options.nproma;
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
  generator = std::make_unique<InputGenerator>(*grid_, nlev, inputSource, inputsFile);
  return true;
}

bool BenchSession::findCompiler() {
  if (runsInterpreter(options.backend) || options.emitOnly)
    return true;
  auto find = [&](bool fma) {
    return options.backend == Backend::Cuda
               ? Compiler::findCuda(options.runtimeInclude, options.cudaArch, fma)
           : options.backend == Backend::CudaHost
               ? Compiler::findCudaHost(options.runtimeInclude, fma)
               : Compiler::findCpp(options.runtimeInclude, fma);
  };
  Result<Compiler> found = find(options.fma);
  if (!found)
    return fail(found.error());
  compiler = std::move(*found);
  // Timed code keeps FMA contraction (nvcc's default; GCC's with
  // -march=native); the verified build above rounds like the interpreter.
  // With --fma one contracted build does both.
  if (!options.fma && options.repeat > 0) {
    Result<Compiler> timed = find(/*fma=*/true);
    if (!timed)
      return fail(timed.error());
    timedCompiler = std::move(*timed);
  }
  const Compiler &timing = timedCompiler ? *timedCompiler : *compiler;
  compilerDescription = describeCompiler(timing.program, timing.flags);
  return true;
}

bool BenchSession::compileOracle() {
  oracleModule = selection->clone();
  // Domain inference alone: the program as written, before any pass, `none`'s
  // included (it splits `where`s into ICON's loops).
  PipelineConfig unoptimised;
  unoptimised.defaultPipeline = "";
  std::string error;
  DiagnosticCollector diagnostics(context);
  if (mlir::failed(runPipelines(*oracleModule, unoptimised, /*lower=*/false, error)))
    return fail("domain inference of the reference failed: " + error + "\n" + diagnostics.text());
  oracle = std::make_unique<Interpreter>(*oracleModule, mesh, nlev);
  return true;
}

RunDescription BenchSession::describe() const {
  RunDescription description;
  description.input = options.inputPath;
  description.grid = options.grid;
  description.limitedArea = grid_->limited_area();
  description.cells = grid_->num_cells();
  description.edges = grid_->num_edges();
  description.vertices = grid_->num_vertices();
  description.nlev = nlev;
  description.inputs = options.inputs;
  description.seed = options.seed;
  description.backend = options.backend == Backend::Cpp                    ? "cpp"
                        : options.backend == Backend::Cuda                 ? "cuda"
                        : options.backend == Backend::CudaHost             ? "cuda-host"
                        : options.backend == Backend::InterpreterCppLoops  ? "interp-cpp"
                        : options.backend == Backend::InterpreterCudaLoops ? "interp-cuda"
                                                                           : "interp";
  description.threads = omp_get_max_threads();
  description.fma = options.fma;
  description.timedWithFma = timedCompiler.has_value();
  description.repeat = options.repeat;
  description.warmup = options.warmup;
  description.evictMiB = options.evictMiB;
  description.layout = options.columnsLayout ? "columns"
                       : options.nproma > 0  ? "blocked:" + std::to_string(options.nproma)
                                             : "flat";
  description.host = describeHost();
  description.compiler = compilerDescription;
  return description;
}

Result<PipelineConfig> BenchSession::configFor(const std::string &name) const {
  PipelineConfig config;
  if (name == "config") {
    std::string error;
    if (!loadPipelineConfig(*options.configPath, config, error))
      return Status::failure(error);
    return config;
  }
  // `+` joins passes; inside options (`{stencils=a+b}`) it is part of the value.
  config.defaultPipeline = name;
  int depth = 0;
  for (char &c : config.defaultPipeline) {
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (c == '+' && depth == 0)
      c = ',';
  }
  return config;
}

std::unique_ptr<Variant> BenchSession::compile(const std::string &name,
                                               const PipelineConfig &config,
                                               const std::vector<std::string> &programs,
                                               bool announce) {
  auto variant = std::make_unique<Variant>();
  variant->name = name;
  variant->module = selection->clone();
  if (!programs.empty())
    for (auto program : llvm::make_early_inc_range(variant->module->getOps<stn::ProgramOp>()))
      if (!llvm::is_contained(programs, program.getSymName()))
        program.erase();
  DiagnosticCollector diagnostics(context);
  auto failed = [&](const std::string &what) {
    std::string details = diagnostics.text();
    variant->error = what + (details.empty() ? "" : "\n" + details);
    progress.note("fusec-bench: error: pipeline '" + name + "': " + variant->error);
    return std::move(variant);
  };
  // Every backend but `interp` runs a target's loop form (the interp-* ones in the interpreter).
  bool lower = options.backend != Backend::Interpreter;
  if (std::optional<ConfigTarget> target = configTargetOf(options.backend))
    setOptimisationTarget(*variant->module, *target);
  if (options.columnsLayout)
    setColumnsLayout(*variant->module);
  std::string error;
  if (mlir::failed(runPipelines(*variant->module, restrictTo(config, *module, *variant->module),
                                lower, error)))
    return failed(error);
  if (lower) {
    mlir::PassManager loops(&context);
    buildLoopLoweringPipeline(loops);
    if (mlir::failed(loops.run(*variant->module)))
      return failed("lowering to loops failed");
  }
  if (runsInterpreter(options.backend)) {
    variant->interpreter = std::make_unique<Interpreter>(*variant->module, mesh, nlev);
    return variant;
  }
  bool cuda = compilesCuda(options.backend);
  std::string source;
  llvm::raw_string_ostream os(source);
  if (mlir::failed(cuda ? emitCuda(*variant->module, os) : emitCpp(*variant->module, os)))
    return failed(std::string("emitting ") + (cuda ? "CUDA" : "C++") + " failed");
  mlir::FailureOr<std::string> support =
      emitBenchSupport(*variant->module, cuda ? ShimTarget::Cuda : ShimTarget::Cpp);
  if (mlir::failed(support))
    return failed("describing the C interface failed");
  os << *support;
  variant->source = std::move(source);
  if (options.emitOnly)
    return variant;
  Result<BuiltLibrary> built =
      buildSharedLibrary(variant->source, *compiler, options.cacheDirectory);
  if (!built)
    return failed(built.error());
  if (announce)
    progress.note("fusec-bench: note: pipeline '" + name + "': " +
                  (built->fromCache ? std::string("library from the cache")
                                  : "compiled in " +
                                        llvm::formatv("{0:f1}", built->compileSeconds).str() +
                                        " s"));
  variant->library = std::move(built->library);
  if (timedCompiler) {
    Result<BuiltLibrary> timed =
        buildSharedLibrary(variant->source, *timedCompiler, options.cacheDirectory);
    if (!timed)
      return failed("timed build (FMA contraction): " + timed.error());
    variant->timedLibrary = std::move(timed->library);
  }
  return variant;
}

/// The text of program `name` in `module`, or empty when it is absent.
static std::string programText(mlir::ModuleOp module, const std::string &name) {
  auto program = mlir::SymbolTable::lookupSymbolIn(module, name);
  if (!program)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  program->print(os, mlir::OpPrintingFlags().assumeVerified());
  return text;
}

bool BenchSession::unchangedByPasses(const Variant &variant, const std::string &program) {
  if (!variant.module)
    return false;
  mlir::ModuleOp reference = *oracleModule;
  if (options.backend != Backend::Interpreter) {
    if (!loweredOracle) {
      loweredOracle = oracleModule->clone();
      if (std::optional<ConfigTarget> target = configTargetOf(options.backend))
        setOptimisationTarget(*loweredOracle, *target);
      if (options.columnsLayout)
        setColumnsLayout(*loweredOracle);
      mlir::PassManager pm(&context);
      buildKernelLoweringPipeline(pm);
      buildLoopLoweringPipeline(pm);
      if (mlir::failed(pm.run(*loweredOracle)))
        return false;
    }
    reference = *loweredOracle;
  }
  std::string text = programText(*variant.module, program);
  return !text.empty() && text == programText(reference, program);
}

Tolerances BenchSession::tolerancesFor(const ProgramSignature &program,
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

void BenchSession::saveArguments(const ProgramSignature &program, const std::string &subdirectory,
                                 const std::vector<ArgumentValue> &values, bool outputsOnly) {
  if (!outputDirectory || saveFailed)
    return;
  if (Status status = outputDirectory->saveArguments(program, subdirectory, values, outputsOnly);
      !status) {
    fail(status.message());
    saveFailed = true;
  }
}

void BenchSession::saveSource(const Variant &variant) {
  if (!outputDirectory || saveFailed || variant.source.empty())
    return;
  const char *extension = compilesCuda(options.backend) ? "cu" : "cpp";
  if (Status status = outputDirectory->saveSource(variant.name, variant.source, extension);
      !status) {
    fail(status.message());
    saveFailed = true;
  }
}

Status BenchSession::finishSaving(const BenchReport &report) {
  if (!outputDirectory)
    return Status::success();
  std::vector<ProgramSignature> saved;
  for (const ProgramSignature *program : selected)
    saved.push_back(*program);
  return outputDirectory->writeManifest(report, saved);
}

Result<PreparedProgram> BenchSession::prepare(const ProgramSignature &program) {
  PreparedProgram prepared;
  prepared.signature = &program;
  Result<GeneratedArguments> generated = generator->generate(program);
  if (!generated)
    return generated.status();
  prepared.inputs = std::move(generated->values);
  if (inputSource.directory)
    prepared.inputsNote = std::to_string(generated->loadedFromDirectory) + " of " +
                          std::to_string(prepared.inputs.size()) +
                          " arguments from the directory";
  saveArguments(program, "inputs", prepared.inputs, /*outputsOnly=*/false);

  prepared.reference = prepared.inputs;
  InterpreterRunner oracleRunner(*oracle, program.name);
  oracle->setTrafficTracking(true);
  Status referenceRun = oracleRunner.runOnce(prepared.reference, options.steps);
  oracle->setTrafficTracking(false);
  if (!referenceRun)
    return Status::failure("reference run: " + referenceRun.message());
  for (const FieldTraffic &field : oracle->lastTraffic())
    prepared.compulsoryBytes += field.bytes();
  saveArguments(program, "reference", prepared.reference, /*outputsOnly=*/true);
  return prepared;
}

namespace {

/// One variant during an interleaved measurement.
struct Measurement {
  Variant *variant = nullptr;
  std::unique_ptr<ProgramRunner> runner;
  /// The arguments the runner is bound to: they live as long as it does.
  std::vector<ArgumentValue> arguments;
  VariantResult result;
  /// The timers of the native runner's instance, when the code has them.
  std::optional<GeneratedTimers> timers;
  TimerSamples timersBefore;
  /// Verified and warmed up, and no run has failed since.
  bool timing = false;
  /// With --kernel-traffic: what each kernel read and wrote in one run.
  std::vector<KernelTraffic> kernelTraffic;

  void error(const std::string &message) {
    result.verdict = Verdict::Error;
    result.error = message;
    timing = false;
  }
};

} // namespace

/// Every output field of `actual` compared with `reference`, with the
/// tolerances `tolerancesOf` gives its parameter.
static std::vector<FieldResult>
compareOutputs(const ProgramSignature &program, const std::vector<ArgumentValue> &actual,
               const std::vector<ArgumentValue> &reference,
               llvm::function_ref<Tolerances(const Parameter &)> tolerancesOf) {
  std::vector<FieldResult> fields;
  for (size_t i = 0; i < program.parameters.size(); ++i) {
    const Parameter &parameter = program.parameters[i];
    if (!parameter.isOutput())
      continue;
    FieldResult field;
    field.name = parameter.name;
    field.format = actual[i].field.format();
    field.tolerances = tolerancesOf(parameter);
    field.comparison = compareFields(actual[i].field, reference[i].field, field.tolerances);
    fields.push_back(std::move(field));
  }
  return fields;
}

/// What each kernel of `variant`'s program reads and writes in one run from the prepared
/// inputs: the interpreter runs the variant's optimised module, the code the library was
/// emitted from.
static Result<std::vector<KernelTraffic>> countKernelTraffic(const Variant &variant,
                                                            const PreparedProgram &prepared,
                                                            const fusec_mesh &mesh,
                                                            int32_t nlev) {
  Interpreter interpreter(*variant.module, mesh, nlev);
  interpreter.setKernelTrafficTracking(true);
  InterpreterRunner runner(interpreter, prepared.signature->name);
  std::vector<ArgumentValue> arguments = prepared.inputs;
  if (Status status = runner.runOnce(arguments); !status)
    return status;
  llvm::ArrayRef<KernelTraffic> counted = interpreter.lastKernelTraffic();
  return std::vector<KernelTraffic>(counted.begin(), counted.end());
}

/// The count of the kernel the emitted function `function` was named after: emitters make
/// kernel names unique across the module (`k` may become `k_1`), the interpreter counts by
/// the kernel's own name, so kernels of one name share their count. The longest matching name
/// wins (`k_1` itself over `k`).
/// A wavefront's timer, `wavefront(f0, f1, ...)`, takes the count of the interpreter's group,
/// `wavefront(k0, k1, ...)`, whose stage kernels its functions were named after.
static const KernelTraffic *trafficOfFunction(llvm::ArrayRef<KernelTraffic> counted,
                                              llvm::StringRef function) {
  auto members = [](llvm::StringRef name) {
    llvm::SmallVector<llvm::StringRef> parts;
    if (name.consume_front("wavefront(") && name.consume_back(")"))
      name.split(parts, ", ");
    return parts;
  };
  llvm::SmallVector<llvm::StringRef> functions = members(function);
  auto names = [&](const KernelTraffic &traffic) {
    if (functions.empty())
      return codegen::NameTable::canName(function, traffic.name);
    llvm::SmallVector<llvm::StringRef> kernels = members(traffic.name);
    if (kernels.size() != functions.size())
      return false;
    for (auto [from, kernel] : llvm::zip_equal(functions, kernels))
      if (!codegen::NameTable::canName(from, kernel))
        return false;
    return true;
  };
  const KernelTraffic *best = nullptr;
  for (const KernelTraffic &traffic : counted)
    if (traffic.calls > 0 && names(traffic) && (!best || traffic.name.size() > best->name.size()))
      best = &traffic;
  return best;
}

/// Replaces the verified build's runner by one of the variant's timed build
/// (FMA contraction), after checking its outputs against the reference with
/// the FMA tolerances: a field outside them is added to the result as
/// "<name> (timed build)".
static Status switchToTimedBuild(Measurement &m, const Variant &variant,
                                 const PreparedProgram &prepared, const fusec_mesh &mesh,
                                 int32_t nlev, int64_t nproma, unsigned steps) {
  const ProgramSignature &program = *prepared.signature;
  Result<std::unique_ptr<NativeRunner>> native =
      NativeRunner::create(*variant.timedLibrary, program.name, mesh, nlev, nproma);
  if (!native)
    return native.status();
  m.timers = GeneratedTimers::find(*variant.timedLibrary, program.name, (*native)->handle());
  m.runner = std::move(*native);
  m.arguments = prepared.inputs;
  if (Status status = m.runner->runOnce(m.arguments, steps); !status)
    return status;
  for (FieldResult &field : compareOutputs(program, m.arguments, prepared.reference,
                                           [](const Parameter &parameter) {
                                             return Tolerances::withFmaFor(parameter.dtype);
                                           })) {
    field.name += " (timed build)";
    if (!field.comparison.passed())
      m.result.fields.push_back(std::move(field));
  }
  setVerdict(m.result);
  return Status::success();
}

std::vector<VariantResult> BenchSession::measure(llvm::ArrayRef<Variant *> variants,
                                                 const PreparedProgram &prepared,
                                                 unsigned warmup, unsigned repeat) {
  const ProgramSignature &program = *prepared.signature;
  std::vector<Measurement> measurements(variants.size());

  // Written before every run with --evict-caches: a line per 64 bytes suffices.
  std::vector<uint8_t> evictionBuffer(size_t(options.evictMiB) << 20);
  // A run from the initial outputs; its time, or nothing after an error.
  auto run = [&](Measurement &m, unsigned index) -> std::optional<double> {
    if (Status status = m.runner->restoreOutputs(prepared.inputs); !status) {
      m.error("run " + std::to_string(index + 1) + ": " + status.message());
      return std::nullopt;
    }
    volatile uint8_t *eviction = evictionBuffer.data(); // stores the compiler must keep
    for (size_t byte = 0; byte < evictionBuffer.size(); byte += 64)
      eviction[byte] = eviction[byte] + 1;
    auto start = std::chrono::steady_clock::now();
    Status status = m.runner->run();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!status) {
      m.error("run " + std::to_string(index + 1) + ": " + status.message());
      return std::nullopt;
    }
    return seconds;
  };

  // Verification (the first run, from fresh copies of the inputs) and warm-up.
  for (auto [variant, m] : llvm::zip_equal(variants, measurements)) {
    m.variant = variant;
    m.result.variant = variant->name;
    if (!variant->error.empty()) {
      m.error("pipeline '" + variant->name + "' could not be built (see the error above)");
      continue;
    }
    if (variant->library) {
      Result<std::unique_ptr<NativeRunner>> native =
          NativeRunner::create(*variant->library, program.name, mesh, nlev, options.nproma);
      if (!native) {
        m.error(native.error());
        continue;
      }
      m.timers = GeneratedTimers::find(*variant->library, program.name, (*native)->handle());
      m.runner = std::move(*native);
      if (options.kernelTraffic && m.timers) {
        Result<std::vector<KernelTraffic>> traffic =
            countKernelTraffic(*variant, prepared, mesh, nlev);
        if (!traffic) {
          m.error("counting the kernels' bytes: " + traffic.error());
          continue;
        }
        m.kernelTraffic = std::move(*traffic);
      }
    } else {
      m.runner = std::make_unique<InterpreterRunner>(*variant->interpreter, program.name);
    }
    m.arguments = prepared.inputs;
    std::vector<ArgumentValue> &arguments = m.arguments;
    if (Status status = m.runner->runOnce(arguments, options.steps); !status) {
      m.error(status.message());
      continue;
    }
    m.result.fields = compareOutputs(program, arguments, prepared.reference,
                                     [&](const Parameter &parameter) {
                                       return tolerancesFor(program, parameter);
                                     });
    setVerdict(m.result);
    saveArguments(program, variantDirectoryName(variant->name), arguments, /*outputsOnly=*/true);
    if (repeat == 0)
      continue;
    if (variant->timedLibrary) {
      if (Status timed = switchToTimedBuild(m, *variant, prepared, mesh, nlev, options.nproma,
                                                options.steps); !timed) {
        m.error("timed build: " + timed.message());
        continue;
      }
    }
    m.timing = true;
    for (unsigned index = 0; index < warmup && m.timing; ++index)
      run(m, index);
    if (m.timing && m.timers) {
      Result<TimerSamples> read = m.timers->read();
      if (read)
        m.timersBefore = std::move(*read);
      else
        m.error(read.error());
    }
  }

  // Timed runs, round the variants; the emitted code's timers are on for
  // these runs only.
  for (unsigned index = 0; index < repeat; ++index)
    for (Measurement &m : measurements) {
      if (!m.timing)
        continue;
      if (m.timers)
        m.timers->enable(true);
      std::optional<double> seconds = run(m, warmup + index);
      if (m.timers)
        m.timers->enable(false);
      if (seconds)
        m.result.samples.push_back(*seconds);
    }

  std::vector<VariantResult> results;
  for (Measurement &m : measurements) {
    if (m.timing && m.timers) {
      Result<TimerSamples> after = m.timers->read();
      if (!after) {
        m.error(after.error());
      } else {
        ProgramTimes times = newSamples(m.timersBefore, *after, program.name);
        // The emitted code's own timer of P_run, when every timed run has a sample.
        if (times.run.size() == m.result.samples.size())
          m.result.samples = std::move(times.run);
        for (auto &[name, samples] : times.kernels) {
          KernelResult &kernel =
              m.result.kernels.emplace_back(KernelResult{name, samples, summarizeTimes(samples)});
          if (const KernelTraffic *counted = trafficOfFunction(m.kernelTraffic, name))
            kernel.bytesPerCall = counted->bytes() / counted->calls;
        }
      }
    }
    if (m.timing)
      m.result.time = summarizeTimes(m.result.samples);
    results.push_back(std::move(m.result));
  }
  return results;
}

} // namespace fusec::bench
