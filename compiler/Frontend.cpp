//===- Frontend.cpp - from .stn source to the stn dialect -----------------===//

#include "compiler/Frontend.h"
#include "compiler/MLIRGen.h"
#include "compiler/Sema.h"
#include "compiler/SourceLoader.h"

using namespace fusec;

static mlir::OwningOpRef<mlir::ModuleOp>
translate(llvm::function_ref<bool(SourceLoader &, ast::TranslationUnit &)> load,
          const FrontendOptions &options, llvm::SourceMgr &sourceMgr,
          mlir::MLIRContext &context, llvm::raw_ostream &errs) {
  DiagnosticEngine diag(sourceMgr, errs, options.maxErrors);
  ast::TranslationUnit unit;
  SourceLoader loader(diag, options.includeDirs);
  if (!load(loader, unit) || diag.hasErrors())
    return nullptr;
  if (!Sema(diag, options.defines).check(unit))
    return nullptr;
  return generateMLIR(context, unit, sourceMgr);
}

mlir::OwningOpRef<mlir::ModuleOp> fusec::translateStnFile(llvm::StringRef path,
                                                          const FrontendOptions &options,
                                                          llvm::SourceMgr &sourceMgr,
                                                          mlir::MLIRContext &context,
                                                          llvm::raw_ostream &errs) {
  return translate(
      [&](SourceLoader &loader, ast::TranslationUnit &unit) {
        return loader.loadFile(path, unit);
      },
      options, sourceMgr, context, errs);
}

mlir::OwningOpRef<mlir::ModuleOp>
fusec::translateStnSource(llvm::StringRef source, llvm::StringRef name,
                          const FrontendOptions &options, llvm::SourceMgr &sourceMgr,
                          mlir::MLIRContext &context, llvm::raw_ostream &errs) {
  return translate(
      [&](SourceLoader &loader, ast::TranslationUnit &unit) {
        return loader.loadBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, name), unit);
      },
      options, sourceMgr, context, errs);
}
