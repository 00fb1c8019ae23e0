//===- HostField.h - program arguments held on the host -----------*- C++ -*-===//
//
// The buffers, scalar values and point lists fusec-bench hands to a program,
// fields in the layout of docs/runtime.md: f[h + n*ld + k*ld*N] with ld =
// number of points (no padding); a vertical-only field is f[k].
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_TOOLS_BENCH_HOSTFIELD_H
#define FUSEC_TOOLS_BENCH_HOSTFIELD_H

#include "fusec/field.h"
#include "fusec/npy.h"
#include "fusec/status.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace fusec::bench {

/// `bytes` of zeroed memory from fusec::allocate_host_buffer (the generated
/// code's buffers come from it too); free it with std::free. Out of memory is
/// a fatal error.
void *allocateHugePageAligned(size_t bytes);

/// Allocates large arrays on 2 MiB boundaries and asks for transparent huge
/// pages: where a field's pages land (some on huge pages, some not) otherwise
/// changes kernel times by up to 25% between runs of identical code, because
/// neighbour gathers miss the TLB.
template <typename T> struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <typename U> HugePageAllocator(const HugePageAllocator<U> &) {}
  T *allocate(size_t n) { return static_cast<T *>(allocateHugePageAligned(n * sizeof(T))); }
  void deallocate(T *p, size_t) { std::free(p); }
  template <typename U> bool operator==(const HugePageAllocator<U> &) const { return true; }
  template <typename U> bool operator!=(const HugePageAllocator<U> &) const { return false; }
};

/// The shape and element type of a field on a given grid and number of levels.
struct FieldFormat {
  std::optional<Location> location; // none for vertical-only fields
  int32_t points = 1;               // points of the location; 1 without one
  int32_t neighbors = 0;            // slots of a sparse field; 0 when dense
  int32_t levels = 0;               // nlev or nlev + 1; 0 without a vertical dimension
  DType dtype = DType::Float64;

  size_t size() const;
  /// The layout that names the NumPy shape (docs/runtime.md): a vertical-only
  /// field is a 1-D array of its levels.
  FieldLayout npyLayout() const;

  /// Where element `index` lies.
  struct Position {
    int32_t point = 0, neighbor = 0, level = 0;
  };
  Position position(size_t index) const;
  /// "Edge x E2C2V[4] x 10 levels", for messages.
  std::string describe() const;
};

/// One field's values.
class HostField {
public:
  HostField() = default;
  explicit HostField(FieldFormat format)
      : format_(format), bytes_(format.size() * dtype_size(format.dtype)) {}

  const FieldFormat &format() const { return format_; }
  size_t size() const { return format_.size(); }
  void *data() { return bytes_.data(); }
  const void *data() const { return bytes_.data(); }
  const std::vector<uint8_t, HugePageAllocator<uint8_t>> &bytes() const { return bytes_; }

  /// Element `index` converted to double (booleans are 0 or 1).
  double get(size_t index) const;
  /// Stores `value` at `index`, rounded to the element type.
  void set(size_t index, double value);

private:
  FieldFormat format_;
  std::vector<uint8_t, HugePageAllocator<uint8_t>> bytes_;
};

/// What a parameter takes: a scalar, a field buffer or a point list
/// (`points<Cell, K>`: (point, level) entries, given at run time).
enum class ArgumentKind { Scalar, Field, Points };

/// A point list: entry i is point `points[i]` (0-based flat index of the
/// list's location) at level `levels[i]` (0-based); no pair twice.
struct PointList {
  std::vector<int32_t> points, levels;

  size_t size() const { return points.size(); }
};

/// A point list as a .npy array: int32 of shape (N, 2), row i = (point, level) of entry i.
NpyArray pointListToNpy(const PointList &list);
/// The list in such an array (C or Fortran order); `source` names it in messages.
Result<PointList> pointListFromNpy(const NpyArray &array, const std::string &source);
/// Whether every entry is a point of the `points` of its location at a level
/// below `nlev`, and no (point, level) pair is there twice.
Status checkPointList(const PointList &list, int32_t points, int32_t nlev);

/// A scalar argument, in the C type of its parameter.
struct ScalarArgument {
  enum class Type { F64, F32, I32, I64, Bool };
  Type type = Type::F64;
  double real = 0.0;    // F64, F32 (already rounded to float)
  int64_t integer = 0;  // I32, I64
  bool boolean = false; // Bool
};

/// One argument of a program call: a field, a scalar or a point list.
struct ArgumentValue {
  ArgumentKind kind = ArgumentKind::Scalar;
  bool isOutput = false; // an out or inout field: what a run writes
  HostField field;
  ScalarArgument scalar;
  PointList points;

  bool isField() const { return kind == ArgumentKind::Field; }
  bool isScalar() const { return kind == ArgumentKind::Scalar; }
  bool isPoints() const { return kind == ArgumentKind::Points; }
};

} // namespace fusec::bench

#endif // FUSEC_TOOLS_BENCH_HOSTFIELD_H
