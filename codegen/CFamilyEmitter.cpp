//===- CFamilyEmitter.cpp - a program as a C++ or CUDA file ---------------===//

#include "codegen/CFamilyEmitter.h"

#include "codegen/CEmitterCommon.h"
#include "codegen/CInterface.h"
#include "codegen/SourceFormatter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>
#include <memory>

using namespace mlir;
using namespace fusec::stn;

namespace fusec::codegen {

std::string KernelPlan::declareLevelTile(StringRef tile, StringRef minFunction) const {
  // One level per tile needs no clipping: tiles start inside [k_lb, k_ub).
  if (kblock == 1)
    return "const int32_t " + kBegin + " = " + klb + " + " + tile.str() + ";\nconst int32_t " +
           kEnd + " = " + kBegin + " + 1;\n";
  std::string levels = std::to_string(kblock);
  return "const int32_t " + kBegin + " = " + klb + " + " + tile.str() + " * " + levels +
         ";\nconst int32_t " + kEnd + " = " + minFunction.str() + "(" + kBegin + " + " + levels +
         ", " + kub + ");\n";
}

std::string KernelPlan::kernelSignature(bool blocked) const {
  std::vector<std::string> declarations;
  auto declare = [&](const Parameter &parameter, StringRef attribute) {
    declarations.push_back(attribute.str() + parameter.type +
                           (parameter.isPointer() ? "__restrict__ " : " ") + parameter.name);
  };
  for (const Parameter &parameter : launcherParameters)
    declare(parameter, "");
  // The blocked variant reads neighbours through block offsets, so a table
  // (or nproma) may go unused there.
  StringRef attribute = blocked ? "[[maybe_unused]] " : "";
  for (const Parameter &parameter : stateParameters)
    declare(parameter, attribute);
  if (blocked)
    for (const Parameter &parameter : blockedParameters)
      declare(parameter, attribute);
  return llvm::join(declarations, ", ");
}

std::string KernelPlan::kernelArguments(bool blocked, bool staged) const {
  std::vector<std::string> arguments;
  for (const Parameter &parameter : launcherParameters)
    arguments.push_back(parameter.name);
  for (const Parameter &parameter : stateParameters)
    arguments.push_back(parameter.argument);
  if (blocked)
    for (const Parameter &parameter : blockedParameters)
      arguments.push_back(staged && !parameter.staged.empty() ? parameter.staged
                                                              : parameter.argument);
  return llvm::join(arguments, ", ");
}

namespace {

/// Identifiers visible in the whole file. No global may hide a P_run
/// parameter, so every parameter is reserved before globals are made up.
class FileNames {
public:
  explicit FileNames(const ModuleInterface &module) {
    all.reserveCLibraryFunctions();
    for (const ProgramInterface &interface : module.programs) {
      for (const std::string *function : interface.functions())
        record(*function);
      record(interface.handle);
      for (const RunParameter &parameter : interface.parameters) {
        all.reserve(parameter.name);
        for (const std::string &argument : parameter.cArguments())
          all.reserve(argument);
        all.reserve(parameter.before);
      }
    }
    for (StringRef local :
         {"mesh", "nlev", "layout", "stream", "status", "callback", "user_data", "rc", "exchanged",
          "timed", "verifier", "tolerances", "enabled", "path", "metrics", "handle"})
      all.reserve(local);
    // The state parameter of launchers and of the program body: no name in
    // their scopes may hide it.
    record(kInstance);
    for (StringRef constant : {"kThreadsPerBlock", "kHorizontalBlock"})
      record(constant);
  }

  /// The name of an instance's state in launchers and the program body.
  static constexpr const char *kInstance = "instance";

  std::string global(StringRef hint) {
    std::string name = all.unique(hint);
    globals.push_back(name);
    return name;
  }

  /// Names for a function that sees the globals but no P_run parameter.
  NameTable functionScope() const {
    NameTable names;
    for (const std::string &name : globals)
      names.reserve(name);
    return names;
  }

  /// Names for P_run: every global and every parameter is taken.
  const NameTable &runScope() const { return all; }

private:
  void record(StringRef name) {
    all.reserve(name);
    globals.push_back(name.str());
  }

  NameTable all;
  std::vector<std::string> globals;
};

struct TableMember {
  ConnectivityOp conn;
  std::string name, type;
};

struct BufferMember {
  AllocOp alloc;
  std::string name, type;
};

/// Everything emitted for one program.
struct ProgramPlan {
  const ProgramInterface *interface = nullptr;
  /// The state's type (the handle) and its name where launchers and the
  /// program body see it (a reference).
  std::string stateType, state;
  /// The static function holding the program body, called by P_run and
  /// P_run_and_verify.
  std::string execute;
  /// By parameter index: the state member P_run_and_verify computes that
  /// output into.
  llvm::DenseMap<unsigned, std::string> references;
  /// Tables loaded at setup, in load order; by connectivity name, the member
  /// kernels read and the member stn.image reads.
  std::vector<TableMember> tables;
  llvm::StringMap<std::string> kernelTable, imageTable;
  /// Blocked layout: per connectivity name, the field shapes kernels gather
  /// through it, each a table of block offsets computed at setup.
  llvm::StringMap<SmallVector<BlockedShape, 2>> blockOffsets;
  std::vector<BufferMember> buffers;
  llvm::DenseMap<Operation *, std::string> bufferOf;
  std::vector<std::unique_ptr<KernelPlan>> kernels;
  llvm::DenseMap<Operation *, KernelPlan *> kernelOf;
  /// Folded buffers, by location and levels: the state member holding each
  /// point's column start in the full buffer (the columns layout's h * levels).
  std::map<std::pair<GridLocation, VerticalKind>, std::string> columnStarts;
  /// Per stn.wavefront, in program order, the state member holding its plan.
  std::vector<std::string> wavefrontPlans;
  llvm::DenseMap<Operation *, std::string> wavefrontPlanOf;
  /// The timers: one per kernel, then one per wavefront (its kernels run
  /// interleaved, so they are timed together), with their names.
  std::vector<std::string> timerNames;
  llvm::DenseMap<Operation *, size_t> wavefrontTimerOf;
};

std::string levelsEnumerator(VerticalKind vertical) {
  switch (vertical) {
  case VerticalKind::None:
    return "fusec::Levels::Flat";
  case VerticalKind::Full:
    return "fusec::Levels::Full";
  case VerticalKind::Half:
    return "fusec::Levels::Half";
  }
  llvm_unreachable("unknown vertical kind");
}

std::string optionalLocationEnumerator(std::optional<GridLocation> location) {
  return location ? locationEnumerator(*location) : "FUSEC_NO_LOCATION";
}

StringRef bufferName(AllocOp alloc) {
  std::optional<StringRef> name = alloc.getName();
  return name && !name->empty() ? *name : StringRef("buffer");
}

//===----------------------------------------------------------------------===//
// P_run's body: the program executed on the host
//===----------------------------------------------------------------------===//

class RunBodyEmitter {
public:
  RunBodyEmitter(const CFamilyTarget &target, const ProgramPlan &plan, const NameTable &names)
      : target(target), plan(plan), names(names) {
    ProgramOp program = plan.interface->program;
    for (auto [index, parameter] : llvm::enumerate(plan.interface->parameters))
      values[program.getArgument(index)] = parameter.name;
  }

