/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamedian on the CUDA backend against the same element on the CPU
 * backend, bit for bit: every format, both colour modes, square and
 * rectangular windows for the network and histogram algorithms, several
 * percentiles and borders, padded strides and property changes while
 * PLAYING. Exits 77 (meson: SKIP) when no CUDA device is usable. */
#include <stdio.h>
#include <string.h>

#include "element-harness.h"
#include "element-pair.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "device.h"
#include "test-util.h"

typedef struct
{
  int width, height;
  double percentile;
  const char *border;
  unsigned border_value;
  const char *color_mode;
  const char *algorithm;
} MedianParams;

static void
median_apply (GstElement * e, const MedianParams * p)
{
  gst_util_set_object_arg (G_OBJECT (e), "border", p->border);
  gst_util_set_object_arg (G_OBJECT (e), "color-mode", p->color_mode);
  gst_util_set_object_arg (G_OBJECT (e), "algorithm", p->algorithm);
  g_object_set (e, "width", p->width, "height", p->height, "percentile",
      p->percentile, "border-value", p->border_value, NULL);
}

static GstElement *
median_element_new (const char *backend, const MedianParams * p)
{
  GstElement *e = test_element_new ("cudamedian", backend);

  median_apply (e, p);
  return e;
}

/* one CPU and one CUDA element fed the same frames of @format */
static void
compare (const MedianParams * p, const char *format, int width, int height,
    guint64 seed, int extra_stride, const MedianParams * p2)
{
  ElementPair pair;
  GstVideoInfo info;
  int n_frames = p2 ? 2 : 1;

  element_pair_init (&pair, median_element_new ("cpu", p),
      median_element_new ("cuda", p));
  element_pair_set_caps (&pair, format, width, height, &info);

  for (int i = 0; i < n_frames; i++) {
    const MedianParams *q = i == 0 ? p : p2;
    GstBuffer *in = morph_make_input (&info, seed + i, extra_stride);
    GstBuffer *out_cpu, *out_cuda;
    gchar *what = g_strdup_printf ("%s %dx%d%s, window %dx%d p=%g "
        "border=%s(%u) %s %s, seed %" G_GUINT64_FORMAT, format, width,
        height, extra_stride ? " padded" : "", q->width, q->height,
        q->percentile, q->border, q->border_value, q->color_mode,
        q->algorithm, seed + i);

    if (i > 0) {
      median_apply (pair.cpu, q);
      median_apply (pair.cuda, q);
    }
    element_pair_push (&pair, in, &out_cuda, &out_cpu, what);
    fail_unless (morph_frames_equal (out_cuda, out_cpu, &info, what),
        "%s: CUDA and CPU outputs differ", what);
    gst_buffer_unref (out_cpu);
    gst_buffer_unref (out_cuda);
    gst_buffer_unref (in);
    g_free (what);
  }

  element_pair_clear (&pair);
}

static const MedianParams params[] = {
  {3, 3, 50, "replicate", 0, "luma", "auto"},
  {3, 3, 50, "replicate", 0, "channels", "network"},
  {5, 5, 0, "reflect", 0, "channels", "network"},
  {7, 7, 100, "mirror", 0, "luma", "auto"},
  {11, 11, 50, "constant", 40, "channels", "network"},
  {9, 5, 30, "constant", 200, "luma", "network"},
  {1, 1, 50, "replicate", 0, "luma", "auto"},
  {15, 15, 50, "replicate", 0, "channels", "auto"},
  {31, 7, 75, "reflect", 0, "luma", "histogram"},
  {3, 3, 50, "neutral", 0, "channels", "histogram"},
  {41, 41, 10, "mirror", 0, "channels", "histogram"},
};

GST_START_TEST (test_formats)
{
  guint64 seed = 1;
  int n = 0;

  for (int f = 0; f < MORPH_N_FORMATS; f++) {
    for (guint i = 0; i < G_N_ELEMENTS (params); i++) {
      if (n++ > 0 && !test_sample_keep ()) {    /* sanitizer setups */
        seed += 2;
        continue;
      }
      compare (&params[i], morph_format (f), 67, 41, seed, 0, NULL);
      seed += 2;
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_sizes_and_strides)
{
  static const struct
  {
    int w, h;
  } sizes[] = { {1, 1}, {2, 3}, {9, 1}, {1, 9}, {640, 480}, {333, 97} };
  guint64 seed = 1000;
  int n = 0;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (int extra = 0; extra <= 8; extra += 8) {
      if (n++ > 0 && !test_sample_keep ()) {    /* sanitizer setups */
        seed += 3;
        continue;
      }
      compare (&params[s % G_N_ELEMENTS (params)], "RGBA", sizes[s].w,
          sizes[s].h, seed++, extra, NULL);
      compare (&params[(s + 3) % G_N_ELEMENTS (params)], "GRAY16_LE",
          sizes[s].w, sizes[s].h, seed++, extra, NULL);
      compare (&params[(s + 5) % G_N_ELEMENTS (params)], "NV12",
          sizes[s].w, sizes[s].h, seed++, extra, NULL);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_property_change_playing)
{
  compare (&params[0], "BGRA", 97, 45, 2000, 0, &params[8]);
  compare (&params[8], "BGRx", 97, 45, 2010, 0, &params[1]);
  compare (&params[3], "GRAY8", 97, 45, 2020, 0, &params[10]);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_formats),
  TEST_SUITE_TEST (test_sizes_and_strides),
  TEST_SUITE_TEST (test_property_change_playing),
  {NULL}
};

TEST_GPU_CHECK_MAIN ("cudamedian-element", suite_tests);
