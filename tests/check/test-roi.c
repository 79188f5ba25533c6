/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Regions of interest (roi, roi-meta) of the three elements. The oracle is
 * the element itself on a frame of the region's size: inside each region
 * the output must equal the same element run on the region cut out as a
 * frame (so the region's edges follow the border property as a frame's
 * do), outside it the input, chroma and alpha included, bit for bit.
 * Covered: regions inside, on the edges and partly outside the frame,
 * wholly outside, regions that change size between frames, overlapping
 * regions from metas (the later wins) and the roi property after them,
 * no region at all, cudalinspectrum's results of the region, invalid
 * values; frames the element may write (in place on CUDA) and frames it
 * may not; the filters kept per region size (the stats' filter-builds):
 * sizes that come back build nothing, a property or caps change rebuilds
 * and is applied, more sizes than are kept stay exact. The CPU backend in the gst suite; with CM_TEST_BACKEND=cuda
 * the same cases in the gpu suite (roi-gpu). */
#include <stdio.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "element-harness.h"
#include "lin-harness.h"
#include "padded-frames.h"
#include "reliability-harness.h"

typedef struct
{
  const char *factory;
  const char *props;            /* "name=value ..." */
  const char *const *formats;   /* NULL-terminated */
} RoiElement;

static const char *const all_formats[] = { "GRAY8", "GRAY16_LE", "NV12",
  "I420", "RGBA", "BGRx", NULL
};
static const char *const luma_formats[] = { "GRAY8", "GRAY16_LE", "NV12",
  NULL
};

static const RoiElement roi_elements[] = {
  {"cudamorph", "operation=open shape=disk radius=3 border=replicate",
      all_formats},
  {"cudamorph", "operation=dilate shape=rect width=7 height=3", all_formats},
  {"cudamorph", "operation=erode shape=line length=9 angle=30 "
        "border=constant border-value=77", luma_formats},
  {"cudamorph", "operation=fill-holes", luma_formats},
  {"cudamorph", "operation=area-close min-area=12 connectivity=4",
      luma_formats},
  {"cudamedian", "size=5", all_formats},
  {"cudamedian", "size=3 color-mode=channels", all_formats},
  {"cudalinspectrum", "length=9 angle-step=15 output=supremum", luma_formats},
};

typedef struct
{
  GstElement *e;
  GstHarness *h;
  GstBus *bus;
  GstVideoInfo info;
} RoiRun;

/* @re on @backend with caps @format @w x @h, extra properties @extra */
static void
roi_run_start (RoiRun * r, const RoiElement * re, const char *format, int w,
    int h, const char *extra)
{
  r->e = test_element_new (re->factory, test_backend ());
  test_element_set_args (r->e, re->props);
  if (extra != NULL)
    test_element_set_args (r->e, extra);
  r->bus = gst_bus_new ();
  gst_element_set_bus (r->e, r->bus);
  r->h = morph_harness_new (r->e);
  morph_harness_set_caps (r->h, format, w, h, &r->info);
}

/* @in through @r: a reference (the element cannot write it, so it
 * filters out of place), or with @writable a copy of its own (which the
 * CUDA backend filters in place when the regions do not overlap) */
static GstBuffer *
roi_run_push (RoiRun * r, GstBuffer * in, gboolean writable)
{
  GstBuffer *out = gst_harness_push_and_pull (r->h, writable ?
      gst_buffer_copy_deep (in) : gst_buffer_ref (in));

  fail_unless (out != NULL, "no output buffer");
  return out;
}

static void
roi_run_stop (RoiRun * r)
{
  fail_unless_equals_int (test_bus_count_problems (r->bus,
          GST_MESSAGE_ERROR | GST_MESSAGE_WARNING), 0);
  gst_harness_teardown (r->h);
  gst_element_set_bus (r->e, NULL);
  gst_object_unref (r->bus);
  gst_object_unref (r->e);
}

/* bytes of one pixel of plane 0 */
static gsize
plane0_pixel (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
}

/* The rectangle @rect of plane 0 of @in as a frame of its own (the other
 * planes random) */
static GstBuffer *
cut_out (GstBuffer * in, const GstVideoInfo * info,
    const GstVideoRectangle * rect, GstVideoInfo * cut_info)
{
  GstVideoFrame src, dst;
  GstBuffer *cut;
  gsize px = plane0_pixel (info);

  gst_video_info_set_format (cut_info, GST_VIDEO_INFO_FORMAT (info), rect->w,
      rect->h);
  cut = morph_make_input (cut_info, 99, 0);
  fail_unless (gst_video_frame_map (&src, (GstVideoInfo *) info, in,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dst, cut_info, cut, GST_MAP_WRITE));
  for (int y = 0; y < rect->h; y++)
    memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&dst, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&dst, 0),
        (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&src, 0) +
        (rect->y + y) * GST_VIDEO_FRAME_PLANE_STRIDE (&src, 0) +
        rect->x * px, rect->w * px);
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  return cut;
}

