//===- Verification.h - comparing outputs with the reference ------*- C++ -*-===//
//
// A point passes when |x - ref| <= atol + rtol * |ref| (NaN equals NaN, as with
// numpy's equal_nan). Every element of the buffer is compared, so a variant that
// writes outside its domain fails too.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_VERIFICATION_H
#define FUSEC_TOOLS_BENCH_VERIFICATION_H

#include "HostField.h"

#include <cstddef>
#include <string>

namespace fusec::bench {

struct Tolerances {
  double rtol = 0.0;
  double atol = 0.0;

  /// The defaults: rtol 1e-12 / atol 1e-15 for f64, rtol 1e-5 / atol 1e-6 for
  /// f32, exact for integers and booleans.
  static Tolerances defaultFor(DType dtype);
  /// What a build with FMA contraction is checked with against a reference
  /// that rounds each operation: f64 rtol 1e-8 / atol 1e-12 (contraction moved
  /// diffusion_step by up to ~1e-10 relative and the RBF's values near zero by
  /// ~1e-15 absolute), the defaults otherwise.
  static Tolerances withFmaFor(DType dtype);
};

struct FieldComparison {
  size_t points = 0;
  size_t failures = 0;
  /// max |x - ref| / |ref| over the elements with ref != 0 (0 when there are none).
  double maxRelativeError = 0.0;
  double maxAbsoluteError = 0.0;
  /// The element that exceeds its tolerance the most (the first of equals), or,
  /// when all pass, the one with the largest relative error.
  size_t worstIndex = 0;
  double worstValue = 0.0;
  double worstReference = 0.0;

  bool passed() const { return failures == 0; }
};

/// Compares `actual` with `reference` (same format).
FieldComparison compareFields(const HostField &actual, const HostField &reference,
                              Tolerances tolerances);

/// "edge 17, neighbour 2, level 3" for element `index` of a field of `format`.
std::string describePosition(const FieldFormat &format, size_t index);

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_VERIFICATION_H
