/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudablobs on the CUDA backend against the same element on the CPU
 * backend and the core's reference, bit for bit: the messages and the
 * custom metas (statistics included), the mask and the labels; every
 * input format, odd, padded and 1080p frames, the kinds of the blobs
 * tests (50 % noise, spiral, checkerboards, one blob, none), filters,
 * regions of interest (roi and roi-meta), output changes while PLAYING,
 * frames left on the device (overlap) read as they leave.
 * Exits 77 (meson: SKIP) when no CUDA device is usable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobs-harness.h"
#include "blobs-cases.h"
#include "element-harness.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "test-suite.h"

/* One cudablobs per backend, each in a harness with a bus of its own */
typedef struct
{
  GstElement *e[2];             /* CPU, CUDA */
  GstBus *bus[2];
  GstHarness *h[2];
  GstVideoInfo info;
} Pair;

static const char *const backends[2] = { "cpu", "cuda" };

static void
pair_start (Pair * p, const char *format, int w, int h, const char *args)
{
  for (int b = 0; b < 2; b++) {
    p->e[b] = test_element_new ("cudablobs", backends[b]);
    test_element_set_args (p->e[b], args);
    p->bus[b] = gst_bus_new ();
    gst_element_set_bus (p->e[b], p->bus[b]);
    p->h[b] = gst_harness_new_with_element (p->e[b], "sink", "src");
    morph_harness_set_caps (p->h[b], format, w, h, &p->info);
  }
}

static void
pair_set (Pair * p, const char *name, const char *value)
{
  for (int b = 0; b < 2; b++)
    gst_util_set_object_arg (G_OBJECT (p->e[b]), name, value);
}

static void
pair_clear (Pair * p)
{
  for (int b = 0; b < 2; b++) {
    guint problems = test_bus_count_problems (p->bus[b], GST_MESSAGE_ERROR);

    fail_unless_equals_int (problems, 0);
    test_element_teardown (p->h[b], p->e[b], p->bus[b]);
  }
}

static void
out_info (GstHarness * h, GstVideoInfo * info)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (info, caps));
  gst_caps_unref (caps);
}

/* @in through both elements: the messages and metas equal each other and
 * the reference (of @rects, or the whole frame), the images (mask or
 * labels) bit for bit */
static void
pair_push (Pair * p, GstBuffer * in, const GstVideoRectangle * rects,
    guint n_rects, const char *what)
{
  cm_depth depth = GST_VIDEO_INFO_COMP_DEPTH (&p->info, 0) > 8 ?
      CM_DEPTH_16 : CM_DEPTH_8;
  GstBuffer *out[2];
  GstMessage *msg[2];
  BlobsExpected want;
  cm_blobs_desc d;
  gint output;

  blobs_desc_from_element (p->e[1], depth, &d);
  blobs_expected_compute (&want, &d, in, &p->info, rects, n_rects);
  for (int b = 0; b < 2; b++) {
    gchar *w = g_strdup_printf ("%s (%s)", what, backends[b]);

    out[b] = gst_harness_push_and_pull (p->h[b], gst_buffer_ref (in));
    fail_unless (out[b] != NULL, "%s: no output", w);
    msg[b] = blobs_wait_message (p->bus[b], NULL);
    fail_unless (msg[b] != NULL, "%s: no message", w);
    fail_unless (blobs_structure_equal (gst_message_get_structure (msg[b]),
            FALSE, &want, w), "%s: message differs from the reference", w);
    fail_unless (blobs_structure_equal (blobs_meta_structure (out[b]), TRUE,
            &want, w), "%s: meta differs from the reference", w);
    g_free (w);
  }
  fail_unless (gst_structure_is_equal (gst_message_get_structure (msg[0]),
          gst_message_get_structure (msg[1])), "%s: messages differ", what);

  g_object_get (p->e[1], "output", &output, NULL);
  if (output != 0) {
    GstVideoInfo oi[2];

    out_info (p->h[0], &oi[0]);
    out_info (p->h[1], &oi[1]);
    fail_unless (gst_video_info_is_equal (&oi[0], &oi[1]));
    /* every plane, regions or not */
    fail_unless (morph_frames_equal (out[1], out[0], &oi[0], what),
        "%s: CUDA and CPU frames differ", what);
  }
  if (output != 0 && rects == NULL) {
    GstVideoInfo oi[2];

    out_info (p->h[0], &oi[0]);
    out_info (p->h[1], &oi[1]);
    d.output = output == 1 ? CM_BLOBS_OUTPUT_MASK : CM_BLOBS_OUTPUT_LABELS;
    fail_unless (blobs_check_image (in, &p->info, out[1], &oi[1], &d, what),
        "%s: CUDA image differs from the reference", what);
    fail_unless (blobs_check_image (in, &p->info, out[0], &oi[0], &d, what),
        "%s: CPU image differs from the reference", what);
  }
  for (int b = 0; b < 2; b++) {
    gst_message_unref (msg[b]);
    gst_buffer_unref (out[b]);
  }
  blobs_expected_clear (&want);
}

