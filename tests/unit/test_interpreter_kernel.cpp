//===- test_interpreter_kernel.cpp - kernel form, images, exchanges --------===//

#include "test_interpreter.h"

#include "ir/StnDialect.h"

#include <catch2/catch.hpp>

using fusec::Argument;
using fusec::ExchangedField;
using fusec::Interpreter;
using fusec::test::smallMesh;
using fusec::test::TestMesh;
using fusec::test::TestModule;
using fusec::test::withDecls;


TEST_CASE("kernels update fields in place under scf.if predicates", "[interpreter][kernel]") {
  // vn(e,k) += 1 on edges e < 2; elsewhere vn(e,k) = sum of cf over E2C[e] (missing skipped).
  TestModule module(withDecls(R"(
    stn.program @update(%vn: !stn.field<Edge x K x f64>, %cf: !stn.field<Cell x K x f64>) {
      %c0 = arith.constant 0 : i32
      %c5 = arith.constant 5 : i32
      %nlev = stn.nlev : i32
      %two = arith.constant 2 : i32
      stn.kernel "update" on Edge[%c0 : %c5] K[%c0 : %nlev] attributes {kblock = 2} {
      ^bb0(%p: !stn.point<Edge>):
        %i = stn.index %p : !stn.point<Edge>
        %boundary = arith.cmpi slt, %i, %two : i32
        scf.if %boundary {
          %v = stn.load %vn[%p, k] : !stn.field<Edge x K x f64>
          %one = arith.constant 1.0 : f64
          %r = arith.addf %v, %one : f64
          stn.write %r to %vn at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
        } else {
          %s = stn.reduce sum over @E2C at %p : !stn.point<Edge> -> f64 {
          ^bb0(%j: index, %c: !stn.point<Cell>):
            %v = stn.load %cf[%c, k] : !stn.field<Cell x K x f64>
            stn.yield %v : f64
          }
          stn.write %s to %vn at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
        }
      }
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> vn = {0, 1, 2, 3, 4, 10, 11, 12, 13, 14};
  std::vector<double> cf = {1, 2, 3, 1.5, 2.5, 3.5};
  REQUIRE(module.run(mesh.get(), 2, "update", {Argument::field(vn), Argument::field(cf)}) == "");
  CHECK(vn == std::vector<double>{1, 2, 5, 3, 3, 11, 12, 6, 3.5, 4});
}

TEST_CASE("program form and kernel form of one stencil agree", "[interpreter][kernel]") {
  // out(c,k) = sum_j g(c,j) * vn(C2E[c,j],k) on cells [1, 3), as an apply + store and as a
  // kernel that reads program-level bounds and constants.
  TestModule module(withDecls(R"(
    stn.program @as_apply(%g: !stn.field<Cell x C2E[3] x f64>, %vn: !stn.field<Edge x K x f64>,
                          %out: !stn.field<Cell x K x f64>) {
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %c0 = arith.constant 0 : i32
      %nlev = stn.nlev : i32
      %t = stn.apply on Cell[%c1 : %c3] K[%c0 : %nlev] -> !stn.temp<Cell x K x f64> {
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
      stn.store %t to %out on Cell[%c1 : %c3] K[%c0 : %nlev]
          : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
      stn.return
    }
    stn.program @as_kernel(%g: !stn.field<Cell x C2E[3] x f64>, %vn: !stn.field<Edge x K x f64>,
                           %out: !stn.field<Cell x K x f64>) {
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %c0 = arith.constant 0 : i32
      %nlev = stn.nlev : i32
      stn.kernel "div" on Cell[%c1 : %c3] K[%c0 : %nlev] {
      ^bb0(%p: !stn.point<Cell>):
        %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %e: !stn.point<Edge>):
          %w = stn.load %g[%p, nbr %j] : !stn.field<Cell x C2E[3] x f64>
          %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
          %m = arith.mulf %w, %v : f64
          stn.yield %m : f64
        }
        stn.write %s to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> g = {0.5, -1, 2, 0.25, 3, -2, 1.5, 0.75, 4};
  std::vector<double> vn = {1.5, -2, 3.25, 0.5, 7, 2, 4, -1, 6, 0.125};
  std::vector<double> viaApply(6, -7.0), viaKernel(6, -7.0);
  REQUIRE(module.run(mesh.get(), 2, "as_apply",
                     {Argument::field(g), Argument::field(vn), Argument::field(viaApply)}) == "");
  REQUIRE(module.run(mesh.get(), 2, "as_kernel",
                     {Argument::field(g), Argument::field(vn), Argument::field(viaKernel)}) == "");
  CHECK(viaApply == viaKernel);
  // Cell 1 at level 0: g(1,j) = -1, 3, 0.75 on edges 1, 2, 4: 2 + 9.75 + 5.25.
  CHECK(viaApply[1] == 17.0);
  CHECK(viaApply[0] == -7.0);
}

TEST_CASE("stn.image gives the hull of present neighbours", "[interpreter][kernel]") {
  // Vertical-only kernels write the bounds of five images into level i of lo and hi.
  TestModule module(withDecls(R"(
    stn.program @images(%lo: !stn.field<K x i32>, %hi: !stn.field<K x i32>) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
      %c5 = arith.constant 5 : i32
      %a0, %a1 = stn.image %c1, %c3 through @E2C
      %b0, %b1 = stn.image %c3, %c4 through @E2C
      %d0, %d1 = stn.image %c2, %c2 through @E2C
      %e0, %e1 = stn.image %c1, %c2 through @V2C
      %f0, %f1 = stn.image %c0, %c4 through @V2C
      stn.kernel "a" on K[%c0 : %c1] {
        stn.write %a0 to %lo : i32, !stn.field<K x i32>
        stn.write %a1 to %hi : i32, !stn.field<K x i32>
      }
      stn.kernel "b" on K[%c1 : %c2] {
        stn.write %b0 to %lo : i32, !stn.field<K x i32>
        stn.write %b1 to %hi : i32, !stn.field<K x i32>
      }
      stn.kernel "d" on K[%c2 : %c3] {
        stn.write %d0 to %lo : i32, !stn.field<K x i32>
        stn.write %d1 to %hi : i32, !stn.field<K x i32>
      }
      stn.kernel "e" on K[%c3 : %c4] {
        stn.write %e0 to %lo : i32, !stn.field<K x i32>
        stn.write %e1 to %hi : i32, !stn.field<K x i32>
      }
      stn.kernel "f" on K[%c4 : %c5] {
        stn.write %f0 to %lo : i32, !stn.field<K x i32>
        stn.write %f1 to %hi : i32, !stn.field<K x i32>
      }
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<int32_t> lo(5, -7), hi(5, -7);
  REQUIRE(module.run(mesh.get(), 5, "images", {Argument::field(lo), Argument::field(hi)}) == "");
  CHECK(lo == std::vector<int32_t>{0, 2, 0, 0, 0});
  CHECK(hi == std::vector<int32_t>{3, 3, 0, 0, 3});
}

TEST_CASE("2-D kernels run once per point", "[interpreter][kernel]") {
  TestModule module(withDecls(R"(
    stn.program @flat(%cf: !stn.field<Cell x f64>) {
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      stn.kernel "double" on Cell[%c1 : %c3] {
      ^bb0(%p: !stn.point<Cell>):
        %v = stn.load %cf[%p] : !stn.field<Cell x f64>
        %r = arith.addf %v, %v : f64
        stn.write %r to %cf at %p : !stn.point<Cell> : f64, !stn.field<Cell x f64>
      }
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> cf = {1, 2, 3};
  REQUIRE(module.run(mesh.get(), 7, "flat", {Argument::field(cf)}) == "");
  CHECK(cf == std::vector<double>{1, 4, 6});
}

TEST_CASE("stn.exchange hands its fields to the callback", "[interpreter][kernel]") {
  // A zeroed program-local buffer is filled, exchanged (the callback changes it), then
  // copied into out.
  TestModule module(withDecls(R"(
    stn.program @halo(%out: !stn.field<Cell x f64> {stn.name = "out"}) {
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %buf = stn.alloc {name = "buf"} : !stn.field<Cell x f64>
      %t = stn.apply on Cell[%c0 : %c2] -> !stn.temp<Cell x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %i = stn.index %p : !stn.point<Cell>
        %f = arith.sitofp %i : i32 to f64
        stn.yield %f : f64
      }
      stn.store %t to %buf on Cell[%c0 : %c2] : !stn.temp<Cell x f64> to !stn.field<Cell x f64>
      stn.exchange %buf, %out : !stn.field<Cell x f64>, !stn.field<Cell x f64>
      %u = stn.apply on Cell[%c0 : %c3] -> !stn.temp<Cell x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %v = stn.load %buf[%p] : !stn.field<Cell x f64>
        stn.yield %v : f64
      }
      stn.store %u to %out on Cell[%c0 : %c3] : !stn.temp<Cell x f64> to !stn.field<Cell x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  Interpreter interpreter(module.get(), mesh.get(), 1);
  std::vector<std::string> names;
  std::vector<double> before;
  interpreter.setExchangeCallback([&](llvm::ArrayRef<ExchangedField> fields) {
    for (const ExchangedField &field : fields) {
      names.push_back(field.name.str());
      REQUIRE(field.view.element == fusec::FieldView::Element::F64);
      REQUIRE(field.view.size == 3);
    }
    auto *buf = static_cast<double *>(fields[0].view.data);
    before.assign(buf, buf + 3);
    buf[2] = 42.0;
  });
  std::vector<double> out(3, -7.0);
  std::string error;
  REQUIRE(mlir::succeeded(interpreter.run("halo", {Argument::field(out)}, error)));
  CHECK(names == std::vector<std::string>{"buf", "out"});
  CHECK(before == std::vector<double>{0, 1, 0});
  CHECK(out == std::vector<double>{0, 1, 42});
}

namespace {

/// A C++-style loop-form kernel that carries cf(k - 1) to level k through a
/// row of `rowSize` elements; `storeFirst` writes the row before the levels.
std::string rowProgram(int rowSize, bool storeFirst) {
  std::string row = "!stn.row<" + std::to_string(rowSize) + " x f64>";
  std::string first = storeFirst ? R"(
        %v = stn.load %cf[%p, %kb - 1] : !stn.field<Cell x K x f64>
        stn.row_store %v, %row[%i] : )" + row
                                 : "";
  return withDecls(R"(
    stn.program @rows(%cf: !stn.field<Cell x K x f64>,
                      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %nlev = stn.nlev : i32
      stn.kernel "running" on Cell[%c0 : %c3] K[%c1 : %nlev] attributes {kblock = 1024, loop_form} {
      ^bb0(%hb: index, %he: index, %kb: index, %ke: index):
        %one = arith.constant 1 : index
        %row = stn.row : )" + row + R"(
        scf.for %h = %hb to %he step %one {
          %i = arith.subi %h, %hb : index
          %p = stn.point_at %h : !stn.point<Cell>)" + first + R"(
        } {stn.simd}
        scf.for %k = %kb to %ke step %one {
          scf.for %h = %hb to %he step %one {
            %i = arith.subi %h, %hb : index
            %p = stn.point_at %h : !stn.point<Cell>
            %below = stn.row_load %row[%i] : )" + row + R"(
            %v = stn.load %cf[%p, %k] : !stn.field<Cell x K x f64>
            %s = arith.addf %v, %below : f64
            stn.write %s to %out at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
            stn.row_store %v, %row[%i] : )" + row + R"(
          } {stn.simd}
        }
      }
      stn.return
    }
  )");
}

} // namespace

TEST_CASE("rows carry values of each point from one level to the next", "[interpreter][kernel]") {
  TestMesh mesh = smallMesh();
  std::vector<double> cf = {1, 2, 3, 1.5, 2.5, 3.5, 10, 20, 30};
  std::vector<double> out(9, 0.0);
  SECTION("written before read") {
    TestModule module(rowProgram(128, /*storeFirst=*/true));
    REQUIRE(module.run(mesh.get(), 3, "rows", {Argument::field(cf), Argument::field(out)}) == "");
    CHECK(out == std::vector<double>{0, 0, 0, 2.5, 4.5, 6.5, 11.5, 22.5, 33.5});
  }
  SECTION("an element read before it was written is an error") {
    TestModule module(rowProgram(128, /*storeFirst=*/false));
    CHECK_THAT(module.run(mesh.get(), 3, "rows", {Argument::field(cf), Argument::field(out)}),
               Catch::Contains("stn.row_load of element 0, never written, in ") &&
                   Catch::Contains("running"));
  }
  SECTION("an index outside the row is an error") {
    TestModule module(rowProgram(2, /*storeFirst=*/true));
    CHECK_THAT(module.run(mesh.get(), 3, "rows", {Argument::field(cf), Argument::field(out)}),
               Catch::Contains("stn.row_store at element 2 of a row of 2 in ") &&
                   Catch::Contains("running"));
  }
}

TEST_CASE("kernel traffic counts each element a call touches once, per kernel name",
          "[interpreter][kernel]") {
  // flux: t(e,k) = cf(E2C[e,0],k) on edges [0,5), then sum: out(c,k) = sum of t over C2E[c],
  // then flux again on edges [0,2). E2C's first slot gives cells 0,0,1,2,1; C2E reaches edges
  // 0..4.
  TestModule module(withDecls(R"(
    stn.program @two(%cf: !stn.field<Cell x K x f64>, %out: !stn.field<Cell x K x f64>) {
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %nlev = stn.nlev : i32
      %t = stn.alloc {name = "t"} : !stn.field<Edge x K x f64>
      stn.kernel "flux" on Edge[%c0 : %c5] K[%c0 : %nlev] {
      ^bb0(%p: !stn.point<Edge>):
        %i0 = arith.constant 0 : index
        %c = stn.neighbor %p through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
        %v = stn.load %cf[%c, k] : !stn.field<Cell x K x f64>
        stn.write %v to %t at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
      stn.kernel "sum" on Cell[%c0 : %c3] K[%c0 : %nlev] {
      ^bb0(%p: !stn.point<Cell>):
        %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %e: !stn.point<Edge>):
          %v = stn.load %t[%e, k] : !stn.field<Edge x K x f64>
          stn.yield %v : f64
        }
        stn.write %s to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
      stn.kernel "flux" on Edge[%c0 : %c2] K[%c0 : %nlev] {
      ^bb0(%p: !stn.point<Edge>):
        %i0 = arith.constant 0 : index
        %c = stn.neighbor %p through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
        %v = stn.load %cf[%c, k] : !stn.field<Cell x K x f64>
        stn.write %v to %t at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> cf = {1, 2, 3, 4, 5, 6}, out(6, 0.0);
  std::vector<Argument> args = {Argument::field(cf), Argument::field(out)};
  Interpreter interpreter(module.get(), mesh.get(), 2);
  std::string error;

  REQUIRE(mlir::succeeded(interpreter.run("two", args, error)));
  CHECK(interpreter.lastKernelTraffic().empty());

  interpreter.setKernelTrafficTracking(true);
  REQUIRE(mlir::succeeded(interpreter.run("two", args, error)));
  llvm::ArrayRef<fusec::KernelTraffic> traffic = interpreter.lastKernelTraffic();
  REQUIRE(traffic.size() == 2);
  // flux: cells {0,1,2} then {0} read, edges 0..4 then 0..1 written; 2 levels of f64.
  CHECK(traffic[0].name == "flux");
  CHECK(traffic[0].calls == 2);
  CHECK(traffic[0].bytesRead == (3 + 1) * 2 * 8);
  CHECK(traffic[0].bytesWritten == (5 + 2) * 2 * 8);
  // sum: edges 0..4 of t read once each although shared by cells, 3 cells written.
  CHECK(traffic[1].name == "sum");
  CHECK(traffic[1].calls == 1);
  CHECK(traffic[1].bytesRead == 5 * 2 * 8);
  CHECK(traffic[1].bytesWritten == 3 * 2 * 8);
  CHECK(traffic[1].bytes() == 8 * 2 * 8);
  // Cell 0 at level 0: t on edges 0, 1, 4 = cf at cells 0, 0, 1.
  CHECK(out[0] == 1 + 1 + 2);
}
