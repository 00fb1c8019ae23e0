/* fusec runtime: a C API for drivers written in C or Fortran (C99 and C++; library
 * fusec_runtime). It makes ICON grids and their mesh descriptors, fills fields with seeded
 * random values, reads and writes NumPy .npy files, and compares fields as P_run_and_verify
 * does, all in the caller's layout: element (h, n, k) of a field at h + n*ld + k*ld*N, with
 * ld >= num_points (nproma padding is left untouched).
 *
 * Field shapes are given as (num_points, ld, num_neighbors, num_levels): num_points 0 for a
 * field without horizontal dimension (then f[k], ld ignored), num_neighbors 0 for a dense
 * field, num_levels 0 for a field without levels.
 *
 * Functions return a fusec_status (0 on success); fusec_last_error() then says what failed. */
#ifndef FUSEC_C_API_H
#define FUSEC_C_API_H

#include "fusec/kernel_support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fusec_grid fusec_grid;

/* A grid by name, as fusec-grid takes it: "r2b4", "lam-r2b4[:radius[@lat,lon]]", "grid.nc".
 * NULL on failure. */
fusec_grid *fusec_grid_create(const char *name);
void fusec_grid_destroy(fusec_grid *grid);
/* The descriptor P_create takes; valid until fusec_grid_destroy. */
const fusec_mesh *fusec_grid_mesh(const fusec_grid *grid);
int32_t fusec_grid_num_points(const fusec_grid *grid, int32_t location);
/* [*start, *end) of an icon4py zone ("LATERAL_BOUNDARY_LEVEL_2", "NUDGING", "INTERIOR",
 * "LOCAL", "HALO", "END", ...) of a location. */
int fusec_grid_zone(const fusec_grid *grid, int32_t location, const char *zone, int32_t *start,
                    int32_t *end);

/* Uniform values in [low, high) (f64 or f32 fields), from the stream of (seed, name), as
 * fusec-bench generates them: the same seed and name give the same values everywhere. */
int fusec_random_field(uint64_t seed, const char *name, double low, double high,
                       fusec_element_type type, int32_t num_points, int64_t ld,
                       int32_t num_neighbors, int32_t num_levels, void *data);

/* .npy files in the runtime's field mapping (docs/runtime.md): the file holds the field
 * without its padding. */
int fusec_npy_load(const char *path, fusec_element_type type, int32_t num_points, int64_t ld,
                   int32_t num_neighbors, int32_t num_levels, void *data);
int fusec_npy_save(const char *path, fusec_element_type type, int32_t num_points, int64_t ld,
                   int32_t num_neighbors, int32_t num_levels, const void *data);
/* A 0-d (or one-element) array of the given type into *value. */
int fusec_npy_load_scalar(const char *path, fusec_element_type type, void *value);

/* Compares `values` with `reference` as P_run_and_verify does (tolerances NULL or negative
 * entries: the type's defaults) and fills *check (check->field = name, check->program = "");
 * FUSEC_ERROR_VERIFICATION when a value differs. */
int fusec_check_field(const char *name, fusec_element_type type, int32_t location,
                      int32_t num_points, int64_t ld, int32_t num_neighbors, int32_t num_levels,
                      const void *values, const void *reference, const fusec_tolerances *tolerances,
                      fusec_field_check *check);

/* ICON's blocked CPU layout (fusec_layout.nproma > 0): a field of num_points points is
 * f(nproma, [N,] [L,] nblks) with nblks = ceil(num_points / nproma), point h at jc = h % nproma
 * of block jb = h / nproma. The number of elements of such a field (its last block padded). */
int64_t fusec_blocked_size(int32_t num_points, int64_t nproma, int32_t num_neighbors,
                           int32_t num_levels);
/* Copies a field of the flat layout (leading dimension ld >= num_points) into the blocked
 * layout, and back: points only, the destination's padding is left as it is. */
int fusec_copy_to_blocked(fusec_element_type type, int32_t num_points, int64_t ld,
                          int32_t num_neighbors, int32_t num_levels, int64_t nproma,
                          const void *flat, void *blocked);
int fusec_copy_from_blocked(fusec_element_type type, int32_t num_points, int64_t ld,
                            int32_t num_neighbors, int32_t num_levels, int64_t nproma,
                            const void *blocked, void *flat);

/* What the last failing call of this thread failed on ("" if none). */
const char *fusec_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FUSEC_C_API_H */
