// RUN: %fusec-opt %s -split-input-file -stn-fuse-across-lists -Rpass=stn-fuse-across-lists -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-fuse-across-lists="points-per-entry=7" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not %fusec-opt %s -split-input-file -stn-fuse-across-lists="points-per-entry=0" 2>&1 | FileCheck %s --check-prefix=BAD-OPTION

// OPTION-LABEL: stn.program @theta
// OPTION: arith.constant 7 : i32
// BAD-OPTION: points-per-entry must be at least 1

// ICON's theta diffusion: z_temp over the cells (a, reading a temporary t
// through a neighbour table), corrected at the steep points under a switch
// (b), read at the centre by c, which writes theta in place. The part from t
// to c's store gets two versions: fused where the switch is off or the list
// has at most one entry per 100 points of c's cells per level, else as it was.
// In the fused one c reads a's result; before c, one application on the list
// computes t, a, b and c at each entry inside c's domain (theta's current
// value outside it) into a side buffer; after c's store, another writes it
// into theta at the entries.
// CHECK-LABEL: stn.program @theta
// CHECK-DAG: %[[SIDE:.*]] = alloc {name = "theta_at_steep"} : <Cell x K x f64>
// CHECK-DAG: %[[Z:.*]] = alloc {name = "z_temp"} : <Cell x K x f64>
// CHECK: %[[N:.*]] = list_size %steep : !stn.points<Cell>
// CHECK-NEXT: %[[POINTS:.*]] = arith.subi %hi, %lo : i32
// CHECK-NEXT: %[[LEVELS:.*]] = arith.subi %k1, %k0 : i32
// CHECK: %[[ATLEAST1:.*]] = arith.maxsi %[[LEVELS]], %{{.*}} : i32
// CHECK-NEXT: %[[PERLEVEL:.*]] = arith.divsi %[[N]], %[[ATLEAST1]] : i32
// CHECK-NEXT: %[[C100:.*]] = arith.constant 100 : i32
// CHECK-NEXT: %[[LIMIT:.*]] = arith.divsi %[[POINTS]], %[[C100]] : i32
// CHECK-NEXT: %[[SHORT:.*]] = arith.cmpi sle, %[[PERLEVEL]], %[[LIMIT]] : i32
// CHECK: %[[OFF:.*]] = arith.xori %on, %{{.*}} : i1
// CHECK-NEXT: %[[FUSED:.*]] = arith.ori %[[OFF]], %[[SHORT]] : i1
// CHECK-NEXT: scf.if %[[FUSED]] {
// CHECK-NEXT: %[[T:.*]] = stn.apply on Edge
// CHECK: %[[A:.*]] = stn.apply on Cell[%lo : %hi] K[%k0 : %k1]
// CHECK: scf.if %on {
// CHECK-NEXT: %[[E:.*]] = stn.apply on Cell at %steep -> !stn.temp<Cell x K x f64> {
// CHECK: %[[I:.*]] = stn.index
// CHECK: arith.cmpi sge, %[[I]], %lo
// CHECK: arith.cmpi slt, %[[I]], %hi
// CHECK: %[[L:.*]] = stn.level
// CHECK: arith.cmpi sge, %[[L]], %k0
// CHECK: arith.cmpi slt, %[[L]], %k1
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (f64) {
// CHECK-NOT: stn.load %[[T]]
// CHECK: stn.reduce sum over @C2E
// CHECK: stn.load %x[%{{.*}}, k]
// CHECK: stn.load %theta[%{{.*}}, k + 1]
// CHECK: stn.load %theta[%{{.*}}, k]
// CHECK: arith.mulf
// CHECK: scf.yield
// CHECK: } else {
// CHECK-NEXT: %[[OLD:.*]] = stn.load %theta[%{{.*}}, k]
// CHECK-NEXT: scf.yield %[[OLD]] : f64
// CHECK: stn.yield %[[V]] : f64
// CHECK: } attributes {name = "c_at_steep"}
// CHECK-NEXT: stn.store %[[E]] to %[[SIDE]] on Cell at %steep
// CHECK: %[[C:.*]] = stn.apply on Cell[%lo : %hi] K[%k0 : %k1]
// CHECK: stn.load %[[A]][%{{.*}}, k] : !stn.temp<Cell x K x f64>
// CHECK: stn.store %[[C]] to %theta on Cell[%lo : %hi] K[%k0 : %k1]
// CHECK-NEXT: scf.if %on {
// CHECK-NEXT: %[[W:.*]] = stn.apply on Cell at %steep -> !stn.temp<Cell x K x f64> {
// CHECK: stn.load %[[SIDE]][%{{.*}}, k] : !stn.field<Cell x K x f64>
// CHECK: } attributes {name = "c_results_at_steep"}
// CHECK-NEXT: stn.store %[[W]] to %theta on Cell at %steep
// CHECK: } else {
// CHECK-NEXT: stn.apply on Edge
// CHECK: %[[A2:.*]] = stn.apply on Cell[%lo : %hi] K[%k0 : %k1]
// CHECK: stn.store %[[A2]] to %[[Z]] on Cell[%lo : %hi] K[%k0 : %k1]
// CHECK-NEXT: scf.if %on {
// CHECK: } attributes {name = "b"}
// CHECK-NEXT: stn.store %{{.*}} to %[[Z]] on Cell at %steep
// CHECK: stn.load %[[Z]][%{{.*}}, k]
// CHECK: } attributes {name = "c"}
// CHECK-NEXT: stn.store %{{.*}} to %theta on Cell[%lo : %hi] K[%k0 : %k1]
stn.connectivity @C2E : Cell -> Edge [3]
stn.program @theta(%steep: !stn.points<Cell> {stn.name = "steep"},
    %x: !stn.field<Edge x K x f64> {stn.name = "x"},
    %theta: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "theta"},
    %on: i1 {stn.name = "on"}, %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"},
    %elo: i32, %ehi: i32, %k0: i32 {stn.name = "k0"}, %k1: i32 {stn.name = "k1"}) {
  %z = stn.alloc {name = "z_temp"} : !stn.field<Cell x K x f64>
  %t = stn.apply on Edge[%elo : %ehi] K[%k0 : %k1] -> !stn.temp<Edge x K x f64> {
  ^bb0(%p: !stn.point<Edge>):
    %v = stn.load %x[%p, k] : !stn.field<Edge x K x f64>
    stn.yield %v : f64
  } attributes {name = "t"}
  %a = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %t[%e, k] : !stn.temp<Edge x K x f64>
      stn.yield %v : f64
    }
    stn.yield %s : f64
  } attributes {name = "a"}
  stn.store %a to %z on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  scf.if %on {
    %b = stn.apply on Cell at %steep -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
      %up = stn.load %theta[%p, k + 1] : !stn.field<Cell x K x f64>
      %s = arith.addf %zv, %up : f64
      stn.yield %s : f64
    } attributes {name = "b"}
    stn.store %b to %z on Cell at %steep : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  }
  // expected-remark @+1 {{fused 'a' and 'c' across the update of 'z_temp' on 'steep': 'b' and both run at its entries before, and their results are written there after, when the list has at most one entry per 100 points (else the buffer stays)}}
  %c = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    %th = stn.load %theta[%p, k] : !stn.field<Cell x K x f64>
    %s = arith.mulf %zv, %th : f64
    stn.yield %s : f64
  } attributes {name = "c"}
  stn.store %c to %theta on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Without a condition the version depends on the list's length alone and the
