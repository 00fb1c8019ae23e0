// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp -stn-unroll-reductions -stn-unswitch-missing-neighbors -Rpass=stn-unswitch-missing-neighbors -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cuda -stn-unroll-reductions -stn-unswitch-missing-neighbors | FileCheck %s --check-prefix=CUDA

// A loop over points reading through a `skip` table at its own point: a copy
// of it with the lookups `present` runs where the rows the loop visits hold
// no -1; the test lies outside the level loop (it depends on the points only);
// the original loop, guards and all, is the other side. In the copy the
// sum takes each neighbour's term without a select on whether it exists. On
// CUDA (no simd loops) nothing changes.
// CHECK-LABEL: kernel "nabla"
// CHECK:      ^bb0(%[[HB:.*]]: index, %[[HE:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK:      %[[ALL:.*]] = stn.table_complete @E2C2V[%[[HB]], %[[HE]]]
// CHECK-NEXT: scf.for %[[K:.*]] =
// CHECK-NEXT:   scf.if %[[ALL]] {
// CHECK-NEXT:     scf.for %[[H:.*]] = %[[HB]] to %[[HE]]
// CHECK-NEXT:       %[[P:.*]] = stn.point_at %[[H]]
// CHECK:            %[[N0:.*]] = stn.neighbor %[[P]] through @E2C2V[%{{.*}}] {present}
// CHECK-NEXT:       %[[X0:.*]] = stn.load %u[%[[N0]], %[[K]]]
// CHECK-NEXT:       %[[S0:.*]] = arith.addf %{{.*}}, %[[X0]]
// CHECK-NOT:        stn.valid
// CHECK-NOT:        arith.select
// CHECK:            %[[N1:.*]] = stn.neighbor %[[P]] through @E2C2V[%{{.*}}] {present}
// CHECK-NEXT:       %[[X1:.*]] = stn.load %u[%[[N1]], %[[K]]]
// CHECK-NEXT:       arith.addf %[[S0]], %[[X1]]
// CHECK-NOT:        arith.select
// CHECK:          } {stn.simd}
// CHECK-NEXT:   } else {
// CHECK-NEXT:     scf.for %{{.*}} = %[[HB]] to %[[HE]]
// CHECK-NOT:        present
// CHECK:            stn.valid
// CHECK-NEXT:       arith.select
// CHECK:          } {stn.simd}
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CUDA-LABEL: kernel "nabla"
// CUDA-NOT:   stn.table_complete
// CUDA-NOT:   present
// CUDA:       stn.write
stn.connectivity @E2C2V : Edge -> Vertex [4] skip

stn.program @nabla(%u: !stn.field<Vertex x K x f64> {stn.name = "u"},
    %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32, %hi: i32) {
  %z = arith.constant 0 : i32
  %n = stn.nlev : i32
  // expected-remark @+1 {{loop over points gets a copy without guards, run where the rows it visits of E2C2V hold no missing neighbour}}
  stn.kernel "nabla" on Edge[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Edge>):
    %s = stn.reduce sum over @E2C2V at %p : !stn.point<Edge> -> f64 {
    ^bb0(%j: index, %v: !stn.point<Vertex>):
      %x = stn.load %u[%v, k] : !stn.field<Vertex x K x f64>
      stn.yield %x : f64
    }
    stn.write %s to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}

// -----

// Two `skip` tables at the loop's point: one test each, in name order, both
// must hold. A table without `skip` (C2E) needs no test, and a neighbour of a
// neighbour (through E2C) keeps its guard: its rows are not the loop's.
// CHECK-LABEL: kernel "two"
// CHECK:      ^bb0(%[[HB:.*]]: index, %[[HE:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK:      %[[A:.*]] = stn.table_complete @C2E2C[%[[HB]], %[[HE]]]
// CHECK-NEXT: %[[B:.*]] = stn.table_complete @C2E2CO[%[[HB]], %[[HE]]]
// CHECK-NEXT: %[[ALL:.*]] = arith.andi %[[A]], %[[B]] : i1
// CHECK-NOT:  stn.table_complete
// CHECK:      scf.if %[[ALL]] {
// CHECK:        %[[P:.*]] = stn.point_at
// CHECK-DAG:    %[[E:.*]] = stn.neighbor %[[P]] through @C2E[%{{.*}}] :
// CHECK-DAG:    %[[C:.*]] = stn.neighbor %[[P]] through @C2E2C[%{{.*}}] {present}
// CHECK-DAG:    stn.neighbor %[[E]] through @E2C[%{{.*}}] :
// CHECK-DAG:    stn.neighbor %[[P]] through @C2E2CO[%{{.*}}] {present}
// CHECK:      } else {
// CHECK-NOT:    present
// CHECK:      }
stn.connectivity @C2E : Cell -> Edge [3]
stn.connectivity @C2E2C : Cell -> Cell [3] skip
stn.connectivity @C2E2CO : Cell -> Cell [4] skip
stn.connectivity @E2C : Edge -> Cell [2] skip

