//===- InputGenerator.cpp - the arguments of each program call ------------===//

#include "InputGenerator.h"

#include "fusec/npy.h"
#include "fusec/random.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace fusec::bench {

namespace {

constexpr double kPi = 3.14159265358979323846;

/// Level k of `levels` as a relative depth in (0, 1): k = 0 is the model top.
double relativeDepth(const FieldFormat &format, int32_t level) {
  return format.levels > 0 ? (level + 0.5) / format.levels : 0.5;
}

/// A smooth pattern in [-1, 1] of longitude, latitude and relative depth.
double smoothPattern(double lon, double lat, double depth) {
  return 0.5 * (std::cos(lat) * std::sin(lon + 2.0 * kPi * depth) +
                std::sin(2.0 * lat) * std::cos(3.0 * lon - kPi * depth));
}

/// A smooth wind: a zonal jet that weakens downwards, with a wave-number-2
/// meridional component, both vanishing at the poles.
void smoothWind(double lon, double lat, double depth, double speed, double &u, double &v) {
  double strength = speed * (1.5 - depth);
  u = strength * std::cos(lat) * (1.0 + 0.25 * std::sin(2.0 * lon));
  v = strength * 0.25 * std::cos(2.0 * lon) * std::sin(2.0 * lat);
}

const Points &pointsOf(const Grid &grid, Location location) {
  const GridGeometry &geometry = grid.geometry();
  return location == Location::Cell   ? geometry.cells
         : location == Location::Edge ? geometry.edges
                                      : geometry.vertices;
}

/// `value` as a short decimal ("5", "0.25").
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

bool isCoefficientName(const std::string &name) {
  for (const std::string &candidate : InputGenerator::coefficientNames())
    if (candidate == name)
      return true;
  return false;
}

enum class EntryKind { Scalar, Field, Points, Tolerance };

bool fits(const Parameter &parameter, EntryKind kind) {
  switch (kind) {
  case EntryKind::Scalar:
    return parameter.isScalar();
  case EntryKind::Field:
    return parameter.isField();
  case EntryKind::Points:
    return parameter.isPoints();
  case EntryKind::Tolerance:
    return parameter.isOutput();
  }
  return false;
}

const char *entryWhat(EntryKind kind) {
  return kind == EntryKind::Scalar   ? "scalar parameter"
         : kind == EntryKind::Field  ? "field parameter"
         : kind == EntryKind::Points ? "point-list parameter"
                                     : "output field";
}

const char *article(EntryKind kind) { return kind == EntryKind::Tolerance ? "an" : "a"; }

/// `names` (with their locations) must each fit `kind` in `program`, or, without a
/// program, in some program of the module.
template <typename Entries>
Status checkNames(const Entries &entries, EntryKind kind, const ProgramSignature *program,
                  const std::vector<ProgramSignature> &programs) {
  for (const auto &[name, entry] : entries) {
    bool found = false;
    std::string candidates;
    for (const ProgramSignature &candidate : programs) {
      if (program && &candidate != program)
        continue;
      for (const Parameter &parameter : candidate.parameters) {
        if (!fits(parameter, kind))
          continue;
        found |= parameter.name == name;
        if (program)
          candidates += (candidates.empty() ? "" : ", ") + parameter.name;
      }
    }
    if (found)
      continue;
    std::string message = entry.where + ": error: ";
    if (program)
      message += "program '" + program->name + "' has no " + entryWhat(kind) + " '" + name +
                 "' (its " + entryWhat(kind) +
                 "s: " + (candidates.empty() ? std::string("none") : candidates) + ")";
    else
      message += "no program has " + std::string(article(kind)) + " " + entryWhat(kind) + " '" +
                 name + "'";
    return Status::failure(message);
  }
  return Status::success();
}

/// The program's own entry for `name`, else the file-wide one, when it covers `mode`.
template <typename T>
const PerMode<T> *findEntry(const std::map<std::string, PerMode<T>> *program,
                            const std::map<std::string, PerMode<T>> &defaults,
                            const std::string &name, InputMode mode) {
  if (program)
    if (auto found = program->find(name); found != program->end() && found->second.get(mode))
      return &found->second;
  if (auto found = defaults.find(name); found != defaults.end() && found->second.get(mode))
    return &found->second;
  return nullptr;
}

const ParameterInputs *inputsOf(const InputsFile &file, const ProgramSignature &program) {
  auto found = file.programs.find(program.name);
  return found == file.programs.end() ? nullptr : &found->second.inputs;
}

/// The index among `program`'s parameters of the field that `nonzero(FIELD, ...)` of point
/// list `list` reads: a dense field of the list's location with full levels.
Result<size_t> nonzeroField(const ProgramSignature &program, const Parameter &list,
                            const PointsGenerator &generator) {
  std::string wanted = std::string(location_name(*list.location)) + " x K";
  for (size_t i = 0; i < program.parameters.size(); ++i) {
    const Parameter &parameter = program.parameters[i];
    if (parameter.name != generator.field)
      continue;
    if (!parameter.isField() || parameter.location != list.location || parameter.neighbors != 0 ||
        parameter.vertical != Parameter::Vertical::Full)
      return Status::failure("'" + generator.text + "': '" + generator.field + "' is " +
                             parameter.describe() + ", not a field of " + wanted);
    return i;
  }
  return Status::failure("'" + generator.text + "': program '" + program.name + "' has no field '" +
                         generator.field + "'");
}

} // namespace

