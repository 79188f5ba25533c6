# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the examples share: GStreamer through PyGObject, the plugin found,
the options, the results read from an appsink or the bus.

Run the examples with a Python that has PyGObject: the system's
/usr/bin/python3 (python3-gi), not a pyenv or virtualenv python3 without it.
"""
import argparse
import sys

GLib = Gst = None  # import_gst sets them


def import_gst(packages="python3-gi"):
    """Gst, initialised; exits with what to install when this
    Python has no PyGObject (@packages: the Debian/Ubuntu ones it names)."""
    try:
        import gi

        gi.require_version("Gst", "1.0")
        from gi.repository import GLib, Gst
    except (ImportError, ValueError) as e:
        sys.exit(f"{sys.argv[0]}: {sys.executable} has no PyGObject with "
                 f"GStreamer's introspection data ({e}).\nRun it with the "
                 "system Python: /usr/bin/python3 " + " ".join(sys.argv) +
                 f"\n(Debian/Ubuntu: sudo apt install {packages} "
                 "gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0), or "
                 "install PyGObject into this Python.")
    Gst.init(None)
    globals().update(GLib=GLib, Gst=Gst)
    return Gst


def have_element(Gst, name):
    """The plugin's @name is found; says where to point otherwise."""
    if Gst.ElementFactory.find(name) is not None:
        return True
    print(f"{name} not found: set GST_PLUGIN_PATH to the build's gst/",
          file=sys.stderr)
    return False


def play_until_eos(pipeline, on_element=None):
    """Plays @pipeline until EOS or an error, @on_element (when given)
    called with each element message; returns the error as text, None at
    EOS. The pipeline is left playing."""
    loop = GLib.MainLoop()
    seen = {"error": None}

    def on_message(bus, msg):
        if msg.type == Gst.MessageType.ELEMENT and on_element is not None:
            on_element(msg)
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
    return seen["error"]


def arguments(description, sources, source):
    """The options every example takes: --frames, --backend, and --source
    (one of @sources, @source by default)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--backend", default="auto",
                        choices=["auto", "cuda", "cpu"])
    parser.add_argument("--source", default=source, choices=sources)
    return parser


def value_array(structure, name):
    """A GstValueArray field as a Python list (needs python3-gst-1.0)."""
    value = structure.get_value(name)
    if isinstance(value, Gst.ValueArray):
        return list(value.array)
    return list(value)


def file_source(path, frames):
    """The first frame of any file GStreamer decodes, @frames times."""
    return (f'filesrc location="{path}" ! decodebin '
            f"! videoconvert ! imagefreeze num-buffers={frames}")


def read_buffers(pipeline, on_buffer):
    """Plays @pipeline and pulls every buffer from its appsink "sink",
    @on_buffer called with each (it returns an error as text, or None);
    returns (frames, error)."""
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
        error = on_buffer(sample.get_buffer())
        if error is not None:
            return frames, error
        frames += 1


def read_metas(pipeline, name, on_structure):
    """read_buffers, @on_structure called with each buffer's custom meta
    named @name (a buffer without one is an error)."""
    def on_buffer(buf):
        meta = buf.get_custom_meta(name)
        if meta is None:
            return "a buffer without " + name
        on_structure(meta.get_structure())
        return None

    return read_buffers(pipeline, on_buffer)


def read_messages(pipeline, name, on_structure):
    """Plays @pipeline until EOS, @on_structure called with each element
    message named @name; returns (messages, error)."""
    seen = {"messages": 0}

    def on_element(msg):
        if msg.get_structure().get_name() == name:
            on_structure(msg.get_structure())
            seen["messages"] += 1

    error = play_until_eos(pipeline, on_element)
    return seen["messages"], error


def finish(pipeline, frames, error, expected):
    """Stops @pipeline; the exit status: 0 when @expected frames came
    without an error."""
    pipeline.set_state(Gst.State.NULL)
    if error:
        print("error:", error, file=sys.stderr)
        return 1
    return 0 if frames == expected else 1
