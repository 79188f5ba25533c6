#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# N processes, one bench-pipeline each, measured together: the sum of
# their frames/s (cameras of an inspection line run as separate
# processes on one GPU).
#
#   tests/bench/bench-processes.sh BUILD_DIR N [bench-pipeline options] CHAIN
#
# e.g. tests/bench/bench-processes.sh build-gpu 8 --width 1920 \
#        --height 1080 --producer pool --frames 3000 --warmup 300 \
#        "cudamedian size=5"
#
# Every process negotiates, then waits for a start file (bench-pipeline
# --start-after), so that all are measured over the same time.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '4,13p' "$0"; exit 2; }
build=$1 n=$2
shift 2
bench=$build/tests/bench/bench-pipeline
[ -x "$bench" ] || { echo "no $bench: build first" >&2; exit 1; }
export GST_PLUGIN_PATH=$PWD/$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$n"); do
  "$bench" --start-after "$work/go" "$@" > "$work/out.$i" 2>&1 &
done
# context creation and negotiation take well under a second each
sleep "${BENCH_SETTLE_S:-3}"
touch "$work/go"
wait

total=0 first="" last="" frames=0
for i in $(seq 1 "$n"); do
  line=$(grep -E 'frames/s \(sum' "$work/out.$i" || true)
  if [ -z "$line" ]; then
    echo "process $i failed:" >&2
    cat "$work/out.$i" >&2
    exit 1
  fi
  fps=$(sed -E 's/.*: ([0-9.]+) frames\/s \(sum.*/\1/' <<<"$line")
  echo "process $i: $fps frames/s"
  total=$(awk -v a="$total" -v b="$fps" 'BEGIN { printf "%.1f", a + b }')
  read -r _ f l c _ < <(grep -E '^window: ' "$work/out.$i")
  frames=$((frames + c))
  { [ -z "$first" ] || [ "$f" -lt "$first" ]; } && first=$f
  { [ -z "$last" ] || [ "$l" -gt "$last" ]; } && last=$l
done
# processes that did not run at the same time would inflate the sum: the
# frames of all over the window from the first one's start to the last
# one's end is the rate the GPU gave them together
window=$(awk -v c="$frames" -v f="$first" -v l="$last" \
  'BEGIN { printf "%.1f", c / ((l - f) / 1e6) }')
echo "$n processes: $window frames/s in all over the common window" \
  "(sum of each one's own rate: $total)  | ${*: -1}"