// list applications run unconditionally; a consumer with two results gets a
// side buffer for each.
// CHECK-LABEL: stn.program @two_outputs
// CHECK-DAG: alloc {name = "u_at_list"}
// CHECK-DAG: alloc {name = "v_at_list"}
// CHECK: %[[SHORT:.*]] = arith.cmpi sle
// CHECK-NEXT: scf.if %[[SHORT]] {
// CHECK: } attributes {name = "a"}
// CHECK-NEXT: %[[E:.*]]:2 = stn.apply on Cell at %list -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64>
// CHECK: } attributes {name = "c_at_list"}
// CHECK-NEXT: stn.store %[[E]]#0 to
// CHECK-NEXT: stn.store %[[E]]#1 to
// CHECK-NEXT: %[[C:.*]]:2 = stn.apply on Cell[
// CHECK: stn.store %[[C]]#0 to %u on Cell[
// CHECK-NEXT: stn.store %[[C]]#1 to %v on Cell[
// CHECK-NEXT: %[[W:.*]]:2 = stn.apply on Cell at %list
// CHECK: } attributes {name = "c_results_at_list"}
// CHECK-NEXT: stn.store %[[W]]#0 to %u on Cell at %list
// CHECK-NEXT: stn.store %[[W]]#1 to %v on Cell at %list
// CHECK-NEXT: } else {
// CHECK: } attributes {name = "b"}
stn.program @two_outputs(%l: !stn.points<Cell> {stn.name = "list"},
    %x: !stn.field<Cell x K x f64>,
    %u: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "u"},
    %v: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "v"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %z = stn.alloc {name = "z"} : !stn.field<Cell x K x f64>
  %a = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v0 = stn.load %x[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v0 : f64
  } attributes {name = "a"}
  stn.store %a to %z on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %b = stn.apply on Cell at %l -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    %s = arith.addf %zv, %zv : f64
    stn.yield %s : f64
  } attributes {name = "b"}
  stn.store %b to %z on Cell at %l : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  // expected-remark @+1 {{fused 'a' and 'c' across the update of 'z' on 'list'}}
  %c:2 = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    %n = arith.negf %zv : f64
    stn.yield %zv, %n : f64, f64
  } attributes {name = "c"}
  stn.store %c#0 to %u on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %c#1 to %v on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// The reader reads the buffer at a neighbour: the buffer stays.
