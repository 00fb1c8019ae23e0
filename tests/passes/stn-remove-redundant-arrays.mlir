// RUN: %fusec-opt %s -split-input-file -stn-remove-redundant-arrays -Rpass=stn-remove-redundant-arrays -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s

// The copy w -> w_tmp goes: its reader runs before anything writes w.
// CHECK-LABEL: stn.program @copy
// CHECK-NOT: alloc
// CHECK: apply on Cell[%lo : %hi]
// CHECK: stn.load %w[
// CHECK: store %{{.*}} to %w
stn.program @copy(%w: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "w"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
  %tmp = stn.alloc {name = "w_tmp"} : !stn.field<Cell x K x f64>
  // expected-remark @+1 {{removed the copy into 'w_tmp'}}
  %c = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %c to %tmp on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %tmp[%p, k] : !stn.field<Cell x K x f64>
    %d = arith.addf %v, %v : f64
    stn.yield %d : f64
  }
  stn.store %u to %w on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// w is written before the buffer is read, so its readers cannot read w: they
// read the copied value instead (forwarding), which keeps the old values.
// CHECK-LABEL: stn.program @copy_forwarded
// CHECK-NOT: alloc
// CHECK: %[[OLD:.*]] = apply
// CHECK: store %{{.*}} to %w
// CHECK: stn.load %[[OLD]][%{{.*}}, k] : !stn.temp
stn.program @copy_forwarded(%w: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "w"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
  %tmp = stn.alloc {name = "w_tmp"} : !stn.field<Cell x K x f64>
  %c = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  // expected-remark @+2 {{the readers of 'w_tmp' now read the stored value directly}}
  // expected-remark @+1 {{removed a store into 'w_tmp', which nothing reads}}
  stn.store %c to %tmp on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %z = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %c0 = arith.constant 0.0 : f64
    stn.yield %c0 : f64
  }
  stn.store %z to %w on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %tmp[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A buffer written once and read at the centre over the same domain is
// forwarded; its store is then dead and goes too.
// CHECK-LABEL: stn.program @forward_and_dead_store
// CHECK-NOT: alloc
// CHECK: %[[T:.*]] = apply
// CHECK: stn.load %[[T]][%{{.*}}, k] : !stn.temp
stn.program @forward_and_dead_store(%f: !stn.field<Cell x K x f64>, %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %buf = stn.alloc {name = "kh_c"} : !stn.field<Cell x K x f64>
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %d = arith.mulf %v, %v : f64
    stn.yield %d : f64
  }
  // expected-remark @+2 {{the readers of 'kh_c' now read the stored value directly}}
  // expected-remark @+1 {{removed a store into 'kh_c', which nothing reads}}
  stn.store %t to %buf on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %buf[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A store overwritten before any read goes; one read in between keeps it.
// CHECK-LABEL: stn.program @overwritten
// CHECK: store %[[B:.*]] to %o
// CHECK-NOT: store
stn.program @overwritten(%f: !stn.field<Cell x K x f64>, %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %a = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %c0 = arith.constant 0.0 : f64
    stn.yield %c0 : f64
  }
  // expected-remark @+1 {{removed a store overwritten by a later store before any read}}
  stn.store %a to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %b = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %b to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// CHECK-LABEL: stn.program @read_in_between
// CHECK: store
// CHECK: store
stn.program @read_in_between(%o: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %p2: !stn.field<Cell x K x f64> {stn.intent = 1 : i32}, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %a = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %c0 = arith.constant 0.0 : f64
    stn.yield %c0 : f64
  }
  stn.store %a to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %b = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %o[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %b to %p2 on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %b to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// The copy's reader sits in a branch behind a write of w in the same branch
// (the form `stn-split-where` gives a `where` whose sides store into w before
// another statement reads the copy): it must keep reading the copy.
// CHECK-LABEL: stn.program @copy_read_behind_write_in_branch
// CHECK: %[[TMP:.*]] = alloc {name = "w_tmp"}
// CHECK: scf.if
// CHECK: store %{{.*}} to %w
// CHECK: stn.load %[[TMP]][
stn.program @copy_read_behind_write_in_branch(%w: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "w"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %cond: i1, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %tmp = stn.alloc {name = "w_tmp"} : !stn.field<Cell x K x f64>
  %c = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %c to %tmp on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  scf.if %cond {
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %tmp[%p, k] : !stn.field<Cell x K x f64>
      %d = arith.addf %v, %v : f64
      stn.yield %d : f64
    }
    stn.store %u to %w on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    %g = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %tmp[%p, k] : !stn.field<Cell x K x f64>
      stn.yield %v : f64
    }
    stn.store %g to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// The copy is made in a branch and read after it: no operation of the copy's
// block holds the reader, so the copy stays (this crashed the pass).
// CHECK-LABEL: stn.program @copy_in_branch_read_after
// CHECK: %[[TMP:.*]] = alloc {name = "w_tmp"}
// CHECK: scf.if
// CHECK: stn.load %[[TMP]][
stn.program @copy_in_branch_read_after(%w: !stn.field<Cell x K x f64> {stn.intent = 0 : i32, stn.name = "w"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %cond: i1, %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %tmp = stn.alloc {name = "w_tmp"} : !stn.field<Cell x K x f64>
  scf.if %cond {
    %c = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
      stn.yield %v : f64
    }
    stn.store %c to %tmp on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  }
  %g = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %tmp[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.store %g to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
