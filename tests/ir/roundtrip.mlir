// RUN: %fusec-opt %s -split-input-file | %fusec-opt -split-input-file | FileCheck %s

// CHECK-LABEL: stn.connectivity @E2C2V : Edge -> Vertex[4]
// CHECK: stn.connectivity @V2E : Vertex -> Edge[6] skip
stn.connectivity @E2C2V : Edge -> Vertex [4]
stn.connectivity @V2E : Vertex -> Edge [6] skip

// CHECK-LABEL: stn.program @neighbour_and_sparse
// CHECK-SAME: %u: !stn.field<Vertex x K x f64>
// CHECK-SAME: %pn: !stn.field<Edge x E2C2V[4] x f64>
// CHECK-SAME: %vn: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "vn"}
stn.program @neighbour_and_sparse(%u: !stn.field<Vertex x K x f64> {stn.name = "u"},
    %pn: !stn.field<Edge x E2C2V[4] x f64> {stn.name = "pn"},
    %vn: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "vn"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %nlev = stn.nlev : i32
  // CHECK: apply on Edge[%lo : %hi] K[%{{.*}} : %{{.*}}] -> !stn.temp<Edge x K x f64>
  %t = stn.apply on Edge[%lo : %hi] K[%c0 : %nlev] -> !stn.temp<Edge x K x f64> {
  ^bb0(%p: !stn.point<Edge>):
    %c2 = arith.constant 2 : index
    // CHECK: stn.neighbor %{{.*}} through @E2C2V[%{{.*}}] : <Edge> -> <Vertex>
    %v = stn.neighbor %p through @E2C2V [%c2] : !stn.point<Edge> -> !stn.point<Vertex>
    // CHECK: stn.load %u[%{{.*}}, k - 1] : !stn.field<Vertex x K x f64>
    %a = stn.load %u[%v, k - 1] : !stn.field<Vertex x K x f64>
    // CHECK: stn.load %pn[%{{.*}}, nbr %{{.*}}] : !stn.field<Edge x E2C2V[4] x f64>
    %b = stn.load %pn[%p, nbr %c2] : !stn.field<Edge x E2C2V[4] x f64>
    %c = arith.mulf %a, %b : f64
    stn.yield %c : f64
  }
  // CHECK: apply on Edge -> !stn.temp<Edge x K x f64>
  %u2 = stn.apply on Edge -> !stn.temp<Edge x K x f64> {
  ^bb0(%p: !stn.point<Edge>):
    %v = stn.load %t[%p, k + 1] : !stn.temp<Edge x K x f64>
    stn.yield %v : f64
  }
  // CHECK: store %{{.*}} to %vn on Edge[%lo : %hi] K[
  stn.store %u2 to %vn on Edge[%lo : %hi] K[%c0 : %nlev] : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
  // CHECK: exchange %vn : !stn.field<Edge x K x f64>
  stn.exchange %vn : !stn.field<Edge x K x f64>
  stn.return
}

// -----

stn.connectivity @C2E : Cell -> Edge [3]

// CHECK-LABEL: stn.program @reduce_dynamic_offset_kernel
stn.program @reduce_dynamic_offset_kernel(%g: !stn.field<Cell x C2E[3] x f64>,
    %vn: !stn.field<Edge x K x f64>, %off: !stn.field<Cell x K x i32>,
    %out: !stn.field<Cell x KHalf x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  // CHECK: image %{{.*}}, %{{.*}} through @C2E
  %i0, %i1 = stn.image %lo, %hi through @C2E
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x KHalf x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
    // CHECK: stn.reduce sum over @C2E at %{{.*}} : <Cell> -> f64
    %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %gg = stn.load %g[%p, nbr %j] : !stn.field<Cell x C2E[3] x f64>
      // CHECK: stn.load %{{.*}}[%{{.*}}, k + %{{.*}} + 1] : !stn.field<Edge x K x f64>
      %x = stn.load %vn[%e, k + %o + 1] : !stn.field<Edge x K x f64>
      %m = arith.mulf %gg, %x : f64
      stn.yield %m : f64
    }
    stn.yield %s : f64
  }
  stn.store %t to %out on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x KHalf x f64> to !stn.field<Cell x KHalf x f64>
  // CHECK: kernel "copy" on Cell[%{{.*}} : %{{.*}}] K[%{{.*}} : %{{.*}}] attributes {kblock = 4 : i64}
  stn.kernel "copy" on Cell[%lo : %hi] K[%k0 : %k1] attributes {kblock = 4 : i64} {
  ^bb0(%p: !stn.point<Cell>):
    %x = stn.load %out[%p, k] : !stn.field<Cell x KHalf x f64>
    // CHECK: stn.level {offset = 1 : i64}
    %l = stn.level {offset = 1}
    %i = stn.index %p : !stn.point<Cell>
    %ok = stn.valid %p : !stn.point<Cell>
    // CHECK: stn.write %{{.*}} to %{{.*}} at %{{.*}} : !stn.point<Cell> : f64, <Cell x KHalf x f64>
    stn.write %x to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x KHalf x f64>
  }
  stn.return
}

