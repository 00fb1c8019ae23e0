// fusec-bench: the arguments generated for a program call.
#include "InputGenerator.h"
#include "InputsFileReader.h"
#include "bench_parameters.h"

#include "fusec/coefficients.h"
#include "fusec/grid_generator.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

using namespace fusec;
using namespace fusec::bench;
using namespace fusec::bench::testing;

namespace {

const Grid &globalGrid() {
  static Grid grid = std::move(*make_grid("r2b1"));
  return grid;
}

ProgramSignature program(const std::string &name, std::vector<Parameter> parameters) {
  ProgramSignature signature;
  signature.name = name;
  signature.parameters = std::move(parameters);
  for (const Parameter &parameter : signature.parameters)
    if (!signature.outputLocation && parameter.isOutput() && parameter.location)
      signature.outputLocation = parameter.location;
  return signature;
}

InputsFile readInputs(const std::string &text) {
  InputsFile file;
  std::string error;
  INFO(error);
  REQUIRE(parseInputsFile(text, "in.yaml", file, error));
  return file;
}

GeneratedArguments generate(const ProgramSignature &signature, const InputsFile &file,
                            InputMode mode, uint64_t seed, int32_t nlev = 6) {
  InputSource source;
  source.mode = mode;
  source.seed = seed;
  InputGenerator generator(globalGrid(), nlev, source, file);
  Result<GeneratedArguments> arguments = generator.generate(signature);
  INFO(arguments.error());
  REQUIRE(arguments);
  return std::move(*arguments);
}

const ProgramSignature &stencil15() {
  static ProgramSignature signature = program(
      "steep",
      {field("zd_vertoffset", Location::Cell, 3, Parameter::Vertical::Full, DType::Int32),
       field("tangent_orientation", Location::Edge, 0, Parameter::Vertical::None),
       field("z_temp", Location::Cell, 0, Parameter::Vertical::Full, DType::Float64,
             Parameter::Intent::InOut),
       scalar("h_start", ScalarArgument::Type::I32), scalar("h_end", ScalarArgument::Type::I32),
       scalar("v_start", ScalarArgument::Type::I32), scalar("v_end", ScalarArgument::Type::I32),
       scalar("factor", ScalarArgument::Type::F64), scalar("flag", ScalarArgument::Type::Bool)});
  return signature;
}

} // namespace

TEST_CASE("vertoffset keeps k + offset and k + offset + 1 inside the column",
          "[bench][generator]") {
  InputsFile file = readInputs("fields:\n  zd_vertoffset: vertoffset\n");
  const int32_t nlev = 6;
  GeneratedArguments arguments = generate(stencil15(), file, InputMode::Random, 3, nlev);
  const HostField &offsets = arguments.values[0].field;
  REQUIRE(offsets.size() == size_t(globalGrid().num_cells()) * 3 * nlev);
  // The neighbour levels read, k + offset, over the whole field.
  double lowest = 1e9, highest = -1e9;
  for (size_t i = 0; i < offsets.size(); ++i) {
    double target = offsets.format().position(i).level + offsets.get(i);
    lowest = std::min(lowest, target);
    highest = std::max(highest, target);
  }
  CHECK(lowest == 0);
  CHECK(highest == nlev - 2);
}

TEST_CASE("defaults by type: whole domains, uniform fields, zero and false", "[bench][generator]") {
  InputsFile none;
  GeneratedArguments arguments = generate(stencil15(), none, InputMode::Random, 1);
  const std::vector<ArgumentValue> &values = arguments.values;
  CHECK(values[3].scalar.integer == 0);
  CHECK(values[4].scalar.integer == globalGrid().num_cells()); // the output's location
  CHECK(values[5].scalar.integer == 0);
  CHECK(values[6].scalar.integer == 6);
  CHECK(values[7].scalar.real >= -1.0);
  CHECK(values[7].scalar.real < 1.0);
  CHECK_FALSE(values[8].scalar.boolean);
  const HostField &z = values[2].field;
  bool allInRange = true;
  for (size_t i = 0; i < z.size(); ++i)
    allInRange &= z.get(i) >= -1.0 && z.get(i) < 1.0;
  CHECK(allInRange);
}

