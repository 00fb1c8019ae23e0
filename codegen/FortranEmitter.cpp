//===- FortranEmitter.cpp - bind(c) interfaces and wrappers for Fortran ---===//
//
// A module `fusec_<module name>` for ICON: one bind(c) interface per C
// function, and per program a derived type `<program>_t` holding one instance
// (its handle) with type-bound procedures (create, run, destroy, callbacks,
// timers). `run` is `wrap_run_<program>`, in the style ICON knows from its DSL
// bindings: fields as assumed-shape arrays (first extent nproma), scalars as
// ordinary arguments, and optional `<out>_before` copies and tolerances that
// make it call P_run_and_verify instead of P_run. For ICON's blocked arrays
// `run` is generic over `wrap_run_blocked_<program>`, whose horizontal fields
// have one more dimension (nblks). A point list is its count and two
// contiguous arrays of 0-based flat cell indices and levels (ICON's 1-based
// blocked lists convert as cell = (jb-1)*nproma + jc-1, level = jk-1); the
// wrapper checks the count against both. Verification is chosen at
// run time, so the file needs no preprocessor and compiles as `.f90`.
// Under OpenACC the wrapper passes device addresses (`host_data use_device`).
// Fortran names are case-insensitive and at most 63 characters; where a C
// name does not fit, the Fortran name is shortened and `bind(c, name=...)`
// keeps the C name.
//
//===----------------------------------------------------------------------===//

#include "codegen/CInterface.h"
#include "codegen/Emitters.h"
#include "codegen/KernelForm.h"
#include "codegen/NameTable.h"

#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace mlir;
using fusec::codegen::NameTable;

namespace fusec {
namespace {

constexpr size_t kLineLimit = 100;

/// The iso_c_binding kind of a scalar: c_double, c_float, c_int32_t, ...
std::string kindOf(Type type) {
  if (type.isF64())
    return "c_double";
  if (type.isF32())
    return "c_float";
  if (type.isSignlessInteger(1))
    return "c_bool";
  if (type.isSignlessInteger(64))
    return "c_int64_t";
  return "c_int32_t";
}

std::string typeSpec(Type type) {
  std::string kind = kindOf(type);
  if (type.isF64() || type.isF32())
    return "real(" + kind + ")";
  if (type.isSignlessInteger(1))
    return "logical(" + kind + ")";
  return "integer(" + kind + ")";
}

/// `(:, :)` for a field with a location and levels: one dimension per
/// location, neighbour slot and level, in that order. In ICON's blocked CPU
/// layout the location takes two, nproma first and the blocks last:
/// `(nproma, [n,] [nlev,] nblks)`.
std::string assumedShape(Type fieldType, bool blocked) {
  stn::FieldShape shape = stn::FieldShape::of(fieldType);
  int rank = (shape.location ? (blocked ? 2 : 1) : 0) + (shape.sparseSize > 0 ? 1 : 0) +
             (shape.vertical != stn::VerticalKind::None ? 1 : 0);
  std::vector<std::string> colons(rank, ":");
  return "(" + llvm::join(colons, ", ") + ")";
}

/// Writes the clauses of one statement at `indent`, separated by spaces and
/// continued with '&' between clauses so that lines stay within kLineLimit
/// (free form allows 132). A clause longer than a line can only be a
/// bind(c, name="...") with a long C name: it continues inside the string.
/// Directive lines (`sentinel` "!$acc ") repeat the sentinel on continuations.
void writeWrapped(ArrayRef<std::string> clauses, unsigned indent, raw_ostream &os,
                  StringRef sentinel = "") {
  std::string start = std::string(indent, ' ') + sentinel.str();
  std::string line = start;
  bool lineHasClause = false;
  for (const std::string &clause : clauses) {
    if (lineHasClause && line.size() + 1 + clause.size() + 2 > kLineLimit) {
      os << line << " &\n";
      line = start + std::string(4, ' ');
      lineHasClause = false;
    }
    if (lineHasClause)
      line += ' ';
    StringRef rest = clause;
    while (line.size() + rest.size() > kLineLimit) {
      size_t take = kLineLimit - line.size() - 1;
      os << line << rest.take_front(take) << "&\n";
      line = std::string(indent + 4, ' ') + "&";
      rest = rest.drop_front(take);
    }
    line += rest.str();
    lineHasClause = true;
  }
  os << line << "\n";
}

/// `head` glued to the first of `items`, each but the last followed by
/// `separator` and the last by `tail`: one clause per item, so that lines
/// break between items.
std::vector<std::string> listClauses(StringRef head, ArrayRef<std::string> items,
                                     StringRef tail = "", StringRef separator = ",") {
  if (items.empty())
    return {head.str() + tail.str()};
  std::vector<std::string> clauses;
  for (auto [index, item] : llvm::enumerate(items))
    clauses.push_back((index == 0 ? head.str() : "") + item +
                      (index + 1 == items.size() ? tail.str() : separator.str()));
  return clauses;
}

/// One interface body.
struct Procedure {
  std::string fortranName, cName;
  bool isFunction = true;
  std::vector<std::string> dummies;
  std::vector<std::string> declarations; ///< of the dummies, then the result
  std::string result;
  std::set<std::string> kinds;
};

void writeProcedure(const Procedure &procedure, raw_ostream &os) {
  std::string keyword = procedure.isFunction ? "function" : "subroutine";
  std::vector<std::string> head;
  std::string opening = keyword + " " + procedure.fortranName + "(";
  if (procedure.dummies.empty())
    head.push_back(opening + ")");
  for (auto [index, dummy] : llvm::enumerate(procedure.dummies)) {
    bool last = index + 1 == procedure.dummies.size();
    head.push_back((index == 0 ? opening : "") + dummy + (last ? ")" : ","));
  }
  if (procedure.isFunction)
    head.push_back("result(" + procedure.result + ")");
  head.push_back("bind(c, name=\"" + procedure.cName + "\")");
  writeWrapped(head, 4, os);
  if (!procedure.kinds.empty())
    writeWrapped(listClauses("import :: ", std::vector<std::string>(procedure.kinds.begin(),
                                                                    procedure.kinds.end())),
                 6, os);
  for (const std::string &declaration : procedure.declarations)
    writeWrapped({declaration}, 6, os);
  os << "    end " << keyword << " " << procedure.fortranName << "\n";
}

/// The Fortran names of one program's run arguments and of what its wrapper adds.
/// The handle and the wrapper's passed object are `handle` and `self`.
struct WrapperDummies {
  std::vector<std::string> run;        ///< by parameter; empty for a point list
  /// By parameter; empty unless a point list: its count and arrays.
  std::vector<codegen::PointListArguments> lists;
  std::vector<std::string> before;     ///< by parameter; empty unless an output
  std::vector<std::string> rtol, atol; ///< by parameter; empty unless an output
};

class FortranModuleEmitter {
public:
  explicit FortranModuleEmitter(const codegen::ModuleInterface &module)
      : moduleNames(NameTable::Language::Fortran) {
    moduleName = moduleNames.unique("fusec_" + module.name);
    // The wrappers' helpers, private to the module.
    finishCall = moduleNames.unique("finish_call");
    cStrlen = moduleNames.unique("c_strlen");
    for (const codegen::ProgramInterface &program : module.programs)
      build(program);
  }

