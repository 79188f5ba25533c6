/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the cudamorph element tests (tests/check, CPU backend)
 * and the GPU element test (tests/gpu): element set-up from a parameter
 * row (morphology or reconstruction), seeded random frames with default or
 * padded strides, the expected output computed with the core's CPU
 * reference, exact frame comparison. */
#pragma once

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "morph.h"
#include "reconstruct.h"
#include "se.h"
#include "test-util.h"

/* Runs @code, which sets a property to a value outside its GParamSpec
 * range (or NaN): GLib refuses it and the old value stays. GLib says so
 * with a warning up to 2.74 (Debian 12) and with a critical in newer
 * releases (2.84 of Debian 13); either is expected, nothing else passes.
 * Values the element itself refuses keep ASSERT_WARNING: its warning is
 * the same on every version. */
#define ASSERT_OUT_OF_RANGE(code)                                         \
  G_STMT_START {                                                          \
    _gst_check_expecting_log = TRUE;                                      \
    _gst_check_raised_warning = FALSE;                                    \
    _gst_check_raised_critical = FALSE;                                   \
    code;                                                                 \
    if (!_gst_check_raised_warning && !_gst_check_raised_critical)        \
      _ck_assert_failed (__FILE__, __LINE__, "Expected GLib to refuse "   \
          "an out-of-range value with a warning or critical, got nothing", \
          NULL);                                                          \
    _gst_check_expecting_log = FALSE;                                     \
  } G_STMT_END

/* gst_bus_pop_filtered () without its trap: GStreamer 1.26 (seen with
 * 1.26.2) drops the messages it skips while it holds the bus lock. A
 * skipped message that holds the last reference to a pad (the
 * structure-change messages of a harness teardown) finalizes the pad,
 * which unlinks itself and posts to the same bus: the thread waits for
 * itself forever. Here the skipped messages are dropped after the bus is
 * let go. */
static inline GstMessage *
test_bus_pop_filtered (GstBus * bus, GstMessageType types)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) & types)
      return msg;
    gst_message_unref (msg);
  }
  return NULL;
}

typedef struct
{
  cm_morph_op op;
  cm_shape shape;
  int width, height;            /* rect, cross */
  int radius;                   /* diamond, disk, octagon */
  int length;                   /* line */
  double angle;                 /* line */
  const char *mask;             /* custom */
  int iterations;
  cm_border_mode border;
  unsigned border_value;
} MorphParams;

/* the element's defaults */
#define MORPH_PARAMS_DEFAULT \
  { CM_MORPH_ERODE, CM_SHAPE_RECT, 3, 3, 1, 15, 0.0, "010;111;010", 1, \
    CM_BORDER_NEUTRAL, 0 }

/* A reconstruction operation of the element: operation, connectivity,
 * dome-height, and the structuring element, iterations and border that
 * make the marker of open-rec and close-rec (marker.op is not used). */
typedef struct
{
  cm_recon_op op;
  int connectivity;
  unsigned dome_height;
  MorphParams marker;
} ReconParams;

#define MORPH_N_FORMATS 9

static inline const char *
morph_format (int i)
{
  static const char *const formats[MORPH_N_FORMATS] = {
    "GRAY8", "GRAY16_LE", "I420", "NV12", "Y444", "RGBA", "BGRA", "RGBx",
    "BGRx"
  };
  return formats[i];
}

static inline const char *
morph_op_nick (cm_morph_op op)
{
  static const char *const nicks[] = {
    "erode", "dilate", "open", "close", "tophat", "blackhat", "gradient"
  };
  return nicks[op];
}

static inline const char *
morph_shape_nick (cm_shape shape)
{
  static const char *const nicks[] = {
    "rect", "cross", "diamond", "disk", "octagon", "line", "custom"
  };
  return nicks[shape];
}

static inline const char *
morph_border_nick (cm_border_mode border)
{
  static const char *const nicks[] = {
    "neutral", "replicate", "reflect", "mirror", "constant"
  };
  return nicks[border];
}

