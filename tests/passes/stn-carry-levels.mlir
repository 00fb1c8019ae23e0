// RUN: %fusec-opt %s --stn-lower-to-loops=target=cuda --stn-hoist-loop-invariant --stn-carry-levels | FileCheck %s
// RUN: %fusec-opt %s -stn-k-blocking="block=4 carry=false" --stn-lower-to-loops=target=cuda --stn-carry-levels | FileCheck %s --check-prefix=OFF
// RUN: %fusec-opt %s --stn-lower-to-loops=target=cpp --stn-hoist-loop-invariant --stn-carry-levels | FileCheck %s --check-prefix=CPP

// Level loops of a work item with kblock > 1 take what the level below
// computed instead of computing it again: a `k - 1` load, reduction or
// expression is the `k` one a level down. The first level is peeled off and
// computes everything; the loop over the others carries the values in
// iter_args.

// The whole `k - 1` quotient is carried, so the steady loop drops its
// reduction; the `k - 1` load of kh is carried too.
// CHECK-LABEL: kernel "carried"
// CHECK: ^bb0(%[[HB:.*]]: index, %[[HE:.*]]: index, %[[KB:.*]]: index, %[[KE:.*]]: index):
// CHECK: scf.for %[[H:.*]] = %[[HB]] to %[[HE]]
// CHECK-NEXT: %[[P:.*]] = stn.point_at %[[H]]
// The first level, at k_begin.
// CHECK: stn.load %vn[%{{.*}}, %[[KB]]]
// CHECK: stn.load %vn[%{{.*}}, %[[KB]] - 1]
// CHECK: %[[S:.*]] = stn.load %scale[%[[KB]]]
// CHECK: %[[Q:.*]] = arith.divf %{{.*}}, %[[S]] : f64
// CHECK: %[[X:.*]] = stn.load %kh[%[[P]], %[[KB]]]
// CHECK: stn.load %kh[%[[P]], %[[KB]] - 1]
// CHECK: stn.write %{{.*}} to %out at %[[P]] : !stn.point<Cell> level %[[KB]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[KB]], %{{.*}} : index
// CHECK: scf.for %[[K:.*]] = %[[NEXT]] to %[[KE]] step %{{.*}} iter_args(%[[QB:.*]] = %[[Q]], %[[XB:.*]] = %[[X]]) -> (f64, f64) {
// CHECK-NOT: - 1]
// CHECK: %[[Q2:.*]] = arith.divf
// CHECK: %[[X2:.*]] = stn.load %kh[%[[P]], %[[K]]]
// CHECK: arith.addf %[[Q2]], %[[QB]] : f64
// CHECK: arith.addf %[[X2]], %[[XB]] : f64
// CHECK: stn.write %{{.*}} level %[[K]]
// CHECK-NEXT: scf.yield %[[Q2]], %[[X2]] : f64, f64

// Nothing is carried between values two levels apart, or when the two sides
// differ in something other than their level.
// CHECK-LABEL: kernel "not_carried"
// CHECK-NOT: iter_args
// A kernel that updates a field in place: the peeled first level writes it
// before the loop over the other levels reads it, at other levels (a
// regression of fusec-fuzz seed 1795489026: the verifier took that for a
// read after a write).
// CHECK-LABEL: kernel "in_place"
// CHECK: stn.write %{{.*}} to %acc at %{{.*}} : !stn.point<Cell> level %k_begin
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %k_end step %{{.*}} iter_args
// CHECK-NEXT: stn.load %acc[%{{.*}}, %[[K]]]
// CHECK-LABEL: kernel "single_level"
// CHECK-NOT: iter_args

// carry=false (no_level_carry) keeps every level's work.
// OFF-LABEL: kernel "carried"
// OFF-NOT: iter_args
// OFF-LABEL: kernel "not_carried"

