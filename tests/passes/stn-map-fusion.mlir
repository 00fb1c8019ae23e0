// RUN: %fusec-opt %s -split-input-file -stn-map-fusion -Rpass=stn-map-fusion -mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %fusec-opt %s -split-input-file -stn-map-fusion="bytes-weight=0" -mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=NOCOST
// RUN: %fusec-opt %s -split-input-file -stn-map-fusion="gather-weight=2" -mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=GATHER2
// RUN: %fusec-opt %s -split-input-file -stn-map-fusion="address-streams=0" -mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=STREAMS0
// RUN: %fusec-opt %s -split-input-file -stn-map-fusion="mix-data-dependent-levels=1" -mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=MIX


// Centre read at K-1: the producer is cloned at the shifted level.
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.connectivity @E2C : Edge -> Cell [2] skip

// CHECK-LABEL: stn.program @centre_level_offset
// CHECK: apply on Cell[%lo : %hi]
// CHECK: stn.load %f[%{{.*}}, k - 1]
// CHECK-NOT: apply
stn.program @centre_level_offset(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32, %km: i32) {
  // expected-remark @+1 {{fused 'div' into its readers: 1 read(s) at the centre}}
  %t = stn.apply on Cell[%lo : %hi] K[%km : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %x = arith.mulf %v, %v : f64
    stn.yield %x : f64
  } attributes {name = "div"}
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %t[%p, k - 1] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "div_ic"}
  stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.connectivity @E2C : Edge -> Cell [2] skip

// A read through a neighbour table is recomputed at each neighbour; through a
// table with missing entries the recomputed value is 0 at a missing neighbour.
// CHECK-LABEL: stn.program @recompute_through_skip_table
// CHECK: %[[N:.*]] = stn.neighbor %{{.*}} through @E2C
// CHECK: stn.load %th[%[[N]], k]
// CHECK: %[[VALID:.*]] = stn.valid %[[N]]
// CHECK: arith.select %[[VALID]]
stn.program @recompute_through_skip_table(%th: !stn.field<Cell x K x f64> {stn.name = "th"},
    %o: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %clo: i32, %chi: i32, %k0: i32, %k1: i32) {
  // expected-remark @+1 {{fused 'enh' into its readers: 1 read(s) recomputed through neighbour tables}}
  %t = stn.apply on Cell[%clo : %chi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %th[%p, k] : !stn.field<Cell x K x f64>
    %one = arith.constant 1.0 : f64
    %x = arith.addf %v, %one : f64
    stn.yield %x : f64
  } attributes {name = "enh"}
  %u = stn.apply on Edge[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Edge x K x f64> {
  ^bb0(%e: !stn.point<Edge>):
    %c0 = arith.constant 0 : index
    %n = stn.neighbor %e through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
    %v = stn.load %t[%n, k] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "kh"}
  stn.store %u to %o on Edge[%lo : %hi] K[%k0 : %k1] : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
  stn.return
}

// -----

stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.connectivity @E2C : Edge -> Cell [2] skip

// Cost model: read 4 times through C2E2CO; with bytes-weight=0 memory is
// free, so recomputation never pays.
// CHECK-LABEL: stn.program @cost_model
// CHECK: stn.reduce sum over @C2E2CO
// CHECK: stn.reduce sum over @C2E2CO
// NOCOST-LABEL: stn.program @cost_model
// NOCOST: attributes {name = "nabla2"}
// NOCOST: apply on Cell[%lo : %hi]
// NOCOST: stn.load %{{.*}}[%{{.*}}, k] : !stn.temp
stn.program @cost_model(%w_old: !stn.field<Cell x K x f64> {stn.name = "w_old"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %clo: i32, %chi: i32, %k0: i32, %k1: i32) {
  // expected-remark @+1 {{fused 'nabla2' into its readers: 4 read(s) recomputed through neighbour tables, work 60 each}}
  %t = stn.apply on Cell[%clo : %chi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %w_old[%q, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    stn.yield %s : f64
  } attributes {name = "nabla2"}
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %q: !stn.point<Cell>):
      %x = stn.load %t[%q, k] : !stn.temp<Cell x K x f64>
      stn.yield %x : f64
    }
    stn.yield %s : f64
  } attributes {name = "nabla4"}
  stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.connectivity @E2C : Edge -> Cell [2] skip

// Cost model: two reads at the same point and level are one evaluation (CSE
// keeps one copy of the recomputed producer); reads at k and k-1 are two. So
// with free memory 'twice' is still fused and 'shifted' is not: computing its
// 5 units twice costs more than once plus two loads of the temporary.
// CHECK-LABEL: stn.program @repeated_reads
// CHECK-NOT: name = "twice"
// CHECK-NOT: name = "shifted"
// CHECK: } attributes {name = "reader"}
// NOCOST-LABEL: stn.program @repeated_reads
// NOCOST-NOT: name = "twice"
// NOCOST: } attributes {name = "shifted"}
// NOCOST: } attributes {name = "reader"}
stn.program @repeated_reads(%f: !stn.field<Cell x K x f64> {stn.name = "f"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
  // expected-remark @+1 {{fused 'twice' into its readers: 1 read(s) at the centre, work 3 each}}
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %x = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %y = arith.mulf %x, %x : f64
    stn.yield %y : f64
  } attributes {name = "twice"}
  // expected-remark @+1 {{fused 'shifted' into its readers: 2 read(s) at the centre, work 5 each}}
  %s = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %x = stn.load %f[%p, k] : !stn.field<Cell x K x f64>
    %y = arith.addf %x, %x : f64
    %z = arith.mulf %y, %x : f64
    %w = arith.subf %z, %y : f64
    stn.yield %w : f64
  } attributes {name = "shifted"}
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %a = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
    %b = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
    %c = stn.load %s[%p, k] : !stn.temp<Cell x K x f64>
    %d = stn.load %s[%p, k - 1] : !stn.temp<Cell x K x f64>
    %ab = arith.mulf %a, %b : f64
    %cd = arith.subf %c, %d : f64
    %r = arith.addf %ab, %cd : f64
    stn.yield %r : f64
  } attributes {name = "reader"}
  stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.connectivity @E2C : Edge -> Cell [2] skip