  LogicalResult emitBlock(Block &block, raw_ostream &os) {
    // A wavefront's block has no terminator.
    for (Operation &op : block)
      if (!op.hasTrait<OpTrait::IsTerminator>() && failed(emitOp(&op, os)))
        return failure();
    return success();
  }

  /// Whether the emitted body reads the instance's state.
  bool usesState() const { return stateUsed; }

private:
  std::string expr(Value value) {
    auto it = values.find(value);
    if (it != values.end())
      return it->second;
    std::string literal = *cLiteral(value.getDefiningOp<arith::ConstantOp>().getValue());
    values[value] = literal;
    return literal;
  }

  std::string member(StringRef name) {
    stateUsed = true;
    return plan.state + "." + name.str();
  }

  LogicalResult emitOp(Operation *op, raw_ostream &os) {
    if (isDead(op))
      return success();
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case([&](arith::ConstantOp) { return success(); })
        .Case([&](AllocOp alloc) {
          values[alloc.getResult()] = member(plan.bufferOf.lookup(alloc)) + ".data()";
          return success();
        })
        .Case([&](NumLevelsOp nlev) {
          values[nlev.getResult()] = member("extents.nlev");
          return success();
        })
        .Case([&](ListSizeOp size) {
          // A point list is a program parameter (verifyKernelForm).
          values[size.getResult()] =
              plan.interface->parameter(cast<BlockArgument>(size.getList()).getArgNumber())
                  .list.count;
          return success();
        })
        .Case([&](ImageOp image) { return emitImage(image, os); })
        .Case([&](scf::IfOp ifOp) { return emitIf(ifOp, os); })
        .Case([&](ExchangeOp exchange) {
          return mode == Mode::Launch ? emitExchange(exchange, os) : success();
        })
        .Case([&](KernelOp kernel) { return emitLaunch(kernel, os); })
        .Case([&](WavefrontOp wavefront) { return emitWavefront(wavefront, os); })
        .Default([&](Operation *other) -> LogicalResult {
          if (isNoOpCast(other)) {
            values[other->getResult(0)] = expr(other->getOperand(0));
            return success();
          }
          SmallVector<std::string> operands;
          for (Value operand : other->getOperands())
            operands.push_back(expr(operand));
          FailureOr<std::string> text = arithExpression(other, operands);
          if (failed(text))
            return failure();
          Value result = other->getResult(0);
          std::string name = names.unique(freshTemporary());
          os << "const " << *cScalarType(result.getType()) << " " << name << " = " << *text
             << ";\n";
          values[result] = name;
          return success();
        });
  }

  std::string freshTemporary() { return "t" + std::to_string(temporaries++); }

  LogicalResult emitImage(ImageOp image, raw_ostream &os) {
    std::string name = names.unique(image.getConn().lower() + "_image");
    os << "const fusec::HostTable::Image " << name << " = "
       << target.onOneThread(member(plan.imageTable.lookup(image.getConn())) + ".image(" +
                             expr(image.getLb()) + ", " + expr(image.getUb()) + ")")
       << ";\nif (" << name << ".status)\nreturn " << name << ".status;\n";
    values[image.getImageLb()] = name + ".lo";
    values[image.getImageUb()] = name + ".hi";
    return success();
  }

  LogicalResult emitIf(scf::IfOp ifOp, raw_ostream &os) {
    return emitIfStatement(
        ifOp, os,
        [&](OpResult result, raw_ostream &declOs) {
          std::string name = names.unique(freshTemporary());
          declOs << *cScalarType(result.getType()) << " " << name << ";\n";
          values[result] = name;
          return name;
        },
        [&](Block &block, raw_ostream &blockOs) { return emitBlock(block, blockOs); },
        [&](Value value) { return expr(value); });
  }

  /// The source name of a field: the parameter's stn.name or the buffer's name.
  std::string sourceName(Value field) {
    if (auto arg = dyn_cast<BlockArgument>(field))
      return plan.interface->parameter(arg.getArgNumber()).sourceName;
    return bufferName(field.getDefiningOp<AllocOp>()).str();
  }

  LogicalResult emitExchange(ExchangeOp exchange, raw_ostream &os) {
    if (exchange.getFields().empty())
      return success();
    os << "{\nconst fusec_exchange_field exchanged[] = {\n";
    for (Value field : exchange.getFields()) {
      FieldShape shape = FieldShape::of(field.getType());
      os << member("extents.describe(") << cStringLiteral(sourceName(field)) << ", " << expr(field)
         << ", " << elementTypeEnumerator(shape.elementType) << ", "
         << optionalLocationEnumerator(shape.location) << ", " << levelsEnumerator(shape.vertical)
         << ", " << shape.sparseSize << "),\n";
    }
    os << "};\n";
    ProgramOp program = plan.interface->program;
    os << "if (int rc = "
       << target.onOneThread(member("exchange(") + cStringLiteral(program.getSymName()) +
                             ", exchanged, " + std::to_string(exchange.getFields().size()) +
                             ", " + member("stream") + ")")
       << ")\nreturn rc;\n}\n";
    return success();
  }

  LogicalResult emitLaunch(KernelOp kernel, raw_ostream &os) {
    const KernelPlan &kernelPlan = *plan.kernelOf.lookup(kernel);
    std::vector<std::string> arguments{plan.state};
    for (const KernelPlan::Parameter &parameter : kernelPlan.launcherParameters)
      arguments.push_back(parameter.value ? expr(parameter.value) : parameter.argument);
    stateUsed = true;
    switch (mode) {
    case Mode::Launch:
      os << "if (int rc = " << kernelPlan.launcher << "(" << llvm::join(arguments, ", ")
         << "))\nreturn rc;\n";
      break;
    case Mode::Check:
      os << "if (int rc = " << kernelPlan.checker << "(" << llvm::join(arguments, ", ")
         << "))\nreturn rc;\n";
      break;
    case Mode::Stage:
      // A buffer the plan folds: its storage, from the plan.
      for (auto [parameter, argument] :
           llvm::zip(kernelPlan.launcherParameters, llvm::drop_begin(arguments)))
        if (std::optional<unsigned> fold =
                parameter.value ? wavefront.foldIndexOf(parameter.value) : std::nullopt)
          argument = "static_cast<" + parameter.type + ">(" +
                     member(plan.wavefrontPlanOf.lookup(wavefront)) + ".fold_data(" +
                     std::to_string(*fold) + ", " + argument + "))";
      arguments.push_back(stageBegin);
      arguments.push_back(stageEnd);
      os << "if (" << stageName << " == " << *kernel.getStage() << ")\n"
         << kernelPlan.ranged << "(" << llvm::join(arguments, ", ") << ");\n";
      break;
    }
    return success();
  }