/* the element's nicks, in cm_recon_op's order */
static inline const char *
recon_op_nick (cm_recon_op op)
{
  static const char *const nicks[] = {
    "fill-holes", "clear-border", "open-rec", "close-rec", "hmax", "hmin",
    "hdome", "hbasin"
  };
  return nicks[op];
}

/* "open line L=41 a=70 it=1 border=neutral(0)", for failure messages */
static inline gchar *
morph_params_describe (const MorphParams * p)
{
  gchar *shape;
  gchar *s;

  switch (p->shape) {
    case CM_SHAPE_RECT:
    case CM_SHAPE_CROSS:
      shape = g_strdup_printf ("%s %dx%d", morph_shape_nick (p->shape),
          p->width, p->height);
      break;
    case CM_SHAPE_LINE:
      shape = g_strdup_printf ("line L=%d a=%g", p->length, p->angle);
      break;
    case CM_SHAPE_CUSTOM:
      shape = g_strdup_printf ("custom \"%s\"", p->mask);
      break;
    default:
      shape = g_strdup_printf ("%s r=%d", morph_shape_nick (p->shape),
          p->radius);
      break;
  }
  s = g_strdup_printf ("%s %s it=%d border=%s(%u)", morph_op_nick (p->op),
      shape, p->iterations, morph_border_nick (p->border), p->border_value);
  g_free (shape);
  return s;
}

/* "hmax c=4 h=40 (marker: erode rect 3x3 ...)", for failure messages */
static inline gchar *
recon_params_describe (const ReconParams * p)
{
  gchar *marker = morph_params_describe (&p->marker);
  gchar *s = g_strdup_printf ("%s c=%d h=%u (marker: %s)",
      recon_op_nick (p->op), p->connectivity, p->dome_height, marker);

  g_free (marker);
  return s;
}

/* Sets every filter property of @e from @p (by nick for the enums). */
static inline void
morph_params_apply (GstElement * e, const MorphParams * p)
{
  gst_util_set_object_arg (G_OBJECT (e), "operation", morph_op_nick (p->op));
  gst_util_set_object_arg (G_OBJECT (e), "shape", morph_shape_nick (p->shape));
  gst_util_set_object_arg (G_OBJECT (e), "border",
      morph_border_nick (p->border));
  g_object_set (e, "width", p->width, "height", p->height, "radius",
      p->radius, "length", p->length, "angle", p->angle, "mask", p->mask,
      "iterations", p->iterations, "border-value", p->border_value, NULL);
}

/* The same for a reconstruction operation. */
static inline void
recon_params_apply (GstElement * e, const ReconParams * p)
{
  morph_params_apply (e, &p->marker);
  gst_util_set_object_arg (G_OBJECT (e), "operation", recon_op_nick (p->op));
  g_object_set (e, "connectivity", p->connectivity, "dome-height",
      p->dome_height, NULL);
}

/* A cudamorph with backend @backend ("cpu", "cuda", "auto") and @p. */
static inline GstElement *
morph_element_new (const char *backend, const MorphParams * p)
{
  GstElement *e = gst_element_factory_make ("cudamorph", NULL);

  fail_unless (e != NULL, "cannot create cudamorph: is GST_PLUGIN_PATH set "
      "to the build's gst/ directory?");
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend);
  if (p)
    morph_params_apply (e, p);
  return e;
}

/* Harness around @e (the harness takes its own reference). */
static inline GstHarness *
morph_harness_new (GstElement * e)
{
  return gst_harness_new_with_element (e, "sink", "src");
}

static inline void
morph_harness_set_caps (GstHarness * h, const char *format, int width,
    int height, GstVideoInfo * info)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);

  gst_video_info_set_format (info, gst_video_format_from_string (format),
      width, height);
  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
}

