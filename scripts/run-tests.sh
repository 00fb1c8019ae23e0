#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every test suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j "${FUSEC_JOBS:-2}" "$@"
