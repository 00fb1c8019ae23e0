/* fusec runtime: what generated programs include (header-only; C99, C++17 and CUDA).
 *
 * The C part (status codes, the exchange callback) is the vocabulary of the generated C
 * interface, so the generated header includes it. The C++ part (setup-time extents, neighbour
 * tables, buffers, the stn.image cache) is used by the generated .cpp and .cu files only.
 * Nothing here depends on the compiler or needs a library: generated code compiles against
 * runtime/include alone. See docs/codegen.md. */
#ifndef FUSEC_KERNEL_SUPPORT_H
#define FUSEC_KERNEL_SUPPORT_H

#include "fusec/mesh.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What every generated P_setup and P_run returns. */
enum fusec_status {
  FUSEC_SUCCESS = 0,
  FUSEC_ERROR_NOT_SET_UP = 1,       /* P_run before P_setup (or after P_free) */
  FUSEC_ERROR_INVALID_ARGUMENT = 2, /* no mesh, or nlev < 1 */
  FUSEC_ERROR_CONNECTIVITY = 3,     /* a neighbour table is missing or does not fit */
  FUSEC_ERROR_OUT_OF_MEMORY = 4,
  FUSEC_ERROR_DOMAIN = 5,   /* a kernel domain or stn.image range lies outside the mesh */
  FUSEC_ERROR_EXCHANGE = 6, /* the exchange callback returned non-zero */
  FUSEC_ERROR_CUDA = 7      /* a CUDA call or kernel launch failed */
};

/* The location of fields that have no horizontal dimension. */
enum { FUSEC_NO_LOCATION = -1 };

typedef enum fusec_element_type {
  FUSEC_F64 = 0,
  FUSEC_F32 = 1,
  FUSEC_I32 = 2,
  FUSEC_BOOL = 3
} fusec_element_type;

/* A field handed to the exchange callback: data[h + n*ld + k*ld*num_neighbors]. */
typedef struct fusec_exchange_field {
  const char *name; /* the program parameter's (or buffer's) source name */
  void *data;       /* device pointer (CUDA backend) or host pointer (C++ backend) */
  fusec_element_type type;
  int32_t location;      /* a fusec_location, or FUSEC_NO_LOCATION */
  int32_t num_levels;    /* nlev, nlev + 1 for half levels, 0 without levels */
  int32_t num_neighbors; /* sparse fields: neighbours per point; 0 otherwise */
  int64_t ld;            /* leading dimension (points of the location) */
} fusec_exchange_field;

/* Called at every stn.exchange of a program, after the kernels before it were launched on
 * `stream` (they may still be running: order your work after them on that stream, or
 * synchronise it). Return 0 on success; anything else makes P_run fail with
 * FUSEC_ERROR_EXCHANGE. */
typedef int (*fusec_exchange_callback)(const char *program, const fusec_exchange_field *fields,
                                       int32_t num_fields, void *stream, void *user_data);

/* A stable, static description of a fusec_status. */
static inline const char *fusec_status_message(int status) {
  switch (status) {
  case FUSEC_SUCCESS:
    return "success";
  case FUSEC_ERROR_NOT_SET_UP:
    return "the program is not set up (call its _setup function first)";
  case FUSEC_ERROR_INVALID_ARGUMENT:
    return "invalid argument to setup: no mesh, or fewer than one level";
  case FUSEC_ERROR_CONNECTIVITY:
    return "a neighbour table the program needs is missing from the mesh or does not fit "
           "(source, target, neighbour count, rows or entries)";
  case FUSEC_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case FUSEC_ERROR_DOMAIN:
    return "a domain lies outside the mesh: a horizontal range beyond the location's points "
           "or a vertical range beyond the levels";
  case FUSEC_ERROR_EXCHANGE:
    return "the halo-exchange callback failed";
  case FUSEC_ERROR_CUDA:
    return "a CUDA call or kernel launch failed";
  default:
    return "unknown fusec status";
  }
}

#ifdef __cplusplus
} /* extern "C" */

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>

#ifdef __CUDACC__
#include <cuda_runtime.h>
#define FUSEC_HOST_DEVICE __host__ __device__
#else
#define FUSEC_HOST_DEVICE
#endif

namespace fusec {

/*--- Arithmetic with no single C operator, shared by host and device code -----------------*/

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

/*--- Host-side state of a set-up program ---------------------------------------------------*/

/* Vertical extent of a field. */
enum class Levels { Flat, Full, Half };

/* The sizes fixed at setup: levels, points and leading dimension per location. */
struct Extents {
  int32_t nlev = 0;
  int32_t num_points[3] = {0, 0, 0};
  int64_t ld[3] = {0, 0, 0};

