// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp -stn-hoist-loop-invariant -stn-unswitch-loops -Rpass=stn-unswitch-loops -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp -stn-hoist-loop-invariant -stn-unswitch-loops="max-conditions=1" | FileCheck %s --check-prefix=ONE
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cuda -stn-hoist-loop-invariant -stn-unswitch-loops | FileCheck %s --check-prefix=CUDA

// A select on a level test (the same for all points of a level) inside the
// loop over points: one simd loop per side, the select resolved in each, and
// the neighbour gather only the taken side needs gone from the other, where
// dwdx keeps its value: that side does nothing, and the branch has no else.
// CHECK-LABEL: kernel "gradient"
// CHECK:      scf.for %[[K:.*]] = %k_begin to %k_end
// CHECK:        %[[ABOVE:.*]] = arith.cmpi sgt
// CHECK-NEXT:   scf.if %[[ABOVE]] {
// CHECK-NEXT:     scf.for
// CHECK-NOT:        arith.select
// CHECK:            stn.neighbor
// CHECK:            %[[G:.*]] = arith.subf
// CHECK-NEXT:       stn.write %[[G]] to %dwdx
// CHECK-NEXT:     } {stn.simd}
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CUDA-LABEL: kernel "gradient"
// CUDA-NOT:   scf.if
// CUDA:       arith.select
stn.connectivity @C2E2C : Cell -> Cell [3]

stn.program @level_test(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %dwdx: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "dwdx"},
    %lo: i32, %hi: i32) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %n = stn.nlev : i32
  // expected-remark @+1 {{loop over points unswitched on a condition that is the same for all of them}}
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

// -----