Status checkInputsFile(const InputsFile &file, const std::vector<ProgramSignature> &programs) {
  auto checkAll = [&](const ParameterInputs &inputs, const ProgramSignature *program) {
    if (Status status = checkNames(inputs.scalars, EntryKind::Scalar, program, programs); !status)
      return status;
    if (Status status = checkNames(inputs.fields, EntryKind::Field, program, programs); !status)
      return status;
    if (Status status = checkNames(inputs.points, EntryKind::Points, program, programs); !status)
      return status;
    return checkNames(inputs.tolerances, EntryKind::Tolerance, program, programs);
  };
  if (Status status = checkAll(file.defaults, nullptr); !status)
    return status;
  for (const auto &[name, entry] : file.programs) {
    const ProgramSignature *program = nullptr;
    for (const ProgramSignature &candidate : programs)
      if (candidate.name == name)
        program = &candidate;
    if (!program)
      return Status::failure(entry.where + ": error: the file defines no program '" + name + "'");
    if (Status status = checkAll(entry.inputs, program); !status)
      return status;
  }
  // The entry each program's point list gets in each mode, where it is a `nonzero`.
  for (const ProgramSignature &program : programs) {
    const ParameterInputs *own = inputsOf(file, program);
    for (const Parameter &parameter : program.parameters) {
      if (!parameter.isPoints())
        continue;
      for (InputMode mode : {InputMode::Random, InputMode::Realistic}) {
        const PerMode<PointsGenerator> *entry =
            findEntry(own ? &own->points : nullptr, file.defaults.points, parameter.name, mode);
        if (!entry || entry->get(mode)->kind != PointsGenerator::Kind::Nonzero)
          continue;
        if (Result<size_t> field = nonzeroField(program, parameter, *entry->get(mode)); !field)
          return Status::failure(entry->where + ": error: point list '" + parameter.name +
                                 "' of program '" + program.name + "': " + field.error());
      }
    }
  }
  return Status::success();
}

InputGenerator::InputGenerator(const Grid &grid, int32_t nlev, InputSource source,
                               const InputsFile &file)
    : grid(grid), nlev(nlev), source(std::move(source)), file(file) {}

std::vector<std::string> InputGenerator::coefficientNames() {
  std::vector<std::string> names;
  for (const FieldRef &field : DiffusionCoefficients().fields())
    names.push_back(field.name);
  names.push_back("vct_a");
  return names;
}

