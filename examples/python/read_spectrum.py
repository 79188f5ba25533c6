#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reads cudalinspectrum's results from the bus, one line per frame.

cudalinspectrum posts an element message named "cudalinspectrum" for the
frames it analyses (docs/design.md, "Messages"): the buffer's timestamp,
the angles, the angular spectrum and the dominant angle. This reader
prints them as JSON lines, matched to frames by their timestamp. The
angles and the spectrum are GstValueArray fields: reading them from
Python needs GStreamer's Python overrides (Debian/Ubuntu: python3-gst-1.0)
besides PyGObject (python3-gi gir1.2-gstreamer-1.0).

    examples/python/read_spectrum.py [--frames N] [--backend auto|cuda|cpu]
                                     [FILE]

Without FILE it analyses videotestsrc's zone plate; with one, any file
GStreamer decodes (a scanned page, a fingerprint).
"""
import argparse
import json
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def array(structure, name):
    """A GstValueArray field as a Python list (needs python3-gst-1.0)."""
    value = structure.get_value(name)
    if isinstance(value, Gst.ValueArray):
        return list(value.array)
    return list(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--backend", default="auto",
                        choices=["auto", "cuda", "cpu"])
    parser.add_argument("file", nargs="?")
    args = parser.parse_args()

    Gst.init(None)
    if Gst.ElementFactory.find("cudalinspectrum") is None:
        print("cudalinspectrum not found: set GST_PLUGIN_PATH to the build's "
              "gst/", file=sys.stderr)
        return 1
    if args.file:
        source = (f'filesrc location="{args.file}" ! decodebin '
                  f"! videoconvert ! imagefreeze num-buffers={args.frames}")
    else:
        source = f"videotestsrc num-buffers={args.frames} pattern=zone-plate"
    pipeline = Gst.parse_launch(
        f"{source} ! videoconvert ! video/x-raw,format=GRAY8 "
        f"! cudalinspectrum length=31 angle-step=3 backend={args.backend} "
        "! fakesink sync=false")
    loop = GLib.MainLoop()
    result = {"error": None, "messages": 0}

    def on_message(bus, msg):
        if msg.type == Gst.MessageType.ELEMENT and \
                msg.get_structure().get_name() == "cudalinspectrum":
            s = msg.get_structure()
            ok, ts = s.get_uint64("timestamp")
            print(json.dumps({
                "timestamp": ts,
                "dominant-angle": s.get_double("dominant-angle")[1],
                "dominant-value": s.get_double("dominant-value")[1],
                "angles": array(s, "angles"),
                "spectrum": array(s, "spectrum"),
            }))
            result["messages"] += 1
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()
        elif msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            result["error"] = f"{err.message} ({debug})"
            loop.quit()

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    pipeline.set_state(Gst.State.PLAYING)
    loop.run()
    pipeline.set_state(Gst.State.NULL)

    if result["error"]:
        print("error:", result["error"], file=sys.stderr)
        return 1
    return 0 if result["messages"] == args.frames else 1


if __name__ == "__main__":
    sys.exit(main())
