/* c_driver.c: a C99 caller of the diffusion library that fusec_add_stencils built, the way
 * ICON's own code would call it: fields padded to one leading dimension (nproma) for every
 * location, one instance per program created once, run, verified, timed.
 *
 *   c_driver GRID NLEV OUTPUT_DIR     (writes OUTPUT_DIR/metrics.json and z_temp.npy)
 *
 * Checks calculate_nabla2_of_theta (a k-blocked kernel through C2E) against a reference
 * computed here, copy_field_half_levels on nlev + 1 levels, the padding (never read: it holds
 * NaN; never written), P_run_and_verify with a corrupted result, the error codes, the timers,
 * and the C API's zones and .npy files. Then prints, never asserts, the cost of one P_run call on
 * an empty domain next to a call on the whole grid. Exits with 1 when a check fails. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include "diffusion.h"
#include "fusec/c_api.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;

#define EXPECT(condition, ...)                                                                     \
  do {                                                                                             \
    if (!(condition)) {                                                                            \
      fprintf(stderr, "c_driver: FAILED (line %d): ", __LINE__);                                   \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

/* A field in the caller's layout: element (h, n, k) at h + n*ld + k*ld*neighbors. */
typedef struct Field {
  double *data;
  int32_t points, neighbors, levels;
  int64_t ld;
} Field;

static size_t field_size(const Field *field) {
  return (size_t)field->ld * (size_t)(field->neighbors > 0 ? field->neighbors : 1) *
         (size_t)(field->levels > 0 ? field->levels : 1);
}

/* Every element NaN (so reading the padding would poison results), then the points uniform in
 * [-1, 1) from the stream of `name`. */
