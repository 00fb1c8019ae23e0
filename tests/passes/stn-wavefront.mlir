// RUN: %fusec-opt %s -split-input-file -stn-wavefront -Rpass=stn-wavefront -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-wavefront="fold=false" | FileCheck %s --check-prefix=NOFOLD
// NOFOLD-NOT: folds [

// A flux on edges from the cells of E2C, then an update of the cells that sums
// the flux of their edges (C2E) and overwrites theta in place, which the flux
// read through E2C: the update gathers through C2E and scatters through E2C.
// The scalar op between them moves before the group; the update's two
// versions on the sides of a branch share stage 1. The flux, a buffer only the
// group uses, is folded: stage 0 writes it, stage 1 gathers it through C2E.
// CHECK-LABEL: stn.program @flux_update
// CHECK:      %[[FLUX:.*]] = alloc {name = "flux"}
// CHECK:      %[[HALF:.*]] = arith.mulf
// CHECK-NEXT: wavefront tile(1024) min_levels(12) waits [gather<1 on 0 through @C2E>, scatter<1 on 0 through @E2C>]
// CHECK-SAME:   folds [%[[FLUX]] : !stn.field<Edge x K x f64> [write<0>, gather<1 through @C2E>]] {
// CHECK-NEXT:   stn.kernel "flux" {{.*}} attributes {kblock = 1 : i64, stage = 0 : i64}
// CHECK:        scf.if %strong {
// CHECK-NEXT:     stn.kernel "update" {{.*}} attributes {kblock = 1 : i64, stage = 1 : i64}
// CHECK:        } else {
// CHECK-NEXT:     stn.kernel "update_weak" {{.*}} attributes {kblock = 1 : i64, stage = 1 : i64}
// CHECK:      return
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @E2C : Edge -> Cell [2]
  stn.connectivity @C2E : Cell -> Edge [3]
  stn.program @flux_update(%theta: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "theta"},
      %strong: i1 {stn.name = "strong"}, %w: f64 {stn.name = "w"},
      %e0: i32 {stn.name = "e0"}, %e1: i32 {stn.name = "e1"},
      %c0: i32 {stn.name = "c0"}, %c1: i32 {stn.name = "c1"}) {
    %k0 = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %n = stn.nlev : i32
    %flux = stn.alloc {name = "flux"} : !stn.field<Edge x K x f64>
    // expected-remark @+1 {{wavefront of 2 stages: 'flux' (stage 0) 'update' (stage 1) 'update_weak' (stage 1); folds 'flux'}}
    stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %a = stn.neighbor %e through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
      %b = stn.neighbor %e through @E2C [%i1] : !stn.point<Edge> -> !stn.point<Cell>
      %ta = stn.load %theta[%a, k] : !stn.field<Cell x K x f64>
      %tb = stn.load %theta[%b, k] : !stn.field<Cell x K x f64>
      %d = arith.subf %tb, %ta : f64
      stn.write %d to %flux at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    %half = arith.mulf %w, %w : f64
    scf.if %strong {
      stn.kernel "update" on Cell[%c0 : %c1] K[%k0 : %n] {
      ^bb0(%c: !stn.point<Cell>):
        %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %x: !stn.point<Edge>):
          %f = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
          stn.yield %f : f64
        }
        %t = stn.load %theta[%c, k] : !stn.field<Cell x K x f64>
        %u = arith.addf %t, %s : f64
        stn.write %u to %theta at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
    } else {
      stn.kernel "update_weak" on Cell[%c0 : %c1] K[%k0 : %n] {
      ^bb0(%c: !stn.point<Cell>):
        %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %x: !stn.point<Edge>):
          %f = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
          stn.yield %f : f64
        }
        %t = stn.load %theta[%c, k] : !stn.field<Cell x K x f64>
        %v = arith.mulf %s, %half : f64
        %u = arith.addf %t, %v : f64
        stn.write %u to %theta at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
    }
    stn.return
  }
}

// -----

