//===- StnTypes.cpp - stn types -------------------------------------------===//

#include "ir/StnTypes.h"
#include "ir/StnDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fusec::stn;

#include "ir/StnEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/StnTypes.cpp.inc"

void StnDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ir/StnTypes.cpp.inc"
      >();
}

namespace fusec::stn {

llvm::StringRef locationName(GridLocation loc) { return stringifyGridLocation(loc); }

FieldShape FieldShape::of(Type type) {
  FieldShape shape;
  if (auto field = dyn_cast<FieldType>(type)) {
    shape = {field.getLocation(), field.getSparse(), field.getSparseSize(),
             field.getVertical(), field.getElementType()};
  } else if (auto temp = dyn_cast<TempType>(type)) {
    shape = {temp.getLocation(), temp.getSparse(), temp.getSparseSize(),
             temp.getVertical(), temp.getElementType()};
  }
  return shape;
}

Type getElementType(Type fieldOrTemp) { return FieldShape::of(fieldOrTemp).elementType; }

TempType getTempTypeLike(Type fieldOrTemp) {
  FieldShape shape = FieldShape::of(fieldOrTemp);
  return TempType::get(fieldOrTemp.getContext(), shape.location, "", 0, shape.vertical,
                       shape.elementType);
}

} // namespace fusec::stn

// Shared syntax: `<` (Location `x`)? (Conn `[` N `]` `x`)? (K|KHalf `x`)? elemType `>`.
static LogicalResult parseShape(AsmParser &parser, FieldShape &shape,
                                std::string &sparseStorage) {
  if (parser.parseLess())
    return failure();
  Builder builder(parser.getContext());
  while (true) {
    llvm::SMLoc loc = parser.getCurrentLocation();
    StringRef word;
    if (parser.parseKeyword(&word))
      return failure();
    if (auto gridLoc = symbolizeGridLocation(word)) {
      if (shape.location || shape.vertical != VerticalKind::None || !sparseStorage.empty())
        return parser.emitError(loc, "the location must come first");
      shape.location = gridLoc;
    } else if (word == "K" || word == "KHalf") {
      if (shape.vertical != VerticalKind::None)
        return parser.emitError(loc, "a field has at most one vertical dimension");
      shape.vertical = word == "K" ? VerticalKind::Full : VerticalKind::Half;
    } else if (succeeded(parser.parseOptionalLSquare())) {
      if (!sparseStorage.empty() || shape.vertical != VerticalKind::None)
        return parser.emitError(loc, "the sparse dimension must follow the location");
      sparseStorage = word.str();
      if (parser.parseInteger(shape.sparseSize) || parser.parseRSquare())
        return failure();
    } else {
      Type element = llvm::StringSwitch<Type>(word)
                         .Case("f64", builder.getF64Type())
                         .Case("f32", builder.getF32Type())
                         .Case("i32", builder.getI32Type())
                         .Case("i64", builder.getI64Type())
                         .Case("i1", builder.getI1Type())
                         .Default(Type());
      if (!element)
        return parser.emitError(loc, "expected a location, a sparse dimension, K, KHalf "
                                     "or an element type (f64, f32, i32, i64, i1), got '")
               << word << "'";
      shape.elementType = element;
      break;
    }
    if (parser.parseKeyword("x"))
      return failure();
  }
  shape.sparse = sparseStorage;
  return parser.parseGreater();
}

static void printShape(AsmPrinter &printer, const FieldShape &shape) {
  printer << "<";
  if (shape.location)
    printer << locationName(*shape.location) << " x ";
  if (!shape.sparse.empty())
    printer << shape.sparse << "[" << shape.sparseSize << "] x ";
  if (shape.vertical != VerticalKind::None)
    printer << stringifyVerticalKind(shape.vertical) << " x ";
  printer << shape.elementType << ">";
}

static LogicalResult verifyShape(function_ref<InFlightDiagnostic()> emitError,
                                 std::optional<GridLocation> location, StringRef sparse,
                                 int64_t sparseSize, VerticalKind vertical, Type elementType,
                                 bool isTemp) {
  if (!location && vertical == VerticalKind::None)
    return emitError() << "a field needs a horizontal location, a vertical dimension or both";
  if (!sparse.empty() && !location)
    return emitError() << "a sparse dimension needs a horizontal location";
  if (!sparse.empty() && sparseSize <= 0)
    return emitError() << "the sparse dimension '" << sparse << "' needs a positive size";
  if (isTemp && !sparse.empty())
    return emitError() << "temporaries cannot have a sparse dimension";
  if (!elementType || !(elementType.isF64() || elementType.isF32() ||
                        elementType.isSignlessInteger(32) ||
                        elementType.isSignlessInteger(64) || elementType.isSignlessInteger(1)))
    return emitError() << "element type must be f64, f32, i32, i64 or i1";
  return success();
}

Type FieldType::parse(AsmParser &parser) {
  FieldShape shape;
  std::string sparse;
  if (failed(parseShape(parser, shape, sparse)))
    return {};
  return FieldType::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                               parser.getContext(), shape.location, shape.sparse,
                               shape.sparseSize, shape.vertical, shape.elementType);
}

void FieldType::print(AsmPrinter &printer) const { printShape(printer, FieldShape::of(*this)); }

LogicalResult FieldType::verify(function_ref<InFlightDiagnostic()> emitError,
                                std::optional<GridLocation> location, StringRef sparse,
                                int64_t sparseSize, VerticalKind vertical, Type elementType) {
  return verifyShape(emitError, location, sparse, sparseSize, vertical, elementType, false);
}

Type TempType::parse(AsmParser &parser) {
  FieldShape shape;
  std::string sparse;
  if (failed(parseShape(parser, shape, sparse)))
    return {};
  return TempType::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                              parser.getContext(), shape.location, shape.sparse,
                              shape.sparseSize, shape.vertical, shape.elementType);
}

void TempType::print(AsmPrinter &printer) const { printShape(printer, FieldShape::of(*this)); }

LogicalResult TempType::verify(function_ref<InFlightDiagnostic()> emitError,
                               std::optional<GridLocation> location, StringRef sparse,
                               int64_t sparseSize, VerticalKind vertical, Type elementType) {
  return verifyShape(emitError, location, sparse, sparseSize, vertical, elementType, true);
}
