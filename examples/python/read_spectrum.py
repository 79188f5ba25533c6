#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reads cudalinspectrum's results, one JSON line per frame.

cudalinspectrum gives each frame's result twice (docs/design.md, "Results
on the buffer"): as an element message named "cudalinspectrum" on the bus,
and as a custom meta named "GstCudaLinSpectrumMeta" on the buffer it
pushes. Both carry the buffer's timestamp, the angles, the angular
spectrum and the dominant angle and value.

--source buffer takes the frames from an appsink and reads the meta of
each: no matching of messages to frames. The meta's angles
and spectrum are GBytes of doubles, which PyGObject reads by itself:
python3-gi and gir1.2-gstreamer-1.0 are all it needs.

--source bus (the default) reads the messages instead, matched to frames
by their timestamp. Their angles and spectrum are GstValueArray fields, which
need GStreamer's Python overrides as well (Debian/Ubuntu: python3-gst-1.0).

    /usr/bin/python3 examples/python/read_spectrum.py [--frames N]
        [--backend auto|cuda|cpu] [--source bus|buffer] [--skew]
        [--operation open|close] [--length L]
        [--angle-min A] [--angle-max B] [--angle-step S] [FILE]

Without FILE it analyses videotestsrc's zone plate; with one, the first
frame of any file GStreamer decodes (a scanned page, a fingerprint),
repeated --frames times. --operation, --length and the --angle-* options
are cudalinspectrum's properties (default: openings by 31 pixels, 0 to
180 degrees every 3).

--skew measures the skew of a page as README's launch line does: closings
by a 250-pixel line every quarter degree from -10 to 10, so that
dominant-angle is the skew itself (counter-clockwise, lines rising to the
right). The defaults are no skew meter: over 0 to 180 an orientation is
given modulo 180 (a line at -1.3 degrees reads 178.7), and a 31-pixel
opening finds the bright paper between the lines, biased to the pixel
rows, rather than the long dark lines: on the page of staves skewed by
3.3 degrees that build/examples/skew-angle -w writes they read 178.7,
--skew reads 3.28.

Run it with a Python that has PyGObject: the system's /usr/bin/python3
(python3-gi), not a pyenv or virtualenv python3 without it.
"""
import array
import json
import sys

from gst_setup import (arguments, file_source, finish, have_element,
                       import_gst, read_messages, read_metas, value_array)

Gst = import_gst("python3-gi python3-gst-1.0")

META_NAME = "GstCudaLinSpectrumMeta"


def doubles(structure, name):
    """A GBytes field of doubles (machine byte order) as a Python list."""
    return array.array("d", structure.get_value(name).get_data()).tolist()


def result(structure, arrays):
    """The fields both sources share, as one JSON-ready dict."""
    return {
        "timestamp": structure.get_uint64("timestamp")[1],
        "dominant-angle": structure.get_double("dominant-angle")[1],
        "dominant-value": structure.get_double("dominant-value")[1],
        "angles": arrays(structure, "angles"),
        "spectrum": arrays(structure, "spectrum"),
    }


def main():
    parser = arguments(__doc__.splitlines()[0], ["buffer", "bus"], "bus")
    parser.add_argument("--operation", default="open",
                        choices=["open", "close"])
    parser.add_argument("--length", type=int, default=31)
    parser.add_argument("--angle-min", type=float, default=0.0)
    parser.add_argument("--angle-max", type=float, default=180.0)
    parser.add_argument("--angle-step", type=float, default=3.0)
    parser.add_argument("--skew", action="store_true",
                        help="the skew of a page as README's launch line: "
                        "--operation close --length 250 --angle-min -10 "
                        "--angle-max 10 --angle-step 0.25")
    parser.add_argument("file", nargs="?")
    args = parser.parse_args()
    if args.skew:
        args.operation, args.length = "close", 250
        args.angle_min, args.angle_max, args.angle_step = -10.0, 10.0, 0.25

    if not have_element(Gst, "cudalinspectrum"):
        return 1
    if args.file:
        source = file_source(args.file, args.frames)
    else:
        source = f"videotestsrc num-buffers={args.frames} pattern=zone-plate"
    # the buffer source needs no messages, the bus source no buffers
    if args.source == "buffer":
        analyser = "post-messages=false"
        sink = "appsink name=sink sync=false"
    else:
        analyser = "attach-meta=false"
        sink = "fakesink sync=false"
    pipeline = Gst.parse_launch(
        f"{source} ! videoconvert ! video/x-raw,format=GRAY8 "
        f"! cudalinspectrum operation={args.operation} length={args.length} "
        f"angle-min={args.angle_min} angle-max={args.angle_max} "
        f"angle-step={args.angle_step} backend={args.backend} "
        f"{analyser} ! {sink}")

    if args.source == "buffer":
        frames, error = read_metas(
            pipeline, META_NAME,
            lambda s: print(json.dumps(result(s, doubles))))
    else:
        frames, error = read_messages(
            pipeline, "cudalinspectrum",
            lambda s: print(json.dumps(result(s, value_array))))
    return finish(pipeline, frames, error, args.frames)


if __name__ == "__main__":
    sys.exit(main())
