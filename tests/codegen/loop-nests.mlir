// RUN: %loops-cuda %s | %fusec-translate --stn-to-cuda | FileCheck %s --check-prefix=CUDA
// RUN: %loops-cpp %s | %fusec-translate --stn-to-cpp | FileCheck %s --check-prefix=CPP

// How each backend cuts a kernel's domain into work items around the loop
// form of the kernel body (docs/dialect.md): vertical-only, 2-D, 3-D with
// kblock > 1 (on GPUs a level loop per thread after the level-independent
// work, on CPUs tiles of kblock levels, each a level loop around a simd loop
// over points), and half levels (nlev + 1) in the domain check. On CPUs the
// program's one parallel region is open around the kernel: it shares its work
// items with an orphaned `omp for`.

stn.connectivity @E2C : Edge -> Cell [2]
stn.connectivity @V2E : Vertex -> Edge [6] skip

// CUDA-LABEL: static __global__ void __launch_bounds__(kThreadsPerBlock)
// CUDA-NEXT: profile(int32_t k_lb, int32_t k_ub, const double *__restrict__ limit,
// CUDA: const int32_t k_begin = k_lb + static_cast<int32_t>(blockIdx.x * kThreadsPerBlock + threadIdx.x);
// CUDA-NEXT: if (k_begin >= k_ub)
// CUDA-NEXT: return;
// CUDA-NEXT: const int32_t k_end = k_begin + 1;
// CUDA-NEXT: for (int32_t k = k_begin; k < k_end; ++k) {
// CUDA-NEXT: const double limit_1 = limit[k + 1];
// CUDA-NEXT: const double t0 = limit_1 * 0.5;
// CUDA-NEXT: scaled[k] = t0;
// CUDA: static int launch_profile(levels_handle &instance, int32_t k_lb, int32_t k_ub, const double *limit,
// CUDA-NEXT: double *scaled) {
// CUDA-NEXT: if (k_lb >= k_ub)
// CUDA-NEXT: return FUSEC_SUCCESS;
// CUDA-NEXT: if (!instance.extents.vertical_inside(k_lb, k_ub, false))
// CUDA-NEXT: return FUSEC_ERROR_DOMAIN;
// CUDA-NEXT: fusec::TimedLaunch timed(instance.timers, 0, instance.stream);
// CUDA-NEXT: FUSEC_LAUNCH(profile,
// CUDA-NEXT: dim3(static_cast<unsigned>((k_ub - k_lb + kThreadsPerBlock - 1) / kThreadsPerBlock)),

// A vertical-only kernel is one work item: one thread of the team runs it,
// here (`nowait`, stn-elide-barriers) without the others waiting for it.
// Every kernel function is out of line (inlined into the program's executor
// it ran slower).
// CPP-LABEL: {{^}}{{\[\[}}gnu::noinline{{\]\]$}}
// CPP-NEXT: static void profile(
// CPP: #pragma omp single nowait
// CPP-NEXT: {
// CPP-NEXT: const int32_t k_begin = k_lb;
// CPP-NEXT: const int32_t k_end = k_ub;
// CPP-NEXT: #pragma omp simd
// CPP-NEXT: for (int32_t k = k_begin; k < k_end; ++k) {
// CPP-NEXT: const double limit_1 = limit[k + 1];

// CUDA-LABEL: interfaces(
// CUDA: const int32_t h_begin = h_lb + static_cast<int32_t>(blockIdx.x * kThreadsPerBlock + threadIdx.x);
// CUDA-NEXT: if (h_begin >= h_ub)
// CUDA-NEXT: return;
// CUDA-NEXT: const int32_t h_end = h_begin + 1;
// CUDA-NEXT: const int32_t k_begin = k_lb + static_cast<int32_t>(blockIdx.y);
// CUDA-NEXT: const int32_t k_end = k_begin + 1;
// CUDA-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// CUDA-NEXT: for (int32_t k = k_begin; k < k_end; ++k) {
// CUDA-NEXT: const double t0 = static_cast<double>(k);
// CUDA-NEXT: w[h + k * cell_ld] = t0;
// CUDA: if (!instance.extents.horizontal_inside(FUSEC_CELL, h_lb, h_ub) ||
// CUDA-NEXT: !instance.extents.vertical_inside(k_lb, k_ub, true))

