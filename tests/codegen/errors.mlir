// RUN: %fusec-translate --stn-to-cuda --split-input-file --verify-diagnostics %s
// RUN: %fusec-translate --stn-to-cpp --split-input-file --verify-diagnostics %s
// RUN: not %fusec-translate --stn-to-header %s 2>&1 | FileCheck %s
// RUN: not %fusec-translate --stn-to-fortran %s 2>&1 | FileCheck %s

// Emitters take kernel form only (the CUDA and C++ emitters its loop form),
// and say which op or kernel they cannot translate.

// CHECK: error: module is not in kernel form: found stn.apply
stn.program @not_lowered(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32, %hi: i32) {
  // expected-error @+1 {{module is not in kernel form: found stn.apply}}
  %t = stn.apply on Cell[%lo : %hi] K[%lo : %hi] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %t to %o on Cell[%lo : %hi] K[%lo : %hi] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

stn.program @writes_input(%f: !stn.field<Cell x f64> {stn.name = "f"}, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p] : !stn.field<Cell x f64>
    // expected-error @+1 {{kernel 'k' writes 'f', an input of program 'writes_input' (declare it out or inout)}}
    stn.write %v to %f at %p : !stn.point<Cell> : f64, !stn.field<Cell x f64>
  }
  stn.return
}

// -----

stn.program @flat_reads_levels(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %o: !stn.field<Cell x f64> {stn.intent = 1 : i32, stn.name = "o"}, %lo: i32, %hi: i32) {
  stn.kernel "flat" on Cell[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    // expected-error @+1 {{kernel 'flat' has no vertical range but accesses 'f' at the current level}}
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.write %v to %o at %p : !stn.point<Cell> : f64, !stn.field<Cell x f64>
  }
  stn.return
}


// -----

// expected-error @+1 {{parameter 'h' holds 'i64', which has no C equivalent; use f64, f32, i32 or i1}}
stn.program @wide_integers(%h: !stn.field<Cell x i64> {stn.name = "h"}) {
  stn.return
}

// -----

// expected-error @+1 {{program name 'my-program' is not a C identifier, so it cannot name C functions}}
stn.program @"my-program"() {
  stn.return
}

// -----

stn.program @unsigned_division(%o: !stn.field<Cell x i32> {stn.intent = 1 : i32, stn.name = "o"},
    %d: i32, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] attributes {loop_form} {
  ^bb0(%hb: index, %he: index):
    %c1 = arith.constant 1 : index
    scf.for %h = %hb to %he step %c1 {
      %p = stn.point_at %h : !stn.point<Cell>
      %i = stn.index %p : !stn.point<Cell>
      // expected-error @+1 {{cannot emit 'arith.divui' on 'i32': it has no C equivalent in fusec's emitters}}
      %q = arith.divui %i, %d : i32
      stn.write %q to %o at %p : !stn.point<Cell> : i32, !stn.field<Cell x i32>
    }
  }
  stn.return
}

// -----

stn.program @not_scheduled(%o: !stn.field<Cell x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32, %hi: i32) {
  %c0 = arith.constant 0.0 : f64
  // expected-error @+1 {{kernel 'k' is not in loop form: run stn-lower-to-loops for the}}
  stn.kernel "k" on Cell[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    stn.write %c0 to %o at %p : !stn.point<Cell> : f64, !stn.field<Cell x f64>
  }
  stn.return
}
