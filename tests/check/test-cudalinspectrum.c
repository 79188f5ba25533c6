/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudalinspectrum element tests on the CPU backend (GstHarness,
 * CK_FORK=no): the message schema field by field with timestamps through
 * a segment, the spectrum against the core's CPU reference for every
 * format at odd sizes, the dominant angle of digital parallel lines,
 * interval and post-messages, passthrough frames untouched, the supremum
 * (chroma copied), the RGBA orientation map and its negotiation both ways,
 * output and parameter changes while PLAYING, refused property values, and
 * the result on every output buffer (custom meta, and the analytics entry
 * with GStreamer >= 1.24) equal to the message of the same frame.
 */
#include <math.h>
#include <string.h>

#include "cudalinspectrum-harness.h"
#include "gstcudalinspectrummeta.h"

#define OPEN CM_MORPH_OPEN
#define CLOSE CM_MORPH_CLOSE

/* a harness around @e, caps @format @w x @h */
static GstHarness *
lin_harness_new (GstElement * e, const char *format, int w, int h,
    GstVideoInfo * info)
{
  GstHarness *hn = gst_harness_new_with_element (e, "sink", "src");

  morph_harness_set_caps (hn, format, w, h, info);
  return hn;
}

static void
lin_teardown (GstHarness * h, GstElement * e, GstBus * bus)
{
  gst_harness_teardown (h);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

/* pushes a random frame, returns the input; *out gets the output */
static GstBuffer *
push_random (GstHarness * h, const GstVideoInfo * info, guint64 seed,
    int extra, GstBuffer ** out)
{
  GstBuffer *in = morph_make_input (info, seed, extra);

  *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (*out != NULL, "no output buffer");
  return in;
}

static void
check_one_message (GstBus * bus, GstBuffer * in, const GstVideoInfo * info,
    const LinParams * p, const char *what)
{
  GstMessage *msg = lin_pop_message (bus);

  fail_unless (msg != NULL, "%s: no message", what);
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT);
  fail_unless (lin_check_message (gst_message_get_structure (msg), in, info,
          p, what), "%s: message differs from the reference", what);
  gst_message_unref (msg);
  fail_unless (lin_pop_message (bus) == NULL, "%s: more than one message",
      what);
}

#ifdef HAVE_GST_ANALYTICS
/* The "cudalinspectrum-spectrum" entries of @buf's relation meta. */
static guint
mtd_count (GstBuffer * buf)
{
  GstAnalyticsRelationMeta *rmeta = gst_buffer_get_analytics_relation_meta
      (buf);
  GstAnalyticsMtd mtd;
  gpointer state = NULL;
  guint n = 0;

  while (rmeta != NULL && gst_analytics_relation_meta_iterate (rmeta, &state,
          GST_ANALYTICS_MTD_TYPE_ANY, &mtd))
    n += gst_cuda_lin_spectrum_mtd_get_data (&mtd) != NULL;
  return n;
}

/* the analytics entry of @out, read with the header's inline readers,
 * holds the values of the message @msg, exactly */
static void
check_mtd_is_message (GstBuffer * out, const GstStructure * msg,
    const char *what)
{
  GstAnalyticsRelationMeta *rmeta = gst_buffer_get_analytics_relation_meta
      (out);
  GstAnalyticsMtd mtd;
  const gdouble *angles, *spectrum;
  gdouble angle, value, d;
  guint n, length, u;
  gboolean closing;

  fail_unless (rmeta != NULL, "%s: no analytics relation meta", what);
  fail_unless (gst_cuda_lin_spectrum_mtd_find (rmeta, &mtd),
      "%s: no " GST_CUDA_LIN_SPECTRUM_MTD_NAME " entry", what);
  fail_unless_equals_int (mtd_count (out), 1);
  fail_unless (gst_cuda_lin_spectrum_mtd_get_dominant (&mtd, &angle, &value));
  fail_unless (gst_structure_get_double (msg, "dominant-angle", &d));
  fail_unless (angle == d, "%s: entry's dominant angle %.17g, message %.17g",
      what, angle, d);
  fail_unless (gst_structure_get_double (msg, "dominant-value", &d));
  fail_unless (value == d, "%s: entry's dominant value %.17g, message %.17g",
      what, value, d);
  fail_unless (gst_cuda_lin_spectrum_mtd_get_params (&mtd, &length,
          &closing));
  fail_unless (gst_structure_get_uint (msg, "length", &u));
  fail_unless_equals_int (length, u);
  fail_unless_equals_string (closing ? "close" : "open",
      gst_structure_get_string (msg, "operation"));
  fail_unless (gst_cuda_lin_spectrum_mtd_get_spectrum (&mtd, &n, &angles,
          &spectrum));
  fail_unless_equals_int (n, gst_value_array_get_size
      (gst_structure_get_value (msg, "angles")));
  for (guint i = 0; i < n; i++) {
    fail_unless (angles[i] == lin_array_get (msg, "angles", i) &&
        spectrum[i] == lin_array_get (msg, "spectrum", i),
        "%s: entry's orientation %u differs from the message", what, i);
  }
}
#else
static void
check_mtd_is_message (GstBuffer * out, const GstStructure * msg,
    const char *what)
{
}
#endif

/* The meta of @out carries the message @msg of the same frame: every
 * field, angles and spectrum as GBytes of doubles with the message's
 * values, exactly; and so does the analytics entry. */
static void
check_meta_is_message (GstBuffer * out, const GstStructure * msg,
    const char *what)
{
  lin_check_meta_is_message (out, msg, what);
  check_mtd_is_message (out, msg, what);
}

/* The one message of the frame @in is its reference analysis, and the
 * output buffer @out carries the same result. */
static void
check_frame_result (GstBus * bus, GstBuffer * in, GstBuffer * out,
    const GstVideoInfo * info, const LinParams * p, const char *what)
{
  GstMessage *msg = lin_pop_message (bus);

  fail_unless (msg != NULL, "%s: no message", what);
  fail_unless (lin_check_message (gst_message_get_structure (msg), in, info,
          p, what), "%s: message differs from the reference", what);
  check_meta_is_message (out, gst_message_get_structure (msg), what);
  gst_message_unref (msg);
  fail_unless (lin_pop_message (bus) == NULL, "%s: more than one message",
      what);
}

/* ---- tests -------------------------------------------------------------- */

