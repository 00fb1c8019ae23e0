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
    the store covers less than the application's domain) unless something
    between the application and the store touches the field; another store
    of the same values, or one over a box this store's box ends where it
    begins (`stn-split-where`'s boxes), does not count. Temporaries still
    read by other applications are materialised into program-local buffers
    (`stn.alloc`). When an application reads a field it also writes anywhere
    but at the point and level being written, its results go through a buffer
    and a second kernel copies them, so no thread reads what another one has
    already overwritten.

    A kernel takes the application's `kblock`. Without one, on the C++
    target (`stn.target = "cpp"`), a kernel that reads at data-dependent
    levels gets `kblock = 1024`: each work item walks all levels of its
    points, so that the levels those reads scatter over stay in cache.

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

def SplitApplies : Pass<"stn-split-applies", "::mlir::ModuleOp"> {
  let summary = "Splits an application into one per group of results that share no reads";
  let description = [{
    An application whose results are computed from separate reads (a stencil
    returning several independent fields, or a `where` per output) becomes one
    application per group of results that share a read of memory or a fold:
    each part then fuses with its own producers, and map fusion decides per
    target whether the parts become one kernel again (sibling fusion). Cheap
    operations without reads (level and index tests, constants, arithmetic)
    are copied into every part that uses them; results that share a read stay
    together, so no read is repeated.

    Before:
    ```mlir
    %r:2 = stn.apply on Cell[%lo : %hi] K[%a : %b]
        -> !stn.temp<Cell x K x f64>, !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %k = stn.level
      %top = arith.cmpi eq, %k, %c0 : i32
      %x = stn.load %u[%p, k] : !stn.field<Cell x K x f64>
      %xs = arith.select %top, %x, %zero : f64
      %y = stn.load %v[%p, k] : !stn.field<Cell x K x f64>
      %ys = arith.select %top, %y, %zero : f64
      stn.yield %xs, %ys : f64, f64
    }
    ```
    After:
    ```mlir
    %r0 = stn.apply on Cell[%lo : %hi] K[%a : %b] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %k = stn.level
      %top = arith.cmpi eq, %k, %c0 : i32
      %x = stn.load %u[%p, k] : !stn.field<Cell x K x f64>
      %xs = arith.select %top, %x, %zero : f64
      stn.yield %xs : f64
    }
    %r1 = stn.apply on Cell[%lo : %hi] K[%a : %b] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %k = stn.level
      %top = arith.cmpi eq, %k, %c0 : i32
      %y = stn.load %v[%p, k] : !stn.field<Cell x K x f64>
      %ys = arith.select %top, %y, %zero : f64
      stn.yield %ys : f64
    }
    ```
  }];
}

def MapFusion : Pass<"stn-map-fusion", "::mlir::ModuleOp"> {
  let summary = "Fuses producers into consumers and siblings into one application";
  let description = [{
    Producer-consumer fusion: a temporary read by later applications is
    computed inside them instead of going through memory. A read at the
    centre (any constant level offset) clones the producer's region at the
    consumer's point and shifted level; a read through a neighbour table
    recomputes the producer at each neighbour (a missing neighbour reads 0, as
    before). The cost model counts work units (one per arithmetic operation
    and fold step, `load` per read at the point computed, `gather-weight` per
    read through a neighbour table, `bytes-weight` per byte of DRAM traffic)
    and recomputes when the producer's work at every read (its own reads
    become gathers where it runs at a neighbour) is at most what keeping the
    temporary costs: one evaluation (when the producer would disappear), the
    bytes it moves (one write, one read) and the consumers' reads of it. A
    single read at the centre is always fused. Reads at the same point and
    level where one dominates the other count once: CSE keeps one
    recomputation. For the `cpp` target, reads at the consumer's own point
    one level apart count once too: the consumer then gets `kblock = 1024`
    (its work items walk all levels of their points) and `stn-carry-levels`
    carries the lower value from the level before. The weights are the module's target's (`stn.target`,
    "cuda" when absent; calibrated by scripts/calibrate_cost_model.py), for
    `cpp` also its layout's (`stn.layout`), unless given as options. Nothing is fused across a halo exchange or across an operation
    that writes a field the producer reads: only independent operations are
    skipped over.

    Sibling fusion: applications on the same location over the same domain
    become one application (their inputs are loaded once, one launch), when
    the later one reads no result of the earlier and nothing in between
    writes what it reads. So do two whose domains nest (provably: the outer
    bounds are min and max over the inner ones, as domain inference builds
    them for an image) when both gather a field through the same table: the
    merged application runs over the outer domain and the inner part under a
    test of its range, so no point is added and the shared field is read
    once (w's Laplacian, over the cells its update reads, with the gradients
    on their own cells). Results of both vertical kinds share an application
    only when each part with full-level results runs over the other's levels. On the `cpp` target two siblings that both read
    through neighbour tables stay apart unless they gather a field in common:
    scalar CPU code keeps an address stream per gathered field and neighbour,
    and the merged kernel spills where its parts did not (docs/bench.md).

    On a target with a limit on address streams (`cpp`: 20, 24 in the
    columns layout; option `address-streams`), a producer read at the centre
    and siblings stay apart when one kernel of both would advance more
    streams (a pointer per field, level offset and neighbour slot, per
    neighbour-table slot, and per result) than the limit and than either
    alone: scalar CPU code keeps them in the general registers and spills
    past them. In the columns layout an application that reads at
    data-dependent levels and one that does not also stay apart: the level
    loop is the vector loop there, and such reads make it gather each level.

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
    Option<"bytesWeight", "bytes-weight", "int64_t", /*default=*/"-1",
           "Work units one byte of DRAM traffic is worth (default: the target's)">,
    Option<"gatherWeight", "gather-weight", "int64_t", /*default=*/"-1",
           "Work units one read through a neighbour table is worth (default: the target's)">,
    Option<"addressStreams", "address-streams", "int64_t", /*default=*/"-1",
           "Address streams one kernel may advance; fusion past it is refused (0: no limit; "
           "default: the target's)">,
    Option<"mixDataDependentLevels", "mix-data-dependent-levels", "int64_t", /*default=*/"-1",
           "Whether an application reading at data-dependent levels fuses with one that does "
           "not (1 or 0; default: the target's)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def MergeVertical : Pass<"stn-merge-vertical", "::mlir::ModuleOp"> {
  let summary = "Merges applications split only by their vertical ranges";
  let description = [{
    Applications on the same location and horizontal range whose vertical
    ranges differ (`[0, 1)`, `[1, nlev)`, the bottom two levels, the sponge
    layer) become one application over the union of the levels. Each part
    runs under its own level predicate, so nothing is computed outside the
    levels it had: one launch instead of several, and no thin blocks. The
    same legality rules as sibling fusion apply.

    Before:
    ```mlir
    %a = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> { ... }
    %b = stn.apply on Cell[%lo : %hi] K[%c1 : %n] -> !stn.temp<Cell x K x f64> { ... }
    ```
    After:
    ```mlir
    %m:2 = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<...>, !stn.temp<...> {
    ^bb0(%p: !stn.point<Cell>):
      ... part a ...
      %l = stn.level
      %in = ... %l in [%c1, %n) ...
      %bv = scf.if %in -> (f64) { ... part b ...; scf.yield %v : f64 }
            else { scf.yield %zero : f64 }
      stn.yield %av, %bv : f64, f64
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def RemoveRedundantArrays : Pass<"stn-remove-redundant-arrays", "::mlir::ModuleOp"> {
  let summary = "Removes copies, dead and overwritten stores, forwards buffers";
  let description = [{
    - A copy `buf = f` into a program-local buffer whose readers all run
      before anything writes `f` again: they read `f`, the copy goes.
    - A store into a program-local buffer that nothing reads goes.
    - A store overwritten by a later store over the same domain, with no read
      or exchange in between, goes.
    - A program-local buffer written once and read only at the centre by
      applications over exactly the stored domain: the readers use the stored
      temporary directly, so map fusion can keep it in registers.
    Unused applications and buffers are erased.

    Before:
    ```mlir
    %c = stn.apply on Cell[%lo : %hi] K[%a : %b] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.load %w[%p, k] : !stn.field<Cell x K x f64>
      stn.yield %v : f64
    }
    stn.store %c to %w_tmp on Cell[%lo : %hi] K[%a : %b] : ...
    ... stn.load %w_tmp[...] ...
    ```
    After:
    ```mlir
    ... stn.load %w[...] ...
    ```
  }];
}

def FuseAcrossLists : Pass<"stn-fuse-across-lists", "::mlir::ModuleOp"> {
  let summary = "Fuses a box producer and its consumer across a point-list update of the buffer between them";
  let description = [{
    ICON's theta diffusion computes `z_temp` over the cells (stencils 13 and
    14), corrects it at the steep points, a point list (15), and updates
    `theta_v` and `exner` from it over the cells (16). The buffer between 14
    and 16 exists only because of the correction at a few entries, and keeps
    the two box stencils in separate kernels.

    For a program-local buffer written by a store of A's result over D,
    updated by an application B on a point list (at each entry's centre, under
    an optional `scf.if`), and read at the centre by one application C over
    D whose results are each stored over D right after it, this pass

    - makes C read A's result (map fusion can then put A and C in one kernel),
    - before C, computes A, B and C at the list's entries that lie in D into
      side buffers (`<output>_at_<list>`; at entries outside D the outputs'
      current values, which C leaves as they are),
    - after C's stores, writes the side buffers into C's outputs at the entries,

    under B's condition, and removes the buffer. Every result is bit for bit
    the original's (the same operations on the same values). It pays when the
    list is short against D (ICON's lists of steep points hold a few thousand
    of millions of cell-levels); a list of every point computes A, B and C
    twice. The list's length is known at run time only, so the part from A
    to C's stores becomes two versions under `scf.if`: the fused one where B
    does not run or the list has at most one entry per `points-per-entry`
    points of D's horizontal range (per level of D, `stn.list_size`), the
    original otherwise. The default, 100, is where the two versions of ICON's
    theta program cross on R2B5 with 80 levels (`scripts/calibrate_list_fusion.py`,
    docs/bench.md). Decisions and refusals are remarks
    (`-Rpass=stn-fuse-across-lists`).

    The pass refuses where it would only trade one buffer for another: when A
    reads, through a neighbour table, a temporary that reads a field C writes
    (in place, as ICON's 16 writes theta_v that 13 reads), map fusion could no
    longer recompute that temporary next to C, so where the target's cost
    model would recompute it (on CUDA, ICON's 13 into 14) the buffer stays.

    Before:
    ```mlir
    %z = stn.alloc {name = "z_temp"} : <Cell x K x f64>
    %a = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> { ... }
    stn.store %a to %z on Cell[%lo : %hi] K[%c0 : %n] : ...
    scf.if %apply_zdiffusion_t {
      %b = stn.apply on Cell at %steep -> !stn.temp<Cell x K x f64> {
        ... stn.load %z[%p, k] ...
      }
      stn.store %b to %z on Cell at %steep : ...
    }
    %c = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
      ... stn.load %z[%p, k] ...
    }
    stn.store %c to %theta_v on Cell[%lo : %hi] K[%c0 : %n] : ...
    ```
    After (the fused version; the else side of the `scf.if` on the list's
    length is the part as it was):
    ```mlir
    %side = stn.alloc {name = "theta_v_at_steep"} : <Cell x K x f64>
    %a = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> { ... }
    scf.if %apply_zdiffusion_t {
      %e = stn.apply on Cell at %steep -> !stn.temp<Cell x K x f64> {
        %in = ... index and level in D ...
        %v = scf.if %in -> (f64) { ... A, B, C at the entry ... }
             else { %old = stn.load %theta_v[%p, k] ... }
        stn.yield %v : f64
      }
      stn.store %e to %side on Cell at %steep : ...
    }
    %c = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x K x f64> {
      ... stn.load %a[%p, k] ...
    }
    stn.store %c to %theta_v on Cell[%lo : %hi] K[%c0 : %n] : ...
    scf.if %apply_zdiffusion_t {
      %w = stn.apply on Cell at %steep -> ... { stn.load %side[%p, k] ... }
      stn.store %w to %theta_v on Cell at %steep : ...
    }
    ```
  }];
  let options = [
    Option<"pointsPerEntry", "points-per-entry", "int64_t", /*default=*/"100",
           "The fused version runs when the list has at most one entry per this many "
           "points of the consumer's domain (per level)">,
  ];
  let statistics = [
    Statistic<"numFused", "fused", "Producer and consumer pairs fused across a list update">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def KBlocking : Pass<"stn-k-blocking", "::mlir::ModuleOp"> {
  let summary = "Each thread computes a block of consecutive levels";
  let description = [{
    Sets `kblock` on applications (or kernels) with levels: each work item
    (a CUDA thread, an OpenMP iteration) computes `block` consecutive levels,
    so in loop form its level loop runs `block` times. Work that does not
    depend on the level then leaves the loop (`stn-hoist-loop-invariant`),
    and a value needed at `k-1` (a load, or a whole reduction or expression
    over `k-1` reads) that the work item computed at `k` one iteration
    earlier is carried (`stn-carry-levels`). `carry=false` sets
    `no_level_carry` and recomputes those values instead, to measure what
    carrying gains.
    Whether k-blocking pays differs per
    kernel, so it is not part of `fuse-all`: choose it per stencil (option
    `stencils`, a regular expression over application names) from
    measurements (`fusec-bench --autotune`).

    Before:
    ```mlir
    %t = stn.apply on Cell[%lo : %hi] K[%a : %b] -> ... { ... }
    ```
    After (`stn-k-blocking{block=4}`):
    ```mlir
    %t = stn.apply on Cell[%lo : %hi] K[%a : %b] -> ... { ... } attributes {kblock = 4 : i64}
    ```
  }];
  let options = [
    Option<"block", "block", "int64_t", /*default=*/"4", "Levels per thread">,
    Option<"stencils", "stencils", "std::string", /*default=*/"\"\"",
           "Only applications whose name matches this regular expression (all when empty)">,
    Option<"carry", "carry", "bool", /*default=*/"true",
           "Carry values from one level of a thread to the next (false recomputes them)">,
  ];
}

def ColumnOrder : Pass<"stn-column-order", "::mlir::ModuleOp"> {
  let summary = "CUDA: the blocks of a launch run column by column";
  let description = [{
    A CUDA launch numbers its blocks level tile by level tile (ICON's
    OpenACC order: every point of a level before the next level), and the GPU
    runs blocks in about that order, so each level reloads every point's 2-D
    data (coefficients, areas) and neighbour indices. When a level's worth of
    them does not fit in the L2 cache (the fused w kernel on r2b6 reads 120
    bytes of them per cell, 39 MB a level against the H100's 50 MB), they come
    from DRAM again at every level: Nsight Compute measured that kernel moving
    4.6 GB where its three unfused parts moved 2.8 GB (docs/bench.md).

    Column by column, all level tiles of one block of points consecutively,
    the blocks running together share those points' data; but a streaming
    kernel loses DRAM locality that way (`update_theta_and_exner`, one 2-D
    value per cell: 0.89x on r2b6), and where a level tile's data of all
    points fits in L2 anyway it gains nothing (the nabla2/Smagorinsky kernel
    on lam-r2b7:21.25: 0.89x). Whether it pays depends on the number of
    points, known when the kernel is launched (docs/bench.md, "The third GPU
    session").

    This pass sets `column_order = array<i64: S, V>` on applications (or
    kernels) with a horizontal range and levels that read 2-D data or walk a
    neighbour table: `S`, the bytes the levels of one point share (2-D values
    read at or around the point, table entries walked), and `V`, the bytes of
    3-D data it reads and writes per level, each per evaluation. The launcher
    numbers the blocks column by column when a level tile of all the launch's
    points, `points * (S + kblock * V)`, passes the device's L2
    (`fusec::column_order_pays`). Results do not change (a launch's work
    items are independent). It acts only when the module's target
    (`stn.target`) is CUDA; the C++ loop form already runs the levels of a
    block of points together.

    Before:
    ```mlir
    %t = stn.apply on Cell[%lo : %hi] K[%a : %b] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %c = stn.load %area[%p] : !stn.field<Cell x f64>
      ...
    }
    ```
    After:
    ```mlir
    %t = stn.apply on Cell[%lo : %hi] K[%a : %b] -> !stn.temp<Cell x K x f64> {
      ...
    } attributes {column_order = array<i64: 8, 16>}
    ```
  }];
}

def ConditionalWrites : Pass<"stn-conditional-writes", "::mlir::ModuleOp"> {
  let summary = "CUDA: a write that keeps a field's value where a condition fails is made under the condition";
  let description = [{
    `out = where(c, new, out)` on an `inout` field keeps the old value where
    `c` fails. In kernel form that is a load of the written field at the
    written point, a select and a write, so every point reads the old value
    and writes a value back, though ICON's loops (and `none`, which splits
    the `where`) write `new` where `c` holds and leave the rest alone. The
    fused w kernel read `dwdx` and `dwdy` so for `k > 0`: two 3-D fields more
    than its unfused parts, about the time it lost on the regional grid
    (docs/bench.md, "The second GPU session").

    For every write in a kernel (kernel form) whose value is a tree of
    `arith.select`s with the value in place among its leaves (a load of the
    written field at the written point and level), this pass writes each
    other leaf under its conditions (nested `scf.if`), drops the write where
    the value stays, and erases the loads and selects nothing else uses. The
    computations stay before the branch, where the loop form hoists what does
    not depend on the level (a load in a branch cannot leave it). It acts only when the
    module's target (`stn.target`) is CUDA, where a branch that is the same
    for a block costs nothing; the C++ form keeps the select, which its
    `omp simd` loops vectorise without branches.

    Before:
    ```mlir
    kernel "grad" on Cell[%lo : %hi] K[%a : %b] {
    ^bb0(%p: !stn.point<Cell>):
      %g = stn.reduce sum over @C2E2CO at %p : <Cell> -> f64 { ... }
      %old = stn.load %dwdx[%p, k] : !stn.field<Cell x K x f64>
      %v = arith.select %c, %g, %old : f64
      stn.write %v to %dwdx at %p : !stn.point<Cell> : f64, <Cell x K x f64>
    }
    ```
    After:
    ```mlir
    kernel "grad" on Cell[%lo : %hi] K[%a : %b] {
    ^bb0(%p: !stn.point<Cell>):
      %g = stn.reduce sum over @C2E2CO at %p : <Cell> -> f64 { ... }
      scf.if %c {
        stn.write %g to %dwdx at %p : !stn.point<Cell> : f64, <Cell x K x f64>
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def LowerToLoops : Pass<"stn-lower-to-loops", "::mlir::ModuleOp"> {
  let summary = "Turns every kernel into explicit loops over its work item (loop form)";
  let description = [{
    A kernel in kernel form runs its region once per point and level, and the
    order is left to the emitters. This pass writes the schedule into the IR:
    the region now runs once per *work item*, a box `[h_begin, h_end) x
    [k_begin, k_end)` of the domain (its arguments), and iterates the box with
    `scf.for` loops. Loads, writes and `stn.level` take the level loop's
    induction variable as an explicit operand, and `stn.point_at` makes the
    point from the point loop's. How the domain is cut into boxes stays with
    the kernel (`kblock` levels; the emitter's points per block); the loops
    inside are valid for any non-empty box.

    The loop order follows the target (`stn.target` of the module unless
    `target` is given):
    - `cuda`: points outside (a work item has one point: a thread), levels
      inside, so level-invariant work can leave the level loop and values can
      be carried from one level to the next in registers;
    - `cpp`: ICON's order, levels outside and the points of the block inside,
      marked `stn.simd` so the innermost loop runs over unit-stride points
      and vectorises;
    - `cpp` in the columns layout (`stn.layout = "columns"`: one point per
      block, so a point's levels are unit-stride): points outside, levels
      inside, the level loop marked `stn.simd`. A neighbour's levels are
      contiguous too, so its reads become vector loads instead of gathers,
      and the point's indices and 2-D data leave the level loop.

    A kernel on a point list (`on Cell at %list`) becomes one loop over a work
    item's entries (block arguments `e_begin`, `e_end`), each giving its point
    and level through `stn.list_point`; on `cpp` that loop is `stn.simd` too
    (the entries are distinct points, so iterations are independent; the
    loads become gathers). In the columns layout the loop goes from run to
    run of one point at consecutive levels (`scf.while` from the work item's
    first entry, each step the run's length, `stn.list_run`), a `stn.simd`
    loop over each run's levels: every entry is read once, to find where its
    run ends (a loop over all entries that tested each for a run's start
    read them twice; the correction on its list with every level steep takes
    0.97-0.99x the time, r2b5/80), and the loads of a run are
    unit-stride (ICON's list of steep points in the
    layout's order is runs of a cell's lowest levels; with every cell-level
    listed, the correction on the list 101 → 39 ms, r2b5/80, 1 thread). A
    run ends at its work item's last entry, so such a kernel gets work items
    of 1024 entries (`hblock`, unless a configuration chose one): with 128 a
    column of 80 levels was cut in two at most work items' ends (the
    correction on its list 36.5 → 28.1 ms).

    Before:
    ```mlir
    stn.kernel "scale" on Edge[%lo : %hi] K[%c0 : %n] {
    ^bb0(%p: !stn.point<Edge>):
      %v = stn.load %vn[%p, k - 1] : !stn.field<Edge x K x f64>
      stn.write %v to %out at %p : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    ```
    After (`target=cpp`):
    ```mlir
    stn.kernel "scale" on Edge[%lo : %hi] K[%c0 : %n] attributes {loop_form} {
    ^bb0(%hb: index, %he: index, %kb: index, %ke: index):
      scf.for %k = %kb to %ke step %c1 {
        scf.for %h = %hb to %he step %c1 {
          %p = stn.point_at %h : !stn.point<Edge>
          %v = stn.load %vn[%p, %k - 1] : !stn.field<Edge x K x f64>
          stn.write %v to %out at %p : !stn.point<Edge> level %k : f64, !stn.field<Edge x K x f64>
        } {stn.simd}
      }
    }
    ```
    After, in the columns layout:
    ```mlir
    ^bb0(%hb: index, %he: index, %kb: index, %ke: index):
      scf.for %h = %hb to %he step %c1 {
        %p = stn.point_at %h : !stn.point<Edge>
        scf.for %k = %kb to %ke step %c1 {
          %v = stn.load %vn[%p, %k - 1] : !stn.field<Edge x K x f64>
          stn.write %v to %out at %p : !stn.point<Edge> level %k : f64, !stn.field<Edge x K x f64>
        } {stn.simd}
      }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "cpp or cuda (default: the module's stn.target)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def UnrollReductions : Pass<"stn-unroll-reductions", "::mlir::ModuleOp"> {
  let summary = "Replaces each neighbour fold of a kernel in loop form by straight-line code";
  let description = [{
    A `stn.reduce` over a connectivity of N neighbours becomes N copies of its
    body, one per slot with the neighbour from `stn.neighbor`, folded in slot
    order from the identity by the arith op the fold is (`addf`, `mulf`,
    `minnumf`, `maxnumf`; `addi`, `muli`, `minsi`, `maxsi`): the same
    operations in the same order, so results are bit-identical. Where a
    neighbour may be missing (a `skip` connectivity, or a point that may be
    missing), the body still runs there (its loads give 0) and an
    `arith.select` on `stn.valid` keeps the fold unchanged: no branch, no
    inner loop. On CPUs an inner loop per fold keeps the compiler from
    vectorising the loop over points ("two or more consecutive inner loops");
    on GPUs the neighbour indices and coefficients of each slot can then leave
    the level loop on their own (`stn-hoist-loop-invariant`). A fold whose
    body may trap at a missing neighbour (integer division) stays a loop.

    Before:
    ```mlir
    %s = stn.reduce sum over @C2E at %p : !stn.point<Cell> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %v = stn.load %vn[%e, %k] : !stn.field<Edge x K x f64>
      stn.yield %v : f64
    }
    ```
    After:
    ```mlir
    %zero = arith.constant 0.0 : f64
    %e0 = stn.neighbor %p through @C2E [%c0] : !stn.point<Cell> -> !stn.point<Edge>
    %v0 = stn.load %vn[%e0, %k] : !stn.field<Edge x K x f64>
    %s0 = arith.addf %zero, %v0 : f64
    %e1 = stn.neighbor %p through @C2E [%c1] : !stn.point<Cell> -> !stn.point<Edge>
    ...
    %s = arith.addf %s1, %v2 : f64
    ```
  }];
  let statistics = [
    Statistic<"numUnrolled", "unrolled", "Neighbour folds replaced by straight-line code">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def HoistLoopInvariant : Pass<"stn-hoist-loop-invariant", "::mlir::ModuleOp"> {
  let summary = "Moves work that does not change inside a kernel's loop out of it";
  let description = [{
    Loop-invariant code motion on loop form: an operation of a kernel's
    `scf.for` body (or `scf.while` region: a list's loop over runs) that uses
    no value of the loop and writes nothing moves in front of the loop, reductions and branches as a whole. On GPUs this
    computes neighbour indices, 2-D coefficients and their arithmetic once per
    thread instead of once per level; on CPUs it takes vertical-only data out
    of the loop over points. Loads of a field the kernel writes stay, and so
    does what could fault (an integer division): the pipelines run the pass
    again after stn-unswitch-loops, stn-split-level-loops and the passes
    after them, whose copies hold what no longer changes in their loops (a
    coefficient read on one side of a test), and a loop split at a level
    may run no iteration.

    Before:
    ```mlir
    scf.for %k = %kb to %ke step %c1 {
      %n = stn.neighbor %p through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
      %a = stn.load %area[%n] : !stn.field<Cell x f64>
      %v = stn.load %vn[%p, %k] : !stn.field<Edge x K x f64>
      %r = arith.mulf %a, %v : f64
      stn.write %r to %out at %p : !stn.point<Edge> level %k : f64, !stn.field<Edge x K x f64>
    }
    ```
    After:
    ```mlir
    %n = stn.neighbor %p through @E2C [%c0] : !stn.point<Edge> -> !stn.point<Cell>
    %a = stn.load %area[%n] : !stn.field<Cell x f64>
    scf.for %k = %kb to %ke step %c1 {
      %v = stn.load %vn[%p, %k] : !stn.field<Edge x K x f64>
      ...
    }
    ```
  }];
  let statistics = [
    Statistic<"numHoisted", "hoisted", "Operations moved out of a loop">,
  ];
}

def CarryLevels : Pass<"stn-carry-levels", "::mlir::ModuleOp"> {
  let summary = "Carries values from one level of a work item to the next";
  let description = [{
    In a level loop whose body computes at level `k` what an operation
    computed at `k - 1` one iteration earlier (`vn[e, k - 1]` is `vn[e, k]`
    one level down, and so is a whole reduction or expression built from such
    reads), the value is carried instead of computed again: the first level
    of the work item is peeled off and computes everything; the loop over the
    other levels takes the value from an `iter_args` argument and yields the
    source for the next level. What only the carried operation needed is no
    longer computed. Kernels with `no_level_carry` or `kblock = 1` are left
    alone.

    In the C++ loop form the level loop holds the `stn.simd` loop over the
    work item's points, so a carried value is one per point: it goes through
    a scratch row (`stn.row`, one per carried value, as long as the work
    item's points), stored where the source is computed and loaded at the
    next level:
    ```mlir
    %row = stn.row : !stn.row<128 x f64>
    scf.for %h = %hb to %he step %c1 {   // the first level, everything
      ...
      %i = arith.subi %h, %hb : index
      stn.row_store %b0, %row[%i] : !stn.row<128 x f64>
    } {stn.simd}
    scf.for %k = %k1 to %ke step %c1 {
      scf.for %h = %hb to %he step %c1 {
        %i = arith.subi %h, %hb : index
        %a = stn.row_load %row[%i] : !stn.row<128 x f64>
        %b = stn.load %w[%p, %k] : !stn.field<Cell x K x f64>
        ...
        stn.row_store %b, %row[%i] : !stn.row<128 x f64>
      } {stn.simd}
    }
    ```

    Before:
    ```mlir
    scf.for %k = %kb to %ke step %c1 {
      %a = stn.load %w[%p, %k - 1] : !stn.field<Cell x K x f64>
      %b = stn.load %w[%p, %k] : !stn.field<Cell x K x f64>
      %d = arith.subf %b, %a : f64
      stn.write %d to %dw at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
    }
    ```
    After:
    ```mlir
    %a0 = stn.load %w[%p, %kb - 1] : !stn.field<Cell x K x f64>
    %b0 = stn.load %w[%p, %kb] : !stn.field<Cell x K x f64>
    %d0 = arith.subf %b0, %a0 : f64
    stn.write %d0 to %dw at %p : !stn.point<Cell> level %kb : f64, !stn.field<Cell x K x f64>
    %k1 = arith.addi %kb, %c1 : index
    %last = scf.for %k = %k1 to %ke step %c1 iter_args(%a = %b0) -> (f64) {
      %b = stn.load %w[%p, %k] : !stn.field<Cell x K x f64>
      %d = arith.subf %b, %a : f64
      stn.write %d to %dw at %p : !stn.point<Cell> level %k : f64, !stn.field<Cell x K x f64>
      scf.yield %b : f64
    }
    ```
  }];
  let statistics = [
    Statistic<"numCarried", "carried", "Values carried from one level to the next">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def UnswitchLoops : Pass<"stn-unswitch-loops", "::mlir::ModuleOp"> {
  let summary = "Splits a loop over points on a condition that is the same for all of them";
  let description = [{
    In loop form, a select or branch inside an `stn.simd` loop (the C++
    backend's loop over the points of a block) whose condition is defined
    outside the loop (a level test such as `k > 0`, a scalar argument, or
    arithmetic on those, which `stn-hoist-loop-invariant` took out) picks the
    same side for every point; so does one defined outside among the operands
    of a conjunction or disjunction that forms the condition (`inside &&
    k < nrdmax` fails for every point where the level test fails). GCC does
    not vectorise such a select when its
    sides are masked operations, and it computes both sides. This pass
    unswitches the loop: an `scf.if` on the condition runs one of two copies,
    each with the condition replaced by its constant and folded away (selects,
    branches and boolean arithmetic on it; what only the other side needed is
    dropped; a write of the value the element already holds, too). Each
    copy is unswitched again on its next condition, at most
    `max-conditions` deep (2^n copies). Loops that carry values are left alone,
    and so are tests whether a neighbour exists (`stn.valid`, uniform in a
    loop over the levels of one point): `stn-unswitch-missing-neighbors`
    versions those by table, not by neighbour.

    Before:
    ```mlir
    scf.for %k = %kb to %ke step %c1 {
      %above = arith.cmpi sgt, %level, %c0_i32 : i32
      scf.for %h = %hb to %he step %c1 {
        ...
        %r = arith.select %above, %grad, %old : f64
        stn.write %r to %dwdx at %p level %k : f64, !stn.field<Cell x K x f64>
      } {stn.simd}
    }
    ```
    After:
    ```mlir
    scf.for %k = %kb to %ke step %c1 {
      %above = arith.cmpi sgt, %level, %c0_i32 : i32
      scf.if %above {
        scf.for %h = %hb to %he step %c1 {
          ...
          stn.write %grad to %dwdx at %p level %k : f64, !stn.field<Cell x K x f64>
        } {stn.simd}
      } else {
        scf.for %h = %hb to %he step %c1 {
          ... (dwdx keeps its value: no write)
        } {stn.simd}
      }
    }
    ```
  }];
  let options = [
    Option<"maxConditions", "max-conditions", "int64_t", /*default=*/"2",
           "Conditions a loop is unswitched on at most (2^n copies)">,
  ];
  let statistics = [
    Statistic<"numUnswitched", "unswitched", "Loops split on a uniform condition">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def SplitLevelLoops : Pass<"stn-split-level-loops", "::mlir::ModuleOp"> {
  let summary = "Splits a loop over levels where a level test changes";
  let description = [{
    In the columns layout the `stn.simd` loop of a kernel runs over the levels
    of one point, so a level test (`k > 0`, `k < nrdmax`: a comparison of the
    loop's level with a bound defined outside the loop) is no longer uniform
    in it, and the loop computes both sides of the select at every level and
    reads what either needs: a fused kernel that updates `dwdx` from level 1
    on reads `dwdx` at every level to keep its value at level 0. This pass
    splits such a loop in two at the first level where the test changes
    (the bound clamped to the loop's range), ICON's separate level loops: in
    each part the test is a constant, folded away with what only the other
    side needed (a write of the value the element already holds, too); a
    part left empty goes. The split is kept only when some part reads less
    than the loop did: a test that only picks which stores run buys nothing
    for the loops it costs (measured: `none`'s damping-layer kernel of w,
    split into four loops, ran slower), and the next test is tried instead.
    Each part is split again on its next test, at most `max-tests` deep. Values
    the loop carries between levels flow from the first part into the
    second. Tests of equality and loops with a step other than one are left
    alone; in the flat and blocked layouts levels are the outer loop, where
    `stn-unswitch-loops` decides the same tests.

    Before:
    ```mlir
    scf.for %k = %kb to %ke step %c1 {
      %level = stn.level(%k)
      %above = arith.cmpi sgt, %level, %c0_i32 : i32
      %old = stn.load %dwdx[%p, %k] : !stn.field<Cell x KHalf x f64>
      %r = arith.select %above, %grad, %old : f64
      stn.write %r to %dwdx at %p : !stn.point<Cell> level %k : f64, <Cell x KHalf x f64>
    } {stn.simd}
    ```
    After:
    ```mlir
    %b = arith.index_cast %c0_i32 : i32 to index
    %s = arith.addi %b, %c1 : index
    %at = arith.maxsi (arith.minsi %s, %ke), %kb : index
    scf.for %k = %kb to %at step %c1 {
      (dwdx keeps its value: no write)
    } {stn.simd}
    scf.for %k = %at to %ke step %c1 {
      stn.write %grad to %dwdx at %p : !stn.point<Cell> level %k : f64, <Cell x KHalf x f64>
    } {stn.simd}
    ```
  }];
  let options = [
    Option<"maxTests", "max-tests", "int64_t", /*default=*/"2",
           "Level tests a loop is split on at most (at most 2^n parts)">,
  ];
  let statistics = [
    Statistic<"numSplit", "split", "Loops over levels split on a level test">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def UnswitchMissingNeighbors : Pass<"stn-unswitch-missing-neighbors", "::mlir::ModuleOp"> {
  let summary = "Gives a C++ loop over points a copy without missing-neighbour guards";
  let description = [{
    A table marked `skip` may hold `-1`, so every load at a neighbour through
    it is guarded (`n >= 0 ? f[...] : 0.0`): a compare and a branch per
    gather, and GCC vectorises no loop with such a branch. ICON has no guards:
    its loops start past the boundary rows, where every neighbour exists
    (limited-area grids), and only a few rows (pentagons, boundary rows) have
    missing entries. This pass gives each `stn.simd` loop (the C++ backend's
    loop over the points of a block) that reads through a `skip` table at
    its own point a copy in which those `stn.neighbor` ops are `present`
    (their loads print without a guard, and a select on whether one exists
    takes its first value: the copy has no validity test left), run under an
    `scf.if` on `stn.table_complete` of the rows the loop visits, one test per
    table (in name order); the original loop runs where a row has a missing
    entry. A neighbour of a neighbour keeps its guard (its rows are not the
    loop's). Nothing changes on CUDA (no `stn.simd` loops).

    In the columns layout's loop form the simd loop runs over a point's levels
    inside a loop over points, and the point's lookups sit before it (hoisted):
    there the body of the loop over points gets the copy, under a test of the
    point's own row (`stn.table_complete @T[%h, %h + 1]`). A list kernel's
    loop there visits a run of entries (one point, consecutive levels) per
    iteration: its work after `stn.list_point` (lookups and the simd loop)
    gets the copy under a test of the entry's row. Where GCC's tuning avoids
    gather instructions (Sapphire Rapids) it emulates gathers, but not masked
    ones: a guarded read at data-dependent levels (the steep-point
    correction) keeps the loop scalar, the copy vectorises.

    Before:
    ```mlir
    scf.for %h = %hb to %he step %c1 {
      %p = stn.point_at %h : <Edge>
      %v = stn.neighbor %p through @E2C2V [%c0] : !stn.point<Edge> -> !stn.point<Vertex>
      %u = stn.load %u_vert[%v, %k] : !stn.field<Vertex x K x f64>
      ...
    } {stn.simd}
    ```
    After:
    ```mlir
    %complete = stn.table_complete @E2C2V[%hb, %he]
    scf.if %complete {
      scf.for %h = %hb to %he step %c1 {
        %p = stn.point_at %h : <Edge>
        %v = stn.neighbor %p through @E2C2V [%c0] {present} : !stn.point<Edge> -> !stn.point<Vertex>
        %u = stn.load %u_vert[%v, %k] : !stn.field<Vertex x K x f64>
        ...
      } {stn.simd}
    } else {
      scf.for %h = %hb to %he step %c1 { (as before) } {stn.simd}
    }
    ```
  }];
  let statistics = [
    Statistic<"numUnswitched", "unswitched", "Loops over points given a copy without guards">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def NestSelects : Pass<"stn-nest-selects", "::mlir::ModuleOp"> {
  let summary = "C++: a select on a combined test in a loop over points becomes selects on one test each";
  let description = [{
    GCC 12 vectorises a loop over points (`stn.simd`) with a select on one
    comparison, but not one whose condition is the conjunction or
    disjunction of two ("control flow in loop": it turns the combined test
    into branches before if-conversion), though both tests are computed
    anyway. The fused w kernel of the diffusion (`interior_idx <= h && h <
    halo_idx` chooses between the update and the old value) ran 30 ms where
    its unfused parts, whose tests became index ranges, ran 24 ms
    vectorised (r2b5, 80 levels, one thread; docs/bench.md). This pass
    rewrites, in `stn.simd` loops, `select(a && b, x, y)` into
    `select(a, select(b, x, y), y)` and `select(a || b, x, y)` into
    `select(a, x, select(b, x, y))`, recursively; the result is the same
    for every input (the operands have no side effects). The combined tests
    left without a use go. It runs in the C++ loop lowering, after the
    unswitching passes (which decide the uniform parts of such tests).

    Before:
    ```mlir
    %inside = arith.andi %above_lo, %below_hi : i1
    %r = arith.select %inside, %new, %old : f64
    ```
    After:
    ```mlir
    %0 = arith.select %below_hi, %new, %old : f64
    %r = arith.select %above_lo, %0, %old : f64
    ```
  }];
  let statistics = [
    Statistic<"numNested", "nested", "Selects on a combined test taken apart">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def UnswitchColumnTests : Pass<"stn-unswitch-column-tests", "::mlir::ModuleOp"> {
  let summary = "C++ columns layout: a loop over a point's levels gets a copy without the gathers of a test no level passes";
  let description = [{
    In the columns layout a point's levels are one `stn.simd` loop, and a
    select on a test of the point's data (ICON's `where (zd_diffcoef /= 0)`
    in the steep-point correction) is a branch-free blend: every level
    computes both sides. When the side the test picks reads at levels the
    data chooses (`theta_v[C2E2C, K + zd_vertoffset]`), each of those
    reads is a gather, and the gathers are what the loop costs: 27 of the
    correction's 40 ms on r2b5 with 80 levels, though with ICON's metrics
    the test fails at all but 1,495 of 6.5 million cell-levels
    (docs/bench.md).

    For each such loop this pass takes the first select (in body order)
    whose condition the loop computes from loads at the loop's levels that
    read fields the loop does not write (so a scan sees what the loop
    sees), and for which the loop with the condition false (folded as
    `stn-unswitch-loops` folds its copies, writes of unchanged values
    included) reads fewer values at data-dependent levels. Before the loop
    a scan over the same levels recomputes the condition and ORs it into
    an `i32` (which GCC vectorises, unlike a `bool`); an `scf.if` on the
    result runs the loop as it was where some level passes the test and the
    copy otherwise. The test is decided per point and work item, from the
    point's own data: nothing about the data is assumed, and where every
    level passes the scan is the only cost (its loads are the loop's, which
    then find them in cache). Loops that carry values between levels are
    left alone, and so are the runs of a point list's entries: a list holds
    the points its caller chose to compute (ICON's list of steep points is
    where the test passes), so a scan there would only add work.

    Before:
    ```mlir
    scf.for %k = %kb to %ke step %c1 {
      %d = stn.load %zd_diffcoef[%p, %k] : !stn.field<Cell x K x f64>
      %steep = arith.cmpf une, %d, %zero : f64
      %off = stn.load %zd_vertoffset[%p, nbr %c0, %k] : !stn.field<Cell x C2E2C[3] x K x i32>
      %o = arith.select %steep, %off, %c0_i32 : i32
      %t = stn.load %theta_v[%n, %k + %o] : !stn.field<Cell x K x f64>
      %old = stn.load %z_temp[%p, %k] : !stn.field<Cell x K x f64>
      %new = arith.addf %old, %t : f64
      %r = arith.select %steep, %new, %old : f64
      stn.write %r to %z_temp at %p level %k : f64, <Cell x K x f64>
    } {stn.simd}
    ```
    After:
    ```mlir
    %any = scf.for %k = %kb to %ke step %c1 iter_args(%acc = %c0_i32) -> (i32) {
      %d = stn.load %zd_diffcoef[%p, %k] : !stn.field<Cell x K x f64>
      %steep = arith.cmpf une, %d, %zero : f64
      %s = arith.extui %steep : i1 to i32
      %next = arith.ori %acc, %s : i32
      scf.yield %next : i32
    }
    %taken = arith.cmpi ne, %any, %c0_i32 : i32
    scf.if %taken {
      scf.for %k = %kb to %ke step %c1 { ... as before ... } {stn.simd}
    }
    ```
    (The copy without the correction writes `z_temp` back unchanged, so
    nothing is left of it.)
  }];
  let statistics = [
    Statistic<"numUnswitched", "unswitched", "Level loops given a copy for columns that fail a test">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def BlendSelects : Pass<"stn-blend-selects", "::mlir::ModuleOp"> {
  let summary = "C++: a select on a test of per-point data in a loop over points becomes a branch-free blend";
  let description = [{
    GCC 12 turns every C `?:` into a branch and if-converts it back when it
    vectorises the loop; with the default `-ftrapping-math` it does not
    where the branch holds floating-point arithmetic, and its sinking pass
    moves there the arithmetic only one side uses. A select on a test of a
    field's value (ICON's `where (zd_diffcoef /= 0)` in the steep-point
    correction, whose sides also choose the levels its gathers read) thus
    keeps the whole loop over points scalar ("control flow in loop"). This
    pass marks, in `stn.simd` loops, each select whose condition depends on
    loaded data (a `stn.load` or `stn.row_load` in the loop) with
    `stn.blend`; the C++ emitter prints it as `fusec::blend(c, a, b)`, a
    bitwise blend of the two values (`runtime/include/fusec/arith.h`), which
    GCC cannot turn into a branch. Both sides are computed either way (a
    select's operands are), and the blend returns the chosen one bit for
    bit. Selects on index tests, neighbour-table tests or values the loop
    does not compute stay `?:`: GCC vectorises those already, and the fused
    w kernel's loops stop vectorising when they are blends (docs/bench.md).

    Before:
    ```mlir
    scf.for %h = %hb to %he step %c1 {
      %c = stn.load %coef[%p, %k] : !stn.field<Cell x K x f64>
      %steep = arith.cmpf one, %c, %zero : f64
      %r = arith.select %steep, %new, %old : f64
      ...
    } {stn.simd}
    ```
    After:
    ```mlir
      %r = arith.select %steep, %new, %old {stn.blend} : f64
    ```
  }];
  let statistics = [
    Statistic<"numBlended", "blended", "Selects printed as branch-free blends">,
  ];
}

def SplitGatherLoops : Pass<"stn-split-gather-loops", "::mlir::ModuleOp"> {
  let summary = "Moves a C++ kernel's reads through neighbour tables into a scalar loop before its vectorised loop";
  let description = [{
    GCC vectorises the C++ backend's loop over the points of a block
    (`stn.simd`) only without its gathers (reads through neighbour tables,
    which the AVX2 machines this was measured on run faster as scalar loads),
    so a kernel with gathers runs scalar. In the C++ loop form (the CUDA form
    has no `stn.simd` loops), for each kernel with the `split_gathers` attribute (set per stencil by a
    configuration, `split_gathers: true`, where it measured faster), this pass
    moves every gather of its point loops, with the neighbour indices and
    loads it needs, into a scalar loop over the same points just before, which
    stores each gathered value into a row (`stn.row`, one element per point
    of the work item); the point loop reads the rows instead and keeps the
    arithmetic, which then vectorises. A gather inside a branch, or that
    needs a row, stays (a kernel loads a field before it writes it, so the
    loads can run ahead). Point-list kernels are
    left alone. On an AVX2 machine this made the nabla2/Smagorinsky kernel
    10-33% faster and nabla4 and the RBF interpolation 12-40% slower
    (docs/bench.md), hence a per-kernel choice.

    Before:
    ```mlir
    scf.for %k = %kb to %ke step %c1 {
      scf.for %h = %hb to %he step %c1 {
        %p = stn.point_at %h : <Cell>
        %n = stn.neighbor %p through @C2E[%c0] : <Cell> -> <Edge>
        %v = stn.load %f[%n, %k] : !stn.field<Edge x K x f64>
        %c = stn.load %geofac[%p, nbr %c0] : !stn.field<Cell x C2E[3] x f64>
        %r = arith.mulf %v, %c : f64
        stn.write %r to %out at %p level %k : f64, <Cell x K x f64>
      } {stn.simd}
    }
    ```
    After:
    ```mlir
    %row = stn.row : !stn.row<128 x f64>
    scf.for %k = %kb to %ke step %c1 {
      scf.for %h = %hb to %he step %c1 {
        %i = arith.subi %h, %hb : index
        %p = stn.point_at %h : <Cell>
        %n = stn.neighbor %p through @C2E[%c0] : <Cell> -> <Edge>
        %v = stn.load %f[%n, %k] : !stn.field<Edge x K x f64>
        stn.row_store %v, %row[%i] : !stn.row<128 x f64>
      }
      scf.for %h = %hb to %he step %c1 {
        %i = arith.subi %h, %hb : index
        %p = stn.point_at %h : <Cell>
        %v = stn.row_load %row[%i] : !stn.row<128 x f64>
        %c = stn.load %geofac[%p, nbr %c0] : !stn.field<Cell x C2E[3] x f64>
        %r = arith.mulf %v, %c : f64
        stn.write %r to %out at %p level %k : f64, <Cell x K x f64>
      } {stn.simd}
    }
    ```
  }];
  let statistics = [
    Statistic<"numSplit", "split", "Point loops whose gathers moved to a scalar loop">,
    Statistic<"numGathers", "gathers", "Reads through neighbour tables moved">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def PrefetchColumns : Pass<"stn-prefetch-columns", "::mlir::ModuleOp"> {
  let summary = "Asks for the columns the points just ahead read at their neighbours while a C++ kernel computes this one";
  let description = [{
    In the columns layout a kernel that reads a field at neighbours (a cell's
    three edges, say) starts, for every point, a few short streams at
    addresses no hardware prefetcher predicts, and waits for memory at each:
    the fused turbulence diagnostics ran at 18.7 GB/s at one thread where a
    kernel reading its own columns runs at 39 (docs/bench.md). In each C++
    kernel in loop form, this pass puts at the top of each point loop a
    `stn.prefetch` of every column the loop reads at a neighbour of its point
    (a constant slot, a dense field with levels, constant level offsets), at
    the same neighbour of the point `distance` points on in the kernel's
    domain (clamped to its last point), over the work item's levels widened
    by the offsets read: the lines arrive while the points before it compute.
    A point of a few levels computes in a few nanoseconds, so where a work
    item has fewer than `lead-levels` / `distance` levels the columns are
    asked for `lead-levels` / levels points ahead (on r2b5, 80 levels, one
    thread: four points ahead measured best for kernels over all levels, 32
    for the cold pools' two levels; docs/bench.md, "Prefetching by rule").
    The neighbour of that point is not claimed present (`stn.table_complete`
    covered this work item's rows only), so a table with missing entries
    guards the prefetch.

    A column read at data-dependent levels (`k + %off`: theta at the levels
    the steep-point correction interpolates from) is prefetched whole, levels
    0 to nlev (nlev + 1 for half levels), at the same neighbour of the point
    ahead, just before the loop over levels that reads it, inside whatever
    branches run that loop: after `stn-unswitch-column-tests` only points with
    a steep level fetch, and where one is steep the points just ahead mostly
    are too (the correction over all cells with every level steep 29.3 ->
    22.7 ms, with ICON's metrics 6.1 -> 5.5). A kernel on a point list (its
    loop over runs of `stn.list_run`, a level loop per run) prefetches
    once per run, just after the run's `stn.list_point`: at the entry
    `distance` runs on, this run's length taken as the next ones' (or
    `lead-levels` entries where that is more), clamped to the list's last
    entry (`stn.list_size`), over that entry's level plus this run's length;
    whole columns as above (the correction on its list with every level
    steep 54.2 -> 38.2 ms; docs/bench.md, "Whole columns for data-dependent
    levels, and point lists").

    Columns read through a connectivity whose neighbours are each read by
    more than `max-readers` points are left out: an edge reads four vertices
    through E2C2V and each vertex is read by twelve edges, so the edges just
    before have brought its column into the cache and the prefetches only
    cost instructions (the fused vn kernel 14.9 -> 19.2 ms with them; a
    cell's three edges through C2E, each read by two cells, gain: the fused
    turbulence diagnostics 17.4 -> 12.6 ms; docs/bench.md, "Prefetching by
    rule"). How many points read a neighbour is counted on a grid of
    triangles: entries per point times the source's points per target
    point (cells : edges : vertices = 2 : 3 : 1).

    Columns of a temporary folded in the kernel's `stn.wavefront` are asked
    for only where a work item of the kernel has fewer levels than the
    wavefront's `min_levels` (an `scf.if` on a test made before the point
    loop): with that many levels or more the group runs as a plan, and the
    stage that writes the temporary ran on the same tile just before, so its
    columns are in the cache; with fewer it may run as written, and they come
    from memory (the cold pools' two levels). docs/bench.md, "Folded
    temporaries prefetched only where the group may run as written".

    Where a work item has fewer than `own-levels` levels, a point reads one
    line of each of its own columns, a column (nlev levels) after the last
    point's: a stride no hardware prefetcher follows far enough ahead. The
    loop then asks for the own columns of the point ahead too, under an
    `scf.if` on a test made before the loop (the cold pools' kh_smag_e at two
    levels of 80: the program 9.1 -> 7.0 ms at one thread on r2b5;
    docs/bench.md, "Own columns of short work items"). A field the loop also
    prefetches at neighbours of its own location is left to those: the
    points around the one ahead hold its own column mostly.

    A kernel's `prefetch` attribute, set per stencil by a configuration,
    overrides the rule: `false` prefetches nothing, `true` every column.

    Before:
    ```mlir
    scf.for %h = %hb to %he step %c1 {
      %p = stn.point_at %h : !stn.point<Cell>
      %n = stn.neighbor %p through @C2E [%c0] : !stn.point<Cell> -> !stn.point<Edge>
      scf.for %k = %kb to %ke step %c1 {
        %v = stn.load %vn[%n, %k - 1] : !stn.field<Edge x K x f64>
        ...
      } {stn.simd}
    }
    ```
    After:
    ```mlir
    %end = arith.index_cast %hub : i32 to index
    %last = arith.subi %end, %c1 : index
    %diff = arith.subi %ke, %kb : index
    %levels = arith.maxsi %diff, %c1 : index
    %lead = arith.divsi %c64, %levels : index
    %ahead = arith.maxsi %c4, %lead : index
    scf.for %h = %hb to %he step %c1 {
      %after = arith.addi %h, %ahead : index
      %next = arith.minsi %after, %last : index
      %q = stn.point_at %next : !stn.point<Cell>
      %m = stn.neighbor %q through @C2E [%c0] : !stn.point<Cell> -> !stn.point<Edge>
      %from = arith.addi %kb, %c-1 : index
      stn.prefetch %vn[%m, %from to %ke] : !stn.point<Edge>, !stn.field<Edge x K x f64>
      %p = stn.point_at %h : !stn.point<Cell>
      ...
    }
    ```
  }];
  let options = [
    Option<"distance", "distance", "int64_t", /*default=*/"4",
           "How many points ahead the columns are asked for">,
    Option<"leadLevels", "lead-levels", "int64_t", /*default=*/"64",
           "Where a work item has few levels, ask this many levels' worth of points ahead "
           "(lead-levels / levels points, if more than distance; 0: distance only)">,
    Option<"maxReaders", "max-readers", "int64_t", /*default=*/"4",
           "Prefetch a column only if at most this many points read each "
           "neighbour through its connectivity (unless the kernel's `prefetch` is true)">,
    Option<"ownLevels", "own-levels", "int64_t", /*default=*/"16",
           "Prefetch the point's own columns too where a work item has fewer levels than "
           "this (0: never)">,
  ];
  let statistics = [
    Statistic<"numLoops", "loops", "Point loops given prefetches">,
    Statistic<"numColumns", "columns", "Neighbour columns prefetched">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def StreamStores : Pass<"stn-stream-stores", "::mlir::ModuleOp"> {
  let summary = "Writes the columns a C++ kernel only outputs with non-temporal stores";
  let description = [{
    An ordinary store to a line that is not in the cache reads the line from
    memory first (a read for ownership), so a kernel that writes a field moves
    its bytes twice. On the Sapphire Rapids host of docs/bench.md, one thread
    writes 128 MiB in 14-16 ms with ordinary stores and in 5.7 ms with
    non-temporal ones, which go to memory without that read; a copy takes 23.6
    against 14 ms. Whether the write then misses the cache matters only if the
    field is read soon.

    In modules for the `cpp` target in the columns layout, this pass marks
    `nontemporal` each `stn.write` that is the one write of its field in the
    body of a SIMD loop over levels (step 1) at a point fixed in that loop, of
    a field of `f64` or `f32`, that the kernel does not read or prefetch;
    inside an `stn.wavefront` no kernel of the group may read it either (a
    folded temporary, or a field a later stage gathers while it is in the
    cache). The C++ backend stages the loop's values of such a write in the
    L1 and, after the loop, writes the column's whole cache lines with
    non-temporal stores and the partial lines at its ends with ordinary ones
    (`fusec::ColumnStage`). A field read by the next kernel then comes from
    memory, where it would have come from the L3: on r2b5 each field is far
    larger than a core's share of it. `diffusion_step` on r2b5 with 80 levels,
    1 thread, random inputs: `none` 313 -> 247 ms, fuse-all 195 -> 184 ms
    (docs/bench.md, "Non-temporal stores").

    Before:
    ```mlir
    scf.for %k = %kb to %ke step %c1 {
      %v = stn.load %vn[%p, %k] : !stn.field<Edge x K x f64>
      %r = arith.mulf %v, %v : f64
      stn.write %r to %out at %p : !stn.point<Edge> level %k : f64, !stn.field<Edge x K x f64>
    } {stn.simd}
    ```
    After:
    ```mlir
    scf.for %k = %kb to %ke step %c1 {
      %v = stn.load %vn[%p, %k] : !stn.field<Edge x K x f64>
      %r = arith.mulf %v, %v : f64
      stn.write %r to %out at %p : !stn.point<Edge> level %k {nontemporal} : f64, !stn.field<Edge x K x f64>
    } {stn.simd}
    ```
  }];
  let statistics = [
    Statistic<"numStreamed", "streamed", "Column writes marked non-temporal">,
  ];
}

def ElideBarriers : Pass<"stn-elide-barriers", "::mlir::ModuleOp"> {
  let summary = "Lets a C++ kernel's threads go on to the next kernel when it does not depend on it";
  let description = [{
    A C++ program run is one OpenMP parallel region; each kernel shares its
    work items among the threads (`omp for`), and a barrier after it makes
    every thread wait until all have finished. The next launch needs that only
    if it depends on the kernel. In modules for the `cpp` target, this pass
    sets `nowait` on a kernel when the operation after it (past operations
    without memory effects) is a kernel that reads and writes no field the
    kernel writes and writes no field it reads; the check includes every
    kernel still in flight since the last barrier. Before an exchange, an
    image, a branch or the end of a block the barrier stays. Other targets are
    left alone (CUDA launches on one stream run in order).

    Before:
    ```mlir
    stn.kernel "a" on Edge[%lo : %hi] K[%c0 : %n] { ... stn.write %x to %ta ... }
    stn.kernel "b" on Edge[%lo : %hi] K[%c0 : %n] { ... stn.write %y to %tb ... }
    stn.kernel "c" on Edge[%lo : %hi] K[%c0 : %n] { ... stn.load %ta ... stn.load %tb ... }
    ```
    After (`a` and `b` are independent, `c` reads both):
    ```mlir
    stn.kernel "a" on Edge[%lo : %hi] K[%c0 : %n] attributes {nowait} { ... }
    stn.kernel "b" on Edge[%lo : %hi] K[%c0 : %n] { ... }
    stn.kernel "c" on Edge[%lo : %hi] K[%c0 : %n] { ... }
    ```
  }];
  let statistics = [
    Statistic<"numElided", "elided", "Kernels that need no barrier after them">,
  ];
}

def Wavefront : Pass<"stn-wavefront", "::mlir::ModuleOp"> {
  let summary = "Runs groups of dependent C++ kernels interleaved tile by tile, through the cache";
  let description = [{
    On a CPU, kernels that depend on each other, also through neighbour
    tables, can run interleaved: a tile of the last kernel's points, then of
    each kernel the points that tile needs, so that what one kernel writes is
    still in cache when the next reads it, and nothing is computed twice
    (`fusec/wavefront.h`). In kernel form of modules for the C++ target and
    the columns layout, this pass wraps each run of such kernels in an
    `stn.wavefront`: kernels, `scf.if`s around kernels and exchanges of one
    block, in which each kernel depends on an earlier one and every
    dependence is `same` (the point reads or overwrites what the earlier
    kernel wrote or read at the same point), `gather` (it reads what the
    points its row of a table names wrote) or `scatter` (it overwrites what
    points whose row of a table names it read). Kernels on different sides of
    a branch over the same points share a stage. A group ends at a kernel
    that reads a field of the group through two tables, a kernel on a point
    list or without points, any other op with effects, or a kernel that does
    not depend on it (which may start the next group). Pure scalar ops inside
    the run move before it. Other modules are left alone.

    Storage folding (`fold`): an `stn.alloc` that only the group uses, at a
    kernel's own point or through one table, joins the wavefront's `folds`
    with what each stage does to it, when every stage that writes it writes
    it at all its points and levels in every branch (a `stn.write` at the top
    of each kernel's body, kernels of the stage on both sides of each branch
    around them), no kernel both reads and writes it, the first stage that
    touches it writes it, and every read lies within the levels that stage
    writes. The plan then keeps its columns in a per-thread ring in cache.
    Whether each point is written before it is read is checked when the plan
    is built (else the buffer is used whole).

    Before:
    ```mlir
    stn.kernel "laplacian" on Edge[%lo_e : %hi_e] K[%c0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      ... stn.load %theta[%c, k] ... (cells of E2C)
      stn.write %l to %lap at %e : ...
    }
    %cond = arith.cmpi ...
    scf.if %cond {
      stn.kernel "update" on Cell[%lo_c : %hi_c] K[%c0 : %n] {
      ^bb0(%c: !stn.point<Cell>):
        ... stn.reduce sum over @C2E at %c ... stn.load %lap[%e, k] ...
        stn.write %t to %theta at %c : ...
      }
    }
    ```
    After (`update` gathers the Laplacian through C2E and overwrites the
    theta the Laplacian read through E2C; `%lap`, an `stn.alloc` nothing
    else uses, is folded):
    ```mlir
    %cond = arith.cmpi ...
    stn.wavefront tile(1024) min_levels(12) waits [gather<1 on 0 through @C2E>,
                                                   scatter<1 on 0 through @E2C>]
        folds [%lap : !stn.field<Edge x K x f64> [write<0>, gather<1 through @C2E>]] {
      stn.kernel "laplacian" on Edge[%lo_e : %hi_e] K[%c0 : %n] attributes {stage = 0} { ... }
      scf.if %cond {
        stn.kernel "update" on Cell[%lo_c : %hi_c] K[%c0 : %n] attributes {stage = 1} { ... }
      }
    }
    ```
  }];
  let options = [
    Option<"tile", "tile", "int64_t", "1024",
           "points of the last stage per tile (512 to 2,048 are within 3% with diffusion's "
           "groups; docs/bench.md, Wavefront schedules)">,
    Option<"minLevels", "min-levels", "int64_t", "12",
           "levels the stage with the most must have at run time for the plan to run (the "
           "cold pools' 2 levels lose 20% tiled, 16 levels gain 10%)">,
    Option<"fold", "fold", "bool", "true",
           "fold the buffers only the group uses (storage folding)">,
  ];
  let statistics = [
    Statistic<"numGroups", "groups", "Wavefronts made">,
    Statistic<"numStages", "stages", "Stages in them">,
    Statistic<"numFolds", "folds", "Buffers folded">,
  ];
}

def UnswitchKernels : Pass<"stn-unswitch-kernels", "::mlir::ModuleOp"> {
  let summary = "Splits a kernel with a branch on a uniform condition into one kernel per side";
  let description = [{
    A branch inside a kernel whose condition is the same at every point (a
    scalar argument such as `limited_area`, or arithmetic on such values;
    `stn-uniform-if` makes them from `where`) is evaluated at every point of
    every level, and on CPUs it keeps the compiler from vectorising the loop
    over points. This pass unswitches it: the kernel becomes two, each with
    the branch resolved to one side (every other branch on the same condition
    too), and an `scf.if` on the host launches the one the condition picks.
    Each version is unswitched again on its next uniform condition, at most
    `max-conditions` deep (2^n kernels). A version is named after the kernel
    and the condition: `<kernel>.if_<argument>` and `<kernel>.unless_<argument>`
    (`condition` when it is not a program argument).

    Then, for every branch on the host (these and the program's own), the
    kernels right before it whose temporaries only one side reads move into
    that side, nearest first, so the other side no longer computes them:
    without `apply_zdiffusion_t`, theta's program skips the Laplacian and the
    steep-point correction only the other side uses. A kernel that writes a
    program argument, or a temporary read outside that side, stays.

    Before:
    ```mlir
    stn.kernel "vn" on Edge[%lo : %hi] K[%c0 : %n] {
    ^bb0(%e: !stn.point<Edge>):
      %a = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %r = scf.if %limited_area -> (f64) {
        ... nudging ...
      } else {
        ... global ...
      }
      stn.write %r to %vn at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
    }
    ```
    After:
    ```mlir
    scf.if %limited_area {
      stn.kernel "vn.if_limited_area" on Edge[%lo : %hi] K[%c0 : %n] {
        %a = ... nudging ...
      }
    } else {
      stn.kernel "vn.unless_limited_area" on Edge[%lo : %hi] K[%c0 : %n] {
        %a = ... global ...
      }
    }
    ```
  }];
  let options = [
    Option<"maxConditions", "max-conditions", "int64_t", /*default=*/"2",
           "Uniform conditions a kernel is unswitched on at most (2^n versions)">,
  ];
  let statistics = [
    Statistic<"numUnswitched", "unswitched", "Kernels split on a uniform condition">,
    Statistic<"numSunk", "sunk", "Kernels moved into the only side that reads their results">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def NarrowLevelRange : Pass<"stn-narrow-level-range", "::mlir::ModuleOp"> {
  let summary = "Runs an in-place update only on the levels where it can change a value";
  let description = [{
    `dwdx = where(type_shear == 2 && index(K) > 0, grad, dwdx)` keeps the
    field's value at level 0. After fusion that is one application that
    computes the gradient, reads `dwdx` and selects at every level, where
    ICON's loop (and `none`, through `stn-split-where`) starts at level 1 and
    reads no `dwdx` at all. An application whose results are each stored
    once, over its own domain, into a field, and are each a select on one
    common condition with the value in place (a load of the stored field at
    the point and level) on the false side, changes nothing where the
    condition fails. When the condition is a conjunction (`and`) with
    comparisons of the level against values uniform in the application,
    this pass narrows the application's and its stores' level range to where
    those comparisons hold, and replaces them by `true` (canonicalization
    then folds them away; the rest of the condition stays). Part of
    `fuse-all`, after map fusion.

    Before:
    ```mlir
    %g = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x KHalf x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %k = stn.level
      %c = arith.cmpi sgt, %k, %c0 : i32
      %v = stn.reduce sum over @C2E2CO at %p : <Cell> -> f64 { ... }
      %old = stn.load %dwdx[%p, k] : !stn.field<Cell x KHalf x f64>
      %s = arith.select %c, %v, %old : f64
      stn.yield %s : f64
    }
    stn.store %g to %dwdx on Cell[%lo : %hi] K[%c0 : %n] : ...
    ```
    After:
    ```mlir
    %c1 = arith.constant 1 : i32
    %g = stn.apply on Cell[%lo : %hi] K[%c1 : %n] -> !stn.temp<Cell x KHalf x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %v = stn.reduce sum over @C2E2CO at %p : <Cell> -> f64 { ... }
      stn.yield %v : f64
    }
    stn.store %g to %dwdx on Cell[%lo : %hi] K[%c1 : %n] : ...
    ```
  }];
  let statistics = [
    Statistic<"numNarrowed", "narrowed", "Applications narrowed to fewer levels">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def SinkToStores : Pass<"stn-sink-to-stores", "::mlir::ModuleOp"> {
  let summary = "Moves an application down to its store so its kernel writes the field";
  let description = [{
    In `diffusion_step`, w's update reads `w` at its own point (in ICON4Py's
    granule, the copy `w_tmp`, which `stn-remove-redundant-arrays` removes),
    and the gradients for the turbulence, split off into their own
    application after it, read `w` at neighbours before the update is
    stored. With the store behind a reader of `w`, the update's kernel
    cannot write `w`: lowering gives it a buffer and a copy kernel. An
    application whose results are only stored, into fields it reads at most
    at the point it computes, moves down to just before its first store when
    an operation in between touches a stored field and nothing in between
    writes a field it reads (nor exchanges a halo). Applications are pure, so the reads in between see the same
    values; the kernel then writes the field in place. Part of `fuse-all`,
    last.

    Before:
    ```mlir
    %new = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x KHalf x f64> {
      ... stn.load %w[%p, k] ...
    }
    %grad = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x KHalf x f64> {
      ... stn.reduce sum over @C2E2CO ... stn.load %w[%nbr, k] ...
    }
    stn.store %new to %w on Cell[%lo : %hi] K[%c0 : %n] : ...
    stn.store %grad to %dwdx on Cell[%lo : %hi] K[%c0 : %n] : ...
    ```
    After:
    ```mlir
    %grad = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x KHalf x f64> { ... }
    %new = stn.apply on Cell[%lo : %hi] K[%c0 : %n] -> !stn.temp<Cell x KHalf x f64> { ... }
    stn.store %new to %w on Cell[%lo : %hi] K[%c0 : %n] : ...
    stn.store %grad to %dwdx on Cell[%lo : %hi] K[%c0 : %n] : ...
    ```
  }];
  let statistics = [
    Statistic<"numSunk", "sunk", "Applications moved down to their stores">,
  ];
}

def UniformIf : Pass<"stn-uniform-if", "::mlir::ModuleOp"> {
  let summary = "Computes only the chosen side of a select on a uniform condition";
  let description = [{
    A `where` whose condition is the same at every point (a scalar argument,
    a constant, or arithmetic on those) is an `arith.select` in an
    application's body, and a select evaluates both sides: the steep-terrain
    correction of `apply_diffusion_to_theta_and_exner` ran even when
    `apply_zdiffusion_t` was false. This pass turns such a select into an
    `scf.if` on the condition and moves into each branch the operations only
    that side needs (loads and reductions included: they read, so running
    them in fewer cases changes no result). Operations both sides use stay
    before the branch. A select on a conjunction or disjunction with a uniform
    operand (`type_shear == 2 && k > 0`) branches on that operand: `select(u
    && rest, a, b)` is `u ? select(rest, a, b) : b`, `select(u || rest, a, b)`
    is `u ? a : select(rest, a, b)`. A select whose sides have nothing of
    their own, or whose condition varies between points otherwise, is left
    alone.

    Before:
    ```mlir
    %t = stn.apply on Cell[...] K[...] -> !stn.temp<Cell x K x f64> {
    ^bb0(%p: !stn.point<Cell>):
      %a = stn.load %x[%p, k] : ...
      %s = stn.reduce ... { ... steep correction of %a ... }
      %r = arith.select %apply_zdiffusion_t, %s, %a : f64
      stn.yield %r : f64
    }
    ```
    After:
    ```mlir
      %a = stn.load %x[%p, k] : ...
      %r = scf.if %apply_zdiffusion_t -> (f64) {
        %s = stn.reduce ... { ... }
        scf.yield %s : f64
      } else {
        scf.yield %a : f64
      }
      stn.yield %r : f64
    ```
  }];
  let statistics = [
    Statistic<"numBranches", "branches", "Selects turned into branches">,
    Statistic<"numMovedOps", "moved-ops", "Operations moved into a branch">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def SplitWhere : Pass<"stn-split-where", "::mlir::ModuleOp"> {
  let summary = "Computes each side of a `where` only where it is taken (ICON's loops)";
  let description = [{
    ICON's OpenACC code runs the branches of its diffusion as separate loops:
    under an `IF` on a namelist switch (`l_limited_area`, `l_zdiffu_t`), over
    the index range of a grid zone, over the levels of the damping layer. The
    stencils select per point with `where`, as ICON4Py writes them; with one
    kernel per stencil (`none`) every side is computed everywhere and a
    select kernel picks. This pass, part of `none` and run before domain
    inference, turns such selections into ICON's loops:

    - a selection (an application that only reads at its own point and level
      and selects) on a uniform condition becomes a program-level `scf.if`,
      with the selection and everything after it that depends on it in both
      branches, the condition known in each;
    - a selection stored into fields, on conditions on the index of the point
      or on the level against uniform bounds, becomes stores over the boxes
      where each side is taken (horizontal conditions split first); a side
      that is the stored field itself, unchanged, is not stored at all, and a
      side that is another application's result is stored directly from it;
    - stores of one temporary over boxes that together form a box become one
      store (its kernel then writes without conditions);
    - a selection that only forwards another temporary is replaced by it;
    - applications used only inside a branch move into it: into the side that
      uses them, or a copy into each side when both do (one of them runs).

    `stn-infer-domains` then computes every application only on the boxes
    its uses need. Selections whose conditions read fields are left alone.

    Before:
    ```mlir
    %n4 = stn.apply on Edge -> !stn.temp<Edge x K x f64> { ... }
    %glb = stn.apply on Edge -> !stn.temp<Edge x K x f64> { ... %n4 ... }
    %r = stn.apply on Edge[%lo : %hi] K[%c0 : %n] -> !stn.temp<Edge x K x f64> {
    ^bb0(%e: !stn.point<Edge>):
      %i = stn.index %e : !stn.point<Edge>
      %inner = arith.cmpi sge, %i, %start : i32
      %g = stn.load %glb[%e, k] : !stn.temp<Edge x K x f64>
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %s = arith.select %inner, %g, %v : f64
      stn.yield %s : f64
    }
    stn.store %r to %vn on Edge[%lo : %hi] K[%c0 : %n] : ...
    ```
    After (`vn = vn` on `[lo, start)` is no store at all):
    ```mlir
    %m = arith.maxsi %start, %lo : i32
    %cut = arith.minsi %m, %hi : i32
    %n4 = stn.apply on Edge -> !stn.temp<Edge x K x f64> { ... }
    %glb = stn.apply on Edge -> !stn.temp<Edge x K x f64> { ... %n4 ... }
    stn.store %glb to %vn on Edge[%cut : %hi] K[%c0 : %n] : ...
    ```
  }];
  let statistics = [
    Statistic<"numUnswitched", "unswitched", "Selections split on a uniform condition">,
    Statistic<"numStores", "stores", "Stores over the boxes where a side is taken">,
    Statistic<"numSunk", "sunk", "Applications moved into the one branch that uses them">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

#endif // FUSEC_PASSES_TD