  void write(raw_ostream &os) {
    std::set<std::string> kinds{"c_char",      "c_int",      "c_ptr",       "c_size_t",
                                "c_f_pointer", "c_null_ptr", "c_null_char"};
    // One public statement per program: a single one would exceed the 255
    // continuation lines a statement may have.
    std::vector<std::vector<std::string>> publicNames;
    for (const ProgramProcedures &program : programs) {
      std::vector<std::string> &names = publicNames.emplace_back();
      for (const Procedure &procedure : program.procedures) {
        kinds.insert(procedure.kinds.begin(), procedure.kinds.end());
        names.push_back(procedure.fortranName);
      }
      names.push_back(program.type);
      names.push_back(program.wrapper);
      if (!program.blockedWrapper.empty())
        names.push_back(program.blockedWrapper);
    }
    os << "! Generated by fusec: bind(c) interfaces to the C functions of the programs below,\n"
          "! and per program a type <program>_t holding one instance (grid, nlev, stream):\n"
          "!   type(<program>_t) :: d; call d%create(mesh, nlev); call d%run(...); call d%destroy()\n"
          "! Do not edit. Fields are device arrays for the CUDA backend (run passes device\n"
          "! addresses under OpenACC), host arrays for the C++ one; functions return 0\n"
          "! (FUSEC_SUCCESS) or a fusec_status code, which <program>_error_message describes.\n"
          "! run (wrap_run_<program>) given every <out>_before copy verifies instead of running.\n"
          "! run takes ICON's blocked arrays f(nproma, [n,] [nlev,] nblks) too\n"
          "! (wrap_run_blocked_<program>).\n"
          "! A point list L is L_count, L_cell(:), L_level(:): entry i is the point with 0-based\n"
          "! flat index L_cell(i) at 0-based level L_level(i), the pairs distinct (ICON's index\n"
          "! lists convert as L_cell = (jb-1)*nproma + jc-1, L_level = jk-1); both arrays hold at\n"
          "! least L_count entries, else run returns FUSEC_ERROR_INVALID_ARGUMENT. Device arrays\n"
          "! for the CUDA backend, like fields.\n"
          "! See docs/integration.md.\n"
       << "module " << moduleName << "\n";
    writeWrapped(listClauses("use, intrinsic :: iso_c_binding, only: ",
                             std::vector<std::string>(kinds.begin(), kinds.end())),
                 2, os);
    os << "  use, intrinsic :: iso_fortran_env, only: error_unit\n"
       << "  implicit none\n  private\n";
    for (const std::vector<std::string> &names : publicNames)
      writeWrapped(listClauses("public :: ", names), 2, os);
    for (const ProgramProcedures &program : programs)
      writeType(program, os);
    os << "\n  interface\n";
    for (const ProgramProcedures &program : programs) {
      os << "\n";
      for (const std::string &line : program.comment)
        os << "    ! " << line << "\n";
      for (const Procedure &procedure : program.procedures)
        writeProcedure(procedure, os);
    }
    os << "\n    function " << cStrlen << "(text) result(length) bind(c, name=\"strlen\")\n"
       << "      import :: c_ptr, c_size_t\n      type(c_ptr), value :: text\n"
       << "      integer(c_size_t) :: length\n    end function " << cStrlen << "\n"
       << "\n  end interface\n\ncontains\n";
    for (const ProgramProcedures &program : programs) {
      writeLifetime(program, os);
      writeWrapper(program, /*blocked=*/false, os);
      if (!program.blockedWrapper.empty())
        writeWrapper(program, /*blocked=*/true, os);
      writeSettings(program, os);
    }
    writeFinishCall(os);
    os << "end module " << moduleName << "\n";
  }

private:
  struct ProgramProcedures {
    const codegen::ProgramInterface *interface;
    std::vector<std::string> comment;
    std::vector<Procedure> procedures;
    /// The derived type and the module procedures bound to it. A program
    /// with horizontal fields also has `blockedWrapper`, `wrapper` for
    /// arrays in ICON's blocked layout: `run` is generic over the two.
    std::string type, wrapper, blockedWrapper, create, createWithLayout, destroy,
        setExchangeCallback, setVerificationCallback, enableTimers, writeMetrics;
    WrapperDummies dummies;
    /// Fortran names of the C functions the type-bound procedures call.
    std::string cCreate, cCreateWithLayout, run, runAndVerify, cDestroy, errorMessage,
        cSetExchangeCallback, cSetVerificationCallback, cEnableTimers, cWriteMetrics;
  };

