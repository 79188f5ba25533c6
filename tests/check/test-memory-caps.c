/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CUDA-memory helpers that need no device: pad template caps (GRAY
 * formats only in system memory), which caps are CUDA caps, the caps
 * transform that prefers the memory it got, device/host plane views of
 * mapped frames, and the context helpers refusing politely before the CUDA
 * library is loaded. */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "gstcudaplanefiltermemory.h"
#include "test-suite.h"

#define ALL_FORMATS \
  "{ GRAY8, GRAY16_LE, I420, NV12, Y444, RGBA, BGRA, RGBx, BGRx }"

#define CUDA_FEATURE "(" GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY ")"

static GstCaps *
fixed_caps (const gchar * format, gboolean cuda)
{
  gchar *str = g_strdup_printf ("video/x-raw%s, format=%s, width=33, "
      "height=17, framerate=30/1, pixel-aspect-ratio=1/1",
      cuda ? CUDA_FEATURE : "", format);
  GstCaps *caps = gst_caps_from_string (str);

  g_free (str);
  fail_unless (caps != NULL);
  return caps;
}

static gboolean
structure_is_cuda (GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);

  return f != NULL && gst_caps_features_contains (f,
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}

static gboolean
accepts (GstCaps * templ, const gchar * format, gboolean cuda)
{
  GstCaps *caps = fixed_caps (format, cuda);
  gboolean ret = gst_caps_is_subset (caps, templ);

  gst_caps_unref (caps);
  return ret;
}

GST_START_TEST (test_template_caps)
{
  const gchar *cuda_ok[] = { "I420", "NV12", "Y444", "RGBA", "BGRA", "RGBx",
    "BGRx"
  };
  GstCaps *templ = gst_cuda_plane_filter_memory_template_caps (ALL_FORMATS);
  GstCaps *gray;
  guint i;

  fail_unless (templ != NULL);
  GST_INFO ("template %" GST_PTR_FORMAT, templ);
  fail_unless_equals_int (gst_caps_get_size (templ), 2);
  /* CUDA memory first (a free choice stays on the GPU), then system */
  fail_unless (structure_is_cuda (templ, 0));
  fail_unless (!structure_is_cuda (templ, 1));

  for (i = 0; i < G_N_ELEMENTS (cuda_ok); i++) {
    fail_unless (accepts (templ, cuda_ok[i], TRUE), "%s in CUDA", cuda_ok[i]);
    fail_unless (accepts (templ, cuda_ok[i], FALSE), "%s in system",
        cuda_ok[i]);
  }
  /* the CUDA allocator has no GRAY formats */
  fail_if (accepts (templ, "GRAY8", TRUE));
  fail_if (accepts (templ, "GRAY16_LE", TRUE));
  fail_unless (accepts (templ, "GRAY8", FALSE));
  fail_unless (accepts (templ, "GRAY16_LE", FALSE));
  /* nothing beyond the list */
  fail_if (accepts (templ, "YUY2", FALSE));
  fail_if (accepts (templ, "P010_10LE", TRUE));
  gst_caps_unref (templ);

  /* GRAY only: no CUDA structure at all */
  gray = gst_cuda_plane_filter_memory_template_caps ("{ GRAY8, GRAY16_LE }");
  fail_unless_equals_int (gst_caps_get_size (gray), 1);
  fail_if (structure_is_cuda (gray, 0));
  gst_caps_unref (gray);
}

GST_END_TEST;

GST_START_TEST (test_caps_is_cuda)
{
  GstCaps *caps;

  caps = fixed_caps ("NV12", TRUE);
  fail_unless (gst_cuda_plane_filter_memory_caps_is_cuda (caps));
  gst_caps_unref (caps);

  caps = fixed_caps ("NV12", FALSE);
  fail_if (gst_cuda_plane_filter_memory_caps_is_cuda (caps));
  gst_caps_unref (caps);

  caps = gst_caps_from_string ("video/x-raw(" GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY
      ", meta:GstVideoOverlayComposition), format=RGBA");
  fail_unless (gst_cuda_plane_filter_memory_caps_is_cuda (caps));
  gst_caps_unref (caps);

  caps = gst_caps_from_string ("video/x-raw(memory:GLMemory), format=RGBA");
  fail_if (gst_cuda_plane_filter_memory_caps_is_cuda (caps));
  gst_caps_unref (caps);

  fail_if (gst_cuda_plane_filter_memory_caps_is_cuda (NULL));
  caps = gst_caps_new_any ();
  fail_if (gst_cuda_plane_filter_memory_caps_is_cuda (caps));
  gst_caps_unref (caps);
  caps = gst_caps_new_empty ();
  fail_if (gst_cuda_plane_filter_memory_caps_is_cuda (caps));
  gst_caps_unref (caps);
}

