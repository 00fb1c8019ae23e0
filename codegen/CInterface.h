//===- CInterface.h - the extern "C" functions of a program -------*- C++ -*-===//
//
// One description of each program's C interface, read by the header, the
// Fortran module and both implementations, so they cannot disagree:
//
//   int  P_setup(const fusec_mesh *mesh, int32_t nlev, void *stream);
//   int  P_setup_with_layout(const fusec_mesh *mesh, int32_t nlev,
//                            const fusec_layout *layout, void *stream);
//   int  P_run(<fields as pointers, `in` ones to const; scalars by value>);
//   int  P_run_and_verify(<P_run's parameters, fields to const>,
//                         <const pointer `<out>_before` per out/inout field>,
//                         const fusec_tolerances *tolerances);
//   void P_free(void);
//   const char *P_error_message(int status);
//   void P_set_exchange_callback(fusec_exchange_callback callback, void *user_data);
//   void P_set_verification_callback(fusec_verification_callback callback,
//                                    void *user_data);
//
// and, once per module M (a file), the timers of all its programs:
//
//   void fusec_M_enable_timers(int enabled);
//   int  fusec_M_write_metrics(const char *path);
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
  /// P_run_and_verify's copy of an output field before the run ("vn_before");
  /// empty for inputs and scalars.
  std::string before;

  /// `out` and `inout` fields: what P_run_and_verify compares.
  bool isOutput() const { return isField && !isConst; }
};

struct ProgramInterface {
  stn::ProgramOp program;
  std::string name; ///< the program symbol, a C identifier
  std::string setup, setupWithLayout, run, runAndVerify, free, errorMessage, setExchangeCallback,
      setVerificationCallback;
  std::vector<RunParameter> parameters;

  /// `P_run`'s parameter at program argument `index`.
  const RunParameter &parameter(unsigned index) const { return parameters[index]; }
  /// Every C function of the program, in declaration order.
  std::vector<const std::string *> functions() const;
};

/// The programs of a module and the functions it has once.
struct ModuleInterface {
  /// The module's name as part of C identifiers ("programs" when unnamed).
  std::string name;
  std::string enableTimers, writeMetrics;
  std::vector<ProgramInterface> programs;
};

/// The interfaces of every program, in module order. Fails with a diagnostic
/// when a program's name is not a C identifier or two programs' functions
/// would share a name.
mlir::FailureOr<std::vector<ProgramInterface>> describeInterfaces(mlir::ModuleOp module);

/// describeInterfaces plus the module's own functions, which must not share a
/// name with a program's.
mlir::FailureOr<ModuleInterface> describeModule(mlir::ModuleOp module);

/// "const double *vn", "double s", ...; `asConst` makes a field pointer const.
std::string cDeclaration(const RunParameter &parameter, bool asConst = false);

/// The prototypes (without ';').
std::string setupPrototype(const ProgramInterface &interface);
std::string setupWithLayoutPrototype(const ProgramInterface &interface);
std::string runPrototype(const ProgramInterface &interface);
std::string runAndVerifyPrototype(const ProgramInterface &interface);
std::string freePrototype(const ProgramInterface &interface);
std::string errorMessagePrototype(const ProgramInterface &interface);
std::string setExchangeCallbackPrototype(const ProgramInterface &interface);
std::string setVerificationCallbackPrototype(const ProgramInterface &interface);
std::string enableTimersPrototype(const ModuleInterface &module);
std::string writeMetricsPrototype(const ModuleInterface &module);

/// One line per parameter ("vn: Edge x K x f64, in"), for comments.
std::vector<std::string> describeParameters(const ProgramInterface &interface);

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_CINTERFACE_H
