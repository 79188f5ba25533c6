#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The Python examples (examples/python/) on the CPU backend: each must run
# to EOS and do what it says (exit 0). read_spectrum.py and read_blobs.py
# read their results from the buffers (appsink, the custom meta), once with
# GStreamer's Python overrides hidden to show that PyGObject alone reads
# them, and from the bus; both give the same lines. SKIP (77) without PyGObject; the bus
# reader, which needs GStreamer's Python overrides (python3-gst-1.0), is
# left out without them.
set -uo pipefail
src=$1
# the distribution's interpreter, which has its python3-gi packages
py=${PYTHON:-}
if [ -z "$py" ]; then
  for c in /usr/bin/python3 python3; do
    if "$c" -c 'import gi; gi.require_version("Gst", "1.0")' 2>/dev/null; then
      py=$c
      break
    fi
  done
fi
if [ -z "$py" ]; then
  echo "SKIP: no python3 with PyGObject and GStreamer's introspection data"
  exit 77
fi
# whether a GstValueArray field reads (Gst.ValueArray itself exists
# without the overrides too)
overrides=0
"$py" -c '
import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst
Gst.init(None)
Gst.Structure.from_string("x, a=(double)<1.0>")[0].get_value("a")' \
  2>/dev/null && overrides=1
spectrum=$src/examples/python/read_spectrum.py
blobs=$src/examples/python/read_blobs.py
args=(--frames 3 --backend cpu)

# N JSON lines, each with a spectrum as long as its angles
check_rows() {
  local n
  n=$("$py" -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
ok = all(len(r["angles"]) == len(r["spectrum"]) > 1 for r in rows)
print(len(rows) if ok else -1)' <<<"$2")
  [ "$n" = 3 ] || { echo "read_spectrum.py $1: expected 3 frames, got $n"; exit 1; }
}

"$py" "$src/examples/python/morph_pipeline.py" --frames 5 --backend cpu ||
  exit 1

# an example run with the overrides hidden (python3-gi alone)
run_bare() {
  "$py" -c '
import os, runpy, sys
sys.modules["gi.overrides.Gst"] = None
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(sys.argv[0]))  # as python3 FILE does
runpy.run_path(sys.argv[0], run_name="__main__")' "$@"
}

# 3 JSON lines of the ball: one blob each, its statistics consistent
check_blobs() {
  local n
  n=$("$py" -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
ok = all(r["total"] == r["count"] == len(r["blobs"]) == 1 and
         r["blobs"][0]["area"] == r["foreground"] and
         r["blobs"][0]["min"] >= 128 for r in rows)
print(len(rows) if ok else -1)' <<<"$2")
  [ "$n" = 3 ] || { echo "read_blobs.py $1: expected 3 frames of one blob, got $n"; exit 1; }
}

# from the buffers, with the overrides hidden (python3-gi alone)
buffer=$(run_bare "$spectrum" "${args[@]}" --source buffer) || exit 1
echo "$buffer" | head -c 300; echo
check_rows "--source buffer" "$buffer"
blobs_buffer=$(run_bare "$blobs" "${args[@]}" --source buffer) || exit 1
echo "$blobs_buffer" | head -c 300; echo
check_blobs "--source buffer" "$blobs_buffer"

if [ "$overrides" = 0 ]; then
  echo "no GStreamer Python overrides (python3-gst-1.0):" \
    "read_spectrum.py and read_blobs.py --source bus not run"
  exit 0
fi
blobs_bus=$("$py" "$blobs" "${args[@]}" --source bus) || exit 1
[ "$blobs_bus" = "$blobs_buffer" ] || {
  echo "read_blobs.py: the buffers and the bus give different results"
  diff <(echo "$blobs_bus") <(echo "$blobs_buffer") | head -c 2000
  exit 1
}
bus=$("$py" "$spectrum" "${args[@]}" --source bus) || exit 1
check_rows "--source bus" "$bus"
[ "$bus" = "$buffer" ] || {
  echo "read_spectrum.py: the buffers and the bus give different results"
  diff <(echo "$bus") <(echo "$buffer") | head -c 2000
  exit 1
}
