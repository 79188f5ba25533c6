/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudalinspectrum on the CUDA backend against the same element on the CPU
 * backend, bit for bit: every output mode (passthrough, supremum, RGBA
 * orientation map), GRAY8, GRAY16_LE, NV12 (and I420, Y444), openings and
 * closings, sub-degree steps, odd and padded frames, output and parameter
 * changes while PLAYING; the messages' spectra, angles and dominant
 * orientations are identical too. Exits 77 (meson: SKIP) when no CUDA
 * device is usable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "element-pair.h"
#include "lin-harness.h"
#include "device.h"
#include "test-util.h"

/* a CPU and a CUDA cudalinspectrum set from @p */
static void
pair_init (ElementPair * pair, const LinParams * p)
{
  GstElement *cpu = test_element_new ("cudalinspectrum", "cpu");
  GstElement *cuda = test_element_new ("cudalinspectrum", "cuda");

  lin_params_apply (cpu, p);
  lin_params_apply (cuda, p);
  element_pair_init (pair, cpu, cuda);
}

static void
pair_apply (ElementPair * pair, const LinParams * p)
{
  lin_params_apply (pair->cpu, p);
  lin_params_apply (pair->cuda, p);
}

/* the output info of @h's element (RGBA in orientation mode) */
static void
harness_out_info (GstHarness * h, GstVideoInfo * info)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (info, caps));
  gst_caps_unref (caps);
}

/* TRUE when the two messages carry the same numbers, bit for bit */
static gboolean
messages_equal (const GstStructure * a, const GstStructure * b,
    const char *what)
{
  guint n = lin_check_schema (a, what);
  gdouble x, y;

  fail_unless_equals_int (lin_check_schema (b, what), n);
  for (guint i = 0; i < n; i++) {
    if (lin_array_get (a, "spectrum", i) != lin_array_get (b, "spectrum", i)
        || lin_array_get (a, "angles", i) != lin_array_get (b, "angles", i)) {
      fprintf (stderr, "%s: orientation %u: CUDA %.17g at %.17g, CPU %.17g "
          "at %.17g\n", what, i, lin_array_get (a, "spectrum", i),
          lin_array_get (a, "angles", i), lin_array_get (b, "spectrum", i),
          lin_array_get (b, "angles", i));
      return FALSE;
    }
  }
  gst_structure_get_double (a, "dominant-angle", &x);
  gst_structure_get_double (b, "dominant-angle", &y);
  if (x != y) {
    fprintf (stderr, "%s: dominant-angle CUDA %.17g CPU %.17g\n", what, x, y);
    return FALSE;
  }
  gst_structure_get_double (a, "dominant-value", &x);
  gst_structure_get_double (b, "dominant-value", &y);
  if (x != y) {
    fprintf (stderr, "%s: dominant-value CUDA %.17g CPU %.17g\n", what, x, y);
    return FALSE;
  }
  return TRUE;
}

static void
pair_push_and_compare (ElementPair * pair, const GstVideoInfo * info,
    const LinParams * p, guint64 seed, int extra, const char *ctx)
{
  GstBuffer *in = morph_make_input (info, seed, extra);
  GstBuffer *out_cpu, *out_cuda;
  GstVideoInfo oi_cpu, oi_cuda;
  GstMessage *m_cpu, *m_cuda;
  gchar *desc = lin_params_describe (p);
  gchar *what = g_strdup_printf ("%s %s %dx%d%s, %s, seed %" G_GUINT64_FORMAT,
      ctx, GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), extra ? " padded" : "", desc, seed);

  element_pair_push (pair, in, &out_cuda, &out_cpu, what);

  harness_out_info (pair->hcuda, &oi_cuda);
  harness_out_info (pair->hcpu, &oi_cpu);
  fail_unless (GST_VIDEO_INFO_FORMAT (&oi_cuda) ==
      GST_VIDEO_INFO_FORMAT (&oi_cpu), "%s: output formats differ", what);
  /* the input is held here: a copy sharing its memory carries the meta */
  if (g_str_equal (p->output, "passthrough"))
    lin_check_passed_through (in, out_cuda, what);
  if (g_str_equal (p->output, "orientation"))
    fail_unless (GST_VIDEO_INFO_FORMAT (&oi_cuda) == GST_VIDEO_FORMAT_RGBA,
        "%s: not RGBA", what);
  /* the CPU element equals the reference (tests/check): bit for bit */
  fail_unless (morph_frames_equal (out_cuda, out_cpu, &oi_cuda, what),
      "%s: CUDA and CPU outputs differ", what);

  m_cuda = lin_pop_message (pair->bcuda);
  m_cpu = lin_pop_message (pair->bcpu);
  fail_unless (m_cuda != NULL && m_cpu != NULL, "%s: missing message", what);
  fail_unless (messages_equal (gst_message_get_structure (m_cuda),
          gst_message_get_structure (m_cpu), what),
      "%s: CUDA and CPU messages differ", what);
  fail_unless (lin_check_message (gst_message_get_structure (m_cuda), in,
          info, p, what), "%s: CUDA message differs from the reference",
      what);
  lin_check_meta_is_message (out_cuda, gst_message_get_structure (m_cuda),
      what);
  gst_message_unref (m_cuda);
  gst_message_unref (m_cpu);

  gst_buffer_unref (out_cpu);
  gst_buffer_unref (out_cuda);
  gst_buffer_unref (in);
  g_free (what);
  g_free (desc);
}

