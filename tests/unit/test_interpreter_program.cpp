//===- test_interpreter_program.cpp - program-level IR ---------------------===//
//
// Applies, stores, reductions, offsets and program-level control flow on the
// small hand-made mesh of test_interpreter.h; every expected value is worked
// out by hand from its tables.
//
//===----------------------------------------------------------------------===//

#include "test_interpreter.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using fusec::Argument;
using fusec::test::smallMesh;
using fusec::test::TestMesh;
using fusec::test::TestModule;
using fusec::test::withDecls;


TEST_CASE("centre loads over the full domain scale a field", "[interpreter][program]") {
  TestModule module(withDecls(R"(
    stn.program @scale(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
                       %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
                       %s: f64 {stn.name = "s"}) {
      %c0 = arith.constant 0 : i32
      %c5 = arith.constant 5 : i32
      %nlev = stn.nlev : i32
      %t = stn.apply on Edge[%c0 : %c5] K[%c0 : %nlev] -> !stn.temp<Edge x K x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %v = stn.load %vn[%p, k] : !stn.field<Edge x K x f64>
        %r = arith.mulf %v, %s : f64
        stn.yield %r : f64
      }
      stn.store %t to %out on Edge[%c0 : %c5] K[%c0 : %nlev]
          : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> vn = {0, 1, 2, 3, 4, 10, 11, 12, 13, 14};
  std::vector<double> out(10, -1.0);
  REQUIRE(module.run(mesh.get(), 2, "scale",
                     {Argument::field(vn), Argument::field(out), Argument::real(2.0)}) == "");
  CHECK(out == std::vector<double>{0, 2, 4, 6, 8, 20, 22, 24, 26, 28});
}

TEST_CASE("neighbour loads give 0 at missing neighbours", "[interpreter][program]") {
  // out(e,k) = cf(E2C[e,0],k) + 10*cf(E2C[e,1],k) through the skip table E2C, and the
  // 2-D difference vf(E2V[e,0]) - vf(E2V[e,1]) through the full table E2V.
  TestModule module(withDecls(R"(
    stn.program @nbr(%cf: !stn.field<Cell x K x f64> {stn.name = "cf"},
                     %vf: !stn.field<Vertex x f64> {stn.name = "vf"},
                     %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
                     %diff: !stn.field<Edge x f64> {stn.intent = 1 : i32, stn.name = "diff"}) {
      %c0 = arith.constant 0 : i32
      %c5 = arith.constant 5 : i32
      %nlev = stn.nlev : i32
      %t = stn.apply on Edge[%c0 : %c5] K[%c0 : %nlev] -> !stn.temp<Edge x K x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %ten = arith.constant 10.0 : f64
        %n0 = stn.neighbor %p through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
        %n1 = stn.neighbor %p through @E2C [%i1] : !stn.point<Edge> -> !stn.point<Cell>
        %a = stn.load %cf[%n0, k] : !stn.field<Cell x K x f64>
        %b = stn.load %cf[%n1, k] : !stn.field<Cell x K x f64>
        %b10 = arith.mulf %b, %ten : f64
        %r = arith.addf %a, %b10 : f64
        stn.yield %r : f64
      }
      stn.store %t to %out on Edge[%c0 : %c5] K[%c0 : %nlev]
          : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
      %d = stn.apply on Edge[%c0 : %c5] -> !stn.temp<Edge x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %v0 = stn.neighbor %p through @E2V [%i0] : !stn.point<Edge> -> !stn.point<Vertex>
        %v1 = stn.neighbor %p through @E2V [%i1] : !stn.point<Edge> -> !stn.point<Vertex>
        %a = stn.load %vf[%v0] : !stn.field<Vertex x f64>
        %b = stn.load %vf[%v1] : !stn.field<Vertex x f64>
        %r = arith.subf %a, %b : f64
        stn.yield %r : f64
      }
      stn.store %d to %diff on Edge[%c0 : %c5] : !stn.temp<Edge x f64> to !stn.field<Edge x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> cf = {1, 2, 3, 1.5, 2.5, 3.5};
  std::vector<double> vf = {1, 10, 100, 1000};
  std::vector<double> out(10), diff(5);
  REQUIRE(module.run(mesh.get(), 2, "nbr",
                     {Argument::field(cf), Argument::field(vf), Argument::field(out),
                      Argument::field(diff)}) == "");
  CHECK(out == std::vector<double>{1, 21, 32, 3, 12, 1.5, 26.5, 37.5, 3.5, 17.5});
  CHECK(diff == std::vector<double>{-9, -90, -900, 999, -99});
}

TEST_CASE("sparse loads weight a sum over a reduction with a missing slot",
          "[interpreter][program]") {
  // div(c,k) = sum_j g(c,j) * vn(C2E[c,j],k) with g(c,j) = j+1 and vn(e,k) = e + 10k;
  // C2E[2,2] is missing, so cell 2 sums two terms.
  TestModule module(withDecls(R"(
    stn.program @div(%g: !stn.field<Cell x C2E[3] x f64> {stn.name = "g"},
                     %vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
                     %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"}) {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      %nlev = stn.nlev : i32
      %t = stn.apply on Cell[%c0 : %c3] K[%c0 : %nlev] -> !stn.temp<Cell x K x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %e: !stn.point<Edge>):
          %w = stn.load %g[%p, nbr %j] : !stn.field<Cell x C2E[3] x f64>
          %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
          %m = arith.mulf %w, %v : f64
          stn.yield %m : f64
        }
        stn.yield %s : f64
      }
      stn.store %t to %out on Cell[%c0 : %c3] K[%c0 : %nlev]
          : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> g = {1, 1, 1, 2, 2, 2, 3, 3, 3};
  std::vector<double> vn = {0, 1, 2, 3, 4, 10, 11, 12, 13, 14};
  std::vector<double> out(6);
  REQUIRE(module.run(mesh.get(), 2, "div",
                     {Argument::field(g), Argument::field(vn), Argument::field(out)}) == "");
  CHECK(out == std::vector<double>{14, 17, 8, 74, 77, 38});
}

TEST_CASE("reductions of every kind skip missing slots and start from their identity",
          "[interpreter][program]") {
  // Over V2C of cv = {2, -3, 5} and of the cell indices; vertex 1 has no neighbour.
  TestModule module(withDecls(R"(
    stn.program @folds(%cv: !stn.field<Cell x f64> {stn.name = "cv"},
        %sum: !stn.field<Vertex x f64>, %min: !stn.field<Vertex x f64>,
        %max: !stn.field<Vertex x f64>, %prod: !stn.field<Vertex x f64>,
        %isum: !stn.field<Vertex x i32>, %imin: !stn.field<Vertex x i32>,
        %imax: !stn.field<Vertex x i32>, %iprod: !stn.field<Vertex x i32>) {
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %s:8 = stn.apply on Vertex[%c0 : %c4] -> !stn.temp<Vertex x f64>, !stn.temp<Vertex x f64>,
          !stn.temp<Vertex x f64>, !stn.temp<Vertex x f64>, !stn.temp<Vertex x i32>,
          !stn.temp<Vertex x i32>, !stn.temp<Vertex x i32>, !stn.temp<Vertex x i32> {
      ^bb0(%p: !stn.point<Vertex>):
        %a = stn.reduce sum over @V2C at %p : !stn.point<Vertex> -> f64 {
        ^bb0(%j: index, %c: !stn.point<Cell>):
          %v = stn.load %cv[%c] : !stn.field<Cell x f64>
          stn.yield %v : f64
        }
        %b = stn.reduce min over @V2C at %p : !stn.point<Vertex> -> f64 {
        ^bb0(%j: index, %c: !stn.point<Cell>):
          %v = stn.load %cv[%c] : !stn.field<Cell x f64>
          stn.yield %v : f64
        }
        %c = stn.reduce max over @V2C at %p : !stn.point<Vertex> -> f64 {
        ^bb0(%j: index, %n: !stn.point<Cell>):
          %v = stn.load %cv[%n] : !stn.field<Cell x f64>
          stn.yield %v : f64
        }
        %d = stn.reduce prod over @V2C at %p : !stn.point<Vertex> -> f64 {
        ^bb0(%j: index, %n: !stn.point<Cell>):
          %v = stn.load %cv[%n] : !stn.field<Cell x f64>
          stn.yield %v : f64
        }
        %e = stn.reduce sum over @V2C at %p : !stn.point<Vertex> -> i32 {
        ^bb0(%j: index, %n: !stn.point<Cell>):
          %i = stn.index %n : !stn.point<Cell>
          stn.yield %i : i32
        }
        %f = stn.reduce min over @V2C at %p : !stn.point<Vertex> -> i32 {
        ^bb0(%j: index, %n: !stn.point<Cell>):
          %i = stn.index %n : !stn.point<Cell>
          stn.yield %i : i32
        }
        %g = stn.reduce max over @V2C at %p : !stn.point<Vertex> -> i32 {
        ^bb0(%j: index, %n: !stn.point<Cell>):
          %i = stn.index %n : !stn.point<Cell>
          stn.yield %i : i32
        }
        %h = stn.reduce prod over @V2C at %p : !stn.point<Vertex> -> i32 {
        ^bb0(%j: index, %n: !stn.point<Cell>):
          %i = stn.index %n : !stn.point<Cell>
          %one = arith.constant 1 : i32
          %i1 = arith.addi %i, %one : i32
          stn.yield %i1 : i32
        }
        stn.yield %a, %b, %c, %d, %e, %f, %g, %h : f64, f64, f64, f64, i32, i32, i32, i32
      }
      stn.store %s#0 to %sum on Vertex[%c0 : %c4] : !stn.temp<Vertex x f64> to !stn.field<Vertex x f64>
      stn.store %s#1 to %min on Vertex[%c0 : %c4] : !stn.temp<Vertex x f64> to !stn.field<Vertex x f64>
      stn.store %s#2 to %max on Vertex[%c0 : %c4] : !stn.temp<Vertex x f64> to !stn.field<Vertex x f64>
      stn.store %s#3 to %prod on Vertex[%c0 : %c4] : !stn.temp<Vertex x f64> to !stn.field<Vertex x f64>
      stn.store %s#4 to %isum on Vertex[%c0 : %c4] : !stn.temp<Vertex x i32> to !stn.field<Vertex x i32>
      stn.store %s#5 to %imin on Vertex[%c0 : %c4] : !stn.temp<Vertex x i32> to !stn.field<Vertex x i32>
      stn.store %s#6 to %imax on Vertex[%c0 : %c4] : !stn.temp<Vertex x i32> to !stn.field<Vertex x i32>
      stn.store %s#7 to %iprod on Vertex[%c0 : %c4] : !stn.temp<Vertex x i32> to !stn.field<Vertex x i32>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> cv = {2, -3, 5};
  std::vector<double> sum(4), min(4), max(4), prod(4);
  std::vector<int32_t> isum(4), imin(4), imax(4), iprod(4);
  REQUIRE(module.run(mesh.get(), 1, "folds",
                     {Argument::field(cv), Argument::field(sum), Argument::field(min),
                      Argument::field(max), Argument::field(prod), Argument::field(isum),
                      Argument::field(imin), Argument::field(imax), Argument::field(iprod)}) == "");
  const double inf = std::numeric_limits<double>::infinity();
  const int32_t intMax = std::numeric_limits<int32_t>::max();
  const int32_t intMin = std::numeric_limits<int32_t>::min();
  CHECK(sum == std::vector<double>{-1, 0, 4, 5});
  CHECK(min == std::vector<double>{-3, inf, -3, 5});
  CHECK(max == std::vector<double>{2, -inf, 5, 5});
  CHECK(prod == std::vector<double>{-6, 1, -30, 5});
  CHECK(isum == std::vector<int32_t>{1, 0, 3, 2});
  CHECK(imin == std::vector<int32_t>{0, intMax, 0, 2});
  CHECK(imax == std::vector<int32_t>{1, intMin, 2, 2});
  CHECK(iprod == std::vector<int32_t>{2, 1, 6, 3});
}

TEST_CASE("constant and dynamic level offsets", "[interpreter][program]") {
  // f(c,k) = 10c + k*k. dk(c,k) = f(c,k) - f(c,k-1) on levels [1, nlev) only;
  // dyn(c,k) = f(c, k + off(c,k) + 1).
  TestModule module(withDecls(R"(
    stn.program @offsets(%f: !stn.field<Cell x K x f64>, %off: !stn.field<Cell x K x i32>,
                         %dk: !stn.field<Cell x K x f64>, %dyn: !stn.field<Cell x K x f64>) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %nlev = stn.nlev : i32
      %t = stn.apply on Cell[%c0 : %c3] K[%c1 : %nlev] -> !stn.temp<Cell x K x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %a = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
        %b = stn.load %f[%p, k - 1] : !stn.field<Cell x K x f64>
        %r = arith.subf %a, %b : f64
        stn.yield %r : f64
      }
      stn.store %t to %dk on Cell[%c0 : %c3] K[%c1 : %nlev]
          : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
      %u = stn.apply on Cell[%c0 : %c3] K[%c0 : %nlev] -> !stn.temp<Cell x K x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
        %v = stn.load %f[%p, k + %o + 1] : !stn.field<Cell x K x f64>
        stn.yield %v : f64
      }
      stn.store %u to %dyn on Cell[%c0 : %c3] K[%c0 : %nlev]
          : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> f = {0, 10, 20, 1, 11, 21, 4, 14, 24};
  // Cell 0 reads level 2 everywhere, cell 1 level 0, cell 2 level 1.
  std::vector<int32_t> off = {1, -1, 0, 0, -2, -1, -1, -3, -2};
  std::vector<double> dk(9, -7.0), dyn(9);
  REQUIRE(module.run(mesh.get(), 3, "offsets",
                     {Argument::field(f), Argument::field(off), Argument::field(dk),
                      Argument::field(dyn)}) == "");
  CHECK(dk == std::vector<double>{-7, -7, -7, 1, 1, 1, 3, 3, 3});
  CHECK(dyn == std::vector<double>{4, 10, 21, 4, 10, 21, 4, 10, 21});
}

TEST_CASE("index, level and valid predicates select values", "[interpreter][program]") {
  // sel(e,k) = (e >= 2 and k == 0) ? 1 : (k + 1 == 2 ? 2 : 3);
  // has(e) = E2C[e,1] is present (an i1 field).
  TestModule module(withDecls(R"(
    stn.program @pred(%sel: !stn.field<Edge x K x f64>, %has: !stn.field<Edge x i1>) {
      %c0 = arith.constant 0 : i32
      %c5 = arith.constant 5 : i32
      %nlev = stn.nlev : i32
      %t = stn.apply on Edge[%c0 : %c5] K[%c0 : %nlev] -> !stn.temp<Edge x K x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %zero = arith.constant 0 : i32
        %two = arith.constant 2 : i32
        %one_f = arith.constant 1.0 : f64
        %two_f = arith.constant 2.0 : f64
        %three_f = arith.constant 3.0 : f64
        %i = stn.index %p : !stn.point<Edge>
        %far = arith.cmpi sge, %i, %two : i32
        %l = stn.level
        %top = arith.cmpi eq, %l, %zero : i32
        %first = arith.andi %far, %top : i1
        %l1 = stn.level {offset = 1}
        %second = arith.cmpi eq, %l1, %two : i32
        %inner = arith.select %second, %two_f, %three_f : f64
        %r = arith.select %first, %one_f, %inner : f64
        stn.yield %r : f64
      }
      stn.store %t to %sel on Edge[%c0 : %c5] K[%c0 : %nlev]
          : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
      %v = stn.apply on Edge[%c0 : %c5] -> !stn.temp<Edge x i1> {
      ^bb0(%p: !stn.point<Edge>):
        %i1 = arith.constant 1 : index
        %n = stn.neighbor %p through @E2C [%i1] : !stn.point<Edge> -> !stn.point<Cell>
        %ok = stn.valid %n : !stn.point<Cell>
        stn.yield %ok : i1
      }
      stn.store %v to %has on Edge[%c0 : %c5] : !stn.temp<Edge x i1> to !stn.field<Edge x i1>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> sel(10);
  std::vector<uint8_t> has(5, 7);
  REQUIRE(module.run(mesh.get(), 2, "pred", {Argument::field(sel), Argument::field(has)}) == "");
  CHECK(sel == std::vector<double>{3, 3, 1, 1, 1, 2, 2, 2, 2, 2});
  CHECK(has == std::vector<uint8_t>{0, 1, 1, 0, 1});
}

TEST_CASE("stores write only their domain", "[interpreter][program]") {
  // The apply computes edges [1, 4) on all levels; the store writes edges [2, 4) of level 1.
  TestModule module(withDecls(R"(
    stn.program @part(%vn: !stn.field<Edge x K x f64>, %out: !stn.field<Edge x K x f64>) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %t = stn.apply on Edge[%c1 : %c4] K[%c0 : %c2] -> !stn.temp<Edge x K x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %v = stn.load %vn[%p, k] : !stn.field<Edge x K x f64>
        %r = arith.negf %v : f64
        stn.yield %r : f64
      }
      stn.store %t to %out on Edge[%c2 : %c4] K[%c1 : %c2]
          : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> vn = {0, 1, 2, 3, 4, 10, 11, 12, 13, 14};
  std::vector<double> out(10, -7.0);
  REQUIRE(module.run(mesh.get(), 2, "part", {Argument::field(vn), Argument::field(out)}) == "");
  CHECK(out == std::vector<double>{-7, -7, -7, -7, -7, -7, -7, -12, -13, -7});
}

TEST_CASE("half-level fields hold nlev+1 levels", "[interpreter][program]") {
  // w has levels 0..2 (nlev = 2): mean(c,k) = w(c,k) + w(c,k+1) on full levels, and
  // dw(c,k) = w(c,k) - w(c,k-1) written into a half-level field on [1, nlev) only.
  TestModule module(withDecls(R"(
    stn.program @half(%w: !stn.field<Cell x KHalf x f64>, %mean: !stn.field<Cell x K x f64>,
                      %dw: !stn.field<Cell x KHalf x f64>) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %nlev = stn.nlev : i32
      %m = stn.apply on Cell[%c0 : %c3] K[%c0 : %nlev] -> !stn.temp<Cell x K x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %a = stn.load %w[%p, k] : !stn.field<Cell x KHalf x f64>
        %b = stn.load %w[%p, k + 1] : !stn.field<Cell x KHalf x f64>
        %r = arith.addf %a, %b : f64
        stn.yield %r : f64
      }
      stn.store %m to %mean on Cell[%c0 : %c3] K[%c0 : %nlev]
          : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
      %d = stn.apply on Cell[%c0 : %c3] K[%c1 : %nlev] -> !stn.temp<Cell x KHalf x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %a = stn.load %w[%p, k] : !stn.field<Cell x KHalf x f64>
        %b = stn.load %w[%p, k - 1] : !stn.field<Cell x KHalf x f64>
        %r = arith.subf %a, %b : f64
        stn.yield %r : f64
      }
      stn.store %d to %dw on Cell[%c0 : %c3] K[%c1 : %nlev]
          : !stn.temp<Cell x KHalf x f64> to !stn.field<Cell x KHalf x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> w = {0, 1, 2, 10, 11, 12, 30, 31, 32};
  std::vector<double> mean(6), dw(9, -7.0);
  REQUIRE(module.run(mesh.get(), 2, "half",
                     {Argument::field(w), Argument::field(mean), Argument::field(dw)}) == "");
  CHECK(mean == std::vector<double>{10, 12, 14, 40, 42, 44});
  CHECK(dw == std::vector<double>{-7, -7, -7, 10, 10, 10, -7, -7, -7});
}

TEST_CASE("vertical-only applies use the level and program scalars", "[interpreter][program]") {
  // out[k] = f[k] * s + k, on levels [0, nlev).
  TestModule module(R"(
    stn.program @column(%f: !stn.field<K x f64>, %out: !stn.field<K x f64>, %s: f64) {
      %c0 = arith.constant 0 : i32
      %nlev = stn.nlev : i32
      %t = stn.apply on K[%c0 : %nlev] -> !stn.temp<K x f64> {
        %v = stn.load %f[k] : !stn.field<K x f64>
        %l = stn.level
        %lf = arith.sitofp %l : i32 to f64
        %m = arith.mulf %v, %s : f64
        %r = arith.addf %m, %lf : f64
        stn.yield %r : f64
      }
      stn.store %t to %out on K[%c0 : %nlev] : !stn.temp<K x f64> to !stn.field<K x f64>
      stn.return
    }
  )");
  TestMesh mesh(0, 0, 0);
  std::vector<double> f = {1, 2, 3, 4};
  std::vector<double> out(4);
  REQUIRE(module.run(mesh.get(), 4, "column",
                     {Argument::field(f), Argument::field(out), Argument::real(0.5)}) == "");
  CHECK(out == std::vector<double>{0.5, 2, 3.5, 5});
}

TEST_CASE("scf.if at program level picks a branch and computes bounds", "[interpreter][program]") {
  // flag: out = 1 on edges [0, 3); otherwise out = 2 on edges [0, 5).
  TestModule module(withDecls(R"(
    stn.program @branch(%out: !stn.field<Edge x f64>, %flag: i1) {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %hi = scf.if %flag -> (i32) {
        scf.yield %c3 : i32
      } else {
        scf.yield %c5 : i32
      }
      scf.if %flag {
        %t = stn.apply on Edge[%c0 : %hi] -> !stn.temp<Edge x f64> {
        ^bb0(%p: !stn.point<Edge>):
          %one = arith.constant 1.0 : f64
          stn.yield %one : f64
        }
        stn.store %t to %out on Edge[%c0 : %hi] : !stn.temp<Edge x f64> to !stn.field<Edge x f64>
      } else {
        %t = stn.apply on Edge[%c0 : %hi] -> !stn.temp<Edge x f64> {
        ^bb0(%p: !stn.point<Edge>):
          %two = arith.constant 2.0 : f64
          stn.yield %two : f64
        }
        stn.store %t to %out on Edge[%c0 : %hi] : !stn.temp<Edge x f64> to !stn.field<Edge x f64>
      }
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> out(5, -7.0);
  REQUIRE(module.run(mesh.get(), 1, "branch", {Argument::field(out), Argument::boolean(true)}) ==
          "");
  CHECK(out == std::vector<double>{1, 1, 1, -7, -7});
  REQUIRE(module.run(mesh.get(), 1, "branch", {Argument::field(out), Argument::boolean(false)}) ==
          "");
  CHECK(out == std::vector<double>{2, 2, 2, 2, 2});
}

TEST_CASE("temporaries read through a connectivity on an image domain", "[interpreter][program]") {
  // The cell temporary is computed only on the image of edges [1, 3) through E2C, i.e.
  // cells [0, 3); the edge apply reads it at both neighbours. Empty domains are fine.
  TestModule module(withDecls(R"(
    stn.program @image(%cf: !stn.field<Cell x f64>, %out: !stn.field<Edge x f64>) {
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %lo, %hi = stn.image %c1, %c3 through @E2C
      %sq = stn.apply on Cell[%lo : %hi] -> !stn.temp<Cell x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %v = stn.load %cf[%p] : !stn.field<Cell x f64>
        %r = arith.mulf %v, %v : f64
        stn.yield %r : f64
      }
      %e = stn.apply on Edge[%c1 : %c3] -> !stn.temp<Edge x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %n0 = stn.neighbor %p through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
        %n1 = stn.neighbor %p through @E2C [%i1] : !stn.point<Edge> -> !stn.point<Cell>
        %a = stn.load %sq[%n0] : !stn.temp<Cell x f64>
        %b = stn.load %sq[%n1] : !stn.temp<Cell x f64>
        %r = arith.addf %a, %b : f64
        stn.yield %r : f64
      }
      stn.store %e to %out on Edge[%c1 : %c3] : !stn.temp<Edge x f64> to !stn.field<Edge x f64>
      %none = stn.apply on Edge[%c3 : %c1] -> !stn.temp<Edge x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %v = arith.constant 9.0 : f64
        stn.yield %v : f64
      }
      stn.store %none to %out on Edge[%c3 : %c1] : !stn.temp<Edge x f64> to !stn.field<Edge x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> cf = {1, 2, 3};
  std::vector<double> out(5, -7.0);
  REQUIRE(module.run(mesh.get(), 1, "image", {Argument::field(cf), Argument::field(out)}) == "");
  CHECK(out == std::vector<double>{-7, 5, 13, -7, -7});
}

TEST_CASE("traffic tracking counts each element read or written once", "[interpreter][program]") {
  // out(e,k) = vn(e,k) + cf(E2C[e,0],k) on edges [0,5) and levels [1,3) of 3: E2C's first slot
  // gives cells 0,0,1,2,1, so cf is read at 3 cells per level, twice at cells 0 and 1.
  TestModule module(withDecls(R"(
    stn.program @touch(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
                       %cf: !stn.field<Cell x K x f32> {stn.name = "cf"},
                       %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
                       %s: f64 {stn.name = "s"}) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %t = stn.apply on Edge[%c0 : %c5] K[%c1 : %c3] -> !stn.temp<Edge x K x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %v = stn.load %vn[%p, k] : !stn.field<Edge x K x f64>
        %i0 = arith.constant 0 : index
        %c = stn.neighbor %p through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
        %w = stn.load %cf[%c, k] : !stn.field<Cell x K x f32>
        %wd = arith.extf %w : f32 to f64
        %r = arith.addf %v, %wd : f64
        stn.yield %r : f64
      }
      stn.store %t to %out on Edge[%c0 : %c5] K[%c1 : %c3]
          : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> vn(15, 1.0), out(15, 0.0);
  std::vector<float> cf(9, 2.0f);
  std::vector<Argument> args = {Argument::field(vn), Argument::field(cf), Argument::field(out),
                                Argument::real(1.0)};
  fusec::Interpreter interpreter(module.get(), mesh.get(), 3);
  std::string error;

  REQUIRE(mlir::succeeded(interpreter.run("touch", args, error)));
  CHECK(interpreter.lastTraffic().empty());

  interpreter.setTrafficTracking(true);
  REQUIRE(mlir::succeeded(interpreter.run("touch", args, error)));
  llvm::ArrayRef<fusec::FieldTraffic> traffic = interpreter.lastTraffic();
  REQUIRE(traffic.size() == 4);
  CHECK(traffic[0].elementsRead == 10);
  CHECK(traffic[0].elementsWritten == 0);
  CHECK(traffic[1].elementsRead == 6);
  CHECK(traffic[1].bytes() == 6 * 4);
  CHECK(traffic[2].elementsRead == 0);
  CHECK(traffic[2].elementsWritten == 10);
  CHECK(traffic[2].bytes() == 10 * 8);
  CHECK(traffic[3].bytes() == 0);
  CHECK(out[5] == 3.0);
  CHECK(out[0] == 0.0);
}