  /// With an exchange callback (several ranks), or too few levels for the
  /// plan to pay, the group runs as written; else its domains are checked,
  /// then its plan runs the stages tile by tile (the exchanges do nothing on
  /// one rank).
  LogicalResult emitWavefront(WavefrontOp wavefront, raw_ostream &os) {
    if (!target.supportsWavefronts() || mode != Mode::Launch)
      return wavefront.emitError() << "stn.wavefront is a schedule of the C++ backend";
    Block &body = wavefront.getBody().front();
    os << "if (" << member("exchange.callback") << " != nullptr || " << mostLevels(wavefront)
       << " < " << wavefront.getMinLevels() << ") {\n";
    if (failed(emitBlock(body, os)))
      return failure();
    os << "} else {\n";
    mode = Mode::Check;
    if (failed(emitBlock(body, os)))
      return failure();
    std::vector<std::string> domains;
    for (KernelOp leader : wavefront.getStageLeaders())
      domains.push_back("{" + expr(leader.getHlb()) + ", " + expr(leader.getHub()) + "}");
    std::vector<std::string> waits;
    for (const WavefrontOp::Wait &wait : wavefront.getWaitList()) {
      std::string order = "fusec::wavefront::Order::" +
                          std::string(wait.order == WavefrontOp::Order::Same     ? "Same"
                                      : wait.order == WavefrontOp::Order::Gather ? "Gather"
                                                                                 : "Scatter");
      waits.push_back("{" + std::to_string(wait.stage) + ", " + std::to_string(wait.on) + ", " +
                      order + ", " + tableArguments(wavefront, wait.table) + "}");
    }
    std::string domainsName = names.unique("domains"), waitsName = names.unique("waits");
    stageName = names.unique("stage");
    stageBegin = names.unique("begin");
    stageEnd = names.unique("end");
    os << "fusec::TimedLaunch timed(" << plan.state << ".timers, "
       << plan.wavefrontTimerOf.lookup(wavefront) << ", " << plan.state << ".stream);\n"
       << "const fusec::wavefront::Domain " << domainsName << "[] = {" << llvm::join(domains, ", ")
       << "};\nconst fusec::wavefront::Dependence " << waitsName << "[] = {"
       << llvm::join(waits, ", ") << "};\n";
    std::string folds = emitFolds(wavefront, os);
    os << "if (int rc = fusec::wavefront::run(" << member(plan.wavefrontPlanOf.lookup(wavefront))
       << ", " << domainsName << ", " << domains.size() << ", " << waitsName << ", "
       << waits.size() << ", " << wavefront.getTile() << ", " << folds << ", [&](const int32_t "
       << stageName << ", const int32_t " << stageBegin << ", const int32_t " << stageEnd
       << ") {\n";
    mode = Mode::Stage;
    this->wavefront = wavefront;
    if (failed(emitBlock(body, os)))
      return failure();
    mode = Mode::Launch;
    this->wavefront = WavefrontOp();
    os << "}))\nreturn rc;\n}\n";
    return success();
  }

  /// A table as the plan takes it: rows, leading dimension and row size
  /// (`nullptr, 0, 0` for none).
  std::string tableArguments(WavefrontOp wavefront, FlatSymbolRefAttr table) {
    if (!table)
      return "nullptr, 0, 0";
    std::string member = this->member(plan.kernelTable.lookup(table.getValue()));
    return member + ".data(), " + member + ".ld(), " +
           std::to_string(lookupConnectivity(wavefront, table).getSize());
  }

  /// Declares the wavefront's folds; returns the arguments passing them to the plan.
  std::string emitFolds(WavefrontOp wavefront, raw_ostream &os) {
    if (wavefront.getFolds().empty())
      return "nullptr, 0";
    std::string accessesName = names.unique("fold_accesses"), foldsName = names.unique("folds");
    std::vector<std::string> accesses, folds;
    for (auto [index, field] : llvm::enumerate(wavefront.getFolds())) {
      size_t first = accesses.size();
      for (const WavefrontOp::FoldAccess &access : wavefront.getFoldAccessList(index)) {
        std::string kind = access.kind == WavefrontOp::FoldAccess::Write  ? "Write"
                           : access.kind == WavefrontOp::FoldAccess::Read ? "Read"
                                                                          : "Gather";
        accesses.push_back("{" + std::to_string(access.stage) +
                           ", fusec::wavefront::FoldAccess::" + kind + ", " +
                           tableArguments(wavefront, access.table) + "}");
      }
      FieldShape shape = FieldShape::of(field.getType());
      folds.push_back("{" + member("extents.num_points[") + locationEnumerator(*shape.location) +
                      "], " + member("extents.levels(") + levelsEnumerator(shape.vertical) +
                      "), sizeof(" + *cScalarType(shape.elementType) + "), " +
                      accessesName + (first ? " + " + std::to_string(first) : "") +
                      ", " + std::to_string(accesses.size() - first) + "}");
    }
    os << "const fusec::wavefront::FoldAccess " << accessesName << "[] = {"
       << llvm::join(accesses, ", ") << "};\nconst fusec::wavefront::Fold " << foldsName
       << "[] = {" << llvm::join(folds, ", ") << "};\n";
    return foldsName + ", " + std::to_string(folds.size());
  }

  /// The level count of the wavefront's stage with the most (1 where none has levels).
  std::string mostLevels(WavefrontOp wavefront) {
    std::vector<std::string> counts;
    for (KernelOp leader : wavefront.getStageLeaders())
      if (leader.getKlb())
        counts.push_back("int64_t(" + expr(leader.getKub()) + ") - " + expr(leader.getKlb()));
    if (counts.empty())
      return "1";
    if (counts.size() == 1)
      return "(" + counts.front() + ")";
    return "std::max<int64_t>({" + llvm::join(counts, ", ") + "})";
  }