// CPP-LABEL: static void interfaces(
// CPP: const int32_t h_blocks = (h_ub - h_lb + kHorizontalBlock - 1) / kHorizontalBlock;
// CPP-NEXT: const int32_t k_tiles = k_ub - k_lb;
// CPP-NEXT: #pragma omp for collapse(2) schedule(static)
// CPP-NEXT: for (int32_t kt = 0; kt < k_tiles; ++kt) {
// CPP-NEXT: for (int32_t hb = 0; hb < h_blocks; ++hb) {
// CPP-NEXT: const int32_t h_begin = h_lb + hb * kHorizontalBlock;
// CPP-NEXT: const int32_t h_end = std::min(h_begin + kHorizontalBlock, h_ub);
// CPP-NEXT: const int32_t k_begin = k_lb + kt;
// CPP-NEXT: const int32_t k_end = k_begin + 1;
// CPP-NEXT: for (int32_t k = k_begin; k < k_end; ++k) {
// What does not depend on the point leaves the simd loop.
// CPP-NEXT: const double t0 = static_cast<double>(k);
// CPP-NEXT: #pragma omp simd
// CPP-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// CPP-NEXT: w[h + k * cell_ld] = t0;
// A launch on an empty domain still waits at the barrier its omp for ends with:
// kernels launched before it may be running on other threads.
// CPP-LABEL: static int launch_interfaces(
// CPP: if (h_lb >= h_ub || k_lb >= k_ub) {
// CPP-NEXT: fusec::team_barrier();
// CPP-NEXT: return FUSEC_SUCCESS;

// CUDA-LABEL: blocked(
// CUDA: if (h_begin >= h_ub)
// CUDA-NEXT: return;
// CUDA-NEXT: const int32_t h_end = h_begin + 1;
// CUDA-NEXT: const int32_t k_begin = k_lb + static_cast<int32_t>(blockIdx.y) * 4;
// CUDA-NEXT: const int32_t k_end = min(k_begin + 4, k_ub);
// CUDA-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// The neighbour index and the 2-D load are hoisted out of the level loop.
// CUDA-NEXT: const int32_t e2c = e2c_table[h];
// CUDA-NEXT: const double area_1 = area[e2c];
// CUDA-NEXT: for (int32_t k = k_begin; k < k_end; ++k) {
// CUDA-NEXT: const double w_1 = w[e2c + (k + 1) * cell_ld];
// CUDA-NEXT: const double t0 = w_1 * area_1;
// CUDA-NEXT: vn[h + k * edge_ld] = t0;
// CUDA-NEXT: }
// CUDA-NEXT: }
// CUDA: FUSEC_LAUNCH(blocked,
// CUDA-NEXT: dim3(static_cast<unsigned>((h_ub - h_lb + kThreadsPerBlock - 1) / kThreadsPerBlock),
// CUDA-NEXT: static_cast<unsigned>((k_ub - k_lb + 3) / 4)),

