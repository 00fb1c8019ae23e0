// RUN: %fusec-opt %s -split-input-file -verify-diagnostics

stn.connectivity @E2C : Edge -> Cell [2]
stn.program @wrong_start(%f: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%lo : %hi] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{E2C starts at Edge, but the point is a Cell}}
    %n = stn.neighbor %p through @E2C [%c0] : !stn.point<Cell> -> !stn.point<Cell>
    %v = stn.load %f[%n, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.return
}

// -----

stn.program @wrong_location(%f: !stn.field<Edge x K x f64>, %lo: i32, %hi: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%lo : %hi] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    // expected-error @+1 {{the field lives on Edge but is read at a Cell}}
    %v = "stn.load"(%f, %p) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!stn.field<Edge x K x f64>, !stn.point<Cell>) -> f64
    stn.yield %v : f64
  }
  stn.return
}

// -----

stn.program @yield_count(%f: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  // expected-error @+1 {{yields 2 value(s) but has 1 result(s)}}
  %t = stn.apply on Cell[%lo : %hi] K[%lo : %hi] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v, %v : f64, f64
  }
  stn.return
}

// -----

stn.program @result_location(%f: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  // expected-error @+1 {{result 0 lives Edge but the application runs on Cell}}
  %t = stn.apply on Cell[%lo : %hi] K[%lo : %hi] -> !stn.temp<Edge x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.return
}

// -----

stn.program @element_type(%f: !stn.field<Cell x K x f32>, %lo: i32, %hi: i32) {
  // expected-error @+1 {{result 0 holds 'f64' values but the region yields 'f32'}}
  %t = stn.apply on Cell[%lo : %hi] K[%lo : %hi] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f32>
    stn.yield %v : f32
  }
  stn.return
}

// -----

stn.program @sparse_needs_slot(%g: !stn.field<Cell x C2E[3] x f64>, %lo: i32, %hi: i32) {
  %t = stn.apply on Cell[%lo : %hi] -> !stn.temp<Cell x f64> {
  ^bb0(%p: !stn.point<Cell>):
    // expected-error @+1 {{a field sparse over C2E is read at a neighbour slot ('nbr')}}
    %v = stn.load %g[%p] : !stn.field<Cell x C2E[3] x f64>
    stn.yield %v : f64
  }
  stn.return
}

// -----

stn.program @no_levels(%a: !stn.field<Cell x f64>, %lo: i32, %hi: i32) {
  %t = stn.apply on Cell[%lo : %hi] -> !stn.temp<Cell x f64> {
  ^bb0(%p: !stn.point<Cell>):
    // expected-error @+1 {{a field without levels cannot be read at a vertical offset}}
    %v = stn.load %a[%p] {offset = 1 : i64} : !stn.field<Cell x f64>
    stn.yield %v : f64
  }
  stn.return
}

// -----

stn.program @store_mismatch(%f: !stn.field<Cell x K x f64>, %o: !stn.field<Edge x K x f64>, %lo: i32, %hi: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%lo : %hi] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  // expected-error @+1 {{the value and the field live on different locations}}
  stn.store %t to %o on Edge[%lo : %hi] K[%lo : %hi] : !stn.temp<Cell x K x f64> to !stn.field<Edge x K x f64>
  stn.return
}

// -----

// expected-error @+1 {{connectivity 'Bad' must have at least one neighbour}}
stn.connectivity @Bad : Edge -> Cell [0]

// -----

stn.program @unknown_conn(%f: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%lo : %hi] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{unknown connectivity @C2X}}
    %n = stn.neighbor %p through @C2X [%c0] : !stn.point<Cell> -> !stn.point<Cell>
    %v = stn.load %f[%n, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  }
  stn.return
}

// -----

// expected-error @+1 {{parameter 's' is not a field and cannot be an output}}
stn.program @scalar_out(%s: f64 {stn.name = "s", stn.intent = 1 : i32}) {
  stn.return
}

// -----

// expected-error @+1 {{temporaries cannot have a sparse dimension}}
stn.program @sparse_temp(%t: !stn.temp<Cell x C2E[3] x f64>) {
  stn.return
}

// -----