  /// What a kernel becomes: a launch, the check of a wavefront stage's
  /// domain, or the run of a stage on a range of points inside the plan.
  enum class Mode { Launch, Check, Stage };
  Mode mode = Mode::Launch;
  /// The wavefront whose stages are being emitted (Mode::Stage).
  WavefrontOp wavefront;
  std::string stageName, stageBegin, stageEnd;

  const CFamilyTarget &target;
  const ProgramPlan &plan;
  NameTable names;
  llvm::DenseMap<Value, std::string> values;
  unsigned temporaries = 0;
  bool stateUsed = false;
};

//===----------------------------------------------------------------------===//
// The translation unit
//===----------------------------------------------------------------------===//

class CFamilyEmitter {
public:
  CFamilyEmitter(const CFamilyTarget &target, const ModuleInterface &module)
      : target(target), interfaces(module.programs), names(module) {}

  LogicalResult emit(raw_ostream &os) {
    // Globals first, so that every function scope knows all of them.
    std::vector<ProgramPlan> plans(interfaces.size());
    for (auto [plan, interface] : llvm::zip(plans, interfaces))
      nameGlobals(plan, interface);
    bool hasKernels = false;
    for (ProgramPlan &plan : plans) {
      planState(plan);
      for (auto &kernel : plan.kernels)
        planKernel(*kernel, plan);
      if (failed(planBlockOffsets(plan)))
        return failure();
      hasKernels |= !plan.kernels.empty();
    }

    std::vector<std::string> programNames;
    for (const ProgramInterface &interface : interfaces)
      programNames.push_back(interface.name);
    os << "// Generated by fusec from kernel-form stn: " << target.description()
       << " and the C interface of "
       << (programNames.empty() ? std::string("no program")
                                : "program(s) " + llvm::join(programNames, ", "))
       << ".\n// Do not edit. Layout, interface and semantics: docs/codegen.md.\n\n";
    target.emitPrelude(hasKernels, os);
    for (ProgramPlan &plan : plans)
      if (failed(emitProgram(plan, os)))
        return failure();
    return success();
  }

private:
  void nameGlobals(ProgramPlan &plan, const ProgramInterface &interface) {
    plan.interface = &interface;
    plan.stateType = interface.handle;
    plan.state = FileNames::kInstance;
    plan.execute = names.global("execute_" + interface.name);
    for (KernelOp kernel : kernelsOf(interface.program)) {
      auto kernelPlan = std::make_unique<KernelPlan>();
      kernelPlan->op = kernel;
      kernelPlan->index = plan.kernels.size();
      kernelPlan->function = names.global(kernel.getName());
      kernelPlan->launcher = names.global("launch_" + kernelPlan->function);
      if (kernel.getStage()) {
        kernelPlan->staged = true;
        kernelPlan->ranged = names.global("range_" + kernelPlan->function);
        kernelPlan->checker = names.global("check_" + kernelPlan->function);
      }
      plan.kernelOf[kernel] = kernelPlan.get();
      plan.kernels.push_back(std::move(kernelPlan));
    }
  }

  void planState(ProgramPlan &plan) {
    NameTable members;
    for (StringRef fixed : {"stream", "extents", "exchange", "verification", "timers"})
      members.reserve(fixed);
    ProgramOp program = plan.interface->program;
    for (ConnectivityOp conn : kernelTablesOf(program)) {
      std::string name = members.unique(conn.getSymName());
      plan.tables.push_back({conn, name, target.kernelTableType().str()});
      plan.kernelTable[conn.getSymName()] = name;
    }
    for (const auto &kernel : plan.kernels)
      plan.timerNames.push_back(kernel->function);
    program.walk([&](WavefrontOp wavefront) {
      // The tables a wavefront waits through are read by its kernels too.
      for (const WavefrontOp::Wait &wait : wavefront.getWaitList()) {
        if (!wait.table || plan.kernelTable.count(wait.table.getValue()))
          continue;
        std::string name = members.unique(wait.table.getValue());
        plan.tables.push_back({lookupConnectivity(wavefront, wait.table), name,
                               target.kernelTableType().str()});
        plan.kernelTable[wait.table.getValue()] = name;
      }
      for (Value fold : wavefront.getFolds()) {
        FieldShape shape = FieldShape::of(fold.getType());
        std::string &member = plan.columnStarts[{*shape.location, shape.vertical}];
        if (member.empty())
          member = members.unique("columns_" + locationWord(*shape.location) + "_" +
                                  BlockedShape{shape.vertical}.suffix());
      }
      plan.wavefrontPlanOf[wavefront] = members.unique("wavefront");
      plan.wavefrontPlans.push_back(plan.wavefrontPlanOf[wavefront]);
      // Its timer is named after the kernel function of each stage.
      std::vector<std::string> stages;
      for (KernelOp leader : wavefront.getStageLeaders())
        stages.push_back(plan.kernelOf.lookup(leader)->function);
      plan.wavefrontTimerOf[wavefront] = plan.timerNames.size();
      plan.timerNames.push_back("wavefront(" + llvm::join(stages, ", ") + ")");
    });
    for (ConnectivityOp conn : imageTablesOf(program)) {
      if (target.kernelTablesOnHost() && plan.kernelTable.count(conn.getSymName())) {
        plan.imageTable[conn.getSymName()] = plan.kernelTable.lookup(conn.getSymName());
        continue;
      }
      std::string name = members.unique(conn.getSymName().str() + "_host");
      plan.tables.push_back({conn, name, "fusec::HostTable"});
      plan.imageTable[conn.getSymName()] = name;
    }
    for (AllocOp alloc : allocsOf(program)) {
      std::string name = members.unique(bufferName(alloc));
      std::string element = *cScalarType(FieldShape::of(alloc.getType()).elementType);
      plan.buffers.push_back({alloc, name, target.bufferType(element)});
      plan.bufferOf[alloc] = name;
    }
    for (auto [index, parameter] : llvm::enumerate(plan.interface->parameters))
      if (parameter.isOutput())
        plan.references[index] = members.unique(parameter.name + "_reference");
  }

  /// The block offsets setup computes: per table, the shapes its kernels gather.
  LogicalResult planBlockOffsets(ProgramPlan &plan) {
    for (auto &kernel : plan.kernels)
      for (auto &[table, shapes] : kernel->scope.gathers.perTable) {
        SmallVector<BlockedShape, 2> &all = plan.blockOffsets[table];
        // A folded buffer's offsets outside the plan are those of its shape.
        for (BlockedShape shape : shapes) {
          shape.fold = -1;
          if (!llvm::is_contained(all, shape))
            all.push_back(shape);
        }
        if (all.size() > kMaxBlockOffsets)
          return ProgramOp(plan.interface->program).emitError()
                 << "the blocked layout supports at most " << kMaxBlockOffsets
                 << " field shapes read through connectivity '" << table << "' per program";
      }
    return success();
  }

