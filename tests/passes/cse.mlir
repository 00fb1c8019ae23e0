// RUN: %fusec-opt %s -split-input-file -cse | FileCheck %s

// Loads from field buffers read memory, stores write it: CSE keeps an
// application that reads a field written since the equal one before it
// (regression: `b` used to get `f`'s old value under fuse-all).
// CHECK-LABEL: stn.program @store_between
// CHECK: %[[A:.*]] = apply
// CHECK: store %[[A]] to %a
// CHECK: store %{{.*}} to %f
// CHECK: %[[B:.*]] = apply
// CHECK: stn.load %f[
// CHECK: store %[[B]] to %b
stn.program @store_between(%f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "f"},
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %1 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %1 to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %2 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %d = arith.addf %v, %v : f64
    stn.yield %d : f64
  }
  stn.store %2 to %f on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %3 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %3 to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// An exchange writes the halo points of its fields.
// CHECK-LABEL: stn.program @exchange_between
// CHECK: store %{{.*}} to %a
// CHECK: exchange %f
// CHECK: %[[B:.*]] = apply
// CHECK: store %[[B]] to %b
stn.program @exchange_between(%f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "f"},
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %1 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %1 to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.exchange %f : !stn.field<Cell x K x f64>
  %3 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %3 to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Without any write in between, equal applications are one.
// CHECK-LABEL: stn.program @nothing_between
// CHECK: %[[A:.*]] = apply
// CHECK-NOT: apply
// CHECK: store %[[A]] to %a
// CHECK: store %[[A]] to %b
stn.program @nothing_between(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %1 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  %2 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %1 to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %2 to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Inside an application nothing writes: equal loads and equal folds merge.
// CHECK-LABEL: stn.program @folds
// CHECK: stn.reduce sum
// CHECK-NOT: stn.reduce
// CHECK: arith.addf
stn.connectivity @C2E : Cell -> Edge [3]
stn.program @folds(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %1 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      stn.yield %v : f64
    }
    %t = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      stn.yield %v : f64
    }
    %r = arith.addf %s, %t : f64
    stn.yield %r : f64
  }
  stn.store %1 to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A kernel with nothing left to write is dead and goes, except as a stage of a
// wavefront, whose stage numbers and waits point at it (regression: fusec-fuzz
// seed 1796179286, file 3: a stage whose writes stored back what they read lost
// its kernel, and the wavefront no longer verified).
// CHECK-LABEL: stn.program @empty_stage
// CHECK-NOT:   stn.kernel "dead"
// CHECK:       wavefront tile(5) min_levels(1) waits [same<1 on 0>] {
// CHECK-NEXT:    stn.kernel "copy" {{.*}} stage = 0
// CHECK:         stn.kernel "empty" {{.*}} stage = 1
stn.program @empty_stage(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  stn.kernel "dead" on Cell[%lo : %hi] K[%k0 : %k1] {
  ^bb0(%p: !stn.point<Cell>):
  }
  stn.wavefront tile(5) min_levels(1) waits [same<1 on 0>] {
    stn.kernel "copy" on Cell[%lo : %hi] K[%k0 : %k1] attributes {stage = 0 : i64} {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
      stn.write %v to %o at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.kernel "empty" on Cell[%lo : %hi] K[%k0 : %k1] attributes {stage = 1 : i64} {
    ^bb0(%p: !stn.point<Cell>):
    }
  }
  stn.return
}
