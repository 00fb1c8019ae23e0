/* fusec runtime: arithmetic with no single C operator, one definition for generated code
 * (host and device) and for the reference interpreter, so that both round and choose alike.
 * C++ only; included by fusec/kernel_support.h. */
#ifndef FUSEC_ARITH_H
#define FUSEC_ARITH_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

/* Functions for host and device code: on CUDA code paths (nvcc, or the cuda-host backend,
 * whose fusec/cuda_host/cuda_runtime.h defines the qualifiers) they are __host__ __device__. */
#if defined(__CUDACC__) || defined(FUSEC_CUDA_HOST)
#define FUSEC_HOST_DEVICE __host__ __device__
#else
#define FUSEC_HOST_DEVICE
#endif

namespace fusec {

/* arith.floordivsi / ceildivsi: division rounding towards -inf / +inf. */
FUSEC_HOST_DEVICE inline int32_t floordiv(int32_t a, int32_t b) {
  int32_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
FUSEC_HOST_DEVICE inline int32_t ceildiv(int32_t a, int32_t b) {
  int32_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

/* arith.minimumf / maximumf: NaN wins, and -0 < +0 (unlike fmin/fmax). */
template <typename T> FUSEC_HOST_DEVICE inline T minimum(T a, T b) {
  if (a != a || b != b)
    return a + b;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <typename T> FUSEC_HOST_DEVICE inline T maximum(T a, T b) {
  if (a != a || b != b)
    return a + b;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

/* arith.minnumf / maxnumf and min/max folds: a NaN operand loses to the other one. Where
 * C's fmin/fmax leave the choice between -0 and +0 to the library, these keep `a`, and
 * unlike a call to fmin/fmax, the selects vectorise. Two selects, not one on `b < a || a != a`:
 * with -fno-trapping-math GCC 12 vectorises that `||` of two comparisons only with AVX-512's
 * mask registers, and for AVX2 the loop around it stayed scalar (nabla2/Smagorinsky's
 * `min(max(...))` in scripts/instructions_per_point.py's build). */
template <typename T> FUSEC_HOST_DEVICE inline T minnum(T a, T b) {
  const T smaller = b < a ? b : a;
  return a != a ? b : smaller;
}
template <typename T> FUSEC_HOST_DEVICE inline T maxnum(T a, T b) {
  const T larger = b > a ? b : a;
  return a != a ? b : larger;
}

/* arith.select marked stn.blend (stn-blend-selects): the bits of `a` where `c` holds, of `b`
 * elsewhere, without a branch. GCC makes `c ? a : b` a branch, and keeps a loop scalar whose
 * branch holds floating-point arithmetic (-ftrapping-math); bitwise operations it vectorises.
 * Both values are computed anyway; the result is the chosen one, bit for bit. */
template <typename T> FUSEC_HOST_DEVICE inline T blend(bool c, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return (c & a) | (!c & b);
  } else {
    using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
    static_assert(sizeof(T) == sizeof(Bits), "fusec::blend: 4- or 8-byte values only");
    Bits x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    const Bits mask = Bits(0) - Bits(c);
    const Bits chosen = (x & mask) | (y & ~mask);
    T result;
    std::memcpy(&result, &chosen, sizeof result);
    return result;
  }
}

} // namespace fusec

#endif /* FUSEC_ARITH_H */
