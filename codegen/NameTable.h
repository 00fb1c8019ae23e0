//===- NameTable.h - unique identifiers for emitted code ----------*- C++ -*-===//
//
// Every identifier an emitter invents goes through a NameTable, so emitted
// names never collide with each other, with keywords or with the helpers the
// generated code calls. Names depend only on the order of requests, so output
// is deterministic.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_CODEGEN_NAMETABLE_H
#define FUSEC_CODEGEN_NAMETABLE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace fusec::codegen {

class NameTable {
public:
  /// Fortran names are case-insensitive and at most 63 characters long.
  enum class Language { C, Fortran };

  static constexpr size_t kFortranMaxLength = 63;

  /// A table holding the language's keywords and the names generated code uses.
  explicit NameTable(Language language = Language::C);

  /// Marks `name` as used; returns false if it already was.
  bool reserve(llvm::StringRef name);

  /// Marks the C library's functions as used: a file-level identifier must
  /// not take one, while a local one may (generated code calls none of them).
  void reserveCLibraryFunctions();

  /// A fresh identifier close to `hint`: sanitised, then suffixed (_1, _2, ...)
  /// until unused. The result is marked as used.
  std::string unique(llvm::StringRef hint);

  /// Whether `unique(hint)` of a C table can return `identifier`: the sanitised hint, or it
  /// with a numeric suffix. Tools use it to find the IR name behind an emitted one.
  static bool canName(llvm::StringRef identifier, llvm::StringRef hint);

private:
  std::string key(llvm::StringRef name) const;

  Language language;
  llvm::StringSet<> taken;
};

/// True when `name` is a valid C identifier.
bool isCIdentifier(llvm::StringRef name);

} // namespace fusec::codegen

#endif // FUSEC_CODEGEN_NAMETABLE_H
