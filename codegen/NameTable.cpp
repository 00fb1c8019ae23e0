//===- NameTable.cpp - unique identifiers for emitted code ----------------===//

#include "codegen/NameTable.h"

#include "codegen/CEmitterCommon.h"

#include "llvm/ADT/StringExtras.h"

using llvm::StringRef;

namespace fusec::codegen {

/// C, C++ and CUDA keywords and predefined names, plus what generated code
/// names itself: types, macros, CUDA built-ins and helper namespaces.
// clang-format off
static const char *const kCReserved[] = {
    "alignas", "alignof", "and", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
    "catch", "char", "class", "compl", "const", "const_cast", "constexpr", "continue",
    "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
    "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline",
    "int", "long", "mutable", "namespace", "new", "noexcept", "not", "nullptr", "operator", "or",
    "private", "protected", "public", "register", "reinterpret_cast", "restrict", "return",
    "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
    "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
    "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "xor",
    "_Bool", "main", "std", "fusec", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
    "uint16_t", "uint32_t", "uint64_t", "size_t", "ptrdiff_t", "INFINITY", "HUGE_VAL", "NAN",
    "INT32_MIN", "INT32_MAX", "INT64_MIN", "INT64_MAX", "INT64_C", "NULL", "assert", "errno",
    "dim3", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "min", "max",
    "cudaStream_t", "fusec_mesh", "fusec_connectivity", "fusec_location",
    "fusec_status_message", "fusec_exchange_field", "fusec_exchange_callback",
    "fusec_element_type", "fusec_mesh_find", "fusec_layout", "fusec_tolerances",
    "fusec_field_check", "fusec_verification_callback", "FUSEC_SUCCESS", "FUSEC_NO_LOCATION",
    "FUSEC_CELL", "FUSEC_EDGE", "FUSEC_VERTEX", "FUSEC_F64", "FUSEC_F32", "FUSEC_I32",
    "FUSEC_BOOL", "FUSEC_ERROR_NOT_SET_UP", "FUSEC_ERROR_DOMAIN", "FUSEC_ERROR_EXCHANGE"};

/// C library functions that <math.h>, <stdlib.h>, <string.h> and <stdio.h>
/// may declare in the global namespace (beyond the math functions).
static const char *const kCLibraryFunctions[] = {
    "div", "ldiv", "lldiv", "labs", "exit", "abort", "free", "malloc", "calloc", "realloc",
    "atoi", "atof", "rand", "srand", "qsort", "bsearch", "getenv", "system", "printf",
    "sprintf", "puts", "time", "clock", "signal", "raise", "memcpy", "memset", "strlen",
    "strcmp", "index", "rindex", "y0", "y1", "yn", "j0", "j1", "jn", "gamma", "lgamma",
    "tgamma", "remainder", "remquo", "fdim", "nan", "nearbyint", "lrint", "llrint", "lround",
    "llround", "frexp", "ldexp", "modf", "scalbn", "ilogb", "logb", "hypot", "fpclassify",
    "isfinite", "isinf", "isnormal", "erfc", "sincos", "exp10", "drem", "significand",
    "finite"};
// clang-format on

/// Fortran has no reserved words, but dummy arguments must not hide the
/// intrinsic module's names the interfaces use.
static const char *const kFortranReserved[] = {"c_ptr",         "c_funptr", "c_int",   "c_int32_t",
                                               "c_int64_t",     "c_double", "c_float", "c_bool",
                                               "iso_c_binding", "status"};

NameTable::NameTable(Language language) : language(language) {
  if (language == Language::C) {
    for (const char *name : kCReserved)
      reserve(name);
    forEachMathFunction([&](StringRef name) { reserve(name); });
    return;
  }
  for (const char *name : kFortranReserved)
    reserve(name);
}

std::string NameTable::key(StringRef name) const {
  return language == Language::Fortran ? name.lower() : name.str();
}

void NameTable::reserveCLibraryFunctions() {
  for (const char *name : kCLibraryFunctions)
    reserve(name);
}

bool NameTable::reserve(StringRef name) { return taken.insert(key(name)).second; }

/// Letters, digits and underscores; starts with a letter (a leading
/// underscore is reserved in C and invalid in Fortran).
static std::string sanitize(StringRef hint) {
  std::string name;
  for (char c : hint)
    name.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  size_t start = name.find_first_not_of('_');
  name = start == std::string::npos ? std::string() : name.substr(start);
  if (name.empty() || llvm::isDigit(name.front()))
    name.insert(0, "v");
  return name;
}

std::string NameTable::unique(StringRef hint) {
  std::string base = sanitize(hint);
  if (language == Language::Fortran && base.size() > kFortranMaxLength)
    base.resize(kFortranMaxLength);
  if (reserve(base))
    return base;
  for (unsigned suffix = 1;; ++suffix) {
    std::string tail = "_" + std::to_string(suffix);
    std::string candidate = base;
    if (language == Language::Fortran && candidate.size() + tail.size() > kFortranMaxLength)
      candidate.resize(kFortranMaxLength - tail.size());
    candidate += tail;
    if (reserve(candidate))
      return candidate;
  }
}

bool NameTable::canName(StringRef identifier, StringRef hint) {
  std::string base = sanitize(hint);
  if (!identifier.consume_front(base))
    return false;
  if (identifier.empty())
    return true;
  return identifier.consume_front("_") && !identifier.empty() &&
         llvm::all_of(identifier, llvm::isDigit);
}

bool isCIdentifier(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

} // namespace fusec::codegen