GST_START_TEST (test_inspect)
{
  static const char *const props[] = { "length", "angle-min", "angle-max",
    "angle-step", "operation", "output", "post-messages", "interval",
    "attach-meta", "backend", "cuda-device-id"
  };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", NULL, &bus);
  GstElementFactory *f = gst_element_get_factory (e);
  GEnumClass *ec;
  guint u;
  gdouble d;
  gint v;
  gboolean b;

  for (guint i = 0; i < G_N_ELEMENTS (props); i++) {
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        props[i]);

    fail_unless (ps != NULL, "no property %s", props[i]);
    fail_unless (strlen (g_param_spec_get_blurb (ps)) > 30,
        "property %s has no real description", props[i]);
    if (!g_str_equal (props[i], "backend") &&
        !g_str_equal (props[i], "cuda-device-id"))
      fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING,
          "property %s not mutable in PLAYING", props[i]);
  }
  g_object_get (e, "length", &u, NULL);
  fail_unless_equals_int (u, 41);
  g_object_get (e, "angle-min", &d, NULL);
  fail_unless_equals_float (d, 0.0);
  g_object_get (e, "angle-max", &d, NULL);
  fail_unless_equals_float (d, 180.0);
  g_object_get (e, "angle-step", &d, NULL);
  fail_unless_equals_float (d, 1.0);
  g_object_get (e, "interval", &u, NULL);
  fail_unless_equals_int (u, 1);
  g_object_get (e, "post-messages", &b, NULL);
  fail_unless (b);
  g_object_get (e, "attach-meta", &b, NULL);
  fail_unless (b);
  g_object_get (e, "operation", &v, NULL);
  fail_unless_equals_int (v, 0);

  /* enum nicks as cudamorph spells them, values from 0 as GStreamer's own
   * enums (a binding that sets 0 gets the default) */
  ec = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE (g_object_class_find_property
          (G_OBJECT_GET_CLASS (e), "operation")));
  fail_unless_equals_int (g_enum_get_value_by_nick (ec, "open")->value, 0);
  fail_unless_equals_int (g_enum_get_value_by_nick (ec, "close")->value, 1);
  fail_unless_equals_int (ec->n_values, 2);
  g_type_class_unref (ec);
  g_object_set (e, "operation", 1, NULL);
  g_object_get (e, "operation", &v, NULL);
  fail_unless_equals_int (v, 1);
  g_object_set (e, "operation", 0, NULL);
  ec = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE (g_object_class_find_property
          (G_OBJECT_GET_CLASS (e), "output")));
  fail_unless_equals_int (g_enum_get_value_by_nick (ec, "passthrough")->value,
      0);
  fail_unless (g_enum_get_value_by_nick (ec, "supremum") != NULL);
  fail_unless (g_enum_get_value_by_nick (ec, "orientation") != NULL);
  g_type_class_unref (ec);

  fail_unless (strstr (gst_element_factory_get_metadata (f,
              GST_ELEMENT_METADATA_KLASS), "Analyzer") != NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

/* every field and its type, timestamps through a segment, no timestamps */
GST_START_TEST (test_message_schema)
{
  LinParams p = { 9, 0, 180, 5, OPEN, "passthrough" };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", &p, &bus);
  GstHarness *h;
  GstVideoInfo info;
  GstSegment seg;
  GstBuffer *in, *out;
  GstMessage *msg;
  const GstStructure *s;
  guint64 t;

  h = lin_harness_new (e, "GRAY8", 37, 23, &info);

  /* default segment: stream and running time equal the PTS */
  in = morph_make_input (&info, 1, 0);
  GST_BUFFER_PTS (in) = 1 * GST_SECOND;
  GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  msg = lin_pop_message (bus);
  fail_unless (msg != NULL);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (e));
  s = gst_message_get_structure (msg);
  fail_unless_equals_int (lin_check_schema (s, "default segment"), 36);
  fail_unless (lin_check_message (s, in, &info, &p, "default segment"));
  fail_unless (gst_structure_get_uint64 (s, "timestamp", &t));
  fail_unless_equals_uint64 (t, 1 * GST_SECOND);
  fail_unless (gst_structure_get_uint64 (s, "stream-time", &t));
  fail_unless_equals_uint64 (t, 1 * GST_SECOND);
  fail_unless (gst_structure_get_uint64 (s, "running-time", &t));
  fail_unless_equals_uint64 (t, 1 * GST_SECOND);
  fail_unless (gst_structure_get_uint64 (s, "duration", &t));
  fail_unless_equals_uint64 (t, 40 * GST_MSECOND);
  for (guint i = 0; i < 36; i++)
    fail_unless_equals_float (lin_array_get (s, "angles", i), 5.0 * i);
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* a segment that starts at 0.5 s, stream time 2 s, base 10 s */
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.start = 500 * GST_MSECOND;
  seg.time = 2 * GST_SECOND;
  seg.base = 10 * GST_SECOND;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  in = morph_make_input (&info, 2, 0);
  GST_BUFFER_PTS (in) = 1 * GST_SECOND;
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  msg = lin_pop_message (bus);
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  fail_unless (lin_check_message (s, in, &info, &p, "segment"));
  fail_unless (gst_structure_get_uint64 (s, "stream-time", &t));
  fail_unless_equals_uint64 (t, 2500 * GST_MSECOND);
  fail_unless (gst_structure_get_uint64 (s, "running-time", &t));
  fail_unless_equals_uint64 (t, 10500 * GST_MSECOND);
  fail_unless (gst_structure_get_uint64 (s, "duration", &t));
  fail_unless_equals_uint64 (t, GST_CLOCK_TIME_NONE);
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* no timestamp at all */
  in = morph_make_input (&info, 3, 0);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  msg = lin_pop_message (bus);
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  lin_check_schema (s, "no timestamp");
  fail_unless (gst_structure_get_uint64 (s, "timestamp", &t));
  fail_unless_equals_uint64 (t, GST_CLOCK_TIME_NONE);
  fail_unless (gst_structure_get_uint64 (s, "stream-time", &t));
  fail_unless_equals_uint64 (t, GST_CLOCK_TIME_NONE);
  fail_unless (gst_structure_get_uint64 (s, "running-time", &t));
  fail_unless_equals_uint64 (t, GST_CLOCK_TIME_NONE);
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  lin_teardown (h, e, bus);
}

GST_END_TEST;

static const struct
{
  int width, height;
} odd_sizes[] = {
  {37, 23}, {1, 1}, {1, 9}, {9, 1}, {2, 3}, {64, 48},
};

/* spectrum == reference / pixels for every format, size and both
 * operations; the passthrough buffer is the input, untouched */
