//===- CInterface.h - the extern "C" functions of a program -------*- C++ -*-===//
//
// One description of each program's C interface, read by the header, the
// Fortran module and both implementations, so they cannot disagree:
//
//   int  P_setup(const fusec_mesh *mesh, int32_t nlev, void *stream);
//   int  P_run(<fields as pointers, `in` ones to const; scalars by value>);
//   void P_free(void);
//   const char *P_error_message(int status);
//   void P_set_exchange_callback(fusec_exchange_callback callback, void *user_data);
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_CINTERFACE_H
#define FUSEC_CODEGEN_CINTERFACE_H

#include "ir/StnOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace fusec::codegen {

/// A parameter of P_run.
struct RunParameter {
  std::string name;       ///< C identifier
  std::string sourceName; ///< the program's `stn.name`, or `name`
  mlir::Type type;        ///< field type or scalar type
  bool isField = false;
  bool isConst = false; ///< `in` fields are pointers to const
};

struct ProgramInterface {
  stn::ProgramOp program;
  std::string name; ///< the program symbol, a C identifier
  std::string setup, run, free, errorMessage, setExchangeCallback;
  std::vector<RunParameter> parameters;

  /// `P_run`'s parameter at program argument `index`.
  const RunParameter &parameter(unsigned index) const { return parameters[index]; }
};

/// The interfaces of every program, in module order. Fails with a diagnostic
/// when a program's name is not a C identifier or two programs' functions
/// would share a name.
mlir::FailureOr<std::vector<ProgramInterface>> describeInterfaces(mlir::ModuleOp module);

/// "const double *vn", "double s", ...
std::string cDeclaration(const RunParameter &parameter);

/// The five prototypes (without ';'), in the order above.
std::string setupPrototype(const ProgramInterface &interface);
std::string runPrototype(const ProgramInterface &interface);
std::string freePrototype(const ProgramInterface &interface);
std::string errorMessagePrototype(const ProgramInterface &interface);
std::string setExchangeCallbackPrototype(const ProgramInterface &interface);

/// One line per parameter ("vn: Edge x K x f64, in"), for comments.
std::vector<std::string> describeParameters(const ProgramInterface &interface);

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_CINTERFACE_H
