#!/usr/bin/env bash
# Builds fusec with AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer (clang-19)
# into build-sanitize/ and runs the whole ctest suite there; arguments go to ctest
# (scripts/run-sanitizers.sh -R lit-frontend). A sanitizer report aborts the process that
# makes it, so the test running it fails. scripts/sanitize-env.sh describes the build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# clang-19's sanitizer and libFuzzer runtimes, and its OpenMP (omp.h, libomp).
"$root/scripts/install-deps.sh" libclang-rt-19-dev libomp-19-dev
source "$root/scripts/sanitize-env.sh"

start=$SECONDS
build_sanitized
built=$SECONDS
cd "$sanitize_build"
status=0
ctest --output-on-failure -j "${FUSEC_JOBS:-2}" "$@" || status=$?
echo "run-sanitizers: build $((built - start)) s, ctest $((SECONDS - built)) s"
exit $status
