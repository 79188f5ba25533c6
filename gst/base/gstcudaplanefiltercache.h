/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Filters kept per plane size, so that regions of a few sizes reuse their
 * filter instead of building it (a plan allocates) at every change of
 * size; least recently used out first. Its owner waits for the device's
 * queued work before it frees what leaves. Streaming thread. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sizes whose filters are kept, the one in use included: a frame's
 * regions of two or three sizes and the frame itself. Each kept filter
 * holds its plan's device scratch (about the size of its planes, often
 * the frame's), so a handful is the balance between rebuilding at every
 * change of size and holding memory for sizes that do not come back. */
#define GST_CUDA_PLANE_FILTER_CACHE_SIZES 4

typedef struct
{
  gint width, height;
  gpointer filter;              /* NULL: a free slot */
  guint64 used;                 /* when it was last in use */
} GstCudaPlaneFilterCacheSlot;

typedef struct
{
  /* the filters not in use */
  GstCudaPlaneFilterCacheSlot slots[GST_CUDA_PLANE_FILTER_CACHE_SIZES - 1];
  guint64 clock;
} GstCudaPlaneFilterCache;

/* The filter kept for @width x @height, taken out (the caller owns it
 * again), or %NULL. */
gpointer gst_cuda_plane_filter_cache_take (GstCudaPlaneFilterCache
    * cache, gint width, gint height);

/* Keeps @filter (%NULL: nothing is kept), which was in use until now,
 * for @width x @height. Returns the filter it pushes out, for the caller
 * to free: one kept for the same size, else, when every slot is taken,
 * the least recently used; %NULL when none. */
gpointer gst_cuda_plane_filter_cache_put (GstCudaPlaneFilterCache *
    cache, gint width, gint height, gpointer filter);

/* One kept filter taken out (the caller frees it), %NULL when none is
 * left: the cache is emptied by calling it until then. */
gpointer gst_cuda_plane_filter_cache_pop (GstCudaPlaneFilterCache *
    cache);

G_END_DECLS
