#!/bin/sh
# fusec GPU bundle: builds with CMake and nvcc, verifies every variant (small grid against the
# reference interpreter's packed outputs; each large grid against variant `none`), times them
# with CUDA events next to the copy kernel's bandwidth, and writes results/<grid>.json for
# `fusec-bench report` (docs/bench.md, "GPU bundles").
#
#   ./run.sh [--host] [--repeat N] [--warmup W] [--programs P1,P2] [--small-only]
#            [--grids SPEC1,SPEC2]
#
# --host compiles the CUDA as host C++ (fusec/cuda_host) for a machine without a GPU.
# --grids runs only those of the packed large grids (by grid spec, e.g. r2b6), in that order.
# CUDA_ARCHITECTURES (default: native) picks the GPU architecture; FUSEC_BUNDLE_BUILD the
# build directory (default build). Exit status 0 when every variant verified.
set -eu
cd "$(dirname "$0")"

host=OFF
repeat=10
warmup=2
programs=
small_only=no
grids=
while [ $# -gt 0 ]; do
  case $1 in
    --host) host=ON ;;
    --repeat) repeat=$2; shift ;;
    --warmup) warmup=$2; shift ;;
    --programs) programs=$2; shift ;;
    --small-only) small_only=yes ;;
    --grids) grids=$2; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "run.sh: error: unknown option '$1' (see ./run.sh --help)" >&2; exit 1 ;;
  esac
  shift
done

build=${FUSEC_BUNDLE_BUILD:-build}
generator=
if command -v ninja >/dev/null 2>&1; then generator="-G Ninja"; fi
arch=
if [ -n "${CUDA_ARCHITECTURES:-}" ]; then arch="-DCMAKE_CUDA_ARCHITECTURES=$CUDA_ARCHITECTURES"; fi
start=$(date +%s)
# shellcheck disable=SC2086 # word splitting of the optional flags is intended
cmake -S . -B "$build" $generator -DCMAKE_BUILD_TYPE=Release -DFUSEC_BUNDLE_HOST=$host $arch \
  >"$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >"$build.log" 2>&1 ||
  { tail -n 60 "$build.log"; exit 1; }
echo "run.sh: built in $(( $(date +%s) - start )) s"

# The large grids to run: all packed ones, or those --grids names, in its order.
packed=$("$build/fusec-bundle-run" --list-grids)
chosen=$packed
if [ -n "$grids" ]; then
  chosen=
  for want in $(printf '%s' "$grids" | tr ',' ' '); do
    match=
    for grid in $packed; do
      if [ "${grid%/*}" = "$want" ]; then match=$grid; fi
    done
    if [ -z "$match" ]; then
      echo "run.sh: error: the bundle has no large grid '$want' (packed:" $packed")" >&2
      exit 1
    fi
    chosen="$chosen $match"
  done
fi

mkdir -p results
status=0
selection=
if [ -n "$programs" ]; then selection="--programs $programs"; fi
# shellcheck disable=SC2086
"$build/fusec-bundle-run" --libraries "$build/variants" --small small --repeat "$repeat" \
  --warmup "$warmup" $selection --json results/small.json || status=1
if [ "$small_only" = no ]; then
  for grid in $chosen; do
    spec=${grid%/*}
    nlev=${grid#*/}
    name=$(printf '%s' "$spec" | tr -c 'A-Za-z0-9._\n-' '_')
    # shellcheck disable=SC2086
    "$build/fusec-bundle-run" --libraries "$build/variants" --grid "$spec" --nlev "$nlev" \
      --repeat "$repeat" --warmup "$warmup" $selection --json "results/$name.json" || status=1
  done
fi
echo "run.sh: $(( $(date +%s) - start )) s in all; results in $(pwd)/results"
exit $status