Result<const DiffusionCoefficients *> InputGenerator::coefficients() {
  if (!coefficients_) {
    CoefficientConfig config;
    config.vertical.num_levels = nlev;
    Result<DiffusionCoefficients> computed = compute_diffusion_coefficients(grid, config);
    if (!computed)
      return Status::failure("cannot compute the diffusion coefficients for " +
                             std::to_string(nlev) + " levels: " + computed.error());
    coefficients_ = std::make_unique<DiffusionCoefficients>(std::move(*computed));
  }
  return coefficients_.get();
}

ScalarEnvironment InputGenerator::environment() {
  ScalarEnvironment environment;
  environment.grid = scalarGrid ? scalarGrid : &grid;
  environment.nlev = nlev;
  environment.endIndexOfDampingLayer = [this]() -> Result<int32_t> {
    Result<const DiffusionCoefficients *> computed = coefficients();
    if (!computed)
      return computed.status();
    return (*computed)->end_index_of_damping_layer;
  };
  return environment;
}

const ParameterInputs *InputGenerator::programInputs(const ProgramSignature &program) const {
  return inputsOf(file, program);
}

Result<ScalarArgument> InputGenerator::scalar(const ProgramSignature &program,
                                              const Parameter &parameter) {
  const ParameterInputs *own = programInputs(program);
  const PerMode<ScalarExpression> *spec =
      findEntry(own ? &own->scalars : nullptr, file.defaults.scalars, parameter.name, source.mode);

  ScalarValue value;
  std::string where;
  if (spec) {
    where = spec->where + ": ";
    Result<ScalarValue> evaluated = spec->get(source.mode)->evaluate(environment());
    if (!evaluated)
      return Status::failure(where + evaluated.error());
    value = *evaluated;
  } else if (parameter.name == "h_start" || parameter.name == "v_start") {
    value = ScalarValue::ofNumber(0);
  } else if (parameter.name == "h_end" && program.outputLocation) {
    value = ScalarValue::ofNumber(scalarGrid
                                      ? scalarGrid->end(*program.outputLocation, Zone::Local)
                                      : grid.num_points(*program.outputLocation));
  } else if (parameter.name == "v_end") {
    value = ScalarValue::ofNumber(nlev);
  } else if (parameter.scalarType == ScalarArgument::Type::Bool) {
    value = ScalarValue::ofBoolean(false);
  } else if (parameter.scalarType == ScalarArgument::Type::F64 ||
             parameter.scalarType == ScalarArgument::Type::F32) {
    RandomGenerator rng = RandomGenerator::for_field(source.seed, parameter.name);
    value = ScalarValue::ofNumber(rng.uniform(-1.0, 1.0));
  } else {
    value = ScalarValue::ofNumber(0);
  }

  ScalarArgument argument;
  argument.type = parameter.scalarType;
  std::string what = where + "scalar '" + parameter.name + "' (" + parameter.describe() + ")";
  switch (parameter.scalarType) {
  case ScalarArgument::Type::Bool:
    if (!value.isBoolean)
      return Status::failure(what + " needs true, false or limited_area, not a number");
    argument.boolean = value.boolean;
    return argument;
  case ScalarArgument::Type::F64:
  case ScalarArgument::Type::F32:
    if (value.isBoolean)
      return Status::failure(what + " needs a number, not a boolean");
    argument.real = parameter.scalarType == ScalarArgument::Type::F32
                        ? static_cast<double>(static_cast<float>(value.number))
                        : value.number;
    return argument;
  case ScalarArgument::Type::I32:
  case ScalarArgument::Type::I64: {
    bool wide = parameter.scalarType == ScalarArgument::Type::I64;
    double low = wide ? -9.2e18 : std::numeric_limits<int32_t>::min();
    double high = wide ? 9.2e18 : std::numeric_limits<int32_t>::max();
    if (value.isBoolean || value.number != std::floor(value.number) || value.number < low ||
        value.number > high)
      return Status::failure(
          what + " needs an integer, and the value is " +
          (value.isBoolean ? std::string("a boolean") : std::to_string(value.number)));
    argument.integer = static_cast<int64_t>(value.number);
    return argument;
  }
  }
  return argument;
}

