#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Many cameras on one GPU: two chains at 1920x1080 with N = 1, 4, 8, 16
# pipelines in one process (bench-pipeline --streams N) and in N processes
# (bench-processes.sh), rates over the window from the first stream's
# start to the last one's end; and the chain's device span per frame in
# the one-pipeline run (one frame in 16 timed with CUDA events on each
# element's stream, first operation to last, summed over the elements: it
# includes the device's idle gaps between launches, so it is not the
# kernels' own time).
#
#   tests/bench/bench-streams.sh BUILD_DIR [N ...]
#
# Writes a table to stdout; BENCH_FRAMES (3000) frames per stream, the
# first BENCH_WARMUP (300) not timed.
set -uo pipefail
# shellcheck source=tests/bench/bench-cameras.sh
. "$(dirname "$0")/bench-cameras.sh"
bench_args '4,13p' "$@"
bench=$build/tests/bench/bench-pipeline
[ -x "$bench" ] || { echo "no $bench: build first" >&2; exit 1; }
export GST_PLUGIN_PATH=$PWD/$build/gst
size=("${bench_size[@]}")

chain_cuda=$bench_chain
chain_pool="cudamedian size=5"
names=("NV12 CUDA memory, 3 elements" "GRAY8 pool producer, cudamedian size=5")
opts=("--format NV12 --memory cuda" "--format GRAY8 --producer pool")
chains=("$chain_cuda" "$chain_pool")

# the frames of all streams (processes) over the window from the first
# one's start to the last one's end
sum_of() { sed -nE 's/.*; ([0-9.]+) over the common window.*/\1/p;s/.*processes: ([0-9.]+) frames\/s in all.*/\1/p' | tail -1; }

for c in 0 1; do
  echo "## ${names[$c]}: ${chains[$c]}"
  bound=""
  echo "| N | one process, N streams (frames/s, all streams) | N processes (frames/s, all processes) |"
  echo "| --- | --- | --- |"
  for n in "${counts[@]}"; do
    # shellcheck disable=SC2086
    out=$("$bench" "${size[@]}" ${opts[$c]} --streams "$n" "${chains[$c]}" 2>&1)
    a=$(sum_of <<<"$out")
    [ "$n" = 1 ] && bound=$(grep -o 'device span per frame.*' <<<"$out")
    # shellcheck disable=SC2086
    b=$(tests/bench/bench-processes.sh "$build" "$n" "${size[@]}" ${opts[$c]} "${chains[$c]}" 2>&1 | sum_of)
    echo "| $n | ${a:-failed} | ${b:-failed} |"
  done
  echo "${bound:-device span per frame: not measured}"
  echo
done