GST_END_TEST;

/* @out structure @i equals @in structure 0 apart from the memory */
static void
check_same_fields (GstCaps * out, guint i, GstCaps * in)
{
  fail_unless (gst_structure_is_equal (gst_caps_get_structure (out, i),
          gst_caps_get_structure (in, 0)), "structure %u differs", i);
}

/* @format in @cuda memory or not, transformed: with a context, the input's
 * memory first and the other second; without one, system memory only;
 * every field kept. */
static void
check_transform_of (const gchar * format, gboolean cuda)
{
  GstCaps *in = fixed_caps (format, cuda);
  GstCaps *out = gst_cuda_plane_filter_memory_transform_caps (in, TRUE);

  GST_INFO ("%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, in, out);
  fail_unless_equals_int (gst_caps_get_size (out), 2);
  fail_unless_equals_int (structure_is_cuda (out, 0), cuda);
  fail_unless_equals_int (structure_is_cuda (out, 1), !cuda);
  check_same_fields (out, 0, in);
  check_same_fields (out, 1, in);
  gst_caps_unref (out);

  out = gst_cuda_plane_filter_memory_transform_caps (in, FALSE);
  fail_unless_equals_int (gst_caps_get_size (out), 1);
  fail_if (structure_is_cuda (out, 0));
  check_same_fields (out, 0, in);
  gst_caps_unref (out);
  gst_caps_unref (in);
}

GST_START_TEST (test_transform_prefers_same_memory)
{
  GstCaps *in, *out;

  check_transform_of ("NV12", FALSE);
  check_transform_of ("RGBA", TRUE);

  /* GRAY never goes to CUDA memory */
  in = fixed_caps ("GRAY16_LE", FALSE);
  out = gst_cuda_plane_filter_memory_transform_caps (in, TRUE);
  fail_unless_equals_int (gst_caps_get_size (out), 1);
  fail_if (structure_is_cuda (out, 0));
  gst_caps_unref (out);
  gst_caps_unref (in);
}

GST_END_TEST;

GST_START_TEST (test_transform_lists_and_any)
{
  GstCaps *in, *out, *expect;

  /* a format list: the CUDA copy keeps only what CUDA memory can carry */
  in = gst_caps_from_string ("video/x-raw, format={ GRAY8, NV12, RGBA }, "
      "width=[1, 100], height=[1, 100]");
  out = gst_cuda_plane_filter_memory_transform_caps (in, TRUE);
  GST_INFO ("%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, in, out);
  expect = gst_caps_from_string ("video/x-raw, format={ GRAY8, NV12, RGBA }, "
      "width=[1, 100], height=[1, 100]; video/x-raw" CUDA_FEATURE ", "
      "format={ NV12, RGBA }, width=[1, 100], height=[1, 100]");
  GST_INFO ("got %" GST_PTR_FORMAT, out);
  fail_unless (gst_caps_is_strictly_equal (out, expect));
  gst_caps_unref (expect);
  gst_caps_unref (out);
  gst_caps_unref (in);

  /* two structures: both in their own memory first, then both swapped */
  in = gst_caps_from_string ("video/x-raw" CUDA_FEATURE ", format=I420; "
      "video/x-raw, format=Y444");
  out = gst_cuda_plane_filter_memory_transform_caps (in, TRUE);
  expect = gst_caps_from_string ("video/x-raw" CUDA_FEATURE ", format=I420; "
      "video/x-raw, format=Y444; video/x-raw, format=I420; "
      "video/x-raw" CUDA_FEATURE ", format=Y444");
  GST_INFO ("got %" GST_PTR_FORMAT, out);
  fail_unless (gst_caps_is_strictly_equal (out, expect));
  gst_caps_unref (expect);
  gst_caps_unref (out);
  gst_caps_unref (in);

  in = gst_caps_new_any ();
  out = gst_cuda_plane_filter_memory_transform_caps (in, TRUE);
  fail_unless (gst_caps_is_any (out));
  gst_caps_unref (out);
  gst_caps_unref (in);

  in = gst_caps_new_empty ();
  out = gst_cuda_plane_filter_memory_transform_caps (in, TRUE);
  fail_unless (gst_caps_is_empty (out));
  gst_caps_unref (out);
  gst_caps_unref (in);
}

GST_END_TEST;

typedef struct
{
  const gchar *format;
  guint plane;
  gint width;                   /* samples per row */
  gint height;
  cm_depth depth;
} PlaneRow;

/* 33x17 frames: odd sizes round the chroma planes up */
static const PlaneRow plane_rows[] = {
  {"GRAY8", 0, 33, 17, CM_DEPTH_8},
  {"GRAY16_LE", 0, 33, 17, CM_DEPTH_16},
  {"NV12", 0, 33, 17, CM_DEPTH_8},
  {"NV12", 1, 34, 9, CM_DEPTH_8},
  {"I420", 1, 17, 9, CM_DEPTH_8},
  {"I420", 2, 17, 9, CM_DEPTH_8},
  {"Y444", 2, 33, 17, CM_DEPTH_8},
  {"RGBA", 0, 132, 17, CM_DEPTH_8},
  {"BGRx", 0, 132, 17, CM_DEPTH_8},
};

GST_START_TEST (test_plane_views)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (plane_rows); i++) {
    const PlaneRow *r = &plane_rows[i];
    GstCaps *caps = fixed_caps (r->format, FALSE);
    GstVideoInfo info;
    GstVideoFrame frame;
    GstBuffer *buf;
    cm_image view;
    cm_image_packed packed;
    gboolean is_rgb;

    fail_unless (gst_video_info_from_caps (&info, caps));
    buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));

    fail_unless (gst_cuda_plane_filter_memory_plane_view (&frame, r->plane,
            &view));
    fail_unless (view.data == GST_VIDEO_FRAME_PLANE_DATA (&frame, r->plane));
    fail_unless_equals_int ((gint) view.pitch,
        GST_VIDEO_FRAME_PLANE_STRIDE (&frame, r->plane));
    fail_unless_equals_int (view.width, r->width);
    fail_unless_equals_int (view.height, r->height);
    fail_unless_equals_int (view.depth, r->depth);
    fail_unless (view.pitch >= (size_t) view.width *
        cm_depth_bytes (view.depth), "%s plane %u", r->format, r->plane);
    fail_if (gst_cuda_plane_filter_memory_plane_view (&frame,
            GST_VIDEO_FRAME_N_PLANES (&frame), &view));

    is_rgb = GST_VIDEO_INFO_IS_RGB (&info);
    fail_unless_equals_int (gst_cuda_plane_filter_memory_packed_view (&frame,
            &packed), is_rgb);
    if (is_rgb) {
      fail_unless_equals_int (packed.width, 33);
      fail_unless_equals_int (packed.height, 17);
      fail_unless_equals_int (packed.channels, 4);
      fail_unless (packed.data == GST_VIDEO_FRAME_PLANE_DATA (&frame, 0));
    }

    gst_video_frame_unmap (&frame);

    /* system memory is not CUDA memory */
    fail_unless (gst_cuda_plane_filter_memory_buffer_context (buf) == NULL);
    fail_if (gst_cuda_plane_filter_memory_frame_map (&frame, &info, buf,
            GST_MAP_READ));

    gst_buffer_unref (buf);
    gst_caps_unref (caps);
  }
}

