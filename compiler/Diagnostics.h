//===- Diagnostics.h - error reporting for .stn sources ---------*- C++ -*-===//
//
// Every frontend error goes through DiagnosticEngine so that it prints as
// `file:line:col: error: message`, the source line and a caret, and so that
// compilation stops after a bounded number of errors.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEC_COMPILER_DIAGNOSTICS_H
#define FUSEC_COMPILER_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace fusec {

class DiagnosticEngine {
public:
  /// Errors after the `maxErrors`-th are dropped and `shouldStop()` turns true.
  DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os, unsigned maxErrors = 20)
      : sourceMgr(sourceMgr), os(os), maxErrors(maxErrors) {}
  /// Says that errors were dropped, after the last note.
  ~DiagnosticEngine();

  /// Reports an error at `loc`; an invalid `loc` prints `fusec: error: ...`.
  void error(llvm::SMLoc loc, const llvm::Twine &message);
  /// A note that explains the previous error (dropped with it when too many).
  void note(llvm::SMLoc loc, const llvm::Twine &message);

  unsigned getErrorCount() const { return errorCount; }
  bool hasErrors() const { return errorCount != 0; }
  /// True once the error limit is reached: callers stop as soon as they can.
  bool shouldStop() const { return errorCount >= maxErrors; }

  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  void print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind, const llvm::Twine &message);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned maxErrors;
  unsigned errorCount = 0;
  bool lastErrorDropped = false;
};

} // namespace fusec

#endif // FUSEC_COMPILER_DIAGNOSTICS_H
