/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The memory side of caps negotiation that needs no device: pad templates
 * of the three elements (CUDA memory for the 7 formats the CUDA allocator
 * supports, never GRAY; system memory for every format), the caps the
 * elements offer on one pad for caps on the other (the memory they got
 * first, CUDA memory only where allowed, never for GRAY, never with
 * backend=cpu), a CPU-backend harness through the pinned-pool-free path,
 * and the "cudamorphology-stats" query.
 *
 * Whether CUDA memory is offered before start depends on the driver
 * library (gstreamer-cuda loads libcuda): without one (this suite's usual
 * machine) only system memory may be offered; with one, the CUDA caps
 * must come second for system input and first for CUDA input. Both
 * branches are checked, whichever applies. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include "element-harness.h"
#include "test-suite.h"

#define CUDA_FEATURE "memory:CUDAMemory"

static const gchar *const cuda_formats[] = { "I420", "NV12", "Y444", "RGBA",
  "BGRA", "RGBx", "BGRx"
};

static const gchar *const all_formats[] = { "GRAY8", "GRAY16_LE", "I420",
  "NV12", "Y444", "RGBA", "BGRA", "RGBx", "BGRx"
};

static gboolean
structure_is_cuda (const GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);

  return f != NULL && !gst_caps_features_is_any (f) &&
      gst_caps_features_contains (f, CUDA_FEATURE);
}

static gboolean
caps_have_cuda (const GstCaps * caps)
{
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    if (structure_is_cuda (caps, i))
      return TRUE;
  }
  return FALSE;
}

static GstCaps *
fixed_caps (const gchar * format, gboolean cuda)
{
  /* the templates are progressive only (interlaced caps fail the link) */
  gchar *str = g_strdup_printf ("video/x-raw%s, format=%s, width=64, "
      "height=48, framerate=30/1, pixel-aspect-ratio=1/1, "
      "interlace-mode=progressive",
      cuda ? "(" CUDA_FEATURE ")" : "", format);
  GstCaps *caps = gst_caps_from_string (str);

  g_free (str);
  fail_unless (caps != NULL);
  return caps;
}

static GstPadTemplate *
element_template (const gchar * factory_name, const gchar * pad)
{
  GstElementFactory *f = gst_element_factory_find (factory_name);
  GstElement *e;
  GstPadTemplate *t;

  fail_unless (f != NULL, "no %s: is GST_PLUGIN_PATH the build's gst/?",
      factory_name);
  e = gst_element_factory_create (f, NULL);
  t = gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (e), pad);
  fail_unless (t != NULL);
  gst_object_ref (t);
  gst_object_unref (e);
  gst_object_unref (f);
  return t;
}

static gboolean
template_accepts (GstPadTemplate * t, const gchar * format, gboolean cuda)
{
  GstCaps *templ = gst_pad_template_get_caps (t);
  GstCaps *caps = fixed_caps (format, cuda);
  gboolean ret = gst_caps_is_subset (caps, templ);

  gst_caps_unref (caps);
  gst_caps_unref (templ);
  return ret;
}

static gboolean
in_list (const gchar * s, const gchar * const *list, guint n)
{
  for (guint i = 0; i < n; i++) {
    if (g_str_equal (s, list[i]))
      return TRUE;
  }
  return FALSE;
}

/* Every format on both pads in system memory, the CUDA formats (and only
 * those) in CUDA memory: in a build with gstreamer-cuda; without it
 * (-Dcuda=disabled, no toolkit, no gstreamer-cuda) no CUDA memory at all. */
static void
check_filter_templates (const gchar * factory_name)
{
  const gchar *pads[] = { "sink", "src" };

  for (guint p = 0; p < G_N_ELEMENTS (pads); p++) {
    GstPadTemplate *t = element_template (factory_name, pads[p]);

    for (guint f = 0; f < G_N_ELEMENTS (all_formats); f++) {
      gboolean cuda_ok = CM_TEST_CUDA_MEMORY &&
          in_list (all_formats[f], cuda_formats, G_N_ELEMENTS (cuda_formats));

      fail_unless (template_accepts (t, all_formats[f], FALSE),
          "%s %s lacks %s in system memory", factory_name, pads[p],
          all_formats[f]);
      fail_unless_equals_int (template_accepts (t, all_formats[f], TRUE),
          cuda_ok);
    }
    gst_object_unref (t);
  }
}

