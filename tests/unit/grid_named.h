//===- grid_named.h - generated grids shared by the runtime's unit tests -*- C++ -*-===//

#ifndef FUSEC_TESTS_UNIT_GRID_NAMED_H
#define FUSEC_TESTS_UNIT_GRID_NAMED_H

#include "fusec/grid_generator.h"

#include <map>
#include <string>

namespace fusec::testing {

/// The grid `make_grid(name)` makes, generated once per test binary.
inline const Grid &grid_named(const std::string &name) {
  static std::map<std::string, Grid> grids;
  auto it = grids.find(name);
  if (it == grids.end())
    it = grids.emplace(name, std::move(make_grid(name)).value()).first;
  return it->second;
}

} // namespace fusec::testing

#endif // FUSEC_TESTS_UNIT_GRID_NAMED_H
