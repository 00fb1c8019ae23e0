// RUN: %fusec-opt %s -split-input-file -stn-split-where -Rpass=stn-split-where -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-split-where -stn-infer-domains | FileCheck %s --check-prefix=DOMAINS

// apply_diffusion_to_vn's shape: a uniform switch (limited area) over an
// index range (the nudging zone). The switch becomes a program-level branch;
// each side is stored on its own index range; `vn = vn` outside the range is no
// store at all. `twice`, used only when the switch holds, moves into that
// branch; `plus_one`, used on both sides, goes into each (one of them runs),
// right before the store that needs it.
// CHECK-LABEL: stn.program @switch_and_range
// CHECK:      %[[MAX:.*]] = arith.maxsi %start, %lo : i32
// CHECK-NEXT: %[[CUT:.*]] = arith.minsi %[[MAX]], %hi : i32
// CHECK-NEXT: scf.if %lam {
// CHECK-NEXT:   %[[TWICE:.*]] = stn.apply on Edge ->
// CHECK:        } attributes {name = "twice"}
// CHECK-NEXT:   stn.store %[[TWICE]] to %vn on Edge[%[[CUT]] : %hi]
// CHECK-NEXT:   %[[PLUS:.*]] = stn.apply on Edge ->
// CHECK:        } attributes {name = "plus_one"}
// CHECK-NEXT:   stn.store %[[PLUS]] to %vn on Edge[%lo : %[[CUT]]]
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[PLUS:.*]] = stn.apply on Edge ->
// CHECK:        } attributes {name = "plus_one"}
// CHECK-NEXT:   stn.store %[[PLUS]] to %vn on Edge[%[[CUT]] : %hi]
// CHECK-NEXT: }
// CHECK-NEXT: return
// Each application is then computed only where it is stored.
// DOMAINS-LABEL: stn.program @switch_and_range
// DOMAINS:      scf.if %lam {
// DOMAINS-NEXT:   stn.apply on Edge[%[[CUT:.*]] : %hi]
// DOMAINS:        } attributes {name = "twice"}
// DOMAINS-NEXT:   stn.store %{{.*}} to %vn on Edge[%[[CUT]] : %hi]
// DOMAINS-NEXT:   stn.apply on Edge[%lo : %[[CUT]]]
// DOMAINS:        } attributes {name = "plus_one"}
// expected-remark @+1 {{'choose' selects by index, level or a uniform condition: each side is now computed only where it is taken}}
stn.program @switch_and_range(%x: !stn.field<Edge x K x f64> {stn.name = "x"},
    %vn: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "vn"},
    %start: i32 {stn.name = "start"}, %lam: i1 {stn.name = "lam"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %n = stn.nlev : i32
  %c0 = arith.constant 0 : i32
  %twice = stn.apply on Edge -> !stn.temp<Edge x K x f64> {
  ^bb0(%e: !stn.point<Edge>):
    %a = stn.load %x[%e, k] : !stn.field<Edge x K x f64>
    %c2 = arith.constant 2.0 : f64
    %r = arith.mulf %a, %c2 : f64
    stn.yield %r : f64
  } attributes {name = "twice"}
  %plus = stn.apply on Edge -> !stn.temp<Edge x K x f64> {
  ^bb0(%e: !stn.point<Edge>):
    %a = stn.load %x[%e, k] : !stn.field<Edge x K x f64>
    %c1 = arith.constant 1.0 : f64
    %r = arith.addf %a, %c1 : f64
    stn.yield %r : f64
  } attributes {name = "plus_one"}
  %sel = stn.apply on Edge[%lo : %hi] K[%c0 : %n] -> !stn.temp<Edge x K x f64> {
  ^bb0(%e: !stn.point<Edge>):
    %i = stn.index %e : !stn.point<Edge>
    %inner = arith.cmpi sge, %i, %start : i32
    %t = stn.load %twice[%e, k] : !stn.temp<Edge x K x f64>
    %p = stn.load %plus[%e, k] : !stn.temp<Edge x K x f64>
    %lam_side = arith.select %inner, %t, %p : f64
    %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
    %glb_side = arith.select %inner, %p, %v : f64
    %r = arith.select %lam, %lam_side, %glb_side : f64
    stn.yield %r : f64
  } attributes {name = "choose"}
  stn.store %sel to %vn on Edge[%lo : %hi] K[%c0 : %n] : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
  stn.return
}