GST_START_TEST (test_formats_spectrum)
{
  guint64 seed = 10;

  for (int f = 0; f < LIN_N_FORMATS; f++) {
    for (guint z = 0; z < G_N_ELEMENTS (odd_sizes); z++) {
      for (int op = 0; op < 2; op++) {
        LinParams p = { op ? 6 : 11, op ? -10 : 0, op ? 10 : 180,
          op ? 0.25 : 4, op ? CLOSE : OPEN, "passthrough"
        };
        int extra = (z % 2) ? 8 : 0;
        GstBus *bus;
        GstElement *e = lin_element_new ("cpu", &p, &bus);
        GstHarness *h;
        GstVideoInfo info;
        GstBuffer *in, *out, *copy;
        gchar *desc = lin_params_describe (&p);
        gchar *what = g_strdup_printf ("%s %dx%d%s %s", lin_format (f),
            odd_sizes[z].width, odd_sizes[z].height, extra ? " padded" : "",
            desc);

        h = lin_harness_new (e, lin_format (f), odd_sizes[z].width,
            odd_sizes[z].height, &info);
        for (int k = 0; k < 2; k++) {
          in = morph_make_input (&info, seed++, extra);
          copy = gst_buffer_copy_deep (in);
          out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
          lin_check_passed_through (in, out, what);
          fail_unless (morph_frames_equal (out, copy, &info, what),
              "%s: passthrough changed the frame", what);
          check_frame_result (bus, in, out, &info, &p, what);
          gst_buffer_unref (copy);
          gst_buffer_unref (out);
          gst_buffer_unref (in);
        }
        lin_teardown (h, e, bus);
        g_free (what);
        g_free (desc);
      }
    }
  }
}

GST_END_TEST;

/* parallel lines drawn as the digital scan lines of an orientation of the
 * set (every @spacing-th line of @theta), bright (@dark FALSE) or dark */
static GstBuffer *
lines_frame (const GstVideoInfo * info, double theta, int spacing,
    gboolean dark)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info),
      NULL);
  GstVideoFrame frame;
  cm_image img;
  int steep;
  double k;

  cm_linspectrum_line_geometry (theta, &steep, &k);
  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  img = lin_plane0 (&frame);
  for (int y = 0; y < img.height; y++) {
    for (int x = 0; x < img.width; x++) {
      long b = steep ? x + lround (y * k) : y + lround (x * k);
      gboolean on = ((b % spacing) + spacing) % spacing == 0;

      test_image_set (&img, x, y, on != dark ? 200 : 30);
    }
  }
  for (guint pl = 1; pl < GST_VIDEO_FRAME_N_PLANES (&frame); pl++) {
    gsize row_bytes;
    int rows;

    morph_plane_extent (&frame, pl, &row_bytes, &rows);
    for (int y = 0; y < rows; y++)
      memset ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, pl) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, pl), 128, row_bytes);
  }
  gst_video_frame_unmap (&frame);
  return buf;
}

/* the dominant angle of lines at a known orientation, within a quarter
 * step: bright lines with openings, dark ones (text lines of a page) with
 * closings, including the wrap-around at 0/180 and sub-degree steps */
GST_START_TEST (test_dominant_angle)
{
  static const struct
  {
    double theta;
    LinParams p;
    const char *format;
  } rows[] = {
    {23, {31, 0, 180, 1, OPEN, "passthrough"}, "GRAY8"},
    {67, {31, 0, 180, 1, CLOSE, "passthrough"}, "GRAY8"},
    {101, {31, 0, 180, 1, OPEN, "passthrough"}, "I420"},
    {151, {31, 0, 180, 1, CLOSE, "passthrough"}, "NV12"},
    {4, {31, 0, 180, 1, OPEN, "passthrough"}, "GRAY16_LE"},
    {177, {31, 0, 180, 1, CLOSE, "passthrough"}, "Y444"},
    {-3.25, {61, -10, 10, 0.25, CLOSE, "passthrough"}, "GRAY8"},
    {2.25, {61, -10, 10, 0.25, CLOSE, "passthrough"}, "I420"},
    {7.75, {61, -10, 10, 0.25, CLOSE, "supremum"}, "GRAY8"},
    {37.5, {41, 30, 40, 0.5, OPEN, "orientation"}, "GRAY8"},
  };

  for (guint r = 0; r < G_N_ELEMENTS (rows); r++) {
    const LinParams *p = &rows[r].p;
    GstBus *bus;
    GstElement *e = lin_element_new ("cpu", p, &bus);
    GstHarness *h;
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstMessage *msg;
    gdouble angle;
    gchar *desc = lin_params_describe (p);

    h = lin_harness_new (e, rows[r].format, 160, 120, &info);
    in = lines_frame (&info, rows[r].theta, 9, p->op == CLOSE);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    msg = lin_pop_message (bus);
    fail_unless (msg != NULL);
    fail_unless (lin_check_message (gst_message_get_structure (msg), in,
            &info, p, desc));
    fail_unless (gst_structure_get_double (gst_message_get_structure (msg),
            "dominant-angle", &angle));
    fail_unless (fabs (angle - rows[r].theta) <= p->angle_step / 4,
        "%s: lines at %g degrees, dominant-angle %g", desc, rows[r].theta,
        angle);
    gst_message_unref (msg);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    lin_teardown (h, e, bus);
    g_free (desc);
  }
}

GST_END_TEST;

