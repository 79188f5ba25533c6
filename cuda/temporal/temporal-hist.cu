/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Temporal percentile of large windows by counting: a thread takes SPT
 * neighbouring samples of a row (1, or 4 read as one word a slot), counts
 * each one's n window samples into 256 bins and walks the bins to the
 * rank (counting sort and selection give the same sample).
 *
 *  - The bins are bytes (n <= 255), four a word, and a thread's words lie
 *    in its own shared-memory bank (word w of lane l at w * 32 + l): bins
 *    picked by the data never conflict between the lanes of a warp.
 *  - Four bins' total is one multiply ((c * 0x01010101) >> 24: no partial
 *    sum exceeds n), so the walk reads a word per four bins.
 *  - 16-bit samples: the high byte's bins first, the bin holding rank k
 *    found, then the low bytes of the samples in that bin counted for the
 *    rank left (two passes over the window, the second mostly from L2).
 *  - The current frame comes from src and goes to its ring slot; the other
 *    slots are read through the read-only path. */
#include "cm-cuda.h"
#include "temporal-bins.cuh"
#include "temporal-impl.cuh"
#include "temporal.h"

#define HIST_SAMPLES 256         /* a block's samples (SPT a thread) */
#define HIST_SMEM (HIST_SAMPLES * HIST_WORDS * 4)
#define BINS_STRIDE (HIST_WORDS * 32)   /* a warp's bins of one sample */

/* SPT samples as loaded: 8-bit or 16-bit, 1 or 4 */
template <int BPP, int SPT>
struct group
{
  uint32_t v[SPT];
};

/* @valid samples of src at p (any alignment of a sample), 0 past them */
template <int BPP, int SPT>
static __device__ __forceinline__ group<BPP, SPT>
load_src (const uint8_t * p, int valid)
{
  group<BPP, SPT> g;

  if (SPT == 4 && valid == 4 && ((uintptr_t) p & (4 * BPP - 1)) == 0) {
    if (BPP == 1) {
      const uint32_t w = *(const uint32_t *) p;

      for (int j = 0; j < SPT; j++)
        g.v[j] = (w >> (8 * j)) & 255;
    } else {
      const uint2 w = *(const uint2 *) p;

      g.v[0] = w.x & 0xffff;
      g.v[1 % SPT] = w.x >> 16;
      g.v[2 % SPT] = w.y & 0xffff;
      g.v[3 % SPT] = w.y >> 16;
    }
    return g;
  }
  for (int j = 0; j < SPT; j++)
    g.v[j] = j >= valid ? 0 : BPP == 1 ? p[j] : ((const uint16_t *) p)[j];
  return g;
}

/* A whole group of a ring row (aligned, inside its padded row), through
 * the read-only path; PREFETCH: with the hint that L2 fetch the 256 bytes
 * around it, which the block's other warps read next (a warp's loads are
 * 32 to 256 bytes: the hint keeps more bytes in flight from DRAM than the
 * loads themselves) */
template <int BPP, int SPT, bool PREFETCH>
static __device__ __forceinline__ group<BPP, SPT>
load_ring (const uint8_t * p)
{
  group<BPP, SPT> g;
  uint32_t a, b;

  if (SPT == 1) {
    if (!PREFETCH)
      g.v[0] = BPP == 1 ? (uint32_t) __ldg (p) :
          (uint32_t) __ldg ((const unsigned short *) p);
    else if (BPP == 1)
      asm ("ld.global.nc.L2::256B.u8 %0, [%1];":"=r" (g.v[0]):"l" (p));
    else
      asm ("ld.global.nc.L2::256B.u16 %0, [%1];":"=r" (g.v[0]):"l" (p));
    return g;
  }
  if (BPP == 1) {
    if (PREFETCH)
      asm ("ld.global.nc.L2::256B.u32 %0, [%1];":"=r" (a):"l" (p));
    else
      a = __ldg ((const unsigned int *) p);
    for (int j = 0; j < SPT; j++)
      g.v[j] = (a >> (8 * j)) & 255;
  } else {
    if (PREFETCH)
      asm ("ld.global.nc.L2::256B.v2.u32 {%0, %1}, [%2];":"=r" (a),
          "=r" (b):"l" (p));
    else {
      const uint2 w = __ldg ((const uint2 *) p);

      a = w.x;
      b = w.y;
    }
    g.v[0] = a & 0xffff;
    g.v[1 % SPT] = a >> 16;
    g.v[2 % SPT] = b & 0xffff;
    g.v[3 % SPT] = b >> 16;
  }
  return g;
}