// -----

// The damping layer's shape: a level range `0 < k < nrdmax` written with
// `stn.level` (one with an offset: `k - 1 >= 0` is `k >= 1`). Three stores: the
// layer from the application with the condition known, the levels above and
// below as copies of `old`.
// CHECK-LABEL: stn.program @level_range
// CHECK:      %[[N:.*]] = nlev : i32
// CHECK:      %[[C1:.*]] = arith.constant 1 : i32
// CHECK:      %[[LOW:.*]] = arith.minsi %[[C1]], %[[N]] : i32
// CHECK-NEXT: %[[MAX:.*]] = arith.maxsi %nrdmax, %[[LOW]] : i32
// CHECK-NEXT: %[[HIGH:.*]] = arith.minsi %[[MAX]], %[[N]] : i32
// CHECK:      %[[LAYER:.*]] = apply on Cell[%lo : %hi] K[%[[LOW]] : %[[HIGH]]]
// CHECK-NOT:    stn.level
// CHECK:        arith.mulf
// CHECK:      store %[[LAYER]] to %w on Cell[%lo : %hi] K[%[[LOW]] : %[[HIGH]]]
// CHECK:      %[[ABOVE:.*]] = apply on Cell[%lo : %hi] K[%[[HIGH]] : %[[N]]]
// CHECK-NOT:    arith.mulf
// CHECK:      store %[[ABOVE]] to %w on Cell[%lo : %hi] K[%[[HIGH]] : %[[N]]]
// CHECK:      %[[BELOW:.*]] = apply on Cell[%lo : %hi] K[%{{.*}} : %[[LOW]]]
// CHECK:      store %[[BELOW]] to %w on Cell[%lo : %hi] K[%{{.*}} : %[[LOW]]]
// CHECK-NEXT: return
// expected-remark @+1 {{'sponge' selects by index, level or a uniform condition}}
stn.program @level_range(%x: !stn.field<Cell x K x f64> {stn.name = "x"},
    %old: !stn.field<Cell x K x f64> {stn.name = "old"},
    %w: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "w"},
    %nrdmax: i32 {stn.name = "nrdmax"}, %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %n = stn.nlev : i32
  %c0 = arith.constant 0 : i32
  %sel = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %below = stn.level {offset = -1}
    %zero = arith.constant 0 : i32
    %above_ground = arith.cmpi sge, %below, %zero : i32
    %k = stn.level
    %in_layer = arith.cmpi slt, %k, %nrdmax : i32
    %layer = arith.andi %above_ground, %in_layer : i1
    %a = stn.load %x[%c, k] : !stn.field<Cell x K x f64>
    %c3 = arith.constant 3.0 : f64
    %damped = arith.mulf %a, %c3 : f64
    %o = stn.load %old[%c, k] : !stn.field<Cell x K x f64>
    %r = arith.select %layer, %damped, %o : f64
    stn.yield %r : f64
  } attributes {name = "sponge"}
  stn.store %sel to %w on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// The steep-point correction's shape: a uniform switch inside a temporary
