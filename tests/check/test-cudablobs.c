/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudablobs element tests on the CPU backend (GstHarness, CK_FORK=no):
 * the blobs of small frames of every input format, size and kind
 * (random, spiral, checkerboard, one blob, none) equal to the core's
 * reference, in the message and in the custom meta; regions (roi,
 * roi-meta, none); the mask and label outputs and their renegotiation
 * while PLAYING; more than 65535 labels; a flush. */
#include <string.h>

#include "blobs-harness.h"
#include "blobs-cases.h"
#include "check-helpers.h"
#include "element-harness.h"
#include "padded-frames.h"
#include "test-suite.h"

static const char *const formats[] = {
  "GRAY8", "GRAY16_LE", "I420", "NV12", "Y444"
};

/* One cudablobs on the CPU backend in a harness, with a bus of its own */
typedef struct
{
  GstElement *e;
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
} BlobsRun;

static void
run_start (BlobsRun * r, const char *format, int width, int height,
    const char *args, const char *sink_caps)
{
  r->e = test_element_new ("cudablobs", "cpu");
  test_element_set_args (r->e, args);
  r->bus = gst_bus_new ();
  gst_element_set_bus (r->e, r->bus);
  r->h = gst_harness_new_with_element (r->e, "sink", "src");
  if (sink_caps != NULL)
    gst_harness_set_sink_caps_str (r->h, sink_caps);
  morph_harness_set_caps (r->h, format, width, height, &r->info);
}

static void
run_clear (BlobsRun * r)
{
  test_element_teardown (r->h, r->e, r->bus);
}

/* warnings seen while messages were looked for */
static guint warnings_seen;

/* @in through @r: its output, and its message and meta checked against
 * the reference (of @rects, or of the whole frame with @rects NULL) */
static GstBuffer *
run_push_checked (BlobsRun * r, GstBuffer * in,
    const GstVideoRectangle * rects, guint n_rects, const char *what)
{
  cm_depth depth = GST_VIDEO_INFO_COMP_DEPTH (&r->info, 0) > 8 ?
      CM_DEPTH_16 : CM_DEPTH_8;
  BlobsExpected want;
  cm_blobs_desc d;
  GstMessage *msg;
  GstBuffer *out;

  blobs_desc_from_element (r->e, depth, &d);
  blobs_expected_compute (&want, &d, in, &r->info, rects, n_rects);
  out = gst_harness_push_and_pull (r->h, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s: no output", what);
  msg = blobs_wait_message (r->bus, &warnings_seen);
  fail_unless (msg != NULL, "%s: no message", what);
  fail_unless (blobs_structure_equal (gst_message_get_structure (msg), FALSE,
          &want, what), "%s: message differs from the reference", what);
  fail_unless_equals_int (blobs_meta_count (out), 1);
  fail_unless (blobs_structure_equal (blobs_meta_structure (out), TRUE,
          &want, what), "%s: meta differs from the reference", what);
  gst_message_unref (msg);
  blobs_expected_clear (&want);
  return out;
}

/* run_push_checked () of @in, which is unreffed with the output */
static void
run_check (BlobsRun * r, GstBuffer * in, const GstVideoRectangle * rects,
    guint n_rects, const char *what)
{
  gst_buffer_unref (run_push_checked (r, in, rects, n_rects, what));
  gst_buffer_unref (in);
}

/* Passthrough of a buffer the test holds: a copy that shares its memory
 * (the meta needs a writable buffer) */
static gboolean
same_memory (GstBuffer * out, GstBuffer * in)
{
  return gst_buffer_n_memory (out) == gst_buffer_n_memory (in) &&
      gst_buffer_peek_memory (out, 0) == gst_buffer_peek_memory (in, 0);
}

/* Every format, odd sizes, every kind of frame, both connectivities and
 * the filters: the message and the meta are the reference's. */
GST_START_TEST (test_results_formats_sizes)
{
  static const struct
  {
    int kind, param;
  } kinds[] = {
    {BLOBS_RANDOM, 50}, {BLOBS_RANDOM, 10}, {BLOBS_SPIRAL, 0},
    {BLOBS_CHECKER, 1}, {BLOBS_CHECKER, 2}, {BLOBS_FULL, 0},
    {BLOBS_EMPTY, 0}, {BLOBS_DISCS, 6},
  };
  static const char *const args[] = {
    "connectivity=8", "connectivity=4",
    "min-area=3 max-area=40 exclude-border=true",
    "max-blobs=3 connectivity=4", "invert=true max-blobs=0",
  };
  guint64 seed = 100;

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint s = 0; s < CHECK_N_ODD_SIZES; s++)
      for (guint a = 0; a < G_N_ELEMENTS (args); a++) {
        BlobsRun r;

        run_start (&r, formats[f], check_odd_sizes[s].width,
            check_odd_sizes[s].height, args[a], NULL);
        for (guint k = 0; k < G_N_ELEMENTS (kinds); k++) {
          guint t;
          GstBuffer *in = blobs_make_input (&r.info, kinds[k].kind,
              kinds[k].param, seed++, (k % 3) ? 0 : 8, &t);
          gchar *what = g_strdup_printf ("%s %dx%d %s, %s(%d) t=%u",
              formats[f], check_odd_sizes[s].width,
              check_odd_sizes[s].height, args[a],
              blobs_kind_name (kinds[k].kind), kinds[k].param, t);
          GstBuffer *out;

          g_object_set (r.e, "threshold", t, NULL);
          out = run_push_checked (&r, in, NULL, 0, what);
          fail_unless (same_memory (out, in), "%s: passthrough copied "
              "pixels", what);
          gst_buffer_unref (out);
          gst_buffer_unref (in);
          g_free (what);
        }
        run_clear (&r);
      }
}

