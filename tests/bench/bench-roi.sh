#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Regions of interest: the whole 3840x2160 NV12 frame against a 512x512
# region at its centre (the roi property; regions from metas take the same
# path, one after the other). Per element: frames per
# second through bench-pipeline and the element's device span per frame
# (one frame in 16 timed with CUDA events, first operation to last: the
# region's filter, its upload and download from host memory, its copy
# when filtered in place, and the copy of the rest of the frame where the
# element cannot write its input), in CUDA memory, from
# a producer that re-pushes buffers of the element's pinned pool (it
# keeps them: the element filters out of place) and from one that fills
# a fresh pool buffer per frame and lets it go (in place), and in CUDA
# memory behind cudaupload, whose fresh buffers the element may write (in
# place: only the region is read and written).
#
#   tests/bench/bench-roi.sh BUILD_DIR
#
# BENCH_FRAMES (2000) frames per run, the first BENCH_WARMUP (200) not
# timed; BENCH_ELEMENTS (a grep -E pattern) keeps only the elements it
# matches.
set -uo pipefail
[ $# -ge 1 ] || { sed -n '4,22p' "$0"; exit 2; }
build=$1
bench=$build/tests/bench/bench-pipeline
[ -x "$bench" ] || { echo "no $bench: build first" >&2; exit 1; }
export GST_PLUGIN_PATH=$PWD/$build/gst
frames=${BENCH_FRAMES:-2000}
warm=${BENCH_WARMUP:-200}
size=(--width 3840 --height 2160 --format NV12 --frames "$frames" --warmup "$warm")
roi='roi=<1664,824,512,512>'
elements=("cudamorph operation=open shape=disk radius=7"
          "cudamedian size=5"
          "cudamorph operation=fill-holes")
memories=("--memory cuda" "--producer pool" "--producer fill" "cudaupload")

fps_of() { sed -nE 's/.*: ([0-9.]+) frames\/s \(sum.*/\1/p' | head -1; }
span_of() { sed -nE 's/^device span per frame[^:]*: ([0-9.]+) us.*/\1/p' | head -1; }

echo "| element | memory | whole frame: frames/s | device span (us) | 512x512 roi: frames/s | device span (us) |"
echo "| --- | --- | --- | --- | --- | --- |"
for e in "${elements[@]}"; do
  grep -qE -- "${BENCH_ELEMENTS:-.}" <<<"$e" || continue
  for m in "${memories[@]}"; do
    chain=$e opts=$m
    if [ "$m" = cudaupload ]; then
      chain="cudaupload ! $e" opts=""
    fi
    # shellcheck disable=SC2086
    whole=$("$bench" "${size[@]}" $opts "$chain" 2>&1)
    # shellcheck disable=SC2086
    part=$("$bench" "${size[@]}" $opts "$chain $roi" 2>&1)
    echo "| $e | ${m#--} | $(fps_of <<<"$whole") | $(span_of <<<"$whole") | $(fps_of <<<"$part") | $(span_of <<<"$part") |"
  done
done