  /// A readable name for a program value passed to a kernel.
  std::string captureHint(Value value, const ProgramPlan &plan) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return plan.interface->parameter(arg.getArgNumber()).name;
    if (auto alloc = value.getDefiningOp<AllocOp>())
      return bufferName(alloc).str();
    if (value.getDefiningOp<NumLevelsOp>())
      return "nlev";
    if (auto image = value.getDefiningOp<ImageOp>())
      return image.getConn().lower() + (value == image.getImageLb() ? "_lo" : "_hi");
    return "value";
  }

  void planKernel(KernelPlan &plan, const ProgramPlan &program) {
    KernelOp kernel = plan.op;
    plan.uses = analyzeKernel(kernel);
    plan.kblock = kernel.getKblock();
    if (auto hblock = kernel->getAttrOfType<IntegerAttr>("hblock"))
      plan.hblock = hblock.getInt();
    KernelScope &scope = plan.scope;
    scope.names = names.functionScope();
    if (target.supportsBlockedLayout())
      scope.gathers = BlockedGathers::of(kernel);
    NameTable &local = scope.names;
    local.reserve("timed"); // the launcher's timer
    // The work item's box; the target's loops around the body define it.
    auto boxName = [&](BlockArgument argument, StringRef hint) {
      if (!argument)
        return std::string();
      std::string name = local.unique(hint);
      scope.values[argument] = name;
      return name;
    };
    plan.hBegin = boxName(kernel.getPointsBegin(), "h_begin");
    plan.hEnd = boxName(kernel.getPointsEnd(), "h_end");
    plan.kBegin = boxName(kernel.getLevelsBegin(), "k_begin");
    plan.kEnd = boxName(kernel.getLevelsEnd(), "k_end");
    plan.eBegin = boxName(kernel.getEntriesBegin(), "e_begin");
    plan.eEnd = boxName(kernel.getEntriesEnd(), "e_end");
    auto addBound = [&](Value bound, StringRef hint) {
      std::string name = local.unique(hint);
      plan.launcherParameters.push_back({"int32_t", name, bound, ""});
      return name;
    };
    // verifyKernelForm: a point list is a program parameter.
    if (Value list = kernel.getPoints()) {
      const PointListArguments &arguments =
          program.interface->parameter(cast<BlockArgument>(list).getArgNumber()).list;
      auto addListArgument = [&](StringRef type, const std::string &argument) {
        std::string name = local.unique(argument);
        plan.launcherParameters.push_back({type.str(), name, Value(), argument});
        return name;
      };
      plan.list = {addListArgument("int32_t", arguments.count),
                   addListArgument("const int32_t *", arguments.cell),
                   addListArgument("const int32_t *", arguments.level)};
      scope.list = {plan.list.cell, plan.list.level};
    }
    if (kernel.getHlb()) {
      plan.hlb = addBound(kernel.getHlb(), "h_lb");
      plan.hub = addBound(kernel.getHub(), "h_ub");
    }
    if (kernel.getKlb()) {
      plan.klb = addBound(kernel.getKlb(), "k_lb");
      plan.kub = addBound(kernel.getKub(), "k_ub");
    }
    if (std::optional<ArrayRef<int64_t>> bytes = kernel.getColumnOrder();
        bytes && plan.hasPoints() && plan.hasLevels())
      plan.columnOrderBytes = (*bytes)[0] + plan.kblock * (*bytes)[1];
    if (plan.columnOrderBytes) {
      plan.levelTiles = local.unique("level_tiles");
      plan.byColumn = local.unique("by_column");
    }
    for (Value value : plan.uses.captures) {
      std::string name = local.unique(captureHint(value, program));
      std::string type;
      if (auto field = dyn_cast<FieldType>(value.getType()))
        type = (plan.uses.written.contains(value) ? "" : "const ") +
               *cScalarType(field.getElementType()) + " *";
      else
        type = *cScalarType(value.getType());
      plan.launcherParameters.push_back({type, name, value, ""});
      scope.values[value] = name;
    }
    for (GridLocation location : plan.uses.locations) {
      std::string name = local.unique(locationWord(location) + "_ld");
      plan.stateParameters.push_back(
          {"int64_t", name, Value(),
           program.state + ".extents.ld[" + locationEnumerator(location) + "]"});
      scope.leadingDimensions[static_cast<int>(location)] = name;
    }
    for (ConnectivityOp conn : plan.uses.tables) {
      std::string word = conn.getSymName().lower();
      std::string table = program.state + "." + program.kernelTable.lookup(conn.getSymName());
      std::string entries = local.unique(word + "_table"), ld;
      plan.stateParameters.push_back({"const int32_t *", entries, Value(), table + ".data()"});
      if (plan.uses.tablesAtSlots.contains(conn.getSymName())) {
        ld = local.unique(word + "_ld");
        plan.stateParameters.push_back({"int64_t", ld, Value(), table + ".ld()"});
      }
      std::string missingBefore;
      if (plan.uses.tablesTested.contains(conn.getSymName())) {
        missingBefore = local.unique(word + "_missing_before");
        plan.stateParameters.push_back(
            {"const int32_t *", missingBefore, Value(), table + ".missing_before()"});
      }
      NamesByShape blockOffsets;
      if (target.supportsBlockedLayout())
        for (const BlockedShape &shape : scope.gathers.perTable.lookup(conn.getSymName())) {
          blockOffsets.push_back({shape, local.unique(word + "_offsets_" + shape.suffix())});
          std::string offsets =
              table + ".block_offsets(" + shape.beyond(program.state + ".extents.nlev") + ")";
          std::string staged;
          if (shape.fold >= 0)
            staged = program.state + "." + program.wavefrontPlanOf.lookup(wavefrontOf(kernel)) +
                     ".fold_offsets(" + std::to_string(shape.fold) + ", " + table +
                     ".data(), " + offsets + ")";
          plan.blockedParameters.push_back(
              {"const int64_t *", blockOffsets.back().second, Value(), offsets, staged});
        }
      scope.tables[conn.getSymName()] = {entries, ld, blockOffsets, missingBefore};
    }
    if (target.supportsBlockedLayout())
      planFoldColumns(plan, program);
    if (target.supportsBlockedLayout()) {
      plan.nproma = scope.nproma = local.unique("nproma");
      plan.blockedParameters.push_back(
          {"int32_t", plan.nproma, Value(), "static_cast<int32_t>(" + program.state + ".extents.nproma)"});
      scope.numLevels = local.unique("num_levels");
      plan.blockedParameters.push_back(
          {"int32_t", scope.numLevels, Value(), program.state + ".extents.nlev"});
    }
  }

