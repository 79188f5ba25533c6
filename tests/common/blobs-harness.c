/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudablobs in the element tests (blobs-harness.h). */
#include <string.h>

#include "blobs-harness.h"
#include "blobs-cases.h"
#include "padded-frames.h"

GstBuffer *
blobs_make_input (const GstVideoInfo * info, int kind, int param,
    guint64 seed, int extra_stride, guint * t)
{
  GstBuffer *buf = morph_make_input (info, seed, extra_stride);
  GstVideoFrame frame;
  cm_image img;
  uint32_t thr = 0;
  test_rng rng;

  test_rng_seed (&rng, seed ^ G_GUINT64_CONSTANT (0xb10b5));
  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  img = morph_frame_plane0 (&frame);
  blobs_fill (&img, (blobs_kind) kind, param, &thr, &rng);
  gst_video_frame_unmap (&frame);
  *t = thr;
  return buf;
}

static void
expected_init (BlobsExpected * e)
{
  memset (e, 0, sizeof (*e));
  e->x = g_array_new (FALSE, FALSE, sizeof (guint32));
  e->y = g_array_new (FALSE, FALSE, sizeof (guint32));
  e->width = g_array_new (FALSE, FALSE, sizeof (guint32));
  e->height = g_array_new (FALSE, FALSE, sizeof (guint32));
  e->min = g_array_new (FALSE, FALSE, sizeof (guint32));
  e->max = g_array_new (FALSE, FALSE, sizeof (guint32));
  e->area = g_array_new (FALSE, FALSE, sizeof (guint64));
  e->cx = g_array_new (FALSE, FALSE, sizeof (gdouble));
  e->cy = g_array_new (FALSE, FALSE, sizeof (gdouble));
  e->mean = g_array_new (FALSE, FALSE, sizeof (gdouble));
}

void
blobs_expected_clear (BlobsExpected * e)
{
  GArray **a[] = { &e->x, &e->y, &e->width, &e->height, &e->min, &e->max,
    &e->area, &e->cx, &e->cy, &e->mean
  };

  for (guint i = 0; i < G_N_ELEMENTS (a); i++)
    if (*a[i] != NULL)
      g_array_unref (*a[i]);
  memset (e, 0, sizeof (*e));
}

/* the reference on @img (a region's view), appended at (@dx, @dy) */
static void
expected_append (BlobsExpected * e, const cm_blobs_desc * d,
    const cm_image * img, guint dx, guint dy)
{
  cm_blobs_desc nd = *d;
  cm_blobs_results res;

  nd.output = CM_BLOBS_OUTPUT_NONE;
  fail_unless (cm_blobs_results_alloc (&res, cm_blobs_capacity (&nd,
              img->width, img->height)) == CM_OK);
  fail_unless (cm_blobs_ref (&nd, img, NULL, &res) == CM_OK);
  for (guint i = 0; i < res.count; i++) {
    guint32 x = res.x[i] + dx, y = res.y[i] + dy;
    gdouble cx = res.cx[i] + dx, cy = res.cy[i] + dy;

    g_array_append_val (e->x, x);
    g_array_append_val (e->y, y);
    g_array_append_val (e->width, res.width[i]);
    g_array_append_val (e->height, res.height[i]);
    g_array_append_val (e->min, res.min[i]);
    g_array_append_val (e->max, res.max[i]);
    g_array_append_val (e->area, res.area[i]);
    g_array_append_val (e->cx, cx);
    g_array_append_val (e->cy, cy);
    g_array_append_val (e->mean, res.mean[i]);
  }
  e->count += res.count;
  e->total += res.total;
  e->foreground += res.foreground;
  cm_blobs_results_free (&res);
}

void
blobs_expected_compute (BlobsExpected * e, const cm_blobs_desc * d,
    GstBuffer * buf, const GstVideoInfo * info,
    const GstVideoRectangle * rects, guint n_rects)
{
  GstVideoFrame frame;
  cm_image img;

  expected_init (e);
  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_READ));
  img = morph_frame_plane0 (&frame);
  if (rects == NULL) {
    expected_append (e, d, &img, 0, 0);
  } else {
    for (guint i = 0; i < n_rects; i++) {
      cm_image r = img;

      r.data = (guint8 *) img.data + (gsize) rects[i].y * img.pitch +
          (gsize) rects[i].x * cm_depth_bytes (img.depth);
      r.width = rects[i].w;
      r.height = rects[i].h;
      expected_append (e, d, &r, rects[i].x, rects[i].y);
    }
  }
  gst_video_frame_unmap (&frame);
}