  /// A module-level name `prefix + program + suffix`, at most 63 characters:
  /// a longer one keeps its prefix (`wrap_run_`) and suffix (`_run`, ...) and
  /// loses the end of the program's name.
  std::string fitName(const codegen::ProgramInterface &interface, const std::string &prefix,
                      const std::string &suffix) {
    std::string name = prefix + interface.name + suffix;
    if (name.size() > NameTable::kFortranMaxLength)
      name =
          prefix +
          interface.name.substr(0, NameTable::kFortranMaxLength - prefix.size() - suffix.size()) +
          suffix;
    return moduleNames.unique(name);
  }

  Procedure start(const codegen::ProgramInterface &interface, const std::string &cName,
                  bool isFunction) {
    Procedure procedure;
    procedure.cName = cName;
    procedure.fortranName = fitName(interface, "", cName.substr(interface.name.size()));
    procedure.isFunction = isFunction;
    return procedure;
  }

  /// Dummy names that hide nothing the wrapper's body uses: its locals, the
  /// intrinsics and module names it calls, and `called` (the program's procedures).
  WrapperDummies nameDummies(const codegen::ProgramInterface &interface,
                             ArrayRef<std::string> called) const {
    WrapperDummies dummies;
    NameTable names(NameTable::Language::Fortran);
    for (StringRef used : {"rc", "tolerances", "present", "logical", "self", "handle"})
      names.reserve(used);
    // The check of a point list's count.
    if (llvm::any_of(interface.parameters,
                     [](const codegen::RunParameter &parameter) { return parameter.isPointList; }))
      names.reserve("size");
    names.reserve(finishCall);
    for (const std::string &procedure : called)
      names.reserve(procedure);
    for (const codegen::RunParameter &parameter : interface.parameters) {
      const codegen::PointListArguments &list = parameter.list;
      dummies.run.push_back(parameter.isPointList ? "" : names.unique(parameter.name));
      dummies.lists.push_back(parameter.isPointList
                                  ? codegen::PointListArguments{names.unique(list.count),
                                                                names.unique(list.cell),
                                                                names.unique(list.level)}
                                  : codegen::PointListArguments());
    }
    for (auto [index, parameter] : llvm::enumerate(interface.parameters)) {
      bool output = parameter.isOutput();
      const std::string &base = dummies.run[index];
      dummies.before.push_back(output ? names.unique(base + "_before") : "");
      dummies.rtol.push_back(output ? names.unique(base + "_rel_tol") : "");
      dummies.atol.push_back(output ? names.unique(base + "_abs_tol") : "");
    }
    return dummies;
  }

