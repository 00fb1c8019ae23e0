//===- StnOps.cpp - stn operations ----------------------------------------===//

#include "ir/StnOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace fusec::stn;

namespace fusec::stn {

ConnectivityOp lookupConnectivity(Operation *from, FlatSymbolRefAttr name) {
  return SymbolTable::lookupNearestSymbolFrom<ConnectivityOp>(from, name);
}

bool onExclusiveBranches(Operation *a, Operation *b) {
  Operation *around = a->getParentOp();
  while (around && !around->isProperAncestor(b))
    around = around->getParentOp();
  if (!isa_and_nonnull<scf::IfOp>(around))
    return false;
  auto side = [&](Operation *op) {
    return around->getRegion(0).isAncestor(op->getParentRegion());
  };
  return side(a) != side(b);
}

bool columnsLayout(Operation *op) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  auto layout = module ? module->getAttrOfType<StringAttr>(StnDialect::kLayoutAttr) : nullptr;
  return layout && layout.getValue() == StnDialect::kColumnsLayout;
}

int64_t cppPointsPerWorkItem(KernelOp kernel) {
  if (auto hblock = kernel->getAttrOfType<IntegerAttr>("hblock"))
    return hblock.getInt();
  return StnDialect::kCppPointsPerWorkItem;
}

StringRef fieldName(Value field) {
  if (auto arg = dyn_cast<BlockArgument>(field))
    if (auto program = dyn_cast<ProgramOp>(arg.getOwner()->getParentOp()))
      return program.getArgName(arg.getArgNumber());
  if (auto alloc = field.getDefiningOp<AllocOp>())
    return alloc.getName().value_or("");
  return {};
}

bool mayBeMissing(Value point) {
  if (auto arg = dyn_cast<BlockArgument>(point)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto apply = dyn_cast<ApplyOp>(owner))
      return arg != apply.getPoint();
    if (auto kernel = dyn_cast<KernelOp>(owner))
      return arg != kernel.getPoint();
    if (auto reduce = dyn_cast<ReduceOp>(owner))
      return arg != reduce.getNeighbor(); // a reduction visits present neighbours only
    return true;
  }
  if (point.getDefiningOp<PointAtOp>() || point.getDefiningOp<ListPointOp>())
    return false; // a point of the domain (a list's entries are checked when bound)
  if (auto neighbor = point.getDefiningOp<NeighborOp>()) {
    if (neighbor.getPresent())
      return mayBeMissing(neighbor.getPoint());
    ConnectivityOp conn = lookupConnectivity(neighbor, neighbor.getConnAttr());
    return !conn || conn.getSkip() || mayBeMissing(neighbor.getPoint());
  }
  if (auto ifOp = point.getDefiningOp<scf::IfOp>()) {
    unsigned index = cast<OpResult>(point).getResultNumber();
    return mayBeMissing(ifOp.thenYield().getOperand(index)) ||
           mayBeMissing(ifOp.elseYield().getOperand(index));
  }
  return true;
}

std::optional<StringRef> neighborTable(Value point) {
  if (auto neighbor = point.getDefiningOp<NeighborOp>())
    return neighbor.getConn();
  if (auto argument = dyn_cast<BlockArgument>(point))
    if (auto reduce = dyn_cast<ReduceOp>(argument.getOwner()->getParentOp()))
      if (argument == reduce.getNeighbor())
        return reduce.getConn();
  return std::nullopt;
}

} // namespace fusec::stn

//===----------------------------------------------------------------------===//
// Domains: `on Edge[%lo : %hi] K[%klo : %khi]`, shared by apply, store, kernel.
//===----------------------------------------------------------------------===//

namespace {
struct ParsedDomain {
  std::optional<GridLocation> location;
  SmallVector<OpAsmParser::UnresolvedOperand, 2> horizontal;
  SmallVector<OpAsmParser::UnresolvedOperand, 2> vertical;
  SmallVector<OpAsmParser::UnresolvedOperand, 1> points;
};
} // namespace

static ParseResult parseRange(OpAsmParser &parser,
                              SmallVectorImpl<OpAsmParser::UnresolvedOperand> &bounds) {
  if (failed(parser.parseOptionalLSquare()))
    return success();
  bounds.resize(2);
  return failure(parser.parseOperand(bounds[0]) || parser.parseColon() ||
                 parser.parseOperand(bounds[1]) || parser.parseRSquare());
}

static ParseResult parseDomain(OpAsmParser &parser, ParsedDomain &domain) {
  if (parser.parseKeyword("on"))
    return failure();
  StringRef word;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword(&word, {"Cell", "Edge", "Vertex"}))) {
    domain.location = symbolizeGridLocation(word);
    if (succeeded(parser.parseOptionalKeyword("at"))) {
      domain.points.resize(1);
      return parser.parseOperand(domain.points[0]);
    }
    if (parseRange(parser, domain.horizontal))
      return failure();
  }
  bool vertical = succeeded(parser.parseOptionalKeyword("K"));
  if (vertical && parseRange(parser, domain.vertical))
    return failure();
  if (!domain.location && !vertical)
    return parser.emitError(loc, "expected a location (Cell, Edge, Vertex) or K");
  return success();
}

static ParseResult resolveDomain(OpAsmParser &parser, const ParsedDomain &domain,
                                 OperationState &result) {
  Type i32 = parser.getBuilder().getI32Type();
  if (parser.resolveOperands(domain.horizontal, i32, result.operands) ||
      parser.resolveOperands(domain.vertical, i32, result.operands))
    return failure();
  if (domain.points.empty())
    return success();
  Type list = PointsType::get(parser.getContext(), *domain.location);
  return parser.resolveOperands(domain.points, list, result.operands);
}

static void printDomain(OpAsmPrinter &p, std::optional<GridLocation> location, Value hlb,
                        Value hub, Value klb, Value kub, Value points) {
  p << " on";
  if (location && points) {
    p << " " << locationName(*location) << " at " << points;
    return;
  }
  if (location) {
    p << " " << locationName(*location);
    if (hlb)
      p << "[" << hlb << " : " << hub << "]";
  }
  if (klb)
    p << " K[" << klb << " : " << kub << "]";
  else if (!location)
    p << " K"; // vertical-only, levels not inferred yet
}

/// Segment sizes for (prefix operands..., hlb, hub, klb, kub, points).
static SmallVector<int32_t> domainSegments(ArrayRef<int32_t> prefix,
                                           const ParsedDomain &domain) {
  SmallVector<int32_t> sizes(prefix.begin(), prefix.end());
  int32_t h = domain.horizontal.empty() ? 0 : 1;
  int32_t k = domain.vertical.empty() ? 0 : 1;
  sizes.append({h, h, k, k, domain.points.empty() ? 0 : 1});
  return sizes;
}

/// A point list is a domain of its own: no ranges beside it.
static LogicalResult verifyPointsAlone(Operation *op, Value points, Value hlb, Value klb,
                                       std::optional<GridLocation> location) {
  if (!points)
    return success();
  if (hlb || klb)
    return op->emitOpError() << "runs on a point list or on ranges, not both";
  if (!location || cast<PointsType>(points.getType()).getLocation() != *location)
    return op->emitOpError() << "the point list must be of the location it runs on";
  return success();
}

