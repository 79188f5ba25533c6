# SPDX-License-Identifier: LGPL-2.1-or-later
# What the many-camera scripts (bench-streams.sh, bench-mps.sh) share,
# sourced by them: their arguments BUILD_DIR [N ...], the three-element
# chain and the frame options at 1920x1080 (BENCH_FRAMES frames per
# stream, 3000, the first BENCH_WARMUP, 300, not timed). The variables set
# here are the sourcing script's (SC2034).
# shellcheck shell=bash disable=SC2034

# bench_args LINES "$@": build and counts (N ..., default 1 4 8 16) from
# the arguments; without them, the lines LINES (sed) of the calling
# script's header and exit status 2
bench_args() {
  local usage=$1
  shift
  [ $# -ge 1 ] || { sed -n "$usage" "$0"; exit 2; }
  build=$1
  shift
  counts=("$@")
  [ ${#counts[@]} -eq 0 ] && counts=(1 4 8 16)
}

bench_chain="cudamedian size=5 ! cudamorph operation=open shape=disk radius=7 ! cudamorph operation=tophat shape=line length=31 angle=30"
bench_size=(--width 1920 --height 1080 --frames "${BENCH_FRAMES:-3000}"
  --warmup "${BENCH_WARMUP:-300}")
