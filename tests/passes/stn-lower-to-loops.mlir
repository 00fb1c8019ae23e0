// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp | FileCheck %s --check-prefix=CPP
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cuda | FileCheck %s --check-prefix=CUDA
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops | FileCheck %s --check-prefix=CUDA
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops | FileCheck %s --check-prefix=COLUMNS

// A kernel's region becomes one work item, a box of points and levels, and
// iterates it with explicit loops; level accesses take the level loop's
// induction variable. C++: ICON's order, levels outside and a simd loop over
// points inside. CUDA (also the default target of a module without
// stn.target): a point per work item outside, its levels inside.

// CPP-LABEL: kernel "scale"
// CPP-SAME: loop_form}
// CPP-NEXT: ^bb0(%[[HB:h_begin]]: index, %[[HE:h_end]]: index, %[[KB:k_begin]]: index, %[[KE:k_end]]: index):
// CPP-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CPP-NEXT: scf.for %[[K:.*]] = %[[KB]] to %[[KE]] step %[[ONE]] {
// CPP-NEXT: scf.for %[[H:.*]] = %[[HB]] to %[[HE]] step %[[ONE]] {
// CPP-NEXT: %[[P:.*]] = stn.point_at %[[H]] : <Edge>
// CPP-NEXT: %[[V:.*]] = stn.load %vn[%[[P]], %[[K]] - 1] : !stn.field<Edge x K x f64>
// CPP-NEXT: %[[L:.*]] = stn.level(%[[K]]) {offset = 2 : i64}
// CPP-NEXT: stn.write %[[V]] to %out at %[[P]] : !stn.point<Edge> level %[[K]] : f64, <Edge x K x f64>
// CPP-NEXT: } {stn.simd}
// CPP-NEXT: }

// CUDA-LABEL: kernel "scale"
// CUDA-NEXT: ^bb0(%[[HB:h_begin]]: index, %[[HE:h_end]]: index, %[[KB:k_begin]]: index, %[[KE:k_end]]: index):
// CUDA-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CUDA-NEXT: scf.for %[[H:.*]] = %[[HB]] to %[[HE]] step %[[ONE]] {
// CUDA-NEXT: %[[P:.*]] = stn.point_at %[[H]] : <Edge>
// CUDA-NEXT: scf.for %[[K:.*]] = %[[KB]] to %[[KE]] step %[[ONE]] {
// CUDA-NEXT: stn.load %vn[%[[P]], %[[K]] - 1]
// CUDA-NOT: stn.simd
// CUDA: return
stn.program @scale(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
    %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"}, %lo: i32, %hi: i32) {
  %n = stn.nlev : i32
  stn.kernel "scale" on Edge[%lo : %hi] K[%lo : %n] {
  ^bb0(%p: !stn.point<Edge>):
    %v = stn.load %vn[%p, k - 1] : !stn.field<Edge x K x f64>
    %l = stn.level {offset = 2}
    stn.write %v to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}

// -----

// A 2-D kernel has only the point loop, a vertical-only kernel only the
// level loop (a simd loop on CPUs: its levels are the unit-stride index).

// CPP-LABEL: kernel "flat"
// CPP-NEXT: ^bb0(%[[HB:h_begin]]: index, %[[HE:h_end]]: index):
// CPP: scf.for %{{.*}} = %[[HB]] to %[[HE]]
// CPP: stn.write
// CPP-NEXT: } {stn.simd}
// CPP-LABEL: kernel "column"
// CPP-NEXT: ^bb0(%[[KB:k_begin]]: index, %[[KE:k_end]]: index):
// CPP: scf.for %[[K:.*]] = %[[KB]] to %[[KE]]
// CPP-NEXT: stn.load %limit[%[[K]] + 1]
// CPP: stn.write %{{.*}} to %scaled level %[[K]] : f64, <K x f64>
// CPP-NEXT: } {stn.simd}

// CUDA-LABEL: kernel "flat"
// CUDA: scf.for
// CUDA-NOT: stn.simd
// CUDA-LABEL: kernel "column"
// CUDA: scf.for
// CUDA-NOT: stn.simd
stn.program @shapes(%area: !stn.field<Cell x f64> {stn.name = "area"},
    %area2: !stn.field<Cell x f64> {stn.intent = 1 : i32, stn.name = "area2"},
    %limit: !stn.field<K x f64> {stn.name = "limit"},
    %scaled: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "scaled"}, %lo: i32, %hi: i32) {
  stn.kernel "flat" on Cell[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    %a = stn.load %area[%p] : !stn.field<Cell x f64>
    stn.write %a to %area2 at %p : !stn.point<Cell> : f64, !stn.field<Cell x f64>
  }
  stn.kernel "column" on K[%lo : %hi] {
    %l = stn.load %limit[k + 1] : !stn.field<K x f64>
    stn.write %l to %scaled : f64, !stn.field<K x f64>
  }
  stn.return
}

