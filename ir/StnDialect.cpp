//===- StnDialect.cpp - the stn dialect -----------------------------------===//

#include "ir/StnDialect.h"
#include "ir/StnOps.h"
#include "ir/StnTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace fusec::stn;

#include "ir/StnDialect.cpp.inc"

/// Folded `stn.valid` and `stn.image` results are plain `arith` constants.
Operation *StnDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                           Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || !arith::ConstantOp::isBuildableWith(typed, type))
    return nullptr;
  return builder.create<arith::ConstantOp>(loc, type, typed);
}

void StnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ir/StnOps.cpp.inc"
      >();
  registerTypes();
}
