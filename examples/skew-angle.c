/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * skew-angle: prints the skew angle of every frame of a video of a page,
 * read from the bus messages of cudalinspectrum.
 *
 *   skew-angle [-n FRAMES]            synthetic pages, true vs measured
 *   skew-angle -w OUT.avi [-n FRAMES] write the synthetic pages to a file
 *   skew-angle FILE                   measure every frame of FILE
 *
 * With --check TOL the synthetic mode exits 1 unless every frame was
 * measured within TOL degrees (the meson test "skew-angle" does this).
 *
 * The measurement (paper 000 section 6.1.3): closings by a 250-pixel line
 * at -10 .. 9.75 degrees in steps of 0.25 keep the dark staff lines (or
 * any long dark lines) only along their own direction, so the sum of the
 * closed image, the spectrum, is smallest at the skew angle; the element
 * reports it, refined below the step, as dominant-angle. Angles are
 * counter-clockwise: a positive skew means lines rising to the right.
 *
 * The synthetic pages are staves and note heads (tests/common/
 * synthetic-lines.c) rotated by a known angle that changes every frame;
 * -w stores them as lossless GRAY8 AVI (avimux, gst-plugins-good), which
 * FILE mode reads back through decodebin. backend=auto: the CUDA backend
 * when a GPU is usable, the CPU reference otherwise.
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <math.h>

#include "synthetic-lines.h"

#define W 800
#define H 600
#define FPS 5

#define PAGE_CAPS "video/x-raw,format=GRAY8,width=" G_STRINGIFY (W) \
  ",height=" G_STRINGIFY (H) ",framerate=" G_STRINGIFY (FPS) "/1"

#define ANALYSER "cudalinspectrum operation=close length=250 " \
  "angle-min=-10 angle-max=10 angle-step=0.25"

/* skews of the synthetic frames, cycled; all above the 0.6 degrees below
 * which the digital horizontal at 0 biases the estimate (see
 * synthetic-lines.h) */
static const double skews[] = { 3.3, -7.6, 1.3, -2.45, 9.1, -5.15, 0.8,
  6.0
};

static double
true_skew (guint frame)
{
  return skews[frame % G_N_ELEMENTS (skews)];
}

typedef struct
{
  guint next, frames;
} Feeder;

/* appsrc's need-data callback (its streaming thread): one synthetic page
 * per call, then EOS */
static void
feed_page (GstAppSrc * src, guint length, gpointer user_data)
{
  Feeder *f = user_data;
  GstBuffer *buf;
  GstMapInfo map;
  cm_image img;

  if (f->next == f->frames) {
    gst_app_src_end_of_stream (src);
    return;
  }
  buf = gst_buffer_new_allocate (NULL, W * H, NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  img.data = map.data;
  img.pitch = W;
  img.width = W;
  img.height = H;
  img.depth = CM_DEPTH_8;
  synth_staff_page (&img, true_skew (f->next), f->next);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (f->next, GST_SECOND, FPS);
  GST_BUFFER_DURATION (buf) = GST_SECOND / FPS;
  f->next++;
  gst_app_src_push_buffer (src, buf);
}

/* Makes appsrc "src" of pipe (if any) produce f->frames pages */
static void
attach_feeder (GstElement * pipe, Feeder * f)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstAppSrcCallbacks cb = { 0 };

  if (!src)
    return;
  cb.need_data = feed_page;
  gst_app_src_set_callbacks (GST_APP_SRC (src), &cb, f, NULL);
  gst_object_unref (src);
}

/* --check: largest error accepted in synthetic mode (< 0: no check) */
static gdouble check_tol = -1.0;

/* Reads the bus until EOS or an error; prints one line per analysed frame
 * (with the true skew when `frames` synthetic pages were fed). */
