#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Generates tests/data/lines-320x240.h264, the input of the GPU test
# tests/gpu/test-nvcodec-chain.c (filesrc ! h264parse ! nvh264dec ! ...):
# 16 frames of 320x240 H.264, constrained baseline profile, no B-frames,
# Annex-B byte stream with SPS/PPS in front of the IDR frame. The picture
# has structure for the elements to work on: the SMPTE bars scrolling
# sideways (vertical edges, flat areas, the noise patch at the bottom)
# with videotestsrc's ball moving over them (round edges on the move).
#
# Needs gst-launch-1.0 with videotestsrc, compositor, videoconvert
# (gstreamer1.0-plugins-base), x264enc (gstreamer1.0-plugins-ugly) and
# h264parse (gstreamer1.0-plugins-bad). The check at the end decodes the
# file with avdec_h264 (gstreamer1.0-libav) when it is installed.
#
#   scripts/make-test-h264.sh [OUTPUT]
#   (OUTPUT defaults to tests/data/lines-320x240.h264)
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${1:-tests/data/lines-320x240.h264}
FRAMES=16

for e in videotestsrc compositor videoconvert x264enc h264parse; do
  if ! gst-inspect-1.0 "$e" >/dev/null 2>&1; then
    echo "missing GStreamer element $e (apt-get install" \
      "gstreamer1.0-plugins-base gstreamer1.0-plugins-bad" \
      "gstreamer1.0-plugins-ugly)" >&2
    exit 1
  fi
done

mkdir -p "$(dirname "$OUT")"
tmp="$OUT.tmp"
trap 'rm -f "$tmp"' EXIT

# One thread and a fixed quantizer: the same bytes on every run of the same
# x264 build. The ball is drawn on a transparent background and mixed over
# the bars; the compositor's output stops with the bars (num-buffers).
gst-launch-1.0 -q \
  compositor name=mix background=black \
    sink_1::xpos=0 sink_1::ypos=0 ! \
  video/x-raw,width=320,height=240,framerate=30/1 ! \
  videoconvert ! video/x-raw,format=I420 ! \
  x264enc threads=1 bframes=0 key-int-max=$FRAMES pass=quant quantizer=24 \
    speed-preset=medium cabac=false byte-stream=true aud=false ! \
  video/x-h264,profile=constrained-baseline,stream-format=byte-stream ! \
  h264parse config-interval=-1 ! \
  video/x-h264,stream-format=byte-stream,alignment=au ! \
  filesink location="$tmp" \
  videotestsrc num-buffers=$FRAMES pattern=smpte horizontal-speed=6 ! \
  video/x-raw,format=AYUV,width=320,height=240,framerate=30/1 ! mix.sink_0 \
  videotestsrc num-buffers=$FRAMES pattern=ball motion=wavy \
    background-color=0x00000000 foreground-color=0xffffffff ! \
  video/x-raw,format=AYUV,width=320,height=240,framerate=30/1 ! mix.sink_1
mv "$tmp" "$OUT"
trap - EXIT

size=$(stat -c %s "$OUT")
echo "$OUT: $size bytes"

# Every frame must decode: count the decoded buffers, one "chain" line of
# fakesink's last-message each with -v.
if gst-inspect-1.0 avdec_h264 >/dev/null 2>&1; then
  n=$(gst-launch-1.0 -v filesrc location="$OUT" ! h264parse ! avdec_h264 ! \
        fakesink silent=false 2>&1 | grep -c 'chain   ' || true)
  echo "$OUT: $n frames decoded by avdec_h264"
  if [ "$n" != "$FRAMES" ]; then
    echo "expected $FRAMES frames" >&2
    exit 1
  fi
else
  echo "avdec_h264 not installed (gstreamer1.0-libav): decoding not checked"
fi
