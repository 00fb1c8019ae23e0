//===- RankDriver.cpp - fusec-bench-ranks: one program over MPI ranks -----===//
//
//   mpirun -np N fusec-bench-ranks JOB [--result FILE] [--set NAME=VALUE]...
//
// What `fusec-bench run --ranks N` starts (RankJob.h describes JOB). Every
// rank builds the global grid (deterministic), decomposes it over the N ranks
// (fusec/decomposition.h) and builds its local grid. Per program:
//
//   1. Every rank generates the program's inputs on the global grid, exactly
//      as a one-rank run does (values depend on the seed, the parameter's name
//      and the global point), and keeps the values at its local points,
//      halos included; scalars (zone bounds) come from its local zones; a
//      point list's entries go to the rank that owns their point, in the
//      global list's order, with the point's local index.
//   2. Rank 0 runs the program on the global grid, `steps` times in a row:
//      the one-rank reference.
//   3. Every rank runs it on its local grid, `steps` times, with
//      fusec::MpiExchange registered as the exchange callback: the only
//      communication between ranks during the run.
//   4. The owned points of every output field go to rank 0 (MPI_Gatherv),
//      which compares them with the reference bit for bit.
//   5. Timed: `warmup` + `repeat` single steps from the initial outputs, each
//      between barriers, timing the whole P_run and the time inside the
//      exchange callback on every rank.
//
// Errors: everything up to the runs is checked collectively (every rank
// learns the first failing rank's message and exits with it). A run that
// fails on one rank (P_run returns an error, e.g. a domain outside its grid)
// leaves its peers waiting inside an exchange, so that rank prints the error
// and calls MPI_Abort: every rank ends, none hangs.
//
// --set NAME=VALUE replaces a scalar argument on this rank only (with mpirun's
// `-np 1 ... : -np 1 ... --set ...` form, one rank gets a bad argument).
//
//===----------------------------------------------------------------------===//

#include "InputGenerator.h"
#include "InputsFileReader.h"
#include "ProgramRunner.h"
#include "RankJob.h"
#include "SharedLibrary.h"

#include "fusec/decomposition.h"
#include "fusec/grid_generator.h"
#include "fusec/mpi_exchange.h"

#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

using namespace fusec;
using namespace fusec::bench;

namespace {

constexpr const char *kTool = "fusec-bench-ranks";

struct Options {
  std::string job;
  std::optional<std::string> result;
  std::map<std::string, std::string> overrides; // --set NAME=VALUE
};

Result<Options> parseArguments(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string argument = argv[i];
    if (argument == "--result" || argument == "--set") {
      if (i + 1 >= argc)
        return Status::failure(argument + " needs a value");
      std::string value = argv[++i];
      if (argument == "--result") {
        options.result = value;
        continue;
      }
      size_t equals = value.find('=');
      if (equals == std::string::npos || equals == 0 || equals + 1 == value.size())
        return Status::failure("--set needs NAME=VALUE, not '" + value + "'");
      options.overrides[value.substr(0, equals)] = value.substr(equals + 1);
    } else if (!argument.empty() && argument[0] == '-') {
      return Status::failure("unknown option '" + argument +
                             "' (usage: fusec-bench-ranks JOB [--result FILE] "
                             "[--set NAME=VALUE]...)");
    } else if (options.job.empty()) {
      options.job = argument;
    } else {
      return Status::failure("unexpected argument '" + argument + "'");
    }
  }
  if (options.job.empty())
    return Status::failure("no job file (usage: fusec-bench-ranks JOB [--result FILE] "
                           "[--set NAME=VALUE]...)");
  return options;
}

class Driver {
public:
  Driver() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  int run(int argc, char **argv);

private:
  Status agree(const Status &mine);
  Status setUp(int argc, char **argv);
  RankProgramResult runProgram(const ProgramSignature &program);
  Status makeArguments(const ProgramSignature &program, std::vector<ArgumentValue> &global,
                       std::vector<ArgumentValue> &local);
  Status compare(const ProgramSignature &program, const std::vector<ArgumentValue> &reference,
                 const std::vector<ArgumentValue> &local, RankProgramResult &result);
  [[noreturn]] void abortRun(const std::string &message);

  int rank = 0, size = 1;
  Options options;
  RankJob job;
  InputsFile inputsFile;
  std::optional<Grid> global;
  std::optional<LocalDomain> local;
  std::unique_ptr<SharedLibrary> library;
};

