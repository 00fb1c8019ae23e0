// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp -stn-unroll-reductions | FileCheck %s

// A fold over a connectivity without skip at the current point: one copy of
// the body per slot, folded from the identity in slot order, no select.
// CHECK-LABEL: kernel "div"
// CHECK: %[[P:.*]] = stn.point_at
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[E0:.*]] = stn.neighbor %[[P]] through @C2E[%[[S0]]] : <Cell> -> <Edge>
// CHECK-NEXT: %[[G0:.*]] = stn.load %geofac[%[[P]], nbr %[[S0]]]
// CHECK-NEXT: %[[V0:.*]] = stn.load %vn[%[[E0]], %{{.*}}]
// CHECK-NEXT: %[[M0:.*]] = arith.mulf %[[G0]], %[[V0]] : f64
// CHECK-NEXT: %[[A0:.*]] = arith.addf %[[ZERO]], %[[M0]] : f64
// CHECK-NEXT: %[[S1:.*]] = arith.constant 1 : index
// CHECK-NEXT: stn.neighbor %[[P]] through @C2E[%[[S1]]]
// CHECK: %[[A1:.*]] = arith.addf %[[A0]], %{{.*}} : f64
// CHECK: %[[A2:.*]] = arith.addf %[[A1]], %{{.*}} : f64
// CHECK-NEXT: stn.write %[[A2]] to %out
// CHECK-NOT: stn.reduce
stn.connectivity @C2E : Cell -> Edge [3]
stn.program @div(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
    %geofac: !stn.field<Cell x C2E[3] x f64> {stn.name = "geofac"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"}, %lo: i32, %hi: i32) {
  %n = stn.nlev : i32
  stn.kernel "div" on Cell[%lo : %hi] K[%lo : %n] {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %g = stn.load %geofac[%p, nbr %j] : !stn.field<Cell x C2E[3] x f64>
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %m = arith.mulf %g, %v : f64
      stn.yield %m : f64
    }
    stn.write %s to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// Through a skip connectivity a missing neighbour leaves the fold unchanged:
// a select on stn.valid, the maximum's identity -inf to start from.
// CHECK-LABEL: kernel "edge_max"
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFFF0000000000000 : f64
// CHECK: %[[N0:.*]] = stn.neighbor %{{.*}} through @E2C[%{{.*}}]
// CHECK-NEXT: %[[W0:.*]] = stn.load %w[%[[N0]]]
// CHECK-NEXT: %[[X0:.*]] = arith.maxnumf %[[NEGINF]], %[[W0]] : f64
// CHECK-NEXT: %[[OK0:.*]] = stn.valid %[[N0]] : <Cell>
// CHECK-NEXT: %[[F0:.*]] = arith.select %[[OK0]], %[[X0]], %[[NEGINF]] : f64
// CHECK: %[[N1:.*]] = stn.neighbor %{{.*}} through @E2C[%{{.*}}]
// CHECK-NEXT: %[[W1:.*]] = stn.load %w[%[[N1]]]
// CHECK-NEXT: %[[X1:.*]] = arith.maxnumf %[[F0]], %[[W1]] : f64
// CHECK-NEXT: %[[OK1:.*]] = stn.valid %[[N1]] : <Cell>
// CHECK-NEXT: arith.select %[[OK1]], %[[X1]], %[[F0]] : f64

// An integer division could trap at a missing neighbour: that fold stays.
// CHECK-LABEL: kernel "edge_quotient"
// CHECK: stn.reduce sum over @E2C
stn.connectivity @E2C : Edge -> Cell [2] skip
stn.program @skip(%w: !stn.field<Cell x f64> {stn.name = "w"},
    %count: !stn.field<Cell x i32> {stn.name = "count"},
    %out: !stn.field<Edge x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %iout: !stn.field<Edge x i32> {stn.intent = 1 : i32, stn.name = "iout"}, %lo: i32, %hi: i32) {
  stn.kernel "edge_max" on Edge[%lo : %hi] {
  ^bb0(%p: !stn.point<Edge>):
    %m = stn.reduce max over @E2C at %p : !stn.point<Edge> -> f64 {
    ^bb0(%j: index, %c: !stn.point<Cell>):
      %v = stn.load %w[%c] : !stn.field<Cell x f64>
      stn.yield %v : f64
    }
    stn.write %m to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x f64>
  }
  stn.kernel "edge_quotient" on Edge[%lo : %hi] {
  ^bb0(%p: !stn.point<Edge>):
    %c100 = arith.constant 100 : i32
    %q = stn.reduce sum over @E2C at %p : !stn.point<Edge> -> i32 {
    ^bb0(%j: index, %c: !stn.point<Cell>):
      %v = stn.load %count[%c] : !stn.field<Cell x i32>
      %d = arith.divsi %c100, %v : i32
      stn.yield %d : i32
    }
    stn.write %q to %iout at %p : !stn.point<Edge> : i32, !stn.field<Edge x i32>
  }
  stn.return
}
