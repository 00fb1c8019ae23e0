// RUN: %loops-cuda %s | %fusec-translate --stn-to-cuda | FileCheck %s

// Neighbour loads through a connectivity without and with `skip`: only the
// point that can be missing gets a guard. Sparse loads, constant and dynamic
// vertical offsets index as f[h + n*ld + k*ld*N].

stn.connectivity @E2C : Edge -> Cell [2]
stn.connectivity @E2C2V : Edge -> Vertex [4] skip

// CHECK-LABEL: static __global__ void __launch_bounds__(kThreadsPerBlock)
// CHECK: nabla(int32_t h_lb, int32_t h_ub, int32_t k_lb, int32_t k_ub,
// CHECK: const double *__restrict__ theta,
// CHECK: const double *__restrict__ u_vert,
// CHECK: const double *__restrict__ pn,
// CHECK: const int32_t *__restrict__ vert_off,
// CHECK: double *__restrict__ z_out,
// CHECK: int64_t cell_ld,
// CHECK: int64_t edge_ld,
// CHECK: int64_t vertex_ld,
// CHECK: const int32_t *__restrict__ e2c_table,
// CHECK: int64_t e2c_ld,
// CHECK: const int32_t *__restrict__ e2c2v_table,
// CHECK: int64_t e2c2v_ld) {
// A thread's work item: one point and one level (kblock 1).
// CHECK: const int32_t h_begin = h_lb + static_cast<int32_t>(blockIdx.x * kThreadsPerBlock + threadIdx.x);
// CHECK-NEXT: if (h_begin >= h_ub)
// CHECK-NEXT: return;
// CHECK-NEXT: const int32_t h_end = h_begin + 1;
// CHECK-NEXT: const int32_t k_begin = k_lb + static_cast<int32_t>(blockIdx.y);
// CHECK-NEXT: const int32_t k_end = k_begin + 1;
// CHECK-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// Neighbour indices do not depend on the level: hoisted out of its loop.
// CHECK-NEXT: const int32_t e2c = e2c_table[h + e2c_ld];
// CHECK-NEXT: const int32_t e2c2v = e2c2v_table[h + 3 * e2c2v_ld];
// CHECK-NEXT: for (int32_t k = k_begin; k < k_end; ++k) {
// E2C has no skip: a plain load at k - 1.
// CHECK-NEXT: const double theta_1 = theta[e2c + (k - 1) * cell_ld];
// E2C2V may be missing: the load gives 0 there.
// CHECK-NEXT: const double u_vert_1 = e2c2v >= 0 ? u_vert[e2c2v + (k + 1) * vertex_ld] : 0.0;
// Sparse field Edge x E2C2V[4] x K: slot 3.
// CHECK-NEXT: const double pn_1 = pn[h + 3 * edge_ld + k * edge_ld * 4];
// CHECK-NEXT: const int32_t vert_off_1 = vert_off[h + k * edge_ld];
// Dynamic offset plus a constant one.
// CHECK-NEXT: const double theta_2 = theta[e2c + (k + vert_off_1 - 2) * cell_ld];
// CHECK-NEXT: const double t0 = u_vert_1 * pn_1;
// CHECK-NEXT: const double t1 = theta_1 + t0;
// CHECK-NEXT: const double t2 = t1 + theta_2;
// CHECK-NEXT: z_out[h + k * edge_ld] = t2;
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }

