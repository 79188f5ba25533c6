#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reads the blobs cudablobs finds in each frame, one JSON line per frame.

cudablobs thresholds every frame, finds its connected components and
measures each: bounding box (x, y, width, height), area in pixels,
centroid (cx, cy) and the minimum, maximum and mean of the input under it.
It gives each frame's blobs three ways:

--source buffer (the default) takes the frames from an appsink and reads
the custom meta named "GstCudaBlobsMeta" of each: no matching of messages
to frames. Its arrays are GBytes (guint32 for x, y, width, height, min,
max; guint64 for area; doubles for cx, cy, mean; the machine's byte
order), which PyGObject reads by itself: python3-gi and
gir1.2-gstreamer-1.0 are all it needs.

--source bus reads the element messages named "cudablobs" instead,
matched to frames by their timestamp. Their arrays are GstValueArray
fields, which need GStreamer's Python overrides as well (Debian/Ubuntu:
python3-gst-1.0).

--source analytics reads the buffer's GstAnalyticsRelationMeta: one
object-detection entry of type "blob" per blob (its box only), as
objectdetectionoverlay draws them. It needs GStreamer 1.24 or later, the
plugin built with gstreamer-analytics-1.0, and the GstAnalytics
introspection data (gir1.2-gst-plugins-bad-1.0).

    /usr/bin/python3 examples/python/read_blobs.py [--frames N]
        [--backend auto|cuda|cpu] [--source buffer|bus|analytics]
        [--threshold T] [--invert] [--connectivity 4|8]
        [--min-area A] [--max-blobs M] [--exclude-border] [FILE]

Without FILE it analyses videotestsrc's bouncing ball (one blob a frame);
with one, the first frame of any file GStreamer decodes (coins on a
table, the holes of samples/part.png with --invert --threshold 100
--exclude-border), repeated --frames times, in GRAY8.

Run it with a Python that has PyGObject: the system's /usr/bin/python3
(python3-gi), not a pyenv or virtualenv python3 without it.
"""
import array
import json
import sys

from gst_setup import (arguments, file_source, finish, have_element,
                       import_gst, read_buffers, read_messages, read_metas,
                       value_array)

Gst = import_gst("python3-gi python3-gst-1.0")

META_NAME = "GstCudaBlobsMeta"
# the arrays of a frame's blobs and the array typecode of their bytes
FIELDS = {"x": "I", "y": "I", "width": "I", "height": "I", "area": "Q",
          "cx": "d", "cy": "d", "min": "I", "max": "I", "mean": "d"}


def from_bytes(structure, name):
    """A GBytes field of the meta as a Python list."""
    return array.array(FIELDS[name],
                       structure.get_value(name).get_data()).tolist()


def frame(structure, arrays):
    """One frame's blobs from the message or the meta, JSON-ready."""
    columns = {name: arrays(structure, name) for name in FIELDS}
    count = structure.get_uint("count")[1]
    return {
        "timestamp": structure.get_uint64("timestamp")[1],
        "total": structure.get_uint("total")[1],
        "count": count,
        "foreground": structure.get_uint64("foreground")[1],
        "blobs": [{name: columns[name][i] for name in FIELDS}
                  for i in range(count)],
    }


def analytics_frame(buf):
    """The "blob" entries of the buffer's analytics relation meta."""
    import gi

    gi.require_version("GstAnalytics", "1.0")
    from gi.repository import GLib, GstAnalytics  # noqa: E402

    rmeta = GstAnalytics.buffer_get_analytics_relation_meta(buf)
    blobs = []
    if rmeta is not None:
        for i in range(GstAnalytics.relation_get_length(rmeta)):
            found, od = rmeta.get_od_mtd(i)
            if not found or \
                    GLib.quark_to_string(od.get_obj_type()) != "blob":
                continue
            _, x, y, w, h, _ = od.get_location()
            blobs.append({"x": x, "y": y, "width": w, "height": h})
    return {"timestamp": buf.pts, "count": len(blobs), "blobs": blobs}


def main():
    parser = arguments(__doc__.splitlines()[0],
                       ["buffer", "bus", "analytics"], "buffer")
    parser.add_argument("--threshold", type=int, default=128)
    parser.add_argument("--invert", action="store_true",
                        help="dark objects: foreground below the threshold")
    parser.add_argument("--connectivity", type=int, default=8,
                        choices=[4, 8])
    parser.add_argument("--min-area", type=int, default=1)
    parser.add_argument("--max-blobs", type=int, default=256)
    parser.add_argument("--exclude-border", action="store_true",
                        help="drop the blobs that touch the frame's edge")
    parser.add_argument("file", nargs="?")
    args = parser.parse_args()

    if not have_element(Gst, "cudablobs"):
        return 1
    if args.file:
        source = file_source(args.file, args.frames)
    else:
        source = (f"videotestsrc num-buffers={args.frames} pattern=ball "
                  "! video/x-raw,width=320,height=240")
    # the buffer sources need no messages, the bus source no metas
    if args.source == "bus":
        outputs = "attach-meta=false"
        sink = "fakesink sync=false"
    else:
        outputs = "post-messages=false"
        sink = "appsink name=sink sync=false"
    pipeline = Gst.parse_launch(
        f"{source} ! videoconvert ! video/x-raw,format=GRAY8 "
        f"! cudablobs threshold={args.threshold} invert={args.invert} "
        f"connectivity={args.connectivity} min-area={args.min_area} "
        f"max-blobs={args.max_blobs} exclude-border={args.exclude_border} "
        f"backend={args.backend} {outputs} "
        f"! {sink}")

    if args.source == "bus":
        frames, error = read_messages(
            pipeline, "cudablobs",
            lambda s: print(json.dumps(frame(s, value_array))))
    elif args.source == "analytics":
        frames, error = read_buffers(
            pipeline, lambda buf: print(json.dumps(analytics_frame(buf))))
    else:
        frames, error = read_metas(
            pipeline, META_NAME,
            lambda s: print(json.dumps(frame(s, from_bytes))))
    return finish(pipeline, frames, error, args.frames)


if __name__ == "__main__":
    sys.exit(main())