static gboolean
print_skews (GstElement * pipe, guint frames)
{
  GstBus *bus = gst_element_get_bus (pipe);
  gboolean ok = FALSE, done = FALSE, noted = FALSE;
  gboolean synthetic = frames > 0;
  guint frame = 0, bad = 0;

  if (synthetic)
    g_print ("frame  time               true  measured  error\n");
  else
    g_print ("frame  time               skew\n");
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_ELEMENT | GST_MESSAGE_EOS | GST_MESSAGE_ERROR |
        GST_MESSAGE_WARNING);
    const GstStructure *s = gst_message_get_structure (msg);
    GError *err = NULL;
    gchar *dbg = NULL;

    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ELEMENT:
        if (gst_structure_has_name (s, "cudalinspectrum")) {
          GstClockTime ts = GST_CLOCK_TIME_NONE;
          gdouble angle = NAN;

          gst_structure_get_uint64 (s, "timestamp", &ts);
          gst_structure_get_double (s, "dominant-angle", &angle);
          if (synthetic) {
            gdouble diff = angle - true_skew (frame);

            g_print ("%5u  %" GST_TIME_FORMAT "  %6.2f  %8.3f  %+6.3f\n",
                frame, GST_TIME_ARGS (ts), true_skew (frame), angle, diff);
            /* written so that a NaN angle fails too */
            if (!(fabs (diff) <= check_tol))
              bad++;
          } else {
            g_print ("%5u  %" GST_TIME_FORMAT "  %6.3f\n", frame,
                GST_TIME_ARGS (ts), angle);
          }
          frame++;
        }
        break;
      case GST_MESSAGE_WARNING:
        /* backend=auto says once that it fell back to the CPU */
        gst_message_parse_warning (msg, &err, NULL);
        if (!noted)
          g_printerr ("note: %s\n", err->message);
        noted = TRUE;
        break;
      case GST_MESSAGE_ERROR:
        gst_message_parse_error (msg, &err, &dbg);
        g_printerr ("error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
            err->message, dbg ? dbg : "");
        done = TRUE;
        break;
      default:                 /* EOS */
        ok = TRUE;
        if (synthetic && check_tol >= 0 && (bad || frame != frames)) {
          g_printerr ("check failed: %u of %u frames measured, %u off by "
              "more than %g degrees\n", frame, frames, bad, check_tol);
          ok = FALSE;
        }
        done = TRUE;
        break;
    }
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return ok;
}

/* Builds desc (filesrc "file" gets location, appsrc "src" gets `frames`
 * synthetic pages), plays it and prints the skews. */
static gboolean
run (const gchar * desc, const gchar * location, guint frames)
{
  GError *err = NULL;
  /* fatal errors: a missing element (plugin not found) is not skipped */
  GstElement *pipe = gst_parse_launch_full (desc, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, &err);
  Feeder feeder = { 0, frames };
  gboolean ok;

  if (!pipe) {
    g_printerr ("could not build '%s': %s\n", desc, err->message);
    g_clear_error (&err);
    return FALSE;
  }
  if (location) {
    GstElement *file = gst_bin_get_by_name (GST_BIN (pipe), "file");

    g_object_set (file, "location", location, NULL);
    gst_object_unref (file);
  }
  attach_feeder (pipe, &feeder);
  /* a failure to start is on the bus too */
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  ok = print_skews (pipe, frames);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  return ok;
}

static gboolean
write_pages (const gchar * path, guint frames)
{
  GstElement *pipe;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  Feeder feeder = { 0, frames };
  gboolean ok = FALSE;

  pipe = gst_parse_launch_full ("appsrc name=src format=time ! " PAGE_CAPS
      " ! avimux ! filesink name=file", NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &err);
  if (!pipe) {
    g_printerr ("could not build the writer: %s\n", err->message);
    g_clear_error (&err);
    return FALSE;
  }
  bus = gst_element_get_bus (pipe);
  {
    GstElement *file = gst_bin_get_by_name (GST_BIN (pipe), "file");

    g_object_set (file, "location", path, NULL);
    gst_object_unref (file);
  }
  attach_feeder (pipe, &feeder);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    g_printerr ("writing %s: %s\n", path, err->message);
    g_clear_error (&err);
  } else {
    ok = TRUE;
    for (guint i = 0; i < frames; i++)
      g_print ("frame %u: page skewed by %.2f degrees\n", i, true_skew (i));
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  return ok;
}

int
main (int argc, char **argv)
{
  gint frames = 8;
  gchar *out = NULL;
  GOptionEntry entries[] = {
    {"frames", 'n', 0, G_OPTION_ARG_INT, &frames,
        "Number of synthetic frames (default 8)", "N"},
    {"write", 'w', 0, G_OPTION_ARG_FILENAME, &out,
        "Write the synthetic pages to FILE (GRAY8 AVI) and exit", "FILE"},
    {"check", 'c', 0, G_OPTION_ARG_DOUBLE, &check_tol,
        "Synthetic mode: fail unless every error is within TOL degrees",
        "TOL"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("[FILE] - skew angle of "
      "every frame of a page video");
  GError *err = NULL;
  gboolean ok;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || frames < 1 ||
      argc > 2) {
    g_printerr ("%s\n", err ? err->message : "bad arguments (--help)");
    g_clear_error (&err);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);

  if (out)
    ok = write_pages (out, frames);
  else if (argc == 2)
    ok = run ("filesrc name=file ! decodebin ! videoconvert ! "
        "video/x-raw,format=GRAY8 ! " ANALYSER " ! fakesink", argv[1], 0);
  else
    ok = run ("appsrc name=src format=time ! " PAGE_CAPS " ! " ANALYSER
        " ! fakesink", NULL, frames);
  g_free (out);
  return ok ? 0 : 1;
}