/// Whether `[lb, ub)` is empty for constant bounds.
static bool isConstantEmpty(Value lb, Value ub) {
  APInt lower, upper;
  return lb && matchPattern(lb, m_ConstantInt(&lower)) && matchPattern(ub, m_ConstantInt(&upper)) &&
         lower.getSExtValue() >= upper.getSExtValue();
}

/// Erases `op` (a store or kernel) when one of its ranges is constant and
/// empty: it writes nothing.
static LogicalResult eraseIfEmpty(Operation *op, Value hlb, Value hub, Value klb, Value kub,
                                  PatternRewriter &rewriter) {
  if (!isConstantEmpty(hlb, hub) && !isConstantEmpty(klb, kub))
    return failure();
  rewriter.eraseOp(op);
  return success();
}

static LogicalResult verifyBoundsPaired(Operation *op, Value lb, Value ub, StringRef what) {
  if ((lb == nullptr) != (ub == nullptr))
    return op->emitOpError() << "needs both bounds of the " << what << " range";
  return success();
}

//===----------------------------------------------------------------------===//
// Memory effects
//===----------------------------------------------------------------------===//

using EffectList = SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>;

/// The effects of everything nested in `op`'s regions. An op that does not
/// describe its effects may do anything.
static void getNestedEffects(Operation *op, EffectList &effects) {
  for (Region &region : op->getRegions())
    region.walk([&](Operation *nested) {
      if (auto iface = dyn_cast<MemoryEffectOpInterface>(nested)) {
        iface.getEffects(effects);
        return;
      }
      if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return; // its nested ops are visited by this walk
      effects.emplace_back(MemoryEffects::Read::get(), FieldResource::get());
      effects.emplace_back(MemoryEffects::Write::get(), FieldResource::get());
    });
}

void ApplyOp::getEffects(EffectList &effects) { getNestedEffects(*this, effects); }
void ReduceOp::getEffects(EffectList &effects) { getNestedEffects(*this, effects); }
void KernelOp::getEffects(EffectList &effects) {
  getNestedEffects(*this, effects);
  if (getStage())
    effects.emplace_back(MemoryEffects::Write::get(), WavefrontStageResource::get());
}

void LoadOp::getEffects(EffectList &effects) {
  if (isa<FieldType>(getField().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &getFieldMutable(), FieldResource::get());
}

//===----------------------------------------------------------------------===//
// ConnectivityOp
//===----------------------------------------------------------------------===//

LogicalResult ConnectivityOp::verify() {
  if (getSize() <= 0)
    return emitOpError() << "connectivity '" << getSymName()
                         << "' must have at least one neighbour";
  return success();
}

/// Checks that `conn` names a connectivity leading from `from`'s location to
/// `to`'s location (both !stn.point values).
static LogicalResult verifyConnectivityUse(Operation *op, SymbolTableCollection &symbols,
                                           FlatSymbolRefAttr conn, Value from, Value to) {
  auto decl = symbols.lookupNearestSymbolFrom<ConnectivityOp>(op, conn);
  if (!decl)
    return op->emitOpError() << "unknown connectivity " << conn;
  GridLocation source = cast<PointType>(from.getType()).getLocation();
  GridLocation target = cast<PointType>(to.getType()).getLocation();
  if (decl.getSource() != source)
    return op->emitOpError() << conn.getValue() << " starts at "
                             << locationName(decl.getSource()) << ", but the point is a "
                             << locationName(source);
  if (decl.getTarget() != target)
    return op->emitOpError() << conn.getValue() << " leads to " << locationName(decl.getTarget())
                             << ", not to " << locationName(target);
  return success();
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

ParseResult ProgramOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false, getFunctionTypeAttrName(result.name), buildType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void ProgramOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(p, *this, /*isVariadic=*/false,
                                           getFunctionTypeAttrName(), getArgAttrsAttrName(),
                                           getResAttrsAttrName());
}

LogicalResult ProgramOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError() << "programs return nothing; outputs are field parameters";
  for (unsigned i = 0, e = getNumArguments(); i < e; ++i) {
    Type type = getArgumentTypes()[i];
    bool isField = isa<FieldType>(type);
    if (!isField && !type.isIntOrFloat() && !isa<PointsType>(type))
      return emitOpError() << "parameter " << i
                           << " must be a field, a point list or a scalar, not " << type;
    if (!isField && getArgIntent(i) != Intent::In)
      return emitOpError() << "parameter '" << getArgName(i)
                           << "' is not a field and cannot be an output";
  }
  return success();
}

StringRef ProgramOp::getArgName(unsigned i) {
  if (auto name = getArgAttrOfType<StringAttr>(i, kNameAttr))
    return name.getValue();
  return {};
}

Intent ProgramOp::getArgIntent(unsigned i) {
  if (auto intent = getArgAttrOfType<IntegerAttr>(i, kIntentAttr))
    if (auto value = symbolizeIntent(intent.getInt()))
      return *value;
  return Intent::In;
}

void ProgramOp::getAsmBlockArgumentNames(Region &region, OpAsmSetValueNameFn setNameFn) {
  if (&region != &getBody())
    return;
  for (unsigned i = 0, e = getNumArguments(); i < e; ++i)
    if (StringRef name = getArgName(i); !name.empty())
      setNameFn(getArgument(i), name);
}

//===----------------------------------------------------------------------===//
// ImageOp, NeighborOp
//===----------------------------------------------------------------------===//

LogicalResult ImageOp::fold(FoldAdaptor adaptor, SmallVectorImpl<OpFoldResult> &results) {
  // The image of an empty range is [0, 0).
  auto lb = dyn_cast_or_null<IntegerAttr>(adaptor.getLb());
  auto ub = dyn_cast_or_null<IntegerAttr>(adaptor.getUb());
  if (!lb || !ub || lb.getInt() < ub.getInt())
    return failure();
  Attribute zero = IntegerAttr::get(getImageLb().getType(), 0);
  results.assign({zero, zero});
  return success();
}

LogicalResult ImageOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (!symbols.lookupNearestSymbolFrom<ConnectivityOp>(*this, getConnAttr()))
    return emitOpError() << "unknown connectivity " << getConnAttr();
  return success();
}

LogicalResult NeighborOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyConnectivityUse(*this, symbols, getConnAttr(), getPoint(), getResult());
}

//===----------------------------------------------------------------------===//
// TableCompleteOp
//===----------------------------------------------------------------------===//

LogicalResult TableCompleteOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (!symbols.lookupNearestSymbolFrom<ConnectivityOp>(*this, getConnAttr()))
    return emitOpError() << "unknown connectivity " << getConnAttr();
  return success();
}

//===----------------------------------------------------------------------===//
// ApplyOp
//===----------------------------------------------------------------------===//

void ApplyOp::build(OpBuilder &builder, OperationState &state, TypeRange resultTypes,
                    std::optional<GridLocation> location, Value hlb, Value hub, Value klb,
                    Value kub) {
  state.addTypes(resultTypes);
  if (location)
    state.addAttribute(getLocationAttrName(state.name),
                       GridLocationAttr::get(builder.getContext(), *location));
  int32_t h = 0, k = 0;
  if (hlb) {
    state.addOperands({hlb, hub});
    h = 1;
  }
  if (klb) {
    state.addOperands({klb, kub});
    k = 1;
  }
  state.addAttribute(getOperandSegmentSizesAttrName(state.name),
                     builder.getDenseI32ArrayAttr({h, h, k, k, 0}));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  if (location)
    block->addArgument(PointType::get(builder.getContext(), *location), state.location);
}

