/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

void gst_cuda_plane_filter_refuse (GstElement * element, const gchar * format,
    ...) G_GNUC_PRINTF (2, 3);

void gst_cuda_plane_filter_refusal_flush (GstElement * element);

G_END_DECLS
