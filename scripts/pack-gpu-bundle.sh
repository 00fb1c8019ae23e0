#!/usr/bin/env bash
# Packs the GPU benchmark of ICON's diffusion into gpu-bundle/ (docs/bench.md, "GPU bundles"):
# every program of stencils/diffusion.stn under none, fuse-all and the configuration
# (stencils/diffusion.yaml, its cuda section), verified on lam-r2b3 against the interpreter and
# on r2b6 and the regional-size lam-r2b7:21.25 (80 levels) against none. Builds fusec first.
# gpu-bundle/calibration/ holds the programs that calibrate the fusion cost model for CUDA
# (scripts/calibrate_cost_model.py). Then, on a machine with a GPU, CMake and nvcc:
#   scripts/run-gpu-bundle.sh [SECONDS]   (or gpu-bundle/run.sh; gpu-bundle/calibration/run.sh)
# and back here:
#   build/bin/fusec-bench report gpu-bundle/results/r2b6.json --markdown r2b6.md
#   build/bin/fusec-bench report gpu-bundle/calibration/results/r2b6.json --json cal.json
#   scripts/calibrate_cost_model.py --from-json cal.json
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
rm -rf "$root/gpu-bundle"
"$root/build/bin/fusec-bench" pack "$root/gpu-bundle" "$root/stencils/diffusion.stn" \
  --programs all --pipelines none,fuse-all --config "$root/stencils/diffusion.yaml" "$@"
"$root/build/bin/fusec-bench" pack "$root/gpu-bundle/calibration" \
  "$root/scripts/calibration/cost-model.stn" -I "$root/stencils" --pipelines none