// CHECK-LABEL: stn.program @neighbour_read
// CHECK: alloc {name = "z"}
// CHECK-NOT: _at_
stn.program @neighbour_read(%l: !stn.points<Cell>, %x: !stn.field<Cell x K x f64>,
    %u: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %z = stn.alloc {name = "z"} : !stn.field<Cell x K x f64>
  %a = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v0 = stn.load %x[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v0 : f64
  } attributes {name = "a"}
  stn.store %a to %z on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %b = stn.apply on Cell at %l -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %zv : f64
  } attributes {name = "b"}
  // expected-remark @+1 {{not fused across the update of 'z' on its point list: its reader 'c' reads it away from the centre}}
  stn.store %b to %z on Cell at %l : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %c = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k - 1] : !stn.field<Cell x K x f64>
    stn.yield %zv : f64
  } attributes {name = "c"}
  stn.store %c to %u on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// The reader's result lies on half levels, which the list's entries (one
// full level each) cannot hold: the buffer stays. Found by fusec-fuzz
// (tests/e2e/fuzz-regressions/error-stn-fuse-across-lists-points-per-entry-1-s1795910404-f35.stn).
// CHECK-LABEL: stn.program @half_level_reader
// CHECK: alloc {name = "z"}
// CHECK-NOT: _at_
stn.program @half_level_reader(%l: !stn.points<Vertex>, %x: !stn.field<Vertex x K x f64>,
    %u: !stn.field<Vertex x KHalf x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %z = stn.alloc {name = "z"} : !stn.field<Vertex x K x f64>
  %a = stn.apply on Vertex[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Vertex x K x f64> {
  ^bb0(%p: !stn.point<Vertex>):
    %v0 = stn.load %x[%p, k] : !stn.field<Vertex x K x f64>
    stn.yield %v0 : f64
  } attributes {name = "a"}
  stn.store %a to %z on Vertex[%lo : %hi] K[%k0 : %k1] : !stn.temp<Vertex x K x f64> to !stn.field<Vertex x K x f64>
  %b = stn.apply on Vertex at %l -> !stn.temp<Vertex x K x f64> {
  ^bb0(%p: !stn.point<Vertex>):
    %one = arith.constant 1.0 : f64
    stn.yield %one : f64
  } attributes {name = "b"}
  // expected-remark @+1 {{not fused across the update of 'z' on its point list: 'c' has a result on half levels or without levels, which the list's entries cannot hold}}
  stn.store %b to %z on Vertex at %l : !stn.temp<Vertex x K x f64> to !stn.field<Vertex x K x f64>
  %c = stn.apply on Vertex[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Vertex x KHalf x f64> {
  ^bb0(%p: !stn.point<Vertex>):
    %zv = stn.load %z[%p, k] : !stn.field<Vertex x K x f64>
    stn.yield %zv : f64
  } attributes {name = "c"}
  stn.store %c to %u on Vertex[%lo : %hi] K[%k0 : %k1] : !stn.temp<Vertex x KHalf x f64> to !stn.field<Vertex x KHalf x f64>
  stn.return
}

// -----

// The list's update reads a field the box writes in between: it cannot move
// down to the reader.
// CHECK-LABEL: stn.program @written_between
// CHECK: alloc {name = "z"}
// CHECK-NOT: _at_
stn.program @written_between(%l: !stn.points<Cell>, %x: !stn.field<Cell x K x f64>,
    %y: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "y"},
    %u: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %z = stn.alloc {name = "z"} : !stn.field<Cell x K x f64>
  %a = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v0 = stn.load %x[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v0 : f64
  } attributes {name = "a"}
  stn.store %a to %z on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %b = stn.apply on Cell at %l -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    %yv = stn.load %y[%p, k] : !stn.field<Cell x K x f64>
    %s = arith.addf %zv, %yv : f64
    stn.yield %s : f64
  } attributes {name = "b"}
  // expected-remark @+1 {{not fused across the update of 'z' on its point list: the update cannot move to 'c': 'y' it reads is written in between}}
  stn.store %b to %z on Cell at %l : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %w = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v0 = stn.load %x[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v0 : f64
  } attributes {name = "w"}
  stn.store %w to %y on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %c = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %zv : f64
  } attributes {name = "c"}
  stn.store %c to %u on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// In place, as in ICON's step: t reads theta, which c writes. On cuda the