GST_END_TEST;

/* A GstVideoRegionOfInterestMeta on @buf */
static void
add_roi (GstBuffer * buf, const GstVideoRectangle * r)
{
  fail_unless (gst_buffer_add_video_region_of_interest_meta (buf, "object",
          r->x, r->y, r->w, r->h) != NULL);
}

/* roi: the region analysed as a frame of its own, its blobs in frame
 * coordinates, its edge the one exclude-border looks at; roi-meta: every
 * region, overlapping ones each, region after region; a buffer without
 * regions: empty results. */
GST_START_TEST (test_regions)
{
  const GstVideoRectangle roi = { 5, 3, 21, 13 };
  const GstVideoRectangle metas[] = { {2, 1, 17, 12}, {9, 6, 20, 16},
  {30, 0, 7, 23}
  };
  guint64 seed = 300;

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    BlobsRun r;
    GstBuffer *in;
    guint t;
    gchar *what;

    run_start (&r, formats[f], 37, 23, "roi=<5,3,21,13> connectivity=4 "
        "exclude-border=true", NULL);
    in = blobs_make_input (&r.info, BLOBS_RANDOM, 40, seed++, 0, &t);
    g_object_set (r.e, "threshold", t, NULL);
    what = g_strdup_printf ("%s roi", formats[f]);
    run_check (&r, in, &roi, 1, what);
    g_free (what);

    /* the metas, then roi */
    g_object_set (r.e, "roi-meta", TRUE, "exclude-border", FALSE, NULL);
    in = blobs_make_input (&r.info, BLOBS_DISCS, 12, seed++, 4, &t);
    g_object_set (r.e, "threshold", t, NULL);
    for (guint i = 0; i < G_N_ELEMENTS (metas); i++)
      add_roi (in, &metas[i]);
    {
      GstVideoRectangle all[G_N_ELEMENTS (metas) + 1];

      memcpy (all, metas, sizeof (metas));
      all[G_N_ELEMENTS (metas)] = roi;
      what = g_strdup_printf ("%s roi-meta and roi", formats[f]);
      run_check (&r, in, all, G_N_ELEMENTS (all), what);
      g_free (what);
    }

    /* no meta and no roi: empty results, not none */
    gst_util_set_object_arg (G_OBJECT (r.e), "roi", "<>");
    in = blobs_make_input (&r.info, BLOBS_FULL, 0, seed++, 0, &t);
    what = g_strdup_printf ("%s roi-meta without regions", formats[f]);
    run_check (&r, in, metas, 0, what);
    g_free (what);
    run_clear (&r);
  }
}

GST_END_TEST;

/* the caps on the harness's sink pad are @format at @r's size */
static void
check_out_caps (BlobsRun * r, const char *format, GstVideoInfo * out_info)
{
  GstCaps *caps = gst_pad_get_current_caps (r->h->sinkpad);

  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (out_info, caps));
  fail_unless_equals_string (GST_VIDEO_INFO_NAME (out_info), format);
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (out_info),
      GST_VIDEO_INFO_WIDTH (&r->info));
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (out_info),
      GST_VIDEO_INFO_HEIGHT (&r->info));
  gst_caps_unref (caps);
}

