#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# cudablobs end to end: an NV12 CUDA-memory chain at 1920x1080,
# cudamedian size=5 ! cudamorph operation=tophat shape=disk radius=7,
# without and with cudablobs threshold=40 after it (its results read back
# every frame: the message read by a bus sync handler, the custom meta on
# every buffer), N = 1 and 16 pipelines in one process (bench-pipeline
# --streams N). The ratio is the chain's frames/s with cudablobs over
# without (the goal: >= 80 %). "no message", "no meta" and "no results"
# rows turn the message, the meta or both off (what the host's work on the
# results costs); the "threshold=255" row sees no blob in the frame (what
# cudablobs costs whatever the frame holds); "queue" rows put a queue
# before cudablobs, so that the chain upstream queues the next frame while
# cudablobs waits for its results (the stream synchronisation that reading
# them on the host needs). "overlap" rows set overlap=on: on cudablobs
# alone (its frame stays on the GPU while the next is queued, its results
# read as it leaves), after a queue (the chain's host work and
# cudablobs' on two threads, and cudablobs' wait one frame late), then on
# every element, measured against the chain without cudablobs with
# overlap=on on both filters. The last two rows split what is left of
# the queued one: without results (the host's work on them) and with no
# blob (what cudablobs' device time and launches leave).
#
#   tests/bench/bench-blobs-chain.sh BUILD_DIR [N ...]
#
# Writes a table to stdout: each row the median of BENCH_REPS (3) runs
# and their range, the rows run in turn BENCH_REPS times over (a drift of
# the machine falls on every row alike); BENCH_FRAMES (3000) frames per
# stream, the first BENCH_WARMUP (300) not timed.
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
blobs="cudablobs threshold=40"
names=("without cudablobs" "with cudablobs" "with cudablobs, no message"
  "with cudablobs, no meta" "with cudablobs, no results"
  "with cudablobs threshold=255 (no blob)" "queue, then cudablobs"
  "with cudablobs overlap=on" "with cudablobs overlap=on, no results"
  "queue, then cudablobs overlap=on" "without cudablobs, overlap=on" "with cudablobs, overlap=on everywhere"
  "queue, then cudablobs overlap=on, no results"
  "queue, then cudablobs overlap=on threshold=255 (no blob)")
chains=("$base" "$base ! $blobs" "$base ! $blobs post-messages=false"
  "$base ! $blobs attach-meta=false"
  "$base ! $blobs post-messages=false attach-meta=false"
  "$base ! cudablobs threshold=255"
  "$base ! queue max-size-buffers=4 ! $blobs"
  "$base ! $blobs overlap=on"
  "$base ! $blobs overlap=on post-messages=false attach-meta=false"
  "$base ! queue max-size-buffers=4 ! $blobs overlap=on"
  "$base_on" "$base_on ! $blobs overlap=on"
  "$base ! queue max-size-buffers=4 ! $blobs overlap=on post-messages=false attach-meta=false"
  "$base ! queue max-size-buffers=4 ! cudablobs threshold=255 overlap=on")
# the row each is measured against: the overlapped chain without
# cudablobs for the chain overlapped everywhere
ref_of=(0 0 0 0 0 0 0 0 0 0 10 10 0 0)
reps=${BENCH_REPS:-3}

fps_of() { sed -nE 's/.*; ([0-9.]+) over the common window.*/\1/p' | tail -1; }
# the median of its arguments (a failed run counts 0)
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
  END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "## NV12 CUDA memory, 1920x1080: $base [! cudablobs threshold=40]"
echo "| N | chain | frames/s, all streams: median (lowest/highest) | of the chain without | device span per frame (stream 0) |"
echo "| --- | --- | --- | --- | --- |"
for n in "${counts[@]}"; do
  declare -A fps=() span=()
  for ((r = 0; r < reps; r++)); do
    for c in "${!chains[@]}"; do
      out=$("$bench" "${size[@]}" --format NV12 --memory cuda --streams "$n" \
        "${chains[$c]}" 2>&1)
      f=$(fps_of <<<"$out")
      [ -z "$f" ] && { tail -2 <<<"$out" >&2; f=0; }
      fps[$c]="${fps[$c]:-} $f"
      [ $r = 0 ] && span[$c]=$(sed -nE \
        's/device span per frame[^:]*: ([0-9.]+ us).*/\1/p' <<<"$out")
    done
  done
  for c in "${!chains[@]}"; do
    # shellcheck disable=SC2086 # the runs' figures, one word each
    med=$(median ${fps[$c]})
    # shellcheck disable=SC2086
    ref=$(median ${fps[${ref_of[$c]}]})
    # shellcheck disable=SC2086
    range=$(printf '%s\n' ${fps[$c]} | sort -g | sed -n '1p;$p' | paste -sd/)
    ratio=$(awk -v a="$med" -v b="$ref" \
      'BEGIN { if (a > 0 && b > 0) printf "%.0f %%", 100 * a / b; else print "-" }')
    [ "$med" = 0 ] && med=failed
    echo "| $n | ${names[$c]} | $med ($range) | $ratio | ${span[$c]:--} |"
  done
  unset fps span
done