/* The structuring element of @p, built with the core's constructors. */
static inline cm_se *
morph_params_se (const MorphParams * p)
{
  cm_se *se = NULL;
  cm_status s = CM_ERR_INVALID_ARG;

  switch (p->shape) {
    case CM_SHAPE_RECT:
      s = cm_se_new_rect (&se, p->width, p->height);
      break;
    case CM_SHAPE_CROSS:
      s = cm_se_new_cross (&se, p->width, p->height);
      break;
    case CM_SHAPE_DIAMOND:
      s = cm_se_new_diamond (&se, p->radius);
      break;
    case CM_SHAPE_DISK:
      s = cm_se_new_disk (&se, p->radius);
      break;
    case CM_SHAPE_OCTAGON:
      s = cm_se_new_octagon (&se, p->radius);
      break;
    case CM_SHAPE_LINE:
      s = cm_se_new_line (&se, p->length, p->angle);
      break;
    case CM_SHAPE_CUSTOM:
      s = cm_se_new_custom (&se, p->mask);
      break;
  }
  fail_unless (s == CM_OK && se != NULL, "cannot build the reference SE: %s",
      cm_status_string (s));
  return se;
}

/* Plane @plane of @frame: bytes of one visible row and number of rows. */
static inline void
morph_plane_extent (GstVideoFrame * frame, guint plane, gsize * row_bytes,
    int *rows)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (frame->info.finfo, plane, comp);
  *row_bytes = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (frame, comp[0]) *
      GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp[0]);
  *rows = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]);
}

/* A frame of @info with every byte random (seeded), padding included. With
 * @extra_stride > 0 the planes get larger strides and a non-zero offset,
 * described by a GstVideoMeta. */
static inline GstBuffer *
morph_make_input (const GstVideoInfo * info, guint64 seed, int extra_stride)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  guint n_planes = GST_VIDEO_INFO_N_PLANES (info);
  gsize total, i;
  GstBuffer *buf;
  GstMapInfo map;
  test_rng rng;
  guint p;

  test_rng_seed (&rng, seed);

  if (extra_stride == 0) {
    total = GST_VIDEO_INFO_SIZE (info);
  } else {
    total = 16;
    for (p = 0; p < n_planes; p++) {
      gint comp[GST_VIDEO_MAX_COMPONENTS];
      int rows;

      gst_video_format_info_component (info->finfo, p, comp);
      rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, comp[0],
          GST_VIDEO_INFO_HEIGHT (info));
      stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + extra_stride;
      offset[p] = total;
      total += (gsize) stride[p] * rows + 8;
    }
  }

  buf = gst_buffer_new_allocate (NULL, total, NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < map.size; i++)
    map.data[i] = (guint8) (test_rng_next (&rng) >> 24);
  gst_buffer_unmap (buf, &map);

  if (extra_stride > 0)
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), n_planes, offset, stride);
  return buf;
}

/* Sets sample (@x, @y) of the processed plane of @frame: the luma / GRAY
 * plane, or colour component @comp (0..2) of a packed RGB frame. */
static inline void
morph_frame_set (GstVideoFrame * frame, int comp, int x, int y, guint v)
{
  guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame, 0) +
      (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);

  if (GST_VIDEO_INFO_IS_RGB (&frame->info))
    row[x * GST_VIDEO_FRAME_COMP_PSTRIDE (frame, 0) +
        GST_VIDEO_FRAME_COMP_POFFSET (frame, comp)] = (guint8) v;
  else if (GST_VIDEO_FRAME_COMP_DEPTH (frame, 0) > 8)
    GST_WRITE_UINT16_LE (row + 2 * x, v);
  else
    row[x] = (guint8) v;
}

/* A frame like morph_make_input (), whose processed samples are
 * piecewise-constant blobs instead: a random level on each @cell x @cell
 * square plus random noise below @noise (in 8-bit units, scaled to
 * 16-bit), so that there are plateaus, regional extrema, holes and
 * objects touching the border for reconstruction to work on. */
