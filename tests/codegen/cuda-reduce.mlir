// RUN: %loops-cuda %s | %fusec-translate --stn-to-cuda | FileCheck %s

// Reductions skip missing slots of `skip` connectivities and start from the
// identity of their fold; at a point that can be missing, a reduction gives
// the identity; stn.valid and stn.index test and expose the -1.

stn.connectivity @C2E : Cell -> Edge [3]
stn.connectivity @V2E : Vertex -> Edge [6] skip
stn.connectivity @C2E2C : Cell -> Cell [3] skip

// CHECK-LABEL: rot_1(
// CHECK: for (int32_t k = k_begin; k < k_end; ++k) {
// CHECK-NEXT: double sum_v2e = 0.0;
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int32_t j = 0; j < 6; ++j) {
// CHECK-NEXT: const int32_t v2e = v2e_table[h + j * v2e_ld];
// CHECK-NEXT: if (v2e < 0)
// CHECK-NEXT: continue;
// CHECK-NEXT: const double w_1 = w[h + j * vertex_ld];
// CHECK-NEXT: const double vn_1 = vn[v2e + k * edge_ld];
// CHECK-NEXT: const double t0 = w_1 * vn_1;
// CHECK-NEXT: sum_v2e += t0;
// CHECK-NEXT: }
// CHECK-NEXT: double min_v2e = HUGE_VAL;
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int32_t j_1 = 0; j_1 < 6; ++j_1) {
// CHECK-NEXT: const int32_t v2e_1 = v2e_table[h + j_1 * v2e_ld];
// CHECK-NEXT: if (v2e_1 < 0)
// CHECK-NEXT: continue;
// CHECK-NEXT: const double vn_2 = vn[v2e_1 + k * edge_ld];
// CHECK-NEXT: min_v2e = fusec::minnum(min_v2e, vn_2);
// CHECK-NEXT: }
// CHECK-NEXT: const double t1 = sum_v2e + min_v2e;
// CHECK-NEXT: rot[h + k * vertex_ld] = t1;
stn.program @rot(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
    %w: !stn.field<Vertex x V2E[6] x f64> {stn.name = "w"},
    %rot: !stn.field<Vertex x K x f64> {stn.intent = 1 : i32, stn.name = "rot"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  stn.kernel "rot" on Vertex[%lo : %hi] K[%c0 : %n] {
  ^bb0(%v: !stn.point<Vertex>):
    %s = stn.reduce sum over @V2E at %v : !stn.point<Vertex> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %g = stn.load %w[%v, nbr %j] : !stn.field<Vertex x V2E[6] x f64>
      %x = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %p = arith.mulf %g, %x : f64
      stn.yield %p : f64
    }
    %m = stn.reduce min over @V2E at %v : !stn.point<Vertex> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %x = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      stn.yield %x : f64
    }
    %r = arith.addf %s, %m : f64
    stn.write %r to %rot at %v : !stn.point<Vertex> : f64, !stn.field<Vertex x K x f64>
  }
  stn.return
}

// A 2-D kernel: no level anywhere.
// CHECK-LABEL: static __global__ void __launch_bounds__(kThreadsPerBlock)
// CHECK-NEXT: folds(
// CHECK: if (h_begin >= h_ub)
// CHECK-NEXT: return;
// CHECK-NEXT: const int32_t h_end = h_begin + 1;
// CHECK-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// Through a connectivity without skip, and with the neighbour unused, the
// loop reads no table.
// CHECK-NEXT: int32_t prod_c2e = 1;
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int32_t j = 0; j < 3; ++j) {
// CHECK-NEXT: const int32_t g_1 = g[h + j * cell_ld];
// CHECK-NEXT: prod_c2e *= g_1;
// CHECK-NEXT: }
// CHECK-NEXT: const int32_t c2e2c = c2e2c_table[h + c2e2c_ld];
// A reduction at a point that can be missing gives the identity there.
// CHECK-NEXT: float max_c2e = -INFINITY;
// CHECK-NEXT: if (c2e2c >= 0) {
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int32_t j_1 = 0; j_1 < 3; ++j_1) {
// CHECK-NEXT: const int32_t c2e = c2e_table[c2e2c + j_1 * c2e_ld];
// CHECK-NEXT: const float a_1 = a[c2e];
// CHECK-NEXT: max_c2e = fusec::maxnum(max_c2e, a_1);
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: int32_t max_c2e_1 = INT32_MIN;
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int32_t j_2 = 0; j_2 < 3; ++j_2) {
// CHECK-NEXT: max_c2e_1 = j_2 > max_c2e_1 ? j_2 : max_c2e_1;
// CHECK-NEXT: }
// The neighbour of a missing point is missing.
// CHECK-NEXT: const int32_t c2e2c_1 = c2e2c >= 0 ? c2e2c_table[c2e2c + 2 * c2e2c_ld] : -1;
// CHECK-NEXT: const bool valid = c2e2c_1 >= 0;
// CHECK-NEXT: const float t0 = valid ? max_c2e : 0.0f;
// CHECK-NEXT: out[h] = t0;
// stn.index is the point itself; stn.valid of the current point is true.
// CHECK-NEXT: const int32_t t1 = prod_c2e + c2e2c_1;
// CHECK-NEXT: const int32_t t2 = t1 + max_c2e_1;
// CHECK-NEXT: idx[h] = t2;
// CHECK-NEXT: flag[h] = true;
// CHECK-NEXT: }
stn.program @folds(%a: !stn.field<Edge x f32> {stn.name = "a"},
    %g: !stn.field<Cell x C2E[3] x i32> {stn.name = "g"},
    %out: !stn.field<Cell x f32> {stn.intent = 1 : i32, stn.name = "out"},
    %idx: !stn.field<Cell x i32> {stn.intent = 1 : i32, stn.name = "idx"},
    %flag: !stn.field<Cell x i1> {stn.intent = 1 : i32, stn.name = "flag"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  stn.kernel "folds" on Cell[%lo : %hi] {
  ^bb0(%c: !stn.point<Cell>):
    %s1 = arith.constant 1 : index
    %s2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %p = stn.reduce prod over @C2E at %c : !stn.point<Cell> -> i32 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %x = stn.load %g[%c, nbr %j] : !stn.field<Cell x C2E[3] x i32>
      stn.yield %x : i32
    }
    %n1 = stn.neighbor %c through @C2E2C [%s1] : !stn.point<Cell> -> !stn.point<Cell>
    %mx = stn.reduce max over @C2E at %n1 : !stn.point<Cell> -> f32 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %x = stn.load %a[%e] : !stn.field<Edge x f32>
      stn.yield %x : f32
    }
    %slots = stn.reduce max over @C2E at %c : !stn.point<Cell> -> i32 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %ji = arith.index_cast %j : index to i32
      stn.yield %ji : i32
    }
    %n2 = stn.neighbor %n1 through @C2E2C [%s2] : !stn.point<Cell> -> !stn.point<Cell>
    %ok = stn.valid %n2 : !stn.point<Cell>
    %v = arith.select %ok, %mx, %zero : f32
    stn.write %v to %out at %c : !stn.point<Cell> : f32, !stn.field<Cell x f32>
    %i = stn.index %n2 : !stn.point<Cell>
    %pi = arith.addi %p, %i : i32
    %sum = arith.addi %pi, %slots : i32
    stn.write %sum to %idx at %c : !stn.point<Cell> : i32, !stn.field<Cell x i32>
    %here = stn.valid %c : !stn.point<Cell>
    stn.write %here to %flag at %c : !stn.point<Cell> : i1, !stn.field<Cell x i1>
  }
  stn.return
}
