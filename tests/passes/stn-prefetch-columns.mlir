// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops -stn-unroll-reductions -stn-hoist-loop-invariant -cse -stn-prefetch-columns -Rpass=stn-prefetch-columns -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops -stn-unroll-reductions -stn-hoist-loop-invariant -cse -stn-prefetch-columns="distance=2 lead-levels=0 max-readers=12" | FileCheck %s --check-prefix=OPTS
// RUN: %fusec-opt %s -split-input-file -stn-lower-to-loops -stn-unroll-reductions -stn-hoist-loop-invariant -cse -stn-unswitch-loops -stn-prefetch-columns="own-levels=0" | FileCheck %s --check-prefix=BRANCH

// A kernel in the columns layout: at the top of its point loop, each column
// it reads at a neighbour (vn at the three C2E edges, at k and k - 1; two
// cells read each edge) is prefetched at the same neighbour of the point
// max(4, 64 / levels) ahead in the kernel's domain (clamped to its last
// point), from k_begin - 1 to k_end. The coefficients read at the point
// itself are not prefetched. With lead-levels=0, `distance` points ahead.
// CHECK-LABEL: kernel "divergence"
// CHECK:      ^bb0(%[[HB:.*]]: index, %[[HE:.*]]: index, %[[KB:.*]]: index, %[[KE:.*]]: index):
// CHECK:      %[[END:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[END]], %[[ONE]] : index
// CHECK-NEXT: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[DIFF:.*]] = arith.subi %[[KE]], %[[KB]] : index
// CHECK-NEXT: %[[LEVELS:.*]] = arith.maxsi %[[DIFF]], %[[ONE]] : index
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[LEAD:.*]] = arith.divsi %[[C64]], %[[LEVELS]] : index
// CHECK-NEXT: %[[AHEAD:.*]] = arith.maxsi %[[FOUR]], %[[LEAD]] : index
// CHECK-NEXT: scf.for %[[H:.*]] = %[[HB]] to %[[HE]]
// CHECK-NEXT:   %[[AFTER:.*]] = arith.addi %[[H]], %[[AHEAD]] : index
// CHECK-NEXT:   %[[NEXT:.*]] = arith.minsi %[[AFTER]], %[[LAST]] : index
// CHECK-NEXT:   %[[Q:.*]] = stn.point_at %[[NEXT]] : <Cell>
// CHECK-NEXT:   %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[M0:.*]] = stn.neighbor %[[Q]] through @C2E[%[[S0]]]
// CHECK-NEXT:   %[[MINUS:.*]] = arith.constant -1 : index
// CHECK-NEXT:   %[[FROM:.*]] = arith.addi %[[KB]], %[[MINUS]] : index
// CHECK-NEXT:   stn.prefetch %vn[%[[M0]], %[[FROM]] to %[[KE]]] : <Edge>, <Edge x K x f64>
// CHECK:        %[[M1:.*]] = stn.neighbor %[[Q]] through @C2E
// CHECK-NEXT:   stn.prefetch %vn[%[[M1]], %[[FROM]] to %[[KE]]]
// CHECK:        %[[M2:.*]] = stn.neighbor %[[Q]] through @C2E
// CHECK-NEXT:   stn.prefetch %vn[%[[M2]], %[[FROM]] to %[[KE]]]
// CHECK-NEXT:   %[[P:.*]] = stn.point_at %[[H]] : <Cell>
// CHECK-NOT:    stn.prefetch
// CHECK:        scf.for %{{.*}} = %[[KB]] to %[[KE]]
// OPTS-LABEL: kernel "divergence"
// OPTS:       arith.subi
// OPTS-NEXT:  %[[TWO:.*]] = arith.constant 2 : index
// OPTS-NEXT:  scf.for %[[H:.*]] =
// OPTS-NEXT:    arith.addi %[[H]], %[[TWO]] : index
// OPTS-COUNT-3: stn.prefetch %vn
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @C2E : Cell -> Edge [3]

  stn.program @divergence(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
      %geofac: !stn.field<Cell x C2E[3] x f64> {stn.name = "geofac"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32, %hi: i32) {
    %one = arith.constant 1 : i32
    %n = stn.nlev : i32
    // expected-remark @+1 {{kernel 'divergence': 3 column(s) read at neighbours prefetched 4 point(s) ahead (64 / levels where more)}}
    stn.kernel "divergence" on Cell[%lo : %hi] K[%one : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Edge>):
        %v = stn.load %vn[%q, k] : !stn.field<Edge x K x f64>
        %w = stn.load %vn[%q, k - 1] : !stn.field<Edge x K x f64>
        %c = stn.load %geofac[%p, nbr %j] : !stn.field<Cell x C2E[3] x f64>
        %d = arith.addf %v, %w : f64
        %m = arith.mulf %d, %c : f64
        stn.yield %m : f64
      }
      stn.write %s to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// `prefetch = false` (a configuration's `prefetch: false`) turns the rule
// off; without it a table with missing entries is read for the next point
// without `present`, so its prefetch is guarded where printed.
// CHECK-LABEL: kernel "off"
// CHECK-NOT:  stn.prefetch
// CHECK-LABEL: kernel "guarded"
// CHECK:      %[[M:.*]] = stn.neighbor %{{.*}} through @V2E[%{{.*}}] : <Vertex> -> <Edge>
// CHECK-NEXT: stn.prefetch %vn[%[[M]], %{{.*}} to %{{.*}}]
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @V2E : Vertex -> Edge [6] skip

  stn.program @off(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
      %out: !stn.field<Vertex x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "off" on Vertex[%lo : %hi] K[%zero : %n] attributes {prefetch = false} {
    ^bb0(%p: !stn.point<Vertex>):
      %s = stn.reduce sum over @V2E at %p : !stn.point<Vertex> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Edge>):
        %v = stn.load %vn[%q, k] : !stn.field<Edge x K x f64>
        stn.yield %v : f64
      }
      stn.write %s to %out at %p : !stn.point<Vertex> : f64, !stn.field<Vertex x K x f64>
    }
    // expected-remark @+1 {{kernel 'guarded': 6 column(s) read at neighbours prefetched 4 point(s) ahead (64 / levels where more)}}
    stn.kernel "guarded" on Vertex[%lo : %hi] K[%zero : %n] {
    ^bb0(%p: !stn.point<Vertex>):
      %s = stn.reduce sum over @V2E at %p : !stn.point<Vertex> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Edge>):
        %v = stn.load %vn[%q, k] : !stn.field<Edge x K x f64>
        stn.yield %v : f64
      }
      stn.write %s to %out at %p : !stn.point<Vertex> : f64, !stn.field<Vertex x K x f64>
    }
    stn.return
  }
}

