// fusec runtime: the C API of fusec/c_api.h over the C++ runtime.
#include "fusec/c_api.h"

#include "fusec/grid_generator.h"
#include "fusec/npy.h"
#include "fusec/random.h"

#include <cstring>
#include <string>

struct fusec_grid {
  fusec::Grid grid;
  fusec_mesh mesh; // views `grid`, which never moves while this lives
};

namespace {

thread_local std::string last_error;

int fail(int status, std::string message) {
  last_error = std::move(message);
  return status;
}

bool valid_location(int32_t location) { return location >= 0 && location < 3; }

fusec::DType to_dtype(fusec_element_type type) {
  switch (type) {
  case FUSEC_F64:
    return fusec::DType::Float64;
  case FUSEC_F32:
    return fusec::DType::Float32;
  case FUSEC_I32:
    return fusec::DType::Int32;
  case FUSEC_BOOL:
    return fusec::DType::Bool;
  }
  return fusec::DType::Float64;
}

bool valid_type(fusec_element_type type) {
  return type == FUSEC_F64 || type == FUSEC_F32 || type == FUSEC_I32 || type == FUSEC_BOOL;
}

// The runtime's layout of a field given as in c_api.h; fields without points are f[k].
bool field_layout(int32_t num_points, int64_t ld, int32_t num_neighbors, int32_t num_levels,
                  fusec::FieldLayout &layout) {
  if (num_points < 0 || num_neighbors < 0 || num_levels < 0)
    return false;
  if (num_points == 0) {
    layout = fusec::FieldLayout::dense(num_levels);
    return true;
  }
  if (ld < num_points || ld > INT32_MAX)
    return false;
  layout = {num_points, static_cast<int32_t>(ld), num_neighbors, num_levels};
  return true;
}

std::string describe_shape(int32_t num_points, int64_t ld, int32_t num_neighbors,
                           int32_t num_levels) {
  return "points " + std::to_string(num_points) + ", ld " + std::to_string(ld) + ", neighbours " +
         std::to_string(num_neighbors) + ", levels " + std::to_string(num_levels);
}

template <typename T>
void fill_uniform(fusec::RandomGenerator &rng, double low, double high,
                  const fusec::FieldLayout &layout, T *data) {
  const int32_t slots = layout.num_neighbors > 0 ? layout.num_neighbors : 1;
  const int32_t levels = layout.num_levels > 0 ? layout.num_levels : 1;
  for (int32_t k = 0; k < levels; ++k)
    for (int32_t n = 0; n < slots; ++n)
      for (int32_t h = 0; h < layout.num_points; ++h)
        data[h + int64_t(n) * layout.ld + int64_t(k) * layout.ld * slots] =
            static_cast<T>(rng.uniform(low, high));
}

} // namespace

