//===- Interpreter.h - reference interpreter of stn IR ------------*- C++ -*-===//
//
// The oracle every backend and every pass is checked against: it executes a
// `stn.program` on host buffers, in program form (stn.apply / stn.store) and
// in kernel form (stn.kernel / stn.write) alike. Semantics: docs/interpreter.md.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_INTERPRETER_INTERPRETER_H
#define FUSEC_CODEGEN_INTERPRETER_INTERPRETER_H

#include "fusec/mesh.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fusec {

namespace interp {
struct CompiledProgram;
} // namespace interp

/// A host buffer holding one field. Its layout follows from the parameter's
/// `!stn.field` type and the mesh: `f[h + k*ld]`, sparse `f[h + n*ld + k*ld*N]`,
/// vertical-only `f[k]`, with `ld` the number of points of the location and
/// nlev (full) or nlev+1 (half) levels.
struct FieldView {
  /// Element types; i1 fields hold one byte per value (0 or 1, `bool` or `uint8_t`).
  enum class Element { F64, F32, I64, I32, Bool };

  void *data = nullptr;
  Element element = Element::F64;
  /// Number of elements the buffer holds (checked against the field's shape).
  size_t size = 0;
};

/// One program argument: a field buffer, a scalar or a point list, matched
/// against the parameter's type (f64/f32 take `real`, iN take `integer`, i1
/// takes `boolean`, `!stn.points` takes `points`).
struct Argument {
  enum class Kind { Field, Real, Integer, Boolean, Points };

  Kind kind = Kind::Real;
  FieldView view;
  double realValue = 0.0;
  int64_t integerValue = 0;
  bool booleanValue = false;
  /// Points: entry i is point `listPoints[i]` of the list's location (its flat
  /// index) at level `listLevels[i]`; the arrays must outlive the run.
  llvm::ArrayRef<int32_t> listPoints, listLevels;

  static Argument of(FieldView view);
  static Argument field(llvm::MutableArrayRef<double> data);
  static Argument field(llvm::MutableArrayRef<float> data);
  static Argument field(llvm::MutableArrayRef<int64_t> data);
  static Argument field(llvm::MutableArrayRef<int32_t> data);
  static Argument field(llvm::MutableArrayRef<uint8_t> data);
  static Argument field(llvm::MutableArrayRef<bool> data);
  static Argument real(double value);
  static Argument integer(int64_t value);
  static Argument boolean(bool value);
  /// Binding checks every entry: a point of the location, a level below nlev,
  /// no (point, level) pair twice.
  static Argument points(llvm::ArrayRef<int32_t> point, llvm::ArrayRef<int32_t> level);
};

/// A field handed to the exchange callback at `stn.exchange`.
struct ExchangedField {
  /// The parameter's `stn.name`, or the `stn.alloc` name.
  llvm::StringRef name;
  FieldView view;
};

using ExchangeCallback = std::function<void(llvm::ArrayRef<ExchangedField>)>;

/// What the calls of one kernel (`stn.kernel`, by its name) read and wrote: per call, each
/// element of every field and temporary counted once however often it was accessed, plus a
/// point list it runs on (two i32 per entry); neighbour tables are not counted. Summed over
/// the calls.
struct KernelTraffic {
  std::string name;
  uint64_t calls = 0;
  uint64_t bytesRead = 0, bytesWritten = 0;
  uint64_t bytes() const { return bytesRead + bytesWritten; }
};

/// What one run read and wrote of a field argument, each element counted once however often
/// it was accessed: the traffic no schedule of the program can avoid.
struct FieldTraffic {
  uint64_t elementsRead = 0, elementsWritten = 0;
  uint64_t elementBytes = 0;
  uint64_t bytes() const { return (elementsRead + elementsWritten) * elementBytes; }
};

class Interpreter {
public:
  /// `module` and the mesh's tables must outlive the interpreter. Programs are
  /// compiled on their first run and cached: after changing the module (running
  /// a pass), use a new interpreter.
  Interpreter(mlir::ModuleOp module, const fusec_mesh &mesh, int nlev);
  ~Interpreter();
  Interpreter(const Interpreter &) = delete;
  Interpreter &operator=(const Interpreter &) = delete;

  /// Called at every `stn.exchange` with its fields (default: nothing happens).
  void setExchangeCallback(ExchangeCallback callback);

  /// Runs `program` on `args`, updating field buffers in place. On failure,
  /// `error` says what went wrong (unsupported IR, mismatched arguments,
  /// out-of-range accesses, ...); buffers may then be partly updated.
  mlir::LogicalResult run(llvm::StringRef program, llvm::ArrayRef<Argument> args,
                          std::string &error);

  /// With tracking on, every run records which elements of each field argument it read and
  /// wrote (a byte per element while it runs); `lastTraffic` then has one entry per argument
  /// of the last successful run (zeros for scalars; a point list it ran on counts as read,
  /// two i32 per entry).
  void setTrafficTracking(bool on) { trackTraffic = on; }
  llvm::ArrayRef<FieldTraffic> lastTraffic() const { return traffic; }

  /// With kernel tracking on, `lastKernelTraffic` has an entry per kernel of the last
  /// successful run, in the order of their first calls (none for programs not in kernel or
  /// loop form).
  void setKernelTrafficTracking(bool on) { trackKernelTraffic = on; }
  llvm::ArrayRef<KernelTraffic> lastKernelTraffic() const { return kernelTraffic; }

  /// The number of elements a buffer of `fieldType` (a `!stn.field`) holds on
  /// this mesh.
  size_t fieldSize(mlir::Type fieldType) const;

private:
  const interp::CompiledProgram *getOrCompile(llvm::StringRef program, std::string &error);

  mlir::ModuleOp module;
  fusec_mesh mesh;
  int nlev;
  ExchangeCallback exchange;
  bool trackTraffic = false, trackKernelTraffic = false;
  std::vector<FieldTraffic> traffic;
  std::vector<KernelTraffic> kernelTraffic;
  llvm::StringMap<std::unique_ptr<interp::CompiledProgram>> compiled;
};

} // namespace fusec

#endif // FUSEC_CODEGEN_INTERPRETER_INTERPRETER_H