// CPP-LABEL: static void blocked(
// CPP: const int32_t h_blocks = (h_ub - h_lb + kHorizontalBlock - 1) / kHorizontalBlock;
// CPP-NEXT: const int32_t k_tiles = (k_ub - k_lb + 3) / 4;
// CPP-NEXT: #pragma omp for collapse(2) schedule(static)
// CPP-NEXT: for (int32_t kt = 0; kt < k_tiles; ++kt) {
// CPP-NEXT: for (int32_t hb = 0; hb < h_blocks; ++hb) {
// CPP-NEXT: const int32_t h_begin = h_lb + hb * kHorizontalBlock;
// CPP-NEXT: const int32_t h_end = std::min(h_begin + kHorizontalBlock, h_ub);
// CPP-NEXT: const int32_t k_begin = k_lb + kt * 4;
// CPP-NEXT: const int32_t k_end = std::min(k_begin + 4, k_ub);
// CPP-NEXT: for (int32_t k = k_begin; k < k_end; ++k) {
// CPP-NEXT: #pragma omp simd
// CPP-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// CPP-NEXT: const int32_t e2c = e2c_table[h];

// The blocked variant of each kernel with points (ICON's CPU layout,
// fusec_layout.nproma > 0): blocks of nproma points in parallel, the block cut
// into chunks of at most kHorizontalBlock points and clipped to [h_lb, h_ub),
// then every level, then the chunk's points; a block of a field holds
// nproma * levels elements. A gather reads the neighbour's level-0 element
// (index and block in one) from the table's block offsets for the field's
// shape; the 2-D dense area needs the plain entry.
// CPP-LABEL: static void blocked_blocked(
// CPP: {{\[\[}}maybe_unused]] const int64_t *__restrict__ e2c_offsets_half,
// CPP-NEXT: {{\[\[}}maybe_unused]] int32_t nproma, {{\[\[}}maybe_unused]] int32_t num_levels) {
// CPP-NEXT: const int32_t jb_first = h_lb / nproma;
// CPP-NEXT: const int32_t jb_end = static_cast<int32_t>((int64_t(h_ub) + nproma - 1) / nproma);
// CPP-NEXT: #pragma omp for schedule(static)
// CPP-NEXT: for (int32_t jb = jb_first; jb < jb_end; ++jb) {
// CPP-NEXT: const int32_t block_begin = std::max(h_lb, jb * nproma);
// CPP-NEXT: const int32_t block_end =
// CPP-NEXT: static_cast<int32_t>(std::min<int64_t>(h_ub, int64_t(jb + 1) * nproma));
// CPP-NEXT: for (int32_t chunk = block_begin; chunk < block_end; chunk += kHorizontalBlock) {
// CPP-NEXT: const int32_t h_begin = chunk;
// CPP-NEXT: const int32_t h_end = std::min(chunk + kHorizontalBlock, block_end);
// CPP-NEXT: const int32_t k_begin = k_lb;
// CPP-NEXT: const int32_t k_end = k_ub;
// CPP-NEXT: for (int32_t k = k_begin; k < k_end; ++k) {
// CPP-NEXT: #pragma omp simd
// CPP-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// CPP-NEXT: const int64_t e2c_half = e2c_offsets_half[h];
// CPP-NEXT: const int32_t e2c = e2c_table[h];
// CPP-NEXT: const double area_1 = area[e2c];
// CPP-NEXT: const double w_1 = w[e2c_half + (k + 1) * cell_ld];
// CPP-NEXT: const double t0 = w_1 * area_1;
// CPP-NEXT: vn[h + k * edge_ld + jb * (nproma * (num_levels - 1))] = t0;
// CPP: static int launch_blocked(
// CPP: if (instance.extents.blocked()) {
// CPP-NEXT: blocked_blocked(h_lb, h_ub, k_lb, k_ub, area, w, vn, instance.extents.ld[FUSEC_CELL],
// CPP-NEXT: instance.extents.ld[FUSEC_EDGE], instance.E2C.data(),
// CPP-NEXT: instance.E2C.block_offsets(instance.extents.nlev),
// CPP-NEXT: static_cast<int32_t>(instance.extents.nproma), instance.extents.nlev);
// CPP-NEXT: return FUSEC_SUCCESS;
// CPP-NEXT: }
// CPP-NEXT: blocked(h_lb, h_ub, k_lb, k_ub, area, w, vn, instance.extents.ld[FUSEC_CELL],

