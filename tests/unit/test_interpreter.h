//===- test_interpreter.h - helpers for the interpreter's unit tests -------===//

#ifndef FUSEC_TESTS_UNIT_TEST_INTERPRETER_H
#define FUSEC_TESTS_UNIT_TEST_INTERPRETER_H

#include "codegen/interpreter/Interpreter.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <deque>
#include <string>
#include <vector>

namespace fusec::test {

/// A hand-made mesh: point counts per location and tables given row by row.
class TestMesh {
public:
  TestMesh(int32_t cells, int32_t edges, int32_t vertices);

  /// Adds a table; `rows[h][j]` is neighbour j of point h (-1 = missing).
  TestMesh &connect(const std::string &name, fusec_location source, fusec_location target,
                    const std::vector<std::vector<int32_t>> &rows);
  /// Overrides a table's declared shape, to test the interpreter's checks.
  TestMesh &reshape(const std::string &name, int32_t maxNeighbors, int32_t numRows);

  /// The descriptor; valid while this object lives and no table is added.
  const fusec_mesh &get();

private:
  struct Table {
    std::string name;
    fusec_connectivity descriptor;
    std::vector<int32_t> entries;
  };
  std::deque<Table> tables;
  std::vector<fusec_connectivity> descriptors;
  fusec_mesh mesh{};
};

/// The mesh most tests use: 3 cells, 5 edges, 4 vertices.
///   E2C (skip)    e0:(0,-1) e1:(0,1) e2:(1,2) e3:(2,-1) e4:(1,0)
///   C2E (skip)    c0:(0,1,4) c1:(1,2,4) c2:(2,3,-1)
///   E2V           e0:(0,1) e1:(1,2) e2:(2,3) e3:(3,0) e4:(0,2)
///   V2C (skip)    v0:(0,-1,1) v1:(-1,-1,-1) v2:(2,1,0) v3:(2,-1,-1)
TestMesh smallMesh();

/// The connectivity declarations matching smallMesh().
extern const char *const kSmallMeshDecls;

/// `body` after the declarations of smallMesh()'s connectivities.
inline std::string withDecls(const std::string &body) {
  return std::string(kSmallMeshDecls) + body;
}

/// A parsed module of stn, arith, math and scf ops.
class TestModule {
public:
  explicit TestModule(const std::string &source);

  mlir::ModuleOp get() { return *module; }
  /// Runs `program` on a fresh interpreter; the error message, empty on success.
  std::string run(const fusec_mesh &mesh, int nlev, llvm::StringRef program,
                  llvm::ArrayRef<Argument> args);

private:
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace fusec::test

#endif // FUSEC_TESTS_UNIT_TEST_INTERPRETER_H
