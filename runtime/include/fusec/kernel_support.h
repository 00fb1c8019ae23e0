/* fusec runtime: what generated programs include (header-only; C99, C++17 and CUDA).
 *
 * The C part (status codes, layouts, tolerances, verification reports, the exchange and
 * verification callbacks) is the vocabulary of the generated C interface, so the generated
 * header includes it. The C++ part (setup-time extents, neighbour tables, buffers, the
 * stn.image cache, verification, timers and NVTX ranges) is used by the generated .cpp and .cu
 * files only. Nothing here depends on the compiler or needs a library: generated code compiles
 * against runtime/include alone. See docs/codegen.md and docs/integration.md. */
#ifndef FUSEC_KERNEL_SUPPORT_H
#define FUSEC_KERNEL_SUPPORT_H

#include "fusec/mesh.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What every generated P_create and P_run returns. */
enum fusec_status {
  FUSEC_SUCCESS = 0,
  FUSEC_ERROR_NOT_SET_UP = 1,       /* a null handle: no instance was created */
  FUSEC_ERROR_INVALID_ARGUMENT = 2, /* no mesh, nlev < 1, or a leading dimension too small */
  FUSEC_ERROR_CONNECTIVITY = 3,     /* a neighbour table is missing or does not fit */
  FUSEC_ERROR_OUT_OF_MEMORY = 4,
  FUSEC_ERROR_DOMAIN = 5,       /* a kernel domain or stn.image range lies outside the mesh, or a
                                   point list has a negative count or no arrays */
  FUSEC_ERROR_EXCHANGE = 6,     /* the exchange callback returned non-zero */
  FUSEC_ERROR_CUDA = 7,         /* a CUDA call or kernel launch failed */
  FUSEC_ERROR_VERIFICATION = 8, /* P_run_and_verify: a result differs from the reference */
  FUSEC_ERROR_IO = 9,           /* a file could not be read or written */
  FUSEC_ERROR_UNSUPPORTED_LAYOUT = 10 /* the backend cannot run in the requested layout */
};

/* The location of fields that have no horizontal dimension. */
enum { FUSEC_NO_LOCATION = -1 };

typedef enum fusec_element_type {
  FUSEC_F64 = 0,
  FUSEC_F32 = 1,
  FUSEC_I32 = 2,
  FUSEC_BOOL = 3
} fusec_element_type;

/* A field handed to the exchange callback, in the instance's layout (fusec_layout): element
 * (h, n, k) at data[jc + n*ld + k*ld*N + jb*ld*N*L] with jc = h % ld, jb = h / ld,
 * N = max(num_neighbors, 1), L = max(num_levels, 1); jb is 0 in the flat layout. */
typedef struct fusec_exchange_field {
  const char *name; /* the program parameter's (or buffer's) source name */
  void *data;       /* device pointer (CUDA backend) or host pointer (C++ backend) */
  fusec_element_type type;
  int32_t location;      /* a fusec_location, or FUSEC_NO_LOCATION */
  int32_t num_levels;    /* nlev, nlev + 1 for half levels, 0 without levels */
  int32_t num_neighbors; /* sparse fields: neighbours per point; 0 otherwise */
  int64_t ld;            /* leading dimension: points per block (nproma) */
  int32_t num_blocks;    /* 1 in the flat layout; blocked: ceil(points / nproma) */
} fusec_exchange_field;

/* Called at every stn.exchange of a program, after the kernels before it were launched on
 * `stream` (they may still be running: order your work after them on that stream, or
 * synchronise it). Return 0 on success; anything else makes P_run fail with
 * FUSEC_ERROR_EXCHANGE. */
typedef int (*fusec_exchange_callback)(const char *program, const fusec_exchange_field *fields,
                                       int32_t num_fields, void *stream, void *user_data);

/* How the caller stores its fields (P_create_with_layout), for a field of location L with N
 * neighbour slots (1 when dense) and L levels (1 without levels):
 *
 * - flat (nproma = 0, ICON's GPU layout): element (h, n, k) at h + n*ld[L] + k*ld[L]*N, with
 *   ld[L] >= the number of points (0: exactly that, what P_create uses); padding points
 *   [points, ld) are never read nor written.
 * - blocked (nproma > 0, ICON's CPU layout f(nproma, [N,] [nlev,] nblks)): point h is
 *   jc = h % nproma of block jb = h / nproma, and element (h, n, k) lies at
 *   jc + nproma*(n + N*(k + L*jb)); every location has ceil(points / nproma) blocks, the last
 *   one padded to nproma points (padding never read nor written). ld[L] must be 0 or nproma.
 *   2-D dense fields are the same in both layouts. The C++ backend only; the CUDA backend
 *   refuses it with FUSEC_ERROR_UNSUPPORTED_LAYOUT (on GPUs ICON uses nproma >= points: the
 *   flat layout with ld = nproma).
 * - columns: the blocked layout with nproma = 1 (each point's levels contiguous). C++ compiled
 *   with fusec --layout=columns runs in this layout only and refuses the others. */
typedef struct fusec_layout {
  int64_t ld[3];  /* indexed by fusec_location; the flat layout's leading dimensions */
  int64_t nproma; /* 0: flat layout; > 0: blocked layout with nproma points per block */
} fusec_layout;

/* A value x passes against its reference r when |x - r| <= atol + rtol*|r| (NaN equals NaN).
 * A negative entry means the default of the field's element type: rtol 1e-12, atol 1e-15 for
 * f64; rtol 1e-5, atol 1e-6 for f32; exact for integers and booleans. */
typedef struct fusec_tolerances {
  double rtol;
  double atol;
} fusec_tolerances;

/* What P_run_and_verify found for one output field. */
typedef struct fusec_field_check {
  const char *program;
  const char *field;           /* the parameter's source name */
  int32_t location;            /* a fusec_location, or FUSEC_NO_LOCATION */
  int64_t num_values;          /* values compared (padding excluded) */
  int64_t num_failures;        /* values outside the tolerances */
  fusec_tolerances tolerances; /* as applied (defaults resolved) */
  /* The value that exceeds its tolerance most; -1 for a dimension the field does not have,
   * and everywhere when nothing failed. */
  int32_t worst_point;
  int32_t worst_neighbor;
  int32_t worst_level;
  double worst_value;
  double worst_reference;
} fusec_field_check;