static const char *const formats[] = {
  "GRAY8", "GRAY16_LE", "I420", "NV12", "Y444"
};

/* Every format at odd, padded and 1080p sizes, every kind, the filters
 * and every output */
GST_START_TEST (test_kinds)
{
  static const struct
  {
    int kind, param;
  } kinds[] = {
    {BLOBS_RANDOM, 50}, {BLOBS_RANDOM, 5}, {BLOBS_RANDOM, 95},
    {BLOBS_SPIRAL, 0}, {BLOBS_CHECKER, 1}, {BLOBS_CHECKER, 3},
    {BLOBS_FULL, 0}, {BLOBS_EMPTY, 0}, {BLOBS_DISCS, 40}, {BLOBS_COMBS, 0},
  };
  static const struct
  {
    int w, h;
  } sizes[] = { {1, 1}, {1, 77}, {77, 1}, {131, 67}, {1920, 1080} };
  static const char *const args[] = {
    "connectivity=8 output=mask", "connectivity=4 output=labels",
    "min-area=3 max-area=500 exclude-border=true",
    "max-blobs=7 connectivity=4 output=labels", "invert=true max-blobs=0",
  };
  guint64 seed = 2000;

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (guint a = 0; a < G_N_ELEMENTS (args); a++) {
        Pair p;

        /* 1080p: every other row of the table, no unlimited lists */
        if (sizes[s].w == 1920 && ((f + a) % 2 || strstr (args[a],
                    "max-blobs=0")))
          continue;
        pair_start (&p, formats[f], sizes[s].w, sizes[s].h, args[a]);
        for (guint k = 0; k < G_N_ELEMENTS (kinds); k++) {
          GstBuffer *in;
          gchar *what, *tv;
          guint t;

          if (sizes[s].w == 1920 && k % 2)
            continue;
          in = blobs_make_input (&p.info, kinds[k].kind, kinds[k].param,
              seed++, (k % 2) ? 0 : 8, &t);
          what = g_strdup_printf ("%s %dx%d %s, %s(%d) t=%u", formats[f],
              sizes[s].w, sizes[s].h, args[a],
              blobs_kind_name (kinds[k].kind), kinds[k].param, t);
          tv = g_strdup_printf ("%u", t);
          pair_set (&p, "threshold", tv);
          pair_push (&p, in, NULL, 0, what);
          gst_buffer_unref (in);
          g_free (tv);
          g_free (what);
        }
        pair_clear (&p);
      }
}

GST_END_TEST;

/* roi, roi-meta with overlapping regions, and none; in host memory the
 * regions go through the device scratch */
GST_START_TEST (test_regions)
{
  const GstVideoRectangle metas[] = { {3, 2, 200, 100}, {150, 60, 211, 150},
  {0, 0, 64, 211}, {300, 200, 61, 11}
  };
  guint64 seed = 3000;

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    Pair p;
    GstBuffer *in;
    gchar *what;
    guint t;
    gchar *tv;

    pair_start (&p, formats[f], 361, 211, "roi-meta=true connectivity=4 "
        "exclude-border=true max-blobs=50 output=mask");
    for (guint i = 0; i < 3; i++) {
      in = blobs_make_input (&p.info, i == 1 ? BLOBS_SPIRAL : BLOBS_RANDOM,
          30 + 20 * i, seed++, i == 2 ? 16 : 0, &t);
      tv = g_strdup_printf ("%u", t);
      pair_set (&p, "threshold", tv);
      for (guint m = 0; m < G_N_ELEMENTS (metas); m++)
        gst_buffer_add_video_region_of_interest_meta (in, "object",
            metas[m].x, metas[m].y, metas[m].w, metas[m].h);
      what = g_strdup_printf ("%s roi-meta, frame %u", formats[f], i);
      pair_push (&p, in, metas, G_N_ELEMENTS (metas), what);
      gst_buffer_unref (in);
      g_free (what);
      g_free (tv);
    }
    /* no region: empty results */
    in = blobs_make_input (&p.info, BLOBS_FULL, 0, seed++, 0, &t);
    what = g_strdup_printf ("%s no region", formats[f]);
    pair_push (&p, in, metas, 0, what);
    gst_buffer_unref (in);
    g_free (what);
    pair_clear (&p);
  }
}

