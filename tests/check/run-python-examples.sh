#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The Python examples (examples/python/) on the CPU backend: each must run
# to EOS and do what it says (exit 0). SKIP (77) without PyGObject and
# GStreamer's Python overrides (python3-gi, python3-gst-1.0).
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
if [ -z "$py" ] || ! "$py" -c 'import gi; gi.require_version("Gst", "1.0"); from gi.repository import Gst; Gst.init(None); Gst.ValueArray' 2>/dev/null; then
  echo "SKIP: no python3 with PyGObject and GStreamer's overrides"
  exit 77
fi
"$py" "$src/examples/python/morph_pipeline.py" --frames 5 --backend cpu ||
  exit 1
out=$("$py" "$src/examples/python/read_spectrum.py" --frames 3 \
  --backend cpu) || exit 1
echo "$out" | head -c 300
# three JSON lines, each with a spectrum as long as its angles
n=$("$py" -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
ok = all(len(r["angles"]) == len(r["spectrum"]) > 1 for r in rows)
print(len(rows) if ok else -1)' <<<"$out")
[ "$n" = 3 ] || { echo "read_spectrum.py: expected 3 frames, got $n"; exit 1; }
