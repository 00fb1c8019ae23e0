//===- test_interpreter_points.cpp - point lists: binding and three IR forms ===//

#include "test_interpreter.h"

#include <catch2/catch.hpp>

using fusec::Argument;
using fusec::test::smallMesh;
using fusec::test::TestMesh;
using fusec::test::TestModule;
using fusec::test::withDecls;

namespace {

/// out(c,k) += sum of vn over C2E[c] at the entries of `steep`, in program
/// form, in kernel form and in loop form (work items of two entries).
const char *const kSteepUpdate = R"(
  stn.program @as_apply(%steep: !stn.points<Cell> {stn.name = "steep"},
                        %vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
                        %out: !stn.field<Cell x K x f64> {stn.name = "out"}) {
    %t = stn.apply on Cell at %steep -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %e: !stn.point<Edge>):
        %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
        stn.yield %v : f64
      }
      %o = stn.load %out[%p, k] : !stn.field<Cell x K x f64>
      %r = arith.addf %o, %s : f64
      stn.yield %r : f64
    } attributes {name = "corr"}
    stn.store %t to %out on Cell at %steep
        : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
  stn.program @as_kernel(%steep: !stn.points<Cell> {stn.name = "steep"},
                         %vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
                         %out: !stn.field<Cell x K x f64> {stn.name = "out"}) {
    stn.kernel "corr" on Cell at %steep {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %e: !stn.point<Edge>):
        %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
        stn.yield %v : f64
      }
      %o = stn.load %out[%p, k] : !stn.field<Cell x K x f64>
      %r = arith.addf %o, %s : f64
      stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
  stn.program @as_loops(%steep: !stn.points<Cell> {stn.name = "steep"},
                        %vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
                        %out: !stn.field<Cell x K x f64> {stn.name = "out"}) {
    stn.kernel "corr" on Cell at %steep attributes {hblock = 2, loop_form} {
    ^bb0(%eb: index, %ee: index):
      %one = arith.constant 1 : index
      scf.for %i = %eb to %ee step %one {
        %p, %k = stn.list_point %steep[%i] : !stn.points<Cell> -> !stn.point<Cell>
        %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %e: !stn.point<Edge>):
          %v = stn.load %vn[%e, %k] : !stn.field<Edge x K x f64>
          stn.yield %v : f64
        }
        %o = stn.load %out[%p, %k] : !stn.field<Cell x K x f64>
        %r = arith.addf %o, %s : f64
        stn.write %r to %out at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
      }
    }
    stn.return
  }
)";

const std::vector<double> kVn = {1, 2, 3, 4, 5, 10, 20, 30, 40, 50};

} // namespace

TEST_CASE("program, kernel and loop form update the entries of a point list only",
          "[interpreter][points]") {
  TestModule module(withDecls(kSteepUpdate));
  TestMesh mesh = smallMesh();
  // Entries (cell 2, level 0), (cell 0, level 1), (cell 1, level 1); C2E sums of vn are
  // 8, 10, 7 at level 0 and 80, 100, 70 at level 1.
  std::vector<int32_t> cells = {2, 0, 1}, levels = {0, 1, 1};
  const std::vector<double> expected = {0.5, 0.5, 7.5, 80.25, 100.25, 0.25};
  std::vector<double> vn = kVn;
  for (const char *program : {"as_apply", "as_kernel", "as_loops"}) {
    INFO(program);
    std::vector<double> out = {0.5, 0.5, 0.5, 0.25, 0.25, 0.25};
    REQUIRE(module.run(mesh.get(), 2, program,
                       {Argument::points(cells, levels), Argument::field(vn),
                        Argument::field(out)}) == "");
    CHECK(out == expected);
  }
}

TEST_CASE("an empty point list runs nothing", "[interpreter][points]") {
  TestModule module(withDecls(kSteepUpdate));
  TestMesh mesh = smallMesh();
  std::vector<double> vn = kVn;
  for (const char *program : {"as_apply", "as_kernel", "as_loops"}) {
    INFO(program);
    std::vector<double> out(6, 1.0);
    REQUIRE(module.run(mesh.get(), 2, program,
                       {Argument::points({}, {}), Argument::field(vn), Argument::field(out)}) ==
            "");
    CHECK(out == std::vector<double>(6, 1.0));
  }
}

