// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops -stn-unswitch-column-tests -Rpass=stn-unswitch-column-tests -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s

// The steep-point correction's shape, in place: where `coef` is 0 the loop
// reads theta at level k (offset 0) and writes z back unchanged. A scan of
// the test over the point's levels runs first; the loop runs only where some
// level passes it, and nothing runs elsewhere (the copy with the test false
// writes z back unchanged, so it goes).
// CHECK-LABEL: kernel "steep"
// CHECK:      ^bb0(%{{.*}}: index, %{{.*}}: index, %[[KB:.*]]: index, %[[KE:.*]]: index):
// CHECK:      scf.for
// CHECK-NEXT:   %[[P:.*]] = stn.point_at
// CHECK:        %[[NONE:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[ANY:.*]] = scf.for %[[K:.*]] = %[[KB]] to %[[KE]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[NONE]]) -> (i32) {
// CHECK:          %[[C:.*]] = stn.load %coef[%[[P]], %[[K]]]
// CHECK-NEXT:     %[[T:.*]] = arith.cmpf une, %[[C]], %{{.*}} : f64
// CHECK-NEXT:     %[[T32:.*]] = arith.extui %[[T]] : i1 to i32
// CHECK-NEXT:     %[[OR:.*]] = arith.ori %[[ACC]], %[[T32]] : i32
// CHECK-NEXT:     scf.yield %[[OR]] : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[SOME:.*]] = arith.cmpi ne, %[[ANY]], %[[NONE]] : i32
// CHECK-NEXT:   scf.if %[[SOME]] {
// CHECK-NEXT:     scf.for %{{.*}} = %[[KB]] to %[[KE]]
// CHECK:            stn.load %theta[%{{.*}}, %{{.*}} + %{{.*}}]
// CHECK:            stn.write
// CHECK:          } {stn.simd}
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT:  else
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @C2E2C : Cell -> Cell [3]

  stn.program @steep(%coef: !stn.field<Cell x K x f64> {stn.name = "coef"},
      %off: !stn.field<Cell x K x i32> {stn.name = "off"},
      %theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
      %z: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "z"},
      %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "steep" on Cell[%lo : %hi] K[%zero : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %fzero = arith.constant 0.0 : f64
      %izero = arith.constant 0 : i32
      %c = stn.load %coef[%p, k] : !stn.field<Cell x K x f64>
      %steep = arith.cmpf une, %c, %fzero : f64
      %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
      // expected-remark @+1 {{a point's levels are scanned for this test first; where no level passes it, the loop over levels is skipped (it would change nothing there; 1 read(s) at data-dependent levels left out)}}
      %level = arith.select %steep, %o, %izero : i32
      %t = stn.load %theta[%p, k + %level] : !stn.field<Cell x K x f64>
      %old = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
      %sum = arith.addf %old, %t : f64
      %new = arith.select %steep, %sum, %old : f64
      stn.write %new to %z at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// The result goes to another field: where no level passes the test, a copy
// of the loop without the gather copies z into out.
// CHECK-LABEL: kernel "into"
// CHECK:      %[[ANY:.*]] = scf.for {{.*}} iter_args
// CHECK:      %[[SOME:.*]] = arith.cmpi ne, %[[ANY]]
// CHECK-NEXT: scf.if %[[SOME]] {
// CHECK-NEXT:   scf.for
// CHECK:          stn.load %theta
// CHECK:        } {stn.simd}
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.for %{{.*}} = {{.*}} {
// CHECK-NOT:      stn.load %theta
// CHECK-NOT:      stn.load %coef
// CHECK-NEXT:     %[[OLD:.*]] = stn.load %z
// CHECK-NEXT:     stn.write %[[OLD]] to %out
// CHECK-NEXT:   } {stn.simd}
// CHECK-NEXT: }
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @into(%coef: !stn.field<Cell x K x f64> {stn.name = "coef"},
      %off: !stn.field<Cell x K x i32> {stn.name = "off"},
      %theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
      %z: !stn.field<Cell x K x f64> {stn.name = "z"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "into" on Cell[%lo : %hi] K[%zero : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %fzero = arith.constant 0.0 : f64
      %izero = arith.constant 0 : i32
      %c = stn.load %coef[%p, k] : !stn.field<Cell x K x f64>
      %steep = arith.cmpf une, %c, %fzero : f64
      %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
      // expected-remark @+1 {{a point's levels are scanned for this test first; where no level passes it, a copy of the loop over levels without what the test selects runs (1 of 1 read(s) at data-dependent levels left out)}}
      %level = arith.select %steep, %o, %izero : i32
      %t = stn.load %theta[%p, k + %level] : !stn.field<Cell x K x f64>
      %old = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
      %sum = arith.addf %old, %t : f64
      %new = arith.select %steep, %sum, %old : f64
      stn.write %new to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// Left alone: a test whose side reads at the loop's levels only (no gather to
// save: the scan would cost what the loop does); a test on a field the loop
// writes (a scan before the loop would not see the values the loop reads);
// a test of a value read at data-dependent levels (the scan would gather too).
// CHECK-LABEL: kernel "plain"
// CHECK-NOT:   iter_args
// CHECK-LABEL: kernel "written"
// CHECK-NOT:   iter_args
// CHECK-LABEL: kernel "gathered"
// CHECK-NOT:   iter_args
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @alone(%coef: !stn.field<Cell x K x f64> {stn.name = "coef"},
      %off: !stn.field<Cell x K x i32> {stn.name = "off"},
      %theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
      %z: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "z"},
      %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "plain" on Cell[%lo : %hi] K[%zero : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %fzero = arith.constant 0.0 : f64
      %c = stn.load %coef[%p, k] : !stn.field<Cell x K x f64>
      %steep = arith.cmpf une, %c, %fzero : f64
      %t = stn.load %theta[%p, k] : !stn.field<Cell x K x f64>
      %old = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
      %sum = arith.addf %old, %t : f64
      %new = arith.select %steep, %sum, %old : f64
      stn.write %new to %z at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.kernel "written" on Cell[%lo : %hi] K[%zero : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %fzero = arith.constant 0.0 : f64
      %izero = arith.constant 0 : i32
      %old = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
      %steep = arith.cmpf une, %old, %fzero : f64
      %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
      %level = arith.select %steep, %o, %izero : i32
      %t = stn.load %theta[%p, k + %level] : !stn.field<Cell x K x f64>
      %sum = arith.addf %old, %t : f64
      %new = arith.select %steep, %sum, %old : f64
      stn.write %new to %z at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.kernel "gathered" on Cell[%lo : %hi] K[%zero : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %fzero = arith.constant 0.0 : f64
      %izero = arith.constant 0 : i32
      %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
      %c = stn.load %coef[%p, k + %o] : !stn.field<Cell x K x f64>
      %steep = arith.cmpf une, %c, %fzero : f64
      %level = arith.select %steep, %o, %izero : i32
      %t = stn.load %theta[%p, k + %level] : !stn.field<Cell x K x f64>
      %old = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
      %sum = arith.addf %old, %t : f64
      %new = arith.select %steep, %sum, %old : f64
      stn.write %new to %z at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// A kernel on a point list: its runs' level loops are left alone (the list
// holds the points its caller chose to compute).
// CHECK-LABEL: kernel "listed"
// CHECK:       stn.list_run
// CHECK-NOT:   iter_args
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @listed(%steep: !stn.points<Cell> {stn.name = "steep"},
      %coef: !stn.field<Cell x K x f64> {stn.name = "coef"},
      %off: !stn.field<Cell x K x i32> {stn.name = "off"},
      %theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
      %z: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "z"}) {
    stn.kernel "listed" on Cell at %steep {
    ^bb0(%p: !stn.point<Cell>):
      %fzero = arith.constant 0.0 : f64
      %izero = arith.constant 0 : i32
      %c = stn.load %coef[%p, k] : !stn.field<Cell x K x f64>
      %steep_here = arith.cmpf une, %c, %fzero : f64
      %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
      %level = arith.select %steep_here, %o, %izero : i32
      %t = stn.load %theta[%p, k + %level] : !stn.field<Cell x K x f64>
      %old = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
      %sum = arith.addf %old, %t : f64
      %new = arith.select %steep_here, %sum, %old : f64
      stn.write %new to %z at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// Not the columns layout: the loop over the points of a level is not a loop
// over a point's levels, and the test differs from point to point.
// CHECK-LABEL: kernel "flat"
// CHECK-NOT:   iter_args
module attributes {stn.target = "cpp"} {
  stn.program @flat(%coef: !stn.field<Cell x K x f64> {stn.name = "coef"},
      %off: !stn.field<Cell x K x i32> {stn.name = "off"},
      %theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
      %z: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "z"},
      %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "flat" on Cell[%lo : %hi] K[%zero : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %fzero = arith.constant 0.0 : f64
      %izero = arith.constant 0 : i32
      %c = stn.load %coef[%p, k] : !stn.field<Cell x K x f64>
      %steep = arith.cmpf une, %c, %fzero : f64
      %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
      %level = arith.select %steep, %o, %izero : i32
      %t = stn.load %theta[%p, k + %level] : !stn.field<Cell x K x f64>
      %old = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
      %sum = arith.addf %old, %t : f64
      %new = arith.select %steep, %sum, %old : f64
      stn.write %new to %z at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}
