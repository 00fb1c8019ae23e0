//===- StnOps.td - stn operations ----------------------------*- tablegen -*-===//

#ifndef FUSEC_IR_STNOPS_TD
#define FUSEC_IR_STNOPS_TD

include "ir/StnDialect.td"
include "ir/StnAttrs.td"
include "ir/StnTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

/// Field buffers (program arguments and `stn.alloc`s) are memory: loads from
/// them read it, stores, kernel writes and exchanges write it. Temporaries
/// (`!stn.temp`) are values and have no effects.
def Stn_FieldResource : Resource<"::fusec::stn::FieldResource">;
/// Rows (`!stn.row`) are a work item's own scratch memory.
def Stn_RowResource : Resource<"::fusec::stn::RowResource">;
/// The caches: `stn.prefetch` writes them, nothing reads them, so a prefetch
/// is not dead code and moves past no field access it is ordered with.
def Stn_CacheResource : Resource<"::fusec::stn::CacheResource">;

//===----------------------------------------------------------------------===//
// Module-level declarations
//===----------------------------------------------------------------------===//

def Stn_ConnectivityOp : Stn_Op<"connectivity", [Symbol]> {
  let summary = "declares a neighbour table";
  let description = [{
    A connectivity maps each point of its source location to `size`
    neighbours on its target location. With `skip`, entries may be `-1`
    (missing neighbour): reductions skip them and loads at them give 0.

    ```mlir
    stn.connectivity @E2C2V : Edge -> Vertex [4]
    stn.connectivity @V2E : Vertex -> Edge [6] skip
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       Stn_GridLocation:$source,
                       Stn_GridLocation:$target,
                       I64Attr:$size,
                       UnitAttr:$skip);
  let assemblyFormat =
      "$sym_name `:` $source `->` $target `[` $size `]` (`skip` $skip^)? attr-dict";
  let hasVerifier = 1;
}

def Stn_ProgramOp : Stn_Op<"program", [
    FunctionOpInterface, IsolatedFromAbove, OpAsmOpInterface]> {
  let summary = "a launch unit called from the host as one C function";
  let description = [{
    A program takes field buffers and scalars. Field arguments carry a
    `stn.intent` attribute (`in`, `out` or `inout`) and every argument its
    source name in `stn.name`. The body applies stencils, stores results,
    exchanges halos and may branch on scalars with `scf.if`.

    ```mlir
    stn.program @scale(%f: !stn.field<K x f64> {stn.name = "f"},
                       %out: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "out"},
                       %s: f64 {stn.name = "s"}) {
      ...
      stn.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    static ::llvm::StringRef getDefaultDialect() { return "stn"; }
    void getAsmBlockArgumentNames(::mlir::Region &region,
                                  ::mlir::OpAsmSetValueNameFn setNameFn);

    /// The source name of argument `i`.
    ::llvm::StringRef getArgName(unsigned i);
    /// How argument `i` is used (scalars are always `In`).
    Intent getArgIntent(unsigned i);

    static constexpr ::llvm::StringLiteral kNameAttr = "stn.name";
    static constexpr ::llvm::StringLiteral kIntentAttr = "stn.intent";
  }];
}

