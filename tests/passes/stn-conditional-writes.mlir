// RUN: %fusec-opt %s -split-input-file -stn-conditional-writes | FileCheck %s
// RUN: %if valgrind %{ valgrind -q --error-exitcode=1 %fusec-opt %s -split-input-file -stn-conditional-writes -o /dev/null %}

// `dwdx = where(c, gradient, dwdx)`: written under `c` only, and the old value
// is no longer read. The gradient stays before the branch (the loop form
// hoists its level-independent parts).
// CHECK-LABEL: stn.program @keep
// CHECK:         kernel "grad"
// CHECK-NEXT:    ^bb0(%[[P:.*]]: !stn.point<Cell>):
// CHECK-NEXT:      %[[G:.*]] = stn.reduce sum over @C2E2C at %[[P]]
// CHECK:           scf.if %c {
// CHECK-NEXT:        stn.write %[[G]] to %dwdx at %[[P]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     stn.load %dwdx
stn.connectivity @C2E2C : Cell -> Cell [3]
stn.program @keep(%w: !stn.field<Cell x K x f64>, %dwdx: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "dwdx"},
    %c: i1 {stn.name = "c"}, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  kernel "grad" on Cell[%lo : %hi] K[%k0 : %k1] {
  ^bb0(%p: !stn.point<Cell>):
    %g = stn.reduce sum over @C2E2C at %p : <Cell> -> f64 {
    ^bb0(%j: index, %n: !stn.point<Cell>):
      %v = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
      stn.yield %v : f64
    }
    %old = stn.load %dwdx[%p, k] : !stn.field<Cell x K x f64>
    %r = arith.select %c, %g, %old : f64
    stn.write %r to %dwdx at %p : !stn.point<Cell> : f64, <Cell x K x f64>
  }
  stn.return
}

// -----

// A tree of selects: each other leaf is written under its conditions; the
// value in place on the true side writes on the false one. Two writes under
// the same condition share one branch.
// CHECK-LABEL: stn.program @tree
// CHECK:         %[[X:.*]] = arith.mulf %a, %b
// CHECK-NEXT:    %[[Y:.*]] = arith.addf %a, %b
// CHECK-NEXT:    scf.if %c1 {
// CHECK-NEXT:      stn.write %a to %f
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.if %c2 {
// CHECK-NEXT:        stn.write %b to %f
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %c3 {
// CHECK-NEXT:    } else {
// CHECK-NEXT:      stn.write %a to %g
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %c4 {
// CHECK-NEXT:      stn.write %[[X]] to %h1
// CHECK-NEXT:      stn.write %[[Y]] to %h2
// CHECK-NEXT:    }
// CHECK-NOT:     stn.load
stn.program @tree(%f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "f"},
    %g: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "g"},
    %h1: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "h1"},
    %h2: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "h2"},
    %a: f64 {stn.name = "a"}, %b: f64 {stn.name = "b"}, %c1: i1 {stn.name = "c1"},
    %c2: i1 {stn.name = "c2"}, %c3: i1 {stn.name = "c3"}, %c4: i1 {stn.name = "c4"}, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  kernel "tree" on Cell[%lo : %hi] K[%k0 : %k1] {
  ^bb0(%p: !stn.point<Cell>):
    %fo = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %inner = arith.select %c2, %b, %fo : f64
    %fr = arith.select %c1, %a, %inner : f64
    %go = stn.load %g[%p, k] : !stn.field<Cell x K x f64>
    %gr = arith.select %c3, %go, %a : f64
    %h1o = stn.load %h1[%p, k] : !stn.field<Cell x K x f64>
    %x = arith.mulf %a, %b : f64
    %h1r = arith.select %c4, %x, %h1o : f64
    %h2o = stn.load %h2[%p, k] : !stn.field<Cell x K x f64>
    %y = arith.addf %a, %b : f64
    %h2r = arith.select %c4, %y, %h2o : f64
    stn.write %fr to %f at %p : !stn.point<Cell> : f64, <Cell x K x f64>
    stn.write %gr to %g at %p : !stn.point<Cell> : f64, <Cell x K x f64>
    stn.write %h1r to %h1 at %p : !stn.point<Cell> : f64, <Cell x K x f64>
    stn.write %h2r to %h2 at %p : !stn.point<Cell> : f64, <Cell x K x f64>
  }
  stn.return
}

// -----

