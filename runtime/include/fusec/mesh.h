/* fusec runtime: the mesh descriptor handed to generated code (C99 and C++).
 * Owned by the runtime: never includes compiler or MLIR headers. */
#ifndef FUSEC_MESH_H
#define FUSEC_MESH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Horizontal locations, in the order used by every per-location array. */
typedef enum fusec_location {
  FUSEC_CELL = 0,
  FUSEC_EDGE = 1,
  FUSEC_VERTEX = 2
} fusec_location;

/* One neighbour table: table[h + n*ld] is neighbour n of point h (0-based), -1 = missing. */
typedef struct fusec_connectivity {
  const char *name;        /* ICON name, e.g. "E2C2V" */
  fusec_location source;   /* location of h */
  fusec_location target;   /* location of the neighbours */
  int32_t max_neighbors;   /* number of columns */
  int32_t num_rows;        /* number of source points */
  int32_t ld;              /* leading dimension, >= num_rows */
  const int32_t *table;    /* host pointer */
} fusec_connectivity;

typedef struct fusec_mesh {
  int32_t num_points[3];   /* indexed by fusec_location */
  int32_t num_connectivities;
  const fusec_connectivity *connectivities;
} fusec_mesh;

/* The table named `name`, or NULL. */
const fusec_connectivity *fusec_mesh_find(const fusec_mesh *mesh, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* FUSEC_MESH_H */
