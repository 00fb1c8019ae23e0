//===- Interpreter.cpp - reference interpreter of stn IR ------------------===//

#include "codegen/interpreter/Interpreter.h"
#include "codegen/interpreter/Bytecode.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
namespace stn = fusec::stn;

namespace fusec {

namespace interp {

int64_t numPoints(const fusec_mesh &mesh, stn::GridLocation location) {
  return mesh.num_points[static_cast<int>(location)];
}

int64_t numLevels(stn::VerticalKind vertical, int nlev) {
  switch (vertical) {
  case stn::VerticalKind::None:
    return 0;
  case stn::VerticalKind::Full:
    return nlev;
  case stn::VerticalKind::Half:
    return nlev + 1;
  }
  llvm_unreachable("unknown vertical kind");
}

} // namespace interp

//===----------------------------------------------------------------------===//
// Argument
//===----------------------------------------------------------------------===//

Argument Argument::of(FieldView view) {
  Argument arg;
  arg.kind = Kind::Field;
  arg.view = view;
  return arg;
}

template <typename T>
static Argument fieldArgument(llvm::MutableArrayRef<T> data, FieldView::Element element) {
  return Argument::of(FieldView{data.data(), element, data.size()});
}

Argument Argument::field(llvm::MutableArrayRef<double> data) {
  return fieldArgument(data, FieldView::Element::F64);
}
Argument Argument::field(llvm::MutableArrayRef<float> data) {
  return fieldArgument(data, FieldView::Element::F32);
}
Argument Argument::field(llvm::MutableArrayRef<int64_t> data) {
  return fieldArgument(data, FieldView::Element::I64);
}
Argument Argument::field(llvm::MutableArrayRef<int32_t> data) {
  return fieldArgument(data, FieldView::Element::I32);
}
Argument Argument::field(llvm::MutableArrayRef<uint8_t> data) {
  return fieldArgument(data, FieldView::Element::Bool);
}
Argument Argument::field(llvm::MutableArrayRef<bool> data) {
  static_assert(sizeof(bool) == 1, "i1 fields hold one byte per value");
  return fieldArgument(data, FieldView::Element::Bool);
}

Argument Argument::real(double value) {
  Argument arg;
  arg.kind = Kind::Real;
  arg.realValue = value;
  return arg;
}

Argument Argument::integer(int64_t value) {
  Argument arg;
  arg.kind = Kind::Integer;
  arg.integerValue = value;
  return arg;
}

Argument Argument::boolean(bool value) {
  Argument arg;
  arg.kind = Kind::Boolean;
  arg.booleanValue = value;
  return arg;
}

Argument Argument::points(llvm::ArrayRef<int32_t> point, llvm::ArrayRef<int32_t> level) {
  Argument arg;
  arg.kind = Kind::Points;
  arg.listPoints = point;
  arg.listLevels = level;
  return arg;
}

//===----------------------------------------------------------------------===//
// Interpreter
//===----------------------------------------------------------------------===//

Interpreter::Interpreter(ModuleOp module, const fusec_mesh &mesh, int nlev)
    : module(module), mesh(mesh), nlev(nlev) {}

Interpreter::~Interpreter() = default;

void Interpreter::setExchangeCallback(ExchangeCallback callback) { exchange = std::move(callback); }

const interp::CompiledProgram *Interpreter::getOrCompile(llvm::StringRef name, std::string &error) {
  if (auto known = compiled.find(name); known != compiled.end())
    return known->second.get();
  if (nlev < 0) {
    error = "nlev is " + std::to_string(nlev) + ", but must not be negative";
    return nullptr;
  }
  auto program = module.lookupSymbol<stn::ProgramOp>(name);
  if (!program) {
    error = "no program '" + name.str() + "' in the module";
    return nullptr;
  }
  std::unique_ptr<interp::CompiledProgram> code =
      interp::compileProgram(program, mesh, nlev, error);
  if (!code)
    return nullptr;
  return (compiled[name] = std::move(code)).get();
}

LogicalResult Interpreter::run(llvm::StringRef program, llvm::ArrayRef<Argument> args,
                               std::string &error) {
  const interp::CompiledProgram *code = getOrCompile(program, error);
  if (!code)
    return failure();
  std::vector<FieldTraffic> counted;
  std::vector<KernelTraffic> countedKernels;
  if (failed(interp::executeProgram(*code, mesh, nlev, args, exchange, error,
                                    trackTraffic ? &counted : nullptr,
                                    trackKernelTraffic ? &countedKernels : nullptr)))
    return failure();
  if (trackTraffic)
    traffic = std::move(counted);
  if (trackKernelTraffic)
    kernelTraffic = std::move(countedKernels);
  return success();
}

size_t Interpreter::fieldSize(Type fieldType) const {
  stn::FieldShape shape = stn::FieldShape::of(fieldType);
  int64_t points = shape.location ? interp::numPoints(mesh, *shape.location) : 1;
  int64_t neighbors = shape.sparse.empty() ? 1 : shape.sparseSize;
  int64_t levels =
      shape.vertical == stn::VerticalKind::None ? 1 : interp::numLevels(shape.vertical, nlev);
  return static_cast<size_t>(points * neighbors * levels);
}

} // namespace fusec
