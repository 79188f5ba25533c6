/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-cudamorph
 * @title: cudamorph
 * @short_description: Grey-level mathematical morphology on the GPU
 *
 * cudamorph applies a grey-level morphological operation to every frame:
 * erosion (minimum over the structuring element), dilation (maximum),
 * opening, closing, white top-hat (image minus opening), black top-hat
 * (closing minus image) or the morphological gradient (dilation minus
 * erosion), each iterated #GstCudaMorph:iterations times.
 *
 * The structuring element is a rectangle, a cross, a diamond, an exact disk,
 * an octagon, a line of any length at any angle or a custom 0/1 mask. Its
 * origin is the pixel at index size/2 in each direction, as in OpenCV and
 * SciPy; for symmetric elements the results agree with theirs.
 *
 * GRAY8 and GRAY16_LE frames are filtered as they are; for I420, NV12 and
 * Y444 the luma plane is filtered and chroma passes unchanged; for RGBA,
 * BGRA, RGBx and BGRx each colour channel is filtered independently and
 * alpha is copied.
 *
 * On the CUDA backend the plan picks the algorithm from the structuring
 * element's mask (the choice is logged at INFO level in the cudamorph
 * debug category):
 *
 * * rectangles, crosses and lines at 0, 45, 90 and 135 degrees: the
 *   van Herk / Gil-Werman algorithm (van Herk 1992, Gil and Werman 1993),
 *   a constant number of comparisons per pixel whatever the length, in
 *   separable horizontal, vertical or diagonal passes laid out on the GPU
 *   after LTU-CUDA (Thurley and Danell), a cross being the extreme of a
 *   horizontal and a vertical pass;
 * * disks, diamonds, octagons, lines at other angles and custom masks: an
 *   exact decomposition into chords (runs of pixels along rows or
 *   columns), the extreme of each run read from a sparse table of
 *   power-of-two windows.
 *
 * The operations fill-holes, clear-border, open-rec, close-rec, hmax, hmin,
 * hdome and hbasin are built on grey-level morphological reconstruction
 * (Vincent, IEEE Trans. Image Processing 2(2), 1993): a marker image
 * grows under the frame (reconstruction by dilation) or shrinks over it
 * (by erosion), one neighbour at a time, until nothing changes. It
 * propagates through the 4 or 8 neighbours of a pixel
 * (#GstCudaMorph:connectivity) and never through the frame's edge, so
 * shapes are kept exactly.
 *
 * fill-holes fills the dark regions that do
 * not touch the edge of the frame, clear-border removes the bright objects
 * that do; open-rec and close-rec regrow the erosion (dilation) by the
 * structuring element, so that objects the element does not fit in vanish
 * and the others keep their outline; hmax and hmin lower every peak (raise
 * every basin) by #GstCudaMorph:dome-height, flattening the smaller ones,
 * and hdome and hbasin are what they took away. The structuring element,
 * #GstCudaMorph:iterations and #GstCudaMorph:border only make the marker
 * of open-rec and close-rec. On the CPU the reconstruction is Vincent's
 * hybrid algorithm (two raster scans, then a queue); on CUDA one kernel
 * sweeps the frame until a whole pass changes nothing.
 *
 * area-open removes every bright structure of fewer than
 * #GstCudaMorph:min-area pixels, whatever its shape, and leaves the others
 * exactly as they are; area-close does the same for dark structures. A
 * structure is a connected component of the pixels at or above (at or
 * below) a level, joined through #GstCudaMorph:connectivity neighbours
 * inside the frame; a removed one takes the level of its surroundings. The
 * result equals scikit-image's morphology.area_opening (area_closing) with
 * area_threshold = min-area, whose connectivity 1 is 4 and 2 is 8 (its
 * default is 4, cudamorph's 8). Both backends filter the frame's max-tree,
 * on the CPU built by union-find (Najman and Couprie 2006), on CUDA by
 * concurrent merges of tiles' trees (after Blin, Carlinet, Lemaitre,
 * Lacassagne and Geraud, "Max-Tree Computation on GPUs", IEEE TPDS 2022).
 * The structuring element, #GstCudaMorph:iterations and
 * #GstCudaMorph:border do not apply.
 *
 * The CPU backend runs exact CPU plans (row passes for morphology, the
 * hybrid algorithm on the samples' own type for reconstruction, the
 * union-find max-tree for the area operations), checked against
 * references written as the definitions; CPU and CUDA give the
 * same result bit for bit, borders included.
 * Properties can be changed while PLAYING: the filter is rebuilt before
 * the next frame.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=100 ! \
 *     video/x-raw,format=GRAY8,width=640,height=480 ! \
 *     cudamorph operation=open shape=line length=41 angle=70 ! \
 *     videoconvert ! autovideosink
 * ]| Opens a grey test pattern with a 41-pixel line at 70 degrees: bright
 * structures that cannot contain such a line disappear.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=10 pattern=ball ! \
 *     video/x-raw,format=I420,width=320,height=240 ! \
 *     cudamorph operation=gradient shape=disk radius=2 ! \
 *     videoconvert ! pngenc ! multifilesink location=gradient-%05d.png
 * ]| Writes the morphological gradient (edges) of the luma of ten frames to
 * PNG files.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! \
 *     cudamorph operation=close shape=custom \
 *     mask="00100;01110;11111;01110;00100" border=replicate ! \
 *     videoconvert ! autovideosink
 * ]| Closes each colour channel with a custom 5x5 mask.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=1 pattern=checkers-8 ! \
 *     video/x-raw,format=GRAY8,width=160,height=120 ! \
 *     cudamorph operation=fill-holes connectivity=4 ! \
 *     videoconvert ! pngenc ! filesink location=filled.png
 * ]| Fills the holes of a checkerboard: through 4 neighbours every dark
 * square inside the frame is enclosed by bright ones and becomes bright,
 * only the dark squares on the frame's edge stay. With the default
 * connectivity=8 the dark squares touch each other at their corners, all
 * reach the edge and nothing changes.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=1 pattern=snow ! \
 *     video/x-raw,format=GRAY8,width=320,height=240 ! \
 *     cudamorph operation=area-open min-area=20 ! \
 *     videoconvert ! pngenc ! filesink location=specks-removed.png
 * ]| Lowers every bright speck of the noise smaller than 20 pixels to the
 * level around it, whatever its shape.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "gstcudamorph.h"