extern "C" {

fusec_grid *fusec_grid_create(const char *name) {
  if (name == nullptr) {
    fail(FUSEC_ERROR_INVALID_ARGUMENT, "no grid name");
    return nullptr;
  }
  fusec::Result<fusec::Grid> grid = fusec::make_grid(name);
  if (!grid) {
    fail(FUSEC_ERROR_INVALID_ARGUMENT, grid.error());
    return nullptr;
  }
  fusec_grid *handle = new fusec_grid{std::move(*grid), {}};
  handle->mesh = handle->grid.mesh();
  return handle;
}

void fusec_grid_destroy(fusec_grid *grid) { delete grid; }

const fusec_mesh *fusec_grid_mesh(const fusec_grid *grid) {
  return grid != nullptr ? &grid->mesh : nullptr;
}

int32_t fusec_grid_num_points(const fusec_grid *grid, int32_t location) {
  if (grid == nullptr || !valid_location(location))
    return 0;
  return grid->grid.num_points(fusec::Location(location));
}

int fusec_grid_zone(const fusec_grid *grid, int32_t location, const char *zone, int32_t *start,
                    int32_t *end) {
  if (grid == nullptr || !valid_location(location) || zone == nullptr)
    return fail(FUSEC_ERROR_INVALID_ARGUMENT, "fusec_grid_zone: no grid, location or zone");
  for (int index = 0; index < fusec::kNumZones; ++index) {
    fusec::Zone candidate = fusec::Zone(index);
    if (std::strcmp(fusec::zone_name(candidate), zone) != 0)
      continue;
    fusec::IndexRange range = grid->grid.zone(fusec::Location(location), candidate);
    *start = range.start;
    *end = range.end;
    return FUSEC_SUCCESS;
  }
  return fail(FUSEC_ERROR_INVALID_ARGUMENT, std::string("unknown zone '") + zone + "'");
}

int fusec_random_field(uint64_t seed, const char *name, double low, double high,
                       fusec_element_type type, int32_t num_points, int64_t ld,
                       int32_t num_neighbors, int32_t num_levels, void *data) {
  fusec::FieldLayout layout;
  if (name == nullptr || data == nullptr || (type != FUSEC_F64 && type != FUSEC_F32) ||
      !field_layout(num_points, ld, num_neighbors, num_levels, layout))
    return fail(FUSEC_ERROR_INVALID_ARGUMENT,
                "fusec_random_field: needs a name, data, an f64 or f32 field and a valid shape (" +
                    describe_shape(num_points, ld, num_neighbors, num_levels) + ")");
  fusec::RandomGenerator rng = fusec::RandomGenerator::for_field(seed, name);
  if (type == FUSEC_F64)
    fill_uniform(rng, low, high, layout, static_cast<double *>(data));
  else
    fill_uniform(rng, low, high, layout, static_cast<float *>(data));
  return FUSEC_SUCCESS;
}

int fusec_npy_load(const char *path, fusec_element_type type, int32_t num_points, int64_t ld,
                   int32_t num_neighbors, int32_t num_levels, void *data) {
  fusec::FieldLayout layout;
  if (path == nullptr || data == nullptr || !valid_type(type) ||
      !field_layout(num_points, ld, num_neighbors, num_levels, layout))
    return fail(FUSEC_ERROR_INVALID_ARGUMENT,
                "fusec_npy_load: needs a path, data, an element type and a valid shape (" +
                    describe_shape(num_points, ld, num_neighbors, num_levels) + ")");
  fusec::Status status = fusec::load_field_npy(path, layout, to_dtype(type), data);
  return status ? FUSEC_SUCCESS : fail(FUSEC_ERROR_IO, status.message());
}

int fusec_npy_save(const char *path, fusec_element_type type, int32_t num_points, int64_t ld,
                   int32_t num_neighbors, int32_t num_levels, const void *data) {
  fusec::FieldLayout layout;
  if (path == nullptr || data == nullptr || !valid_type(type) ||
      !field_layout(num_points, ld, num_neighbors, num_levels, layout))
    return fail(FUSEC_ERROR_INVALID_ARGUMENT,
                "fusec_npy_save: needs a path, data, an element type and a valid shape (" +
                    describe_shape(num_points, ld, num_neighbors, num_levels) + ")");
  fusec::FieldRef field{path, fusec::Location::Cell, layout, to_dtype(type), data};
  fusec::Status status = fusec::save_field_npy(path, field);
  return status ? FUSEC_SUCCESS : fail(FUSEC_ERROR_IO, status.message());
}

int fusec_npy_load_scalar(const char *path, fusec_element_type type, void *value) {
  if (path == nullptr || value == nullptr || !valid_type(type))
    return fail(FUSEC_ERROR_INVALID_ARGUMENT,
                "fusec_npy_load_scalar: needs a path, a value and an element type");
  fusec::Result<fusec::NpyArray> array = fusec::read_npy(path);
  if (!array)
    return fail(FUSEC_ERROR_IO, array.error());
  if (array->dtype != to_dtype(type) || array->num_elements() != 1)
    return fail(FUSEC_ERROR_IO, std::string(path) + ": expected one " +
                                    fusec::npy_descr(to_dtype(type)) + " value, found " +
                                    fusec::shape_string(array->shape) + " of " +
                                    fusec::npy_descr(array->dtype));
  std::memcpy(value, array->bytes.data(), array->bytes.size());
  return FUSEC_SUCCESS;
}

int fusec_check_field(const char *name, fusec_element_type type, int32_t location,
                      int32_t num_points, int64_t ld, int32_t num_neighbors, int32_t num_levels,
                      const void *values, const void *reference, const fusec_tolerances *tolerances,
                      fusec_field_check *check) {
  fusec::FieldLayout layout;
  bool horizontal = num_points > 0;
  if (values == nullptr || reference == nullptr || check == nullptr || !valid_type(type) ||
      (horizontal ? !valid_location(location) : location != FUSEC_NO_LOCATION) ||
      !field_layout(num_points, ld, num_neighbors, num_levels, layout))
    return fail(FUSEC_ERROR_INVALID_ARGUMENT,
                "fusec_check_field: needs values, a reference, a check, an element type and a "
                "valid location and shape (" +
                    describe_shape(num_points, ld, num_neighbors, num_levels) + ")");
  *check = fusec_field_check{};
  check->program = "";
  check->field = name != nullptr ? name : "";
  check->location = location;
  check->tolerances = fusec::resolve_tolerances(tolerances, type);
  // Fields without points are f[k]: one "point" per level.
  int32_t points = horizontal ? num_points : 1;
  int64_t stride = horizontal ? ld : 1;
  switch (type) {
  case FUSEC_F64:
    fusec::compare_field(static_cast<const double *>(values),
                         static_cast<const double *>(reference), points, stride, num_neighbors,
                         num_levels, check);
    break;
  case FUSEC_F32:
    fusec::compare_field(static_cast<const float *>(values), static_cast<const float *>(reference),
                         points, stride, num_neighbors, num_levels, check);
    break;
  case FUSEC_I32:
    fusec::compare_field(static_cast<const int32_t *>(values),
                         static_cast<const int32_t *>(reference), points, stride, num_neighbors,
                         num_levels, check);
    break;
  case FUSEC_BOOL:
    fusec::compare_field(static_cast<const bool *>(values), static_cast<const bool *>(reference),
                         points, stride, num_neighbors, num_levels, check);
    break;
  }
  return check->num_failures == 0 ? FUSEC_SUCCESS : FUSEC_ERROR_VERIFICATION;
}

int64_t fusec_blocked_size(int32_t num_points, int64_t nproma, int32_t num_neighbors,
                           int32_t num_levels) {
  if (num_points < 0 || nproma <= 0 || num_neighbors < 0 || num_levels < 0)
    return 0;
  return nproma * fusec::block_count(num_points, nproma) *
         (num_neighbors > 0 ? num_neighbors : 1) * (num_levels > 0 ? num_levels : 1);
}

} // extern "C"