// A condition that differs between points stays a select.
// CHECK-LABEL: kernel "per_point"
// CHECK-NOT:  scf.if
// CHECK:      arith.select
stn.program @per_point(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32, %hi: i32) {
  %z = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f64
  %n = stn.nlev : i32
  stn.kernel "per_point" on Cell[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Cell>):
    %a = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    %positive = arith.cmpf ogt, %a, %zero : f64
    %r = arith.select %positive, %a, %zero : f64
    stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// Two conditions: a scalar argument and a level test. By default both, four
// copies (the first split on the argument, each copy then on the level);
// with max-conditions=1 only the first.
// CHECK-LABEL: kernel "two"
// CHECK:      scf.if %apply {
// CHECK:        scf.if
// CHECK:          scf.for
// CHECK:          stn.write
// CHECK:        } else {
// CHECK:          scf.for
// CHECK:          stn.write
// CHECK:      } else {
// CHECK:        scf.if
// CHECK:          scf.for
// CHECK:          stn.write
// CHECK:        } else {
// CHECK:          scf.for
// CHECK:          stn.write
// CHECK-NOT:  arith.select
// ONE-LABEL:  kernel "two"
// ONE:        scf.if %apply {
// ONE-NEXT:     scf.for
// ONE-NOT:      scf.if
// ONE:          arith.select
// ONE:        } else {
// ONE-NEXT:     scf.for
// ONE-NOT:      scf.if
// ONE:          arith.select
stn.program @two(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %apply: i1 {stn.name = "apply"}, %lo: i32, %hi: i32) {
  %z = arith.constant 0 : i32
  %two = arith.constant 2.0 : f64
  %n = stn.nlev : i32
  // expected-remark @+1 {{loop over points unswitched on a condition that is the same for all of them}}
  stn.kernel "two" on Cell[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Cell>):
    %level = stn.level
    %above = arith.cmpi sgt, %level, %z : i32
    %a = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    %d = arith.mulf %a, %two : f64
    %s = arith.select %apply, %d, %a : f64
    %h = arith.addf %s, %two : f64
    %r = arith.select %above, %h, %s : f64
    stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// A side that writes back the loaded value keeps that write when another write
// of the same field comes before it: it restores what the first one changed.
// CHECK-LABEL: kernel "twice"
// CHECK:      scf.if
// CHECK-NEXT:   scf.for
// CHECK:          %[[A:.*]] = stn.load %f
// CHECK:          %[[N:.*]] = arith.mulf %[[A]]
// CHECK-NEXT:     stn.write %[[N]] to %f
// CHECK-NEXT:     stn.write %[[A]] to %f
// CHECK:      } else {
stn.program @twice(%f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "f"},
    %lo: i32, %hi: i32) {
  %z = arith.constant 0 : i32
  %two = arith.constant 2.0 : f64
  %n = stn.nlev : i32
  // expected-remark @+1 {{loop over points unswitched on a condition that is the same for all of them}}
  stn.kernel "twice" on Cell[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Cell>):
    %level = stn.level
    %above = arith.cmpi sgt, %level, %z : i32
    %a = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %d = arith.mulf %a, %two : f64
    %r = arith.select %above, %a, %d : f64
    stn.write %d to %f at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    stn.write %r to %f at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// A level test that is part of a combined condition is unswitched too: where
// it fails, the conjunction fails for every point and the select keeps the
// old value (the damping term of the fused w kernel, k < nrdmax); where it
// holds, the per-point test is left.
// CHECK-LABEL: kernel "damped"
// CHECK:        %[[TOP:.*]] = arith.cmpi slt
// CHECK-NEXT:   scf.if %[[TOP]] {
// CHECK-NEXT:     scf.for
// CHECK:            %[[INSIDE:.*]] = arith.cmpi sge
// CHECK-NOT:        arith.andi
// CHECK:            arith.select %[[INSIDE]]
// CHECK:          } {stn.simd}
// CHECK-NEXT:   } else {
// CHECK-NEXT:     scf.for
// CHECK-NOT:        arith.select
// CHECK-NOT:        stn.load %nabla
// CHECK:          } {stn.simd}
// CHECK-NEXT:   }
stn.program @part_of_conjunction(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %nabla: !stn.field<Cell x K x f64> {stn.name = "nabla"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32, %hi: i32, %first: i32, %nrdmax: i32) {
  %z = arith.constant 0 : i32
  %n = stn.nlev : i32
  // expected-remark @+1 {{loop over points unswitched on a condition that is the same for all of them}}
  stn.kernel "damped" on Cell[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Cell>):
    %level = stn.level
    %top = arith.cmpi slt, %level, %nrdmax : i32
    %h = stn.index %p : !stn.point<Cell>
    %inside = arith.cmpi sge, %h, %first : i32
    %both = arith.andi %inside, %top : i1
    %old = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    %d = stn.load %nabla[%p, k] : !stn.field<Cell x K x f64>
    %damped = arith.addf %old, %d : f64
    %r = arith.select %both, %damped, %old : f64
    stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// The columns layout's simd loop runs over one point's levels, so whether a
// neighbour exists is the same for all its iterations once the lookup is
// hoisted; the loop is not split on it: that is
// stn-unswitch-missing-neighbors' test, by table rather than per neighbour.
// CHECK-LABEL: kernel "column_of_a_point"
// CHECK:      %[[N:.*]] = stn.neighbor
// CHECK-NEXT: %[[OK:.*]] = stn.valid %[[N]]
// CHECK-NEXT: scf.for
// CHECK-NEXT:   stn.load
// CHECK-NEXT:   arith.select %[[OK]]
// CHECK-NEXT:   stn.write
// CHECK-NEXT: } {stn.simd}
// CHECK-NOT:  scf.if
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @E2C : Edge -> Cell [2] skip

  stn.program @columns(%t: !stn.field<Cell x K x f64> {stn.name = "t"},
      %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32, %hi: i32) {
    %z = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "column_of_a_point" on Edge[%lo : %hi] K[%z : %n] {
    ^bb0(%p: !stn.point<Edge>):
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f64
      %c = stn.neighbor %p through @E2C[%c0] : !stn.point<Edge> -> !stn.point<Cell>
      %x = stn.load %t[%c, k] : !stn.field<Cell x K x f64>
      %ok = stn.valid %c : !stn.point<Cell>
      %v = arith.select %ok, %x, %zero : f64
      stn.write %v to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.return
  }
}