Status InputGenerator::copyCoefficient(const std::string &name, const std::string &parameter,
                                       HostField &field) {
  Result<const DiffusionCoefficients *> computed = coefficients();
  if (!computed)
    return computed.status();
  const FieldFormat &format = field.format();
  auto mismatch = [&](const std::string &shape) {
    return Status::failure("coefficient '" + name + "' (" + shape + ") does not fit field '" +
                           parameter + "' (" + format.describe() + ")");
  };
  if (name == "vct_a") {
    const std::vector<double> &vct = (*computed)->vct_a;
    if (format.location || format.size() != vct.size())
      return mismatch(std::to_string(vct.size()) + " levels");
    for (size_t i = 0; i < vct.size(); ++i)
      field.set(i, vct[i]);
    return Status::success();
  }
  for (const FieldRef &coefficient : (*computed)->fields()) {
    if (coefficient.name != name)
      continue;
    FieldFormat source;
    source.location = coefficient.location;
    source.points = coefficient.layout.num_points;
    source.neighbors = coefficient.layout.num_neighbors;
    source.levels = coefficient.layout.num_levels;
    if (format.location != source.location || format.points != source.points ||
        format.neighbors != source.neighbors || format.levels != source.levels)
      return mismatch(source.describe());
    for (size_t i = 0; i < format.size(); ++i)
      field.set(i, coefficient.dtype == DType::Int32
                       ? static_cast<const int32_t *>(coefficient.data)[i]
                       : static_cast<const double *>(coefficient.data)[i]);
    return Status::success();
  }
  std::string known;
  for (const std::string &candidate : coefficientNames())
    known += (known.empty() ? "" : ", ") + candidate;
  return Status::failure("unknown coefficient '" + name + "' (known: " + known + ")");
}

Result<std::vector<double>>
InputGenerator::evaluateNumbers(const std::vector<ScalarExpression> &arguments) {
  std::vector<double> numbers;
  for (const ScalarExpression &argument : arguments) {
    Result<ScalarValue> value = argument.evaluate(environment());
    if (!value)
      return value.status();
    if (value->isBoolean)
      return Status::failure("'" + argument.text() + "' is a boolean, not a number");
    numbers.push_back(value->number);
  }
  return numbers;
}