def Stn_ReturnOp : Stn_Op<"return", [Pure, HasParent<"ProgramOp">, Terminator]> {
  let summary = "ends a program";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Program-level operations
//===----------------------------------------------------------------------===//

def Stn_AllocOp : Stn_Op<"alloc"> {
  let summary = "a program-local field buffer, allocated once at setup";
  let arguments = (ins OptionalAttr<StrAttr>:$name);
  let results = (outs Res<Stn_FieldType, "the new buffer", [MemAlloc<Stn_FieldResource>]>:$field);
  let assemblyFormat = "attr-dict `:` type($field)";
}

def Stn_NumLevelsOp : Stn_Op<"nlev", [Pure]> {
  let summary = "the number of full levels given at setup";
  let results = (outs I32:$result);
  let builders = [OpBuilder<(ins), [{
    build($_builder, $_state, $_builder.getI32Type());
  }]>];
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Stn_ListSizeOp : Stn_Op<"list_size", [Pure]> {
  let summary = "the number of entries of a point list";
  let description = [{
    Known only at run time: a pass that chooses between versions of a program
    part by the list's length branches on it.

    ```mlir
    %n = stn.list_size %steep : !stn.points<Cell>
    ```
  }];
  let arguments = (ins Stn_PointsType:$list);
  let results = (outs I32:$result);
  let builders = [OpBuilder<(ins "::mlir::Value":$list), [{
    build($_builder, $_state, $_builder.getI32Type(), list);
  }]>];
  let assemblyFormat = "$list attr-dict `:` qualified(type($list))";
}

def Stn_ImageOp : Stn_Op<"image", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the range of neighbour indices a range of points reaches";
  let description = [{
    For the source points `[lb, ub)` of `conn`, the smallest half-open range
    of target indices that holds every neighbour (missing ones ignored). On
    ICON's ordered grids this is the source range plus one halo ring. An empty
    source range gives the empty range `[0, 0)`.

    ```mlir
    %lo, %hi = stn.image %start, %end through @C2E2CO
    ```
  }];
  let arguments = (ins I32:$lb, I32:$ub, FlatSymbolRefAttr:$conn);
  let results = (outs I32:$image_lb, I32:$image_ub);
  let builders = [OpBuilder<(ins "::mlir::Value":$lb, "::mlir::Value":$ub,
                                 "::mlir::FlatSymbolRefAttr":$conn), [{
    build($_builder, $_state, $_builder.getI32Type(), $_builder.getI32Type(), lb, ub, conn);
  }]>];
  let assemblyFormat = "$lb `,` $ub `through` $conn attr-dict";
  let hasFolder = 1;
}

def Stn_ApplyOp : Stn_Op<"apply", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>, AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "computes temporaries at every point of a domain";
  let description = [{
    The region computes the values of one point: its block argument is the
    current horizontal point (absent for vertical-only applications), the
    current level is implicit (`stn.level`, loads with level offsets). The
    domain is a horizontal range `[hlb, hub)` of the location and a vertical
    range `[klb, kub)`, or a run-time list of points and their levels
    (`on Cell at %list`: the region runs once per entry, at its point and
    level). An application whose domain is not yet inferred prints only its
    location; `stn-infer-domains` fills it in.

    Its memory effects are those of its region: reads of the field buffers it
    loads (an application never writes), so CSE merges two equal applications
    only when nothing in between writes what they read.

    ```mlir
    %t = stn.apply on Edge[%lo : %hi] K[%c0 : %nlev] -> !stn.temp<Edge x K x f64> {
    ^bb0(%p: !stn.point<Edge>):
      %v = stn.load %vn[%p, k] : !stn.field<Edge x K x f64>
      stn.yield %v : f64
    }
    ```
  }];
  let arguments = (ins OptionalAttr<Stn_GridLocation>:$location,
                       Optional<I32>:$hlb, Optional<I32>:$hub,
                       Optional<I32>:$klb, Optional<I32>:$kub,
                       Optional<Stn_PointsType>:$points,
                       OptionalAttr<StrAttr>:$name,
                       OptionalAttr<I64Attr>:$kblock,
                       UnitAttr:$keep_in_memory,
                       UnitAttr:$no_level_carry,
                       OptionalAttr<DenseI64ArrayAttr>:$column_order);
  let results = (outs Variadic<Stn_TempType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "std::optional<GridLocation>":$location,
                   "::mlir::Value":$hlb, "::mlir::Value":$hub,
                   "::mlir::Value":$klb, "::mlir::Value":$kub)>
  ];
  let extraClassDeclaration = [{
    bool hasHorizontalDomain() { return getHlb() != nullptr || getPoints() != nullptr; }
    bool hasVerticalDomain() { return getKlb() != nullptr || getPoints() != nullptr; }
    /// True when every range the results need is known.
    bool isDomainInferred();
    /// The current point (null for vertical-only applications).
    ::mlir::BlockArgument getPoint();
    YieldOp getYield();
    /// Replaces the domain bounds (null values drop a range).
    void setDomain(::mlir::Value hlb, ::mlir::Value hub, ::mlir::Value klb,
                   ::mlir::Value kub);
    /// Makes the domain a point list (no ranges).
    void setPointList(::mlir::Value points);
  }];
}

