//===- Compiler.cpp - stn IR to interpreter bytecode ----------------------===//
//
// Walks a program once, numbers its SSA values and translates every op into
// an instruction (Bytecode.h). Everything that can be checked before running
// is checked here: supported ops and types, inferred domains, and the mesh's
// connectivity tables.
//
//===----------------------------------------------------------------------===//

#include "codegen/interpreter/Bytecode.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace stn = fusec::stn;

namespace fusec::interp {
namespace {

/// Where an op may appear: some ops only make sense at program level, others
/// only inside the per-point regions of applies and kernels.
enum class Scope { Program, Apply, Kernel };

/// "file:line:col" (or "line:col" for unnamed buffers) of an op.
std::string locationString(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
    if (!fileLoc.getFilename().empty())
      os << fileLoc.getFilename().getValue() << ":";
    os << fileLoc.getLine() << ":" << fileLoc.getColumn();
  } else {
    os << loc;
  }
  return text;
}

std::string describeOp(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "' at " + locationString(op->getLoc());
}

std::string describeApply(stn::ApplyOp apply) {
  if (std::optional<StringRef> name = apply.getName())
    return "apply '" + name->str() + "'";
  return "apply at " + locationString(apply.getLoc());
}

/// Values held in word slots: scalars, indices and points.
bool isWordType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless() && integer.getWidth() <= 64;
  return type.isF64() || type.isF32() || type.isIndex() || isa<stn::PointType>(type);
}

/// Values held in array slots: fields and temporaries.
bool isArrayType(Type type) { return isa<stn::FieldType, stn::TempType>(type); }

/// The computation type of a word type (points compute as 64-bit integers).
ScalarType scalarTypeOf(Type type) {
  if (type.isF64())
    return {ScalarType::Kind::F64, 64};
  if (type.isF32())
    return {ScalarType::Kind::F32, 32};
  if (auto integer = dyn_cast<IntegerType>(type))
    return {ScalarType::Kind::Int, integer.getWidth()};
  return {ScalarType::Kind::Int, 64};
}

FieldView::Element elementOf(Type type) {
  if (type.isF64())
    return FieldView::Element::F64;
  if (type.isF32())
    return FieldView::Element::F32;
  if (type.isInteger(64))
    return FieldView::Element::I64;
  if (type.isInteger(32))
    return FieldView::Element::I32;
  return FieldView::Element::Bool;
}