Status InputGenerator::generateField(const FieldGenerator &generator, const Parameter &parameter,
                                     HostField &field) {
  const FieldFormat &format = field.format();
  Result<std::vector<double>> evaluated = evaluateNumbers(generator.arguments);
  if (!evaluated)
    return evaluated.status();
  const std::vector<double> &numbers = *evaluated;
  RandomGenerator rng = RandomGenerator::for_field(source.seed, parameter.name);
  size_t size = format.size();

  switch (generator.kind) {
  case FieldGenerator::Kind::Uniform: {
    double low = numbers.empty() ? -1.0 : numbers[0];
    double high = numbers.empty() ? 1.0 : numbers[1];
    std::vector<double> values = random_field(rng, size, low, high);
    for (size_t i = 0; i < size; ++i)
      field.set(i, values[i]);
    return Status::success();
  }
  case FieldGenerator::Kind::Sign: {
    std::vector<double> values = random_sign(rng, size);
    for (size_t i = 0; i < size; ++i)
      field.set(i, values[i]);
    return Status::success();
  }
  case FieldGenerator::Kind::Mask: {
    std::vector<uint8_t> values = random_mask(rng, size);
    for (size_t i = 0; i < size; ++i)
      field.set(i, values[i]);
    return Status::success();
  }
  case FieldGenerator::Kind::VertOffset: {
    // ICON4Py's StencilTest: offset = randint(-k, levels - k - 1), so that the
    // neighbour levels k + offset and k + offset + 1 both exist.
    if (format.levels < 2)
      return Status::failure("vertoffset needs a field with at least 2 levels");
    for (size_t i = 0; i < size; ++i) {
      int32_t level = format.position(i).level;
      field.set(i,
                static_cast<double>(rng.below(static_cast<uint64_t>(format.levels - 1))) - level);
    }
    return Status::success();
  }
  case FieldGenerator::Kind::Constant:
    for (size_t i = 0; i < size; ++i)
      field.set(i, numbers[0]);
    return Status::success();
  case FieldGenerator::Kind::Coefficient:
    return copyCoefficient(generator.coefficient, parameter.name, field);
  case FieldGenerator::Kind::Smooth:
  case FieldGenerator::Kind::Perturbed: {
    double mean = generator.kind == FieldGenerator::Kind::Smooth ? numbers[0] : 0.0;
    double amplitude = numbers.back();
    if (generator.kind == FieldGenerator::Kind::Perturbed)
      if (Status status = copyCoefficient(generator.coefficient, parameter.name, field); !status)
        return status;
    for (size_t i = 0; i < size; ++i) {
      FieldFormat::Position at = format.position(i);
      double depth = relativeDepth(format, at.level);
      double pattern = std::cos(kPi * depth);
      if (format.location) {
        const Points &points = pointsOf(grid, *format.location);
        pattern = smoothPattern(points.lon[at.point], points.lat[at.point], depth);
      }
      double base = generator.kind == FieldGenerator::Kind::Perturbed ? field.get(i) : mean;
      field.set(i, base + amplitude * pattern);
    }
    return Status::success();
  }
  case FieldGenerator::Kind::NormalWind:
  case FieldGenerator::Kind::ZonalWind:
  case FieldGenerator::Kind::MeridionalWind: {
    if (!format.location)
      return Status::failure(generator.text + " needs a field with a horizontal location");
    bool normal = generator.kind == FieldGenerator::Kind::NormalWind;
    if (normal && format.location != Location::Edge)
      return Status::failure(generator.text + " needs an Edge field");
    const Points &points = pointsOf(grid, *format.location);
    const GridGeometry &geometry = grid.geometry();
    for (size_t i = 0; i < size; ++i) {
      FieldFormat::Position at = format.position(i);
      double u, v;
      smoothWind(points.lon[at.point], points.lat[at.point], relativeDepth(format, at.level),
                 numbers[0], u, v);
      double value = generator.kind == FieldGenerator::Kind::ZonalWind        ? u
                     : generator.kind == FieldGenerator::Kind::MeridionalWind ? v
                                                                              : 0.0;
      if (normal)
        value = u * geometry.primal_normal_u[at.point] + v * geometry.primal_normal_v[at.point];
      field.set(i, value);
    }
    return Status::success();
  }
  }
  return Status::success();
}

/// The file <dir>/<program>/inputs/<name>.npy, else <dir>/<name>.npy, if either exists.
static std::optional<std::string>
findInputFile(const std::string &directory, const std::string &program, const std::string &name) {
  for (const std::string &path :
       {directory + "/" + program + "/inputs/" + name + ".npy", directory + "/" + name + ".npy"})
    if (FILE *probe = std::fopen(path.c_str(), "rb")) {
      std::fclose(probe);
      return path;
    }
  return std::nullopt;
}

static Result<ScalarArgument> loadScalar(const std::string &path, const Parameter &parameter) {
  Result<NpyArray> array = read_npy(path);
  if (!array)
    return array.status();
  if (array->num_elements() != 1)
    return Status::failure(path + ": scalar '" + parameter.name +
                           "' needs one element, the file has shape " + shape_string(array->shape));
  ScalarArgument argument;
  argument.type = parameter.scalarType;
  const uint8_t *bytes = array->bytes.data();
  double value = 0.0;
  switch (array->dtype) {
  case DType::Float64:
    std::memcpy(&value, bytes, sizeof value);
    break;
  case DType::Float32: {
    float single;
    std::memcpy(&single, bytes, sizeof single);
    value = single;
    break;
  }
  case DType::Int32: {
    int32_t integer;
    std::memcpy(&integer, bytes, sizeof integer);
    value = integer;
    break;
  }
  case DType::Bool:
    value = bytes[0] ? 1.0 : 0.0;
    break;
  }
  argument.real = parameter.scalarType == ScalarArgument::Type::F32
                      ? static_cast<double>(static_cast<float>(value))
                      : value;
  argument.integer = static_cast<int64_t>(value);
  argument.boolean = value != 0.0;
  return argument;
}