/* @rect clipped to a frame of @w x @h; FALSE when nothing is left */
static gboolean
clip (GstVideoRectangle * rect, int w, int h)
{
  int x1 = MIN (rect->x + rect->w, w), y1 = MIN (rect->y + rect->h, h);

  rect->x = MAX (rect->x, 0);
  rect->y = MAX (rect->y, 0);
  rect->w = x1 - rect->x;
  rect->h = y1 - rect->y;
  return rect->w > 0 && rect->h > 0;
}

/* The expected output: @in, with each of @rects (clipped) replaced by the
 * element's output on that rectangle cut out as a frame, in order. */
static GstBuffer *
expected_output (const RoiElement * re, GstBuffer * in,
    const GstVideoInfo * info, const GstVideoRectangle * rects, guint n)
{
  GstBuffer *exp = gst_buffer_copy_deep (in);
  gsize px = plane0_pixel (info);

  for (guint i = 0; i < n; i++) {
    GstVideoRectangle r = rects[i];
    GstVideoInfo cut_info;
    GstVideoFrame dst, got;
    GstBuffer *cut, *out;
    RoiRun run;

    if (!clip (&r, GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info)))
      continue;
    cut = cut_out (in, info, &r, &cut_info);
    roi_run_start (&run, re, GST_VIDEO_INFO_NAME (info), r.w, r.h, NULL);
    out = roi_run_push (&run, cut, FALSE);
    roi_run_stop (&run);

    fail_unless (gst_video_frame_map (&dst, (GstVideoInfo *) info, exp,
            GST_MAP_WRITE));
    fail_unless (gst_video_frame_map (&got, &cut_info, out, GST_MAP_READ));
    for (int y = 0; y < r.h; y++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&dst, 0) +
          (r.y + y) * GST_VIDEO_FRAME_PLANE_STRIDE (&dst, 0) + r.x * px,
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&got, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&got, 0), r.w * px);
    gst_video_frame_unmap (&got);
    gst_video_frame_unmap (&dst);
    gst_buffer_unref (out);
    gst_buffer_unref (cut);
  }
  return exp;
}

/* every plane's visible bytes equal */
static void
check_equal (GstBuffer * got, GstBuffer * exp, const GstVideoInfo * info,
    const char *what)
{
  GstVideoFrame g, e;

  fail_unless (gst_video_frame_map (&g, (GstVideoInfo *) info, got,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&e, (GstVideoInfo *) info, exp,
          GST_MAP_READ));
  if (!frame_planes_equal (&g, &e, 0, what))
    fail ("%s: output differs from the oracle", what);
  gst_video_frame_unmap (&e);
  gst_video_frame_unmap (&g);
}

/* @in through @run, its output checked against the oracle of @rects; the
 * output keeps the input's @n_metas region metas */
static void
roi_push_and_check (RoiRun * run, const RoiElement * re, GstBuffer * in,
    gboolean writable, const GstVideoRectangle * rects, guint n,
    guint n_metas, const char *what)
{
  GstBuffer *out = roi_run_push (run, in, writable);
  GstBuffer *exp = expected_output (re, in, &run->info, rects, n);

  check_equal (out, exp, &run->info, what);
  fail_unless_equals_int (gst_buffer_get_n_meta (out,
          GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE), n_metas);
  gst_buffer_unref (exp);
  gst_buffer_unref (out);
}

static gchar *
roi_string (const GstVideoRectangle * r)
{
  return g_strdup_printf ("roi=<%d,%d,%d,%d>", r->x, r->y, r->w, r->h);
}