// -----

// An edge reads four vertices through E2C2V and twelve edges read each
// vertex: the edges just before brought its columns in, so the rule leaves
// them out and prefetches the two cells' columns (E2C: three edges read each
// cell). `prefetch = true` asks for every column; so does a larger
// `max-readers`.
// CHECK-LABEL: kernel "shared"
// CHECK-COUNT-2: stn.prefetch %t
// CHECK-NOT:  stn.prefetch
// CHECK-LABEL: kernel "forced"
// CHECK-COUNT-2: stn.prefetch %t
// CHECK-COUNT-4: stn.prefetch %u
// OPTS-LABEL: kernel "shared"
// OPTS-COUNT-2: stn.prefetch %t
// OPTS-COUNT-4: stn.prefetch %u
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @E2C : Edge -> Cell [2]
  stn.connectivity @E2C2V : Edge -> Vertex [4]

  stn.program @shared(%t: !stn.field<Cell x K x f64> {stn.name = "t"},
      %u: !stn.field<Vertex x K x f64> {stn.name = "u"},
      %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    // expected-remark @+2 {{kernel 'shared': columns read through E2C2V (12 points per neighbour) not prefetched}}
    // expected-remark @+1 {{kernel 'shared': 2 column(s) read at neighbours prefetched 4 point(s) ahead (64 / levels where more)}}
    stn.kernel "shared" on Edge[%lo : %hi] K[%zero : %n] {
    ^bb0(%p: !stn.point<Edge>):
      %a = stn.reduce sum over @E2C at %p : !stn.point<Edge> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Cell>):
        %v = stn.load %t[%q, k] : !stn.field<Cell x K x f64>
        stn.yield %v : f64
      }
      %b = stn.reduce sum over @E2C2V at %p : !stn.point<Edge> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Vertex>):
        %v = stn.load %u[%q, k] : !stn.field<Vertex x K x f64>
        stn.yield %v : f64
      }
      %s = arith.addf %a, %b : f64
      stn.write %s to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    // expected-remark @+1 {{kernel 'forced': 6 column(s) read at neighbours prefetched 4 point(s) ahead (64 / levels where more)}}
    stn.kernel "forced" on Edge[%lo : %hi] K[%zero : %n] attributes {prefetch = true} {
    ^bb0(%p: !stn.point<Edge>):
      %a = stn.reduce sum over @E2C at %p : !stn.point<Edge> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Cell>):
        %v = stn.load %t[%q, k] : !stn.field<Cell x K x f64>
        stn.yield %v : f64
      }
      %b = stn.reduce sum over @E2C2V at %p : !stn.point<Edge> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Vertex>):
        %v = stn.load %u[%q, k] : !stn.field<Vertex x K x f64>
        stn.yield %v : f64
      }
      %s = arith.addf %a, %b : f64
      stn.write %s to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.return
  }
}

