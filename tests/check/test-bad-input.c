/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Bad input for cudamorph, cudamedian and cudalinspectrum (GstHarness,
 * CK_FORK=no), on the CPU backend by default or on the backend named by
 * CM_TEST_BACKEND (the GPU suite runs it again with "cuda"):
 *
 *  - every property at and beyond its limits (negative, zero, huge, NaN
 *    and infinite doubles, malformed and oversized masks, even median
 *    sides, angle ranges with too many orientations, bad enum values):
 *    each refused with exactly one g_warning naming the property, the old
 *    value kept, also while PLAYING, where frames keep the old filter;
 *  - 1x1, 1xN, Nx1 frames, widths whose rows are not 4-aligned, padded and
 *    odd strides (GstVideoMeta), structuring elements and windows larger
 *    than the frame, on every template format;
 *  - caps changes, flushes and EOS with no frame, buffers smaller than
 *    their caps, caps the element cannot take.
 *
 * Every frame pushed comes out once and equals the CPU reference of the
 * core (chroma, alpha and padding bytes copied); failures are element
 * errors on the bus, never crashes. */
#include <math.h>
#include <string.h>
#include <stdio.h>

#include "device.h"
#include "reliability-harness.h"
#include "test-util.h"
#include "test-suite.h"

/* ---- warnings ----------------------------------------------------------- */

/* g_warning () goes to the default domain from the plugin and to
 * "GLib-GObject" when GLib refuses a value outside a GParamSpec range. */
static const gchar *const warn_domains[] = { NULL, "GLib-GObject", "GLib",
  "GStreamer"
};

typedef struct
{
  guint count;
  GString *text;
} WarnCapture;

static void
capture_log (const gchar * domain, GLogLevelFlags level, const gchar * msg,
    gpointer user_data)
{
  WarnCapture *c = user_data;

  c->count++;
  g_string_append_printf (c->text, "[%s] %s\n", domain ? domain : "default",
      msg);
}

/* Installs @c as the handler of @levels in every domain of warn_domains,
 * the handler ids in @ids. */
static void
warn_capture_begin (WarnCapture * c, guint * ids, GLogLevelFlags levels)
{
  c->count = 0;
  c->text = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (warn_domains); i++)
    ids[i] = g_log_set_handler (warn_domains[i], levels, capture_log, c);
}

static void
warn_capture_end (guint * ids)
{
  for (guint i = 0; i < G_N_ELEMENTS (warn_domains); i++)
    g_log_remove_handler (warn_domains[i], ids[i]);
}

/* Runs @code and fails unless it logs exactly one warning whose text
 * contains @needle (case-insensitive). */
#define EXPECT_WARNING(needle, code) \
  EXPECT_WARNING_FULL (needle, "", code)
#define EXPECT_WARNING_FULL(needle, _what, code)                          \
  G_STMT_START {                                                          \
    WarnCapture _c;                                                       \
    guint _ids[G_N_ELEMENTS (warn_domains)];                              \
    gchar *_low;                                                          \
    warn_capture_begin (&_c, _ids,                                        \
        G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);                      \
    code;                                                                 \
    warn_capture_end (_ids);                                              \
    _low = g_ascii_strdown (_c.text->str, -1);                            \
    fail_unless (_c.count == 1, "%s:%d: expected one warning from `%s` " \
        "(%s), got %u: %s", __FILE__, __LINE__, #code, _what, _c.count,   \
        _c.text->str);                                                    \
    fail_unless (strstr (_low, needle) != NULL, "%s:%d: warning of `%s` " \
        "does not mention \"%s\": %s", __FILE__, __LINE__, #code, needle, \
        _c.text->str);                                                    \
    g_free (_low);                                                        \
    g_string_free (_c.text, TRUE);                                        \
  } G_STMT_END

/* GLib's refusal of a value outside a property's range: a warning up to
 * GLib 2.74, a critical in newer releases. Any other critical fails. */
static void
capture_range_refusal (const gchar * domain, GLogLevelFlags level,
    const gchar * msg, gpointer user_data)
{
  fail_unless (strstr (msg, "is invalid or out of range") != NULL,
      "unexpected critical: %s", msg);
  capture_log (domain, level, msg, user_data);
}

/* Runs @code, letting it log warnings (GStreamer's own, e.g. about a
 * buffer size, or GLib's refusal of an out-of-range value, a critical in
 * newer GLib); returns nothing, fails on nothing else. */
#define TOLERATE_WARNINGS(code)                                           \
  G_STMT_START {                                                          \
    WarnCapture _c;                                                       \
    guint _ids[G_N_ELEMENTS (warn_domains)], _range;                      \
    warn_capture_begin (&_c, _ids, G_LOG_LEVEL_WARNING);                  \
    _range = g_log_set_handler ("GLib-GObject", G_LOG_LEVEL_CRITICAL,     \
        capture_range_refusal, &_c);                                      \
    code;                                                                 \
    g_log_remove_handler ("GLib-GObject", _range);                        \
    warn_capture_end (_ids);                                              \
    if (_c.count)                                                         \
      GST_INFO ("tolerated: %s", _c.text->str);                           \
    g_string_free (_c.text, TRUE);                                        \
  } G_STMT_END