/* One frame of @format through @re with the roi property @r (possibly
 * partly or wholly outside), against the oracle. */
static void
check_roi (const RoiElement * re, const char *format, int w, int h,
    const GstVideoRectangle * r, guint64 seed)
{
  gchar *extra = roi_string (r);
  gchar *what = g_strdup_printf ("%s %s %s %dx%d %s", re->factory, re->props,
      format, w, h, extra);
  GstBuffer *in;
  RoiRun run;

  roi_run_start (&run, re, format, w, h, extra);
  in = morph_make_input (&run.info, seed, 0);
  roi_push_and_check (&run, re, in, TRUE, r, 1, 0, what);
  roi_run_stop (&run);
  gst_buffer_unref (in);
  g_free (what);
  g_free (extra);
}

/* Regions inside, on each edge, partly outside and wholly outside the
 * frame; even coordinates and sizes keep the cut-out frames valid for the
 * subsampled formats. */
static const GstVideoRectangle roi_cases[] = {
  {10, 6, 24, 18},              /* inside */
  {0, 0, 16, 12},               /* top-left corner */
  {58, 40, 20, 14},             /* bottom-right corner, exactly */
  {0, 20, 78, 8},               /* a band across the frame */
  {60, 44, 40, 40},             /* partly outside: clipped */
  {-8, -6, 20, 16},             /* partly before the origin: clipped */
  {2, 2, 2, 2},                 /* tiny */
  {100, 100, 10, 10},           /* wholly outside: nothing filtered */
};

GST_START_TEST (test_roi_property)
{
  const RoiElement *re = &roi_elements[__i__];

  for (guint f = 0; re->formats[f] != NULL; f++)
    for (guint c = 0; c < G_N_ELEMENTS (roi_cases); c++)
      check_roi (re, re->formats[f], 78, 54, &roi_cases[c], 17 * f + c);
}

GST_END_TEST;

/* The region changes size between frames of one element: the filter is
 * made again for each size, each frame exact. */
GST_START_TEST (test_roi_changes)
{
  static const GstVideoRectangle seq[] = {
    {4, 4, 30, 20}, {20, 10, 12, 30}, {0, 0, 0, 0}, {4, 4, 30, 20},
  };
  const RoiElement *re = &roi_elements[__i__];
  RoiRun run;

  roi_run_start (&run, re, "GRAY8", 64, 48, NULL);
  for (guint k = 0; k < G_N_ELEMENTS (seq); k++) {
    gchar *extra = roi_string (&seq[k]);
    GstVideoRectangle whole = { 0, 0, 64, 48 };
    const GstVideoRectangle *r = seq[k].w > 0 ? &seq[k] : &whole;
    GstBuffer *in = morph_make_input (&run.info, 300 + k, 0);

    test_element_set_args (run.e, extra);
    roi_push_and_check (&run, re, in, k % 2, r, 1, 0, extra);
    gst_buffer_unref (in);
    g_free (extra);
  }
  roi_run_stop (&run);
}

GST_END_TEST;

/* roi-meta: the metas' regions in order, then roi's; overlaps go to the
 * later region; a meta partly outside is clipped. An element whose
 * results describe one region (cudalinspectrum) takes the first. */
GST_START_TEST (test_roi_meta)
{
  static const GstVideoRectangle metas[] = {
    {6, 4, 30, 20}, {20, 14, 30, 24}, {60, 40, 30, 30},
  };
  static const GstVideoRectangle prop = { 30, 2, 16, 16 };
  GstVideoRectangle all[G_N_ELEMENTS (metas) + 1];
  const RoiElement *re = &roi_elements[__i__];
  gboolean first_only = g_str_equal (re->factory, "cudalinspectrum");

  memcpy (all, metas, sizeof (metas));
  all[G_N_ELEMENTS (metas)] = prop;
  for (guint f = 0; re->formats[f] != NULL; f++) {
    for (int with_prop = 0; with_prop < 2; with_prop++) {
      gchar *extra = with_prop ? roi_string (&prop) : NULL;
      gchar *what = g_strdup_printf ("%s %s %s roi-meta %s", re->factory,
          re->props, re->formats[f], extra ? extra : "");
      GstBuffer *in;
      RoiRun run;

      roi_run_start (&run, re, re->formats[f], 78, 54, extra);
      g_object_set (run.e, "roi-meta", TRUE, NULL);
      in = morph_make_input (&run.info, 40 + f, 0);
      for (guint m = 0; m < G_N_ELEMENTS (metas); m++)
        gst_buffer_add_video_region_of_interest_meta (in, "defect",
            metas[m].x, metas[m].y, metas[m].w, metas[m].h);
      roi_push_and_check (&run, re, in, with_prop, all, first_only ? 1 :
          G_N_ELEMENTS (metas) + with_prop, G_N_ELEMENTS (metas), what);
      roi_run_stop (&run);
      gst_buffer_unref (in);
      g_free (what);
      g_free (extra);
    }
  }
}

