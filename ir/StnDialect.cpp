//===- StnDialect.cpp - the stn dialect -----------------------------------===//

#include "ir/StnDialect.h"
#include "ir/StnOps.h"
#include "ir/StnTypes.h"

using namespace mlir;
using namespace fusec::stn;

#include "ir/StnDialect.cpp.inc"

void StnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ir/StnOps.cpp.inc"
      >();
  registerTypes();
}
