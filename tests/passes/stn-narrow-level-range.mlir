// RUN: %fusec-opt %s -split-input-file -stn-narrow-level-range -Rpass=stn-narrow-level-range -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s

// An in-place update under a uniform switch and `index(K) > 0` (the w
// program's gradients): the application and its stores start at level 1,
// clamped to their range; the level test is `true`, the switch stays.
// CHECK-LABEL: stn.program @gradients_above_level_zero
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[LB:.*]] = arith.maxsi %[[K0:.*]], %[[C1]] : i32
// CHECK: %[[CLAMPED:.*]] = arith.minsi %[[LB]], %[[K1:.*]] : i32
// CHECK: apply on Cell[%{{.*}} : %{{.*}}] K[%[[CLAMPED]] : %[[K1]]]
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[C:.*]] = arith.andi %{{.*}}, %[[TRUE]] : i1
// CHECK: arith.select %[[C]]
// CHECK: store %{{.*}}#0 to %{{.*}} on Cell[%{{.*}} : %{{.*}}] K[%[[CLAMPED]] : %[[K1]]]
// CHECK: store %{{.*}}#1 to %{{.*}} on Cell[%{{.*}} : %{{.*}}] K[%[[CLAMPED]] : %[[K1]]]
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.program @gradients_above_level_zero(%w: !stn.field<Cell x K x f64>,
    %dwdx: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %dwdy: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %shear: i32, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  // expected-remark @+1 {{runs on the levels where its condition can hold: outside them each result is the value in place}}
  %g:2 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %u = arith.cmpi eq, %shear, %c2 : i32
    %k = stn.level
    %above = arith.cmpi sgt, %k, %c0 : i32
    %c = arith.andi %u, %above : i1
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %w[%q, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    %ox = stn.load %dwdx[%p, k] : !stn.field<Cell x K x f64>
    %oy = stn.load %dwdy[%p, k] : !stn.field<Cell x K x f64>
    %rx = arith.select %c, %s, %ox : f64
    %ry = arith.select %c, %s, %oy : f64
    stn.yield %rx, %ry : f64, f64
  }
  stn.store %g#0 to %dwdx on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %g#1 to %dwdy on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Bounds on both sides, the level compared from the right and with an offset
// (`k + 1 <= top` is `k < top`): the range is [max(k0, lo_k), min(k1, top)).
// CHECK-LABEL: stn.program @between_levels
// CHECK: %[[LB:.*]] = arith.maxsi %[[K0:[^,]*]], %[[LOK:[^ ]*]] : i32
// CHECK: %[[UB:.*]] = arith.minsi %[[K1:[^,]*]], %[[TOP:[^ ]*]] : i32
// CHECK: %[[CLAMPED:.*]] = arith.minsi %[[LB]], %[[UB]] : i32
// CHECK: apply on Cell[%{{.*}} : %{{.*}}] K[%[[CLAMPED]] : %[[UB]]]
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.program @between_levels(%w: !stn.field<Cell x K x f64>,
    %dwdx: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %dwdy: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %lok: i32, %top: i32, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  // expected-remark @+1 {{runs on the levels where its condition can hold: outside them each result is the value in place}}
  %g:2 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %k = stn.level
    %above = arith.cmpi sle, %lok, %k : i32
    %k1p = stn.level {offset = 1}
    %below = arith.cmpi sle, %k1p, %top : i32
    %c = arith.andi %above, %below : i1
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %w[%q, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    %ox = stn.load %dwdx[%p, k] : !stn.field<Cell x K x f64>
    %oy = stn.load %dwdy[%p, k] : !stn.field<Cell x K x f64>
    %rx = arith.select %c, %s, %ox : f64
    %ry = arith.select %c, %s, %oy : f64
    stn.yield %rx, %ry : f64, f64
  }
  stn.store %g#0 to %dwdx on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %g#1 to %dwdy on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// The false side of one result is another field's value: where the test
// fails that result changes its field, so the levels stay.
// CHECK-LABEL: stn.program @other_field_on_the_false_side
// CHECK-NOT: arith.maxsi
// CHECK: apply on Cell[%{{.*}} : %{{.*}}] K[%{{[^ ]*}} : %{{[^ ]*}}]
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.program @other_field_on_the_false_side(%w: !stn.field<Cell x K x f64>,
    %dwdx: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %dwdy: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %shear: i32, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %g:2 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %k = stn.level
    %c = arith.cmpi sgt, %k, %c0 : i32
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %w[%q, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    %ox = stn.load %dwdx[%p, k] : !stn.field<Cell x K x f64>
    %oy = stn.load %dwdy[%p, k] : !stn.field<Cell x K x f64>
    %rx = arith.select %c, %s, %ox : f64
    %ry = arith.select %c, %s, %ox : f64
    stn.yield %rx, %ry : f64, f64
  }
  stn.store %g#0 to %dwdx on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %g#1 to %dwdy on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A result read by another application is needed on every level.
// CHECK-LABEL: stn.program @result_read_elsewhere
// CHECK-NOT: arith.maxsi
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.program @result_read_elsewhere(%w: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %dwdx: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %dwdy: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %shear: i32, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %g:2 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %k = stn.level
    %c = arith.cmpi sgt, %k, %c0 : i32
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %w[%q, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    %ox = stn.load %dwdx[%p, k] : !stn.field<Cell x K x f64>
    %oy = stn.load %dwdy[%p, k] : !stn.field<Cell x K x f64>
    %rx = arith.select %c, %s, %ox : f64
    %ry = arith.select %c, %s, %oy : f64
    stn.yield %rx, %ry : f64, f64
  }
  stn.store %g#0 to %dwdx on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %g#1 to %dwdy on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %r = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %g#0[%p, k] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %r to %w on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A store to the field between the application and its store: the value in
// place at the store is not the one the application read.
// CHECK-LABEL: stn.program @written_in_between
// CHECK-NOT: arith.maxsi
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.program @written_in_between(%w: !stn.field<Cell x K x f64>,
    %dwdx: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %dwdy: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %shear: i32, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %g:2 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %k = stn.level
    %c = arith.cmpi sgt, %k, %c0 : i32
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %w[%q, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    %ox = stn.load %dwdx[%p, k] : !stn.field<Cell x K x f64>
    %oy = stn.load %dwdy[%p, k] : !stn.field<Cell x K x f64>
    %rx = arith.select %c, %s, %ox : f64
    %ry = arith.select %c, %s, %oy : f64
    stn.yield %rx, %ry : f64, f64
  }
  %z = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %z to %dwdx on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %g#0 to %dwdx on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %g#1 to %dwdy on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