GST_START_TEST (test_templates_filters)
{
  check_filter_templates ("cudamorph");
  check_filter_templates ("cudamedian");
}

GST_END_TEST;

GST_START_TEST (test_templates_linspectrum)
{
  GstPadTemplate *sink = element_template ("cudalinspectrum", "sink");
  GstPadTemplate *src = element_template ("cudalinspectrum", "src");
  const gchar *in[] = { "GRAY8", "GRAY16_LE", "I420", "NV12", "Y444" };

  for (guint f = 0; f < G_N_ELEMENTS (in); f++) {
    gboolean gray = g_str_has_prefix (in[f], "GRAY");

    fail_unless (template_accepts (sink, in[f], FALSE));
    fail_unless (template_accepts (src, in[f], FALSE));
    fail_unless_equals_int (template_accepts (sink, in[f], TRUE),
        CM_TEST_CUDA_MEMORY && !gray);
    fail_unless_equals_int (template_accepts (src, in[f], TRUE),
        CM_TEST_CUDA_MEMORY && !gray);
  }
  /* the orientation map: RGBA out, in either memory, never in */
  fail_unless (template_accepts (src, "RGBA", FALSE));
  fail_unless_equals_int (template_accepts (src, "RGBA", TRUE),
      CM_TEST_CUDA_MEMORY);
  fail_if (template_accepts (sink, "RGBA", FALSE));
  fail_if (template_accepts (sink, "RGBA", TRUE));
  gst_object_unref (sink);
  gst_object_unref (src);
}

GST_END_TEST;

/* Upstream of the element under test: a pad that answers caps queries
 * with the caps in its element-private data (no plugin needed). */
static gboolean
upstream_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  GstCaps *caps = gst_pad_get_element_private (pad), *filter, *res;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CAPS)
    return gst_pad_query_default (pad, parent, query);
  gst_query_parse_caps (query, &filter);
  res = filter ? gst_caps_intersect_full (filter, caps,
      GST_CAPS_INTERSECT_FIRST) : gst_caps_ref (caps);
  gst_query_set_caps_result (query, res);
  gst_caps_unref (res);
  return TRUE;
}

/* The caps @element_desc (factory and properties) offers on its src pad
 * when upstream is fixed to @format in the given memory. The element is
 * not started: this is what linking and autoplugging see. */
static GstCaps *
src_caps_for_full (const gchar * element_desc, const gchar * format,
    gboolean cuda, gboolean * accepted)
{
  gchar **words = g_strsplit (element_desc, " ", 2);
  GstElement *e = gst_element_factory_make (words[0], NULL);
  GstCaps *caps, *up = fixed_caps (format, cuda);
  GstPad *upstream, *sinkpad, *srcpad;

  fail_unless (e != NULL, "no %s: is GST_PLUGIN_PATH the build's gst/?",
      words[0]);
  test_element_set_args (e, words[1]);
  upstream = gst_pad_new ("upstream", GST_PAD_SRC);
  gst_pad_set_element_private (upstream, up);
  gst_pad_set_query_function (upstream, upstream_query);
  sinkpad = gst_element_get_static_pad (e, "sink");
  /* no caps check: whether the element accepts them is asked below */
  fail_unless_equals_int (gst_pad_link_full (upstream, sinkpad,
          GST_PAD_LINK_CHECK_NOTHING), GST_PAD_LINK_OK);
  if (accepted)
    *accepted = gst_pad_query_accept_caps (sinkpad, up);

  srcpad = gst_element_get_static_pad (e, "src");
  caps = gst_pad_query_caps (srcpad, NULL);
  GST_INFO ("%s after %" GST_PTR_FORMAT ": %" GST_PTR_FORMAT, element_desc,
      up, caps);

  gst_pad_unlink (upstream, sinkpad);
  gst_object_unref (srcpad);
  gst_object_unref (sinkpad);
  gst_object_unref (upstream);
  gst_object_unref (e);
  gst_caps_unref (up);
  g_strfreev (words);
  return caps;
}