/* Runs @code and fails if it logs any warning or critical. */
#define EXPECT_NO_WARNING(code)                                           \
  G_STMT_START {                                                          \
    WarnCapture _c;                                                       \
    guint _ids[G_N_ELEMENTS (warn_domains)];                              \
    warn_capture_begin (&_c, _ids,                                        \
        G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);                      \
    code;                                                                 \
    warn_capture_end (_ids);                                              \
    fail_unless (_c.count == 0, "%s:%d: `%s` warned: %s", __FILE__,       \
        __LINE__, #code, _c.text->str);                                   \
    g_string_free (_c.text, TRUE);                                        \
  } G_STMT_END

/* ---- settings ----------------------------------------------------------- */

/* Defaults, and structuring elements / windows much larger than the small
 * frames below, with every border rule. */
static const Setting settings[] = {
  MORPH_SETTING (CM_MORPH_ERODE, CM_SHAPE_RECT, 3, 3, 1, 15, 0.0,
      "010;111;010", 1, CM_BORDER_NEUTRAL, 0),
  MORPH_SETTING (CM_MORPH_OPEN, CM_SHAPE_DISK, 3, 3, 20, 15, 0.0,
      "010;111;010", 1, CM_BORDER_REFLECT, 0),
  MORPH_SETTING (CM_MORPH_GRADIENT, CM_SHAPE_LINE, 3, 3, 1, 41, 30.0,
      "010;111;010", 2, CM_BORDER_MIRROR, 0),
  MORPH_SETTING (CM_MORPH_TOPHAT, CM_SHAPE_RECT, 64, 2, 1, 15, 0.0,
      "010;111;010", 1, CM_BORDER_CONSTANT, 300),
  MORPH_SETTING (CM_MORPH_CLOSE, CM_SHAPE_CUSTOM, 3, 3, 1, 15, 0.0,
      "1000000;0000000;0000001", 3, CM_BORDER_REPLICATE, 0),
  MEDIAN_SETTING (3, 3, 50, CM_BORDER_REPLICATE, 0, TRUE),
  MEDIAN_SETTING (31, 31, 50, CM_BORDER_MIRROR, 0, TRUE),
  MEDIAN_SETTING (15, 1, 30, CM_BORDER_CONSTANT, 77, FALSE),
  MEDIAN_SETTING (1, 21, 100, CM_BORDER_REFLECT, 0, FALSE),
  LIN_SETTING (41, 0, 180, 15, CM_MORPH_OPEN, "passthrough"),
  LIN_SETTING (3, -10, 10, 0.5, CM_MORPH_CLOSE, "supremum"),
  LIN_SETTING (64, 0, 180, 45, CM_MORPH_OPEN, "supremum"),
  /* uniform frames, 30 % and 70 % foreground (blobs-cases.h's
   * BLOBS_RANDOM) */
  BLOBS_SETTING ("connectivity=4 max-blobs=3", 0, 30),
  BLOBS_SETTING ("output=mask min-area=2 max-area=40 exclude-border=true",
      0, 70),
  TEMPORAL_SETTING (1, 50.0, CM_TEMPORAL_BACKGROUND),
  TEMPORAL_SETTING (4, 25.0, CM_TEMPORAL_DIFFERENCE),
};

/* One element of a setting in its harness, with a bus of its own */
typedef struct
{
  GstElement *e;
  GstBus *bus;
  GstHarness *h;
} SettingRun;

static void
setting_run_start (SettingRun * r, const Setting * s)
{
  r->e = setting_element_new (s, &r->bus);
  r->h = morph_harness_new (r->e);
}

static void
setting_run_clear (SettingRun * r)
{
  lin_teardown (r->h, r->e, r->bus);
}

/* 1x1, one row, one column, rows that are not 4-aligned, two sizes */
static const int frame_sizes[][2] = {
  {1, 1}, {1, 9}, {9, 1}, {2, 2}, {3, 1}, {1, 3}, {13, 7}, {7, 13}, {5, 4}
};

/* ---- frames ------------------------------------------------------------- */

GST_START_TEST (test_small_frames)
{
  const Setting *s = &settings[__i__];
  guint64 seed = 1000 * (__i__ + 1);

  for (int f = 0; f < n_formats (s->kind); f++) {
    for (guint z = 0; z < G_N_ELEMENTS (frame_sizes); z++) {
      const char *format = format_name (s->kind, f);
      int w = frame_sizes[z][0], h = frame_sizes[z][1];
      /* odd stride for 8-bit samples, padded for 16-bit ones */
      int extra = strcmp (format, "GRAY16_LE") == 0 ? 6 : 3;
      GstVideoInfo info;
      SettingRun r;

      /* CM_TEST_SAMPLE (the compute-sanitizer setups): one element per
       * format and size is hundreds of CUDA context creations */
      if (!test_sample_keep ()) {
        seed += 2;
        continue;
      }
      setting_run_start (&r, s);
      morph_harness_set_caps (r.h, format, w, h, &info);
      push_and_check (r.h, r.bus, s, &info, seed++, 0, "small frame");
      push_and_check (r.h, r.bus, s, &info, seed++, extra, "small frame");
      assert_no_error (r.bus, "small frames");
      setting_run_clear (&r);
    }
  }
}

GST_END_TEST;

/* Caps changes between frames: format, depth and size, down to 1x1 and
 * back, each frame checked with the caps it came with. */
GST_START_TEST (test_caps_changes)
{
  const Setting *s = &settings[__i__];
  static const struct
  {
    const char *format, *lin_format;
    int w, h;
  } seq[] = {
    {"GRAY8", "GRAY8", 64, 48}, {"I420", "I420", 33, 17},
    {"RGBA", "GRAY16_LE", 5, 3}, {"GRAY16_LE", "NV12", 1, 1},
    {"BGRx", "Y444", 17, 2}, {"NV12", "GRAY8", 2, 31},
    {"GRAY8", "GRAY8", 64, 48},
  };
  GstVideoInfo info;
  SettingRun r;
  guint64 seed = 77 + __i__;

  setting_run_start (&r, s);
  for (guint i = 0; i < G_N_ELEMENTS (seq); i++) {
    morph_harness_set_caps (r.h, kind_grey_yuv_only (s->kind) ?
        seq[i].lin_format : seq[i].format, seq[i].w, seq[i].h, &info);
    push_and_check (r.h, r.bus, s, &info, seed++, 0, "caps change");
    push_and_check (r.h, r.bus, s, &info, seed++, 5 * (i % 2) * 2,
        "caps change");
  }
  assert_no_error (r.bus, "caps changes");
  setting_run_clear (&r);
}

GST_END_TEST;

/* Flushes between frames (with and without resetting the time), then the
 * stream goes on with a new segment: nothing lost, nothing stale. */
GST_START_TEST (test_flush)
{
  const Setting *s = &settings[__i__];
  GstVideoInfo info;
  GstSegment seg;
  SettingRun r;
  guint64 seed = 500 + __i__;

  setting_run_start (&r, s);
  morph_harness_set_caps (r.h, "GRAY8", 21, 11, &info);
  for (int round = 0; round < 4; round++) {
    push_and_check (r.h, r.bus, s, &info, seed++, 0, "before flush");
    fail_unless (gst_harness_push_event (r.h, gst_event_new_flush_start ()));
    /* a buffer pushed while flushing is refused, not processed */
    fail_unless_equals_int (gst_harness_push (r.h,
            morph_make_input (&info, seed++, 0)), GST_FLOW_FLUSHING);
    fail_unless (gst_harness_push_event (r.h,
            gst_event_new_flush_stop (round % 2 == 0)));
    /* cudatemporal's history begins anew at a flush */
    setting_history_reset (r.e);
    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (r.h, gst_event_new_segment (&seg)));
    push_and_check (r.h, r.bus, s, &info, seed++, 0, "after flush");
    if (round == 2) {
      /* a flush right after new caps, before their first frame */
      morph_harness_set_caps (r.h, "I420", 9, 5, &info);
      fail_unless (gst_harness_push_event (r.h, gst_event_new_flush_start ()));
      fail_unless (gst_harness_push_event (r.h,
              gst_event_new_flush_stop (TRUE)));
      setting_history_reset (r.e);
      fail_unless (gst_harness_push_event (r.h, gst_event_new_segment (&seg)));
      push_and_check (r.h, r.bus, s, &info, seed++, 0, "flush after caps");
    }
  }
  fail_unless_equals_int (gst_harness_buffers_in_queue (r.h), 0);
  assert_no_error (r.bus, "flush");
  setting_run_clear (&r);
}

