/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>

#include "cm-status.h"

G_BEGIN_DECLS

void gst_cuda_plane_filter_refuse (GstElement * element, const gchar * format,
    ...) G_GNUC_PRINTF (2, 3);

/* Downstream refused the caps of output=@asked (a value of the GEnum
 * @output_type): a WARNING that output=@kept stays, and the "output"
 * property notified. */
void gst_cuda_plane_filter_refuse_output (GstElement * element,
    GType output_type, gint asked, gint kept, GstCaps * outcaps);

void gst_cuda_plane_filter_refusal_flush (GstElement * element);

/* An element error "@what: <status text>", its domain and code by the kind
 * of failure; logged in @category too (nullable). */
void gst_cuda_plane_filter_post_status (GstElement * element,
    GstDebugCategory * category, cm_status status, const gchar * what);

G_END_DECLS
