// RUN: %fusec-opt %s -split-input-file -stn-unswitch-kernels -Rpass=stn-unswitch-kernels -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-unswitch-kernels="max-conditions=1" -mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=ONE

// A branch on a scalar argument: one kernel per side, each with every branch
// on that argument resolved (the write-only branch without else disappears
// from the version where it is not taken), launched by a host-side scf.if.
// CHECK-LABEL: stn.program @on_argument
// CHECK:      scf.if %limited_area {
// CHECK-NEXT:   stn.kernel "vn.if_limited_area"
// CHECK-NOT:    scf.if
// CHECK:        arith.mulf
// CHECK:        stn.write
// CHECK:        stn.write
// CHECK:      } else {
// CHECK-NEXT:   stn.kernel "vn.unless_limited_area"
// CHECK-NOT:    scf.if
// CHECK-NOT:    arith.mulf
// CHECK:        arith.addf
// CHECK:        stn.write
// CHECK-NOT:    stn.write
// CHECK:        }
// CHECK-NEXT: }
// CHECK-NEXT: return
stn.program @on_argument(%vn: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "vn"},
    %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %limited_area: i1 {stn.name = "limited_area"}, %lo: i32 {stn.name = "lo"},
    %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  // expected-remark @+1 {{kernel 'vn' unswitched on limited_area: one kernel for each side, launched by a branch on the host}}
  stn.kernel "vn" on Edge[%lo : %hi] K[%c0 : %n] {
  ^bb0(%e: !stn.point<Edge>):
    %a = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
    %r = scf.if %limited_area -> f64 {
      %m = arith.mulf %a, %a : f64
      scf.yield %m : f64
    } else {
      %s = arith.addf %a, %a : f64
      scf.yield %s : f64
    }
    scf.if %limited_area {
      stn.write %a to %out at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.write %r to %vn at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}

// -----

// A condition computed in the kernel from uniform values is computed on the
// host; a branch on the point or level stays, and so does a kernel with no
// other branch.
// CHECK-LABEL: stn.program @computed
// CHECK:      %[[C:.*]] = arith.cmpi eq, %shear, %{{.*}} : i32
// CHECK-NEXT: scf.if %[[C]] {
// CHECK-NEXT:   stn.kernel "grad.if_condition"
// CHECK:          stn.level
// CHECK:          scf.if
// CHECK:      } else {
// CHECK-NEXT:   stn.kernel "grad.unless_condition"
// CHECK:      kernel "plain"
// CHECK-NOT:  scf.if
// CHECK:      return
stn.program @computed(%w: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "w"},
    %shear: i32 {stn.name = "shear"}, %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  // expected-remark @+1 {{kernel 'grad' unswitched on condition}}
  stn.kernel "grad" on Cell[%lo : %hi] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %two = arith.constant 2 : i32
    %use = arith.cmpi eq, %shear, %two : i32
    %lvl = stn.level
    %top = arith.cmpi eq, %lvl, %c0 : i32
    %a = stn.load %w[%c, k] : !stn.field<Cell x K x f64>
    scf.if %top {
      stn.write %a to %w at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    %r = scf.if %use -> f64 {
      %m = arith.mulf %a, %a : f64
      scf.yield %m : f64
    } else {
      scf.yield %a : f64
    }
    stn.write %r to %w at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.kernel "plain" on Cell[%lo : %hi] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %a = stn.load %w[%c, k] : !stn.field<Cell x K x f64>
    stn.write %a to %w at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// Two conditions: four versions, each named after both; max-conditions=1
// stops after the first.
// CHECK-LABEL: stn.program @two_conditions
// CHECK-DAG: stn.kernel "k.if_a.if_b"
// CHECK-DAG: stn.kernel "k.if_a.unless_b"
// CHECK-DAG: stn.kernel "k.unless_a.if_b"
// CHECK-DAG: stn.kernel "k.unless_a.unless_b"
// ONE-LABEL: stn.program @two_conditions
// ONE: stn.kernel "k.if_a"
// ONE: scf.if %b
// ONE: stn.kernel "k.unless_a"
stn.program @two_conditions(%f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "f"},
    %a: i1 {stn.name = "a"}, %b: i1 {stn.name = "b"}, %lo: i32 {stn.name = "lo"},
    %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  // expected-remark @+3 {{kernel 'k' unswitched on a}}
  // expected-remark @+2 {{kernel 'k.if_a' unswitched on b}}
  // expected-remark @+1 {{kernel 'k.unless_a' unswitched on b}}
  stn.kernel "k" on Cell[%lo : %hi] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %x = stn.load %f[%c, k] : !stn.field<Cell x K x f64>
    %y = scf.if %a -> f64 {
      %m = arith.mulf %x, %x : f64
      scf.yield %m : f64
    } else {
      scf.yield %x : f64
    }
    %z = scf.if %b -> f64 {
      %s = arith.addf %y, %y : f64
      scf.yield %s : f64
    } else {
      scf.yield %y : f64
    }
    stn.write %z to %f at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// Kernels right before a branch whose temporaries only one side reads move
// into that side, nearest first (theta's Laplacian and steep-point correction
// without apply_zdiffusion_t). A kernel whose temporary both sides read, or
// that writes a program argument, stays.
// CHECK-LABEL: stn.program @sink_producers
// CHECK: kernel "both"
// CHECK-NEXT: ^bb0
// CHECK: scf.if %flag {
// CHECK-NEXT: stn.kernel "first"
// CHECK: stn.kernel "second"
// CHECK: stn.kernel "k.if_flag"
// CHECK: } else {
// CHECK-NEXT: stn.kernel "k.unless_flag"
// CHECK: kernel "output"
// CHECK-NEXT: ^bb0
// CHECK: scf.if %flag {
// CHECK-NEXT: stn.kernel "j.if_flag"
stn.program @sink_producers(%f: !stn.field<Cell x K x f64> {stn.intent = 0 : i32, stn.name = "f"},
    %g: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "g"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %flag: i1 {stn.name = "flag"}, %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  %shared = stn.alloc {name = "shared"} : !stn.field<Cell x K x f64>
  %t1 = stn.alloc {name = "t1"} : !stn.field<Cell x K x f64>
  %t2 = stn.alloc {name = "t2"} : !stn.field<Cell x K x f64>
  stn.kernel "both" on Cell[%lo : %hi] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %x = stn.load %f[%c, k] : !stn.field<Cell x K x f64>
    stn.write %x to %shared at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  // expected-remark @+1 {{kernel 'first' moved into the then side: only that side reads what it computes}}
  stn.kernel "first" on Cell[%lo : %hi] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %x = stn.load %shared[%c, k] : !stn.field<Cell x K x f64>
    stn.write %x to %t1 at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  // expected-remark @+1 {{kernel 'second' moved into the then side: only that side reads what it computes}}
  stn.kernel "second" on Cell[%lo : %hi] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %x = stn.load %t1[%c, k] : !stn.field<Cell x K x f64>
    stn.write %x to %t2 at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  // expected-remark @+1 {{kernel 'k' unswitched on flag}}
  stn.kernel "k" on Cell[%lo : %hi] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %y = scf.if %flag -> f64 {
      %a = stn.load %t2[%c, k] : !stn.field<Cell x K x f64>
      scf.yield %a : f64
    } else {
      %b = stn.load %shared[%c, k] : !stn.field<Cell x K x f64>
      scf.yield %b : f64
    }
    stn.write %y to %g at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.kernel "output" on Cell[%lo : %hi] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %x = stn.load %f[%c, k] : !stn.field<Cell x K x f64>
    stn.write %x to %out at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  // expected-remark @+1 {{kernel 'j' unswitched on flag}}
  stn.kernel "j" on Cell[%lo : %hi] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %y = scf.if %flag -> f64 {
      %a = stn.load %out[%c, k] : !stn.field<Cell x K x f64>
      scf.yield %a : f64
    } else {
      %b = stn.load %f[%c, k] : !stn.field<Cell x K x f64>
      scf.yield %b : f64
    }
    stn.write %y to %g at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}
