// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cuda -stn-hoist-loop-invariant | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp -stn-hoist-loop-invariant | FileCheck %s --check-prefix=CPP
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp -stn-hoist-loop-invariant -stn-unswitch-loops -stn-hoist-loop-invariant | FileCheck %s --check-prefix=AGAIN

// Work that does not change inside a loop leaves it. On GPUs the neighbour
// index, the 2-D coefficient and their product, and a 2-D field leave the
// level loop; the loads at the level and the write stay.
// CHECK-LABEL: kernel "edge_to_cell"
// CHECK: scf.for %[[H:.*]] = %h_begin to %h_end
// CHECK-NEXT: %[[P:.*]] = stn.point_at %[[H]]
// CHECK-NEXT: %[[N:.*]] = stn.neighbor %[[P]] through @E2C
// CHECK-NEXT: %[[A:.*]] = stn.load %area[%[[N]]]
// CHECK-NEXT: %[[A2:.*]] = arith.mulf %[[A]], %[[A]]
// CHECK-NEXT: %[[D:.*]] = stn.load %acc2d[%[[P]]]
// CHECK-NEXT: scf.for %[[K:.*]] = %k_begin to %k_end
// CHECK-NEXT: %[[W:.*]] = stn.load %w[%[[N]], %[[K]] + 1]
// CHECK-NEXT: %[[C:.*]] = stn.load %acc[%[[P]], %[[K]]]
// CHECK-NEXT: stn.load %scale[%[[K]]]
// CHECK-NEXT: arith.mulf %[[W]], %[[A2]]
// CHECK: stn.write %{{.*}} to %acc at %[[P]] : !stn.point<Edge> level %[[K]]

// On CPUs the points are inside: only what does not depend on the point
// leaves the simd loop (the vertical-only load at the level).
// CPP-LABEL: kernel "edge_to_cell"
// CPP: scf.for %[[K:.*]] = %k_begin to %k_end
// CPP-NEXT: %[[S:.*]] = stn.load %scale[%[[K]]]
// CPP-NEXT: scf.for %[[H:.*]] = %h_begin to %h_end
// CPP-NEXT: stn.point_at %[[H]]
// CPP-NEXT: stn.neighbor
stn.connectivity @E2C : Edge -> Cell [2]

stn.program @hoist(%area: !stn.field<Cell x f64> {stn.name = "area"},
    %w: !stn.field<Cell x KHalf x f64> {stn.name = "w"},
    %scale: !stn.field<K x f64> {stn.name = "scale"},
    %acc2d: !stn.field<Edge x f64> {stn.name = "acc2d"},
    %acc: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "acc"},
    %lo: i32, %hi: i32) {
  %c0 = arith.constant 0 : index
  %n = stn.nlev : i32
  stn.kernel "edge_to_cell" on Edge[%lo : %hi] K[%lo : %n] attributes {kblock = 4} {
  ^bb0(%p: !stn.point<Edge>):
    %nb = stn.neighbor %p through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
    %a = stn.load %area[%nb] : !stn.field<Cell x f64>
    %a2 = arith.mulf %a, %a : f64
    %d = stn.load %acc2d[%p] : !stn.field<Edge x f64>
    %wv = stn.load %w[%nb, k + 1] : !stn.field<Cell x KHalf x f64>
    %c = stn.load %acc[%p, k] : !stn.field<Edge x K x f64>
    %s = stn.load %scale[k] : !stn.field<K x f64>
    %m = arith.mulf %wv, %a2 : f64
    %m2 = arith.mulf %m, %s : f64
    %m3 = arith.addf %m2, %d : f64
    %r = arith.addf %m3, %c : f64
    stn.write %r to %acc at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}

// -----

// A list's loop over runs (C++, columns layout) is an `scf.while`: what
// depends on neither the run nor the level leaves both loops.
// CPP-LABEL: kernel "runs"
// CPP:      %[[SQ:.*]] = arith.mulf %[[DT:.*]], %[[DT]] : f64
// CPP-NEXT: scf.while
// CPP:        stn.list_run
// CPP:        scf.for
// CPP-NEXT:     %[[V:.*]] = stn.load %t[%{{.*}}, %{{.*}}]
// CPP-NEXT:     arith.mulf %[[V]], %[[SQ]] : f64
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @over_runs(%l: !stn.points<Cell>,
      %t: !stn.field<Cell x K x f64> {stn.name = "t"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %dt: f64) {
    stn.kernel "runs" on Cell at %l {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %t[%p, k] : !stn.field<Cell x K x f64>
      %sq = arith.mulf %dt, %dt : f64
      %r = arith.mulf %v, %sq : f64
      stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// A coefficient read on one side of a test that is the same for all of a
// point's levels stays in the level loop (its `scf.if` changes with the
// level's value); once stn-unswitch-loops has put the test outside, a
// second run takes the read out of that side's loop (as the pipelines do).
// AGAIN-LABEL: kernel "one_side"
// AGAIN:      scf.if %{{.*}} {
// AGAIN-NEXT:   %[[C:.*]] = stn.load %coef[%{{.*}}] : !stn.field<Cell x f64>
// AGAIN-NEXT:   scf.for
// AGAIN-NEXT:     %[[X:.*]] = stn.load %w
// AGAIN-NEXT:     arith.mulf %[[X]], %[[C]]
// AGAIN:        } {stn.simd}
// AGAIN-NEXT: } else {
// AGAIN-NOT:    stn.load %coef
// AGAIN:      }
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @one_side(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %coef: !stn.field<Cell x f64> {stn.name = "coef"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %start: i32, %lo: i32, %hi: i32) {
    %z = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "one_side" on Cell[%lo : %hi] K[%z : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %i = stn.index %p : !stn.point<Cell>
      %in = arith.cmpi sge, %i, %start : i32
      %x = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
      %r = scf.if %in -> (f64) {
        %c = stn.load %coef[%p] : !stn.field<Cell x f64>
        %y = arith.mulf %x, %c : f64
        scf.yield %y : f64
      } else {
        scf.yield %x : f64
      }
      stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}