  int init(const fusec_mesh *mesh, int32_t num_levels) {
    if (mesh == nullptr || num_levels < 1)
      return FUSEC_ERROR_INVALID_ARGUMENT;
    nlev = num_levels;
    for (int location = 0; location < 3; ++location) {
      if (mesh->num_points[location] < 0)
        return FUSEC_ERROR_INVALID_ARGUMENT;
      num_points[location] = mesh->num_points[location];
      ld[location] = mesh->num_points[location];
    }
    return FUSEC_SUCCESS;
  }

  int32_t levels(Levels vertical) const {
    return vertical == Levels::Flat ? 0 : vertical == Levels::Full ? nlev : nlev + 1;
  }
  int64_t leading_dimension(int location) const {
    return location == FUSEC_NO_LOCATION ? 0 : ld[location];
  }

  /* Number of elements of a field (at least one per level or point it has). */
  size_t elements(int location, Levels vertical, int32_t neighbors) const {
    size_t points = location == FUSEC_NO_LOCATION ? 1 : static_cast<size_t>(ld[location]);
    size_t levels_or_one = vertical == Levels::Flat ? 1 : static_cast<size_t>(levels(vertical));
    size_t slots = neighbors > 0 ? static_cast<size_t>(neighbors) : 1;
    return points * levels_or_one * slots;
  }

  bool horizontal_inside(int location, int32_t lb, int32_t ub) const {
    return lb >= 0 && ub <= num_points[location];
  }
  bool vertical_inside(int32_t lb, int32_t ub, bool half_levels) const {
    return lb >= 0 && ub <= nlev + (half_levels ? 1 : 0);
  }

