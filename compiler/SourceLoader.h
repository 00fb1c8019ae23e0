//===- SourceLoader.h - reading .stn files and their imports ------*- C++ -*-===//

#ifndef FUSEC_COMPILER_SOURCELOADER_H
#define FUSEC_COMPILER_SOURCELOADER_H

#include "compiler/AST.h"
#include "compiler/Diagnostics.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <string>
#include <vector>

namespace fusec {

/// Reads a file, parses it and, depth first, every file it imports (each file
/// once, found relative to the importing file and then in the include
/// directories). Rejects binary files, import cycles and missing imports.
class SourceLoader {
public:
  /// Deepest chain of imports.
  static constexpr unsigned kMaxImportDepth = 64;
  /// Largest source file accepted.
  static constexpr uint64_t kMaxFileSize = 64 * 1024 * 1024;

  SourceLoader(DiagnosticEngine &diag, std::vector<std::string> includeDirs)
      : diag(diag), includeDirs(std::move(includeDirs)) {}

  /// Loads `path` as the main file of `unit`; false on errors.
  bool loadFile(llvm::StringRef path, ast::TranslationUnit &unit);
  /// Loads an in-memory main file (its imports are read from disk).
  bool loadBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer, ast::TranslationUnit &unit);

private:
  /// Parses `buffer` and its imports; returns the parsed file or null.
  ast::SourceFile *load(std::unique_ptr<llvm::MemoryBuffer> buffer, llvm::StringRef realPath,
                        ast::TranslationUnit &unit);
  void loadImport(const ast::ImportDecl &import, llvm::StringRef importingPath,
                  ast::TranslationUnit &unit);
  /// Reads a file; reports errors at `loc` (or without location).
  std::unique_ptr<llvm::MemoryBuffer> read(llvm::StringRef path, llvm::SMLoc loc);

  DiagnosticEngine &diag;
  std::vector<std::string> includeDirs;
  /// Real paths of the files loaded so far.
  llvm::StringMap<bool> loaded;
  /// Real paths of the files being loaded, outermost first.
  std::vector<std::string> importStack;
};

} // namespace fusec

#endif // FUSEC_COMPILER_SOURCELOADER_H
