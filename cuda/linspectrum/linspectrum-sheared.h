/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/: one orientation of the linear spectrum (linspectrum.h)
 * as an opening on a sheared tile (linspectrum-sheared.cu), and the 8-bit
 * transposition that brings shallow lines into its frame.
 *
 * The frame: span rows (the positions q of the scan lines) and ext
 * columns; line b has its sample of position q at column
 * b - e[q] (flip == 0) or b + e[q] (flip == 1), e = |lround (q k)|
 * non-decreasing (the table of linspectrum.cu). The input image is the
 * frame of steep lines, its transpose that of shallow ones. */
/* C++ linkage: included by .cu files only */
#pragma once

#include <stdint.h>
#include <cuda_runtime.h>
#include "cm-status.h"
#include "cm-image.h"

typedef struct lin_sheared lin_sheared;

/* A plan for the frame (e_host: span entries), segment L, depth; store:
 * the opening is written (else only its sum). force_tile > 0: output rows
 * per block (tests; rounded to the chunk). *out NULL and CM_OK when no
 * tile fits in shared memory (the caller keeps the stream kernel). */
cm_status lin_sheared_new (lin_sheared ** out, const int *e_host, int span,
    int ext, int flip, int L, cm_depth depth, int store, int force_tile);
void lin_sheared_free (lin_sheared * sh);

/* The opening (closing when invert) of the frame src into the frame dst
 * (NULL: spectrum only), its sum added to *spectrum; e_dev: the device
 * copy of the plan's table. Asynchronous on s. */
cudaError_t lin_sheared_run (const lin_sheared * sh, const int *e_dev,
    const uint8_t * src, size_t spitch, uint8_t * dst, size_t dpitch,
    int invert, unsigned long long *spectrum, cudaStream_t s);

/* e.g. "sheared C=32 tile=192 blocks=870" */
const char *lin_sheared_describe (const lin_sheared * sh);

/* dst (h columns, w rows) = transpose of src (w x h), 8-bit samples, with
 * 4 x 4 byte blocks when both images allow 4-byte accesses; 0 when it
 * cannot (the caller transposes sample by sample). */
int lin_transpose8_supported (const uint8_t * src, size_t spitch,
    const uint8_t * dst, size_t dpitch);
cudaError_t lin_transpose8 (const uint8_t * src, size_t spitch, uint8_t * dst,
    size_t dpitch, int w, int h, cudaStream_t s);
