/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seeded input frames, padded or not */
#include <stdio.h>

#include <gst/check/gstcheck.h>

#include "test-util.h"

#include "padded-frames.h"

void
morph_plane_extent (GstVideoFrame * frame, guint plane, gsize * row_bytes,
    int *rows)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (frame->info.finfo, plane, comp);
  *row_bytes = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (frame, comp[0]) *
      GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp[0]);
  *rows = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]);
}

GstBuffer *
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

void
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

GstBuffer *
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

GstBuffer *
morph_make_input_attr (const GstVideoInfo * info, guint64 seed,
    int extra_stride, attr_frame_kind kind)
{
  GstBuffer *buf = morph_make_input (info, seed, extra_stride);
  int w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  int n_comp = GST_VIDEO_INFO_IS_RGB (info) ? 3 : 1;
  cm_depth depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? CM_DEPTH_16 :
      CM_DEPTH_8;
  cm_image img = test_image_new (w, h, depth, 0);
  GstVideoFrame frame;
  test_rng rng;

  test_rng_seed (&rng, seed ^ G_GUINT64_CONSTANT (0xa77f4a3e5));
  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  for (int c = 0; c < n_comp; c++) {
    attr_frame_fill (&img, kind, &rng);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        morph_frame_set (&frame, c, x, y, test_image_get (&img, x, y));
  }
  gst_video_frame_unmap (&frame);
  test_image_free (&img);
  return buf;
}

GstBuffer *
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

cm_image
morph_frame_plane0 (GstVideoFrame * frame)
{
  cm_image img;

  img.data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  img.pitch = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  img.width = GST_VIDEO_FRAME_WIDTH (frame);
  img.height = GST_VIDEO_FRAME_HEIGHT (frame);
  img.depth = GST_VIDEO_FRAME_COMP_DEPTH (frame, 0) > 8 ?
      CM_DEPTH_16 : CM_DEPTH_8;
  return img;
}

cm_image
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

gboolean
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