  static WavefrontOp wavefrontOf(KernelOp kernel) {
    return kernel.getStage() ? kernel->getParentOfType<WavefrontOp>() : WavefrontOp();
  }

  /// The column starts of the folded buffers the kernel accesses at points
  /// that are no neighbours: of the full buffer, or the plan's.
  void planFoldColumns(KernelPlan &plan, const ProgramPlan &program) {
    KernelOp kernel = plan.op;
    WavefrontOp wavefront = wavefrontOf(kernel);
    if (!wavefront || wavefront.getFolds().empty())
      return;
    KernelScope &scope = plan.scope;
    kernel.walk([&](Operation *op) {
      Value field, point;
      if (auto load = dyn_cast<LoadOp>(op)) {
        field = load.getField();
        point = load.getPoint();
      } else if (auto write = dyn_cast<WriteOp>(op)) {
        field = write.getField();
        point = write.getPoint();
      } else if (auto prefetch = dyn_cast<PrefetchOp>(op)) {
        field = prefetch.getField();
        point = prefetch.getPoint();
      }
      std::optional<BlockedShape> shape = field ? BlockedShape::of(field, kernel) : std::nullopt;
      if (!shape || shape->fold < 0 || scope.gathers.atPoint.count(point) ||
          scope.foldColumns.count(shape->fold))
        return;
      FieldShape fieldShape = FieldShape::of(field.getType());
      std::string full = program.state + "." +
                         program.columnStarts.at({*fieldShape.location, fieldShape.vertical}) +
                         ".data()";
      std::string name = scope.names.unique(fieldName(field).str() + "_columns");
      scope.foldColumns[shape->fold] = name;
      plan.blockedParameters.push_back(
          {"const int64_t *", name, Value(), full,
           program.state + "." + program.wavefrontPlanOf.lookup(wavefront) + ".fold_at(" +
               std::to_string(shape->fold) + ", " + full + ")"});
    });
  }

  LogicalResult emitProgram(ProgramPlan &plan, raw_ostream &os) {
    const ProgramInterface &interface = *plan.interface;
    os << "\n// Program " << interface.name << "("
       << llvm::join(describeParameters(interface), "; ") << ")\n\n";
    emitState(plan, os);
    for (auto &kernel : plan.kernels) {
      if (failed(target.emitKernel(*kernel, os)))
        return failure();
      os << "\n";
      emitLauncher(*kernel, plan, os);
    }
    if (failed(emitExecute(plan, os)))
      return failure();
    emitInterface(plan, os);
    emitRun(plan, os);
    emitRunAndVerify(plan, os);
    return success();
  }

  /// The program body, run on the host: P_run's work without its checks.
  LogicalResult emitExecute(const ProgramPlan &plan, raw_ostream &os) {
    ProgramOp program = plan.interface->program;
    std::string body;
    llvm::raw_string_ostream bodyOs(body);
    RunBodyEmitter bodyEmitter(target, plan, names.runScope());
    if (failed(bodyEmitter.emitBlock(program.getBody().front(), bodyOs)))
      return failure();
    // A body that needs no state (no kernel, level count or exchange) keeps
    // the parameter's name in a comment (-Wunused-parameter).
    std::string state = plan.stateType + " &" +
                        (bodyEmitter.usesState() ? plan.state : "/*" + plan.state + "*/");
    std::vector<std::string> parameters{state};
    for (auto [index, parameter] : llvm::enumerate(plan.interface->parameters)) {
      // A parameter the body never reads keeps its name in a comment (-Wunused-parameter).
      bool unused = !isUsed(program.getArgument(index));
      for (const CDeclaration &declaration : cDeclarations(parameter))
        parameters.push_back(declaration.text(unused));
    }
    os << "static int " << plan.execute << "(" << llvm::join(parameters, ", ") << ") {\n"
       << body << "return FUSEC_SUCCESS;\n}\n\n";
    return success();
  }

  /// `P_execute(*handle, arguments)`, outputs replaced by `outputs` where it
  /// has them, run as the target runs a program body.
  std::string executeCall(const ProgramPlan &plan,
                          const llvm::DenseMap<unsigned, std::string> &outputs) const {
    std::vector<std::string> arguments{"*handle"};
    for (auto [index, parameter] : llvm::enumerate(plan.interface->parameters)) {
      auto output = outputs.find(index);
      if (output != outputs.end()) {
        arguments.push_back(output->second);
        continue;
      }
      llvm::append_range(arguments, parameter.cArguments());
    }
    return target.runBody(plan.execute + "(" + llvm::join(arguments, ", ") + ")");
  }

  void emitRun(const ProgramPlan &plan, raw_ostream &os) {
    os << "extern \"C\" " << runPrototype(*plan.interface)
       << " {\nif (handle == nullptr)\nreturn FUSEC_ERROR_NOT_SET_UP;\nfusec::TimedRun<"
       << plan.timerNames.size() << "> timed(handle->timers, handle->stream);\nreturn "
       << executeCall(plan, llvm::DenseMap<unsigned, std::string>()) << ";\n}\n\n";
  }

  /// Runs the program from the `_before` copies into the state's reference
  /// arrays and compares those with the caller's results.
  void emitRunAndVerify(const ProgramPlan &plan, raw_ostream &os) {
    const ProgramInterface &interface = *plan.interface;
    std::string state = "handle->";
    os << "extern \"C\" " << runAndVerifyPrototype(interface)
       << " {\nif (handle == nullptr)\nreturn FUSEC_ERROR_NOT_SET_UP;\n";
    llvm::DenseMap<unsigned, std::string> references;
    std::vector<std::string> checks;
    for (auto [index, parameter] : llvm::enumerate(interface.parameters)) {
      if (!parameter.isOutput())
        continue;
      std::string member = state + plan.references.lookup(index);
      FieldShape shape = FieldShape::of(parameter.type);
      std::string where = optionalLocationEnumerator(shape.location) + ", " +
                          levelsEnumerator(shape.vertical) + ", " +
                          std::to_string(shape.sparseSize);
      os << "if (int rc = " << member << ".assign(" << parameter.before << ", " << state
         << "extents.elements(" << where << "), " << state << "stream))\nreturn rc;\n";
      references[index] = member + ".data()";
      checks.push_back("verifier.check(" + cStringLiteral(parameter.sourceName) + ", " +
                       parameter.name + ", " + member + ".data(), " + where + ");\n");
    }
    os << "if (int rc = " << executeCall(plan, references) << ")\nreturn rc;\n"
       << "fusec::Verifier verifier(" << cStringLiteral(interface.name) << ", " << state
       << "verification, " << state << "extents, " << state << "stream, tolerances);\n";
    for (const std::string &check : checks)
      os << check;
    os << "return verifier.status();\n}\n\n";
  }

