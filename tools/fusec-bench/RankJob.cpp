//===- RankJob.cpp - what fusec-bench-ranks runs --------------------------===//

#include "RankJob.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace fusec::bench {

namespace {

/// The words of the job file for each enumeration: one table for writing and reading.
template <typename T> struct Word {
  const char *name;
  T value;
};

constexpr Word<Parameter::Intent> kIntents[] = {{"in", Parameter::Intent::In},
                                                {"out", Parameter::Intent::Out},
                                                {"inout", Parameter::Intent::InOut}};
constexpr Word<Parameter::Vertical> kVerticals[] = {{"none", Parameter::Vertical::None},
                                                    {"full", Parameter::Vertical::Full},
                                                    {"half", Parameter::Vertical::Half}};
constexpr Word<DType> kDTypes[] = {
    {"f64", DType::Float64}, {"f32", DType::Float32}, {"i32", DType::Int32}, {"bool", DType::Bool}};
constexpr Word<ScalarArgument::Type> kScalarTypes[] = {
    {"f64", ScalarArgument::Type::F64}, {"f32", ScalarArgument::Type::F32},
    {"i32", ScalarArgument::Type::I32}, {"i64", ScalarArgument::Type::I64},
    {"bool", ScalarArgument::Type::Bool}};

template <typename T, size_t N> const char *nameOf(T value, const Word<T> (&words)[N]) {
  for (const Word<T> &word : words)
    if (word.value == value)
      return word.name;
  return "?";
}

template <typename T, size_t N>
std::optional<T> lookup(const std::string &text, const Word<T> (&words)[N]) {
  for (const Word<T> &word : words)
    if (text == word.name)
      return word.value;
  return std::nullopt;
}

std::optional<int64_t> integer(const std::string &word) {
  if (word.empty())
    return std::nullopt;
  char *end = nullptr;
  errno = 0;
  long long value = std::strtoll(word.c_str(), &end, 10);
  if (errno || *end)
    return std::nullopt;
  return value;
}

std::optional<double> real(const std::string &word) {
  if (word.empty())
    return std::nullopt;
  char *end = nullptr;
  double value = std::strtod(word.c_str(), &end);
  if (*end)
    return std::nullopt;
  return value;
}

std::vector<std::string> words(const std::string &line) {
  std::istringstream in(line);
  std::vector<std::string> result;
  for (std::string word; in >> word;)
    result.push_back(word);
  return result;
}

/// The text after the first `count` words of `line`.
std::string rest(const std::string &line, int count) {
  size_t at = 0;
  for (int i = 0; i < count; ++i) {
    at = line.find_first_not_of(" \t", at);
    if (at == std::string::npos)
      return "";
    at = line.find_first_of(" \t", at);
    if (at == std::string::npos)
      return "";
  }
  at = line.find_first_not_of(" \t", at);
  return at == std::string::npos ? "" : line.substr(at);
}

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

} // namespace

std::string writeRankJob(const RankJob &job) {
  std::ostringstream out;
  out << "# fusec-bench-ranks job (fusec-bench run --ranks)\n";
  out << "library " << job.library << "\n";
  out << "variant " << job.variant << "\n";
  out << "grid " << job.grid << "\n";
  out << "nlev " << job.nlev << "\n";
  out << "nproma " << job.nproma << "\n";
  out << "inputs " << job.inputs << "\n";
  out << "seed " << job.seed << "\n";
  if (job.inputsFile)
    out << "inputs-file " << *job.inputsFile << "\n";
  out << "steps " << job.steps << "\n";
  out << "repeat " << job.repeat << "\n";
  out << "warmup " << job.warmup << "\n";
  for (const ProgramSignature &program : job.programs) {
    out << "program " << program.name;
    if (program.outputLocation)
      out << " " << int(*program.outputLocation);
    out << "\n";
    for (const Parameter &parameter : program.parameters) {
      out << "param " << parameter.name;
      if (parameter.isField())
        out << " field " << nameOf(parameter.intent, kIntents) << " "
            << (parameter.location ? int(*parameter.location) : -1) << " " << parameter.neighbors
            << " " << nameOf(parameter.vertical, kVerticals) << " "
            << nameOf(parameter.dtype, kDTypes);
      else if (parameter.isPoints())
        out << " points " << int(*parameter.location);
      else
        out << " scalar " << nameOf(parameter.scalarType, kScalarTypes);
      out << "\n";
    }
  }
  return out.str();
}