static inline GstBuffer *
morph_make_input_blobs (const GstVideoInfo * info, guint64 seed,
    int extra_stride, int cell, guint noise)
{
  GstBuffer *buf = morph_make_input (info, seed, extra_stride);
  int w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  int n_comp = GST_VIDEO_INFO_IS_RGB (info) ? 3 : 1;
  gboolean deep = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8;
  guint scale = deep ? 257 : 1, maxv = deep ? 65535 : 255;
  int gw = (w + cell - 1) / cell, gh = (h + cell - 1) / cell;
  guint *level = g_new (guint, (gsize) gw * gh * n_comp);
  GstVideoFrame frame;
  test_rng rng;

  test_rng_seed (&rng, seed ^ G_GUINT64_CONSTANT (0x5eed0b10b5));
  for (int i = 0; i < gw * gh * n_comp; i++)
    level[i] = test_rng_below (&rng, maxv + 1);
  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  for (int c = 0; c < n_comp; c++)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        guint v = level[(c * gh + y / cell) * gw + x / cell] +
            (noise ? test_rng_below (&rng, noise) * scale : 0);

        morph_frame_set (&frame, c, x, y, MIN (v, maxv));
      }
  gst_video_frame_unmap (&frame);
  g_free (level);
  return buf;
}

/* A frame whose processed samples are a serpentine maze: @wall around the
 * frame and between the corridor rows (odd rows), @corridor along them,
 * the rows joined at alternate ends, and the one opening to the frame's
 * edge at (0, 1). Reconstruction from the border then has to follow the
 * whole corridor: half the frame's pixels, one after the other. With
 * @vertical the same along columns (opening at (1, 0)). */
static inline GstBuffer *
morph_make_input_maze (const GstVideoInfo * info, guint64 seed,
    guint wall, guint corridor, gboolean vertical)
{
  GstBuffer *buf = morph_make_input (info, seed, 0);
  int w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  int n_comp = GST_VIDEO_INFO_IS_RGB (info) ? 3 : 1;
  /* (u, v): along and across the corridors */
  int lu = vertical ? h : w, lv = vertical ? w : h;
  GstVideoFrame frame;

  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  for (int c = 0; c < n_comp; c++)
    for (int v = 0; v < lv; v++)
      for (int u = 0; u < lu; u++) {
        gboolean open = v % 2 == 1 && v < lv - 1 && u > 0 && u < lu - 1;

        /* wall rows open at the far end, then the near one, ... */
        if (v % 2 == 0 && v > 0 && v + 1 < lv - 1)
          open = u == ((v / 2) % 2 ? lu - 2 : 1) && lu > 2;
        if (u == 0 && v == 1 && lv > 2)
          open = TRUE;
        morph_frame_set (&frame, c, vertical ? v : u, vertical ? u : v,
            open ? corridor : wall);
      }
  gst_video_frame_unmap (&frame);
  return buf;
}

/* Channel @byte of every pixel of the packed 8-bit plane 0 of @frame. */
static inline cm_image
morph_extract_byte (GstVideoFrame * frame, int byte)
{
  int w = GST_VIDEO_FRAME_WIDTH (frame), h = GST_VIDEO_FRAME_HEIGHT (frame);
  int pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, 0);
  cm_image img = test_image_new (w, h, CM_DEPTH_8, 3);
  const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  gsize stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      test_image_set (&img, x, y, data[y * stride + x * pstride + byte]);
  return img;
}

/* TRUE when every plane of @frame, as its GstVideoMeta (if any) lays it
 * out, lies inside the mapped memory: catches an input meta wrongly copied
 * onto an output buffer of another layout. */
