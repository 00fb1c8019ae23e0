// RUN: %fusec-opt %s -split-input-file -stn-lower-to-kernels | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-kernels -Rpass=stn-lower-to-kernels 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

stn.connectivity @E2C : Edge -> Cell [2] skip
stn.connectivity @C2E : Cell -> Edge [3]

// A temporary read by a later application is materialised; the final store
// with the application's own domain becomes a plain write.
// CHECK-LABEL: stn.program @materialise
// CHECK: %[[BUF:.*]] = alloc {name = "flux_0"} : <Edge x K x f64>
// CHECK: kernel "flux" on Edge[%lo : %hi] K[
// CHECK: stn.write %{{.*}} to %[[BUF]] at
// CHECK: kernel "div" on Cell[%lo : %hi] K[
// CHECK: stn.reduce sum over @C2E
// CHECK: stn.load %[[BUF]][%{{.*}}, k - 1]
// CHECK: stn.write %{{.*}} to %out at
// CHECK-NOT: apply
// CHECK-NOT: store
stn.program @materialise(%th: !stn.field<Cell x K x f64> {stn.name = "th"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  %flux = stn.apply on Edge[%lo : %hi] K[%c1 : %n] -> !stn.temp<Edge x K x f64> {
  ^bb0(%e: !stn.point<Edge>):
    %c0 = arith.constant 0 : index
    %a = stn.neighbor %e through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
    %ta = stn.load %th[%a, k] : !stn.field<Cell x K x f64>
    stn.yield %ta : f64
  } attributes {name = "flux"}
  %div = stn.apply on Cell[%lo : %hi] K[%c1 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %x = stn.load %flux[%e, k - 1] : !stn.temp<Edge x K x f64>
      stn.yield %x : f64
    }
    stn.yield %s : f64
  } attributes {name = "div"}
  stn.store %div to %out on Cell[%lo : %hi] K[%c1 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A store over a sub-domain is guarded by index and level predicates.
// CHECK-LABEL: stn.program @guarded_store
// CHECK: kernel "scale" on Cell[%lo : %hi] K[%k0 : %k1]
// CHECK: %[[IDX:.*]] = stn.index
// CHECK: arith.cmpi sge, %[[IDX]], %lo2
// CHECK: arith.cmpi slt, %[[IDX]], %hi2
// CHECK: scf.if
// CHECK-NEXT: stn.write
stn.program @guarded_store(%f: !stn.field<Cell x K x f64>, %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %lo2: i32 {stn.name = "lo2"}, %hi2: i32 {stn.name = "hi2"},
    %k0: i32 {stn.name = "k0"}, %k1: i32 {stn.name = "k1"}) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "scale"}
  stn.store %t to %o on Cell[%lo2 : %hi2] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// In place through a neighbour: the result goes through a buffer and a copy
// kernel, so no thread reads a value another one already overwrote.
// CHECK-LABEL: stn.program @in_place_neighbour
// CHECK: %[[BUF:.*]] = alloc {name = "smooth_0"}
// CHECK: kernel "smooth"
// CHECK: stn.write %{{.*}} to %[[BUF]]
// CHECK: kernel "copy_to_w"
// CHECK: %[[V:.*]] = stn.load %[[BUF]]
// CHECK: stn.write %[[V]] to %w
stn.connectivity @C2E2C : Cell -> Cell [3] skip
stn.program @in_place_neighbour(%w: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "w"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2C at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %n: !stn.point<Cell>):
      %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    stn.yield %s : f64
  } attributes {name = "smooth"}
  stn.store %t to %w on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// In place at the centre stays one kernel.