GST_END_TEST;

/* Pulls events until EOS; fails if none comes. */
static void
expect_eos (GstHarness * h, const char *what)
{
  GstEvent *ev;
  gboolean eos = FALSE;

  while (!eos && (ev = gst_harness_try_pull_event (h)) != NULL) {
    eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
  }
  fail_unless (eos, "%s: EOS did not come out", what);
}

/* EOS with no frame: before any caps, after caps, after a flush. */
GST_START_TEST (test_eos_without_frames)
{
  const Setting *s = &settings[__i__];
  GstVideoInfo info;
  GstSegment seg;
  SettingRun r;

  for (int variant = 0; variant < 3; variant++) {
    setting_run_start (&r, s);
    if (variant == 0) {
      fail_unless (gst_harness_push_event (r.h,
              gst_event_new_stream_start ("bad-input")));
      gst_segment_init (&seg, GST_FORMAT_TIME);
      fail_unless (gst_harness_push_event (r.h, gst_event_new_segment (&seg)));
    } else {
      morph_harness_set_caps (r.h, "GRAY8", 16, 16, &info);
    }
    if (variant == 2) {
      fail_unless (gst_harness_push_event (r.h, gst_event_new_flush_start ()));
      fail_unless (gst_harness_push_event (r.h,
              gst_event_new_flush_stop (TRUE)));
      gst_segment_init (&seg, GST_FORMAT_TIME);
      fail_unless (gst_harness_push_event (r.h, gst_event_new_segment (&seg)));
    }
    fail_unless (gst_harness_push_event (r.h, gst_event_new_eos ()));
    expect_eos (r.h, "EOS without frames");
    fail_unless_equals_int (gst_harness_buffers_in_queue (r.h), 0);
    if (s->kind == EL_LIN)
      fail_unless_equals_int (lin_count_messages (r.bus), 0);
    assert_no_error (r.bus, "EOS without frames");
    setting_run_clear (&r);
  }
}