  /// The bind(c) declaration of a field as assumed-size array.
  static std::string fieldDeclaration(Type fieldType, StringRef intent, StringRef name) {
    return typeSpec(stn::getElementType(fieldType)) + ", intent(" + intent.str() +
           "), target :: " + name.str() + "(*)";
  }

  /// P_run's or P_run_and_verify's interface, named by start().
  static void describeRun(Procedure &run, const codegen::ProgramInterface &interface,
                          const WrapperDummies &dummies, bool verify) {
    run.result = "status";
    run.kinds = {"c_int", "c_ptr"};
    run.dummies.push_back("handle");
    run.declarations.push_back("type(c_ptr), value :: handle");
    for (auto [index, parameter] : llvm::enumerate(interface.parameters)) {
      const std::string &name = dummies.run[index];
      if (parameter.isPointList) {
        const codegen::PointListArguments &list = dummies.lists[index];
        run.dummies.insert(run.dummies.end(), {list.count, list.cell, list.level});
        run.kinds.insert("c_int32_t");
        run.declarations.push_back("integer(c_int32_t), value :: " + list.count);
        run.declarations.push_back("integer(c_int32_t), intent(in), target :: " + list.cell +
                                   "(*), " + list.level + "(*)");
        continue;
      }
      run.dummies.push_back(name);
      if (parameter.isField) {
        Type element = stn::getElementType(parameter.type);
        run.kinds.insert(kindOf(element));
        run.declarations.push_back(
            fieldDeclaration(parameter.type, parameter.isConst || verify ? "in" : "inout", name));
      } else {
        run.kinds.insert(kindOf(parameter.type));
        run.declarations.push_back(typeSpec(parameter.type) + ", value :: " + name);
      }
    }
    if (verify) {
      for (auto [index, parameter] : llvm::enumerate(interface.parameters))
        if (parameter.isOutput()) {
          run.dummies.push_back(dummies.before[index]);
          run.declarations.push_back(fieldDeclaration(parameter.type, "in", dummies.before[index]));
        }
      run.dummies.push_back("tolerances");
      run.kinds.insert("c_double");
      // fusec_tolerances {rtol, atol} per output.
      run.declarations.push_back("real(c_double), intent(in) :: tolerances(2, *)");
    }
    run.declarations.push_back("integer(c_int) :: status");
  }

