#!/usr/bin/env bash
# fusec against GT4Py's gtfn_cpu (ICON4Py's diffusion programs from PyPI) on the same inputs:
# builds fusec-bench if it is missing, then runs scripts/compare_gtfn.py with the arguments
# given (default: r2b5, 80 levels, random inputs, 1 and 2 threads, 3 and 2 rounds). Writes
# build/compare-gtfn/compare-gtfn.{json,md}. docs/bench.md, "fusec against GT4Py's gtfn_cpu".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -z "${FUSEC_BENCH:-}" ] && [ ! -x "$root/build/bin/fusec-bench" ]; then
  "$root/scripts/install-deps.sh"
  "$root/scripts/build.sh"
fi
exec python3 "$root/scripts/compare_gtfn.py" "$@"