// that another application reads. The rest of the program goes into both
// branches; in each the selection only forwards one side and disappears; the
// correction, needed only when the switch holds, moves into that branch, and
// `base` into both.
// CHECK-LABEL: stn.program @forwarded
// CHECK:      scf.if %on {
// CHECK-NEXT:   %[[BASE:.*]] = stn.apply on Cell ->
// CHECK:        } attributes {name = "base"}
// CHECK-NEXT:   %[[FIX:.*]] = stn.apply on Cell ->
// CHECK-NEXT:   ^bb0
// CHECK-NEXT:     stn.load %[[BASE]]
// CHECK:        } attributes {name = "fixed"}
// CHECK-NEXT:   %[[USE:.*]] = stn.apply on Cell[%lo : %hi]
// CHECK-NEXT:   ^bb0
// CHECK-NEXT:     stn.load %[[FIX]]
// CHECK:        } attributes {name = "update"}
// CHECK-NEXT:   stn.store %[[USE]] to %y
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[BASE:.*]] = stn.apply on Cell ->
// CHECK:        } attributes {name = "base"}
// CHECK-NEXT:   %[[USE:.*]] = stn.apply on Cell[%lo : %hi]
// CHECK-NEXT:   ^bb0
// CHECK-NEXT:     stn.load %[[BASE]]
// CHECK:        } attributes {name = "update"}
// CHECK-NEXT:   stn.store %[[USE]] to %y
// CHECK-NEXT: }
// CHECK-NOT:  name = "final"
// expected-remark @+1 {{'final' selects by index, level or a uniform condition}}
stn.program @forwarded(%x: !stn.field<Cell x K x f64> {stn.name = "x"},
    %y: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "y"},
    %on: i1 {stn.name = "on"}, %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %n = stn.nlev : i32
  %c0 = arith.constant 0 : i32
  %base = stn.apply on Cell -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %a = stn.load %x[%c, k] : !stn.field<Cell x K x f64>
    %r = arith.mulf %a, %a : f64
    stn.yield %r : f64
  } attributes {name = "base"}
  %fixed = stn.apply on Cell -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %b = stn.load %base[%c, k] : !stn.temp<Cell x K x f64>
    %r = arith.addf %b, %b : f64
    stn.yield %r : f64
  } attributes {name = "fixed"}
  %final = stn.apply on Cell -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %f = stn.load %fixed[%c, k] : !stn.temp<Cell x K x f64>
    %b = stn.load %base[%c, k] : !stn.temp<Cell x K x f64>
    %r = arith.select %on, %f, %b : f64
    stn.yield %r : f64
  } attributes {name = "final"}
  %use = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %t = stn.load %final[%c, k] : !stn.temp<Cell x K x f64>
    %r = arith.mulf %t, %t : f64
    stn.yield %r : f64
  } attributes {name = "update"}
  stn.store %use to %y on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A copy of another application's result into the output is a store of that