// -----

// CHECK-LABEL: stn.program @vertical_only
stn.program @vertical_only(%f: !stn.field<K x f64>, %o: !stn.field<K x f64> {stn.intent = 1 : i32},
    %s: f64, %a: !stn.field<Cell x f64>) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  // CHECK: alloc {name = "scratch"} : <K x f64>
  %buf = stn.alloc {name = "scratch"} : !stn.field<K x f64>
  // CHECK: apply on K[%{{.*}} : %{{.*}}] -> !stn.temp<K x f64>
  %t = stn.apply on K[%c0 : %n] -> !stn.temp<K x f64> {
    %v = stn.load %f[k] : !stn.field<K x f64>
    %r = arith.mulf %v, %s : f64
    stn.yield %r : f64
  }
  stn.store %t to %o on K[%c0 : %n] : !stn.temp<K x f64> to !stn.field<K x f64>
  // CHECK: apply on K -> !stn.temp<K x f64>
  %u = stn.apply on K -> !stn.temp<K x f64> {
    %v = stn.load %t[k - 1] : !stn.temp<K x f64>
    stn.yield %v : f64
  }
  stn.store %u to %o on K[%c0 : %n] : !stn.temp<K x f64> to !stn.field<K x f64>
  stn.return
}

// -----

// Loop form: explicit loops over a work item's box, explicit levels.
// CHECK-LABEL: stn.program @loop_form
// CHECK: kernel "k" on Cell[%{{.*}} : %{{.*}}] K[%{{.*}} : %{{.*}}] attributes {kblock = 2 : i64, loop_form} {
// CHECK-NEXT: ^bb0(%h_begin: index, %h_end: index, %k_begin: index, %k_end: index):
// CHECK: scf.for %[[K:.*]] = %k_begin to %k_end
// CHECK: %[[P:.*]] = stn.point_at %{{.*}} : <Cell>
// CHECK-NEXT: stn.load %{{.*}}[%[[P]], %[[K]] + %{{.*}} - 1] : !stn.field<Cell x K x f64>
// CHECK-NEXT: stn.level(%[[K]]) {offset = 1 : i64}
// CHECK-NEXT: stn.write %{{.*}} to %{{.*}} at %[[P]] : !stn.point<Cell> level %[[K]] : f64, <Cell x K x f64>
// CHECK-NEXT: } {stn.simd}
// CHECK: stn.prefetch %{{.*}}[%{{.*}}, %k_begin to %k_end] : <Cell>, <Cell x K x f64>
stn.program @loop_form(%f: !stn.field<Cell x K x f64>, %o: !stn.field<Cell x K x f64>,
    %lo: i32, %hi: i32, %off: i32) {
  stn.kernel "k" on Cell[%lo : %hi] K[%lo : %hi] attributes {kblock = 2, loop_form} {
  ^bb0(%hb: index, %he: index, %kb: index, %ke: index):
    %c1 = arith.constant 1 : index
    scf.for %k = %kb to %ke step %c1 {
      scf.for %h = %hb to %he step %c1 {
        %p = stn.point_at %h : !stn.point<Cell>
        %v = stn.load %f[%p, %k + %off - 1] : !stn.field<Cell x K x f64>
        %l = stn.level(%k) {offset = 1}
        stn.write %v to %o at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
      } {stn.simd}
    }
    %q = stn.point_at %hb : !stn.point<Cell>
    stn.prefetch %f[%q, %kb to %ke] : !stn.point<Cell>, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// A point list: its length, applications, stores and kernels over it, and its
// entries in loop form.
// CHECK-LABEL: stn.program @point_list
// CHECK-SAME: (%[[L:.*]]: !stn.points<Cell>,
// CHECK: %{{.*}} = list_size %[[L]] : !stn.points<Cell>
// CHECK: %[[T:.*]] = apply on Cell at %[[L]] -> !stn.temp<Cell x K x f64> {
// CHECK: store %[[T]] to %{{.*}} on Cell at %[[L]] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
// CHECK: kernel "k" on Cell at %[[L]] attributes {kblock = 1 : i64, loop_form} {
// CHECK-NEXT: ^bb0(%e_begin: index, %e_end: index):
// CHECK: %[[P:.*]], %[[K:.*]] = stn.list_point %[[L]][%{{.*}}] : !stn.points<Cell> -> !stn.point<Cell>
// CHECK-NEXT: stn.load %{{.*}}[%[[P]], %[[K]]]
// CHECK: kernel "kf" on Cell at %[[L]] attributes {kblock = 1 : i64} {
stn.program @point_list(%l: !stn.points<Cell>, %f: !stn.field<Cell x K x f64>,
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}) {
  %n = stn.list_size %l : !stn.points<Cell>
  %t = stn.apply on Cell at %l -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %t to %o on Cell at %l : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.kernel "k" on Cell at %l attributes {loop_form} {
  ^bb0(%eb: index, %ee: index):
    %c1 = arith.constant 1 : index
    scf.for %e = %eb to %ee step %c1 {
      %p, %k = stn.list_point %l[%e] : !stn.points<Cell> -> !stn.point<Cell>
      %v = stn.load %f[%p, %k] : !stn.field<Cell x K x f64>
      stn.write %v to %o at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.kernel "kf" on Cell at %l {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.write %v to %o at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// A list's loop over runs (C++, columns layout): each iteration of the
// `scf.while` is another run, and the two sides of a branch are alternatives,
// so one side's write comes before no load of the other's (a kernel the fuzzer
// found: the verifier had read the whole loop as one sequence).
// CHECK-LABEL: stn.program @runs_with_branch
// CHECK: scf.while
// CHECK: stn.list_run
// CHECK: scf.if
// CHECK: } else {
// CHECK: stn.load %[[F:.*]][
stn.program @runs_with_branch(%l: !stn.points<Cell>,
    %f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32}, %lo: i32) {
  stn.kernel "k" on Cell at %l attributes {loop_form} {
  ^bb0(%eb: index, %ee: index):
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f64
    %last = scf.while (%e0 = %eb) : (index) -> index {
      %more = arith.cmpi slt, %e0, %ee : index
      scf.condition(%more) %e0 : index
    } do {
    ^bb0(%e: index):
      %n = stn.list_run %l[%e] until %ee : !stn.points<Cell>
      %p, %k0 = stn.list_point %l[%e] : !stn.points<Cell> -> !stn.point<Cell>
      %k1 = arith.addi %k0, %n : index
      %i = stn.index %p : !stn.point<Cell>
      %low = arith.cmpi slt, %i, %lo : i32
      scf.if %low {
        scf.for %k = %k0 to %k1 step %c1 {
          stn.write %one to %f at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
        }
      } else {
        scf.for %k = %k0 to %k1 step %c1 {
          %v = stn.load %f[%p, %k] : !stn.field<Cell x K x f64>
          %w = arith.subf %one, %v : f64
          stn.write %w to %f at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
        }
      }
      %next = arith.addi %e, %n : index
      scf.yield %next : index
    }
  }
  stn.return
}

// -----

// CHECK-LABEL: stn.program @wavefront
// CHECK:       wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @C2E>, scatter<1 on 0 through @E2C>, same<2 on 1>] {
// CHECK:         stn.kernel "flux" {{.*}} attributes {kblock = 1 : i64, stage = 0 : i64}
// CHECK:         stn.exchange
// CHECK:         scf.if
// CHECK:           stn.kernel "update" {{.*}} stage = 1 : i64
// CHECK:         } else {
// CHECK:           stn.kernel "update_weak" {{.*}} stage = 1 : i64
// CHECK:         stn.kernel "scale" {{.*}} stage = 2 : i64
stn.connectivity @E2C : Edge -> Cell [2]
stn.connectivity @C2E : Cell -> Edge [3]
stn.program @wavefront(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %f: !stn.field<Edge x K x f64> {stn.intent = 2 : i32}, %b: i1,
    %e0: i32, %e1: i32, %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  stn.wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @C2E>, scatter<1 on 0 through @E2C>,
                                same<2 on 1>] {
    stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %f at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.exchange %f : !stn.field<Edge x K x f64>
    scf.if %b {
      stn.kernel "update" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
      ^bb0(%c: !stn.point<Cell>):
        stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
    } else {
      stn.kernel "update_weak" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
      ^bb0(%c: !stn.point<Cell>):
        stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
    }
    stn.kernel "scale" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 2} {
    ^bb0(%c: !stn.point<Cell>):
      stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}

// -----

// CHECK-LABEL: stn.program @wavefront_folds
// CHECK:       %[[FLUX:.*]] = alloc {name = "flux"} : <Edge x K x f64>
// CHECK:       wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @C2E>]
// CHECK-SAME:    folds [%[[FLUX]] : !stn.field<Edge x K x f64> [write<0>, read<0>, gather<1 through @C2E>]] {
stn.connectivity @C2E : Cell -> Edge [3]
stn.program @wavefront_folds(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %e0: i32, %e1: i32, %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  %flux = stn.alloc {name = "flux"} : !stn.field<Edge x K x f64>
  stn.wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @C2E>]
      folds [%flux : !stn.field<Edge x K x f64> [write<0>, read<0>, gather<1 through @C2E>]] {
    stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %flux at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.kernel "update" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x: !stn.point<Edge>):
        %f = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
        stn.yield %f : f64
      }
      stn.write %s to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}
