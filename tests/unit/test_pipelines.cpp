// The textual spelling of fuse-all that fusec-bench --autotune varies runs what `fuse-all` runs.

#include "passes/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

/// The passes `spec` adds before and after the kernel lowering, as MLIR prints them.
std::string passesOf(const std::string &spec) {
  fusec::registerPipelinePasses();
  mlir::OpPassManager optimisation(mlir::ModuleOp::getOperationName());
  mlir::OpPassManager kernelForm(mlir::ModuleOp::getOperationName());
  std::string error;
  bool built = mlir::succeeded(fusec::buildOptimisationPipeline(optimisation, spec, error));
  INFO(spec << ": " << error);
  REQUIRE(built);
  fusec::buildKernelLoweringPipeline(kernelForm, spec);
  std::string printed;
  llvm::raw_string_ostream os(printed);
  optimisation.printAsTextualPipeline(os);
  os << " | ";
  kernelForm.printAsTextualPipeline(os);
  return printed;
}

} // namespace

TEST_CASE("fuse-all spelt out runs fuse-all's passes", "[pipelines]") {
  CHECK(passesOf(fusec::fuseAllPipeline()) == passesOf("fuse-all"));
}

TEST_CASE("fuse-all's variants change only what they name", "[pipelines]") {
  const std::string fuseAll = passesOf("fuse-all");
  const std::string variant = passesOf(fusec::fuseAllPipeline("{bytes-weight=2}", false, 512));
  CHECK(fuseAll.find("stn-merge-vertical") != std::string::npos);
  CHECK(variant.find("stn-merge-vertical") == std::string::npos);
  CHECK(variant.find("bytes-weight=2 ") != std::string::npos);
  CHECK(variant.find("tile=512") != std::string::npos);
  CHECK(fuseAll.find("tile=1024") != std::string::npos);
  for (const char *pass : {"stn-fuse-across-lists", "stn-split-applies", "stn-uniform-if",
                           "stn-column-order", "stn-sink-to-stores", "stn-wavefront"})
    CHECK(variant.find(pass) != std::string::npos);
}