GST_END_TEST;

/* the output changed while PLAYING, each frame against the CPU backend */
GST_START_TEST (test_change_playing)
{
  static const char *const outputs[] = {
    "passthrough", "mask", "labels", "mask", "passthrough", "labels"
  };
  Pair p;
  guint t;

  pair_start (&p, "NV12", 640, 360, "connectivity=8");
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++) {
    GstBuffer *in = blobs_make_input (&p.info, BLOBS_DISCS, 60, 4000 + i, 0,
        &t);
    gchar *what = g_strdup_printf ("output %s", outputs[i]);
    gchar *tv = g_strdup_printf ("%u", t);

    pair_set (&p, "output", outputs[i]);
    pair_set (&p, "threshold", tv);
    if (i == 3)
      pair_set (&p, "max-blobs", "5");
    pair_push (&p, in, NULL, 0, what);
    gst_buffer_unref (in);
    g_free (what);
    g_free (tv);
  }
  pair_clear (&p);
}

GST_END_TEST;

/* ---- overlap ------------------------------------------------------------ */

/* @in copied into a buffer of @pool_h's pool: pinned host memory, where
 * frames may stay on the device (cudamorph proposes that pool) */
static GstBuffer *
pinned_copy (GstHarness * pool_h, GstBuffer * in, const GstVideoInfo * info)
{
  GstBuffer *buf = gst_harness_create_buffer (pool_h,
      GST_VIDEO_INFO_SIZE (info));
  GstVideoFrame src, dst;

  fail_unless (buf != NULL);
  fail_unless (gst_video_frame_map (&src, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dst, info, buf, GST_MAP_WRITE));
  fail_unless (gst_video_frame_copy (&dst, &src));
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  GST_BUFFER_PTS (buf) = GST_BUFFER_PTS (in);
  GST_BUFFER_DURATION (buf) = GST_BUFFER_DURATION (in);
  return buf;
}

/* overlap=on, frames in pinned memory: a frame stays on the device while
 * the next comes in, its blobs read when it leaves. Every frame's message
 * and meta, in order, equal the reference of the settings it ran with:
 * frames that stay, a property change (the frame waiting is read before
 * the filter is rebuilt), a frame by regions and one in system memory
 * among them (neither stays: read after the one waiting), the last frame
 * at EOS; passthrough, the mask and the labels (CUDA filter path, the
 * labels another format). */