stn.program @write_type(%f: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] K[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    %c = arith.constant 1.0 : f32
    // expected-error @+1 {{writes 'f32' into a field of 'f64'}}
    stn.write %c to %f at %p : !stn.point<Cell> : f32, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

stn.program @load_after_write(%f: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  // expected-error @+1 {{reads a field after writing it; every write must come after the kernel's loads of that field}}
  stn.kernel "k" on Cell[%lo : %hi] K[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    %c = arith.constant 1.0 : f64
    stn.write %c to %f at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// The points of a launch run in parallel: reading a written field at a
// neighbour or another level is a race.
stn.connectivity @C2E2C : Cell -> Cell [3] skip
stn.program @race_neighbour(%f: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] K[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    %c0 = arith.constant 0 : index
    %n = stn.neighbor %p through @C2E2C [%c0] : !stn.point<Cell> -> !stn.point<Cell>
    // expected-error @+1 {{reads a field the kernel writes, away from the point and level being written: a race between threads}}
    %v = stn.load %f[%n, k] : !stn.field<Cell x K x f64>
    stn.write %v to %f at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

stn.program @race_level(%f: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] K[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    // expected-error @+1 {{reads a field the kernel writes, away from the point and level being written}}
    %v = stn.load %f[%p, k - 1] : !stn.field<Cell x K x f64>
    stn.write %v to %f at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

stn.program @race_dynamic_level(%f: !stn.field<Cell x K x f64>, %off: i32, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] K[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    // expected-error @+1 {{reads a field the kernel writes, away from the point and level being written}}
    %v = stn.load %f[%p, k + %off] : !stn.field<Cell x K x f64>
    stn.write %v to %f at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

// Updating in place at the written point and level is not a race.
stn.program @update_in_place(%f: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] K[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %w = arith.addf %v, %v : f64
    stn.write %w to %f at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

stn.connectivity @C2E2C : Cell -> Cell [3] skip
stn.program @scatter(%o: !stn.field<Cell x f64>, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f64
    %n = stn.neighbor %p through @C2E2C [%c0] : !stn.point<Cell> -> !stn.point<Cell>
    // expected-error @+1 {{writes away from the kernel's point: another thread may read or write that element}}
    stn.write %one to %o at %n : !stn.point<Cell> : f64, !stn.field<Cell x f64>
  }
  stn.return
}

// -----

stn.program @same_element(%o: !stn.field<K x f64>, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] K[%lo : %hi] {
  ^bb0(%p: !stn.point<Cell>):
    %one = arith.constant 1.0 : f64
    // expected-error @+1 {{writes a field that does not live on the kernel's points and levels: every thread would write the same elements}}
    stn.write %one to %o : f64, !stn.field<K x f64>
  }
  stn.return
}

// -----

stn.program @write_outside_kernel(%f: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%lo : %hi] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %one = arith.constant 1.0 : f64
    // expected-error @+1 {{writes fields only inside a kernel}}
    stn.write %one to %f at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    stn.yield %one : f64
  }
  stn.return
}

// -----

// expected-error @+1 {{'stn.target' must be "cpp" or "cuda" on a module}}
module attributes {stn.target = "fpga"} {
}

// -----

// expected-error @+1 {{'stn.layout' must be "columns" on a module}}
module attributes {stn.target = "cpp", stn.layout = "rows"} {
}

// -----

// expected-error @+1 {{the "columns" layout is for the C++ backend: it needs 'stn.target' = "cpp"}}
module attributes {stn.target = "cuda", stn.layout = "columns"} {
}

// -----

// expected-error @+1 {{unknown attribute 'stn.speed' of the stn dialect}}
module attributes {stn.speed = 1 : i32} {
}

// -----

stn.program @loop_form_box(%o: !stn.field<Cell x K x f64>, %lo: i32, %hi: i32) {
  // expected-error @+1 {{in loop form the region takes the work item's box: begin and end (index) of its points, then of its levels}}
  stn.kernel "k" on Cell[%lo : %hi] K[%lo : %hi] attributes {loop_form} {
  ^bb0(%hb: index, %he: index):
  }
  stn.return
}

// -----

stn.program @loop_form_implicit_level(%f: !stn.field<K x f64>, %o: !stn.field<K x f64>,
    %lo: i32, %hi: i32) {
  stn.kernel "k" on K[%lo : %hi] attributes {loop_form} {
  ^bb0(%kb: index, %ke: index):
    %c1 = arith.constant 1 : index
    scf.for %k = %kb to %ke step %c1 {
      // expected-error @+1 {{uses the implicit current level inside a kernel in loop form}}
      %v = stn.load %f[k] : !stn.field<K x f64>
      stn.write %v to %o level %k : f64, !stn.field<K x f64>
    }
  }
  stn.return
}

// -----

stn.program @simd_outside_kernel() {
  %lo = arith.constant 0 : index
  %hi = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'stn.simd' marks an scf.for inside a kernel}}
  scf.for %i = %lo to %hi step %c1 {
  } {stn.simd}
  stn.return
}

// -----

stn.program @blend_outside_simd_loop(%c: i1, %a: f64, %b: f64) {
  // expected-error @+1 {{'stn.blend' marks an arith.select in an 'stn.simd' loop}}
  %r = arith.select %c, %a, %b {stn.blend} : f64
  stn.return
}

// -----

stn.program @write_level_without_levels(%o: !stn.field<Cell x f64>, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] attributes {loop_form} {
  ^bb0(%hb: index, %he: index):
    %c1 = arith.constant 1 : index
    %x = arith.constant 1.0 : f64
    scf.for %h = %hb to %he step %c1 {
      %p = stn.point_at %h : !stn.point<Cell>
      // expected-error @+1 {{a field without levels is written at no level}}
      stn.write %x to %o at %p : !stn.point<Cell> level %h : f64, !stn.field<Cell x f64>
    }
  }
  stn.return
}

