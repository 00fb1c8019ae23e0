// RUN: %fusec-opt %s -split-input-file -stn-merge-vertical -Rpass=stn-merge-vertical -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s

// Gradients on [1, nlev) and the update on [0, nlev) over the same cells
// become one application over [0, nlev); the gradient part runs only where
// k >= 1.
// CHECK-LABEL: stn.program @two_vertical_ranges
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[M:.*]]:2 = apply on Cell[%lo : %hi] K[%[[C0]] : %nlev]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: stn.load %w[%{{.*}}, k]
// CHECK-NEXT: %[[L:.*]] = stn.level
// CHECK-NEXT: arith.cmpi sge, %[[L]], %[[C1]]
// CHECK: scf.if
// CHECK: stn.load %w[%{{.*}}, k - 1]
// CHECK: } else {
// CHECK: store %[[M]]#0 to %a on Cell[%lo : %hi] K[%[[C0]] : %nlev]
// CHECK: store %[[M]]#1 to %b on Cell[%lo : %hi] K[%[[C1]] : %nlev]
stn.program @two_vertical_ranges(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %nlev: i32 {stn.name = "nlev"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @+1 {{merged 'update' and 'gradient' over the union of their levels}}
  %t = stn.apply on Cell[%lo : %hi] K[%c0 : %nlev] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "update"}
  stn.store %t to %a on Cell[%lo : %hi] K[%c0 : %nlev] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo : %hi] K[%c1 : %nlev] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k - 1] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "gradient"}
  stn.store %u to %b on Cell[%lo : %hi] K[%c1 : %nlev] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Refusal: different horizontal ranges stay apart.
// CHECK-LABEL: stn.program @different_horizontal
// CHECK: apply on Cell[%lo : %hi]
// CHECK: apply on Cell[%lo2 : %hi]
stn.program @different_horizontal(%w: !stn.field<Cell x K x f64>,
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}, %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32 {stn.name = "lo"}, %lo2: i32 {stn.name = "lo2"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32, %k2: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %t to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo2 : %hi] K[%k2 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %u to %b on Cell[%lo2 : %hi] K[%k2 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Refusal: the later part reads what the earlier part's store writes.
// CHECK-LABEL: stn.program @dependent
// CHECK: apply on Cell[%lo : %hi] K[%k0 : %k1]
// CHECK: store
// CHECK: apply on Cell[%lo : %hi] K[%k2 : %k1]
stn.program @dependent(%w: !stn.field<Cell x K x f64>, %a: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32 {stn.name = "k0"}, %k1: i32 {stn.name = "k1"}, %k2: i32 {stn.name = "k2"}) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %t to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  // expected-remark @+1 {{not merged with an unnamed application: a field it reads is written in between}}
  %u = stn.apply on Cell[%lo : %hi] K[%k2 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %a[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %u to %b on Cell[%lo : %hi] K[%k2 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Bounds compare by value, as the frontend builds them: one `arith.constant`
// and one `stn.nlev` per use, and `h + 1 - 1` for `h`. No CSE runs first.
// CHECK-LABEL: stn.program @frontend_constants
// CHECK: %[[M:.*]]:2 = apply on Cell
// CHECK-NOT: apply on
// CHECK: store %[[M]]#0 to %a
// CHECK: store %[[M]]#1 to %b
stn.program @frontend_constants(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %n0 = stn.nlev : i32
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{merged 'update' and 'gradient' over the union of their levels}}
  %t = stn.apply on Cell[%lo : %hi] K[%c0 : %n0] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "update"}
  stn.store %t to %a on Cell[%lo : %hi] K[%c0 : %n0] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %n1 = stn.nlev : i32
  %c1 = arith.constant 1 : i32
  %cm1 = arith.constant -1 : i32
  %lo1 = arith.addi %lo, %c1 : i32
  %lo2 = arith.addi %lo1, %cm1 : i32
  %u = stn.apply on Cell[%lo2 : %hi] K[%c1 : %n1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k - 1] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "gradient"}
  stn.store %u to %b on Cell[%lo2 : %hi] K[%c1 : %n1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Refusal with a reason: the two run under different conditions.
// CHECK-LABEL: stn.program @branches
// CHECK: scf.if
// CHECK: apply on Cell
// CHECK: apply on Cell
stn.program @branches(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %lo: i32, %hi: i32, %flag: i1) {
  %n = stn.nlev : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.if %flag {
    %t = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
      stn.yield %v : f64
    } attributes {name = "update"}
    stn.store %t to %a on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  }
  // expected-remark @+1 {{not merged with 'update': they run under different conditions (if branches)}}
  %u = stn.apply on Cell[%lo : %hi] K[%c1 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k - 1] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "gradient"}
  stn.store %u to %b on Cell[%lo : %hi] K[%c1 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