GST_END_TEST;

/* Pops the first ERROR message of @bus, or NULL. */
static GstMessage *
pop_error (GstBus * bus)
{
  return test_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
}

/* A buffer smaller than its caps say: an element error and a flow error,
 * no read past the buffer (ASan), and the next good frame is processed. */
GST_START_TEST (test_short_buffer)
{
  const Setting *s = &settings[__i__];
  GstVideoInfo info;
  SettingRun r;
  GstMessage *msg;
  static const gsize sizes[] = { 0, 1, 100, 64 * 48 - 1 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    GstFlowReturn ret;

    setting_run_start (&r, s);
    morph_harness_set_caps (r.h, "GRAY8", 64, 48, &info);
    TOLERATE_WARNINGS (ret = gst_harness_push (r.h,
            gst_buffer_new_allocate (NULL, sizes[i], NULL)));
    fail_unless (ret != GST_FLOW_OK, "%s: a %" G_GSIZE_FORMAT "-byte buffer "
        "for 64x48 GRAY8 was accepted", kind_name (s->kind), sizes[i]);
    fail_unless_equals_int (gst_harness_buffers_in_queue (r.h), 0);
    msg = pop_error (r.bus);
    fail_unless (msg != NULL, "%s: no error message for a short buffer",
        kind_name (s->kind));
    gst_message_unref (msg);
    setting_run_clear (&r);
  }
}

GST_END_TEST;

/* Caps outside the templates are refused at negotiation: not-negotiated,
 * nothing pushed. */
GST_START_TEST (test_refused_caps)
{
  const Setting *s = &settings[__i__];
  static const char *const bad[] = {
    "video/x-raw,format=RGB,width=16,height=16,framerate=30/1",
    "video/x-raw,format=GRAY8,width=0,height=16,framerate=30/1",
    "audio/x-raw,format=S16LE,rate=8000,channels=1,layout=interleaved",
    "video/x-raw,format=RGBA,width=16,height=16,framerate=30/1",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    GstCaps *caps = gst_caps_from_string (bad[i]);
    GstSegment seg;
    SettingRun r;

    /* RGBA is fine for the filters and cudatemporal */
    if (i == 3 && !kind_grey_yuv_only (s->kind)) {
      gst_caps_unref (caps);
      continue;
    }
    setting_run_start (&r, s);
    gst_harness_push_event (r.h, gst_event_new_stream_start ("bad-caps"));
    gst_harness_push_event (r.h, gst_event_new_caps (caps));
    gst_segment_init (&seg, GST_FORMAT_TIME);
    gst_harness_push_event (r.h, gst_event_new_segment (&seg));
    fail_if (gst_harness_push (r.h, gst_buffer_new_allocate (NULL, 1024,
                NULL)) == GST_FLOW_OK, "%s took %s", kind_name (s->kind),
        bad[i]);
    fail_unless_equals_int (gst_harness_buffers_in_queue (r.h), 0);
    gst_caps_unref (caps);
    setting_run_clear (&r);
  }
}

GST_END_TEST;

/* ---- properties --------------------------------------------------------- */

static gint
get_int (GstElement * e, const char *name)
{
  gint v;

  g_object_get (e, name, &v, NULL);
  return v;
}

static gdouble
get_double (GstElement * e, const char *name)
{
  gdouble v;

  g_object_get (e, name, &v, NULL);
  return v;
}

static gint
get_enum (GstElement * e, const char *name)
{
  GValue v = G_VALUE_INIT;
  gint r;

  g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (g_object_class_find_property
          (G_OBJECT_GET_CLASS (e), name)));
  g_object_get_property (G_OBJECT (e), name, &v);
  r = g_value_get_enum (&v);
  g_value_unset (&v);
  return r;
}

/* An int or uint property @name set to @v through a value of its own
 * type */
static void
set_integer (GstElement * e, const char *name, gint64 v)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      name);
  GValue gv = G_VALUE_INIT;

  g_value_init (&gv, ps->value_type);
  if (G_IS_PARAM_SPEC_INT (ps))
    g_value_set_int (&gv, (gint) v);
  else
    g_value_set_uint (&gv, (guint) v);
  g_object_set_property (G_OBJECT (e), name, &gv);
  g_value_unset (&gv);
}

static gint64
get_integer (GstElement * e, const char *name)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      name);

  if (G_IS_PARAM_SPEC_INT (ps))
    return get_int (e, name);
  else {
    guint v;

    g_object_get (e, name, &v, NULL);
    return v;
  }
}

/* Every int or uint property: the limits are taken, anything beyond is
 * refused with a warning and the value kept, as is a string that is no
 * number; @odd_only: even values are refused too. Values the type cannot
 * hold are not tried. */