// Refusal (the dependency-skipping case that broke dawn): the producer reads
// `a`, which is written between producer and consumer, so the consumer must
// see the value computed before that write.
// CHECK-LABEL: stn.program @dependency_in_between
// CHECK: %[[T:.*]] = apply on Cell
// CHECK: store %{{.*}} to %a
// CHECK: stn.load %[[T]]
stn.program @dependency_in_between(%a: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "a"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32, %zlo: i32) {
  // expected-remark @+1 {{not fused into 'consumer': 'a' it reads is written in between}}
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %a[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "producer"}
  %z = stn.apply on Cell[%zlo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %c = arith.constant 0.0 : f64
    stn.yield %c : f64
  } attributes {name = "zero"}
  stn.store %z to %a on Cell[%zlo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "consumer"}
  stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.connectivity @E2C : Edge -> Cell [2] skip

// Refusal: never across a halo exchange.
// CHECK-LABEL: stn.program @across_exchange
// CHECK: %[[T:.*]] = apply on Cell
// CHECK: exchange
// CHECK: stn.load %[[T]]
stn.program @across_exchange(%a: !stn.field<Cell x K x f64> {stn.name = "a"},
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
  // expected-remark @+1 {{not fused into 'consumer': a halo exchange lies between them}}
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %a[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "producer"}
  stn.exchange %o : !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "consumer"}
  stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.connectivity @E2C : Edge -> Cell [2] skip

// Refusal: a read at a data-dependent level keeps the temporary.
// CHECK-LABEL: stn.program @dynamic_level
// CHECK: %[[T:.*]] = apply on Cell
// CHECK: stn.load %[[T]][%{{.*}}, k + %
stn.program @dynamic_level(%a: !stn.field<Cell x K x f64>, %off: !stn.field<Cell x K x i32>,
    %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  // expected-remark @+1 {{not fused into 'consumer': it is read at a data-dependent level}}
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %a[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "producer"}
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %d = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
    %v = stn.load %t[%p, k + %d] : !stn.temp<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "consumer"}
  stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.connectivity @E2C : Edge -> Cell [2] skip

// Siblings over the same domain become one application with both results.
// CHECK-LABEL: stn.program @siblings
// CHECK: %[[M:.*]]:2 = apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64>
// CHECK: attributes {name = "dwdx+dwdy"}
// CHECK: store %[[M]]#0 to %x
// CHECK: store %[[M]]#1 to %y
stn.program @siblings(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %x: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "x"},
    %y: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "y"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32 {stn.name = "k0"}, %k1: i32 {stn.name = "k1"}) {
  // expected-remark @+1 {{fused siblings 'dwdx' and 'dwdy' (same domain): one kernel}}
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "dwdx"}
  stn.store %t to %x on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    %d = arith.addf %v, %v : f64
    stn.yield %d : f64
  } attributes {name = "dwdy"}
  stn.store %u to %y on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Sibling fusion compares bounds by value: separate constants and `stn.nlev`
