// fusec-bench: point-list parameters: the inputs file's `points` section, the generated
// lists, their .npy form and their checks.
#include "InputGenerator.h"
#include "InputsFileReader.h"
#include "bench_parameters.h"

#include "fusec/grid_generator.h"
#include "fusec/npy.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>

using namespace fusec;
using namespace fusec::bench;
using namespace fusec::bench::testing;

namespace {

constexpr int32_t kLevels = 6;

const Grid &globalGrid() {
  static Grid grid = std::move(*make_grid("r2b1"));
  return grid;
}

InputsFile readInputs(const std::string &text) {
  InputsFile file;
  std::string error;
  INFO(error);
  REQUIRE(parseInputsFile(text, "in.yaml", file, error));
  return file;
}

/// A program with a steep-point list and the fields a `nonzero` may or may not read.
ProgramSignature steepProgram() {
  ProgramSignature signature;
  signature.name = "steep";
  signature.parameters = {points("list"),
                          field("coef", Location::Cell, 0, Parameter::Vertical::Full),
                          field("z", Location::Cell, 0, Parameter::Vertical::Full, DType::Float64,
                                Parameter::Intent::InOut),
                          field("vn", Location::Edge, 0, Parameter::Vertical::Full),
                          field("area", Location::Cell, 0, Parameter::Vertical::None),
                          scalar("h_end", ScalarArgument::Type::I32)};
  signature.outputLocation = Location::Cell;
  return signature;
}

Result<GeneratedArguments> tryGenerate(const InputsFile &file, InputMode mode = InputMode::Random,
                                       uint64_t seed = 1, int64_t nproma = 0) {
  InputSource source;
  source.mode = mode;
  source.seed = seed;
  source.nproma = nproma;
  InputGenerator generator(globalGrid(), kLevels, source, file);
  return generator.generate(steepProgram());
}

/// The list generated for `list` with `generator`, in the order of the layout
/// with `nproma` (0: flat).
PointList listFor(const std::string &generator, const std::string &fields = "", uint64_t seed = 1,
                  int64_t nproma = 0) {
  InputsFile file = readInputs(fields + "points:\n  list: " + generator + "\n");
  Result<GeneratedArguments> arguments = tryGenerate(file, InputMode::Random, seed, nproma);
  INFO(arguments.error());
  REQUIRE(arguments);
  return arguments->values[0].points;
}

std::string generationError(const std::string &text) {
  Result<GeneratedArguments> arguments = tryGenerate(readInputs(text));
  REQUIRE_FALSE(arguments);
  return arguments.error();
}

/// Entries ordered by level, then point, with no pair twice.
bool ordered(const PointList &list) {
  for (size_t i = 1; i < list.size(); ++i)
    if (std::make_pair(list.levels[i - 1], list.points[i - 1]) >=
        std::make_pair(list.levels[i], list.points[i]))
      return false;
  return true;
}

} // namespace

TEST_CASE("point-list generators parse their arguments", "[bench][points]") {
  std::string error;
  std::optional<PointsGenerator> nonzero =
      PointsGenerator::parse("nonzero(zd_diffcoef, start(NUDGING, Cell), end(LOCAL, Cell))", error);
  REQUIRE(nonzero);
  CHECK(nonzero->kind == PointsGenerator::Kind::Nonzero);
  CHECK(nonzero->field == "zd_diffcoef");
  CHECK(nonzero->arguments.size() == 2);
  std::optional<PointsGenerator> fraction =
      PointsGenerator::parse("fraction(0.1, 0, 100, 1, nlev - 1)", error);
  REQUIRE(fraction);
  CHECK(fraction->kind == PointsGenerator::Kind::Fraction);
  CHECK(fraction->arguments.size() == 5);
  CHECK(PointsGenerator::parse("all(0, 10)", error)->kind == PointsGenerator::Kind::All);

  CHECK_FALSE(PointsGenerator::parse("all(0, 10, 1)", error));
  CHECK_THAT(error, Catch::Contains("'all(0, 10, 1)': wrong number of arguments"));
  CHECK_FALSE(PointsGenerator::parse("fraction(0, 10)", error));
  CHECK_THAT(error, Catch::Contains("wrong number of arguments"));
  CHECK_FALSE(PointsGenerator::parse("nonzero()", error));
  CHECK_THAT(error, Catch::Contains("nonzero needs a field's name"));
  CHECK_FALSE(PointsGenerator::parse("some(0, 10)", error));
  CHECK_THAT(error, Catch::Contains("unknown point-list generator 'some(0, 10)'"));
  CHECK_FALSE(PointsGenerator::parse("all(0, 1 +)", error));
  CHECK_THAT(error, Catch::Contains("invalid expression '1 +'"));
}

