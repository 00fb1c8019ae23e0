#!/usr/bin/env bash
# The README's benchmark command: builds fusec, compares none, fuse-all and the autotuned
# configuration (stencils/diffusion.yaml) on every program of stencils/diffusion.stn (the 7
# programs ICON's diffusion calls, their component stencils, the helpers and diffusion_step) on
# R2B5 with 80 levels (C++ backend), next to ICON's OpenACC timers; writes the table, JSON,
# Markdown and the speed-up chart to build/benchmarks/; then runs the timing tests
# (tests/timing, lit --param timing=on). About 5 minutes on 2 cores after the build.
# docs/bench.md describes the outputs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

out="$root/build/benchmarks"
mkdir -p "$out"
"$root/build/bin/fusec-bench" run "$root/stencils/diffusion.stn" --programs all \
  --grid r2b5 --nlev 80 --pipelines none,fuse-all --config "$root/stencils/diffusion.yaml" \
  --repeat 5 --warmup 1 \
  --compare-openacc "$root/tests/timing/Inputs/openacc-ch1-medium.json" \
  --json "$out/diffusion-r2b5.json" --markdown "$out/diffusion-r2b5.md" \
  | tee "$out/diffusion-r2b5.txt"
python3 "$root/scripts/plot_bench.py" "$out/diffusion-r2b5.json" "$out/diffusion-r2b5.png"
echo "run-benchmarks: wrote $out/diffusion-r2b5.{txt,json,md,png}"

lit -sv -j 1 --param site_config="$root/build/tests/lit.site.cfg.py" --param timing=on \
  "$root/tests/timing"
