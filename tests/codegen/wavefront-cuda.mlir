// RUN: %loops-cuda %s | not %fusec-translate --stn-to-cuda 2>&1 | FileCheck %s

// A wavefront is a schedule of the C++ backend (stn-wavefront makes it for the C++ target
// only): the CUDA emitter says so instead of printing the kernels without their group.

// CHECK: error: stn.wavefront is a schedule of the C++ backend
module attributes {stn.target = "cuda"} {
  stn.connectivity @C2E : Cell -> Edge [3]
  stn.program @group(%y: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "y"},
      %z: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "z"},
      %e0: i32 {stn.name = "e0"}, %e1: i32 {stn.name = "e1"},
      %c0: i32 {stn.name = "c0"}, %c1: i32 {stn.name = "c1"}) {
    %k0 = arith.constant 0 : i32
    %one = arith.constant 1.0 : f64
    %n = stn.nlev : i32
    stn.wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @C2E>] {
      stn.kernel "edges" on Edge[%e0 : %e1] K[%k0 : %n] attributes {stage = 0} {
      ^bb0(%e: !stn.point<Edge>):
        stn.write %one to %y at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
      stn.kernel "cells" on Cell[%c0 : %c1] K[%k0 : %n] attributes {stage = 1} {
      ^bb0(%c: !stn.point<Cell>):
        %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %x: !stn.point<Edge>):
          %f = stn.load %y[%x, k] : !stn.field<Edge x K x f64>
          stn.yield %f : f64
        }
        stn.write %s to %z at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
    }
    stn.return
  }
}
