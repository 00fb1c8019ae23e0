//===- StnTypes.td - stn types -----------------------------*- tablegen -*-===//

#ifndef FUSEC_IR_STNTYPES_TD
#define FUSEC_IR_STNTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "ir/StnDialect.td"
include "ir/StnAttrs.td"

class Stn_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Stn_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// Fields and temporaries share their shape: an optional horizontal location,
// an optional sparse (per-neighbour) dimension, an optional vertical dimension
// and the element type.
class Stn_ShapedFieldType<string name, string typeMnemonic>
    : Stn_Type<name, typeMnemonic> {
  let parameters = (ins
    "std::optional<GridLocation>":$location,
    StringRefParameter<"sparse connectivity", "\"\"">:$sparse,
    DefaultValuedParameter<"int64_t", "0">:$sparseSize,
    "VerticalKind":$vertical,
    "mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isSparse() const { return !getSparse().empty(); }
    bool hasVertical() const { return getVertical() != VerticalKind::None; }
    bool isVerticalOnly() const { return !getLocation() && hasVertical(); }
  }];
}

def Stn_FieldType : Stn_ShapedFieldType<"Field", "field"> {
  let summary = "a field buffer: program parameter or program-local storage";
  let description = [{
    `!stn.field<Edge x K x f64>` is a buffer of one value per edge and full
    level; `!stn.field<Cell x C2E[3] x f64>` holds one value per C2E
    neighbour of each cell; `!stn.field<K x f64>` one per level;
    `!stn.field<Cell x KHalf x f32>` one per cell and half level.
    Memory layout: `f[h + k*ld]`, sparse `f[h + n*ld + k*ld*N]`.
  }];
}

def Stn_TempType : Stn_ShapedFieldType<"Temp", "temp"> {
  let summary = "a value-semantic temporary field computed by stn.apply";
  let description = [{
    A temporary is the result of an application over a domain. Whether it is
    recomputed, kept in registers or materialised in memory is decided by the
    optimisation passes, not by the program.
  }];
}

def Stn_PointType : Stn_Type<"Point", "point"> {
  let summary = "a horizontal grid point (index) of one location";
  let description = [{
    The current point of an application, or a neighbour of it. A neighbour
    through a connectivity that may hold `-1` can be missing: loads at a
    missing point give 0.
  }];
  let parameters = (ins "GridLocation":$location);
  let assemblyFormat = "`<` $location `>`";
}

def Stn_PointsType : Stn_Type<"Points", "points"> {
  let summary = "a run-time list of (point, level) pairs of one location";
  let description = [{
    `!stn.points<Cell>` is a program parameter: a list of distinct cells, each
    with a full level, given at run time (ICON's index lists, e.g. its steep
    points). An application or a kernel `on Cell at %list` runs once per entry
    of the list and writes only there.
  }];
  let parameters = (ins "GridLocation":$location);
  let assemblyFormat = "`<` $location `>`";
}

def Stn_RowType : Stn_Type<"Row", "row"> {
  let summary = "scratch values, one per point of a work item's point loop (loop form)";
  let description = [{
    `!stn.row<128 x f64>` holds one `f64` per point of a CPU work item (at
    most `size` points). `stn-carry-levels` keeps in it what one level of the
    points computed for the next level. Private to the work item.
  }];
  let parameters = (ins "int64_t":$size, "mlir::Type":$elementType);
  let assemblyFormat = "`<` $size `x` $elementType `>`";
}

def Stn_FieldLike : AnyTypeOf<[Stn_FieldType, Stn_TempType]>;

#endif // FUSEC_IR_STNTYPES_TD
