# Prints every declaration of mutable state outside a function in clang-formatted C++ or CUDA
# (non-const variables at namespace scope, which start in column 0, and `static` locals) and
# exits 1 if there is one. Statements inside functions and struct members are indented;
# declarations with '(' are functions.
/^[^ \t}#\/]/ && /;$/ && !/\(/ && !/^(static )?(const|constexpr) / && !/^(using|typedef|struct) / {
  print FILENAME ":" FNR ": " $0
  found = 1
}
/^[ \t]+(static|thread_local) / && !/\(/ && !/(static|thread_local) (const|constexpr) / {
  print FILENAME ":" FNR ": " $0
  found = 1
}
END { exit found }
