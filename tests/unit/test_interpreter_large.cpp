//===- test_interpreter_large.cpp - a realistic size, against plain C++ ----===//
//
// A two-stage stencil (a cell divergence read back at both cells of each
// edge) on 30k edges x 20 levels, checked against the same loops in C++
// (`--durations yes` shows the interpreter is fast enough at this size).
//
//===----------------------------------------------------------------------===//

#include "test_interpreter.h"

#include <catch2/catch.hpp>

using fusec::Argument;
using fusec::test::TestMesh;
using fusec::test::TestModule;

namespace {

constexpr int32_t kCells = 15000;
constexpr int32_t kEdges = 30000;
constexpr int kLevels = 20;

/// Edge e touches cells e/2 and e/2+1; every 97th edge lacks its second cell.
int32_t e2c(int32_t e, int32_t j) {
  if (j == 0)
    return e / 2;
  return e % 97 == 0 ? -1 : (e / 2 + 1) % kCells;
}

int32_t c2e(int32_t c, int32_t j) { return (2 * c + j) % kEdges; }

/// Deterministic inputs in [-1, 1).
double input(int64_t i, int64_t salt) {
  uint64_t x = static_cast<uint64_t>(i) * 6364136223846793005ull + salt * 1442695040888963407ull;
  x ^= x >> 29;
  return static_cast<double>(x % 2000000) / 1000000.0 - 1.0;
}

} // namespace

TEST_CASE("a two-stage stencil on 30k edges x 20 levels matches plain C++",
          "[interpreter][large]") {
  TestModule module(R"(
    stn.connectivity @E2C : Edge -> Cell [2] skip
    stn.connectivity @C2E : Cell -> Edge [3]
    stn.program @grad_div(%g: !stn.field<Cell x C2E[3] x f64>, %vn: !stn.field<Edge x K x f64>,
                          %out: !stn.field<Edge x K x f64>, %w: f64) {
      %c0 = arith.constant 0 : i32
      %ne = arith.constant 30000 : i32
      %nlev = stn.nlev : i32
      %lo, %hi = stn.image %c0, %ne through @E2C
      %div = stn.apply on Cell[%lo : %hi] K[%c0 : %nlev] -> !stn.temp<Cell x K x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %e: !stn.point<Edge>):
          %a = stn.load %g[%p, nbr %j] : !stn.field<Cell x C2E[3] x f64>
          %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
          %m = arith.mulf %a, %v : f64
          stn.yield %m : f64
        }
        stn.yield %s : f64
      }
      %grad = stn.apply on Edge[%c0 : %ne] K[%c0 : %nlev] -> !stn.temp<Edge x K x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %n0 = stn.neighbor %p through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
        %n1 = stn.neighbor %p through @E2C [%i1] : !stn.point<Edge> -> !stn.point<Cell>
        %d0 = stn.load %div[%n0, k] : !stn.temp<Cell x K x f64>
        %d1 = stn.load %div[%n1, k] : !stn.temp<Cell x K x f64>
        %d = arith.subf %d1, %d0 : f64
        %wd = arith.mulf %w, %d : f64
        %v = stn.load %vn[%p, k] : !stn.field<Edge x K x f64>
        %r = arith.addf %v, %wd : f64
        stn.yield %r : f64
      }
      stn.store %grad to %out on Edge[%c0 : %ne] K[%c0 : %nlev]
          : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
      stn.return
    }
  )");
  std::vector<std::vector<int32_t>> e2cRows(kEdges), c2eRows(kCells);
  for (int32_t e = 0; e < kEdges; ++e)
    e2cRows[e] = {e2c(e, 0), e2c(e, 1)};
  for (int32_t c = 0; c < kCells; ++c)
    c2eRows[c] = {c2e(c, 0), c2e(c, 1), c2e(c, 2)};
  TestMesh mesh(kCells, kEdges, 0);
  mesh.connect("E2C", FUSEC_EDGE, FUSEC_CELL, e2cRows);
  mesh.connect("C2E", FUSEC_CELL, FUSEC_EDGE, c2eRows);

  std::vector<double> g(3 * kCells), vn(static_cast<size_t>(kEdges) * kLevels);
  for (size_t i = 0; i < g.size(); ++i)
    g[i] = input(i, 1);
  for (size_t i = 0; i < vn.size(); ++i)
    vn[i] = input(i, 2);
  const double w = 0.25;

  std::vector<double> div(static_cast<size_t>(kCells) * kLevels, 0.0);
  for (int k = 0; k < kLevels; ++k)
    for (int32_t c = 0; c < kCells; ++c)
      for (int32_t j = 0; j < 3; ++j)
        div[c + k * kCells] += g[c + j * kCells] * vn[c2e(c, j) + k * kEdges];
  std::vector<double> expected(vn.size());
  for (int k = 0; k < kLevels; ++k) {
    for (int32_t e = 0; e < kEdges; ++e) {
      auto at = [&](int32_t c) { return c < 0 ? 0.0 : div[c + k * kCells]; };
      expected[e + k * kEdges] = vn[e + k * kEdges] + w * (at(e2c(e, 1)) - at(e2c(e, 0)));
    }
  }

  std::vector<double> out(vn.size(), -7.0);
  REQUIRE(module.run(mesh.get(), kLevels, "grad_div",
                     {Argument::field(g), Argument::field(vn), Argument::field(out),
                      Argument::real(w)}) == "");
  CHECK(out == expected);
}
