// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp -stn-unroll-reductions -stn-split-gather-loops -Rpass=stn-split-gather-loops -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cuda -stn-unroll-reductions -stn-split-gather-loops | FileCheck %s --check-prefix=CUDA

// A kernel marked `split_gathers`: its three reads through C2E move, with
// their neighbour indices, to a scalar loop that stores them into rows of
// 128 points; the vectorised loop reads the rows and keeps the contiguous
// load of the coefficients and the arithmetic. On CUDA (no simd loops)
// nothing changes.
// CHECK-LABEL: kernel "divergence"
// CHECK:      ^bb0(%[[HB:.*]]: index, %[[HE:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-DAG:  %[[R0:.*]] = stn.row : <128 x f64>
// CHECK-DAG:  %[[R1:.*]] = stn.row : <128 x f64>
// CHECK-DAG:  %[[R2:.*]] = stn.row : <128 x f64>
// CHECK:      scf.for %[[K:.*]] = 
// CHECK-NEXT:   scf.for %[[H:.*]] = %[[HB]] to %[[HE]]
// CHECK-NEXT:     %[[I:.*]] = arith.subi %[[H]], %[[HB]] : index
// CHECK-NEXT:     %[[P:.*]] = stn.point_at %[[H]]
// CHECK:          %[[N0:.*]] = stn.neighbor %[[P]] through @C2E[%{{.*}}]
// CHECK-NEXT:     %[[V0:.*]] = stn.load %f[%[[N0]], %[[K]]]
// CHECK:          stn.row_store %[[V0]], %[[R0]][%[[I]]]
// CHECK-NEXT:     stn.row_store %{{.*}}, %[[R1]][%[[I]]]
// CHECK-NEXT:     stn.row_store %{{.*}}, %[[R2]][%[[I]]]
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.for %[[H2:.*]] = %[[HB]] to %[[HE]]
// CHECK-NEXT:     %[[I2:.*]] = arith.subi %[[H2]], %[[HB]] : index
// CHECK-NOT:      stn.load %f
// CHECK:          stn.row_load %[[R0]][%[[I2]]]
// CHECK:          stn.load %geofac
// CHECK:          stn.row_load %[[R1]][%[[I2]]]
// CHECK:          stn.row_load %[[R2]][%[[I2]]]
// CHECK:          stn.write
// CHECK-NEXT:   } {stn.simd}
// CUDA-LABEL: kernel "divergence"
// CUDA-NOT:   stn.row
// CUDA:       stn.load %f
stn.connectivity @C2E : Cell -> Edge [3]

stn.program @divergence(%f: !stn.field<Edge x K x f64> {stn.name = "f"},
    %geofac: !stn.field<Cell x C2E[3] x f64> {stn.name = "geofac"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32, %hi: i32) {
  %z = arith.constant 0 : i32
  %n = stn.nlev : i32
  // expected-remark @+1 {{kernel 'divergence': 3 read(s) through neighbour tables move to a scalar loop before its vectorised point loop, through rows of 128 points}}
  stn.kernel "divergence" on Cell[%lo : %hi] K[%z : %n] attributes {split_gathers} {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Edge>):
      %v = stn.load %f[%q, k] : !stn.field<Edge x K x f64>
      %c = stn.load %geofac[%p, nbr %j] : !stn.field<Cell x C2E[3] x f64>
      %m = arith.mulf %v, %c : f64
      stn.yield %m : f64
    }
    stn.write %s to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// Without the attribute, the gathers stay in the vectorised loop.
// CHECK-LABEL: kernel "unmarked"
// CHECK-NOT:  stn.row
// CHECK:      stn.load %f
// CHECK:      } {stn.simd}
stn.connectivity @E2C : Edge -> Cell [2]

stn.program @unmarked(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32, %hi: i32) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %n = stn.nlev : i32
  stn.kernel "unmarked" on Edge[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Edge>):
    %nb = stn.neighbor %p through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
    %v = stn.load %f[%nb, k] : !stn.field<Cell x K x f64>
    stn.write %v to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}

// -----

// A gather at a level read at the point moves with that read; a gather
// inside a branch stays in the vectorised loop.
// CHECK-LABEL: kernel "offsets_and_branches"
// CHECK:      stn.row : <128 x f64>
// CHECK-NOT:  stn.row :
// CHECK:      scf.for
// CHECK:        %[[O:.*]] = stn.load %off[
// CHECK:        %[[A:.*]] = stn.load %f[%{{.*}}, %{{.*}} + %[[O]]]
// CHECK:        stn.row_store %[[A]]
// CHECK:      scf.for
// CHECK:        stn.row_load
// CHECK:        scf.if
// CHECK:          stn.load %f[
// CHECK:      } {stn.simd}
stn.connectivity @E2C : Edge -> Cell [2]

stn.program @offsets_and_branches(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %off: !stn.field<Edge x K x i32> {stn.name = "off"},
    %m: !stn.field<Edge x K x f64> {stn.name = "m"},
    %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32, %hi: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f64
  %n = stn.nlev : i32
  // expected-remark @+1 {{kernel 'offsets_and_branches': 1 read(s) through neighbour tables move}}
  stn.kernel "offsets_and_branches" on Edge[%lo : %hi] K[%z : %n] attributes {split_gathers} {
  ^bb0(%p: !stn.point<Edge>):
    %o = stn.load %off[%p, k] : !stn.field<Edge x K x i32>
    %n0 = stn.neighbor %p through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
    %a = stn.load %f[%n0, k + %o] : !stn.field<Cell x K x f64>
    %c = stn.load %m[%p, k] : !stn.field<Edge x K x f64>
    %positive = arith.cmpf ogt, %c, %zero : f64
    %b = scf.if %positive -> (f64) {
      %n1 = stn.neighbor %p through @E2C [%c1] : !stn.point<Edge> -> !stn.point<Cell>
      %v = stn.load %f[%n1, k] : !stn.field<Cell x K x f64>
      scf.yield %v : f64
    } else {
      scf.yield %zero : f64
    }
    %s = arith.addf %a, %b : f64
    stn.write %s to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}