ParseResult ApplyOp::parse(OpAsmParser &parser, OperationState &result) {
  ParsedDomain domain;
  SmallVector<Type> resultTypes;
  if (parseDomain(parser, domain) || resolveDomain(parser, domain, result) ||
      parser.parseArrow() || parser.parseTypeList(resultTypes))
    return failure();
  result.addTypes(resultTypes);
  if (domain.location)
    result.addAttribute(getLocationAttrName(result.name),
                        GridLocationAttr::get(parser.getContext(), *domain.location));
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(domainSegments({}, domain)));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, /*arguments=*/{}) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  ApplyOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void ApplyOp::print(OpAsmPrinter &p) {
  printDomain(p, getLocation(), getHlb(), getHub(), getKlb(), getKub(), getPoints());
  p << " -> ";
  llvm::interleaveComma(getResultTypes(), p);
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/true, /*printBlockTerminators=*/true);
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getOperandSegmentSizesAttrName(), getLocationAttrName()});
}

bool ApplyOp::isDomainInferred() {
  for (Type type : getResultTypes()) {
    FieldShape shape = FieldShape::of(type);
    if (shape.location && !hasHorizontalDomain())
      return false;
    if (shape.vertical != VerticalKind::None && !hasVerticalDomain())
      return false;
  }
  return true;
}

BlockArgument ApplyOp::getPoint() {
  Block &block = getBody().front();
  return block.getNumArguments() ? block.getArgument(0) : BlockArgument();
}

YieldOp ApplyOp::getYield() { return cast<YieldOp>(getBody().front().getTerminator()); }

void ApplyOp::setDomain(Value hlb, Value hub, Value klb, Value kub) {
  SmallVector<Value, 4> operands;
  int32_t h = hlb ? 1 : 0, k = klb ? 1 : 0;
  if (hlb)
    operands.append({hlb, hub});
  if (klb)
    operands.append({klb, kub});
  (*this)->setOperands(operands);
  (*this)->setAttr(getOperandSegmentSizesAttrName(),
                   Builder(getContext()).getDenseI32ArrayAttr({h, h, k, k, 0}));
}

void ApplyOp::setPointList(Value points) {
  (*this)->setOperands(points);
  (*this)->setAttr(getOperandSegmentSizesAttrName(),
                   Builder(getContext()).getDenseI32ArrayAttr({0, 0, 0, 0, 1}));
}

/// `column_order` is two byte counts: shared by a point's levels, moved per
/// level (docs/dialect.md).
static LogicalResult verifyColumnOrder(Operation *op, std::optional<ArrayRef<int64_t>> bytes) {
  if (bytes && (bytes->size() != 2 || (*bytes)[0] < 0 || (*bytes)[1] < 0))
    return op->emitOpError() << "'column_order' must be two byte counts (shared by a point's "
                                "levels, moved per level), each 0 or more";
  return success();
}

LogicalResult ApplyOp::verify() {
  if (failed(verifyBoundsPaired(*this, getHlb(), getHub(), "horizontal")) ||
      failed(verifyBoundsPaired(*this, getKlb(), getKub(), "vertical")))
    return failure();
  if (failed(verifyColumnOrder(*this, getColumnOrder())))
    return failure();
  std::optional<GridLocation> location = getLocation();
  if (getHlb() && !location)
    return emitOpError() << "a horizontal range needs a location";
  if (failed(verifyPointsAlone(*this, getPoints(), getHlb(), getKlb(), location)))
    return failure();
  Block &block = getBody().front();
  unsigned expectedArgs = location ? 1 : 0;
  if (block.getNumArguments() != expectedArgs)
    return emitOpError() << "the region must take " << expectedArgs
                         << " argument(s): the current point";
  if (location) {
    auto point = dyn_cast<PointType>(block.getArgument(0).getType());
    if (!point || point.getLocation() != *location)
      return emitOpError() << "the region's argument must be a !stn.point<"
                           << locationName(*location) << ">";
  }
  YieldOp yield = getYield();
  if (yield.getValues().size() != getNumResults())
    return emitOpError() << "yields " << yield.getValues().size() << " value(s) but has "
                         << getNumResults() << " result(s)";
  for (auto [index, type, value] : llvm::enumerate(getResultTypes(), yield.getValues())) {
    FieldShape shape = FieldShape::of(type);
    if (shape.location != location)
      return emitOpError() << "result " << index << " lives "
                           << (shape.location ? locationName(*shape.location) : "on levels only")
                           << " but the application runs on "
                           << (location ? locationName(*location) : "levels only");
    if (shape.elementType != value.getType())
      return emitOpError() << "result " << index << " holds " << shape.elementType
                           << " values but the region yields " << value.getType();
    if (getPoints() && shape.vertical != VerticalKind::Full)
      return emitOpError() << "result " << index
                           << " must have full levels: a point list gives each point a level";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// StoreOp
//===----------------------------------------------------------------------===//

ParseResult StoreOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand value, field;
  ParsedDomain domain;
  Type valueType, fieldType;
  if (parser.parseOperand(value) || parser.parseKeyword("to") || parser.parseOperand(field) ||
      parseDomain(parser, domain) || parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColon() || parser.parseType(valueType) || parser.parseKeyword("to") ||
      parser.parseType(fieldType) ||
      parser.resolveOperand(value, valueType, result.operands) ||
      parser.resolveOperand(field, fieldType, result.operands) ||
      resolveDomain(parser, domain, result))
    return failure();
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(domainSegments({1, 1}, domain)));
  return success();
}

void StoreOp::print(OpAsmPrinter &p) {
  p << " " << getValue() << " to " << getField();
  printDomain(p, FieldShape::of(getField().getType()).location, getHlb(), getHub(), getKlb(),
              getKub(), getPoints());
  p.printOptionalAttrDict((*this)->getAttrs(), {getOperandSegmentSizesAttrName()});
  p << " : " << getValue().getType() << " to " << getField().getType();
}

LogicalResult StoreOp::canonicalize(StoreOp op, PatternRewriter &rewriter) {
  return eraseIfEmpty(op, op.getHlb(), op.getHub(), op.getKlb(), op.getKub(), rewriter);
}