// -----

// A column read at data-dependent levels (theta at k + off) is prefetched
// whole, levels 0 to nlev (nlev + 1 for half levels), at the same neighbour
// of the point ahead, just before the loop over levels that reads it: inside
// the branch that runs that loop, so a point whose branch reads no such level
// (here the other branch reads its own column) fetches nothing.
// BRANCH-LABEL: stn.program @steep
// The kernel's levels end at the program's nlev; the pass asks for its own.
// BRANCH:      = nlev : i32
// BRANCH-NEXT: %[[NLEV:.*]] = nlev : i32
// BRANCH-NEXT: kernel "steep"
// BRANCH:      scf.for %[[H:.*]] =
// BRANCH:        %[[Q:.*]] = stn.point_at %{{.*}} : <Cell>
// BRANCH-NEXT:   %[[LEVELS:.*]] = arith.index_cast %[[NLEV]] : i32 to index
// BRANCH-NEXT:   %[[ONE:.*]] = arith.constant 1 : index
// BRANCH-NEXT:   %[[HALF:.*]] = arith.addi %[[LEVELS]], %[[ONE]] : index
// BRANCH-NEXT:   %[[ZERO:.*]] = arith.constant 0 : index
// BRANCH:        scf.if
// BRANCH-NEXT:     %[[S:.*]] = arith.constant 0 : index
// BRANCH-NEXT:     %[[M:.*]] = stn.neighbor %[[Q]] through @C2E2C[%[[S]]]
// BRANCH-NEXT:     stn.prefetch %theta[%[[M]], %[[ZERO]] to %[[LEVELS]]] : <Cell>, <Cell x K x f64>
// BRANCH-NEXT:     stn.prefetch %w[%[[M]], %[[ZERO]] to %[[HALF]]] : <Cell>, <Cell x KHalf x f64>
// BRANCH-NEXT:     scf.for
// BRANCH:        } else {
// BRANCH-NOT:      stn.prefetch
// BRANCH:        }
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @C2E2C : Cell -> Cell [3]

  stn.program @steep(%theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
      %w: !stn.field<Cell x KHalf x f64> {stn.name = "w"},
      %off: !stn.field<Cell x K x i32> {stn.name = "off"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %on: i1, %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    // expected-remark @+1 {{kernel 'steep': 2 column(s) read at data-dependent levels prefetched whole before their loop}}
    stn.kernel "steep" on Cell[%lo : %hi] K[%zero : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %c0 = arith.constant 0 : index
      %q = stn.neighbor %p through @C2E2C [%c0] : !stn.point<Cell> -> !stn.point<Cell>
      %r = scf.if %on -> f64 {
        %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
        %a = stn.load %theta[%q, k + %o] : !stn.field<Cell x K x f64>
        %b = stn.load %w[%q, k + %o + 1] : !stn.field<Cell x KHalf x f64>
        %s = arith.addf %a, %b : f64
        scf.yield %s : f64
      } else {
        %c = stn.load %theta[%p, k] : !stn.field<Cell x K x f64>
        scf.yield %c : f64
      }
      stn.write %r to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// A kernel on a point list prefetches at the entry `distance` runs on, this
// entry's run taken as the length of the next ones (64 entries where that is
// more), clamped to the list's last entry: right after the entry's
// `stn.list_point`, once per run (an iteration of the `scf.while`). A column read at constant offsets is asked
// for from that entry's level over this run's length (widened by the
// offsets); one read at data-dependent levels whole, before the run's loop.
// CHECK-LABEL: stn.program @listed
// CHECK:      %[[SIZE:.*]] = list_size %[[L:.*]] : !stn.points<Cell>
// CHECK-NEXT: = nlev : i32
// CHECK-NEXT: kernel "listed" on Cell at %[[L]]
// CHECK-NEXT: ^bb0(%[[EB:.*]]: index, %[[EE:.*]]: index):
// CHECK:      %[[COUNT:.*]] = arith.index_cast %[[SIZE]] : i32 to index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[COUNT]], %[[ONE]] : index
// CHECK-NEXT: scf.while
// CHECK:      ^bb0(%[[E:.*]]: index):
// CHECK-NEXT:     %[[LEN:.*]] = stn.list_run %[[L]][%[[E]]] until %[[EE]]
// CHECK-NEXT:     %[[P:.*]], %[[K:.*]] = stn.list_point %[[L]][%[[E]]]
// CHECK-NEXT:     %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:     %[[RUNS:.*]] = arith.muli %[[LEN]], %[[FOUR]] : index
// CHECK-NEXT:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:     %[[ENTRIES:.*]] = arith.maxsi %[[RUNS]], %[[C64]] : index
// CHECK-NEXT:     %[[AFTER:.*]] = arith.addi %[[E]], %[[ENTRIES]] : index
// CHECK-NEXT:     %[[NEXT:.*]] = arith.minsi %[[AFTER]], %[[LAST]] : index
// CHECK-NEXT:     %[[Q:.*]], %[[QK:.*]] = stn.list_point %[[L]][%[[NEXT]]]
// CHECK-NEXT:     %[[QEND:.*]] = arith.addi %[[QK]], %[[LEN]] : index
// CHECK-NEXT:     %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT:     %[[M0:.*]] = stn.neighbor %[[Q]] through @C2E2C[%[[S0]]]
// CHECK-NEXT:     %[[MINUS:.*]] = arith.constant -1 : index
// CHECK-NEXT:     %[[FROM:.*]] = arith.addi %[[QK]], %[[MINUS]] : index
// CHECK-NEXT:     %[[MINUS2:.*]] = arith.constant -1 : index
// CHECK-NEXT:     %[[TO:.*]] = arith.addi %[[QEND]], %[[MINUS2]] : index
// CHECK-NEXT:     stn.prefetch %t[%[[M0]], %[[FROM]] to %[[TO]]] : <Cell>, <Cell x K x f64>
// CHECK-NOT:      stn.neighbor %[[Q]]
// CHECK:          stn.prefetch %theta[%[[M0]], %{{.*}} to %{{.*}}] : <Cell>, <Cell x K x f64>
// CHECK-NEXT:     scf.for %{{.*}} = %[[K]] to
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @C2E2C : Cell -> Cell [3]

  stn.program @listed(%l: !stn.points<Cell>,
      %t: !stn.field<Cell x K x f64> {stn.name = "t"},
      %theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
      %off: !stn.field<Cell x K x i32> {stn.name = "off"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"}) {
    // expected-remark @+1 {{kernel 'listed': 1 column(s) read at neighbours prefetched 4 run(s) ahead (64 entries where more); 1 column(s) read at data-dependent levels prefetched whole before their loop}}
    stn.kernel "listed" on Cell at %l {
    ^bb0(%p: !stn.point<Cell>):
      %c0 = arith.constant 0 : index
      %q = stn.neighbor %p through @C2E2C [%c0] : !stn.point<Cell> -> !stn.point<Cell>
      %a = stn.load %t[%q, k - 1] : !stn.field<Cell x K x f64>
      %o = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
      %b = stn.load %theta[%q, k + %o] : !stn.field<Cell x K x f64>
      %s = arith.addf %a, %b : f64
      stn.write %s to %out at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}

// -----

// A temporary folded in the kernel's wavefront (flux: stage 0 writes it, the
// divergence gathers it through C2E) is in the cache when the group runs as a
// plan, which it does where a work item has min_levels levels or more: its
// columns are prefetched only where the work item has fewer (the group may
// then run as written, the full array from memory). vn, not folded, is
// prefetched as ever. The test reuses the work item's level count that the
// distance ahead was computed from.
// CHECK-LABEL: kernel "divergence"
// CHECK:      ^bb0(%[[HB:.*]]: index, %[[HE:.*]]: index, %[[KB:.*]]: index, %[[KE:.*]]: index):
// CHECK:      %[[LEVELS:.*]] = arith.subi %[[KE]], %[[KB]] : index
// CHECK:      arith.divsi
// CHECK-NEXT: arith.maxsi
// CHECK-NEXT: %[[MIN:.*]] = arith.constant 12 : index
// CHECK-NEXT: %[[FEW:.*]] = arith.cmpi slt, %[[LEVELS]], %[[MIN]] : index
// CHECK-NEXT: scf.for
// CHECK:        %[[M0:.*]] = stn.neighbor %{{.*}} through @C2E
// CHECK-NEXT:   stn.prefetch %vn[%[[M0]], %[[KB]] to %[[KE]]]
// CHECK:        %[[M1:.*]] = stn.neighbor %{{.*}} through @C2E
// CHECK-NEXT:   stn.prefetch %vn[%[[M1]], %[[KB]] to %[[KE]]]
// CHECK:        %[[M2:.*]] = stn.neighbor %{{.*}} through @C2E
// CHECK-NEXT:   stn.prefetch %vn[%[[M2]], %[[KB]] to %[[KE]]]
// CHECK-NEXT:   scf.if %[[FEW]] {
// CHECK-NEXT:     stn.prefetch %[[FLUX:.*]][%[[M0]], %[[KB]] to %[[KE]]]
// CHECK-NEXT:     stn.prefetch %[[FLUX]][%[[M1]], %[[KB]] to %[[KE]]]
// CHECK-NEXT:     stn.prefetch %[[FLUX]][%[[M2]], %[[KB]] to %[[KE]]]
// CHECK-NEXT:   }
// CHECK-NOT:    stn.prefetch
// CHECK:        scf.for %{{.*}} = %[[KB]] to %[[KE]]
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @E2C : Edge -> Cell [2]
  stn.connectivity @C2E : Cell -> Edge [3]
  stn.program @folded(%theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
      %vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %e0: i32 {stn.name = "e0"}, %e1: i32 {stn.name = "e1"},
      %c0: i32 {stn.name = "c0"}, %c1: i32 {stn.name = "c1"}) {
    %k0 = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    %n = stn.nlev : i32
    %flux = stn.alloc {name = "flux"} : !stn.field<Edge x K x f64>
    stn.wavefront tile(1024) min_levels(12) waits [gather<1 on 0 through @C2E>]
        folds [%flux : !stn.field<Edge x K x f64> [write<0>, gather<1 through @C2E>]] {
      // expected-remark @+1 {{kernel 'flux': 1 column(s) read at neighbours prefetched 4 point(s) ahead (64 / levels where more)}}
      stn.kernel "flux" on Edge[%e0 : %e1] K[%k0 : %n] attributes {stage = 0 : i64} {
      ^bb0(%e: !stn.point<Edge>):
        %a = stn.neighbor %e through @E2C [%i0] : !stn.point<Edge> -> !stn.point<Cell>
        %ta = stn.load %theta[%a, k] : !stn.field<Cell x K x f64>
        stn.write %ta to %flux at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
      }
      // expected-remark @+2 {{kernel 'divergence': columns of 1 folded temporary prefetched only where a work item has fewer than 12 levels (its wavefront may then run as written)}}
      // expected-remark @+1 {{kernel 'divergence': 6 column(s) read at neighbours prefetched 4 point(s) ahead (64 / levels where more)}}
      stn.kernel "divergence" on Cell[%c0 : %c1] K[%k0 : %n] attributes {stage = 1 : i64} {
      ^bb0(%c: !stn.point<Cell>):
        %s = stn.reduce sum over @C2E at %c : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %x: !stn.point<Edge>):
          %f = stn.load %flux[%x, k] : !stn.field<Edge x K x f64>
          %v = stn.load %vn[%x, k] : !stn.field<Edge x K x f64>
          %m = arith.mulf %f, %v : f64
          stn.yield %m : f64
        }
        stn.write %s to %out at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
    }
    stn.return
  }
}

// -----

// Outside the columns layout (levels are not contiguous) nothing changes.
// CHECK-LABEL: kernel "flat"
// CHECK-NOT:  stn.prefetch
// OPTS-LABEL: kernel "flat"
// OPTS-NOT:   stn.prefetch
module attributes {stn.target = "cpp"} {
  stn.connectivity @E2C : Edge -> Cell [2]

  stn.program @flat(%t: !stn.field<Cell x K x f64> {stn.name = "t"},
      %out: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32, %hi: i32) {
    %zero = arith.constant 0 : i32
    %n = stn.nlev : i32
    stn.kernel "flat" on Edge[%lo : %hi] K[%zero : %n] attributes {prefetch = true} {
    ^bb0(%p: !stn.point<Edge>):
      %c0 = arith.constant 0 : index
      %a = stn.neighbor %p through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
      %v = stn.load %t[%a, k] : !stn.field<Cell x K x f64>
      stn.write %v to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    stn.return
  }
}

// -----

// Where a work item has fewer than `own-levels` levels (16), a point reads
// one line of each of its own columns, one column stride (nlev levels) after
// the last: no hardware prefetcher follows that, so the loop asks for the own
// columns of the point ahead too, under a test made before the loop (the
// cold pools' two levels). A field the loop also prefetches at neighbours of
// the point's location (theta through C2E2C) is left to those prefetches;
// the neighbour's location differs for kh through E2C (cells of an edge).
// CHECK-LABEL: kernel "bottom"
// CHECK:      ^bb0(%[[HB:.*]]: index, %[[HE:.*]]: index, %[[KB:.*]]: index, %[[KE:.*]]: index):
// CHECK:      %[[DIFF:.*]] = arith.subi %[[KE]], %[[KB]] : index
// CHECK:      arith.divsi
// CHECK-NEXT: arith.maxsi
// CHECK-NEXT: %[[OWN:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[FEW:.*]] = arith.cmpi slt, %[[DIFF]], %[[OWN]] : index
// CHECK-NEXT: scf.for %[[H:.*]] = %[[HB]] to %[[HE]]
// CHECK:        %[[Q:.*]] = stn.point_at %{{.*}} : <Edge>
// CHECK:        stn.prefetch %kh_cell[
// CHECK:        stn.prefetch %kh_cell[
// CHECK-NEXT:   scf.if %[[FEW]] {
// CHECK-NEXT:     stn.prefetch %kh[%[[Q]], %[[KB]] to %[[KE]]] : <Edge>, <Edge x K x f64>
// CHECK-NEXT:   }
// CHECK-NEXT:   stn.point_at %[[H]] : <Edge>
// CHECK-LABEL: kernel "smooth"
// CHECK-NOT:    scf.if
// CHECK:        scf.for
// OPTS-LABEL: kernel "bottom"
// OPTS:       scf.if
// OPTS-NEXT:    stn.prefetch %kh[
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @E2C : Edge -> Cell [2]
  stn.connectivity @C2E2C : Cell -> Cell [3]

  stn.program @bottom(%kh_cell: !stn.field<Cell x K x f64> {stn.name = "kh_cell"},
      %theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
      %kh: !stn.field<Edge x K x f64> {stn.intent = 2 : i32, stn.name = "kh"},
      %smoothed: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "smoothed"},
      %lo: i32, %hi: i32, %klo: i32) {
    %n = stn.nlev : i32
    // expected-remark @+1 {{kernel 'bottom': 2 column(s) read at neighbours prefetched 4 point(s) ahead (64 / levels where more); 1 own column(s) prefetched where a work item has fewer than 16 levels}}
    stn.kernel "bottom" on Edge[%lo : %hi] K[%klo : %n] {
    ^bb0(%p: !stn.point<Edge>):
      %m = stn.reduce max over @E2C at %p : !stn.point<Edge> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Cell>):
        %v = stn.load %kh_cell[%q, k] : !stn.field<Cell x K x f64>
        stn.yield %v : f64
      }
      %own = stn.load %kh[%p, k] : !stn.field<Edge x K x f64>
      %s = arith.maximumf %m, %own : f64
      stn.write %s to %kh at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    // expected-remark @+1 {{kernel 'smooth': 3 column(s) read at neighbours prefetched 4 point(s) ahead (64 / levels where more)}}
    stn.kernel "smooth" on Cell[%lo : %hi] K[%klo : %n] {
    ^bb0(%p: !stn.point<Cell>):
      %a = stn.reduce sum over @C2E2C at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Cell>):
        %v = stn.load %theta[%q, k] : !stn.field<Cell x K x f64>
        stn.yield %v : f64
      }
      %own = stn.load %theta[%p, k] : !stn.field<Cell x K x f64>
      %s = arith.subf %a, %own : f64
      stn.write %s to %smoothed at %p : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    stn.return
  }
}
