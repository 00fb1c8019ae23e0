// The mesh of tiny_mesh.h for drivers in other languages: `tiny_mesh()` (a fusec_mesh *).
#include "tiny_mesh.h"

extern "C" const fusec_mesh *tiny_mesh() {
  static TinyMesh mesh;
  return &mesh.mesh;
}