// cost model recomputes t in a through the neighbour table, which next to c
// it could not be: the buffer stays. (On cpp, where gathers cost more, the
// step's 13 stays in memory anyway and the pass applies: frontend/stats.test.)
// CHECK-LABEL: stn.program @in_place_cuda
// CHECK: alloc {name = "z_temp"}
// CHECK-NOT: _at_
module attributes {stn.target = "cuda"} {
stn.connectivity @C2E : Cell -> Edge [3]
stn.connectivity @E2C : Edge -> Cell [2] skip
stn.program @in_place_cuda(%steep: !stn.points<Cell> {stn.name = "steep"},
    %theta: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "theta"},
    %lo: i32, %hi: i32, %elo: i32, %ehi: i32, %k0: i32, %k1: i32) {
  %z = stn.alloc {name = "z_temp"} : !stn.field<Cell x K x f64>
  %t = stn.apply on Edge[%elo : %ehi] K[%k0 : %k1] -> !stn.temp<Edge x K x f64> {
  ^bb0(%p: !stn.point<Edge>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n0 = stn.neighbor %p through @E2C[%c0] : <Edge> -> <Cell>
    %n1 = stn.neighbor %p through @E2C[%c1] : <Edge> -> <Cell>
    %a0 = stn.load %theta[%n0, k] : !stn.field<Cell x K x f64>
    %a1 = stn.load %theta[%n1, k] : !stn.field<Cell x K x f64>
    %d = arith.subf %a1, %a0 : f64
    stn.yield %d : f64
  } attributes {name = "t"}
  %a = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %t[%e, k] : !stn.temp<Edge x K x f64>
      stn.yield %v : f64
    }
    stn.yield %s : f64
  } attributes {name = "a"}
  stn.store %a to %z on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %b = stn.apply on Cell at %steep -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    %s = arith.addf %zv, %zv : f64
    stn.yield %s : f64
  } attributes {name = "b"}
  // expected-remark @+1 {{not fused across the update of 'z_temp' on its point list: 't' would be recomputed in 'a' through a neighbour table on cuda (work}}
  stn.store %b to %z on Cell at %steep : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %c = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    %th = stn.load %theta[%p, k] : !stn.field<Cell x K x f64>
    %s = arith.addf %zv, %th : f64
    stn.yield %s : f64
  } attributes {name = "c"}
  stn.store %c to %theta on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
}

// -----

// The list's update reads the buffer before the box writes it: its entries
// see the old values, so it cannot be computed from the producer's.
// CHECK-LABEL: stn.program @update_first
// CHECK: alloc {name = "z"}
// CHECK-NOT: _at_
stn.program @update_first(%l: !stn.points<Cell>, %x: !stn.field<Cell x K x f64>,
    %u: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %z = stn.alloc {name = "z"} : !stn.field<Cell x K x f64>
  %b = stn.apply on Cell at %l -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %zv : f64
  } attributes {name = "b"}
  %a = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v0 = stn.load %x[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v0 : f64
  } attributes {name = "a"}
  stn.store %a to %z on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  // expected-remark @+1 {{not fused across the update of 'z' on its point list: the box store, the update and the reader are not in this order in one block}}
  stn.store %b to %z on Cell at %l : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %c = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %zv = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %zv : f64
  } attributes {name = "c"}
  stn.store %c to %u on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
