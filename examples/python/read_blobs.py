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
import argparse
import array
import json
import sys

try:
    import gi

    gi.require_version("Gst", "1.0")
    from gi.repository import GLib, Gst  # noqa: E402
except (ImportError, ValueError) as e:
    sys.exit(f"{sys.argv[0]}: {sys.executable} has no PyGObject with "
             f"GStreamer's introspection data ({e}).\nRun it with the "
             "system Python: /usr/bin/python3 " + " ".join(sys.argv) +
             "\n(Debian/Ubuntu: sudo apt install python3-gi python3-gst-1.0 "
             "gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0), or install "
             "PyGObject into this Python.")

META_NAME = "GstCudaBlobsMeta"
# the arrays of a frame's blobs and the array typecode of their bytes
FIELDS = {"x": "I", "y": "I", "width": "I", "height": "I", "area": "Q",
          "cx": "d", "cy": "d", "min": "I", "max": "I", "mean": "d"}


def from_bytes(structure, name):
    """A GBytes field of the meta as a Python list."""
    return array.array(FIELDS[name],
                       structure.get_value(name).get_data()).tolist()


def from_value_array(structure, name):
    """A GstValueArray field of the message (needs python3-gst-1.0)."""
    value = structure.get_value(name)
    if isinstance(value, Gst.ValueArray):
        return list(value.array)
    return list(value)


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
    gi.require_version("GstAnalytics", "1.0")
    from gi.repository import GstAnalytics  # noqa: E402

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


def read_buffers(pipeline, source):
    """Pulls every frame from the appsink; returns (frames, error)."""
    sink = pipeline.get_by_name("sink")
    bus = pipeline.get_bus()
    frames = 0
    pipeline.set_state(Gst.State.PLAYING)
    while True:
        # signals of appsink: no GstApp typelib needed; a timeout so that
        # an error upstream (no EOS then) is seen
        sample = sink.emit("try-pull-sample", 100 * 1000 * 1000)
        if sample is None:
            if sink.get_property("eos"):
                return frames, None
            msg = bus.pop_filtered(Gst.MessageType.ERROR)
            if msg is not None:
                err, debug = msg.parse_error()
                return frames, f"{err.message} ({debug})"
            continue
        buf = sample.get_buffer()
        if source == "analytics":
            print(json.dumps(analytics_frame(buf)))
        else:
            meta = buf.get_custom_meta(META_NAME)
            if meta is None:
                return frames, "a buffer without " + META_NAME
            print(json.dumps(frame(meta.get_structure(), from_bytes)))
        frames += 1


def read_bus(pipeline):
    """Reads the element messages until EOS; returns (frames, error)."""
    loop = GLib.MainLoop()
    seen = {"error": None, "messages": 0}

    def on_message(bus, msg):
        if msg.type == Gst.MessageType.ELEMENT and \
                msg.get_structure().get_name() == "cudablobs":
            print(json.dumps(frame(msg.get_structure(), from_value_array)))
            seen["messages"] += 1
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()
        elif msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            seen["error"] = f"{err.message} ({debug})"
            loop.quit()

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    pipeline.set_state(Gst.State.PLAYING)
    loop.run()
    bus.remove_signal_watch()
    return seen["messages"], seen["error"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--backend", default="auto",
                        choices=["auto", "cuda", "cpu"])
    parser.add_argument("--source", default="buffer",
                        choices=["buffer", "bus", "analytics"])
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

    Gst.init(None)
    if Gst.ElementFactory.find("cudablobs") is None:
        print("cudablobs not found: set GST_PLUGIN_PATH to the build's gst/",
              file=sys.stderr)
        return 1
    if args.file:
        source = (f'filesrc location="{args.file}" ! decodebin '
                  f"! videoconvert ! imagefreeze num-buffers={args.frames}")
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
        frames, error = read_bus(pipeline)
    else:
        frames, error = read_buffers(pipeline, args.source)
    pipeline.set_state(Gst.State.NULL)

    if error:
        print("error:", error, file=sys.stderr)
        return 1
    return 0 if frames == args.frames else 1


if __name__ == "__main__":
    sys.exit(main())