static inline gboolean
morph_frame_fits (GstVideoFrame * frame, const char *what)
{
  for (guint pl = 0; pl < GST_VIDEO_FRAME_N_PLANES (frame); pl++) {
    /* with a meta each plane has its own mapping, else map[0] is all */
    const GstMapInfo *map = &frame->map[frame->meta ? pl : 0];
    gsize start = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame, pl) -
        map->data;
    gsize row_bytes;
    int rows;

    morph_plane_extent (frame, pl, &row_bytes, &rows);
    if (start + (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (frame, pl) * (rows - 1)
        + row_bytes > map->size) {
      fprintf (stderr, "%s: plane %u (stride %d, %d rows) does not fit in "
          "the %" G_GSIZE_FORMAT " bytes of its memory\n", what, pl,
          GST_VIDEO_FRAME_PLANE_STRIDE (frame, pl), rows, map->size);
      return FALSE;
    }
  }
  return TRUE;
}

/* The expected result of one plane: @src filtered into @dst (a new image
 * of @src's size and depth) by the core's CPU reference. */
typedef cm_status (*MorphPlaneRef) (gconstpointer params, const cm_image * src,
    const cm_image * dst);

/* cm_morph_ref for a MorphParams, border-value clamped like the element */
static inline cm_status
morph_plane_ref (gconstpointer params, const cm_image * src,
    const cm_image * dst)
{
  const MorphParams *p = params;
  cm_se *se = morph_params_se (p);
  cm_morph_desc desc;
  cm_status status;

  memset (&desc, 0, sizeof (desc));
  desc.op = p->op;
  desc.se = se;
  desc.iterations = p->iterations;
  desc.border = p->border;
  desc.border_value = MIN (p->border_value, cm_depth_max (src->depth));
  status = cm_morph_ref (&desc, src, dst);
  cm_se_free (se);
  return status;
}

/* cm_recon_ref for a ReconParams, dome-height and border-value clamped
 * like the element */
static inline cm_status
recon_plane_ref (gconstpointer params, const cm_image * src,
    const cm_image * dst)
{
  const ReconParams *p = params;
  cm_se *se = morph_params_se (&p->marker);
  cm_recon_desc desc;
  cm_status status;

  memset (&desc, 0, sizeof (desc));
  desc.op = p->op;
  desc.connectivity = p->connectivity;
  desc.height = MIN (p->dome_height, cm_depth_max (src->depth));
  desc.marker.op = p->op == CM_RECON_CLOSE ? CM_MORPH_DILATE : CM_MORPH_ERODE;
  desc.marker.se = se;
  desc.marker.iterations = p->marker.iterations;
  desc.marker.border = p->marker.border;
  desc.marker.border_value = MIN (p->marker.border_value,
      cm_depth_max (src->depth));
  status = cm_recon_ref (&desc, src, dst);
  cm_se_free (se);
  return status;
}

/* TRUE when @outbuf is @inbuf filtered plane by plane as @ref says: @ref
 * applied to the luma / GRAY plane or to each colour channel, chroma and
 * alpha equal to the input. Prints the first difference to stderr. */
