#!/usr/bin/env bash
# Packs the GPU benchmark of ICON's diffusion into gpu-bundle/ (docs/bench.md, "GPU bundles"):
# diffusion_step first (so a run cut off by the device time still has it), then the programs it
# calls, with realistic inputs, under none, fuse-all and the configuration
# (stencils/diffusion.yaml, its cuda section), verified on lam-r2b3 against the interpreter and on
# r2b6 and the regional-size lam-r2b7:21.25 (80 levels, in that order) against none. One
# session's device time holds it in two calls, one per large grid
# (`scripts/run-gpu-bundle.sh 420 "$OUT" --grids r2b6`, about 300 s of it on r2b6, then
# `--grids lam-r2b7:21.25`, about 60 s; the runner prints each program's wall time); extra
# arguments go to `fusec-bench pack` (`--programs all` packs all 32 programs, which needs more;
# a later `--pipelines` replaces the variants, e.g. 'none,fuse-all,fuse-all+stn-k-blocking{block=4}'
# for the data a k-blocking choice needs; the configuration stays). Builds fusec first.
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
step_programs=diffusion_step,mo_intp_rbf_rbf_vec_interpol_vertex
step_programs+=,calculate_nabla2_and_smag_coefficients_for_vn
step_programs+=,calculate_nabla2_for_theta,truly_horizontal_diffusion_nabla_of_theta_on_steep_points
step_programs+=,update_theta_and_exner,calculate_diagnostic_quantities_for_turbulence
step_programs+=,apply_diffusion_to_vn,apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence
step_programs+=,calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools,scale_k
step_programs+=,apply_diffusion_to_theta_and_exner
"$root/build/bin/fusec-bench" pack "$root/gpu-bundle" "$root/stencils/diffusion.stn" \
  --programs "$step_programs" --pipelines 'none,fuse-all' \
  --config "$root/stencils/diffusion.yaml" --inputs realistic \
  --large-grids r2b6,lam-r2b7:21.25 "$@"
"$root/build/bin/fusec-bench" pack "$root/gpu-bundle/calibration" \
  "$root/scripts/calibration/cost-model.stn" -I "$root/stencils" --pipelines none
