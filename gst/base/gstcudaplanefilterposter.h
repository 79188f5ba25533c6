/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Element messages finished and posted off the streaming thread, one
 * after another in the order they were given. A message of many values
 * (cudablobs' ten GstValueArrays) takes the host tens of microseconds to
 * build, post and free, all on the posting thread, and a single pipeline's
 * streaming thread had to wait for that on every frame. Drained (every
 * message given is on the bus) before a serialized event goes on, so that
 * the messages of a stream come before its EOS, and at the stop. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/* Completes message @s from @data, on the poster's thread */
typedef void (*GstCudaPlaneFilterFinishFunc) (GstStructure * s,
    gpointer data);

typedef struct
{
  GstElement *element;          /* the messages' source, not owned */
  GThreadPool *pool;            /* made at the first message; one thread
                                 * keeps the order */
  GMutex lock;
  GCond idle;
  guint pending;                /* given and not yet posted (lock) */
} GstCudaPlaneFilterPoster;

void gst_cuda_plane_filter_poster_init (GstCudaPlaneFilterPoster * p,
    GstElement * element);
void gst_cuda_plane_filter_poster_clear (GstCudaPlaneFilterPoster * p);
void gst_cuda_plane_filter_poster_post (GstCudaPlaneFilterPoster * p,
    GstStructure * s, GstCudaPlaneFilterFinishFunc finish, gpointer data,
    GDestroyNotify free_data);
void gst_cuda_plane_filter_poster_drain (GstCudaPlaneFilterPoster * p);

G_END_DECLS
