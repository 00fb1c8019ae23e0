//===- Passes.td - fusec optimisation passes ----------------*- tablegen -*-===//

#ifndef FUSEC_PASSES_TD
#define FUSEC_PASSES_TD

include "mlir/Pass/PassBase.td"

def InferDomains : Pass<"stn-infer-domains", "::mlir::ModuleOp"> {
  let summary = "Computes the domain every temporary must be computed on";
  let description = [{
    Walking each program backwards, gives every application whose domain is
    not yet known the hull of what its users need: the domains of the stores
    of its results, and for each read by another application that
    application's domain, moved by the read's level offset and mapped through
    the connectivities the read goes through (`stn.image`, one halo ring per
    connectivity on ICON's ordered grids). A read at a data-dependent level
    needs all levels. Applications nothing uses are removed. Reads at a
    constant level that leave the levels of the temporary, where the bounds
    are constants, are errors.

    Before:
    ```mlir
    %t = stn.apply on Cell -> !stn.temp<Cell x K x f64> { ... }
    %u = stn.apply on Edge[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Edge x K x f64> {
    ^bb0(%e: !stn.point<Edge>):
      %c = stn.neighbor %e through @E2C[%c0] : !stn.point<Edge> -> !stn.point<Cell>
      %v = stn.load %t[%c, k - 1] : !stn.temp<Cell x K x f64>
      ...
    }
    ```
    After:
    ```mlir
    %ilo, %ihi = stn.image %lo, %hi through @E2C
    %klo = arith.addi %k0, %cm1 : i32
    %khi = arith.addi %k1, %cm1 : i32
    %t = stn.apply on Cell[%ilo : %ihi] K[%klo : %khi] -> !stn.temp<Cell x K x f64> { ... }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def LowerToKernels : Pass<"stn-lower-to-kernels", "::mlir::ModuleOp"> {
  let summary = "Turns every application into one kernel (stn.kernel)";
  let description = [{
    Each `stn.apply` becomes one `stn.kernel` over its domain. Results stored
    into fields are written in the kernel (under a level/index predicate when
    the store covers less than the application's domain). Temporaries still
    read by other applications are materialised into program-local buffers
    (`stn.alloc`). When an application reads a field it also writes anywhere
    but at the point and level being written, its results go through a buffer
    and a second kernel copies them, so no thread reads what another one has
    already overwritten.

    Before:
    ```mlir
    %t = stn.apply on Edge[%lo : %hi] K[%k0 : %k1] -> !stn.temp<Edge x K x f64> {
    ^bb0(%e: !stn.point<Edge>):
      ...
      stn.yield %v : f64
    }
    stn.store %t to %vn on Edge[%lo : %hi] K[%k0 : %k1] : ...
    ```
    After:
    ```mlir
    stn.kernel "name" on Edge[%lo : %hi] K[%k0 : %k1] {
    ^bb0(%e: !stn.point<Edge>):
      ...
      stn.write %v to %vn at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def MapFusion : Pass<"stn-map-fusion", "::mlir::ModuleOp"> {
  let summary = "Fuses producers into consumers and siblings into one application";
  let description = [{
    Producer-consumer fusion: a temporary read by later applications is
    computed inside them instead of going through memory. A read at the
    centre (any constant level offset) clones the producer's region at the
    consumer's point and shifted level; a read through a neighbour table
    recomputes the producer at each neighbour (a missing neighbour reads 0, as
    before). The cost model recomputes when `reads x work(producer)` is at
    most `work(producer)` (when the producer disappears) plus
    `bytes-weight x` the bytes a materialised temporary moves (one write, one
    read). Nothing is fused across a halo exchange or across an operation
    that writes a field the producer reads: only independent operations are
    skipped over.

    Sibling fusion: applications on the same location over the same domain
    become one application (their inputs are loaded once, one launch), when
    the later one reads no result of the earlier and nothing in between
    writes what it reads.

    Before:
    ```mlir
    %t = stn.apply on Cell[%lo : %hi] K[%a : %b] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %w = stn.load %w_old[%p, k] : !stn.field<Cell x K x f64>
      %x = arith.mulf %w, %w : f64
      stn.yield %x : f64
    }
    %u = stn.apply on Cell[%lo : %hi] K[%a : %b] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %t[%p, k] : !stn.temp<Cell x K x f64>
      stn.yield %v : f64
    }
    ```
    After:
    ```mlir
    %u = stn.apply on Cell[%lo : %hi] K[%a : %b] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %w = stn.load %w_old[%p, k] : !stn.field<Cell x K x f64>
      %x = arith.mulf %w, %w : f64
      stn.yield %x : f64
    }
    ```
  }];
  let options = [
    Option<"recompute", "recompute", "bool", /*default=*/"true",
           "Recompute temporaries read through neighbour tables when the cost model allows">,
    Option<"bytesWeight", "bytes-weight", "int64_t", /*default=*/"8",
           "Work units one byte of DRAM traffic is worth in the cost model">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

#endif // FUSEC_PASSES_TD
