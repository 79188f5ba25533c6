#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""cudamorph in a Python application.

Opens (erosion then dilation by a disk) the frames of videotestsrc and
reads each result in an appsink callback, as an inspection application
would before deciding on a part. Needs PyGObject and GStreamer's
introspection data (Debian/Ubuntu: python3-gi gir1.2-gstreamer-1.0
gir1.2-gst-plugins-base-1.0), and the plugin on GST_PLUGIN_PATH.

    /usr/bin/python3 examples/python/morph_pipeline.py [--frames N]
        [--backend auto|cuda|cpu]

Run it with a Python that has PyGObject: the system's /usr/bin/python3
(python3-gi), not a pyenv or virtualenv python3 without it.
"""
import argparse
import sys

from gst_setup import have_element, import_gst, play_until_eos

Gst = import_gst()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--backend", default="auto",
                        choices=["auto", "cuda", "cpu"])
    args = parser.parse_args()

    if not have_element(Gst, "cudamorph"):
        return 1
    pipeline = Gst.parse_launch(
        f"videotestsrc num-buffers={args.frames} pattern=ball "
        "! video/x-raw,format=GRAY8,width=640,height=480 "
        f"! cudamorph operation=open shape=disk radius=5 backend={args.backend} "
        "! appsink name=sink emit-signals=true sync=false")
    sink = pipeline.get_by_name("sink")
    seen = {"frames": 0, "bright": 0}

    def on_sample(appsink):
        sample = appsink.emit("pull-sample")
        buf = sample.get_buffer()
        ok, info = buf.map(Gst.MapFlags.READ)
        if not ok:
            return Gst.FlowReturn.ERROR
        # what an inspection would look at: here, how many pixels of the
        # opened frame are bright
        seen["bright"] += sum(1 for v in info.data if v > 128)
        buf.unmap(info)
        seen["frames"] += 1
        return Gst.FlowReturn.OK

    sink.connect("new-sample", on_sample)
    error = play_until_eos(pipeline)
    pipeline.set_state(Gst.State.NULL)

    if error:
        print("error:", error, file=sys.stderr)
        return 1
    print(f"{seen['frames']} frames opened, {seen['bright']} bright pixels "
          "in all")
    return 0 if seen["frames"] == args.frames else 1


if __name__ == "__main__":
    sys.exit(main())