TEST_CASE("binding checks every entry of a point list", "[interpreter][points]") {
  TestModule module(withDecls(kSteepUpdate));
  TestMesh mesh = smallMesh();
  std::vector<double> vn = kVn, out(6);
  auto run = [&](Argument steep) {
    return module.run(mesh.get(), 2, "as_apply",
                      {steep, Argument::field(vn), Argument::field(out)});
  };
  const std::string label = "argument 0 ('steep') of program 'as_apply'";
  std::vector<int32_t> two = {0, 1}, one = {0}, three = {3}, negative = {-1}, level2 = {2};
  CHECK(run(Argument::field(vn)) == label + " must be a point list");
  CHECK(run(Argument::points(two, one)) == label + " has 2 points but 1 levels");
  CHECK(run(Argument::points(three, one)) ==
        label + ": entry 0 is point 3, but the mesh has 3 Cell points");
  CHECK(run(Argument::points(negative, one)) ==
        label + ": entry 0 is point -1, but the mesh has 3 Cell points");
  CHECK(run(Argument::points(one, level2)) == label + ": entry 0 is at level 2, outside [0, 2)");
  std::vector<int32_t> cells = {1, 0, 2, 1}, levels = {1, 0, 1, 1};
  CHECK(run(Argument::points(cells, levels)) ==
        label + ": entries 0 and 3 are both point 1 at level 1");
  std::vector<int32_t> sameCellOtherLevels = {1, 1}, bothLevels = {0, 1};
  CHECK(run(Argument::points(sameCellOtherLevels, bothLevels)) == "");
}