def Stn_StoreOp : Stn_Op<"store", [AttrSizedOperandSegments]> {
  let summary = "writes a temporary into a field buffer over a domain";
  let description = [{
    Points outside the domain keep their previous content. A store over a
    constant empty range (`lb >= ub`) does nothing and canonicalizes away. A
    store `on Cell at %list` writes the entries of a point list (the value is
    the result of an application over the same list).

    ```mlir
    stn.store %t to %vn on Edge[%lo : %hi] K[%k0 : %k1]
        : !stn.temp<Edge x K x f64> to !stn.field<Edge x K x f64>
    ```
  }];
  let arguments = (ins Stn_TempType:$value,
                       Arg<Stn_FieldType, "the buffer written", [MemWrite<Stn_FieldResource>]>:$field,
                       Optional<I32>:$hlb, Optional<I32>:$hub,
                       Optional<I32>:$klb, Optional<I32>:$kub,
                       Optional<Stn_PointsType>:$points);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
}

def Stn_ExchangeOp : Stn_Op<"exchange"> {
  let summary = "halo exchange of fields: a barrier nothing is fused across";
  let description = [{
    Reads and writes each field: the halo points are overwritten with the
    owners' values.
  }];
  let arguments = (ins Arg<Variadic<Stn_FieldType>, "the fields exchanged",
                           [MemRead<Stn_FieldResource>, MemWrite<Stn_FieldResource>]>:$fields);
  let assemblyFormat = "$fields attr-dict `:` type($fields)";
}

//===----------------------------------------------------------------------===//
// Operations inside applications and kernels
//===----------------------------------------------------------------------===//

def Stn_YieldOp : Stn_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["ApplyOp", "ReduceOp", "KernelOp"]>]> {
  let summary = "the values of the current point";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Stn_LoadOp : Stn_Op<"load", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>, AttrSizedOperandSegments]> {
  let summary = "reads a field or temporary at a point and level";
  let description = [{
    A load from a field buffer reads memory (the field's `FieldResource`); a
    load from a temporary has no effect. Loads are not speculatable: a read
    guarded by a level or index predicate may be out of range without it.

    Reads `field` at horizontal `point` (absent for vertical-only fields), at
    neighbour slot `nbr` of a sparse field, and at level `k + offset`, or
    `k + dyn + offset` with a data-dependent `i32` offset `dyn`. Reads at a
    missing point (`-1`) give 0. In kernel form `k` is the implicit current
    level; in loop form (docs/dialect.md) it is the explicit `index` operand
    `level`, an induction variable of a level loop (`%k - 1`).

    ```mlir
    %a = stn.load %vn[%p, k - 1] : !stn.field<Edge x K x f64>
    %b = stn.load %pn_x[%p, nbr %j] : !stn.field<Edge x E2C2V[4] x f64>
    %c = stn.load %theta[%n, k + %off + 1] : !stn.field<Cell x K x f64>
    %d = stn.load %smag_limit[k] : !stn.field<K x f64>
    %e = stn.load %vn[%p, %k - 1] : !stn.field<Edge x K x f64>
    ```
  }];
  let arguments = (ins Stn_FieldLike:$field,
                       Optional<Stn_PointType>:$point,
                       Optional<Index>:$nbr,
                       Optional<I32>:$dyn_offset,
                       Optional<Index>:$level,
                       DefaultValuedAttr<I64Attr, "0">:$offset);
  let results = (outs AnyType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The constant level offset (signed).
    int64_t getLevelOffset() { return static_cast<int64_t>(getOffset()); }
  }];
}

