// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops -stn-split-level-loops -Rpass=stn-split-level-loops -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops -stn-split-level-loops="max-tests=1" | FileCheck %s --check-prefix=ONE

// The gradient from level 1 on (`where(k > 0, grad, dwdx)`) in the columns
// layout: the loop over the point's levels splits at level 1; below it dwdx
// keeps its value (no load, no write: that loop is empty and goes), from it
// on the gradient is written without reading dwdx.
// CHECK-LABEL: kernel "gradient"
// CHECK:      %[[AT0:.*]] = arith.minsi %k_end, %{{.*}} : index
// CHECK-NEXT: %[[AT:.*]] = arith.maxsi %[[AT0]], %k_begin : index
// CHECK-NOT:  scf.for
// CHECK:      scf.for %{{.*}} = %[[AT]] to %k_end step %c1 {
// CHECK-NOT:    arith.select
// CHECK-NOT:    stn.load %dwdx
// CHECK:        %[[G:.*]] = arith.subf
// CHECK-NEXT:   stn.write %[[G]] to %dwdx
// CHECK-NEXT: } {stn.simd}
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @C2E2C : Cell -> Cell [3]
  stn.program @level_test(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %dwdx: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "dwdx"},
      %lo: i32, %hi: i32) {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i32
    %n = stn.nlev : i32
    // expected-remark @+1 {{loop over levels split where a level test changes (the test holds for k >= bound + 1): each part without it, one reads less}}
    stn.kernel "gradient" on Cell[%lo : %hi] K[%z : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %level = stn.level
      %above = arith.cmpi sgt, %level, %z : i32
      %nb = stn.neighbor %p through @C2E2C [%c0] : !stn.point<Cell> -> !stn.point<Cell>
      %a = stn.load %w[%nb, k] : !stn.field<Cell x K x f64>
      %b = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
      %g = arith.subf %a, %b : f64
      %old = stn.load %dwdx[%p, k] : !stn.field<Cell x K x f64>
      %r = arith.select %above, %g, %old : f64
      stn.write %r to %dwdx at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// The w update's `inside && k > 0 && k < nrdmax` (the level one above, `k + 1`,
// against a bound from the caller): three loops, the damping term only in
// the middle one; the upper test becomes `k < nrdmax - 1`. With one test at
// most the loop splits once, at the first.
// CHECK-LABEL: kernel "update"
// CHECK:      scf.for %{{.*}} = %k_begin to %[[A:.*]] step
// CHECK-NOT:    arith.mulf
// CHECK:      } {stn.simd}
// CHECK:      %[[B0:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:      %[[B1:.*]] = arith.addi %[[B0]], %c-1 : index
// CHECK:      scf.for %{{.*}} = %[[A]] to %[[B:.*]] step
// CHECK:        arith.mulf
// CHECK:      } {stn.simd}
// CHECK:      scf.for %{{.*}} = %[[B]] to %k_end step
// CHECK-NOT:    arith.mulf
// CHECK:      } {stn.simd}
// ONE-LABEL: kernel "update"
// ONE-COUNT-2: {stn.simd}
// ONE-NEXT:  }
// ONE-NEXT:  }
// ONE-NEXT:  return
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @two_tests(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %coef: !stn.field<Cell x K x f64> {stn.name = "coef"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %nrdmax: i32, %lo: i32, %hi: i32) {
    %z = arith.constant 0 : i32
    %n = stn.nlev : i32
    // expected-remark @+2 {{loop over levels split where a level test changes (the test holds for k >= bound + 1): each part without it, one reads less}}
    // expected-remark @+1 {{loop over levels split where a level test changes (the test holds for k < bound - 1): each part without it, one reads less}}
    stn.kernel "update" on Cell[%lo : %hi] K[%z : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %level = stn.level
      %above = arith.cmpi sgt, %level, %z : i32
      %next = stn.level {offset = 1}
      %damped = arith.cmpi sgt, %nrdmax, %next : i32
      %both = arith.andi %above, %damped : i1
      %a = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
      %c = stn.load %coef[%p, k] : !stn.field<Cell x K x f64>
      %d = arith.mulf %a, %c : f64
      %r = arith.select %both, %d, %a : f64
      stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// Values carried from level to level flow from the lower loop into the upper.
// CHECK-LABEL: stn.program @carried
// CHECK:      %[[LOW:.*]] = scf.for %{{.*}} = %{{.*}} to %[[AT:.*]] step %{{.*}} iter_args(%{{.*}} = %[[INIT:.*]]) -> (f64)
// CHECK:      } {stn.simd}
// CHECK:      scf.for %{{.*}} = %[[AT]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[LOW]]) -> (f64)
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @carried(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %v: !stn.field<Cell x K x f64> {stn.name = "v"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %top: i32, %lo: i32, %hi: i32) {
    %z = arith.constant 0 : i32
    %nl = stn.nlev : i32
    stn.kernel "carried" on Cell[%lo : %hi] K[%z : %nl] attributes {loop_form} {
    ^bb0(%hb: index, %he: index, %kb: index, %ke: index):
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f64
      scf.for %h = %hb to %he step %c1 {
        %p = stn.point_at %h : !stn.point<Cell>
        // expected-remark @+1 {{loop over levels split where a level test changes (the test holds for k < bound): each part without it, one reads less}}
        %sum = scf.for %k = %kb to %ke step %c1 iter_args(%acc = %zero) -> (f64) {
          %level = stn.level(%k)
          %low = arith.cmpi slt, %level, %top : i32
          %a = stn.load %w[%p, %k] : !stn.field<Cell x K x f64>
          %n = arith.addf %acc, %a : f64
          %b = stn.load %v[%p, %k] : !stn.field<Cell x K x f64>
          %r = arith.select %low, %n, %b : f64
          stn.write %r to %out at %p : !stn.point<Cell> level %k : f64, <Cell x K x f64>
          scf.yield %n : f64
        } {stn.simd}
      }
    }
    stn.return
  }
}

// -----

// A test of equality, and a level compared with a value computed in the loop,
// stay selects.
// CHECK-LABEL: kernel "kept"
// CHECK:      arith.select
// CHECK:      arith.select
// CHECK:      } {stn.simd}
// CHECK-NOT:  {stn.simd}
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @kept(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %top: i32, %lo: i32, %hi: i32) {
    %z = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "kept" on Cell[%lo : %hi] K[%z : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %level = stn.level
      %at = arith.cmpi eq, %level, %top : i32
      %a = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
      %d = arith.mulf %a, %a : f64
      %r = arith.select %at, %d, %a : f64
      %i = arith.fptosi %a : f64 to i32
      %below = arith.cmpi slt, %level, %i : i32
      %s = arith.select %below, %r, %a : f64
      stn.write %s to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// A test that only decides which stores run (both sides read the same): the
// split would buy nothing for its loops, so the loop stays as it was.
// CHECK-LABEL: kernel "stores_only"
// CHECK:      arith.select
// CHECK:      } {stn.simd}
// CHECK-NOT:  {stn.simd}
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @stores_only(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %top: i32, %lo: i32, %hi: i32) {
    %z = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "stores_only" on Cell[%lo : %hi] K[%z : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %level = stn.level
      %low = arith.cmpi slt, %level, %top : i32
      %a = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
      %d = arith.mulf %a, %a : f64
      %r = arith.select %low, %d, %a : f64
      stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}