Result<RankJob> parseRankJob(const std::string &text) {
  RankJob job;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  bool hasLibrary = false;
  while (std::getline(in, line)) {
    ++number;
    std::vector<std::string> w = words(line);
    if (w.empty() || w[0][0] == '#')
      continue;
    auto bad = [&](const std::string &why) {
      return Status::failure("job line " + std::to_string(number) + ": " + why + ": '" + line +
                             "'");
    };
    const std::string &key = w[0];
    auto count = [&](int32_t &into, int64_t minimum) -> Status {
      std::optional<int64_t> value = w.size() == 2 ? integer(w[1]) : std::nullopt;
      if (!value || *value < minimum || *value > INT32_MAX)
        return bad(key + " needs an integer of at least " + std::to_string(minimum));
      into = int32_t(*value);
      return Status::success();
    };
    Status status = Status::success();
    if (key == "library" || key == "variant" || key == "grid" || key == "inputs" ||
        key == "inputs-file") {
      std::string value = rest(line, 1);
      if (value.empty())
        return bad(key + " needs a value");
      if (key == "library")
        job.library = value, hasLibrary = true;
      else if (key == "variant")
        job.variant = value;
      else if (key == "grid")
        job.grid = value;
      else if (key == "inputs")
        job.inputs = value;
      else
        job.inputsFile = value;
    } else if (key == "nlev") {
      status = count(job.nlev, 1);
    } else if (key == "nproma") {
      status = count(job.nproma, 0);
    } else if (key == "steps") {
      status = count(job.steps, 1);
    } else if (key == "repeat") {
      status = count(job.repeat, 0);
    } else if (key == "warmup") {
      status = count(job.warmup, 0);
    } else if (key == "seed") {
      std::optional<int64_t> value = w.size() == 2 ? integer(w[1]) : std::nullopt;
      if (!value || *value < 0)
        return bad("seed needs a non-negative integer");
      job.seed = uint64_t(*value);
    } else if (key == "program") {
      if (w.size() < 2 || w.size() > 3)
        return bad("program needs a name and an optional output location");
      ProgramSignature program;
      program.name = w[1];
      if (w.size() == 3) {
        std::optional<int64_t> location = integer(w[2]);
        if (!location || *location < 0 || *location >= kNumLocations)
          return bad("unknown output location");
        program.outputLocation = Location(*location);
      }
      job.programs.push_back(std::move(program));
    } else if (key == "param") {
      if (job.programs.empty())
        return bad("a parameter before any program");
      Parameter parameter;
      if (w.size() == 4 && w[2] == "scalar") {
        parameter.name = w[1];
        std::optional<ScalarArgument::Type> type = lookup(w[3], kScalarTypes);
        if (!type)
          return bad("unknown scalar type");
        parameter.scalarType = *type;
      } else if (w.size() == 4 && w[2] == "points") {
        parameter.name = w[1];
        parameter.kind = ArgumentKind::Points;
        std::optional<int64_t> location = integer(w[3]);
        if (!location || *location < 0 || *location >= kNumLocations)
          return bad("malformed point-list parameter");
        parameter.location = Location(*location);
        parameter.vertical = Parameter::Vertical::Full;
      } else if (w.size() == 8 && w[2] == "field") {
        parameter.name = w[1];
        parameter.kind = ArgumentKind::Field;
        std::optional<Parameter::Intent> intent = lookup(w[3], kIntents);
        std::optional<int64_t> location = integer(w[4]);
        std::optional<int64_t> neighbors = integer(w[5]);
        std::optional<Parameter::Vertical> vertical = lookup(w[6], kVerticals);
        std::optional<DType> dtype = lookup(w[7], kDTypes);
        if (!intent || !location || *location < -1 || *location >= kNumLocations ||
            !neighbors || *neighbors < 0 || !vertical || !dtype)
          return bad("malformed field parameter");
        parameter.intent = *intent;
        if (*location >= 0)
          parameter.location = Location(*location);
        parameter.neighbors = int32_t(*neighbors);
        parameter.vertical = *vertical;
        parameter.dtype = *dtype;
      } else {
        return bad("malformed parameter");
      }
      job.programs.back().parameters.push_back(std::move(parameter));
    } else {
      return bad("unknown entry '" + key + "'");
    }
    if (!status)
      return status;
  }
  if (!hasLibrary)
    return Status::failure("the job names no library");
  if (job.programs.empty())
    return Status::failure("the job names no program");
  if (job.inputs != "random" && job.inputs != "realistic")
    return Status::failure("the job's inputs must be random or realistic, not '" + job.inputs +
                           "'");
  return job;
}

