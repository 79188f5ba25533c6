/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudalinspectrum element tests on the CPU backend (GstHarness,
 * CK_FORK=no), the result on every output buffer: the custom meta, and
 * the analytics entry with GStreamer >= 1.24, equal to the message of the
 * same frame, on every frame whatever interval and post-messages say, off
 * with attach-meta=false, kept by copies. */
#include "gstcudalinspectrummeta.h"
#include "check-helpers.h"
#include "lin-harness.h"
#include "padded-frames.h"
#include "test-util.h"
#include "test-suite.h"

#define OPEN CM_MORPH_OPEN
#define CLOSE CM_MORPH_CLOSE

/* ---- the result on the buffer ------------------------------------------ */

#define META_FRAMES 8

/* @buf carries no meta (and no analytics entry) */
static void
check_no_result (GstBuffer * buf)
{
  fail_unless_equals_int (lin_meta_count (buf), 0);
#ifdef HAVE_GST_ANALYTICS
  fail_unless (gst_buffer_get_analytics_relation_meta (buf) == NULL);
#endif
}

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
    LinRun run = { {7, 0, 180, 15, (c % 2) ? CLOSE : OPEN,
            cases[c].output}
    };
    gboolean passthrough = g_str_equal (cases[c].output, "passthrough");
    GstBuffer *ref[META_FRAMES], *held[META_FRAMES];
    gpointer pushed[META_FRAMES];
    GstMessage *msgs[META_FRAMES];
    GstMessage *msg;
    guint n_msgs = 0;
    gchar *desc = lin_params_describe (&run.p);

    lin_run_start (&run, cases[c].format, 23, 17, NULL);
    for (guint i = 0; i < META_FRAMES; i++) {
      GstBuffer *in = morph_make_input (&run.info, seed++, (i % 3) ? 0 : 8);

      GST_BUFFER_PTS (in) = 1 * GST_SECOND + i * 40 * GST_MSECOND;
      GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
      ref[i] = gst_buffer_copy_deep (in);
      pushed[i] = in;
      /* odd frames stay referenced here: not writable for the element */
      held[i] = (i % 2) ? gst_buffer_ref (in) : NULL;
      fail_unless_equals_int (gst_harness_push (run.h, in), GST_FLOW_OK);
    }
    while ((msg = lin_pop_message (run.bus)) != NULL) {
      fail_unless (n_msgs < META_FRAMES, "%s: more messages than frames",
          desc);
      msgs[n_msgs++] = msg;
    }
    fail_unless_equals_int (n_msgs, META_FRAMES);

    for (guint i = 0; i < META_FRAMES; i++) {
      GstBuffer *out = gst_harness_pull (run.h);
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
      lin_check_result_is_message (out, ms, what);
      conv = lin_meta_as_message (lin_meta_structure (out, what));
      fail_unless (lin_check_message (conv, ref[i], &run.info, &run.p, what),
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
    lin_run_clear (&run);
    g_free (desc);
  }
}

GST_END_TEST;

/* Every buffer has its own frame's result, whatever interval and
 * post-messages say; the messages that are posted equal their frame's
 * meta. */