TEST_CASE("inputs files: point lists file-wide and per program, per mode", "[bench][points]") {
  InputsFile file = readInputs(R"(
points:
  steep:
    random: fraction(0.1, 0, end(END, Cell))
    realistic: nonzero(zd_diffcoef, start(NUDGING, Cell), end(LOCAL, Cell))
programs:
  p:
    points:
      steep: all(0, 10, 1, nlev)
)");
  const PerMode<PointsGenerator> &steep = file.defaults.points.at("steep");
  CHECK(steep.random->kind == PointsGenerator::Kind::Fraction);
  CHECK(steep.realistic->field == "zd_diffcoef");
  CHECK(steep.where == "in.yaml:3:3");
  const PerMode<PointsGenerator> &own = file.programs.at("p").inputs.points.at("steep");
  CHECK(own.random->text == "all(0, 10, 1, nlev)");
  CHECK(own.realistic->text == own.random->text);

  std::string error;
  CHECK_FALSE(parseInputsFile("points:\n  steep: every(1)\n", "in.yaml", file, error));
  CHECK_THAT(error, Catch::StartsWith("in.yaml:2:10: error: 'steep': unknown point-list "
                                      "generator 'every(1)'"));
}

TEST_CASE("all and nonzero list their entries by level, then point", "[bench][points]") {
  PointList all = listFor("all(2, 5, 1, 3)");
  CHECK(all.points == std::vector<int32_t>{2, 3, 4, 2, 3, 4});
  CHECK(all.levels == std::vector<int32_t>{1, 1, 1, 2, 2, 2});

  // Where the generated `coef` (half of its values 1) is nonzero, in the given ranges.
  Result<GeneratedArguments> arguments =
      tryGenerate(readInputs("fields:\n  coef: mask\npoints:\n  list: nonzero(coef, 10, 30, 2, "
                             "nlev)\n"));
  REQUIRE(arguments);
  const HostField &coef = arguments->values[1].field;
  const PointList &list = arguments->values[0].points;
  int32_t cells = globalGrid().num_cells();
  size_t nonzero = 0;
  for (int32_t k = 2; k < kLevels; ++k)
    for (int32_t h = 10; h < 30; ++h)
      nonzero += coef.get(size_t(h) + size_t(k) * size_t(cells)) != 0.0;
  CHECK(nonzero > 0);
  CHECK(list.size() == nonzero);
  CHECK(ordered(list));
  bool atNonzero = true;
  for (size_t i = 0; i < list.size(); ++i)
    atNonzero &= list.points[i] >= 10 && list.points[i] < 30 && list.levels[i] >= 2 &&
                 coef.get(size_t(list.points[i]) + size_t(list.levels[i]) * size_t(cells)) != 0.0;
  CHECK(atNonzero);
}

TEST_CASE("in the blocked layout, lists come in ICON's order: blocks, levels, points",
          "[bench][points]") {
  // nproma 4: cells 2, 3 in block 0, cells 4 .. 7 in block 1, cell 8 in block 2.
  PointList all = listFor("all(2, 9, 1, 3)", "", 1, 4);
  CHECK(all.points == std::vector<int32_t>{2, 3, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 8, 8});
  CHECK(all.levels == std::vector<int32_t>{1, 1, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 2});
  // The same entries as in the flat layout's order.
  PointList flat = listFor("all(2, 9, 1, 3)");
  std::set<std::pair<int32_t, int32_t>> blockedSet, flatSet;
  for (size_t i = 0; i < all.size(); ++i)
    blockedSet.insert({all.points[i], all.levels[i]});
  for (size_t i = 0; i < flat.size(); ++i)
    flatSet.insert({flat.points[i], flat.levels[i]});
  CHECK(blockedSet == flatSet);
  CHECK(blockedSet.size() == all.size());
  // A fraction takes the same share in either order.
  int32_t cells = globalGrid().num_cells();
  CHECK(listFor("fraction(0.25, 0, end(END, Cell))", "", 1, 16).size() ==
        size_t(std::llround(0.25 * cells * kLevels)));
}

TEST_CASE("fraction picks that share of the entries, seeded by the list's name",
          "[bench][points]") {
  int32_t cells = globalGrid().num_cells();
  PointList quarter = listFor("fraction(0.25, 0, end(END, Cell))");
  CHECK(quarter.size() == size_t(std::llround(0.25 * cells * kLevels)));
  CHECK(ordered(quarter));
  CHECK(listFor("fraction(0.25, 0, end(END, Cell))").points == quarter.points);
  CHECK(listFor("fraction(0.25, 0, end(END, Cell))", "", 2).points != quarter.points);
  CHECK(listFor("fraction(0, 0, 10)").size() == 0);
  CHECK(listFor("fraction(1, 3, 7, 0, 2)").points == listFor("all(3, 7, 0, 2)").points);

  // Without an entry: a tenth of every cell's levels.
  Result<GeneratedArguments> defaults = tryGenerate(InputsFile());
  REQUIRE(defaults);
  CHECK(defaults->values[0].points.size() == size_t(std::llround(0.1 * cells * kLevels)));
  CHECK(ordered(defaults->values[0].points));
}