def Stn_NeighborOp : Stn_Op<"neighbor", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "neighbour `index` of a point through a connectivity";
  let description = [{
    The result is missing (`-1`) when the table holds `-1`, or when `point`
    itself is missing.

    `present` (loop form, set by `stn-unswitch-missing-neighbors`) states that
    the table holds no `-1` at this row: the neighbour is missing only where
    `point` is, and its loads need no guard. The op is under an `scf.if` on a
    `stn.table_complete` of the rows its point loop visits.

    ```mlir
    %n = stn.neighbor %p through @E2C [%c1] : !stn.point<Edge> -> !stn.point<Cell>
    %m = stn.neighbor %p through @E2C [%c0] {present} : !stn.point<Edge> -> !stn.point<Cell>
    ```
  }];
  let arguments = (ins Stn_PointType:$point, FlatSymbolRefAttr:$conn, Index:$index,
                       UnitAttr:$present);
  let builders = [OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$point,
                                 "::mlir::FlatSymbolRefAttr":$conn, "::mlir::Value":$index), [{
    build($_builder, $_state, result, point, conn, index, /*present=*/nullptr);
  }]>];
  let results = (outs Stn_PointType:$result);
  let assemblyFormat =
      "$point `through` $conn `[` $index `]` attr-dict `:` type($point) `->` type($result)";
}

def Stn_ReduceOp : Stn_Op<"reduce", [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "folds a value over the neighbours of a point";
  let description = [{
    The region is evaluated for every neighbour `j` of `point` through `conn`
    that is not missing; its block arguments are the slot `j` (for sparse
    fields) and the neighbour point. Folds with no contribution give the
    identity (0, +inf, -inf, 1).

    ```mlir
    %s = stn.reduce sum over @C2E at %p -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %g = stn.load %geofac_div[%p, nbr %j] : !stn.field<Cell x C2E[3] x f64>
      %v = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %m = arith.mulf %g, %v : f64
      stn.yield %m : f64
    }
    ```
  }];
  let arguments = (ins Stn_ReduceKind:$kind, FlatSymbolRefAttr:$conn,
                       Stn_PointType:$point);
  let results = (outs AnyTypeOf<[AnyFloat, AnySignlessInteger]>:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat =
      "$kind `over` $conn `at` $point `:` type($point) `->` type($result) $body attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::BlockArgument getSlot() { return getBody().getArgument(0); }
    ::mlir::BlockArgument getNeighbor() { return getBody().getArgument(1); }
  }];
}

def Stn_IndexOp : Stn_Op<"index", [Pure]> {
  let summary = "the horizontal index of a point (-1 when missing)";
  let arguments = (ins Stn_PointType:$point);
  let results = (outs I32:$result);
  let builders = [OpBuilder<(ins "::mlir::Value":$point), [{
    build($_builder, $_state, $_builder.getI32Type(), point);
  }]>];
  let assemblyFormat = "$point attr-dict `:` type($point)";
}

def Stn_LevelOp : Stn_Op<"level", [Pure]> {
  let summary = "the current level plus a constant offset";
  let description = [{
    The current level is implicit in kernel form and the `index` operand in
    loop form: `stn.level(%k) {offset = 1}` is `%k + 1` as an `i32`.
  }];
  let arguments = (ins Optional<Index>:$level, DefaultValuedAttr<I64Attr, "0">:$offset);
  let results = (outs I32:$result);
  let builders = [OpBuilder<(ins "int64_t":$offset), [{
    build($_builder, $_state, $_builder.getI32Type(), ::mlir::Value(),
          static_cast<uint64_t>(offset));
  }]>];
  let assemblyFormat = "(`(` $level^ `)`)? attr-dict";
  let extraClassDeclaration = [{
    int64_t getLevelOffset() { return static_cast<int64_t>(getOffset()); }
  }];
}