#include "gstcudamorphmask.h"
#include "base/gstcudaplanefiltererrors.h"

#include "morph/morph-filter.h"
#include "reconstruct/reconstruct-filter.h"
#include "attribute/attribute-filter.h"
#include "morph/se.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_morph_debug);
#define GST_CAT_DEFAULT gst_cuda_morph_debug

#define DEFAULT_OPERATION GST_CUDA_MORPH_OPERATION_ERODE
#define DEFAULT_SHAPE GST_CUDA_MORPH_SHAPE_RECT
#define DEFAULT_WIDTH 3
#define DEFAULT_HEIGHT 3
#define DEFAULT_RADIUS 1
#define DEFAULT_LENGTH 15
#define DEFAULT_ANGLE 0.0
#define DEFAULT_MASK "010;111;010"
#define DEFAULT_ITERATIONS 1
#define DEFAULT_BORDER GST_CUDA_MORPHOLOGY_BORDER_NEUTRAL
#define DEFAULT_BORDER_VALUE 0
#define DEFAULT_CONNECTIVITY 8
#define DEFAULT_DOME_HEIGHT 10
#define DEFAULT_MIN_AREA 64

#define MAX_ITERATIONS 64

enum
{
  PROP_0,
  PROP_OPERATION,
  PROP_SHAPE,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_RADIUS,
  PROP_LENGTH,
  PROP_ANGLE,
  PROP_MASK,
  PROP_ITERATIONS,
  PROP_BORDER,
  PROP_BORDER_VALUE,
  PROP_CONNECTIVITY,
  PROP_DOME_HEIGHT,
  PROP_MIN_AREA,
};

typedef struct
{
  GstCudaMorphOperation operation;
  GstCudaMorphShape shape;
  gint width;
  gint height;
  gint radius;
  gint length;
  gdouble angle;
  gchar *mask;
  gint iterations;
  GstCudaMorphologyBorder border;
  guint border_value;
  gint connectivity;
  guint dome_height;
  guint min_area;
} GstCudaMorphSettings;

