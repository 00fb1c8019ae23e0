#!/usr/bin/env bash
# Fuzzes fusec with libFuzzer (tests/fuzz/fuzz_stn.cpp: the frontend, the fuse-all pipeline,
# the kernel lowering and the emitters on arbitrary bytes), under ASan, UBSan and LSan:
#
#   scripts/run-fuzzer.sh [-runs=N | -max_total_time=S] [libFuzzer options...]
#
# (default -runs=1000000). Builds build-sanitize/ (scripts/sanitize-env.sh), seeds with every
# .stn file in the repository and the regression inputs, keeps the corpus it grows in
# build-sanitize/fuzz/corpus (a later run goes on from it) and writes crashing, leaking and
# slow (-timeout, 10 s) inputs to build-sanitize/fuzz/artifacts/. Inputs are at most 8 KiB
# (-max_len; one given to the script wins): whole copies of diffusion.stn (58 KiB), which
# compile and go through every emitter in seconds under the sanitizers, would otherwise take
# most of the time; ctest replays diffusion.stn whole.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" libclang-rt-19-dev libomp-19-dev
source "$root/scripts/sanitize-env.sh"
build_sanitized

fuzz="$sanitize_build/fuzz"
mkdir -p "$fuzz/corpus" "$fuzz/seeds" "$fuzz/artifacts"
shopt -s nullglob
cp "$root"/stencils/*.stn "$root"/tests/frontend/*.stn "$root"/tests/frontend/Inputs/*.stn \
  "$root"/tests/fuzz/regressions/* "$fuzz/seeds/"
[ $# -gt 0 ] || set -- -runs=1000000
"$sanitize_build/bin/fusec-fuzz-stn" "$fuzz/corpus" "$fuzz/seeds" \
  -dict="$root/tests/fuzz/stn.dict" -artifact_prefix="$fuzz/artifacts/" \
  -timeout=10 -max_len=8192 -print_final_stats=1 "$@"