template <int BPP, int SPT, bool LOW, bool ATOMIC>
static __device__ __forceinline__ void
bin_group (uint32_t * h, const group<BPP, SPT> & g, const uint32_t * high)
{
  for (int j = 0; j < SPT; j++)
    bin_sample<BPP, LOW, ATOMIC> (h + j * BINS_STRIDE, g.v[j], high[j]);
}

/* The window's samples counted into the thread's bins (cleared first):
 * @cur, and slots 0 .. n - 1 but pos of @ring (the thread's samples in
 * slot 0) */
template <int BPP, int SPT, bool LOW, bool PREFETCH, bool ATOMIC>
static __device__ __forceinline__ void
count_window (const temporal_args & t, const uint8_t * ring,
    const group<BPP, SPT> & cur, uint32_t * h, const uint32_t * high)
{
  for (int w = 0; w < SPT * HIST_WORDS; w++)
    h[w * 32] = 0;
  bin_group<BPP, SPT, LOW, ATOMIC> (h, cur, high);
#pragma unroll 16
  for (int s = 0; s < t.pos; s++)
    bin_group<BPP, SPT, LOW, ATOMIC> (h, load_ring<BPP, SPT, PREFETCH> (ring
            + (size_t) s * t.slot_bytes), high);
#pragma unroll 16
  for (int s = t.pos + 1; s < t.n; s++)
    bin_group<BPP, SPT, LOW, ATOMIC> (h, load_ring<BPP, SPT, PREFETCH> (ring
            + (size_t) s * t.slot_bytes), high);
}

template <int BPP, int SPT>
static __device__ __forceinline__ void
store_group (uint8_t * p, int valid, const uint32_t * v)
{
  for (int j = 0; j < SPT && j < valid; j++)
    if (BPP == 1)
      p[j] = (uint8_t) v[j];
    else
      ((uint16_t *) p)[j] = (uint16_t) v[j];
}

template <int BPP, int SPT, bool PREFETCH, bool ATOMIC>
__global__ void __launch_bounds__ (HIST_SAMPLES / SPT)
temporal_hist_kernel (temporal_args t)
{
  extern __shared__ uint32_t smem[];
  uint32_t *h = smem + (threadIdx.x >> 5) * (SPT * BINS_STRIDE) +
      (threadIdx.x & 31);
  const int x = SPT * (blockIdx.x * (HIST_SAMPLES / SPT) + threadIdx.x);
  const uint32_t none[SPT] = { 0 };
  int valid;

  if (x >= t.samples)
    return;
  valid = min (SPT, t.samples - x);
  for (int y = blockIdx.y; y < t.height; y += gridDim.y) {
    const uint8_t *ring = t.ring + (size_t) y * t.ring_pitch +
        (size_t) x * BPP;
    const group<BPP, SPT> cur = load_src<BPP, SPT> (t.src +
        (size_t) y * t.src_pitch + (size_t) x * BPP, valid);
    uint32_t bg[SPT], out[SPT];
    int below[SPT];

    /* the whole group: the ring's rows are padded */
    store_group<BPP, SPT> ((uint8_t *) ring + (size_t) t.pos * t.slot_bytes,
        SPT, cur.v);
    count_window<BPP, SPT, false, PREFETCH, ATOMIC> (t, ring, cur, h, none);
    for (int j = 0; j < SPT; j++)
      bg[j] = find_rank (h + j * BINS_STRIDE, t.k, &below[j]);
    if (BPP == 2) {
      count_window<BPP, SPT, true, PREFETCH, ATOMIC> (t, ring, cur, h, bg);
      for (int j = 0; j < SPT; j++)
        bg[j] = bg[j] << 8 | find_rank (h + j * BINS_STRIDE,
            t.k - below[j], &below[j]);
    }
    for (int j = 0; j < SPT; j++) {
      const uint32_t c = cur.v[j];

      out[j] = temporal_is_alpha (t, x + j) ? c : !t.diff ? bg[j] :
          c > bg[j] ? c - bg[j] : bg[j] - c;
    }
    store_group<BPP, SPT> (t.dst + (size_t) y * t.dst_pitch +
        (size_t) x * BPP, valid, out);
  }
}

