// fusec-bench: scalar expressions, field generators and the inputs-file reader.
#include "InputSpec.h"
#include "InputsFileReader.h"

#include "fusec/grid_generator.h"

#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>

using namespace fusec;
using namespace fusec::bench;

namespace {

const Grid &lamGrid() {
  static Grid grid = std::move(*make_grid("lam-r2b3"));
  return grid;
}

ScalarEnvironment environmentOf(const Grid &grid, int32_t nlev, int32_t damping = 4) {
  ScalarEnvironment environment;
  environment.grid = &grid;
  environment.nlev = nlev;
  environment.endIndexOfDampingLayer = [damping]() -> Result<int32_t> { return damping; };
  return environment;
}

ScalarValue evaluate(const std::string &text, const ScalarEnvironment &environment) {
  std::string error;
  std::optional<ScalarExpression> expression = ScalarExpression::parse(text, error);
  INFO(error);
  REQUIRE(expression);
  Result<ScalarValue> value = expression->evaluate(environment);
  INFO(value.error());
  REQUIRE(value);
  return *value;
}

std::string parseError(const std::string &text) {
  std::string error;
  CHECK_FALSE(ScalarExpression::parse(text, error));
  return error;
}

} // namespace

TEST_CASE("scalar expressions: arithmetic, names and zone bounds", "[bench][inputs]") {
  const Grid &grid = lamGrid();
  ScalarEnvironment env = environmentOf(grid, 10);
  CHECK(evaluate("nlev - 2", env).number == 8);
  CHECK(evaluate("-(1 + 2) * 3 / 4", env).number == -2.25);
  CHECK(evaluate("0.25 * (1 / (36 * 8) / 8) * 5", env).number == 0.25 * (1.0 / 288 / 8) * 5);
  CHECK(evaluate("sqrt(5) / 200", env).number == std::sqrt(5.0) / 200);
  CHECK(evaluate("2e-6 * 3", env).number == 2e-6 * 3);
  CHECK(evaluate("dbl_epsilon", env).number == DBL_EPSILON);
  CHECK(evaluate("end_index_of_damping_layer + 1", env).number == 5);
  CHECK(evaluate("start(NUDGING, Edge)", env).number == grid.start(Location::Edge, Zone::Nudging));
  CHECK(evaluate("end(LOCAL, Cell)", env).number == grid.num_cells());
  CHECK(evaluate("end(END, Vertex) - start(LATERAL_BOUNDARY_LEVEL_2, Vertex)", env).number ==
        grid.num_vertices() - grid.start(Location::Vertex, Zone::LateralBoundary2));
  ScalarValue limited = evaluate("limited_area", env);
  CHECK(limited.isBoolean);
  CHECK(limited.boolean);
  CHECK(evaluate("false", env).isBoolean);
}

TEST_CASE("scalar expressions: errors say what is wrong", "[bench][inputs]") {
  CHECK_THAT(parseError("1 +"), Catch::Contains("expected a number, a name or '(' at the end"));
  CHECK_THAT(parseError("start(NUDGE, Edge)"), Catch::Contains("expected a zone"));
  CHECK_THAT(parseError("end(LOCAL, Face)"), Catch::Contains("expected a location"));
  CHECK_THAT(parseError("2 3"), Catch::Contains("expected an operator at '3'"));
  CHECK_THAT(parseError("nlev $ 2"), Catch::Contains("unexpected '$'"));

  const Grid &grid = lamGrid();
  ScalarEnvironment env = environmentOf(grid, 10);
  std::string error;
  Result<ScalarValue> unknown = ScalarExpression::parse("nlevs", error)->evaluate(env);
  CHECK_FALSE(unknown);
  CHECK_THAT(unknown.error(), Catch::Contains("unknown name 'nlevs'"));
  Result<ScalarValue> boolean = ScalarExpression::parse("limited_area + 1", error)->evaluate(env);
  CHECK_THAT(boolean.error(), Catch::Contains("arithmetic on a boolean"));
}

