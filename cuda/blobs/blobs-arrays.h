/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The arrays of cm_blobs_results (blobs.h) in one block of memory, the
 * 8-byte arrays first so that every array stays aligned: the layout of
 * the CPU results (cm_blobs_results_alloc) and of the CUDA plan's mapped
 * pinned results alike. */
#pragma once

#include "blobs.h"

CM_BEGIN_DECLS

/* The bytes of @n blobs' entries in every array */
size_t cm_blobs_arrays_bytes (size_t n);
/* @res's arrays pointed into @block (8-byte aligned, at least
 * cm_blobs_arrays_bytes (@n) bytes); the rest of @res is left alone */
void cm_blobs_arrays_place (cm_blobs_results * res, void *block, size_t n);

CM_END_DECLS
