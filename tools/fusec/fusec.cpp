//===- fusec.cpp - the fusec compiler -------------------------------------===//

#include "compiler/Driver.h"

int main(int argc, char **argv) { return fusec::fusecMain(argc, argv); }
