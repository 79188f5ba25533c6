/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Temporal percentile of large windows by counting: a thread takes one
 * sample of a row, counts the window's n samples into 256 bins and walks
 * the bins to the rank (counting sort and selection give the same sample).
 *
 *  - The bins are bytes (n <= 255), four a word, and a thread's 64 words
 *    lie in its own shared-memory bank (word w of lane l at w * 32 + l):
 *    data-dependent bins never conflict between the lanes of a warp.
 *  - Four bins' total is one multiply ((c * 0x01010101) >> 24: no partial
 *    sum exceeds n), so the walk reads a word per four bins.
 *  - 16-bit samples: the high byte's bins first, the bin holding rank k
 *    found, then the low bytes of the samples in that bin counted for the
 *    rank left (two passes over the window, the second mostly from L2).
 *  - The current frame comes from src and goes to its ring slot; the other
 *    slots are read through the read-only path. */
#include "temporal-impl.cuh"
#include "temporal.h"

#define HIST_THREADS 256
#define HIST_WORDS 64           /* 256 byte-wide bins */
#define HIST_SMEM (HIST_THREADS * HIST_WORDS * 4)

template <int BPP>
static __device__ __forceinline__ uint32_t
load_sample (const uint8_t * p)
{
  return BPP == 1 ? *p : *(const uint16_t *) p;
}

/* A ring sample through the read-only path; PREFETCH: with the hint that
 * L2 fetch the 256 bytes around it, which the block's other warps read
 * next (a warp's loads are 32 or 64 bytes: the hint keeps more bytes in
 * flight from DRAM than the loads themselves) */
template <int BPP, bool PREFETCH>
static __device__ __forceinline__ uint32_t
load_ring_sample (const uint8_t * p)
{
  uint32_t v;

  if (!PREFETCH)
    return BPP == 1 ? (uint32_t) __ldg (p) :
        (uint32_t) __ldg ((const unsigned short *) p);
  if (BPP == 1)
    asm ("ld.global.nc.L2::256B.u8 %0, [%1];":"=r" (v):"l" (p));
  else
    asm ("ld.global.nc.L2::256B.u16 %0, [%1];":"=r" (v):"l" (p));
  return v;
}

/* One sample into the bins: 8-bit samples and the high byte of 16-bit
 * ones (LOW false), or the low byte of the 16-bit samples whose high byte
 * is @high (LOW true) */
template <int BPP, bool LOW>
static __device__ __forceinline__ void
bin_sample (uint32_t * h, uint32_t v, uint32_t high)
{
  uint32_t bin;

  if (LOW) {
    if ((v >> 8) != high)
      return;
    bin = v & 255;
  } else
    bin = BPP == 1 ? v : v >> 8;
  h[(bin >> 2) * 32] += 1u << ((bin & 3) * 8);
}

/* The window's samples counted into the thread's bins (cleared first):
 * @cur, and slots 0 .. n - 1 but pos of @ring (the thread's sample in
 * slot 0) */
template <int BPP, bool LOW, bool PREFETCH>
static __device__ __forceinline__ void
count_window (const temporal_args & t, const uint8_t * ring, uint32_t cur,
    uint32_t * h, uint32_t high)
{
  for (int w = 0; w < HIST_WORDS; w++)
    h[w * 32] = 0;
  bin_sample<BPP, LOW> (h, cur, high);
#pragma unroll 16
  for (int s = 0; s < t.pos; s++)
    bin_sample<BPP, LOW> (h, load_ring_sample<BPP, PREFETCH> (ring +
            (size_t) s * t.slot_bytes), high);
#pragma unroll 16
  for (int s = t.pos + 1; s < t.n; s++)
    bin_sample<BPP, LOW> (h, load_ring_sample<BPP, PREFETCH> (ring +
            (size_t) s * t.slot_bytes), high);
}

/* The bin of rank k (0-based) in the thread's bins; *below: the samples
 * in the bins before it */
static __device__ __forceinline__ uint32_t
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

template <int BPP, bool PREFETCH>
__global__ void __launch_bounds__ (HIST_THREADS)
temporal_hist_kernel (temporal_args t)
{
  extern __shared__ uint32_t smem[];
  uint32_t *h = smem + (threadIdx.x >> 5) * (HIST_WORDS * 32) +
      (threadIdx.x & 31);
  const int x = blockIdx.x * HIST_THREADS + threadIdx.x;

  if (x >= t.samples)
    return;
  for (int y = blockIdx.y; y < t.height; y += gridDim.y) {
    const uint8_t *ring = t.ring + (size_t) y * t.ring_pitch +
        (size_t) x * BPP;
    const uint32_t cur = load_sample<BPP> (t.src + (size_t) y * t.src_pitch +
        (size_t) x * BPP);
    uint32_t out = cur;
    int below;

    if (BPP == 1)
      *((uint8_t *) ring + (size_t) t.pos * t.slot_bytes) = (uint8_t) cur;
    else
      *(uint16_t *) ((uint8_t *) ring + (size_t) t.pos * t.slot_bytes) =
          (uint16_t) cur;
    if (!temporal_is_alpha (t, x)) {
      uint32_t bg;

      count_window<BPP, false, PREFETCH> (t, ring, cur, h, 0);
      bg = find_rank (h, t.k, &below);
      if (BPP == 2) {
        const uint32_t high = bg;

        count_window<BPP, true, PREFETCH> (t, ring, cur, h, high);
        bg = high << 8 | find_rank (h, t.k - below, &below);
      }
      out = !t.diff ? bg : cur > bg ? cur - bg : bg - cur;
    }
    if (BPP == 1)
      t.dst[(size_t) y * t.dst_pitch + x] = (uint8_t) out;
    else
      *(uint16_t *) (t.dst + (size_t) y * t.dst_pitch + 2 * (size_t) x) =
          (uint16_t) out;
  }
}

template <int BPP, bool PREFETCH>
static cudaError_t
launch (const temporal_args & t, cudaStream_t stream)
{
  const dim3 grid ((t.samples + HIST_THREADS - 1) / HIST_THREADS,
      t.height < 65535 ? t.height : 65535);
  /* 64 KB a block: above the 48 KB a launch gets unasked */
  cudaError_t e = cudaFuncSetAttribute (temporal_hist_kernel<BPP, PREFETCH>,
      cudaFuncAttributeMaxDynamicSharedMemorySize, HIST_SMEM);

  if (e != cudaSuccess)
    return e;
  temporal_hist_kernel<BPP, PREFETCH> <<<grid, HIST_THREADS, HIST_SMEM,
      stream>>> (t);
  return cudaGetLastError ();
}

cudaError_t
temporal_hist_launch (const temporal_args & t, int bpp, int prefetch,
    cudaStream_t stream)
{
  if (bpp == 1)
    return prefetch ? launch<1, true> (t, stream) : launch<1, false> (t,
        stream);
  return prefetch ? launch<2, true> (t, stream) : launch<2, false> (t,
      stream);
}