// ops, as the frontend emits them, and `(h + 2) - 2` for `h`. No CSE first.
// CHECK-LABEL: stn.program @siblings_by_value
// CHECK: %[[M:.*]]:2 = apply on Cell
// CHECK: attributes {name = "dwdx+dwdy"}
// CHECK: store %[[M]]#0 to %x
// CHECK: store %[[M]]#1 to %y
stn.program @siblings_by_value(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %x: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "x"},
    %y: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "y"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %n0 = stn.nlev : i32
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{fused siblings 'dwdx' and 'dwdy' (same domain): one kernel}}
  %t = stn.apply on Cell[%lo : %hi] K[%c0 : %n0] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "dwdx"}
  stn.store %t to %x on Cell[%lo : %hi] K[%c0 : %n0] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  %n1 = stn.nlev : i32
  %c0b = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %hi2 = arith.addi %hi, %c2 : i32
  %hi3 = arith.subi %hi2, %c2 : i32
  %u = stn.apply on Cell[%lo : %hi3] K[%c0b : %n1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    %d = arith.addf %v, %v : f64
    stn.yield %d : f64
  } attributes {name = "dwdy"}
  stn.store %u to %y on Cell[%lo : %hi3] K[%c0b : %n1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// Refusal with a reason: a halo exchange of what the later one reads.
// CHECK-LABEL: stn.program @siblings_across_exchange
// CHECK: apply on Cell
// CHECK: exchange
// CHECK: apply on Cell
stn.program @siblings_across_exchange(%w: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "w"},
    %x: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "x"},
    %y: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "y"},
    %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
  %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "dwdx"}
  stn.store %t to %x on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.exchange %w : !stn.field<Cell x K x f64>
  // expected-remark @+1 {{siblings not merged with 'dwdx': a halo exchange lies between them}}
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
    stn.yield %v : f64
  } attributes {name = "dwdy"}
  stn.store %u to %y on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// The module's target picks the weights (CostModel.h). On CPUs gathers do not
// vectorise (cpp: 26 units each), so recomputing the Laplacian at its 4
// neighbours, where its own reads become gathers of gathers, costs more than
// the round trip through memory; with a gather priced like a load, as on
// CUDA, it is recomputed. Options override the target's weights.
// CHECK-LABEL: stn.program @target_weights
// CHECK: attributes {name = "lap"}
// CHECK: stn.load %{{.*}}[%{{.*}}, k] : !stn.temp
// GATHER2-LABEL: stn.program @target_weights
// GATHER2-NOT: attributes {name = "lap"}
// GATHER2: attributes {name = "lap4"}
module attributes {stn.target = "cpp"} {
  stn.connectivity @C2E2CO : Cell -> Cell [4]
  stn.program @target_weights(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %g: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g"},
      %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %clo: i32, %chi: i32, %k0: i32, %k1: i32) {
    // expected-remark @+1 {{not fused: 'lap' read 4 times through neighbour tables, recomputation would cost 864 work units against 304 to keep it in memory (7.2x the producer's work; cpp weights: gather 26, byte 5)}}
    %t = stn.apply on Cell[%clo : %chi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Cell>):
        %c = stn.load %g[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %x = stn.load %w[%q, k] : !stn.field<Cell x K x f64>
        %m = arith.mulf %c, %x : f64
        stn.yield %m : f64
      }
      stn.yield %s : f64
    } attributes {name = "lap"}
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %q: !stn.point<Cell>):
        %x = stn.load %t[%q, k] : !stn.temp<Cell x K x f64>
        stn.yield %x : f64
      }
      stn.yield %s : f64
    } attributes {name = "lap4"}
    stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}

// -----