GST_START_TEST (test_meta_every_frame)
{
  LinRun run = { { 5, -45, 45, 2.5, CLOSE, "passthrough" } };

  lin_run_start (&run, "GRAY8", 19, 14, "interval", 3, NULL);
  for (guint i = 0; i < 10; i++) {
    GstBuffer *out, *in;
    GstStructure *conv;
    GstMessage *msg;
    gchar *what = g_strdup_printf ("interval 3, frame %u", i);

    if (i == 7)
      g_object_set (run.e, "post-messages", FALSE, NULL);
    in = lin_run_push (&run, 1300 + i, 0, &out);
    conv = lin_meta_as_message (lin_meta_structure (out, what));
    fail_unless (lin_check_message (conv, in, &run.info, &run.p, what),
        "%s: meta differs from the reference", what);
    gst_structure_free (conv);
    msg = lin_pop_message (run.bus);
    if (i % 3 == 0 && i < 7) {
      fail_unless (msg != NULL, "%s: no message", what);
      lin_check_result_is_message (out, gst_message_get_structure (msg), what);
      gst_message_unref (msg);
    } else {
      fail_unless (msg == NULL, "%s: a message", what);
    }
    g_free (what);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  lin_run_clear (&run);
}

GST_END_TEST;

/* attach-meta=false: no meta, and in passthrough the input itself even
 * when it is held elsewhere; on again while PLAYING: from the next frame */
GST_START_TEST (test_meta_off)
{
  LinRun run = { { 9, 0, 180, 10, OPEN, "passthrough" } };
  GstBuffer *in, *out;

  lin_run_start (&run, "I420", 29, 21, "attach-meta", FALSE, NULL);
  in = lin_run_push (&run, 1400, 0, &out);
  fail_unless (out == in, "passthrough without meta: another buffer");
  check_no_result (out);
  lin_run_check_message (&run, in, "attach-meta off");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  lin_run_set_output (&run, "supremum");
  in = lin_run_push (&run, 1401, 0, &out);
  fail_unless (lin_run_supremum_ok (&run, in, out, "supremum, no meta"));
  check_no_result (out);
  lin_run_check_message (&run, in, "supremum, no meta");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  g_object_set (run.e, "attach-meta", TRUE, NULL);
  in = lin_run_push (&run, 1402, 0, &out);
  lin_run_check_frame (&run, in, out, "attach-meta on again");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  lin_run_clear (&run);
}

GST_END_TEST;

/* A copy of the buffer keeps the meta and the analytics entry; the
 * structure goes through its string form unchanged (GBytes serialise);
 * the result of an earlier pass stays beside the new one. */
GST_START_TEST (test_meta_copied)
{
  LinRun run = { { 11, 0, 180, 20, OPEN, "supremum" } };
  GstBuffer *in, *out, *copy, *out2;
  GstStructure *conv, *back;
  GstMessage *msg;
  gchar *str;

  lin_run_start (&run, "GRAY8", 33, 25, NULL);
  in = lin_run_push (&run, 1500, 0, &out);
  msg = lin_pop_message (run.bus);
  fail_unless (msg != NULL);
  lin_check_result_is_message (out, gst_message_get_structure (msg), "output");

  copy = gst_buffer_copy (out);
  lin_check_result_is_message (copy, gst_message_get_structure (msg), "copy");
  str = gst_structure_to_string (lin_meta_structure (out, "output"));
  back = gst_structure_from_string (str, NULL);
  fail_unless (back != NULL, "meta structure not parsed back: %s", str);
  fail_unless (gst_structure_is_equal (back, lin_meta_structure (out,
              "output")), "meta structure changed through %s", str);
  gst_structure_free (back);
  g_free (str);

  /* the output through the element again: two results */
  out2 = gst_harness_push_and_pull (run.h, gst_buffer_ref (copy));
  fail_unless (out2 != NULL);
  fail_unless_equals_int (lin_meta_count (out2), 2);
#ifdef HAVE_GST_ANALYTICS
  fail_unless_equals_int (lin_mtd_count (out2), 2);
#endif
  gst_buffer_unref (out2);
  fail_unless (lin_pop_message (run.bus) != NULL);
  gst_message_unref (msg);
  fail_unless_equals_int (lin_meta_count (in), 0);
  conv = lin_meta_as_message (lin_meta_structure (copy, "copy"));
  fail_unless (lin_check_message (conv, in, &run.info, &run.p, "copy"));
  gst_structure_free (conv);
  gst_buffer_unref (copy);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  lin_run_clear (&run);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_meta_matches_message),
  TEST_SUITE_TEST (test_meta_every_frame),
  TEST_SUITE_TEST (test_meta_off),
  TEST_SUITE_TEST (test_meta_copied),
  {NULL}
};

TEST_SUITE_MAIN (cudalinspectrum_meta, "cudalinspectrum-meta", 300,
    suite_tests);
