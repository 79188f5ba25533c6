/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Interleaved <-> planar conversion for multi-channel frames (RGBA ...):
 * the filters work on one channel at a time. CPU versions in planes-ref.c,
 * CUDA versions in planes.cu. */
#pragma once

#include "cm-status.h"
#include "cm-image.h"

CM_BEGIN_DECLS

/* The arguments of every copy below: valid views (cm_image_ok,
 * cm_image_packed_ok) of one size and depth, and a channel of @packed */
int cm_channel_copy_ok (const cm_image_packed * packed, int channel,
    const cm_image * plane);

/* Copy channel `channel` of src into the planar image dst (same size). */
cm_status cm_extract_channel_ref (const cm_image_packed * src, int channel,
    const cm_image * dst);
/* Write planar src into channel `channel` of dst. */
cm_status cm_insert_channel_ref (const cm_image * src, int channel,
    const cm_image_packed * dst);

/* Device versions, asynchronous on stream. */
cm_status cm_extract_channel_cuda (const cm_image_packed * src, int channel,
    const cm_image * dst, void *stream);
cm_status cm_insert_channel_cuda (const cm_image * src, int channel,
    const cm_image_packed * dst, void *stream);

CM_END_DECLS