LogicalResult StoreOp::verify() {
  if (failed(verifyBoundsPaired(*this, getHlb(), getHub(), "horizontal")) ||
      failed(verifyBoundsPaired(*this, getKlb(), getKub(), "vertical")))
    return failure();
  FieldShape value = FieldShape::of(getValue().getType());
  FieldShape field = FieldShape::of(getField().getType());
  if (field.sparse.size())
    return emitOpError() << "cannot store into a sparse field";
  if (value.location != field.location)
    return emitOpError() << "the value and the field live on different locations";
  if (value.elementType != field.elementType)
    return emitOpError() << "the value holds " << value.elementType << " but the field holds "
                         << field.elementType;
  if ((value.vertical == VerticalKind::None) != (field.vertical == VerticalKind::None))
    return emitOpError() << "the value and the field differ in having levels";
  if (getPoints()) {
    if (failed(verifyPointsAlone(*this, getPoints(), getHlb(), getKlb(), field.location)))
      return failure();
    // A list's levels lie in [0, nlev): inside full- and half-level fields.
    if (field.vertical == VerticalKind::None)
      return emitOpError() << "a point list is stored into a field with levels";
    return success();
  }
  if ((field.location != std::nullopt) != (getHlb() != nullptr))
    return emitOpError() << "needs a horizontal range exactly when the field has a location";
  if ((field.vertical != VerticalKind::None) != (getKlb() != nullptr))
    return emitOpError() << "needs a vertical range exactly when the field has levels";
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp: `stn.load %f[%p, nbr %j, k + %dyn + 1] : type`
//===----------------------------------------------------------------------===//

/// `+ %dyn`, `+ 2`, `- 1`, ... after `k` or a level operand.
static ParseResult
parseLevelOffsets(OpAsmParser &parser, std::optional<OpAsmParser::UnresolvedOperand> &dyn,
                  int64_t &offset) {
  while (true) {
    if (succeeded(parser.parseOptionalPlus())) {
      OpAsmParser::UnresolvedOperand operand;
      OptionalParseResult isOperand = parser.parseOptionalOperand(operand);
      if (isOperand.has_value()) {
        if (failed(*isOperand))
          return failure();
        dyn = operand;
        continue;
      }
      int64_t value;
      if (parser.parseInteger(value))
        return failure();
      offset += value;
      continue;
    }
    int64_t value;
    OptionalParseResult isInteger = parser.parseOptionalInteger(value);
    if (!isInteger.has_value())
      return success();
    if (failed(*isInteger))
      return failure();
    offset += value;
  }
}

ParseResult LoadOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand field;
  std::optional<OpAsmParser::UnresolvedOperand> point, nbr, dyn, level;
  // Operands without a keyword: the point, then (loop form) the level; which
  // is which follows from the field's type.
  SmallVector<OpAsmParser::UnresolvedOperand, 2> positional;
  bool offsetsAfterPositional = false;
  int64_t offset = 0;
  if (parser.parseOperand(field) || parser.parseLSquare())
    return failure();
  bool first = true;
  while (failed(parser.parseOptionalRSquare())) {
    if (!first && parser.parseComma())
      return failure();
    first = false;
    if (succeeded(parser.parseOptionalKeyword("nbr"))) {
      nbr.emplace();
      if (parser.parseOperand(*nbr))
        return failure();
    } else if (succeeded(parser.parseOptionalKeyword("k"))) {
      if (parseLevelOffsets(parser, dyn, offset))
        return failure();
    } else {
      positional.emplace_back();
      int64_t before = offset;
      bool hadDyn = dyn.has_value();
      if (parser.parseOperand(positional.back()) || parseLevelOffsets(parser, dyn, offset))
        return failure();
      if (offset != before || dyn.has_value() != hadDyn)
        offsetsAfterPositional = true;
    }
  }
  Type fieldType;
  llvm::SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(fieldType) || parser.resolveOperand(field, fieldType, result.operands))
    return failure();
  FieldShape shape = FieldShape::of(fieldType);
  if (!shape.elementType)
    return parser.emitError(typeLoc, "expected a field or temporary type");
  size_t next = 0;
  if (shape.location && next < positional.size())
    point = positional[next++];
  if (next < positional.size())
    level = positional[next++];
  if (next < positional.size())
    return parser.emitError(parser.getNameLoc(), "too many operands in the subscript");
  if (offsetsAfterPositional && !level)
    return parser.emitError(parser.getNameLoc(), "a level offset follows a point");
  Builder &builder = parser.getBuilder();
  if (point) {
    if (!shape.location)
      return parser.emitError(parser.getNameLoc(), "a vertical-only field takes no point");
    if (parser.resolveOperand(*point, PointType::get(parser.getContext(), *shape.location),
                              result.operands))
      return failure();
  }
  if (nbr && parser.resolveOperand(*nbr, builder.getIndexType(), result.operands))
    return failure();
  if (dyn && parser.resolveOperand(*dyn, builder.getI32Type(), result.operands))
    return failure();
  if (level && parser.resolveOperand(*level, builder.getIndexType(), result.operands))
    return failure();
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      builder.getDenseI32ArrayAttr(
                          {1, point ? 1 : 0, nbr ? 1 : 0, dyn ? 1 : 0, level ? 1 : 0}));
  if (offset != 0)
    result.addAttribute(getOffsetAttrName(result.name), builder.getI64IntegerAttr(offset));
  result.addTypes(shape.elementType);
  return success();
}

void LoadOp::print(OpAsmPrinter &p) {
  p << " " << getField() << "[";
  bool first = true;
  auto separate = [&] {
    if (!first)
      p << ", ";
    first = false;
  };
  if (getPoint()) {
    separate();
    p << getPoint();
  }
  if (getNbr()) {
    separate();
    p << "nbr " << getNbr();
  }
  if (FieldShape::of(getField().getType()).vertical != VerticalKind::None) {
    separate();
    if (getLevel())
      p << getLevel();
    else
      p << "k";
    if (getDynOffset())
      p << " + " << getDynOffset();
    if (getLevelOffset() > 0)
      p << " + " << getLevelOffset();
    else if (getLevelOffset() < 0)
      p << " - " << -getLevelOffset();
  }
  p << "]";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getOperandSegmentSizesAttrName(), getOffsetAttrName()});
  p << " : " << getField().getType();
}

LogicalResult LoadOp::verify() {
  FieldShape shape = FieldShape::of(getField().getType());
  if (getResult().getType() != shape.elementType)
    return emitOpError() << "result must be the element type " << shape.elementType;
  if (shape.location) {
    if (!getPoint())
      return emitOpError() << "a field on " << locationName(*shape.location)
                           << " is read at a point";
    auto point = cast<PointType>(getPoint().getType());
    if (point.getLocation() != *shape.location)
      return emitOpError() << "the field lives on " << locationName(*shape.location)
                           << " but is read at a " << locationName(point.getLocation());
  } else if (getPoint()) {
    return emitOpError() << "a vertical-only field is read without a point";
  }
  if (!shape.sparse.empty() && !getNbr())
    return emitOpError() << "a field sparse over " << shape.sparse
                         << " is read at a neighbour slot ('nbr')";
  if (shape.sparse.empty() && getNbr())
    return emitOpError() << "only sparse fields take a neighbour slot";
  if (shape.vertical == VerticalKind::None &&
      (getLevelOffset() != 0 || getDynOffset() || getLevel()))
    return emitOpError() << "a field without levels cannot be read at a vertical offset or at a "
                            "level";
  return success();
}

//===----------------------------------------------------------------------===//
// PrefetchOp
//===----------------------------------------------------------------------===//

