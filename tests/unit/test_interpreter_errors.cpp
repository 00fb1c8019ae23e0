//===- test_interpreter_errors.cpp - clear errors instead of garbage -------===//

#include "test_interpreter.h"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;
using fusec::Argument;
using fusec::test::smallMesh;
using fusec::test::TestMesh;
using fusec::test::TestModule;
using fusec::test::withDecls;

namespace {

/// out(e,k) = vn(e, k + 1) over all levels: reads one level past the top.
const char *const kShiftUp = R"(
  stn.program @P(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
                 %out: !stn.field<Edge x K x f64> {stn.name = "out"}) {
    %c0 = arith.constant 0 : i32
    %c5 = arith.constant 5 : i32
    %nlev = stn.nlev : i32
    %t = stn.apply on Edge[%c0 : %c5] K[%c0 : %nlev] -> !stn.temp<Edge x K x f64> {
    ^bb0(%p: !stn.point<Edge>):
      %v = stn.load %vn[%p, k + 1] : !stn.field<Edge x K x f64>
      stn.yield %v : f64
    } attributes {name = "shift"}
    stn.store %t to %out on Edge[%c0 : %c5] K[%c0 : %nlev]
        : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
    stn.return
  }
)";

} // namespace

TEST_CASE("an out-of-range level names the field, the point and the level",
          "[interpreter][errors]") {
  TestModule module(withDecls(kShiftUp));
  TestMesh mesh = smallMesh();
  std::vector<double> vn(10), out(10);
  CHECK(module.run(mesh.get(), 2, "P", {Argument::field(vn), Argument::field(out)}) ==
        "field 'vn' read at point 0, level 2 in apply 'shift' of program 'P': outside its "
        "points [0, 5) and levels [0, 2)");
}