stn.program @two(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %g: !stn.field<Edge x K x f64> {stn.name = "g"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32, %hi: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %n = stn.nlev : i32
  // expected-remark @+1 {{loop over points gets a copy without guards, run where the rows it visits of C2E2C, C2E2CO hold no missing neighbour}}
  stn.kernel "two" on Cell[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Cell>):
    %e = stn.neighbor %p through @C2E [%c0] : !stn.point<Cell> -> !stn.point<Edge>
    %c = stn.neighbor %p through @C2E2C [%c1] : !stn.point<Cell> -> !stn.point<Cell>
    %ec = stn.neighbor %e through @E2C [%c1] : !stn.point<Edge> -> !stn.point<Cell>
    %pc = stn.neighbor %p through @C2E2CO [%c0] : !stn.point<Cell> -> !stn.point<Cell>
    %a = stn.load %f[%c, k] : !stn.field<Cell x K x f64>
    %b = stn.load %f[%ec, k] : !stn.field<Cell x K x f64>
    %d = stn.load %g[%e, k] : !stn.field<Edge x K x f64>
    %o = stn.load %f[%pc, k] : !stn.field<Cell x K x f64>
    %s = arith.addf %a, %b : f64
    %r = arith.addf %s, %d : f64
    %t = arith.addf %r, %o : f64
    stn.write %t to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// Only tables without `skip`: nothing to unswitch.
// CHECK-LABEL: kernel "complete"
// CHECK-NOT:  stn.table_complete
// CHECK-NOT:  scf.if
// CHECK:      } {stn.simd}
stn.connectivity @C2E : Cell -> Edge [3]

stn.program @complete(%f: !stn.field<Edge x K x f64> {stn.name = "f"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32, %hi: i32) {
  %z = arith.constant 0 : i32
  %n = stn.nlev : i32
  stn.kernel "complete" on Cell[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %x = stn.load %f[%e, k] : !stn.field<Edge x K x f64>
      stn.yield %x : f64
    }
    stn.write %s to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// The columns layout: the simd loop runs over one point's levels, so the copy
// is of the body of the loop over points, under a test of the point's own row.
// CHECK-LABEL: kernel "columns"
// CHECK:      scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %[[NEXT:.*]] = arith.addi %[[H]], %[[ONE]] : index
// CHECK-NEXT:   %[[ROW:.*]] = stn.table_complete @E2C2V[%[[H]], %[[NEXT]]]
// CHECK-NEXT:   scf.if %[[ROW]] {
// CHECK-NEXT:     %[[P:.*]] = stn.point_at %[[H]]
// CHECK-NEXT:     scf.for %[[K:.*]] =
// CHECK:            stn.neighbor %[[P]] through @E2C2V[%{{.*}}] {present}
// CHECK:          } {stn.simd}
// CHECK-NEXT:   } else {
// CHECK-NEXT:     stn.point_at %[[H]]
// CHECK-NOT:      present
// CHECK:          } {stn.simd}
// CHECK-NEXT:   }
// CHECK-NEXT: }
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @E2C2V : Edge -> Vertex [4] skip

  stn.program @columns(%u: !stn.field<Vertex x K x f64> {stn.name = "u"},
      %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32, %hi: i32) {
    %z = arith.constant 0 : i32
    %n = stn.nlev : i32
    // expected-remark @+1 {{a point's loop over levels gets a copy without guards, run where the point's rows of E2C2V hold no missing neighbour}}
    stn.kernel "columns" on Edge[%lo : %hi] K[%z : %n] {
    ^bb0(%p: !stn.point<Edge>):
      %s = stn.reduce sum over @E2C2V at %p : !stn.point<Edge> -> f64 {
      ^bb0(%j: index, %v: !stn.point<Vertex>):
        %x = stn.load %u[%v, k] : !stn.field<Vertex x K x f64>
        stn.yield %x : f64
      }
      stn.write %s to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.return
  }
}

// -----

// A list kernel in the columns layout: the work of each run of entries (the
// lookups at the entry's point and the simd loop over its levels) gets the
// copy, under a test of the point's own row; the step to the next run stays
// after both. A neighbour of a neighbour keeps its guard.
// CHECK-LABEL: kernel "entries"
// CHECK:      scf.while
// CHECK:      } do {
// CHECK:        %[[LEN:.*]] = stn.list_run
// CHECK-NEXT:   %[[P:.*]], %[[K0:.*]] = stn.list_point
// CHECK-NEXT:   %[[I:.*]] = stn.index %[[P]]
// CHECK-NEXT:   %[[H:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %[[NEXT:.*]] = arith.addi %[[H]], %[[ONE]] : index
// CHECK-NEXT:   %[[ROW:.*]] = stn.table_complete @C2E2C[%[[H]], %[[NEXT]]]
// CHECK-NEXT:   scf.if %[[ROW]] {
// CHECK:          %[[N:.*]] = stn.neighbor %[[P]] through @C2E2C[%{{.*}}] {present}
// CHECK-NEXT:     stn.neighbor %[[N]] through @C2E2C[%{{.*}}] :
// CHECK:          } {stn.simd}
// CHECK-NEXT:   } else {
// CHECK-NOT:      present
// CHECK:          } {stn.simd}
// CHECK-NEXT:   }
// CHECK-NEXT:   arith.addi %{{.*}}, %[[LEN]] : index
// CHECK-NEXT:   scf.yield
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @C2E2C : Cell -> Cell [3] skip

  stn.program @entries(%l: !stn.points<Cell>, %f: !stn.field<Cell x K x f64>,
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}) {
    // expected-remark @+1 {{a list entry's loop over levels gets a copy without guards, run where the entry's rows of C2E2C hold no missing neighbour}}
    stn.kernel "entries" on Cell at %l {
    ^bb0(%p: !stn.point<Cell>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = stn.neighbor %p through @C2E2C[%c0] : <Cell> -> <Cell>
      %m = stn.neighbor %n through @C2E2C[%c1] : <Cell> -> <Cell>
      %a = stn.load %f[%n, k] : !stn.field<Cell x K x f64>
      %b = stn.load %f[%m, k] : !stn.field<Cell x K x f64>
      %s = arith.addf %a, %b : f64
      stn.write %s to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}