LogicalResult PrefetchOp::verify() {
  FieldShape shape = FieldShape::of(getField().getType());
  if (!shape.location || !shape.sparse.empty() || shape.vertical == VerticalKind::None)
    return emitOpError() << "prefetches a column: a dense field with a location and levels";
  auto point = cast<PointType>(getPoint().getType());
  if (point.getLocation() != *shape.location)
    return emitOpError() << "the field lives on " << locationName(*shape.location)
                         << " but is prefetched at a " << locationName(point.getLocation());
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  Block &block = getBody().front();
  if (block.getNumArguments() != 2 || !block.getArgument(0).getType().isIndex() ||
      !isa<PointType>(block.getArgument(1).getType()))
    return emitOpError() << "the region takes the neighbour slot (index) and the neighbour "
                            "point";
  auto yield = cast<YieldOp>(block.getTerminator());
  if (yield.getValues().size() != 1 || yield.getValues()[0].getType() != getResult().getType())
    return emitOpError() << "the region must yield one " << getResult().getType() << " value";
  return success();
}

LogicalResult ReduceOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyConnectivityUse(*this, symbols, getConnAttr(), getPoint(), getNeighbor());
}

//===----------------------------------------------------------------------===//
// KernelOp, WriteOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  ParsedDomain domain;
  if (parser.parseAttribute(name, "name", result.attributes) || parseDomain(parser, domain) ||
      resolveDomain(parser, domain, result) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  if (domain.location)
    result.addAttribute(getLocationAttrName(result.name),
                        GridLocationAttr::get(parser.getContext(), *domain.location));
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(domainSegments({}, domain)));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, /*arguments=*/{}))
    return failure();
  KernelOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printAttributeWithoutType(getNameAttr());
  printDomain(p, getLocation(), getHlb(), getHub(), getKlb(), getKub(), getPoints());
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getOperandSegmentSizesAttrName(), getLocationAttrName(),
                            getNameAttrName()});
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/true, /*printBlockTerminators=*/false);
}

LogicalResult KernelOp::canonicalize(KernelOp op, PatternRewriter &rewriter) {
  return eraseIfEmpty(op, op.getHlb(), op.getHub(), op.getKlb(), op.getKub(), rewriter);
}

BlockArgument KernelOp::getPoint() {
  Block &block = getBody().front();
  return !getLoopForm() && block.getNumArguments() ? block.getArgument(0) : BlockArgument();
}

/// Loop form's region arguments: [points begin, points end,] [levels begin, levels end].
static BlockArgument boxArgument(KernelOp kernel, bool levels, bool end) {
  if (!kernel.getLoopForm() || kernel.getPoints() || (levels ? !kernel.getKlb() : !kernel.getHlb()))
    return {};
  unsigned index = (levels && kernel.getHlb() ? 2 : 0) + (end ? 1 : 0);
  Block &block = kernel.getBody().front();
  return index < block.getNumArguments() ? block.getArgument(index) : BlockArgument();
}

void KernelOp::getAsmBlockArgumentNames(Region &region, OpAsmSetValueNameFn setName) {
  for (auto [argument, name] : llvm::zip_equal(
           SmallVector<BlockArgument>{getPointsBegin(), getPointsEnd(), getLevelsBegin(),
                                      getLevelsEnd(), getEntriesBegin(), getEntriesEnd()},
           SmallVector<StringRef>{"h_begin", "h_end", "k_begin", "k_end", "e_begin", "e_end"}))
    if (argument)
      setName(argument, name);
}

BlockArgument KernelOp::getPointsBegin() { return boxArgument(*this, false, false); }
BlockArgument KernelOp::getPointsEnd() { return boxArgument(*this, false, true); }
BlockArgument KernelOp::getLevelsBegin() { return boxArgument(*this, true, false); }
BlockArgument KernelOp::getLevelsEnd() { return boxArgument(*this, true, true); }

/// Loop form over a point list: the region takes `[begin, end)` of entries.
static BlockArgument entryArgument(KernelOp kernel, bool end) {
  if (!kernel.getLoopForm() || !kernel.getPoints())
    return {};
  Block &block = kernel.getBody().front();
  return end < block.getNumArguments() ? block.getArgument(end) : BlockArgument();
}

BlockArgument KernelOp::getEntriesBegin() { return entryArgument(*this, false); }
BlockArgument KernelOp::getEntriesEnd() { return entryArgument(*this, true); }

/// The point a thread writes: kernel form's region argument; in loop form a
/// point of the work item's point loop.
static bool isCurrentPoint(KernelOp kernel, Value point) {
  if (kernel.getLoopForm())
    return point && (point.getDefiningOp<PointAtOp>() || point.getDefiningOp<ListPointOp>());
  return point == kernel.getPoint();
}

