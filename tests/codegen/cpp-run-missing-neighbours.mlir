// RUN: %loops-cpp %s | %fusec-translate --stn-to-cpp -o %t.cpp
// RUN: %fusec-translate --stn-to-header %s -o %t.h
// RUN: g++ -std=c++17 -O2 -fopenmp -Wall -Werror -I %runtime_include -I %S/Inputs -include %t.h %t.cpp %S/Inputs/missing_neighbours_driver.cpp -o %t.exe
// RUN: env OMP_NUM_THREADS=2 %t.exe | FileCheck %s

// The C++ backend computes the semantics of missing neighbours exactly
// (docs/dialect.md), on the mesh of Inputs/tiny_mesh.h with nlev = 2,
// vn[e, k] = 10 (e + 1) + k and geofac[c, j] = (j + 1)(c + 1).

stn.connectivity @C2E : Cell -> Edge [3] skip
stn.connectivity @C2E2C : Cell -> Cell [3] skip
stn.connectivity @E2C : Edge -> Cell [2]

// Errors come back as status codes; a failed create leaves no instance.
// CHECK: run without an instance: 1
// CHECK-NEXT: create without C2E2C: 3 (a neighbour table the program needs is missing
// CHECK-SAME: instance null
// CHECK-NEXT: create: 0
// CHECK-NEXT: run on 4 of 3 cells: 5
// CHECK-NEXT: run: 0

// Reductions skip missing slots: c1 has two edges, c2 none (the identity).
// CHECK-NEXT: div    c0: 140 146 | c1: 280 288 | c2: 0 0
// CHECK-NEXT: vmax   c0: 30 31 | c1: 40 41 | c2: -inf -inf
// CHECK-NEXT: count  c0: 3 | c1: 2 | c2: 0
// The neighbour of a missing point is missing; a load there gives 0.
// CHECK-NEXT: idx    c0: -1 | c1: 0 | c2: 1
// CHECK-NEXT: ok     c0: 0 | c1: 1 | c2: 1
// CHECK-NEXT: far    c0: 0 0 | c1: 10 11 | c2: 20 21
// A reduction at a missing point gives the identity.
// CHECK-NEXT: around c0: 0 0 | c1: 60 63 | c2: 60 62
// Kernels run in order (avg reads div); level 0 is outside the domain.
// CHECK-NEXT: avg    e0: -1 214 | e1: -1 214 | e2: -1 70 | e3: -1 140
stn.program @missing(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
    %geo: !stn.field<Cell x C2E[3] x f64> {stn.name = "geofac"},
    %div: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "div"},
    %vmax: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "vmax"},
    %far: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "far"},
    %around: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "around"},
    %avg: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "avg"},
    %count: !stn.field<Cell x i32> {stn.intent = 1 : i32, stn.name = "count"},
    %idx: !stn.field<Cell x i32> {stn.intent = 1 : i32, stn.name = "idx"},
    %ok: !stn.field<Cell x i1> {stn.intent = 1 : i32, stn.name = "ok"},
    %cells: i32 {stn.name = "cells"}, %edges: i32 {stn.name = "edges"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  stn.kernel "cell_folds" on Cell[%c0 : %cells] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %s0 = arith.constant 0 : index
    %s2 = arith.constant 2 : index
    %d = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %g = stn.load %geo[%c, nbr %j] : !stn.field<Cell x C2E[3] x f64>
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %p = arith.mulf %g, %v : f64
      stn.yield %p : f64
    }
    stn.write %d to %div at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    %m = stn.reduce max over @C2E at %c : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      stn.yield %v : f64
    }
    stn.write %m to %vmax at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    %n1 = stn.neighbor %c through @C2E2C [%s2] : !stn.point<Cell> -> !stn.point<Cell>
    %e1 = stn.neighbor %n1 through @C2E [%s0] : !stn.point<Cell> -> !stn.point<Edge>
    %f = stn.load %vn[%e1, k] : !stn.field<Edge x K x f64>
    stn.write %f to %far at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    %a = stn.reduce sum over @C2E at %n1 : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      stn.yield %v : f64
    }
    stn.write %a to %around at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.kernel "cell_flat" on Cell[%c0 : %cells] {
  ^bb0(%c: !stn.point<Cell>):
    %s0 = arith.constant 0 : index
    %s2 = arith.constant 2 : index
    %one = arith.constant 1 : i32
    %cnt = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> i32 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      stn.yield %one : i32
    }
    stn.write %cnt to %count at %c : !stn.point<Cell> : i32, !stn.field<Cell x i32>
    %n1 = stn.neighbor %c through @C2E2C [%s2] : !stn.point<Cell> -> !stn.point<Cell>
    %i = stn.index %n1 : !stn.point<Cell>
    stn.write %i to %idx at %c : !stn.point<Cell> : i32, !stn.field<Cell x i32>
    %e1 = stn.neighbor %n1 through @C2E [%s0] : !stn.point<Cell> -> !stn.point<Edge>
    %v = stn.valid %e1 : !stn.point<Edge>
    stn.write %v to %ok at %c : !stn.point<Cell> : i1, !stn.field<Cell x i1>
  }
  stn.kernel "edge_avg" on Edge[%c0 : %edges] K[%c1 : %n] {
  ^bb0(%e: !stn.point<Edge>):
    %s0 = arith.constant 0 : index
    %s1 = arith.constant 1 : index
    %half = arith.constant 0.5 : f64
    %a = stn.neighbor %e through @E2C [%s0] : !stn.point<Edge> -> !stn.point<Cell>
    %b = stn.neighbor %e through @E2C [%s1] : !stn.point<Edge> -> !stn.point<Cell>
    %da = stn.load %div[%a, k - 1] : !stn.field<Cell x K x f64>
    %db = stn.load %div[%b, k] : !stn.field<Cell x K x f64>
    %s = arith.addf %da, %db : f64
    %r = arith.mulf %half, %s : f64
    stn.write %r to %avg at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}
