//===- Diagnostics.cpp - error reporting for .stn sources -----------------===//

#include "compiler/Diagnostics.h"

using namespace fusec;

void DiagnosticEngine::print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                             const llvm::Twine &message) {
  if (!loc.isValid() || !sourceMgr.FindBufferContainingLoc(loc)) {
    os << "fusec: " << (kind == llvm::SourceMgr::DK_Error ? "error: " : "note: ") << message
       << "\n";
    return;
  }
  sourceMgr.PrintMessage(os, loc, kind, message);
}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message) {
  lastErrorDropped = shouldStop();
  if (lastErrorDropped)
    return;
  ++errorCount;
  print(loc, llvm::SourceMgr::DK_Error, message);
}

DiagnosticEngine::~DiagnosticEngine() {
  if (shouldStop())
    os << "fusec: error: too many errors (" << maxErrors << "), stopping\n";
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  if (!lastErrorDropped)
    print(loc, llvm::SourceMgr::DK_Note, message);
}
