/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * morph-demo: runs cudamorph on generated images with linear structures and
 * writes the input and every result as PNG into a folder.
 *
 *   morph-demo OUTPUT_DIR
 *
 * The input is a noisy dark image crossed by thin bright lines at several
 * angles, bright specks and a few dark scratches. Each demo case is one
 * pipeline  appsrc ! cudamorph <properties> ! pngenc ! filesink. The
 * element picks the CUDA backend when a GPU is usable and the CPU reference
 * otherwise (backend=auto), so the demo runs anywhere.
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define W 640
#define H 480

typedef struct
{
  const char *file;
  const char *props;
  const char *what;
} DemoCase;

static const DemoCase cases[] = {
  {"00-input.png", NULL, "the generated input"},
  {"01-open-line41-at30.png", "operation=open shape=line length=41 angle=30",
      "opening by a 41-pixel line at 30 degrees: only structures along 30 "
        "degrees survive"},
  {"02-open-line41-at120.png", "operation=open shape=line length=41 "
        "angle=120", "the same at 120 degrees"},
  {"03-tophat-disk5.png", "operation=tophat shape=disk radius=5",
      "white top-hat by a disk of radius 5: thin bright details only"},
  {"04-close-line15-at0.png", "operation=close shape=line length=15 angle=0",
      "closing by a horizontal line: dark scratches across x are filled"},
  {"05-gradient-rect3.png", "operation=gradient shape=rect width=3 height=3",
      "morphological gradient: edges"},
  {"06-erode-octagon2.png", "operation=erode shape=octagon radius=2",
      "erosion by an octagon: specks and thin lines vanish"},
  {"07-dilate-custom.png", "operation=dilate shape=custom "
        "mask=\"10001;01010;00100;01010;10001\"", "dilation by a custom X mask"},
};

static guint32 rng_state = 12345;

static guint32
rng (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

static void
draw_line (guint8 * img, double x0, double y0, double angle_deg, double len,
    double width, guint8 value)
{
  double a = angle_deg * G_PI / 180.0;
  double dx = cos (a), dy = -sin (a);   /* image y points down */
  for (double t = 0; t < len; t += 0.25) {
    for (double w = -width / 2; w <= width / 2; w += 0.25) {
      int x = (int) lround (x0 + t * dx - w * dy);
      int y = (int) lround (y0 + t * dy + w * dx);
      if (x >= 0 && x < W && y >= 0 && y < H)
        img[y * W + x] = value;
    }
  }
}

static void
make_input (guint8 * img)
{
  for (int i = 0; i < W * H; i++)
    img[i] = 30 + rng () % 40;
  /* bright lines at 30 and 120 degrees, various lengths */
  for (int k = 0; k < 6; k++) {
    draw_line (img, 40 + k * 60, 420 - k * 10, 30, 120 + k * 20, 1.5, 230);
    draw_line (img, 300 + k * 50, 460, 120, 100 + k * 25, 1.5, 200);
  }
  /* short bright dashes and specks */
  for (int k = 0; k < 300; k++) {
    int x = rng () % W, y = rng () % H;
    img[y * W + x] = 255;
  }
  for (int k = 0; k < 40; k++)
    draw_line (img, rng () % W, rng () % H, (rng () % 180), 8, 1.0, 210);
  /* dark horizontal scratches */
  for (int k = 0; k < 5; k++)
    for (int x = 100; x < 540; x += 12)
      draw_line (img, x, 60 + k * 20, 0, 8, 1.0, 0);
}

static gboolean
run_case (const DemoCase * c, const guint8 * img, const char *outdir)
{
  gchar *path = g_build_filename (outdir, c->file, NULL);
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! "
      "video/x-raw,format=GRAY8,width=%d,height=%d,framerate=1/1 ! "
      "%s%s%s pngenc ! filesink location=\"%s\"", W, H,
      c->props ? "cudamorph name=m " : "", c->props ? c->props : "",
      c->props ? " !" : "", path);
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);
  gboolean ok = FALSE;

  if (!pipe) {
    g_printerr ("could not build pipeline (%s): %s\n", desc, err->message);
    g_clear_error (&err);
    goto out;
  }
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  GstBuffer *buf = gst_buffer_new_memdup (img, W * H);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND;
  gst_app_src_push_buffer (GST_APP_SRC (src), buf);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_object_unref (src);

  GstBus *bus = gst_element_get_bus (pipe);
  for (;;) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      /* backend=auto says once when it falls back to the CPU */
      static gboolean noted;
      gst_message_parse_warning (msg, &err, NULL);
      if (!noted)
        g_print ("  note: %s\n", err->message);
      noted = TRUE;
      g_clear_error (&err);
      gst_message_unref (msg);
      continue;
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("error in '%s': %s\n", c->file, err->message);
      g_clear_error (&err);
    } else {
      ok = TRUE;
    }
    gst_message_unref (msg);
    break;
  }
  if (ok)
    g_print ("  %-28s %s\n", c->file, c->what);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
out:
  g_free (desc);
  g_free (path);
  return ok;
}

int
main (int argc, char **argv)
{
  const char *outdir = argc > 1 ? argv[1] : "demo-output";
  guint8 *img = g_malloc (W * H);
  gboolean ok = TRUE;

  gst_init (&argc, &argv);
  if (!gst_element_factory_find ("cudamorph")) {
    g_printerr ("cudamorph not found: set GST_PLUGIN_PATH to the build's "
        "gst/ folder (./scripts/run demo does)\n");
    return 1;
  }
  g_mkdir_with_parents (outdir, 0755);
  make_input (img);
  g_print ("cudamorph demo: %dx%d GRAY8 input, results in %s/\n", W, H,
      outdir);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    ok &= run_case (&cases[i], img, outdir);
  g_free (img);
  g_print (ok ? "done\n" : "some cases failed\n");
  return ok ? 0 : 1;
}
