// RUN: %loops-cpp %s | %fusec-translate --stn-to-cpp -o %t.cpp
// RUN: %fusec-translate --stn-to-header %s -o %t.h
// RUN: g++ -std=c++17 -O2 -fopenmp -Wall -Werror -I %runtime_include -I %S/Inputs -include %t.h %t.cpp %S/Inputs/program_driver.cpp -o %t.exe
// RUN: env OMP_NUM_THREADS=2 %t.exe | FileCheck %s
// The CUDA of the same program, run on the host (cuda-host) with a non-blocking stream: the same
// results, and every copy and fill of setup is ordered on the caller's stream.
// RUN: %loops-cuda %s | %fusec-translate --stn-to-cuda -o %t.cu
// RUN: g++ -std=c++17 -O2 -Wall -Werror -DFUSEC_CUDA_HOST -I %runtime_include/fusec/cuda_host -I %runtime_include -I %S/Inputs -include %t.h -x c++ %t.cu -x none %S/Inputs/program_driver.cpp -o %t.cuda.exe
// RUN: env FUSEC_CUDA_HOST_ORDER=shuffled %t.cuda.exe | FileCheck %s

// A program body on the host, run twice on the mesh of Inputs/tiny_mesh.h
// with nlev = 3 and a[c, k] = c + 10 k + 1: stn.image bounds a kernel, scf.if
// picks a kernel and a level, the buffer lives from setup to free (zero at
// first, keeping what a run does not overwrite), kblock = 2 tiles three
// levels, the exchange callback sees the fields, and half-level and
// vertical-only kernels cover nlev + 1 and nlev levels.

stn.connectivity @C2E2C : Cell -> Cell [3] skip

// Run 1 (up, scale 2, cells [2, 3) whose C2E2C image is [0, 2)):
// CHECK: exchange in pipeline: 2 fields
// CHECK-NEXT: out: f32, location 0, 3 levels, 0 neighbours, ld 3, the caller's array
// CHECK-NEXT: scaled: f32, location 0, 3 levels, 0 neighbours, ld 3, a buffer
// CHECK-NEXT: run 1: 0
// CHECK-NEXT: scaled c0: 2 22 42 | c1: 4 24 44 | c2: 0 0 0
// CHECK-NEXT: out    c0: 22 42 22 | c1: 24 44 24 | c2: 0 0 0
// CHECK-NEXT: w      c0: 0 1 2 3 | c1: 100 101 102 103 | c2: 200 201 202 203
// CHECK-NEXT: prof   0 1.5 3

// Run 2 (not up: cells [1, 2) whose image is [0, 1) are negated, and the
// shift starts at level 1, so out keeps level 0 of run 1):
// CHECK-NEXT: exchange in pipeline: 2 fields
// CHECK: run 2: 0
// CHECK-NEXT: scaled c0: -1 -11 -21 | c1: 4 24 44 | c2: 0 0 0
// CHECK-NEXT: out    c0: 22 -21 -11 | c1: 24 44 24 | c2: 0 0 0

// A failing callback fails the run.
// CHECK-NEXT: exchange in pipeline: 2 fields
// CHECK: run 3: 6
stn.program @pipeline(%a: !stn.field<Cell x K x f32> {stn.name = "a"},
    %out: !stn.field<Cell x K x f32> {stn.intent = 2 : i32, stn.name = "out"},
    %w: !stn.field<Cell x KHalf x f64> {stn.intent = 1 : i32, stn.name = "w"},
    %prof: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "prof"},
    %up: i1 {stn.name = "up"}, %scale: f32 {stn.name = "scale"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %cells: i32 {stn.name = "cells"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  %n1 = arith.addi %n, %c1 : i32
  %buf = stn.alloc {name = "scaled"} : !stn.field<Cell x K x f32>
  %ilo, %ihi = stn.image %lo, %hi through @C2E2C
  %kstart = scf.if %up -> i32 {
    stn.kernel "scale_up" on Cell[%ilo : %ihi] K[%c0 : %n] attributes {kblock = 2} {
    ^bb0(%c: !stn.point<Cell>):
      %v = stn.load %a[%c, k] : !stn.field<Cell x K x f32>
      %s = arith.mulf %v, %scale : f32
      stn.write %s to %buf at %c : !stn.point<Cell> : f32, !stn.field<Cell x K x f32>
    }
    scf.yield %c0 : i32
  } else {
    stn.kernel "negate" on Cell[%ilo : %ihi] K[%c0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %v = stn.load %a[%c, k] : !stn.field<Cell x K x f32>
      %s = arith.negf %v : f32
      stn.write %s to %buf at %c : !stn.point<Cell> : f32, !stn.field<Cell x K x f32>
    }
    scf.yield %c1 : i32
  }
  %top = arith.subi %n, %c1 : i32
  stn.kernel "shift" on Cell[%c0 : %cells] K[%kstart : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %l = stn.level
    %last = arith.cmpi eq, %l, %top : i32
    %off = scf.if %last -> i32 {
      %m1 = arith.constant -1 : i32
      scf.yield %m1 : i32
    } else {
      %p1 = arith.constant 1 : i32
      scf.yield %p1 : i32
    }
    %v = stn.load %buf[%c, k + %off] : !stn.field<Cell x K x f32>
    stn.write %v to %out at %c : !stn.point<Cell> : f32, !stn.field<Cell x K x f32>
  }
  stn.kernel "interfaces" on Cell[%c0 : %cells] K[%c0 : %n1] {
  ^bb0(%c: !stn.point<Cell>):
    %hundred = arith.constant 100 : i32
    %i = stn.index %c : !stn.point<Cell>
    %l = stn.level
    %ih = arith.muli %i, %hundred : i32
    %v = arith.addi %ih, %l : i32
    %f = arith.sitofp %v : i32 to f64
    stn.write %f to %w at %c : !stn.point<Cell> : f64, !stn.field<Cell x KHalf x f64>
  }
  stn.kernel "profile" on K[%c0 : %n] {
    %l = stn.level
    %f = arith.sitofp %l : i32 to f64
    %step = arith.constant 1.5 : f64
    %p = arith.mulf %f, %step : f64
    stn.write %p to %prof : f64, !stn.field<K x f64>
  }
  stn.exchange %out, %buf : !stn.field<Cell x K x f32>, !stn.field<Cell x K x f32>
  stn.return
}