struct _GstCudaMorph
{
  GstCudaPlaneFilter parent;

  /* properties, protected by the object lock */
  GstCudaMorphSettings settings;

  /* structuring-element properties, one bit each in the order of
   * gst_cuda_morph_warn_unused ()'s rows: set since the last filter made
   * (object lock), and said to have no effect (streaming thread; each is
   * said once) */
  guint se_props_set;
  guint warned_unused;
};

#define gst_cuda_morph_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstCudaMorph, gst_cuda_morph,
    GST_TYPE_CUDA_PLANE_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_morph_debug, "cudamorph", 0,
        "CUDA grey-level morphology"));

GST_ELEMENT_REGISTER_DEFINE (cudamorph, "cudamorph", GST_RANK_NONE,
    GST_TYPE_CUDA_MORPH);

static void gst_cuda_morph_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_morph_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static void gst_cuda_morph_finalize (GObject * object);

static cm_filter *gst_cuda_morph_make_filter (GstCudaPlaneFilter * base,
    const GstVideoInfo * info, cm_backend backend);

#define PARAM_FLAGS GST_CUDA_PLANE_FILTER_PARAM_FLAGS
#define CONTROLLABLE_FLAGS GST_CUDA_PLANE_FILTER_CONTROLLABLE_FLAGS

