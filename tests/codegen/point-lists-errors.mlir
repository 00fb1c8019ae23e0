// RUN: %fusec-translate --stn-to-cuda --split-input-file --verify-diagnostics %s
// RUN: %fusec-translate --stn-to-cpp --split-input-file --verify-diagnostics %s
// RUN: %fusec-translate --stn-to-header --split-input-file --verify-diagnostics %s
// RUN: %fusec-translate --stn-to-fortran --split-input-file --verify-diagnostics %s

// A point list reaches C code only as a program parameter (its count and arrays) and is read
// only by stn.list_point in the kernel that runs on it; the emitters say so otherwise.

stn.program @foreign_list(%l: !stn.points<Cell> {stn.name = "l"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"}, %lo: i32, %hi: i32) {
  stn.kernel "range" on Cell[%lo : %hi] K[%lo : %hi] attributes {loop_form} {
  ^bb0(%hb: index, %he: index, %kb: index, %ke: index):
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f64
    scf.for %e = %hb to %he step %c1 {
      // expected-error @+1 {{kernel 'range' reads a point list other than the one it runs on}}
      %p, %k = stn.list_point %l[%e] : !stn.points<Cell> -> !stn.point<Cell>
      stn.write %one to %o at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}

// -----

stn.program @chosen_list(%a: !stn.points<Cell> {stn.name = "a"},
    %b: !stn.points<Cell> {stn.name = "b"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"}, %c: i1) {
  // expected-error @+1 {{a point list can only be the domain of a kernel}}
  %l = scf.if %c -> !stn.points<Cell> {
    scf.yield %a : !stn.points<Cell>
  } else {
    scf.yield %b : !stn.points<Cell>
  }
  stn.kernel "list" on Cell at %l attributes {loop_form} {
  ^bb0(%eb: index, %ee: index):
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f64
    scf.for %e = %eb to %ee step %c1 {
      %p, %k = stn.list_point %l[%e] : !stn.points<Cell> -> !stn.point<Cell>
      stn.write %one to %o at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}
