/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the GPU chain tests (test-cuda-memory-element, test-nvcodec-chain)
 * run and compare: a chain of our elements in a pipeline, its output
 * frames and cudalinspectrum messages on CUDA against the same chain on
 * the CPU backend, and where the frames were, from the elements'
 * "cudamorphology-stats" query and caps. */
#pragma once

#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>

#include <gst/video/video.h>

/* The element's frame statistics (NULL when it does not answer). */
static inline GstStructure *
query_stats (GstElement * e)
{
  GstQuery *q = gst_query_new_custom (GST_QUERY_CUSTOM,
      gst_structure_new_empty ("cudamorphology-stats"));
  GstPad *pad = gst_element_get_static_pad (e, "src");
  GstStructure *s = NULL;

  if (gst_pad_query (pad, q))
    s = gst_structure_copy (gst_query_get_structure (q));
  gst_query_unref (q);
  gst_object_unref (pad);
  return s;
}

/* TRUE when the visible bytes of every plane are equal. */
static inline gboolean
samples_equal (GstSample * a, GstSample * b, guint index, GString * why)
{
  GstVideoInfo ia, ib;
  GstVideoFrame fa, fb;
  gboolean ok = TRUE;

  if (!gst_video_info_from_caps (&ia, gst_sample_get_caps (a)) ||
      !gst_video_info_from_caps (&ib, gst_sample_get_caps (b)) ||
      !gst_video_info_is_equal (&ia, &ib)) {
    g_string_append_printf (why, "frame %u: caps differ", index);
    return FALSE;
  }
  if (!gst_video_frame_map (&fa, &ia, gst_sample_get_buffer (a),
          GST_MAP_READ)) {
    g_string_append_printf (why, "frame %u: cannot map (cpu)", index);
    return FALSE;
  }
  if (!gst_video_frame_map (&fb, &ib, gst_sample_get_buffer (b),
          GST_MAP_READ)) {
    gst_video_frame_unmap (&fa);
    g_string_append_printf (why, "frame %u: cannot map (cuda)", index);
    return FALSE;
  }
  for (guint p = 0; ok && p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gsize row_bytes;
    gint rows;

    gst_video_format_info_component (fa.info.finfo, p, comp);
    row_bytes = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (&fa, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, comp[0]);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (&fa, comp[0]);
    for (gint y = 0; ok && y < rows; y++) {
      const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p)
          + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p);
      const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p)
          + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p);

      for (gsize x = 0; x < row_bytes; x++) {
        if (ra[x] != rb[x]) {
          g_string_append_printf (why, "frame %u plane %u row %d byte %"
              G_GSIZE_FORMAT ": %u (cpu) vs %u (cuda)", index, p, y, x,
              ra[x], rb[x]);
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

static inline gboolean
messages_equal (GPtrArray * a, GPtrArray * b, GString * why)
{
  const char *fields[] = { "timestamp", "length", "operation", "angles",
    "spectrum", "dominant-angle", "dominant-value"
  };

  if (a->len != b->len) {
    g_string_append_printf (why, "%u analyser messages (cpu) vs %u "
        "(cuda)", a->len, b->len);
    return FALSE;
  }
  for (guint i = 0; i < a->len; i++) {
    /* cudablobs: every field, the arrays value by value */
    if (gst_structure_has_name (a->pdata[i], "cudablobs")) {
      if (!gst_structure_is_equal (a->pdata[i], b->pdata[i])) {
        g_string_append_printf (why, "cudablobs message %u differs", i);
        return FALSE;
      }
      continue;
    }
    for (guint f = 0; f < G_N_ELEMENTS (fields); f++) {
      const GValue *va = gst_structure_get_value (a->pdata[i], fields[f]);
      const GValue *vb = gst_structure_get_value (b->pdata[i], fields[f]);

      if (va == NULL || vb == NULL ||
          gst_value_compare (va, vb) != GST_VALUE_EQUAL) {
        g_string_append_printf (why, "cudalinspectrum message %u differs "
            "in %s", i, fields[f]);
        return FALSE;
      }
    }
  }
  return TRUE;
}

static inline guint64
stat_get (const GstStructure * s, const char *name)
{
  guint64 v = 0;

  gst_structure_get_uint64 (s, name, &v);
  return v;
}

/* TRUE when a structure of @caps has the CUDA memory feature (negotiated
 * caps have one structure, a pad template several). */
static inline gboolean
caps_cuda (GstCaps * caps)
{
  if (caps == NULL)
    return FALSE;
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    if (gst_caps_features_contains (gst_caps_get_features (caps, i),
            "memory:CUDAMemory"))
      return TRUE;
  }
  return FALSE;
}

/* What one run of a chain gave: the output samples (system memory), the
 * cudalinspectrum messages, and per chain element its statistics and the
 * caps on its pads. */
typedef struct
{
  GPtrArray *samples;           /* GstSample, system memory */
  GPtrArray *messages;          /* GstStructure of cudalinspectrum */
  GPtrArray *stats;             /* GstStructure per chain element */
  GPtrArray *sink_caps;         /* GstCaps on each chain element's sink */
  GPtrArray *src_caps;          /* GstCaps on each chain element's src */
  gboolean ok;
} RunResult;

static inline RunResult
run_result_new (void)
{
  RunResult r = { g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_sample_unref), g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_structure_free), g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_structure_free), g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_caps_unref), g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_caps_unref), TRUE
  };

  return r;
}

