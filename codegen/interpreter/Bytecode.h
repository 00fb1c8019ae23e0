//===- Bytecode.h - the interpreter's compiled form of a program --*- C++ -*-===//
//
// A program is compiled once into blocks of instructions over numbered slots,
// so that executing a region at a point touches no MLIR data structure:
//   - word slots hold scalars, indices and points (one per SSA value),
//   - array slots hold fields and temporaries (one per SSA value),
//   - table slots hold the connectivities the program uses,
//   - list slots hold the point lists the program takes.
// Nested regions (apply and kernel bodies, reductions, scf.if branches) are
// blocks of their own, referred to by index.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_INTERPRETER_BYTECODE_H
#define FUSEC_CODEGEN_INTERPRETER_BYTECODE_H

#include "codegen/interpreter/Interpreter.h"
#include "ir/StnOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace fusec::interp {

using Slot = int32_t;
using ArrayId = int32_t;
using TableId = int32_t;
using BlockId = int32_t;
using RowId = int32_t;
using ListId = int32_t;
constexpr Slot kNoSlot = -1;
constexpr ListId kNoList = -1;
constexpr TableId kNoTable = -1;
constexpr BlockId kEntryBlock = 0;
/// The index of a missing point.
constexpr int64_t kMissing = -1;

/// One scalar value. The member in use follows from the SSA value's type:
/// `f64`, `f32`, or `i` for integers (sign-extended from their width, so an i1
/// `true` is -1, as in MLIR's signed view), indices and points.
union Word {
  double f64;
  float f32;
  int64_t i;

  static Word ofF64(double value) {
    Word word;
    word.f64 = value;
    return word;
  }
  static Word ofF32(float value) {
    Word word;
    word.f32 = value;
    return word;
  }
  static Word ofInt(int64_t value) {
    Word word;
    word.i = value;
    return word;
  }
};

/// The type a scalar op computes in.
struct ScalarType {
  enum class Kind : uint8_t { F64, F32, Int };
  Kind kind = Kind::F64;
  /// Bit width of integers (64 for index).
  unsigned width = 64;

  bool isF32() const { return kind == Kind::F32; }
};

//===----------------------------------------------------------------------===//
// Scalar instructions (program level and regions alike)
//===----------------------------------------------------------------------===//

struct ConstantInstr {
  Slot result;
  Word value;
};

struct CopyInstr {
  Slot result, source;
};

enum class FloatUnaryOp : uint8_t { Neg, Sqrt, Exp, Log, Abs, Floor, Ceil };
struct FloatUnaryInstr {
  FloatUnaryOp op;
  bool isF32;
  Slot result, operand;
};

enum class FloatBinaryOp : uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  MinNum,
  MaxNum,
  Minimum,
  Maximum,
  Pow
};
struct FloatBinaryInstr {
  FloatBinaryOp op;
  bool isF32;
  Slot result, lhs, rhs;
};

struct FloatCompareInstr {
  mlir::arith::CmpFPredicate predicate;
  bool isF32;
  Slot result, lhs, rhs;
};

/// `math.fpowi`: a float raised to an integer power.
struct FloatPowIntInstr {
  bool isF32;
  Slot result, base, exponent;
};

enum class IntBinaryOp : uint8_t { Add, Sub, Mul, DivS, RemS, And, Or, Xor, MinS, MaxS };
struct IntBinaryInstr {
  IntBinaryOp op;
  unsigned width;
  Slot result, lhs, rhs;
};

struct IntCompareInstr {
  mlir::arith::CmpIPredicate predicate;
  unsigned width;
  Slot result, lhs, rhs;
};

struct SelectInstr {
  Slot result, condition, onTrue, onFalse;
};

/// `arith.extf` (f32 -> f64) and `arith.truncf` (f64 -> f32).
struct FloatCastInstr {
  bool toF32;
  Slot result, operand;
};

/// `arith.sitofp`.
struct IntToFloatInstr {
  bool toF32;
  /// `arith.uitofp`: the operand is the unsigned value of its low `sourceWidth` bits.
  bool isUnsigned = false;
  unsigned sourceWidth = 64;
  Slot result, operand;
};

/// `arith.fptosi`: fails when the value does not fit `width` bits.
struct FloatToIntInstr {
  bool fromF32;
  unsigned width;
  Slot result, operand;
};

/// `arith.index_cast`: sign-extends or truncates to `width` bits.
struct IntCastInstr {
  unsigned width;
  Slot result, operand;
  /// `arith.extui`: the low `sourceWidth` bits extended with zeros (else with the sign).
  bool zeroExtend = false;
  unsigned sourceWidth = 64;
};

/// `math.absi`: wraps at `width` bits (the absolute value of the minimum is itself).
struct IntAbsInstr {
  unsigned width;
  Slot result, operand;
};

/// `scf.if`; each branch block ends with copies of its yielded values.
struct IfInstr {
  Slot condition;
  BlockId thenBlock, elseBlock;
};

//===----------------------------------------------------------------------===//
// Instructions inside applies and kernels
//===----------------------------------------------------------------------===//

