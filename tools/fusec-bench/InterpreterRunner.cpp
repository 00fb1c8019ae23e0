//===- InterpreterRunner.cpp - running one program on the interpreter ----===//

#include "InterpreterRunner.h"

namespace fusec::bench {

static FieldView::Element interpreterElement(DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return FieldView::Element::F64;
  case DType::Float32:
    return FieldView::Element::F32;
  case DType::Int32:
    return FieldView::Element::I32;
  case DType::Bool:
    return FieldView::Element::Bool;
  }
  return FieldView::Element::F64;
}

Status InterpreterRunner::bind(std::vector<ArgumentValue> &arguments) {
  this->arguments = &arguments;
  bound.clear();
  for (ArgumentValue &value : arguments) {
    if (value.isPoints()) {
      bound.push_back(Argument::points(value.points.points, value.points.levels));
      continue;
    }
    if (value.isField()) {
      FieldView view;
      view.data = value.field.data();
      view.element = interpreterElement(value.field.format().dtype);
      view.size = value.field.size();
      bound.push_back(Argument::of(view));
      continue;
    }
    const ScalarArgument &scalar = value.scalar;
    switch (scalar.type) {
    case ScalarArgument::Type::F64:
    case ScalarArgument::Type::F32:
      bound.push_back(Argument::real(scalar.real));
      break;
    case ScalarArgument::Type::I32:
    case ScalarArgument::Type::I64:
      bound.push_back(Argument::integer(scalar.integer));
      break;
    case ScalarArgument::Type::Bool:
      bound.push_back(Argument::boolean(scalar.boolean));
      break;
    }
  }
  return Status::success();
}

Status InterpreterRunner::run() {
  std::string error;
  if (mlir::failed(interpreter.run(program, bound, error)))
    return Status::failure("the interpreter failed: " + error);
  return Status::success();
}

Status InterpreterRunner::restoreOutputs(const std::vector<ArgumentValue> &initial) {
  copyOutputs(initial, *arguments);
  return Status::success();
}

} // namespace fusec::bench