static inline gboolean
morph_check_output_with (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, MorphPlaneRef ref, gconstpointer params,
    const char *what)
{
  GstVideoFrame in, out;
  cm_depth depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ?
      CM_DEPTH_16 : CM_DEPTH_8;
  int w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gboolean ok = TRUE;
  gchar *label;

  fail_unless (gst_video_frame_map (&in, info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, info, outbuf, GST_MAP_READ),
      "%s: output buffer does not match the caps", what);
  fail_unless (morph_frame_fits (&in, what) && morph_frame_fits (&out, what),
      "%s: frame layout outside the buffer", what);

  if (GST_VIDEO_INFO_IS_RGB (info)) {
    int pstride = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);

    for (int b = 0; b < pstride && ok; b++) {
      gboolean colour = FALSE;
      cm_image src = morph_extract_byte (&in, b);
      cm_image got = morph_extract_byte (&out, b);

      for (int c = 0; c < 3; c++)
        colour |= (int) GST_VIDEO_INFO_COMP_POFFSET (info, c) == b;
      if (colour) {
        cm_image exp = test_image_new (w, h, CM_DEPTH_8, 0);

        fail_unless (ref (params, &src, &exp) == CM_OK);
        label = g_strdup_printf ("%s: colour byte %d", what, b);
        ok = test_image_equal (&got, &exp, label);
        g_free (label);
        test_image_free (&exp);
      } else {
        label = g_strdup_printf ("%s: alpha/padding byte %d", what, b);
        ok = test_image_equal (&got, &src, label);
        g_free (label);
      }
      test_image_free (&src);
      test_image_free (&got);
    }
  } else {
    cm_image src = { GST_VIDEO_FRAME_PLANE_DATA (&in, 0),
      (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&in, 0), w, h, depth
    };
    cm_image got = { GST_VIDEO_FRAME_PLANE_DATA (&out, 0),
      (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0), w, h, depth
    };
    cm_image exp = test_image_new (w, h, depth, 0);

    fail_unless (ref (params, &src, &exp) == CM_OK);
    label = g_strdup_printf ("%s: plane 0", what);
    ok = test_image_equal (&got, &exp, label);
    g_free (label);
    test_image_free (&exp);

    for (guint pl = 1; ok && pl < GST_VIDEO_FRAME_N_PLANES (&in); pl++) {
      const guint8 *a = GST_VIDEO_FRAME_PLANE_DATA (&in, pl);
      const guint8 *o = GST_VIDEO_FRAME_PLANE_DATA (&out, pl);
      gsize as = GST_VIDEO_FRAME_PLANE_STRIDE (&in, pl);
      gsize os = GST_VIDEO_FRAME_PLANE_STRIDE (&out, pl);
      gsize row_bytes;
      int rows;

      morph_plane_extent (&in, pl, &row_bytes, &rows);
      for (int y = 0; ok && y < rows; y++) {
        if (memcmp (a + y * as, o + y * os, row_bytes) != 0) {
          fprintf (stderr, "%s: chroma plane %u row %d differs from the "
              "input\n", what, pl, y);
          ok = FALSE;
        }
      }
    }
  }

  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return ok;
}

/* TRUE when @outbuf is @inbuf filtered as @p says (morphology). */
static inline gboolean
morph_check_output (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const MorphParams * p, const char *what)
{
  return morph_check_output_with (inbuf, outbuf, info, morph_plane_ref, p,
      what);
}

/* TRUE when @outbuf is @inbuf filtered as @p says (reconstruction). */
static inline gboolean
recon_check_output (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const ReconParams * p, const char *what)
{
  return morph_check_output_with (inbuf, outbuf, info, recon_plane_ref, p,
      what);
}

/* TRUE when the visible bytes of every plane of @a and @b are equal. */
static inline gboolean
morph_frames_equal (GstBuffer * a, GstBuffer * b, const GstVideoInfo * info,
    const char *what)
{
  GstVideoFrame fa, fb;
  gboolean ok = TRUE;

  fail_unless (gst_video_frame_map (&fa, info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, info, b, GST_MAP_READ));
  for (guint pl = 0; ok && pl < GST_VIDEO_FRAME_N_PLANES (&fa); pl++) {
    const guint8 *da = GST_VIDEO_FRAME_PLANE_DATA (&fa, pl);
    const guint8 *db = GST_VIDEO_FRAME_PLANE_DATA (&fb, pl);
    gsize sa = GST_VIDEO_FRAME_PLANE_STRIDE (&fa, pl);
    gsize sb = GST_VIDEO_FRAME_PLANE_STRIDE (&fb, pl);
    gsize row_bytes;
    int rows;

    morph_plane_extent (&fa, pl, &row_bytes, &rows);
    for (int y = 0; ok && y < rows; y++) {
      for (gsize x = 0; x < row_bytes; x++) {
        if (da[y * sa + x] != db[y * sb + x]) {
          fprintf (stderr, "%s: plane %u, row %d, byte %" G_GSIZE_FORMAT
              ": %u vs %u\n", what, pl, y, x, da[y * sa + x], db[y * sb + x]);
          ok = FALSE;
          break;
        }
      }
    }
  }
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fa);
  return ok;
}