TEST_CASE("random inputs depend only on the seed and the parameter's name", "[bench][generator]") {
  InputsFile file = readInputs("fields:\n  tangent_orientation: sign\n");
  GeneratedArguments a = generate(stencil15(), file, InputMode::Random, 7);
  GeneratedArguments b = generate(stencil15(), file, InputMode::Random, 7);
  GeneratedArguments c = generate(stencil15(), file, InputMode::Random, 8);
  CHECK(a.values[2].field.bytes() == b.values[2].field.bytes());
  CHECK(a.values[2].field.bytes() != c.values[2].field.bytes());
  // The same name in another program gets the same values.
  ProgramSignature other =
      program("other", {field("z_temp", Location::Cell, 0, Parameter::Vertical::Full,
                              DType::Float64, Parameter::Intent::Out)});
  CHECK(generate(other, file, InputMode::Random, 7).values[0].field.bytes() ==
        a.values[2].field.bytes());
  const HostField &signs = a.values[1].field;
  bool onlySigns = true;
  for (size_t i = 0; i < signs.size(); ++i)
    onlySigns &= signs.get(i) == 1.0 || signs.get(i) == -1.0;
  CHECK(onlySigns);
}

TEST_CASE("realistic inputs: coefficients by name, entries per mode, program entries win",
          "[bench][generator]") {
  InputsFile file = readInputs(R"(
scalars:
  factor:
    random: 9.0
    realistic: sqrt(4) * nlev
fields:
  z_temp:
    realistic: constant(2.5)
programs:
  steep:
    scalars:
      h_start: start(INTERIOR, Cell) + 1
      flag: limited_area
)");
  GeneratedArguments arguments = generate(stencil15(), file, InputMode::Realistic, 1);
  const std::vector<ArgumentValue> &values = arguments.values;
  CoefficientConfig config;
  config.vertical.num_levels = 6;
  Result<DiffusionCoefficients> coefficients = compute_diffusion_coefficients(globalGrid(), config);
  REQUIRE(coefficients);
  const HostField &orientation = values[1].field;
  REQUIRE(orientation.size() == coefficients->tangent_orientation.size());
  CHECK(std::memcmp(orientation.data(), coefficients->tangent_orientation.data(),
                    orientation.bytes().size()) == 0);
  const HostField &offsets = values[0].field;
  CHECK(std::memcmp(offsets.data(), coefficients->zd_vertoffset.data(), offsets.bytes().size()) ==
        0);
  CHECK(values[2].field.get(5) == 2.5);
  CHECK(values[3].scalar.integer == 1);
  CHECK(values[7].scalar.real == 12.0);
  CHECK_FALSE(values[8].scalar.boolean);
  CHECK(generate(stencil15(), file, InputMode::Random, 1).values[7].scalar.real == 9.0);
}

TEST_CASE("scalar values must fit their parameter's type", "[bench][generator]") {
  auto failure = [](const std::string &text) {
    InputsFile file = readInputs(text);
    InputGenerator generator(globalGrid(), 6, InputSource{}, file);
    Result<GeneratedArguments> arguments = generator.generate(stencil15());
    CHECK_FALSE(arguments);
    return arguments.ok() ? std::string() : arguments.error();
  };
  CHECK_THAT(failure("scalars:\n  h_end: 2.5\n"),
             Catch::Contains("in.yaml:2:3: scalar 'h_end' (i32) needs an integer"));
  CHECK_THAT(failure("scalars:\n  flag: 1\n"),
             Catch::Contains("needs true, false or limited_area"));
  CHECK_THAT(failure("scalars:\n  factor: limited_area\n"), Catch::Contains("needs a number"));
  CHECK_THAT(failure("fields:\n  z_temp: coefficient(area)\n"),
             Catch::Contains("coefficient 'area' (Cell) does not fit field 'z_temp' "
                             "(Cell x 6 levels)"));
  CHECK_THAT(failure("fields:\n  z_temp: normal_wind(10)\n"),
             Catch::Contains("needs an Edge field"));
}

TEST_CASE("inputs files are checked against the module's programs", "[bench][generator]") {
  std::vector<ProgramSignature> programs{stencil15()};
  CHECK(checkInputsFile(readInputs("fields:\n  z_temp: sign\n"), programs));
  Status unknownProgram = checkInputsFile(readInputs("programs:\n  stepp: {}\n"), programs);
  CHECK_THAT(unknownProgram.message(),
             Catch::Equals("in.yaml:2:3: error: the file defines no program 'stepp'"));
  Status wrongKind = checkInputsFile(
      readInputs("programs:\n  steep:\n    fields:\n      factor: sign\n"), programs);
  CHECK_THAT(wrongKind.message(),
             Catch::Contains("program 'steep' has no field parameter 'factor' (its field "
                             "parameters: zd_vertoffset, tangent_orientation, z_temp)"));
  Status notOutput =
      checkInputsFile(readInputs("tolerances:\n  tangent_orientation: {rtol: 1}\n"), programs);
  CHECK_THAT(notOutput.message(),
             Catch::Contains("no program has an output field 'tangent_orientation'"));
}