/// Whether a load of some field follows a write of it in one iteration of
/// `block`: the kernel region in kernel form, each loop body in loop form (a
/// level peeled off by stn-carry-levels writes before the loop over the next
/// levels reads, which is another iteration). `written` holds the fields
/// written before `block` in the same iteration; the two sides of a branch
/// that holds loops (stn-unswitch-loops) are alternatives, not a sequence.
static bool writesBeforeLoads(Block &block, SmallVector<Value> &written) {
  auto isLoop = [](Operation *op) { return isa<scf::ForOp, scf::WhileOp>(op); };
  for (Operation &op : block) {
    // An iteration of a loop over points or levels (or a list's runs) is
    // another point or level: what the one before wrote does not count.
    if (isLoop(&op)) {
      for (Region &region : op.getRegions()) {
        SmallVector<Value> inLoop;
        if (writesBeforeLoads(region.front(), inLoop))
          return true;
      }
      continue;
    }
    auto branch = dyn_cast<scf::IfOp>(op);
    if (branch && branch
                      ->walk([&](Operation *inner) {
                        return isLoop(inner) ? WalkResult::interrupt() : WalkResult::advance();
                      })
                      .wasInterrupted()) {
      SmallVector<Value> afterBranch = written;
      for (Region &side : branch->getRegions()) {
        if (side.empty())
          continue;
        SmallVector<Value> inSide = written;
        if (writesBeforeLoads(side.front(), inSide))
          return true;
        afterBranch.append(inSide);
      }
      written = std::move(afterBranch);
      continue;
    }
    WalkResult order = op.walk([&](Operation *inner) {
      if (auto write = dyn_cast<WriteOp>(inner))
        written.push_back(write.getField());
      else if (auto load = dyn_cast<LoadOp>(inner);
               load && llvm::is_contained(written, load.getField()))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (order.wasInterrupted())
      return true;
  }
  return false;
}

LogicalResult KernelOp::verify() {
  if (getStage() && !(*this)->getParentOfType<WavefrontOp>())
    return emitOpError() << "has a stage outside a wavefront";
  if (failed(verifyBoundsPaired(*this, getHlb(), getHub(), "horizontal")) ||
      failed(verifyBoundsPaired(*this, getKlb(), getKub(), "vertical")))
    return failure();
  if (failed(verifyColumnOrder(*this, getColumnOrder())))
    return failure();
  std::optional<GridLocation> location = getLocation();
  if (failed(verifyPointsAlone(*this, getPoints(), getHlb(), getKlb(), location)))
    return failure();
  if (location && !getHlb() && !getPoints())
    return emitOpError() << "a kernel on " << locationName(*location)
                         << " needs a horizontal range or a point list";
  if (!location && !getKlb())
    return emitOpError() << "a kernel needs a horizontal or a vertical range";
  Block &block = getBody().front();
  bool hasLevels = getKlb() != nullptr || getPoints() != nullptr;
  if (getLoopForm()) {
    unsigned ranges = getPoints() ? 1u : (location ? 1u : 0u) + (hasLevels ? 1u : 0u);
    if (block.getNumArguments() != 2 * ranges ||
        !llvm::all_of(block.getArgumentTypes(), [](Type type) { return type.isIndex(); }))
      return emitOpError() << "in loop form the region takes the work item's box: begin and "
                              "end (index) of its points, then of its levels";
    WalkResult implicit = walk([&](Operation *op) {
      bool implicitLevel = false;
      if (auto load = dyn_cast<LoadOp>(op))
        implicitLevel = !load.getLevel() &&
                        FieldShape::of(load.getField().getType()).vertical != VerticalKind::None;
      else if (auto write = dyn_cast<WriteOp>(op))
        implicitLevel = !write.getLevel() &&
                        FieldShape::of(write.getField().getType()).vertical != VerticalKind::None;
      else if (auto level = dyn_cast<LevelOp>(op))
        implicitLevel = !level.getLevel();
      if (!implicitLevel)
        return WalkResult::advance();
      op->emitOpError() << "uses the implicit current level inside a kernel in loop form";
      return WalkResult::interrupt();
    });
    if (implicit.wasInterrupted())
      return failure();
  } else if (block.getNumArguments() != (location ? 1u : 0u)) {
    return emitOpError() << "the region takes the current point exactly when the kernel has "
                            "a location";
  }
  if (getKblock() < 1)
    return emitOpError() << "kblock must be at least 1";
  // The points of a launch run in any order and in parallel: a field it writes
  // may be read only where the same thread writes it, before it writes it.
  SmallVector<Value> writtenSoFar;
  if (writesBeforeLoads(getBody().front(), writtenSoFar))
    return emitOpError() << "reads a field after writing it; every write must come after the "
                            "kernel's loads of that field";
  SmallVector<Value> written;
  WalkResult writes = walk([&](WriteOp write) {
    written.push_back(write.getField());
    FieldShape shape = FieldShape::of(write.getField().getType());
    if (shape.location != location || (shape.vertical != VerticalKind::None) != hasLevels) {
      write.emitOpError() << "writes a field that does not live on the kernel's points and "
                             "levels: every thread would write the same elements";
      return WalkResult::interrupt();
    }
    if (location && !isCurrentPoint(*this, write.getPoint())) {
      write.emitOpError() << "writes away from the kernel's point: another thread may read "
                             "or write that element";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (writes.wasInterrupted())
    return failure();
  WalkResult races = walk([&](LoadOp load) {
    if (!llvm::is_contained(written, load.getField()) ||
        ((!location || isCurrentPoint(*this, load.getPoint())) && load.getLevelOffset() == 0 &&
         !load.getDynOffset()))
      return WalkResult::advance();
    load.emitOpError() << "reads a field the kernel writes, away from the point and level being "
                          "written: a race between threads (write the results to a buffer and "
                          "copy them in a second kernel)";
    return WalkResult::interrupt();
  });
  return failure(races.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// WavefrontOp
//===----------------------------------------------------------------------===//

StringRef WavefrontOp::orderName(Order order) {
  switch (order) {
  case Order::Same:
    return "same";
  case Order::Gather:
    return "gather";
  case Order::Scatter:
    return "scatter";
  }
  llvm_unreachable("unknown order");
}

static std::optional<WavefrontOp::Order> parseOrderName(StringRef name) {
  for (auto order : {WavefrontOp::Order::Same, WavefrontOp::Order::Gather,
                     WavefrontOp::Order::Scatter})
    if (WavefrontOp::orderName(order) == name)
      return order;
  return std::nullopt;
}

Attribute WavefrontOp::encodeWait(MLIRContext *context, const Wait &wait) {
  Builder builder(context);
  SmallVector<Attribute> parts{builder.getStringAttr(orderName(wait.order)),
                               builder.getI64IntegerAttr(wait.stage),
                               builder.getI64IntegerAttr(wait.on)};
  if (wait.table)
    parts.push_back(wait.table);
  return builder.getArrayAttr(parts);
}

/// A `waits` entry: [order, stage, on] or [order, stage, on, @table].
static std::optional<WavefrontOp::Wait> decodeWait(Attribute attribute) {
  auto parts = dyn_cast<ArrayAttr>(attribute);
  if (!parts || parts.size() < 3 || parts.size() > 4)
    return std::nullopt;
  auto order = dyn_cast<StringAttr>(parts[0]);
  auto stage = dyn_cast<IntegerAttr>(parts[1]);
  auto on = dyn_cast<IntegerAttr>(parts[2]);
  std::optional<WavefrontOp::Order> decoded = order ? parseOrderName(order.getValue())
                                                    : std::nullopt;
  if (!decoded || !stage || !on)
    return std::nullopt;
  WavefrontOp::Wait wait{stage.getInt(), on.getInt(), *decoded, nullptr};
  if (parts.size() == 4) {
    wait.table = dyn_cast<FlatSymbolRefAttr>(parts[3]);
    if (!wait.table)
      return std::nullopt;
  }
  return wait;
}

SmallVector<WavefrontOp::Wait> WavefrontOp::getWaitList() {
  SmallVector<Wait> waits;
  for (Attribute attribute : getWaits())
    if (std::optional<Wait> wait = decodeWait(attribute))
      waits.push_back(*wait);
  return waits;
}

static StringRef foldKindName(WavefrontOp::FoldAccess::Kind kind) {
  switch (kind) {
  case WavefrontOp::FoldAccess::Write:
    return "write";
  case WavefrontOp::FoldAccess::Read:
    return "read";
  case WavefrontOp::FoldAccess::Gather:
    return "gather";
  }
  llvm_unreachable("unknown fold access");
}

static std::optional<WavefrontOp::FoldAccess::Kind> parseFoldKindName(StringRef name) {
  for (auto kind : {WavefrontOp::FoldAccess::Write, WavefrontOp::FoldAccess::Read,
                    WavefrontOp::FoldAccess::Gather})
    if (foldKindName(kind) == name)
      return kind;
  return std::nullopt;
}

Attribute WavefrontOp::encodeFoldAccess(MLIRContext *context, const FoldAccess &access) {
  Builder builder(context);
  SmallVector<Attribute> parts{builder.getStringAttr(foldKindName(access.kind)),
                               builder.getI64IntegerAttr(access.stage)};
  if (access.table)
    parts.push_back(access.table);
  return builder.getArrayAttr(parts);
}

/// A fold access: [kind, stage] or [gather, stage, @table].
static std::optional<WavefrontOp::FoldAccess> decodeFoldAccess(Attribute attribute) {
  auto parts = dyn_cast<ArrayAttr>(attribute);
  if (!parts || parts.size() < 2 || parts.size() > 3)
    return std::nullopt;
  auto kind = dyn_cast<StringAttr>(parts[0]);
  auto stage = dyn_cast<IntegerAttr>(parts[1]);
  std::optional<WavefrontOp::FoldAccess::Kind> decoded =
      kind ? parseFoldKindName(kind.getValue()) : std::nullopt;
  if (!decoded || !stage)
    return std::nullopt;
  WavefrontOp::FoldAccess access{*decoded, stage.getInt(), nullptr};
  bool gather = *decoded == WavefrontOp::FoldAccess::Gather;
  if (gather != (parts.size() == 3))
    return std::nullopt;
  if (gather) {
    access.table = dyn_cast<FlatSymbolRefAttr>(parts[2]);
    if (!access.table)
      return std::nullopt;
  }
  return access;
}

SmallVector<WavefrontOp::FoldAccess> WavefrontOp::getFoldAccessList(unsigned index) {
  SmallVector<FoldAccess> accesses;
  if (auto list = dyn_cast<ArrayAttr>(getFoldAccesses()[index]))
    for (Attribute attribute : list)
      if (std::optional<FoldAccess> access = decodeFoldAccess(attribute))
        accesses.push_back(*access);
  return accesses;
}

std::optional<unsigned> WavefrontOp::foldIndexOf(Value field) {
  for (auto [index, fold] : llvm::enumerate(getFolds()))
    if (fold == field)
      return index;
  return std::nullopt;
}

SmallVector<KernelOp> WavefrontOp::getKernels() {
  SmallVector<KernelOp> kernels;
  getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      kernels.push_back(kernel);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  return kernels;
}

int64_t WavefrontOp::getNumStages() {
  int64_t stages = 0;
  for (KernelOp kernel : getKernels())
    stages = std::max(stages, static_cast<int64_t>(kernel.getStage().value_or(0)) + 1);
  return stages;
}

SmallVector<KernelOp> WavefrontOp::getStageLeaders() {
  SmallVector<KernelOp> leaders(getNumStages());
  for (KernelOp kernel : getKernels())
    if (!leaders[*kernel.getStage()])
      leaders[*kernel.getStage()] = kernel;
  return leaders;
}

// stn.wavefront tile(1024) min_levels(12) waits [gather<1 on 0 through @C2E>, same<2 on 1>]
//   attr-dict region
ParseResult WavefrontOp::parse(OpAsmParser &parser, OperationState &result) {
  int64_t tile = 0, minLevels = 0;
  if (parser.parseKeyword("tile") || parser.parseLParen() || parser.parseInteger(tile) ||
      parser.parseRParen() || parser.parseKeyword("min_levels") || parser.parseLParen() ||
      parser.parseInteger(minLevels) || parser.parseRParen() || parser.parseKeyword("waits"))
    return failure();
  SmallVector<Attribute> waits;
  auto parseWait = [&]() -> ParseResult {
    StringRef name;
    SMLoc at = parser.getCurrentLocation();
    Wait wait{0, 0, Order::Same, nullptr};
    if (parser.parseKeyword(&name))
      return failure();
    std::optional<Order> order = parseOrderName(name);
    if (!order)
      return parser.emitError(at, "expected same, gather or scatter");
    wait.order = *order;
    if (parser.parseLess() || parser.parseInteger(wait.stage) || parser.parseKeyword("on") ||
        parser.parseInteger(wait.on))
      return failure();
    if (succeeded(parser.parseOptionalKeyword("through"))) {
      SymbolRefAttr table;
      if (parser.parseAttribute(table))
        return failure();
      wait.table = dyn_cast<FlatSymbolRefAttr>(table);
      if (!wait.table)
        return parser.emitError(at, "expected a connectivity name");
    }
    if (parser.parseGreater())
      return failure();
    waits.push_back(encodeWait(parser.getContext(), wait));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseWait))
    return failure();
  // folds [%t : !stn.field<...> [write<0>, gather<1 through @C2E>], ...]
  SmallVector<OpAsmParser::UnresolvedOperand> folds;
  SmallVector<Type> foldTypes;
  SmallVector<Attribute> foldAccesses;
  auto parseFoldAccess = [&](SmallVector<Attribute> &accesses) -> ParseResult {
    StringRef name;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseKeyword(&name))
      return failure();
    std::optional<FoldAccess::Kind> kind = parseFoldKindName(name);
    if (!kind)
      return parser.emitError(at, "expected write, read or gather");
    FoldAccess access{*kind, 0, nullptr};
    if (parser.parseLess() || parser.parseInteger(access.stage))
      return failure();
    if (*kind == FoldAccess::Gather) {
      SymbolRefAttr table;
      if (parser.parseKeyword("through") || parser.parseAttribute(table))
        return failure();
      access.table = dyn_cast<FlatSymbolRefAttr>(table);
      if (!access.table)
        return parser.emitError(at, "expected a connectivity name");
    }
    if (parser.parseGreater())
      return failure();
    accesses.push_back(encodeFoldAccess(parser.getContext(), access));
    return success();
  };
  auto parseFold = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand fold;
    Type type;
    SmallVector<Attribute> accesses;
    if (parser.parseOperand(fold) || parser.parseColonType(type) ||
        parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                       [&] { return parseFoldAccess(accesses); }))
      return failure();
    folds.push_back(fold);
    foldTypes.push_back(type);
    foldAccesses.push_back(parser.getBuilder().getArrayAttr(accesses));
    return success();
  };
  if (succeeded(parser.parseOptionalKeyword("folds")) &&
      parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseFold))
    return failure();
  if (parser.resolveOperands(folds, foldTypes, parser.getCurrentLocation(), result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Builder &builder = parser.getBuilder();
  result.addAttribute(getTileAttrName(result.name), builder.getI64IntegerAttr(tile));
  result.addAttribute(getMinLevelsAttrName(result.name), builder.getI64IntegerAttr(minLevels));
  result.addAttribute(getWaitsAttrName(result.name), builder.getArrayAttr(waits));
  result.addAttribute(getFoldAccessesAttrName(result.name), builder.getArrayAttr(foldAccesses));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void WavefrontOp::print(OpAsmPrinter &p) {
  p << " tile(" << getTile() << ") min_levels(" << getMinLevels() << ") waits [";
  llvm::interleaveComma(getWaits(), p, [&](Attribute attribute) {
    std::optional<Wait> wait = decodeWait(attribute);
    if (!wait) {
      p.printAttribute(attribute);
      return;
    }
    p << orderName(wait->order) << "<" << wait->stage << " on " << wait->on;
    if (wait->table)
      p << " through " << wait->table;
    p << ">";
  });
  p << "]";
  if (!getFolds().empty()) {
    p << " folds [";
    llvm::interleaveComma(llvm::enumerate(getFolds()), p, [&](auto indexed) {
      auto [index, fold] = indexed;
      p << fold << " : " << fold.getType() << " [";
      auto list = dyn_cast<ArrayAttr>(getFoldAccesses()[index]);
      llvm::interleaveComma(list ? list.getValue() : ArrayRef<Attribute>(), p,
                            [&](Attribute attribute) {
                              std::optional<FoldAccess> access = decodeFoldAccess(attribute);
                              if (!access) {
                                p.printAttribute(attribute);
                                return;
                              }
                              p << foldKindName(access->kind) << "<" << access->stage;
                              if (access->table)
                                p << " through " << access->table;
                              p << ">";
                            });
      p << "]";
    });
    p << "]";
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getTileAttrName(), getMinLevelsAttrName(),
                                      getWaitsAttrName(), getFoldAccessesAttrName()});
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult WavefrontOp::verify() {
  if (getTile() < 1 || getMinLevels() < 1)
    return emitOpError() << "tile and min_levels must be at least 1";
  if (!getBody().front().args_empty())
    return emitOpError() << "the region takes no arguments";
  // Kernels, exchanges and the branches around them: the values they use are
  // defined before the op, so that the plan's domains are known before it runs.
  WalkResult contents = getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<KernelOp>(op))
      return WalkResult::skip();
    if (isa<ExchangeOp, scf::YieldOp>(op) ||
        (isa<scf::IfOp>(op) && op->getNumResults() == 0))
      return WalkResult::advance();
    op->emitOpError() << "inside a wavefront: its region holds kernels, exchanges and the "
                         "branches around them only";
    return WalkResult::interrupt();
  });
  if (contents.wasInterrupted())
    return failure();
  SmallVector<KernelOp> kernels = getKernels();
  for (KernelOp kernel : kernels)
    if (!kernel.getStage())
      return kernel.emitOpError() << "inside a wavefront needs a stage";
  int64_t stages = getNumStages();
  if (stages > static_cast<int64_t>(kernels.size()))
    return emitOpError() << "stages are numbered from 0 without gaps";
  SmallVector<KernelOp> first = getStageLeaders();
  for (auto [stage, leader] : llvm::enumerate(first))
    if (!leader)
      return emitOpError() << "stage " << stage << " has no kernel";
  for (KernelOp kernel : kernels) {
    if (!kernel.getLocation() || !kernel.getHlb())
      return kernel.emitOpError() << "a stage of a wavefront runs over a range of points";
    KernelOp leader = first[*kernel.getStage()];
    if (leader.getLocation() != kernel.getLocation() || leader.getHlb() != kernel.getHlb() ||
        leader.getHub() != kernel.getHub())
      return kernel.emitOpError() << "shares stage " << *kernel.getStage()
                                  << " with a kernel over other points";
  }
  // Stages follow program order wherever both kernels can run.
  for (auto [i, earlier] : llvm::enumerate(kernels))
    for (KernelOp later : llvm::drop_begin(kernels, i + 1))
      if (!onExclusiveBranches(earlier, later) && *earlier.getStage() >= *later.getStage())
        return later.emitOpError() << "runs after a kernel of stage " << *earlier.getStage()
                                   << " but has stage " << *later.getStage();
  for (Attribute attribute : getWaits()) {
    std::optional<Wait> wait = decodeWait(attribute);
    if (!wait)
      return emitOpError() << "expected waits of the form [order, stage, on, @table?], got "
                           << attribute;
    if (wait->on < 0 || wait->stage <= wait->on || wait->stage >= stages)
      return emitOpError() << "a wait must point from a stage to an earlier one, got "
                           << orderName(wait->order) << "<" << wait->stage << " on " << wait->on
                           << ">";
    GridLocation waiting = *first[wait->stage].getLocation();
    GridLocation waited = *first[wait->on].getLocation();
    if (wait->order == Order::Same) {
      if (wait->table)
        return emitOpError() << "a same wait names no table";
      if (waiting != waited)
        return emitOpError() << "same<" << wait->stage << " on " << wait->on
                             << "> joins stages on different locations";
      continue;
    }
    ConnectivityOp table = wait->table ? lookupConnectivity(*this, wait->table) : nullptr;
    if (!table)
      return emitOpError() << orderName(wait->order) << "<" << wait->stage << " on " << wait->on
                           << "> needs a declared connectivity";
    // Gather: the waiting stage's rows name the earlier stage's points;
    // scatter: the earlier stage's rows name the waiting stage's points.
    bool gather = wait->order == Order::Gather;
    if (table.getSource() != (gather ? waiting : waited) ||
        table.getTarget() != (gather ? waited : waiting))
      return emitOpError() << orderName(wait->order) << "<" << wait->stage << " on " << wait->on
                           << " through " << wait->table
                           << "> does not match the stages' locations";
  }
  return verifyFolds(first);
}

LogicalResult WavefrontOp::verifyFolds(ArrayRef<KernelOp> leaders) {
  if (getFoldAccesses().size() != getFolds().size())
    return emitOpError() << "needs one list of accesses per fold";
  int64_t stages = static_cast<int64_t>(leaders.size());
  for (auto [index, fold] : llvm::enumerate(getFolds())) {
    auto alloc = fold.getDefiningOp<AllocOp>();
    if (!alloc)
      return emitOpError() << "folds only stn.alloc buffers";
    if (foldIndexOf(fold) != index)
      return emitOpError() << "folds a buffer twice";
    FieldShape shape = FieldShape::of(fold.getType());
    if (!shape.location || !shape.sparse.empty() || shape.vertical == VerticalKind::None)
      return emitOpError() << "folds fields over points and levels only, got " << fold.getType();
    for (Operation *user : fold.getUsers())
      if (user != getOperation() && !getOperation()->isProperAncestor(user))
        return emitOpError() << "folds a buffer that is used outside it";
    auto list = dyn_cast<ArrayAttr>(getFoldAccesses()[index]);
    if (!list || list.empty())
      return emitOpError() << "expected a non-empty list of accesses per fold";
    for (Attribute attribute : list) {
      std::optional<FoldAccess> access = decodeFoldAccess(attribute);
      if (!access)
        return emitOpError() << "expected fold accesses of the form [kind, stage, @table?], got "
                             << attribute;
      if (access->stage < 0 || access->stage >= stages)
        return emitOpError() << "a fold access names stage " << access->stage << " of "
                             << stages;
      GridLocation stage = *KernelOp(leaders[access->stage]).getLocation();
      if (access->kind != FoldAccess::Gather) {
        if (stage != *shape.location)
          return emitOpError() << foldKindName(access->kind) << "<" << access->stage
                               << "> runs on other points than the fold has";
        continue;
      }
      ConnectivityOp table = lookupConnectivity(*this, access->table);
      if (!table || table.getSource() != stage || table.getTarget() != *shape.location)
        return emitOpError() << "gather<" << access->stage << " through " << access->table
                             << "> needs a connectivity from the stage's points to the fold's";
    }
  }
  return success();
}

OpFoldResult ValidOp::fold(FoldAdaptor) {
  if (mayBeMissing(getPoint()))
    return {};
  return BoolAttr::get(getContext(), true);
}

LogicalResult WriteOp::verify() {
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError() << "writes fields only inside a kernel";
  FieldShape shape = FieldShape::of(getField().getType());
  if (getValue().getType() != shape.elementType)
    return emitOpError() << "writes " << getValue().getType() << " into a field of "
                         << shape.elementType;
  if (shape.location.has_value() != (getPoint() != nullptr))
    return emitOpError() << "needs a point exactly when the field has a location";
  if (getLevel() && shape.vertical == VerticalKind::None)
    return emitOpError() << "a field without levels is written at no level";
  if (!shape.sparse.empty())
    return emitOpError() << "cannot write a sparse field";
  return success();
}

#define GET_OP_CLASSES
#include "ir/StnOps.cpp.inc"
