//===- KernelForm.cpp - what emitters read from kernel-form IR ------------===//

#include "codegen/KernelForm.h"

#include "codegen/CEmitterCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <map>

using namespace mlir;
using namespace fusec::stn;

namespace fusec::codegen {

static InFlightDiagnostic notKernelForm(Operation *op) {
  return op->emitError() << "module is not in kernel form: found " << op->getName();
}

static bool allowedInProgram(Operation *op) {
  Dialect *dialect = op->getDialect();
  return isa<AllocOp, NumLevelsOp, ListSizeOp, ImageOp, ExchangeOp, KernelOp, WavefrontOp, ReturnOp,
             scf::IfOp, scf::YieldOp>(op) ||
         (dialect && isa<arith::ArithDialect>(dialect));
}

static bool allowedInKernel(Operation *op) {
  return isa<LoadOp, NeighborOp, ReduceOp, IndexOp, LevelOp, ValidOp, TableCompleteOp, YieldOp,
             WriteOp, PointAtOp, ListPointOp, ListRunOp, RowOp, RowLoadOp, RowStoreOp, PrefetchOp,
             scf::IfOp, scf::ForOp, scf::WhileOp, scf::ConditionOp, scf::YieldOp>(op) ||
         isArithOrMath(op);
}

static StringRef describeField(Value field) {
  if (auto alloc = field.getDefiningOp<AllocOp>())
    if (auto name = alloc.getName())
      return *name;
  if (auto arg = dyn_cast<BlockArgument>(field))
    if (auto program = dyn_cast<ProgramOp>(arg.getOwner()->getParentOp()))
      return program.getArgName(arg.getArgNumber());
  return "a field";
}

static LogicalResult checkFieldType(Operation *op, Type type) {
  auto field = dyn_cast<FieldType>(type);
  if (!field)
    return notKernelForm(op) << " on a temporary (" << type << ")";
  if (!isFieldElementType(field.getElementType()))
    return op->emitError() << "fields of " << field.getElementType()
                           << " have no C equivalent; use f64, f32, i32 or i1";
  return success();
}

static LogicalResult verifyKernel(KernelOp kernel) {
  Region &body = kernel.getBody();
  // A point list gives each of its entries a level.
  bool hasLevels = kernel.getKlb() || kernel.getPoints();
  auto needsLevel = [&](Operation *op, Value field) -> LogicalResult {
    if (hasLevels)
      return success();
    return op->emitError() << "kernel '" << kernel.getName() << "' has no vertical range but "
                           << (field ? "accesses '" + describeField(field).str() + "' at"
                                     : std::string("uses"))
                           << " the current level";
  };
  WalkResult result = body.walk([&](Operation *op) -> WalkResult {
    if (!allowedInKernel(op))
      return notKernelForm(op);
    for (Value operand : op->getOperands()) {
      if (body.isAncestor(operand.getParentRegion()))
        continue;
      Type type = operand.getType();
      // The kernel's own point list is passed with its domain.
      if (isa<PointsType>(type)) {
        if (isa<ListPointOp, ListRunOp>(op) && operand == kernel.getPoints())
          continue;
        return op->emitError() << "kernel '" << kernel.getName()
                               << "' reads a point list other than the one it runs on";
      }
      if (!isa<FieldType>(type) && !cScalarType(type))
        return op->emitError() << "kernel '" << kernel.getName() << "' uses a " << type
                               << " value of its program, which cannot be passed to it";
    }
    if (isa<LevelOp>(op) && failed(needsLevel(op, nullptr)))
      return failure();
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (failed(checkFieldType(op, load.getField().getType())))
        return failure();
      if (FieldShape::of(load.getField().getType()).vertical != VerticalKind::None &&
          failed(needsLevel(op, load.getField())))
        return failure();
    }
    if (auto write = dyn_cast<WriteOp>(op)) {
      Value field = write.getField();
      if (failed(checkFieldType(op, field.getType())))
        return failure();
      if (FieldShape::of(field.getType()).vertical != VerticalKind::None &&
          failed(needsLevel(op, field)))
        return failure();
      if (auto arg = dyn_cast<BlockArgument>(field)) {
        auto program = cast<ProgramOp>(arg.getOwner()->getParentOp());
        if (program.getArgIntent(arg.getArgNumber()) == Intent::In)
          return op->emitError() << "kernel '" << kernel.getName() << "' writes '"
                                 << describeField(field) << "', an input of program '"
                                 << program.getSymName() << "' (declare it out or inout)";
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Whether `op` takes or gives a point list.
static bool hasPointListOperandOrResult(Operation *op) {
  auto isList = [](Type type) { return isa<PointsType>(type); };
  return llvm::any_of(op->getOperandTypes(), isList) || llvm::any_of(op->getResultTypes(), isList);
}

static LogicalResult verifyProgram(ProgramOp program) {
  for (auto [index, type] : llvm::enumerate(program.getArgumentTypes())) {
    if (isa<PointsType>(type))
      continue; // passed as a count and two arrays (CInterface.h)
    if (auto field = dyn_cast<FieldType>(type)) {
      if (!isFieldElementType(field.getElementType()))
        return program.emitError()
               << "parameter '" << program.getArgName(index) << "' holds " << field.getElementType()
               << ", which has no C equivalent; use f64, f32, i32 or i1";
    } else if (!cScalarType(type) || type.isIndex()) {
      return program.emitError() << "parameter '" << program.getArgName(index) << "' of type "
                                 << type << " has no C equivalent";
    }
  }
  WalkResult result = program.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    if (auto kernel = dyn_cast<KernelOp>(op))
      return failed(verifyKernel(kernel)) ? WalkResult::interrupt() : WalkResult::skip();
    if (!allowedInProgram(op))
      return notKernelForm(op);
    // So that a kernel's point list is always a program parameter, whose C arguments it gets.
    if (hasPointListOperandOrResult(op) && !isa<ListSizeOp>(op))
      return op->emitError() << "a point list can only be the domain of a kernel or have its size "
                                "taken";
    if (isa<arith::ArithDialect>(op->getDialect()))
      for (Type type : op->getResultTypes())
        if (!cScalarType(type))
          return op->emitError() << "program-level values of type " << type
                                 << " have no C equivalent";
    if (auto alloc = dyn_cast<AllocOp>(op))
      return checkFieldType(op, alloc.getType());
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult verifyKernelForm(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations()) {
    if (isa<ConnectivityOp>(op))
      continue;
    auto program = dyn_cast<ProgramOp>(op);
    if (!program)
      return notKernelForm(&op);
    if (failed(verifyProgram(program)))
      return failure();
  }
  return success();
}

/// Connectivities by name: the name order makes every table list stable.
using TablesByName = std::map<std::string, ConnectivityOp>;

static std::vector<ConnectivityOp> sorted(const TablesByName &tables) {
  std::vector<ConnectivityOp> list;
  for (const auto &entry : tables)
    list.push_back(entry.second);
  return list;
}

static bool isConstantZero(Value value) { return matchPattern(value, m_Zero()); }

KernelUses analyzeKernel(KernelOp kernel) {
  KernelUses uses;
  Region &body = kernel.getBody();
  TablesByName tables;
  bool strided[3] = {false, false, false};
  auto noteField = [&](Value field, Value slot) {
    FieldShape shape = FieldShape::of(field.getType());
    bool sparseStride = !shape.sparse.empty() && slot && !isConstantZero(slot);
    if (shape.location && (shape.vertical != VerticalKind::None || sparseStride))
      strided[static_cast<int>(*shape.location)] = true;
    if (shape.vertical == VerticalKind::Half)
      uses.halfLevels = true;
  };
  auto noteTable = [&](Operation *user, FlatSymbolRefAttr name, bool atSlot) {
    tables.emplace(name.getValue().str(), lookupConnectivity(user, name));
    if (atSlot)
      uses.tablesAtSlots.insert(name.getValue());
  };
  // What is not emitted needs nothing. The kernel's point list comes with its domain.
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isDead(op))
      return WalkResult::skip();
    for (Value operand : op->getOperands())
      if (!body.isAncestor(operand.getParentRegion()) &&
          !operand.getDefiningOp<arith::ConstantOp>() && operand != kernel.getPoints())
        uses.captures.insert(operand);
    if (auto load = dyn_cast<LoadOp>(op))
      noteField(load.getField(), load.getNbr());
    if (auto write = dyn_cast<WriteOp>(op)) {
      noteField(write.getField(), Value());
      uses.written.insert(write.getField());
    }
    if (auto neighbor = dyn_cast<NeighborOp>(op))
      noteTable(op, neighbor.getConnAttr(), !isConstantZero(neighbor.getIndex()));
    if (auto complete = dyn_cast<TableCompleteOp>(op)) {
      noteTable(op, complete.getConnAttr(), /*atSlot=*/false);
      uses.tablesTested.insert(complete.getConn());
    }
    if (auto reduce = dyn_cast<ReduceOp>(op))
      if (isUsed(reduce.getNeighbor()) || lookupConnectivity(op, reduce.getConnAttr()).getSkip())
        noteTable(op, reduce.getConnAttr(), /*atSlot=*/true);
    return WalkResult::advance();
  });
  uses.tables = sorted(tables);
  for (GridLocation location : {GridLocation::Cell, GridLocation::Edge, GridLocation::Vertex})
    if (strided[static_cast<int>(location)])
      uses.locations.push_back(location);
  return uses;
}

std::vector<KernelOp> kernelsOf(ProgramOp program) {
  std::vector<KernelOp> kernels;
  program.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
  return kernels;
}

std::vector<AllocOp> allocsOf(ProgramOp program) {
  std::vector<AllocOp> allocs;
  program.walk([&](AllocOp alloc) { allocs.push_back(alloc); });
  return allocs;
}

std::vector<ConnectivityOp> kernelTablesOf(ProgramOp program) {
  TablesByName tables;
  for (KernelOp kernel : kernelsOf(program))
    for (ConnectivityOp conn : analyzeKernel(kernel).tables)
      tables.emplace(conn.getSymName().str(), conn);
  return sorted(tables);
}

std::vector<ConnectivityOp> imageTablesOf(ProgramOp program) {
  TablesByName tables;
  program.walk([&](ImageOp image) {
    if (!isDead(image))
      tables.emplace(image.getConn().str(), lookupConnectivity(image, image.getConnAttr()));
  });
  return sorted(tables);
}

bool isUsed(Value value) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (!user->hasTrait<OpTrait::IsTerminator>()) {
      if (!isDead(user))
        return true;
      continue;
    }
    Operation *parent = user->getParentOp();
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      if (isUsed(ifOp.getResult(use.getOperandNumber())))
        return true;
    } else if (!isDead(parent)) {
      return true;
    }
  }
  return false;
}

bool isDead(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return false;
  WalkResult effects = op->walk([](Operation *inner) {
    return isa<WriteOp, RowStoreOp, PrefetchOp, KernelOp, ExchangeOp>(inner) ? WalkResult::interrupt()
                                                                 : WalkResult::advance();
  });
  if (effects.wasInterrupted())
    return false;
  return llvm::none_of(op->getResults(), [](Value result) { return isUsed(result); });
}

} // namespace fusec::codegen