std::optional<FloatUnaryOp> floatUnaryOpOf(Operation &op) {
  return llvm::TypeSwitch<Operation *, std::optional<FloatUnaryOp>>(&op)
      .Case([](arith::NegFOp) { return FloatUnaryOp::Neg; })
      .Case([](math::SqrtOp) { return FloatUnaryOp::Sqrt; })
      .Case([](math::ExpOp) { return FloatUnaryOp::Exp; })
      .Case([](math::LogOp) { return FloatUnaryOp::Log; })
      .Case([](math::AbsFOp) { return FloatUnaryOp::Abs; })
      .Case([](math::FloorOp) { return FloatUnaryOp::Floor; })
      .Case([](math::CeilOp) { return FloatUnaryOp::Ceil; })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<FloatBinaryOp> floatBinaryOpOf(Operation &op) {
  return llvm::TypeSwitch<Operation *, std::optional<FloatBinaryOp>>(&op)
      .Case([](arith::AddFOp) { return FloatBinaryOp::Add; })
      .Case([](arith::SubFOp) { return FloatBinaryOp::Sub; })
      .Case([](arith::MulFOp) { return FloatBinaryOp::Mul; })
      .Case([](arith::DivFOp) { return FloatBinaryOp::Div; })
      .Case([](arith::RemFOp) { return FloatBinaryOp::Rem; })
      .Case([](arith::MinNumFOp) { return FloatBinaryOp::MinNum; })
      .Case([](arith::MaxNumFOp) { return FloatBinaryOp::MaxNum; })
      .Case([](arith::MinimumFOp) { return FloatBinaryOp::Minimum; })
      .Case([](arith::MaximumFOp) { return FloatBinaryOp::Maximum; })
      .Case([](math::PowFOp) { return FloatBinaryOp::Pow; })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<IntBinaryOp> intBinaryOpOf(Operation &op) {
  return llvm::TypeSwitch<Operation *, std::optional<IntBinaryOp>>(&op)
      .Case([](arith::AddIOp) { return IntBinaryOp::Add; })
      .Case([](arith::SubIOp) { return IntBinaryOp::Sub; })
      .Case([](arith::MulIOp) { return IntBinaryOp::Mul; })
      .Case([](arith::DivSIOp) { return IntBinaryOp::DivS; })
      .Case([](arith::RemSIOp) { return IntBinaryOp::RemS; })
      .Case([](arith::AndIOp) { return IntBinaryOp::And; })
      .Case([](arith::OrIOp) { return IntBinaryOp::Or; })
      .Case([](arith::XOrIOp) { return IntBinaryOp::Xor; })
      .Case([](arith::MinSIOp) { return IntBinaryOp::MinS; })
      .Case([](arith::MaxSIOp) { return IntBinaryOp::MaxS; })
      .Default([](Operation *) { return std::nullopt; });
}

const fusec_connectivity *findConnectivity(const fusec_mesh &mesh, StringRef name) {
  for (int32_t i = 0; i < mesh.num_connectivities; ++i) {
    const fusec_connectivity &conn = mesh.connectivities[i];
    if (conn.name && name == conn.name)
      return &conn;
  }
  return nullptr;
}

class ProgramCompiler {
public:
  ProgramCompiler(stn::ProgramOp program, const fusec_mesh &mesh, int nlev, std::string &error)
      : program(program), mesh(mesh), nlev(nlev), error(error) {}

  std::unique_ptr<CompiledProgram> compile();

private:
  LogicalResult compileParameters();
  LogicalResult compileOps(mlir::Block &block, Scope scope, Block &code);
  LogicalResult compileOp(Operation &op, Scope scope, Block &code);
  LogicalResult checkScope(Operation &op, Scope scope);
  LogicalResult checkTypes(Operation &op);
  BlockId addBlock(Block code);

  // Scalar ops.
  LogicalResult compileConstant(arith::ConstantOp op, Block &code);
  LogicalResult compileIf(scf::IfOp op, Scope scope, Block &code);
  LogicalResult compileFor(scf::ForOp op, Scope scope, Block &code);
  LogicalResult compileWhile(scf::WhileOp op, Scope scope, Block &code);
  FailureOr<BlockId> compileBranch(Region &region, ArrayRef<Slot> results, Scope scope);

  // Ops inside applies and kernels.
  LogicalResult compileReduce(stn::ReduceOp op, Scope scope, Block &code);

  // Program-level ops.
  LogicalResult compileAlloc(stn::AllocOp op, Block &code);
  LogicalResult compileApply(stn::ApplyOp op, Block &code);
  LogicalResult compileKernel(stn::KernelOp op, Block &code);
  LogicalResult compileWavefront(stn::WavefrontOp op, Block &code);

  Slot define(Value value);
  Slot use(Value value) const { return words.lookup(value); }
  Slot useIfPresent(Value value) const { return value ? use(value) : kNoSlot; }
  ArrayId addArray(Value value, ArrayInfo info);
  ArrayId arrayOf(Value value) const { return arrays.lookup(value); }
  ArrayInfo arrayInfoFor(Type type, std::string description, std::string name) const;
  ListId addList(Value value, ListInfo info);
  ListId listOf(Value value) const { return lists.lookup(value); }
  Domain domainOf(std::optional<stn::GridLocation> location, Value hlb, Value hub, Value klb,
                  Value kub, Value points) const;
  FailureOr<TableId> tableFor(Operation *user, FlatSymbolRefAttr conn);
  LogicalResult checkTable(stn::ConnectivityOp decl, const fusec_connectivity &table);
  LogicalResult fail(const Twine &message);

  stn::ProgramOp program;
  const fusec_mesh &mesh;
  int nlev;
  std::string &error;
  CompiledProgram compiled;
  llvm::DenseMap<Value, Slot> words;
  llvm::DenseMap<Value, ArrayId> arrays;
  llvm::DenseMap<Value, RowId> rows;
  llvm::DenseMap<Value, ListId> lists;
  llvm::StringMap<TableId> tableIds;
};

LogicalResult ProgramCompiler::fail(const Twine &message) {
  error = ("program '" + compiled.name + "': " + message).str();
  return failure();
}

std::unique_ptr<CompiledProgram> ProgramCompiler::compile() {
  compiled.name = program.getSymName().str();
  compiled.blocks.emplace_back(); // kEntryBlock, filled below
  if (failed(compileParameters()))
    return nullptr;
  Block body;
  if (failed(compileOps(program.getBody().front(), Scope::Program, body)))
    return nullptr;
  compiled.blocks[kEntryBlock] = std::move(body);
  compiled.numWords = static_cast<int32_t>(words.size());
  return std::make_unique<CompiledProgram>(std::move(compiled));
}

LogicalResult ProgramCompiler::compileParameters() {
  for (unsigned i = 0, e = program.getNumArguments(); i < e; ++i) {
    BlockArgument argument = program.getArgument(i);
    Parameter parameter;
    parameter.name = program.getArgName(i).str();
    std::string label =
        parameter.name.empty() ? "argument #" + std::to_string(i) : "'" + parameter.name + "'";
    if (isa<stn::FieldType>(argument.getType())) {
      parameter.array =
          addArray(argument, arrayInfoFor(argument.getType(), "field " + label, parameter.name));
    } else if (auto list = dyn_cast<stn::PointsType>(argument.getType())) {
      parameter.list = addList(argument, ListInfo{"point list " + label, list.getLocation()});
    } else if (isWordType(argument.getType())) {
      parameter.word = define(argument);
      parameter.scalarType = scalarTypeOf(argument.getType());
    } else {
      std::string type;
      llvm::raw_string_ostream(type) << argument.getType();
      return fail("parameter " + label + " has type " + type +
                  ", which the interpreter does not support");
    }
    compiled.parameters.push_back(std::move(parameter));
  }
  return success();
}

BlockId ProgramCompiler::addBlock(Block code) {
  compiled.blocks.push_back(std::move(code));
  return static_cast<BlockId>(compiled.blocks.size() - 1);
}

Slot ProgramCompiler::define(Value value) {
  Slot slot = static_cast<Slot>(words.size());
  words[value] = slot;
  return slot;
}

ArrayId ProgramCompiler::addArray(Value value, ArrayInfo info) {
  ArrayId id = static_cast<ArrayId>(compiled.arrays.size());
  compiled.arrays.push_back(std::move(info));
  arrays[value] = id;
  return id;
}

ListId ProgramCompiler::addList(Value value, ListInfo info) {
  ListId id = static_cast<ListId>(compiled.lists.size());
  compiled.lists.push_back(std::move(info));
  lists[value] = id;
  return id;
}

ArrayInfo ProgramCompiler::arrayInfoFor(Type type, std::string description,
                                        std::string name) const {
  stn::FieldShape shape = stn::FieldShape::of(type);
  ArrayInfo info;
  info.description = std::move(description);
  info.name = std::move(name);
  info.element = elementOf(shape.elementType);
  info.location = shape.location;
  info.isSparse = !shape.sparse.empty();
  info.sparseSize = info.isSparse ? shape.sparseSize : 1;
  info.vertical = shape.vertical;
  info.isTemporary = isa<stn::TempType>(type);
  return info;
}

Domain ProgramCompiler::domainOf(std::optional<stn::GridLocation> location, Value hlb, Value hub,
                                 Value klb, Value kub, Value points) const {
  return Domain{location,          useIfPresent(hlb), useIfPresent(hub),
                useIfPresent(klb), useIfPresent(kub), points ? listOf(points) : kNoList};
}

LogicalResult ProgramCompiler::compileOps(mlir::Block &block, Scope scope, Block &code) {
  // A wavefront's block has no terminator.
  for (Operation &op : block)
    if (!op.hasTrait<OpTrait::IsTerminator>() && failed(compileOp(op, scope, code)))
      return failure();
  return success();
}

LogicalResult ProgramCompiler::checkScope(Operation &op, Scope scope) {
  bool programOnly =
      isa<stn::AllocOp, stn::ApplyOp, stn::StoreOp, stn::ExchangeOp, stn::KernelOp,
          stn::WavefrontOp>(op);
  bool regionOnly = isa<stn::LoadOp, stn::NeighborOp, stn::ReduceOp, stn::IndexOp, stn::LevelOp,
                        stn::ValidOp, stn::TableCompleteOp, stn::WriteOp, stn::PointAtOp,
                        scf::ForOp, scf::WhileOp, stn::RowOp, stn::RowLoadOp, stn::RowStoreOp,
                        stn::PrefetchOp, stn::ListPointOp, stn::ListRunOp>(op);
  if (programOnly && scope != Scope::Program)
    return fail(describeOp(&op) + " cannot appear inside an apply or a kernel");
  if (regionOnly && scope == Scope::Program)
    return fail(describeOp(&op) + " is only valid inside an apply or a kernel");
  if (isa<stn::WriteOp>(op) && scope != Scope::Kernel)
    return fail(describeOp(&op) + " is only valid inside a stn.kernel");
  return success();
}

LogicalResult ProgramCompiler::checkTypes(Operation &op) {
  auto unsupported = [&](Type type) {
    std::string text;
    llvm::raw_string_ostream(text) << type;
    return fail(describeOp(&op) + " works on " + text +
                ", but the interpreter supports only f64, f32, i1..i64 and index scalars, "
                "points, fields and temporaries");
  };
  bool scalarOnly =
      isa_and_nonnull<arith::ArithDialect, math::MathDialect, scf::SCFDialect>(op.getDialect());
  for (Type type : op.getResultTypes())
    if (!isWordType(type) && !isa<stn::RowType>(type) && (scalarOnly || !isArrayType(type)))
      return unsupported(type);
  if (scalarOnly)
    for (Type type : op.getOperandTypes())
      if (!isWordType(type))
        return unsupported(type);
  return success();
}

LogicalResult ProgramCompiler::compileOp(Operation &op, Scope scope, Block &code) {
  if (failed(checkScope(op, scope)) || failed(checkTypes(op)))
    return failure();
  if (std::optional<FloatUnaryOp> kind = floatUnaryOpOf(op)) {
    code.push_back(FloatUnaryInstr{*kind, op.getResult(0).getType().isF32(),
                                   define(op.getResult(0)), use(op.getOperand(0))});
    return success();
  }
  if (std::optional<FloatBinaryOp> kind = floatBinaryOpOf(op)) {
    code.push_back(FloatBinaryInstr{*kind, op.getResult(0).getType().isF32(),
                                    define(op.getResult(0)), use(op.getOperand(0)),
                                    use(op.getOperand(1))});
    return success();
  }
  if (std::optional<IntBinaryOp> kind = intBinaryOpOf(op)) {
    code.push_back(IntBinaryInstr{*kind, scalarTypeOf(op.getResult(0).getType()).width,
                                  define(op.getResult(0)), use(op.getOperand(0)),
                                  use(op.getOperand(1))});
    return success();
  }
  auto emit = [&](Instr instr) {
    code.push_back(std::move(instr));
    return success();
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](arith::ConstantOp constant) { return compileConstant(constant, code); })
      .Case([&](arith::CmpFOp cmp) {
        return emit(FloatCompareInstr{cmp.getPredicate(), cmp.getLhs().getType().isF32(),
                                      define(cmp.getResult()), use(cmp.getLhs()),
                                      use(cmp.getRhs())});
      })
      .Case([&](arith::CmpIOp cmp) {
        return emit(IntCompareInstr{cmp.getPredicate(), scalarTypeOf(cmp.getLhs().getType()).width,
                                    define(cmp.getResult()), use(cmp.getLhs()), use(cmp.getRhs())});
      })
      .Case([&](arith::SelectOp select) {
        return emit(SelectInstr{define(select.getResult()), use(select.getCondition()),
                                use(select.getTrueValue()), use(select.getFalseValue())});
      })
      .Case([&](arith::ExtFOp ext) {
        return emit(FloatCastInstr{false, define(ext.getResult()), use(ext.getIn())});
      })
      .Case([&](arith::TruncFOp trunc) {
        return emit(FloatCastInstr{true, define(trunc.getResult()), use(trunc.getIn())});
      })
      .Case([&](arith::SIToFPOp cast) {
        return emit(IntToFloatInstr{cast.getType().isF32(), /*isUnsigned=*/false, 64,
                                    define(cast.getResult()), use(cast.getIn())});
      })
      .Case([&](arith::FPToSIOp cast) {
        return emit(FloatToIntInstr{cast.getIn().getType().isF32(),
                                    scalarTypeOf(cast.getType()).width, define(cast.getResult()),
                                    use(cast.getIn())});
      })
      .Case([&](arith::UIToFPOp cast) {
        return emit(IntToFloatInstr{cast.getType().isF32(), /*isUnsigned=*/true,
                                    scalarTypeOf(cast.getIn().getType()).width,
                                    define(cast.getResult()), use(cast.getIn())});
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>([&](Operation *cast) {
        return emit(IntCastInstr{scalarTypeOf(cast->getResult(0).getType()).width,
                                 define(cast->getResult(0)), use(cast->getOperand(0))});
      })
      .Case([&](arith::ExtUIOp ext) {
        return emit(IntCastInstr{scalarTypeOf(ext.getType()).width, define(ext.getResult()),
                                 use(ext.getIn()), /*zeroExtend=*/true,
                                 scalarTypeOf(ext.getIn().getType()).width});
      })
      .Case([&](math::AbsIOp abs) {
        return emit(IntAbsInstr{scalarTypeOf(abs.getType()).width, define(abs.getResult()),
                                use(abs.getOperand())});
      })
      .Case([&](math::FPowIOp pow) {
        return emit(FloatPowIntInstr{pow.getType().isF32(), define(pow.getResult()),
                                     use(pow.getLhs()), use(pow.getRhs())});
      })
      .Case([&](scf::IfOp ifOp) { return compileIf(ifOp, scope, code); })
      .Case([&](scf::ForOp loop) { return compileFor(loop, scope, code); })
      .Case([&](scf::WhileOp loop) { return compileWhile(loop, scope, code); })
      .Case([&](stn::PointAtOp pointAt) {
        return emit(CopyInstr{define(pointAt.getResult()), use(pointAt.getIndex())});
      })
      .Case([&](stn::LoadOp load) {
        return emit(LoadInstr{arrayOf(load.getField()), define(load.getResult()),
                              useIfPresent(load.getPoint()), useIfPresent(load.getNbr()),
                              useIfPresent(load.getDynOffset()), load.getLevelOffset(),
                              useIfPresent(load.getLevel())});
      })
      .Case([&](stn::NeighborOp neighbor) -> LogicalResult {
        FailureOr<TableId> table = tableFor(neighbor, neighbor.getConnAttr());
        if (failed(table))
          return failure();
        return emit(NeighborInstr{*table, define(neighbor.getResult()), use(neighbor.getPoint()),
                                  use(neighbor.getIndex()), neighbor.getPresent()});
      })
      .Case([&](stn::TableCompleteOp complete) -> LogicalResult {
        FailureOr<TableId> table = tableFor(complete, complete.getConnAttr());
        if (failed(table))
          return failure();
        return emit(TableCompleteInstr{*table, define(complete.getResult()), use(complete.getLo()),
                                       use(complete.getHi())});
      })
      .Case([&](stn::ReduceOp reduce) { return compileReduce(reduce, scope, code); })
      .Case([&](stn::IndexOp index) {
        return emit(PointIndexInstr{define(index.getResult()), use(index.getPoint())});
      })
      .Case([&](stn::ValidOp valid) {
        return emit(ValidInstr{define(valid.getResult()), use(valid.getPoint())});
      })
      .Case([&](stn::LevelOp level) {
        return emit(LevelInstr{define(level.getResult()), level.getLevelOffset(),
                               useIfPresent(level.getLevel())});
      })
      .Case([&](stn::WriteOp write) {
        return emit(WriteInstr{arrayOf(write.getField()), use(write.getValue()),
                               useIfPresent(write.getPoint()), useIfPresent(write.getLevel())});
      })
      .Case([&](stn::RowOp row) {
        RowId id = compiled.numRows++;
        rows[row.getRow()] = id;
        return emit(RowInstr{id, row.getType().getSize()});
      })
      .Case([&](stn::RowLoadOp load) {
        return emit(
            RowLoadInstr{rows.lookup(load.getRow()), define(load.getResult()), use(load.getIndex())});
      })
      .Case([&](stn::RowStoreOp store) {
        return emit(
            RowStoreInstr{rows.lookup(store.getRow()), use(store.getValue()), use(store.getIndex())});
      })
      .Case([&](stn::PrefetchOp prefetch) {
        return emit(PrefetchInstr{arrayOf(prefetch.getField()), use(prefetch.getPoint())});
      })
      .Case([&](stn::ListPointOp entry) {
        return emit(ListPointInstr{listOf(entry.getList()), use(entry.getEntry()),
                                   define(entry.getPoint()), define(entry.getLevel())});
      })
      .Case([&](stn::ListRunOp run) {
        return emit(ListRunInstr{listOf(run.getList()), use(run.getEntry()),
                                 use(run.getEnd()), define(run.getLength())});
      })
      .Case([&](stn::ListSizeOp size) {
        return emit(ListSizeInstr{listOf(size.getList()), define(size.getResult())});
      })
      .Case([&](stn::NumLevelsOp numLevels) {
        return emit(ConstantInstr{define(numLevels.getResult()), Word::ofInt(nlev)});
      })
      .Case([&](stn::ImageOp image) -> LogicalResult {
        FailureOr<TableId> table = tableFor(image, image.getConnAttr());
        if (failed(table))
          return failure();
        return emit(ImageInstr{*table, use(image.getLb()), use(image.getUb()),
                               define(image.getImageLb()), define(image.getImageUb())});
      })
      .Case([&](stn::AllocOp alloc) { return compileAlloc(alloc, code); })
      .Case([&](stn::ApplyOp apply) { return compileApply(apply, code); })
      .Case([&](stn::KernelOp kernel) { return compileKernel(kernel, code); })
      .Case([&](stn::WavefrontOp wavefront) { return compileWavefront(wavefront, code); })
      .Case([&](stn::StoreOp store) {
        stn::FieldShape shape = stn::FieldShape::of(store.getField().getType());
        return emit(StoreInstr{arrayOf(store.getValue()), arrayOf(store.getField()),
                               domainOf(shape.location, store.getHlb(), store.getHub(),
                                        store.getKlb(), store.getKub(), store.getPoints())});
      })
      .Case([&](stn::ExchangeOp exchange) {
        ExchangeInstr instr;
        for (Value field : exchange.getFields())
          instr.fields.push_back(arrayOf(field));
        return emit(std::move(instr));
      })
      .Default(
          [&](Operation *other) { return fail("unsupported operation " + describeOp(other)); });
}

LogicalResult ProgramCompiler::compileConstant(arith::ConstantOp op, Block &code) {
  Slot result = define(op.getResult());
  if (auto value = dyn_cast<FloatAttr>(op.getValue())) {
    Word word = op.getType().isF32() ? Word::ofF32(value.getValue().convertToFloat())
                                     : Word::ofF64(value.getValueAsDouble());
    code.push_back(ConstantInstr{result, word});
    return success();
  }
  if (auto value = dyn_cast<IntegerAttr>(op.getValue())) {
    code.push_back(ConstantInstr{result, Word::ofInt(value.getValue().getSExtValue())});
    return success();
  }
  return fail("unsupported constant " + describeOp(op));
}

LogicalResult ProgramCompiler::compileIf(scf::IfOp op, Scope scope, Block &code) {
  SmallVector<Slot> results;
  for (Value result : op.getResults())
    results.push_back(define(result));
  FailureOr<BlockId> thenBlock = compileBranch(op.getThenRegion(), results, scope);
  if (failed(thenBlock))
    return failure();
  FailureOr<BlockId> elseBlock = compileBranch(op.getElseRegion(), results, scope);
  if (failed(elseBlock))
    return failure();
  code.push_back(IfInstr{use(op.getCondition()), *thenBlock, *elseBlock});
  return success();
}

LogicalResult ProgramCompiler::compileFor(scf::ForOp op, Scope scope, Block &code) {
  ForInstr instr;
  instr.lb = use(op.getLowerBound());
  instr.ub = use(op.getUpperBound());
  instr.step = use(op.getStep());
  instr.iv = define(op.getInductionVar());
  for (Value init : op.getInitArgs())
    instr.inits.push_back(use(init));
  for (Value arg : op.getRegionIterArgs())
    instr.iterArgs.push_back(define(arg));
  mlir::Block &bodyBlock = *op.getBody();
  Block body;
  if (failed(compileOps(bodyBlock, scope, body)))
    return failure();
  for (Value yielded : cast<scf::YieldOp>(bodyBlock.getTerminator()).getResults())
    instr.yields.push_back(use(yielded));
  instr.body = addBlock(std::move(body));
  for (Value result : op.getResults())
    instr.results.push_back(define(result));
  code.push_back(std::move(instr));
  return success();
}

LogicalResult ProgramCompiler::compileWhile(scf::WhileOp op, Scope scope, Block &code) {
  WhileInstr instr;
  for (Value init : op.getInits())
    instr.inits.push_back(use(init));
  for (Value arg : op.getBeforeArguments())
    instr.beforeArgs.push_back(define(arg));
  mlir::Block &beforeBlock = *op.getBeforeBody();
  Block before;
  if (failed(compileOps(beforeBlock, scope, before)))
    return failure();
  scf::ConditionOp condition = op.getConditionOp();
  instr.condition = use(condition.getCondition());
  for (Value forwarded : condition.getArgs())
    instr.forwarded.push_back(use(forwarded));
  instr.before = addBlock(std::move(before));
  for (Value arg : op.getAfterArguments())
    instr.afterArgs.push_back(define(arg));
  mlir::Block &afterBlock = *op.getAfterBody();
  Block after;
  if (failed(compileOps(afterBlock, scope, after)))
    return failure();
  for (Value yielded : cast<scf::YieldOp>(afterBlock.getTerminator()).getResults())
    instr.yields.push_back(use(yielded));
  instr.after = addBlock(std::move(after));
  for (Value result : op.getResults())
    instr.results.push_back(define(result));
  code.push_back(std::move(instr));
  return success();
}

/// A branch's ops followed by copies of its yielded values into the if's
/// results; an absent else branch is an empty block.
FailureOr<BlockId> ProgramCompiler::compileBranch(Region &region, ArrayRef<Slot> results,
                                                  Scope scope) {
  Block code;
  if (!region.empty()) {
    mlir::Block &block = region.front();
    if (failed(compileOps(block, scope, code)))
      return failure();
    auto yield = cast<scf::YieldOp>(block.getTerminator());
    for (auto [result, value] : llvm::zip(results, yield.getResults()))
      code.push_back(CopyInstr{result, use(value)});
  }
  return addBlock(std::move(code));
}

LogicalResult ProgramCompiler::compileReduce(stn::ReduceOp op, Scope scope, Block &code) {
  FailureOr<TableId> table = tableFor(op, op.getConnAttr());
  if (failed(table))
    return failure();
  ReduceInstr instr;
  instr.kind = op.getKind();
  instr.type = scalarTypeOf(op.getResult().getType());
  instr.table = *table;
  instr.point = use(op.getPoint());
  instr.slotArg = define(op.getSlot());
  instr.neighborArg = define(op.getNeighbor());
  mlir::Block &bodyBlock = op.getBody().front();
  Block body;
  if (failed(compileOps(bodyBlock, scope, body)))
    return failure();
  instr.bodyValue = use(cast<stn::YieldOp>(bodyBlock.getTerminator()).getValues()[0]);
  instr.body = addBlock(std::move(body));
  instr.result = define(op.getResult());
  code.push_back(std::move(instr));
  return success();
}

LogicalResult ProgramCompiler::compileAlloc(stn::AllocOp op, Block &code) {
  std::string name = op.getName().value_or("").str();
  std::string description =
      name.empty() ? "buffer allocated at " + locationString(op.getLoc()) : "buffer '" + name + "'";
  ArrayId array = addArray(op.getField(), arrayInfoFor(op.getField().getType(), description, name));
  code.push_back(AllocInstr{array});
  return success();
}

LogicalResult ProgramCompiler::compileApply(stn::ApplyOp op, Block &code) {
  ApplyInstr instr;
  instr.name = describeApply(op);
  if (!op.isDomainInferred() || (op.getLocation() && !op.hasHorizontalDomain()))
    return fail("domain of " + instr.name + " not inferred: run stn-infer-domains");
  instr.domain = domainOf(op.getLocation(), op.getHlb(), op.getHub(), op.getKlb(), op.getKub(),
                          op.getPoints());
  BlockArgument point = op.getPoint();
  instr.point = point ? define(point) : kNoSlot;
  Block body;
  if (failed(compileOps(op.getBody().front(), Scope::Apply, body)))
    return failure();
  instr.body = addBlock(std::move(body));
  for (Value value : op.getYield().getValues())
    instr.yields.push_back(use(value));
  bool single = op.getNumResults() == 1;
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    stn::FieldShape shape = stn::FieldShape::of(result.getType());
    if (shape.vertical == stn::VerticalKind::None && op.hasVerticalDomain())
      return fail(instr.name + " runs over levels, but its result " + std::to_string(index) +
                  " has none");
    std::string description;
    if (std::optional<StringRef> name = op.getName())
      description =
          "temporary '" + name->str() + (single ? "'" : "#" + std::to_string(index) + "'");
    else
      description = "temporary " + std::to_string(index) + " of " + instr.name;
    instr.results.push_back(addArray(result, arrayInfoFor(result.getType(), description, "")));
  }
  code.push_back(std::move(instr));
  return success();
}

LogicalResult ProgramCompiler::compileKernel(stn::KernelOp op, Block &code) {
  KernelInstr instr;
  instr.kernel = op.getName().str();
  instr.name = "kernel '" + instr.kernel + "'";
  instr.domain = domainOf(op.getLocation(), op.getHlb(), op.getHub(), op.getKlb(), op.getKub(),
                          op.getPoints());
  BlockArgument point = op.getPoint();
  instr.point = point ? define(point) : kNoSlot;
  instr.loopForm = op.getLoopForm();
  instr.stage = op.getStage() ? static_cast<int64_t>(*op.getStage()) : -1;
  if (instr.loopForm) {
    BlockArgument box[] = {op.getPoints() ? op.getEntriesBegin() : op.getPointsBegin(),
                           op.getPoints() ? op.getEntriesEnd() : op.getPointsEnd(),
                           op.getLevelsBegin(), op.getLevelsEnd()};
    for (auto [slot, argument] : llvm::zip_equal(instr.box, box))
      slot = argument ? define(argument) : kNoSlot;
    instr.kblock = op.getKblock();
    // The C++ backend's work items; every size is valid for loop form.
    instr.pointsPerItem = stn::cppPointsPerWorkItem(op);
  }
  Block body;
  if (failed(compileOps(op.getBody().front(), Scope::Kernel, body)))
    return failure();
  instr.body = addBlock(std::move(body));
  code.push_back(std::move(instr));
  return success();
}

LogicalResult ProgramCompiler::compileWavefront(stn::WavefrontOp op, Block &code) {
  WavefrontInstr instr;
  instr.tile = op.getTile();
  instr.minLevels = op.getMinLevels();
  std::vector<std::string> names;
  for (stn::KernelOp leader : op.getStageLeaders()) {
    instr.stages.push_back({use(leader.getHlb()), use(leader.getHub())});
    names.push_back(leader.getName().str());
    if (leader.getKlb())
      instr.levels.push_back({use(leader.getKlb()), use(leader.getKub())});
  }
  instr.name = "wavefront(" + llvm::join(names, ", ") + ")";
  // A wait's or fold access's table, kNoTable where it names none.
  auto optionalTable = [&](FlatSymbolRefAttr conn) -> FailureOr<TableId> {
    return conn ? tableFor(op, conn) : FailureOr<TableId>(kNoTable);
  };
  for (const stn::WavefrontOp::Wait &wait : op.getWaitList()) {
    FailureOr<TableId> table = optionalTable(wait.table);
    if (failed(table))
      return failure();
    instr.waits.push_back({static_cast<int32_t>(wait.stage), static_cast<int32_t>(wait.on),
                           wait.order, *table});
  }
  for (auto [index, field] : llvm::enumerate(op.getFolds())) {
    WavefrontInstr::Fold fold{arrayOf(field), {}};
    for (const stn::WavefrontOp::FoldAccess &access : op.getFoldAccessList(index)) {
      FailureOr<TableId> table = optionalTable(access.table);
      if (failed(table))
        return failure();
      fold.accesses.push_back({static_cast<int32_t>(access.stage), access.kind, *table});
    }
    instr.folds.push_back(std::move(fold));
  }
  Block body;
  if (failed(compileOps(op.getBody().front(), Scope::Program, body)))
    return failure();
  instr.body = addBlock(std::move(body));
  code.push_back(std::move(instr));
  return success();
}

FailureOr<TableId> ProgramCompiler::tableFor(Operation *user, FlatSymbolRefAttr conn) {
  StringRef name = conn.getValue();
  if (auto known = tableIds.find(name); known != tableIds.end())
    return known->second;
  stn::ConnectivityOp decl = stn::lookupConnectivity(user, conn);
  if (!decl)
    return fail(describeOp(user) + " uses the undeclared connectivity @" + name);
  const fusec_connectivity *table = findConnectivity(mesh, name);
  if (!table)
    return fail("the mesh has no connectivity '" + name + "' (used by " + describeOp(user) + ")");
  if (failed(checkTable(decl, *table)))
    return failure();
  TableId id = static_cast<TableId>(compiled.tables.size());
  compiled.tables.push_back(
      Table{name.str(), table->table, table->ld, table->max_neighbors, table->num_rows});
  tableIds[name] = id;
  return id;
}

/// The table must match its declaration and the mesh, and hold only -1 or
/// valid target indices: the executor relies on it when it follows neighbours.
LogicalResult ProgramCompiler::checkTable(stn::ConnectivityOp decl,
                                          const fusec_connectivity &table) {
  std::string label = "mesh connectivity '" + decl.getSymName().str() + "'";
  auto source = static_cast<stn::GridLocation>(table.source);
  auto target = static_cast<stn::GridLocation>(table.target);
  if (source != decl.getSource() || target != decl.getTarget())
    return fail(label + " maps " + stn::locationName(source) + " to " + stn::locationName(target) +
                ", but the module declares " + stn::locationName(decl.getSource()) + " -> " +
                stn::locationName(decl.getTarget()));
  int64_t declaredSize = static_cast<int64_t>(decl.getSize());
  if (table.max_neighbors != declaredSize)
    return fail(label + " has " + Twine(table.max_neighbors) +
                " neighbours per point, but the module declares " + Twine(declaredSize));
  int64_t rows = numPoints(mesh, source);
  if (table.num_rows != rows)
    return fail(label + " has " + Twine(table.num_rows) + " rows, but the mesh has " + Twine(rows) +
                " " + stn::locationName(source) + " points");
  if (table.ld < table.num_rows)
    return fail(label + " has a leading dimension of " + Twine(table.ld) + ", less than its " +
                Twine(table.num_rows) + " rows");
  if (!table.table && rows > 0)
    return fail(label + " has no entries");
  int64_t targets = numPoints(mesh, target);
  for (int64_t point = 0; point < rows; ++point) {
    for (int64_t slot = 0; slot < table.max_neighbors; ++slot) {
      int64_t entry = table.table[point + slot * table.ld];
      if (entry != kMissing && (entry < 0 || entry >= targets))
        return fail(label + " holds " + Twine(entry) + " at point " + Twine(point) + ", slot " +
                    Twine(slot) + ": neither -1 nor one of the " + Twine(targets) + " " +
                    stn::locationName(target) + " points");
    }
  }
  return success();
}

} // namespace

std::unique_ptr<CompiledProgram> compileProgram(stn::ProgramOp program, const fusec_mesh &mesh,
                                                int nlev, std::string &error) {
  return ProgramCompiler(program, mesh, nlev, error).compile();
}

} // namespace fusec::interp
