#!/bin/sh
# Reads the hardware counters of a GPU bundle's kernels with Nsight Compute (ncu): each program
# in PROGRAMS (comma-separated) runs on GRID with NLEV levels as fusec-bundle-run runs it with
# --repeat 1 (the reference run, each variant's exact and timed builds, then one timed run per
# variant), and ncu writes one CSV row per kernel launch and metric into
# DEST/ncu-<grid>-<program>.csv (default DEST: $OUT, else gpu-results/). Builds the bundle first
# if gpu-bundle/run.sh has not. Summarise back here with
#   scripts/summarize_ncu.py DEST/ncu-<grid>-<program>.csv
#
#   scripts/profile-gpu-bundle.sh PROGRAMS GRID NLEV [DEST]
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 3 ]; then
  sed -n '2,11p' "$0"
  exit 1
fi
programs=$1
grid=$2
nlev=$3
dest=${4:-${OUT:-$root/gpu-results}}
mkdir -p "$dest"
bundle="$root/gpu-bundle"
build=${FUSEC_BUNDLE_BUILD:-build}
if [ ! -x "$bundle/$build/fusec-bundle-run" ]; then
  "$bundle/run.sh" --small-only --repeat 0 >/dev/null
fi
# Time, traffic at each level of the memory hierarchy, occupancy and instructions per launch.
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum
metrics=$metrics,l1tex__t_bytes.sum,launch__registers_per_thread,launch__grid_size
metrics=$metrics,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
metrics=$metrics,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
metrics=$metrics,sm__throughput.avg.pct_of_peak_sustained_elapsed
metrics=$metrics,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
name=$(printf '%s' "$grid" | tr -c 'A-Za-z0-9._\n-' '_')
cd "$bundle"
status=0
for program in $(printf '%s' "$programs" | tr ',' ' '); do
  ncu --clock-control none --print-units base --metrics "$metrics" --csv --log-file "$dest/ncu-$name-$program.csv" \
    "$build/fusec-bundle-run" --libraries "$build/variants" --grid "$grid" --nlev "$nlev" \
    --programs "$program" --repeat 1 --warmup 0 --json "/tmp/ncu-run-$name-$program.json" ||
    status=1
done
exit $status