  void build(const codegen::ProgramInterface &interface) {
    ProgramProcedures program;
    program.interface = &interface;
    program.comment.push_back(interface.name + "(");
    for (const std::string &line : codegen::describeParameters(interface))
      program.comment.push_back("  " + line);
    program.comment.push_back(")");
    std::vector<Procedure> &procedures = program.procedures;

    Procedure create = start(interface, interface.create, true);
    Procedure createWithLayout = start(interface, interface.createWithLayout, true);
    Procedure run = start(interface, interface.run, true);
    Procedure runAndVerify = start(interface, interface.runAndVerify, true);
    Procedure destroy = start(interface, interface.destroy, false);
    Procedure errorMessage = start(interface, interface.errorMessage, true);
    Procedure setExchangeCallback = start(interface, interface.setExchangeCallback, false);
    Procedure setVerificationCallback = start(interface, interface.setVerificationCallback, false);
    Procedure enableTimers = start(interface, interface.enableTimers, false);
    Procedure writeMetrics = start(interface, interface.writeMetrics, true);
    program.cCreate = create.fortranName;
    program.cCreateWithLayout = createWithLayout.fortranName;
    program.run = run.fortranName;
    program.runAndVerify = runAndVerify.fortranName;
    program.cDestroy = destroy.fortranName;
    program.errorMessage = errorMessage.fortranName;
    program.cSetExchangeCallback = setExchangeCallback.fortranName;
    program.cSetVerificationCallback = setVerificationCallback.fortranName;
    program.cEnableTimers = enableTimers.fortranName;
    program.cWriteMetrics = writeMetrics.fortranName;
    program.dummies =
        nameDummies(interface, {program.run, program.runAndVerify, program.errorMessage});

    // The handle is written through `handle` (P_handle **).
    create.dummies = {"mesh", "nlev", "stream", "handle"};
    create.result = "status";
    create.declarations = {"type(c_ptr), value :: mesh", "integer(c_int32_t), value :: nlev",
                           "type(c_ptr), value :: stream", "type(c_ptr), intent(out) :: handle",
                           "integer(c_int) :: status"};
    create.kinds = {"c_int", "c_int32_t", "c_ptr"};
    procedures.push_back(create);

    createWithLayout.dummies = {"mesh", "nlev", "layout", "stream", "handle"};
    createWithLayout.result = "status";
    // fusec_layout: the leading dimension of cell, edge and vertex fields, then nproma
    // (0: flat layout).
    createWithLayout.declarations = {
        "type(c_ptr), value :: mesh",         "integer(c_int32_t), value :: nlev",
        "integer(c_int64_t), intent(in) :: layout(4)", "type(c_ptr), value :: stream",
        "type(c_ptr), intent(out) :: handle", "integer(c_int) :: status"};
    createWithLayout.kinds = {"c_int", "c_int32_t", "c_int64_t", "c_ptr"};
    procedures.push_back(createWithLayout);

    describeRun(run, interface, program.dummies, /*verify=*/false);
    procedures.push_back(run);
    describeRun(runAndVerify, interface, program.dummies, /*verify=*/true);
    procedures.push_back(runAndVerify);

    destroy.dummies = {"handle"};
    destroy.declarations = {"type(c_ptr), value :: handle"};
    destroy.kinds = {"c_ptr"};
    procedures.push_back(destroy);

    errorMessage.dummies = {"status"};
    errorMessage.result = "message";
    errorMessage.declarations = {"integer(c_int), value :: status", "type(c_ptr) :: message"};
    errorMessage.kinds = {"c_int", "c_ptr"};
    procedures.push_back(errorMessage);

    for (Procedure *setCallback : {&setExchangeCallback, &setVerificationCallback}) {
      setCallback->dummies = {"handle", "callback", "user_data"};
      setCallback->declarations = {"type(c_ptr), value :: handle",
                                   "type(c_funptr), value :: callback",
                                   "type(c_ptr), value :: user_data"};
      setCallback->kinds = {"c_funptr", "c_ptr"};
      procedures.push_back(*setCallback);
    }

    enableTimers.dummies = {"handle", "enabled"};
    enableTimers.declarations = {"type(c_ptr), value :: handle",
                                 "integer(c_int), value :: enabled"};
    enableTimers.kinds = {"c_int", "c_ptr"};
    procedures.push_back(enableTimers);

    writeMetrics.dummies = {"handle", "path"};
    writeMetrics.result = "status";
    // A Fortran string ending in c_null_char.
    writeMetrics.declarations = {"type(c_ptr), value :: handle",
                                 "character(kind=c_char), intent(in) :: path(*)",
                                 "integer(c_int) :: status"};
    writeMetrics.kinds = {"c_char", "c_int", "c_ptr"};
    procedures.push_back(writeMetrics);

    program.type = fitName(interface, "", "_t");
    program.wrapper = fitName(interface, "wrap_run_", "");
    if (llvm::any_of(interface.parameters, [](const codegen::RunParameter &parameter) {
          return parameter.isField && stn::FieldShape::of(parameter.type).location;
        }))
      program.blockedWrapper = fitName(interface, "wrap_run_blocked_", "");
    program.create = fitName(interface, "", "_t_create");
    program.createWithLayout = fitName(interface, "", "_t_create_with_layout");
    program.destroy = fitName(interface, "", "_t_destroy");
    program.setExchangeCallback = fitName(interface, "", "_t_set_exchange_callback");
    program.setVerificationCallback = fitName(interface, "", "_t_set_verification_callback");
    program.enableTimers = fitName(interface, "", "_t_enable_timers");
    program.writeMetrics = fitName(interface, "", "_t_write_metrics");
    programs.push_back(std::move(program));
  }

  /// The derived type of a program: its handle and the procedures bound to it.
  static void writeType(const ProgramProcedures &program, raw_ostream &os) {
    const std::string &name = program.interface->name;
    os << "\n  ! An instance of " << name << "\n"
       << "  ! (grid, nlev, stream), made by create and released by destroy; instances are\n"
       << "  ! independent.\n"
       << "  type :: " << program.type << "\n"
       << "    type(c_ptr) :: handle = c_null_ptr\n"
       << "  contains\n";
    bool blocked = !program.blockedWrapper.empty();
    std::pair<const char *, const std::string *> bindings[] = {
        {"create", &program.create},
        {"create_with_layout", &program.createWithLayout},
        {blocked ? "run_flat" : "run", &program.wrapper},
        {"destroy", &program.destroy},
        {"set_exchange_callback", &program.setExchangeCallback},
        {"set_verification_callback", &program.setVerificationCallback},
        {"enable_timers", &program.enableTimers},
        {"write_metrics", &program.writeMetrics}};
    for (auto [binding, procedure] : bindings)
      writeWrapped({"procedure :: " + std::string(binding) + " =>", *procedure}, 4, os);
    if (blocked) {
      writeWrapped({"procedure :: run_blocked =>", program.blockedWrapper}, 4, os);
      os << "    generic :: run => run_flat, run_blocked\n";
    }
    os << "  end type " << program.type << "\n";
  }