  /// The handle's type: everything one instance owns. The file has no
  /// mutable state of its own, so instances are independent.
  void emitState(const ProgramPlan &plan, raw_ostream &os) {
    os << "// Made by " << plan.interface->create << ", released by "
       << plan.interface->destroy << ".\nstruct " << plan.stateType << " {\n"
       << target.streamType() << " stream = nullptr;\n"
       << "fusec::Extents extents;\n"
       << "fusec::ExchangeHandler exchange;\n"
       << "fusec::VerificationHandler verification;\n";
    std::vector<std::string> timerNames;
    for (const std::string &name : plan.timerNames)
      timerNames.push_back(cStringLiteral(name));
    os << "fusec::ProgramTimers<" << plan.timerNames.size() << "> timers{"
       << cStringLiteral(plan.interface->name) << ", {{" << llvm::join(timerNames, ", ")
       << "}}};\n";
    for (const TableMember &table : plan.tables)
      os << table.type << " " << table.name << ";\n";
    for (const BufferMember &buffer : plan.buffers)
      os << buffer.type << " " << buffer.name << ";\n";
    for (const auto &[where, member] : plan.columnStarts)
      os << "// Where each point's column starts in a full buffer a plan folds.\n"
         << "fusec::HostArray<int64_t> " << member << ";\n";
    for (const std::string &wavefront : plan.wavefrontPlans)
      os << "// Built by the first run of its group.\nfusec::wavefront::Plan " << wavefront
         << ";\n";
    for (auto [index, parameter] : llvm::enumerate(plan.interface->parameters))
      if (parameter.isOutput())
        os << "// " << parameter.sourceName << " as computed by " << plan.interface->runAndVerify
           << ".\n"
           << target.bufferType(*cScalarType(getElementType(parameter.type))) << " "
           << plan.references.lookup(index) << ";\n";
    os << "};\n\n";
  }

  /// What the launcher does on an empty domain, as the body of an `if`.
  std::string emptyDomainBlock(const KernelPlan &plan) const {
    std::vector<std::string> statements = target.emptyDomainStatements(plan);
    if (statements.size() == 1)
      return "\n" + statements.front() + "\n";
    return " {\n" + llvm::join(statements, "\n") + "\n}\n";
  }

  static std::vector<std::string> launcherParameterList(const KernelPlan &plan,
                                                       const ProgramPlan &program) {
    std::vector<std::string> parameters{program.stateType + " &" + program.state};
    for (const KernelPlan::Parameter &parameter : plan.launcherParameters)
      parameters.push_back(parameter.type + (parameter.isPointer() ? "" : " ") + parameter.name);
    return parameters;
  }

  /// A launcher's tests of its domain: when it is empty, and when it lies
  /// outside the extents.
  static void domainTests(const KernelPlan &plan, const ProgramPlan &program,
                          std::vector<std::string> &empty, std::vector<std::string> &outside) {
    std::string extents = program.state + ".extents.";
    KernelOp kernel = plan.op;
    if (plan.hasPoints()) {
      empty.push_back(plan.hlb + " >= " + plan.hub);
      outside.push_back("!" + extents + "horizontal_inside(" +
                        locationEnumerator(*kernel.getLocation()) + ", " + plan.hlb + ", " +
                        plan.hub + ")");
    }
    if (plan.hasLevels()) {
      empty.push_back(plan.klb + " >= " + plan.kub);
      outside.push_back("!" + extents + "vertical_inside(" + plan.klb + ", " + plan.kub + ", " +
                        (plan.uses.halfLevels ? "true" : "false") + ")");
    }
    // The entries themselves are the caller's to get right: checking them
    // would cost a pass over the list per launch.
    if (plan.hasPointList()) {
      const PointListArguments &list = plan.list;
      empty.push_back(list.count + " == 0");
      outside.push_back(list.count + " < 0 || " + list.cell + " == nullptr || " + list.level +
                        " == nullptr");
    }
  }

  void emitLauncher(const KernelPlan &plan, const ProgramPlan &program, raw_ostream &os) {
    std::vector<std::string> parameters = launcherParameterList(plan, program), empty, outside;
    domainTests(plan, program, empty, outside);
    os << "static int " << plan.launcher << "(" << llvm::join(parameters, ", ") << ") {\n"
       << "if (" << llvm::join(empty, " || ") << ")" << emptyDomainBlock(plan)
       << "if (" << llvm::join(outside, " || ") << ")\nreturn FUSEC_ERROR_DOMAIN;\n"
       << "fusec::TimedLaunch timed(" << program.state << ".timers, " << plan.index << ", "
       << program.state << ".stream);\n";
    target.emitLaunch(plan, program.state, os);
    os << "}\n\n";
    if (plan.staged)
      emitStageFunctions(plan, program, os);
  }

  /// A wavefront stage's domain check, before its plan runs, and its run on
  /// a range of points from the plan (levels as the launcher has them).
  void emitStageFunctions(const KernelPlan &plan, const ProgramPlan &program, raw_ostream &os) {
    std::vector<std::string> parameters = launcherParameterList(plan, program), empty, outside;
    domainTests(plan, program, empty, outside);
    os << "static int " << plan.checker << "(" << llvm::join(parameters, ", ") << ") {\n"
       << "if (" << llvm::join(empty, " || ") << ")\nreturn FUSEC_SUCCESS;\n"
       << "if (" << llvm::join(outside, " || ") << ")\nreturn FUSEC_ERROR_DOMAIN;\n"
       << "return FUSEC_SUCCESS;\n}\n\n";
    NameTable local;
    local.reserve(program.state);
    for (const KernelPlan::Parameter &parameter : plan.launcherParameters)
      local.reserve(parameter.name);
    std::string begin = local.unique("begin"), end = local.unique("end");
    parameters.push_back("const int32_t " + begin);
    parameters.push_back("const int32_t " + end);
    os << "static void " << plan.ranged << "(" << llvm::join(parameters, ", ") << ") {\n";
    if (plan.hasLevels())
      os << "if (" << plan.klb << " >= " << plan.kub << ")\nreturn;\n";
    os << plan.function << "_blocked("
       << plan.kernelArguments(/*blocked=*/true, /*staged=*/true) << ", " << begin
       << ", " << end << ");\n}\n\n";
  }

