//===- SourceLoader.cpp - reading .stn files and their imports ------------===//

#include "compiler/SourceLoader.h"
#include "compiler/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace fusec;
using namespace fusec::ast;

std::unique_ptr<llvm::MemoryBuffer> SourceLoader::read(llvm::StringRef path, llvm::SMLoc loc) {
  llvm::sys::fs::file_status status;
  if (std::error_code error = llvm::sys::fs::status(path, status)) {
    diag.error(loc, "cannot read '" + path + "': " + error.message());
    return nullptr;
  }
  if (!llvm::sys::fs::is_regular_file(status)) {
    diag.error(loc, "'" + path + "' is not a regular file");
    return nullptr;
  }
  if (status.getSize() > kMaxFileSize) {
    diag.error(loc, "'" + path + "' is too large for a source file");
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/true);
  if (!buffer) {
    diag.error(loc, "cannot read '" + path + "': " + buffer.getError().message());
    return nullptr;
  }
  return std::move(*buffer);
}

bool SourceLoader::loadFile(llvm::StringRef path, TranslationUnit &unit) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = read(path, {});
  if (!buffer)
    return false;
  llvm::SmallString<256> realPath;
  if (llvm::sys::fs::real_path(path, realPath))
    realPath = path;
  unit.mainFile = load(std::move(buffer), realPath, unit);
  return unit.mainFile && !diag.hasErrors();
}

bool SourceLoader::loadBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                              TranslationUnit &unit) {
  std::string name = buffer->getBufferIdentifier().str();
  unit.mainFile = load(std::move(buffer), name, unit);
  return unit.mainFile && !diag.hasErrors();
}

SourceFile *SourceLoader::load(std::unique_ptr<llvm::MemoryBuffer> buffer,
                               llvm::StringRef realPath, TranslationUnit &unit) {
  llvm::SourceMgr &sourceMgr = diag.getSourceMgr();
  llvm::StringRef text = buffer->getBuffer();
  std::string displayPath = buffer->getBufferIdentifier().str();
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  // A NUL byte means the file is not text; the lexer would report every
  // byte of it.
  if (const void *nul = std::memchr(text.data(), 0, text.size())) {
    diag.error(llvm::SMLoc::getFromPointer(static_cast<const char *>(nul)),
               "'" + displayPath + "' contains a NUL byte; it is not a text file");
    return nullptr;
  }
  auto file = std::make_unique<SourceFile>();
  file->path = displayPath;
  file->bufferId = bufferId;
  Parser(text, diag).parseFile(*file);
  loaded[realPath] = true;
  importStack.push_back(realPath.str());
  for (const DeclPtr &decl : file->decls) {
    if (diag.shouldStop())
      break;
    if (const auto *import = llvm::dyn_cast<ImportDecl>(decl.get()))
      loadImport(*import, displayPath, unit);
  }
  importStack.pop_back();
  unit.files.push_back(std::move(file));
  return unit.files.back().get();
}

void SourceLoader::loadImport(const ImportDecl &import, llvm::StringRef importingPath,
                              TranslationUnit &unit) {
  llvm::SMLoc loc = import.name.loc;
  if (import.path.empty()) {
    diag.error(loc, "empty import path");
    return;
  }
  // Relative to the importing file, then in each -I directory.
  llvm::SmallVector<std::string, 4> candidates;
  if (llvm::sys::path::is_absolute(import.path)) {
    candidates.push_back(import.path);
  } else {
    llvm::SmallString<256> local(llvm::sys::path::parent_path(importingPath));
    llvm::sys::path::append(local, import.path);
    candidates.push_back(local.str().str());
    for (const std::string &dir : includeDirs) {
      llvm::SmallString<256> candidate(dir);
      llvm::sys::path::append(candidate, import.path);
      candidates.push_back(candidate.str().str());
    }
  }
  const std::string *found = nullptr;
  for (const std::string &candidate : candidates)
    if (llvm::sys::fs::exists(candidate)) {
      found = &candidate;
      break;
    }
  if (!found) {
    std::string searched;
    for (const std::string &candidate : candidates)
      searched += (searched.empty() ? "" : ", ") + candidate;
    diag.error(loc, "cannot find '" + import.path + "' (looked for " + searched + ")");
    return;
  }
  llvm::SmallString<256> realPath;
  if (llvm::sys::fs::real_path(*found, realPath))
    realPath = *found;
  if (auto cycleStart = llvm::find(importStack, realPath.str()); cycleStart != importStack.end()) {
    std::string cycle;
    for (const std::string &file : llvm::make_range(cycleStart, importStack.end()))
      cycle += llvm::sys::path::filename(file).str() + " -> ";
    diag.error(loc, "import cycle: " + cycle + llvm::sys::path::filename(realPath));
    return;
  }
  if (loaded.count(realPath))
    return;
  if (importStack.size() >= kMaxImportDepth) {
    diag.error(loc, "imports are nested more than " + llvm::Twine(kMaxImportDepth) + " deep");
    return;
  }
  if (std::unique_ptr<llvm::MemoryBuffer> buffer = read(*found, loc))
    load(std::move(buffer), realPath, unit);
}