// -----

stn.program @list_and_range(%l: !stn.points<Cell>, %lo: i32, %hi: i32) {
  // expected-error @+1 {{runs on a point list or on ranges, not both}}
  %t = "stn.apply"(%lo, %hi, %l) <{location = 0 : i32, operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}> ({
  ^bb0(%p: !stn.point<Cell>):
    %x = arith.constant 1.0 : f64
    stn.yield %x : f64
  }) : (i32, i32, !stn.points<Cell>) -> !stn.temp<Cell x K x f64>
  stn.return
}

// -----

stn.program @list_of_other_location(%l: !stn.points<Edge>) {
  // expected-error @+1 {{the point list must be of the location it runs on}}
  %t = "stn.apply"(%l) <{location = 0 : i32, operandSegmentSizes = array<i32: 0, 0, 0, 0, 1>}> ({
  ^bb0(%p: !stn.point<Cell>):
    %x = arith.constant 1.0 : f64
    stn.yield %x : f64
  }) : (!stn.points<Edge>) -> !stn.temp<Cell x K x f64>
  stn.return
}

// -----

stn.program @list_without_levels(%l: !stn.points<Cell>) {
  // expected-error @+1 {{result 0 must have full levels: a point list gives each point a level}}
  %t = stn.apply on Cell at %l -> !stn.temp<Cell x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %x = arith.constant 1.0 : f64
    stn.yield %x : f64
  }
  stn.return
}

// -----

stn.program @list_store_without_levels(%l: !stn.points<Cell>, %o: !stn.field<Cell x f64>, %lo: i32, %hi: i32) {
  %t = stn.apply on Cell[%lo : %hi] -> !stn.temp<Cell x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %x = arith.constant 1.0 : f64
    stn.yield %x : f64
  }
  // expected-error @+1 {{a point list is stored into a field with levels}}
  stn.store %t to %o on Cell at %l : !stn.temp<Cell x f64> to !stn.field<Cell x f64>
  stn.return
}

// -----

// `column_order` is two byte counts (shared by a point's levels, moved per level).
stn.program @bad_column_order(%f: !stn.field<Cell x K x f64>, %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  // expected-error @+1 {{'column_order' must be two byte counts}}
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {column_order = array<i64: 8>}
  stn.store %t to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// A prefetch names a column: a dense field with levels, at a point of its location.
stn.program @prefetch_without_levels(%f: !stn.field<Cell x f64>, %o: !stn.field<Cell x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] attributes {loop_form} {
  ^bb0(%hb: index, %he: index):
    %p = stn.point_at %hb : !stn.point<Cell>
    // expected-error @+1 {{prefetches a column: a dense field with a location and levels}}
    stn.prefetch %f[%p, %hb to %he] : !stn.point<Cell>, !stn.field<Cell x f64>
  }
  stn.return
}

// -----

