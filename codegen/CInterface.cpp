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
  parameter.isConst = parameter.isField && program.getArgIntent(index) == Intent::In;
  return parameter;
}

std::vector<const std::string *> ProgramInterface::functions() const {
  return {&setup,
          &setupWithLayout,
          &run,
          &runAndVerify,
          &free,
          &errorMessage,
          &setExchangeCallback,
          &setVerificationCallback};
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
    interface.setup = interface.name + "_setup";
    interface.setupWithLayout = interface.name + "_setup_with_layout";
    interface.run = interface.name + "_run";
    interface.runAndVerify = interface.name + "_run_and_verify";
    interface.free = interface.name + "_free";
    interface.errorMessage = interface.name + "_error_message";
    interface.setExchangeCallback = interface.name + "_set_exchange_callback";
    interface.setVerificationCallback = interface.name + "_set_verification_callback";
    for (const std::string *function : interface.functions()) {
      auto [it, inserted] = owners.try_emplace(*function, interface.name);
      if (!inserted)
        return program.emitError() << "programs '" << it->second << "' and '" << interface.name
                                   << "' would both define the C function '" << *function << "'";
    }
    NameTable names;
    // P_run and P_run_and_verify declare these where parameters are visible.
    for (StringRef local : {"rc", "exchanged", "timed", "verifier", "tolerances"})
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
  interface.enableTimers = "fusec_" + interface.name + "_enable_timers";
  interface.writeMetrics = "fusec_" + interface.name + "_write_metrics";
  for (ProgramInterface &program : *programs)
    for (const std::string *function : program.functions())
      if (*function == interface.enableTimers || *function == interface.writeMetrics)
        return program.program.emitError()
               << "program '" << program.name << "' would define the C function '" << *function
               << "', which module '" << interface.name << "' defines for its timers";
  interface.programs = std::move(*programs);
  return interface;
}

std::string cDeclaration(const RunParameter &parameter, bool asConst) {
  if (!parameter.isField)
    return *cScalarType(parameter.type) + " " + parameter.name;
  std::string element = *cScalarType(getElementType(parameter.type));
  return (parameter.isConst || asConst ? "const " : "") + element + " *" + parameter.name;
}

std::string setupPrototype(const ProgramInterface &interface) {
  return "int " + interface.setup + "(const fusec_mesh *mesh, int32_t nlev, void *stream)";
}

std::string setupWithLayoutPrototype(const ProgramInterface &interface) {
  return "int " + interface.setupWithLayout +
         "(const fusec_mesh *mesh, int32_t nlev, const fusec_layout *layout, void *stream)";
}

std::string runPrototype(const ProgramInterface &interface) {
  std::vector<std::string> declarations;
  for (const RunParameter &parameter : interface.parameters)
    declarations.push_back(cDeclaration(parameter));
  std::string list = declarations.empty() ? "void" : llvm::join(declarations, ", ");
  return "int " + interface.run + "(" + list + ")";
}

std::string runAndVerifyPrototype(const ProgramInterface &interface) {
  std::vector<std::string> declarations;
  for (const RunParameter &parameter : interface.parameters)
    declarations.push_back(cDeclaration(parameter, /*asConst=*/true));
  for (const RunParameter &parameter : interface.parameters)
    if (parameter.isOutput())
      declarations.push_back("const " + *cScalarType(getElementType(parameter.type)) + " *" +
                             parameter.before);
  declarations.push_back("const fusec_tolerances *tolerances");
  return "int " + interface.runAndVerify + "(" + llvm::join(declarations, ", ") + ")";
}

std::string freePrototype(const ProgramInterface &interface) {
  return "void " + interface.free + "(void)";
}

std::string errorMessagePrototype(const ProgramInterface &interface) {
  return "const char *" + interface.errorMessage + "(int status)";
}

std::string setExchangeCallbackPrototype(const ProgramInterface &interface) {
  return "void " + interface.setExchangeCallback +
         "(fusec_exchange_callback callback, void *user_data)";
}

std::string setVerificationCallbackPrototype(const ProgramInterface &interface) {
  return "void " + interface.setVerificationCallback +
         "(fusec_verification_callback callback, void *user_data)";
}

std::string enableTimersPrototype(const ModuleInterface &module) {
  return "void " + module.enableTimers + "(int enabled)";
}

std::string writeMetricsPrototype(const ModuleInterface &module) {
  return "int " + module.writeMetrics + "(const char *path)";
}

/// "Edge x K x f64" for !stn.field<Edge x K x f64>.
static std::string shapeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  StringRef shape = text;
  if (shape.consume_front("!stn.field<"))
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
    lines.push_back(line);
  }
  return lines;
}

} // namespace fusec::codegen