static GstCaps *
src_caps_for (const gchar * element_desc, const gchar * format,
    gboolean cuda)
{
  return src_caps_for_full (element_desc, format, cuda, NULL);
}

/* Whether the plugin offers CUDA memory at all in this process (the
 * driver library loaded): found out the way an application would. */
static gboolean
cuda_memory_offered (void)
{
  GstCaps *caps = src_caps_for ("cudamorph", "NV12", FALSE);
  gboolean ret = caps_have_cuda (caps);

  gst_caps_unref (caps);
  GST_INFO ("CUDA memory %s offered", ret ? "is" : "is not");
  return ret;
}

/* For caps fixed to @format in system memory: system memory first (the
 * memory it got), then, where offered, CUDA memory of the same format. */
static void
check_from_system (const gchar * element_desc, const gchar * format,
    const gchar * out_format, gboolean cuda_possible)
{
  GstCaps *caps = src_caps_for (element_desc, format, FALSE);
  GstStructure *s;

  fail_if (gst_caps_is_empty (caps), "%s refuses %s", element_desc, format);
  fail_if (structure_is_cuda (caps, 0), "%s: %s in system memory is not "
      "offered in system memory first", element_desc, format);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_field (s, "format"));
  {
    GstCaps *want = fixed_caps (out_format, FALSE);

    fail_unless (gst_caps_can_intersect (want, caps), "%s: no %s out",
        element_desc, out_format);
    gst_caps_unref (want);
  }
  if (!cuda_possible)
    fail_if (caps_have_cuda (caps), "%s offers CUDA memory for %s",
        element_desc, format);
  else {
    GstCaps *want = fixed_caps (out_format, TRUE);

    fail_unless (gst_caps_can_intersect (want, caps), "%s: no CUDA %s out "
        "for system %s", element_desc, out_format, format);
    gst_caps_unref (want);
  }
  gst_caps_unref (caps);
}

GST_START_TEST (test_transform_from_system)
{
  gboolean offered = cuda_memory_offered ();
  const gchar *filters[] = { "cudamorph", "cudamedian",
    "cudalinspectrum output=supremum"
  };

  for (guint e = 0; e < G_N_ELEMENTS (filters); e++) {
    check_from_system (filters[e], "NV12", "NV12", offered);
    check_from_system (filters[e], "I420", "I420", offered);
    check_from_system (filters[e], "Y444", "Y444", offered);
    /* GRAY stays in system memory */
    check_from_system (filters[e], "GRAY8", "GRAY8", FALSE);
    check_from_system (filters[e], "GRAY16_LE", "GRAY16_LE", FALSE);
  }
  check_from_system ("cudamorph", "RGBA", "RGBA", offered);
  check_from_system ("cudamedian", "BGRx", "BGRx", offered);
  /* the orientation map of a GRAY frame may go either way */
  check_from_system ("cudalinspectrum output=orientation", "GRAY8", "RGBA",
      offered);
  check_from_system ("cudalinspectrum output=orientation", "NV12", "RGBA",
      offered);
}

GST_END_TEST;

GST_START_TEST (test_transform_from_cuda)
{
  gboolean offered = cuda_memory_offered ();
  const gchar *filters[] = { "cudamorph", "cudamedian",
    "cudalinspectrum output=supremum"
  };

  for (guint e = 0; e < G_N_ELEMENTS (filters); e++) {
    gboolean accepted;
    GstCaps *caps = src_caps_for_full (filters[e], "NV12", TRUE, &accepted);

    fail_unless_equals_int (accepted, offered);
    if (offered) {
      /* CUDA in: CUDA first, system memory second */
      fail_unless (gst_caps_get_size (caps) >= 2, "%s", filters[e]);
      fail_unless (structure_is_cuda (caps, 0), "%s", filters[e]);
      fail_unless (!structure_is_cuda (caps,
              gst_caps_get_size (caps) - 1), "%s", filters[e]);
    } else {
      /* without the library CUDA caps are refused, and nothing CUDA is
       * offered for them */
      fail_if (caps_have_cuda (caps), "%s", filters[e]);
    }
    gst_caps_unref (caps);
  }
}

GST_END_TEST;

