#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Pipelines that cannot start, run by gst-launch-1.0 as a user runs them,
# RUNS times each (default 100): every run must end with an error, none
# may hang. An error posted from the streaming thread while gst-launch-1.0
# is still setting the pipeline to PAUSED can be missed by it (it quits its
# main loop before running it) and the run waits forever: the elements
# refuse what they cannot do in the state change or in the caps instead.
# SKIP (77) without gst-launch-1.0 or videotestsrc.
set -uo pipefail
runs=${RUNS:-100}
command -v gst-launch-1.0 >/dev/null && gst-inspect-1.0 videotestsrc \
  >/dev/null 2>&1 || { echo "SKIP: no gst-launch-1.0 or videotestsrc"; exit 77; }

src="videotestsrc num-buffers=5 ! video/x-raw,format=GRAY8,width=64,height=48"
cases=(
  "$src ! cudalinspectrum backend=cpu angle-min=100 angle-max=50 ! fakesink"
  "$src ! cudablobs backend=cpu min-area=10 max-area=5 ! fakesink"
  "$src,interlace-mode=interleaved ! cudamorph backend=cpu ! fakesink"
  "$src,interlace-mode=interleaved ! cudamedian backend=cpu ! fakesink"
)
fail=0
for c in "${cases[@]}"; do
  hung=0 passed=0
  for ((i = 0; i < runs; i++)); do
    # shellcheck disable=SC2086
    timeout 20 gst-launch-1.0 -q $c >/dev/null 2>&1
    case $? in
      124) hung=$((hung + 1)) ;;
      0) passed=$((passed + 1)) ;;
    esac
  done
  echo "$runs runs, $hung hung, $passed without an error: $c"
  [ "$hung" = 0 ] && [ "$passed" = 0 ] || fail=1
done
exit $fail