/* Called by P_run_and_verify once per output field, passing or not. Without a callback, failing
 * fields are printed to stderr. */
typedef void (*fusec_verification_callback)(const fusec_field_check *check, void *user_data);

/* A stable, static description of a fusec_status. */
static inline const char *fusec_status_message(int status) {
  switch (status) {
  case FUSEC_SUCCESS:
    return "success";
  case FUSEC_ERROR_NOT_SET_UP:
    return "no instance: the handle is null (make one with the program's _create function)";
  case FUSEC_ERROR_INVALID_ARGUMENT:
    return "invalid argument: no mesh, fewer than one level, a leading dimension smaller than "
           "the number of points, a blocked layout whose ld is neither 0 nor nproma, only "
           "some of the verification copies, or (Fortran) a point list count beyond its arrays";
  case FUSEC_ERROR_CONNECTIVITY:
    return "a neighbour table the program needs is missing from the mesh or does not fit "
           "(source, target, neighbour count, rows or entries)";
  case FUSEC_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case FUSEC_ERROR_DOMAIN:
    return "a domain lies outside the mesh: a horizontal range beyond the location's points "
           "or a vertical range beyond the levels; or a point list with a negative count or, "
           "with entries, a null array";
  case FUSEC_ERROR_EXCHANGE:
    return "the halo-exchange callback failed";
  case FUSEC_ERROR_CUDA:
    return "a CUDA call or kernel launch failed";
  case FUSEC_ERROR_VERIFICATION:
    return "verification failed: a result differs from the reference beyond its tolerances";
  case FUSEC_ERROR_IO:
    return "a file could not be read or written";
  case FUSEC_ERROR_UNSUPPORTED_LAYOUT:
    return "unsupported layout: the CUDA backend runs the flat layout only (fusec_layout.nproma "
           "= 0; ICON's GPU layout is nproma >= points, i.e. ld = nproma)";
  default:
    return "unknown fusec status";
  }
}

#ifdef __cplusplus
} /* extern "C" */

#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

/* CUDA code paths: nvcc, or the emitted .cu compiled as host C++ by the
 * cuda-host backend (fusec/cuda_host/cuda_runtime.h stands in for CUDA). */
#if defined(__CUDACC__) || defined(FUSEC_CUDA_HOST)
#define FUSEC_CUDA 1
#endif

#ifdef FUSEC_CUDA
#include <cuda_runtime.h>
/* A kernel launch: `FUSEC_LAUNCH(k, grid, block, shared, stream)(args...)`. On the host
 * (cuda-host) it runs every thread in a loop (fusec/cuda_host/cuda_runtime.h). */
#ifdef FUSEC_CUDA_HOST
#define FUSEC_LAUNCH(kernel, ...) ::fusec::cuda_host::launch(#kernel, kernel, __VA_ARGS__)
#else
#define FUSEC_LAUNCH(kernel, ...) kernel<<<__VA_ARGS__>>>
#endif
#endif

#ifdef FUSEC_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

/* Non-temporal stores for fusec::ColumnStage: x86-64 C++ code paths (SSE2 at least).
 * -DFUSEC_STREAM_STORES=0 makes them ordinary stores, to measure what streaming gains. */
#ifndef FUSEC_STREAM_STORES
#if defined(__SSE2__) && !defined(FUSEC_CUDA)
#define FUSEC_STREAM_STORES 1
#else
#define FUSEC_STREAM_STORES 0
#endif
#endif
#if FUSEC_STREAM_STORES
#include <immintrin.h>
#endif

/* After cuda_runtime.h: defines FUSEC_HOST_DEVICE (`__host__ __device__` on CUDA code paths). */
#include "fusec/arith.h"

namespace fusec {

/*--- Host-side state of a set-up program ---------------------------------------------------*/

/* Vertical extent of a field. */
enum class Levels { Flat, Full, Half };

/* Blocks of `points` points with `ld` points each (fusec_layout): 1 in the flat layout
 * (ld >= points), ceil(points / ld) in the blocked one; at least 1. */
inline int64_t block_count(int64_t points, int64_t ld) {
  return points > ld && ld > 0 ? (points + ld - 1) / ld : 1;
}

/* Where element (h, n, k) of a field with `slots` neighbour slots and `layers` levels (both at
 * least 1) lies in either layout of fusec_layout: in the flat one h < ld, so jb = 0. */
FUSEC_HOST_DEVICE inline int64_t element_offset(int64_t h, int64_t n, int64_t k, int64_t ld,
                                                int64_t slots, int64_t layers) {
  return h % ld + n * ld + k * ld * slots + (h / ld) * ld * slots * layers;
}

/* The sizes fixed at setup: levels, points and leading dimension per location, and the
 * layout (flat, or blocked with nproma points per block). */
struct Extents {
  int32_t nlev = 0;
  int32_t num_points[3] = {0, 0, 0};
  int64_t ld[3] = {0, 0, 0};
  int64_t nproma = 0; /* 0: flat layout; else blocked, and ld[L] = nproma */

  /* `layout` may be null: tight fields, ld = number of points. */
  int init(const fusec_mesh *mesh, int32_t num_levels, const fusec_layout *layout) {
    if (mesh == nullptr || num_levels < 1)
      return FUSEC_ERROR_INVALID_ARGUMENT;
    nlev = num_levels;
    const int64_t requested_nproma = layout != nullptr ? layout->nproma : 0;
    // Point indices are int32: a larger nproma is no real block size.
    if (requested_nproma < 0 || requested_nproma > INT32_MAX)
      return FUSEC_ERROR_INVALID_ARGUMENT;
    nproma = requested_nproma;
    for (int location = 0; location < 3; ++location) {
      int32_t points = mesh->num_points[location];
      int64_t requested = layout != nullptr ? layout->ld[location] : 0;
      if (points < 0 || requested < 0)
        return FUSEC_ERROR_INVALID_ARGUMENT;
      num_points[location] = points;
      if (blocked()) {
        if (requested != 0 && requested != nproma)
          return FUSEC_ERROR_INVALID_ARGUMENT;
        ld[location] = nproma;
        continue;
      }
      if (requested > 0 && requested < points)
        return FUSEC_ERROR_INVALID_ARGUMENT;
      ld[location] = requested > 0 ? requested : points;
    }
    return FUSEC_SUCCESS;
  }