/* One frame through @r with output @output: the output caps and image,
 * the message and the meta. */
static void
push_output (BlobsRun * r, const char *output, guint64 seed)
{
  cm_depth depth = GST_VIDEO_INFO_COMP_DEPTH (&r->info, 0) > 8 ?
      CM_DEPTH_16 : CM_DEPTH_8;
  gboolean labels = g_str_equal (output, "labels");
  GstVideoInfo out_info;
  GstBuffer *in, *out;
  cm_blobs_desc d;
  gchar *what;
  guint t;

  gst_util_set_object_arg (G_OBJECT (r->e), "output", output);
  in = blobs_make_input (&r->info, BLOBS_DISCS, 8, seed, 0, &t);
  g_object_set (r->e, "threshold", t, NULL);
  what = g_strdup_printf ("%s output=%s", GST_VIDEO_INFO_NAME (&r->info),
      output);
  out = run_push_checked (r, in, NULL, 0, what);
  check_out_caps (r, labels ? "GRAY16_LE" : GST_VIDEO_INFO_NAME (&r->info),
      &out_info);
  if (g_str_equal (output, "passthrough")) {
    fail_unless (same_memory (out, in), "%s: pixels copied", what);
  } else {
    blobs_desc_from_element (r->e, depth, &d);
    d.output = labels ? CM_BLOBS_OUTPUT_LABELS : CM_BLOBS_OUTPUT_MASK;
    fail_unless (blobs_check_image (in, &r->info, out, &out_info, &d, what),
        "%s: image differs from the reference", what);
  }
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (what);
}

/* mask and labels on every format, and the output changed while PLAYING:
 * each frame in the caps of its output */
GST_START_TEST (test_outputs)
{
  static const char *const sequence[] = {
    "mask", "labels", "passthrough", "labels", "mask", "passthrough"
  };
  guint64 seed = 500;

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    BlobsRun r;

    run_start (&r, formats[f], 29, 17, "connectivity=4 max-blobs=2", NULL);
    for (guint i = 0; i < G_N_ELEMENTS (sequence); i++)
      push_output (&r, sequence[i], seed++);
    run_clear (&r);
  }
}

GST_END_TEST;

/* Downstream that refuses GRAY16_LE: output=labels is refused with a
 * warning and the output in use stays (the property says so again). */