def Stn_PointAtOp : Stn_Op<"point_at", [Pure]> {
  let summary = "the point with a horizontal index (loop form)";
  let description = [{
    Turns an induction variable of a point loop into the point it visits. The
    index lies inside the kernel's horizontal range, so the point is never
    missing.

    ```mlir
    %p = stn.point_at %h : !stn.point<Edge>
    ```
  }];
  let arguments = (ins Index:$index);
  let results = (outs Stn_PointType:$result);
  let assemblyFormat = "$index attr-dict `:` type($result)";
}

def Stn_ValidOp : Stn_Op<"valid", [Pure]> {
  let summary = "whether a point exists (is not a missing neighbour)";
  let description = [{
    Folds to `true` where the point cannot be missing: the current point, the
    neighbour a reduction visits, a neighbour through a connectivity without
    `skip` of such a point.
  }];
  let arguments = (ins Stn_PointType:$point);
  let hasFolder = 1;
  let results = (outs I1:$result);
  let builders = [OpBuilder<(ins "::mlir::Value":$point), [{
    build($_builder, $_state, $_builder.getI1Type(), point);
  }]>];
  let assemblyFormat = "$point attr-dict `:` type($point)";
}

//===----------------------------------------------------------------------===//
// Kernel form
//===----------------------------------------------------------------------===//

def Stn_KernelOp : Stn_Op<"kernel", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "one launch: a loop nest over a domain that writes fields";
  let description = [{
    The region runs once per point of the domain (its block argument) and
    level; it reads fields with `stn.load`, writes them with `stn.write` and
    guards parts with `scf.if` on `stn.index`/`stn.level` predicates. `kblock`
    is the number of consecutive levels a thread computes; the emitters carry
    values from one of those levels to the next (a `k-1` read that equals a
    `k` read one level down) unless `no_level_carry` is set.

    A launch runs its points in any order, in parallel: the verifier rejects a
    kernel that reads a field it writes anywhere but at the point and level
    being written (lowering routes such results through a buffer and a copy
    kernel), and one whose writes of a field do not follow all its loads of it.

    A kernel `on Cell at %list` runs once per entry of a point list: in
    kernel form its region argument is the entry's point and the current level
    the entry's level; in loop form the region takes the work item's range of
    entries and `stn.list_point` reads each.

    `column_order = array<i64: S, V>` (CUDA, `stn-column-order`): the bytes a
    point's levels share (`S`: 2-D data, neighbour-table entries) and the bytes
    a point moves per level (`V`: 3-D reads and writes). The launcher numbers
    the work items column by column, all level tiles of one block of points
    before the next block of points, when a level tile's data of all the
    launch's points, `points * (S + kblock * V)`, passes the device's L2: the
    blocks that run together then share those points' 2-D data in L2, which
    the next level tile would otherwise read from DRAM again. Else, and
    without the attribute, a level tile of every point runs before the next
    level tile (ICON's OpenACC order).

    `stage` (C++, `stn-wavefront`): the kernel's stage in the enclosing
    `stn.wavefront`.

    `nowait` (C++, `stn-elide-barriers`): threads that finish their share of
    this launch go on to the next one without waiting for the others, because
    the launches up to the next barrier touch nothing this one writes and
    write nothing it reads.

    ```mlir
    stn.kernel "scale" on K[%c0 : %n] {
      %v = stn.load %f[k] : !stn.field<K x f64>
      %r = arith.mulf %v, %s : f64
      stn.write %r to %out : f64, !stn.field<K x f64>
    }
    ```
  }];
  let arguments = (ins StrAttr:$name,
                       OptionalAttr<Stn_GridLocation>:$location,
                       Optional<I32>:$hlb, Optional<I32>:$hub,
                       Optional<I32>:$klb, Optional<I32>:$kub,
                       Optional<Stn_PointsType>:$points,
                       DefaultValuedAttr<I64Attr, "1">:$kblock,
                       UnitAttr:$no_level_carry,
                       UnitAttr:$loop_form,
                       UnitAttr:$nowait,
                       OptionalAttr<DenseI64ArrayAttr>:$column_order,
                       OptionalAttr<I64Attr>:$stage);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
  let extraClassDeclaration = [{
    /// Kernel form: the current point (null without a location).
    ::mlir::BlockArgument getPoint();
    /// Loop form: the work item's box, `[begin, end)` per range the kernel
    /// has (null where it has none).
    ::mlir::BlockArgument getPointsBegin();
    ::mlir::BlockArgument getPointsEnd();
    ::mlir::BlockArgument getLevelsBegin();
    ::mlir::BlockArgument getLevelsEnd();
    /// Loop form of a kernel over a point list: its range of list entries.
    ::mlir::BlockArgument getEntriesBegin();
    ::mlir::BlockArgument getEntriesEnd();
  }];
}

