# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the examples share: GStreamer through PyGObject, the plugin found.

Run the examples with a Python that has PyGObject: the system's
/usr/bin/python3 (python3-gi), not a pyenv or virtualenv python3 without it.
"""
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