static void
check_integer_limits (GstElement * e, const char *name, gboolean odd_only)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      name);
  gboolean is_int = G_IS_PARAM_SPEC_INT (ps);
  gint64 min, max, def, type_min, type_max, old;
  gint64 bad[8];
  guint n_bad = 0;
  const char *junk;

  if (is_int) {
    GParamSpecInt *pi = G_PARAM_SPEC_INT (ps);

    min = pi->minimum;
    max = pi->maximum;
    def = pi->default_value;
    type_min = G_MININT;
    type_max = G_MAXINT;
    junk = "twelve";
  } else {
    GParamSpecUInt *pu = G_PARAM_SPEC_UINT (ps);

    min = pu->minimum;
    max = pu->maximum;
    def = pu->default_value;
    type_min = 0;
    type_max = G_MAXUINT;
    junk = "-1x";
  }
  bad[n_bad++] = min - 1;
  bad[n_bad++] = max + 1;
  if (is_int) {
    static const gint64 more[] = { -1, 0, G_MININT, G_MAXINT, 2, 1024 };

    for (guint i = 0; i < G_N_ELEMENTS (more); i++)
      bad[n_bad++] = more[i];
  } else {
    bad[n_bad++] = G_MAXUINT;
  }

  /* the limits themselves */
  EXPECT_NO_WARNING (set_integer (e, name, min));
  fail_unless_equals_int64 (get_integer (e, name), min);
  EXPECT_NO_WARNING (set_integer (e, name, max));
  fail_unless_equals_int64 (get_integer (e, name), max);
  set_integer (e, name, def);
  old = get_integer (e, name);

  for (guint i = 0; i < n_bad; i++) {
    gboolean fine = bad[i] >= min && bad[i] <= max &&
        (!odd_only || bad[i] % 2 == 1);

    if (fine || bad[i] < type_min || bad[i] > type_max)
      continue;
    EXPECT_WARNING (name, set_integer (e, name, bad[i]));
    fail_unless_equals_int64 (get_integer (e, name), old);
  }
  /* a string that is no number: refused, kept */
  gst_util_set_object_arg (G_OBJECT (e), name, junk);
  fail_unless_equals_int64 (get_integer (e, name), old);
}

/* NaN, infinities and values beyond the range of a double property. */
static void
check_double_limits (GstElement * e, const char *name)
{
  GParamSpecDouble *ps = G_PARAM_SPEC_DOUBLE (g_object_class_find_property
      (G_OBJECT_GET_CLASS (e), name));
  const gdouble bad[] = { NAN, -NAN, INFINITY, -INFINITY, ps->maximum + 0.5,
    ps->minimum - 0.5, G_MAXDOUBLE, -G_MAXDOUBLE
  };
  gdouble old = get_double (e, name);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    gchar *v = g_strdup_printf ("%s = %g", name, bad[i]);

    EXPECT_WARNING_FULL (name, v, g_object_set (e, name, bad[i], NULL));
    g_free (v);
    fail_unless (get_double (e, name) == old, "%s changed to %g after %g",
        name, get_double (e, name), bad[i]);
  }
  gst_util_set_object_arg (G_OBJECT (e), name, "nan?");
  fail_unless (get_double (e, name) == old);
}

/* Out-of-range integers and unknown nicks for an enum property. */
static void
check_enum_limits (GstElement * e, const char *name)
{
  gint old = get_enum (e, name);
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      name);
  GEnumClass *ec = g_type_class_ref (ps->value_type);

  EXPECT_WARNING (name, g_object_set (e, name, ec->maximum + 1, NULL));
  fail_unless_equals_int (get_enum (e, name), old);
  EXPECT_WARNING (name, g_object_set (e, name, -1, NULL));
  fail_unless_equals_int (get_enum (e, name), old);
  EXPECT_WARNING (name, g_object_set (e, name, G_MAXINT, NULL));
  fail_unless_equals_int (get_enum (e, name), old);
  gst_util_set_object_arg (G_OBJECT (e), name, "no-such-value");
  fail_unless_equals_int (get_enum (e, name), old);
  gst_util_set_object_arg (G_OBJECT (e), name, "99");
  fail_unless_equals_int (get_enum (e, name), old);
  /* (GStreamer reads "" as the number 0, a valid value: not tried) */
  g_type_class_unref (ec);
}

/* A property whose limits are checked: int, uint, double or enum;
 * @odd_only for the int sides that take odd values only. */
typedef struct
{
  const char *name;
  gboolean odd_only;
} LimitedProperty;

/* A new @factory element, its common properties and then those of
 * @props (up to a NULL name) checked at and beyond their limits. */
static GstElement *
element_new_limits_checked (const char *factory,
    const LimitedProperty * props)
{
  static const LimitedProperty common[] = {
    {"backend"}, {"cuda-device-id"}, {NULL}
  };
  const LimitedProperty *const lists[] = { common, props };
  GstElement *e = gst_element_factory_make (factory, NULL);

  fail_unless (e != NULL);
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++) {
    for (const LimitedProperty * p = lists[l]; p->name != NULL; p++) {
      GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
          p->name);

      fail_unless (ps != NULL, "%s has no property %s", factory, p->name);
      if (G_IS_PARAM_SPEC_ENUM (ps))
        check_enum_limits (e, p->name);
      else if (G_IS_PARAM_SPEC_DOUBLE (ps))
        check_double_limits (e, p->name);
      else
        check_integer_limits (e, p->name, p->odd_only);
    }
  }
  return e;
}

