//===- CallShim.cpp - one uniform entry point per program -----------------===//

#include "CallShim.h"

#include "codegen/CEmitterCommon.h"
#include "codegen/CInterface.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace fusec::bench {

std::string callShimName(const std::string &program) { return "fusec_bench_call_" + program; }

mlir::FailureOr<std::string> emitCallShims(mlir::ModuleOp module) {
  auto interfaces = codegen::describeInterfaces(module);
  if (mlir::failed(interfaces))
    return mlir::failure();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "\n// fusec-bench: one entry point per program taking its arguments as an array of\n"
        "// pointers (fields: the data; scalars: the value).\n";
  for (const codegen::ProgramInterface &interface : *interfaces) {
    os << "extern \"C\" int " << callShimName(interface.name)
       << "(void *const *arguments) {\n  return " << interface.run << "(";
    std::vector<std::string> arguments;
    for (auto [index, parameter] : llvm::enumerate(interface.parameters)) {
      std::string slot = "arguments[" + std::to_string(index) + "]";
      if (parameter.isField) {
        std::string element = *codegen::cScalarType(stn::getElementType(parameter.type));
        arguments.push_back("static_cast<" + std::string(parameter.isConst ? "const " : "") +
                            element + " *>(" + slot + ")");
      } else {
        arguments.push_back("*static_cast<const " + *codegen::cScalarType(parameter.type) + " *>(" +
                            slot + ")");
      }
    }
    os << llvm::join(arguments, ", ") << ");\n}\n";
  }
  return os.str();
}

} // namespace fusec::bench