/* element @i of the array @name of @s, as GstValueArray or GBytes of
 * @size-byte values, into @out; FALSE when it is not there */
static gboolean
array_get (const GstStructure * s, const char *name, gboolean bytes,
    guint n, gsize size, GType type, gpointer out)
{
  const GValue *v = gst_structure_get_value (s, name);

  if (v == NULL)
    return FALSE;
  if (bytes) {
    GBytes *b;
    gsize len = 0;
    gconstpointer data;

    if (!G_VALUE_HOLDS (v, G_TYPE_BYTES))
      return FALSE;
    b = g_value_get_boxed (v);
    data = b != NULL ? g_bytes_get_data (b, &len) : NULL;
    if (len != n * size)
      return FALSE;
    if (n > 0)
      memcpy (out, data, n * size);
    return TRUE;
  }
  if (!GST_VALUE_HOLDS_ARRAY (v) || gst_value_array_get_size (v) != n)
    return FALSE;
  for (guint i = 0; i < n; i++) {
    const GValue *e = gst_value_array_get_value (v, i);

    if (!G_VALUE_HOLDS (e, type))
      return FALSE;
    if (type == G_TYPE_UINT)
      ((guint32 *) out)[i] = g_value_get_uint (e);
    else if (type == G_TYPE_UINT64)
      ((guint64 *) out)[i] = g_value_get_uint64 (e);
    else
      ((gdouble *) out)[i] = g_value_get_double (e);
  }
  return TRUE;
}

gboolean
blobs_structure_equal (const GstStructure * s, gboolean bytes,
    const BlobsExpected * e, const char *what)
{
  const struct
  {
    const char *name;
    GType type;
    gsize size;
    GArray *want;
  } arrays[] = {
    {"x", G_TYPE_UINT, 4, e->x}, {"y", G_TYPE_UINT, 4, e->y},
    {"width", G_TYPE_UINT, 4, e->width},
    {"height", G_TYPE_UINT, 4, e->height},
    {"area", G_TYPE_UINT64, 8, e->area},
    {"cx", G_TYPE_DOUBLE, 8, e->cx}, {"cy", G_TYPE_DOUBLE, 8, e->cy},
    {"min", G_TYPE_UINT, 4, e->min}, {"max", G_TYPE_UINT, 4, e->max},
    {"mean", G_TYPE_DOUBLE, 8, e->mean},
  };
  guint total = 0, count = 0;
  guint64 fg = 0, t;

  if (s == NULL) {
    fprintf (stderr, "%s: no structure\n", what);
    return FALSE;
  }
  if (!gst_structure_get_uint (s, "total", &total) ||
      !gst_structure_get_uint (s, "count", &count) ||
      !gst_structure_get_uint64 (s, "foreground", &fg) ||
      !gst_structure_get_uint64 (s, "timestamp", &t) ||
      !gst_structure_get_uint64 (s, "stream-time", &t) ||
      !gst_structure_get_uint64 (s, "running-time", &t) ||
      !gst_structure_get_uint64 (s, "duration", &t)) {
    fprintf (stderr, "%s: a field is missing: %s\n", what,
        gst_structure_get_name (s));
    return FALSE;
  }
  if (total != e->total || count != e->count || fg != e->foreground) {
    fprintf (stderr, "%s: total %u count %u foreground %" G_GUINT64_FORMAT
        ", expected %u %u %" G_GUINT64_FORMAT "\n", what, total, count, fg,
        e->total, e->count, e->foreground);
    return FALSE;
  }
  for (guint a = 0; a < G_N_ELEMENTS (arrays); a++) {
    gpointer got = g_malloc0 (MAX (count, 1) * arrays[a].size);

    if (!array_get (s, arrays[a].name, bytes, count, arrays[a].size,
            arrays[a].type, got)) {
      fprintf (stderr, "%s: array %s missing, of another type or length\n",
          what, arrays[a].name);
      g_free (got);
      return FALSE;
    }
    for (guint i = 0; i < count; i++) {
      if (memcmp ((guint8 *) got + i * arrays[a].size,
              arrays[a].want->data + i * arrays[a].size,
              arrays[a].size) != 0) {
        fprintf (stderr, "%s: blob %u: %s differs\n", what, i,
            arrays[a].name);
        g_free (got);
        return FALSE;
      }
    }
    g_free (got);
  }
  return TRUE;
}

const GstStructure *
blobs_meta_structure (GstBuffer * buf)
{
  GstCustomMeta *m = gst_buffer_get_custom_meta (buf, BLOBS_META_NAME);

  return m != NULL ? gst_custom_meta_get_structure (m) : NULL;
}

