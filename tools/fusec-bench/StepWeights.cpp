//===- StepWeights.cpp - how often one step calls each program ------------===//

#include "StepWeights.h"

#include "ir/StnOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace fusec::bench {

/// The statements of `program` (`... = stencil(...) @ domain`), by stencil name, in order: the
/// frontend gives them their domain, while the stencils they call get theirs from domain
/// inference. A statement on a point list is "stencil @ list": it does not do the work of one
/// over ranges.
static std::vector<std::string> statements(stn::ProgramOp program) {
  std::vector<std::string> names;
  program.walk([&](stn::ApplyOp apply) {
    if (!apply.hasHorizontalDomain() && !apply.hasVerticalDomain())
      return;
    std::string name = apply.getName().value_or("").str();
    names.push_back(apply.getPoints() ? name + " @ list" : name);
  });
  return names;
}

/// The constant that `value` holds, as an op of the type of `argument`.
static mlir::Value constantFor(mlir::OpBuilder &builder, mlir::BlockArgument argument,
                               const ScalarArgument &value) {
  mlir::Location location = argument.getLoc();
  mlir::Type type = argument.getType();
  if (auto floatType = mlir::dyn_cast<mlir::FloatType>(type))
    return builder.create<mlir::arith::ConstantOp>(
        location, builder.getFloatAttr(floatType, value.real));
  int64_t integer = value.type == ScalarArgument::Type::Bool ? value.boolean : value.integer;
  return builder.create<mlir::arith::ConstantOp>(location, builder.getIntegerAttr(type, integer));
}

Result<StepStructure> deriveStepStructure(mlir::ModuleOp frontend, const ProgramSignature &step,
                                          const std::vector<ArgumentValue> &arguments,
                                          const std::vector<std::string> &programs) {
  mlir::OwningOpRef<mlir::ModuleOp> module = frontend.clone();
  auto stepOp = mlir::SymbolTable::lookupSymbolIn(*module, step.name);
  auto program = mlir::dyn_cast_or_null<stn::ProgramOp>(stepOp);
  if (!program)
    return Status::failure("the step program '" + step.name + "' is not defined");

  // Fix every scalar to its value in this call; the canonicalizer then folds the ifs.
  mlir::Block &body = program.getBody().front();
  mlir::OpBuilder builder = mlir::OpBuilder::atBlockBegin(&body);
  for (size_t i = 0; i < arguments.size() && i < body.getNumArguments(); ++i)
    if (arguments[i].isScalar())
      body.getArgument(i).replaceAllUsesWith(
          constantFor(builder, body.getArgument(i), arguments[i].scalar));
  mlir::PassManager pm(module->getContext());
  pm.addPass(mlir::createCanonicalizerPass());
  if (mlir::failed(pm.run(*module)))
    return Status::failure("folding the conditions of '" + step.name + "' failed");

  StepStructure structure;
  structure.step = step.name;
  std::vector<StepCount> applied;
  for (const std::string &name : statements(program)) {
    auto found = llvm::find_if(applied, [&](const StepCount &c) { return c.name == name; });
    if (found == applied.end())
      applied.push_back({name, 1});
    else
      ++found->count;
  }
  std::vector<std::string> covered;
  for (const std::string &name : programs) {
    auto other = mlir::dyn_cast_or_null<stn::ProgramOp>(
        mlir::SymbolTable::lookupSymbolIn(frontend, name));
    if (!other || name == step.name)
      continue;
    std::vector<std::string> own = statements(other);
    if (own.size() != 1)
      continue;
    auto found = llvm::find_if(applied, [&](const StepCount &c) { return c.name == own.front(); });
    if (found == applied.end())
      continue;
    structure.calls.push_back({name, found->count});
    covered.push_back(own.front());
  }
  for (const StepCount &count : applied)
    if (!llvm::is_contained(covered, count.name))
      structure.uncovered.push_back(count);
  return structure;
}

} // namespace fusec::bench