// result: no copy kernel.
// CHECK-LABEL: stn.program @copy
// CHECK:      %[[V:.*]] = apply on Cell[%lo : %hi]
// CHECK:      } attributes {name = "value"}
// CHECK-NEXT: store %[[V]] to %y on Cell[%lo : %hi]
// CHECK-NEXT: return
// expected-remark @+1 {{'copy' selects by index, level or a uniform condition}}
stn.program @copy(%x: !stn.field<Cell x K x f64> {stn.name = "x"},
    %y: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "y"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %n = stn.nlev : i32
  %c0 = arith.constant 0 : i32
  %value = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %a = stn.load %x[%c, k] : !stn.field<Cell x K x f64>
    %r = arith.mulf %a, %a : f64
    stn.yield %r : f64
  } attributes {name = "value"}
  %copy = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %v = stn.load %value[%c, k] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "copy"}
  stn.store %copy to %y on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Left alone: a condition that reads a field (the steep-point mask: which
// side a point takes is data), a selection that reads a neighbour, and one
// whose condition compares the index with a value read at the point.
stn.connectivity @C2E2C : Cell -> Cell [3]

// CHECK-LABEL: stn.program @untouched
// CHECK-NOT:  scf.if
// CHECK-NOT:  arith.minsi
// CHECK:      arith.cmpf une
// CHECK:      stn.neighbor
// CHECK:      stn.index
// CHECK:      return
stn.program @untouched(%x: !stn.field<Cell x K x f64> {stn.name = "x"},
    %m: !stn.field<Cell x K x f64> {stn.name = "m"},
    %bound: !stn.field<Cell x K x i32> {stn.name = "bound"},
    %y: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "y"},
    %z: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "z"},
    %u: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "u"},
    %on: i1 {stn.name = "on"}, %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %n = stn.nlev : i32
  %c0 = arith.constant 0 : i32
  %masked = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %a = stn.load %x[%c, k] : !stn.field<Cell x K x f64>
    %mask = stn.load %m[%c, k] : !stn.field<Cell x K x f64>
    %zero = arith.constant 0.0 : f64
    %steep = arith.cmpf une, %mask, %zero : f64
    %d = arith.addf %a, %a : f64
    %r = arith.select %steep, %d, %a : f64
    stn.yield %r : f64
  } attributes {name = "masked"}
  stn.store %masked to %y on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %neighbour = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %j = arith.constant 0 : index
    %p = stn.neighbor %c through @C2E2C [%j] : !stn.point<Cell> -> !stn.point<Cell>
    %a = stn.load %x[%p, k] : !stn.field<Cell x K x f64>
    %b = stn.load %x[%c, k] : !stn.field<Cell x K x f64>
    %r = arith.select %on, %a, %b : f64
    stn.yield %r : f64
  } attributes {name = "neighbour"}
  stn.store %neighbour to %z on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %by_data = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %i = stn.index %c : !stn.point<Cell>
    %b = stn.load %bound[%c, k] : !stn.field<Cell x K x i32>
    %inside = arith.cmpi slt, %i, %b : i32
    %a = stn.load %x[%c, k] : !stn.field<Cell x K x f64>
    %d = arith.addf %a, %a : f64
    %r = arith.select %inside, %d, %a : f64
    stn.yield %r : f64
  } attributes {name = "by_data"}
  stn.store %by_data to %u on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// The turbulence gradients' shape: one result selects on the interior of the
// index range, another on the levels above the ground. The split cuts the
// gradient's stores into four boxes that together cover the levels from 1 on
// at every point: they are one store.
// CHECK-LABEL: stn.program @joined
// CHECK:      %[[GRAD:.*]] = apply on Cell ->
// CHECK:      } attributes {name = "grad"}
// CHECK:      %[[KLB:.*]] = arith.minsi %c1{{.*}}, %[[N:.*]] : i32
// CHECK-NOT:  store %[[GRAD]] to
// CHECK:      store %[[GRAD]] to %dwdx on Cell[%lo : %hi] K[%[[KLB]] : %[[N]]]
// CHECK-NOT:  store %[[GRAD]] to
// CHECK:      return
// expected-remark @+1 {{'joined' selects by index, level or a uniform condition}}
stn.program @joined(%x: !stn.field<Cell x K x f64> {stn.name = "x"},
    %w: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "w"},
    %dwdx: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "dwdx"},
    %first: i32 {stn.name = "first"}, %last: i32 {stn.name = "last"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %n = stn.nlev : i32
  %c0 = arith.constant 0 : i32
  %grad = stn.apply on Cell -> !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %a = stn.load %x[%c, k] : !stn.field<Cell x K x f64>
    %r = arith.addf %a, %a : f64
    stn.yield %r : f64
  } attributes {name = "grad"}
  %sel:2 = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
  ^bb0(%c: !stn.point<Cell>):
    %i = stn.index %c : !stn.point<Cell>
    %after = arith.cmpi sle, %first, %i : i32
    %before = arith.cmpi slt, %i, %last : i32
    %interior = arith.andi %after, %before : i1
    %k = stn.level
    %zero = arith.constant 0 : i32
    %above = arith.cmpi sgt, %k, %zero : i32
    %a = stn.load %x[%c, k] : !stn.field<Cell x K x f64>
    %m = arith.mulf %a, %a : f64
    %ww = arith.select %interior, %m, %a : f64
    %g = stn.load %grad[%c, k] : !stn.temp<Cell x K x f64>
    %d = stn.load %dwdx[%c, k] : !stn.field<Cell x K x f64>
    %dd = arith.select %above, %g, %d : f64
    stn.yield %ww, %dd : f64, f64
  } attributes {name = "joined"}
  stn.store %sel#0 to %w on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %sel#1 to %dwdx on Cell[%lo : %hi] K[%c0 : %n] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// vn's lateral boundary rows (limited area): both sides read the field they