Status InputGenerator::fillField(const ProgramSignature &program, const Parameter &parameter,
                                 HostField &field) {
  const ParameterInputs *own = programInputs(program);
  const PerMode<FieldGenerator> *spec =
      findEntry(own ? &own->fields : nullptr, file.defaults.fields, parameter.name, source.mode);
  if (spec) {
    Status status = generateField(*spec->get(source.mode), parameter, field);
    if (!status)
      return Status::failure(spec->where + ": field '" + parameter.name + "': " + status.message());
    return status;
  }
  std::string text = source.mode == InputMode::Realistic && isCoefficientName(parameter.name)
                         ? "coefficient(" + parameter.name + ")"
                     : parameter.dtype == DType::Bool ? "mask"
                                                      : "uniform";
  std::string error;
  Status status = generateField(*FieldGenerator::parse(text, error), parameter, field);
  if (!status)
    return Status::failure("field '" + parameter.name + "' (default " + text +
                           "): " + status.message());
  return status;
}

/// A saved point list, checked against the grid: compiled code trusts its entries.
static Result<PointList> loadPoints(const std::string &path, const Parameter &parameter,
                                    const Grid &grid, int32_t nlev) {
  Result<NpyArray> array = read_npy(path);
  if (!array)
    return array.status();
  Result<PointList> list = pointListFromNpy(*array, path);
  if (!list)
    return list;
  if (Status status = checkPointList(*list, grid.num_points(*parameter.location), nlev); !status)
    return Status::failure(path + ": point list '" + parameter.name + "': " + status.message());
  return list;
}

Status InputGenerator::generatePoints(const PointsGenerator &generator,
                                      const ProgramSignature &program, const Parameter &parameter,
                                      const std::vector<ArgumentValue> &values, PointList &list) {
  Result<std::vector<double>> evaluated = evaluateNumbers(generator.arguments);
  if (!evaluated)
    return evaluated.status();
  bool fraction = generator.kind == PointsGenerator::Kind::Fraction;
  double share = fraction ? evaluated->front() : 1.0;
  if (!(share >= 0.0 && share <= 1.0))
    return Status::failure("the fraction " + number(share) + " is not in [0, 1]");
  std::vector<double> bounds(evaluated->begin() + (fraction ? 1 : 0), evaluated->end());
  int32_t points = grid.num_points(*parameter.location);
  if (bounds.size() == 2)
    bounds.insert(bounds.end(), {0.0, double(nlev)});
  auto checkRange = [](double lo, double hi, int32_t limit, const std::string &what) {
    if (lo != std::floor(lo) || hi != std::floor(hi) || lo < 0 || lo > hi || hi > limit)
      return Status::failure("the " + what + " [" + number(lo) + ", " + number(hi) +
                             ") are not a range of integers within [0, " + std::to_string(limit) +
                             "]");
    return Status::success();
  };
  if (Status status = checkRange(bounds[0], bounds[1], points,
                                 std::string(location_name(*parameter.location)) + " points");
      !status)
    return status;
  if (Status status = checkRange(bounds[2], bounds[3], nlev, "levels"); !status)
    return status;
  int32_t lo = int32_t(bounds[0]), hi = int32_t(bounds[1]);
  int32_t klo = int32_t(bounds[2]), khi = int32_t(bounds[3]);

  const HostField *field = nullptr;
  if (generator.kind == PointsGenerator::Kind::Nonzero) {
    Result<size_t> index = nonzeroField(program, parameter, generator);
    if (!index)
      return index.status();
    field = &values[*index].field;
  }
  // Fraction: selection sampling (Knuth's algorithm S), exactly the rounded share of the
  // candidates, in order.
  RandomGenerator rng = RandomGenerator::for_field(source.seed, parameter.name);
  uint64_t candidates = uint64_t(hi - lo) * uint64_t(khi - klo);
  uint64_t wanted = uint64_t(std::llround(share * double(candidates)));
  list = PointList();
  // ICON builds its lists in its loops' order, blocks → levels → the block's
  // points, which is the layout's memory order: the list kernel then streams.
  int64_t block = source.nproma > 0 ? source.nproma : std::max<int64_t>(hi, 1);
  for (int64_t blockBegin = lo - lo % block; blockBegin < hi; blockBegin += block) {
    int32_t begin = int32_t(std::max<int64_t>(blockBegin, lo));
    int32_t end = int32_t(std::min<int64_t>(blockBegin + block, hi));
    for (int32_t k = klo; k < khi; ++k)
      for (int32_t h = begin; h < end; ++h, --candidates) {
        bool taken = generator.kind == PointsGenerator::Kind::All ||
                     (field && field->get(size_t(h) + size_t(k) * size_t(points)) != 0.0) ||
                     (fraction && rng.below(candidates) < wanted);
        if (!taken)
          continue;
        if (fraction)
          --wanted;
        list.points.push_back(h);
        list.levels.push_back(k);
      }
  }
  return Status::success();
}

