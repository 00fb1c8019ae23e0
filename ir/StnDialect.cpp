//===- StnDialect.cpp - the stn dialect -----------------------------------===//

#include "ir/StnDialect.h"
#include "ir/StnOps.h"
#include "ir/StnTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

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

LogicalResult StnDialect::verifyOperationAttribute(Operation *op, NamedAttribute attribute) {
  if (attribute.getName() == kSimdAttr) {
    if (!isa<scf::ForOp>(op) || !isa<UnitAttr>(attribute.getValue()) ||
        !op->getParentOfType<KernelOp>())
      return op->emitError() << "'" << kSimdAttr << "' marks an scf.for inside a kernel";
    return success();
  }
  if (attribute.getName() == kBlendAttr) {
    auto loop = op->getParentOfType<scf::ForOp>();
    if (!isa<arith::SelectOp>(op) || !isa<UnitAttr>(attribute.getValue()) || !loop ||
        !loop->hasAttr(kSimdAttr))
      return op->emitError() << "'" << kBlendAttr << "' marks an arith.select in an '"
                             << kSimdAttr << "' loop";
    return success();
  }
  if (attribute.getName() == kLayoutAttr) {
    auto layout = dyn_cast<StringAttr>(attribute.getValue());
    if (!isa<ModuleOp>(op) || !layout || layout.getValue() != kColumnsLayout)
      return op->emitError() << "'" << kLayoutAttr << "' must be \"" << kColumnsLayout
                             << "\" on a module";
    auto target = op->getAttrOfType<StringAttr>(kTargetAttr);
    if (!target || target.getValue() != "cpp")
      return op->emitError() << "the \"" << kColumnsLayout
                             << "\" layout is for the C++ backend: it needs '" << kTargetAttr
                             << "' = \"cpp\"";
    return success();
  }
  if (attribute.getName() != kTargetAttr)
    return op->emitError() << "unknown attribute '" << attribute.getName().getValue()
                           << "' of the stn dialect";
  auto target = dyn_cast<StringAttr>(attribute.getValue());
  if (!isa<ModuleOp>(op) || !target || (target.getValue() != "cpp" && target.getValue() != "cuda"))
    return op->emitError() << "'" << kTargetAttr
                           << "' must be \"cpp\" or \"cuda\" on a module";
  return success();
}

void StnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ir/StnOps.cpp.inc"
      >();
  registerTypes();
}