GST_START_TEST (test_interval)
{
  LinParams p = { 5, 0, 180, 30, OPEN, "passthrough" };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", &p, &bus);
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstMessage *msg;
  guint64 t;

  g_object_set (e, "interval", 3, NULL);
  h = lin_harness_new (e, "GRAY8", 17, 11, &info);

  /* frames 0, 3, 6 are reported, with their own spectrum */
  for (guint i = 0; i < 9; i++) {
    in = push_random (h, &info, 100 + i, 0, &out);
    if (i % 3 == 0) {
      check_one_message (bus, in, &info, &p, "interval 3");
    } else {
      fail_unless (lin_pop_message (bus) == NULL, "message for frame %u", i);
    }
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }

  /* timestamps say which frame a message is for */
  for (guint i = 0; i < 6; i++) {
    in = morph_make_input (&info, 200 + i, 0);
    GST_BUFFER_PTS (in) = i * GST_SECOND;
    out = gst_harness_push_and_pull (h, in);
    gst_buffer_unref (out);
  }
  for (guint i = 0; i < 2; i++) {
    msg = lin_pop_message (bus);
    fail_unless (msg != NULL);
    fail_unless (gst_structure_get_uint64 (gst_message_get_structure (msg),
            "timestamp", &t));
    fail_unless_equals_uint64 (t, 3 * i * GST_SECOND);
    gst_message_unref (msg);
  }
  fail_unless (lin_pop_message (bus) == NULL);

  /* interval 1 while PLAYING: every frame */
  g_object_set (e, "interval", 1, NULL);
  for (guint i = 0; i < 4; i++) {
    in = push_random (h, &info, 300 + i, 0, &out);
    check_one_message (bus, in, &info, &p, "interval 1");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }

  /* post-messages=false: none, frames still pass */
  g_object_set (e, "post-messages", FALSE, NULL);
  for (guint i = 0; i < 4; i++) {
    in = push_random (h, &info, 400 + i, 0, &out);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (lin_count_messages (bus), 0);
  g_object_set (e, "post-messages", TRUE, NULL);
  in = push_random (h, &info, 500, 0, &out);
  check_one_message (bus, in, &info, &p, "post-messages back on");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  lin_teardown (h, e, bus);
}

GST_END_TEST;

GST_START_TEST (test_post_messages_false)
{
  LinParams p = { 7, 0, 180, 10, CLOSE, "supremum" };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", &p, &bus);
  GstHarness *h;
  GstVideoInfo info;

  g_object_set (e, "post-messages", FALSE, NULL);
  h = lin_harness_new (e, "NV12", 21, 13, &info);
  for (guint i = 0; i < 5; i++) {
    GstBuffer *out, *in = push_random (h, &info, 600 + i, 0, &out);

    fail_unless (lin_check_supremum (in, out, &info, &p, "no messages"));
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (lin_count_messages (bus), 0);
  lin_teardown (h, e, bus);
}

GST_END_TEST;

/* supremum (infimum) on every format, chroma copied, message and meta as
 * well */
GST_START_TEST (test_supremum)
{
  guint64 seed = 700;

  for (int f = 0; f < LIN_N_FORMATS; f++) {
    for (int op = 0; op < 2; op++) {
      for (guint z = 0; z < G_N_ELEMENTS (odd_sizes); z += 2) {
        LinParams p = { 9, 0, 180, op ? 7.5 : 0.5, op ? CLOSE : OPEN,
          "supremum"
        };
        GstBus *bus;
        GstElement *e = lin_element_new ("cpu", &p, &bus);
        GstHarness *h;
        GstVideoInfo info;
        gchar *desc = lin_params_describe (&p);
        gchar *what = g_strdup_printf ("%s %dx%d %s", lin_format (f),
            odd_sizes[z].width, odd_sizes[z].height, desc);

        h = lin_harness_new (e, lin_format (f), odd_sizes[z].width,
            odd_sizes[z].height, &info);
        for (int k = 0; k < 2; k++) {
          GstBuffer *out, *in = push_random (h, &info, seed++, k * 8, &out);

          fail_unless (out != in, "%s: supremum passed the buffer through",
              what);
          fail_unless (lin_check_supremum (in, out, &info, &p, what),
              "%s: output differs from the reference", what);
          check_frame_result (bus, in, out, &info, &p, what);
          gst_buffer_unref (out);
          gst_buffer_unref (in);
        }
        lin_teardown (h, e, bus);
        g_free (what);
        g_free (desc);
      }
    }
  }
}

GST_END_TEST;

static void
check_rgba_caps (GstHarness * h, int w, int hgt, GstVideoInfo * out_info)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  gint n, d;

  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (out_info, caps));
  fail_unless_equals_string (GST_VIDEO_INFO_NAME (out_info), "RGBA");
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (out_info), w);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (out_info), hgt);
  fail_unless (gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &n, &d));
  fail_unless (n == 30 && d == 1, "framerate %d/%d", n, d);
  gst_caps_unref (caps);
}

/* output=orientation: RGBA of the same size, the reference colouring */
GST_START_TEST (test_orientation)
{
  guint64 seed = 900;

  for (int f = 0; f < LIN_N_FORMATS; f++) {
    for (int op = 0; op < 2; op++) {
      LinParams p = { 13, op ? -30 : 0, op ? 30 : 180, op ? 0.75 : 3,
        op ? CLOSE : OPEN, "orientation"
      };
      GstBus *bus;
      GstElement *e = lin_element_new ("cpu", &p, &bus);
      GstHarness *h;
      GstVideoInfo info, out_info;
      gchar *desc = lin_params_describe (&p);
      gchar *what = g_strdup_printf ("%s %s", lin_format (f), desc);

      h = lin_harness_new (e, lin_format (f), 45, 31, &info);
      for (int k = 0; k < 2; k++) {
        GstBuffer *out, *in = push_random (h, &info, seed++, k * 8, &out);

        check_rgba_caps (h, 45, 31, &out_info);
        fail_unless (lin_check_orientation (in, &info, out, &out_info, &p,
                what), "%s: orientation map differs from the reference",
            what);
        check_frame_result (bus, in, out, &info, &p, what);
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
      lin_teardown (h, e, bus);
      g_free (what);
      g_free (desc);
    }
  }
}

GST_END_TEST;

static gboolean
caps_has_format (GstCaps * caps, const char *format)
{
  gchar *s = g_strdup_printf ("video/x-raw,format=%s", format);
  GstCaps *f = gst_caps_from_string (s);
  gboolean ret = gst_caps_can_intersect (caps, f);

  gst_caps_unref (f);
  g_free (s);
  return ret;
}

/* transform_caps both ways: the sink pad offers the input formats for an
 * RGBA-only downstream only with output=orientation; the source pad
 * offers RGBA only then; RGB input is never accepted */
GST_START_TEST (test_caps_both_ways)
{
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", NULL, &bus);
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstCaps *caps, *rgba;

  gst_harness_set_sink_caps_str (h, "video/x-raw,format=RGBA");
  caps = gst_pad_query_caps (sink, NULL);
  fail_unless (gst_caps_is_empty (caps), "passthrough accepts input for an "
      "RGBA-only downstream: %" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);

  gst_util_set_object_arg (G_OBJECT (e), "output", "orientation");
  caps = gst_pad_query_caps (sink, NULL);
  for (int f = 0; f < LIN_N_FORMATS; f++)
    fail_unless (caps_has_format (caps, lin_format (f)), "%s missing in %"
        GST_PTR_FORMAT, lin_format (f), caps);
  fail_if (caps_has_format (caps, "RGBA"));
  gst_caps_unref (caps);

  /* upstream GRAY8 only: the source pad offers RGBA only */
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=16,"
      "height=8,framerate=25/1");
  caps = gst_pad_query_caps (src, NULL);
  fail_unless (caps_has_format (caps, "RGBA"), "%" GST_PTR_FORMAT, caps);
  fail_if (caps_has_format (caps, "GRAY8"), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);

  rgba = gst_caps_from_string ("video/x-raw,format=RGBA,width=16,height=8,"
      "framerate=25/1");
  fail_if (gst_pad_query_accept_caps (sink, rgba), "RGBA input accepted");
  gst_caps_unref (rgba);

  gst_object_unref (sink);
  gst_object_unref (src);
  lin_teardown (h, e, bus);
}

GST_END_TEST;

/* output and parameters changed while PLAYING apply to the next frame;
 * output changes renegotiate (RGBA and back) */