static Field random_field(const char *name, int32_t points, int64_t ld, int32_t neighbors,
                          int32_t levels) {
  Field field = {NULL, points, neighbors, levels, ld};
  size_t size = field_size(&field);
  field.data = malloc(size * sizeof(double));
  if (field.data == NULL) {
    fprintf(stderr, "c_driver: out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < size; ++i)
    field.data[i] = NAN;
  int status =
      fusec_random_field(7, name, -1.0, 1.0, FUSEC_F64, points, ld, neighbors, levels, field.data);
  EXPECT(status == FUSEC_SUCCESS, "fusec_random_field(%s): %s", name, fusec_last_error());
  return field;
}

static Field copy_field(const Field *field) {
  Field copy = *field;
  size_t bytes = field_size(field) * sizeof(double);
  copy.data = malloc(bytes);
  if (copy.data == NULL) {
    fprintf(stderr, "c_driver: out of memory\n");
    exit(1);
  }
  memcpy(copy.data, field->data, bytes);
  return copy;
}

/* Whether every padding element (h >= points) is still NaN. */
static int padding_untouched(const Field *field) {
  size_t rows = field_size(field) / (size_t)field->ld;
  for (size_t row = 0; row < rows; ++row)
    for (int64_t h = field->points; h < field->ld; ++h)
      if (!isnan(field->data[(size_t)h + row * (size_t)field->ld]))
        return 0;
  return 1;
}

static int check_values(const char *name, const Field *values, const Field *reference) {
  fusec_field_check check;
  int status =
      fusec_check_field(name, FUSEC_F64, FUSEC_CELL, values->points, values->ld, values->neighbors,
                        values->levels, values->data, reference->data, NULL, &check);
  EXPECT(status == FUSEC_SUCCESS,
         "%s: %lld of %lld values differ from the reference, worst at point %d, level %d: %.17g "
         "instead of %.17g",
         name, (long long)check.num_failures, (long long)check.num_values, check.worst_point,
         check.worst_level, check.worst_value, check.worst_reference);
  return status == FUSEC_SUCCESS;
}

/* What the verification callback last received. */
static fusec_field_check reported;
static int reports = 0;

static void record_check(const fusec_field_check *check, void *user_data) {
  (void)user_data;
  reported = *check;
  ++reports;
}

static double seconds_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static void check_error_codes(const fusec_mesh *mesh, int32_t nlev) {
  EXPECT(calculate_nabla2_of_theta_run(NULL, NULL, NULL, NULL, 0, 0, 0, 0) ==
             FUSEC_ERROR_NOT_SET_UP,
         "P_run without an instance");
  calculate_nabla2_of_theta_handle *instance = NULL;
  EXPECT(calculate_nabla2_of_theta_create(NULL, nlev, NULL, &instance) ==
                 FUSEC_ERROR_INVALID_ARGUMENT &&
             instance == NULL,
         "P_create without a mesh");
  fusec_layout too_small = {{1, 1, 1}, 0};
  EXPECT(calculate_nabla2_of_theta_create_with_layout(mesh, nlev, &too_small, NULL, &instance) ==
                 FUSEC_ERROR_INVALID_ARGUMENT &&
             instance == NULL,
         "a leading dimension below the number of points");
  EXPECT(strstr(calculate_nabla2_of_theta_error_message(FUSEC_ERROR_VERIFICATION),
                "verification") != NULL,
         "the message of FUSEC_ERROR_VERIFICATION");
}

/* A padded field saved as .npy (without its padding) reads back into a tight layout. */
static void check_npy_round_trip(const Field *field, const char *output_dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/z_temp.npy", output_dir);
  EXPECT(fusec_npy_save(path, FUSEC_F64, field->points, field->ld, field->neighbors, field->levels,
                        field->data) == FUSEC_SUCCESS,
         "fusec_npy_save: %s", fusec_last_error());
  Field tight =
      random_field("tight", field->points, field->points, field->neighbors, field->levels);
  EXPECT(fusec_npy_load(path, FUSEC_F64, tight.points, tight.ld, tight.neighbors, tight.levels,
                        tight.data) == FUSEC_SUCCESS,
         "fusec_npy_load: %s", fusec_last_error());
  for (int32_t k = 0; k < field->levels; ++k)
    for (int32_t h = 0; h < field->points; ++h)
      if (tight.data[h + k * tight.ld] != field->data[h + k * field->ld]) {
        EXPECT(0, "the .npy round trip changed point %d, level %d", h, k);
        k = field->levels;
        break;
      }
  EXPECT(fusec_npy_load("no/such/file.npy", FUSEC_F64, tight.points, tight.ld, 0, tight.levels,
                        tight.data) == FUSEC_ERROR_IO &&
             strstr(fusec_last_error(), "no/such/file.npy") != NULL,
         "loading a missing file: %s", fusec_last_error());
  free(tight.data);
}

/* z_temp = sum over C2E of z_nabla2_e * geofac_div on cells [lo, points), levels [1, nlev). */
static void check_nabla2_of_theta(const fusec_mesh *mesh, const fusec_layout *layout, int32_t nlev,
                                  const char *output_dir) {
  int32_t cells = mesh->num_points[FUSEC_CELL], edges = mesh->num_points[FUSEC_EDGE];
  int64_t ld = layout->ld[FUSEC_CELL];
  int32_t lo = cells / 4, hi = cells, k_lo = 1, k_hi = nlev;
  calculate_nabla2_of_theta_handle *nabla2 = NULL;
  EXPECT(calculate_nabla2_of_theta_create_with_layout(mesh, nlev, layout, NULL, &nabla2) ==
             FUSEC_SUCCESS,
         "creating calculate_nabla2_of_theta");
  Field z_nabla2_e = random_field("z_nabla2_e", edges, layout->ld[FUSEC_EDGE], 0, nlev);
  Field geofac_div = random_field("geofac_div", cells, ld, 3, 0);
  Field z_temp = random_field("z_temp", cells, ld, 0, nlev);
  Field z_temp_before = copy_field(&z_temp);

  EXPECT(calculate_nabla2_of_theta_run(nabla2, z_nabla2_e.data, geofac_div.data, z_temp.data, lo,
                                       hi, k_lo, k_hi) == FUSEC_SUCCESS,
         "calculate_nabla2_of_theta_run");

  /* The reference: the same sum in the same order; outside the domain the values before. */
  Field reference = copy_field(&z_temp_before);
  const fusec_connectivity *c2e = fusec_mesh_find(mesh, "C2E");
  for (int32_t k = k_lo; k < k_hi; ++k)
    for (int32_t c = lo; c < hi; ++c) {
      double sum = 0.0;
      for (int32_t j = 0; j < 3; ++j) {
        int32_t e = c2e->table[c + (int64_t)j * c2e->ld];
        sum += z_nabla2_e.data[e + k * z_nabla2_e.ld] * geofac_div.data[c + j * ld];
      }
      reference.data[c + k * ld] = sum;
    }
  check_values("z_temp", &z_temp, &reference);
  EXPECT(padding_untouched(&z_temp), "z_temp: the padding was written");
  check_npy_round_trip(&z_temp, output_dir);

  /* Verification: the caller's results pass; one corrupted value is reported where it is. */
  calculate_nabla2_of_theta_set_verification_callback(nabla2, record_check, NULL);
  reports = 0;
  int status = calculate_nabla2_of_theta_run_and_verify(
      nabla2, z_nabla2_e.data, geofac_div.data, z_temp.data, lo, hi, k_lo, k_hi, z_temp_before.data, NULL);
  EXPECT(status == FUSEC_SUCCESS && reports == 1 && reported.num_failures == 0 &&
             strcmp(reported.field, "z_temp") == 0 && reported.num_values == (int64_t)cells * nlev,
         "run_and_verify of correct results: status %d, %d reports", status, reports);
  int32_t bad_point = cells / 2, bad_level = 3;
  z_temp.data[bad_point + bad_level * ld] += 1e-6;
  status = calculate_nabla2_of_theta_run_and_verify(nabla2, z_nabla2_e.data, geofac_div.data, z_temp.data,
                                                    lo, hi, k_lo, k_hi, z_temp_before.data, NULL);
  EXPECT(status == FUSEC_ERROR_VERIFICATION && reported.num_failures == 1 &&
             reported.worst_point == bad_point && reported.worst_level == bad_level &&
             reported.worst_neighbor == -1 && reported.location == FUSEC_CELL &&
             strcmp(reported.program, "calculate_nabla2_of_theta") == 0,
         "run_and_verify of a corrupted result: status %d, %lld failures at point %d level %d",
         status, (long long)reported.num_failures, reported.worst_point, reported.worst_level);
  fusec_tolerances loose = {-1.0, 1e-3}; /* default rtol, atol above the corruption */
  status = calculate_nabla2_of_theta_run_and_verify(nabla2, z_nabla2_e.data, geofac_div.data, z_temp.data,
                                                    lo, hi, k_lo, k_hi, z_temp_before.data, &loose);
  EXPECT(status == FUSEC_SUCCESS && reported.tolerances.atol == 1e-3 &&
             reported.tolerances.rtol == 1e-12,
         "run_and_verify within caller-given tolerances: status %d", status);
  /* Without a callback the report goes to stderr (visible in the test log). */
  calculate_nabla2_of_theta_set_verification_callback(nabla2, NULL, NULL);
  fprintf(stderr, "c_driver: expect one verification report of z_temp below\n");
  EXPECT(calculate_nabla2_of_theta_run_and_verify(nabla2, z_nabla2_e.data, geofac_div.data, z_temp.data, lo,
                                                  hi, k_lo, k_hi, z_temp_before.data,
                                                  NULL) == FUSEC_ERROR_VERIFICATION,
         "run_and_verify reporting to stderr");

  /* Timers: three timed runs, then the instance's JSON. */
  calculate_nabla2_of_theta_enable_timers(nabla2, 1);
  for (int run = 0; run < 3; ++run)
    calculate_nabla2_of_theta_run(nabla2, z_nabla2_e.data, geofac_div.data, z_temp.data, lo, hi,
                                  k_lo, k_hi);
  calculate_nabla2_of_theta_enable_timers(nabla2, 0);
  char metrics_path[4096];
  snprintf(metrics_path, sizeof metrics_path, "%s/metrics.json", output_dir);
  EXPECT(calculate_nabla2_of_theta_write_metrics(nabla2, metrics_path) == FUSEC_SUCCESS,
         "writing %s", metrics_path);

  calculate_nabla2_of_theta_destroy(nabla2);
  free(z_nabla2_e.data);
  free(geofac_div.data);
  free(z_temp.data);
  free(z_temp_before.data);
  free(reference.data);
}

/* A half-level field has nlev + 1 levels, all of them copied; the padding stays NaN. */
static void check_half_levels(const fusec_mesh *mesh, const fusec_layout *layout, int32_t nlev) {
  int32_t cells = mesh->num_points[FUSEC_CELL];
  int64_t ld = layout->ld[FUSEC_CELL];
  copy_field_half_levels_handle *copy = NULL;
  EXPECT(copy_field_half_levels_create_with_layout(mesh, nlev, layout, NULL, &copy) ==
             FUSEC_SUCCESS,
         "creating copy_field_half_levels");
  Field old_f = random_field("old_f", cells, ld, 0, nlev + 1);
  Field new_f = random_field("new_f", cells, ld, 0, nlev + 1);
  EXPECT(copy_field_half_levels_run(copy, old_f.data, new_f.data, 0, cells) == FUSEC_SUCCESS,
         "copy_field_half_levels_run");
  check_values("new_f", &new_f, &old_f);
  EXPECT(padding_untouched(&new_f), "new_f: the padding was written");
  copy_field_half_levels_destroy(copy);
  free(old_f.data);
  free(new_f.data);
}

/* Seconds per call of `run`, the best of three rounds of `calls` calls. */
typedef int (*Runner)(void *arguments);

static double time_calls(Runner run, void *arguments, int calls) {
  double best = INFINITY;
  for (int round = 0; round < 3; ++round) {
    double start = seconds_now();
    for (int call = 0; call < calls; ++call)
      run(arguments);
    double elapsed = (seconds_now() - start) / calls;
    best = elapsed < best ? elapsed : best;
  }
  return best;
}

typedef struct Nabla4Arguments {
  calculate_nabla4_handle *instance;
  Field u_vert, v_vert, primal_normal_vert_v1, primal_normal_vert_v2, z_nabla2_e,
      inv_vert_vert_length, inv_primal_edge_length, z_nabla4_e2;
  int32_t h_end, v_end;
} Nabla4Arguments;

static int run_nabla4(void *opaque) {
  Nabla4Arguments *a = opaque;
  return calculate_nabla4_run(a->instance, a->u_vert.data, a->v_vert.data, a->primal_normal_vert_v1.data,
                              a->primal_normal_vert_v2.data, a->z_nabla2_e.data,
                              a->inv_vert_vert_length.data, a->inv_primal_edge_length.data,
                              a->z_nabla4_e2.data, 0, a->h_end, 0, a->v_end);
}

/* The cost of one call of calculate_nabla4 (E2C2V, 12 parameters) on an empty domain and on
 * every edge and level. */
static void benchmark(const char *grid_name, const fusec_mesh *mesh, const fusec_layout *layout,
                      int32_t nlev) {
  int32_t edges = mesh->num_points[FUSEC_EDGE], vertices = mesh->num_points[FUSEC_VERTEX];
  int64_t ld_e = layout->ld[FUSEC_EDGE], ld_v = layout->ld[FUSEC_VERTEX];
  Nabla4Arguments a;
  a.u_vert = random_field("u_vert", vertices, ld_v, 0, nlev);
  a.v_vert = random_field("v_vert", vertices, ld_v, 0, nlev);
  a.primal_normal_vert_v1 = random_field("primal_normal_vert_v1", edges, ld_e, 4, 0);
  a.primal_normal_vert_v2 = random_field("primal_normal_vert_v2", edges, ld_e, 4, 0);
  a.z_nabla2_e = random_field("z_nabla2_e", edges, ld_e, 0, nlev);
  a.inv_vert_vert_length = random_field("inv_vert_vert_length", edges, ld_e, 0, 0);
  a.inv_primal_edge_length = random_field("inv_primal_edge_length", edges, ld_e, 0, 0);
  a.z_nabla4_e2 = random_field("z_nabla4_e2", edges, ld_e, 0, nlev);
  a.instance = NULL;
  EXPECT(calculate_nabla4_create_with_layout(mesh, nlev, layout, NULL, &a.instance) ==
             FUSEC_SUCCESS,
         "creating calculate_nabla4");
  a.v_end = nlev;
  a.h_end = edges;
  EXPECT(run_nabla4(&a) == FUSEC_SUCCESS, "calculate_nabla4_run");
  double whole = time_calls(run_nabla4, &a, 20);
  a.h_end = 0;
  double empty = time_calls(run_nabla4, &a, 200000);
  const char *threads = getenv("OMP_NUM_THREADS");
  printf("P_run cost of calculate_nabla4 (C++ backend, %s: %d edges x %d levels, "
         "OMP_NUM_THREADS=%s):\n"
         "  empty domain: %8.3f us per call\n"
         "  whole domain: %8.1f us per call\n",
         grid_name, edges, nlev, threads != NULL ? threads : "unset", 1e6 * empty, 1e6 * whole);
  calculate_nabla4_destroy(a.instance);
  Field *fields[] = {&a.u_vert,
                     &a.v_vert,
                     &a.primal_normal_vert_v1,
                     &a.primal_normal_vert_v2,
                     &a.z_nabla2_e,
                     &a.inv_vert_vert_length,
                     &a.inv_primal_edge_length,
                     &a.z_nabla4_e2};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
    free(fields[i]->data);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: c_driver GRID NLEV OUTPUT_DIR\n");
    return 2;
  }
  const char *grid_name = argv[1], *output_dir = argv[3];
  int32_t nlev = atoi(argv[2]);
  fusec_grid *grid = fusec_grid_create(grid_name);
  if (grid == NULL) {
    fprintf(stderr, "c_driver: %s\n", fusec_last_error());
    return 1;
  }
  const fusec_mesh *mesh = fusec_grid_mesh(grid);
  /* One leading dimension for every location, beyond the largest, as ICON's nproma. */
  int64_t nproma = 0;
  for (int location = 0; location < 3; ++location)
    if (fusec_grid_num_points(grid, location) > nproma)
      nproma = fusec_grid_num_points(grid, location);
  nproma += 13;
  fusec_layout layout = {{nproma, nproma, nproma}, 0}; /* flat layout, nproma padding */

  int32_t local_start = -1, local_end = -1;
  EXPECT(fusec_grid_zone(grid, FUSEC_CELL, "LOCAL", &local_start, &local_end) == FUSEC_SUCCESS &&
             local_start == 0 && local_end == mesh->num_points[FUSEC_CELL],
         "the LOCAL zone of cells: [%d, %d)", local_start, local_end);
  EXPECT(fusec_grid_zone(grid, FUSEC_CELL, "NOWHERE", &local_start, &local_end) ==
             FUSEC_ERROR_INVALID_ARGUMENT,
         "an unknown zone");
  check_error_codes(mesh, nlev);
  check_nabla2_of_theta(mesh, &layout, nlev, output_dir);
  check_half_levels(mesh, &layout, nlev);
  benchmark(grid_name, mesh, &layout, nlev);
  fusec_grid_destroy(grid);
  if (failures > 0) {
    fprintf(stderr, "c_driver: %d checks failed\n", failures);
    return 1;
  }
  printf("c_driver: all checks passed\n");
  return 0;
}
