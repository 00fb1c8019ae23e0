//===- fusec-opt.cpp - mlir-opt for the stn dialect -----------------------===//

#include "ir/StnDialect.h"
#include "passes/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<fusec::stn::StnDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect>();
  fusec::registerPipelinePasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fusec optimiser driver\n", registry));
}