def Stn_WavefrontOp : Stn_Op<"wavefront", [RecursiveMemoryEffects, NoTerminator,
    SingleBlock]> {
  let summary = "kernels run interleaved tile by tile, so that what one writes is read from cache";
  let description = [{
    A group of kernels (C++, columns layout, `stn-wavefront`). Each kernel in
    the region has a `stage`; stages follow program order, and kernels of one
    stage lie on different sides of `scf.if`s (at most one of them runs) and
    share their location and horizontal range. The region holds kernels,
    exchanges and `scf.if`s around them, nothing else: the values they use
    are defined before the op.

    `waits` lists what each point of a later stage waits for in an earlier
    one: `same<q on p>` the same point; `gather<q on p through @T>` the points
    its row of `T` names (it reads what they wrote); `scatter<q on p through
    @T>` the points of `p` whose row of `T` names it (it overwrites what they
    read). The emitted code runs the stages through `fusec::wavefront::Plan`
    with tiles of `tile` points of the last stage: every point runs once,
    after all it waits for, so the results are those of program order, bit
    for bit. With an exchange callback set (several ranks), or when the
    stage with the most levels has fewer than `min_levels` of them at run time
    (too little work per point for the plan to pay), the region runs as it is
    written, one kernel after the other.

    `folds` (storage folding) are `stn.alloc`s that only the region uses,
    each with what every stage does to it: `write<s>` (stage `s` writes it at
    all its points, in every branch), `read<s>` (reads it at its own points),
    `gather<s through @T>` (at the points its rows of `T` name). In the plan
    a point of a folded temporary takes a column of a small storage that is
    reused once the last stage touching the point has run, so the temporary
    stays in cache; run as written, the group uses the full array.

    ```mlir
    stn.wavefront tile(1024) min_levels(12) waits [gather<1 on 0 through @C2E>,
                                    scatter<1 on 0 through @E2C>]
        folds [%lap : !stn.field<Edge x K x f64> [write<0>, gather<1 through @C2E>]] {
      stn.kernel "laplacian" on Edge[%lo_e : %hi_e] K[%c0 : %n] attributes {stage = 0} { ... }
      stn.kernel "update" on Cell[%lo_c : %hi_c] K[%c0 : %n] attributes {stage = 1} { ... }
    }
    ```
  }];
  let arguments = (ins I64Attr:$tile, I64Attr:$min_levels, ArrayAttr:$waits,
                       Variadic<Stn_FieldType>:$folds, ArrayAttr:$fold_accesses);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// How a point of stage `stage` waits for points of stage `on`.
    enum class Order { Same, Gather, Scatter };
    struct Wait {
      int64_t stage, on;
      Order order;
      ::mlir::FlatSymbolRefAttr table; ///< null for Same
    };
    /// The entries of `waits`, decoded (the verifier checked their shape).
    ::llvm::SmallVector<Wait> getWaitList();
    /// What a stage does to a folded temporary.
    struct FoldAccess {
      enum Kind { Write, Read, Gather } kind;
      int64_t stage;
      ::mlir::FlatSymbolRefAttr table; ///< Gather only
    };
    /// The accesses of fold `index` (the verifier checked their shape).
    ::llvm::SmallVector<FoldAccess> getFoldAccessList(unsigned index);
    static ::mlir::Attribute encodeFoldAccess(::mlir::MLIRContext *context,
                                              const FoldAccess &access);
    /// The index of `field` in `folds`, if it is there.
    ::std::optional<unsigned> foldIndexOf(::mlir::Value field);
  private:
    ::mlir::LogicalResult verifyFolds(::llvm::ArrayRef<KernelOp> leaders);
  public:
    static ::mlir::Attribute encodeWait(::mlir::MLIRContext *context, const Wait &wait);
    static ::llvm::StringRef orderName(Order order);
    /// The kernels of the region (not inside other kernels), in program order.
    ::llvm::SmallVector<KernelOp> getKernels();
    /// One past the largest stage.
    int64_t getNumStages();
    /// Each stage's first kernel in program order (the verifier checks that
    /// the kernels of a stage share location and points), indexed by stage.
    ::llvm::SmallVector<KernelOp> getStageLeaders();
  }];
}

