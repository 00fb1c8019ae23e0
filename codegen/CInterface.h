//===- CInterface.h - the extern "C" functions of a program -------*- C++ -*-===//
//
// One description of each program's C interface, read by the header, the
// Fortran module and both implementations, so they cannot disagree. Every
// instance of a program (one per grid, nlev and stream) is an opaque handle
// that owns all its state, so instances never share anything:
//
//   typedef struct P_handle P_handle;
//   int  P_create(const fusec_mesh *mesh, int32_t nlev, void *stream,
//                 P_handle **handle);
//   int  P_create_with_layout(const fusec_mesh *mesh, int32_t nlev,
//                             const fusec_layout *layout, void *stream,
//                             P_handle **handle);
//   int  P_run(P_handle *handle,
//              <fields as pointers, `in` ones to const; scalars by value;
//               point lists as `int32_t L_count, const int32_t *L_cell,
//               const int32_t *L_level`>);
//   int  P_run_and_verify(P_handle *handle, <P_run's parameters, fields to const>,
//                         <const pointer `<out>_before` per out/inout field>,
//                         const fusec_tolerances *tolerances);
//   void P_destroy(P_handle *handle);
//   const char *P_error_message(int status);
//   void P_set_exchange_callback(P_handle *handle, fusec_exchange_callback callback,
//                                void *user_data);
//   void P_set_verification_callback(P_handle *handle,
//                                    fusec_verification_callback callback,
//                                    void *user_data);
//   void P_enable_timers(P_handle *handle, int enabled);
//   int  P_write_metrics(const P_handle *handle, const char *path);
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_CINTERFACE_H
#define FUSEC_CODEGEN_CINTERFACE_H

#include "ir/StnOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace fusec::codegen {

/// The C arguments of a point list (`!stn.points`), at its position among
/// P_run's parameters: `int32_t count, const int32_t *cell, const int32_t
/// *level`, entry i being (cell[i], level[i]) (0-based flat cell index and level).
struct PointListArguments {
  std::string count, cell, level;
};

/// A parameter of P_run.
struct RunParameter {
  std::string name;       ///< C identifier (a point list's: the stem of its arguments' names)
  std::string sourceName; ///< the program's `stn.name`, or `name`
  mlir::Type type;        ///< field type, points type or scalar type
  bool isField = false;
  bool isPointList = false;
  bool isConst = false; ///< `in` fields are pointers to const
  /// A point list's C arguments; empty otherwise.
  PointListArguments list;
  /// P_run_and_verify's copy of an output field before the run ("vn_before");
  /// empty for inputs and scalars.
  std::string before;

  /// `out` and `inout` fields: what P_run_and_verify compares.
  bool isOutput() const { return isField && !isConst; }
  /// The names of the C arguments it is passed as: `name`, or a point list's three.
  std::vector<std::string> cArguments() const;
};

struct ProgramInterface {
  stn::ProgramOp program;
  std::string name;   ///< the program symbol, a C identifier
  std::string handle; ///< the opaque type of an instance, "P_handle"
  std::string create, createWithLayout, run, runAndVerify, destroy, errorMessage,
      setExchangeCallback, setVerificationCallback, enableTimers, writeMetrics;
  std::vector<RunParameter> parameters;

  /// `P_run`'s parameter at program argument `index`.
  const RunParameter &parameter(unsigned index) const { return parameters[index]; }
  /// Every C function of the program, in declaration order.
  std::vector<const std::string *> functions() const;
};

/// The programs of a module.
struct ModuleInterface {
  /// The module's name as part of identifiers ("programs" when unnamed).
  std::string name;
  std::vector<ProgramInterface> programs;
};

/// The interfaces of every program, in module order. Fails with a diagnostic
/// when a program's name is not a C identifier or two programs' functions or
/// handle types would share a name.
mlir::FailureOr<std::vector<ProgramInterface>> describeInterfaces(mlir::ModuleOp module);

/// describeInterfaces plus the module's name.
mlir::FailureOr<ModuleInterface> describeModule(mlir::ModuleOp module);

/// A C parameter: "const double *vn", "double s", ...
struct CDeclaration {
  std::string type; ///< pointers end in '*'
  std::string name;

  /// `type name`, the name in a comment when `unnamed` (-Wunused-parameter).
  std::string text(bool unnamed = false) const;
};

/// The C parameters `parameter` is passed as, one per cArguments();
/// `asConst` makes a field pointer const.
std::vector<CDeclaration> cDeclarations(const RunParameter &parameter, bool asConst = false);

/// The prototypes (without ';').
std::string createPrototype(const ProgramInterface &interface);
std::string createWithLayoutPrototype(const ProgramInterface &interface);
std::string runPrototype(const ProgramInterface &interface);
std::string runAndVerifyPrototype(const ProgramInterface &interface);
std::string destroyPrototype(const ProgramInterface &interface);
std::string errorMessagePrototype(const ProgramInterface &interface);
std::string setExchangeCallbackPrototype(const ProgramInterface &interface);
std::string setVerificationCallbackPrototype(const ProgramInterface &interface);
std::string enableTimersPrototype(const ProgramInterface &interface);
std::string writeMetricsPrototype(const ProgramInterface &interface);

/// One line per parameter ("vn: Edge x K x f64, in"), for comments.
std::vector<std::string> describeParameters(const ProgramInterface &interface);

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_CINTERFACE_H