  void emitInterface(const ProgramPlan &plan, raw_ostream &os) {
    const ProgramInterface &interface = *plan.interface;
    os << "extern \"C\" " << errorMessagePrototype(interface)
       << " {\nreturn fusec_status_message(status);\n}\n\n";

    os << "extern \"C\" " << setExchangeCallbackPrototype(interface)
       << " {\nif (handle == nullptr)\nreturn;\n"
       << "handle->exchange.callback = callback;\n"
       << "handle->exchange.user_data = user_data;\n}\n\n";

    os << "extern \"C\" " << setVerificationCallbackPrototype(interface)
       << " {\nif (handle == nullptr)\nreturn;\n"
       << "handle->verification.callback = callback;\n"
       << "handle->verification.user_data = user_data;\n}\n\n";

    os << "extern \"C\" " << enableTimersPrototype(interface)
       << " {\nif (handle != nullptr)\nhandle->timers.enabled = enabled != 0;\n}\n\n";

    os << "extern \"C\" " << writeMetricsPrototype(interface)
       << " {\nif (handle == nullptr)\nreturn FUSEC_ERROR_NOT_SET_UP;\n"
       << "fusec::MetricsWriter metrics("
       << cStringLiteral("fusec-" + target.backendName().str()) << ");\n"
       << "handle->timers.report(metrics);\nreturn metrics.write(path);\n}\n\n";

    // Device memory and CUDA events are released explicitly, then the rest.
    os << "extern \"C\" " << destroyPrototype(interface)
       << " {\nif (handle == nullptr)\nreturn;\n";
    for (const TableMember &table : plan.tables)
      os << "handle->" << table.name << ".release();\n";
    for (const BufferMember &buffer : plan.buffers)
      os << "handle->" << buffer.name << ".release();\n";
    for (const auto &[where, member] : plan.columnStarts)
      os << "handle->" << member << ".release();\n";
    for (auto [index, parameter] : llvm::enumerate(interface.parameters))
      if (parameter.isOutput())
        os << "handle->" << plan.references.lookup(index) << ".release();\n";
    os << "handle->timers.release();\ndelete handle;\n}\n\n";

    // Setup's copies and fills go on the caller's stream, like everything after.
    std::string state = plan.state;
    os << "extern \"C\" " << createWithLayoutPrototype(interface) << " {\n"
       << "if (handle == nullptr)\nreturn FUSEC_ERROR_INVALID_ARGUMENT;\n"
       << "*handle = nullptr;\n"
       << plan.stateType << " *" << state << " = new (std::nothrow) " << plan.stateType << ";\n"
       << "if (" << state << " == nullptr)\nreturn FUSEC_ERROR_OUT_OF_MEMORY;\n"
       << state << "->stream = " << target.streamFromArgument("stream") << ";\n"
       << "int status = " << state << "->extents.init(mesh, nlev, layout);\n";
    if (!target.supportsBlockedLayout())
      os << "if (status == FUSEC_SUCCESS && " << state << "->extents.blocked())\n"
         << "status = FUSEC_ERROR_UNSUPPORTED_LAYOUT;\n";
    else if (stn::columnsLayout(interface.program))
      os << "// Compiled for the columns layout only.\n"
         << "if (status == FUSEC_SUCCESS && !(" << state << "->extents.blocked() && " << state
         << "->extents.nproma == 1))\nstatus = FUSEC_ERROR_UNSUPPORTED_LAYOUT;\n";
    for (const TableMember &table : plan.tables) {
      ConnectivityOp conn = table.conn;
      os << "if (status == FUSEC_SUCCESS)\nstatus = " << state << "->" << table.name
         << ".load(mesh, " << cStringLiteral(conn.getSymName()) << ", "
         << locationEnumerator(conn.getSource()) << ", " << locationEnumerator(conn.getTarget())
         << ", " << conn.getSize() << ", " << state << "->stream);\n";
      if (plan.kernelTable.lookup(conn.getSymName()) != table.name)
        continue;
      for (const BlockedShape &shape : plan.blockOffsets.lookup(conn.getSymName()))
        os << "if (status == FUSEC_SUCCESS && " << state << "->extents.blocked())\nstatus = "
           << state << "->" << table.name << ".compute_block_offsets(" << state
           << "->extents.nproma, " << shape.beyond(state + "->extents.nlev") << ");\n";
    }
    for (const BufferMember &buffer : plan.buffers) {
      AllocOp alloc = buffer.alloc;
      FieldShape shape = FieldShape::of(alloc.getType());
      os << "if (status == FUSEC_SUCCESS)\nstatus = " << state << "->" << buffer.name
         << ".allocate(" << state << "->extents.elements("
         << optionalLocationEnumerator(shape.location) << ", " << levelsEnumerator(shape.vertical)
         << ", " << shape.sparseSize << "), " << state << "->stream);\n";
    }
    for (const auto &[where, member] : plan.columnStarts)
      os << "if (status == FUSEC_SUCCESS)\nstatus = fusec::wavefront::column_starts(" << state
         << "->" << member << ", " << state << "->extents.num_points["
         << locationEnumerator(where.first) << "], " << state << "->extents.levels("
         << levelsEnumerator(where.second) << "));\n";
    os << "if (status != FUSEC_SUCCESS) {\n"
       << interface.destroy << "(" << state << ");\nreturn status;\n}\n"
       << "*handle = " << state << ";\nreturn FUSEC_SUCCESS;\n}\n\n";

    os << "extern \"C\" " << createPrototype(interface) << " {\nreturn "
       << interface.createWithLayout << "(mesh, nlev, nullptr, stream, handle);\n}\n\n";
  }

  const CFamilyTarget &target;
  ArrayRef<ProgramInterface> interfaces;
  FileNames names;
};

} // namespace

LogicalResult emitCFamily(ModuleOp module, const CFamilyTarget &target, raw_ostream &os) {
  if (failed(verifyKernelForm(module)))
    return failure();
  // The schedule is the IR's: kernels arrive in the loop form of this target.
  WalkResult scheduled = module.walk([&](KernelOp kernel) {
    if (kernel.getLoopForm())
      return WalkResult::advance();
    kernel.emitError() << "kernel '" << kernel.getName()
                       << "' is not in loop form: run stn-lower-to-loops for the "
                       << target.backendName() << " target";
    return WalkResult::interrupt();
  });
  if (scheduled.wasInterrupted())
    return failure();
  FailureOr<ModuleInterface> interface = describeModule(module);
  if (failed(interface))
    return failure();
  std::string text;
  llvm::raw_string_ostream textOs(text);
  CFamilyEmitter emitter(target, *interface);
  if (failed(emitter.emit(textOs)))
    return failure();
  FailureOr<std::string> formatted = formatCppSource(module.getLoc(), text);
  if (failed(formatted))
    return failure();
  os << *formatted;
  return success();
}

} // namespace fusec::codegen