namespace {

int copy_blocked(const char *function, fusec_element_type type, int32_t num_points, int64_t ld,
                 int32_t num_neighbors, int32_t num_levels, int64_t nproma, const void *source,
                 void *destination, bool to_blocked) {
  fusec::FieldLayout layout;
  if (source == nullptr || destination == nullptr || !valid_type(type) || num_points <= 0 ||
      nproma <= 0 || nproma > INT32_MAX ||
      !field_layout(num_points, ld, num_neighbors, num_levels, layout))
    return fail(FUSEC_ERROR_INVALID_ARGUMENT,
                std::string(function) +
                    ": needs both arrays, an element type, nproma > 0 and a valid shape (" +
                    describe_shape(num_points, ld, num_neighbors, num_levels) +
                    ", nproma " + std::to_string(nproma) + ")");
  switch (type) {
  case FUSEC_F64:
    fusec::copy_between_layouts(static_cast<const double *>(source),
                                static_cast<double *>(destination), num_points, ld, nproma,
                                num_neighbors, num_levels, to_blocked);
    break;
  case FUSEC_F32:
    fusec::copy_between_layouts(static_cast<const float *>(source),
                                static_cast<float *>(destination), num_points, ld, nproma,
                                num_neighbors, num_levels, to_blocked);
    break;
  case FUSEC_I32:
    fusec::copy_between_layouts(static_cast<const int32_t *>(source),
                                static_cast<int32_t *>(destination), num_points, ld, nproma,
                                num_neighbors, num_levels, to_blocked);
    break;
  case FUSEC_BOOL:
    fusec::copy_between_layouts(static_cast<const bool *>(source),
                                static_cast<bool *>(destination), num_points, ld, nproma,
                                num_neighbors, num_levels, to_blocked);
    break;
  }
  return FUSEC_SUCCESS;
}

} // namespace

extern "C" {

int fusec_copy_to_blocked(fusec_element_type type, int32_t num_points, int64_t ld,
                          int32_t num_neighbors, int32_t num_levels, int64_t nproma,
                          const void *flat, void *blocked) {
  return copy_blocked("fusec_copy_to_blocked", type, num_points, ld, num_neighbors, num_levels,
                      nproma, flat, blocked, /*to_blocked=*/true);
}

int fusec_copy_from_blocked(fusec_element_type type, int32_t num_points, int64_t ld,
                            int32_t num_neighbors, int32_t num_levels, int64_t nproma,
                            const void *blocked, void *flat) {
  return copy_blocked("fusec_copy_from_blocked", type, num_points, ld, num_neighbors,
                      num_levels, nproma, blocked, flat, /*to_blocked=*/false);
}

const char *fusec_last_error(void) { return last_error.c_str(); }

} // extern "C"