stn.program @prefetch_wrong_location(%f: !stn.field<Edge x K x f64>, %lo: i32, %hi: i32) {
  stn.kernel "k" on Cell[%lo : %hi] K[%lo : %hi] attributes {loop_form} {
  ^bb0(%hb: index, %he: index, %kb: index, %ke: index):
    %p = stn.point_at %hb : !stn.point<Cell>
    // expected-error @+1 {{the field lives on Edge but is prefetched at a Cell}}
    stn.prefetch %f[%p, %kb to %ke] : !stn.point<Cell>, !stn.field<Edge x K x f64>
  }
  stn.return
}

// -----

// Inside one run of a list's loop over runs a load after a write of the same
// field is still one.
stn.program @load_after_write_in_run(%l: !stn.points<Cell>,
    %f: !stn.field<Cell x K x f64> {stn.intent = 2 : i32}) {
  // expected-error @+1 {{reads a field after writing it; every write must come after the kernel's loads of that field}}
  stn.kernel "k" on Cell at %l attributes {loop_form} {
  ^bb0(%eb: index, %ee: index):
    %one = arith.constant 1.0 : f64
    %last = scf.while (%e0 = %eb) : (index) -> index {
      %more = arith.cmpi slt, %e0, %ee : index
      scf.condition(%more) %e0 : index
    } do {
    ^bb0(%e: index):
      %n = stn.list_run %l[%e] until %ee : !stn.points<Cell>
      %p, %k = stn.list_point %l[%e] : !stn.points<Cell> -> !stn.point<Cell>
      stn.write %one to %f at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
      %v = stn.load %f[%p, %k] : !stn.field<Cell x K x f64>
      %next = arith.addi %e, %n : index
      scf.yield %next : index
    }
  }
  stn.return
}

// -----

stn.connectivity @E2C : Edge -> Cell [2]
stn.program @wavefront_forward_wait(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  // expected-error @+1 {{a wait must point from a stage to an earlier one, got same<0 on 1>}}
  stn.wavefront tile(64) min_levels(1) waits [same<0 on 1>] {
    stn.kernel "a" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%c: !stn.point<Cell>):
      stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.kernel "b" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
    ^bb0(%c: !stn.point<Cell>):
      stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}

// -----

stn.connectivity @E2C : Edge -> Cell [2]
stn.program @wavefront_wrong_table(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  // expected-error @+1 {{gather<1 on 0 through @E2C> does not match the stages' locations}}
  stn.wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @E2C>] {
    stn.kernel "a" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%c: !stn.point<Cell>):
      stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.kernel "b" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
    ^bb0(%c: !stn.point<Cell>):
      stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}

// -----

stn.program @wavefront_stage_order(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  stn.wavefront tile(64) min_levels(1) waits [] {
    stn.kernel "a" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
    ^bb0(%c: !stn.point<Cell>):
      stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    // expected-error @+1 {{runs after a kernel of stage 1 but has stage 0}}
    stn.kernel "b" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%c: !stn.point<Cell>):
      stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}

// -----

stn.program @wavefront_scalar_inside(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  stn.wavefront tile(64) min_levels(1) waits [] {
    // expected-error @+1 {{inside a wavefront: its region holds kernels, exchanges and the branches around them only}}
    %one = arith.constant 1.0 : f64
    stn.kernel "a" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%c: !stn.point<Cell>):
      stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}

// -----

stn.program @stage_outside(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  // expected-error @+1 {{has a stage outside a wavefront}}
  stn.kernel "a" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 0} {
  ^bb0(%c: !stn.point<Cell>):
    stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

// -----

stn.program @wavefront_min_levels(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  // expected-error @+1 {{tile and min_levels must be at least 1}}
  stn.wavefront tile(64) min_levels(0) waits [] {
    stn.kernel "a" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%c: !stn.point<Cell>):
      stn.write %one to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}

// -----

stn.connectivity @C2E : Cell -> Edge [3]
stn.connectivity @E2C : Edge -> Cell [2]
stn.program @wavefront_fold_argument(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %f: !stn.field<Edge x K x f64> {stn.intent = 2 : i32},
    %e0: i32, %e1: i32, %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  %flux = stn.alloc {name = "flux"} : !stn.field<Edge x K x f64>
  // expected-error @+1 {{folds only stn.alloc buffers}}
  stn.wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @C2E>]
      folds [%f : !stn.field<Edge x K x f64> [write<0>, gather<1 through @C2E>]] {
    stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %flux at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      stn.write %one to %f at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.kernel "update" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x: !stn.point<Edge>):
        %v = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
        stn.yield %v : f64
      }
      stn.write %s to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}

