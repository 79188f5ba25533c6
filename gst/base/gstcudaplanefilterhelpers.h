/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The base class's rules about its subclasses that need no element state
 * (gstcudaplanefilterhelpers.c, which also defines the stateless helpers
 * of gstcudaplanefilter.h): which metas a frame keeps, the
 * subclass's methods as the frame path calls them, the frame statistics'
 * fields, and which element error a core status becomes. */
#pragma once

#include <gst/gst.h>

#include "gstcudaplanefilter.h"
#include "gstcudaplanefilterframe.h"

G_BEGIN_DECLS

gboolean gst_cuda_plane_filter_meta_is_kept (GstMeta * meta, gboolean convert);


void gst_cuda_plane_filter_frame_stats_add (GstCudaPlaneFilterFrameStats * sum,
    const GstCudaPlaneFilterFrameStats * frame);
void gst_cuda_plane_filter_frame_stats_to_structure (const
    GstCudaPlaneFilterFrameStats * st, GstStructure * s);

void gst_cuda_plane_filter_post_status (GstElement * element,
    GstDebugCategory * category, cm_status status, const gchar * what);

G_END_DECLS
