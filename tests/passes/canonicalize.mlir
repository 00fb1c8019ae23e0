// RUN: %fusec-opt %s -split-input-file -canonicalize | FileCheck %s

// A store or kernel over a constant empty range writes nothing and goes; the
// application computing only for it is then dead too.
// CHECK-LABEL: stn.program @empty_domains
// CHECK-NOT: apply
// CHECK-NOT: store
// CHECK-NOT: kernel
// CHECK: return
stn.program @empty_domains(%f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "f"},
    %lo: i32, %hi: i32) {
  %c3 = arith.constant 3 : i32
  %c2 = arith.constant 2 : i32
  %t = stn.apply on Cell[%lo : %hi] K[%c3 : %c2] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %t to %f on Cell[%lo : %hi] K[%c3 : %c2] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.kernel "nothing" on Cell[%c3 : %c3] K[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.write %v to %f at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// The image of an empty range is [0, 0): the temporary computed on it and
// the empty store of its reader go.
// CHECK-LABEL: stn.program @empty_image
// CHECK-NOT: image
// CHECK-NOT: apply
// CHECK: return
stn.connectivity @E2C : Edge -> Cell [2] skip
stn.program @empty_image(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %o: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "o"}, %k0: i32, %k1: i32) {
  %c5 = arith.constant 5 : i32
  %lo, %hi = stn.image %c5, %c5 through @E2C
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  %u = stn.apply on Edge[%c5 : %c5] K[%k0 : %k1] -> !stn.temp<Edge x K x f64> {
  ^bb0(%e: !stn.point<Edge>):
    %c0 = arith.constant 0 : index
    %n = stn.neighbor %e through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
    %v = stn.load %t[%n, k] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %u to %o on Edge[%c5 : %c5] K[%k0 : %k1] : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
  stn.return
}

// -----

// `stn.valid` is true for points that cannot be missing: the current point,
// the neighbour a reduction visits, a neighbour through a table without -1;
// the select that guards a read at a missing neighbour then disappears.
// CHECK-LABEL: stn.program @valid
// CHECK: %[[P:.*]] = stn.neighbor %{{.*}} through @C2E
// CHECK-NOT: stn.valid %[[P]]
// CHECK: %[[S:.*]] = stn.neighbor %{{.*}} through @E2C
// CHECK: stn.valid %[[S]]
stn.connectivity @C2E : Cell -> Edge [3]
stn.connectivity @E2C : Edge -> Cell [2] skip
stn.program @valid(%f: !stn.field<Edge x K x f64> {stn.name = "f"},
    %g: !stn.field<Cell x K x f64> {stn.name = "g"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f64
    %e = stn.neighbor %p through @C2E [%c0] : !stn.point<Cell> -> !stn.point<Edge>
    %ok = stn.valid %e : !stn.point<Edge>
    %v = stn.load %f[%e, k] : !stn.field<Edge x K x f64>
    %a = arith.select %ok, %v, %zero : f64
    %c = stn.neighbor %e through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
    %ok2 = stn.valid %c : !stn.point<Cell>
    %w = stn.load %g[%c, k] : !stn.field<Cell x K x f64>
    %b = arith.select %ok2, %w, %zero : f64
    %r = arith.addf %a, %b : f64
    stn.yield %r : f64
  }
  stn.store %t to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