GST_START_TEST (test_change_playing)
{
  LinParams p = { 9, 0, 180, 6, OPEN, "passthrough" };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", &p, &bus);
  GstHarness *h;
  GstVideoInfo info, out_info;
  GstBuffer *in, *out;
  GstState state;
  GstCaps *caps;

  h = lin_harness_new (e, "I420", 41, 29, &info);
  fail_unless_equals_int (gst_element_get_state (e, &state, NULL, 0),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (state, GST_STATE_PLAYING);

  in = push_random (h, &info, 1, 0, &out);
  lin_check_passed_through (in, out, "passthrough");
  check_frame_result (bus, in, out, &info, &p, "passthrough");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  p.output = "supremum";
  gst_util_set_object_arg (G_OBJECT (e), "output", "supremum");
  in = push_random (h, &info, 2, 0, &out);
  fail_unless (lin_check_supremum (in, out, &info, &p, "to supremum"));
  check_frame_result (bus, in, out, &info, &p, "to supremum");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  p.length = 21;
  p.op = CLOSE;
  p.angle_min = -20;
  p.angle_max = 20;
  p.angle_step = 0.25;
  lin_params_apply (e, &p);
  in = push_random (h, &info, 3, 0, &out);
  fail_unless (lin_check_supremum (in, out, &info, &p, "new parameters"));
  check_frame_result (bus, in, out, &info, &p, "new parameters");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  p.output = "orientation";
  gst_util_set_object_arg (G_OBJECT (e), "output", "orientation");
  in = push_random (h, &info, 4, 0, &out);
  check_rgba_caps (h, 41, 29, &out_info);
  fail_unless (lin_check_orientation (in, &info, out, &out_info, &p,
          "to orientation"));
  check_frame_result (bus, in, out, &info, &p, "to orientation");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  p.op = OPEN;
  gst_util_set_object_arg (G_OBJECT (e), "operation", "open");
  in = push_random (h, &info, 5, 0, &out);
  fail_unless (lin_check_orientation (in, &info, out, &out_info, &p,
          "orientation, open"));
  check_frame_result (bus, in, out, &info, &p, "orientation, open");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  p.output = "passthrough";
  gst_util_set_object_arg (G_OBJECT (e), "output", "passthrough");
  in = push_random (h, &info, 6, 0, &out);
  lin_check_passed_through (in, out, "back to passthrough");
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps_has_format (caps, "I420"), "%" GST_PTR_FORMAT, caps);
  fail_if (caps_has_format (caps, "RGBA"), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  check_frame_result (bus, in, out, &info, &p, "back to passthrough");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* with a caps change in orientation mode */
  p.output = "orientation";
  gst_util_set_object_arg (G_OBJECT (e), "output", "orientation");
  morph_harness_set_caps (h, "GRAY16_LE", 19, 7, &info);
  in = push_random (h, &info, 7, 0, &out);
  check_rgba_caps (h, 19, 7, &out_info);
  fail_unless (lin_check_orientation (in, &info, out, &out_info, &p,
          "orientation, new caps"));
  check_frame_result (bus, in, out, &info, &p, "orientation, new caps");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  lin_teardown (h, e, bus);
}

GST_END_TEST;

/* Pops every message of @bus: the one spectrum message of the frame is
 * checked against @in, warnings are counted (errors fail). */
static guint
check_message_and_warnings (GstBus * bus, GstBuffer * in,
    const GstVideoInfo * info, const LinParams * p, const char *what)
{
  GstMessage *msg;
  guint spectra = 0, warnings = 0;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR, "%s: error", what);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
      warnings++;
    if (gst_message_has_name (msg, "cudalinspectrum")) {
      fail_unless (lin_check_message (gst_message_get_structure (msg), in,
              info, p, what), "%s: message differs from the reference", what);
      spectra++;
    }
    gst_message_unref (msg);
  }
  fail_unless_equals_int (spectra, 1);
  return warnings;
}

/* refused values leave the old value and the element keeps working */
GST_START_TEST (test_invalid_values)
{
  LinParams p = { 15, 10, 100, 2, OPEN, "passthrough" };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", &p, &bus);
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in, *out;
  gdouble d;
  guint u;

  /* one value alone: refused at once, the old one kept */
  ASSERT_WARNING (g_object_set (e, "angle-step", 0.0, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle-step", -1.0, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle-step", (gdouble) NAN, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle-step", (gdouble) INFINITY,
          NULL));
  g_object_get (e, "angle-step", &d, NULL);
  fail_unless_equals_float (d, 2.0);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle-min", (gdouble) NAN, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle-min", (gdouble) -INFINITY,
          NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle-max", (gdouble) NAN, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle-max", (gdouble) INFINITY,
          NULL));
  g_object_get (e, "angle-min", &d, NULL);
  fail_unless_equals_float (d, 10.0);
  g_object_get (e, "angle-max", &d, NULL);
  fail_unless_equals_float (d, 100.0);

  ASSERT_OUT_OF_RANGE (g_object_set (e, "length", 0, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "length",
          CM_LINSPECTRUM_MAX_LENGTH + 1, NULL));
  g_object_get (e, "length", &u, NULL);
  fail_unless_equals_int (u, 15);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "interval", 0, NULL));
  g_object_get (e, "interval", &u, NULL);
  fail_unless_equals_int (u, 1);

  h = lin_harness_new (e, "GRAY8", 23, 17, &info);
  in = push_random (h, &info, 77, 0, &out);
  check_one_message (bus, in, &info, &p, "after refused values");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* combinations: taken as set, judged at the next frame; an invalid one
   * keeps the orientations in use with one warning */
  {
    const struct
    {
      const char *name;
      gdouble value;
    } bad[] = {
      {"angle-step", 0.01},     /* 9000 orientations */
      {"angle-min", 100.0},     /* = angle-max */
      {"angle-max", -5.0},      /* below angle-min */
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
      gchar *what = g_strdup_printf ("%s = %g", bad[i].name, bad[i].value);

      g_object_get (e, bad[i].name, &d, NULL);
      g_object_set (e, bad[i].name, bad[i].value, NULL);
      for (int k = 0; k < 2; k++) {
        in = push_random (h, &info, 80 + 2 * i + k, 0, &out);
        fail_unless_equals_int (check_message_and_warnings (bus, in, &info,
                &p, what), k == 0 ? 1 : 0);
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
      /* back to the value before: no warning */
      g_object_set (e, bad[i].name, d, NULL);
      in = push_random (h, &info, 90 + i, 0, &out);
      fail_unless_equals_int (check_message_and_warnings (bus, in, &info, &p,
              what), 0);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      g_free (what);
    }
  }

  /* the largest number of orientations is fine */
  p.angle_min = 0;
  p.angle_max = 180;
  p.angle_step = 180.0 / CM_LINSPECTRUM_MAX_ANGLES;
  g_object_set (e, "angle-min", 0.0, "angle-max", 180.0, "angle-step",
      180.0 / CM_LINSPECTRUM_MAX_ANGLES, NULL);
  in = push_random (h, &info, 99, 0, &out);
  fail_unless_equals_int (check_message_and_warnings (bus, in, &info, &p,
          "4096 orientations"), 0);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  lin_teardown (h, e, bus);
}