std::string writeRankResults(const std::vector<RankProgramResult> &results) {
  std::ostringstream out;
  for (const RankProgramResult &result : results) {
    if (!result.error.empty()) {
      std::string message = result.error;
      for (char &c : message)
        if (c == '\n')
          c = ' ';
      out << "error " << result.program << " " << message << "\n";
      continue;
    }
    out << "program " << result.program << " " << (result.match ? "yes" : "no") << " "
        << result.mismatched << " " << result.compared << "\n";
    for (size_t i = 0; i < result.total.size(); ++i)
      out << "time " << result.program << " " << number(result.total[i]) << " "
          << number(result.exchange[i]) << " " << number(result.compute[i]) << "\n";
    out << "exchange " << result.program << " " << number(result.exchangeCalls) << " "
        << number(result.messages) << " " << number(result.bytes) << "\n";
  }
  return out.str();
}

Result<std::vector<RankProgramResult>> parseRankResults(const std::string &text) {
  std::vector<RankProgramResult> results;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  auto find = [&](const std::string &name) -> RankProgramResult * {
    for (RankProgramResult &result : results)
      if (result.program == name)
        return &result;
    return nullptr;
  };
  while (std::getline(in, line)) {
    ++number;
    std::vector<std::string> w = words(line);
    if (w.empty())
      continue;
    auto bad = [&]() {
      return Status::failure("result line " + std::to_string(number) + " is malformed: '" + line +
                             "'");
    };
    if (w[0] == "error" && w.size() >= 2) {
      RankProgramResult result;
      result.program = w[1];
      result.error = rest(line, 2);
      results.push_back(std::move(result));
    } else if (w[0] == "program" && w.size() == 5) {
      RankProgramResult result;
      result.program = w[1];
      result.match = w[2] == "yes";
      std::optional<int64_t> mismatched = integer(w[3]), compared = integer(w[4]);
      if (!mismatched || !compared)
        return bad();
      result.mismatched = uint64_t(*mismatched);
      result.compared = uint64_t(*compared);
      results.push_back(std::move(result));
    } else if ((w[0] == "time" || w[0] == "exchange") && w.size() == 5) {
      RankProgramResult *result = find(w[1]);
      std::optional<double> a = real(w[2]), b = real(w[3]), c = real(w[4]);
      if (!result || !a || !b || !c)
        return bad();
      if (w[0] == "time") {
        result->total.push_back(*a);
        result->exchange.push_back(*b);
        result->compute.push_back(*c);
      } else {
        result->exchangeCalls = *a;
        result->messages = *b;
        result->bytes = *c;
      }
    } else {
      return bad();
    }
  }
  return results;
}

Result<std::string> readTextFile(const std::string &path) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return Status::failure("cannot read '" + path + "'");
  std::string text;
  char buffer[65536];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;)
    text.append(buffer, n);
  std::fclose(file);
  return text;
}

Status writeTextFile(const std::string &path, const std::string &text) {
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return Status::failure("cannot write '" + path + "'");
  bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  written &= std::fclose(file) == 0;
  return written ? Status::success() : Status::failure("cannot write '" + path + "'");
}

} // namespace fusec::bench
