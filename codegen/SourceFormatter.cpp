//===- SourceFormatter.cpp - lay out emitted C-family code ----------------===//

#include "codegen/SourceFormatter.h"

#include "mlir/IR/Diagnostics.h"

#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

namespace fusec::codegen {

static clang::format::FormatStyle emittedCodeStyle() {
  clang::format::FormatStyle style = clang::format::getLLVMStyle();
  style.ColumnLimit = 100;
  // Keep includes in the order the emitters chose (fusec's header first).
  style.SortIncludes = clang::format::FormatStyle::SI_Never;
  return style;
}

mlir::FailureOr<std::string> formatCppSource(mlir::Location loc, llvm::StringRef code) {
  clang::format::FormatStyle style = emittedCodeStyle();
  clang::tooling::Range whole(0, code.size());
  clang::tooling::Replacements replacements = clang::format::reformat(style, code, {whole});
  llvm::Expected<std::string> formatted = clang::tooling::applyAllReplacements(code, replacements);
  if (!formatted)
    return mlir::emitError(loc) << "cannot lay out the emitted code: "
                                << llvm::toString(formatted.takeError());
  return std::move(*formatted);
}

} // namespace fusec::codegen
