/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the base class gives every element, on the CPU backend: QoS on by
 * default (late frames are dropped and reported, as GStreamer's video
 * filters do), interlaced caps refused with a warning that says what to
 * do, and the input's metas kept on the output unless they depend on its
 * memory (or on its colour space, when the format changes), per-frame
 * properties that a control binding drives, for cudamorph, cudamedian
 * and cudalinspectrum alike; a long frame on the CPU stops at a flush or a
 * stop (cudamorph, cudamedian). */
#include <string.h>

#include "element-harness.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "test-suite.h"

static const char *const elements[] = {
  "cudamorph", "cudamedian", "cudalinspectrum", "cudablobs"
};

GST_START_TEST (test_qos_default)
{
  for (guint i = 0; i < G_N_ELEMENTS (elements); i++) {
    GstElement *e = test_element_new (elements[i], "cpu");
    gboolean qos = FALSE;

    g_object_get (e, "qos", &qos, NULL);
    fail_unless (qos, "%s: QoS off by default", elements[i]);
    gst_object_unref (e);
  }
}

GST_END_TEST;

GST_START_TEST (test_interlaced_refused)
{
  for (guint i = 0; i < G_N_ELEMENTS (elements); i++) {
    GstElement *e = test_element_new (elements[i], "cpu");
    GstBus *bus = gst_bus_new ();
    GstHarness *h;
    GstMessage *msg;
    GError *err = NULL;
    GstVideoInfo info;
    GstBuffer *buf;

    gst_element_set_bus (e, bus);
    h = gst_harness_new_with_element (e, "sink", "src");
    gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=32,"
        "height=16,framerate=30/1,interlace-mode=interleaved");
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 32, 16);
    buf = morph_make_input (&info, 5, 0);
    fail_unless_equals_int (gst_harness_push (h, buf),
        GST_FLOW_NOT_NEGOTIATED);
    /* refused like caps a stock element cannot take (upstream posts the
     * one not-negotiated error), with a warning that says what to do */
    msg = test_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
    fail_unless (msg != NULL, "%s: no warning for interlaced caps",
        elements[i]);
    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (strstr (err->message, "deinterlace") != NULL,
        "%s: the warning does not say what to do: %s", elements[i],
        err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
    fail_unless (test_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL,
        "%s: an element error for caps it refused", elements[i]);
    gst_harness_teardown (h);
    while ((msg = gst_bus_pop (bus)) != NULL)
      gst_message_unref (msg);
    gst_element_set_bus (e, NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* ---- metas ---------------------------------------------------------- */

/* A meta of the given tags that copies itself. */
static gboolean
test_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  return TRUE;
}

static gboolean
test_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  return gst_buffer_add_meta (dest, meta->info, NULL) != NULL;
}

static const GstMetaInfo *
test_meta_info (const char *name, const gchar ** tags)
{
  gchar *api_name = g_strdup_printf ("%sAPI", name);
  GType api = gst_meta_api_type_register (api_name, tags);
  const GstMetaInfo *info = gst_meta_register (api, name, sizeof (GstMeta),
      test_meta_init, NULL, test_meta_transform);

  g_free (api_name);
  return info;
}

static gboolean
has_meta (GstBuffer * buf, GType api)
{
  return gst_buffer_get_meta (buf, api) != NULL;
}