  /// `call finish_call('<what>', rc, P_error_message(rc), status)`.
  void writeFinish(const ProgramProcedures &program, StringRef what, unsigned indent,
                   raw_ostream &os) const {
    writeWrapped(listClauses("call " + finishCall + "(",
                             {"'" + what.str() + "'", "rc", program.errorMessage + "(rc)", "status"},
                             ")"),
                 indent, os);
  }

  /// create, create_with_layout and destroy.
  void writeLifetime(const ProgramProcedures &program, raw_ostream &os) const {
    const std::string &name = program.interface->name;
    std::string self = "class(" + program.type + "), intent(inout) :: self";
    for (bool withLayout : {false, true}) {
      const std::string &procedure = withLayout ? program.createWithLayout : program.create;
      const std::string &cFunction = withLayout ? program.cCreateWithLayout : program.cCreate;
      std::string layout = withLayout ? "full_layout, " : "";
      os << "\n  ! Makes the instance (replacing one made before) on `mesh` with `nlev` levels"
         << (withLayout ? ",\n  ! the layout `layout` (fusec_layout): the leading dimensions of "
                          "cell, edge and\n  ! vertex fields, optionally followed by nproma "
                          "(> 0: ICON's blocked CPU layout)"
                        : "")
         << "\n  ! and `stream` (absent: the default stream). Without `status`, an error stops "
            "the program.\n";
      std::vector<std::string> dummies{"self", "mesh", "nlev"};
      if (withLayout)
        dummies.push_back("layout");
      dummies.insert(dummies.end(), {"stream", "status"});
      writeWrapped(listClauses("subroutine " + procedure + "(", dummies, ")"), 2, os);
      os << "    " << self << "\n"
         << "    type(c_ptr), intent(in) :: mesh\n"
         << "    integer(c_int32_t), intent(in) :: nlev\n";
      if (withLayout)
        os << "    integer(c_int64_t), intent(in) :: layout(:)\n";
      os << "    type(c_ptr), intent(in), optional :: stream\n"
         << "    integer(c_int), intent(out), optional :: status\n"
         << "    integer(c_int) :: rc\n";
      if (withLayout)
        os << "    integer(c_int64_t) :: full_layout(4)\n";
      os << "    call self%destroy()\n";
      if (withLayout) {
        // 3 entries: the flat layout; 4: nproma too. Else FUSEC_ERROR_INVALID_ARGUMENT.
        os << "    if (size(layout) < 3 .or. size(layout) > 4) then\n"
           << "      rc = 2\n";
        writeFinish(program, name + "_t%create_with_layout", 6, os);
        os << "      return\n"
           << "    end if\n"
           << "    full_layout = 0\n"
           << "    full_layout(1:size(layout)) = layout\n";
      }
      os << "    if (present(stream)) then\n";
      writeWrapped(listClauses("rc = " + cFunction + "(",
                               {"mesh", "nlev", layout + "stream", "self%handle"}, ")"),
                   6, os);
      os << "    else\n";
      writeWrapped(listClauses("rc = " + cFunction + "(",
                               {"mesh", "nlev", layout + "c_null_ptr", "self%handle"}, ")"),
                   6, os);
      os << "    end if\n";
      writeFinish(program, name + (withLayout ? "_t%create_with_layout" : "_t%create"), 4, os);
      os << "  end subroutine " << procedure << "\n";
    }
    os << "\n  ! Releases the instance; nothing when there is none.\n"
       << "  subroutine " << program.destroy << "(self)\n"
       << "    " << self << "\n"
       << "    call " << program.cDestroy << "(self%handle)\n"
       << "    self%handle = c_null_ptr\n"
       << "  end subroutine " << program.destroy << "\n";
  }

