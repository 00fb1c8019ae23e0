//===- Passes.h - fusec optimisation passes ---------------------*- C++ -*-===//

#ifndef FUSEC_PASSES_PASSES_H
#define FUSEC_PASSES_PASSES_H

#include "ir/StnOps.h"

#include "mlir/Pass/Pass.h"

namespace fusec {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace fusec

#endif // FUSEC_PASSES_PASSES_H
