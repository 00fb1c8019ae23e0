//===- Verification.cpp - comparing outputs with the reference ------------===//

#include "Verification.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

namespace fusec::bench {

Tolerances Tolerances::withFmaFor(DType dtype) {
  if (dtype == DType::Float64)
    return {1e-8, 1e-12};
  return defaultFor(dtype);
}

Tolerances Tolerances::defaultFor(DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return {1e-12, 1e-15};
  case DType::Float32:
    return {1e-5, 1e-6};
  case DType::Int32:
  case DType::Bool:
    return {0.0, 0.0};
  }
  return {};
}

FieldComparison compareFields(const HostField &actual, const HostField &reference,
                              Tolerances tolerances) {
  FieldComparison result;
  result.points = reference.size();
  // Failing elements rank above passing ones: failing ones by how far they exceed their
  // tolerance (error / allowed error; infinite for NaN or a zero tolerance), passing ones by
  // relative error. The first of equals is kept.
  std::pair<int, double> worstRank{-1, 0.0};
  for (size_t i = 0; i < result.points; ++i) {
    double x = actual.get(i);
    double ref = reference.get(i);
    bool infinite = std::isinf(ref);
    if ((std::isnan(x) && std::isnan(ref)) || (infinite && x == ref))
      continue; // the same NaN or infinity
    double error = std::fabs(x - ref);
    // An infinite reference allows nothing else: rtol * |ref| would allow any value.
    double allowed = infinite ? 0.0 : tolerances.atol + tolerances.rtol * std::fabs(ref);
    bool passes = error <= allowed; // false when one side is NaN
    double relative = infinite ? HUGE_VAL : ref != 0.0 ? error / std::fabs(ref) : 0.0;
    if (std::isnan(error)) {
      result.maxRelativeError = error;
      result.maxAbsoluteError = error;
    } else if (!std::isnan(result.maxAbsoluteError)) {
      result.maxRelativeError = std::max(result.maxRelativeError, relative);
      result.maxAbsoluteError = std::max(result.maxAbsoluteError, error);
    }
    std::pair<int, double> rank{0, relative};
    if (!passes) {
      ++result.failures;
      rank = {1, allowed > 0.0 && !std::isnan(error) ? error / allowed : HUGE_VAL};
    }
    if (rank > worstRank) {
      worstRank = rank;
      result.worstIndex = i;
      result.worstValue = x;
      result.worstReference = ref;
    }
  }
  return result;
}

std::string describePosition(const FieldFormat &format, size_t index) {
  FieldFormat::Position at = format.position(index);
  std::string text;
  if (format.location) {
    std::string location = location_name(*format.location);
    location[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(location[0])));
    text = location + " " + std::to_string(at.point);
  }
  if (format.neighbors > 0)
    text += ", neighbour " + std::to_string(at.neighbor);
  if (format.levels > 0)
    text += (text.empty() ? "" : ", ") + std::string("level ") + std::to_string(at.level);
  return text;
}

} // namespace fusec::bench
