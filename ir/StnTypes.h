//===- StnTypes.h - stn types and enums -------------------------*- C++ -*-===//

#ifndef FUSEC_IR_STNTYPES_H
#define FUSEC_IR_STNTYPES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include "ir/StnEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/StnTypes.h.inc"

namespace fusec::stn {

/// Fields and temporaries share their shape parameters.
struct FieldShape {
  std::optional<GridLocation> location;
  llvm::StringRef sparse;
  int64_t sparseSize = 0;
  VerticalKind vertical = VerticalKind::None;
  mlir::Type elementType;

  static FieldShape of(mlir::Type fieldOrTemp);
};

/// Element type of a field or temporary.
mlir::Type getElementType(mlir::Type fieldOrTemp);

/// The temporary type with the same shape as `field` (without sparse dimension).
TempType getTempTypeLike(mlir::Type fieldOrTemp);

/// "Cell", "Edge", "Vertex".
llvm::StringRef locationName(GridLocation loc);

} // namespace fusec::stn

#endif // FUSEC_IR_STNTYPES_H