// -----

stn.connectivity @C2E : Cell -> Edge [3]
stn.connectivity @E2C : Edge -> Cell [2]
stn.program @wavefront_fold_used_after(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %f: !stn.field<Edge x K x f64> {stn.intent = 2 : i32},
    %e0: i32, %e1: i32, %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  %flux = stn.alloc {name = "flux"} : !stn.field<Edge x K x f64>
  // expected-error @+1 {{folds a buffer that is used outside it}}
  stn.wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @C2E>]
      folds [%flux : !stn.field<Edge x K x f64> [write<0>, gather<1 through @C2E>]] {
    stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %flux at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      stn.write %one to %f at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.kernel "update" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x: !stn.point<Edge>):
        %v = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
        stn.yield %v : f64
      }
      stn.write %s to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.kernel "after" on Edge[%e0 : %e1] K[%k0 : %k1] {
  ^bb0(%e: !stn.point<Edge>):
    %v = stn.load %flux[%e, k] : !stn.field<Edge x K x f64>
    stn.write %v to %f at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}

// -----

stn.connectivity @C2E : Cell -> Edge [3]
stn.connectivity @E2C : Edge -> Cell [2]
stn.program @wavefront_fold_stage(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %f: !stn.field<Edge x K x f64> {stn.intent = 2 : i32},
    %e0: i32, %e1: i32, %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  %flux = stn.alloc {name = "flux"} : !stn.field<Edge x K x f64>
  // expected-error @+1 {{a fold access names stage 2 of 2}}
  stn.wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @C2E>]
      folds [%flux : !stn.field<Edge x K x f64> [write<2>]] {
    stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %flux at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      stn.write %one to %f at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.kernel "update" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x: !stn.point<Edge>):
        %v = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
        stn.yield %v : f64
      }
      stn.write %s to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}

// -----

stn.connectivity @C2E : Cell -> Edge [3]
stn.connectivity @E2C : Edge -> Cell [2]
stn.program @wavefront_fold_location(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %f: !stn.field<Edge x K x f64> {stn.intent = 2 : i32},
    %e0: i32, %e1: i32, %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  %flux = stn.alloc {name = "flux"} : !stn.field<Edge x K x f64>
  // expected-error @+1 {{read<1> runs on other points than the fold has}}
  stn.wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @C2E>]
      folds [%flux : !stn.field<Edge x K x f64> [write<0>, read<1>]] {
    stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %flux at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      stn.write %one to %f at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.kernel "update" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x: !stn.point<Edge>):
        %v = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
        stn.yield %v : f64
      }
      stn.write %s to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}

// -----

stn.connectivity @C2E : Cell -> Edge [3]
stn.connectivity @E2C : Edge -> Cell [2]
stn.program @wavefront_fold_table(%t: !stn.field<Cell x K x f64> {stn.intent = 2 : i32},
    %f: !stn.field<Edge x K x f64> {stn.intent = 2 : i32},
    %e0: i32, %e1: i32, %c0: i32, %c1: i32, %k0: i32, %k1: i32) {
  %one = arith.constant 1.0 : f64
  %flux = stn.alloc {name = "flux"} : !stn.field<Edge x K x f64>
  // expected-error @+1 {{gather<1 through @E2C> needs a connectivity from the stage's points to the fold's}}
  stn.wavefront tile(64) min_levels(1) waits [gather<1 on 0 through @C2E>]
      folds [%flux : !stn.field<Edge x K x f64> [write<0>, gather<1 through @E2C>]] {
    stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %k1] attributes {stage = 0} {
    ^bb0(%e: !stn.point<Edge>):
      stn.write %one to %flux at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      stn.write %one to %f at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.kernel "update" on Cell[%c0 : %c1] K[%k0 : %k1] attributes {stage = 1} {
    ^bb0(%c: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %x: !stn.point<Edge>):
        %v = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
        stn.yield %v : f64
      }
      stn.write %s to %t at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
  }
  stn.return
}
