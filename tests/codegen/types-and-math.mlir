// RUN: %loops-cuda %s | %fusec-translate --stn-to-cuda | FileCheck %s

// Element types map to double, float, int32_t and bool; math ops call the C
// function of their precision (sqrt / sqrtf); literals are exact and typed.

// CHECK-LABEL: mixed(int32_t h_lb, int32_t h_ub, int32_t k_lb, int32_t k_ub,
// CHECK: const float *__restrict__ t32,
// CHECK: const double *__restrict__ t64,
// CHECK: const int32_t *__restrict__ level_idx,
// CHECK: const bool *__restrict__ mask,
// CHECK: float gain,
// CHECK: int32_t shift,
// CHECK: bool *__restrict__ out_mask,
// CHECK: float *__restrict__ out32,
// CHECK: double *__restrict__ out64,
// CHECK: const float t32_1 = t32[h + k * cell_ld];
// CHECK-NEXT: const double t64_1 = t64[h + k * cell_ld];
// CHECK-NEXT: const int32_t level_idx_1 = level_idx[h + k * cell_ld];
// CHECK-NEXT: const bool mask_1 = mask[h + k * cell_ld];
// CHECK-NEXT: const float t0 = sqrtf(t32_1);
// CHECK-NEXT: const double t1 = sqrt(t64_1);
// CHECK-NEXT: const float t2 = fusec::minnum(t0, gain);
// CHECK-NEXT: const double t3 = fusec::maxnum(t1, 1e-300);
// CHECK-NEXT: const float t4 = powf(t2, 1.5f);
// CHECK-NEXT: const double t5 = pow(t3, 0.1);
// CHECK-NEXT: const double t6 = static_cast<double>(t4);
// CHECK-NEXT: const double t7 = t6 + t5;
// CHECK-NEXT: const float t8 = static_cast<float>(t7);
// CHECK-NEXT: const double t9 = exp(t7);
// CHECK-NEXT: const double t10 = log(t9);
// CHECK-NEXT: const double t11 = fabs(t10);
// CHECK-NEXT: const float t12 = floorf(t8);
// CHECK-NEXT: const float t13 = ceilf(t12);
// CHECK-NEXT: const double t14 = 1.0 / sqrt(t11);
// CHECK-NEXT: const double t15 = fusec::maximum(t14, -0.0);
// CHECK-NEXT: const double t16 = pow(t15, static_cast<double>(shift));
// CHECK-NEXT: const int32_t t17 = level_idx_1 + shift;
// CHECK-NEXT: const int32_t t18 = fusec::floordiv(t17, 2);
// CHECK-NEXT: const int32_t t19 = t18 % 3;
// CHECK-NEXT: const bool t20 = t19 < (-1);
// CHECK-NEXT: const bool t21 = !(t16 >= t5);
// CHECK-NEXT: const bool t22 = (t16 != t16 || t5 != t5);
// CHECK-NEXT: const bool t23 = t20 || t21;
// CHECK-NEXT: const bool t24 = t23 && mask_1;
// CHECK-NEXT: const bool t25 = t24 != t22;
// CHECK-NEXT: const double t26 = t25 ? -1.0 : 0.0;
// CHECK-NEXT: const float t27 = t25 ? t13 : -INFINITY;
// CHECK-NEXT: const float t28 = -t27;
// CHECK-NEXT: const float t29 = fmodf(t28, 2.5f);
// CHECK-NEXT: const double t30 = static_cast<double>(static_cast<uint32_t>(level_idx_1));
// CHECK-NEXT: const double t31 = t26 + t30;
// CHECK-NEXT: out_mask[h + k * cell_ld] = t25;
// CHECK-NEXT: out32[h + k * cell_ld] = t29;
// CHECK-NEXT: out64[h + k * cell_ld] = t31;
stn.program @mixed(%t32: !stn.field<Cell x K x f32> {stn.name = "t32"},
    %t64: !stn.field<Cell x K x f64> {stn.name = "t64"},
    %idx: !stn.field<Cell x K x i32> {stn.name = "level_idx"},
    %mask: !stn.field<Cell x K x i1> {stn.name = "mask"},
    %out_mask: !stn.field<Cell x K x i1> {stn.intent = 1 : i32, stn.name = "out_mask"},
    %out32: !stn.field<Cell x K x f32> {stn.intent = 1 : i32, stn.name = "out32"},
    %out64: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out64"},
    %gain: f32 {stn.name = "gain"}, %shift: i32 {stn.name = "shift"},
    %cells: i32 {stn.name = "cells"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  stn.kernel "mixed" on Cell[%c0 : %cells] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %a = stn.load %t32[%c, k] : !stn.field<Cell x K x f32>
    %b = stn.load %t64[%c, k] : !stn.field<Cell x K x f64>
    %i = stn.load %idx[%c, k] : !stn.field<Cell x K x i32>
    %m = stn.load %mask[%c, k] : !stn.field<Cell x K x i1>
    %sa = math.sqrt %a : f32
    %sb = math.sqrt %b : f64
    %mina = arith.minnumf %sa, %gain : f32
    %tiny = arith.constant 1.0e-300 : f64
    %maxb = arith.maxnumf %sb, %tiny : f64
    %e15 = arith.constant 1.5 : f32
    %pa = math.powf %mina, %e15 : f32
    %e01 = arith.constant 0.1 : f64
    %pb = math.powf %maxb, %e01 : f64
    %wa = arith.extf %pa : f32 to f64
    %sum = arith.addf %wa, %pb : f64
    %narrow = arith.truncf %sum : f64 to f32
    %ex = math.exp %sum : f64
    %lg = math.log %ex : f64
    %ab = math.absf %lg : f64
    %fl = math.floor %narrow : f32
    %ce = math.ceil %fl : f32
    %rs = math.rsqrt %ab : f64
    %negzero = arith.constant -0.0 : f64
    %mx = arith.maximumf %rs, %negzero : f64
    %pw = math.fpowi %mx, %shift : f64, i32
    %is = arith.addi %i, %shift : i32
    %two = arith.constant 2 : i32
    %fd = arith.floordivsi %is, %two : i32
    %three = arith.constant 3 : i32
    %rm = arith.remsi %fd, %three : i32
    %minus1 = arith.constant -1 : i32
    %lt = arith.cmpi slt, %rm, %minus1 : i32
    %ult = arith.cmpf ult, %pw, %pb : f64
    %uno = arith.cmpf uno, %pw, %pb : f64
    %or = arith.ori %lt, %ult : i1
    %and = arith.andi %or, %m : i1
    %xor = arith.xori %and, %uno : i1
    %signed = arith.sitofp %xor : i1 to f64
    %ninf = arith.constant 0xFF800000 : f32
    %sel = arith.select %xor, %ce, %ninf : f32
    %neg = arith.negf %sel : f32
    %r25 = arith.constant 2.5 : f32
    %rem = arith.remf %neg, %r25 : f32
    %u = arith.uitofp %i : i32 to f64
    %tot = arith.addf %signed, %u : f64
    stn.write %xor to %out_mask at %c : !stn.point<Cell> : i1, !stn.field<Cell x K x i1>
    stn.write %rem to %out32 at %c : !stn.point<Cell> : f32, !stn.field<Cell x K x f32>
    stn.write %tot to %out64 at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}
