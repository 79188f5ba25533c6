/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Regions of interest (gstcudaplanefilterroi.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefilterroi.h"
#include "gstcudaplanefiltercache.h"
#include "gstcudaplanefiltererrors.h"

#include "gstcudaplanefiltersettings.h"

void
gst_cuda_plane_filter_roi_init (GstCudaPlaneFilterRoi * roi)
{
  memset (roi, 0, sizeof (*roi));
  roi->rects = g_array_new (FALSE, FALSE, sizeof (GstVideoRectangle));
}

void
gst_cuda_plane_filter_roi_clear (GstCudaPlaneFilterRoi * roi)
{
  g_clear_pointer (&roi->rects, g_array_unref);
}

void
gst_cuda_plane_filter_roi_install_properties (GObjectClass * klass,
    guint prop_roi, guint prop_roi_meta)
{
  g_object_class_install_property (klass, prop_roi,
      gst_param_spec_array ("roi", "Region of interest",
          "The only region filtered, as <x, y, width, height> in pixels of "
          "the frame (e.g. roi=\"<64,32,512,512>\" on gst-launch-1.0); the "
          "rest of the frame passes unchanged, and the region's edges "
          "follow the border property as if the region were the frame. "
          "Clipped to the frame; a region wholly outside it filters nothing. "
          "<> or a width or height of 0: the whole frame. Converting "
          "outputs (cudalinspectrum's colour map) ignore it; "
          "cudalinspectrum's results describe the region. Changes apply at "
          "the next frame; a region of a new size rebuilds the filter once. "
          "Four integers: x and y may be negative (clipped), width and "
          "height are >= 0; anything else is refused with a warning and the "
          "previous region kept",
          /* no element spec: GStreamer 1.22 deserialises a nested "<"
           * with the element's spec taken for an array's and crashes
           * (roi="<<1>>"); the values' type is checked in set_property */
          NULL, GST_CUDA_PLANE_FILTER_PARAM_FLAGS));
  g_object_class_install_property (klass, prop_roi_meta,
      g_param_spec_boolean ("roi-meta", "Regions from metas",
          "Filter only the regions of the buffer's "
          "GstVideoRegionOfInterestMeta (any type), each as if it were the "
          "frame, and the roi property's region when set; a buffer without "
          "such a meta (and no roi) passes unchanged. Where regions "
          "overlap, the later one's result is kept (metas in the buffer's "
          "order, then roi). Filters are made per size and kept for up to "
          G_STRINGIFY (GST_CUDA_PLANE_FILTER_CACHE_SIZES) " sizes: a region "
          "of a size not kept builds one (device memory is allocated), "
          "regions of kept sizes cost no allocation. cudalinspectrum takes the first region "
          "only (its results describe one)", FALSE,
          GST_CUDA_PLANE_FILTER_PARAM_FLAGS));
}

/* the int at @i of the GstValueArray @value */
static gint
array_int (const GValue * value, guint i)
{
  return g_value_get_int (gst_value_array_get_value (value, i));
}

void
gst_cuda_plane_filter_roi_set_property (GObject * object,
    GstCudaPlaneFilterRoi * roi, gboolean roi_prop, const GValue * value)
{
  GstVideoRectangle r = { 0, 0, 0, 0 };
  guint n;

  if (!roi_prop) {
    GST_OBJECT_LOCK (object);
    roi->use_meta = g_value_get_boolean (value);
    GST_OBJECT_UNLOCK (object);
    return;
  }

  n = gst_value_array_get_size (value);
  if (n != 0 && n != 4) {
    gst_cuda_plane_filter_refuse (GST_ELEMENT (object), "roi takes 4 values "
        "<x, y, width, height> (or <> for the whole frame), got %u; keeping "
        "the previous region", n);
    return;
  }
  for (guint i = 0; i < n; i++) {
    const GValue *c = gst_value_array_get_value (value, i);

    if (!G_VALUE_HOLDS_INT (c)) {
      gst_cuda_plane_filter_refuse (GST_ELEMENT (object), "roi takes integers "
          "<x, y, width, height>, got a %s at %u; keeping the previous "
          "region", G_VALUE_TYPE_NAME (c), i);
      return;
    }
  }
  if (n == 4) {
    r.x = array_int (value, 0);
    r.y = array_int (value, 1);
    r.w = array_int (value, 2);
    r.h = array_int (value, 3);
  }
  if (r.w < 0 || r.h < 0) {
    gst_cuda_plane_filter_refuse (GST_ELEMENT (object), "roi width and height "
        "must be >= 0, got %dx%d; keeping the previous region", r.w, r.h);
    return;
  }
  GST_OBJECT_LOCK (object);
  roi->roi = r;
  GST_OBJECT_UNLOCK (object);
}

void
gst_cuda_plane_filter_roi_get_property (GObject * object,
    GstCudaPlaneFilterRoi * roi, gboolean roi_prop, GValue * value)
{
  GValue v = G_VALUE_INIT;
  gboolean use_meta;
  gint c[4];
  guint i;

  GST_OBJECT_LOCK (object);
  use_meta = roi->use_meta;
  c[0] = roi->roi.x;
  c[1] = roi->roi.y;
  c[2] = roi->roi.w;
  c[3] = roi->roi.h;
  GST_OBJECT_UNLOCK (object);
  if (!roi_prop) {
    g_value_set_boolean (value, use_meta);
    return;
  }
  /* <> for the whole frame, as it was set */
  if (c[2] == 0 && c[3] == 0 && c[0] == 0 && c[1] == 0)
    return;
  g_value_init (&v, G_TYPE_INT);
  for (i = 0; i < 4; i++) {
    g_value_set_int (&v, c[i]);
    gst_value_array_append_value (value, &v);
  }
  g_value_unset (&v);
}

/* @r (x, y and size of any sign) clipped to the frame, appended when
 * something of it is left */
static void
append_clipped (GArray * rects, gint64 x, gint64 y, gint64 w, gint64 h,
    gint width, gint height)
{
  gint64 x1 = MIN (x + w, (gint64) width), y1 = MIN (y + h, (gint64) height);
  GstVideoRectangle r;

  x = MAX (x, 0);
  y = MAX (y, 0);
  if (x1 <= x || y1 <= y)
    return;
  r.x = (gint) x;
  r.y = (gint) y;
  r.w = (gint) (x1 - x);
  r.h = (gint) (y1 - y);
  g_array_append_val (rects, r);
}

gboolean
gst_cuda_plane_filter_roi_collect (GstCudaPlaneFilterRoi * roi,
    GObject * object, GstBuffer * buf, gint width, gint height,
    guint max_rects)
{
  GstVideoRectangle r;
  gboolean use_meta, has_roi;

  GST_OBJECT_LOCK (object);
  r = roi->roi;
  use_meta = roi->use_meta;
  GST_OBJECT_UNLOCK (object);

  g_array_set_size (roi->rects, 0);
  has_roi = r.w > 0 && r.h > 0;
  if (!use_meta && !has_roi)
    return FALSE;

  if (use_meta) {
    GstVideoRegionOfInterestMeta *m;
    gpointer state = NULL;

    while ((m = (GstVideoRegionOfInterestMeta *)
            gst_buffer_iterate_meta_filtered (buf, &state,
                GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) != NULL)
      append_clipped (roi->rects, m->x, m->y, m->w, m->h, width, height);
  }
  if (has_roi)
    append_clipped (roi->rects, r.x, r.y, r.w, r.h, width, height);
  if (roi->rects->len > max_rects)
    g_array_set_size (roi->rects, max_rects);
  return TRUE;
}

gboolean
gst_cuda_plane_filter_roi_refused (GstCudaPlaneFilterRoi * roi,
    GstElement * element, gboolean convert)
{
  if (!convert)
    return FALSE;
  if (!roi->convert_warned)
    GST_ELEMENT_WARNING (element, LIBRARY, SETTINGS,
        ("roi and roi-meta do not apply to an output of another format "
            "than the input; the whole frame is processed"),
        ("a region's surroundings cannot pass unchanged into a converted "
            "frame"));
  roi->convert_warned = TRUE;
  return TRUE;
}

gboolean
gst_cuda_plane_filter_roi_disjoint (const GstCudaPlaneFilterRoi * roi)
{
  const GstVideoRectangle *r = (const GstVideoRectangle *) roi->rects->data;
  guint i, j;

  for (i = 0; i < roi->rects->len; i++)
    for (j = i + 1; j < roi->rects->len; j++)
      if (r[i].x < r[j].x + r[j].w && r[j].x < r[i].x + r[i].w &&
          r[i].y < r[j].y + r[j].h && r[j].y < r[i].y + r[i].h)
        return FALSE;
  return TRUE;
}