static void
gst_cuda_morph_class_init (GstCudaMorphClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaPlaneFilterClass *base_class =
      GST_CUDA_PLANE_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_morph_set_property;
  gobject_class->get_property = gst_cuda_morph_get_property;
  gobject_class->finalize = gst_cuda_morph_finalize;

  g_object_class_install_property (gobject_class, PROP_OPERATION,
      g_param_spec_enum ("operation", "Operation",
          "Morphological operation: erode (minimum over the structuring "
          "element), dilate (maximum), open (erode then dilate), close "
          "(dilate then erode), tophat (image minus opening), blackhat "
          "(closing minus image), gradient (dilation minus erosion). "
          "By reconstruction through the connectivity neighbours: "
          "fill-holes (dark regions not touching the frame's edge are "
          "filled), clear-border (bright objects touching it are removed), "
          "open-rec and close-rec (the erosion, dilation, by the structuring "
          "element regrown under, over, the image: objects the element does "
          "not fit in vanish, the others keep their shape), hmax and hmin "
          "(peaks lowered, basins raised by dome-height), hdome (image minus "
          "hmax), hbasin (hmin minus image). Shape, iterations and border "
          "only make the marker of open-rec and close-rec. By size: "
          "area-open (bright structures of fewer than min-area pixels, "
          "connected through the connectivity neighbours, lowered to their "
          "surroundings whatever their shape, the others kept exactly), "
          "area-close (the same for dark structures); they use no "
          "structuring element, iterations or border",
          GST_TYPE_CUDA_MORPH_OPERATION, DEFAULT_OPERATION,
          CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_SHAPE,
      g_param_spec_enum ("shape", "Shape",
          "Structuring element shape: rect and cross use width and height; "
          "diamond, disk and octagon use radius; line uses length and "
          "angle; custom uses mask. Of the reconstruction operations only "
          "open-rec and close-rec use it; area-open and area-close do not",
          GST_TYPE_CUDA_MORPH_SHAPE, DEFAULT_SHAPE, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_WIDTH,
      g_param_spec_int ("width", "Width",
          "Width in pixels of the rect and cross structuring elements "
          "(origin at column width/2)",
          1, CM_SE_MAX_EXTENT, DEFAULT_WIDTH, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_HEIGHT,
      g_param_spec_int ("height", "Height",
          "Height in pixels of the rect and cross structuring elements "
          "(origin at row height/2)",
          1, CM_SE_MAX_EXTENT, DEFAULT_HEIGHT, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_int ("radius", "Radius",
          "Radius in pixels of the diamond, disk and octagon structuring "
          "elements (2*radius+1 pixels across; 0 = the origin pixel alone)",
          0, CM_SE_MAX_RADIUS, DEFAULT_RADIUS, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_LENGTH,
      g_param_spec_int ("length", "Length",
          "Length in pixels of the line structuring element, counted along "
          "its major axis (origin at pixel length/2)",
          1, CM_SE_MAX_EXTENT, DEFAULT_LENGTH, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ANGLE,
      g_param_spec_double ("angle", "Angle",
          "Angle in degrees of the line structuring element, "
          "counter-clockwise from the +x axis with image y pointing down "
          "(0 = horizontal, 90 = vertical, 45 = up and to the right)",
          -360.0, 360.0, DEFAULT_ANGLE, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_MASK,
      g_param_spec_string ("mask", "Mask",
          "Custom structuring element for shape=custom: rows of 0 and 1 "
          "separated by ';' (spaces ignored), all rows the same length, at "
          "most 255x255, at least one 1; origin at (columns/2, rows/2). An "
          "invalid mask is refused and the previous one kept",
          DEFAULT_MASK, PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ITERATIONS,
      g_param_spec_int ("iterations", "Iterations",
          "Number of erosions/dilations in each step of the operation "
          "(open = N erosions then N dilations, gradient = N dilations "
          "minus N erosions, ...; open-rec and close-rec: the N erosions, "
          "dilations, that make the marker)",
          1, MAX_ITERATIONS, DEFAULT_ITERATIONS, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "Value of the pixels outside the frame: neutral (they never win: "
          "maximum for erosions, 0 for dilations), replicate, reflect "
          "(edge pixel repeated), mirror (edge pixel not repeated), "
          "constant (border-value); applied at every stage of composite "
          "operations. The reconstruction itself never looks outside the "
          "frame: for open-rec and close-rec the border applies to the "
          "marker's erosion or dilation only",
          GST_TYPE_CUDA_MORPHOLOGY_BORDER, DEFAULT_BORDER, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_BORDER_VALUE,
      g_param_spec_uint ("border-value", "Border value",
          "Sample value outside the frame for border=constant, clamped to "
          "the largest sample of the format (255 for 8-bit formats, 65535 "
          "for GRAY16_LE)",
          0, G_MAXUINT16, DEFAULT_BORDER_VALUE, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_CONNECTIVITY,
      g_param_spec_int ("connectivity", "Connectivity",
          "Neighbours through which the reconstruction operations "
          "(fill-holes, clear-border, open-rec, close-rec, hmax, hmin, "
          "hdome, hbasin) propagate and the structures of area-open and "
          "area-close are connected: 4 (left, right, up, down) or 8 (the "
          "diagonals too; scikit-image's default is 4). 5, 6 and 7 are "
          "refused and the previous value kept; the other operations "
          "ignore it",
          4, 8, DEFAULT_CONNECTIVITY, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_DOME_HEIGHT,
      g_param_spec_uint ("dome-height", "Dome height",
          "Height h, in sample values, of hmax, hmin, hdome and hbasin: "
          "peaks (basins) at most h high (deep) are flattened (filled), "
          "the others lowered (raised) by h. Clamped to the largest sample "
          "of the format (255 for 8-bit formats, 65535 for GRAY16_LE). "
          "Not the structuring element's height",
          0, G_MAXUINT16, DEFAULT_DOME_HEIGHT, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_MIN_AREA,
      g_param_spec_uint ("min-area", "Minimum area",
          "Size, in pixels, of the smallest structure area-open and "
          "area-close keep: bright (dark) structures of fewer pixels are "
          "removed (scikit-image's area_threshold). 1 keeps everything; 0 "
          "is refused and the previous value kept; the other operations "
          "ignore it",
          0, G_MAXUINT, DEFAULT_MIN_AREA, CONTROLLABLE_FLAGS));

  gst_element_class_set_static_metadata (element_class,
      "CUDA morphology", "Filter/Effect/Video",
      "Grey-level mathematical morphology (erode, dilate, open, close, "
      "top-hat, black-hat, gradient) with rectangles, crosses, diamonds, "
      "disks, octagons, lines at any angle and custom masks, and "
      "reconstruction (fill holes, clear border, opening and closing by "
      "reconstruction, h-maxima, h-minima, h-domes, h-basins) and area "
      "opening and closing, on CUDA or the CPU",
      "gst-cuda-morphology developers");

  base_class->debug_category = gst_cuda_morph_debug;
  base_class->make_filter = GST_DEBUG_FUNCPTR (gst_cuda_morph_make_filter);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPH_OPERATION, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPH_SHAPE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPHOLOGY_BORDER, 0);
}

/* the properties in the settings */
static const GstCudaPlaneFilterField gst_cuda_morph_fields[] = {
  {PROP_OPERATION, G_STRUCT_OFFSET (GstCudaMorphSettings, operation)},
  {PROP_SHAPE, G_STRUCT_OFFSET (GstCudaMorphSettings, shape)},
  {PROP_WIDTH, G_STRUCT_OFFSET (GstCudaMorphSettings, width)},
  {PROP_HEIGHT, G_STRUCT_OFFSET (GstCudaMorphSettings, height)},
  {PROP_RADIUS, G_STRUCT_OFFSET (GstCudaMorphSettings, radius)},
  {PROP_LENGTH, G_STRUCT_OFFSET (GstCudaMorphSettings, length)},
  {PROP_ANGLE, G_STRUCT_OFFSET (GstCudaMorphSettings, angle)},
  {PROP_MASK, G_STRUCT_OFFSET (GstCudaMorphSettings, mask)},
  {PROP_ITERATIONS, G_STRUCT_OFFSET (GstCudaMorphSettings, iterations)},
  {PROP_BORDER, G_STRUCT_OFFSET (GstCudaMorphSettings, border)},
  {PROP_BORDER_VALUE, G_STRUCT_OFFSET (GstCudaMorphSettings, border_value)},
  {PROP_CONNECTIVITY, G_STRUCT_OFFSET (GstCudaMorphSettings, connectivity)},
  {PROP_DOME_HEIGHT, G_STRUCT_OFFSET (GstCudaMorphSettings, dome_height)},
  {PROP_MIN_AREA, G_STRUCT_OFFSET (GstCudaMorphSettings, min_area)},
};

static void
gst_cuda_morph_init (GstCudaMorph * self)
{
  gst_cuda_plane_filter_settings_init (G_OBJECT (self), &self->settings,
      gst_cuda_morph_fields, G_N_ELEMENTS (gst_cuda_morph_fields));
}

/* FALSE (with a warning) for a value the element refuses: the previous
 * setting stays. Checked before the object lock is taken. */
static gboolean
gst_cuda_morph_value_ok (GstCudaMorph * self, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  switch (prop_id) {
    case PROP_ANGLE:
      /* a hair outside the range comes back inside; NaN stays NaN */
      if (isnan (gst_cuda_plane_filter_double_in_range (value, pspec))) {
        gst_cuda_plane_filter_refuse (GST_ELEMENT (self), "angle NaN is not "
            "a number of degrees; keeping the previous angle");
        return FALSE;
      }
      return TRUE;
    case PROP_MASK:{
      const gchar *mask = g_value_get_string (value);
      gchar *problem = NULL;

      if (!gst_cuda_morph_check_mask (mask, &problem)) {
        gst_cuda_plane_filter_refuse (GST_ELEMENT (self), "invalid mask "
            "\"%s\": %s; keeping the previous mask", GST_STR_NULL (mask),
            problem);
        g_free (problem);
        return FALSE;
      }
      return TRUE;
    }
    case PROP_CONNECTIVITY:
      return gst_cuda_plane_filter_connectivity_ok (GST_ELEMENT (self),
          value);
    case PROP_MIN_AREA:
      if (g_value_get_uint (value) == 0) {
        gst_cuda_plane_filter_refuse (GST_ELEMENT (self), "invalid min-area "
            "0: a structure has at least 1 pixel; keeping the previous "
            "min-area");
        return FALSE;
      }
      return TRUE;
    default:
      return TRUE;
  }
}

static void
gst_cuda_morph_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaMorph *self = GST_CUDA_MORPH (object);

  if (!gst_cuda_morph_value_ok (self, prop_id, value, pspec))
    return;
  /* PROP_WIDTH ... PROP_MASK: the rows of gst_cuda_morph_warn_unused () */
  G_STATIC_ASSERT (PROP_MASK - PROP_WIDTH == 5);
  if (prop_id >= PROP_WIDTH && prop_id <= PROP_MASK) {
    GST_OBJECT_LOCK (self);
    self->se_props_set |= 1u << (prop_id - PROP_WIDTH);
    GST_OBJECT_UNLOCK (self);
  }
  /* rebuild the filter before the next frame */
  if (gst_cuda_plane_filter_settings_set (object, &self->settings,
          gst_cuda_morph_fields, G_N_ELEMENTS (gst_cuda_morph_fields),
          prop_id, value, pspec))
    gst_cuda_plane_filter_mark_dirty (GST_CUDA_PLANE_FILTER (self));
}

static void
gst_cuda_morph_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  gst_cuda_plane_filter_settings_get (object,
      &GST_CUDA_MORPH (object)->settings, gst_cuda_morph_fields,
      G_N_ELEMENTS (gst_cuda_morph_fields), prop_id, value, pspec);
}

static cm_status
gst_cuda_morph_build_se (const GstCudaMorphSettings * s, cm_se ** se)
{
  switch (s->shape) {
    case GST_CUDA_MORPH_SHAPE_RECT:
      return cm_se_new_rect (se, s->width, s->height);
    case GST_CUDA_MORPH_SHAPE_CROSS:
      return cm_se_new_cross (se, s->width, s->height);
    case GST_CUDA_MORPH_SHAPE_DIAMOND:
      return cm_se_new_diamond (se, s->radius);
    case GST_CUDA_MORPH_SHAPE_DISK:
      return cm_se_new_disk (se, s->radius);
    case GST_CUDA_MORPH_SHAPE_OCTAGON:
      return cm_se_new_octagon (se, s->radius);
    case GST_CUDA_MORPH_SHAPE_LINE:
      return cm_se_new_line (se, s->length, s->angle);
    case GST_CUDA_MORPH_SHAPE_CUSTOM:
      return cm_se_new_custom (se, s->mask);
  }
  return CM_ERR_INVALID_ARG;
}

static gboolean
gst_cuda_morph_operation_is_recon (GstCudaMorphOperation op)
{
  return op >= GST_CUDA_MORPH_OPERATION_FILL_HOLES &&
      op <= GST_CUDA_MORPH_OPERATION_HBASIN;
}

static gboolean
gst_cuda_morph_operation_is_area (GstCudaMorphOperation op)
{
  return op >= GST_CUDA_MORPH_OPERATION_AREA_OPEN;
}

/* The reconstruction operation @s asks for, its marker made as @marker
 * says (erosion for open-rec, dilation for close-rec; unused otherwise). */
static cm_recon_desc
gst_cuda_morph_recon_desc (const GstCudaMorphSettings * s,
    const cm_morph_desc * marker, cm_depth depth)
{
  cm_recon_desc rd;

  memset (&rd, 0, sizeof (rd));
  rd.op = (cm_recon_op) (s->operation - GST_CUDA_MORPH_OPERATION_FILL_HOLES);
  rd.connectivity = s->connectivity;
  rd.height = MIN (s->dome_height, cm_depth_max (depth));
  rd.marker = *marker;
  rd.marker.op = s->operation == GST_CUDA_MORPH_OPERATION_CLOSE_REC ?
      CM_MORPH_DILATE : CM_MORPH_ERODE;
  return rd;
}

/* Which properties make the structuring element of @s */
enum
{
  SE_USES_SIZE = 1 << 0,        /* width, height */
  SE_USES_RADIUS = 1 << 1,
  SE_USES_LINE = 1 << 2,        /* length, angle */
  SE_USES_MASK = 1 << 3,
};

static guint
gst_cuda_morph_se_uses (const GstCudaMorphSettings * s)
{
  if (gst_cuda_morph_operation_is_area (s->operation) ||
      (gst_cuda_morph_operation_is_recon (s->operation) &&
          s->operation != GST_CUDA_MORPH_OPERATION_OPEN_REC &&
          s->operation != GST_CUDA_MORPH_OPERATION_CLOSE_REC))
    return 0;
  switch (s->shape) {
    case GST_CUDA_MORPH_SHAPE_RECT:
    case GST_CUDA_MORPH_SHAPE_CROSS:
      return SE_USES_SIZE;
    case GST_CUDA_MORPH_SHAPE_LINE:
      return SE_USES_LINE;
    case GST_CUDA_MORPH_SHAPE_CUSTOM:
      return SE_USES_MASK;
    default:
      return SE_USES_RADIUS;
  }
}

static const gchar *
gst_cuda_morph_nick (GType type, gint value)
{
  GEnumValue *v = g_enum_get_value (g_type_class_peek (type), value);

  return v != NULL ? v->value_nick : "?";
}

/* A structuring-element property set (@set: since the last filter made)
 * away from its default that the shape (or the operation) does not read:
 * said once on the bus, naming what takes effect instead. A property
 * left from an earlier shape is not. */
static void
gst_cuda_morph_warn_unused (GstCudaMorph * self, const GstCudaMorphSettings
    * s, guint set)
{
  const struct
  {
    guint use;
    const gchar *name;
    gboolean set;
  } props[] = {
    {SE_USES_SIZE, "width", s->width != DEFAULT_WIDTH},
    {SE_USES_SIZE, "height", s->height != DEFAULT_HEIGHT},
    {SE_USES_RADIUS, "radius", s->radius != DEFAULT_RADIUS},
    {SE_USES_LINE, "length", s->length != DEFAULT_LENGTH},
    {SE_USES_LINE, "angle", s->angle != DEFAULT_ANGLE},
    {SE_USES_MASK, "mask", g_strcmp0 (s->mask, DEFAULT_MASK) != 0},
  };
  static const gchar *const reads[] = { "width and height", "radius",
    "length and angle", "mask"
  };
  guint uses = gst_cuda_morph_se_uses (s);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (props); i++) {
    gchar *instead;

    if (!(set & (1u << i)) || !props[i].set || (uses & props[i].use) ||
        (self->warned_unused & (1u << i)))
      continue;
    self->warned_unused |= 1u << i;
    instead = uses == 0 ? g_strdup_printf ("operation=%s uses no "
        "structuring element", gst_cuda_morph_nick
        (GST_TYPE_CUDA_MORPH_OPERATION, s->operation)) :
        g_strdup_printf ("shape=%s reads %s", gst_cuda_morph_nick
        (GST_TYPE_CUDA_MORPH_SHAPE, s->shape),
        reads[g_bit_nth_lsf (uses, -1)]);
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s is set but has no "
            "effect: %s", props[i].name, instead), (NULL));
    g_free (instead);
  }
}

/* area-open, area-close: no structuring element */
static cm_filter *
gst_cuda_morph_make_area_filter (GstCudaPlaneFilter * base,
    const GstCudaMorphSettings * s, const GstVideoInfo * info,
    cm_backend backend)
{
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  cm_depth depth = gst_cuda_plane_filter_info_depth (info);
  cm_filter *filter = NULL;
  cm_attr_desc desc;
  cm_status status;

  memset (&desc, 0, sizeof (desc));
  desc.op = (cm_attr_op) (s->operation - GST_CUDA_MORPH_OPERATION_AREA_OPEN);
  desc.attribute = CM_ATTR_AREA;
  desc.min_area = s->min_area;
  desc.connectivity = s->connectivity;
  status = cm_attr_filter_new (&filter, backend, &desc, width, height, depth,
      gst_cuda_plane_filter_cpu_opts (base));
  if (status != CM_OK) {
    gst_cuda_plane_filter_post_status_error (base, status,
        backend == CM_BACKEND_CUDA ? "Failed to build the CUDA area plan" :
        "Failed to allocate the CPU area filter");
    return NULL;
  }
  GST_INFO_OBJECT (base, "%s, min-area %u, connectivity %d, %dx%d %d-bit "
      "on %s: %s", cm_attr_op_name (&desc), desc.min_area, desc.connectivity,
      width, height, (gint) depth, backend == CM_BACKEND_CUDA ? "CUDA" :
      "CPU", cm_filter_algorithm (filter));
  return filter;
}

static cm_filter *
gst_cuda_morph_make_filter (GstCudaPlaneFilter * base,
    const GstVideoInfo * info, cm_backend backend)
{
  GstCudaMorph *self = GST_CUDA_MORPH (base);
  gboolean use_cuda = backend == CM_BACKEND_CUDA;
  const cm_cpu_opts *cpu = gst_cuda_plane_filter_cpu_opts (base);
  GstCudaMorphSettings s;
  cm_depth depth = gst_cuda_plane_filter_info_depth (info);
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  cm_filter *filter = NULL;
  gboolean recon;
  cm_morph_desc desc;
  cm_recon_desc recon_desc;
  cm_se *se = NULL;
  cm_status status;
  guint se_props_set;

  GST_OBJECT_LOCK (self);
  s = self->settings;
  s.mask = g_strdup (self->settings.mask);
  se_props_set = self->se_props_set;
  self->se_props_set = 0;
  GST_OBJECT_UNLOCK (self);

  gst_cuda_morph_warn_unused (self, &s, se_props_set);
  if (gst_cuda_morph_operation_is_area (s.operation)) {
    g_free (s.mask);
    return gst_cuda_morph_make_area_filter (base, &s, info, backend);
  }
  status = gst_cuda_morph_build_se (&s, &se);
  g_free (s.mask);
  if (status != CM_OK) {
    gst_cuda_plane_filter_post_status_error (base, status,
        "Failed to build the structuring element");
    return NULL;
  }

  memset (&desc, 0, sizeof (desc));
  desc.op = (cm_morph_op) s.operation;
  desc.se = se;
  desc.iterations = s.iterations;
  desc.border = (cm_border_mode) s.border;
  desc.border_value = MIN (s.border_value, cm_depth_max (depth));

  recon = gst_cuda_morph_operation_is_recon (s.operation);
  if (recon) {
    recon_desc = gst_cuda_morph_recon_desc (&s, &desc, depth);
    /* desc: the erosion (dilation) that makes the marker */
    desc = recon_desc.marker;
    status = cm_recon_filter_new (&filter, backend, &recon_desc, width,
        height, depth, cpu);
  } else {
    status = cm_morph_filter_new (&filter, backend, &desc, width, height,
        depth, cpu);
  }
  if (status != CM_OK) {
    gst_cuda_plane_filter_post_status_error (base, status, recon ?
        (use_cuda ? "Failed to build the CUDA reconstruction plan" :
            "Failed to allocate the CPU reconstruction filter") : (use_cuda ?
            "Failed to build the CUDA morphology plan" :
            "Failed to allocate the CPU morphology filter"));
    cm_se_free (se);
    return NULL;
  }

  if (recon)
    GST_INFO_OBJECT (self, "%s, connectivity %d, h %u, marker %s %dx%d "
        "(%d pixels), %d iteration(s), border %d (value %u), %dx%d %d-bit "
        "on %s: %s", cm_recon_op_name (recon_desc.op),
        recon_desc.connectivity, recon_desc.height, cm_shape_name (se->shape),
        se->width, se->height, se->count, desc.iterations, (gint) desc.border,
        desc.border_value, width, height, (gint) depth,
        use_cuda ? "CUDA" : "CPU", cm_filter_algorithm (filter));
  else
    GST_INFO_OBJECT (self, "%s, %s %dx%d (%d pixels), %d iteration(s), "
        "border %d (value %u), %dx%d %d-bit on %s: %s",
        cm_morph_op_name (desc.op), cm_shape_name (se->shape), se->width,
        se->height, se->count, desc.iterations, (gint) desc.border,
        desc.border_value, width, height, (gint) depth,
        use_cuda ? "CUDA" : "CPU", cm_filter_algorithm (filter));
  /* the filter keeps its own copy of the structuring element */
  cm_se_free (se);
  return filter;
}

static void
gst_cuda_morph_finalize (GObject * object)
{
  GstCudaMorph *self = GST_CUDA_MORPH (object);

  g_free (self->settings.mask);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}
