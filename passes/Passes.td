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

#endif // FUSEC_PASSES_TD