TEST_CASE("field generators parse their arguments", "[bench][inputs]") {
  std::string error;
  std::optional<FieldGenerator> uniform = FieldGenerator::parse("uniform(0.5, 1.5)", error);
  REQUIRE(uniform);
  CHECK(uniform->kind == FieldGenerator::Kind::Uniform);
  CHECK(uniform->arguments.size() == 2);
  std::optional<FieldGenerator> perturbed =
      FieldGenerator::parse("perturbed(theta_ref_mc, 3)", error);
  REQUIRE(perturbed);
  CHECK(perturbed->coefficient == "theta_ref_mc");
  CHECK(perturbed->arguments.size() == 1);
  std::optional<FieldGenerator> constant =
      FieldGenerator::parse("constant(0.125 - 4 * (1 / (36 * 8)))", error);
  REQUIRE(constant);
  CHECK(constant->arguments.size() == 1);
  CHECK(FieldGenerator::parse("sign", error)->kind == FieldGenerator::Kind::Sign);

  CHECK_FALSE(FieldGenerator::parse("uniform(1)", error));
  CHECK_THAT(error, Catch::Contains("uniform takes no bounds or both"));
  CHECK_FALSE(FieldGenerator::parse("gaussian", error));
  CHECK_THAT(error, Catch::Contains("unknown field generator 'gaussian'"));
  CHECK_FALSE(FieldGenerator::parse("smooth(1)", error));
  CHECK_THAT(error, Catch::Contains("wrong number of arguments"));
  CHECK_FALSE(FieldGenerator::parse("coefficient()", error));
  CHECK_THAT(error, Catch::Contains("needs a coefficient name"));
  CHECK_FALSE(FieldGenerator::parse("constant((1)", error));
  CHECK_THAT(error, Catch::Contains("unbalanced"));
}

TEST_CASE("inputs files: defaults, programs and per-mode values", "[bench][inputs]") {
  const char *text = R"(
scalars:
  smag_offset:
    random: 9.0
    realistic: 0.25 * 2
fields:
  tangent_orientation:
    random: sign
programs:
  calculate_nabla4:
    scalars:
      h_start: start(NUDGING_LEVEL_2, Edge)
    fields:
      u_vert: zonal_wind(20)
    tolerances:
      z_nabla4_e2: {rtol: 1e-10}
  copy_field: {}
)";
  InputsFile file;
  std::string error;
  REQUIRE(parseInputsFile(text, "in.yaml", file, error));
  const PerMode<ScalarExpression> &offset = file.defaults.scalars.at("smag_offset");
  CHECK(offset.random->text() == "9.0");
  CHECK(offset.realistic->text() == "0.25 * 2");
  CHECK(offset.where == "in.yaml:3:3");
  const PerMode<FieldGenerator> &sign = file.defaults.fields.at("tangent_orientation");
  CHECK(sign.random);
  CHECK_FALSE(sign.realistic);
  const ProgramEntry &nabla4 = file.programs.at("calculate_nabla4");
  CHECK(nabla4.inputs.scalars.at("h_start").random->text() == "start(NUDGING_LEVEL_2, Edge)");
  CHECK(nabla4.inputs.fields.at("u_vert").realistic->kind == FieldGenerator::Kind::ZonalWind);
  CHECK(*nabla4.inputs.tolerances.at("z_nabla4_e2").rtol == 1e-10);
  CHECK_FALSE(nabla4.inputs.tolerances.at("z_nabla4_e2").atol);
  CHECK(file.programs.count("copy_field") == 1);
}

TEST_CASE("inputs files: strict, with the line and column of each error", "[bench][inputs]") {
  InputsFile file;
  std::string error;
  CHECK_FALSE(parseInputsFile("program:\n  x: {}\n", "in.yaml", file, error));
  CHECK_THAT(error, Catch::StartsWith("in.yaml:1:1: error: unknown key 'program'"));
  CHECK_FALSE(parseInputsFile("scalars:\n  a:\n    random: 1 +\n", "in.yaml", file, error));
  CHECK_THAT(error, Catch::StartsWith("in.yaml:3:13: error: 'a': invalid expression '1 +'"));
  CHECK_FALSE(parseInputsFile("fields:\n  a:\n    randm: sign\n", "in.yaml", file, error));
  CHECK_THAT(error, Catch::Contains("unknown key 'randm' in 'a' (valid keys: random, realistic)"));
  CHECK_FALSE(parseInputsFile("programs:\n  p:\n    tolerances:\n      f: {rtol: -1}\n", "in.yaml",
                              file, error));
  CHECK_THAT(error, Catch::Contains("rtol of the tolerance of 'f' must be a number >= 0"));
  CHECK_FALSE(parseInputsFile("scalars: [1, 2]\n", "in.yaml", file, error));
  CHECK_THAT(error, Catch::Contains("must be a mapping"));
}