/* A mask of @rows x @cols ones, rows separated by ';'. */
static gchar *
ones_mask (int rows, int cols)
{
  GString *s = g_string_new (NULL);

  for (int r = 0; r < rows; r++) {
    if (r)
      g_string_append_c (s, ';');
    for (int c = 0; c < cols; c++)
      g_string_append_c (s, '1');
  }
  return g_string_free (s, FALSE);
}

static const LimitedProperty morph_limits[] = {
  {"width"}, {"height"}, {"radius"}, {"length"}, {"iterations"},
  {"border-value"}, {"angle"}, {"operation"}, {"shape"}, {"border"}, {NULL}
};

GST_START_TEST (test_morph_properties)
{
  GstElement *e = element_new_limits_checked ("cudamorph", morph_limits);
  static const char *const bad_masks[] = {
    "", ";", ";;", "1;", ";1", "012", "01;1", "0;0", "000;000;000", "abc",
    "1 1;1", "1,1;1,1", "1;;1", "\xc3\xa9", "1\xff", "+1", "1e0", "11;1 1 1",
    "0x1", "1\n;1\n1",
  };
  gchar *mask, *big;

  /* angles at the limits and beyond a turn are taken */
  EXPECT_NO_WARNING (g_object_set (e, "angle", 360.0, NULL));
  EXPECT_NO_WARNING (g_object_set (e, "angle", -360.0, NULL));
  EXPECT_NO_WARNING (g_object_set (e, "angle", 1e-300, NULL));

  /* masks: malformed ones refused, the previous one kept */
  g_object_set (e, "mask", "101;010;101", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (bad_masks); i++) {
    EXPECT_WARNING ("mask", g_object_set (e, "mask", bad_masks[i], NULL));
    g_object_get (e, "mask", &mask, NULL);
    fail_unless_equals_string (mask, "101;010;101");
    g_free (mask);
  }
  EXPECT_WARNING ("mask", g_object_set (e, "mask", NULL, NULL));
  /* sizes at and beyond CM_SE_MAX_CUSTOM each way */
  big = ones_mask (CM_SE_MAX_CUSTOM, CM_SE_MAX_CUSTOM);
  EXPECT_NO_WARNING (g_object_set (e, "mask", big, NULL));
  g_free (big);
  big = ones_mask (1, CM_SE_MAX_CUSTOM + 1);
  EXPECT_WARNING ("mask", g_object_set (e, "mask", big, NULL));
  g_free (big);
  big = ones_mask (CM_SE_MAX_CUSTOM + 1, 1);
  EXPECT_WARNING ("mask", g_object_set (e, "mask", big, NULL));
  g_free (big);
  /* 1 MB of ones in one row, and 100 000 rows */
  big = ones_mask (1, 1 << 20);
  EXPECT_WARNING ("mask", g_object_set (e, "mask", big, NULL));
  g_free (big);
  big = ones_mask (100000, 1);
  EXPECT_WARNING ("mask", g_object_set (e, "mask", big, NULL));
  g_free (big);
  g_object_get (e, "mask", &mask, NULL);
  big = ones_mask (CM_SE_MAX_CUSTOM, CM_SE_MAX_CUSTOM);
  fail_unless_equals_string (mask, big);
  g_free (big);
  g_free (mask);

  gst_object_unref (e);
}

GST_END_TEST;

static const LimitedProperty median_limits[] = {
  {"size", TRUE}, {"width", TRUE}, {"height", TRUE}, {"percentile"},
  {"border-value"}, {"border"}, {"color-mode"}, {"algorithm"}, {NULL}
};

GST_START_TEST (test_median_properties)
{
  GstElement *e = element_new_limits_checked ("cudamedian", median_limits);

  /* an even size keeps both sides of a rectangular window */
  g_object_set (e, "width", 7, "height", 5, NULL);
  EXPECT_WARNING ("size", g_object_set (e, "size", 4, NULL));
  fail_unless_equals_int (get_int (e, "width"), 7);
  fail_unless_equals_int (get_int (e, "height"), 5);
  EXPECT_WARNING ("even", g_object_set (e, "height", 254, NULL));
  fail_unless_equals_int (get_int (e, "height"), 5);
  EXPECT_NO_WARNING (g_object_set (e, "percentile", 0.0, NULL));
  EXPECT_NO_WARNING (g_object_set (e, "percentile", 100.0, NULL));
  EXPECT_NO_WARNING (g_object_set (e, "percentile", 4.9e-324, NULL));

  gst_object_unref (e);
}

GST_END_TEST;

static const LimitedProperty lin_limits[] = {
  {"length"}, {"interval"}, {"operation"}, {"output"}, {"angle-min"},
  {"angle-max"}, {NULL}
};

