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
    interface.run = interface.name + "_run";
    interface.free = interface.name + "_free";
    interface.errorMessage = interface.name + "_error_message";
    interface.setExchangeCallback = interface.name + "_set_exchange_callback";
    for (const std::string *function : {&interface.setup, &interface.run, &interface.free,
                                        &interface.errorMessage, &interface.setExchangeCallback}) {
      auto [it, inserted] = owners.try_emplace(*function, interface.name);
      if (!inserted)
        return program.emitError() << "programs '" << it->second << "' and '" << interface.name
                                   << "' would both define the C function '" << *function << "'";
    }
    NameTable names;
    // P_run declares these inside blocks where parameters are used.
    for (StringRef local : {"rc", "exchanged"})
      names.reserve(local);
    for (unsigned i = 0, e = program.getNumArguments(); i < e; ++i)
      interface.parameters.push_back(describeParameter(program, i, names));
    interfaces.push_back(std::move(interface));
  }
  return interfaces;
}

std::string cDeclaration(const RunParameter &parameter) {
  if (!parameter.isField)
    return *cScalarType(parameter.type) + " " + parameter.name;
  std::string element = *cScalarType(getElementType(parameter.type));
  return (parameter.isConst ? "const " : "") + element + " *" + parameter.name;
}

std::string setupPrototype(const ProgramInterface &interface) {
  return "int " + interface.setup + "(const fusec_mesh *mesh, int32_t nlev, void *stream)";
}

std::string runPrototype(const ProgramInterface &interface) {
  std::vector<std::string> declarations;
  for (const RunParameter &parameter : interface.parameters)
    declarations.push_back(cDeclaration(parameter));
  std::string list = declarations.empty() ? "void" : llvm::join(declarations, ", ");
  return "int " + interface.run + "(" + list + ")";
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