  /// The callbacks and timers of an instance.
  void writeSettings(const ProgramProcedures &program, raw_ostream &os) const {
    const std::string &name = program.interface->name;
    std::string self = "class(" + program.type + "), intent(in) :: self";
    std::pair<const std::string *, const std::string *> setters[] = {
        {&program.setExchangeCallback, &program.cSetExchangeCallback},
        {&program.setVerificationCallback, &program.cSetVerificationCallback}};
    os << "\n  ! What each stn.exchange calls, and where verification reports go.\n";
    for (auto [procedure, cFunction] : setters) {
      writeWrapped(listClauses("subroutine " + *procedure + "(", {"self", "callback", "user_data"},
                               ")"),
                   2, os);
      os << "    " << self << "\n"
         << "    type(c_funptr), intent(in) :: callback\n"
         << "    type(c_ptr), intent(in) :: user_data\n";
      writeWrapped(listClauses("call " + *cFunction + "(", {"self%handle", "callback", "user_data"},
                               ")"),
                   4, os);
      os << "  end subroutine " << *procedure << "\n";
    }
    os << "\n  ! Times every following run and kernel of the instance, until disabled.\n"
       << "  subroutine " << program.enableTimers << "(self, enabled)\n"
       << "    " << self << "\n"
       << "    logical, intent(in) :: enabled\n";
    writeWrapped({"call " + program.cEnableTimers +
                  "(self%handle, merge(1_c_int, 0_c_int, enabled))"},
                 4, os);
    os << "  end subroutine " << program.enableTimers << "\n"
       << "\n  ! Writes the instance's timers as JSON (GT4Py's metrics layout) to `path`.\n"
       << "  subroutine " << program.writeMetrics << "(self, path, status)\n"
       << "    " << self << "\n"
       << "    character(*), intent(in) :: path\n"
       << "    integer(c_int), intent(out), optional :: status\n"
       << "    integer(c_int) :: rc\n";
    writeWrapped({"rc = " + program.cWriteMetrics + "(self%handle, path // c_null_char)"}, 4, os);
    writeFinish(program, name + "_t%write_metrics", 4, os);
    os << "  end subroutine " << program.writeMetrics << "\n";
  }

  /// `rc = f(arguments)` inside `!$acc host_data use_device(arrays)`.
  static void writeDeviceCall(StringRef function, ArrayRef<std::string> arguments,
                              ArrayRef<std::string> arrays, unsigned indent, raw_ostream &os) {
    if (!arrays.empty())
      writeWrapped(listClauses("host_data use_device(", arrays, ")"), indent, os, "!$acc ");
    writeWrapped(listClauses("rc = " + function.str() + "(", arguments, ")"), indent, os);
    if (!arrays.empty())
      os << std::string(indent, ' ') << "!$acc end host_data\n";
  }