GST_START_TEST (test_linspectrum_properties)
{
  GstElement *e = element_new_limits_checked ("cudalinspectrum", lin_limits);

  /* angle-step alone: 0, negative, NaN, infinite refused at once */
  g_object_set (e, "angle-min", 0.0, "angle-max", 180.0, "angle-step", 1.0,
      NULL);
  {
    const gdouble bad[] = { 0.0, -1.0, -0.0, NAN, INFINITY, -INFINITY,
      361.0
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
      EXPECT_WARNING ("angle-step", g_object_set (e, "angle-step", bad[i],
              NULL));
      fail_unless (get_double (e, "angle-step") == 1.0);
    }
  }
  /* combinations (more than 4096 orientations, an empty or reversed
   * range) are taken as set and judged at the next frame, whatever the
   * order (test-cudalinspectrum: test_invalid_values, test_angle_order) */
  {
    const gdouble steps[] = { 1e-3, 180.0 / 4097, 4.9e-324 };
    for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
      EXPECT_NO_WARNING (g_object_set (e, "angle-step", steps[i], NULL));
      fail_unless (get_double (e, "angle-step") == steps[i]);
    }
  }
  g_object_set (e, "angle-max", 4096.0 / 16, "angle-min", 0.0, NULL);
  EXPECT_NO_WARNING (g_object_set (e, "angle-step", 1.0 / 16, NULL));
  EXPECT_NO_WARNING (g_object_set (e, "angle-max", 4097.0 / 16, NULL));
  EXPECT_NO_WARNING (g_object_set (e, "angle-min", 256.0, NULL));
  EXPECT_NO_WARNING (g_object_set (e, "angle-max", -1.0, NULL));
  fail_unless (get_double (e, "angle-min") == 256.0);
  fail_unless (get_double (e, "angle-max") == -1.0);
  /* the limits of the range with one orientation */
  g_object_set (e, "angle-step", 360.0, NULL);
  EXPECT_NO_WARNING (g_object_set (e, "angle-min", -360.0, NULL));
  EXPECT_NO_WARNING (g_object_set (e, "angle-max", 360.0, NULL));

  gst_object_unref (e);
}

GST_END_TEST;

static const LimitedProperty blobs_limits[] = {
  {"threshold"}, {"connectivity"}, {"min-area"}, {"max-area"},
  {"max-blobs"}, {"interval"}, {"output"}, {NULL}
};

GST_START_TEST (test_blobs_properties)
{
  GstElement *e = element_new_limits_checked ("cudablobs", blobs_limits);

  /* 5, 6 and 7 lie in the range but are no connectivity */
  g_object_set (e, "connectivity", 4, NULL);
  for (gint c = 5; c <= 7; c++) {
    EXPECT_WARNING ("connectivity", g_object_set (e, "connectivity", c,
            NULL));
    fail_unless_equals_int (get_int (e, "connectivity"), 4);
  }
  /* the area limits alone take any value (judged together at the next
   * frame: test-cudablobs-properties) */
  EXPECT_NO_WARNING (g_object_set (e, "min-area", 100u, "max-area", 10u,
          NULL));

  gst_object_unref (e);
}

GST_END_TEST;

static const LimitedProperty temporal_limits[] = {
  {"frames"}, {"percentile"}, {"output"}, {NULL}
};

GST_START_TEST (test_temporal_properties)
{
  GstElement *e = element_new_limits_checked ("cudatemporal",
      temporal_limits);

  EXPECT_NO_WARNING (g_object_set (e, "percentile", 0.0, NULL));
  EXPECT_NO_WARNING (g_object_set (e, "percentile", 100.0, NULL));
  EXPECT_NO_WARNING (g_object_set (e, "frames", 255u, NULL));

  gst_object_unref (e);
}

GST_END_TEST;

/* GLib up to 2.74 lets through double values a hair outside a property's
 * range without a warning (its tolerance; newer GLib refuses them): the
 * element must read back a value inside the range and keep filtering.
 * Found by tests/fuzz (cudamedian took percentile -1e-168, then every
 * frame failed with an element error). */