// A consumer that reads a temporary at its own point one level apart (a
// vertical interpolation of a divergence) recomputes it once per level on
// CPUs: its work items walk all levels of their points (kblock = 1024) and
// stn-carry-levels takes the lower value from the level before.
// CHECK-LABEL: stn.program @carried_reads
// CHECK-NOT: attributes {name = "div"}
// CHECK: attributes {kblock = 1024 : i64, name = "interp"}
module attributes {stn.target = "cpp"} {
  stn.connectivity @C2E : Cell -> Edge [3]
  stn.program @carried_reads(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
      %g: !stn.field<Cell x C2E[3] x f64> {stn.name = "g"},
      %wgt: !stn.field<Cell x K x f64> {stn.name = "wgt"},
      %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
    %c1 = arith.constant 1 : i32
    %km = arith.subi %k0, %c1 : i32
    // expected-remark @+1 {{fused 'div' into its readers: 1 read(s) at the centre, work}}
    %t = stn.apply on Cell[%lo : %hi] K[%km : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %e: !stn.point<Edge>):
        %c = stn.load %g[%p, nbr %j] : !stn.field<Cell x C2E[3] x f64>
        %x = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
        %m = arith.mulf %c, %x : f64
        stn.yield %m : f64
      }
      stn.yield %s : f64
    } attributes {name = "div"}
    // expected-remark @+1 {{walks all levels of its points (kblock = 1024): it reads 'div' at neighbouring levels, the lower carried}}
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %w = stn.load %wgt[%p, k] : !stn.field<Cell x K x f64>
      %here = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
      %below = stn.load %t[%p, k - 1] : !stn.temp<Cell x K x f64>
      %d = arith.subf %here, %below : f64
      %r = arith.mulf %w, %d : f64
      stn.yield %r : f64
    } attributes {name = "interp"}
    stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}

// -----

// Two levels apart nothing is carried: two recomputations of the gathers
// cost more than keeping them in memory.
// CHECK-LABEL: stn.program @two_levels_apart
// CHECK: attributes {name = "div"}
// CHECK: attributes {name = "interp"}
module attributes {stn.target = "cpp"} {
  stn.connectivity @C2E : Cell -> Edge [3]
  stn.program @two_levels_apart(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
      %g: !stn.field<Cell x C2E[3] x f64> {stn.name = "g"},
      %wgt: !stn.field<Cell x K x f64> {stn.name = "wgt"},
      %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
    %c2 = arith.constant 2 : i32
    %km = arith.subi %k0, %c2 : i32
    // expected-remark @+1 {{not fused: 'div' read 2 times}}
    %t = stn.apply on Cell[%lo : %hi] K[%km : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %e: !stn.point<Edge>):
        %c = stn.load %g[%p, nbr %j] : !stn.field<Cell x C2E[3] x f64>
        %x = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
        %m = arith.mulf %c, %x : f64
        stn.yield %m : f64
      }
      stn.yield %s : f64
    } attributes {name = "div"}
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %w = stn.load %wgt[%p, k] : !stn.field<Cell x K x f64>
      %here = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
      %below = stn.load %t[%p, k - 2] : !stn.temp<Cell x K x f64>
      %d = arith.subf %here, %below : f64
      %r = arith.mulf %w, %d : f64
      stn.yield %r : f64
    } attributes {name = "interp"}
    stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}

// -----

// On CPUs, siblings that both read through neighbour tables but share no
// gathered field stay apart (a gradient of w next to an update reading a
// Laplacian at the neighbours): one scalar kernel would hold the address
// streams of both. Siblings gathering the same field become one kernel.
// CHECK-LABEL: stn.program @unrelated_gathers_on_cpu
// CHECK: attributes {name = "update"}
// CHECK: attributes {name = "gradient"}
// CHECK-NOT: apply
// CHECK: return
module attributes {stn.target = "cpp"} {
  stn.connectivity @C2E2CO : Cell -> Cell [4]
  stn.program @unrelated_gathers_on_cpu(%lap: !stn.field<Cell x K x f64> {stn.name = "lap"},
      %w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
      %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %x = stn.load %lap[%n, k] : !stn.field<Cell x K x f64>
        stn.yield %x : f64
      }
      stn.yield %s : f64
    } attributes {name = "update"}
    // expected-remark @+1 {{siblings not merged with 'update': both read through neighbour tables (1 and 1 field(s)) and share no gathered field; on the cpp target one kernel would keep all their address streams in registers}}
    %g = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
        stn.yield %x : f64
      }
      stn.yield %s : f64
    } attributes {name = "gradient"}
    stn.store %u to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.store %g to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}

// -----

// CHECK-LABEL: stn.program @shared_gathers_on_cpu
// CHECK: attributes {name = "nabla2+gradient"}
module attributes {stn.target = "cpp"} {
  stn.connectivity @C2E2CO : Cell -> Cell [4]
  stn.program @shared_gathers_on_cpu(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %g: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g"},
      %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
      %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
    // expected-remark @+1 {{fused siblings 'nabla2' and 'gradient' (same domain): one kernel}}
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
        stn.yield %x : f64
      }
      stn.yield %s : f64
    } attributes {name = "nabla2"}
    %v = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %c = stn.load %g[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
        %m = arith.mulf %c, %x : f64
        stn.yield %m : f64
      }
      stn.yield %s : f64
    } attributes {name = "gradient"}
    stn.store %u to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.store %v to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}

