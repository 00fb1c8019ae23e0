//===- KernelBodyEmitter.cpp - statements of one kernel point -------------===//

#include "codegen/KernelBodyEmitter.h"

#include "codegen/CEmitterCommon.h"
#include "codegen/KernelForm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fusec::stn;

namespace fusec::codegen {

KernelBodyEmitter::KernelBodyEmitter(KernelOp kernel, KernelScope &scope, bool unrollReductions)
    : kernel(kernel), scope(scope), unrollReductions(unrollReductions) {}

LogicalResult KernelBodyEmitter::emit(raw_ostream &os) {
  return emitBlock(kernel.getBody().front(), os);
}

LogicalResult KernelBodyEmitter::emitBlock(Block &block, raw_ostream &os) {
  for (Operation &op : block.without_terminator())
    if (failed(emitOp(&op, os)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Values and names
//===----------------------------------------------------------------------===//

/// Points are int32 indices.
static std::string valueType(Type type) {
  return isa<PointType>(type) ? "int32_t" : *cScalarType(type);
}

std::string KernelBodyEmitter::expr(Value value) {
  auto it = scope.values.find(value);
  if (it != scope.values.end())
    return it->second;
  // Constants, in the kernel or captured from the program, are inlined;
  // verifyKernelForm admits only types that have literals.
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  assert(constant && "value used before it was emitted");
  std::string literal = *cLiteral(constant.getValue());
  scope.values[value] = literal;
  return literal;
}

void KernelBodyEmitter::declare(Value value, StringRef hint, StringRef init, raw_ostream &os) {
  std::string name = scope.names.unique(hint);
  os << "const " << valueType(value.getType()) << " " << name << " = " << init << ";\n";
  scope.values[value] = name;
}

std::string KernelBodyEmitter::freshTemporary() { return "t" + std::to_string(temporaries++); }

const KernelScope::Table &KernelBodyEmitter::table(FlatSymbolRefAttr conn) {
  auto it = scope.tables.find(conn.getValue());
  assert(it != scope.tables.end() && "connectivity missing from the kernel's parameters");
  return it->second;
}

//===----------------------------------------------------------------------===//
// Missing points and element indices
//===----------------------------------------------------------------------===//

/// `factor`, `x * factor` or `(x + 1) * factor`; empty when x is 0, x when factor is 1.
static std::string scaled(StringRef x, StringRef factor) {
  if (x == "0")
    return "";
  if (factor == "1")
    return x.str();
  if (x == "1")
    return factor.str();
  if (x.contains(' '))
    return "(" + x.str() + ") * " + factor.str();
  return x.str() + " * " + factor.str();
}

/// `x / divisor`, or `x` where the divisor is the literal 1 (the columns layout).
static std::string quotient(StringRef x, StringRef divisor) {
  return divisor == "1" ? x.str() : x.str() + " / " + divisor.str();
}

static std::string sum(ArrayRef<std::string> terms) {
  std::vector<std::string> present;
  for (const std::string &term : terms)
    if (!term.empty())
      present.push_back(term);
  return present.empty() ? "0" : llvm::join(present, " + ");
}

std::optional<BlockedShape> BlockedShape::of(Type field) {
  FieldShape shape = FieldShape::of(field);
  if (!shape.location || (shape.sparse.empty() && shape.vertical == VerticalKind::None))
    return std::nullopt;
  return BlockedShape{shape.vertical, shape.sparse.empty() ? 0 : shape.sparseSize};
}

std::optional<BlockedShape> BlockedShape::of(Value field, KernelOp kernel) {
  std::optional<BlockedShape> shape = of(field.getType());
  auto wavefront = kernel.getStage() ? kernel->getParentOfType<WavefrontOp>() : WavefrontOp();
  std::optional<unsigned> index = wavefront ? wavefront.foldIndexOf(field) : std::nullopt;
  if (!shape || !index)
    return shape;
  // Plan::build gives folds with the same points, levels and accesses one
  // layout, so kernels address folds of one type and the same accesses
  // through the first's column starts.
  ValueRange folds = wavefront.getFolds();
  ArrayAttr accesses = wavefront.getFoldAccesses();
  for (unsigned first = 0; first <= *index; ++first)
    if (folds[first].getType() == field.getType() && accesses[first] == accesses[*index]) {
      shape->fold = first;
      break;
    }
  return shape;
}

std::string BlockedShape::beyond(StringRef numLevels) const {
  if (vertical == VerticalKind::None)
    return std::to_string(sparseSize - 1);
  bool half = vertical == VerticalKind::Half;
  if (!sparseSize)
    return half ? numLevels.str() : numLevels.str() + " - 1";
  std::string levels = half ? "(" + numLevels.str() + " + 1)" : numLevels.str();
  return std::to_string(sparseSize) + " * " + levels + " - 1";
}

std::string BlockedShape::suffix() const {
  std::string vertical = this->vertical == VerticalKind::Full   ? "full"
                         : this->vertical == VerticalKind::Half ? "half"
                                                                : "";
  if (fold >= 0)
    return vertical + "_fold" + std::to_string(fold);
  if (!sparseSize)
    return vertical;
  std::string sparse = "s" + std::to_string(sparseSize);
  return vertical.empty() ? sparse : sparse + "_" + vertical;
}

const std::string &nameOfShape(const NamesByShape &names, const BlockedShape &shape) {
  auto it = llvm::find_if(names, [&](const auto &entry) { return entry.first == shape; });
  assert(it != names.end() && "no name for the shape");
  return it->second;
}

template <typename T> static void addUnique(SmallVectorImpl<T> &list, const T &item) {
  if (!llvm::is_contained(list, item))
    list.push_back(item);
}

BlockedGathers BlockedGathers::of(KernelOp kernel) {
  BlockedGathers gathers;
  kernel.walk([&](Operation *op) {
    auto load = dyn_cast<LoadOp>(op);
    auto prefetch = dyn_cast<PrefetchOp>(op);
    if (!load && !prefetch)
      return;
    Value point = load ? load.getPoint() : prefetch.getPoint();
    std::optional<BlockedShape> shape =
        BlockedShape::of(load ? load.getField() : prefetch.getField(), kernel);
    if (!point || !shape)
      return;
    std::optional<StringRef> table = neighborTable(point);
    if (!table)
      return;
    addUnique(gathers.atPoint[point], *shape);
    addUnique(gathers.perTable[*table], *shape);
  });
  return gathers;
}

std::string KernelBodyEmitter::levelTerm(Value field, StringRef level) {
  FieldShape shape = FieldShape::of(field.getType());
  if (!shape.location || level.empty())
    return level.str();
  std::string levelStride = scope.leadingDimensions[static_cast<int>(*shape.location)];
  if (!shape.sparse.empty())
    levelStride += " * " + std::to_string(shape.sparseSize);
  return scaled(level, levelStride);
}

std::string KernelBodyEmitter::elementIndex(Value field, Value point, Value slot, StringRef level) {
  FieldShape shape = FieldShape::of(field.getType());
  if (!shape.location)
    return level.str();
  const std::string &ld = scope.leadingDimensions[static_cast<int>(*shape.location)];
  bool sparse = !shape.sparse.empty();
  std::string pointTerm, blockTerm;
  // Blocked: one block holds ld*N*L elements, of which the terms above cover
  // ld (the point index h = jc + jb*ld counts them); 2-D dense fields need nothing.
  std::optional<BlockedShape> blockedShape = BlockedShape::of(field, kernel);
  auto offsets = scope.pointOffsets.find(point);
  if (scope.blocked && blockedShape && offsets != scope.pointOffsets.end()) {
    // A neighbour: its block offset is point and block term in one.
    pointTerm = nameOfShape(offsets->second, *blockedShape);
  } else if (scope.blocked && blockedShape && blockedShape->fold >= 0) {
    // A folded buffer's column starts are point and block term in one.
    pointTerm = scope.foldColumns.lookup(blockedShape->fold) + "[" + expr(point) + "]";
  } else {
    pointTerm = expr(point);
    if (scope.blocked && blockedShape) {
      std::string beyond = "(" + blockedShape->beyond(scope.numLevels) + ")";
      std::string blockSize =
          scope.nproma == "1" ? beyond : "(" + scope.nproma + " * " + beyond + ")";
      blockTerm = scaled(blockOf(point, scope.nproma), blockSize);
    }
  }
  return sum({pointTerm, sparse ? scaled(expr(slot), ld) : std::string(), levelTerm(field, level),
              blockTerm});
}

std::string KernelBodyEmitter::blockOf(Value point, StringRef ld) {
  auto known = scope.pointBlocks.find(point);
  if (known != scope.pointBlocks.end())
    return known->second;
  // A point from elsewhere (an scf.if result): -1 / ld is 0, as for missing points.
  return ld == "1" ? expr(point) : "(" + expr(point) + " / " + ld.str() + ")";
}

bool KernelBodyEmitter::declareBlockOffsets(Value point, const KernelScope::Table &entries,
                                            StringRef position, StringRef guard,
                                            raw_ostream &os) {
  auto shapes = scope.gathers.atPoint.find(point);
  if (!scope.blocked || shapes == scope.gathers.atPoint.end())
    return true;
  StringRef table = *neighborTable(point);
  NamesByShape &names = scope.pointOffsets[point];
  for (const BlockedShape &shape : shapes->second) {
    std::string read = nameOfShape(entries.blockOffsets, shape) + "[" + position.str() + "]";
    if (!guard.empty())
      read = guard.str() + " >= 0 ? " + read + " : -1";
    names.push_back({shape, scope.names.unique(table.lower() + "_" + shape.suffix())});
    os << "const int64_t " << names.back().second << " = " << read << ";\n";
  }
  return llvm::any_of(point.getUsers(), [&](Operation *user) {
    if (isa<ValidOp, PrefetchOp>(user))
      return false;
    auto load = dyn_cast<LoadOp>(user);
    return !load || !BlockedShape::of(load.getField().getType());
  });
}

std::string KernelBodyEmitter::presence(Value point) {
  auto offsets = scope.pointOffsets.find(point);
  return offsets != scope.pointOffsets.end() ? offsets->second.front().second : expr(point);
}

/// A negative literal after `+` needs parentheses.
static std::string wrapped(StringRef operand) {
  return operand.starts_with("-") ? "(" + operand.str() + ")" : operand.str();
}

static std::string withOffset(StringRef base, int64_t offset) {
  if (offset > 0)
    return base.str() + " + " + std::to_string(offset);
  if (offset < 0)
    return base.str() + " - " + std::to_string(-offset);
  return base.str();
}

std::string KernelBodyEmitter::levelOf(Value level) { return level ? expr(level) : ""; }

std::string KernelBodyEmitter::loadLevel(LoadOp load) {
  if (FieldShape::of(load.getField().getType()).vertical == VerticalKind::None)
    return "";
  std::string level = levelOf(load.getLevel());
  if (Value dyn = load.getDynOffset())
    level += " + " + wrapped(expr(dyn));
  return withOffset(level, load.getLevelOffset());
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult KernelBodyEmitter::emitOp(Operation *op, raw_ostream &os) {
  if (isDead(op))
    return success();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](LoadOp load) { return emitLoad(load, os); })
      .Case([&](NeighborOp neighbor) { return emitNeighbor(neighbor, os); })
      .Case([&](ReduceOp reduce) { return emitReduce(reduce, os); })
      .Case([&](scf::IfOp ifOp) { return emitIf(ifOp, os); })
      .Case([&](scf::ForOp loop) { return emitFor(loop, os); })
      .Case([&](scf::WhileOp loop) { return emitWhile(loop, os); })
      .Case([&](PointAtOp pointAt) {
        // A point is its index; the points of a work item's loop share its
        // block, a point computed otherwise (the next one) has its own.
        scope.values[pointAt.getResult()] = expr(pointAt.getIndex());
        if (scope.blocked)
          scope.pointBlocks[pointAt.getResult()] =
              isa<BlockArgument>(pointAt.getIndex())
                  ? scope.workItemBlock
                  : quotient(expr(pointAt.getIndex()), scope.nproma);
        return success();
      })
      .Case([&](PrefetchOp prefetch) { return emitPrefetch(prefetch, os); })
      .Case([&](WriteOp write) { return emitWrite(write, os); })
      .Case([&](ListPointOp entry) { return emitListPoint(entry, os); })
      .Case([&](ListRunOp run) {
        declare(run.getLength(), "run",
                "fusec::list_run(" + scope.list.cell + ", " + scope.list.level + ", " +
                    expr(run.getEntry()) + ", " + expr(run.getEnd()) + ")",
                os);
        return success();
      })
      .Case([&](RowOp row) {
        // The work item's own array, on its thread's stack (in L1).
        std::string name = scope.names.unique("row");
        os << *cScalarType(row.getType().getElementType()) << " " << name << "["
           << row.getType().getSize() << "];\n";
        scope.values[row.getRow()] = name;
        return success();
      })
      .Case([&](RowLoadOp load) {
        declare(load.getResult(), "carried",
                expr(load.getRow()) + "[" + expr(load.getIndex()) + "]", os);
        return success();
      })
      .Case([&](RowStoreOp store) {
        os << expr(store.getRow()) << "[" << expr(store.getIndex()) << "] = "
           << expr(store.getValue()) << ";\n";
        return success();
      })
      .Case([&](IndexOp index) {
        // A point is its index, -1 when missing.
        scope.values[index.getResult()] = expr(index.getPoint());
        return success();
      })
      .Case([&](LevelOp level) {
        std::string current = levelOf(level.getLevel());
        if (level.getLevelOffset() == 0)
          scope.values[level.getResult()] = current;
        else
          declare(level.getResult(), "level", withOffset(current, level.getLevelOffset()), os);
        return success();
      })
      .Case([&](TableCompleteOp complete) {
        // Rows [lo, hi) hold no -1 exactly when as many rows before hi as before lo do.
        const std::string &before = table(complete.getConnAttr()).missingBefore;
        declare(complete.getResult(), "complete",
                before + "[" + expr(complete.getHi()) + "] == " + before + "[" +
                    expr(complete.getLo()) + "]",
                os);
        return success();
      })
      .Case([&](ValidOp valid) {
        if (!mayBeMissing(valid.getPoint()))
          scope.values[valid.getResult()] = "true";
        else
          declare(valid.getResult(), "valid", presence(valid.getPoint()) + " >= 0", os);
        return success();
      })
      .Case([&](arith::ConstantOp constant) -> LogicalResult {
        if (!cLiteral(constant.getValue()))
          return constant.emitError() << "cannot emit the constant " << constant.getValue();
        return success();
      })
      .Default([&](Operation *other) -> LogicalResult {
        if (isNoOpCast(other)) {
          scope.values[other->getResult(0)] = expr(other->getOperand(0));
          return success();
        }
        SmallVector<std::string> operands;
        for (Value operand : other->getOperands())
          operands.push_back(expr(operand));
        FailureOr<std::string> text = arithExpression(other, operands);
        if (failed(text))
          return failure();
        declare(other->getResult(0), freshTemporary(), *text, os);
        return success();
      });
}

LogicalResult KernelBodyEmitter::emitLoad(LoadOp load, raw_ostream &os) {
  Value field = load.getField(), point = load.getPoint();
  std::string base = expr(field);
  std::string read;
  if (load.getDynOffset() && scope.columns())
    // A gather at data-dependent levels in the columns layout: the column's start as a pointer
    // and the level as an int32 index, so that GCC's vector gathers take 32-bit indices
    // instead of sign-extending and adding each lane's level to a 64-bit column start.
    read = "(&" + base + "[" + elementIndex(field, point, load.getNbr(), "") + "])[" +
           levelTerm(field, loadLevel(load)) + "]";
  else
    read = base + "[" + elementIndex(field, point, load.getNbr(), loadLevel(load)) + "]";
  if (point && mayBeMissing(point))
    read = presence(point) + " >= 0 ? " + read + " : " + zeroLiteral(load.getType());
  declare(load.getResult(), base, read, os);
  return success();
}

LogicalResult KernelBodyEmitter::emitNeighbor(NeighborOp neighbor, raw_ostream &os) {
  const KernelScope::Table &entries = table(neighbor.getConnAttr());
  std::string position =
      sum({expr(neighbor.getPoint()), scaled(expr(neighbor.getIndex()), entries.ld)});
  std::string guard = mayBeMissing(neighbor.getPoint()) ? presence(neighbor.getPoint()) : "";
  if (!declareBlockOffsets(neighbor.getResult(), entries, position, guard, os))
    return success();
  std::string read = entries.entries + "[" + position + "]";
  if (!guard.empty())
    read = guard + " >= 0 ? " + read + " : -1";
  declare(neighbor.getResult(), neighbor.getConn().lower(), read, os);
  return success();
}

LogicalResult KernelBodyEmitter::emitPrefetch(PrefetchOp prefetch, raw_ostream &os) {
  // Only a point's levels are contiguous there.
  if (!scope.columns())
    return prefetch.emitOpError() << "is printed in the columns layout only";
  Value field = prefetch.getField(), point = prefetch.getPoint();
  bool half = FieldShape::of(field.getType()).vertical == VerticalKind::Half;
  std::string call = "fusec::prefetch_column(&" + expr(field) + "[" +
                     elementIndex(field, point, Value(), "") + "], " +
                     expr(prefetch.getLevelBegin()) + ", " + expr(prefetch.getLevelEnd()) + ", " +
                     (half ? scope.numLevels + " + 1" : scope.numLevels) + ");\n";
  if (mayBeMissing(point))
    call = "if (" + presence(point) + " >= 0)\n" + call;
  os << call;
  return success();
}

LogicalResult KernelBodyEmitter::emitReduce(ReduceOp reduce, raw_ostream &os) {
  ConnectivityOp conn = lookupConnectivity(reduce, reduce.getConnAttr());
  Type type = reduce.getType();
  ReduceKind kind = reduce.getKind();
  std::string connName = conn.getSymName().lower();
  std::string acc = scope.names.unique(stringifyReduceKind(kind).str() + "_" + connName);
  os << valueType(type) << " " << acc << " = " << reductionIdentity(kind, type) << ";\n";

  std::string point = expr(reduce.getPoint());
  bool guardPoint = mayBeMissing(reduce.getPoint());
  if (guardPoint)
    os << "if (" << point << " >= 0) {\n";
  if (unrollReductions)
    os << "#pragma unroll\n";
  std::string slot = scope.names.unique("j");
  os << "for (int32_t " << slot << " = 0; " << slot << " < " << conn.getSize() << "; ++" << slot
     << ") {\n";
  scope.values[reduce.getSlot()] = slot;
  BlockArgument neighbor = reduce.getNeighbor();
  // The table is read only when the body needs the neighbour or some may be
  // missing; otherwise the fold is the body once per slot.
  if (isUsed(neighbor) || conn.getSkip()) {
    const KernelScope::Table &entries = table(reduce.getConnAttr());
    std::string position = sum({point, scaled(slot, entries.ld)});
    if (declareBlockOffsets(neighbor, entries, position, /*guard=*/"", os)) {
      std::string name = scope.names.unique(connName);
      os << "const int32_t " << name << " = " << entries.entries << "[" << position << "];\n";
      scope.values[neighbor] = name;
    }
    if (conn.getSkip())
      os << "if (" << presence(neighbor) << " < 0)\ncontinue;\n";
  }
  Block &body = reduce.getBody().front();
  if (failed(emitBlock(body, os)))
    return failure();
  Value yielded = cast<YieldOp>(body.getTerminator()).getValues()[0];
  os << reductionStep(kind, type, acc, expr(yielded)) << ";\n}\n";
  if (guardPoint)
    os << "}\n";
  scope.values[reduce.getResult()] = acc;
  return success();
}

LogicalResult KernelBodyEmitter::emitIf(scf::IfOp ifOp, raw_ostream &os) {
  return emitIfStatement(
      ifOp, os,
      [&](OpResult result, raw_ostream &declOs) {
        std::string name = scope.names.unique(freshTemporary());
        declOs << valueType(result.getType()) << " " << name << ";\n";
        scope.values[result] = name;
        return name;
      },
      [&](Block &block, raw_ostream &blockOs) { return emitBlock(block, blockOs); },
      [&](Value value) { return expr(value); });
}

LogicalResult KernelBodyEmitter::emitWrite(WriteOp write, raw_ostream &os) {
  Value field = write.getField();
  if (write.getNontemporal()) {
    auto stage = columnStages.find(write);
    if (stage == columnStages.end())
      return write.emitOpError()
             << "is printed non-temporal in C++ kernels of the columns layout only";
    os << stage->second << "[" << levelOf(write.getLevel()) << "] = " << expr(write.getValue())
       << ";\n";
    return success();
  }
  os << expr(field) << "[" << elementIndex(field, write.getPoint(), Value(), levelOf(write.getLevel()))
     << "] = " << expr(write.getValue()) << ";\n";
  return success();
}

std::string KernelBodyEmitter::declareColumnStages() {
  std::string declarations;
  // A stage is indexed by level, up to nlev + 1 (half levels).
  kernel.walk([&](WriteOp write) {
    if (!write.getNontemporal() || !scope.columns())
      return;
    Type element = cast<FieldType>(write.getField().getType()).getElementType();
    std::string name = scope.names.unique("stage");
    declarations += "fusec::ColumnStage<" + *cScalarType(element) + "> " + name + "(" +
                    scope.numLevels + " + 1);\n";
    columnStages[write] = name;
  });
  return declarations;
}

void KernelBodyEmitter::storeColumnStages(scf::ForOp loop, raw_ostream &os) {
  std::string begin = expr(loop.getLowerBound()), end = expr(loop.getUpperBound());
  for (WriteOp write : loop.getBody()->getOps<WriteOp>()) {
    if (!write.getNontemporal() || isDead(write))
      continue;
    Value field = write.getField();
    os << columnStages.lookup(write) << ".store(&" << expr(field) << "["
       << elementIndex(field, write.getPoint(), Value(), begin) << "], " << begin << ", " << end
       << ");\n";
  }
}

LogicalResult KernelBodyEmitter::emitListPoint(ListPointOp entry, raw_ostream &os) {
  std::string index = expr(entry.getEntry());
  Value point = entry.getPoint();
  if (isUsed(point))
    declare(point, "h", scope.list.cell + "[" + index + "]", os);
  if (isUsed(entry.getLevel()))
    declare(entry.getLevel(), "k", scope.list.level + "[" + index + "]", os);
  // Entries are flat indices, each in a block of its own: the blocked
  // layout's accesses at the point (not at its neighbours) need that block.
  bool indexedByBlock = llvm::any_of(point.getUsers(), [](Operation *user) {
    auto load = dyn_cast<LoadOp>(user);
    auto write = dyn_cast<WriteOp>(user);
    Value field = load ? load.getField() : write ? write.getField() : Value();
    return field && !isDead(user) && BlockedShape::of(field.getType());
  });
  if (scope.blocked && indexedByBlock) {
    std::string block = scope.names.unique("jb");
    os << "const int32_t " << block << " = " << quotient(expr(point), scope.nproma) << ";\n";
    scope.pointBlocks[point] = block;
  }
  return success();
}

/// Whether `index` is a loop's entry of a point list (its point and level, or its run, read there).
static bool indexesListEntries(Value index) {
  return llvm::any_of(index.getUsers(),
                      [](Operation *user) { return isa<ListPointOp, ListRunOp>(user); });
}

void KernelBodyEmitter::assignYielded(ArrayRef<std::string> variables, ValueRange yielded,
                                      raw_ostream &os) {
  // Through temporaries: one carried value may be yielded into another.
  SmallVector<std::string> next;
  for (Value value : yielded) {
    next.push_back(freshTemporary());
    os << "const " << valueType(value.getType()) << " " << next.back() << " = " << expr(value)
       << ";\n";
  }
  for (auto [variable, value] : llvm::zip_equal(variables, next))
    os << variable << " = " << value << ";\n";
}

LogicalResult KernelBodyEmitter::emitFor(scf::ForOp loop, raw_ostream &os) {
  // Values carried between iterations are variables, assigned at the end of
  // each iteration; the loop's results are their last values.
  SmallVector<std::string> carried;
  for (auto [arg, init] : llvm::zip_equal(loop.getRegionIterArgs(), loop.getInitArgs())) {
    carried.push_back(scope.names.unique("carry"));
    os << valueType(arg.getType()) << " " << carried.back() << " = " << expr(init) << ";\n";
    scope.values[arg] = carried.back();
  }
  Value iv = loop.getInductionVar();
  bool overPoints =
      llvm::any_of(iv.getUsers(), [](Operation *user) { return isa<PointAtOp>(user); });
  bool overEntries = indexesListEntries(iv);
  std::string name = scope.names.unique(overPoints ? "h" : overEntries ? "e" : "k");
  scope.values[iv] = name;
  std::string step = expr(loop.getStep());
  if (loop->hasAttr(StnDialect::kSimdAttr))
    os << "#pragma omp simd\n";
  os << "for (int32_t " << name << " = " << expr(loop.getLowerBound()) << "; " << name << " < "
     << expr(loop.getUpperBound()) << "; " << (step == "1" ? "++" + name : name + " += " + step)
     << ") {\n";
  Block &body = *loop.getBody();
  if (failed(emitBlock(body, os)))
    return failure();
  assignYielded(carried, cast<scf::YieldOp>(body.getTerminator()).getResults(), os);
  os << "}\n";
  storeColumnStages(loop, os);
  for (auto [result, variable] : llvm::zip_equal(loop.getResults(), carried))
    scope.values[result] = variable;
  return success();
}

LogicalResult KernelBodyEmitter::emitWhile(scf::WhileOp loop, raw_ostream &os) {
  // The before block's arguments are variables, assigned the after block's
  // yielded values at the end of each iteration; the loop's results are the
  // values the condition forwards when it fails.
  scf::ConditionOp condition = loop.getConditionOp();
  bool overEntries = llvm::any_of(loop.getAfterArguments(), indexesListEntries);
  SmallVector<std::string> carried;
  for (auto [arg, init] : llvm::zip_equal(loop.getBeforeArguments(), loop.getInits())) {
    carried.push_back(scope.names.unique(overEntries ? "e" : "carry"));
    os << valueType(arg.getType()) << " " << carried.back() << " = " << expr(init) << ";\n";
    scope.values[arg] = carried.back();
  }
  // A result nothing reads gets no variable (empty name).
  SmallVector<std::string> results;
  for (Value result : loop.getResults()) {
    results.push_back(result.use_empty() ? "" : scope.names.unique("last"));
    if (!result.use_empty())
      os << valueType(result.getType()) << " " << results.back() << ";\n";
  }
  os << "while (true) {\n";
  if (failed(emitBlock(*loop.getBeforeBody(), os)))
    return failure();
  for (auto [variable, value] : llvm::zip_equal(results, condition.getArgs()))
    if (!variable.empty())
      os << variable << " = " << expr(value) << ";\n";
  os << "if (!" << expr(condition.getCondition()) << ")\nbreak;\n";
  for (auto [arg, value] : llvm::zip_equal(loop.getAfterArguments(), condition.getArgs()))
    scope.values[arg] = expr(value);
  Block &after = *loop.getAfterBody();
  if (failed(emitBlock(after, os)))
    return failure();
  assignYielded(carried, cast<scf::YieldOp>(after.getTerminator()).getResults(), os);
  os << "}\n";
  for (auto [result, variable] : llvm::zip_equal(loop.getResults(), results))
    if (!variable.empty())
      scope.values[result] = variable;
  return success();
}

} // namespace fusec::codegen