TEST_CASE("a temporary computed on a point list has values at its entries only",
          "[interpreter][points]") {
  // `second` reads the temporary at E2C[C2E[c][0]][0]: cell 0 for entry cell 1.
  TestModule module(withDecls(R"(
    stn.program @P(%steep: !stn.points<Cell>, %f: !stn.field<Cell x K x f64>,
                   %out: !stn.field<Cell x K x f64>) {
      %t = stn.apply on Cell at %steep -> !stn.temp<Cell x K x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
        stn.yield %v : f64
      } attributes {name = "t"}
      %u = stn.apply on Cell at %steep -> !stn.temp<Cell x K x f64> {
      ^bb0(%p: !stn.point<Cell>):
        %c0 = arith.constant 0 : index
        %e = stn.neighbor %p through @C2E [%c0] : !stn.point<Cell> -> !stn.point<Edge>
        %c = stn.neighbor %e through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
        %v = stn.load %t[%c, k] : !stn.temp<Cell x K x f64>
        stn.yield %v : f64
      } attributes {name = "second"}
      stn.store %u to %out on Cell at %steep
          : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> f = {1, 2, 3, 4, 5, 6}, out(6, 0.0);
  SECTION("read at an entry") {
    // Cell 0 reads itself.
    std::vector<int32_t> cells = {0}, levels = {1};
    REQUIRE(module.run(
                mesh.get(), 2, "P",
                {Argument::points(cells, levels), Argument::field(f), Argument::field(out)}) == "");
    CHECK(out == std::vector<double>{0, 0, 0, 4, 0, 0});
  }
  SECTION("read elsewhere") {
    std::vector<int32_t> cells = {1}, levels = {0};
    CHECK(module.run(mesh.get(), 2, "P",
                     {Argument::points(cells, levels), Argument::field(f), Argument::field(out)}) ==
          "temporary 't' read at point 0, level 0 in apply 'second' of program 'P': not an entry "
          "of the point list it was computed on");
  }
}

namespace {

/// Runs kernel "past" in loop form, with `body` after its block header, on a
/// list of two entries; the interpreter's error message.
std::string runPastKernel(const std::string &body) {
  TestModule module(withDecls(R"(
    stn.program @P(%steep: !stn.points<Cell> {stn.name = "steep"},
                   %out: !stn.field<Cell x K x f64>) {
      stn.kernel "past" on Cell at %steep attributes {loop_form} {
      ^bb0(%eb: index, %ee: index):
)" + body + R"(
      }
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<double> out(6);
  std::vector<int32_t> cells = {0, 2}, levels = {0, 1};
  return module.run(mesh.get(), 2, "P", {Argument::points(cells, levels), Argument::field(out)});
}

} // namespace

TEST_CASE("stn.list_point outside the list is an error", "[interpreter][points]") {
  CHECK(runPastKernel(R"(
        %p, %k = stn.list_point %steep[%ee] : !stn.points<Cell> -> !stn.point<Cell>
        %one = arith.constant 1.0 : f64
        stn.write %one to %out at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
  )") == "stn.list_point of entry 2 of point list 'steep' in kernel 'past' of program 'P': "
         "outside its 2 entries");
}

TEST_CASE("stn.list_run outside the work item's entries is an error", "[interpreter][points]") {
  CHECK(runPastKernel(R"(
        %n = stn.list_run %steep[%ee] until %ee : !stn.points<Cell>
        %p, %k = stn.list_point %steep[%eb] : !stn.points<Cell> -> !stn.point<Cell>
        %v = arith.index_cast %n : index to i32
        %f = arith.sitofp %v : i32 to f64
        stn.write %f to %out at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
  )") == "stn.list_run of entry 2 until 2 of point list 'steep' in kernel 'past' of "
         "program 'P': outside its 2 entries");
}

TEST_CASE("traffic counts the point list as read and only its entries as written",
          "[interpreter][points]") {
  TestModule module(withDecls(kSteepUpdate));
  TestMesh mesh = smallMesh();
  fusec::Interpreter interpreter(module.get(), mesh.get(), 2);
  interpreter.setTrafficTracking(true);
  std::vector<int32_t> cells = {2, 0, 1}, levels = {0, 1, 1};
  std::vector<double> vn = kVn, out(6);
  std::string error;
  REQUIRE(mlir::succeeded(interpreter.run(
      "as_apply", {Argument::points(cells, levels), Argument::field(vn), Argument::field(out)},
      error)));
  llvm::ArrayRef<fusec::FieldTraffic> traffic = interpreter.lastTraffic();
  REQUIRE(traffic.size() == 3);
  CHECK(traffic[0].elementsRead == 6);
  CHECK(traffic[0].elementBytes == 4);
  // vn: edges 2, 3 at level 0 and 0, 1, 2, 4 at level 1.
  CHECK(traffic[1].elementsRead == 6);
  CHECK(traffic[2].elementsRead == 3);
  CHECK(traffic[2].elementsWritten == 3);
}

TEST_CASE("runs of a point list's entries visit every entry once, across work items",
          "[interpreter][points]") {
  // The columns layout's loop form: from each run's first entry (one cell at consecutive levels)
  // to the entry after it, a loop over the run's levels adds 1 at each. Work items of two entries
  // cut the run of cell 1 (entries 1-3) in two, and cell 0's levels 0 and 2 are no run.
  TestModule module(withDecls(R"(
    stn.program @P(%steep: !stn.points<Cell> {stn.name = "steep"},
                   %out: !stn.field<Cell x K x f64> {stn.name = "out"}) {
      stn.kernel "runs" on Cell at %steep attributes {hblock = 2, loop_form} {
      ^bb0(%eb: index, %ee: index):
        %one = arith.constant 1 : index
        %last = scf.while (%e = %eb) : (index) -> index {
          %more = arith.cmpi slt, %e, %ee : index
          scf.condition(%more) %e : index
        } do {
        ^bb0(%e: index):
          %n = stn.list_run %steep[%e] until %ee : !stn.points<Cell>
          %p, %k0 = stn.list_point %steep[%e] : !stn.points<Cell> -> !stn.point<Cell>
          %k1 = arith.addi %k0, %n : index
          scf.for %k = %k0 to %k1 step %one {
            %o = stn.load %out[%p, %k] : !stn.field<Cell x K x f64>
            %add = arith.constant 1.0 : f64
            %r = arith.addf %o, %add : f64
            stn.write %r to %out at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
          }
          %next = arith.addi %e, %n : index
          scf.yield %next : index
        }
      }
      stn.return
    }
  )"));
  TestMesh mesh = smallMesh();
  std::vector<int32_t> cells = {2, 1, 1, 1, 0, 0}, levels = {1, 0, 1, 2, 0, 2};
  std::vector<double> out(9, 0.0); // 3 cells x 3 levels
  REQUIRE(module.run(mesh.get(), 3, "P", {Argument::points(cells, levels), Argument::field(out)}) ==
          "");
  // Level-major here: out[k * 3 + c].
  CHECK(out == std::vector<double>{1, 1, 0, 0, 1, 1, 1, 1, 0});
}