GST_END_TEST;

GST_START_TEST (test_context_without_library)
{
  GstElement *e = gst_bin_new (NULL);      /* any element */
  GstCudaContext *ctx = NULL;
  GstQuery *query;
  gboolean loaded;

  /* nothing loaded the library yet in this process: every helper says no
   * instead of calling into gstreamer-cuda (which would assert) */
  fail_if (gst_cuda_plane_filter_memory_available ());
  fail_if (gst_cuda_plane_filter_memory_ensure_context (e, -1, &ctx));
  fail_unless (ctx == NULL);
  query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  fail_if (gst_cuda_plane_filter_memory_query_context (e, query, NULL));
  gst_query_unref (query);
  fail_if (gst_cuda_plane_filter_memory_push (NULL));

  /* loading is idempotent and never aborts, driver or not */
  loaded = gst_cuda_plane_filter_memory_init ();
  fail_unless_equals_int (gst_cuda_plane_filter_memory_init (), loaded);
  fail_unless_equals_int (gst_cuda_plane_filter_memory_available (), loaded);
  GST_INFO ("CUDA driver library loaded: %d", loaded);

  gst_object_unref (e);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_template_caps),
  TEST_SUITE_TEST (test_caps_is_cuda),
  TEST_SUITE_TEST (test_transform_prefers_same_memory),
  TEST_SUITE_TEST (test_transform_lists_and_any),
  TEST_SUITE_TEST (test_plane_views),
  /* last: it loads the library */
  TEST_SUITE_TEST (test_context_without_library),
  {NULL}
};

TEST_SUITE_MAIN (memory_caps, "memory-caps", 0, suite_tests);