GST_START_TEST (test_backend_cpu_no_cuda)
{
  const gchar *filters[] = { "cudamorph backend=cpu",
    "cudamedian backend=cpu", "cudalinspectrum backend=cpu output=supremum",
    "cudalinspectrum backend=cpu output=orientation"
  };
  const gchar *formats[] = { "NV12", "RGBA", "GRAY8", "I420" };

  for (guint e = 0; e < G_N_ELEMENTS (filters); e++) {
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstCaps *caps;

      if (g_str_has_prefix (filters[e], "cudalinspectrum") &&
          g_str_equal (formats[f], "RGBA"))
        continue;
      caps = src_caps_for (filters[e], formats[f], FALSE);
      fail_if (gst_caps_is_empty (caps), "%s %s", filters[e], formats[f]);
      fail_if (caps_have_cuda (caps), "%s offers CUDA memory for %s",
          filters[e], formats[f]);
      gst_caps_unref (caps);
    }
  }
}

GST_END_TEST;

/* The answer to the custom "cudamorphology-stats" query. */
static GstStructure *
query_stats (GstElement * e)
{
  GstQuery *q = gst_query_new_custom (GST_QUERY_CUSTOM,
      gst_structure_new_empty ("cudamorphology-stats"));
  GstPad *pad = gst_element_get_static_pad (e, "src");
  GstStructure *s;

  fail_unless (gst_pad_query (pad, q), "stats query not answered");
  s = gst_structure_copy (gst_query_get_structure (q));
  gst_query_unref (q);
  gst_object_unref (pad);
  return s;
}

static guint64
stat (const GstStructure * s, const gchar * name)
{
  guint64 v = G_MAXUINT64;

  fail_unless (gst_structure_get_uint64 (s, name, &v), "no %s", name);
  return v;
}

/* A negotiated CPU-backend stream stays in system memory, every output
 * buffer is the right size, and the stats count the frames and no device
 * work. */
static void
check_cpu_stream (const gchar * factory, const gchar * format)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  GstHarness *h;
  GstVideoInfo info;
  GstCaps *caps;
  GstStructure *st;
  gchar *str;

  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_video_info_set_format (&info, gst_video_format_from_string (format), 64,
      48);
  str = g_strdup_printf ("video/x-raw,format=%s,width=64,height=48,"
      "framerate=30/1", format);
  gst_harness_set_src_caps_str (h, str);
  g_free (str);

  for (gint i = 0; i < 3; i++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, info.size, NULL), *out;

    gst_buffer_memset (in, 0, (guint8) (17 * i + 3), info.size);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless (gst_buffer_get_size (out) >= info.size);
    gst_buffer_unref (out);
  }

  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL);
  fail_if (caps_have_cuda (caps), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);

  st = query_stats (e);
  GST_INFO ("%s %s: %" GST_PTR_FORMAT, factory, format, st);
  fail_unless_equals_uint64 (stat (st, "frames"), 3);
  fail_unless_equals_uint64 (stat (st, "device-in"), 0);
  fail_unless_equals_uint64 (stat (st, "device-out"), 0);
  fail_unless_equals_uint64 (stat (st, "cuda-host-maps"), 0);
  fail_unless_equals_uint64 (stat (st, "pinned-uploads"), 0);
  fail_unless_equals_uint64 (stat (st, "staged-uploads"), 0);
  fail_unless_equals_uint64 (stat (st, "pinned-downloads"), 0);
  fail_unless_equals_uint64 (stat (st, "staged-downloads"), 0);
  gst_structure_free (st);

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_START_TEST (test_cpu_stream_and_stats)
{
  check_cpu_stream ("cudamorph", "NV12");
  check_cpu_stream ("cudamorph", "RGBA");
  check_cpu_stream ("cudamedian", "GRAY8");
  check_cpu_stream ("cudalinspectrum", "I420");
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_templates_filters),
  TEST_SUITE_TEST (test_templates_linspectrum),
  TEST_SUITE_TEST (test_transform_from_system),
  TEST_SUITE_TEST (test_transform_from_cuda),
  TEST_SUITE_TEST (test_backend_cpu_no_cuda),
  TEST_SUITE_TEST (test_cpu_stream_and_stats),
  {NULL}
};

TEST_SUITE_MAIN (memory_negotiation, "memory-negotiation", 0, suite_tests);