GST_END_TEST;

/* ---- review defects: passthrough, refused output, angle race ------------ */

/* Sets output=supremum from basetransform's own log line "got DISCONT
 * buffer", which it writes between before_transform and its check for a
 * pending reconfigure: the interleaving that once left the element out of
 * passthrough with no output pool. */
static GstElement *race_element;
static gint race_armed, race_fired;

static void
race_log_hook (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * msg,
    gpointer user_data)
{
  const gchar *m = gst_debug_message_get (msg);

  if (m != NULL && g_str_has_prefix (m, "got DISCONT buffer") &&
      g_atomic_int_compare_and_exchange (&race_armed, TRUE, FALSE)) {
    gst_util_set_object_arg (G_OBJECT (race_element), "output", "supremum");
    g_atomic_int_set (&race_fired, TRUE);
  }
}

GST_START_TEST (test_passthrough_left_mid_buffer)
{
  LinParams p = { 3, 0, 180, 45, OPEN, "passthrough" };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", &p, &bus);
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstMessage *msg;

  gst_debug_set_threshold_for_name ("basetransform", GST_LEVEL_DEBUG);
  gst_debug_add_log_function (race_log_hook, NULL, NULL);
  race_element = e;

  h = lin_harness_new (e, "GRAY8", 64, 48, &info);
  /* padded rows (GstVideoMeta): a frame that cannot be sized from caps */
  in = push_random (h, &info, 11, 16, &out);
  lin_check_passed_through (in, out, "passthrough");
  check_frame_result (bus, in, out, &info, &p, "passthrough");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* output changes while this buffer is between the two steps */
  in = morph_make_input (&info, 12, 16);
  GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  g_atomic_int_set (&race_armed, TRUE);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  gst_debug_remove_log_function (race_log_hook);
  gst_debug_set_threshold_for_name ("basetransform", GST_LEVEL_NONE);
  fail_unless (g_atomic_int_get (&race_fired), "basetransform did not log "
      "\"got DISCONT buffer\": the interleaving was not forced");
  fail_unless (out != NULL, "no output for the frame in flight");
  msg = lin_pop_message (bus);
  fail_unless (msg != NULL);
  check_meta_is_message (out, gst_message_get_structure (msg),
      "frame in flight");
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* the next frames are supremum frames, in a buffer of the right size */
  p.output = "supremum";
  for (int k = 0; k < 2; k++) {
    in = push_random (h, &info, 13 + k, 16, &out);
    fail_unless (out != in, "still in passthrough");
    fail_unless (lin_check_supremum (in, out, &info, &p, "after the race"));
    check_frame_result (bus, in, out, &info, &p, "after the race");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_if (gst_bus_have_pending (bus), "error or warning on the bus");
  lin_teardown (h, e, bus);
}

GST_END_TEST;

/* the output property's nick */
static gchar *
output_nick (GstElement * e)
{
  GValue v = G_VALUE_INIT;
  gchar *nick;

  g_value_init (&v, g_object_class_find_property (G_OBJECT_GET_CLASS (e),
          "output")->value_type);
  g_object_get_property (G_OBJECT (e), "output", &v);
  nick = g_strdup (g_enum_get_value (g_type_class_peek (G_VALUE_TYPE (&v)),
          g_value_get_enum (&v))->value_nick);
  g_value_unset (&v);
  return nick;
}

/* output=orientation asked of a downstream that takes only the input
 * format: frames keep coming in the output in use (supremum), with one
 * warning, and the property says so; the same back from RGBA */
GST_START_TEST (test_refused_output_kept)
{
  LinParams p = { 9, 0, 180, 30, OPEN, "supremum" };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", &p, &bus);
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstVideoInfo info;
  GstBuffer *in, *out;
  gchar *output;

  gst_harness_set_sink_caps_str (h, "video/x-raw,format=GRAY8");
  morph_harness_set_caps (h, "GRAY8", 40, 30, &info);
  in = push_random (h, &info, 21, 0, &out);
  fail_unless (lin_check_supremum (in, out, &info, &p, "supremum"));
  check_one_message (bus, in, &info, &p, "supremum");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  gst_util_set_object_arg (G_OBJECT (e), "output", "orientation");
  for (int k = 0; k < 3; k++) {
    gchar *what = g_strdup_printf ("kept, frame %d", k);

    in = push_random (h, &info, 22 + k, 0, &out);
    fail_unless (lin_check_supremum (in, out, &info, &p, what),
        "%s: not the supremum", what);
    fail_unless_equals_int (check_message_and_warnings (bus, in, &info, &p,
            what), k == 0 ? 1 : 0);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    g_free (what);
  }
  output = output_nick (e);
  fail_unless_equals_string (output, "supremum");
  g_free (output);
  lin_teardown (h, e, bus);

  /* and from RGBA to a format downstream refuses */
  p.output = "orientation";
  e = lin_element_new ("cpu", &p, &bus);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_harness_set_sink_caps_str (h, "video/x-raw,format=RGBA");
  morph_harness_set_caps (h, "GRAY8", 40, 30, &info);
  for (int k = 0; k < 2; k++) {
    GstVideoInfo out_info;

    if (k == 1)
      gst_util_set_object_arg (G_OBJECT (e), "output", "passthrough");
    in = push_random (h, &info, 30 + k, 0, &out);
    check_rgba_caps (h, 40, 30, &out_info);
    fail_unless (lin_check_orientation (in, &info, out, &out_info, &p,
            "orientation kept"));
    fail_unless_equals_int (check_message_and_warnings (bus, in, &info, &p,
            "orientation kept"), k == 1 ? 1 : 0);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  output = output_nick (e);
  fail_unless_equals_string (output, "orientation");
  g_free (output);
  lin_teardown (h, e, bus);
}

GST_END_TEST;

/* Concurrent sets of different angle properties: none undoes another. */
static GstElement *angle_element;
static gint angle_stop;

static gpointer
set_angle_min_loop (gpointer data)
{
  for (guint i = 0; !g_atomic_int_get (&angle_stop); i++)
    g_object_set (angle_element, "angle-min", (i & 1) ? 10.0 : 20.0, NULL);
  return NULL;
}

GST_START_TEST (test_angle_sets_concurrent)
{
  GThread *t;
  guint undone = 0, n = 100000;

  angle_element = gst_element_factory_make ("cudalinspectrum", NULL);
  g_atomic_int_set (&angle_stop, FALSE);
  t = g_thread_new ("angle-min", set_angle_min_loop, NULL);
  for (guint i = 0; i < n; i++) {
    gdouble want = (i & 1) ? 2.0 : 3.0, got;

    g_object_set (angle_element, "angle-step", want, NULL);
    g_object_get (angle_element, "angle-step", &got, NULL);
    if (got != want)
      undone++;
  }
  g_atomic_int_set (&angle_stop, TRUE);
  g_thread_join (t);
  fail_unless_equals_int (undone, 0);
  gst_object_unref (angle_element);
}

GST_END_TEST;

/* angle-min=200 angle-max=300 and the other way round give the same
 * orientations: the three are judged together at the next frame */
GST_START_TEST (test_angle_order)
{
  for (int order = 0; order < 2; order++) {
    LinParams p = { 5, 200, 300, 20, OPEN, "passthrough" };
    GstBus *bus;
    GstElement *e = lin_element_new ("cpu", NULL, &bus);
    GstHarness *h;
    GstVideoInfo info;
    GstBuffer *in, *out;

    gst_util_set_object_arg (G_OBJECT (e), "length", "5");
    gst_util_set_object_arg (G_OBJECT (e), "angle-step", "20");
    if (order == 0) {
      gst_util_set_object_arg (G_OBJECT (e), "angle-min", "200");
      gst_util_set_object_arg (G_OBJECT (e), "angle-max", "300");
    } else {
      gst_util_set_object_arg (G_OBJECT (e), "angle-max", "300");
      gst_util_set_object_arg (G_OBJECT (e), "angle-min", "200");
    }
    h = lin_harness_new (e, "GRAY8", 30, 20, &info);
    in = push_random (h, &info, 7, 0, &out);
    fail_unless_equals_int (check_message_and_warnings (bus, in, &info, &p,
            order ? "max then min" : "min then max"), 0);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    lin_teardown (h, e, bus);
  }
}

GST_END_TEST;

/* an invalid combination when the element starts: an error that names
 * it, no frame */
GST_START_TEST (test_angles_invalid_at_start)
{
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", NULL, &bus);
  GstHarness *h;
  GstVideoInfo info;
  GstMessage *msg;
  GError *err = NULL;

  g_object_set (e, "angle-min", 200.0, NULL);   /* angle-max stays 180 */
  h = gst_harness_new_with_element (e, "sink", "src");
  morph_harness_set_caps (h, "GRAY8", 30, 20, &info);
  fail_if (gst_harness_push (h, morph_make_input (&info, 3, 0)) ==
      GST_FLOW_OK);
  msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "angle-max") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  lin_teardown (h, e, bus);
}

GST_END_TEST;

/* ---- the result on the buffer ------------------------------------------ */

#define META_FRAMES 8

/* What an appsink application sees: frames pushed, then every output
 * buffer taken and matched by its timestamp to the message of its frame;
 * each carries one meta (and one analytics entry) with the values of that
 * message, which is the frame's reference analysis. Inputs writable or
 * held by the test (passthrough then pushes a copy sharing the memory),
 * every output, several formats, both operations. */
GST_START_TEST (test_meta_matches_message)
{
  static const struct
  {
    const char *format, *output;
  } cases[] = {
    {"GRAY8", "passthrough"}, {"I420", "passthrough"},
    {"GRAY16_LE", "supremum"}, {"NV12", "supremum"},
    {"Y444", "orientation"}, {"GRAY8", "orientation"},
  };
  guint64 seed = 1200;

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    LinParams p = { 7, 0, 180, 15, (c % 2) ? CLOSE : OPEN, cases[c].output };
    gboolean passthrough = g_str_equal (cases[c].output, "passthrough");
    GstBus *bus;
    GstElement *e = lin_element_new ("cpu", &p, &bus);
    GstHarness *h;
    GstVideoInfo info;
    GstBuffer *ref[META_FRAMES], *held[META_FRAMES];
    gpointer pushed[META_FRAMES];
    GstMessage *msgs[META_FRAMES];
    GstMessage *msg;
    guint n_msgs = 0;
    gchar *desc = lin_params_describe (&p);

    h = lin_harness_new (e, cases[c].format, 23, 17, &info);
    for (guint i = 0; i < META_FRAMES; i++) {
      GstBuffer *in = morph_make_input (&info, seed++, (i % 3) ? 0 : 8);

      GST_BUFFER_PTS (in) = 1 * GST_SECOND + i * 40 * GST_MSECOND;
      GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
      ref[i] = gst_buffer_copy_deep (in);
      pushed[i] = in;
      /* odd frames stay referenced here: not writable for the element */
      held[i] = (i % 2) ? gst_buffer_ref (in) : NULL;
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    }
    while ((msg = lin_pop_message (bus)) != NULL) {
      fail_unless (n_msgs < META_FRAMES, "%s: more messages than frames",
          desc);
      msgs[n_msgs++] = msg;
    }
    fail_unless_equals_int (n_msgs, META_FRAMES);

    for (guint i = 0; i < META_FRAMES; i++) {
      GstBuffer *out = gst_harness_pull (h);
      const GstStructure *ms = NULL;
      GstStructure *conv;
      gchar *what;
      guint64 t;

      fail_unless (out != NULL);
      what = g_strdup_printf ("%s %s frame %u at %" GST_TIME_FORMAT,
          cases[c].format, desc, i, GST_TIME_ARGS (GST_BUFFER_PTS (out)));
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
          GST_BUFFER_PTS (ref[i]));
      for (guint m = 0; m < n_msgs && ms == NULL; m++) {
        const GstStructure *s = gst_message_get_structure (msgs[m]);

        if (gst_structure_get_uint64 (s, "timestamp", &t) &&
            t == GST_BUFFER_PTS (out))
          ms = s;
      }
      fail_unless (ms != NULL, "%s: no message with its timestamp", what);
      check_meta_is_message (out, ms, what);
      conv = lin_meta_as_message (lin_meta_structure (out, what));
      fail_unless (lin_check_message (conv, ref[i], &info, &p, what),
          "%s: meta differs from the reference", what);
      gst_structure_free (conv);
      if (passthrough && held[i] != NULL)
        lin_check_passed_through (held[i], out, what);
      else if (passthrough)
        fail_unless (out == pushed[i], "%s: writable input not pushed", what);
      else if (held[i] != NULL)
        fail_unless_equals_int (lin_meta_count (held[i]), 0);
      g_free (what);
      gst_buffer_unref (out);
    }

    for (guint i = 0; i < META_FRAMES; i++) {
      gst_buffer_unref (ref[i]);
      if (held[i] != NULL)
        gst_buffer_unref (held[i]);
      gst_message_unref (msgs[i]);
    }
    lin_teardown (h, e, bus);
    g_free (desc);
  }
}

