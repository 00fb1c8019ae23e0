// RUN: %fusec-opt %s -split-input-file -stn-uniform-if | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-uniform-if -stn-lower-to-kernels | FileCheck %s --check-prefix=KERNEL

stn.connectivity @C2E2CO : Cell -> Cell [4]

// A select on a scalar argument: the reduction and the load only the true
// side needs run in its branch; the load both sides use stays before it.
// CHECK-LABEL: stn.program @scalar_condition
// CHECK-SAME: %[[FLAG:arg[0-9]+]]: i1
// CHECK: apply on Cell
// CHECK-NEXT: ^bb0(%[[P:.*]]: !stn.point<Cell>):
// CHECK-NEXT: %[[SHARED:.*]] = stn.load %{{.*}}[%[[P]], k]
// CHECK-NEXT: %[[R:.*]] = scf.if %[[FLAG]] -> (f64) {
// CHECK-NEXT: stn.load %{{.*}}[%[[P]], k]
// CHECK-NEXT: stn.reduce sum over @C2E2CO
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[SHARED]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: stn.yield %[[R]] : f64
// CHECK-NOT: arith.select
// KERNEL-LABEL: stn.program @scalar_condition
// KERNEL: scf.if %{{.*}} -> (f64)
stn.program @scalar_condition(%f: !stn.field<Cell x K x f64>, %g: !stn.field<Cell x K x f64>,
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %flag: i1, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %a = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %b = stn.load %g[%p, k] : !stn.field<Cell x K x f64>
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %f[%q, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    %c = arith.addf %s, %b : f64
    %d = arith.addf %c, %a : f64
    %r = arith.select %flag, %d, %a : f64
    stn.yield %r : f64
  } attributes {name = "steep"}
  stn.store %t to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A condition computed in the body from a scalar and a constant is uniform;
// nlev is too.
// CHECK-LABEL: stn.program @computed_condition
// CHECK-SAME: %[[X:arg[0-9]+]]: f64
// CHECK: %[[LIMIT:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : f64
// CHECK: %[[BOTH:.*]] = arith.andi %[[LIMIT]], %{{.*}} : i1
// CHECK: scf.if %[[BOTH]] -> (f64) {
// CHECK: arith.mulf
// CHECK: } else {
// CHECK: arith.negf
// CHECK-NOT: arith.select
stn.program @computed_condition(%f: !stn.field<Cell x K x f64>,
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %x: f64, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zero = arith.constant 0.0 : f64
    %limit = arith.cmpf ogt, %x, %zero : f64
    %n = stn.nlev : i32
    %eighty = arith.constant 80 : i32
    %deep = arith.cmpi sge, %n, %eighty : i32
    %both = arith.andi %limit, %deep : i1
    %a = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %root = arith.mulf %a, %a : f64
    %minus = arith.negf %a : f64
    %r = arith.select %both, %root, %minus : f64
    stn.yield %r : f64
  }
  stn.store %t to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Conditions that differ between points or levels stay selects: a loaded
// value, and the level (stn.level has no operands but is not uniform).
// CHECK-LABEL: stn.program @varying_conditions
// CHECK-NOT: scf.if
// CHECK: arith.select
// CHECK: arith.select
// CHECK-NOT: scf.if
stn.program @varying_conditions(%f: !stn.field<Cell x K x f64>,
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %a = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %zero = arith.constant 0.0 : f64
    %positive = arith.cmpf ogt, %a, %zero : f64
    %root = arith.mulf %a, %a : f64
    %r = arith.select %positive, %root, %zero : f64
    %level = stn.level
    %ten = arith.constant 10 : i32
    %low = arith.cmpi slt, %level, %ten : i32
    %minus = arith.negf %r : f64
    %s = arith.select %low, %minus, %r : f64
    stn.yield %s : f64
  }
  stn.store %t to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Nothing only one side needs: both operands are used elsewhere too.
// CHECK-LABEL: stn.program @nothing_to_move
// CHECK-SAME: %[[FLAG:arg[0-9]+]]: i1
// CHECK-NOT: scf.if
// CHECK: arith.select %[[FLAG]]
stn.program @nothing_to_move(%f: !stn.field<Cell x K x f64>, %g: !stn.field<Cell x K x f64>,
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %flag: i1, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %a = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %b = stn.load %g[%p, k] : !stn.field<Cell x K x f64>
    %r = arith.select %flag, %a, %b : f64
    %s = arith.addf %r, %a : f64
    %u = arith.addf %s, %b : f64
    stn.yield %u : f64
  }
  stn.store %t to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A condition that is a conjunction with a uniform operand (`type_shear == 2
// && k > 0`): the uniform operand branches, the rest stays a select inside the
// branch taken when it holds; otherwise the false side is the result, and the
// gradient only the other side needs is not computed.
// CHECK-LABEL: stn.program @uniform_operand
// CHECK-SAME: %[[DWDX:arg[0-9]+]]: !stn.field<Cell x K x f64> {stn.intent = 2 : i32}, %[[FLAG:arg[0-9]+]]: i1
// CHECK:      %[[OLD:.*]] = stn.load %[[DWDX]]
// CHECK:      scf.if %[[FLAG]] -> (f64) {
// CHECK:        %[[ABOVE:.*]] = arith.cmpi sgt
// CHECK:        %[[G:.*]] = stn.reduce
// CHECK:        %[[S:.*]] = arith.select %[[ABOVE]], %[[G]], %[[OLD]] : f64
// CHECK-NEXT:   scf.yield %[[S]] : f64
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %[[OLD]] : f64
// CHECK-NEXT: }
stn.connectivity @C2E2C : Cell -> Cell [3]
stn.program @uniform_operand(%w: !stn.field<Cell x K x f64>,
    %dwdx: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %flag: i1, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %level = stn.level
    %zero = arith.constant 0 : i32
    %above = arith.cmpi sgt, %level, %zero : i32
    %both = arith.andi %flag, %above : i1
    %g = stn.reduce sum over @C2E2C at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %n: !stn.point<Cell>):
      %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    %old = stn.load %dwdx[%p, k] : !stn.field<Cell x K x f64>
    %r = arith.select %both, %g, %old : f64
    stn.yield %r : f64
  }
  stn.store %t to %dwdx on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