// are stored into, at their own point. In the branch, the boundary side goes
// right before its own store, after the nudging zone's store: that store
// writes only edges the boundary side neither reads nor writes.
// CHECK-LABEL: stn.program @reads_target
// CHECK:      %[[CUT:.*]] = arith.minsi
// CHECK:      scf.if %lam {
// CHECK-NEXT:   %[[INNER:.*]] = stn.apply on Edge ->
// CHECK:        } attributes {name = "nudging"}
// CHECK-NEXT:   stn.store %[[INNER]] to %vn on Edge[%[[CUT]] : %hi]
// CHECK-NEXT:   %[[ROWS:.*]] = stn.apply on Edge ->
// CHECK:        } attributes {name = "boundary"}
// CHECK-NEXT:   stn.store %[[ROWS]] to %vn on Edge[%lo : %[[CUT]]]
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: return
// expected-remark @+1 {{'reads_target' selects by index, level or a uniform condition}}
stn.program @reads_target(%vn: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "vn"},
    %start: i32 {stn.name = "start"}, %lam: i1 {stn.name = "lam"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %n = stn.nlev : i32
  %c0 = arith.constant 0 : i32
  %boundary = stn.apply on Edge -> !stn.temp<Edge x K x f64> {
  ^bb0(%e: !stn.point<Edge>):
    %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
    %r = arith.addf %v, %v : f64
    stn.yield %r : f64
  } attributes {name = "boundary"}
  %nudging = stn.apply on Edge -> !stn.temp<Edge x K x f64> {
  ^bb0(%e: !stn.point<Edge>):
    %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
    %r = arith.mulf %v, %v : f64
    stn.yield %r : f64
  } attributes {name = "nudging"}
  %sel = stn.apply on Edge[%lo : %hi] K[%c0 : %n] -> !stn.temp<Edge x K x f64> {
  ^bb0(%e: !stn.point<Edge>):
    %i = stn.index %e : !stn.point<Edge>
    %inner = arith.cmpi sge, %i, %start : i32
    %a = stn.load %nudging[%e, k] : !stn.temp<Edge x K x f64>
    %b = stn.load %boundary[%e, k] : !stn.temp<Edge x K x f64>
    %lam_side = arith.select %inner, %a, %b : f64
    %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
    %r = arith.select %lam, %lam_side, %v : f64
    stn.yield %r : f64
  } attributes {name = "reads_target"}
  stn.store %sel to %vn on Edge[%lo : %hi] K[%c0 : %n] : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
  stn.return
}

// -----

// A selection over a point list by index has no boxes to be stored over: it
// stays one application (its entries are known only at run time).
// CHECK-LABEL: stn.program @point_list
// CHECK: apply on Cell at %arg0
// CHECK: arith.select
// CHECK: store %{{.*}} to %arg2 on Cell at %arg0
// CHECK-NOT: store
stn.program @point_list(%l: !stn.points<Cell>, %f: !stn.field<Cell x K x f64>,
    %z: !stn.field<Cell x K x f64> {stn.intent = 2 : i32}, %n: i32) {
  %t = stn.apply on Cell at %l -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %i = stn.index %p : !stn.point<Cell>
    %inner = arith.cmpi slt, %i, %n : i32
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %old = stn.load %z[%p, k] : !stn.field<Cell x K x f64>
    %r = arith.select %inner, %v, %old : f64
    stn.yield %r : f64
  }
  stn.store %t to %z on Cell at %l : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}