// -----

// A kernel over a point list loops over a work item's entries on every
// target, each entry giving its point and level; on cpp the entry loop is a
// simd loop (entries are distinct points), on cuda a thread's loop.
// CPP-LABEL: kernel "list" on Cell at %arg0
// CPP-SAME: loop_form}
// CPP-NEXT: ^bb0(%[[EB:e_begin]]: index, %[[EE:e_end]]: index):
// CPP-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CPP-NEXT: scf.for %[[E:.*]] = %[[EB]] to %[[EE]] step %[[ONE]] {
// CPP-NEXT: %[[P:.*]], %[[K:.*]] = stn.list_point %arg0[%[[E]]] : !stn.points<Cell> -> !stn.point<Cell>
// CPP-NEXT: %[[V:.*]] = stn.load %arg1[%[[P]], %[[K]] - 1] : !stn.field<Cell x K x f64>
// CPP-NEXT: stn.write %[[V]] to %arg2 at %[[P]] : !stn.point<Cell> level %[[K]] : f64, <Cell x K x f64>
// CPP-NEXT: } {stn.simd}
// CUDA-LABEL: kernel "list" on Cell at %arg0
// CUDA: stn.list_point
// CUDA-NOT: stn.simd
stn.program @point_list(%l: !stn.points<Cell>, %f: !stn.field<Cell x K x f64>,
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}) {
  stn.kernel "list" on Cell at %l {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k - 1] : !stn.field<Cell x K x f64>
    stn.write %v to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// In the columns layout (one point per block: a point's levels are
// unit-stride) the C++ order is the CUDA one, points outside and levels
// inside, and the level loop is the simd loop. A 2-D kernel vectorises over
// its points, a vertical-only one over its levels, a list over the levels of
// each run of its entries (one point at consecutive levels): a loop from
// each run's first entry to the entry after it (`scf.while`, the run's
// length `stn.list_run`), a simd loop from the entry's level over the run's
// length; its work items hold 1024 entries (`hblock`), so that few runs end
// at a work item's end, unless a configuration chose its `hblock`.
// CUDA-LABEL: stn.program @columns
// COLUMNS-LABEL: stn.program @columns
// COLUMNS-LABEL: kernel "levels3d"
// COLUMNS-NEXT: ^bb0(%[[HB:h_begin]]: index, %[[HE:h_end]]: index, %[[KB:k_begin]]: index, %[[KE:k_end]]: index):
// COLUMNS-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// COLUMNS-NEXT: scf.for %[[H:.*]] = %[[HB]] to %[[HE]] step %[[ONE]] {
// COLUMNS-NEXT: %[[P:.*]] = stn.point_at %[[H]] : <Edge>
// COLUMNS-NEXT: scf.for %[[K:.*]] = %[[KB]] to %[[KE]] step %[[ONE]] {
// COLUMNS-NEXT: stn.load %vn[%[[P]], %[[K]] - 1]
// COLUMNS-NEXT: stn.write
// COLUMNS-NEXT: } {stn.simd}
// COLUMNS-NEXT: }
// COLUMNS-LABEL: kernel "points2d"
// COLUMNS: stn.write
// COLUMNS-NEXT: } {stn.simd}
// COLUMNS-LABEL: kernel "vertical"
// COLUMNS: stn.write
// COLUMNS-NEXT: } {stn.simd}
// COLUMNS-LABEL: kernel "entries"
// COLUMNS-SAME: hblock = 1024
// COLUMNS-NEXT: ^bb0(%[[EB:e_begin]]: index, %[[EE:e_end]]: index):
// COLUMNS-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// COLUMNS-NEXT: %{{.*}} = scf.while (%[[E0:.*]] = %[[EB]]) : (index) -> index {
// COLUMNS-NEXT:   %[[MORE:.*]] = arith.cmpi slt, %[[E0]], %[[EE]] : index
// COLUMNS-NEXT:   scf.condition(%[[MORE]]) %[[E0]] : index
// COLUMNS-NEXT: } do {
// COLUMNS-NEXT: ^bb0(%[[E:.*]]: index):
// COLUMNS-NEXT:   %[[N:.*]] = stn.list_run %[[L:.*]][%[[E]]] until %[[EE]] : !stn.points<Cell>
// COLUMNS-NEXT:   %[[P:.*]], %[[K0:.*]] = stn.list_point %[[L]][%[[E]]] : !stn.points<Cell> -> !stn.point<Cell>
// COLUMNS-NEXT:   %[[K1:.*]] = arith.addi %[[K0]], %[[N]] : index
// COLUMNS-NEXT:   scf.for %[[K:.*]] = %[[K0]] to %[[K1]] step %[[ONE]] {
// COLUMNS-NEXT:     %[[V:.*]] = stn.load %{{.*}}[%[[P]], %[[K]] - 1]
// COLUMNS-NEXT:     stn.write %[[V]] to %{{.*}} at %[[P]] : !stn.point<Cell> level %[[K]]
// COLUMNS-NEXT:   } {stn.simd}
// COLUMNS-NEXT:   %[[NEXT:.*]] = arith.addi %[[E]], %[[N]] : index
// COLUMNS-NEXT:   scf.yield %[[NEXT]] : index
// COLUMNS-NEXT: }
// COLUMNS-NOT:  stn.simd
// COLUMNS-LABEL: kernel "configured"
// COLUMNS-SAME: hblock = 256
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @columns(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
      %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %area: !stn.field<Cell x f64> {stn.name = "area"},
      %area2: !stn.field<Cell x f64> {stn.intent = 1 : i32, stn.name = "area2"},
      %limit: !stn.field<K x f64> {stn.name = "limit"},
      %scaled: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "scaled"},
      %l: !stn.points<Cell>, %f: !stn.field<Cell x K x f64>,
      %fout: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}, %lo: i32, %hi: i32) {
    %n = stn.nlev : i32
    stn.kernel "levels3d" on Edge[%lo : %hi] K[%lo : %n] {
    ^bb0(%p: !stn.point<Edge>):
      %v = stn.load %vn[%p, k - 1] : !stn.field<Edge x K x f64>
      stn.write %v to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.kernel "points2d" on Cell[%lo : %hi] {
    ^bb0(%p: !stn.point<Cell>):
      %a = stn.load %area[%p] : !stn.field<Cell x f64>
      stn.write %a to %area2 at %p : !stn.point<Cell> : f64, !stn.field<Cell x f64>
    }
    stn.kernel "vertical" on K[%lo : %hi] {
      %c = stn.load %limit[k + 1] : !stn.field<K x f64>
      stn.write %c to %scaled : f64, !stn.field<K x f64>
    }
    stn.kernel "entries" on Cell at %l {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %f[%p, k - 1] : !stn.field<Cell x K x f64>
      stn.write %v to %fout at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.kernel "configured" on Cell at %l attributes {hblock = 256 : i64} {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
      stn.write %v to %fout at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}
