// RUN: not %fusec-opt %s -split-input-file -stn-lower-to-loops=target=cpp 2>&1 | FileCheck %s
// RUN: not %fusec-opt %s -stn-lower-to-loops=target=gpu 2>&1 | FileCheck %s --check-prefix=TARGET

// CHECK: error: kernel 'flat' has no vertical range but uses the current level
// CHECK-NEXT: %v = stn.load %f[%p, k]
// TARGET: error: stn-lower-to-loops: unknown target 'gpu' (expected cpp or cuda)
stn.program @flat_reads_levels(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %o: !stn.field<Cell x f64> {stn.intent = 1 : i32, stn.name = "o"}, %lo: i32, %hi: i32) {
  stn.kernel "flat" on Cell[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    // expected-error @+1 {{kernel 'flat' has no vertical range but uses the current level}}
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.write %v to %o at %p : !stn.point<Cell> : f64, !stn.field<Cell x f64>
  }
  stn.return
}
