// RUN: %fusec-opt %s -split-input-file -stn-column-order | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-column-order -stn-lower-to-kernels | FileCheck %s --check-prefix=KERNEL

// Reads of 2-D data and walks through a neighbour table are shared by the
// levels of a point: `column_order` counts their bytes per point, then the
// bytes of 3-D data a point reads and writes per level, each per evaluation
// (a fold over three neighbours: three table entries of 4 bytes, three 2-D
// values of 8 bytes where it reads one at each neighbour, three 3-D values
// of 8 bytes; the result: 8 bytes per level). The launcher weighs a level
// tile's worth against the L2 cache. One that reads only 3-D data at its
// point, and one without levels, get no attribute.
// CHECK-LABEL: stn.program @shared
// CHECK:       attributes {column_order = array<i64: 12, 32>, name = "gradient"}
// CHECK:       attributes {column_order = array<i64: 8, 16>, name = "area_scaled"}
// CHECK:       attributes {column_order = array<i64: 36, 32>, name = "area_gradient"}
// CHECK:       attributes {name = "copy"}
// CHECK:       apply on Cell[%lo : %hi] -> !stn.temp<Cell x f64>
// CHECK-NOT:   column_order
// KERNEL-LABEL: stn.program @shared
// KERNEL:       kernel "gradient"
// KERNEL-SAME:  attributes {column_order = array<i64: 12, 32>,
// KERNEL:       kernel "area_scaled"
// KERNEL-SAME:  attributes {column_order = array<i64: 8, 16>,
// KERNEL:       kernel "area_gradient"
// KERNEL-SAME:  attributes {column_order = array<i64: 36, 32>,
// KERNEL:       kernel "copy"
// KERNEL-NOT:   column_order
stn.connectivity @C2E2C : Cell -> Cell [3]
stn.program @shared(%f: !stn.field<Cell x K x f64>, %area: !stn.field<Cell x f64>,
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}, %o2: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %o3: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}, %o4: !stn.field<Cell x f64> {stn.intent = 1 : i32},
    %o5: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32 {stn.name = "k0"}, %k1: i32 {stn.name = "k1"}) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2C at %p : <Cell> -> f64 {
    ^bb0(%j: index, %n: !stn.point<Cell>):
      %v = stn.load %f[%n, k] : !stn.field<Cell x K x f64>
      stn.yield %v : f64
    }
    stn.yield %s : f64
  } attributes {name = "gradient"}
  stn.store %t to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %a = stn.load %area[%p] : !stn.field<Cell x f64>
    %r = arith.mulf %v, %a : f64
    stn.yield %r : f64
  } attributes {name = "area_scaled"}
  stn.store %u to %o2 on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %g = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2C at %p : <Cell> -> f64 {
    ^bb0(%j: index, %n: !stn.point<Cell>):
      %v = stn.load %f[%n, k] : !stn.field<Cell x K x f64>
      %a = stn.load %area[%n] : !stn.field<Cell x f64>
      %r = arith.mulf %v, %a : f64
      stn.yield %r : f64
    }
    stn.yield %s : f64
  } attributes {name = "area_gradient"}
  stn.store %g to %o5 on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %c = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "copy"}
  stn.store %c to %o3 on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %w = stn.apply on Cell[%lo : %hi] -> !stn.temp<Cell x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %area[%p] : !stn.field<Cell x f64>
    stn.yield %v : f64
  }
  stn.store %w to %o4 on Cell[%lo : %hi] : !stn.temp<Cell x f64> to !stn.field<Cell x f64>
  stn.return
}

// -----

// The C++ loop form runs a block of points' levels together already: the
// pass leaves modules for that target alone.
// CHECK-LABEL: stn.program @cpp_target
// CHECK-NOT:   column_order
// KERNEL-LABEL: stn.program @cpp_target
// KERNEL-NOT:   column_order
module attributes {stn.target = "cpp"} {
  stn.program @cpp_target(%area: !stn.field<Cell x f64>, %f: !stn.field<Cell x K x f64>,
      %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
      %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
      %a = stn.load %area[%p] : !stn.field<Cell x f64>
      %r = arith.mulf %v, %a : f64
      stn.yield %r : f64
    } attributes {name = "area_scaled"}
    stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}

