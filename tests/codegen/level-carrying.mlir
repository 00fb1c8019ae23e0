// RUN: %fusec-translate --stn-to-cuda %s | FileCheck %s --check-prefix=CUDA
// RUN: %fusec-translate --stn-to-cpp %s | FileCheck %s --check-prefix=CPP

// Level loops (kblock > 1) take what the level below computed instead of
// computing it again: a `k - 1` reduction or expression is the `k` one a
// level down. CUDA keeps it in a register and also carries plain loads;
// C++ keeps it per point in an array and reads plain loads again (the level
// below is still in the L1 cache). The first level of a block computes
// everything.

stn.connectivity @C2E : Cell -> Edge [3]

// The whole `k - 1` quotient is carried, so the level loop drops its
// reduction too.
// CUDA-LABEL: carried(int32_t h_lb
// CUDA: const int32_t k_end = min(k_begin + 4, k_ub);
// CUDA-NEXT: double carry;
// CUDA-NEXT: double carry_1;
// CUDA-NEXT: {
// CUDA-NEXT: const int32_t k = k_begin;
// CUDA: const double vn_1 = vn[c2e + k * edge_ld];
// CUDA: const double vn_2 = vn[c2e_1 + (k - 1) * edge_ld];
// CUDA: const double scale_1 = scale[k];
// CUDA-NEXT: const double scale_2 = scale[k - 1];
// CUDA-NEXT: const double [[HERE:t[0-9]+]] = sum_c2e / scale_1;
// CUDA: const double kh_1 = kh[h + k * cell_ld];
// CUDA-NEXT: const double kh_2 = kh[h + (k - 1) * cell_ld];
// CUDA: carry = [[HERE]];
// CUDA-NEXT: carry_1 = kh_1;
// CUDA-NEXT: }
// CUDA-NEXT: for (int32_t k = k_begin + 1; k < k_end; ++k) {
// CUDA-NOT: k - 1
// CUDA: const double [[HERE2:t[0-9]+]] = sum_c2e_2 / scale_3;
// CUDA-NEXT: const double {{t[0-9]+}} = carry;
// CUDA-NEXT: const double kh_3 = kh[h + k * cell_ld];
// CUDA-NEXT: const double {{t[0-9]+}} = carry_1;
// CUDA-NOT: k - 1
// CUDA: carry = [[HERE2]];
// CUDA-NEXT: carry_1 = kh_3;
// CUDA-NEXT: }
// CUDA-NEXT: }

// CPP-LABEL: static void carried(
// CPP: const int32_t h_end = std::min(h_begin + kHorizontalBlock, h_ub);
// CPP-NEXT: double carry[kHorizontalBlock];
// CPP-NEXT: {
// CPP-NEXT: const int32_t k = k_begin;
// CPP-NEXT: #pragma omp simd
// CPP-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// CPP: const double [[HERE:t[0-9]+]] = sum_c2e / scale_1;
// CPP: carry[h - h_begin] = [[HERE]];
// CPP-NEXT: }
// CPP-NEXT: }
// CPP-NEXT: for (int32_t k = k_begin + 1; k < k_end; ++k) {
// CPP-NEXT: #pragma omp simd
// CPP-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// CPP-NOT: vn[c2e_{{[0-9]+}} + (k - 1)
// CPP: const double [[HERE2:t[0-9]+]] = sum_c2e_2 / scale_3;
// CPP-NEXT: const double {{t[0-9]+}} = carry[h - h_begin];
// CPP: const double kh_4 = kh[h + (k - 1) * cell_ld];
// CPP: carry[h - h_begin] = [[HERE2]];
// CPP-NEXT: }
// CPP-NEXT: }

// Nothing is carried with one level per thread, between values two levels
// apart, or when the two sides differ in something other than their level.
// CUDA-LABEL: not_carried(
// CUDA-NOT: carry
// CUDA: FUSEC_LAUNCH(not_carried,
// CPP-LABEL: static void not_carried(
// CPP-NOT: carry
// CPP: static int launch_not_carried(
// CUDA-LABEL: single_level(
// CUDA-NOT: carry
// CUDA: FUSEC_LAUNCH(single_level,
// CPP-LABEL: static void single_level(
// CPP-NOT: carry
// CPP: static int launch_single_level(

stn.program @levels(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
    %geofac: !stn.field<Cell x C2E[3] x f64> {stn.name = "geofac"},
    %scale: !stn.field<K x f64> {stn.name = "scale"},
    %kh: !stn.field<Cell x K x f64> {stn.name = "kh"},
    %other: !stn.field<Cell x K x f64> {stn.name = "other"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %acc: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "acc"},
    %cells: i32 {stn.name = "cells"}) {
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  stn.kernel "carried" on Cell[%c1 : %cells] K[%c1 : %n] attributes {kblock = 4} {
  ^bb0(%c: !stn.point<Cell>):
    %here = stn.reduce sum over @C2E at %c : <Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %g = stn.load %geofac[%c, nbr %j] : !stn.field<Cell x C2E[3] x f64>
      %p = arith.mulf %v, %g : f64
      stn.yield %p : f64
    }
    %below = stn.reduce sum over @C2E at %c : <Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k - 1] : !stn.field<Edge x K x f64>
      %g = stn.load %geofac[%c, nbr %j] : !stn.field<Cell x C2E[3] x f64>
      %p = arith.mulf %v, %g : f64
      stn.yield %p : f64
    }
    %s = stn.load %scale[k] : !stn.field<K x f64>
    %sb = stn.load %scale[k - 1] : !stn.field<K x f64>
    %q = arith.divf %here, %s : f64
    %qb = arith.divf %below, %sb : f64
    %x = stn.load %kh[%c, k] : !stn.field<Cell x K x f64>
    %xb = stn.load %kh[%c, k - 1] : !stn.field<Cell x K x f64>
    %sum = arith.addf %q, %qb : f64
    %sum2 = arith.addf %x, %xb : f64
    %r = arith.mulf %sum, %sum2 : f64
    stn.write %r to %out at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.kernel "not_carried" on Cell[%c1 : %cells] K[%c1 : %n] attributes {kblock = 4} {
  ^bb0(%c: !stn.point<Cell>):
    %two = stn.load %kh[%c, k - 2] : !stn.field<Cell x K x f64>
    %x = stn.load %kh[%c, k] : !stn.field<Cell x K x f64>
    %y = stn.load %other[%c, k - 1] : !stn.field<Cell x K x f64>
    %a = stn.load %acc[%c, k] : !stn.field<Cell x K x f64>
    %m = arith.mulf %x, %x : f64
    %mb = arith.addf %y, %y : f64
    %t0 = arith.addf %two, %m : f64
    %t1 = arith.addf %t0, %mb : f64
    %t2 = arith.addf %t1, %a : f64
    stn.write %t2 to %acc at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.kernel "single_level" on Cell[%c1 : %cells] K[%c1 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %x = stn.load %kh[%c, k] : !stn.field<Cell x K x f64>
    %xb = stn.load %kh[%c, k - 1] : !stn.field<Cell x K x f64>
    %sum = arith.addf %x, %xb : f64
    stn.write %sum to %out at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}