// -----

// Siblings whose domains differ merge when one holds the other and both gather
// a field through the same table (w's Laplacian over the cells its update reads,
// the gradients on their own cells): the hull is the outer domain, the inner
// part runs under a test of its range. Their results may be of both vertical
// kinds when the full-level part runs over the other's levels.
// CHECK-LABEL: stn.program @nested_siblings
// CHECK: %[[LB:.*]] = arith.minsi %lo, %{{.*}} : i32
// CHECK: %[[UB:.*]] = arith.maxsi %hi, %{{.*}} : i32
// CHECK: apply on Cell[%[[LB]] : %[[UB]]] K[%{{.*}} : %{{.*}}] -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x KHalf x f64>
// CHECK: %[[IDX:.*]] = stn.index
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[IDX]], %lo
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[IDX]], %hi
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK: scf.if %[[IN]] -> (f64)
// CHECK: attributes {name = "nabla2+gradient"}
module attributes {stn.target = "cpp"} {
  stn.connectivity @C2E2CO : Cell -> Cell [4]
  stn.program @nested_siblings(%w: !stn.field<Cell x KHalf x f64> {stn.name = "w"},
      %g: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g"},
      %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
      %b: !stn.field<Cell x KHalf x f64> {stn.intent = 1 : i32, stn.name = "b"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
    %ilo, %ihi = stn.image %lo, %hi through @C2E2CO
    %wlo = arith.minsi %lo, %ilo : i32
    %whi = arith.maxsi %hi, %ihi : i32
    // expected-remark @+1 {{fused siblings 'nabla2' and 'gradient' (one domain inside the other, both gather a field through the same table): one kernel, the inner part under a test of its range}}
    %u = stn.apply on Cell[%wlo : %whi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %x = stn.load %w[%n, k] : !stn.field<Cell x KHalf x f64>
        stn.yield %x : f64
      }
      stn.yield %s : f64
    } attributes {name = "nabla2"}
    %v = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x KHalf x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %c = stn.load %g[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %x = stn.load %w[%n, k] : !stn.field<Cell x KHalf x f64>
        %m = arith.mulf %c, %x : f64
        stn.yield %m : f64
      }
      stn.yield %s : f64
    } attributes {name = "gradient"}
    stn.store %u to %a on Cell[%wlo : %whi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.store %v to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x KHalf x f64> to !stn.field<Cell x KHalf x f64>
    stn.return
  }
}

// -----

// Nested domains without a field gathered in common stay apart (nothing would
// be read once instead of twice), and so do a full-level part and a
// half-level one over more levels: the hull would reach past the full levels.
// CHECK-LABEL: stn.program @nested_siblings_kept_apart
// CHECK-COUNT-3: apply on Cell
module attributes {stn.target = "cpp"} {
  stn.connectivity @C2E2CO : Cell -> Cell [4]
  stn.program @nested_siblings_kept_apart(%w: !stn.field<Cell x KHalf x f64> {stn.name = "w"},
      %x: !stn.field<Cell x KHalf x f64> {stn.name = "x"},
      %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
      %b: !stn.field<Cell x KHalf x f64> {stn.intent = 1 : i32, stn.name = "b"},
      %c: !stn.field<Cell x KHalf x f64> {stn.intent = 1 : i32, stn.name = "c"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
    %ilo, %ihi = stn.image %lo, %hi through @C2E2CO
    %wlo = arith.minsi %lo, %ilo : i32
    %whi = arith.maxsi %hi, %ihi : i32
    %k2 = arith.addi %k1, %k0 : i32
    %kup = arith.maxsi %k1, %k2 : i32
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %y = stn.load %w[%n, k] : !stn.field<Cell x KHalf x f64>
        stn.yield %y : f64
      }
      stn.yield %s : f64
    } attributes {name = "nabla2"}
    // expected-remark @+1 {{siblings not merged with 'nabla2': one computes half levels, the other full levels on fewer of them}}
    %v = stn.apply on Cell[%wlo : %whi] K[%k0 : %kup] -> !stn.temp<Cell x KHalf x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %y = stn.load %w[%n, k] : !stn.field<Cell x KHalf x f64>
        stn.yield %y : f64
      }
      stn.yield %s : f64
    } attributes {name = "longer"}
    %t = stn.apply on Cell[%lo : %hi] K[%k0 : %kup] -> !stn.temp<Cell x KHalf x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %y = stn.load %x[%n, k] : !stn.field<Cell x KHalf x f64>
        stn.yield %y : f64
      }
      stn.yield %s : f64
    } attributes {name = "other"}
    stn.store %u to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.store %v to %b on Cell[%wlo : %whi] K[%k0 : %kup] : !stn.temp<Cell x KHalf x f64> to !stn.field<Cell x KHalf x f64>
    stn.store %t to %c on Cell[%lo : %hi] K[%k0 : %kup] : !stn.temp<Cell x KHalf x f64> to !stn.field<Cell x KHalf x f64>
    stn.return
  }
}

