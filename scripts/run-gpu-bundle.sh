#!/bin/sh
# Runs the bundles that scripts/pack-gpu-bundle.sh packed (gpu-bundle/ and gpu-bundle/calibration/)
# on a GPU machine within SECONDS (default 540), the diffusion bundle first, the calibration with
# what is left, and copies the results and one log into DEST (default $OUT, the device tool's
# output folder, else gpu-results/): small.json, r2b6.json, lam-r2b7_21.25.json, cal-*.json and
# run.log. A bundle cut off by the deadline leaves the results it finished. Arguments after DEST
# go to gpu-bundle/run.sh (e.g. --grids r2b6 --programs P1,P2, to split a bundle over calls).
#
#   scripts/run-gpu-bundle.sh [SECONDS] [DEST] [run.sh options]
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
budget=${1:-540}
dest=${2:-${OUT:-$root/gpu-results}}
shift $(( $# < 2 ? $# : 2 ))
mkdir -p "$dest"
log="$dest/run.log"
start=$(date +%s)
left() { echo $(( budget - ($(date +%s) - start) )); }

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
    --format=csv 2>&1
  nvcc --version 2>&1 | tail -n 2
  cmake --version 2>&1 | head -n 1
} >"$log"

# The diffusion bundle may take all but a minute; the calibration gets the rest.
main_limit=$(( $(left) - 60 ))
echo "== gpu-bundle/run.sh (limit ${main_limit} s)" >>"$log"
timeout "$main_limit" "$root/gpu-bundle/run.sh" --repeat 20 --warmup 3 "$@" >>"$log" 2>&1
echo "== gpu-bundle/run.sh exit status $?" >>"$log"
for f in "$root"/gpu-bundle/results/*.json; do
  [ -e "$f" ] && cp "$f" "$dest/"
done

cal_limit=$(( $(left) - 10 ))
if [ -d "$root/gpu-bundle/calibration" ] && [ "$cal_limit" -gt 30 ]; then
  echo "== gpu-bundle/calibration/run.sh (limit ${cal_limit} s)" >>"$log"
  timeout "$cal_limit" "$root/gpu-bundle/calibration/run.sh" --repeat 20 --warmup 3 >>"$log" 2>&1
  echo "== gpu-bundle/calibration/run.sh exit status $?" >>"$log"
  for f in "$root"/gpu-bundle/calibration/results/*.json; do
    [ -e "$f" ] && cp "$f" "$dest/cal-$(basename "$f")"
  done
fi
echo "== $(( $(date +%s) - start )) s in all" >>"$log"
cat "$log"
