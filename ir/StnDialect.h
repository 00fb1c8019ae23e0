//===- StnDialect.h - the stn dialect ---------------------------*- C++ -*-===//

#ifndef FUSEC_IR_STNDIALECT_H
#define FUSEC_IR_STNDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"

#include "ir/StnDialect.h.inc"

#endif // FUSEC_IR_STNDIALECT_H