static inline void
run_result_clear (RunResult * r)
{
  g_ptr_array_unref (r->samples);
  g_ptr_array_unref (r->messages);
  g_ptr_array_unref (r->stats);
  g_ptr_array_unref (r->sink_caps);
  g_ptr_array_unref (r->src_caps);
}

/* "a ! b ! c" with @props (" backend=cpu") after every element, the
 * elements named e0, e1, ... */
static inline gchar *
chain_desc (const char *const *elements, const char *props)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; elements[i]; i++) {
    if (i > 0)
      g_string_append (s, " ! ");
    g_string_append_printf (s, "%s name=e%u%s", elements[i], i, props);
  }
  return g_string_free (s, FALSE);
}

static inline GstCaps *
pad_caps (GstElement * e, const char *pad_name)
{
  GstPad *pad = gst_element_get_static_pad (e, pad_name);
  GstCaps *caps = gst_pad_get_current_caps (pad);

  gst_object_unref (pad);
  return caps ? caps : gst_caps_new_empty ();
}

/* The caps and statistics of chain elements e0 ... e@n_elements-1 of
 * @pipe, while they still run. */
static inline void
run_result_collect (RunResult * r, GstElement * pipe, guint n_elements)
{
  for (guint i = 0; i < n_elements; i++) {
    gchar name[16];
    GstElement *e;
    GstStructure *st;

    g_snprintf (name, sizeof (name), "e%u", i);
    e = gst_bin_get_by_name (GST_BIN (pipe), name);
    g_ptr_array_add (r->sink_caps, pad_caps (e, "sink"));
    g_ptr_array_add (r->src_caps, pad_caps (e, "src"));
    st = query_stats (e);
    g_ptr_array_add (r->stats, st ? st : gst_structure_new_empty ("none"));
    gst_object_unref (e);
  }
}

/* Takes every message off @bus: keeps the analysers' ones
 * (cudalinspectrum, cudablobs), reports errors. FALSE after an error. */
static inline gboolean
chain_drain_bus (GstBus * bus, RunResult * r, const char *what)
{
  GstMessage *msg;
  gboolean ok = TRUE;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      fprintf (stderr, "%s: error from %s: %s (%s)\n", what,
          GST_MESSAGE_SRC_NAME (msg), err->message, dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      ok = FALSE;
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        (gst_structure_has_name (gst_message_get_structure (msg),
                "cudalinspectrum") ||
            gst_structure_has_name (gst_message_get_structure (msg),
                "cudablobs"))) {
      g_ptr_array_add (r->messages,
          gst_structure_copy (gst_message_get_structure (msg)));
    }
    gst_message_unref (msg);
  }
  return ok;
}

/* The pipeline @desc (exits on a parse error) with its elements "src" and
 * "sink" and its bus. */
static inline GstElement *
chain_pipeline_new (const char *desc, GstElement ** src, GstElement ** sink,
    GstBus ** bus)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);

  if (pipe == NULL) {
    fprintf (stderr, "%s: %s\n", desc, err->message);
    exit (1);
  }
  *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  *bus = gst_element_get_bus (pipe);
  return pipe;
}

/* The end of a run: the chain elements' caps and statistics while they
 * still run, the bus drained, @pipe stopped; @pipe and @bus let go of. */
static inline void
run_result_finish (RunResult * r, GstElement * pipe, GstBus * bus,
    guint n_elements, const char *what)
{
  run_result_collect (r, pipe, n_elements);
  if (!chain_drain_bus (bus, r, what))
    r->ok = FALSE;
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

/* 1 when cudamorph's source pad template offers CUDA memory, 0 when it
 * does not (the plugin was built without gstreamer-cuda), -1 when there
 * is no cudamorph. */
static inline int
plugin_has_cuda_memory (void)
{
  GstElement *e = gst_element_factory_make ("cudamorph", NULL);
  GstPadTemplate *t;
  GstCaps *tc;
  gboolean cuda;

  if (e == NULL)
    return -1;
  t = gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (e), "src");
  tc = gst_pad_template_get_caps (t);
  cuda = caps_cuda (tc);
  gst_caps_unref (tc);
  gst_object_unref (e);
  return cuda ? 1 : 0;
}
