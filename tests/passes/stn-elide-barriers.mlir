// RUN: %fusec-opt %s -split-input-file -stn-elide-barriers -Rpass=stn-elide-barriers -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s

// Two kernels that write different buffers from the same input: the first
// needs no barrier. The third reads both buffers, so the second keeps its
// barrier, and so does the last kernel of the program.
// CHECK-LABEL: stn.program @independent
// CHECK:      kernel "a" {{.*}} attributes {kblock = 1 : i64, nowait} {
// CHECK:      kernel "b" {{.*}} attributes {kblock = 1 : i64} {
// CHECK:      kernel "c" {{.*}} attributes {kblock = 1 : i64} {
module attributes {stn.target = "cpp"} {
  stn.program @independent(%vn: !stn.field<Edge x K x f64> {stn.intent = 0 : i32, stn.name = "vn"},
      %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
    %c0 = arith.constant 0 : i32
    %n = stn.nlev : i32
    %ta = stn.alloc {name = "ta"} : !stn.field<Edge x K x f64>
    %tb = stn.alloc {name = "tb"} : !stn.field<Edge x K x f64>
    // expected-remark @+1 {{kernel 'a': no barrier ('b' is independent of it)}}
    stn.kernel "a" on Edge[%lo : %hi] K[%c0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %s = arith.addf %v, %v : f64
      stn.write %s to %ta at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    // expected-remark @+1 {{kernel 'b': barrier kept ('c' accesses ta)}}
    stn.kernel "b" on Edge[%lo : %hi] K[%c0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %m = arith.mulf %v, %v : f64
      stn.write %m to %tb at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    // expected-remark @+1 {{kernel 'c': barrier kept (no kernel follows it directly)}}
    stn.kernel "c" on Edge[%lo : %hi] K[%c0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %a = stn.load %ta[%e, k] : !stn.field<Edge x K x f64>
      %b = stn.load %tb[%e, k] : !stn.field<Edge x K x f64>
      %s = arith.addf %a, %b : f64
      stn.write %s to %out at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.return
  }
}

// -----

// A kernel that writes what the previous one reads (write after read) waits
// for it; operations without memory effects in between do not matter, an
// exchange does.
// CHECK-LABEL: stn.program @dependences
// CHECK:      kernel "reads_vn" {{.*}} attributes {kblock = 1 : i64} {
// CHECK:      kernel "writes_vn" {{.*}} attributes {kblock = 1 : i64} {
// CHECK:      kernel "before_exchange" {{.*}} attributes {kblock = 1 : i64} {
// CHECK:      exchange
module attributes {stn.target = "cpp"} {
  stn.program @dependences(%vn: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "vn"},
      %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
    %c0 = arith.constant 0 : i32
    %n = stn.nlev : i32
    // expected-remark @+1 {{kernel 'reads_vn': barrier kept ('writes_vn' accesses vn)}}
    stn.kernel "reads_vn" on Edge[%lo : %hi] K[%c0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      stn.write %v to %out at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    %one = arith.constant 1.0 : f64
    // expected-remark @+1 {{kernel 'writes_vn': barrier kept ('before_exchange' accesses vn)}}
    stn.kernel "writes_vn" on Edge[%lo : %hi] K[%c0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %vn at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    // expected-remark @+1 {{kernel 'before_exchange': barrier kept (no kernel follows it directly)}}
    stn.kernel "before_exchange" on Edge[%lo : %hi] K[%c0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      stn.write %v to %out at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.exchange %out : !stn.field<Edge x K x f64>
    stn.return
  }
}

// -----

// Kernels still in flight count: `b` is independent of `a`, but `c` reads
// what `a` writes, so `b` keeps the barrier that `a` left out.
// CHECK-LABEL: stn.program @in_flight
// CHECK:      kernel "a" {{.*}} attributes {kblock = 1 : i64, nowait} {
// CHECK:      kernel "b" {{.*}} attributes {kblock = 1 : i64} {
// CHECK:      kernel "c"
module attributes {stn.target = "cpp"} {
  stn.program @in_flight(%x: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "x"},
      %y: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "y"},
      %z: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "z"}) {
    %c0 = arith.constant 0 : i32
    %n = stn.nlev : i32
    %two = arith.constant 2.0 : f64
    // expected-remark @+1 {{kernel 'a': no barrier ('b' is independent of it)}}
    stn.kernel "a" on K[%c0 : %n] {
      stn.write %two to %x : f64, !stn.field<K x f64>
    }
    // expected-remark @+1 {{kernel 'b': barrier kept ('c' accesses x)}}
    stn.kernel "b" on K[%c0 : %n] {
      stn.write %two to %y : f64, !stn.field<K x f64>
    }
    // expected-remark @+1 {{kernel 'c': barrier kept (no kernel follows it directly)}}
    stn.kernel "c" on K[%c0 : %n] {
      %v = stn.load %x[k] : !stn.field<K x f64>
      stn.write %v to %z : f64, !stn.field<K x f64>
    }
    stn.return
  }
}

// -----

// CUDA launches on one stream run in order: nothing to decide.
// CHECK-LABEL: stn.program @cuda
// CHECK-NOT: nowait
module attributes {stn.target = "cuda"} {
  stn.program @cuda(%x: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "x"},
      %y: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "y"}) {
    %c0 = arith.constant 0 : i32
    %n = stn.nlev : i32
    %two = arith.constant 2.0 : f64
    stn.kernel "a" on K[%c0 : %n] {
      stn.write %two to %x : f64, !stn.field<K x f64>
    }
    stn.kernel "b" on K[%c0 : %n] {
      stn.write %two to %y : f64, !stn.field<K x f64>
    }
    stn.return
  }
}