GST_START_TEST (test_overlap)
{
  static const char *const args[] = {
    "connectivity=8", "connectivity=4 max-blobs=9 output=mask",
    "max-blobs=0 output=labels"
  };
  const GstVideoRectangle roi = { 10, 12, 200, 100 };
  enum
  { N = 8, ROI_FRAME = 3, CHANGE_FRAME = 5, SYSTEM_FRAME = 6 };
  guint64 seed = 5000;

  for (guint a = 0; a < G_N_ELEMENTS (args); a++) {
    GstElement *e = test_element_new ("cudablobs", "cuda");
    GstElement *m = test_element_new ("cudamorph", "cuda");
    GstBus *bus = gst_bus_new (), *mbus = gst_bus_new ();
    GstHarness *h, *ph;
    GstVideoInfo info, pinfo, oi;
    BlobsExpected want[N];
    GstBuffer *in[N];
    guint t0 = 0;
    gint output;

    test_element_set_args (e, args[a]);
    gst_util_set_object_arg (G_OBJECT (e), "overlap", "on");
    gst_element_set_bus (e, bus);
    gst_element_set_bus (m, mbus);
    h = gst_harness_new_with_element (e, "sink", "src");
    ph = gst_harness_new_with_element (m, "sink", "src");
    morph_harness_set_caps (h, "NV12", 320, 180, &info);
    morph_harness_set_caps (ph, "NV12", 320, 180, &pinfo);
    g_object_get (e, "output", &output, NULL);

    for (guint i = 0; i < N; i++) {
      gchar *what = g_strdup_printf ("%s, frame %u", args[a], i);
      cm_blobs_desc d;
      GstBuffer *sys;
      guint t;

      sys = blobs_make_input (&info, i % 2 ? BLOBS_DISCS : BLOBS_RANDOM,
          i % 2 ? 40 : 30, seed++, 0, &t);
      GST_BUFFER_PTS (sys) = i * GST_SECOND / 30;
      GST_BUFFER_DURATION (sys) = GST_SECOND / 30;
      if (i == 0)
        t0 = t;
      /* one threshold until the change: the frames before it stay */
      if (i == 0 || i == CHANGE_FRAME) {
        gchar *tv = g_strdup_printf ("%u", i == 0 ? t0 : t0 + 7);

        gst_util_set_object_arg (G_OBJECT (e), "threshold", tv);
        g_free (tv);
      }
      gst_util_set_object_arg (G_OBJECT (e), "roi", i == ROI_FRAME ?
          "<10,12,200,100>" : "<>");
      blobs_desc_from_element (e, CM_DEPTH_8, &d);
      /* the labels of an 8-bit frame take the whole frame (roi ignored) */
      blobs_expected_compute (&want[i], &d, sys, &info,
          i == ROI_FRAME && output != 2 ? &roi : NULL,
          i == ROI_FRAME && output != 2 ? 1 : 0);
      in[i] = sys;
      /* in system memory: read at once, after the frame waiting */
      fail_unless_equals_int (gst_harness_push (h, i == SYSTEM_FRAME ?
              gst_buffer_copy_deep (sys) : pinned_copy (ph, sys, &info)),
          GST_FLOW_OK);
      if (i == 0)
        fail_unless (gst_harness_try_pull (h) == NULL, "%s: not held "
            "back: overlap is not active, the test proves nothing", what);
      g_free (what);
    }
    gst_harness_push_event (h, gst_event_new_eos ());

    for (guint i = 0; i < N; i++) {
      gchar *what = g_strdup_printf ("%s, frame %u", args[a], i);
      GstBuffer *out = gst_harness_try_pull (h);
      GstMessage *msg = blobs_pop_message (bus, NULL);

      fail_unless (out != NULL, "%s: no output", what);
      fail_unless (msg != NULL, "%s: no message", what);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in[i]));
      fail_unless (blobs_structure_equal (gst_message_get_structure (msg),
              FALSE, &want[i], what), "%s: message differs", what);
      fail_unless (blobs_structure_equal (blobs_meta_structure (out), TRUE,
              &want[i], what), "%s: meta differs", what);
      fail_unless_equals_int (blobs_meta_count (out), 1);
      if (output != 0 && (i != ROI_FRAME || output == 2)) {
        cm_blobs_desc d;

        blobs_desc_from_element (e, CM_DEPTH_8, &d);
        if (i < CHANGE_FRAME)
          d.threshold = t0;
        d.output = output == 1 ? CM_BLOBS_OUTPUT_MASK :
            CM_BLOBS_OUTPUT_LABELS;
        out_info (h, &oi);
        fail_unless (blobs_check_image (in[i], &info, out, &oi, &d, what),
            "%s: image differs from the reference", what);
      }
      gst_message_unref (msg);
      gst_buffer_unref (out);
      blobs_expected_clear (&want[i]);
      gst_buffer_unref (in[i]);
      g_free (what);
    }
    fail_unless (gst_harness_try_pull (h) == NULL, "more frames than in");
    fail_unless_equals_int (test_bus_count_problems (bus, GST_MESSAGE_ERROR),
        0);
    test_element_teardown (ph, m, mbus);
    test_element_teardown (h, e, bus);
  }
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_kinds),
  TEST_SUITE_TEST (test_regions),
  TEST_SUITE_TEST (test_change_playing),
  TEST_SUITE_TEST (test_overlap),
  {NULL}
};

TEST_GPU_CHECK_MAIN ("cudablobs-element", suite_tests);