  /// `wrapper`, or with `blocked` `blockedWrapper`: the same body, every
  /// horizontal field with one more dimension.
  void writeWrapper(const ProgramProcedures &program, bool blocked, raw_ostream &os) {
    const std::string &wrapper = blocked ? program.blockedWrapper : program.wrapper;
    const codegen::ProgramInterface &interface = *program.interface;
    const WrapperDummies &dummies = program.dummies;
    std::vector<std::string> head, arguments, befores, declarations;
    // What the C functions take device addresses of: fields and point lists.
    std::vector<std::string> deviceArrays;
    std::vector<std::string> verifyArguments, verifyArrays;
    std::vector<std::string> optionalDummies;
    head.push_back("self");
    arguments.push_back("self%handle");
    declarations.push_back("class(" + program.type + "), intent(in) :: self");
    std::vector<std::string> listChecks;
    for (auto [index, parameter] : llvm::enumerate(interface.parameters)) {
      const std::string &name = dummies.run[index];
      if (parameter.isPointList) {
        const codegen::PointListArguments &list = dummies.lists[index];
        head.insert(head.end(), {list.count, list.cell, list.level});
        declarations.push_back("integer(c_int32_t), intent(in) :: " + list.count);
        declarations.push_back("integer(c_int32_t), intent(in), target, contiguous :: " +
                               list.cell + "(:), " + list.level + "(:)");
        arguments.insert(arguments.end(), {list.count, list.cell, list.level});
        deviceArrays.insert(deviceArrays.end(), {list.cell, list.level});
        listChecks.push_back(list.count + " > size(" + list.cell + ")");
        listChecks.push_back(list.count + " > size(" + list.level + ")");
        continue;
      }
      head.push_back(name);
      if (parameter.isField) {
        Type element = stn::getElementType(parameter.type);
        declarations.push_back(typeSpec(element) + ", intent(" +
                               (parameter.isConst ? "in" : "inout") +
                               "), target, contiguous :: " + name +
                               assumedShape(parameter.type, blocked));
        arguments.push_back(name);
        deviceArrays.push_back(name);
      } else if (parameter.type.isSignlessInteger(1)) {
        // ICON's flags are default logicals.
        declarations.push_back("logical, intent(in) :: " + name);
        arguments.push_back("logical(" + name + ", c_bool)");
      } else {
        declarations.push_back(typeSpec(parameter.type) + ", intent(in) :: " + name);
        arguments.push_back(name);
      }
    }
    unsigned outputs = 0;
    for (auto [index, parameter] : llvm::enumerate(interface.parameters)) {
      if (!parameter.isOutput())
        continue;
      ++outputs;
      Type element = stn::getElementType(parameter.type);
      declarations.push_back(typeSpec(element) + ", intent(in), target, contiguous, optional :: " +
                             dummies.before[index] + assumedShape(parameter.type, blocked));
      befores.push_back(dummies.before[index]);
      optionalDummies.push_back(dummies.before[index]);
    }
    for (auto [index, parameter] : llvm::enumerate(interface.parameters))
      if (parameter.isOutput()) {
        declarations.push_back("real(c_double), intent(in), optional :: " + dummies.rtol[index] +
                               ", " + dummies.atol[index]);
        optionalDummies.push_back(dummies.rtol[index]);
        optionalDummies.push_back(dummies.atol[index]);
      }
    head.insert(head.end(), optionalDummies.begin(), optionalDummies.end());
    head.push_back("status");
    declarations.push_back("integer(c_int), intent(out), optional :: status");
    declarations.push_back("integer(c_int) :: rc");

    os << "\n  ! " << interface.name << ": runs it, or with every <out>_before copy present, "
       << "runs it from\n  ! the copies and compares the results with the arrays passed in "
       << "(tolerances:\n  ! <out>_rel_tol, <out>_abs_tol). Without `status`, an error stops "
       << "the program.\n";
    writeWrapped(listClauses("subroutine " + wrapper + "(", head, ")"), 2, os);
    for (const std::string &declaration : declarations)
      writeWrapped({declaration}, 4, os);
    if (outputs > 0)
      os << "    real(c_double) :: tolerances(2, " << outputs << ")\n";
    std::string what = (blocked ? "wrap_run_blocked_" : "wrap_run_") + interface.name;
    if (!listChecks.empty()) {
      writeWrapped(listClauses("if (", listChecks, ") then", " .or."), 4, os);
      os << "      rc = 2 ! FUSEC_ERROR_INVALID_ARGUMENT: a point list is longer than its arrays\n";
      writeFinish(program, what, 6, os);
      os << "      return\n"
         << "    end if\n";
    }

    if (outputs > 0) {
      std::vector<std::string> present;
      for (const std::string &before : befores)
        present.push_back("present(" + before + ")");
      writeWrapped(listClauses("if (", present, ") then", " .and."), 4, os);
      os << "      tolerances = -1.0_c_double ! the defaults of the element type\n";
      unsigned column = 1;
      for (auto [index, parameter] : llvm::enumerate(interface.parameters)) {
        if (!parameter.isOutput())
          continue;
        os << "      if (present(" << dummies.rtol[index] << ")) tolerances(1, " << column
           << ") = " << dummies.rtol[index] << "\n"
           << "      if (present(" << dummies.atol[index] << ")) tolerances(2, " << column
           << ") = " << dummies.atol[index] << "\n";
        ++column;
      }
      verifyArguments = arguments;
      verifyArguments.insert(verifyArguments.end(), befores.begin(), befores.end());
      verifyArguments.push_back("tolerances");
      verifyArrays = deviceArrays;
      verifyArrays.insert(verifyArrays.end(), befores.begin(), befores.end());
      writeDeviceCall(program.runAndVerify, verifyArguments, verifyArrays, 6, os);
      if (befores.size() > 1) {
        writeWrapped(listClauses("else if (", present, ") then", " .or."), 4, os);
        os << "      rc = 2 ! FUSEC_ERROR_INVALID_ARGUMENT: some copies are missing\n";
      }
      os << "    else\n";
      writeDeviceCall(program.run, arguments, deviceArrays, 6, os);
      os << "    end if\n";
    } else {
      writeDeviceCall(program.run, arguments, deviceArrays, 4, os);
    }
    writeFinish(program, what, 4, os);
    os << "  end subroutine " << wrapper << "\n";
  }

  void writeFinishCall(raw_ostream &os) {
    os << "\n  ! Hands `rc` to the caller's `status`, or stops with the program's message.\n"
       << "  subroutine " << finishCall << "(procedure, rc, message, status)\n"
       << "    character(*), intent(in) :: procedure\n"
       << "    integer(c_int), intent(in) :: rc\n"
       << "    type(c_ptr), intent(in) :: message\n"
       << "    integer(c_int), intent(out), optional :: status\n"
       << "    character(kind=c_char), pointer :: text(:)\n"
       << "    if (present(status)) then\n      status = rc\n      return\n    end if\n"
       << "    if (rc == 0) return\n"
       << "    call c_f_pointer(message, text, [" << cStrlen << "(message)])\n"
       << "    write (error_unit, '(*(a))') 'fusec: ', procedure, ': ', text\n"
       << "    error stop 1\n"
       << "  end subroutine " << finishCall << "\n";
  }

  NameTable moduleNames;
  std::string moduleName, finishCall, cStrlen;
  std::vector<ProgramProcedures> programs;
};

} // namespace

LogicalResult emitFortran(ModuleOp module, raw_ostream &os) {
  if (failed(codegen::verifyKernelForm(module)))
    return failure();
  FailureOr<codegen::ModuleInterface> interface = codegen::describeModule(module);
  if (failed(interface))
    return failure();
  FortranModuleEmitter(*interface).write(os);
  return success();
}

} // namespace fusec
