#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# cudablobs end to end: an NV12 CUDA-memory chain at 1920x1080,
# cudamedian size=5 ! cudamorph operation=tophat shape=disk radius=7,
# without and with cudablobs threshold=40 after it (its results read back
# every frame: the message read by a bus sync handler, the custom meta on
# every buffer), N = 1 and 16 pipelines in one process (bench-pipeline
# --streams N). The ratio is the chain's frames/s with cudablobs over
# without (the goal: >= 80 %); "no results" rows turn the message and the
# meta off (what the host's work on the results costs); "queue" rows put a
# queue before cudablobs, so that the chain upstream queues the next frame
# while cudablobs waits for its results (the stream synchronisation that
# reading them on the host needs). "overlap" rows set overlap=on: on
# cudablobs alone (its frame stays on the GPU while the next is queued,
# its results read as it leaves), then on every element, measured against
# the chain without cudablobs with overlap=on on both filters.
#
#   tests/bench/bench-blobs-chain.sh BUILD_DIR [N ...]
#
# Writes a table to stdout; BENCH_FRAMES (3000) frames per stream, the
# first BENCH_WARMUP (300) not timed.
set -uo pipefail
# shellcheck source=tests/bench/bench-cameras.sh
. "$(dirname "$0")/bench-cameras.sh"
bench_args '4,16p' "$@"
[ ${#counts[@]} -eq 4 ] && [ "${counts[*]}" = "1 4 8 16" ] && counts=(1 16)
bench=$build/tests/bench/bench-pipeline
[ -x "$bench" ] || { echo "no $bench: build first" >&2; exit 1; }
export GST_PLUGIN_PATH=$PWD/$build/gst
size=("${bench_size[@]}")

base="cudamedian size=5 ! cudamorph operation=tophat shape=disk radius=7"
base_on="cudamedian size=5 overlap=on ! cudamorph operation=tophat \
shape=disk radius=7 overlap=on"
names=("without cudablobs" "with cudablobs" "with cudablobs, no results"
  "queue, then cudablobs" "with cudablobs overlap=on"
  "without cudablobs, overlap=on" "with cudablobs, overlap=on everywhere")
chains=("$base" "$base ! cudablobs threshold=40"
  "$base ! cudablobs threshold=40 post-messages=false attach-meta=false"
  "$base ! queue max-size-buffers=4 ! cudablobs threshold=40"
  "$base ! cudablobs threshold=40 overlap=on"
  "$base_on" "$base_on ! cudablobs threshold=40 overlap=on")

fps_of() { sed -nE 's/.*; ([0-9.]+) over the common window.*/\1/p' | tail -1; }

echo "## NV12 CUDA memory, 1920x1080: $base [! cudablobs threshold=40]"
echo "| N | chain | frames/s (all streams) | of the chain without | device span per frame (stream 0) |"
echo "| --- | --- | --- | --- | --- |"
for n in "${counts[@]}"; do
  ref=""
  for c in "${!chains[@]}"; do
    out=$("$bench" "${size[@]}" --format NV12 --memory cuda --streams "$n" \
      "${chains[$c]}" 2>&1)
    fps=$(fps_of <<<"$out")
    span=$(sed -nE 's/device span per frame[^:]*: ([0-9.]+ us).*/\1/p' <<<"$out")
    [ -z "$fps" ] && tail -2 <<<"$out" >&2
    # the overlapped chain against the overlapped chain without cudablobs
    [ $c = 0 ] || [ $c = 5 ] && ref=$fps
    ratio=$(awk -v a="${fps:-0}" -v b="${ref:-0}" \
      'BEGIN { if (b > 0) printf "%.0f %%", 100 * a / b; else print "-" }')
    echo "| $n | ${names[$c]} | ${fps:-failed} | $ratio | ${span:--} |"
  done
done