// A neighbour read only through block offsets needs no entry: its presence is
// tested on the offset (-1 where missing).
// CPP-LABEL: static void gather_blocked(
// CPP: for (int32_t h = h_begin; h < h_end; ++h) {
// CPP-NEXT: const int64_t v2e_full = v2e_offsets_full[h + v2e_ld];
// CPP-NEXT: const double vn_1 = v2e_full >= 0 ? vn[v2e_full + k * edge_ld] : 0.0;
// CPP-NEXT: const bool valid = v2e_full >= 0;
// CPP-NEXT: const double t0 = valid ? vn_1 : 0.0;
// CPP-NEXT: vsum[h + k * vertex_ld + jb * (nproma * (num_levels - 1))] = t0;

// CUDA-LABEL: flat(
// CUDA: if (h_begin >= h_ub)
// CUDA-NEXT: return;
// CUDA-NEXT: const int32_t h_end = h_begin + 1;
// CUDA-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// CUDA-NEXT: const double area_1 = area[h];
// CUDA-NEXT: const double t0 = area_1 + area_1;
// CUDA-NEXT: area2[h] = t0;
// CUDA-NEXT: }
// CUDA-NEXT: }
// CUDA: FUSEC_LAUNCH(flat,
// CUDA-NEXT: dim3(static_cast<unsigned>((h_ub - h_lb + kThreadsPerBlock - 1) / kThreadsPerBlock)),

// CPP-LABEL: static void flat(
// CPP: #pragma omp for schedule(static) nowait
// CPP-NEXT: for (int32_t hb = 0; hb < h_blocks; ++hb) {
// CPP-NEXT: const int32_t h_begin = h_lb + hb * kHorizontalBlock;
// CPP-NEXT: const int32_t h_end = std::min(h_begin + kHorizontalBlock, h_ub);
// CPP-NEXT: #pragma omp simd
// CPP-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// CPP-NEXT: const double area_1 = area[h];
// 2-D dense fields are the same in both layouts.
// CPP-LABEL: static void flat_blocked(
// CPP: #pragma omp for schedule(static) nowait
// CPP: for (int32_t h = h_begin; h < h_end; ++h) {
// CPP-NEXT: const double area_1 = area[h];
// CPP-NEXT: const double t0 = area_1 + area_1;
// CPP-NEXT: area2[h] = t0;

// A `nowait` kernel has no barrier to wait at.
// CPP-LABEL: static int launch_flat(
// CPP: if (h_lb >= h_ub)
// CPP-NEXT: return FUSEC_SUCCESS;

// Setup computes each table's block offsets once per shape.
// CPP-LABEL: extern "C" int levels_create_with_layout(
// CPP: status = instance->E2C.compute_block_offsets(instance->extents.nproma, instance->extents.nlev);
// CPP: instance->V2E.compute_block_offsets(instance->extents.nproma, instance->extents.nlev - 1);

