/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-cudamedian
 * @title: cudamedian
 * @short_description: Median and percentile (rank) filter on the GPU
 *
 * cudamedian replaces every pixel by the sample of a given rank among the
 * #GstCudaMedian:width x #GstCudaMedian:height pixels of the window
 * centred on it: the median for #GstCudaMedian:percentile = 50, the
 * minimum (an erosion by the rectangle) for 0, the maximum (a dilation)
 * for 100. The rank is k = floor (p / 100 * (N - 1) + 1/2) of the N window
 * samples sorted in ascending order. Both window sides are odd; the window
 * may be larger than the frame, pixels outside it being defined by
 * #GstCudaMedian:border.
 *
 * GRAY8 and GRAY16_LE frames are filtered as they are; for I420, NV12 and
 * Y444 the luma plane is filtered and chroma passes unchanged. RGBA, BGRA,
 * RGBx and BGRx are filtered as #GstCudaMedian:color-mode says:
 *
 * * luma (default): the colour median of Szántó and Fehér (paper 001,
 *   section 4). Every pixel gets the luminance Y = (77 R + 150 G + 29 B)
 *   >> 8; window pixels are ordered by (Y, raster position in the window)
 *   and the output takes the R, G and B of the pixel of the selected rank.
 *   The output therefore only contains colours present in the window (or
 *   the border colour with border=constant). Alpha is copied from the
 *   input pixel; the padding byte of RGBx and BGRx comes with the winner.
 * * channels: each colour channel is filtered on its own and alpha is
 *   copied; cheaper, but it may create colours that were not in the input.
 *
 * On the CUDA backend the plan picks the algorithm after paper 001
 * (#GstCudaMedian:algorithm = auto; the choice is logged at INFO level in
 * the cudamedian debug category):
 *
 * * small windows: sorting networks, one per output for windows of at most
 *   64 pixels, and pruned selection networks sharing work between
 *   neighbouring windows for square windows of side 3 to 11 at the
 *   minimum, median and maximum ranks;
 * * large windows: sliding histograms (8-bit, and a two-level histogram
 *   for 16-bit samples), whose cost per pixel grows with the window side
 *   rather than with its area.
 *
 * The CPU backend is the reference implementation written as the
 * definition; both give the same result bit for bit, borders included.
 * Properties can be changed while PLAYING: the filter is rebuilt before
 * the next frame.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=100 pattern=snow ! \
 *     video/x-raw,format=GRAY8,width=640,height=480 ! \
 *     cudamedian size=5 ! videoconvert ! autovideosink
 * ]| Removes salt-and-pepper noise with a 5x5 median.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=10 pattern=ball ! \
 *     video/x-raw,format=RGBA,width=320,height=240 ! \
 *     cudamedian size=7 color-mode=luma ! \
 *     videoconvert ! pngenc ! multifilesink location=median-%05d.png
 * ]| Writes ten frames filtered with the 7x7 colour median (no new colours)
 * to PNG files.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=I420 ! \
 *     cudamedian width=31 height=3 percentile=90 border=reflect ! \
 *     videoconvert ! autovideosink
 * ]| A 90th-percentile filter of the luma over a wide 31x3 window.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudamedian.h"
#include "base/gstcudaplanefiltererrors.h"

#include "median/median-filter.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_median_debug);
#define GST_CAT_DEFAULT gst_cuda_median_debug

#define DEFAULT_SIZE 3
#define DEFAULT_PERCENTILE 50.0
#define DEFAULT_BORDER GST_CUDA_MORPHOLOGY_BORDER_REPLICATE
#define DEFAULT_BORDER_VALUE 0
#define DEFAULT_COLOR_MODE GST_CUDA_MEDIAN_COLOR_MODE_LUMA
#define DEFAULT_ALGORITHM GST_CUDA_MEDIAN_ALGORITHM_AUTO

enum
{
  PROP_0,
  PROP_SIZE,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_PERCENTILE,
  PROP_BORDER,
  PROP_BORDER_VALUE,
  PROP_COLOR_MODE,
  PROP_ALGORITHM,
};

typedef struct
{
  gint width;
  gint height;
  gdouble percentile;
  GstCudaMorphologyBorder border;
  guint border_value;
  GstCudaMedianColorMode color_mode;
  GstCudaMedianAlgorithm algorithm;
} GstCudaMedianSettings;

struct _GstCudaMedian
{
  GstCudaPlaneFilter parent;

  /* properties, protected by the object lock */
  GstCudaMedianSettings settings;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaMedian, gst_cuda_median,
    GST_TYPE_CUDA_PLANE_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_median_debug, "cudamedian", 0,
        "CUDA median and percentile filter"));

GST_ELEMENT_REGISTER_DEFINE (cudamedian, "cudamedian", GST_RANK_NONE,
    GST_TYPE_CUDA_MEDIAN);

static void gst_cuda_median_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_median_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);

static cm_filter *gst_cuda_median_make_filter (GstCudaPlaneFilter * base,
    const GstVideoInfo * info, cm_backend backend);