// On CPUs the points are inside the level loop, so what is carried is one
// value per point, through a row of the work item: the first level stores
// the quotient (its divisor scale[k] is computed for all points in the level
// loop) and kh, the others load them at the top of their point loop and
// compute no `k - 1` reduction or load.
// CPP-LABEL: kernel "carried"
// CPP: ^bb0(%[[HB:.*]]: index, %{{.*}}: index, %[[KB:.*]]: index, %{{.*}}: index):
// CPP: %[[ROWQ:.*]] = stn.row : <128 x f64>
// CPP: %[[ROWX:.*]] = stn.row : <128 x f64>
// CPP: %[[S:.*]] = stn.load %scale[%[[KB]]] : !stn.field<K x f64>
// CPP: scf.for %[[H:.*]] = %[[HB]] to
// CPP-NEXT: %[[I:.*]] = arith.subi %[[H]], %[[HB]] : index
// CPP: %[[Q:.*]] = arith.divf %{{.*}}, %[[S]] : f64
// CPP: %[[X:.*]] = stn.load %kh[%{{.*}}, %[[KB]]]
// CPP: stn.write %{{.*}} level %[[KB]]
// CPP-NEXT: stn.row_store %[[Q]], %[[ROWQ]][%[[I]]] : <128 x f64>
// CPP-NEXT: stn.row_store %[[X]], %[[ROWX]][%[[I]]] : <128 x f64>
// CPP-NEXT: } {stn.simd}
// CPP: scf.for %[[K:.*]] = %{{.*}} to
// CPP: scf.for %[[H2:.*]] = %[[HB]] to
// CPP-NEXT: %[[I2:.*]] = arith.subi %[[H2]], %[[HB]] : index
// CPP-NEXT: %[[QB:.*]] = stn.row_load %[[ROWQ]][%[[I2]]] : <128 x f64>
// CPP-NEXT: %[[XB:.*]] = stn.row_load %[[ROWX]][%[[I2]]] : <128 x f64>
// CPP-NOT: - 1]
// CPP: %[[Q2:.*]] = arith.divf
// CPP: %[[X2:.*]] = stn.load %kh[%{{.*}}, %[[K]]]
// CPP: arith.addf %[[Q2]], %[[QB]] : f64
// CPP: arith.addf %[[X2]], %[[XB]] : f64
// CPP: stn.write %{{.*}} level %[[K]]
// CPP-NEXT: stn.row_store %[[Q2]], %[[ROWQ]][%[[I2]]]
// CPP-NEXT: stn.row_store %[[X2]], %[[ROWX]][%[[I2]]]
// CPP-NEXT: } {stn.simd}
// Two levels apart, or another field: no row. In place on acc, kh is still
// carried: the kernel writes acc, not kh.
// CPP-LABEL: kernel "not_carried"
// CPP-NOT: stn.row
// CPP-LABEL: kernel "in_place"
// CPP: stn.row : <128 x f64>
// CPP-LABEL: kernel "single_level"
// CPP-NOT: stn.row

stn.connectivity @C2E : Cell -> Edge [3]

// The whole `k - 1` quotient is carried, so the level loop drops its
// reduction too.


// Nothing is carried with one level per thread, between values two levels
// apart, or when the two sides differ in something other than their level.

stn.program @levels(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
    %geofac: !stn.field<Cell x C2E[3] x f64> {stn.name = "geofac"},
    %scale: !stn.field<K x f64> {stn.name = "scale"},
    %kh: !stn.field<Cell x K x f64> {stn.name = "kh"},
    %other: !stn.field<Cell x K x f64> {stn.name = "other"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %acc: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "acc"},
    %cells: i32 {stn.name = "cells"}) {
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  stn.kernel "carried" on Cell[%c1 : %cells] K[%c1 : %n] attributes {kblock = 4} {
  ^bb0(%c: !stn.point<Cell>):
    %here = stn.reduce sum over @C2E at %c : <Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %g = stn.load %geofac[%c, nbr %j] : !stn.field<Cell x C2E[3] x f64>
      %p = arith.mulf %v, %g : f64
      stn.yield %p : f64
    }
    %below = stn.reduce sum over @C2E at %c : <Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k - 1] : !stn.field<Edge x K x f64>
      %g = stn.load %geofac[%c, nbr %j] : !stn.field<Cell x C2E[3] x f64>
      %p = arith.mulf %v, %g : f64
      stn.yield %p : f64
    }
    %s = stn.load %scale[k] : !stn.field<K x f64>
    %sb = stn.load %scale[k - 1] : !stn.field<K x f64>
    %q = arith.divf %here, %s : f64
    %qb = arith.divf %below, %sb : f64
    %x = stn.load %kh[%c, k] : !stn.field<Cell x K x f64>
    %xb = stn.load %kh[%c, k - 1] : !stn.field<Cell x K x f64>
    %sum = arith.addf %q, %qb : f64
    %sum2 = arith.addf %x, %xb : f64
    %r = arith.mulf %sum, %sum2 : f64
    stn.write %r to %out at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.kernel "not_carried" on Cell[%c1 : %cells] K[%c1 : %n] attributes {kblock = 4} {
  ^bb0(%c: !stn.point<Cell>):
    %two = stn.load %kh[%c, k - 2] : !stn.field<Cell x K x f64>
    %x = stn.load %kh[%c, k] : !stn.field<Cell x K x f64>
    %y = stn.load %other[%c, k - 1] : !stn.field<Cell x K x f64>
    %a = stn.load %acc[%c, k] : !stn.field<Cell x K x f64>
    %m = arith.mulf %x, %x : f64
    %mb = arith.addf %y, %y : f64
    %t0 = arith.addf %two, %m : f64
    %t1 = arith.addf %t0, %mb : f64
    %t2 = arith.addf %t1, %a : f64
    stn.write %t2 to %acc at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.kernel "in_place" on Cell[%c1 : %cells] K[%c1 : %n] attributes {kblock = 4} {
  ^bb0(%c: !stn.point<Cell>):
    %a = stn.load %acc[%c, k] : !stn.field<Cell x K x f64>
    %x = stn.load %kh[%c, k] : !stn.field<Cell x K x f64>
    %xb = stn.load %kh[%c, k - 1] : !stn.field<Cell x K x f64>
    %s = arith.addf %x, %xb : f64
    %r = arith.addf %a, %s : f64
    stn.write %r to %acc at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.kernel "single_level" on Cell[%c1 : %cells] K[%c1 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %x = stn.load %kh[%c, k] : !stn.field<Cell x K x f64>
    %xb = stn.load %kh[%c, k - 1] : !stn.field<Cell x K x f64>
    %sum = arith.addf %x, %xb : f64
    stn.write %sum to %out at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}
