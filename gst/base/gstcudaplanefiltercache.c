/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The filters kept per plane size (gstcudaplanefiltercache.h): a
 * few slots searched in order, the oldest use leaving first. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefiltercache.h"

gpointer
gst_cuda_plane_filter_cache_take (GstCudaPlaneFilterCache * cache,
    gint width, gint height)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cache->slots); i++) {
    GstCudaPlaneFilterCacheSlot *s = &cache->slots[i];

    if (s->filter != NULL && s->width == width && s->height == height)
      return g_steal_pointer (&s->filter);
  }
  return NULL;
}

gpointer
gst_cuda_plane_filter_cache_put (GstCudaPlaneFilterCache * cache,
    gint width, gint height, gpointer filter)
{
  GstCudaPlaneFilterCacheSlot *slot = NULL;
  gpointer out;
  guint i;

  if (filter == NULL)
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (cache->slots); i++) {
    GstCudaPlaneFilterCacheSlot *s = &cache->slots[i];

    if (s->filter != NULL && s->width == width && s->height == height) {
      slot = s;                 /* the same size: replaced */
      break;
    }
    /* a free slot first, else the one used longest ago */
    if (slot == NULL || (slot->filter != NULL && (s->filter == NULL ||
                s->used < slot->used)))
      slot = s;
  }

  out = slot->filter;
  slot->width = width;
  slot->height = height;
  slot->filter = filter;
  slot->used = ++cache->clock;
  return out;
}

gpointer
gst_cuda_plane_filter_cache_pop (GstCudaPlaneFilterCache * cache)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cache->slots); i++)
    if (cache->slots[i].filter != NULL)
      return g_steal_pointer (&cache->slots[i].filter);
  return NULL;
}
