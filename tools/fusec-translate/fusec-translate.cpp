//===- fusec-translate.cpp - kernel-form stn to source files --------------===//
//
// mlir-translate for fusec's emitters: reads a kernel-form module and writes
// CUDA (--stn-to-cuda), C++ with OpenMP (--stn-to-cpp), the C header
// (--stn-to-header) or the Fortran module (--stn-to-fortran).
//
//===----------------------------------------------------------------------===//

#include "codegen/Emitters.h"
#include "ir/StnDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

static void registerStnDialects(mlir::DialectRegistry &registry) {
  registry.insert<fusec::stn::StnDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect>();
}

static void registerStnTranslations() {
  static mlir::TranslateFromMLIRRegistration cuda(
      "stn-to-cuda", "kernel-form stn to CUDA kernels and their C interface (.cu)", fusec::emitCuda,
      registerStnDialects);
  static mlir::TranslateFromMLIRRegistration cpp(
      "stn-to-cpp", "kernel-form stn to C++17 with OpenMP and its C interface (.cpp)",
      fusec::emitCpp, registerStnDialects);
  static mlir::TranslateFromMLIRRegistration header(
      "stn-to-header", "the C interface of kernel-form stn programs (.h, C99 and C++)",
      fusec::emitHeader, registerStnDialects);
  static mlir::TranslateFromMLIRRegistration fortran(
      "stn-to-fortran", "Fortran bind(c) interfaces of kernel-form stn programs (.f90)",
      fusec::emitFortran, registerStnDialects);
}

int main(int argc, char **argv) {
  registerStnTranslations();
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "fusec source emitters\n")) ? 1 : 0;
}
