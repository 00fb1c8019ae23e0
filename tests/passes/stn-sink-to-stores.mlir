// RUN: %fusec-opt %s -split-input-file -stn-sink-to-stores -Rpass=stn-sink-to-stores -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-sink-to-stores -stn-infer-domains -stn-lower-to-kernels | FileCheck %s --check-prefix=KERNELS

// w's update in diffusion_step (w read at its point) before the gradients
// (w read at neighbours): the update moves below the gradients, next to its
// store, and its kernel writes w without a buffer and a copy.
// CHECK-LABEL: stn.program @update_before_gradients
// CHECK: %[[GRAD:.*]] = apply
// CHECK: stn.reduce sum over @C2E2CO
// CHECK: %[[NEW:.*]] = apply
// CHECK-NEXT: ^bb0
// CHECK-NEXT: stn.load %[[W:.*]][%{{.*}}, k]
// CHECK: store %[[NEW]] to %[[W]]
// CHECK: store %[[GRAD]] to
// KERNELS-LABEL: stn.program @update_before_gradients
// KERNELS-NOT: copy_to_w
// KERNELS: kernel "gradients"
// KERNELS: kernel "update"
// KERNELS: stn.write %{{.*}} to %w at
// KERNELS-NOT: kernel
// KERNELS: return
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.program @update_before_gradients(%w: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "w"},
    %dwdx: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "dwdx"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %c2 = arith.constant 2.0 : f64
  // expected-remark @+1 {{moved down to its store: the kernel writes the field itself, without a buffer and a copy}}
  %new = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %x = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    %y = arith.mulf %x, %c2 : f64
    stn.yield %y : f64
  } attributes {name = "update"}
  %grad = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %w[%q, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    stn.yield %s : f64
  } attributes {name = "gradients"}
  stn.store %new to %w on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %grad to %dwdx on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A field the update reads is written in between: its reads cannot move past
// that store, so it stays where it is.
// CHECK-LABEL: stn.program @input_written_in_between
// CHECK: %[[NEW:.*]] = apply
// CHECK: %[[GRAD:.*]] = apply
// CHECK: store %[[GRAD]] to
// CHECK: store %[[NEW]] to
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.program @input_written_in_between(%w: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %v: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "v"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  // expected-remark @+1 {{not moved down to its store: 'v' it reads is written in between}}
  %new = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %x = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    %y = stn.load %v[%p, k] : !stn.field<Cell x K x f64>
    %z = arith.addf %x, %y : f64
    stn.yield %z : f64
  }
  %grad = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %w[%q, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    stn.yield %s : f64
  }
  stn.store %grad to %v on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %new to %w on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Left alone: the update reads w at neighbours (its kernel could not write w
// in any order), and an application whose result another one reads.
// CHECK-LABEL: stn.program @not_in_place
// CHECK: %[[SMOOTH:.*]] = apply
// CHECK: %[[GRAD:.*]] = apply
// CHECK: %[[TWICE:.*]] = apply
// CHECK: store %[[SMOOTH]] to
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.program @not_in_place(%w: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %dwdx: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %smooth = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %w[%q, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    stn.yield %s : f64
  }
  %grad = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %x = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %x : f64
  }
  %twice = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %x = stn.load %grad[%p, k] : !stn.temp<Cell x K x f64>
    %y = arith.addf %x, %x : f64
    stn.yield %y : f64
  }
  stn.store %smooth to %w on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %twice to %dwdx on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
