#!/usr/bin/env bash
# instances-threads-tsan, instances-team-tsan, instances-wavefront-tsan: the instances driver
# under ThreadSanitizer. Builds the emitted C++ and the driver with clang++ -fsanitize=thread
# -fopenmp (LLVM's libomp, whose Archer tool tells TSan about OpenMP's synchronisation) and runs
# `instances_driver MODE 4`. Exits 77 (skipped) when clang++, TSan or Archer is unavailable.
#
#   run_tsan.sh CLANGXX RUNTIME_INCLUDE GENERATED_DIR DRIVER_SOURCE WORK_DIR MODE LIBRARY...
set -euo pipefail
clangxx=$1 runtime_include=$2 generated=$3 driver=$4 work=$5 mode=$6
shift 6
skip() { echo "instances-$mode-tsan: skipped: $*"; exit 77; }

[[ -x "$clangxx" ]] || skip "no clang++ (clang-19) found"
mkdir -p "$work"
archer=$("$clangxx" -print-file-name=libarcher.so)
[[ -f "$archer" ]] || skip "LLVM's OpenMP has no Archer tool (libarcher.so)"
printf 'int main() { return 0; }\n' > "$work/probe.cpp"
"$clangxx" -fsanitize=thread -fopenmp "$work/probe.cpp" -o "$work/probe" 2>/dev/null &&
  "$work/probe" 2>/dev/null || skip "ThreadSanitizer does not build or run here"

flags=(-std=c++17 -O1 -g -fsanitize=thread -fopenmp -w -I "$runtime_include" -I "$generated")
"$clangxx" "${flags[@]}" -c "$generated/diffusion.cpp" -o "$work/diffusion.o"
"$clangxx" "${flags[@]}" -c "$generated/team.cpp" -o "$work/team.o"
"$clangxx" "${flags[@]}" -c "$generated/wavefront.cpp" -o "$work/wavefront.o"
"$clangxx" "${flags[@]}" "$driver" "$work/diffusion.o" "$work/team.o" "$work/wavefront.o" "$@" \
  -o "$work/instances_driver"
# Reports in the uninstrumented OpenMP runtime are not the program's.
export TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1"
export OMP_TOOL_LIBRARIES="$archer"
"$work/instances_driver" "$mode" 4