GST_END_TEST;

/* roi-meta on a buffer without a meta (and no roi): passes unchanged. */
GST_START_TEST (test_roi_meta_none)
{
  const RoiElement *re = &roi_elements[__i__];

  for (guint f = 0; re->formats[f] != NULL; f++) {
    GstBuffer *in, *out;
    RoiRun run;

    roi_run_start (&run, re, re->formats[f], 40, 30, "roi-meta=true");
    in = morph_make_input (&run.info, 7 + f, 0);
    out = roi_run_push (&run, in, TRUE);
    check_equal (out, in, &run.info, re->formats[f]);
    roi_run_stop (&run);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
}

GST_END_TEST;

/* cudalinspectrum in passthrough: the results of a roi are those of the
 * region cut out as a frame; the frame passes unchanged. */
GST_START_TEST (test_roi_spectrum)
{
  static const RoiElement lin = { "cudalinspectrum", "length=11 "
        "angle-step=10", luma_formats
  };
  static const GstVideoRectangle r = { 12, 8, 40, 30 };
  static const char *const fields[] = { "angles", "spectrum" };
  GstStructure *got, *want;
  GstBuffer *in, *out, *cut, *cut_out_buf;
  GstVideoInfo cut_info;
  GstMessage *m;
  gchar *extra = roi_string (&r);
  RoiRun run, crun;

  roi_run_start (&run, &lin, "GRAY8", 70, 50, extra);
  in = morph_make_input (&run.info, 5, 0);
  out = roi_run_push (&run, in, FALSE);
  check_equal (out, in, &run.info, "passthrough with roi");
  m = lin_pop_message (run.bus);
  fail_unless (m != NULL, "no spectrum message");
  got = gst_structure_copy (gst_message_get_structure (m));
  gst_message_unref (m);

  cut = cut_out (in, &run.info, &r, &cut_info);
  roi_run_start (&crun, &lin, "GRAY8", r.w, r.h, NULL);
  cut_out_buf = roi_run_push (&crun, cut, FALSE);
  m = lin_pop_message (crun.bus);
  fail_unless (m != NULL, "no spectrum message of the cut-out frame");
  want = gst_structure_copy (gst_message_get_structure (m));
  gst_message_unref (m);

  for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
    fail_unless (gst_value_compare (gst_structure_get_value (got, fields[f]),
            gst_structure_get_value (want, fields[f])) == GST_VALUE_EQUAL,
        "%s of the roi differs from the cut-out frame's", fields[f]);
  fail_unless (gst_value_compare (gst_structure_get_value (got,
              "dominant-angle"), gst_structure_get_value (want,
              "dominant-angle")) == GST_VALUE_EQUAL);

  roi_run_stop (&crun);
  roi_run_stop (&run);
  gst_structure_free (got);
  gst_structure_free (want);
  gst_buffer_unref (cut_out_buf);
  gst_buffer_unref (cut);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (extra);
}

GST_END_TEST;

/* ---- filters kept per region size ----------------------------------- */

/* Each element with a property change that alters its output, its
 * filter of each kind (cudamorph: morphology, then reconstruction). */
typedef struct
{
  RoiElement re;
  const char *change;
} RoiCacheCase;

static const RoiCacheCase cache_cases[] = {
  {{"cudamorph", "operation=open shape=disk radius=2 border=replicate",
          luma_formats}, "radius=4"},
  {{"cudamorph", "operation=hmax dome-height=10", luma_formats},
      "dome-height=40"},
  {{"cudamedian", "size=5", luma_formats}, "size=3"},
  {{"cudalinspectrum", "length=9 angle-step=15 output=supremum",
          luma_formats}, "length=5"},
};

/* Two regions of @sizes[@a] and @sizes[@b], at two places that do not
 * overlap, as metas of @in (and in @rects): cudalinspectrum takes the
 * first, whose size then follows @a. */
static void
cache_add_regions (GstBuffer * in, const GstVideoRectangle * sizes, guint a,
    guint b, GstVideoRectangle * rects)
{
  static const int at[2][2] = { {2, 2}, {40, 16} };
  const guint which[2] = { a, b };

  for (guint i = 0; i < 2; i++) {
    rects[i].x = at[i][0];
    rects[i].y = at[i][1];
    rects[i].w = sizes[which[i]].w;
    rects[i].h = sizes[which[i]].h;
    gst_buffer_add_video_region_of_interest_meta (in, "defect", rects[i].x,
        rects[i].y, rects[i].w, rects[i].h);
  }
}

/* One frame of @run with the regions of sizes @a and @b (from @seed),
 * checked against @re's oracle. */
static void
cache_push_checked (RoiRun * run, const RoiElement * re,
    const GstVideoRectangle * sizes, guint a, guint b, guint64 seed,
    const char *what)
{
  GstBuffer *in = morph_make_input (&run->info, seed, 0);
  GstVideoRectangle rects[2];
  gboolean first_only = g_str_equal (re->factory, "cudalinspectrum");
  gchar *w = g_strdup_printf ("%s %s %s frame %" G_GUINT64_FORMAT
      " regions %dx%d %dx%d", what, re->props,
      GST_VIDEO_INFO_NAME (&run->info), seed, sizes[a].w, sizes[a].h,
      sizes[b].w, sizes[b].h);

  cache_add_regions (in, sizes, a, b, rects);
  roi_push_and_check (run, re, in, seed % 2, rects, first_only ? 1 : 2, 2, w);
  gst_buffer_unref (in);
  g_free (w);
}

/* Ten frames with two regions of two sizes that trade places (so that
 * cudalinspectrum's one region alternates): exact, and a filter built
 * once per size (and once for the frame at the caps). Then a property
 * change: the next frame builds again and is the oracle's of the new
 * value; then new caps (GRAY16_LE): no filter of GRAY8 is put back. */
GST_START_TEST (test_roi_cache_sizes)
{
  static const GstVideoRectangle sizes[] = { {0, 0, 30, 20}, {0, 0, 22, 36} };
  const RoiCacheCase *c = &cache_cases[__i__];
  gchar *changed_props = g_strdup_printf ("%s %s", c->re.props, c->change);
  RoiElement changed = { c->re.factory, changed_props, c->re.formats };
  guint64 builds, before;
  RoiRun run;
  guint k;

  roi_run_start (&run, &c->re, "GRAY8", 78, 54, "roi-meta=true");
  for (k = 0; k < 10; k++)
    cache_push_checked (&run, &c->re, sizes, k % 2, 1 - k % 2, 600 + k,
        "two sizes");
  builds = test_filter_builds (run.e);
  fail_unless (builds <= 1 + G_N_ELEMENTS (sizes), "%s: %" G_GUINT64_FORMAT
      " filters built for 2 region sizes and the frame", c->re.props, builds);

  /* a property change mid-stream: built again, and applied */
  test_element_set_args (run.e, c->change);
  before = builds;
  cache_push_checked (&run, &changed, sizes, 0, 1, 700, c->change);
  builds = test_filter_builds (run.e);
  fail_unless (builds > before, "%s: nothing built after %s", c->re.props,
      c->change);
  for (k = 1; k < 4; k++)
    cache_push_checked (&run, &changed, sizes, k % 2, 1 - k % 2, 700 + k,
        c->change);
  fail_unless (test_filter_builds (run.e) <= before + 1 +
      G_N_ELEMENTS (sizes), "%s: sizes built again and again after %s",
      c->re.props, c->change);

  /* new caps, the same sizes */
  morph_harness_set_caps (run.h, "GRAY16_LE", 78, 54, &run.info);
  before = test_filter_builds (run.e);
  for (k = 0; k < 4; k++)
    cache_push_checked (&run, &changed, sizes, k % 2, 1 - k % 2, 800 + k,
        "new caps");
  builds = test_filter_builds (run.e);
  fail_unless (builds > before && builds <= before + 1 +
      G_N_ELEMENTS (sizes), "%s: %" G_GUINT64_FORMAT " filters built for "
      "new caps", c->re.props, builds - before);
  roi_run_stop (&run);
  g_free (changed_props);
}

GST_END_TEST;

/* More region sizes than the element keeps filters for, in a cycle (the
 * least recently used one leaves every time), some of one width or one
 * height: every frame exact. */
GST_START_TEST (test_roi_cache_many_sizes)
{
  static const GstVideoRectangle sizes[] = {
    {0, 0, 8, 6}, {0, 0, 12, 10}, {0, 0, 16, 8}, {0, 0, 12, 14},
    {0, 0, 20, 10}, {0, 0, 6, 18},
  };
  const RoiCacheCase *c = &cache_cases[__i__];
  guint n = G_N_ELEMENTS (sizes);
  RoiRun run;

  roi_run_start (&run, &c->re, "GRAY8", 78, 54, "roi-meta=true");
  for (guint k = 0; k < 2 * n; k++)
    cache_push_checked (&run, &c->re, sizes, k % n, (k + n / 2 + 1) % n,
        900 + k, "six sizes");
  /* each frame builds at most its two regions' */
  fail_unless (test_filter_builds (run.e) <= 1 + 2 * 2 * n);
  roi_run_stop (&run);
}

GST_END_TEST;

/* the roi property of @e as gst_value_serialize writes it (g_free it) */
static gchar *
roi_read_back (GstElement * e)
{
  GValue v = G_VALUE_INIT;
  gchar *s;

  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "roi", &v);
  s = gst_value_serialize (&v);
  g_value_unset (&v);
  return s;
}

