//===- test_interpreter_arith.cpp - arith and math semantics ---------------===//
//
// Each case runs `out[k] = BODY(a[k], b[k])` as a vertical-only program with one
// level per input pair.
//
//===----------------------------------------------------------------------===//

#include "test_interpreter.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using fusec::Argument;
using fusec::test::TestMesh;
using fusec::test::TestModule;

namespace {

void replaceAll(std::string &text, const std::string &from, const std::string &to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

/// `body` reads %x and %y (of type `in`) and defines %r (of type `out`).
template <typename In, typename Out>
std::vector<Out> evaluate(const std::string &in, const std::string &out, const std::string &body,
                          std::vector<In> a, std::vector<In> b) {
  std::string source = R"(
    stn.program @p(%a: !stn.field<K x IN>, %b: !stn.field<K x IN>, %out: !stn.field<K x OUT>) {
      %c0 = arith.constant 0 : i32
      %n = stn.nlev : i32
      %t = stn.apply on K[%c0 : %n] -> !stn.temp<K x OUT> {
        %x = stn.load %a[k] : !stn.field<K x IN>
        %y = stn.load %b[k] : !stn.field<K x IN>
        BODY
        stn.yield %r : OUT
      }
      stn.store %t to %out on K[%c0 : %n] : !stn.temp<K x OUT> to !stn.field<K x OUT>
      stn.return
    })";
  replaceAll(source, "BODY", body);
  replaceAll(source, "IN", in);
  replaceAll(source, "OUT", out);
  TestModule module(source);
  TestMesh mesh(0, 0, 0);
  std::vector<Out> result(a.size());
  REQUIRE(module.run(mesh.get(), static_cast<int>(a.size()), "p",
                     {Argument::field(a), Argument::field(b), Argument::field(result)}) == "");
  return result;
}

std::vector<double> f64Binary(const std::string &op, std::vector<double> a, std::vector<double> b) {
  return evaluate<double, double>("f64", "f64", "%r = " + op + " %x, %y : f64", a, b);
}

std::vector<double> f64Unary(const std::string &op, std::vector<double> a) {
  std::vector<double> unused(a.size());
  return evaluate<double, double>("f64", "f64", "%r = " + op + " %x : f64", a, unused);
}

std::vector<int32_t> i32Binary(const std::string &op, std::vector<int32_t> a,
                               std::vector<int32_t> b) {
  return evaluate<int32_t, int32_t>("i32", "i32", "%r = " + op + " %x, %y : i32", a, b);
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

TEST_CASE("f64 arithmetic", "[interpreter][arith]") {
  CHECK(f64Binary("arith.addf", {1.5, -2}, {2.25, 0.5}) == std::vector<double>{3.75, -1.5});
  CHECK(f64Binary("arith.subf", {1.5, -2}, {2.25, 0.5}) == std::vector<double>{-0.75, -2.5});
  CHECK(f64Binary("arith.mulf", {1.5, -2}, {2.25, 0.5}) == std::vector<double>{3.375, -1});
  CHECK(f64Binary("arith.divf", {1, -3}, {4, 0.5}) == std::vector<double>{0.25, -6});
  CHECK(f64Binary("arith.remf", {7.5, -7.5}, {2, 2}) == std::vector<double>{1.5, -1.5});
  CHECK(f64Binary("math.powf", {2, 9}, {10, 0.5}) == std::vector<double>{1024, 3});
}

TEST_CASE("min and max flavours treat NaN and signed zeros as arith says", "[interpreter][arith]") {
  CHECK(f64Binary("arith.minnumf", {kNaN, 2}, {1, 1}) == std::vector<double>{1, 1});
  CHECK(f64Binary("arith.maxnumf", {kNaN, 2}, {1, 1}) == std::vector<double>{1, 2});
  std::vector<double> minimum = f64Binary("arith.minimumf", {kNaN, -0.0, 2}, {1, 0.0, 1});
  CHECK(std::isnan(minimum[0]));
  CHECK((minimum[1] == 0.0 && std::signbit(minimum[1])));
  CHECK(minimum[2] == 1);
  std::vector<double> maximum = f64Binary("arith.maximumf", {kNaN, -0.0, 2}, {1, 0.0, 1});
  CHECK(std::isnan(maximum[0]));
  CHECK((maximum[1] == 0.0 && !std::signbit(maximum[1])));
  CHECK(maximum[2] == 2);
}

TEST_CASE("unary float ops", "[interpreter][arith]") {
  CHECK(f64Unary("arith.negf", {1.5, -2}) == std::vector<double>{-1.5, 2});
  CHECK(f64Unary("math.sqrt", {2.25, 2}) == std::vector<double>{1.5, std::sqrt(2.0)});
  CHECK(f64Unary("math.exp", {0, 1}) == std::vector<double>{1, std::exp(1.0)});
  CHECK(f64Unary("math.log", {1, 10}) == std::vector<double>{0, std::log(10.0)});
  CHECK(f64Unary("math.absf", {-3, 2}) == std::vector<double>{3, 2});
  CHECK(f64Unary("math.floor", {-1.5, 2.5}) == std::vector<double>{-2, 2});
  CHECK(f64Unary("math.ceil", {-1.5, 2.5}) == std::vector<double>{-1, 3});
}

TEST_CASE("cmpf predicates, ordered and unordered", "[interpreter][arith]") {
  // Pairs (1,2), (2,2), (3,2), (NaN,2).
  const std::vector<std::pair<std::string, std::vector<uint8_t>>> expected = {
      {"false", {0, 0, 0, 0}}, {"oeq", {0, 1, 0, 0}}, {"ogt", {0, 0, 1, 0}},
      {"oge", {0, 1, 1, 0}},   {"olt", {1, 0, 0, 0}}, {"ole", {1, 1, 0, 0}},
      {"one", {1, 0, 1, 0}},   {"ord", {1, 1, 1, 0}}, {"ueq", {0, 1, 0, 1}},
      {"ugt", {0, 0, 1, 1}},   {"uge", {0, 1, 1, 1}}, {"ult", {1, 0, 0, 1}},
      {"ule", {1, 1, 0, 1}},   {"une", {1, 0, 1, 1}}, {"uno", {0, 0, 0, 1}},
      {"true", {1, 1, 1, 1}}};
  for (const auto &[predicate, values] : expected) {
    INFO("cmpf " << predicate);
    CHECK(evaluate<double, uint8_t>("f64", "i1", "%r = arith.cmpf " + predicate + ", %x, %y : f64",
                                    {1, 2, 3, kNaN}, {2, 2, 2, 2}) == values);
  }
}

TEST_CASE("cmpi predicates, signed and unsigned", "[interpreter][arith]") {
  // Pairs (-1,1), (1,1), (2,1); -1 is the largest unsigned i32.
  const std::vector<std::pair<std::string, std::vector<uint8_t>>> expected = {
      {"eq", {0, 1, 0}},  {"ne", {1, 0, 1}},  {"slt", {1, 0, 0}}, {"sle", {1, 1, 0}},
      {"sgt", {0, 0, 1}}, {"sge", {0, 1, 1}}, {"ult", {0, 0, 0}}, {"ule", {0, 1, 0}},
      {"ugt", {1, 0, 1}}, {"uge", {1, 1, 1}}};
  for (const auto &[predicate, values] : expected) {
    INFO("cmpi " << predicate);
    CHECK(evaluate<int32_t, uint8_t>("i32", "i1", "%r = arith.cmpi " + predicate + ", %x, %y : i32",
                                     {-1, 1, 2}, {1, 1, 1}) == values);
  }
}

TEST_CASE("integer ops wrap at their width", "[interpreter][arith]") {
  const int32_t max = std::numeric_limits<int32_t>::max();
  const int32_t min = std::numeric_limits<int32_t>::min();
  CHECK(i32Binary("arith.addi", {max, 3}, {1, -5}) == std::vector<int32_t>{min, -2});
  CHECK(i32Binary("arith.subi", {min, 3}, {1, 5}) == std::vector<int32_t>{max, -2});
  CHECK(i32Binary("arith.muli", {65536, -3}, {65536, 7}) == std::vector<int32_t>{0, -21});
  CHECK(i32Binary("arith.divsi", {-7, 7, min}, {2, -2, -1}) == std::vector<int32_t>{-3, -3, min});
  CHECK(i32Binary("arith.remsi", {-7, 7, min}, {2, -2, -1}) == std::vector<int32_t>{-1, 1, 0});
  CHECK(i32Binary("arith.andi", {12, -1}, {10, 5}) == std::vector<int32_t>{8, 5});
  CHECK(i32Binary("arith.ori", {12, -8}, {10, 3}) == std::vector<int32_t>{14, -5});
  CHECK(i32Binary("arith.xori", {12, -1}, {10, 0}) == std::vector<int32_t>{6, -1});
  CHECK(i32Binary("arith.minsi", {-3, 4}, {2, 1}) == std::vector<int32_t>{-3, 1});
  CHECK(i32Binary("arith.maxsi", {-3, 4}, {2, 1}) == std::vector<int32_t>{2, 4});
  const int64_t max64 = std::numeric_limits<int64_t>::max();
  CHECK(evaluate<int64_t, int64_t>("i64", "i64", "%r = arith.addi %x, %y : i64", {max64}, {1}) ==
        std::vector<int64_t>{std::numeric_limits<int64_t>::min()});
}

TEST_CASE("casts between integers and floats", "[interpreter][arith]") {
  CHECK(evaluate<int32_t, double>("i32", "f64", "%r = arith.sitofp %x : i32 to f64", {-3, 5},
                                  {0, 0}) == std::vector<double>{-3, 5});
  CHECK(evaluate<double, int32_t>("f64", "i32", "%r = arith.fptosi %x : f64 to i32", {-2.7, 3.9},
                                  {0, 0}) == std::vector<int32_t>{-2, 3});
  // index_cast sign-extends when widening and truncates when narrowing.
  CHECK(evaluate<int32_t, int64_t>("i32", "i64",
                                   "%i = arith.index_cast %x : i32 to index\n"
                                   "%r = arith.index_cast %i : index to i64",
                                   {-5}, {0}) == std::vector<int64_t>{-5});
  CHECK(evaluate<int64_t, int32_t>("i64", "i32",
                                   "%i = arith.index_cast %x : i64 to index\n"
                                   "%r = arith.index_cast %i : index to i32",
                                   {(int64_t{1} << 32) + 7}, {0}) == std::vector<int32_t>{7});
  CHECK(evaluate<double, float>("f64", "f32", "%r = arith.truncf %x : f64 to f32", {0.1}, {0}) ==
        std::vector<float>{0.1f});
  CHECK(evaluate<float, double>("f32", "f64", "%r = arith.extf %x : f32 to f64", {0.1f}, {0}) ==
        std::vector<double>{static_cast<double>(0.1f)});
  CHECK(evaluate<double, double>("f64", "f64",
                                 "%e = arith.constant -2 : i32\n"
                                 "%r = math.fpowi %x, %e : f64, i32",
                                 {2, 3}, {0, 0}) == std::vector<double>{0.25, std::pow(3.0, -2.0)});
}

TEST_CASE("select picks by an i1", "[interpreter][arith]") {
  CHECK(evaluate<double, double>("f64", "f64",
                                 "%c = arith.cmpf olt, %x, %y : f64\n"
                                 "%r = arith.select %c, %x, %y : f64",
                                 {1, 5}, {3, 2}) == std::vector<double>{1, 2});
}

TEST_CASE("f32 ops round to float after every op", "[interpreter][arith]") {
  // (a + b) - a is 0 in f32 but b in f64 for these inputs.
  CHECK(evaluate<float, float>("f32", "f32",
                               "%s = arith.addf %x, %y : f32\n"
                               "%r = arith.subf %s, %x : f32",
                               {16777216.0f, 1.0f}, {1.0f, 1e-8f}) == std::vector<float>{0, 0});
  CHECK(evaluate<float, double>("f32", "f64",
                                "%xd = arith.extf %x : f32 to f64\n"
                                "%yd = arith.extf %y : f32 to f64\n"
                                "%s = arith.addf %xd, %yd : f64\n"
                                "%r = arith.subf %s, %xd : f64",
                                {16777216.0f, 1.0f}, {1.0f, 1e-8f}) ==
        std::vector<double>{1.0, static_cast<double>(1e-8f)});
  CHECK(evaluate<float, float>("f32", "f32",
                               "%c = arith.constant 0.1 : f32\n"
                               "%r = arith.mulf %x, %c : f32",
                               {3.0f}, {0}) == std::vector<float>{3.0f * 0.1f});
  float third = 1.0f / 3.0f;
  CHECK(evaluate<float, float>("f32", "f32", "%r = arith.divf %x, %y : f32", {1.0f}, {3.0f}) ==
        std::vector<float>{third});
  CHECK(evaluate<float, float>("f32", "f32", "%r = math.sqrt %x : f32", {2.0f}, {0}) ==
        std::vector<float>{std::sqrt(2.0f)});
}

TEST_CASE("f32 reductions fold in slot order and round", "[interpreter][arith]") {
  // cv = {-1e8, 1e8, 1}. Vertex 2's V2C neighbours are cells 2, 1, 0: (1 + 1e8) - 1e8 is 0
  // in f32, whereas the reverse order, or double precision, would give 1.
  TestModule module(std::string(fusec::test::kSmallMeshDecls) + R"(
    stn.program @fold(%cv: !stn.field<Cell x f32>, %out: !stn.field<Vertex x f32>) {
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %t = stn.apply on Vertex[%c0 : %c4] -> !stn.temp<Vertex x f32> {
      ^bb0(%p: !stn.point<Vertex>):
        %s = stn.reduce sum over @V2C at %p : !stn.point<Vertex> -> f32 {
        ^bb0(%j: index, %c: !stn.point<Cell>):
          %v = stn.load %cv[%c] : !stn.field<Cell x f32>
          stn.yield %v : f32
        }
        stn.yield %s : f32
      }
      stn.store %t to %out on Vertex[%c0 : %c4] : !stn.temp<Vertex x f32> to !stn.field<Vertex x f32>
      stn.return
    }
  )");
  TestMesh mesh = fusec::test::smallMesh();
  std::vector<float> cv = {-1e8f, 1e8f, 1.0f};
  std::vector<float> out(4, -7.0f);
  REQUIRE(module.run(mesh.get(), 1, "fold", {Argument::field(cv), Argument::field(out)}) == "");
  CHECK(out == std::vector<float>{0, 0, 0, 1});
}
