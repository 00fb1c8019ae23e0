//===- DescribeProgram.cpp - a program's signature from its stn.program ---===//
//
// The only part of the signature model that touches MLIR, kept apart so that
// GPU bundles (fusec-bench pack) compile the rest without it.
//
//===----------------------------------------------------------------------===//

#include "ProgramSignature.h"

#include "ir/StnOps.h"

namespace fusec::bench {

static std::optional<DType> fieldElement(mlir::Type type) {
  if (type.isF64())
    return DType::Float64;
  if (type.isF32())
    return DType::Float32;
  if (type.isSignlessInteger(32))
    return DType::Int32;
  if (type.isSignlessInteger(1))
    return DType::Bool;
  return std::nullopt;
}

static std::optional<ScalarArgument::Type> scalarType(mlir::Type type) {
  if (type.isF64())
    return ScalarArgument::Type::F64;
  if (type.isF32())
    return ScalarArgument::Type::F32;
  if (type.isSignlessInteger(32))
    return ScalarArgument::Type::I32;
  if (type.isSignlessInteger(64))
    return ScalarArgument::Type::I64;
  if (type.isSignlessInteger(1))
    return ScalarArgument::Type::Bool;
  return std::nullopt;
}

Result<ProgramSignature> describeProgram(mlir::Operation *operation) {
  auto program = mlir::cast<stn::ProgramOp>(operation);
  ProgramSignature signature;
  signature.name = program.getSymName().str();
  for (auto [index, type] : llvm::enumerate(program.getArgumentTypes())) {
    Parameter parameter;
    parameter.name = program.getArgName(index).str();
    if (parameter.name.empty())
      parameter.name = "arg" + std::to_string(index);
    auto unsupported = [&](mlir::Type what) {
      std::string text;
      llvm::raw_string_ostream os(text);
      what.print(os);
      return Status::failure("program '" + signature.name + "': parameter '" + parameter.name +
                             "' has type " + os.str() + ", which fusec-bench cannot pass");
    };
    if (auto field = mlir::dyn_cast<stn::FieldType>(type)) {
      std::optional<DType> dtype = fieldElement(field.getElementType());
      if (!dtype)
        return unsupported(type);
      parameter.kind = ArgumentKind::Field;
      parameter.intent = Parameter::Intent(static_cast<int>(program.getArgIntent(index)));
      if (field.getLocation())
        parameter.location = Location(static_cast<int>(*field.getLocation()));
      parameter.neighbors = static_cast<int32_t>(field.getSparseSize());
      parameter.vertical = Parameter::Vertical(static_cast<int>(field.getVertical()));
      parameter.dtype = *dtype;
      if (!signature.outputLocation && parameter.isOutput() && parameter.location)
        signature.outputLocation = parameter.location;
    } else if (auto list = mlir::dyn_cast<stn::PointsType>(type)) {
      parameter.kind = ArgumentKind::Points;
      parameter.location = Location(static_cast<int>(list.getLocation()));
      parameter.vertical = Parameter::Vertical::Full;
    } else {
      std::optional<ScalarArgument::Type> scalar = scalarType(type);
      if (!scalar)
        return unsupported(type);
      parameter.scalarType = *scalar;
    }
    signature.parameters.push_back(std::move(parameter));
  }
  return signature;
}

} // namespace fusec::bench
