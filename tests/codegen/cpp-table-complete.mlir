// RUN: %loops-cpp %s --stn-unswitch-missing-neighbors | %fusec-translate --stn-to-cpp | FileCheck %s
// RUN: %loops-cpp %s --stn-unswitch-missing-neighbors | not %fusec-translate --stn-to-cuda 2>&1 | FileCheck %s --check-prefix=CUDA

// stn.table_complete prints as a comparison of the table's counts of rows
// with a missing neighbour (HostTable::missing_before), passed to the kernel
// from the instance; the copy of the loop with `present` lookups loads
// without a guard, the other keeps it. Flat and blocked layout alike.
// CHECK-LABEL: static void nabla(
// CHECK:         const int32_t *__restrict__ e2c2v_missing_before) {
// CHECK:         const bool complete = e2c2v_missing_before[h_end] == e2c2v_missing_before[h_begin];
// CHECK:         if (complete) {
// CHECK:           const double u_1 = u[e2c2v + k * vertex_ld];
// CHECK:         } else {
// CHECK:           const double u_2 = e2c2v_1 >= 0 ? u[e2c2v_1 + k * vertex_ld] : 0.0;
// CHECK-LABEL: static void nabla_blocked(
// CHECK:         const bool complete = e2c2v_missing_before[h_end] == e2c2v_missing_before[h_begin];
// CHECK:         if (complete) {
// CHECK:           const double u_1 = u[e2c2v_full + k * vertex_ld];
// CHECK:         } else {
// CHECK:           const double u_2 = e2c2v_full_1 >= 0 ? u[e2c2v_full_1 + k * vertex_ld] : 0.0;
// CHECK-LABEL: static int launch_nabla(
// CHECK:         instance.E2C2V.missing_before()

// The CUDA emitter keeps its tables on the device and refuses the test.
// CUDA: error: kernel 'nabla' tests its tables for missing neighbours (stn.table_complete), which only the C++ target can
stn.connectivity @E2C2V : Edge -> Vertex [4] skip

stn.program @nabla(%u: !stn.field<Vertex x K x f64> {stn.name = "u"},
    %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %lo: i32, %hi: i32) {
  %z = arith.constant 0 : i32
  %n = stn.nlev : i32
  stn.kernel "nabla" on Edge[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Edge>):
    %c1 = arith.constant 1 : index
    %v = stn.neighbor %p through @E2C2V [%c1] : !stn.point<Edge> -> !stn.point<Vertex>
    %x = stn.load %u[%v, k] : !stn.field<Vertex x K x f64>
    stn.write %x to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}
