/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/temporal: a sample's 256 byte-wide bins (n <= 255
 * samples), four a word, the thread's words 32 words apart so that they
 * lie in its own shared-memory bank (word w of lane l at w * 32 + l: bins
 * picked by the data never conflict between the lanes of a warp); a
 * sample into them, and the walk to a rank (host and device: the
 * histogram kernels and their host check). */
#pragma once

#include <stdint.h>
#include <cuda_runtime.h>

#define HIST_WORDS 64           /* 256 byte-wide bins */

/* One sample into its bins: 8-bit samples and the high byte of 16-bit
 * ones (LOW false), or the low byte of the 16-bit samples whose high byte
 * is @high (LOW true). ATOMIC: the bin's word updated by one shared-memory
 * atomic add (one load/store-unit instruction instead of a load and a
 * store; no other thread touches the word either way) */
template <int BPP, bool LOW, bool ATOMIC>
static __host__ __device__ __forceinline__ void
bin_sample (uint32_t * h, uint32_t v, uint32_t high)
{
  uint32_t bin;

  if (LOW) {
    if ((v >> 8) != high)
      return;
    bin = v & 255;
  } else
    bin = BPP == 1 ? v : v >> 8;
#ifdef __CUDA_ARCH__
  if (ATOMIC) {
    atomicAdd (&h[(bin >> 2) * 32], 1u << ((bin & 3) * 8));
    return;
  }
#endif
  h[(bin >> 2) * 32] += 1u << ((bin & 3) * 8);
}

/* The same sample out of its bins (one that was put in) */
template <int BPP, bool LOW>
static __host__ __device__ __forceinline__ void
unbin_sample (uint32_t * h, uint32_t v, uint32_t high)
{
  uint32_t bin;

  if (LOW) {
    if ((v >> 8) != high)
      return;
    bin = v & 255;
  } else
    bin = BPP == 1 ? v : v >> 8;
  h[(bin >> 2) * 32] -= 1u << ((bin & 3) * 8);
}

/* The bin of rank k (0-based) in one sample's bins; *below: the samples
 * in the bins before it */
static __host__ __device__ __forceinline__ uint32_t
find_rank (const uint32_t * h, int k, int *below)
{
  int acc = 0;

  for (int w = 0; w < HIST_WORDS; w++) {
    const uint32_t c = h[w * 32];
    const int total = (int) ((c * 0x01010101u) >> 24);

    if (acc + total > k) {
      for (int b = 0; b < 3; b++) {
        const int cnt = (int) ((c >> (8 * b)) & 255);

        if (acc + cnt > k) {
          *below = acc;
          return 4 * w + b;
        }
        acc += cnt;
      }
      *below = acc;
      return 4 * w + 3;
    }
    acc += total;
  }
  *below = acc;                 /* not reached: k < n */
  return 255;
}