#define PARAM_FLAGS GST_CUDA_PLANE_FILTER_PARAM_FLAGS
#define CONTROLLABLE_FLAGS GST_CUDA_PLANE_FILTER_CONTROLLABLE_FLAGS

static void
gst_cuda_median_class_init (GstCudaMedianClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaPlaneFilterClass *base_class =
      GST_CUDA_PLANE_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_median_set_property;
  gobject_class->get_property = gst_cuda_median_get_property;

  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_int ("size", "Size",
          "Side in pixels of a square window (odd); sets width and height. "
          "Reads back the width. An even size is refused and the previous "
          "window kept",
          1, CM_MEDIAN_MAX_WINDOW, DEFAULT_SIZE, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_WIDTH,
      g_param_spec_int ("width", "Width",
          "Width in pixels of the window (odd, centred on the pixel); an "
          "even width is refused and the previous one kept",
          1, CM_MEDIAN_MAX_WINDOW, DEFAULT_SIZE, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_HEIGHT,
      g_param_spec_int ("height", "Height",
          "Height in pixels of the window (odd, centred on the pixel); an "
          "even height is refused and the previous one kept",
          1, CM_MEDIAN_MAX_WINDOW, DEFAULT_SIZE, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_PERCENTILE,
      g_param_spec_double ("percentile", "Percentile",
          "Rank of the output among the N window samples sorted in "
          "ascending order, as a percentage: rank floor (p / 100 * (N - 1) "
          "+ 1/2); 50 = median, 0 = minimum (erosion), 100 = maximum "
          "(dilation)",
          0.0, 100.0, DEFAULT_PERCENTILE, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "Value of the pixels outside the frame: replicate (edge pixel "
          "repeated), reflect (reflection with the edge pixel repeated), "
          "mirror (edge pixel not repeated), constant (border-value); "
          "neutral has no meaning for a median and behaves as replicate",
          GST_TYPE_CUDA_MORPHOLOGY_BORDER, DEFAULT_BORDER, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_BORDER_VALUE,
      g_param_spec_uint ("border-value", "Border value",
          "Sample value outside the frame for border=constant, clamped to "
          "the largest sample of the format (255 for 8-bit formats, 65535 "
          "for GRAY16_LE); in luma mode the outside pixel is grey "
          "(value, value, value)",
          0, G_MAXUINT16, DEFAULT_BORDER_VALUE, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_COLOR_MODE,
      g_param_spec_enum ("color-mode", "Colour mode",
          "How RGB(A) frames are filtered: luma = the whole pixel of the "
          "window whose luminance has the rank (no new colours); channels "
          "= each colour channel independently. Grey and YUV formats "
          "ignore it",
          GST_TYPE_CUDA_MEDIAN_COLOR_MODE, DEFAULT_COLOR_MODE, PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ALGORITHM,
      g_param_spec_enum ("algorithm", "Algorithm",
          "CUDA algorithm: auto = chosen from the window, depth and rank; "
          "network = sorting networks (windows of at most 64 pixels, or "
          "square windows of side 3 to 11 at percentile 0, 50 or 100; "
          "other windows fail with an error); histogram = sliding "
          "histograms (any window). Same output whatever the choice; the "
          "CPU backend ignores it",
          GST_TYPE_CUDA_MEDIAN_ALGORITHM, DEFAULT_ALGORITHM, PARAM_FLAGS));

  gst_element_class_set_static_metadata (element_class,
      "CUDA median", "Filter/Effect/Video",
      "Median and percentile (rank) filter over rectangular windows, with "
      "a luminance-based colour median that creates no new colours, on "
      "CUDA or the CPU", "gst-cuda-morphology developers");

  base_class->debug_category = gst_cuda_median_debug;
  base_class->make_filter = GST_DEBUG_FUNCPTR (gst_cuda_median_make_filter);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MEDIAN_COLOR_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MEDIAN_ALGORITHM, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPHOLOGY_BORDER, 0);
}

/* the properties in the settings: size sets both sides, reads the width */
static const GstCudaPlaneFilterField gst_cuda_median_fields[] = {
  {PROP_SIZE, G_STRUCT_OFFSET (GstCudaMedianSettings, width)},
  {PROP_SIZE, G_STRUCT_OFFSET (GstCudaMedianSettings, height)},
  {PROP_WIDTH, G_STRUCT_OFFSET (GstCudaMedianSettings, width)},
  {PROP_HEIGHT, G_STRUCT_OFFSET (GstCudaMedianSettings, height)},
  {PROP_PERCENTILE, G_STRUCT_OFFSET (GstCudaMedianSettings, percentile)},
  {PROP_BORDER, G_STRUCT_OFFSET (GstCudaMedianSettings, border)},
  {PROP_BORDER_VALUE, G_STRUCT_OFFSET (GstCudaMedianSettings, border_value)},
  {PROP_COLOR_MODE, G_STRUCT_OFFSET (GstCudaMedianSettings, color_mode)},
  {PROP_ALGORITHM, G_STRUCT_OFFSET (GstCudaMedianSettings, algorithm)},
};

static void
gst_cuda_median_init (GstCudaMedian * self)
{
  gst_cuda_plane_filter_settings_init (G_OBJECT (self), &self->settings,
      gst_cuda_median_fields, G_N_ELEMENTS (gst_cuda_median_fields));
}

/* Returns TRUE when @v is an odd window side; warns otherwise. */
static gboolean
gst_cuda_median_check_side (GstCudaMedian * self, const gchar * name,
    gint v)
{
  if (v % 2 == 1)
    return TRUE;
  gst_cuda_plane_filter_refuse (GST_ELEMENT (self), "%s %d is even; the "
      "window needs a centre pixel, so its sides must be odd; keeping the "
      "previous value", name, v);
  return FALSE;
}

/* FALSE (with a warning) for a value the element refuses: the previous
 * setting stays. Checked before the object lock is taken. */
static gboolean
gst_cuda_median_value_ok (GstCudaMedian * self, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  switch (prop_id) {
    case PROP_SIZE:
    case PROP_WIDTH:
    case PROP_HEIGHT:
      return gst_cuda_median_check_side (self, g_param_spec_get_name (pspec),
          g_value_get_int (value));
    case PROP_PERCENTILE:
      return gst_cuda_plane_filter_percentile_ok (GST_ELEMENT (self), value,
          pspec);
    default:
      return TRUE;
  }
}

static void
gst_cuda_median_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaMedian *self = GST_CUDA_MEDIAN (object);

  if (!gst_cuda_median_value_ok (self, prop_id, value, pspec))
    return;
  /* rebuild the filter before the next frame */
  if (gst_cuda_plane_filter_settings_set (object, &self->settings,
          gst_cuda_median_fields, G_N_ELEMENTS (gst_cuda_median_fields),
          prop_id, value, pspec))
    gst_cuda_plane_filter_mark_dirty (GST_CUDA_PLANE_FILTER (self));
}

static void
gst_cuda_median_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  gst_cuda_plane_filter_settings_get (object,
      &GST_CUDA_MEDIAN (object)->settings, gst_cuda_median_fields,
      G_N_ELEMENTS (gst_cuda_median_fields), prop_id, value, pspec);
}

/* In luma mode an RGB(A) frame goes whole to the filter
 * (cm_filter_run_packed), told the order of its channels. */
static cm_filter *
gst_cuda_median_make_filter (GstCudaPlaneFilter * base,
    const GstVideoInfo * info, cm_backend backend)
{
  gboolean use_cuda = backend == CM_BACKEND_CUDA;
  GstCudaMedian *self = GST_CUDA_MEDIAN (base);
  GstCudaMedianSettings s;
  cm_depth depth = gst_cuda_plane_filter_info_depth (info);
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  gboolean luma;
  cm_filter *filter = NULL;
  cm_median_desc desc;
  cm_status status;

  GST_OBJECT_LOCK (self);
  s = self->settings;
  GST_OBJECT_UNLOCK (self);

  luma = GST_VIDEO_INFO_IS_RGB (info) &&
      s.color_mode == GST_CUDA_MEDIAN_COLOR_MODE_LUMA;

  memset (&desc, 0, sizeof (desc));
  desc.window_w = s.width;
  desc.window_h = s.height;
  desc.percentile = s.percentile;
  desc.border = (cm_border_mode) s.border;
  desc.border_value = MIN (s.border_value, cm_depth_max (depth));
  desc.algorithm = (cm_median_algorithm) s.algorithm;
  desc.plan_flags = luma ? CM_MEDIAN_PLAN_LUMA : 0;

  status = cm_median_desc_check (&desc);
  if (status != CM_OK) {
    gst_cuda_plane_filter_post_status_error (base, status,
        "Invalid median window or percentile");
    return NULL;
  }

  status = cm_median_filter_new (&filter, backend, &desc, width, height,
      depth, gst_cuda_plane_filter_cpu_opts (base));
  if (status == CM_OK && luma)
    status = cm_median_filter_set_channels (filter,
        GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_R),
        GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_G),
        GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_B),
        GST_VIDEO_INFO_HAS_ALPHA (info) ?
        (gint) GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_A) : -1);
  if (status != CM_OK) {
    cm_filter_free (filter);
    gst_cuda_plane_filter_post_status_error (base, status, use_cuda ?
        "Failed to build the CUDA median plan" :
        "Failed to allocate the CPU median filter");
    return NULL;
  }

  GST_INFO_OBJECT (self, "%dx%d window, percentile %g (rank %d), border %d "
      "(value %u), %s, %dx%d %d-bit on %s: %s", desc.window_w,
      desc.window_h, desc.percentile, cm_median_rank (&desc),
      (gint) desc.border, desc.border_value,
      luma ? "luma colour median" : "per channel", width, height,
      (gint) depth, use_cuda ? "CUDA" : "CPU",
      cm_filter_algorithm (filter));

  return filter;
}
