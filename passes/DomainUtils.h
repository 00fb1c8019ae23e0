//===- DomainUtils.h - building domain bounds at program level ---*- C++ -*-===//

#ifndef FUSEC_PASSES_DOMAINUTILS_H
#define FUSEC_PASSES_DOMAINUTILS_H

#include "ir/StnOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace fusec {

/// Whether two program-level i32 bounds always have the same value: equal
/// affine forms (a constant plus integer multiples of scalar parameters,
/// `nlev`, images and min/max of such forms), however the frontend or a pass
/// spelled them. `%c0` and another `arith.constant 0`, `nlev` and a second
/// `stn.nlev`, `(h + 1) - 1` and `h` are the same bound.
bool sameBound(mlir::Value a, mlir::Value b);

/// `a - b` when it is a constant (the two differ only in a constant term).
std::optional<int64_t> constantDifference(mlir::Value a, mlir::Value b);

/// Whether `a <= b` for every value of the parameters: by a constant
/// difference, or through the min and max that hulls and images build
/// (`min(x, y) <= x`, `x <= max(x, y)`).
bool boundAtMost(mlir::Value a, mlir::Value b);

/// A half-open range of indices given by two program-level i32 values.
/// Ranges compare by value (`sameBound`), not by SSA identity.
struct IndexRange {
  mlir::Value lb, ub;
  bool operator==(const IndexRange &other) const {
    return sameBound(lb, other.lb) && sameBound(ub, other.ub);
  }
};

/// The horizontal and vertical ranges of an application or store, or the
/// point list it runs on (then it has no ranges: which points and levels it
/// touches is known only at run time).
struct Domain {
  std::optional<IndexRange> horizontal, vertical;
  mlir::Value points;
};

Domain getDomain(stn::ApplyOp apply);
Domain getDomain(stn::StoreOp store);
Domain getDomain(stn::KernelOp kernel);

/// Both ranges absent, or both present and equal by value.
bool sameRange(const std::optional<IndexRange> &a, const std::optional<IndexRange> &b);
/// The same horizontal and vertical ranges (by value).
bool sameDomain(const Domain &a, const Domain &b);

/// Whether `outer` provably holds every index of `inner`.
bool rangeContains(const IndexRange &outer, const IndexRange &inner);

/// Whether every point of `inner` provably lies in `outer`: the same point
/// list, and on each axis a range that holds the other's.
bool containsDomain(const Domain &outer, const Domain &inner);

/// True when the two domains provably share no point: on one axis one range
/// ends where the other begins.
bool disjointDomains(const Domain &a, const Domain &b);

/// Builds i32 index arithmetic at program level, folding constants.
class BoundsBuilder {
public:
  BoundsBuilder(mlir::OpBuilder &builder, mlir::Location loc) : builder(builder), loc(loc) {}

  mlir::Value constant(int64_t value);
  mlir::Value add(mlir::Value value, int64_t offset);
  mlir::Value min(mlir::Value a, mlir::Value b);
  mlir::Value max(mlir::Value a, mlir::Value b);
  IndexRange shift(IndexRange range, int64_t offset);
  IndexRange hull(IndexRange a, IndexRange b);
  IndexRange image(IndexRange range, mlir::FlatSymbolRefAttr conn);
  /// The number of levels of a field of `vertical` kind (`nlev` or `nlev + 1`).
  mlir::Value levels(stn::VerticalKind vertical);

private:
  mlir::OpBuilder &builder;
  mlir::Location loc;
};

/// The predicate of `b ? a` for `a ? b` (`a < b` is `b > a`).
mlir::arith::CmpIPredicate swapOperands(mlir::arith::CmpIPredicate predicate);

/// One end of a half-open index range: `index >= bound + offset` (lower) or
/// `index < bound + offset`.
struct RangeEnd {
  bool lower;
  int64_t offset;
};
/// `index <predicate> bound + offset` as a range end; nothing for predicates
/// other than the signed orderings.
std::optional<RangeEnd> rangeEndOf(mlir::arith::CmpIPredicate predicate, int64_t offset);

/// The constant an i32 value folds to, if any.
std::optional<int64_t> getConstantBound(mlir::Value value);

/// Moves the pure program-level computation of `value` above `anchor` when it
/// is defined later in the same block, so `value` can be used at `anchor`.
/// Fails (without a diagnostic) when that computation is not pure.
mlir::LogicalResult hoistAbove(mlir::Value value, mlir::Operation *anchor);

} // namespace fusec

#endif // FUSEC_PASSES_DOMAINUTILS_H
