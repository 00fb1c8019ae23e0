// The C mesh descriptor's lookup.
#include "fusec/mesh.h"

#include <cstring>

extern "C" const fusec_connectivity *fusec_mesh_find(const fusec_mesh *mesh, const char *name) {
  if (mesh == nullptr || name == nullptr)
    return nullptr;
  for (int32_t i = 0; i < mesh->num_connectivities; ++i) {
    const fusec_connectivity &connectivity = mesh->connectivities[i];
    if (connectivity.name != nullptr && std::strcmp(connectivity.name, name) == 0)
      return &connectivity;
  }
  return nullptr;
}