GST_START_TEST (test_labels_refused)
{
  BlobsRun r;
  GstMessage *msg;
  gint output;

  run_start (&r, "GRAY8", 21, 13, "output=mask", "video/x-raw,format=GRAY8");
  push_output (&r, "mask", 600);
  gst_util_set_object_arg (G_OBJECT (r.e), "output", "labels");
  {
    GstBuffer *in = morph_make_input (&r.info, 601, 0);
    GstBuffer *out = gst_harness_push_and_pull (r.h, in);

    fail_unless (out != NULL);
    gst_buffer_unref (out);
  }
  msg = test_bus_pop_filtered (r.bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning for the refused output");
  gst_message_unref (msg);
  g_object_get (r.e, "output", &output, NULL);
  fail_unless_equals_int (output, 1);   /* mask */
  blobs_flush_messages (r.h, r.bus);
  push_output (&r, "mask", 602);
  run_clear (&r);
}

GST_END_TEST;

/* A 4-connected checkerboard of 2^17 blobs: the labels past 65535 share
 * 65535, with one warning for the stream; max-blobs=0 reports all. */
GST_START_TEST (test_many_labels)
{
  BlobsRun r;
  GstBuffer *in, *out;
  GstMessage *msg;
  guint t;

  warnings_seen = 0;
  run_start (&r, "GRAY8", 512, 512, "connectivity=4 max-blobs=0 "
      "output=labels", NULL);
  for (guint i = 0; i < 2; i++) {
    GstVideoInfo out_info;
    cm_blobs_desc d;

    in = blobs_make_input (&r.info, BLOBS_CHECKER, 1, 700 + i, 0, &t);
    g_object_set (r.e, "threshold", t, NULL);
    out = run_push_checked (&r, in, NULL, 0, "checkerboard labels");
    check_out_caps (&r, "GRAY16_LE", &out_info);
    blobs_desc_from_element (r.e, CM_DEPTH_8, &d);
    d.output = CM_BLOBS_OUTPUT_LABELS;
    fail_unless (blobs_check_image (in, &r.info, out, &out_info, &d,
            "checkerboard labels"));
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  while ((msg = test_bus_pop_filtered (r.bus, GST_MESSAGE_WARNING))) {
    warnings_seen++;
    gst_message_unref (msg);
  }
  fail_unless_equals_int (warnings_seen, 1);
  run_clear (&r);
}

GST_END_TEST;

/* A flush between frames: the next frame's blobs are its own. */
GST_START_TEST (test_flush)
{
  BlobsRun r;
  GstBuffer *in;
  guint t;

  run_start (&r, "NV12", 33, 19, "output=mask", NULL);
  in = blobs_make_input (&r.info, BLOBS_RANDOM, 30, 800, 0, &t);
  g_object_set (r.e, "threshold", t, NULL);
  run_check (&r, in, NULL, 0, "before the flush");
  fail_unless (gst_harness_push_event (r.h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (r.h, gst_event_new_flush_stop (TRUE)));
  {
    GstSegment seg;

    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (r.h, gst_event_new_segment (&seg)));
  }
  in = blobs_make_input (&r.info, BLOBS_SPIRAL, 0, 801, 0, &t);
  g_object_set (r.e, "threshold", t, NULL);
  run_check (&r, in, NULL, 0, "after the flush");
  run_clear (&r);
}

GST_END_TEST;

/* The messages come from the element's own thread, in the frames' order,
 * and all of them before the EOS goes on: with nothing waited for, the bus
 * holds one per frame, each the reference's of its frame, once the EOS is
 * through. The frames' 8,192 blobs each (82k values a message, some
 * milliseconds to build) keep the thread busy after the last frame, so
 * that an EOS that did not wait for it would find its message missing. */
GST_START_TEST (test_messages_before_eos)
{
  enum
  { N = 3 };
  BlobsRun r;
  BlobsExpected want[N];
  cm_blobs_desc d;
  GstMessage *msg;
  guint64 ts;
  guint t;

  run_start (&r, "GRAY8", 128, 128, "connectivity=4 max-blobs=0", NULL);
  for (guint i = 0; i < N; i++) {
    GstBuffer *in = blobs_make_input (&r.info, BLOBS_CHECKER, 1, 900 + i, 0,
        &t);
    GstBuffer *out;

    g_object_set (r.e, "threshold", t, NULL);
    GST_BUFFER_PTS (in) = i * GST_SECOND;
    blobs_desc_from_element (r.e, CM_DEPTH_8, &d);
    blobs_expected_compute (&want[i], &d, in, &r.info, NULL, 0);
    out = gst_harness_push_and_pull (r.h, in);
    fail_unless (out != NULL);
    gst_buffer_unref (out);
  }
  fail_unless (gst_harness_push_event (r.h, gst_event_new_eos ()));
  for (guint i = 0; i < N; i++) {
    gchar *what = g_strdup_printf ("frame %u of %u", i, (guint) N);

    msg = blobs_pop_message (r.bus, NULL);
    fail_unless (msg != NULL, "%s: not on the bus at the EOS", what);
    fail_unless (gst_structure_get_uint64 (gst_message_get_structure (msg),
            "timestamp", &ts) && ts == i * GST_SECOND, "%s: out of order",
        what);
    fail_unless (blobs_structure_equal (gst_message_get_structure (msg),
            FALSE, &want[i], what), "%s: not its frame's blobs", what);
    gst_message_unref (msg);
    blobs_expected_clear (&want[i]);
    g_free (what);
  }
  fail_unless (blobs_pop_message (r.bus, NULL) == NULL, "one message more");
  run_clear (&r);
}

GST_END_TEST;

static const TestSuiteEntry tests[] = {
  TEST_SUITE_TEST (test_results_formats_sizes),
  TEST_SUITE_TEST (test_regions),
  TEST_SUITE_TEST (test_outputs),
  TEST_SUITE_TEST (test_labels_refused),
  TEST_SUITE_TEST (test_many_labels),
  TEST_SUITE_TEST (test_flush),
  TEST_SUITE_TEST (test_messages_before_eos),
  {NULL}
};

TEST_SUITE_MAIN (cudablobs, "cudablobs", 0, tests);