GST_END_TEST;

/* Every buffer has its own frame's result, whatever interval and
 * post-messages say; the messages that are posted equal their frame's
 * meta. */
GST_START_TEST (test_meta_every_frame)
{
  LinParams p = { 5, -45, 45, 2.5, CLOSE, "passthrough" };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", &p, &bus);
  GstHarness *h;
  GstVideoInfo info;

  g_object_set (e, "interval", 3, NULL);
  h = lin_harness_new (e, "GRAY8", 19, 14, &info);
  for (guint i = 0; i < 10; i++) {
    GstBuffer *out, *in;
    GstStructure *conv;
    GstMessage *msg;
    gchar *what = g_strdup_printf ("interval 3, frame %u", i);

    if (i == 7)
      g_object_set (e, "post-messages", FALSE, NULL);
    in = push_random (h, &info, 1300 + i, 0, &out);
    conv = lin_meta_as_message (lin_meta_structure (out, what));
    fail_unless (lin_check_message (conv, in, &info, &p, what),
        "%s: meta differs from the reference", what);
    gst_structure_free (conv);
    msg = lin_pop_message (bus);
    if (i % 3 == 0 && i < 7) {
      fail_unless (msg != NULL, "%s: no message", what);
      check_meta_is_message (out, gst_message_get_structure (msg), what);
      gst_message_unref (msg);
    } else {
      fail_unless (msg == NULL, "%s: a message", what);
    }
    g_free (what);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  lin_teardown (h, e, bus);
}

GST_END_TEST;

/* attach-meta=false: no meta, and in passthrough the input itself even
 * when it is held elsewhere; on again while PLAYING: from the next frame */
GST_START_TEST (test_meta_off)
{
  LinParams p = { 9, 0, 180, 10, OPEN, "passthrough" };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", &p, &bus);
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in, *out;

  g_object_set (e, "attach-meta", FALSE, NULL);
  h = lin_harness_new (e, "I420", 29, 21, &info);
  in = push_random (h, &info, 1400, 0, &out);
  fail_unless (out == in, "passthrough without meta: another buffer");
  fail_unless_equals_int (lin_meta_count (out), 0);
#ifdef HAVE_GST_ANALYTICS
  fail_unless (gst_buffer_get_analytics_relation_meta (out) == NULL);
#endif
  check_one_message (bus, in, &info, &p, "attach-meta off");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  p.output = "supremum";
  gst_util_set_object_arg (G_OBJECT (e), "output", "supremum");
  in = push_random (h, &info, 1401, 0, &out);
  fail_unless (lin_check_supremum (in, out, &info, &p, "supremum, no meta"));
  fail_unless_equals_int (lin_meta_count (out), 0);
#ifdef HAVE_GST_ANALYTICS
  fail_unless (gst_buffer_get_analytics_relation_meta (out) == NULL);
#endif
  check_one_message (bus, in, &info, &p, "supremum, no meta");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  g_object_set (e, "attach-meta", TRUE, NULL);
  in = push_random (h, &info, 1402, 0, &out);
  check_frame_result (bus, in, out, &info, &p, "attach-meta on again");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  lin_teardown (h, e, bus);
}

GST_END_TEST;

/* A copy of the buffer keeps the meta and the analytics entry; the
 * structure goes through its string form unchanged (GBytes serialise);
 * the result of an earlier pass stays beside the new one. */
GST_START_TEST (test_meta_copied)
{
  LinParams p = { 11, 0, 180, 20, OPEN, "supremum" };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", &p, &bus);
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in, *out, *copy, *out2;
  GstStructure *conv, *back;
  GstMessage *msg;
  gchar *str;

  h = lin_harness_new (e, "GRAY8", 33, 25, &info);
  in = push_random (h, &info, 1500, 0, &out);
  msg = lin_pop_message (bus);
  fail_unless (msg != NULL);
  check_meta_is_message (out, gst_message_get_structure (msg), "output");

  copy = gst_buffer_copy (out);
  check_meta_is_message (copy, gst_message_get_structure (msg), "copy");
  str = gst_structure_to_string (lin_meta_structure (out, "output"));
  back = gst_structure_from_string (str, NULL);
  fail_unless (back != NULL, "meta structure not parsed back: %s", str);
  fail_unless (gst_structure_is_equal (back, lin_meta_structure (out,
              "output")), "meta structure changed through %s", str);
  gst_structure_free (back);
  g_free (str);

  /* the output through the element again: two results */
  out2 = gst_harness_push_and_pull (h, gst_buffer_ref (copy));
  fail_unless (out2 != NULL);
  fail_unless_equals_int (lin_meta_count (out2), 2);
#ifdef HAVE_GST_ANALYTICS
  fail_unless_equals_int (mtd_count (out2), 2);
#endif
  gst_buffer_unref (out2);
  fail_unless (lin_pop_message (bus) != NULL);
  gst_message_unref (msg);
  fail_unless_equals_int (lin_meta_count (in), 0);
  conv = lin_meta_as_message (lin_meta_structure (copy, "copy"));
  fail_unless (lin_check_message (conv, in, &info, &p, "copy"));
  gst_structure_free (conv);
  gst_buffer_unref (copy);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  lin_teardown (h, e, bus);
}

GST_END_TEST;

static Suite *
cudalinspectrum_suite (void)
{
  Suite *s = suite_create ("cudalinspectrum");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_inspect);
  tcase_add_test (tc, test_message_schema);
  tcase_add_test (tc, test_formats_spectrum);
  tcase_add_test (tc, test_dominant_angle);
  tcase_add_test (tc, test_interval);
  tcase_add_test (tc, test_post_messages_false);
  tcase_add_test (tc, test_supremum);
  tcase_add_test (tc, test_orientation);
  tcase_add_test (tc, test_caps_both_ways);
  tcase_add_test (tc, test_change_playing);
  tcase_add_test (tc, test_invalid_values);
  tcase_add_test (tc, test_passthrough_left_mid_buffer);
  tcase_add_test (tc, test_refused_output_kept);
  tcase_add_test (tc, test_angle_sets_concurrent);
  tcase_add_test (tc, test_angle_order);
  tcase_add_test (tc, test_angles_invalid_at_start);
  tcase_add_test (tc, test_meta_matches_message);
  tcase_add_test (tc, test_meta_every_frame);
  tcase_add_test (tc, test_meta_off);
  tcase_add_test (tc, test_meta_copied);

  return s;
}

GST_CHECK_MAIN (cudalinspectrum);
