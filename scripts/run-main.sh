#!/usr/bin/env bash
# The README's main job: installs, builds, and compiles ICON's diffusion to CUDA.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
out="$root/build/out"
mkdir -p "$out"
fusec="$root/build/bin/fusec"
"$fusec" "$root/stencils/diffusion.stn" -O fuse-all -o "$out/diffusion.cu"
"$fusec" "$root/stencils/diffusion.stn" -O fuse-all -o "$out/diffusion.h"
echo "fusec: stencils/diffusion.stn -> $out/diffusion.cu ($(wc -l <"$out/diffusion.cu") lines, $(grep -c '__global__' "$out/diffusion.cu") kernels), $out/diffusion.h"
grep -E '^int [A-Za-z0-9_]+_run\(' "$out/diffusion.h" | sed 's/(.*//; s/^int /  program: /; s/_run$//' || true
if command -v nvcc >/dev/null; then
  nvcc -c -arch=sm_80 -I "$root/runtime/include" "$out/diffusion.cu" -o "$out/diffusion.o"
  echo "nvcc -arch=sm_80: compiled $out/diffusion.o"
fi
