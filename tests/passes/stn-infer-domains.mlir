// RUN: %fusec-opt %s -split-input-file -stn-infer-domains -verify-diagnostics | FileCheck %s

// A temporary read through a connectivity at K-1 needs the image of the
// consumer's points and levels shifted by -1.
stn.connectivity @E2C : Edge -> Cell [2] skip
stn.connectivity @C2E : Cell -> Edge [3]

// CHECK-LABEL: stn.program @image_and_offset
stn.program @image_and_offset(%th: !stn.field<Cell x K x f64> {stn.name = "th"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  // CHECK: %[[ILB:.*]], %[[IUB:.*]] = image %lo, %hi through @C2E
  // CHECK: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK: %[[KUB:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
  // CHECK: apply on Edge[%[[ILB]] : %[[IUB]]] K[%[[C0]] : %[[KUB]]]
  %flux = stn.apply on Edge -> !stn.temp<Edge x K x f64> {
  ^bb0(%e: !stn.point<Edge>):
    %c0 = arith.constant 0 : index
    %a = stn.neighbor %e through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
    %ta = stn.load %th[%a, k] : !stn.field<Cell x K x f64>
    stn.yield %ta : f64
  } attributes {name = "flux"}
  %div = stn.apply on Cell[%lo : %hi] K[%c1 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %x = stn.load %flux[%e, k - 1] : !stn.temp<Edge x K x f64>
      stn.yield %x : f64
    }
    stn.yield %s : f64
  } attributes {name = "div"}
  stn.store %div to %out on Cell[%lo : %hi] K[%c1 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Two consumers: the hull of a centre read over [lo, hi) and a store over
// [lo2, hi2); a dynamic level offset needs all levels.
// CHECK-LABEL: stn.program @hull_and_dynamic
stn.program @hull_and_dynamic(%f: !stn.field<Cell x K x f64>, %off: !stn.field<Cell x K x i32>,
    %o1: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}, %o2: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %lo2: i32 {stn.name = "lo2"}, %hi2: i32 {stn.name = "hi2"}) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  // CHECK: %[[NLEV:.*]] = nlev : i32
  // CHECK: %[[MIN:.*]] = arith.minsi %lo, %lo2 : i32
  // CHECK: %[[MAX:.*]] = arith.maxsi %hi, %hi2 : i32
  // CHECK: %[[KMAX:.*]] = arith.maxsi %[[NLEV]], %{{.*}} : i32
  // CHECK: apply on Cell[%[[MIN]] : %[[MAX]]] K[%{{.*}} : %[[KMAX]]]
  %t = stn.apply on Cell -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %t to %o2 on Cell[%lo2 : %hi2] K[%c0 : %c2] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo : %hi] K[%c0 : %c2] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %d = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
    %v = stn.load %t[%p, k + %d] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %u to %o1 on Cell[%lo : %hi] K[%c0 : %c2] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A dynamic read of a half-level temporary computed from a full-level field
// read at K+1 needs every level the temporary can be computed at, [0, nlev-1),
// not its whole column of nlev+1 levels: past nlev-1 it would read %f outside
// the field (a fuzz find: an expression over full-level fields passed where a
// stencil takes a half-level field).
// CHECK-LABEL: stn.program @dynamic_read_of_narrower_temp
stn.program @dynamic_read_of_narrower_temp(%f: !stn.field<Cell x K x f64>,
    %off: !stn.field<Cell x KHalf x i32>, %o: !stn.field<Cell x KHalf x f64> {stn.intent = 1 : i32},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  // CHECK: arith.constant 2 : i32
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK: %[[NLEV:.*]] = nlev : i32
  // CHECK: %[[MINUS1:.*]] = arith.constant -1 : i32
  // CHECK: %[[END:.*]] = arith.addi %[[NLEV]], %[[MINUS1]] : i32
  // CHECK: apply on Cell[%lo : %hi] K[%[[ZERO]] : %[[END]]] -> !stn.temp<Cell x KHalf x f64>
  %t = stn.apply on Cell -> !stn.temp<Cell x KHalf x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k + 1] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  %u = stn.apply on Cell[%lo : %hi] K[%c0 : %c2] -> !stn.temp<Cell x KHalf x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %d = stn.load %off[%p, k] : !stn.field<Cell x KHalf x i32>
    %v = stn.load %t[%p, k + %d] : !stn.temp<Cell x KHalf x f64>
    stn.yield %v : f64
  }
  stn.store %u to %o on Cell[%lo : %hi] K[%c0 : %c2] : !stn.temp<Cell x KHalf x f64> to !stn.field<Cell x KHalf x f64>
  stn.return
}

// -----

// Unused applications are removed.
// CHECK-LABEL: stn.program @dead
// CHECK-NOT: apply
stn.program @dead(%f: !stn.field<Cell x K x f64>) {
  %t = stn.apply on Cell -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.return
}

// -----

// Refusal: a read at K-1 from an application starting at level 0.
stn.program @below_level_zero(%f: !stn.field<Cell x K x f64>, %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  %t = stn.apply on Cell -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "div"}
  %u = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    // expected-error @+1 {{'div' is read at K-1 but the application starts at level 0}}
    %v = stn.load %t[%p, k - 1] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %u to %o on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A temporary read at the centre by an application over a point list is
// computed at the list's entries too.
stn.connectivity @C2E2C : Cell -> Cell [3] skip

// CHECK-LABEL: stn.program @point_list_producer
// CHECK: apply on Cell at %arg0 -> !stn.temp<Cell x K x f64>
// CHECK: apply on Cell at %arg0 -> !stn.temp<Cell x K x f64>
stn.program @point_list_producer(%l: !stn.points<Cell>, %f: !stn.field<Cell x K x f64>,
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}) {
  %half = stn.apply on Cell -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  %t = stn.apply on Cell at %l -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %half[%p, k] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %t to %o on Cell at %l : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

stn.connectivity @C2E2C : Cell -> Cell [3] skip

// Read at a neighbour of an entry: which points that reaches is known only at
// run time.
stn.program @point_list_neighbour(%l: !stn.points<Cell>, %f: !stn.field<Cell x K x f64>,
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}) {
  %half = stn.apply on Cell -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "half"}
  %t = stn.apply on Cell at %l -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %c0 = arith.constant 0 : index
    %n = stn.neighbor %p through @C2E2C [%c0] : !stn.point<Cell> -> !stn.point<Cell>
    // expected-error @+1 {{'half' is read away from the entry of the point list being computed; pass it to the stencil as a field instead}}
    %v = stn.load %half[%n, k] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %t to %o on Cell at %l : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