  bool blocked() const { return nproma > 0; }
  int64_t blocks(int location) const {
    return location == FUSEC_NO_LOCATION ? 1 : block_count(num_points[location], ld[location]);
  }

  int32_t levels(Levels vertical) const {
    return vertical == Levels::Flat ? 0 : vertical == Levels::Full ? nlev : nlev + 1;
  }
  int64_t leading_dimension(int location) const {
    return location == FUSEC_NO_LOCATION ? 0 : ld[location];
  }

  /* Number of elements of a field (at least one per level or point it has), every block
   * included. */
  size_t elements(int location, Levels vertical, int32_t neighbors) const {
    size_t points = location == FUSEC_NO_LOCATION
                        ? 1
                        : static_cast<size_t>(ld[location] * blocks(location));
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
    field.num_blocks = static_cast<int32_t>(blocks(location));
    return field;
  }
};

/* Zeroed host memory to release with std::free, or null. Buffers start on a cache line, so a
 * column whose length is a multiple of one is whole lines (vector stores split no line); those
 * of 2 MiB and more start on a 2 MiB boundary with transparent huge pages requested, so
 * neighbour gathers across a whole field miss the TLB less, and alike in every run. */
inline void *allocate_host_buffer(size_t bytes) {
  constexpr size_t huge_page = size_t(2) << 20, cache_line = 64;
  bytes = bytes == 0 ? 1 : bytes;
  void *memory = nullptr;
  if (posix_memalign(&memory, bytes < huge_page ? cache_line : huge_page, bytes) != 0)
    return nullptr;
#if defined(__linux__)
  if (bytes >= huge_page)
    madvise(memory, bytes, MADV_HUGEPAGE);
#endif
  std::memset(memory, 0, bytes);
  return memory;
}

/* A zero-initialised host array; no exceptions, so allocation failure is a status. */
template <typename T> class HostArray {
public:
  HostArray() = default;
  HostArray(const HostArray &) = delete;
  HostArray &operator=(const HostArray &) = delete;
  ~HostArray() { release(); }

  /* The stream argument mirrors DeviceArray::allocate. */
  int allocate(size_t size, void * /*stream*/ = nullptr) {
    release();
    if (size == 0)
      return FUSEC_SUCCESS;
    data_ = static_cast<T *>(allocate_host_buffer(size * sizeof(T)));
    if (data_ == nullptr)
      return FUSEC_ERROR_OUT_OF_MEMORY;
    size_ = size;
    return FUSEC_SUCCESS;
  }
  /* Makes this a copy of source[0, size), allocating only when the size changes. The stream
   * argument mirrors DeviceArray::assign. */
  int assign(const T *source, size_t size, void * /*stream*/) {
    if (size != size_)
      if (int status = allocate(size))
        return status;
    if (size > 0)
      std::memcpy(data_, source, size * sizeof(T));
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
  /* The stream argument mirrors DeviceTable::load. */
  int load(const fusec_mesh *mesh, const char *name, fusec_location source, fusec_location target,
           int32_t neighbors, void * /*stream*/ = nullptr) {
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
    if (int status = count_missing(rows, neighbors)) {
      release();
      return status;
    }
    rows_ = rows;
    neighbors_ = neighbors;
    return FUSEC_SUCCESS;
  }

  /* For the blocked layout: per entry, the index of its element at level 0 and slot 0 in
   * fields whose block holds nproma * (beyond + 1) elements, entry + (entry / nproma) * nproma *
   * beyond (ICON's idx and blk in one number), or -1 where the neighbour is missing. A kernel
   * then gathers at offset + k * nproma as it would at entry + k * ld in the flat layout.
   * Computed once per field shape (value of beyond); again is a no-op. */
  int compute_block_offsets(int64_t nproma, int64_t beyond) {
    if (nproma <= 0 || beyond < 0)
      return FUSEC_ERROR_INVALID_ARGUMENT;
    if (block_offsets(beyond) != nullptr || entries_.size() == 0)
      return FUSEC_SUCCESS;
    if (num_offsets_ == kMaxBlockOffsets)
      return FUSEC_ERROR_UNSUPPORTED_LAYOUT;
    HostArray<int64_t> &offsets = offsets_[num_offsets_];
    if (int status = offsets.allocate(entries_.size()))
      return status;
    for (size_t i = 0; i < entries_.size(); ++i) {
      const int64_t entry = entries_.data()[i];
      offsets.data()[i] = entry >= 0 ? entry + entry / nproma * nproma * beyond : -1;
    }
    offset_beyond_[num_offsets_++] = beyond;
    return FUSEC_SUCCESS;
  }

  const int32_t *data() const { return entries_.data(); }
  /* Entry h (0 to rows): how many of the rows before h hold a -1, so that rows [lo, hi) have
   * every neighbour where missing_before()[hi] == missing_before()[lo] (stn.table_complete). */
  const int32_t *missing_before() const { return missing_before_.data(); }
  /* Null until compute_block_offsets(nproma, beyond). */
  const int64_t *block_offsets(int64_t beyond) const {
    for (int i = 0; i < num_offsets_; ++i)
      if (offset_beyond_[i] == beyond)
        return offsets_[i].data();
    return nullptr;
  }
  int64_t ld() const { return rows_; }
  size_t size() const { return entries_.size(); }

  /* The same as a value, which on_one_thread can hand to every thread of a team. */
  struct Image {
    int status;
    int32_t lo, hi;
  };
  Image image(int32_t lb, int32_t ub) {
    Image result{FUSEC_SUCCESS, 0, 0};
    result.status = image(lb, ub, &result.lo, &result.hi);
    return result;
  }

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
    missing_before_.release();
    for (int i = 0; i < num_offsets_; ++i)
      offsets_[i].release();
    num_offsets_ = 0;
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

  int count_missing(int32_t rows, int32_t neighbors) {
    if (int status = missing_before_.allocate(static_cast<size_t>(rows) + 1))
      return status;
    int32_t *before = missing_before_.data();
    before[0] = 0;
    for (int32_t h = 0; h < rows; ++h) {
      bool missing = false;
      for (int32_t n = 0; n < neighbors; ++n)
        missing = missing || entries_.data()[h + static_cast<int64_t>(n) * rows] < 0;
      before[h + 1] = before[h] + (missing ? 1 : 0);
    }
    return FUSEC_SUCCESS;
  }

  HostArray<int32_t> entries_;
  HostArray<int32_t> missing_before_;
  /* Distinct field shapes gathered through one table in the blocked layout; the emitter
   * refuses programs that need more (kMaxBlockOffsets in KernelBodyEmitter.h). */
  static constexpr int kMaxBlockOffsets = 8;
  HostArray<int64_t> offsets_[kMaxBlockOffsets];
  int64_t offset_beyond_[kMaxBlockOffsets] = {};
  int num_offsets_ = 0;
  int32_t rows_ = 0;
  int32_t neighbors_ = 0;
  CachedImage cache_[kCacheSize] = {};
  int cached_ = 0;
  int next_ = 0;
};

/* Exchange callback registration of one instance. */
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

/*--- The OpenMP team of a C++ program run ----------------------------------------------------*/

/* A generated C++ P_run runs its whole body on every thread of one parallel region: the
 * kernels share their work items among the team (orphaned `omp for`), and everything else in
 * the body is either the same on every thread (scalar arithmetic, branches, domain checks) or
 * goes through on_one_thread. Without OpenMP, or called from inside another parallel region
 * (nested regions get one thread), the team is the calling thread alone. CUDA host code never
 * runs inside a region, so there all of these are plain calls. */
#if defined(_OPENMP) && !defined(FUSEC_CUDA)
#define FUSEC_OPENMP_TEAM 1
#endif

/* Asks the processor for the cache lines of levels [begin, end) of a column, clamped to its
 * `levels` (a point's contiguous levels in the columns layout, `column` at level 0), which the
 * kernel reads soon: stn.prefetch. Only a hint; each line once. */
template <typename T>
inline void prefetch_column(const T *column, int64_t begin, int64_t end, int64_t levels) {
  begin = begin < 0 ? 0 : begin;
  end = end > levels ? levels : end;
  if (begin >= end)
    return;
#if defined(__GNUC__) || defined(__clang__)
  constexpr uintptr_t line = 64;
  const uintptr_t last = reinterpret_cast<uintptr_t>(column + end - 1);
  uintptr_t at = reinterpret_cast<uintptr_t>(column + begin) & ~(line - 1);
  for (; at <= last; at += line)
    __builtin_prefetch(reinterpret_cast<const void *>(at));
#endif
}

#if FUSEC_STREAM_STORES
namespace detail {
/* One cache line with non-temporal stores: `to` is 64-byte aligned, `from` need not be. */
template <typename T> inline void stream_line(T *to, const T *from) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, double>)
    _mm512_stream_pd(to, _mm512_loadu_pd(from));
  else
    _mm512_stream_ps(to, _mm512_loadu_ps(from));
#else
  // Four 16-byte stores: the write-combining buffer sends the line to memory whole.
  for (int part = 0; part < 64; part += 16)
    if constexpr (std::is_same_v<T, double>)
      _mm_stream_pd(to + part / sizeof(T), _mm_loadu_pd(from + part / sizeof(T)));
    else
      _mm_stream_ps(to + part / sizeof(T), _mm_loadu_ps(from + part / sizeof(T)));
#endif
}
} // namespace detail
#endif