GST_START_TEST (test_metas_kept)
{
  static const gchar *memory_tags[] = { GST_META_TAG_MEMORY_STR, NULL };
  static const gchar *colour_tags[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_COLORSPACE_STR, NULL
  };
  const GstMetaInfo *memory_meta = test_meta_info ("TestMemoryMeta",
      memory_tags);
  const GstMetaInfo *colour_meta = test_meta_info ("TestColourMeta",
      colour_tags);
  /* element, and the analysers' output (NULL: the element's default) */
  static const char *const cases[][2] = {
    {"cudamorph", NULL}, {"cudamedian", NULL},
    {"cudalinspectrum", "supremum"}, {"cudalinspectrum", "orientation"},
    {"cudablobs", "mask"}, {"cudablobs", "labels"}
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstElement *e = test_element_new (cases[i][0], "cpu");
    gboolean converts = cases[i][1] && (!strcmp (cases[i][1], "orientation")
        || !strcmp (cases[i][1], "labels"));
    gchar *what = g_strdup_printf ("%s%s%s", cases[i][0],
        cases[i][1] ? " output=" : "", cases[i][1] ? cases[i][1] : "");
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstHarness *h;
    gfloat matrix[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    GstVideoAffineTransformationMeta *affine;

    if (cases[i][1])
      gst_util_set_object_arg (G_OBJECT (e), "output", cases[i][1]);
    h = gst_harness_new_with_element (e, "sink", "src");
    gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=64,"
        "height=32,framerate=30/1");
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 32);
    in = morph_make_input (&info, 11 + i, 0);
    gst_buffer_add_video_region_of_interest_meta (in, "defect", 3, 4, 20,
        10);
    affine = gst_buffer_add_video_affine_transformation_meta (in);
    gst_video_affine_transformation_meta_apply_matrix (affine, matrix);
    gst_buffer_add_meta (in, memory_meta, NULL);
    gst_buffer_add_meta (in, colour_meta, NULL);

    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "%s: no output", what);
    fail_unless (has_meta (out, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE),
        "%s: the region of interest was dropped", what);
    fail_unless (has_meta (out,
            GST_VIDEO_AFFINE_TRANSFORMATION_META_API_TYPE),
        "%s: the affine transformation was dropped", what);
    fail_if (has_meta (out, memory_meta->api), "%s: a meta about the "
        "input's memory was copied", what);
    fail_unless (has_meta (out, colour_meta->api) == !converts,
        "%s: a colour-space meta was %s", what, converts ? "kept although "
        "the format changed" : "dropped although the format is the same");
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    gst_object_unref (e);
    g_free (what);
  }
}

GST_END_TEST;

/* ---- controlled properties ------------------------------------------ */

/* A control binding that sets "iterations" to 1 before one second of
 * stream time and to 3 from then on (GstController's bindings work the
 * same way; this one needs no controller library). */
typedef struct
{
  GstControlBinding parent;
} StepBinding;

typedef struct
{
  GstControlBindingClass parent_class;
} StepBindingClass;

GType step_binding_get_type (void);
G_DEFINE_TYPE (StepBinding, step_binding, GST_TYPE_CONTROL_BINDING);

static gboolean
step_binding_sync_values (GstControlBinding * binding, GstObject * object,
    GstClockTime timestamp, GstClockTime last_sync)
{
  g_object_set (object, binding->name, timestamp >= GST_SECOND ? 3 : 1,
      NULL);
  return TRUE;
}

static GValue *
step_binding_get_value (GstControlBinding * binding, GstClockTime timestamp)
{
  return NULL;
}

static void
step_binding_class_init (StepBindingClass * klass)
{
  GST_CONTROL_BINDING_CLASS (klass)->sync_values = step_binding_sync_values;
  GST_CONTROL_BINDING_CLASS (klass)->get_value = step_binding_get_value;
}

static void
step_binding_init (StepBinding * self)
{
}

GST_START_TEST (test_controlled_property)
{
  GstElement *e = test_element_new ("cudamorph", "cpu");
  MorphParams p = MORPH_PARAMS_DEFAULT;
  GstControlBinding *binding;
  GstVideoInfo info;
  GstHarness *h;

  /* the per-frame properties of the elements are controllable */
  {
    static const char *const props[][2] = {
      {"cudamorph", "radius"}, {"cudamorph", "angle"}, {"cudamorph",
          "operation"}, {"cudamedian", "percentile"}, {"cudamedian",
          "size"}, {"cudalinspectrum", "angle-min"}, {"cudalinspectrum",
          "length"}, {"cudablobs", "threshold"}, {"cudablobs", "min-area"}
    };

    for (guint i = 0; i < G_N_ELEMENTS (props); i++) {
      GstElement *o = test_element_new (props[i][0], "cpu");
      GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (o),
          props[i][1]);

      fail_unless (ps != NULL && (ps->flags & GST_PARAM_CONTROLLABLE),
          "%s:%s is not controllable", props[i][0], props[i][1]);
      gst_object_unref (o);
    }
  }

  binding = g_object_new (step_binding_get_type (), "object", e, "name",
      "iterations", NULL);
  fail_unless (binding->pspec != NULL, "iterations is not controllable");
  fail_unless (gst_object_add_control_binding (GST_OBJECT (e), binding));

  h = gst_harness_new_with_element (e, "sink", "src");
  morph_harness_set_caps (h, "GRAY8", 48, 24, &info);
  for (int k = 0; k < 3; k++) {
    GstBuffer *in = morph_make_input (&info, 40 + k, 0), *out;
    gchar *what = g_strdup_printf ("frame at %d s", k);

    GST_BUFFER_PTS (in) = k * GST_SECOND;
    GST_BUFFER_DURATION (in) = GST_SECOND;
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL, "%s: no output", what);
    /* the value the binding gives at the buffer's time, from that frame */
    p.iterations = k >= 1 ? 3 : 1;
    fail_unless (morph_check_output (in, out, &info, &p, what),
        "%s: not filtered with %d iteration(s)", what, p.iterations);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    g_free (what);
  }
  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* ---- a long frame on the CPU stops ---------------------------------- */