TEST_CASE("point-list entries are checked with the file's line", "[bench][points]") {
  CHECK_THAT(generationError("points:\n  list: all(0, 100000)\n"),
             Catch::Contains("in.yaml:2:3: point list 'list': the Cell points [0, 100000) are "
                             "not a range of integers within [0, 320]"));
  CHECK_THAT(generationError("points:\n  list: all(0, 10, 2, nlev + 1)\n"),
             Catch::Contains("the levels [2, 7) are not a range of integers within [0, 6]"));
  CHECK_THAT(generationError("points:\n  list: all(0.5, 10)\n"),
             Catch::Contains("the Cell points [0.5, 10)"));
  CHECK_THAT(generationError("points:\n  list: fraction(1.5, 0, 10)\n"),
             Catch::Contains("the fraction 1.5 is not in [0, 1]"));

  std::vector<ProgramSignature> programs{steepProgram()};
  auto fileError = [&](const std::string &text) {
    Status status = checkInputsFile(readInputs(text), programs);
    REQUIRE_FALSE(status);
    return status.message();
  };
  CHECK(checkInputsFile(readInputs("points:\n  list: nonzero(coef, 0, 10)\n"), programs));
  CHECK_THAT(fileError("programs:\n  steep:\n    points:\n      coef: all(0, 1)\n"),
             Catch::Contains("program 'steep' has no point-list parameter 'coef' (its "
                             "point-list parameters: list)"));
  CHECK_THAT(fileError("points:\n  list: nonzero(theta, 0, 10)\n"),
             Catch::Equals("in.yaml:2:3: error: point list 'list' of program 'steep': "
                           "'nonzero(theta, 0, 10)': program 'steep' has no field 'theta'"));
  CHECK_THAT(fileError("points:\n  list:\n    realistic: nonzero(vn, 0, 10)\n"),
             Catch::Contains("'vn' is Edge x K x f64, in, not a field of Cell x K"));
  CHECK_THAT(fileError("points:\n  list: nonzero(area, 0, 10)\n"),
             Catch::Contains("'area' is Cell x f64, in, not a field of Cell x K"));
  CHECK_THAT(fileError("points:\n  list: nonzero(h_end, 0, 10)\n"),
             Catch::Contains("'h_end' is i32, not a field of Cell x K"));
  // A program's own entry replaces the file-wide one in the modes it covers.
  CHECK(checkInputsFile(readInputs("points:\n  list: nonzero(theta, 0, 10)\nprograms:\n  steep:\n"
                                   "    points:\n      list: all(0, 10)\n"),
                        programs));
}

TEST_CASE("point lists as .npy arrays of (point, level) rows", "[bench][points]") {
  PointList list;
  list.points = {4, 0, 7};
  list.levels = {0, 2, 2};
  NpyArray array = pointListToNpy(list);
  CHECK(array.dtype == DType::Int32);
  CHECK(array.shape == std::vector<int64_t>{3, 2});
  Result<NpyArray> parsed = parse_npy(serialize_npy(array), "list.npy");
  REQUIRE(parsed);
  Result<PointList> back = pointListFromNpy(*parsed, "list.npy");
  REQUIRE(back);
  CHECK(back->points == list.points);
  CHECK(back->levels == list.levels);
  // The same list stored column by column (np.save of a transposed array).
  NpyArray fortran = array;
  fortran.fortran_order = true;
  std::vector<int32_t> columns = {4, 0, 7, 0, 2, 2};
  std::memcpy(fortran.bytes.data(), columns.data(), fortran.bytes.size());
  Result<PointList> fromColumns = pointListFromNpy(fortran, "list.npy");
  REQUIRE(fromColumns);
  CHECK(fromColumns->points == list.points);
  CHECK(fromColumns->levels == list.levels);

  NpyArray wrong = array;
  wrong.shape = {2, 3};
  CHECK_THAT(pointListFromNpy(wrong, "list.npy").error(),
             Catch::Equals("list.npy: a point list needs int32 of shape (N, 2), not <i4 of shape "
                           "(2, 3)"));

  CHECK(checkPointList(list, 8, 3));
  CHECK_THAT(checkPointList(list, 7, 3).message(),
             Catch::Equals("entry 2 (point 7, level 2) lies outside the 7 points and 3 levels"));
  list.points.push_back(0);
  list.levels.push_back(2);
  CHECK_THAT(checkPointList(list, 8, 3).message(),
             Catch::Equals("entry 3 (point 0, level 2) is in the list twice"));
}

TEST_CASE("point lists read from an input directory are checked against the grid",
          "[bench][points]") {
  std::filesystem::path directory =
      std::filesystem::temp_directory_path() / "fusec-bench-points-test";
  std::filesystem::create_directories(directory);
  PointList twice;
  twice.points = {3, 3};
  twice.levels = {1, 1};
  REQUIRE(write_npy((directory / "list.npy").string(), pointListToNpy(twice)));
  InputSource source;
  source.directory = directory.string();
  InputsFile none;
  InputGenerator generator(globalGrid(), kLevels, source, none);
  Result<GeneratedArguments> arguments = generator.generate(steepProgram());
  std::filesystem::remove_all(directory);
  REQUIRE_FALSE(arguments);
  CHECK_THAT(arguments.error(),
             Catch::Contains("list.npy: point list 'list': entry 1 (point 3, level 1) is in the "
                             "list twice"));
}
