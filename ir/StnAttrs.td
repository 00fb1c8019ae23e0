//===- StnAttrs.td - stn enums and attributes --------------*- tablegen -*-===//

#ifndef FUSEC_IR_STNATTRS_TD
#define FUSEC_IR_STNATTRS_TD

include "mlir/IR/EnumAttr.td"
include "ir/StnDialect.td"

def Stn_GridLocation : I32EnumAttr<"GridLocation",
    "horizontal location of a grid point", [
      I32EnumAttrCase<"Cell", 0>,
      I32EnumAttrCase<"Edge", 1>,
      I32EnumAttrCase<"Vertex", 2>]> {
  let cppNamespace = "::fusec::stn";
}

// How many levels a field has: none (horizontal only), full levels (nlev) or
// half levels (nlev + 1, ICON's interface levels).
def Stn_VerticalKind : I32EnumAttr<"VerticalKind", "vertical extent of a field", [
      I32EnumAttrCase<"None", 0>,
      I32EnumAttrCase<"Full", 1, "K">,
      I32EnumAttrCase<"Half", 2, "KHalf">]> {
  let cppNamespace = "::fusec::stn";
}

def Stn_ReduceKind : I32EnumAttr<"ReduceKind", "fold over neighbours", [
      I32EnumAttrCase<"Sum", 0, "sum">,
      I32EnumAttrCase<"Min", 1, "min">,
      I32EnumAttrCase<"Max", 2, "max">,
      I32EnumAttrCase<"Prod", 3, "prod">]> {
  let cppNamespace = "::fusec::stn";
}

def Stn_Intent : I32EnumAttr<"Intent", "how a program uses a field parameter", [
      I32EnumAttrCase<"In", 0, "in">,
      I32EnumAttrCase<"Out", 1, "out">,
      I32EnumAttrCase<"InOut", 2, "inout">]> {
  let cppNamespace = "::fusec::stn";
}

#endif // FUSEC_IR_STNATTRS_TD