GST_START_TEST (test_double_tolerance)
{
  const Setting *s = &settings[__i__];
  GstVideoInfo info;
  SettingRun r;
  GParamSpec **props;
  guint n_props;
  guint64 seed = 1300 + __i__;

  setting_run_start (&r, s);
  morph_harness_set_caps (r.h, "GRAY8", 12, 10, &info);
  props = g_object_class_list_properties (G_OBJECT_GET_CLASS (r.e), &n_props);
  for (guint i = 0; i < n_props; i++) {
    GParamSpecDouble *ps;
    gdouble edges[4], got;

    if (!G_IS_PARAM_SPEC_DOUBLE (props[i]))
      continue;
    ps = G_PARAM_SPEC_DOUBLE (props[i]);
    edges[0] = ps->minimum - 1e-300;
    edges[1] = ps->minimum - fabs (ps->minimum) * 1e-15 - 1e-200;
    edges[2] = ps->maximum + fabs (ps->maximum) * 1e-15 + 1e-200;
    edges[3] = ps->maximum + 1e-300;
    for (guint k = 0; k < G_N_ELEMENTS (edges); k++) {
      gdouble old = get_double (r.e, props[i]->name);

      TOLERATE_WARNINGS (g_object_set (r.e, props[i]->name, edges[k], NULL));
      got = get_double (r.e, props[i]->name);
      fail_unless (got >= ps->minimum && got <= ps->maximum, "%s: %s = %a "
          "reads back %a, outside [%g, %g]", kind_name (s->kind),
          props[i]->name, edges[k], got, ps->minimum, ps->maximum);
      /* the filter of the test row again, for the reference */
      g_object_set (r.e, props[i]->name, old, NULL);
      TOLERATE_WARNINGS (g_object_set (r.e, props[i]->name, edges[k], NULL));
      if (get_double (r.e, props[i]->name) != old) {
        /* the value moved: only frames without error are asked for */
        GstBuffer *in = morph_make_input (&info, seed++, 0);
        GList *msgs;

        setting_frame_pushed (s, r.e, &info, in);
        fail_unless_equals_int (gst_harness_push (r.h, in), GST_FLOW_OK);
        gst_buffer_unref (gst_harness_pull (r.h));
        msgs = drain_bus (r.bus, "double tolerance");
        g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
        g_object_set (r.e, props[i]->name, old, NULL);
      }
    }
  }
  g_free (props);
  push_and_check (r.h, r.bus, s, &info, seed++, 0, "after edge values");
  setting_run_clear (&r);
}

GST_END_TEST;

/* Refused values while PLAYING: warnings, and the frames keep being
 * filtered with the values in force. */
GST_START_TEST (test_refused_while_playing)
{
  const Setting *s = &settings[__i__];
  GstVideoInfo info;
  SettingRun r;
  guint64 seed = 900 + __i__;

  setting_run_start (&r, s);
  morph_harness_set_caps (r.h, n_formats (s->kind) > 5 ? "RGBx" : "I420", 19,
      9, &info);
  push_and_check (r.h, r.bus, s, &info, seed++, 0, "before refusals");
  switch (s->kind) {
    case EL_MORPH:
      EXPECT_WARNING ("mask", g_object_set (r.e, "mask", "1;11", NULL));
      EXPECT_WARNING ("angle", g_object_set (r.e, "angle", NAN, NULL));
      EXPECT_WARNING ("width", g_object_set (r.e, "width", 0, NULL));
      EXPECT_WARNING ("iterations", g_object_set (r.e, "iterations", 65,
              NULL));
      break;
    case EL_MEDIAN:
      EXPECT_WARNING ("size", g_object_set (r.e, "size", 6, NULL));
      EXPECT_WARNING ("percentile", g_object_set (r.e, "percentile", NAN,
              NULL));
      EXPECT_WARNING ("width", g_object_set (r.e, "width", 257, NULL));
      break;
    case EL_LIN:
      /* the angles together are judged at the next frame (a bus warning,
       * the orientations in use kept); one value alone at once */
      EXPECT_WARNING ("angle-step", g_object_set (r.e, "angle-step", 0.0,
              NULL));
      EXPECT_WARNING ("length", g_object_set (r.e, "length", 0u, NULL));
      break;
    case EL_BLOBS:
      /* the area limits together are judged at the next frame (a bus
       * warning, the limits in use kept); one value alone at once */
      EXPECT_WARNING ("connectivity", g_object_set (r.e, "connectivity", 6,
              NULL));
      EXPECT_WARNING ("interval", g_object_set (r.e, "interval", 0u, NULL));
      break;
    case EL_TEMPORAL:
      EXPECT_WARNING ("frames", g_object_set (r.e, "frames", 0u, NULL));
      EXPECT_WARNING ("percentile", g_object_set (r.e, "percentile", NAN,
              NULL));
      break;
  }
  push_and_check (r.h, r.bus, s, &info, seed++, 0, "after refusals");
  push_and_check (r.h, r.bus, s, &info, seed++, 4, "after refusals");
  assert_no_error (r.bus, "refused while playing");
  setting_run_clear (&r);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_morph_properties),
  TEST_SUITE_TEST (test_median_properties),
  TEST_SUITE_TEST (test_linspectrum_properties),
  TEST_SUITE_TEST (test_blobs_properties),
  TEST_SUITE_TEST (test_temporal_properties),
  TEST_SUITE_LOOP (test_refused_while_playing, 0, G_N_ELEMENTS (settings)),
  TEST_SUITE_LOOP (test_double_tolerance, 0, G_N_ELEMENTS (settings)),
  TEST_SUITE_LOOP (test_small_frames, 0, G_N_ELEMENTS (settings)),
  TEST_SUITE_LOOP (test_caps_changes, 0, G_N_ELEMENTS (settings)),
  TEST_SUITE_LOOP (test_flush, 0, G_N_ELEMENTS (settings)),
  TEST_SUITE_LOOP (test_eos_without_frames, 0, G_N_ELEMENTS (settings)),
  TEST_SUITE_LOOP (test_short_buffer, 0, G_N_ELEMENTS (settings)),
  TEST_SUITE_LOOP (test_refused_caps, 0, G_N_ELEMENTS (settings)),
  {NULL}
};

int
main (int argc, char **argv)
{
  return test_backend_main (&argc, &argv, "bad-input", suite_tests);
}
