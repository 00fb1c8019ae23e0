#!/usr/bin/env bash
# Random-program differential testing of fusec (docs/fuzzing.md): generated programs on a
# limited-area and a global grid under every pipeline, on the interpreter and compiled C++,
# against the interpreter on the unoptimised program.
#
#   scripts/fuzz-programs.sh --count 10000
#   scripts/fuzz-programs.sh --minutes 60 --reduce --keep-dir fuzz-failures
#
# Builds nothing: it runs the binaries of build/bin (--bin DIR for others). Without --seed it
# takes a new seed from the clock (and prints it), so that each campaign tests new programs;
# every other option goes to tools/fusec-fuzz/fusec-fuzz (--jobs, --backends, --keep-dir,
# --reduce, --regressions-dir, --coverage, ...). Exits 1 when anything failed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

args=("$@")
has() {
  local arg
  for arg in "${args[@]}"; do
    [[ $arg == "$1" || $arg == "$1="* ]] && return 0
  done
  return 1
}
if ! has --bin; then
  args=(--bin "$root/build/bin" "${args[@]}")
fi
if ! has --seed; then
  seed=$(date +%s)
  echo "fuzz-programs.sh: seed $seed"
  args=(--seed "$seed" "${args[@]}")
fi
exec "$root/tools/fusec-fuzz/fusec-fuzz" "${args[@]}"