  fusec_exchange_field describe(const char *name, const void *data, fusec_element_type type,
                                int location, Levels vertical, int32_t neighbors) const {
    fusec_exchange_field field;
    field.name = name;
    field.data = const_cast<void *>(data);
    field.type = type;
    field.location = location;
    field.num_levels = levels(vertical);
    field.num_neighbors = neighbors;
    field.ld = leading_dimension(location);
    return field;
  }
};

/* A zero-initialised host array; no exceptions, so allocation failure is a status. */
template <typename T> class HostArray {
public:
  HostArray() = default;
  HostArray(const HostArray &) = delete;
  HostArray &operator=(const HostArray &) = delete;
  ~HostArray() { release(); }

  int allocate(size_t size) {
    release();
    if (size == 0)
      return FUSEC_SUCCESS;
    data_ = static_cast<T *>(std::calloc(size, sizeof(T)));
    if (data_ == nullptr)
      return FUSEC_ERROR_OUT_OF_MEMORY;
    size_ = size;
    return FUSEC_SUCCESS;
  }
  void release() {
    std::free(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T *data() const { return data_; }
  size_t size() const { return size_; }

private:
  T *data_ = nullptr;
  size_t size_ = 0;
};

/* The table `name` of `mesh` if it has the expected source, target and width, else null.
 * (fusec_mesh_find would do the lookup, but generated code links no runtime library.) */
inline const fusec_connectivity *find_connectivity(const fusec_mesh *mesh, const char *name,
                                                   fusec_location source, fusec_location target,
                                                   int32_t neighbors) {
  for (int32_t i = 0; i < mesh->num_connectivities; ++i) {
    const fusec_connectivity &table = mesh->connectivities[i];
    if (table.name == nullptr || std::strcmp(table.name, name) != 0)
      continue;
    if (table.source != source || table.target != target || table.max_neighbors != neighbors)
      return nullptr;
    return &table;
  }
  return nullptr;
}

/* A host copy of one neighbour table, table[h + n*ld] with ld = points of the source, checked
 * at load time (every entry is -1 or a point of the target), plus the stn.image computation
 * with a small cache: the table never changes after setup, so an image is computed once per
 * (lb, ub). */
class HostTable {
public:
  int load(const fusec_mesh *mesh, const char *name, fusec_location source, fusec_location target,
           int32_t neighbors) {
    release();
    const fusec_connectivity *table = find_connectivity(mesh, name, source, target, neighbors);
    int32_t rows = mesh->num_points[source];
    int32_t targets = mesh->num_points[target];
    if (table == nullptr || table->num_rows < rows || table->ld < table->num_rows ||
        (table->table == nullptr && rows > 0))
      return FUSEC_ERROR_CONNECTIVITY;
    if (int status = entries_.allocate(static_cast<size_t>(rows) * neighbors))
      return status;
    for (int32_t n = 0; n < neighbors; ++n) {
      for (int32_t h = 0; h < rows; ++h) {
        int32_t entry = table->table[h + static_cast<int64_t>(n) * table->ld];
        if (entry < -1 || entry >= targets) {
          release();
          return FUSEC_ERROR_CONNECTIVITY;
        }
        entries_.data()[h + static_cast<int64_t>(n) * rows] = entry;
      }
    }
    rows_ = rows;
    neighbors_ = neighbors;
    return FUSEC_SUCCESS;
  }

  const int32_t *data() const { return entries_.data(); }
  int64_t ld() const { return rows_; }
  size_t size() const { return entries_.size(); }

  /* [*lo, *hi): the hull of the neighbours of points [lb, ub), missing ones ignored;
   * [0, 0) for an empty range or when every neighbour is missing. */
  int image(int32_t lb, int32_t ub, int32_t *lo, int32_t *hi) {
    *lo = 0;
    *hi = 0;
    if (lb >= ub)
      return FUSEC_SUCCESS;
    if (lb < 0 || ub > rows_)
      return FUSEC_ERROR_DOMAIN;
    for (int i = 0; i < cached_; ++i) {
      if (cache_[i].lb == lb && cache_[i].ub == ub) {
        *lo = cache_[i].lo;
        *hi = cache_[i].hi;
        return FUSEC_SUCCESS;
      }
    }
    int32_t min_index = INT32_MAX, max_index = -1;
    for (int32_t n = 0; n < neighbors_; ++n) {
      const int32_t *column = entries_.data() + static_cast<int64_t>(n) * rows_;
      for (int32_t h = lb; h < ub; ++h) {
        if (column[h] < 0)
          continue;
        min_index = column[h] < min_index ? column[h] : min_index;
        max_index = column[h] > max_index ? column[h] : max_index;
      }
    }
    if (max_index >= 0) {
      *lo = min_index;
      *hi = max_index + 1;
    }
    CachedImage &slot = cache_[next_];
    slot = CachedImage{lb, ub, *lo, *hi};
    next_ = (next_ + 1) % kCacheSize;
    cached_ = cached_ < kCacheSize ? cached_ + 1 : kCacheSize;
    return FUSEC_SUCCESS;
  }

  void release() {
    entries_.release();
    rows_ = 0;
    neighbors_ = 0;
    cached_ = 0;
    next_ = 0;
  }

private:
  struct CachedImage {
    int32_t lb, ub, lo, hi;
  };
  static constexpr int kCacheSize = 8;

  HostArray<int32_t> entries_;
  int32_t rows_ = 0;
  int32_t neighbors_ = 0;
  CachedImage cache_[kCacheSize] = {};
  int cached_ = 0;
  int next_ = 0;
};

/* Exchange callback registration of one program; it survives P_free. */
struct ExchangeHandler {
  fusec_exchange_callback callback = nullptr;
  void *user_data = nullptr;

  int operator()(const char *program, const fusec_exchange_field *fields, int32_t num_fields,
                 void *stream) const {
    if (callback == nullptr)
      return FUSEC_SUCCESS;
    return callback(program, fields, num_fields, stream, user_data) == 0 ? FUSEC_SUCCESS
                                                                         : FUSEC_ERROR_EXCHANGE;
  }
};

#ifdef __CUDACC__

inline int cuda_status(cudaError_t error) {
  if (error == cudaSuccess)
    return FUSEC_SUCCESS;
  return error == cudaErrorMemoryAllocation ? FUSEC_ERROR_OUT_OF_MEMORY : FUSEC_ERROR_CUDA;
}

/* The status of the last kernel launch (configuration errors; faults surface later). */
inline int launch_status() { return cuda_status(cudaGetLastError()); }

/* A zero-initialised device array, released explicitly (never at static destruction, when the
 * CUDA runtime may already be gone). */
template <typename T> class DeviceArray {
public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;

  int allocate(size_t size) {
    release();
    if (size == 0)
      return FUSEC_SUCCESS;
    if (int status = cuda_status(cudaMalloc(reinterpret_cast<void **>(&data_), size * sizeof(T))))
      return status;
    size_ = size;
    return cuda_status(cudaMemset(data_, 0, size * sizeof(T)));
  }
  int upload(const T *host, size_t size) {
    if (int status = allocate(size))
      return status;
    if (size == 0)
      return FUSEC_SUCCESS;
    return cuda_status(cudaMemcpy(data_, host, size * sizeof(T), cudaMemcpyHostToDevice));
  }
  void release() {
    if (data_ != nullptr)
      cudaFree(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T *data() const { return data_; }

private:
  T *data_ = nullptr;
  size_t size_ = 0;
};

/* A neighbour table on the device, checked and laid out as HostTable. */
class DeviceTable {
public:
  int load(const fusec_mesh *mesh, const char *name, fusec_location source, fusec_location target,
           int32_t neighbors) {
    release();
    HostTable host;
    if (int status = host.load(mesh, name, source, target, neighbors))
      return status;
    if (int status = entries_.upload(host.data(), host.size()))
      return status;
    ld_ = host.ld();
    return FUSEC_SUCCESS;
  }
  const int32_t *data() const { return entries_.data(); }
  int64_t ld() const { return ld_; }
  void release() {
    entries_.release();
    ld_ = 0;
  }

private:
  DeviceArray<int32_t> entries_;
  int64_t ld_ = 0;
};

#endif /* __CUDACC__ */

} // namespace fusec

#endif /* __cplusplus */

#endif /* FUSEC_KERNEL_SUPPORT_H */
