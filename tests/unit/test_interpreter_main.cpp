//===- test_interpreter_main.cpp - Catch2 main and shared test helpers ----===//

#define CATCH_CONFIG_MAIN
#include "test_interpreter.h"

#include "ir/StnDialect.h"
#include "ir/StnOps.h"

#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

namespace fusec::test {

TestMesh::TestMesh(int32_t cells, int32_t edges, int32_t vertices) {
  mesh.num_points[FUSEC_CELL] = cells;
  mesh.num_points[FUSEC_EDGE] = edges;
  mesh.num_points[FUSEC_VERTEX] = vertices;
}

TestMesh &TestMesh::connect(const std::string &name, fusec_location source, fusec_location target,
                            const std::vector<std::vector<int32_t>> &rows) {
  int32_t numRows = static_cast<int32_t>(rows.size());
  int32_t width = rows.empty() ? 0 : static_cast<int32_t>(rows.front().size());
  Table &table = tables.emplace_back();
  table.name = name;
  table.entries.assign(static_cast<size_t>(numRows) * width, -1);
  for (int32_t h = 0; h < numRows; ++h)
    for (int32_t j = 0; j < width; ++j)
      table.entries[h + j * numRows] = rows[h][j];
  table.descriptor = {nullptr, source, target, width, numRows, numRows, nullptr};
  return *this;
}

TestMesh &TestMesh::reshape(const std::string &name, int32_t maxNeighbors, int32_t numRows) {
  for (Table &table : tables) {
    if (table.name != name)
      continue;
    table.descriptor.max_neighbors = maxNeighbors;
    table.descriptor.num_rows = numRows;
  }
  return *this;
}

const fusec_mesh &TestMesh::get() {
  descriptors.clear();
  for (Table &table : tables) {
    table.descriptor.name = table.name.c_str();
    table.descriptor.table = table.entries.data();
    descriptors.push_back(table.descriptor);
  }
  mesh.num_connectivities = static_cast<int32_t>(descriptors.size());
  mesh.connectivities = descriptors.data();
  return mesh;
}

TestMesh smallMesh() {
  TestMesh mesh(3, 5, 4);
  mesh.connect("E2C", FUSEC_EDGE, FUSEC_CELL, {{0, -1}, {0, 1}, {1, 2}, {2, -1}, {1, 0}});
  mesh.connect("C2E", FUSEC_CELL, FUSEC_EDGE, {{0, 1, 4}, {1, 2, 4}, {2, 3, -1}});
  mesh.connect("E2V", FUSEC_EDGE, FUSEC_VERTEX, {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}});
  mesh.connect("V2C", FUSEC_VERTEX, FUSEC_CELL, {{0, -1, 1}, {-1, -1, -1}, {2, 1, 0}, {2, -1, -1}});
  return mesh;
}

const char *const kSmallMeshDecls = R"(
  stn.connectivity @E2C : Edge -> Cell [2] skip
  stn.connectivity @C2E : Cell -> Edge [3] skip
  stn.connectivity @E2V : Edge -> Vertex [2]
  stn.connectivity @V2C : Vertex -> Cell [3] skip
)";

TestModule::TestModule(const std::string &source) {
  context.loadDialect<stn::StnDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect>();
  module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  REQUIRE(module);
}

std::string TestModule::run(const fusec_mesh &mesh, int nlev, llvm::StringRef program,
                            llvm::ArrayRef<Argument> args) {
  Interpreter interpreter(get(), mesh, nlev);
  std::string error;
  if (mlir::failed(interpreter.run(program, args, error)))
    return error.empty() ? "run failed without a message" : error;
  return "";
}

} // namespace fusec::test
