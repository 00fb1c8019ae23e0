# Sourced by scripts/run-sanitizers.sh and scripts/run-fuzzer.sh: the AddressSanitizer +
# UndefinedBehaviorSanitizer build of fusec (clang-19, LeakSanitizer included) in
# build-sanitize/, with the libFuzzer targets, and the environment its tests run in.
#
# Every C and C++ target of fusec is instrumented; CMake links with the compile flags, so
# clang adds its sanitizer runtime to every executable. The same compilers and flags are
# exported (CC, CXX, CFLAGS, CXXFLAGS) for the projects the integration tests configure outside
# this build (tests/cmake, tests/fortran): they link the instrumented FuseC::runtime, so their C
# and C++ code (the emitted stencils, the C driver) is instrumented too. gfortran compiles their
# Fortran uninstrumented, and no link flags are exported (LDFLAGS): CMake would record the GCC
# sanitizer runtimes gfortran links as Fortran's implicit libraries, and two ASan runtimes
# cannot share a process. The Fortran consumer's executable mixes Fortran with the C++
# library, so CMake links it with clang++ and the C++ flags, which add clang's runtime.
# fusec-bench compiles emitted C++ with $CXX (clang++-19) and the flags in
# FUSEC_BENCH_CXXFLAGS, so the kernels it loads into its own, instrumented process are checked
# too.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sanitize_build="$root/build-sanitize"
sanitize_flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

export CC=clang-19 CXX=clang++-19
export CFLAGS="$sanitize_flags" CXXFLAGS="$sanitize_flags"
export FUSEC_BENCH_CXXFLAGS="$sanitize_flags"
# A report aborts the process (abort_on_error), so that it is a crash and never mistaken for
# the exit status 1 of a diagnosed error (lit's `not`, scripts/fuzz_frontend.py).
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs and unpoisons each
# allocation when its header is compiled with ASan, which our code is and Debian's LLVM/MLIR
# libraries are not; a slab that an instrumented copy of the allocator started and an
# uninstrumented one hands out stays poisoned, and every MLIRContext fails with a false
# use-after-poison in its first dialect. Heap, stack and global checks are unaffected.
symbolizer="$(command -v llvm-symbolizer-19 || echo /usr/lib/llvm-19/bin/llvm-symbolizer)"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:allow_user_poisoning=0:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:strict_string_checks=1:external_symbolizer_path=$symbolizer"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:report_error_type=1"

# Configures (RelWithDebInfo at -O1 with line tables: useful stack traces, moderate slowdown;
# NDEBUG as Debian's LLVM/MLIR libraries are built) and builds build-sanitize/.
build_sanitized() {
  local opt="-O1 -gline-tables-only -DNDEBUG"
  cmake -S "$root" -B "$sanitize_build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
    -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="$opt" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$opt" \
    -DFUSEC_BUILD_FUZZERS=ON >/dev/null
  ninja -C "$sanitize_build" -j "${FUSEC_JOBS:-2}"
}