/* The properties: read back as set, <> for the whole frame, a value of
 * the wrong size, a negative size or values that are no integers (nested
 * arrays among them: GStreamer 1.22 crashed deserialising "<<1>>" with an
 * element spec) refused with a warning and the region kept. */
GST_START_TEST (test_roi_values)
{
  static const gchar *const refused[] = { "<1,2,3>", "<1,2,-3,4>", "<<1>>",
    "<<1>,2,3,4>", "<1.5,2,3,4>", "<a,b,c,d>", "<1,2,3,4000000000>"
  };
  const gchar *kept = "< (int)1, (int)2, (int)3, (int)4 >";
  GstElement *e = test_element_new ("cudamorph", "cpu");
  GValue v = G_VALUE_INIT;
  gchar *s;

  gst_util_set_object_arg (G_OBJECT (e), "roi", "<1,2,3,4>");
  s = roi_read_back (e);
  fail_unless_equals_string (s, kept);
  g_free (s);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++) {
    ASSERT_WARNING (gst_util_set_object_arg (G_OBJECT (e), "roi",
            refused[i]));
    s = roi_read_back (e);
    fail_unless (g_strcmp0 (s, kept) == 0, "%s: roi reads back %s",
        refused[i], s);
    g_free (s);
  }

  gst_util_set_object_arg (G_OBJECT (e), "roi", "<>");
  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "roi", &v);
  fail_unless_equals_int (gst_value_array_get_size (&v), 0);
  g_value_unset (&v);

  gst_object_unref (e);
}

GST_END_TEST;

static const TestSuiteEntry roi_tests[] = {
  TEST_SUITE_LOOP (test_roi_property, 0, G_N_ELEMENTS (roi_elements)),
  TEST_SUITE_LOOP (test_roi_changes, 0, G_N_ELEMENTS (roi_elements)),
  TEST_SUITE_LOOP (test_roi_meta, 0, G_N_ELEMENTS (roi_elements)),
  TEST_SUITE_LOOP (test_roi_meta_none, 0, G_N_ELEMENTS (roi_elements)),
  TEST_SUITE_LOOP (test_roi_cache_sizes, 0, G_N_ELEMENTS (cache_cases)),
  TEST_SUITE_LOOP (test_roi_cache_many_sizes, 0, G_N_ELEMENTS (cache_cases)),
  TEST_SUITE_TEST (test_roi_spectrum),
  TEST_SUITE_TEST (test_roi_values),
  {NULL, NULL, 0, 0}
};

int
main (int argc, char **argv)
{
  return test_backend_main (&argc, &argv, "roi", roi_tests);
}