/* The dynamic shared memory of a block: its bins, or more, so that only
 * @blocks blocks fit an SM (0: as many as the bins allow) */
static cudaError_t
block_smem (int blocks, int *bytes)
{
  int per_sm, per_block;
  cudaError_t e;

  *bytes = HIST_SMEM;
  if (blocks <= 0)
    return cudaSuccess;
  e = cm_device_attribute (cudaDevAttrMaxSharedMemoryPerMultiprocessor,
      &per_sm);
  if (e == cudaSuccess)
    e = cm_device_attribute (cudaDevAttrMaxSharedMemoryPerBlockOptin,
        &per_block);
  if (e != cudaSuccess)
    return e;
  /* 1 KB of each block's share is the system's */
  *bytes = per_sm / blocks - 1024;
  if (*bytes > per_block)
    *bytes = per_block;
  if (*bytes < HIST_SMEM)
    *bytes = HIST_SMEM;
  return cudaSuccess;
}

/* The kernel of @o launched with @smem bytes a block, or (@t NULL, when
 * the plan is made) allowed them: above the 48 KB a launch gets unasked */
template <int BPP, int SPT, bool PREFETCH, bool ATOMIC>
static cudaError_t
launch (const temporal_args * t, int smem, cudaStream_t stream)
{
  if (t == NULL)
    return cudaFuncSetAttribute (temporal_hist_kernel<BPP, SPT, PREFETCH,
        ATOMIC>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  const dim3 grid ((t->samples + HIST_SAMPLES - 1) / HIST_SAMPLES,
      t->height < 65535 ? t->height : 65535);

  temporal_hist_kernel<BPP, SPT, PREFETCH, ATOMIC> <<<grid,
      HIST_SAMPLES / SPT, smem, stream>>> (*t);
  return cudaGetLastError ();
}

template <int BPP, int SPT>
static cudaError_t
launch_spt (const temporal_args * t, const temporal_hist_opts & o, int smem,
    cudaStream_t stream)
{
  if (o.prefetch)
    return o.atomic ? launch<BPP, SPT, true, true> (t, smem, stream) :
        launch<BPP, SPT, true, false> (t, smem, stream);
  return o.atomic ? launch<BPP, SPT, false, true> (t, smem, stream) :
      launch<BPP, SPT, false, false> (t, smem, stream);
}

static cudaError_t
launch_opts (const temporal_args * t, int bpp, const temporal_hist_opts & o,
    int smem, cudaStream_t stream)
{
  if (bpp == 1)
    return o.quads ? launch_spt<1, 4> (t, o, smem, stream) :
        launch_spt<1, 1> (t, o, smem, stream);
  return o.quads ? launch_spt<2, 4> (t, o, smem, stream) :
      launch_spt<2, 1> (t, o, smem, stream);
}

cudaError_t
temporal_hist_prepare (int bpp, const temporal_hist_opts & o, int *smem)
{
  cudaError_t e = block_smem (o.blocks, smem);

  return e != cudaSuccess ? e : launch_opts (NULL, bpp, o, *smem, 0);
}

cudaError_t
temporal_hist_launch (const temporal_args & t, int bpp,
    const temporal_hist_opts & o, int smem, cudaStream_t stream)
{
  return launch_opts (&t, bpp, o, smem, stream);
}
