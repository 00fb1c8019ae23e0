//===- Executor.cpp - runs interpreter bytecode ---------------------------===//
//
// Executes a compiled program on bound buffers. Every access to a field or a
// temporary is bounds-checked: an out-of-range access is an error naming the
// array, the point and the level, never undefined behaviour.
//
//===----------------------------------------------------------------------===//

#include "codegen/interpreter/Arithmetic.h"
#include "codegen/interpreter/Bytecode.h"

#include "fusec/wavefront.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <utility>

using namespace mlir;
namespace stn = fusec::stn;

namespace fusec::interp {
namespace {

/// The current level outside vertical domains.
constexpr int64_t kNoLevel = std::numeric_limits<int64_t>::min();

/// A half-open range of points times a half-open range of levels. Arrays
/// without a location use the single point 0, arrays without levels level 0.
struct Box {
  int64_t hBegin = 0, hEnd = 1, kBegin = 0, kEnd = 1;

  bool empty() const { return hBegin >= hEnd || kBegin >= kEnd; }
  int64_t width() const { return hEnd - hBegin; }
  int64_t size() const { return empty() ? 0 : width() * (kEnd - kBegin); }
  bool contains(int64_t h, int64_t k) const {
    return h >= hBegin && h < hEnd && k >= kBegin && k < kEnd;
  }
  bool contains(const Box &inner) const {
    return inner.hBegin >= hBegin && inner.hEnd <= hEnd && inner.kBegin >= kBegin &&
           inner.kEnd <= kEnd;
  }
};

/// The storage of one field or temporary during a run: `box` is what it
/// holds (all points and levels for fields, the computed domain for
/// temporaries), laid out as `h + width*(n + N*k)` relative to the box.
struct Array {
  void *data = nullptr;
  FieldView::Element element = FieldView::Element::F64;
  Box box;
  int64_t sparseSize = 1;
  /// Memory of temporaries and allocs; 8-byte words suit every element type.
  std::vector<uint64_t> storage;
  /// A temporary computed on a point list holds all points and levels, but
  /// only the entries' elements (marked 1 here) have values; empty otherwise.
  std::vector<uint8_t> computed;

  /// Inside a wavefront's plan that folds it: `data` is the fold's storage of
  /// `columns` columns, point h's column is `slots[h]`, and `owner` holds per
  /// element the point whose value it holds (-1 before the group wrote any).
  struct Folding {
    const std::vector<int32_t> *slots = nullptr;
    int64_t columns = 0;
    std::vector<uint64_t> storage;
    std::vector<int64_t> owner;
  };
  std::optional<Folding> folding;