/// Every rank's status in, the first failing rank's message out on every rank.
Status Driver::agree(const Status &mine) {
  int failing = mine ? size : rank, first = size;
  MPI_Allreduce(&failing, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size)
    return Status::success();
  std::string message = mine ? "" : mine.message();
  int length = int(message.size());
  MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
  message.resize(size_t(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, first, MPI_COMM_WORLD);
  return Status::failure("rank " + std::to_string(first) + ": " + message);
}

void Driver::abortRun(const std::string &message) {
  std::fprintf(stderr, "%s: error: rank %d: %s; aborting all %d ranks\n", kTool, rank,
               message.c_str(), size);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort(); // not reached
}

Status Driver::setUp(int argc, char **argv) {
  Result<Options> parsed = parseArguments(argc, argv);
  Status status = parsed ? Status::success() : parsed.status();
  if (parsed)
    options = *parsed;
  if (status = agree(status); !status)
    return status;

  Result<std::string> text = readTextFile(options.job);
  if (!text) {
    status = text.status();
  } else {
    Result<RankJob> parsedJob = parseRankJob(*text);
    if (parsedJob)
      job = std::move(*parsedJob);
    else
      status = Status::failure(options.job + ": " + parsedJob.error());
  }
  if (status && job.inputsFile) {
    std::string error;
    if (!loadInputsFile(*job.inputsFile, inputsFile, error))
      status = Status::failure(error);
  }
  if (status = agree(status); !status)
    return status;

  Result<Grid> made = make_grid(job.grid);
  if (made) {
    global = std::move(*made);
    Result<Decomposition> parts = decompose(*global, size);
    if (!parts) {
      status = parts.status();
    } else {
      Result<LocalDomain> domain = make_local_domain(*global, *parts, rank);
      if (domain)
        local = std::move(*domain);
      else
        status = domain.status();
    }
  } else {
    status = made.status();
  }
  if (status) {
    Result<std::unique_ptr<SharedLibrary>> opened = SharedLibrary::open(job.library);
    if (opened)
      library = std::move(*opened);
    else
      status = opened.status();
  }
  return agree(status);
}

/// A --set value as the scalar's type.
Status overrideScalar(const Parameter &parameter, const std::string &text,
                      ScalarArgument &scalar) {
  char *end = nullptr;
  if (parameter.scalarType == ScalarArgument::Type::Bool) {
    if (text != "true" && text != "false")
      return Status::failure("--set " + parameter.name + " needs true or false");
    scalar.boolean = text == "true";
    return Status::success();
  }
  double value = std::strtod(text.c_str(), &end);
  if (*end || text.empty())
    return Status::failure("--set " + parameter.name + " needs a number, not '" + text + "'");
  if (parameter.scalarType == ScalarArgument::Type::F64)
    scalar.real = value;
  else if (parameter.scalarType == ScalarArgument::Type::F32)
    scalar.real = double(float(value));
  else if (value != std::floor(value))
    return Status::failure("--set " + parameter.name + " needs an integer, not '" + text + "'");
  else
    scalar.integer = int64_t(value);
  return Status::success();
}

/// The global arguments (fields and scalars of the one-rank run) and this rank's: its points'
/// values of every field, scalars from its local zones.
Status Driver::makeArguments(const ProgramSignature &program, std::vector<ArgumentValue> &globalArgs,
                             std::vector<ArgumentValue> &localArgs) {
  InputSource source;
  source.mode = job.inputs == "realistic" ? InputMode::Realistic : InputMode::Random;
  source.seed = job.seed;
  InputGenerator generator(*global, job.nlev, source, inputsFile);
  Result<GeneratedArguments> generated = generator.generate(program);
  if (!generated)
    return generated.status();
  globalArgs = std::move(generated->values);

  for (const auto &[name, value] : options.overrides)
    if (!program.find(name) || !program.find(name)->isScalar())
      return Status::failure("--set " + name + ": program '" + program.name +
                             "' has no scalar parameter '" + name + "'");

  generator.setScalarGrid(&local->grid);
  localArgs.clear();
  for (size_t i = 0; i < program.parameters.size(); ++i) {
    const Parameter &parameter = program.parameters[i];
    const ArgumentValue &from = globalArgs[i];
    ArgumentValue value;
    value.kind = from.kind;
    value.isOutput = from.isOutput;
    if (parameter.isPoints()) {
      Location location = *parameter.location;
      for (size_t entry = 0; entry < from.points.size(); ++entry) {
        int32_t point = local->local_index(location, from.points.points[entry]);
        if (point < 0 || point >= local->points.num_owned[int(location)])
          continue;
        value.points.points.push_back(point);
        value.points.levels.push_back(from.points.levels[entry]);
      }
      localArgs.push_back(std::move(value));
      continue;
    }
    if (parameter.isScalar()) {
      Result<ScalarArgument> scalar = generator.scalar(program, parameter);
      if (!scalar)
        return scalar.status();
      value.scalar = *scalar;
      if (auto found = options.overrides.find(parameter.name); found != options.overrides.end())
        if (Status status = overrideScalar(parameter, found->second, value.scalar); !status)
          return status;
      localArgs.push_back(std::move(value));
      continue;
    }
    value.field = HostField(parameter.format(local->grid, job.nlev));
    const FieldFormat &to = value.field.format();
    const FieldFormat &whole = from.field.format();
    size_t element = dtype_size(to.dtype);
    if (!to.location) {
      std::memcpy(value.field.data(), from.field.data(), from.field.bytes().size());
    } else {
      size_t slots = to.neighbors > 0 ? size_t(to.neighbors) : 1;
      size_t levels = to.levels > 0 ? size_t(to.levels) : 1;
      const auto *in = static_cast<const uint8_t *>(from.field.data());
      auto *out = static_cast<uint8_t *>(value.field.data());
      const std::vector<int32_t> &map = local->points.global_index[int(*to.location)];
      size_t P = size_t(to.points), G = size_t(whole.points);
      for (size_t k = 0; k < levels; ++k)
        for (size_t n = 0; n < slots; ++n)
          for (size_t h = 0; h < P; ++h)
            std::memcpy(out + (h + n * P + k * P * slots) * element,
                        in + (size_t(map[h]) + n * G + k * G * slots) * element, element);
    }
    localArgs.push_back(std::move(value));
  }
  return Status::success();
}

/// Gathers the owned points of every output field to rank 0 and compares them there.
Status Driver::compare(const ProgramSignature &program,
                       const std::vector<ArgumentValue> &reference,
                       const std::vector<ArgumentValue> &localArgs, RankProgramResult &result) {
  std::string firstMismatch;
  for (size_t i = 0; i < program.parameters.size(); ++i) {
    const Parameter &parameter = program.parameters[i];
    if (!parameter.isOutput())
      continue;
    const FieldFormat &format = localArgs[i].field.format();
    size_t element = dtype_size(format.dtype);
    size_t slots = format.neighbors > 0 ? size_t(format.neighbors) : 1;
    size_t levels = format.levels > 0 ? size_t(format.levels) : 1;
    size_t perPoint = slots * levels * element;
    // Vertical-only outputs: rank 0's own copy is compared (every rank computes all of it).
    int32_t owned = format.location ? local->points.num_owned[int(*format.location)]
                                    : (rank == 0 ? 1 : 0);
    std::vector<int32_t> indices(static_cast<size_t>(owned));
    std::vector<uint8_t> values(size_t(owned) * perPoint);
    const auto *data = static_cast<const uint8_t *>(localArgs[i].field.data());
    size_t P = size_t(format.points);
    for (int32_t h = 0; h < owned; ++h) {
      indices[size_t(h)] =
          format.location ? local->global_index(*format.location, h) : 0;
      for (size_t k = 0; k < levels; ++k)
        for (size_t n = 0; n < slots; ++n)
          std::memcpy(values.data() + size_t(h) * perPoint + (k * slots + n) * element,
                      data + (size_t(h) + n * P + k * P * slots) * element, element);
    }
    std::vector<int> counts(static_cast<size_t>(size)), displacements(static_cast<size_t>(size));
    MPI_Gather(&owned, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < size; ++r)
      displacements[size_t(r)] = total, total += counts[size_t(r)];
    std::vector<int32_t> allIndices(rank == 0 ? size_t(total) : 0);
    MPI_Gatherv(indices.data(), owned, MPI_INT32_T, allIndices.data(), counts.data(),
                displacements.data(), MPI_INT32_T, 0, MPI_COMM_WORLD);
    MPI_Datatype point;
    MPI_Type_contiguous(int(perPoint), MPI_BYTE, &point);
    MPI_Type_commit(&point);
    std::vector<uint8_t> allValues(rank == 0 ? size_t(total) * perPoint : 0);
    MPI_Gatherv(values.data(), owned, point, allValues.data(), counts.data(),
                displacements.data(), point, 0, MPI_COMM_WORLD);
    MPI_Type_free(&point);
    if (rank != 0)
      continue;

    const FieldFormat &whole = reference[i].field.format();
    size_t G = size_t(whole.points);
    const auto *expected = static_cast<const uint8_t *>(reference[i].field.data());
    std::vector<uint8_t> seen(format.location ? G : 1, 0);
    for (int p = 0; p < total; ++p) {
      size_t g = size_t(allIndices[size_t(p)]);
      if (g >= seen.size() || seen[g]++)
        return Status::failure("output '" + parameter.name + "': global point " +
                               std::to_string(g) + " gathered twice or out of range");
      for (size_t k = 0; k < levels; ++k)
        for (size_t n = 0; n < slots; ++n) {
          const uint8_t *got = allValues.data() + size_t(p) * perPoint + (k * slots + n) * element;
          const uint8_t *want = expected + (g + n * G + k * G * slots) * element;
          ++result.compared;
          if (std::memcmp(got, want, element) != 0) {
            if (result.mismatched++ == 0)
              firstMismatch = "first difference: '" + parameter.name + "' at global point " +
                              std::to_string(g) + ", slot " + std::to_string(n) + ", level " +
                              std::to_string(k);
          }
        }
    }
    for (size_t g = 0; g < seen.size(); ++g)
      if (!seen[g])
        return Status::failure("output '" + parameter.name + "': global point " +
                               std::to_string(g) + " is owned by no rank");
  }
  int match = result.mismatched == 0 ? 1 : 0;
  MPI_Bcast(&match, 1, MPI_INT, 0, MPI_COMM_WORLD);
  result.match = match == 1;
  if (rank == 0 && !result.match)
    std::fprintf(stderr, "%s: %s: %llu of %llu values differ from the one-rank run (%s)\n", kTool,
                 program.name.c_str(), (unsigned long long)result.mismatched,
                 (unsigned long long)result.compared, firstMismatch.c_str());
  return Status::success();
}

// The library's device copies (CUDA shims), for the exchange's host staging.
struct DeviceCopies {
  int (*upload)(void *, const void *, size_t) = nullptr;
  int (*download)(void *, const void *, size_t) = nullptr;
};

int stagedToHost(void *host, const void *device, size_t bytes, void *, void *context) {
  return static_cast<DeviceCopies *>(context)->download(host, device, bytes);
}

int stagedToDevice(void *device, const void *host, size_t bytes, void *, void *context) {
  return static_cast<DeviceCopies *>(context)->upload(device, host, bytes);
}

RankProgramResult Driver::runProgram(const ProgramSignature &program) {
  RankProgramResult result;
  result.program = program.name;
  auto failed = [&](const Status &status) {
    // Every rank reports the (agreed) error and exits with it.
    result.error = status.message();
    std::fprintf(stderr, "%s: error: (on rank %d) %s: %s\n", kTool, rank, program.name.c_str(),
                 status.message().c_str());
    return result;
  };

  std::vector<ArgumentValue> globalArgs, localArgs;
  Status status = agree(makeArguments(program, globalArgs, localArgs));
  if (!status)
    return failed(status);
  if (rank != 0)
    globalArgs.clear(); // only the reference needs them
  std::vector<ArgumentValue> initial = localArgs;

  // The one-rank reference, on rank 0.
  if (rank == 0) {
    fusec_mesh mesh = global->mesh();
    Result<std::unique_ptr<NativeRunner>> reference =
        NativeRunner::create(*library, program.name, mesh, job.nlev, job.nproma);
    if (!reference)
      status = reference.status();
    else
      status = (*reference)->bind(globalArgs);
    for (int32_t s = 0; status && s < job.steps; ++s)
      status = (*reference)->run();
    if (status)
      status = (*reference)->fetchOutputs();
    if (!status)
      status = Status::failure("the one-rank run: " + status.message());
  }
  if (status = agree(status); !status)
    return failed(status);

  // The same program on this rank's domain, with the MPI exchange.
  fusec_mesh mesh = local->grid.mesh();
  Result<std::unique_ptr<NativeRunner>> runner =
      NativeRunner::create(*library, program.name, mesh, job.nlev, job.nproma);
  using SetCallback = void (*)(void *, fusec_exchange_callback, void *);
  auto setCallback =
      reinterpret_cast<SetCallback>(library->symbol(program.name + "_set_exchange_callback"));
  if (!runner)
    status = runner.status();
  else if (!setCallback)
    status = Status::failure("'" + job.library + "' lacks " + program.name +
                             "_set_exchange_callback");
  MpiExchange exchange(*local, MPI_COMM_WORLD);
  DeviceCopies copies;
  copies.upload =
      reinterpret_cast<int (*)(void *, const void *, size_t)>(library->symbol("fusec_bench_upload"));
  copies.download = reinterpret_cast<int (*)(void *, const void *, size_t)>(
      library->symbol("fusec_bench_download"));
  if (copies.upload && copies.download) {
    DeviceStaging staging;
    staging.to_host = stagedToHost;
    staging.to_device = stagedToDevice;
    staging.context = &copies;
    exchange.set_device_staging(staging);
  }
  if (status) {
    setCallback((*runner)->handle(), MpiExchange::callback, &exchange);
    status = (*runner)->bind(localArgs);
  }
  if (status = agree(status); !status)
    return failed(status);

  auto runStep = [&]() {
    if (Status run = (*runner)->run(); !run)
      abortRun(program.name + ": " + run.message() +
               (exchange.last_error().empty() ? "" : " (" + exchange.last_error() + ")"));
  };
  for (int32_t s = 0; s < job.steps; ++s)
    runStep();
  status = (*runner)->fetchOutputs();
  if (status = agree(status); !status)
    return failed(status);
  if (status = agree(compare(program, globalArgs, localArgs, result)); !status)
    return failed(status);
  double runs = double(job.steps);
  double calls = double(exchange.calls()) / runs, messages = double(exchange.messages()) / runs,
         bytes = double(exchange.bytes_sent()) / runs;
  MPI_Reduce(&calls, &result.exchangeCalls, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&messages, &result.messages, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&bytes, &result.bytes, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);

  // Timed single steps from the initial outputs.
  for (int32_t r = 0; r < job.warmup + job.repeat; ++r) {
    if (status = agree((*runner)->restoreOutputs(initial)); !status)
      return failed(status);
    exchange.reset_statistics();
    MPI_Barrier(MPI_COMM_WORLD);
    auto start = std::chrono::steady_clock::now();
    runStep();
    double mine[3];
    mine[0] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    mine[1] = exchange.seconds();
    mine[2] = mine[0] - mine[1];
    double slowest[3] = {0, 0, 0};
    MPI_Reduce(mine, slowest, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (r >= job.warmup && rank == 0) {
      result.total.push_back(slowest[0]);
      result.exchange.push_back(slowest[1]);
      result.compute.push_back(slowest[2]);
    }
  }
  return result;
}

int Driver::run(int argc, char **argv) {
  Status status = setUp(argc, argv);
  if (!status) {
    std::fprintf(stderr, "%s: error: (on rank %d) %s\n", kTool, rank, status.message().c_str());
    return 1;
  }
  std::vector<RankProgramResult> results;
  bool allMatched = true;
  for (const ProgramSignature &program : job.programs) {
    results.push_back(runProgram(program));
    const RankProgramResult &result = results.back();
    allMatched &= result.error.empty() && result.match;
    if (rank == 0 && result.error.empty())
      std::printf("%s: %s (%s) on %d ranks, %d step%s: %s (%llu values)\n", kTool,
                  program.name.c_str(), job.variant.c_str(), size, job.steps,
                  job.steps == 1 ? "" : "s",
                  result.match ? "owned points match the one-rank run bit for bit"
                               : "owned points DIFFER from the one-rank run",
                  (unsigned long long)result.compared);
  }
  int written = 1;
  if (rank == 0 && options.result) {
    if (Status saved = writeTextFile(*options.result, writeRankResults(results)); !saved) {
      std::fprintf(stderr, "%s: error: %s\n", kTool, saved.message().c_str());
      written = 0;
    }
  }
  MPI_Bcast(&written, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::fflush(stdout);
  return allMatched && written ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int status = Driver().run(argc, argv);
  MPI_Finalize();
  return status;
}
