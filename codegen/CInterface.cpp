//===- CInterface.cpp - the extern "C" functions of a program -------------===//

#include "codegen/CInterface.h"

#include "codegen/CEmitterCommon.h"
#include "codegen/NameTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace fusec::stn;

namespace fusec::codegen {

static RunParameter describeParameter(ProgramOp program, unsigned index, NameTable &names) {
  RunParameter parameter;
  StringRef sourceName = program.getArgName(index);
  std::string fallback = "arg" + std::to_string(index);
  parameter.name = names.unique(sourceName.empty() ? StringRef(fallback) : sourceName);
  parameter.sourceName = sourceName.empty() ? parameter.name : sourceName.str();
  parameter.type = program.getArgumentTypes()[index];
  parameter.isField = isa<FieldType>(parameter.type);
  parameter.isPointList = isa<PointsType>(parameter.type);
  parameter.isConst = parameter.isField && program.getArgIntent(index) == Intent::In;
  if (parameter.isPointList)
    parameter.list = {names.unique(parameter.name + "_count"),
                      names.unique(parameter.name + "_cell"),
                      names.unique(parameter.name + "_level")};
  return parameter;
}

std::vector<std::string> RunParameter::cArguments() const {
  if (isPointList)
    return {list.count, list.cell, list.level};
  return {name};
}

std::vector<const std::string *> ProgramInterface::functions() const {
  return {&create,
          &createWithLayout,
          &run,
          &runAndVerify,
          &destroy,
          &errorMessage,
          &setExchangeCallback,
          &setVerificationCallback,
          &enableTimers,
          &writeMetrics};
}

FailureOr<std::vector<ProgramInterface>> describeInterfaces(ModuleOp module) {
  std::vector<ProgramInterface> interfaces;
  llvm::StringMap<std::string> owners; // C function name -> program that defines it
  for (ProgramOp program : module.getOps<ProgramOp>()) {
    ProgramInterface interface;
    interface.program = program;
    interface.name = program.getSymName().str();
    if (!isCIdentifier(interface.name))
      return program.emitError() << "program name '" << interface.name
                                 << "' is not a C identifier, so it cannot name C functions";
    interface.handle = interface.name + "_handle";
    interface.create = interface.name + "_create";
    interface.createWithLayout = interface.name + "_create_with_layout";
    interface.run = interface.name + "_run";
    interface.runAndVerify = interface.name + "_run_and_verify";
    interface.destroy = interface.name + "_destroy";
    interface.errorMessage = interface.name + "_error_message";
    interface.setExchangeCallback = interface.name + "_set_exchange_callback";
    interface.setVerificationCallback = interface.name + "_set_verification_callback";
    interface.enableTimers = interface.name + "_enable_timers";
    interface.writeMetrics = interface.name + "_write_metrics";
    std::vector<const std::string *> declared = interface.functions();
    declared.push_back(&interface.handle);
    for (const std::string *function : declared) {
      auto [it, inserted] = owners.try_emplace(*function, interface.name);
      if (!inserted)
        return program.emitError() << "programs '" << it->second << "' and '" << interface.name
                                   << "' would both define the C name '" << *function << "'";
    }
    NameTable names;
    // P_run and P_run_and_verify declare these where parameters are visible;
    // `handle` is their first parameter and `instance` the state it points to.
    for (StringRef local :
         {"rc", "exchanged", "timed", "verifier", "tolerances", "handle", "instance"})
      names.reserve(local);
    for (unsigned i = 0, e = program.getNumArguments(); i < e; ++i)
      interface.parameters.push_back(describeParameter(program, i, names));
    // After every parameter, so that a copy never takes a parameter's name.
    for (RunParameter &parameter : interface.parameters)
      if (parameter.isOutput())
        parameter.before = names.unique(parameter.name + "_before");
    interfaces.push_back(std::move(interface));
  }
  return interfaces;
}

/// The module's name as part of an identifier: letters, digits and '_'.
static std::string identifierPart(StringRef name) {
  std::string part;
  for (char c : name)
    part.push_back(llvm::isAlnum(c) ? c : '_');
  return part;
}

FailureOr<ModuleInterface> describeModule(ModuleOp module) {
  FailureOr<std::vector<ProgramInterface>> programs = describeInterfaces(module);
  if (failed(programs))
    return failure();
  ModuleInterface interface;
  interface.name = identifierPart(module.getSymName() ? *module.getSymName() : "programs");
  interface.programs = std::move(*programs);
  return interface;
}

std::string CDeclaration::text(bool unnamed) const {
  std::string shownName = unnamed ? "/*" + name + "*/" : name;
  return type + (type.back() == '*' ? "" : " ") + shownName;
}

std::vector<CDeclaration> cDeclarations(const RunParameter &parameter, bool asConst) {
  if (parameter.isPointList)
    return {{"int32_t", parameter.list.count},
            {"const int32_t *", parameter.list.cell},
            {"const int32_t *", parameter.list.level}};
  if (!parameter.isField)
    return {{*cScalarType(parameter.type), parameter.name}};
  std::string element = *cScalarType(getElementType(parameter.type));
  return {{(parameter.isConst || asConst ? "const " : "") + element + " *", parameter.name}};
}

/// "P_handle *handle", the first parameter of every function of an instance.
static std::string handleDeclaration(const ProgramInterface &interface) {
  return interface.handle + " *handle";
}

std::string createPrototype(const ProgramInterface &interface) {
  return "int " + interface.create + "(const fusec_mesh *mesh, int32_t nlev, void *stream, " +
         interface.handle + " **handle)";
}

std::string createWithLayoutPrototype(const ProgramInterface &interface) {
  return "int " + interface.createWithLayout +
         "(const fusec_mesh *mesh, int32_t nlev, const fusec_layout *layout, void *stream, " +
         interface.handle + " **handle)";
}

std::string runPrototype(const ProgramInterface &interface) {
  std::vector<std::string> declarations{handleDeclaration(interface)};
  for (const RunParameter &parameter : interface.parameters)
    for (const CDeclaration &declaration : cDeclarations(parameter))
      declarations.push_back(declaration.text());
  return "int " + interface.run + "(" + llvm::join(declarations, ", ") + ")";
}

std::string runAndVerifyPrototype(const ProgramInterface &interface) {
  std::vector<std::string> declarations{handleDeclaration(interface)};
  for (const RunParameter &parameter : interface.parameters)
    for (const CDeclaration &declaration : cDeclarations(parameter, /*asConst=*/true))
      declarations.push_back(declaration.text());
  for (const RunParameter &parameter : interface.parameters)
    if (parameter.isOutput())
      declarations.push_back("const " + *cScalarType(getElementType(parameter.type)) + " *" +
                             parameter.before);
  declarations.push_back("const fusec_tolerances *tolerances");
  return "int " + interface.runAndVerify + "(" + llvm::join(declarations, ", ") + ")";
}

std::string destroyPrototype(const ProgramInterface &interface) {
  return "void " + interface.destroy + "(" + handleDeclaration(interface) + ")";
}

std::string errorMessagePrototype(const ProgramInterface &interface) {
  return "const char *" + interface.errorMessage + "(int status)";
}

std::string setExchangeCallbackPrototype(const ProgramInterface &interface) {
  return "void " + interface.setExchangeCallback + "(" + handleDeclaration(interface) +
         ", fusec_exchange_callback callback, void *user_data)";
}

std::string setVerificationCallbackPrototype(const ProgramInterface &interface) {
  return "void " + interface.setVerificationCallback + "(" + handleDeclaration(interface) +
         ", fusec_verification_callback callback, void *user_data)";
}

std::string enableTimersPrototype(const ProgramInterface &interface) {
  return "void " + interface.enableTimers + "(" + handleDeclaration(interface) + ", int enabled)";
}

std::string writeMetricsPrototype(const ProgramInterface &interface) {
  return "int " + interface.writeMetrics + "(const " + handleDeclaration(interface) +
         ", const char *path)";
}

/// "Edge x K x f64" for !stn.field<Edge x K x f64>, "Cell" for !stn.points<Cell>.
static std::string shapeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  StringRef shape = text;
  if (shape.consume_front("!stn.field<") || shape.consume_front("!stn.points<"))
    shape.consume_back(">");
  return shape.str();
}

std::vector<std::string> describeParameters(const ProgramInterface &interface) {
  std::vector<std::string> lines;
  ProgramOp program = interface.program;
  for (auto [index, parameter] : llvm::enumerate(interface.parameters)) {
    std::string line = parameter.sourceName + ": " + shapeText(parameter.type);
    if (parameter.isField)
      line += ", " + stringifyIntent(program.getArgIntent(index)).str();
    if (parameter.isPointList)
      line += " x K point list (" + parameter.list.count + ", " + parameter.list.cell + "[], " +
              parameter.list.level + "[])";
    lines.push_back(line);
  }
  return lines;
}

} // namespace fusec::codegen