// A kernel that does not depend on the group ends it and starts the next; a
// kernel that reads a field of the group through two tables ends it too. A
// write after write of the same points is `same`.
// CHECK-LABEL: stn.program @ends
// CHECK:      wavefront tile(1024) min_levels(12) waits [same<1 on 0>] {
// CHECK-NEXT:   stn.kernel "first"
// CHECK:        stn.kernel "overwrite"
// CHECK:      wavefront tile(1024) min_levels(12) waits [gather<1 on 0 through @C2E>] {
// CHECK-NEXT:   stn.kernel "other"
// CHECK:        stn.kernel "reader"
// CHECK:      kernel "two_tables" {{.*}} attributes {kblock = 1 : i64} {
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @E2C : Edge -> Cell [2]
  stn.connectivity @C2E : Cell -> Edge [3]
  stn.program @ends(%x: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "x"},
      %y: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "y"},
      %z: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "z"},
      %zz: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "zz"},
      %e0: i32 {stn.name = "e0"}, %e1: i32 {stn.name = "e1"},
      %c0: i32 {stn.name = "c0"}, %c1: i32 {stn.name = "c1"}) {
    %k0 = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f64
    %n = stn.nlev : i32
    // expected-remark @+1 {{wavefront of 2 stages: 'first' (stage 0) 'overwrite' (stage 1); it ends because 'other' does not depend on the group}}
    stn.kernel "first" on Cell[%c0 : %c1] K[%k0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      stn.write %one to %x at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.kernel "overwrite" on Cell[%c0 : %c1] K[%k0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %v = stn.load %z[%c, k] : !stn.field<Cell x K x f64>
      stn.write %v to %x at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    // expected-remark @+1 {{wavefront of 2 stages: 'other' (stage 0) 'reader' (stage 1); it ends because 'two_tables' reaches 'y' of 'other' through two tables}}
    stn.kernel "other" on Edge[%e0 : %e1] K[%k0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %y at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.kernel "reader" on Cell[%c0 : %c1] K[%k0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x2: !stn.point<Edge>):
        %f = stn.load %y[%x2, k] : !stn.field<Edge x K x f64>
        stn.yield %f : f64
      }
      stn.write %s to %z at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.kernel "two_tables" on Edge[%e0 : %e1] K[%k0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %a = stn.neighbor %e through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
      %b = stn.neighbor %a through @C2E [%i0] : !stn.point<Cell> -> !stn.point<Edge>
      %v = stn.load %y[%b, k] : !stn.field<Edge x K x f64>
      stn.write %v to %zz at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.return
  }
}

// -----

// Only the C++ target's columns layout runs wavefronts: elsewhere nothing changes.
// CHECK-LABEL: stn.program @cuda
// CHECK-NOT:  wavefront
module attributes {stn.target = "cuda"} {
  stn.connectivity @C2E : Cell -> Edge [3]
  stn.program @cuda(%y: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "y"},
      %z: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "z"},
      %e0: i32 {stn.name = "e0"}, %e1: i32 {stn.name = "e1"},
      %c0: i32 {stn.name = "c0"}, %c1: i32 {stn.name = "c1"}) {
    %k0 = arith.constant 0 : i32
    %one = arith.constant 1.0 : f64
    %n = stn.nlev : i32
    stn.kernel "other" on Edge[%e0 : %e1] K[%k0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %y at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.kernel "reader" on Cell[%c0 : %c1] K[%k0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x2: !stn.point<Edge>):
        %f = stn.load %y[%x2, k] : !stn.field<Edge x K x f64>
        stn.yield %f : f64
      }
      stn.write %s to %z at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// A kernel on a point list between the flux and the update that reads theta
// and writes its own buffer commutes with the flux: it moves before the group
// (theta's correction at the steep points in diffusion). One that reads what
// the group wrote does not, and ends it.
// CHECK-LABEL: stn.program @ahead
// CHECK:      scf.if %b {
// CHECK-NEXT:   stn.kernel "at_list"
// CHECK:      wavefront tile(1024) min_levels(12) waits [gather<1 on 0 through @C2E>, scatter<1 on 0 through @E2C>] folds [{{.*}}] {
// CHECK-NEXT:   stn.kernel "flux"
// CHECK:        stn.kernel "update"
// CHECK:      kernel "reads_theta_at_list" on Cell at %{{.*}} attributes {kblock = 1 : i64} {
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @E2C : Edge -> Cell [2]
  stn.connectivity @C2E : Cell -> Edge [3]
  stn.program @ahead(%theta: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "theta"},
      %saved: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "saved"},
      %list: !stn.points<Cell>, %b: i1 {stn.name = "b"},
      %e0: i32 {stn.name = "e0"}, %e1: i32 {stn.name = "e1"},
      %c0: i32 {stn.name = "c0"}, %c1: i32 {stn.name = "c1"}) {
    %k0 = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    %n = stn.nlev : i32
    %flux = stn.alloc {name = "flux"} : !stn.field<Edge x K x f64>
    // expected-remark @+1 {{wavefront of 2 stages: 'flux' (stage 0) 'update' (stage 1); folds 'flux'; 'at_list' moves before it; it ends because 'reads_theta_at_list' runs on a point list}}
    stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %a = stn.neighbor %e through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
      %ta = stn.load %theta[%a, k] : !stn.field<Cell x K x f64>
      stn.write %ta to %flux at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    scf.if %b {
      stn.kernel "at_list" on Cell at %list {
      ^bb0(%p: !stn.point<Cell>):
        %t = stn.load %theta[%p, k] : !stn.field<Cell x K x f64>
        stn.write %t to %saved at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
    }
    stn.kernel "update" on Cell[%c0 : %c1] K[%k0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x: !stn.point<Edge>):
        %f = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
        stn.yield %f : f64
      }
      stn.write %s to %theta at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.kernel "reads_theta_at_list" on Cell at %list {
    ^bb0(%p: !stn.point<Cell>):
      %t = stn.load %theta[%p, k] : !stn.field<Cell x K x f64>
      stn.write %t to %saved at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// Kernels on the two sides of a branch over different points get a stage each
// (at most one of them runs: the other stage is then empty). A branch that
// cannot be an item (it holds a kernel on a point list) gets groups inside.
// CHECK-LABEL: stn.program @branches
// CHECK:      scf.if %b {
// CHECK-NEXT:   stn.wavefront tile(1024) min_levels(12) waits [gather<1 on 0 through @C2E>] {
// CHECK-NEXT:     stn.kernel "first"
// CHECK:          stn.kernel "second"
// CHECK:        stn.kernel "on_list"
// CHECK:      wavefront tile(1024) min_levels(12) waits [gather<2 on 0 through @C2E>, gather<2 on 1 through @C2E>] {
// CHECK:          stn.kernel "left" {{.*}} stage = 0 : i64
// CHECK:          stn.kernel "right" {{.*}} stage = 1 : i64
// CHECK:        stn.kernel "after" {{.*}} stage = 2 : i64
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @C2E : Cell -> Edge [3]
  stn.program @branches(%y: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "y"},
      %y2: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "y2"},
      %z: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "z"},
      %z2: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "z2"},
      %list: !stn.points<Cell>, %b: i1 {stn.name = "b"},
      %e0: i32 {stn.name = "e0"}, %e1: i32 {stn.name = "e1"}, %e2: i32 {stn.name = "e2"},
      %c0: i32 {stn.name = "c0"}, %c1: i32 {stn.name = "c1"}) {
    %k0 = arith.constant 0 : i32
    %one = arith.constant 1.0 : f64
    %n = stn.nlev : i32
    scf.if %b {
      // expected-remark @+1 {{wavefront of 2 stages: 'first' (stage 0) 'second' (stage 1); it ends because 'on_list' runs on a point list}}
      stn.kernel "first" on Edge[%e0 : %e1] K[%k0 : %n] {
      ^bb0(%e: !stn.point<Edge>):
        stn.write %one to %y at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
      stn.kernel "second" on Cell[%c0 : %c1] K[%k0 : %n] {
      ^bb0(%c: !stn.point<Cell>):
        %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %x: !stn.point<Edge>):
          %f = stn.load %y[%x, k] : !stn.field<Edge x K x f64>
          stn.yield %f : f64
        }
        stn.write %s to %z at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
      stn.kernel "on_list" on Cell at %list {
      ^bb0(%p: !stn.point<Cell>):
        %t = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
        %u = arith.addf %t, %one : f64
        stn.write %u to %z at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
    }
    // expected-remark @+1 {{wavefront of 3 stages: 'left' (stage 0) 'right' (stage 1) 'after' (stage 2)}}
    scf.if %b {
      stn.kernel "left" on Edge[%e0 : %e1] K[%k0 : %n] {
      ^bb0(%e: !stn.point<Edge>):
        stn.write %one to %y2 at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
    } else {
      stn.kernel "right" on Edge[%e0 : %e2] K[%k0 : %n] {
      ^bb0(%e: !stn.point<Edge>):
        stn.write %one to %y2 at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
    }
    stn.kernel "after" on Cell[%c0 : %c1] K[%k0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x: !stn.point<Edge>):
        %f = stn.load %y2[%x, k] : !stn.field<Edge x K x f64>
        stn.yield %f : f64
      }
      stn.write %s to %z2 at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// Storage folding. `twice` is written by stages 0 and 3, read at its own
// points and gathered between and after, and exchanged inside the group (on
// one rank, where plans run, exchanges do nothing): folded, with what each
// stage does to it. Not folded: a buffer read after the group, one a kernel
// writes under a branch, one its first stage writes from level 1 while a
// reader reads level 0, one a stage writes on one side of a branch only, and
// one a kernel both reads and writes.
// CHECK-LABEL: stn.program @folds
// CHECK:      %[[TWICE:.*]] = alloc {name = "twice"}
// CHECK:      wavefront tile(1024) min_levels(12)
// CHECK-SAME:   folds [%[[TWICE]] : !stn.field<Edge x K x f64> [write<0>, read<1>, gather<2 through @C2E>, write<3>, read<4>, gather<5 through @C2E>]] {
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @E2C : Edge -> Cell [2]
  stn.connectivity @C2E : Cell -> Edge [3]
  stn.connectivity @C2E2C : Cell -> Cell [3]
  stn.program @folds(%x: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "x"},
      %y: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "y"},
      %flag: i1 {stn.name = "flag"},
      %e0: i32 {stn.name = "e0"}, %e1: i32 {stn.name = "e1"},
      %c0: i32 {stn.name = "c0"}, %c1: i32 {stn.name = "c1"}) {
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 1 : i32
    %i0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f64
    %n = stn.nlev : i32
    %twice = stn.alloc {name = "twice"} : !stn.field<Edge x K x f64>
    %after = stn.alloc {name = "after"} : !stn.field<Edge x K x f64>
    %some = stn.alloc {name = "some"} : !stn.field<Edge x K x f64>
    %above = stn.alloc {name = "above"} : !stn.field<Edge x K x f64>
    %partly = stn.alloc {name = "partly"} : !stn.field<Edge x K x f64>
    %both = stn.alloc {name = "both"} : !stn.field<Edge x K x f64>
    // expected-remark @+6 {{wavefront of 6 stages: 'produce' (stage 0) 'from_level_1' (stage 1) 'gather' (stage 2) 'rewrite' (stage 3) 'partly' (stage 4) 'last' (stage 5); folds 'twice'; it ends because 'after_group' reaches 'after' of 'produce' through two tables}}
    // expected-remark @+5 {{'after' is not folded: it is used outside the group}}
    // expected-remark @+4 {{'some' is not folded: 'produce' writes it only at some points}}
    // expected-remark @+3 {{'both' is not folded: 'rewrite' both reads and writes it}}
    // expected-remark @+2 {{'above' is not folded: 'gather' may read levels 'from_level_1' does not write}}
    // expected-remark @+1 {{'partly' is not folded: stage 4 writes it on some branches only}}
    stn.kernel "produce" on Edge[%e0 : %e1] K[%k0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %twice at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      stn.write %one to %after at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      stn.write %one to %both at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      scf.if %flag {
        stn.write %one to %some at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
    }
    stn.kernel "from_level_1" on Edge[%e0 : %e1] K[%k1 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %t = stn.load %twice[%e, k] : !stn.field<Edge x K x f64>
      stn.write %t to %above at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.kernel "gather" on Cell[%c0 : %c1] K[%k0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x2: !stn.point<Edge>):
        %a = stn.load %twice[%x2, k] : !stn.field<Edge x K x f64>
        %b = stn.load %after[%x2, k] : !stn.field<Edge x K x f64>
        %d = stn.load %some[%x2, k] : !stn.field<Edge x K x f64>
        %f = stn.load %above[%x2, k] : !stn.field<Edge x K x f64>
        %ab = arith.addf %a, %b : f64
        %df = arith.addf %d, %f : f64
        %all = arith.addf %ab, %df : f64
        stn.yield %all : f64
      }
      stn.write %s to %x at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.exchange %twice : !stn.field<Edge x K x f64>
    stn.kernel "rewrite" on Edge[%e0 : %e1] K[%k0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %a = stn.neighbor %e through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
      %v = stn.load %x[%a, k] : !stn.field<Cell x K x f64>
      %w = stn.load %both[%e, k] : !stn.field<Edge x K x f64>
      %vw = arith.addf %v, %w : f64
      stn.write %v to %twice at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      stn.write %vw to %both at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    scf.if %flag {
      stn.kernel "partly" on Edge[%e0 : %e1] K[%k0 : %n] {
      ^bb0(%e: !stn.point<Edge>):
        %t = stn.load %twice[%e, k] : !stn.field<Edge x K x f64>
        stn.write %t to %partly at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
    }
    stn.kernel "last" on Cell[%c0 : %c1] K[%k0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x2: !stn.point<Edge>):
        %a = stn.load %twice[%x2, k] : !stn.field<Edge x K x f64>
        %b = stn.load %partly[%x2, k] : !stn.field<Edge x K x f64>
        %ab = arith.addf %a, %b : f64
        stn.yield %ab : f64
      }
      stn.write %s to %x at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.kernel "after_group" on Edge[%e0 : %e1] K[%k0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %a = stn.neighbor %e through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
      %b = stn.neighbor %a through @C2E [%i0] : !stn.point<Cell> -> !stn.point<Edge>
      %v = stn.load %after[%b, k] : !stn.field<Edge x K x f64>
      stn.write %v to %y at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.return
  }
}
