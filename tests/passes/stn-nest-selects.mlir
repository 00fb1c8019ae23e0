// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp -stn-nest-selects | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cuda -stn-nest-selects | FileCheck %s --check-prefix=CUDA

// A select on a conjunction in a C++ loop over points becomes a select on
// each test (GCC vectorises that, not the conjunction); the conjunction goes.
// CHECK-LABEL: kernel "inside"
// CHECK:       scf.for
// CHECK:         %[[ABOVE:.*]] = arith.cmpi sge
// CHECK-NEXT:    %[[BELOW:.*]] = arith.cmpi slt
// CHECK-NOT:     arith.andi
// CHECK:         %[[NEW:.*]] = stn.load %w
// CHECK-NEXT:    %[[OLD:.*]] = stn.load %u
// CHECK-NEXT:    %[[INNER:.*]] = arith.select %[[BELOW]], %[[NEW]], %[[OLD]] : f64
// CHECK-NEXT:    %[[R:.*]] = arith.select %[[ABOVE]], %[[INNER]], %[[OLD]] : f64
// CHECK-NEXT:    stn.write %[[R]] to %out
// CHECK:       } {stn.simd}
// CUDA-LABEL: kernel "inside"
// CUDA:         arith.andi
// CUDA:         arith.select
stn.program @conjunction(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %u: !stn.field<Cell x K x f64> {stn.name = "u"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32, %hi: i32, %first: i32, %last: i32) {
  %z = arith.constant 0 : i32
  %n = stn.nlev : i32
  stn.kernel "inside" on Cell[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Cell>):
    %h = stn.index %p : !stn.point<Cell>
    %above = arith.cmpi sge, %h, %first : i32
    %below = arith.cmpi slt, %h, %last : i32
    %inside = arith.andi %above, %below : i1
    %a = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    %b = stn.load %u[%p, k] : !stn.field<Cell x K x f64>
    %r = arith.select %inside, %a, %b : f64
    stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// A disjunction chooses the first value when either test holds; nested
// combinations come apart all the way down. A combined test with another
// use stays for it.
// CHECK-LABEL: kernel "outside"
// CHECK:         %[[BELOW:.*]] = arith.cmpi slt
// CHECK-NEXT:    %[[ABOVE:.*]] = arith.cmpi sge
// CHECK-NEXT:    %[[EDGE:.*]] = arith.cmpi eq
// CHECK-NEXT:    %[[EITHER:.*]] = arith.ori %[[BELOW]], %[[ABOVE]] : i1
// CHECK:         %[[NEW:.*]] = stn.load %w
// CHECK-NEXT:    %[[OLD:.*]] = stn.load %u
// CHECK-NEXT:    %[[S1:.*]] = arith.select %[[EDGE]], %[[NEW]], %[[OLD]] : f64
// CHECK-NEXT:    %[[S2:.*]] = arith.select %[[ABOVE]], %[[NEW]], %[[S1]] : f64
// CHECK-NEXT:    %[[S3:.*]] = arith.select %[[BELOW]], %[[NEW]], %[[S2]] : f64
// CHECK-NEXT:    stn.write %[[S3]] to %out
// CHECK-NEXT:    stn.write %[[EITHER]] to %flag
stn.program @disjunction(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %u: !stn.field<Cell x K x f64> {stn.name = "u"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %flag: !stn.field<Cell x K x i1> {stn.intent = 1 : i32, stn.name = "flag"},
    %lo: i32, %hi: i32, %first: i32, %last: i32) {
  %z = arith.constant 0 : i32
  %n = stn.nlev : i32
  stn.kernel "outside" on Cell[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Cell>):
    %h = stn.index %p : !stn.point<Cell>
    %below = arith.cmpi slt, %h, %first : i32
    %above = arith.cmpi sge, %h, %last : i32
    %edge = arith.cmpi eq, %h, %lo : i32
    %either = arith.ori %below, %above : i1
    %any = arith.ori %either, %edge : i1
    %a = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    %b = stn.load %u[%p, k] : !stn.field<Cell x K x f64>
    %r = arith.select %any, %a, %b : f64
    stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    stn.write %either to %flag at %p : !stn.point<Cell> : i1, !stn.field<Cell x K x i1>
  }
  stn.return
}
