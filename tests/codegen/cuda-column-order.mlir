// RUN: %loops-cuda %s | %fusec-translate --stn-to-cuda | FileCheck %s

// A kernel with `column_order` (bytes its points' levels share, bytes a point
// moves per level) may number its blocks along x alone, all level tiles of a
// block of points consecutively: block b computes point block b / tiles and
// level tile b % tiles. Its launcher chooses at run time: column by column
// when a level tile of all the launch's points (12 + 4 * 32 bytes per point
// with 4 levels per tile) does not fit in the device's L2
// (fusec::column_order_pays), counting the blocks in int64_t and refusing more
// than CUDA allows; else level tiles on blockIdx.y, as without the attribute
// (every point of a tile before the next tile). The kernel reads the order
// from the grid's shape; with one level tile both orders number alike.

// CHECK-LABEL: gradient(int32_t h_lb, int32_t h_ub, int32_t k_lb, int32_t k_ub,
// CHECK:         const int32_t level_tiles = (k_ub - k_lb + 3) / 4;
// CHECK-NEXT:    const bool by_column = gridDim.y == 1;
// CHECK-NEXT:    const int32_t h_begin = h_lb +
// CHECK-NEXT:                            (by_column ? static_cast<int32_t>(blockIdx.x) / level_tiles
// CHECK-NEXT:                                       : static_cast<int32_t>(blockIdx.x)) *
// CHECK-NEXT:                                kThreadsPerBlock +
// CHECK-NEXT:                            static_cast<int32_t>(threadIdx.x);
// CHECK-NEXT:    if (h_begin >= h_ub)
// CHECK-NEXT:      return;
// CHECK-NEXT:    const int32_t h_end = h_begin + 1;
// CHECK-NEXT:    const int32_t k_begin = k_lb + (by_column ? static_cast<int32_t>(blockIdx.x) % level_tiles
// CHECK-NEXT:                                              : static_cast<int32_t>(blockIdx.y)) *
// CHECK-NEXT:                                       4;
// CHECK-NEXT:    const int32_t k_end = min(k_begin + 4, k_ub);
// CHECK-LABEL: static int launch_gradient(
// CHECK:         if (fusec::column_order_pays(h_ub - h_lb, 140)) {
// CHECK-NEXT:      if (int64_t((h_ub - h_lb + kThreadsPerBlock - 1) / kThreadsPerBlock) * ((k_ub - k_lb + 3) / 4) >
// CHECK-NEXT:          INT32_MAX)
// CHECK-NEXT:        return FUSEC_ERROR_CUDA;
// CHECK-NEXT:      FUSEC_LAUNCH(gradient,
// CHECK-NEXT:                   dim3(static_cast<unsigned>(
// CHECK-NEXT:                       int64_t((h_ub - h_lb + kThreadsPerBlock - 1) / kThreadsPerBlock) *
// CHECK-NEXT:                       ((k_ub - k_lb + 3) / 4))),
// CHECK:         } else {
// CHECK-NEXT:      FUSEC_LAUNCH(
// CHECK-NEXT:          gradient,
// CHECK-NEXT:          dim3(static_cast<unsigned>((h_ub - h_lb + kThreadsPerBlock - 1) / kThreadsPerBlock),
// CHECK-NEXT:               static_cast<unsigned>((k_ub - k_lb + 3) / 4)),
// CHECK:         }
// CHECK-NEXT:    return fusec::launch_status();
// CHECK-LABEL: copy(int32_t h_lb, int32_t h_ub, int32_t k_lb, int32_t k_ub,
// CHECK-NOT:     by_column
// CHECK:         const int32_t h_begin = h_lb + static_cast<int32_t>(blockIdx.x * kThreadsPerBlock + threadIdx.x);
// CHECK:         const int32_t k_begin = k_lb + static_cast<int32_t>(blockIdx.y);
// CHECK-LABEL: static int launch_copy(
// CHECK-NOT:     column_order_pays
// CHECK:         dim3(static_cast<unsigned>((h_ub - h_lb + kThreadsPerBlock - 1) / kThreadsPerBlock),
// CHECK-NEXT:         static_cast<unsigned>(k_ub - k_lb)),

stn.connectivity @C2E2C : Cell -> Cell [3]
stn.program @columns(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %o2: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o2"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32 {stn.name = "k0"},
    %k1: i32 {stn.name = "k1"}) {
  kernel "gradient" on Cell[%lo : %hi] K[%k0 : %k1] attributes {column_order = array<i64: 12, 32>, kblock = 4 : i64} {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2C at %p : <Cell> -> f64 {
    ^bb0(%j: index, %n: !stn.point<Cell>):
      %v = stn.load %f[%n, k] : !stn.field<Cell x K x f64>
      stn.yield %v : f64
    }
    stn.write %s to %o at %p : !stn.point<Cell> : f64, <Cell x K x f64>
  }
  kernel "copy" on Cell[%lo : %hi] K[%k0 : %k1] {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.write %v to %o2 at %p : !stn.point<Cell> : f64, <Cell x K x f64>
  }
  return
}