// The launcher checks the domain, then (timed when timers are on) launches
// one block of 128 points by one level.
// CHECK-LABEL: static int launch_nabla(nabla_handle &instance, int32_t h_lb, int32_t h_ub, int32_t k_lb,
// CHECK: if (h_lb >= h_ub || k_lb >= k_ub)
// CHECK-NEXT: return FUSEC_SUCCESS;
// CHECK-NEXT: if (!instance.extents.horizontal_inside(FUSEC_EDGE, h_lb, h_ub) ||
// CHECK-NEXT: !instance.extents.vertical_inside(k_lb, k_ub, false))
// CHECK-NEXT: return FUSEC_ERROR_DOMAIN;
// CHECK-NEXT: fusec::TimedLaunch timed(instance.timers, 0, instance.stream);
// CHECK-NEXT: FUSEC_LAUNCH(nabla,
// CHECK-NEXT: dim3(static_cast<unsigned>((h_ub - h_lb + kThreadsPerBlock - 1) / kThreadsPerBlock),
// CHECK-NEXT: static_cast<unsigned>(k_ub - k_lb)),
// CHECK-NEXT: kThreadsPerBlock, 0, instance.stream)(
// CHECK-NEXT: h_lb, h_ub, k_lb, k_ub, theta, u_vert, pn, vert_off, z_out,
// CHECK: instance.extents.ld[FUSEC_CELL],
// CHECK: instance.extents.ld[FUSEC_EDGE],
// CHECK: instance.extents.ld[FUSEC_VERTEX],
// CHECK: instance.E2C.data(),
// CHECK: instance.E2C.ld(),
// CHECK: instance.E2C2V.data(),
// CHECK: instance.E2C2V.ld());
// CHECK-NEXT: return fusec::launch_status();

// The program body is one static function on the instance, which P_run calls.
// CHECK-LABEL: static int execute_nabla(nabla_handle &instance,
// CHECK: const int32_t *vert_off,
// CHECK: int32_t hi) {
// CHECK-NEXT: const int32_t t0 = instance.extents.nlev - 1;
// CHECK-NEXT: if (int rc = launch_nabla(instance, lo, hi, 1, t0, theta, u_vert, pn, vert_off, z_out))
// CHECK-NEXT: return rc;
// CHECK-NEXT: return FUSEC_SUCCESS;

// CHECK-LABEL: extern "C" int nabla_create_with_layout(
// CHECK: status = instance->E2C.load(mesh, "E2C", FUSEC_EDGE, FUSEC_CELL, 2, instance->stream);
// CHECK: status = instance->E2C2V.load(mesh, "E2C2V", FUSEC_EDGE, FUSEC_VERTEX, 4, instance->stream);

// CHECK-LABEL: extern "C" int nabla_run(
// CHECK: int32_t hi) {
// CHECK-NEXT: if (handle == nullptr)
// CHECK-NEXT: return FUSEC_ERROR_NOT_SET_UP;
// CHECK-NEXT: fusec::TimedRun<1> timed(handle->timers, handle->stream);
// CHECK-NEXT: return execute_nabla(*handle, theta, u_vert, pn, vert_off, z_out, lo, hi);
stn.program @nabla(%theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
    %u: !stn.field<Vertex x K x f64> {stn.name = "u_vert"},
    %pn: !stn.field<Edge x E2C2V[4] x K x f64> {stn.name = "pn"},
    %off: !stn.field<Edge x K x i32> {stn.name = "vert_off"},
    %z: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "z_out"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  %top = arith.subi %n, %c1 : i32
  stn.kernel "nabla" on Edge[%lo : %hi] K[%c1 : %top] {
  ^bb0(%e: !stn.point<Edge>):
    %s1 = arith.constant 1 : index
    %s3 = arith.constant 3 : index
    %c = stn.neighbor %e through @E2C [%s1] : !stn.point<Edge> -> !stn.point<Cell>
    %v = stn.neighbor %e through @E2C2V [%s3] : !stn.point<Edge> -> !stn.point<Vertex>
    %a = stn.load %theta[%c, k - 1] : !stn.field<Cell x K x f64>
    %b = stn.load %u[%v, k + 1] : !stn.field<Vertex x K x f64>
    %p = stn.load %pn[%e, nbr %s3, k] : !stn.field<Edge x E2C2V[4] x K x f64>
    %o = stn.load %off[%e, k] : !stn.field<Edge x K x i32>
    %d = stn.load %theta[%c, k + %o - 2] : !stn.field<Cell x K x f64>
    %bp = arith.mulf %b, %p : f64
    %s = arith.addf %a, %bp : f64
    %r = arith.addf %s, %d : f64
    stn.write %r to %z at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}
