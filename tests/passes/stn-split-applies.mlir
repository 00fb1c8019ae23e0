// RUN: %fusec-opt %s -split-input-file -stn-split-applies -Rpass=stn-split-applies -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s

// Three outputs selected from separate reads (the w stencil's return) become
// three applications; the level test they share is copied into each.
// CHECK-LABEL: stn.program @independent_results
// CHECK: %[[A:.*]] = apply on Cell[%lo : %hi] K[%{{.*}}] -> !stn.temp<Cell x K x f64> {
// CHECK: stn.level
// CHECK: stn.load %u[
// CHECK-NOT: stn.load
// CHECK: } attributes {name = "select"}
// CHECK: %[[B:.*]] = apply on Cell[%lo : %hi] K[%{{.*}}] -> !stn.temp<Cell x K x f64> {
// CHECK: stn.level
// CHECK: stn.load %v[
// CHECK-NOT: stn.load
// CHECK: } attributes {name = "select"}
// CHECK: %[[C:.*]] = apply on Cell[%lo : %hi] K[%{{.*}}] -> !stn.temp<Cell x K x f64> {
// CHECK-NOT: stn.level
// CHECK: stn.load %s[
// CHECK: } attributes {name = "select"}
// CHECK: store %[[A]] to %a
// CHECK: store %[[B]] to %b
// CHECK: store %[[C]] to %c
stn.program @independent_results(%u: !stn.field<Cell x K x f64> {stn.name = "u"},
    %v: !stn.field<Cell x K x f64> {stn.name = "v"},
    %s: !stn.field<Cell x f64> {stn.name = "s"},
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %c: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "c"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
  // expected-remark @+1 {{split into 3 applications by results {0} {1} {2}: no read is shared between them}}
  %r:3 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1]
      -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zero = arith.constant 0.0 : f64
    %c0 = arith.constant 0 : i32
    %k = stn.level
    %top = arith.cmpi eq, %k, %c0 : i32
    %x = stn.load %u[%p, k] : !stn.field<Cell x K x f64>
    %xs = arith.select %top, %x, %zero : f64
    %y = stn.load %v[%p, k] : !stn.field<Cell x K x f64>
    %ys = arith.select %top, %y, %zero : f64
    %z = stn.load %s[%p] : !stn.field<Cell x f64>
    stn.yield %xs, %ys, %z : f64, f64, f64
  } attributes {name = "select"}
  stn.store %r#0 to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %r#1 to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %r#2 to %c on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Two gradient components are two folds over one table reading the same
// field at the neighbours: they read the same memory and stay together, while
// the third result, read from elsewhere, becomes its own application.
// CHECK-LABEL: stn.program @shared_gathers
// CHECK: apply on Cell[%lo : %hi] K[%{{.*}}] -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
// CHECK-COUNT-2: stn.reduce sum over @C2E2CO
// CHECK: } attributes {name = "gradients"}
// CHECK: apply on Cell[%lo : %hi] K[%{{.*}}] -> !stn.temp<Cell x K x f64> {
// CHECK-NOT: stn.reduce
// CHECK: stn.load %u[
// CHECK: } attributes {name = "gradients"}
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.program @shared_gathers(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %gx: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "gx"},
    %gy: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "gy"},
    %u: !stn.field<Cell x K x f64> {stn.name = "u"},
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %c: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "c"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
  // expected-remark @+1 {{split into 2 applications by results {0, 1} {2}}}
  %r:3 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1]
      -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %dx = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %n: !stn.point<Cell>):
      %g = stn.load %gx[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
      %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
      %m = arith.mulf %g, %x : f64
      stn.yield %m : f64
    }
    %dy = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %n: !stn.point<Cell>):
      %g = stn.load %gy[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
      %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
      %m = arith.mulf %g, %x : f64
      stn.yield %m : f64
    }
    %z = stn.load %u[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %dx, %dy, %z : f64, f64, f64
  } attributes {name = "gradients"}
  stn.store %r#0 to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %r#1 to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %r#2 to %c on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// One read used by both results: nothing to split.
// CHECK-LABEL: stn.program @one_read_two_results
// CHECK: %[[R:.*]]:2 = apply
// CHECK-NOT: apply
// CHECK: store %[[R]]#0
stn.program @one_read_two_results(%u: !stn.field<Cell x K x f64> {stn.name = "u"},
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
  %r:2 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1]
      -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %x = stn.load %u[%p, k] : !stn.field<Cell x K x f64>
    %y = arith.mulf %x, %x : f64
    stn.yield %x, %y : f64, f64
  } attributes {name = "square"}
  stn.store %r#0 to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %r#1 to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