  size_t numElements() const { return static_cast<size_t>(box.size() * sparseSize); }
  size_t foldedIndexOf(int64_t h, int64_t k) const {
    return static_cast<size_t>((*folding->slots)[h] + folding->columns * (k - box.kBegin));
  }
  size_t indexOf(int64_t h, int64_t n, int64_t k) const {
    return static_cast<size_t>((h - box.hBegin) +
                               box.width() * (n + sparseSize * (k - box.kBegin)));
  }
};

size_t elementBytes(FieldView::Element element) {
  switch (element) {
  case FieldView::Element::F64:
  case FieldView::Element::I64:
    return 8;
  case FieldView::Element::F32:
  case FieldView::Element::I32:
    return 4;
  case FieldView::Element::Bool:
    return 1;
  }
  llvm_unreachable("unknown element type");
}

const char *elementName(FieldView::Element element) {
  switch (element) {
  case FieldView::Element::F64:
    return "f64";
  case FieldView::Element::F32:
    return "f32";
  case FieldView::Element::I64:
    return "i64";
  case FieldView::Element::I32:
    return "i32";
  case FieldView::Element::Bool:
    return "i1";
  }
  llvm_unreachable("unknown element type");
}

Word readElement(const Array &array, size_t index) {
  switch (array.element) {
  case FieldView::Element::F64:
    return Word::ofF64(static_cast<const double *>(array.data)[index]);
  case FieldView::Element::F32:
    return Word::ofF32(static_cast<const float *>(array.data)[index]);
  case FieldView::Element::I64:
    return Word::ofInt(static_cast<const int64_t *>(array.data)[index]);
  case FieldView::Element::I32:
    return Word::ofInt(static_cast<const int32_t *>(array.data)[index]);
  case FieldView::Element::Bool:
    return Word::ofInt(fromBool(static_cast<const uint8_t *>(array.data)[index] != 0));
  }
  llvm_unreachable("unknown element type");
}

void writeElement(Array &array, size_t index, Word value) {
  switch (array.element) {
  case FieldView::Element::F64:
    static_cast<double *>(array.data)[index] = value.f64;
    return;
  case FieldView::Element::F32:
    static_cast<float *>(array.data)[index] = value.f32;
    return;
  case FieldView::Element::I64:
    static_cast<int64_t *>(array.data)[index] = value.i;
    return;
  case FieldView::Element::I32:
    static_cast<int32_t *>(array.data)[index] = static_cast<int32_t>(value.i);
    return;
  case FieldView::Element::Bool:
    static_cast<uint8_t *>(array.data)[index] = value.i != 0 ? 1 : 0;
    return;
  }
  llvm_unreachable("unknown element type");
}

/// What a load at a missing point gives.
Word zeroOf(FieldView::Element element) {
  switch (element) {
  case FieldView::Element::F64:
    return Word::ofF64(0.0);
  case FieldView::Element::F32:
    return Word::ofF32(0.0f);
  case FieldView::Element::I64:
  case FieldView::Element::I32:
  case FieldView::Element::Bool:
    return Word::ofInt(0);
  }
  llvm_unreachable("unknown element type");
}

std::string range(int64_t begin, int64_t end) {
  return ("[" + Twine(begin) + ", " + Twine(end) + ")").str();
}

std::string formatReal(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

/// A bound point list: entry i is point `points[i]` at level `levels[i]`.
struct PointList {
  ArrayRef<int32_t> points, levels;

  int64_t size() const { return static_cast<int64_t>(points.size()); }
};

/// "points [0, 10) and levels [0, 5)", naming only the dimensions the array has.
std::string describeBox(const ArrayInfo &info, const Box &box) {
  std::vector<std::string> parts;
  if (info.location)
    parts.push_back("points " + range(box.hBegin, box.hEnd));
  if (info.vertical != stn::VerticalKind::None)
    parts.push_back("levels " + range(box.kBegin, box.kEnd));
  return llvm::join(parts, " and ");
}

class Executor {
public:
  Executor(const CompiledProgram &program, const fusec_mesh &mesh, int nlev,
           const ExchangeCallback &exchange, std::string &error)
      : program(program), mesh(mesh), nlev(nlev), exchange(exchange), error(error),
        words(program.numWords), arrays(program.arrays.size()), lists(program.lists.size()),
        rows(program.numRows), where("program '" + program.name + "'") {}

  LogicalResult bindArguments(ArrayRef<Argument> args);
  LogicalResult run() { return runBlock(kEntryBlock); }
  /// Marks the accesses to field arguments and the point lists run on from now on
  /// (before bindArguments).
  void trackTraffic() {
    accesses.resize(arrays.size());
    listsRead.assign(lists.size(), false);
  }
  /// Per argument, the elements marked read and written.
  std::vector<FieldTraffic> countTraffic() const;
  /// Counts what each kernel reads and writes from now on.
  void trackKernelTraffic() {
    trackingKernels = true;
    kernelMarks.resize(arrays.size());
  }
  std::vector<KernelTraffic> takeKernelTraffic() { return std::move(kernelTraffic); }

private:
  LogicalResult bindField(const Parameter &parameter, const Argument &arg,
                          const std::string &label);
  LogicalResult bindScalar(const Parameter &parameter, const Argument &arg,
                           const std::string &label);
  LogicalResult bindList(const Parameter &parameter, const Argument &arg, const std::string &label);

  LogicalResult runBlock(BlockId block);

  LogicalResult execute(const ConstantInstr &instr);
  LogicalResult execute(const CopyInstr &instr);
  LogicalResult execute(const FloatUnaryInstr &instr);
  LogicalResult execute(const FloatBinaryInstr &instr);
  LogicalResult execute(const FloatCompareInstr &instr);
  LogicalResult execute(const FloatPowIntInstr &instr);
  LogicalResult execute(const IntBinaryInstr &instr);
  LogicalResult execute(const IntCompareInstr &instr);
  LogicalResult execute(const SelectInstr &instr);
  LogicalResult execute(const FloatCastInstr &instr);
  LogicalResult execute(const IntToFloatInstr &instr);
  LogicalResult execute(const FloatToIntInstr &instr);
  LogicalResult execute(const IntCastInstr &instr);
  LogicalResult execute(const IntAbsInstr &instr);
  LogicalResult execute(const IfInstr &instr);
  LogicalResult execute(const LoadInstr &instr);
  LogicalResult execute(const NeighborInstr &instr);
  LogicalResult execute(const PointIndexInstr &instr);
  LogicalResult execute(const ValidInstr &instr);
  LogicalResult execute(const TableCompleteInstr &instr);
  LogicalResult execute(const LevelInstr &instr);
  LogicalResult execute(const ForInstr &instr);
  LogicalResult execute(const WhileInstr &instr);
  /// Gives a loop's carried `args` the values in `yields` at an iteration's
  /// end (`scratch` holds as many words).
  void assignYielded(ArrayRef<Slot> args, ArrayRef<Slot> yields, SmallVectorImpl<Word> &scratch);
  LogicalResult execute(const ReduceInstr &instr);
  LogicalResult execute(const WriteInstr &instr);
  LogicalResult execute(const RowInstr &instr);
  LogicalResult execute(const RowLoadInstr &instr);
  LogicalResult execute(const RowStoreInstr &instr);
  LogicalResult execute(const PrefetchInstr &instr);
  LogicalResult execute(const ListPointInstr &instr);
  LogicalResult execute(const ListRunInstr &instr);
  LogicalResult execute(const ListSizeInstr &instr);
  LogicalResult execute(const AllocInstr &instr);
  LogicalResult execute(const ImageInstr &instr);
  LogicalResult execute(const ApplyInstr &instr);
  LogicalResult execute(const KernelInstr &instr);
  LogicalResult runKernel(const KernelInstr &instr);
  /// Adds the marks since the last count to kernel (or wavefront) `name`'s traffic, and
  /// clears them.
  void countKernelCall(const std::string &name, ListId list);
  LogicalResult execute(const StoreInstr &instr);
  LogicalResult execute(const ExchangeInstr &instr);
  LogicalResult execute(const WavefrontInstr &instr);
  /// Inside a wavefront's plan: the stage running, and its range of points.
  struct RunningStage {
    int64_t stage = -1, begin = 0, end = 0;
  } running;

  /// The box of a domain's current bounds (an inverted range is empty).
  Box evaluateDomain(const Domain &domain) const;
  /// Checks that a non-empty domain lies on the mesh and within `maxLevels`.
  LogicalResult checkDomain(const Domain &domain, const Box &box, int64_t maxLevels);
  /// Runs `body` at every point of `box`, levels outer and points inner, with
  /// the point slot and the current level set.
  template <typename Body>
  LogicalResult forEachPoint(const Domain &domain, const Box &box, Slot point, Body &&body);
  /// Runs `body` at every entry of list `id`, in its order, with the point
  /// slot and the current level set.
  template <typename Body> LogicalResult forEachEntry(ListId id, Slot point, Body &&body);
  /// Runs `body` with messages naming the apply or kernel `name`.
  LogicalResult inRegion(const std::string &name, llvm::function_ref<LogicalResult()> body);
  Box fullBox(const ArrayInfo &info) const;
  void allocate(ArrayId id, const Box &box);
  /// The level an access at `offset` from the current level (or from the
  /// explicit level in word slot `explicitLevel`) reaches.
  FailureOr<int64_t> levelOf(const ArrayInfo &info, int64_t offset, Slot explicitLevel);

  LogicalResult fail(const Twine &message);
  /// Notes an access to element `index` of array `id` when its traffic is tracked.
  void noteAccess(ArrayId id, size_t index, uint8_t kind) {
    if (!accesses.empty() && !accesses[id].empty())
      accesses[id][index] |= kind;
    if (inTrackedKernel) {
      std::vector<uint8_t> &marks = kernelMarks[id];
      if (marks.empty()) {
        marks.assign(arrays[id].numElements(), 0);
        kernelTouched.push_back(id);
      }
      marks[index] |= kind;
    }
  }
  void noteListRead(ListId id) {
    if (!listsRead.empty())
      listsRead[id] = true;
  }
  static constexpr uint8_t kRead = 1, kWritten = 2;
  /// Elements of `marks` marked read, and marked written.
  static std::pair<uint64_t, uint64_t> countMarks(ArrayRef<uint8_t> marks);
  LogicalResult outOfRange(ArrayId id, StringRef verb, int64_t h, int64_t n, int64_t k);
  LogicalResult notComputed(ArrayId id, StringRef verb, int64_t h, int64_t k);

  const CompiledProgram &program;
  const fusec_mesh &mesh;
  int nlev;
  const ExchangeCallback &exchange;
  std::string &error;
  std::vector<Word> words;
  std::vector<Array> arrays;
  std::vector<PointList> lists;
  /// A work item's scratch rows, and which of their elements were written.
  struct Row {
    std::vector<Word> values;
    std::vector<bool> written;
  };
  std::vector<Row> rows;
  /// With traffic tracking: per array, kRead | kWritten per element of field arguments
  /// (empty for other arrays); empty without tracking.
  std::vector<std::vector<uint8_t>> accesses;
  /// With traffic tracking: per list, whether a domain or stn.list_point read it.
  std::vector<bool> listsRead;
  /// With kernel traffic tracking: per array, kRead | kWritten per element during the
  /// running kernel call (empty until it touches the array), the arrays it touched, and
  /// per kernel name the counts so far.
  std::vector<std::vector<uint8_t>> kernelMarks;
  std::vector<ArrayId> kernelTouched;
  bool trackingKernels = false, inTrackedKernel = false;
  std::vector<KernelTraffic> kernelTraffic;
  int64_t level = kNoLevel;
  /// The program, apply or kernel running now, for messages.
  std::string where;
};

LogicalResult Executor::fail(const Twine &message) {
  error = message.str();
  return failure();
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

LogicalResult Executor::bindArguments(ArrayRef<Argument> args) {
  if (args.size() != program.parameters.size())
    return fail(where + " takes " + Twine(program.parameters.size()) + " arguments, but " +
                Twine(args.size()) + " were given");
  for (auto [index, parameter, arg] : llvm::enumerate(program.parameters, args)) {
    std::string label = "argument " + std::to_string(index);
    if (!parameter.name.empty())
      label += " ('" + parameter.name + "')";
    label += " of " + where;
    LogicalResult bound = parameter.array >= 0        ? bindField(parameter, arg, label)
                          : parameter.list != kNoList ? bindList(parameter, arg, label)
                                                      : bindScalar(parameter, arg, label);
    if (failed(bound))
      return failure();
  }
  return success();
}

LogicalResult Executor::bindField(const Parameter &parameter, const Argument &arg,
                                  const std::string &label) {
  const ArrayInfo &info = program.arrays[parameter.array];
  if (arg.kind != Argument::Kind::Field)
    return fail(label + " must be a field buffer");
  if (arg.view.element != info.element)
    return fail(label + " holds " + elementName(arg.view.element) +
                " values, but the field holds " + elementName(info.element));
  Array &array = arrays[parameter.array];
  array.element = info.element;
  array.box = fullBox(info);
  array.sparseSize = info.sparseSize;
  array.data = arg.view.data;
  if (arg.view.size < array.numElements())
    return fail(label + " holds " + Twine(arg.view.size) + " elements, but the field needs " +
                Twine(array.numElements()) + " on this mesh");
  if (!array.data && array.numElements() > 0)
    return fail(label + " has no data");
  if (!accesses.empty())
    accesses[parameter.array].assign(array.numElements(), 0);
  return success();
}

LogicalResult Executor::bindList(const Parameter &parameter, const Argument &arg,
                                 const std::string &label) {
  const ListInfo &info = program.lists[parameter.list];
  if (arg.kind != Argument::Kind::Points)
    return fail(label + " must be a point list");
  if (arg.listPoints.size() != arg.listLevels.size())
    return fail(label + " has " + Twine(arg.listPoints.size()) + " points but " +
                Twine(arg.listLevels.size()) + " levels");
  int64_t points = numPoints(mesh, info.location);
  // Each entry's (point, level) as one key, with its index, to find pairs given twice.
  std::vector<std::pair<int64_t, size_t>> keys;
  keys.reserve(arg.listPoints.size());
  for (auto [entry, point, entryLevel] : llvm::enumerate(arg.listPoints, arg.listLevels)) {
    if (point < 0 || point >= points)
      return fail(label + ": entry " + Twine(entry) + " is point " + Twine(point) +
                  ", but the mesh has " + Twine(points) + " " + stn::locationName(info.location) +
                  " points");
    if (entryLevel < 0 || entryLevel >= nlev)
      return fail(label + ": entry " + Twine(entry) + " is at level " + Twine(entryLevel) +
                  ", outside " + range(0, nlev));
    keys.emplace_back(int64_t(entryLevel) * points + point, entry);
  }
  llvm::sort(keys);
  auto twice = std::adjacent_find(keys.begin(), keys.end(),
                                  [](const auto &a, const auto &b) { return a.first == b.first; });
  if (twice != keys.end())
    return fail(label + ": entries " + Twine(twice->second) + " and " +
                Twine(std::next(twice)->second) + " are both point " +
                Twine(arg.listPoints[twice->second]) + " at level " +
                Twine(arg.listLevels[twice->second]));
  lists[parameter.list] = PointList{arg.listPoints, arg.listLevels};
  return success();
}

std::pair<uint64_t, uint64_t> Executor::countMarks(ArrayRef<uint8_t> marks) {
  uint64_t read = 0, written = 0;
  for (uint8_t kind : marks) {
    read += (kind & kRead) != 0;
    written += (kind & kWritten) != 0;
  }
  return {read, written};
}

std::vector<FieldTraffic> Executor::countTraffic() const {
  std::vector<FieldTraffic> traffic(program.parameters.size());
  for (auto [parameter, counted] : llvm::zip_equal(program.parameters, traffic)) {
    if (parameter.list != kNoList && !listsRead.empty() && listsRead[parameter.list]) {
      counted.elementBytes = sizeof(int32_t);
      counted.elementsRead = 2 * static_cast<uint64_t>(lists[parameter.list].size());
    }
    if (parameter.array < 0 || accesses.empty())
      continue;
    counted.elementBytes = elementBytes(arrays[parameter.array].element);
    auto [read, written] = countMarks(accesses[parameter.array]);
    counted.elementsRead += read;
    counted.elementsWritten += written;
  }
  return traffic;
}

LogicalResult Executor::bindScalar(const Parameter &parameter, const Argument &arg,
                                   const std::string &label) {
  ScalarType type = parameter.scalarType;
  if (type.kind != ScalarType::Kind::Int) {
    if (arg.kind != Argument::Kind::Real)
      return fail(label + " must be a real scalar");
    words[parameter.word] =
        type.isF32() ? Word::ofF32(static_cast<float>(arg.realValue)) : Word::ofF64(arg.realValue);
    return success();
  }
  if (type.width == 1) {
    if (arg.kind != Argument::Kind::Boolean)
      return fail(label + " must be a boolean scalar");
    words[parameter.word] = Word::ofInt(fromBool(arg.booleanValue));
    return success();
  }
  if (arg.kind != Argument::Kind::Integer)
    return fail(label + " must be an integer scalar");
  if (arg.integerValue < minSigned(type.width) || arg.integerValue > maxSigned(type.width))
    return fail(label + " is " + Twine(arg.integerValue) + ", which does not fit i" +
                Twine(type.width));
  words[parameter.word] = Word::ofInt(arg.integerValue);
  return success();
}

//===----------------------------------------------------------------------===//
// Scalar instructions
//===----------------------------------------------------------------------===//

LogicalResult Executor::runBlock(BlockId block) {
  for (const Instr &instr : program.blocks[block])
    if (failed(std::visit([this](const auto &op) { return execute(op); }, instr)))
      return failure();
  return success();
}

LogicalResult Executor::execute(const ConstantInstr &instr) {
  words[instr.result] = instr.value;
  return success();
}

LogicalResult Executor::execute(const CopyInstr &instr) {
  words[instr.result] = words[instr.source];
  return success();
}

LogicalResult Executor::execute(const FloatUnaryInstr &instr) {
  Word x = words[instr.operand];
  words[instr.result] = instr.isF32 ? Word::ofF32(floatUnary(instr.op, x.f32))
                                    : Word::ofF64(floatUnary(instr.op, x.f64));
  return success();
}

LogicalResult Executor::execute(const FloatBinaryInstr &instr) {
  Word a = words[instr.lhs], b = words[instr.rhs];
  words[instr.result] = instr.isF32 ? Word::ofF32(floatBinary(instr.op, a.f32, b.f32))
                                    : Word::ofF64(floatBinary(instr.op, a.f64, b.f64));
  return success();
}

LogicalResult Executor::execute(const FloatCompareInstr &instr) {
  Word a = words[instr.lhs], b = words[instr.rhs];
  bool result = instr.isF32 ? compareFloats(instr.predicate, a.f32, b.f32)
                            : compareFloats(instr.predicate, a.f64, b.f64);
  words[instr.result] = Word::ofInt(fromBool(result));
  return success();
}

LogicalResult Executor::execute(const FloatPowIntInstr &instr) {
  Word base = words[instr.base];
  int64_t exponent = words[instr.exponent].i;
  words[instr.result] = instr.isF32
                            ? Word::ofF32(std::pow(base.f32, static_cast<float>(exponent)))
                            : Word::ofF64(std::pow(base.f64, static_cast<double>(exponent)));
  return success();
}

LogicalResult Executor::execute(const IntBinaryInstr &instr) {
  int64_t a = words[instr.lhs].i, b = words[instr.rhs].i;
  bool divides = instr.op == IntBinaryOp::DivS || instr.op == IntBinaryOp::RemS;
  if (divides && b == 0)
    return fail("integer division by zero in " + where);
  words[instr.result] = Word::ofInt(intBinary(instr.op, a, b, instr.width));
  return success();
}

LogicalResult Executor::execute(const IntCompareInstr &instr) {
  bool result = compareInts(instr.predicate, words[instr.lhs].i, words[instr.rhs].i, instr.width);
  words[instr.result] = Word::ofInt(fromBool(result));
  return success();
}

LogicalResult Executor::execute(const SelectInstr &instr) {
  words[instr.result] = words[instr.condition].i != 0 ? words[instr.onTrue] : words[instr.onFalse];
  return success();
}

LogicalResult Executor::execute(const FloatCastInstr &instr) {
  Word x = words[instr.operand];
  words[instr.result] = instr.toF32 ? Word::ofF32(static_cast<float>(x.f64))
                                    : Word::ofF64(static_cast<double>(x.f32));
  return success();
}

/// The low `width` bits of `value`, as an unsigned number.
static uint64_t lowBits(int64_t value, unsigned width) {
  uint64_t bits = static_cast<uint64_t>(value);
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}

LogicalResult Executor::execute(const IntToFloatInstr &instr) {
  int64_t x = words[instr.operand].i;
  if (instr.isUnsigned) {
    uint64_t u = lowBits(x, instr.sourceWidth);
    words[instr.result] =
        instr.toF32 ? Word::ofF32(static_cast<float>(u)) : Word::ofF64(static_cast<double>(u));
    return success();
  }
  words[instr.result] =
      instr.toF32 ? Word::ofF32(static_cast<float>(x)) : Word::ofF64(static_cast<double>(x));
  return success();
}

LogicalResult Executor::execute(const FloatToIntInstr &instr) {
  Word x = words[instr.operand];
  double value = std::trunc(instr.fromF32 ? static_cast<double>(x.f32) : x.f64);
  double limit = std::ldexp(1.0, static_cast<int>(instr.width) - 1);
  // Written so that NaN fails too.
  if (!(value >= -limit && value < limit))
    return fail("arith.fptosi of " + formatReal(value) + " does not fit i" + Twine(instr.width) +
                " in " + where);
  words[instr.result] = Word::ofInt(static_cast<int64_t>(value));
  return success();
}

LogicalResult Executor::execute(const IntCastInstr &instr) {
  uint64_t bits = static_cast<uint64_t>(words[instr.operand].i);
  if (instr.zeroExtend)
    bits = lowBits(words[instr.operand].i, instr.sourceWidth);
  words[instr.result] = Word::ofInt(signExtend(bits, instr.width));
  return success();
}

LogicalResult Executor::execute(const IntAbsInstr &instr) {
  uint64_t x = static_cast<uint64_t>(words[instr.operand].i);
  uint64_t magnitude = static_cast<int64_t>(x) < 0 ? uint64_t(0) - x : x;
  words[instr.result] = Word::ofInt(signExtend(magnitude, instr.width));
  return success();
}

LogicalResult Executor::execute(const IfInstr &instr) {
  return runBlock(words[instr.condition].i != 0 ? instr.thenBlock : instr.elseBlock);
}

//===----------------------------------------------------------------------===//
// Instructions inside applies and kernels
//===----------------------------------------------------------------------===//

FailureOr<int64_t> Executor::levelOf(const ArrayInfo &info, int64_t offset,
                                     Slot explicitLevel) {
  if (info.vertical == stn::VerticalKind::None)
    return 0;
  if (explicitLevel != kNoSlot)
    return words[explicitLevel].i + offset;
  if (level == kNoLevel)
    return fail(where + " accesses the levels of " + info.description +
                ", but it runs on no vertical domain");
  return level + offset;
}

LogicalResult Executor::outOfRange(ArrayId id, StringRef verb, int64_t h, int64_t n, int64_t k) {
  const ArrayInfo &info = program.arrays[id];
  std::vector<std::string> at;
  if (info.location)
    at.push_back("point " + std::to_string(h));
  if (info.isSparse)
    at.push_back("neighbour slot " + std::to_string(n));
  if (info.vertical != stn::VerticalKind::None)
    at.push_back("level " + std::to_string(k));
  std::string extent = describeBox(info, arrays[id].box);
  if (info.isSparse)
    extent += " and neighbour slots " + range(0, info.sparseSize);
  return fail(info.description + " " + verb + " at " + llvm::join(at, ", ") + " in " + where +
              ": outside " + (info.isTemporary ? "the domain it was computed on, " : "its ") +
              extent);
}

LogicalResult Executor::notComputed(ArrayId id, StringRef verb, int64_t h, int64_t k) {
  return fail(program.arrays[id].description + " " + verb + " at point " + Twine(h) + ", level " +
              Twine(k) + " in " + where + ": not an entry of the point list it was computed on");
}

LogicalResult Executor::execute(const LoadInstr &instr) {
  const Array &array = arrays[instr.array];
  int64_t h = 0;
  if (instr.point != kNoSlot) {
    h = words[instr.point].i;
    if (h == kMissing) {
      words[instr.result] = zeroOf(array.element);
      return success();
    }
  }
  int64_t n = instr.neighborSlot != kNoSlot ? words[instr.neighborSlot].i : 0;
  int64_t offset = instr.offset;
  if (instr.dynamicOffset != kNoSlot)
    offset += words[instr.dynamicOffset].i;
  FailureOr<int64_t> k = levelOf(program.arrays[instr.array], offset, instr.level);
  if (failed(k))
    return failure();
  if (!array.box.contains(h, *k) || n < 0 || n >= array.sparseSize)
    return outOfRange(instr.array, "read", h, n, *k);
  size_t index = array.indexOf(h, n, *k);
  if (!array.computed.empty() && !array.computed[index])
    return notComputed(instr.array, "read", h, *k);
  noteAccess(instr.array, index, kRead);
  if (array.folding) {
    index = array.foldedIndexOf(h, *k);
    if (int64_t owner = array.folding->owner[index]; owner != h)
      return fail(program.arrays[instr.array].description + " read at point " + Twine(h) +
                  ", level " + Twine(*k) + " in " + where + ", where its wavefront folds it: " +
                  (owner < 0 ? std::string("the group has not written it there")
                             : "its column holds point " + std::to_string(owner)));
  }
  words[instr.result] = readElement(array, index);
  return success();
}

LogicalResult Executor::execute(const NeighborInstr &instr) {
  const Table &table = program.tables[instr.table];
  int64_t point = words[instr.point].i;
  int64_t slot = words[instr.index].i;
  if (slot < 0 || slot >= table.numNeighbors)
    return fail("neighbour " + Twine(slot) + " through " + table.name + " in " + where +
                ": outside its slots " + range(0, table.numNeighbors));
  // Points are -1 or valid indices: domains and tables are checked against the mesh.
  int64_t neighbor = point == kMissing ? kMissing : table.at(point, slot);
  if (instr.present && point != kMissing && neighbor == kMissing)
    return fail("neighbour " + Twine(slot) + " of point " + Twine(point) + " through " +
                table.name + " in " + where +
                " is missing, but the loop form took it as present (stn.table_complete)");
  words[instr.result] = Word::ofInt(neighbor);
  return success();
}

LogicalResult Executor::execute(const TableCompleteInstr &instr) {
  const Table &table = program.tables[instr.table];
  int64_t lo = words[instr.lo].i, hi = words[instr.hi].i;
  if (lo < 0 || hi > table.numRows)
    return fail("rows " + range(lo, hi) + " of " + table.name + " in " + where +
                ": outside its rows " + range(0, table.numRows));
  bool complete = true;
  for (int64_t point = lo; point < hi && complete; ++point)
    for (int64_t slot = 0; slot < table.numNeighbors && complete; ++slot)
      complete = table.at(point, slot) != kMissing;
  words[instr.result] = Word::ofInt(fromBool(complete));
  return success();
}

LogicalResult Executor::execute(const PointIndexInstr &instr) {
  words[instr.result] = words[instr.point];
  return success();
}

LogicalResult Executor::execute(const ValidInstr &instr) {
  words[instr.result] = Word::ofInt(fromBool(words[instr.point].i != kMissing));
  return success();
}

LogicalResult Executor::execute(const LevelInstr &instr) {
  if (instr.level != kNoSlot) {
    words[instr.result] = Word::ofInt(signExtend(words[instr.level].i + instr.offset, 32));
    return success();
  }
  if (level == kNoLevel)
    return fail("stn.level in " + where + ", which runs on no vertical domain");
  words[instr.result] = Word::ofInt(level + instr.offset);
  return success();
}

void Executor::assignYielded(ArrayRef<Slot> args, ArrayRef<Slot> yields,
                             SmallVectorImpl<Word> &scratch) {
  // Through a copy: a yield may pass one argument into another.
  for (auto [value, yielded] : llvm::zip_equal(scratch, yields))
    value = words[yielded];
  for (auto [arg, value] : llvm::zip_equal(args, scratch))
    words[arg] = value;
}

LogicalResult Executor::execute(const ForInstr &instr) {
  int64_t step = words[instr.step].i;
  if (step <= 0)
    return fail("scf.for with step " + Twine(step) + " in " + where);
  for (auto [arg, init] : llvm::zip_equal(instr.iterArgs, instr.inits))
    words[arg] = words[init];
  llvm::SmallVector<Word, 2> next(instr.yields.size());
  for (int64_t iv = words[instr.lb].i, ub = words[instr.ub].i; iv < ub; iv += step) {
    words[instr.iv] = Word::ofInt(iv);
    if (failed(runBlock(instr.body)))
      return failure();
    assignYielded(instr.iterArgs, instr.yields, next);
  }
  for (auto [result, arg] : llvm::zip_equal(instr.results, instr.iterArgs))
    words[result] = words[arg];
  return success();
}

LogicalResult Executor::execute(const WhileInstr &instr) {
  for (auto [arg, init] : llvm::zip_equal(instr.beforeArgs, instr.inits))
    words[arg] = words[init];
  llvm::SmallVector<Word, 2> next(instr.yields.size());
  while (true) {
    if (failed(runBlock(instr.before)))
      return failure();
    if (words[instr.condition].i == 0)
      break;
    for (auto [arg, value] : llvm::zip_equal(instr.afterArgs, instr.forwarded))
      words[arg] = words[value];
    if (failed(runBlock(instr.after)))
      return failure();
    assignYielded(instr.beforeArgs, instr.yields, next);
  }
  for (auto [result, value] : llvm::zip_equal(instr.results, instr.forwarded))
    words[result] = words[value];
  return success();
}

LogicalResult Executor::execute(const ReduceInstr &instr) {
  const Table &table = program.tables[instr.table];
  Word acc = reduceIdentity(instr.kind, instr.type);
  int64_t point = words[instr.point].i;
  if (point != kMissing) {
    for (int64_t slot = 0; slot < table.numNeighbors; ++slot) {
      int64_t neighbor = table.at(point, slot);
      if (neighbor == kMissing)
        continue;
      words[instr.slotArg] = Word::ofInt(slot);
      words[instr.neighborArg] = Word::ofInt(neighbor);
      if (failed(runBlock(instr.body)))
        return failure();
      acc = fold(instr.kind, instr.type, acc, words[instr.bodyValue]);
    }
  }
  words[instr.result] = acc;
  return success();
}

LogicalResult Executor::execute(const WriteInstr &instr) {
  const ArrayInfo &info = program.arrays[instr.field];
  Array &array = arrays[instr.field];
  int64_t h = 0;
  if (instr.point != kNoSlot) {
    h = words[instr.point].i;
    if (h == kMissing)
      return fail(info.description + " written at a missing point in " + where);
  }
  FailureOr<int64_t> k = levelOf(info, 0, instr.level);
  if (failed(k))
    return failure();
  if (!array.box.contains(h, *k))
    return outOfRange(instr.field, "written", h, 0, *k);
  size_t index = array.indexOf(h, 0, *k);
  noteAccess(instr.field, index, kWritten);
  if (array.folding) {
    index = array.foldedIndexOf(h, *k);
    array.folding->owner[index] = h;
  }
  writeElement(array, index, words[instr.value]);
  return success();
}

LogicalResult Executor::execute(const RowInstr &instr) {
  Row &row = rows[instr.row];
  row.values.assign(instr.size, Word::ofInt(0));
  row.written.assign(instr.size, false);
  return success();
}

LogicalResult Executor::execute(const RowLoadInstr &instr) {
  const Row &row = rows[instr.row];
  int64_t index = words[instr.index].i;
  if (index < 0 || index >= static_cast<int64_t>(row.values.size()))
    return fail("stn.row_load at element " + Twine(index) + " of a row of " +
                Twine(row.values.size()) + " in " + where);
  if (!row.written[index])
    return fail("stn.row_load of element " + Twine(index) + ", never written, in " + where);
  words[instr.result] = row.values[index];
  return success();
}

LogicalResult Executor::execute(const RowStoreInstr &instr) {
  Row &row = rows[instr.row];
  int64_t index = words[instr.index].i;
  if (index < 0 || index >= static_cast<int64_t>(row.values.size()))
    return fail("stn.row_store at element " + Twine(index) + " of a row of " +
                Twine(row.values.size()) + " in " + where);
  row.values[index] = words[instr.value];
  row.written[index] = true;
  return success();
}

LogicalResult Executor::execute(const PrefetchInstr &instr) {
  const Array &array = arrays[instr.array];
  int64_t h = words[instr.point].i;
  if (h != kMissing && !array.box.contains(h, array.box.kBegin))
    return outOfRange(instr.array, "prefetched", h, 0, array.box.kBegin);
  return success();
}

LogicalResult Executor::execute(const ListPointInstr &instr) {
  const PointList &list = lists[instr.list];
  int64_t entry = words[instr.entry].i;
  if (entry < 0 || entry >= list.size())
    return fail("stn.list_point of entry " + Twine(entry) + " of " +
                program.lists[instr.list].description + " in " + where + ": outside its " +
                Twine(list.size()) + " entries");
  noteListRead(instr.list);
  words[instr.point] = Word::ofInt(list.points[entry]);
  words[instr.level] = Word::ofInt(list.levels[entry]);
  return success();
}

LogicalResult Executor::execute(const ListRunInstr &instr) {
  const PointList &list = lists[instr.list];
  int64_t entry = words[instr.entry].i, end = words[instr.end].i;
  if (end > list.size() || entry < 0 || entry >= end)
    return fail("stn.list_run of entry " + Twine(entry) + " until " + Twine(end) + " of " +
                program.lists[instr.list].description + " in " + where + ": outside its " +
                Twine(list.size()) + " entries");
  noteListRead(instr.list);
  int64_t length = 1;
  while (entry + length < end && list.points[entry + length] == list.points[entry] &&
         list.levels[entry + length] == list.levels[entry] + length)
    ++length;
  words[instr.length] = Word::ofInt(length);
  return success();
}

//===----------------------------------------------------------------------===//
// Program-level instructions
//===----------------------------------------------------------------------===//

LogicalResult Executor::execute(const ListSizeInstr &instr) {
  noteListRead(instr.list);
  words[instr.result] = Word::ofInt(lists[instr.list].size());
  return success();
}

Box Executor::fullBox(const ArrayInfo &info) const {
  Box box;
  if (info.location)
    box.hEnd = numPoints(mesh, *info.location);
  if (info.vertical != stn::VerticalKind::None)
    box.kEnd = numLevels(info.vertical, nlev);
  return box;
}

void Executor::allocate(ArrayId id, const Box &box) {
  const ArrayInfo &info = program.arrays[id];
  Array &array = arrays[id];
  array.element = info.element;
  array.box = box;
  array.sparseSize = info.sparseSize;
  size_t bytes = array.numElements() * elementBytes(info.element);
  array.storage.assign((bytes + 7) / 8, 0);
  array.data = array.storage.data();
  array.computed.clear();
}

Box Executor::evaluateDomain(const Domain &domain) const {
  Box box;
  if (domain.hlb != kNoSlot) {
    box.hBegin = words[domain.hlb].i;
    box.hEnd = std::max(box.hBegin, words[domain.hub].i);
  }
  if (domain.klb != kNoSlot) {
    box.kBegin = words[domain.klb].i;
    box.kEnd = std::max(box.kBegin, words[domain.kub].i);
  }
  return box;
}

LogicalResult Executor::checkDomain(const Domain &domain, const Box &box, int64_t maxLevels) {
  if (box.empty())
    return success();
  if (domain.hlb != kNoSlot) {
    int64_t points = numPoints(mesh, *domain.location);
    if (box.hBegin < 0 || box.hEnd > points)
      return fail(where + " runs on " + stn::locationName(*domain.location) + " points " +
                  range(box.hBegin, box.hEnd) + ", but the mesh has " + Twine(points));
  }
  if (domain.klb != kNoSlot && (box.kBegin < 0 || box.kEnd > maxLevels))
    return fail(where + " runs on levels " + range(box.kBegin, box.kEnd) + ", outside " +
                range(0, maxLevels));
  return success();
}

template <typename Body>
LogicalResult Executor::forEachPoint(const Domain &domain, const Box &box, Slot point,
                                     Body &&body) {
  bool hasLevels = domain.klb != kNoSlot;
  for (int64_t k = box.kBegin; k < box.kEnd; ++k) {
    level = hasLevels ? k : kNoLevel;
    for (int64_t h = box.hBegin; h < box.hEnd; ++h) {
      if (point != kNoSlot)
        words[point] = Word::ofInt(h);
      if (failed(body(h, k)))
        return failure();
    }
  }
  level = kNoLevel;
  return success();
}

template <typename Body> LogicalResult Executor::forEachEntry(ListId id, Slot point, Body &&body) {
  const PointList &list = lists[id];
  noteListRead(id);
  for (int64_t entry = 0; entry < list.size(); ++entry) {
    int64_t h = list.points[entry];
    level = list.levels[entry];
    if (point != kNoSlot)
      words[point] = Word::ofInt(h);
    if (failed(body(h, level)))
      return failure();
  }
  level = kNoLevel;
  return success();
}

LogicalResult Executor::execute(const AllocInstr &instr) {
  allocate(instr.array, fullBox(program.arrays[instr.array]));
  return success();
}

LogicalResult Executor::execute(const ImageInstr &instr) {
  const Table &table = program.tables[instr.table];
  int64_t lb = words[instr.lb].i, ub = words[instr.ub].i;
  int64_t lo = 0, hi = 0;
  if (lb < ub) {
    if (lb < 0 || ub > table.numRows)
      return fail("stn.image of points " + range(lb, ub) + " through " + table.name + " in " +
                  where + ": outside its rows " + range(0, table.numRows));
    int64_t minIndex = std::numeric_limits<int64_t>::max(), maxIndex = kMissing;
    for (int64_t point = lb; point < ub; ++point) {
      for (int64_t slot = 0; slot < table.numNeighbors; ++slot) {
        int64_t neighbor = table.at(point, slot);
        if (neighbor == kMissing)
          continue;
        minIndex = std::min(minIndex, neighbor);
        maxIndex = std::max(maxIndex, neighbor);
      }
    }
    if (maxIndex != kMissing) {
      lo = minIndex;
      hi = maxIndex + 1;
    }
  }
  words[instr.resultLb] = Word::ofInt(lo);
  words[instr.resultUb] = Word::ofInt(hi);
  return success();
}

LogicalResult Executor::inRegion(const std::string &name,
                                 llvm::function_ref<LogicalResult()> body) {
  std::string programLevel = std::exchange(where, name + " of program '" + program.name + "'");
  LogicalResult result = body();
  where = std::move(programLevel);
  return result;
}

LogicalResult Executor::execute(const ApplyInstr &instr) {
  auto yield = [&](int64_t h, int64_t k) {
    for (auto [result, value] : llvm::zip(instr.results, instr.yields)) {
      Array &array = arrays[result];
      size_t index = array.indexOf(h, 0, k);
      writeElement(array, index, words[value]);
      if (!array.computed.empty())
        array.computed[index] = 1;
    }
  };
  if (instr.domain.list != kNoList)
    return inRegion(instr.name, [&] {
      // Bound lists lie on the mesh and below nlev: every temporary holds all of them.
      for (ArrayId result : instr.results) {
        allocate(result, fullBox(program.arrays[result]));
        arrays[result].computed.assign(arrays[result].numElements(), 0);
      }
      return forEachEntry(instr.domain.list, instr.point, [&](int64_t h, int64_t k) {
        if (failed(runBlock(instr.body)))
          return failure();
        yield(h, k);
        return success();
      });
    });
  return inRegion(instr.name, [&] {
    Box box = evaluateDomain(instr.domain);
    // A temporary holds the levels of its type: nlev, or nlev+1 for half levels.
    int64_t maxLevels = nlev + 1;
    for (ArrayId result : instr.results)
      if (program.arrays[result].vertical != stn::VerticalKind::None)
        maxLevels = std::min(maxLevels, numLevels(program.arrays[result].vertical, nlev));
    if (failed(checkDomain(instr.domain, box, maxLevels)))
      return failure();
    for (ArrayId result : instr.results)
      allocate(result, box);
    return forEachPoint(instr.domain, box, instr.point, [&](int64_t h, int64_t k) {
      if (failed(runBlock(instr.body)))
        return failure();
      yield(h, k);
      return success();
    });
  });
}

LogicalResult Executor::execute(const KernelInstr &instr) {
  // Inside a wavefront the group counts as one launch.
  if (!trackingKernels || inTrackedKernel)
    return runKernel(instr);
  inTrackedKernel = true;
  LogicalResult result = runKernel(instr);
  inTrackedKernel = false;
  countKernelCall(instr.kernel, instr.domain.list);
  return result;
}

void Executor::countKernelCall(const std::string &name, ListId list) {
  auto entry = llvm::find_if(kernelTraffic,
                             [&](const KernelTraffic &known) { return known.name == name; });
  if (entry == kernelTraffic.end()) {
    kernelTraffic.push_back(KernelTraffic{name});
    entry = std::prev(kernelTraffic.end());
  }
  ++entry->calls;
  if (list != kNoList)
    entry->bytesRead += 2 * sizeof(int32_t) * static_cast<uint64_t>(lists[list].size());
  for (ArrayId id : kernelTouched) {
    auto [read, written] = countMarks(kernelMarks[id]);
    uint64_t bytes = elementBytes(arrays[id].element);
    entry->bytesRead += read * bytes;
    entry->bytesWritten += written * bytes;
    kernelMarks[id].clear();
  }
  kernelTouched.clear();
}

LogicalResult Executor::runKernel(const KernelInstr &instr) {
  if (instr.domain.list != kNoList)
    return inRegion(instr.name, [&] {
      if (!instr.loopForm)
        return forEachEntry(instr.domain.list, instr.point,
                            [&](int64_t, int64_t) { return runBlock(instr.body); });
      // Work items: ranges of at most pointsPerItem entries.
      int64_t entries = lists[instr.domain.list].size();
      for (int64_t begin = 0; begin < entries; begin += instr.pointsPerItem) {
        words[instr.box[0]] = Word::ofInt(begin);
        words[instr.box[1]] = Word::ofInt(std::min(begin + instr.pointsPerItem, entries));
        if (failed(runBlock(instr.body)))
          return failure();
      }
      return success();
    });
  return inRegion(instr.name, [&] {
    Box box = evaluateDomain(instr.domain);
    if (failed(checkDomain(instr.domain, box, nlev + 1)))
      return failure();
    if (running.stage >= 0) {
      if (instr.stage != running.stage)
        return success();
      box.hBegin = std::max(box.hBegin, running.begin);
      box.hEnd = std::max(box.hBegin, std::min(box.hEnd, running.end));
    }
    if (!instr.loopForm)
      return forEachPoint(instr.domain, box, instr.point,
                          [&](int64_t, int64_t) { return runBlock(instr.body); });
    if (box.empty())
      return success();
    // Work items: boxes of at most kblock levels and pointsPerItem points.
    bool hasPoints = instr.box[0] != kNoSlot, hasLevels = instr.box[2] != kNoSlot;
    int64_t levelsPerItem = hasLevels ? instr.kblock : 1;
    int64_t pointsPerItem = hasPoints ? instr.pointsPerItem : 1;
    for (int64_t k = box.kBegin; k < box.kEnd; k += levelsPerItem) {
      for (int64_t h = box.hBegin; h < box.hEnd; h += pointsPerItem) {
        if (hasPoints) {
          words[instr.box[0]] = Word::ofInt(h);
          words[instr.box[1]] = Word::ofInt(std::min(h + pointsPerItem, box.hEnd));
        }
        if (hasLevels) {
          words[instr.box[2]] = Word::ofInt(k);
          words[instr.box[3]] = Word::ofInt(std::min(k + levelsPerItem, box.kEnd));
        }
        if (failed(runBlock(instr.body)))
          return failure();
      }
    }
    return success();
  });
}

LogicalResult Executor::execute(const StoreInstr &instr) {
  const Array &source = arrays[instr.source];
  Array &field = arrays[instr.field];
  const ArrayInfo &sourceInfo = program.arrays[instr.source];
  const ArrayInfo &fieldInfo = program.arrays[instr.field];
  if (instr.domain.list != kNoList)
    return forEachEntry(instr.domain.list, kNoSlot, [&](int64_t h, int64_t k) {
      // The field holds every entry (bound lists lie on the mesh and below nlev).
      if (!source.box.contains(h, k))
        return fail("stn.store in " + where + " copies point " + Twine(h) + ", level " + Twine(k) +
                    " of " + sourceInfo.description + ", which was computed on " +
                    describeBox(sourceInfo, source.box) + " only");
      size_t from = source.indexOf(h, 0, k);
      if (!source.computed.empty() && !source.computed[from])
        return notComputed(instr.source, "copied by stn.store", h, k);
      size_t index = field.indexOf(h, 0, k);
      noteAccess(instr.field, index, kWritten);
      writeElement(field, index, readElement(source, from));
      return success();
    });
  Box box = evaluateDomain(instr.domain);
  if (box.empty())
    return success();
  if (!source.box.contains(box))
    return fail("stn.store in " + where + " copies " + describeBox(sourceInfo, box) + " of " +
                sourceInfo.description + ", which was computed on " +
                describeBox(sourceInfo, source.box) + " only");
  if (!field.box.contains(box))
    return fail("stn.store in " + where + " writes " + describeBox(fieldInfo, box) + " of " +
                fieldInfo.description + ", outside its " + describeBox(fieldInfo, field.box));
  for (int64_t k = box.kBegin; k < box.kEnd; ++k)
    for (int64_t h = box.hBegin; h < box.hEnd; ++h) {
      size_t index = field.indexOf(h, 0, k);
      noteAccess(instr.field, index, kWritten);
      writeElement(field, index, readElement(source, source.indexOf(h, 0, k)));
    }
  return success();
}

LogicalResult Executor::execute(const ExchangeInstr &instr) {
  if (!exchange)
    return success();
  std::vector<ExchangedField> fields;
  for (ArrayId id : instr.fields) {
    const Array &array = arrays[id];
    fields.push_back(ExchangedField{program.arrays[id].name,
                                    FieldView{array.data, array.element, array.numElements()}});
  }
  exchange(fields);
  return success();
}

LogicalResult Executor::execute(const WavefrontInstr &instr) {
  // Kernel traffic counts the group as one launch, as the C++ backend times it.
  if (trackingKernels) {
    inTrackedKernel = true;
    LogicalResult result = runBlock(instr.body);
    inTrackedKernel = false;
    countKernelCall(instr.name, kNoList);
    return result;
  }
  // Several ranks, or too few levels for the plan to pay, run the group as
  // written, as the C++ backend does.
  int64_t levels = 1;
  for (auto [lb, ub] : instr.levels)
    levels = std::max(levels, words[ub].i - words[lb].i);
  if (exchange || levels < instr.minLevels)
    return runBlock(instr.body);
  std::vector<wavefront::Domain> domains;
  for (auto [lb, ub] : instr.stages)
    domains.push_back({static_cast<int32_t>(words[lb].i), static_cast<int32_t>(words[ub].i)});
  std::vector<wavefront::Dependence> waits;
  for (const WavefrontInstr::Wait &wait : instr.waits) {
    wavefront::Dependence dependence{wait.stage, wait.on, wavefront::Order::Same, nullptr, 0, 0};
    if (wait.table != kNoTable) {
      const Table &table = program.tables[wait.table];
      dependence = {wait.stage, wait.on,
                    wait.order == stn::WavefrontOp::Order::Gather ? wavefront::Order::Gather
                                                                  : wavefront::Order::Scatter,
                    table.entries, table.ld, static_cast<int32_t>(table.numNeighbors)};
    }
    waits.push_back(dependence);
  }
  std::vector<std::vector<wavefront::FoldAccess>> foldAccesses;
  std::vector<wavefront::Fold> folds;
  for (const WavefrontInstr::Fold &fold : instr.folds) {
    const ArrayInfo &info = program.arrays[fold.array];
    std::vector<wavefront::FoldAccess> &accesses = foldAccesses.emplace_back();
    for (const WavefrontInstr::Fold::Access &access : fold.accesses) {
      wavefront::FoldAccess described{access.stage, wavefront::FoldAccess::Write, nullptr, 0, 0};
      if (access.kind == stn::WavefrontOp::FoldAccess::Read)
        described.kind = wavefront::FoldAccess::Read;
      if (access.table != kNoTable) {
        const Table &table = program.tables[access.table];
        described = {access.stage, wavefront::FoldAccess::Gather, table.entries, table.ld,
                     static_cast<int32_t>(table.numNeighbors)};
      }
      accesses.push_back(described);
    }
    folds.push_back({static_cast<int32_t>(numPoints(mesh, *info.location)),
                     numLevels(info.vertical, nlev),
                     static_cast<int64_t>(elementBytes(info.element)), accesses.data(),
                     static_cast<int32_t>(accesses.size())});
  }
  wavefront::Plan plan;
  // Domains no plan takes (negative or reversed) fail in program order, with
  // the kernel's own message.
  if (plan.build(domains.data(), static_cast<int32_t>(domains.size()), waits.data(),
                 static_cast<int32_t>(waits.size()), /*threads=*/1,
                 static_cast<int32_t>(instr.tile), folds.data(),
                 static_cast<int32_t>(folds.size())) != FUSEC_SUCCESS)
    return runBlock(instr.body);
  // The folded buffers live in the plan's columns while it runs; their full
  // arrays are dead after the group (the verifier checked that only it uses them).
  for (auto [index, fold] : llvm::enumerate(instr.folds)) {
    if (!plan.folded(static_cast<int32_t>(index)))
      continue;
    Array &array = arrays[fold.array];
    Array::Folding &folding = array.folding.emplace();
    folding.slots = &plan.fold_slots(static_cast<int32_t>(index));
    folding.columns = plan.fold_columns(static_cast<int32_t>(index));
    size_t elements = static_cast<size_t>(folding.columns * (array.box.kEnd - array.box.kBegin));
    folding.storage.assign((elements * elementBytes(array.element) + 7) / 8, 0);
    folding.owner.assign(elements, -1);
    array.data = folding.storage.data();
  }
  LogicalResult result = success();
  plan.execute(0, [&](int32_t stage, int32_t begin, int32_t end) {
    if (failed(result))
      return;
    running = {stage, begin, end};
    result = runBlock(instr.body);
  });
  running = RunningStage();
  for (const WavefrontInstr::Fold &fold : instr.folds) {
    Array &array = arrays[fold.array];
    array.folding.reset();
    array.data = array.storage.data();
  }
  return result;
}

} // namespace

mlir::LogicalResult executeProgram(const CompiledProgram &program, const fusec_mesh &mesh, int nlev,
                                   llvm::ArrayRef<Argument> args, const ExchangeCallback &exchange,
                                   std::string &error, std::vector<FieldTraffic> *traffic,
                                   std::vector<KernelTraffic> *kernelTraffic) {
  Executor executor(program, mesh, nlev, exchange, error);
  if (traffic)
    executor.trackTraffic();
  if (kernelTraffic)
    executor.trackKernelTraffic();
  if (failed(executor.bindArguments(args)) || failed(executor.run()))
    return failure();
  if (traffic)
    *traffic = executor.countTraffic();
  if (kernelTraffic)
    *kernelTraffic = executor.takeKernelTraffic();
  return success();
}

} // namespace fusec::interp