Status InputGenerator::fillPoints(const ProgramSignature &program, size_t index,
                                  std::vector<ArgumentValue> &values) {
  const Parameter &parameter = program.parameters[index];
  PointList &list = values[index].points;
  const ParameterInputs *own = programInputs(program);
  const PerMode<PointsGenerator> *spec =
      findEntry(own ? &own->points : nullptr, file.defaults.points, parameter.name, source.mode);
  if (spec) {
    Status status = generatePoints(*spec->get(source.mode), program, parameter, values, list);
    if (!status)
      return Status::failure(spec->where + ": point list '" + parameter.name +
                             "': " + status.message());
    return status;
  }
  std::string text =
      "fraction(0.1, 0, " + std::to_string(grid.num_points(*parameter.location)) + ")";
  std::string error;
  Status status =
      generatePoints(*PointsGenerator::parse(text, error), program, parameter, values, list);
  if (!status)
    return Status::failure("point list '" + parameter.name + "' (default " + text +
                           "): " + status.message());
  return status;
}

Result<GeneratedArguments> InputGenerator::generate(const ProgramSignature &program) {
  GeneratedArguments arguments;
  std::vector<size_t> listsToGenerate;
  for (const Parameter &parameter : program.parameters) {
    ArgumentValue value;
    value.kind = parameter.kind;
    value.isOutput = parameter.isOutput();
    std::optional<std::string> path;
    if (source.directory)
      path = findInputFile(*source.directory, program.name, parameter.name);
    if (parameter.isField()) {
      value.field = HostField(parameter.format(grid, nlev));
      Status status = path ? load_field_npy(*path, value.field.format().npyLayout(),
                                            parameter.dtype, value.field.data())
                           : fillField(program, parameter, value.field);
      if (!status)
        return status;
    } else if (parameter.isScalar()) {
      Result<ScalarArgument> scalarValue =
          path ? loadScalar(*path, parameter) : scalar(program, parameter);
      if (!scalarValue)
        return scalarValue.status();
      value.scalar = *scalarValue;
    } else if (path) {
      Result<PointList> list = loadPoints(*path, parameter, grid, nlev);
      if (!list)
        return list.status();
      value.points = std::move(*list);
    } else {
      listsToGenerate.push_back(arguments.values.size());
    }
    arguments.loadedFromDirectory += path ? 1 : 0;
    arguments.values.push_back(std::move(value));
  }
  // After the fields: `nonzero` reads one.
  for (size_t index : listsToGenerate)
    if (Status status = fillPoints(program, index, arguments.values); !status)
      return status;
  return arguments;
}

} // namespace fusec::bench
