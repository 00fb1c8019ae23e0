// RUN: %fusec-opt %s -stn-k-blocking="block=8" | FileCheck %s
// RUN: %fusec-opt %s -stn-k-blocking="block=2 stencils=nabla.*" | FileCheck %s --check-prefix=ONLY
// RUN: not %fusec-opt %s -stn-k-blocking="block=0" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %fusec-opt %s -stn-k-blocking="block=4 carry=false" | FileCheck %s --check-prefix=RELOAD
// RUN: %fusec-opt %s -stn-k-blocking="block=4 carry=false" -stn-lower-to-kernels | FileCheck %s --check-prefix=RELOAD-KERNEL

// CHECK-LABEL: stn.program @levels
// CHECK: attributes {kblock = 8 : i64, name = "nabla2"}
// CHECK: attributes {kblock = 8 : i64, name = "scale"}
// CHECK: apply on Cell[%lo : %hi] -> !stn.temp<Cell x f64>
// CHECK-NOT: kblock
// ONLY: attributes {kblock = 2 : i64, name = "nabla2"}
// ONLY: attributes {name = "scale"}
// BAD: stn-k-blocking: block must be at least 1
// With carry=false the emitters recompute values the level below computed.
// RELOAD: attributes {kblock = 4 : i64, name = "nabla2", no_level_carry}
// RELOAD-KERNEL: kernel "nabla2"
// RELOAD-KERNEL-SAME: attributes {kblock = 4 : i64, no_level_carry}
stn.program @levels(%f: !stn.field<Cell x K x f64>, %g: !stn.field<Cell x f64>,
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}, %o2: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %o3: !stn.field<Cell x f64> {stn.intent = 1 : i32},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "nabla2"}
  stn.store %t to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k + 1] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "scale"}
  stn.store %u to %o2 on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %w = stn.apply on Cell[%lo : %hi] -> !stn.temp<Cell x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %g[%p] : !stn.field<Cell x f64>
    stn.yield %v : f64
  }
  stn.store %w to %o3 on Cell[%lo : %hi] : !stn.temp<Cell x f64> to !stn.field<Cell x f64>
  stn.return
}