static const char *const outputs[] = {
  "passthrough", "supremum", "orientation"
};

static const struct
{
  int width, height;
} sizes[] = {
  {37, 23}, {1, 1}, {1, 9}, {9, 1}, {160, 90}, {641, 361},
};

/* every output mode and format, open and close, integer and sub-degree
 * steps */
GST_START_TEST (test_outputs)
{
  static const char *const formats[] = { "GRAY8", "GRAY16_LE", "NV12",
    "I420", "Y444"
  };
  guint64 seed = 1;
  int n = 0;

  for (guint o = 0; o < G_N_ELEMENTS (outputs); o++) {
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
      for (int op = 0; op < 2; op++) {
        for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
          LinParams p = { op ? 25 : 41, op ? -10 : 0, op ? 10 : 180,
            op ? 0.25 : 3, op ? CM_MORPH_CLOSE : CM_MORPH_OPEN, outputs[o]
          };
          ElementPair pair;
          GstVideoInfo info;

          /* the large frame for the three main formats only */
          if (f >= 3 && s == G_N_ELEMENTS (sizes) - 1)
            continue;
          if (n++ > 0 && !test_sample_keep ()) {        /* sanitizers */
            seed += 2;
            continue;
          }
          pair_init (&pair, &p);
          element_pair_set_caps (&pair, formats[f], sizes[s].width,
              sizes[s].height, &info);
          pair_push_and_compare (&pair, &info, &p, seed++, 0, "outputs");
          pair_push_and_compare (&pair, &info, &p, seed++, 8, "outputs");
          element_pair_clear (&pair);
        }
      }
    }
  }
}

GST_END_TEST;

/* lengths around the shared-memory and zone limits, many orientations */
GST_START_TEST (test_lengths)
{
  static const LinParams params[] = {
    {1, 0, 180, 1, CM_MORPH_OPEN, "supremum"},
    {2, 0, 180, 45, CM_MORPH_CLOSE, "orientation"},
    {64, 0, 180, 0.5, CM_MORPH_OPEN, "orientation"},
    {250, -10, 10, 0.25, CM_MORPH_CLOSE, "passthrough"},
    {301, 0, 180, 2, CM_MORPH_CLOSE, "supremum"},
    {15, 0, 180, 180.0 / 4096, CM_MORPH_OPEN, "passthrough"},
  };
  guint64 seed = 5000;

  for (guint i = 0; i < G_N_ELEMENTS (params); i++) {
    ElementPair pair;
    GstVideoInfo info;

    /* sanitizer setups: one length in two */
    if (i % 2 && getenv ("CM_TEST_SAMPLE")) {
      seed++;
      continue;
    }
    pair_init (&pair, &params[i]);
    element_pair_set_caps (&pair, i % 2 ? "GRAY16_LE" : "GRAY8", 203, 117,
        &info);
    pair_push_and_compare (&pair, &info, &params[i], seed++, 0, "lengths");
    element_pair_clear (&pair);
  }
}

GST_END_TEST;

/* output, parameters and caps changed while PLAYING */
GST_START_TEST (test_change_playing)
{
  LinParams p = { 21, 0, 180, 5, CM_MORPH_OPEN, "passthrough" };
  GstVideoInfo info;
  ElementPair pair;

  pair_init (&pair, &p);
  element_pair_set_caps (&pair, "NV12", 320, 240, &info);
  pair_push_and_compare (&pair, &info, &p, 1, 0, "passthrough");

  p.output = "orientation";
  pair_apply (&pair, &p);
  pair_push_and_compare (&pair, &info, &p, 2, 0, "to orientation");

  p.op = CM_MORPH_CLOSE;
  p.angle_min = -15;
  p.angle_max = 15;
  p.angle_step = 0.5;
  p.length = 61;
  pair_apply (&pair, &p);
  pair_push_and_compare (&pair, &info, &p, 3, 0, "new parameters");

  p.output = "supremum";
  pair_apply (&pair, &p);
  pair_push_and_compare (&pair, &info, &p, 4, 0, "to supremum");

  element_pair_set_caps (&pair, "GRAY16_LE", 97, 45, &info);
  pair_push_and_compare (&pair, &info, &p, 5, 0, "new caps");

  p.output = "passthrough";
  pair_apply (&pair, &p);
  pair_push_and_compare (&pair, &info, &p, 6, 0, "back to passthrough");

  p.output = "orientation";
  pair_apply (&pair, &p);
  element_pair_set_caps (&pair, "GRAY8", 640, 480, &info);
  pair_push_and_compare (&pair, &info, &p, 7, 0, "orientation, new caps");

  element_pair_clear (&pair);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_outputs),
  TEST_SUITE_TEST (test_lengths),
  TEST_SUITE_TEST (test_change_playing),
  {NULL}
};

TEST_GPU_CHECK_MAIN ("cudalinspectrum-element", suite_tests);