/// `stn.load`; absent operands are kNoSlot. Without `level` (kernel form)
/// the level is the kernel's current one.
struct LoadInstr {
  ArrayId array;
  Slot result, point, neighborSlot, dynamicOffset;
  int64_t offset;
  Slot level = kNoSlot;
};

/// `present`: the loop form claims the entry is not -1 (checked).
struct NeighborInstr {
  TableId table;
  Slot result, point, index;
  bool present = false;
};

/// `stn.table_complete`: whether rows [lo, hi) hold no -1.
struct TableCompleteInstr {
  TableId table;
  Slot result, lo, hi;
};

/// `stn.index` and `stn.valid`.
struct PointIndexInstr {
  Slot result, point;
};
struct ValidInstr {
  Slot result, point;
};

struct LevelInstr {
  Slot result;
  int64_t offset;
  Slot level = kNoSlot;
};

/// `scf.for`: `body` runs for iv = lb, lb + step, ... < ub; `iterArgs` start
/// as `inits`, take `yields` after each iteration and end in `results`.
struct ForInstr {
  Slot lb, ub, step, iv;
  llvm::SmallVector<Slot, 2> inits, iterArgs, yields, results;
  BlockId body;
};

/// `scf.while`: `beforeArgs` start as `inits`; `before` runs, then while
/// `condition` holds `afterArgs` take `forwarded`, `after` runs and
/// `beforeArgs` take `yields`; at the end `results` take `forwarded`.
struct WhileInstr {
  Slot condition;
  llvm::SmallVector<Slot, 2> inits, beforeArgs, forwarded, afterArgs, yields, results;
  BlockId before, after;
};

/// `stn.reduce`: runs `body` for each present neighbour and folds `bodyValue`.
struct ReduceInstr {
  fusec::stn::ReduceKind kind;
  ScalarType type;
  TableId table;
  Slot result, point, slotArg, neighborArg, bodyValue;
  BlockId body;
};

struct WriteInstr {
  ArrayId field;
  Slot value, point;
  Slot level = kNoSlot;
};

/// `stn.row`: (re)makes row `row` with `size` elements, none written yet.
struct RowInstr {
  RowId row;
  int64_t size;
};

/// `stn.row_load`: fails on an index outside the row or an element not written.
struct RowLoadInstr {
  RowId row;
  Slot result, index;
};

struct RowStoreInstr {
  RowId row;
  Slot value, index;
};

/// `stn.prefetch` (loop form): no effect; checks that the point it names is
/// one of the field's, as the emitted prefetch's address computation assumes.
struct PrefetchInstr {
  ArrayId array;
  Slot point;
};

/// `stn.list_point` (loop form): the point and level of entry `entry`.
struct ListPointInstr {
  ListId list;
  Slot entry, point, level;
};

/// `stn.list_run` (loop form): the length of the run of entries of one point at
/// consecutive levels from `entry` on, before `end`.
struct ListRunInstr {
  ListId list;
  Slot entry, end, length;
};

//===----------------------------------------------------------------------===//
// Program-level instructions
//===----------------------------------------------------------------------===//

/// `stn.list_size`: the number of entries of a point list.
struct ListSizeInstr {
  ListId list;
  Slot result;
};

/// The slots of a domain's bounds; kNoSlot where a range is absent. A domain
/// on a point list has no ranges: it is the list's entries.
struct Domain {
  std::optional<fusec::stn::GridLocation> location;
  Slot hlb = kNoSlot, hub = kNoSlot, klb = kNoSlot, kub = kNoSlot;
  ListId list = kNoList;
};

struct AllocInstr {
  ArrayId array;
};

struct ImageInstr {
  TableId table;
  Slot lb, ub, resultLb, resultUb;
};

/// `stn.apply`: runs `body` at every point of `domain` and stores the yielded
/// slots into the temporaries `results`.
struct ApplyInstr {
  std::string name;
  Domain domain;
  Slot point;
  BlockId body;
  llvm::SmallVector<Slot, 2> yields;
  llvm::SmallVector<ArrayId, 2> results;
};

/// `stn.kernel`: kernel form runs `body` at every point and level of
/// `domain`; loop form runs it once per work item, a box of at most `kblock`
/// levels and `pointsPerItem` points whose bounds go to `box` (points begin
/// and end, levels begin and end; kNoSlot where the kernel has no range). On a
/// point list, a work item is a range of at most `pointsPerItem` entries, whose
/// begin and end go to box[0] and box[1].
struct KernelInstr {
  /// "kernel 'k'", for messages; `kernel` is k.
  std::string name, kernel;
  Domain domain;
  Slot point;
  BlockId body;
  bool loopForm = false;
  Slot box[4] = {kNoSlot, kNoSlot, kNoSlot, kNoSlot};
  int64_t kblock = 1, pointsPerItem = 1;
  /// Its stage in the enclosing stn.wavefront, else -1.
  int64_t stage = -1;
};

