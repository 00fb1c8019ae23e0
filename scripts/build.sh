#!/usr/bin/env bash
# Configures and builds fusec into build/ (Release, Ninja, 2 jobs by default).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${FUSEC_JOBS:-2}"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$root/build" -j "$jobs"