// -----

// The CUDA target merges the same pair: threads hide the gathers' latency.
// CHECK-LABEL: stn.program @unrelated_gathers_on_gpu
// CHECK: attributes {name = "update+gradient"}
stn.connectivity @C2E2CO : Cell -> Cell [4]
stn.program @unrelated_gathers_on_gpu(%lap: !stn.field<Cell x K x f64> {stn.name = "lap"},
    %w: !stn.field<Cell x K x f64> {stn.name = "w"},
    %a: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "a"},
    %b: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "b"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
  // expected-remark @+1 {{fused siblings 'update' and 'gradient' (same domain): one kernel}}
  %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %n: !stn.point<Cell>):
      %x = stn.load %lap[%n, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    stn.yield %s : f64
  } attributes {name = "update"}
  %g = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
  ^bb0(%p: !stn.point<Cell>):
    %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %n: !stn.point<Cell>):
      %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
      stn.yield %x : f64
    }
    stn.yield %s : f64
  } attributes {name = "gradient"}
  stn.store %u to %a on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.store %g to %b on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
  stn.return
}

// -----

// On CPUs a producer read once at the centre stays apart when one kernel would
// advance more address streams than the target's limit (20 on cpp) and more
// than either part: the gathering producer keeps 17 pointers (4 table slots,
// the gathered field, 3 coefficients x 4 slots) and a result, the consumer
// brings 4 fields of its own. Without a limit it is fused.
// CHECK-LABEL: stn.program @too_many_streams_on_cpu
// CHECK: attributes {name = "nabla4"}
// CHECK: attributes {name = "update"}
// STREAMS0-LABEL: stn.program @too_many_streams_on_cpu
// STREAMS0-NOT: name = "nabla4"
// STREAMS0: attributes {name = "update"}
module attributes {stn.target = "cpp"} {
  stn.connectivity @C2E2CO : Cell -> Cell [4]
  stn.program @too_many_streams_on_cpu(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %g1: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g1"},
      %g2: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g2"},
      %g3: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g3"},
      %f1: !stn.field<Cell x K x f64> {stn.name = "f1"},
      %f2: !stn.field<Cell x K x f64> {stn.name = "f2"},
      %f3: !stn.field<Cell x K x f64> {stn.name = "f3"},
      %f4: !stn.field<Cell x K x f64> {stn.name = "f4"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
    // expected-remark @+1 {{not fused into 'update': one kernel would advance 22 address streams (18 and 6 apart), more than the 20 the cpp target keeps in registers}}
    %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %c1 = stn.load %g1[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %c2 = stn.load %g2[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %c3 = stn.load %g3[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
        %m1 = arith.mulf %c1, %x : f64
        %m2 = arith.mulf %c2, %m1 : f64
        %m3 = arith.mulf %c3, %m2 : f64
        stn.yield %m3 : f64
      }
      stn.yield %s : f64
    } attributes {name = "nabla4"}
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
      %a = stn.load %f1[%p, k] : !stn.field<Cell x K x f64>
      %b = stn.load %f2[%p, k] : !stn.field<Cell x K x f64>
      %c = stn.load %f3[%p, k] : !stn.field<Cell x K x f64>
      %d = stn.load %f4[%p, k] : !stn.field<Cell x K x f64>
      %x = arith.mulf %v, %a : f64
      %y = arith.mulf %b, %c : f64
      %z = arith.addf %x, %y : f64
      %r = arith.addf %z, %d : f64
      stn.yield %r : f64
    } attributes {name = "update"}
    stn.store %u to %out on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}

// -----

// In the columns layout a kernel's address streams are loop-invariant bases
// of its level loop, which spill more cheaply than a point loop's pointers:
// the cpp target there keeps 24 (CostModel.cpp), so the 22 above fuse.
// CHECK-LABEL: stn.program @streams_in_columns
// CHECK-NOT: name = "nabla4"
// CHECK: attributes {name = "update"}
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.connectivity @C2E2CO : Cell -> Cell [4]
  stn.program @streams_in_columns(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %g1: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g1"},
      %g2: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g2"},
      %g3: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g3"},
      %f1: !stn.field<Cell x K x f64> {stn.name = "f1"},
      %f2: !stn.field<Cell x K x f64> {stn.name = "f2"},
      %f3: !stn.field<Cell x K x f64> {stn.name = "f3"},
      %f4: !stn.field<Cell x K x f64> {stn.name = "f4"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
    // expected-remark @+1 {{fused 'nabla4' into its readers: 1 read(s) at the centre, work 144 each}}
    %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %c1 = stn.load %g1[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %c2 = stn.load %g2[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %c3 = stn.load %g3[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
        %m1 = arith.mulf %c1, %x : f64
        %m2 = arith.mulf %c2, %m1 : f64
        %m3 = arith.mulf %c3, %m2 : f64
        stn.yield %m3 : f64
      }
      stn.yield %s : f64
    } attributes {name = "nabla4"}
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
      %a = stn.load %f1[%p, k] : !stn.field<Cell x K x f64>
      %b = stn.load %f2[%p, k] : !stn.field<Cell x K x f64>
      %c = stn.load %f3[%p, k] : !stn.field<Cell x K x f64>
      %d = stn.load %f4[%p, k] : !stn.field<Cell x K x f64>
      %x = arith.mulf %v, %a : f64
      %y = arith.mulf %b, %c : f64
      %z = arith.addf %x, %y : f64
      %r = arith.addf %z, %d : f64
      stn.yield %r : f64
    } attributes {name = "update"}
    stn.store %u to %out on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}


// -----

// A consumer that brings one field of its own keeps the kernel within the
// limit (19 streams): fused.
// CHECK-LABEL: stn.program @few_streams_on_cpu
// CHECK-NOT: name = "nabla4"
// CHECK: attributes {name = "update"}
module attributes {stn.target = "cpp"} {
  stn.connectivity @C2E2CO : Cell -> Cell [4]
  stn.program @few_streams_on_cpu(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %g1: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g1"},
      %g2: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g2"},
      %g3: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g3"},
      %f1: !stn.field<Cell x K x f64> {stn.name = "f1"},
      %f2: !stn.field<Cell x K x f64> {stn.name = "f2"},
      %f3: !stn.field<Cell x K x f64> {stn.name = "f3"},
      %f4: !stn.field<Cell x K x f64> {stn.name = "f4"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32) {
    // expected-remark @+1 {{fused 'nabla4' into its readers: 1 read(s) at the centre}}
    %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %c1 = stn.load %g1[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %c2 = stn.load %g2[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %c3 = stn.load %g3[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
        %m1 = arith.mulf %c1, %x : f64
        %m2 = arith.mulf %c2, %m1 : f64
        %m3 = arith.mulf %c3, %m2 : f64
        stn.yield %m3 : f64
      }
      stn.yield %s : f64
    } attributes {name = "nabla4"}
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
      %a = stn.load %f1[%p, k] : !stn.field<Cell x K x f64>
      %x = arith.mulf %v, %a : f64
      stn.yield %x : f64
    } attributes {name = "update"}
    stn.store %u to %out on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}

// -----

// Siblings count their table slots too: the gathering one (18 streams with its
// result) and one reading four fields (5) would make 23.
// CHECK-LABEL: stn.program @sibling_streams_on_cpu
// CHECK: attributes {name = "nabla4"}
// CHECK: attributes {name = "update"}
// STREAMS0-LABEL: stn.program @sibling_streams_on_cpu
// STREAMS0: attributes {name = "nabla4+update"}
module attributes {stn.target = "cpp"} {
  stn.connectivity @C2E2CO : Cell -> Cell [4]
  stn.program @sibling_streams_on_cpu(%w: !stn.field<Cell x K x f64> {stn.name = "w"},
      %g1: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g1"},
      %g2: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g2"},
      %g3: !stn.field<Cell x C2E2CO[4] x f64> {stn.name = "g3"},
      %f1: !stn.field<Cell x K x f64> {stn.name = "f1"},
      %f2: !stn.field<Cell x K x f64> {stn.name = "f2"},
      %f3: !stn.field<Cell x K x f64> {stn.name = "f3"},
      %f4: !stn.field<Cell x K x f64> {stn.name = "f4"},
      %out: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out"},
      %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}, %k0: i32, %k1: i32,
      %out2: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out2"}) {
    %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %s = stn.reduce sum over @C2E2CO at %p : !stn.point<Cell> -> f64 {
      ^bb0(%j: index, %n: !stn.point<Cell>):
        %c1 = stn.load %g1[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %c2 = stn.load %g2[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %c3 = stn.load %g3[%p, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
        %x = stn.load %w[%n, k] : !stn.field<Cell x K x f64>
        %m1 = arith.mulf %c1, %x : f64
        %m2 = arith.mulf %c2, %m1 : f64
        %m3 = arith.mulf %c3, %m2 : f64
        stn.yield %m3 : f64
      }
      stn.yield %s : f64
    } attributes {name = "nabla4"}
    // expected-remark @+1 {{siblings not merged with 'nabla4': one kernel would advance 23 address streams (18 and 5 apart), more than the 20 the cpp target keeps in registers}}
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %a = stn.load %f1[%p, k] : !stn.field<Cell x K x f64>
      %b = stn.load %f2[%p, k] : !stn.field<Cell x K x f64>
      %c = stn.load %f3[%p, k] : !stn.field<Cell x K x f64>
      %d = stn.load %f4[%p, k] : !stn.field<Cell x K x f64>
      %x = arith.mulf %a, %b : f64
      %y = arith.mulf %c, %d : f64
      %r = arith.addf %x, %y : f64
      stn.yield %r : f64
    } attributes {name = "update"}
    stn.store %t to %out on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.store %u to %out2 on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}

// -----

// A kernel that reads at data-dependent levels (ICON's steep-point correction)
// takes a producer read at its centre on the cpp target; in the columns layout
// its level loop, the vector loop there, gathers every level, and the
// producer's contiguous levels stay in their own kernel (CostModel.cpp).
// CHECK-LABEL: stn.program @data_dependent_levels
// CHECK-NOT: name = "square"
// CHECK: attributes {name = "shifted"}
module attributes {stn.target = "cpp"} {
  stn.program @data_dependent_levels(%a: !stn.field<Cell x K x f64>, %b: !stn.field<Cell x K x f64>,
      %off: !stn.field<Cell x K x i32>, %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
      %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
    // expected-remark @+1 {{fused 'square' into its readers: 1 read(s) at the centre, work 3 each}}
    %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %a[%p, k] : !stn.field<Cell x K x f64>
      %w = arith.mulf %v, %v : f64
      stn.yield %w : f64
    } attributes {name = "square"}
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %d = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
      %x = stn.load %b[%p, k + %d] : !stn.field<Cell x K x f64>
      %s = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
      %r = arith.addf %x, %s : f64
      stn.yield %r : f64
    } attributes {name = "shifted"}
    stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}

// -----

// The option `mix-data-dependent-levels=1` fuses them.
// CHECK-LABEL: stn.program @data_dependent_levels_in_columns
// CHECK: attributes {name = "square"}
// CHECK: attributes {name = "shifted"}
// MIX-LABEL: stn.program @data_dependent_levels_in_columns
// MIX-NOT: attributes {name = "square"}
// MIX: attributes {name = "shifted"}
module attributes {stn.target = "cpp", stn.layout = "columns"} {
  stn.program @data_dependent_levels_in_columns(%a: !stn.field<Cell x K x f64>, %b: !stn.field<Cell x K x f64>,
      %off: !stn.field<Cell x K x i32>, %o: !stn.field<Cell x K x f64> {stn.intent = 1 : i32},
      %lo: i32, %hi: i32, %k0: i32, %k1: i32) {
    // expected-remark @+1 {{not fused into 'shifted': 'shifted' reads at data-dependent levels and 'square' does not; on the cpp (columns layout) target one level loop would gather the levels of both}}
    %t = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %a[%p, k] : !stn.field<Cell x K x f64>
      %w = arith.mulf %v, %v : f64
      stn.yield %w : f64
    } attributes {name = "square"}
    %u = stn.apply on Cell[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %d = stn.load %off[%p, k] : !stn.field<Cell x K x i32>
      %x = stn.load %b[%p, k + %d] : !stn.field<Cell x K x f64>
      %s = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
      %r = arith.addf %x, %s : f64
      stn.yield %r : f64
    } attributes {name = "shifted"}
    stn.store %u to %o on Cell[%lo : %hi] K[%k0 : %k1] : !stn.temp<Cell x K x f64> to !stn.field<Cell x K x f64>
    stn.return
  }
}