stn.program @levels(%limit: !stn.field<K x f64> {stn.name = "limit"},
    %scaled: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "scaled"},
    %w: !stn.field<Cell x KHalf x f64> {stn.intent = 2 : i32, stn.name = "w"},
    %area: !stn.field<Cell x f64> {stn.name = "area"},
    %area2: !stn.field<Cell x f64> {stn.intent = 1 : i32, stn.name = "area2"},
    %vn: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "vn"},
    %vsum: !stn.field<Vertex x K x f64> {stn.intent = 1 : i32, stn.name = "vsum"},
    %cells: i32 {stn.name = "cells"}, %edges: i32 {stn.name = "edges"},
    %vertices: i32 {stn.name = "vertices"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  %n1 = arith.addi %n, %c1 : i32
  %nm1 = arith.subi %n, %c1 : i32
  stn.kernel "profile" on K[%c0 : %nm1] attributes {nowait} {
    %l = stn.load %limit[k + 1] : !stn.field<K x f64>
    %half = arith.constant 0.5 : f64
    %s = arith.mulf %l, %half : f64
    stn.write %s to %scaled : f64, !stn.field<K x f64>
  }
  stn.kernel "interfaces" on Cell[%c0 : %cells] K[%c0 : %n1] {
  ^bb0(%c: !stn.point<Cell>):
    %k = stn.level
    %kf = arith.sitofp %k : i32 to f64
    stn.write %kf to %w at %c : !stn.point<Cell> : f64, !stn.field<Cell x KHalf x f64>
  }
  stn.kernel "blocked" on Edge[%c0 : %edges] K[%c0 : %nm1] attributes {kblock = 4} {
  ^bb0(%e: !stn.point<Edge>):
    %s0 = arith.constant 0 : index
    %c = stn.neighbor %e through @E2C [%s0] : !stn.point<Edge> -> !stn.point<Cell>
    %a = stn.load %area[%c] : !stn.field<Cell x f64>
    %x = stn.load %w[%c, k + 1] : !stn.field<Cell x KHalf x f64>
    %v = arith.mulf %x, %a : f64
    stn.write %v to %vn at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.kernel "gather" on Vertex[%c0 : %vertices] K[%c0 : %n] {
  ^bb0(%v: !stn.point<Vertex>):
    %s1 = arith.constant 1 : index
    %e = stn.neighbor %v through @V2E [%s1] : !stn.point<Vertex> -> !stn.point<Edge>
    %x = stn.load %vn[%e] : !stn.field<Edge x K x f64>
    %ok = stn.valid %e : !stn.point<Edge>
    %zero = arith.constant 0.0 : f64
    %y = arith.select %ok, %x, %zero : f64
    stn.write %y to %vsum at %v : !stn.point<Vertex> : f64, !stn.field<Vertex x K x f64>
  }
  stn.kernel "flat" on Cell[%c0 : %cells] attributes {nowait} {
  ^bb0(%c: !stn.point<Cell>):
    %a = stn.load %area[%c] : !stn.field<Cell x f64>
    %d = arith.addf %a, %a : f64
    stn.write %d to %area2 at %c : !stn.point<Cell> : f64, !stn.field<Cell x f64>
  }
  stn.return
}

// A value carried between levels on CPUs (stn-carry-levels): a local array of
// the work item's points, stored at one level and read at the next; the loop
// over the other levels reads no `k - 1` element.
// CPP-LABEL: static void carried(
// CPP: double row[128];
// CPP: #pragma omp simd
// CPP: const int32_t [[I:t[0-9]+]] = h - h_begin;
// CPP: const double [[X:.*]] = w[h + k_begin * cell_ld];
// CPP: row[[[I]]] = [[X]];
// CPP: for (int32_t k = {{.*}}; k < k_end; ++k) {
// CPP-NEXT: #pragma omp simd
// CPP-NEXT: for (int32_t h_1 = h_begin; h_1 < h_end; ++h_1) {
// CPP-NEXT: const int32_t [[I2:t[0-9]+]] = h_1 - h_begin;
// CPP-NEXT: const double [[C:carried[_0-9]*]] = row[[[I2]]];
// CPP-NEXT: const double [[X2:.*]] = w[h_1 + k * cell_ld];
// CPP-NEXT: const double {{.*}} = [[X2]] - [[C]];
// CPP: row[[[I2]]] = [[X2]];
stn.program @carry(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %dw: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "dw"},
    %cells: i32 {stn.name = "cells"}) {
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  stn.kernel "carried" on Cell[%c1 : %cells] K[%c1 : %n] attributes {kblock = 1024} {
  ^bb0(%c: !stn.point<Cell>):
    %x = stn.load %w[%c, k] : !stn.field<Cell x K x f64>
    %xb = stn.load %w[%c, k - 1] : !stn.field<Cell x K x f64>
    %d = arith.subf %x, %xb : f64
    stn.write %d to %dw at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}
