/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The base class's rules about its subclasses that need no element state
 * (gstcudamorphologyhelpers.c, which also defines the stateless helpers
 * of gstcudamorphologybase.h): which metas a frame keeps, the
 * subclass's methods as the frame path calls them, the frame statistics'
 * fields, and which element error a core status becomes. */
#pragma once

#include <gst/gst.h>

#include "gstcudamorphologybase.h"
#include "gstcudamorphologyframe.h"

G_BEGIN_DECLS

gboolean gst_cuda_morphology_meta_is_kept (GstMeta * meta, gboolean convert);

void gst_cuda_morphology_filter_ops_init (GstCudaMorphologyFilterOps * ops,
    GstCudaMorphologyBase * self);

void gst_cuda_morphology_frame_stats_add (GstCudaMorphologyFrameStats * sum,
    const GstCudaMorphologyFrameStats * frame);
void gst_cuda_morphology_frame_stats_to_structure (const
    GstCudaMorphologyFrameStats * st, GstStructure * s);

void gst_cuda_morphology_post_status (GstElement * element,
    GstDebugCategory * category, cm_status status, const gchar * what);

G_END_DECLS