guint
blobs_meta_count (GstBuffer * buf)
{
  const GstMetaInfo *info = gst_meta_get_info (BLOBS_META_NAME);
  gpointer state = NULL;
  GstMeta *m;
  guint n = 0;

  if (info == NULL)
    return 0;
  while ((m = gst_buffer_iterate_meta_filtered (buf, &state, info->api)))
    n++;
  return n;
}

/* the next "cudablobs" message on @bus within @timeout (warnings on the
 * way counted in *@warnings, other messages dropped) */
static GstMessage *
pop_blobs_message (GstBus * bus, guint * warnings, GstClockTime timeout)
{
  GstMessage *msg;

  while ((msg = gst_bus_timed_pop (bus, timeout)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_structure_has_name (gst_message_get_structure (msg), "cudablobs"))
      return msg;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING && warnings != NULL)
      (*warnings)++;
    gst_message_unref (msg);
  }
  return NULL;
}

GstMessage *
blobs_pop_message (GstBus * bus, guint * warnings)
{
  return pop_blobs_message (bus, warnings, 0);
}

GstMessage *
blobs_wait_message (GstBus * bus, guint * warnings)
{
  return pop_blobs_message (bus, warnings, 10 * GST_SECOND);
}

guint
blobs_flush_messages (GstHarness * h, GstBus * bus)
{
  GstMessage *msg;
  guint n = 0;

  fail_unless (gst_harness_push_event (h,
          gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
              gst_structure_new_empty ("blobs-test-flush"))));
  while ((msg = blobs_pop_message (bus, NULL)) != NULL) {
    gst_message_unref (msg);
    n++;
  }
  return n;
}

gboolean
blobs_check_image (GstBuffer * in, const GstVideoInfo * in_info,
    GstBuffer * out, const GstVideoInfo * out_info, const cm_blobs_desc * d,
    const char *what)
{
  GstVideoFrame fi, fo;
  cm_image src, got, want;
  cm_blobs_results res;
  gboolean ok = TRUE;

  fail_unless (gst_video_frame_map (&fi, in_info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, out_info, out, GST_MAP_READ));
  src = morph_frame_plane0 (&fi);
  got = morph_frame_plane0 (&fo);
  want = test_image_new (src.width, src.height, cm_blobs_output_depth (d,
          src.depth), 0);
  fail_unless (cm_blobs_results_alloc (&res, cm_blobs_capacity (d,
              src.width, src.height)) == CM_OK);
  fail_unless (cm_blobs_ref (d, &src, &want, &res) == CM_OK);
  if (got.depth != want.depth) {
    fprintf (stderr, "%s: output depth %d, expected %d\n", what, got.depth,
        want.depth);
    ok = FALSE;
  } else {
    ok = test_image_equal (&got, &want, what);
  }
  /* a mask's chroma is neutral */
  if (ok && d->output == CM_BLOBS_OUTPUT_MASK &&
      GST_VIDEO_INFO_IS_YUV (out_info)) {
    for (guint p = 1; ok && p < GST_VIDEO_FRAME_N_PLANES (&fo); p++) {
      const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&fo, p);
      gint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&fo, p);
      gsize bytes = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (&fo, p) *
          GST_VIDEO_FRAME_COMP_PSTRIDE (&fo, p);

      for (gint r = 0; ok && r < rows; r++)
        for (gsize b = 0; ok && b < bytes; b++)
          if (data[(gsize) r * GST_VIDEO_FRAME_PLANE_STRIDE (&fo, p) + b] !=
              128) {
            fprintf (stderr, "%s: chroma plane %u not neutral at row %d\n",
                what, p, r);
            ok = FALSE;
          }
    }
  }
  cm_blobs_results_free (&res);
  test_image_free (&want);
  gst_video_frame_unmap (&fo);
  gst_video_frame_unmap (&fi);
  return ok;
}

void
blobs_desc_from_element (GstElement * e, cm_depth depth, cm_blobs_desc * d)
{
  guint threshold, min_area, max_area, max_blobs;
  gboolean invert, exclude_border;
  gint connectivity;

  g_object_get (e, "threshold", &threshold, "invert", &invert,
      "connectivity", &connectivity, "min-area", &min_area, "max-area",
      &max_area, "exclude-border", &exclude_border, "max-blobs", &max_blobs,
      NULL);
  memset (d, 0, sizeof (*d));
  d->threshold = MIN (threshold, cm_depth_max (depth));
  d->invert = invert;
  d->connectivity = connectivity;
  d->min_area = min_area;
  d->max_area = max_area;
  d->exclude_border = exclude_border;
  d->max_blobs = max_blobs;
}