TEST_CASE("a dynamic offset below level 0 is an error", "[interpreter][errors]") {
  TestModule module(withDecls(R"(
    stn.program @P(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
                   %off: !stn.field<Cell x K x i32>, %out: !stn.field<Cell x K x f64>) {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      %nlev = stn.nlev : i32
      %t = stn.apply on Cell[%c0 : %c3] K[%c0 : %nlev] -> !stn.temp<Cell x K x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
        %v = stn.load %f[%p, k + %o] : !stn.field<Cell x K x f64>
        stn.yield %v : f64
      } attributes {name = "gather"}
      stn.store %t to %out on Cell[%c0 : %c3] K[%c0 : %nlev]
          : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> f(6), out(6);
  std::vector<int32_t> off = {0, -1, 0, 0, 0, 0};
  CHECK(module.run(mesh.get(), 2, "P",
                   {Argument::field(f), Argument::field(off), Argument::field(out)}) ==
        "field 'f' read at point 1, level -1 in apply 'gather' of program 'P': outside its "
        "points [0, 3) and levels [0, 2)");
}

TEST_CASE("reading a temporary outside its computed domain is an error", "[interpreter][errors]") {
  // The cell temporary covers cells [1, 3) but edge 0 reads cell 0.
  TestModule module(withDecls(R"(
    stn.program @P(%cf: !stn.field<Cell x f64>, %out: !stn.field<Edge x f64>) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %sq = stn.apply on Cell[%c1 : %c3] -> !stn.temp<Cell x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %v = stn.load %cf[%p] : !stn.field<Cell x f64>
        stn.yield %v : f64
      } attributes {name = "sq"}
      %e = stn.apply on Edge[%c0 : %c3] -> !stn.temp<Edge x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %i0 = arith.constant 0 : index
        %n = stn.neighbor %p through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
        %v = stn.load %sq[%n] : !stn.temp<Cell x f64>
        stn.yield %v : f64
      } attributes {name = "edges"}
      stn.store %e to %out on Edge[%c0 : %c3] : !stn.temp<Edge x f64> to !stn.field<Edge x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> cf(3), out(5);
  CHECK(module.run(mesh.get(), 1, "P", {Argument::field(cf), Argument::field(out)}) ==
        "temporary 'sq' read at point 0 in apply 'edges' of program 'P': outside the domain it "
        "was computed on, points [1, 3)");
}

TEST_CASE("domains and stores are checked against the mesh and the temporary",
          "[interpreter][errors]") {
  TestModule module(withDecls(R"(
    stn.program @P(%out: !stn.field<Edge x f64> {stn.name = "out"}, %hi: i32, %shi: i32) {
      %c0 = arith.constant 0 : i32
      %t = stn.apply on Edge[%c0 : %hi] -> !stn.temp<Edge x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %v = arith.constant 1.0 : f64
        stn.yield %v : f64
      } attributes {name = "fill"}
      stn.store %t to %out on Edge[%c0 : %shi] : !stn.temp<Edge x f64> to !stn.field<Edge x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> out(5);
  CHECK(module.run(mesh.get(), 1, "P",
                   {Argument::field(out), Argument::integer(6), Argument::integer(5)}) ==
        "apply 'fill' of program 'P' runs on Edge points [0, 6), but the mesh has 5");
  CHECK(module.run(mesh.get(), 1, "P",
                   {Argument::field(out), Argument::integer(4), Argument::integer(5)}) ==
        "stn.store in program 'P' copies points [0, 5) of temporary 'fill', which was "
        "computed on points [0, 4) only");
}

TEST_CASE("kernel writes are bounds-checked", "[interpreter][errors]") {
  // A full-level field written on nlev+1 levels.
  TestModule module(withDecls(R"(
    stn.program @P(%out: !stn.field<Cell x K x f64> {stn.name = "out"}) {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      stn.kernel "fill" on Cell[%c0 : %c3] K[%c0 : %c3] {
      ^bb0(%p: !stn.point<Cell>):
        %v = arith.constant 1.0 : f64
        stn.write %v to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> out(6);
  CHECK(module.run(mesh.get(), 2, "P", {Argument::field(out)}) ==
        "field 'out' written at point 0, level 2 in kernel 'fill' of program 'P': outside its "
        "points [0, 3) and levels [0, 2)");
}

TEST_CASE("a neighbour slot outside the connectivity is an error", "[interpreter][errors]") {
  TestModule module(withDecls(R"(
    stn.program @P(%cf: !stn.field<Cell x f64>, %out: !stn.field<Edge x f64>) {
      %c0 = arith.constant 0 : i32
      %c5 = arith.constant 5 : i32
      %t = stn.apply on Edge[%c0 : %c5] -> !stn.temp<Edge x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %i2 = arith.constant 2 : index
        %n = stn.neighbor %p through @E2C [%i2] : !stn.point<Edge> -> !stn.point<Cell>
        %v = stn.load %cf[%n] : !stn.field<Cell x f64>
        stn.yield %v : f64
      } attributes {name = "third"}
      stn.store %t to %out on Edge[%c0 : %c5] : !stn.temp<Edge x f64> to !stn.field<Edge x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> cf(3), out(5);
  CHECK(module.run(mesh.get(), 1, "P", {Argument::field(cf), Argument::field(out)}) ==
        "neighbour 2 through E2C in apply 'third' of program 'P': outside its slots [0, 2)");
}

TEST_CASE("levels are an error where there is no vertical domain", "[interpreter][errors]") {
  TestModule module(withDecls(R"(
    stn.program @P(%out: !stn.field<Edge x i32>) {
      %c0 = arith.constant 0 : i32
      %c5 = arith.constant 5 : i32
      %t = stn.apply on Edge[%c0 : %c5] -> !stn.temp<Edge x i32> {
      ^bb0(%p: !stn.point<Edge>):
        %l = stn.level
        stn.yield %l : i32
      } attributes {name = "flat"}
      stn.store %t to %out on Edge[%c0 : %c5] : !stn.temp<Edge x i32> to !stn.field<Edge x i32>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<int32_t> out(5);
  CHECK(module.run(mesh.get(), 1, "P", {Argument::field(out)}) ==
        "stn.level in apply 'flat' of program 'P', which runs on no vertical domain");
}

TEST_CASE("an apply without an inferred domain is rejected", "[interpreter][errors]") {
  TestModule module(withDecls(R"(
    stn.program @P(%vn: !stn.field<Edge x K x f64>, %out: !stn.field<Edge x K x f64>) {
      %c0 = arith.constant 0 : i32
      %c5 = arith.constant 5 : i32
      %nlev = stn.nlev : i32
      %t = stn.apply on Edge -> !stn.temp<Edge x K x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %v = stn.load %vn[%p, k] : !stn.field<Edge x K x f64>
        stn.yield %v : f64
      } attributes {name = "copy"}
      stn.store %t to %out on Edge[%c0 : %c5] K[%c0 : %nlev]
          : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> vn(10), out(10);
  CHECK(module.run(mesh.get(), 2, "P", {Argument::field(vn), Argument::field(out)}) ==
        "program 'P': domain of apply 'copy' not inferred: run stn-infer-domains");
}

TEST_CASE("missing and malformed connectivity tables are reported", "[interpreter][errors]") {
  const std::string program = withDecls(R"(
    stn.program @P(%cf: !stn.field<Cell x f64>, %out: !stn.field<Edge x f64>) {
      %c0 = arith.constant 0 : i32
      %c5 = arith.constant 5 : i32
      %t = stn.apply on Edge[%c0 : %c5] -> !stn.temp<Edge x f64> {
      ^bb0(%p: !stn.point<Edge>):
        %s = stn.reduce sum over @E2C at %p : !stn.point<Edge> -> f64 {
        ^bb0(%j: index, %c: !stn.point<Cell>):
          %v = stn.load %cf[%c] : !stn.field<Cell x f64>
          stn.yield %v : f64
        }
        stn.yield %s : f64
      }
      stn.store %t to %out on Edge[%c0 : %c5] : !stn.temp<Edge x f64> to !stn.field<Edge x f64>
      stn.return
    }
  )");
  TestModule module(program);
  std::vector<double> cf(3), out(5);
  auto runOn = [&](TestMesh &mesh) {
    return module.run(mesh.get(), 1, "P", {Argument::field(cf), Argument::field(out)});
  };
  SECTION("absent") {
    TestMesh mesh(3, 5, 4);
    CHECK_THAT(runOn(mesh), Contains("program 'P': the mesh has no connectivity 'E2C' (used by "
                                     "'stn.reduce' at "));
  }
  SECTION("wrong neighbour count") {
    TestMesh mesh = smallMesh();
    mesh.reshape("E2C", 1, 5);
    CHECK(runOn(mesh) == "program 'P': mesh connectivity 'E2C' has 1 neighbours per point, but "
                         "the module declares 2");
  }
  SECTION("wrong row count") {
    TestMesh mesh = smallMesh();
    mesh.reshape("E2C", 2, 4);
    CHECK(runOn(mesh) ==
          "program 'P': mesh connectivity 'E2C' has 4 rows, but the mesh has 5 Edge points");
  }
  SECTION("wrong locations") {
    TestMesh mesh(3, 5, 4);
    mesh.connect("E2C", FUSEC_EDGE, FUSEC_VERTEX, {{0, -1}, {0, 1}, {1, 2}, {2, -1}, {1, 0}});
    CHECK(runOn(mesh) == "program 'P': mesh connectivity 'E2C' maps Edge to Vertex, but the "
                         "module declares Edge -> Cell");
  }
  SECTION("an entry outside the target points") {
    TestMesh mesh(3, 5, 4);
    mesh.connect("E2C", FUSEC_EDGE, FUSEC_CELL, {{0, -1}, {0, 9}, {1, 2}, {2, -1}, {1, 0}});
    CHECK(runOn(mesh) == "program 'P': mesh connectivity 'E2C' holds 9 at point 1, slot 1: "
                         "neither -1 nor one of the 3 Cell points");
  }
}

TEST_CASE("unsupported operations are named", "[interpreter][errors]") {
  TestModule module(R"(
    stn.program @P(%f: !stn.field<K x f64>, %out: !stn.field<K x f64>) {
      %c0 = arith.constant 0 : i32
      %n = stn.nlev : i32
      %t = stn.apply on K[%c0 : %n] -> !stn.temp<K x f64> {
        %v = stn.load %f[k] : !stn.field<K x f64>
        %r = math.sin %v : f64
        stn.yield %r : f64
      }
      stn.store %t to %out on K[%c0 : %n] : !stn.temp<K x f64> to !stn.field<K x f64>
      stn.return
    }
  )");
  TestMesh mesh(0, 0, 0);
  std::vector<double> f(2), out(2);
  CHECK_THAT(module.run(mesh.get(), 2, "P", {Argument::field(f), Argument::field(out)}),
             Contains("program 'P': unsupported operation 'math.sin' at "));
}

TEST_CASE("arguments are checked against the parameters", "[interpreter][errors]") {
  TestModule module(R"(
    stn.program @P(%f: !stn.field<K x f64> {stn.name = "f"}, %n: i32 {stn.name = "n"},
                   %flag: i1 {stn.name = "flag"}) {
      stn.return
    }
  )");
  TestMesh mesh(0, 0, 0);
  std::vector<double> f(3), small(2);
  std::vector<float> f32(3);
  auto run = [&](llvm::ArrayRef<Argument> args) { return module.run(mesh.get(), 3, "P", args); };
  CHECK(run({Argument::field(f), Argument::integer(1), Argument::boolean(true)}) == "");
  CHECK(run({Argument::field(f)}) == "program 'P' takes 3 arguments, but 1 were given");
  CHECK(run({Argument::field(f32), Argument::integer(1), Argument::boolean(true)}) ==
        "argument 0 ('f') of program 'P' holds f32 values, but the field holds f64");
  CHECK(run({Argument::field(small), Argument::integer(1), Argument::boolean(true)}) ==
        "argument 0 ('f') of program 'P' holds 2 elements, but the field needs 3 on this mesh");
  CHECK(run({Argument::real(1), Argument::integer(1), Argument::boolean(true)}) ==
        "argument 0 ('f') of program 'P' must be a field buffer");
  CHECK(run({Argument::field(f), Argument::real(1), Argument::boolean(true)}) ==
        "argument 1 ('n') of program 'P' must be an integer scalar");
  CHECK(run({Argument::field(f), Argument::integer(int64_t{1} << 40), Argument::boolean(true)}) ==
        "argument 1 ('n') of program 'P' is 1099511627776, which does not fit i32");
  CHECK(run({Argument::field(f), Argument::integer(1), Argument::integer(1)}) ==
        "argument 2 ('flag') of program 'P' must be a boolean scalar");
  CHECK(module.run(mesh.get(), 3, "Q", {}) == "no program 'Q' in the module");
}

TEST_CASE("integer division by zero and fptosi overflow are errors", "[interpreter][errors]") {
  TestModule module(R"(
    stn.program @div(%a: !stn.field<K x i32>, %b: !stn.field<K x i32>, %out: !stn.field<K x i32>) {
      %c0 = arith.constant 0 : i32
      %n = stn.nlev : i32
      %t = stn.apply on K[%c0 : %n] -> !stn.temp<K x i32> {
        %x = stn.load %a[k] : !stn.field<K x i32>
        %y = stn.load %b[k] : !stn.field<K x i32>
        %r = arith.divsi %x, %y : i32
        stn.yield %r : i32
      } attributes {name = "ratio"}
      stn.store %t to %out on K[%c0 : %n] : !stn.temp<K x i32> to !stn.field<K x i32>
      stn.return
    }
    stn.program @cast(%a: !stn.field<K x f64>, %out: !stn.field<K x i32>) {
      %c0 = arith.constant 0 : i32
      %n = stn.nlev : i32
      %t = stn.apply on K[%c0 : %n] -> !stn.temp<K x i32> {
        %x = stn.load %a[k] : !stn.field<K x f64>
        %r = arith.fptosi %x : f64 to i32
        stn.yield %r : i32
      } attributes {name = "truncate"}
      stn.store %t to %out on K[%c0 : %n] : !stn.temp<K x i32> to !stn.field<K x i32>
      stn.return
    }
  )");
  TestMesh mesh(0, 0, 0);
  std::vector<int32_t> a = {1, 2}, b = {1, 0}, out(2);
  CHECK(module.run(mesh.get(), 2, "div",
                   {Argument::field(a), Argument::field(b), Argument::field(out)}) ==
        "integer division by zero in apply 'ratio' of program 'div'");
  std::vector<double> big = {1, 3e9};
  CHECK(module.run(mesh.get(), 2, "cast", {Argument::field(big), Argument::field(out)}) ==
        "arith.fptosi of 3000000000 does not fit i32 in apply 'truncate' of program 'cast'");
}
