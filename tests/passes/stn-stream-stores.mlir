// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops -stn-stream-stores -Rpass=stn-stream-stores -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s

// In the columns layout a write that is the one write of its field in a loop
// over a point's levels, of a field the kernel does not read, is marked
// non-temporal; `vn`, read and written in place, keeps its ordinary stores,
// and so does the write of `lower` under a test in the loop (not every level
// of the loop's range is written).
// CHECK-LABEL: kernel "update"
// CHECK:      scf.for %[[H:.*]] =
// CHECK:        %[[P:.*]] = stn.point_at %[[H]] : <Edge>
// CHECK:        scf.for %[[K:.*]] =
// CHECK:          stn.write %{{.*}} to %out at %[[P]] : !stn.point<Edge> level %[[K]] {nontemporal} : f64, <Edge x K x f64>
// CHECK:          stn.write %{{.*}} to %vn at %[[P]] : !stn.point<Edge> level %[[K]] : f64, <Edge x K x f64>
// CHECK:          scf.if
// CHECK-NEXT:       stn.write %{{.*}} to %lower at %[[P]] : !stn.point<Edge> level %[[K]] : f64, <Edge x K x f64>
// CHECK:        } {stn.simd}
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @update(%vn: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "vn"},
      %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lower: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "lower"},
      %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    // expected-remark @+1 {{kernel 'update': 1 column write streamed past the cache, 1 kept in it for its own reads}}
    stn.kernel "update" on Edge[%lo : %hi] K[%zero : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %s = arith.mulf %v, %v : f64
      stn.write %s to %out at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      stn.write %s to %vn at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      %c = arith.constant 0.0 : f64
      %neg = arith.cmpf olt, %v, %c : f64
      scf.if %neg {
        stn.write %s to %lower at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
    }
    stn.return
  }
}

// -----

// In a wavefront, a field that a later stage reads (the folded `flux`) keeps
// ordinary stores, so that the stage finds it in the cache; `out`, which no
// stage reads, is streamed.
// CHECK-LABEL: kernel "flux"
// CHECK:        stn.write %{{.*}} to %{{.*}} at %{{.*}} : !stn.point<Edge> level %{{.*}} : f64, <Edge x K x f64>
// CHECK-LABEL: kernel "divergence"
// CHECK:        stn.write %{{.*}} to %out at %{{.*}} : !stn.point<Cell> level %{{.*}} {nontemporal} : f64, <Cell x K x f64>
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @E2C : Edge -> Cell [2]
  stn.connectivity @C2E : Cell -> Edge [3]

  stn.program @group(%theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %e0: i32 {stn.name = "e0"}, %e1: i32 {stn.name = "e1"},
      %c0: i32 {stn.name = "c0"}, %c1: i32 {stn.name = "c1"}) {
    %k0 = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    %n = stn.nlev : i32
    %flux = stn.alloc {name = "flux"} : !stn.field<Edge x K x f64>
    stn.wavefront tile(1024) min_levels(12) waits [gather<1 on 0 through @C2E>]
        folds [%flux : !stn.field<Edge x K x f64> [write<0>, gather<1 through @C2E>]] {
      // expected-remark @+1 {{kernel 'flux': 0 column writes streamed past the cache, 1 kept in it for stages of its wavefront}}
      stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %n] attributes {stage = 0 : i64} {
      ^bb0(%e: !stn.point<Edge>):
        %a = stn.neighbor %e through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
        %ta = stn.load %theta[%a, k] : !stn.field<Cell x K x f64>
        stn.write %ta to %flux at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
      // expected-remark @+1 {{kernel 'divergence': 1 column write streamed past the cache}}
      stn.kernel "divergence" on Cell[%c0 : %c1] K[%k0 : %n] attributes {stage = 1 : i64} {
      ^bb0(%c: !stn.point<Cell>):
        %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %x: !stn.point<Edge>):
          %f = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
          stn.yield %f : f64
        }
        stn.write %s to %out at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
    }
    stn.return
  }
}

// -----

// Other targets and layouts keep ordinary stores: the CUDA backend writes a
// point's levels from one thread, and in ICON's blocked layout a point's
// levels are not contiguous.
// CHECK-LABEL: kernel "cuda"
// CHECK-NOT:  nontemporal
// CHECK-LABEL: kernel "blocked"
// CHECK-NOT:  nontemporal
module attributes {stn.target = "cuda"} {
  stn.program @cuda(%t: !stn.field<Cell x K x f64> {stn.name = "t"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "cuda" on Cell[%lo : %hi] K[%zero : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %v = stn.load %t[%c, k] : !stn.field<Cell x K x f64>
      stn.write %v to %out at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

module attributes {stn.target = "cpp"} {
  stn.program @blocked(%t: !stn.field<Cell x K x f64> {stn.name = "t"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "blocked" on Cell[%lo : %hi] K[%zero : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %v = stn.load %t[%c, k] : !stn.field<Cell x K x f64>
      stn.write %v to %out at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}