// CHECK-LABEL: stn.program @in_place_centre
// CHECK-NOT: alloc
// CHECK: kernel "update"
// CHECK: stn.write %{{.*}} to %vn
// CHECK-NOT: kernel
stn.program @in_place_centre(%vn: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "vn"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %t = stn.apply on Edge[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Edge x K x f64> {
  ^bb0(%p: !stn.point<Edge>):
    %v = stn.load %vn[%p, k] : !stn.field<Edge x K x f64>
    %d = arith.addf %v, %v : f64
    stn.yield %d : f64
  } attributes {name = "update"}
  stn.store %t to %vn on Edge[%lo : %hi] K[%k0 : %k1] : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
  stn.return
}

// -----

// A store that comes after another application reading the same field keeps
// its place: the value goes through a buffer.
// CHECK-LABEL: stn.program @store_after_reader
// CHECK: kernel "first"
// CHECK: kernel "reader"
// CHECK: kernel "copy_to_a"
stn.program @store_after_reader(%a: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %c = arith.constant 1.0 : f64
    stn.yield %c : f64
  } attributes {name = "first"}
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %a[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "reader"}
  stn.store %u to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %t to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// stn-split-where's boxes: a store of other values over levels this store's
// levels end where they begin, and a second store of the same values, may come
// between an application and its store; both stores are written in the kernel,
// each under its level range, and no copy is made.
// CHECK-LABEL: stn.program @disjoint_boxes
// CHECK:      kernel "nabla4"
// CHECK:        stn.write {{.*}} to %w
// CHECK:        stn.write {{.*}} to %w
// CHECK:      kernel "sponge"
// CHECK:        stn.write {{.*}} to %w
// CHECK-NOT:  copy_to
stn.program @disjoint_boxes(%x: !stn.field<Cell x K x f64> {stn.name = "x"},
    %w: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "w"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32, %k2: i32, %k3: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k3] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %x[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "nabla4"}
  %u = stn.apply on Cell[%lo : %hi] K[%k1 : %k2] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
    %d = arith.addf %v, %v : f64
    stn.yield %d : f64
  } attributes {name = "sponge"}
  stn.store %u to %w on Cell[%lo : %hi] K[%k1 : %k2] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %t to %w on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %t to %w on Cell[%lo : %hi] K[%k2 : %k3] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// On the C++ target a kernel that reads at data-dependent levels walks all
// levels of its points in one work item (kblock 1024); one with a kblock of
// its own keeps it, and so does every kernel on the CUDA target (next case).
// CHECK-LABEL: stn.program @dynamic_levels_cpp
// CHECK: kernel "steep" on Cell[%lo : %hi] K[%{{.*}} : %{{.*}}] attributes {kblock = 1024 : i64}
// CHECK: kernel "steep_blocked" on Cell[%lo : %hi] K[%{{.*}} : %{{.*}}] attributes {kblock = 4 : i64}
// CHECK: kernel "plain" on Cell[%lo : %hi] K[%{{.*}} : %{{.*}}] attributes {kblock = 1 : i64}
// REMARK: remark: [stn-lower-to-kernels] reads at data-dependent levels: on CPUs each work item walks all levels of its points (kblock = 1024)
// REMARK-NOT: remark
module attributes {stn.target = "cpp"} {
stn.program @dynamic_levels_cpp(%th: !stn.field<Cell x K x f64> {stn.name = "th"},
    %off: !stn.field<Cell x K x i32> {stn.name = "off"},
    %o1: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o1"},
    %o2: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o2"},
    %o3: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o3"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  %s = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %d = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
    %v = stn.load %th[%p, k + %d] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "steep"}
  stn.store %s to %o1 on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %b = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %d = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
    %v = stn.load %th[%p, k + %d] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {kblock = 4 : i64, name = "steep_blocked"}
  stn.store %b to %o2 on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %t = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %th[%p, k - 1] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "plain"}
  stn.store %t to %o3 on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
}

// -----

// CHECK-LABEL: stn.program @dynamic_levels_cuda
// CHECK: kernel "steep" on Cell[%lo : %hi] K[%{{.*}} : %{{.*}}] attributes {kblock = 1 : i64}
module attributes {stn.target = "cuda"} {
stn.program @dynamic_levels_cuda(%th: !stn.field<Cell x K x f64> {stn.name = "th"},
    %off: !stn.field<Cell x K x i32> {stn.name = "off"},
    %o1: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o1"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  %s = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %d = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
    %v = stn.load %th[%p, k + %d] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "steep"}
  stn.store %s to %o1 on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
}

// -----

// An application over a point list becomes a kernel over the same list that
// writes its stores at the entries.
// CHECK-LABEL: stn.program @point_list
// CHECK: kernel "bump" on Cell at %arg0 attributes {kblock = 1 : i64} {
// CHECK-NEXT: ^bb0(%[[P:.*]]: !stn.point<Cell>):
// CHECK: stn.write %{{.*}} to %arg1 at %[[P]] : !stn.point<Cell> : f64, <Cell x K x f64>
// CHECK-NOT: kernel
stn.program @point_list(%l: !stn.points<Cell>,
    %z: !stn.field<Cell x K x f64> {stn.intent = 2 : i32}) {
  %t = stn.apply on Cell at %l -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    %one = arith.constant 1.0 : f64
    %w = arith.addf %v, %one : f64
    stn.yield %w : f64
  } attributes {name = "bump"}
  stn.store %t to %z on Cell at %l : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
