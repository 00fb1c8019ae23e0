// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp -stn-blend-selects | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cuda -stn-blend-selects | FileCheck %s --check-prefix=CUDA

// ICON's steep-point correction: a test of a field's value chooses the
// update and, through an integer select, the level a gather reads. Both
// selects become blends; the select on the point's index and the one on a
// scalar argument stay selects.
// CHECK-LABEL: kernel "steep"
// CHECK:       scf.for
// CHECK:         %[[C:.*]] = stn.load %coef
// CHECK-NEXT:    %[[STEEP:.*]] = arith.cmpf one, %[[C]]
// CHECK:         arith.select %[[STEEP]], %{{.*}}, %{{.*}} {stn.blend} : i32
// CHECK:         arith.select %[[STEEP]], %{{.*}}, %{{.*}} {stn.blend} : f64
// CHECK:         %[[INSIDE:.*]] = arith.cmpi sge
// CHECK-NEXT:    arith.select %[[INSIDE]], %{{[0-9]+}}, %{{[0-9]+}} : f64
// CHECK-NEXT:    arith.select %{{arg[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : f64
// CHECK:       } {stn.simd}
// CUDA-LABEL: kernel "steep"
// CUDA-NOT:     stn.blend
stn.connectivity @C2E2C : Cell -> Cell [3]
stn.program @steep(%coef: !stn.field<Cell x K x f64> {stn.name = "coef"},
    %offset: !stn.field<Cell x K x i32> {stn.name = "offset"},
    %theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
    %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
    %flag: i1, %lo: i32, %hi: i32, %first: i32) {
  %z = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f64
  %n = stn.nlev : i32
  stn.kernel "steep" on Cell[%lo : %hi] K[%z : %n] {
  ^bb0(%p: !stn.point<Cell>):
    %c = stn.load %coef[%p, k] : !stn.field<Cell x K x f64>
    %steep = arith.cmpf one, %c, %zero : f64
    %o = stn.load %offset[%p, k] : !stn.field<Cell x K x i32>
    %off = arith.select %steep, %o, %z : i32
    %c0 = arith.constant 0 : index
    %q = stn.neighbor %p through @C2E2C [%c0] : !stn.point<Cell> -> !stn.point<Cell>
    %t = stn.load %theta[%q, k + %off] : !stn.field<Cell x K x f64>
    %old = stn.load %theta[%p, k] : !stn.field<Cell x K x f64>
    %new = arith.mulf %c, %t : f64
    %r = arith.select %steep, %new, %old : f64
    %h = stn.index %p : !stn.point<Cell>
    %inside = arith.cmpi sge, %h, %first : i32
    %s = arith.select %inside, %r, %old : f64
    %u = arith.select %flag, %s, %old : f64
    stn.write %u to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