/* Copies `count` values to `to`: the whole cache lines of the destination with non-temporal
 * stores (without FUSEC_STREAM_STORES, ordinary ones), which skip the read of each line that an
 * ordinary store makes first; the partial lines at its ends get ordinary stores. The caller
 * orders them before what reads `to` next with stream_fence(). */
template <typename T> inline void stream_copy(T *to, const T *from, int64_t count) {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float>, "f64 or f32 values");
  int64_t i = 0;
#if FUSEC_STREAM_STORES
  constexpr int64_t line = 64 / sizeof(T);
  for (; i < count && reinterpret_cast<uintptr_t>(to + i) % 64 != 0; ++i)
    to[i] = from[i];
  for (; i + line <= count; i += line)
    detail::stream_line(to + i, from + i);
#endif
  for (; i < count; ++i)
    to[i] = from[i];
}

/* Orders the calling thread's non-temporal stores before its later loads and stores. */
inline void stream_fence() {
#if FUSEC_STREAM_STORES
  _mm_sfence();
#endif
}

/* One column of a field on its way to memory (stn.write {nontemporal}, columns layout): a loop over
 * a point's levels writes the values here, in the L1, and store() writes them out with
 * stream_copy. Holds `levels` values (inline up to 256, else on the heap); the destructor orders
 * the non-temporal stores before anything the thread does next, such as the barrier after its
 * share of a kernel. */
template <typename T> class ColumnStage {
public:
  explicit ColumnStage(int32_t levels) : values_(levels <= kInline ? inline_ : nullptr) {
    if (values_ == nullptr) {
      heap_.reset(new T[levels]);
      values_ = heap_.get();
    }
  }
  ColumnStage(const ColumnStage &) = delete;
  ColumnStage &operator=(const ColumnStage &) = delete;
  ~ColumnStage() { stream_fence(); }

  T &operator[](int32_t level) { return values_[level]; }

  /* Writes levels [begin, end) to `first` (the column at level begin) on. */
  void store(T *first, int32_t begin, int32_t end) const {
    stream_copy(first, values_ + begin, end - begin);
  }

private:
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float>, "a column of f64 or f32");
  static constexpr int32_t kInline = 256;

  alignas(64) T inline_[kInline];
  std::unique_ptr<T[]> heap_;
  T *values_;
};