typedef struct
{
  GstHarness *h;
  GstBuffer *buf;
  GstFlowReturn ret;
  gint64 returned;
} PushJob;

static gpointer
push_job (gpointer data)
{
  PushJob *j = data;

  j->ret = gst_harness_push (j->h, j->buf);
  j->returned = g_get_monotonic_time ();
  return NULL;
}

/* A frame of seconds on the CPU backend (cudamorph: open by a disk of
 * radius 150, 16 iterations, 4096x2048, about 4.7 s whole on two cores;
 * cudamedian: a 255x255 window over 4096x2048 16-bit samples, about 21
 * s): a flush, or going to READY, must stop it without an error, long
 * before its end. It stops between two rows, a few milliseconds each,
 * so it takes tens of milliseconds on an idle machine; the bound, STOP_MS,
 * leaves room for a loaded one (149 ms was seen beside a CI run on two
 * cores) and is still under a quarter of the shorter frame. */
#define STOP_MS 1000
GST_START_TEST (test_cpu_frame_stopped)
{
  for (int run = 0; run < 4; run++) {
    int how = run % 2, median = run / 2;
    GstElement *e = test_element_new (median ? "cudamedian" : "cudamorph",
        "cpu");
    GstBus *bus = gst_bus_new ();
    GstVideoInfo info;
    PushJob job = { 0, };
    GThread *t;
    gint64 asked;
    GstMessage *msg;
    gchar *what = g_strdup_printf ("%s, %s", median ? "cudamedian" :
        "cudamorph", how ? "state change to READY" : "flush");

    if (median) {
      g_object_set (e, "size", 255, NULL);
    } else {
      g_object_set (e, "radius", 150, "iterations", 16, NULL);
      gst_util_set_object_arg (G_OBJECT (e), "operation", "open");
      gst_util_set_object_arg (G_OBJECT (e), "shape", "disk");
    }
    gst_element_set_bus (e, bus);
    job.h = gst_harness_new_with_element (e, "sink", "src");
    if (median)
      morph_harness_set_caps (job.h, "GRAY16_LE", 4096, 2048, &info);
    else
      morph_harness_set_caps (job.h, "GRAY8", 4096, 2048, &info);
    job.buf = morph_make_input (&info, 90, 0);
    t = g_thread_new ("push", push_job, &job);
    g_usleep (300 * 1000);
    fail_if (job.returned != 0, "the frame took less than 0.3 s: the test "
        "proves nothing");
    asked = g_get_monotonic_time ();
    if (how == 0)
      fail_unless (gst_harness_push_event (job.h,
              gst_event_new_flush_start ()));
    else
      gst_element_set_state (e, GST_STATE_READY);
    g_thread_join (t);
    GST_INFO ("%s: stopped after %.1f ms", what,
        (job.returned - asked) / 1000.0);
    fail_unless (job.returned - asked < STOP_MS * 1000, "%s: the frame "
        "stopped only after %.1f ms", what, (job.returned - asked) / 1000.0);
    fail_unless_equals_int (job.ret, GST_FLOW_FLUSHING);
    msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    fail_unless (msg == NULL, "%s: an error was posted", what);
    if (how == 0)
      gst_harness_push_event (job.h, gst_event_new_flush_stop (TRUE));
    gst_harness_teardown (job.h);
    while ((msg = gst_bus_pop (bus)) != NULL)
      gst_message_unref (msg);
    gst_element_set_bus (e, NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
    g_free (what);
  }
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_qos_default),
  TEST_SUITE_TEST (test_interlaced_refused),
  TEST_SUITE_TEST (test_metas_kept),
  TEST_SUITE_TEST (test_controlled_property),
  TEST_SUITE_TEST (test_cpu_frame_stopped),
  {NULL}
};

TEST_SUITE_MAIN (base, "base", 0, suite_tests);