/// `stn.wavefront`: `body` (the region in program order) run stage by stage
/// on ranges of points through a one-thread fusec::wavefront::Plan, as the
/// C++ backend runs it; as written when an exchange callback is set.
struct WavefrontInstr {
  struct Wait {
    int32_t stage, on;
    fusec::stn::WavefrontOp::Order order;
    TableId table; ///< kNoTable for `same`
  };
  /// "wavefront(k0, k1, ...)": each stage's (first) kernel, as kernel traffic names the group.
  std::string name;
  BlockId body;
  int64_t tile, minLevels;
  /// Each stage's horizontal range.
  llvm::SmallVector<std::pair<Slot, Slot>, 4> stages;
  /// The level ranges of the stages that have levels.
  llvm::SmallVector<std::pair<Slot, Slot>, 4> levels;
  llvm::SmallVector<Wait, 8> waits;
  /// A buffer the plan folds, and what each stage does to it.
  struct Fold {
    struct Access {
      int32_t stage;
      fusec::stn::WavefrontOp::FoldAccess::Kind kind;
      TableId table; ///< kNoTable unless a gather
    };
    ArrayId array;
    llvm::SmallVector<Access, 4> accesses;
  };
  llvm::SmallVector<Fold, 2> folds;
};

struct StoreInstr {
  ArrayId source, field;
  Domain domain;
};

struct ExchangeInstr {
  llvm::SmallVector<ArrayId, 4> fields;
};

using Instr =
    std::variant<ConstantInstr, CopyInstr, FloatUnaryInstr, FloatBinaryInstr, FloatCompareInstr,
                 FloatPowIntInstr, IntBinaryInstr, IntCompareInstr, SelectInstr, FloatCastInstr,
                 IntToFloatInstr, FloatToIntInstr, IntCastInstr, IntAbsInstr, IfInstr, LoadInstr,
                 NeighborInstr, TableCompleteInstr, PointIndexInstr, ValidInstr, LevelInstr, ForInstr, WhileInstr, ReduceInstr,
                 WriteInstr, RowInstr, RowLoadInstr, RowStoreInstr, PrefetchInstr, ListPointInstr, ListRunInstr, ListSizeInstr, AllocInstr,
                 ImageInstr, ApplyInstr, KernelInstr, WavefrontInstr, StoreInstr, ExchangeInstr>;
using Block = std::vector<Instr>;

//===----------------------------------------------------------------------===//
// The compiled program
//===----------------------------------------------------------------------===//

/// A field or temporary: its shape, and a description for messages.
struct ArrayInfo {
  /// "field 'vn'", "temporary 'z_nabla2' (result 0 of apply 'nabla2')", ...
  std::string description;
  /// The name given to the exchange callback.
  std::string name;
  FieldView::Element element;
  std::optional<fusec::stn::GridLocation> location;
  bool isSparse = false;
  /// Neighbours per point of a sparse field, 1 otherwise.
  int64_t sparseSize = 1;
  fusec::stn::VerticalKind vertical = fusec::stn::VerticalKind::None;
  bool isTemporary = false;
};

/// A connectivity of the mesh, validated against its declaration.
struct Table {
  std::string name;
  const int32_t *entries;
  int64_t ld, numNeighbors, numRows;

  int64_t at(int64_t point, int64_t slot) const { return entries[point + slot * ld]; }
};

/// A point list parameter: "point list 'steep'", and the location of its points.
struct ListInfo {
  std::string description;
  fusec::stn::GridLocation location;
};

/// How a program parameter is bound: to an array (fields), a word (scalars) or
/// a list (point lists).
struct Parameter {
  std::string name;
  ArrayId array = -1;
  Slot word = kNoSlot;
  ListId list = kNoList;
  ScalarType scalarType;
};

struct CompiledProgram {
  std::string name;
  std::vector<Parameter> parameters;
  std::vector<ArrayInfo> arrays;
  std::vector<ListInfo> lists;
  std::vector<Table> tables;
  /// blocks[kEntryBlock] is the program body.
  std::vector<Block> blocks;
  int32_t numWords = 0;
  int32_t numRows = 0;
};

/// Compiles `program` for `mesh` and `nlev`; null (with `error` set) when it
/// uses something the interpreter does not support or the mesh lacks.
std::unique_ptr<CompiledProgram>
compileProgram(fusec::stn::ProgramOp program, const fusec_mesh &mesh, int nlev, std::string &error);

/// Executes a compiled program on `args`; with `traffic`, also counts the elements of each
/// field argument it read and wrote (one entry per argument), with `kernelTraffic` what each
/// kernel read and wrote (one entry per kernel name).
mlir::LogicalResult executeProgram(const CompiledProgram &program, const fusec_mesh &mesh, int nlev,
                                   llvm::ArrayRef<Argument> args, const ExchangeCallback &exchange,
                                   std::string &error,
                                   std::vector<FieldTraffic> *traffic = nullptr,
                                   std::vector<KernelTraffic> *kernelTraffic = nullptr);

/// Points of `location` on `mesh`, levels of `vertical` for `nlev`.
int64_t numPoints(const fusec_mesh &mesh, fusec::stn::GridLocation location);
int64_t numLevels(fusec::stn::VerticalKind vertical, int nlev);

} // namespace fusec::interp

#endif // FUSEC_CODEGEN_INTERPRETER_BYTECODE_H