/* stn.list_run: how many entries of a point list from `e` on (before `end`) are entry e's cell at
 * levels level[e], level[e] + 1, ...; at least 1. A loop that steps from each run's first entry
 * to the entry after the run visits every entry once. Entries are compared 16 at a time without
 * an early exit, one vector compare with OpenMP's simd (a column of 80 levels is 5 such steps;
 * the steep-point correction on its list with every level steep 0.89-0.97x the time of an
 * entry-by-entry scan). */
inline int32_t list_run(const int32_t *cell, const int32_t *level, int32_t e, int32_t end) {
  // Entry j continues the run when it is the cell's and level[j] - j is level[e] - e.
  const int32_t run_cell = cell[e], level_minus_entry = level[e] - e;
  constexpr int32_t chunk = 16;
  int32_t next = e + 1;
  while (end - next >= chunk) {
    int32_t differs = 0;
#ifdef FUSEC_OPENMP_TEAM
#pragma omp simd reduction(| : differs)
#endif
    for (int32_t i = 0; i < chunk; ++i)
      differs |= (cell[next + i] ^ run_cell) | (level[next + i] - (next + i) - level_minus_entry);
    if (differs != 0)
      break;
    next += chunk;
  }
  while (next < end && cell[next] == run_cell && level[next] - next == level_minus_entry)
    ++next;
  return next - e;
}

/* Waits for every thread of the team (a no-op outside a parallel region). */
inline void team_barrier() {
#ifdef FUSEC_OPENMP_TEAM
#pragma omp barrier
#endif
}

/* Whether this is the team's master, the thread that called P_run: it keeps the run's timers
 * and does on_one_thread's work. */
inline bool is_team_master() {
#ifdef FUSEC_OPENMP_TEAM
  return omp_get_thread_num() == 0;
#else
  return true;
#endif
}

namespace detail {
/* Where the master thread of a team leaves the result of on_one_thread for the others. */
struct TeamScratch {
  alignas(16) unsigned char bytes[64];
};
/* The scratch of the team this thread runs a program body in; null outside run_on_team. */
inline TeamScratch *&current_team_scratch() {
  static thread_local TeamScratch *scratch = nullptr;
  return scratch;
}
} // namespace detail

template <class Body> int run_on_team(Body &&body) {
  int status = FUSEC_SUCCESS;
  detail::TeamScratch scratch;
#ifdef FUSEC_OPENMP_TEAM
#pragma omp parallel
#endif
  {
    detail::TeamScratch *outer = detail::current_team_scratch();
    detail::current_team_scratch() = &scratch;
    // Every thread takes the same path through the body, so every thread's status is the same.
    const int thread_status = body();
    detail::current_team_scratch() = outer;
#ifdef FUSEC_OPENMP_TEAM
#pragma omp master
#endif
    status = thread_status;
  }
  return status;
}

/* Host work that must happen once (a user callback, a stn.image with its cache): the team's
 * master, the thread that called P_run (MPI_THREAD_FUNNELED allows only it to communicate),
 * runs `work` while the others wait, then every thread gets its result. */
template <class Work> auto on_one_thread(Work &&work) -> decltype(work()) {
  using Result = decltype(work());
  static_assert(std::is_trivially_copyable<Result>::value &&
                    sizeof(Result) <= sizeof(detail::TeamScratch),
                "on_one_thread hands small plain values to the team");
  detail::TeamScratch *scratch = detail::current_team_scratch();
#ifdef FUSEC_OPENMP_TEAM
  if (scratch != nullptr && omp_get_num_threads() > 1) {
    if (is_team_master()) {
      const Result result = work();
      std::memcpy(scratch->bytes, &result, sizeof result);
    }
    team_barrier();
    Result result;
    std::memcpy(&result, scratch->bytes, sizeof result);
    // No thread may write the scratch again before every thread has read it.
    team_barrier();
    return result;
  }
#endif
  (void)scratch;
  return work();
}

#ifdef FUSEC_CUDA

inline int cuda_status(cudaError_t error) {
  if (error == cudaSuccess)
    return FUSEC_SUCCESS;
  return error == cudaErrorMemoryAllocation ? FUSEC_ERROR_OUT_OF_MEMORY : FUSEC_ERROR_CUDA;
}

/* The status of the last kernel launch (configuration errors; faults surface later). */
inline int launch_status() { return cuda_status(cudaGetLastError()); }

/* The L2 cache the column order is weighed against: FUSEC_CUDA_L2_BYTES when set to a number
 * (to test or tune the choice; 0 makes every eligible launch column by column), else the L2 of
 * the device current at the first call (0 if it cannot be read). */
inline int64_t column_order_l2_bytes() {
  static const int64_t bytes = [] {
    if (const char *text = std::getenv("FUSEC_CUDA_L2_BYTES")) {
      char *end = nullptr;
      long long value = std::strtoll(text, &end, 10);
      if (end != text && *end == '\0' && value >= 0)
        return static_cast<int64_t>(value);
    }
    int device = 0, l2 = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device) != cudaSuccess)
      return int64_t(0);
    return static_cast<int64_t>(l2);
  }();
  return bytes;
}

/* Whether a launch over `points` points numbers its blocks column by column, all level tiles of
 * a block of points in a row. `tile_bytes` is what one point's level tile reads and writes: the
 * 2-D data and neighbour indices its levels share, plus its levels' fields (stn-column-order,
 * the kernel's `column_order`). Level tile by level tile, the next tile finds the shared data in
 * L2 only while a tile of all points fits there; beyond that it comes from DRAM again at every
 * tile. Column by column costs streaming kernels DRAM locality, so it is chosen only then
 * (docs/bench.md, "The third GPU session"). */