// A write of the value in place goes; a select without the value in place
// stays; an old value used elsewhere stays loaded.
// CHECK-LABEL: stn.program @others
// CHECK:         %[[OLD:.*]] = stn.load %f[%{{.*}}, k]
// CHECK:         %[[OTHER:.*]] = stn.load %other[%{{.*}}, k]
// CHECK:         %[[S:.*]] = arith.select %c, %a, %[[OTHER]]
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[OLD]], %a
// CHECK-NEXT:    stn.write %[[S]] to %f
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      stn.write %a to %g
// CHECK-NEXT:    }
// CHECK-NEXT:    stn.write %[[SUM]] to %out
// CHECK-NOT:     stn.write {{.*}} to %h
stn.program @others(%f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "f"},
    %g: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "g"},
    %h: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "h"},
    %other: !stn.field<Cell x K x f64> {stn.name = "other"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %a: f64 {stn.name = "a"}, %c: i1 {stn.name = "c"}, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  kernel "others" on Cell[%lo : %hi] K[%k0 : %k1] {
  ^bb0(%p: !stn.point<Cell>):
    %old = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %ot = stn.load %other[%p, k] : !stn.field<Cell x K x f64>
    %s = arith.select %c, %a, %ot : f64
    %go = stn.load %g[%p, k] : !stn.field<Cell x K x f64>
    %gs = arith.select %c, %a, %go : f64
    %ho = stn.load %h[%p, k] : !stn.field<Cell x K x f64>
    %sum = arith.addf %old, %a : f64
    stn.write %s to %f at %p : !stn.point<Cell> : f64, <Cell x K x f64>
    stn.write %gs to %g at %p : !stn.point<Cell> : f64, <Cell x K x f64>
    stn.write %ho to %h at %p : !stn.point<Cell> : f64, <Cell x K x f64>
    stn.write %sum to %out at %p : !stn.point<Cell> : f64, <Cell x K x f64>
  }
  stn.return
}

// -----

// A select of the value in place on both sides only restores it.
// CHECK-LABEL: stn.program @both_sides
// CHECK:         kernel "both"
// CHECK-NEXT:    ^bb0(%{{.*}}: !stn.point<Cell>):
// CHECK-NEXT:    }
stn.program @both_sides(%f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32}, %c: i1,
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  kernel "both" on Cell[%lo : %hi] K[%k0 : %k1] {
  ^bb0(%p: !stn.point<Cell>):
    %old = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %s = arith.select %c, %old, %old : f64
    stn.write %s to %f at %p : !stn.point<Cell> : f64, <Cell x K x f64>
  }
  stn.return
}

// -----

// The value in place on both false sides of a select tree (found by fusec-fuzz): erasing
// the dead tree reaches the load through both selects and must erase it once (valgrind
// checks that above).
// CHECK-LABEL: stn.program @shared_old_value
// CHECK:         %[[BOTH:.*]] = arith.andi %c1, %c2
// CHECK-NEXT:    scf.if %[[BOTH]] {
// CHECK-NEXT:      stn.write %a to %f
// CHECK-NEXT:    }
// CHECK-NOT:     stn.load
// CHECK-NOT:     arith.select
stn.program @shared_old_value(%f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "f"},
    %a: f64 {stn.name = "a"}, %c1: i1 {stn.name = "c1"}, %c2: i1 {stn.name = "c2"}, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  kernel "shared" on Cell[%lo : %hi] K[%k0 : %k1] {
  ^bb0(%p: !stn.point<Cell>):
    %old = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %inner = arith.select %c2, %a, %old : f64
    %outer = arith.select %c1, %inner, %old : f64
    stn.write %outer to %f at %p : !stn.point<Cell> : f64, <Cell x K x f64>
  }
  stn.return
}

// -----

// C++ keeps the select: its omp simd loops vectorise it without a branch.
// CHECK-LABEL: stn.program @cpp_target
// CHECK:         arith.select
// CHECK-NOT:     scf.if
module attributes {stn.target = "cpp"} {
  stn.program @cpp_target(%f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32}, %a: f64, %c: i1,
      %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
    kernel "cpp" on Cell[%lo : %hi] K[%k0 : %k1] {
    ^bb0(%p: !stn.point<Cell>):
      %old = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
      %s = arith.select %c, %a, %old : f64
      stn.write %s to %f at %p : !stn.point<Cell> : f64, <Cell x K x f64>
    }
    stn.return
  }
}