def Stn_ListPointOp : Stn_Op<"list_point", [Pure]> {
  let summary = "an entry of a point list: its point and level (loop form)";
  let description = [{
    ```mlir
    %p, %k = stn.list_point %steep[%i] : !stn.points<Cell> -> !stn.point<Cell>
    ```
  }];
  let arguments = (ins Stn_PointsType:$list, Index:$entry);
  let results = (outs Stn_PointType:$point, Index:$level);
  let assemblyFormat = "$list `[` $entry `]` attr-dict `:` qualified(type($list)) `->` qualified(type($point))";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$list, "::mlir::Value":$entry), [{
      auto location = ::llvm::cast<PointsType>(list.getType()).getLocation();
      build($_builder, $_state, PointType::get($_builder.getContext(), location),
            $_builder.getIndexType(), list, entry);
    }]>
  ];
}

def Stn_ListRunOp : Stn_Op<"list_run", [Pure]> {
  let summary = "how many entries of a point list, from one on, are its point at consecutive levels (loop form)";
  let description = [{
    Entries `e`, `e + 1`, ..., `e + n - 1` (all before `end`) are a run when
    they are one point at levels `k`, `k + 1`, ..., `k + n - 1`. The result
    is the length `n >= 1` of the longest run from `e` on. A loop that starts
    at a work item's first entry and steps from each entry to the one after
    its run (`scf.while`) visits every entry of the item once, and runs each
    run's levels in one level loop. Lists in the columns layout's memory
    order (a cell's levels one after the other) are mostly long runs.

    ```mlir
    %n = stn.list_run %steep[%e] until %e_end : !stn.points<Cell>
    ```
  }];
  let arguments = (ins Stn_PointsType:$list, Index:$entry, Index:$end);
  let results = (outs Index:$length);
  let assemblyFormat = "$list `[` $entry `]` `until` $end attr-dict `:` qualified(type($list))";
}

def Stn_WriteOp : Stn_Op<"write", [AttrSizedOperandSegments]> {
  let summary = "writes a value into a field at the current point and level";
  let description = [{
    In loop form the level is the explicit `index` operand after `level`.

    `nontemporal` (C++, columns layout, `stn-stream-stores`): a hint with no
    effect on any value. The write is the one write of its field in a loop
    over the levels of one point, so the loop writes a contiguous piece of the
    point's column; the C++ backend stages the piece in the L1 and writes its
    whole cache lines with non-temporal stores, which skip the read of each
    line that an ordinary store makes first.

    ```mlir
    stn.write %r to %out at %p : !stn.point<Edge> level %k : f64, !stn.field<Edge x K x f64>
    ```
  }];
  let arguments = (ins AnyType:$value,
                       Arg<Stn_FieldType, "the buffer written", [MemWrite<Stn_FieldResource>]>:$field,
                       Optional<Stn_PointType>:$point,
                       Optional<Index>:$level,
                       UnitAttr:$nontemporal);
  let assemblyFormat =
      "$value `to` $field (`at` $point^ `:` type($point))? (`level` $level^)? attr-dict `:` type($value) `,` type($field)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Missing neighbours (loop form)
//===----------------------------------------------------------------------===//

def Stn_TableCompleteOp : Stn_Op<"table_complete", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "whether rows [lo, hi) of a connectivity's table hold no missing neighbour";
  let description = [{
    True when no entry of the rows `lo` to `hi - 1` (points of the
    connectivity's source) is `-1`; an empty range is complete. A C++ kernel
    reads it once per run of its point loop (`stn-unswitch-missing-neighbors`)
    to choose the version of the loop whose gathers have no guards.

    ```mlir
    %all = stn.table_complete @E2C2V[%h_begin, %h_end]
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$conn, Index:$lo, Index:$hi);
  let results = (outs I1:$result);
  let builders = [OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$conn, "::mlir::Value":$lo,
                                 "::mlir::Value":$hi), [{
    build($_builder, $_state, $_builder.getI1Type(), conn, lo, hi);
  }]>];
  let assemblyFormat = "$conn `[` $lo `,` $hi `]` attr-dict";
}

//===----------------------------------------------------------------------===//
// Rows: per-point scratch of a work item (loop form, CPU)
//===----------------------------------------------------------------------===//

def Stn_RowOp : Stn_Op<"row", [MemoryEffects<[MemAlloc<Stn_RowResource>]>]> {
  let summary = "a work item's scratch row, one value per point of its point loop";
  let description = [{
    Made once per work item, outside its loops. Element `i` belongs to the
    `i`-th point of the point loop (`%h - %h_begin`); its value before the
    first `stn.row_store` is undefined.

    ```mlir
    %row = stn.row : !stn.row<128 x f64>
    ```
  }];
  let results = (outs Stn_RowType:$row);
  let assemblyFormat = "attr-dict `:` type($row)";
}

def Stn_RowLoadOp : Stn_Op<"row_load", [
    TypesMatchWith<"the result is the row's element type", "row", "result",
                   "::llvm::cast<RowType>($_self).getElementType()">]> {
  let summary = "reads one element of a scratch row";
  let arguments = (ins Arg<Stn_RowType, "the row read", [MemRead<Stn_RowResource>]>:$row,
                       Index:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$row `[` $index `]` attr-dict `:` type($row)";
}

def Stn_RowStoreOp : Stn_Op<"row_store", [
    TypesMatchWith<"the value is the row's element type", "row", "value",
                   "::llvm::cast<RowType>($_self).getElementType()">]> {
  let summary = "writes one element of a scratch row";
  let arguments = (ins AnyType:$value,
                       Arg<Stn_RowType, "the row written", [MemWrite<Stn_RowResource>]>:$row,
                       Index:$index);
  let assemblyFormat = "$value `,` $row `[` $index `]` attr-dict `:` type($row)";
}

def Stn_PrefetchOp : Stn_Op<"prefetch", [MemoryEffects<[MemWrite<Stn_CacheResource>]>]> {
  let summary = "asks for a column of a field to be brought into the cache (loop form)";
  let description = [{
    A hint with no effect on any value: the levels `[level_begin, level_end)`
    of `field` at `point`, clamped to the field's levels, will be read soon,
    so the C++ backend asks the processor for their cache lines now
    (`fusec::prefetch_column`, columns layout). The point may be missing
    (`-1`: nothing is fetched); the interpreter checks that any other is one
    of the field's.

    ```mlir
    stn.prefetch %vn[%n, %k_begin to %k_end] : !stn.point<Edge>, !stn.field<Edge x K x f64>
    ```
  }];
  let arguments = (ins Stn_FieldType:$field, Stn_PointType:$point, Index:$level_begin,
                       Index:$level_end);
  let assemblyFormat = [{
    $field `[` $point `,` $level_begin `to` $level_end `]` attr-dict `:` type($point) `,`
    type($field)
  }];
  let hasVerifier = 1;
}

#endif // FUSEC_IR_STNOPS_TD