inline bool column_order_pays(int64_t points, int64_t tile_bytes) {
  return points * tile_bytes > column_order_l2_bytes();
}

/* A zero-initialised device array, released explicitly (never at static destruction, when the
 * CUDA runtime may already be gone). */
template <typename T> class DeviceArray {
public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;

  /* Zero-filled on `stream`, the caller's: work on the legacy default stream would not be
   * ordered before kernels on a non-blocking stream. */
  int allocate(size_t size, cudaStream_t stream) {
    if (int status = reserve(size))
      return status;
    return size == 0 ? FUSEC_SUCCESS
                     : cuda_status(cudaMemsetAsync(data_, 0, size * sizeof(T), stream));
  }
  /* A copy of host[0, size), complete on return (the host buffer may go away). */
  int upload(const T *host, size_t size, cudaStream_t stream) {
    if (int status = reserve(size))
      return status;
    if (size == 0)
      return FUSEC_SUCCESS;
    if (int status = cuda_status(
            cudaMemcpyAsync(data_, host, size * sizeof(T), cudaMemcpyHostToDevice, stream)))
      return status;
    return cuda_status(cudaStreamSynchronize(stream));
  }
  /* Makes this a copy of the device array source[0, size), ordered on `stream` (no zero-filling
   * on the default stream, which a non-blocking stream would not wait for); allocates only when
   * the size changes. */
  int assign(const T *source, size_t size, cudaStream_t stream) {
    if (size != size_)
      if (int status = reserve(size))
        return status;
    if (size == 0)
      return FUSEC_SUCCESS;
    return cuda_status(
        cudaMemcpyAsync(data_, source, size * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  }
  void release() {
    if (data_ != nullptr)
      cudaFree(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T *data() const { return data_; }

private:
  /* Uninitialised storage for `size` elements. */
  int reserve(size_t size) {
    release();
    if (size == 0)
      return FUSEC_SUCCESS;
    if (int status = cuda_status(cudaMalloc(reinterpret_cast<void **>(&data_), size * sizeof(T))))
      return status;
    size_ = size;
    return FUSEC_SUCCESS;
  }

  T *data_ = nullptr;
  size_t size_ = 0;
};

/* A neighbour table on the device, checked and laid out as HostTable. */
class DeviceTable {
public:
  int load(const fusec_mesh *mesh, const char *name, fusec_location source, fusec_location target,
           int32_t neighbors, cudaStream_t stream) {
    release();
    HostTable host;
    if (int status = host.load(mesh, name, source, target, neighbors))
      return status;
    if (int status = entries_.upload(host.data(), host.size(), stream))
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

#endif /* FUSEC_CUDA */

/* The stream type of the backend: kernels and copies are ordered on it. */
#ifdef FUSEC_CUDA
using Stream = cudaStream_t;
#else
using Stream = void *;
#endif

/*--- Verification (P_run_and_verify) --------------------------------------------------------*/

template <typename T> constexpr fusec_element_type element_type_of();
template <> constexpr fusec_element_type element_type_of<double>() { return FUSEC_F64; }
template <> constexpr fusec_element_type element_type_of<float>() { return FUSEC_F32; }
template <> constexpr fusec_element_type element_type_of<int32_t>() { return FUSEC_I32; }
template <> constexpr fusec_element_type element_type_of<bool>() { return FUSEC_BOOL; }

/* `requested` with each negative entry replaced by the default of `type`. */
inline fusec_tolerances resolve_tolerances(const fusec_tolerances *requested,
                                           fusec_element_type type) {
  fusec_tolerances defaults = {0.0, 0.0};
  if (type == FUSEC_F64)
    defaults = {1e-12, 1e-15};
  else if (type == FUSEC_F32)
    defaults = {1e-5, 1e-6};
  if (requested == nullptr)
    return defaults;
  return {requested->rtol < 0 ? defaults.rtol : requested->rtol,
          requested->atol < 0 ? defaults.atol : requested->atol};
}

/* Compares one field (host arrays, the layout of Extents: flat, or blocked with ld = nproma)
 * over its points, neighbour slots and levels, padding excluded, and fills the counts and worst
 * point of `check`. */
template <typename T>
void compare_field(const T *values, const T *reference, int32_t points, int64_t ld,
                   int32_t neighbors, int32_t levels, fusec_field_check *check) {
  const double rtol = check->tolerances.rtol, atol = check->tolerances.atol;
  const int32_t slots = neighbors > 0 ? neighbors : 1, layers = levels > 0 ? levels : 1;
  double worst_excess = 0.0;
  check->num_values = int64_t(points) * slots * layers;
  check->num_failures = 0;
  check->worst_point = check->worst_neighbor = check->worst_level = -1;
  check->worst_value = check->worst_reference = 0.0;
  for (int32_t k = 0; k < layers; ++k)
    for (int32_t n = 0; n < slots; ++n)
      for (int32_t h = 0; h < points; ++h) {
        const int64_t index = element_offset(h, n, k, ld, slots, layers);
        const double x = static_cast<double>(values[index]);
        const double r = static_cast<double>(reference[index]);
        if (x == r || (x != x && r != r))
          continue;
        // A NaN on one side only fails whatever the tolerances.
        const double excess =
            (x != x || r != r) ? INFINITY : std::fabs(x - r) - (atol + rtol * std::fabs(r));
        if (!(excess > 0.0))
          continue;
        if (check->num_failures++ == 0 || excess > worst_excess) {
          worst_excess = excess;
          check->worst_point = check->location == FUSEC_NO_LOCATION ? -1 : h;
          check->worst_neighbor = neighbors > 0 ? n : -1;
          check->worst_level = levels > 0 ? k : -1;
          check->worst_value = x;
          check->worst_reference = r;
        }
      }
}

/* Copies a field between the flat layout (ld >= points) and the blocked one (nproma points
 * per block, fusec_layout), points only: padding of the destination is left as it is.
 * `to_blocked` false copies blocked -> flat. */
template <typename T>
void copy_between_layouts(const T *source, T *destination, int32_t points, int64_t flat_ld,
                          int64_t nproma, int32_t neighbors, int32_t levels, bool to_blocked) {
  const int64_t slots = neighbors > 0 ? neighbors : 1, layers = levels > 0 ? levels : 1;
  for (int64_t k = 0; k < layers; ++k)
    for (int64_t n = 0; n < slots; ++n)
      for (int64_t h = 0; h < points; ++h) {
        const int64_t flat = h + n * flat_ld + k * flat_ld * slots;
        const int64_t blocked = element_offset(h, n, k, nproma, slots, layers);
        if (to_blocked)
          destination[blocked] = source[flat];
        else
          destination[flat] = source[blocked];
      }
}

/* "412 (edge), neighbour 1, level 3": where a field check's worst value lies. */
inline std::string describe_position(const fusec_field_check &check) {
  static const char *const kLocations[] = {"cell", "edge", "vertex"};
  std::string text;
  if (check.worst_point >= 0)
    text = std::string(kLocations[check.location]) + " " + std::to_string(check.worst_point);
  if (check.worst_neighbor >= 0)
    text += (text.empty() ? "" : ", ") + std::string("neighbour ") +
            std::to_string(check.worst_neighbor);
  if (check.worst_level >= 0)
    text += (text.empty() ? "" : ", ") + std::string("level ") + std::to_string(check.worst_level);
  return text;
}

/* Where an instance's verification reports go. */
struct VerificationHandler {
  fusec_verification_callback callback = nullptr;
  void *user_data = nullptr;

  void report(const fusec_field_check &check) const {
    if (callback != nullptr) {
      callback(&check, user_data);
      return;
    }
    if (check.num_failures == 0)
      return;
    std::fprintf(stderr,
                 "fusec: %s_run_and_verify: %s: %lld of %lld values differ (rtol %g, atol %g); "
                 "worst at %s: %.17g, reference %.17g\n",
                 check.program, check.field, static_cast<long long>(check.num_failures),
                 static_cast<long long>(check.num_values), check.tolerances.rtol,
                 check.tolerances.atol, describe_position(check).c_str(), check.worst_value,
                 check.worst_reference);
  }
};

/* Compares the outputs of one P_run_and_verify call, in parameter order, each with its entry of
 * `tolerances` (null: the defaults), and reports each to the program's handler. */
class Verifier {
public:
  Verifier(const char *program, const VerificationHandler &handler, const Extents &extents,
           Stream stream, const fusec_tolerances *tolerances)
      : program_(program), handler_(handler), extents_(extents), stream_(stream),
        tolerances_(tolerances) {}

  /* `values`: the caller's results; `reference`: what the program computed from the copies. */
  template <typename T>
  void check(const char *field, const T *values, const T *reference, int location, Levels vertical,
             int32_t neighbors) {
    fusec_field_check result;
    result.program = program_;
    result.field = field;
    result.location = location;
    result.tolerances = resolve_tolerances(
        tolerances_ != nullptr ? &tolerances_[checked_] : nullptr, element_type_of<T>());
    ++checked_;
    const bool horizontal = location != FUSEC_NO_LOCATION;
    const int32_t points = horizontal ? extents_.num_points[location] : 1;
    const int64_t ld = horizontal ? extents_.ld[location] : 1;
#ifdef FUSEC_CUDA
    // Device arrays: compare host copies (verification favours simplicity over speed).
    const size_t size = extents_.elements(location, vertical, neighbors);
    HostArray<T> host_values, host_reference;
    int copied = host_values.allocate(size);
    if (copied == FUSEC_SUCCESS)
      copied = host_reference.allocate(size);
    if (copied == FUSEC_SUCCESS)
      copied = cuda_status(cudaStreamSynchronize(stream_));
    if (copied == FUSEC_SUCCESS && size > 0)
      copied = cuda_status(
          cudaMemcpy(host_values.data(), values, size * sizeof(T), cudaMemcpyDeviceToHost));
    if (copied == FUSEC_SUCCESS && size > 0)
      copied = cuda_status(
          cudaMemcpy(host_reference.data(), reference, size * sizeof(T), cudaMemcpyDeviceToHost));
    if (copied != FUSEC_SUCCESS) {
      status_ = copied;
      return;
    }
    values = host_values.data();
    reference = host_reference.data();
#else
    (void)stream_;
#endif
    compare_field(values, reference, points, ld, neighbors, extents_.levels(vertical), &result);
    handler_.report(result);
    if (result.num_failures > 0 && status_ == FUSEC_SUCCESS)
      status_ = FUSEC_ERROR_VERIFICATION;
  }

  /* FUSEC_SUCCESS, FUSEC_ERROR_VERIFICATION, or the error that prevented a comparison. */
  int status() const { return status_; }

private:
  const char *program_;
  const VerificationHandler &handler_;
  const Extents &extents_;
  Stream stream_;
  const fusec_tolerances *tolerances_;
  int checked_ = 0;
  int status_ = FUSEC_SUCCESS;
};

/*--- Timers, metrics and NVTX ranges --------------------------------------------------------*/

/* The samples of one timed region (a program run or a kernel launch), in seconds. On GPUs a
 * region is a pair of CUDA events on the stream, read by collect() once the run has finished;
 * on CPUs a steady clock around the work. */
class RegionTimer {
public:
#ifdef FUSEC_CUDA
  void begin(cudaStream_t stream) {
    if (start_ == nullptr && !create())
      return;
    cudaEventRecord(start_, stream);
  }
  void end(cudaStream_t stream) {
    if (start_ == nullptr)
      return;
    cudaEventRecord(stop_, stream);
    pending_ = true;
  }
  /* Waits for the region to finish and records its time. */
  void collect() {
    if (!pending_)
      return;
    pending_ = false;
    float milliseconds = 0.0f;
    if (cudaEventSynchronize(stop_) == cudaSuccess &&
        cudaEventElapsedTime(&milliseconds, start_, stop_) == cudaSuccess)
      samples_.push_back(1e-3 * milliseconds);
  }
  /* Destroys the events (at P_destroy); the samples stay. */
  void release() {
    if (start_ != nullptr) {
      cudaEventDestroy(start_);
      cudaEventDestroy(stop_);
    }
    start_ = stop_ = nullptr;
    pending_ = false;
  }
#else
  void begin(void * /*stream*/) { start_ = std::chrono::steady_clock::now(); }
  void end(void * /*stream*/) {
    samples_.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  void collect() {}
  void release() {}
#endif
  const std::vector<double> &samples() const { return samples_; }

private:
#ifdef FUSEC_CUDA
  bool create() {
    if (cudaEventCreate(&start_) != cudaSuccess) {
      start_ = nullptr;
      return false;
    }
    if (cudaEventCreate(&stop_) != cudaSuccess) {
      cudaEventDestroy(start_);
      start_ = nullptr;
      return false;
    }
    return true;
  }
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  bool pending_ = false;
#else
  std::chrono::steady_clock::time_point start_;
#endif
  std::vector<double> samples_;
};

/* GT4Py's metrics layout: {"<key>": {"metadata": {...}, "metrics": {"compute": [s, ...]}}}, one
 * entry per program and per kernel ("<program>/<kernel>") that has samples. */
class MetricsWriter {
public:
  explicit MetricsWriter(const char *backend) : backend_(backend) {}

  void add(const char *program, const char *kernel, const std::vector<double> &samples) {
    if (samples.empty())
      return;
    std::string key = kernel != nullptr ? std::string(program) + "/" + kernel : program;
    std::string metadata = "\"name\": \"" + std::string(kernel != nullptr ? kernel : program) +
                           "\", \"backend\": \"" + backend_ + "\", \"kind\": \"" +
                           (kernel != nullptr ? "kernel" : "program") + "\"";
    if (kernel != nullptr)
      metadata += ", \"program\": \"" + std::string(program) + "\"";
    json_ += (json_.empty() ? "{\n" : ",\n") + std::string("  \"") + key + "\": {\"metadata\": {" +
             metadata + "}, \"metrics\": {\"compute\": [";
    char number[32];
    for (size_t i = 0; i < samples.size(); ++i) {
      std::snprintf(number, sizeof number, "%s%.9g", i > 0 ? ", " : "", samples[i]);
      json_ += number;
    }
    json_ += "]}}";
  }

  int write(const char *path) const {
    std::FILE *file = path != nullptr ? std::fopen(path, "w") : nullptr;
    if (file == nullptr)
      return FUSEC_ERROR_IO;
    std::string text = json_.empty() ? "{}\n" : json_ + "\n}\n";
    bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    return std::fclose(file) == 0 && written ? FUSEC_SUCCESS : FUSEC_ERROR_IO;
  }

private:
  const char *backend_;
  std::string json_;
};

/* The timers of one program and its N kernels (in program order). Off until enabled. */
template <size_t N> class ProgramTimers {
public:
  ProgramTimers(const char *program, std::array<const char *, N> kernels)
      : program_(program), kernel_names_(kernels) {}

  bool enabled = false;

  const char *program() const { return program_; }
  const char *kernel_name(size_t kernel) const { return kernel_names_[kernel]; }
  RegionTimer &run() { return run_; }
  RegionTimer &kernel(size_t kernel) { return kernels_[kernel]; }

  /* After a run: read the GPU timers of the run and of the kernels it launched. */
  void collect() {
    for (RegionTimer &timer : kernels_)
      timer.collect();
    run_.collect();
  }
  void release() {
    for (RegionTimer &timer : kernels_)
      timer.release();
    run_.release();
  }
  void report(MetricsWriter &metrics) const {
    metrics.add(program_, nullptr, run_.samples());
    for (size_t i = 0; i < N; ++i)
      metrics.add(program_, kernel_names_[i], kernels_[i].samples());
  }

private:
  const char *program_;
  std::array<const char *, N> kernel_names_;
  RegionTimer run_;
  std::array<RegionTimer, N> kernels_;
};

/* Around one P_run: an NVTX range named after the program, and its timer when enabled. */
template <size_t N> class TimedRun {
public:
  TimedRun(ProgramTimers<N> &timers, Stream stream)
      : timers_(timers.enabled ? &timers : nullptr), stream_(stream) {
#ifdef FUSEC_NVTX
    nvtxRangePushA(timers.program());
#endif
    if (timers_ != nullptr)
      timers_->run().begin(stream_);
  }
  ~TimedRun() {
    if (timers_ != nullptr) {
      timers_->run().end(stream_);
      timers_->collect();
    }
#ifdef FUSEC_NVTX
    nvtxRangePop();
#endif
  }
  TimedRun(const TimedRun &) = delete;
  TimedRun &operator=(const TimedRun &) = delete;

private:
  ProgramTimers<N> *timers_;
  Stream stream_;
};

/* Around one kernel launch: an NVTX range named after the kernel, and its timer when enabled. */
class TimedLaunch {
public:
  template <size_t N>
  TimedLaunch(ProgramTimers<N> &timers, size_t kernel, Stream stream)
      : timer_(timers.enabled ? &timers.kernel(kernel) : nullptr), stream_(stream) {
#ifdef FUSEC_NVTX
    nvtxRangePushA(timers.kernel_name(kernel));
#endif
    // On CPUs the team runs the kernel: its time is from the last thread arriving to the last
    // one leaving (a kernel with `nowait` gets its barrier back while timed).
    if (timer_ != nullptr) {
      team_barrier();
      if (is_team_master())
        timer_->begin(stream_);
    }
  }
  ~TimedLaunch() {
    if (timer_ != nullptr) {
      team_barrier();
      if (is_team_master())
        timer_->end(stream_);
    }
#ifdef FUSEC_NVTX
    nvtxRangePop();
#endif
  }
  TimedLaunch(const TimedLaunch &) = delete;
  TimedLaunch &operator=(const TimedLaunch &) = delete;

private:
  RegionTimer *timer_;
  Stream stream_;
};

} // namespace fusec

#endif /* __cplusplus */

#endif /* FUSEC_KERNEL_SUPPORT_H */
