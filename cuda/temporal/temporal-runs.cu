/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Temporal percentile of large windows on a ring laid out by sample: the
 * `frames` slots of one sample side by side (its "run", rounded up to 16
 * bytes), cut into 16-byte words, and the words of 32 neighbouring
 * samples interleaved (word v of sample x at group x / 32, offset
 * (v * 32 + x % 32) * 16): a warp's load of a word is 512 contiguous
 * bytes, and a warp reads its 32 windows as one stretch of memory.
 * Slot-major rings make each thread read n scattered samples, a warp 32
 * bytes a slot from n places 8 MB apart: with 255 frames that ran at a
 * third of the memory's bandwidth (docs/design.md, "Temporal
 * percentile"); whole runs a thread (a 16-byte word from each of 32 runs
 * 256 bytes apart) would take 32 L1 wavefronts a load.
 *
 *  - The window is counted into the thread's 256 byte-wide bins
 *    (temporal-bins.cuh) as it is in memory, the current frame's slot
 *    holding an older sample: that one is taken out again and the
 *    current sample put in; the slot is written after the reads.
 *  - 16-bit samples: the high bytes first, then the low bytes of the
 *    samples in the bin found (the run read twice, the second time from
 *    L1 or L2). */
#include "cm-cuda.h"
#include "temporal-bins.cuh"
#include "temporal-impl.cuh"
#include "temporal.h"

#define RUNS_THREADS 256
#define RUNS_SMEM (RUNS_THREADS * HIST_WORDS * 4)
#define RUN_LANES 32            /* samples whose words interleave */
#define WORD_STRIDE (RUN_LANES * 16)    /* a sample's next word */

/* Slot @s of the run whose first word is at @run */
template <int BPP>
static __host__ __device__ __forceinline__ uint8_t *
run_slot (const uint8_t * run, int s)
{
  return (uint8_t *) run + ((s * BPP) >> 4) * WORD_STRIDE + ((s * BPP) & 15);
}

/* The first @count samples of a 16-byte word into the bins */
template <int BPP, bool LOW>
static __host__ __device__ __forceinline__ void
bin_word (uint32_t * h, const uint4 & q, int count, uint32_t high)
{
  const uint32_t w[4] = { q.x, q.y, q.z, q.w };
  const uint32_t mask = BPP == 1 ? 0xffu : 0xffffu;

  for (int i = 0; i < 16 / BPP; i++)
    if (i < count)
      bin_sample<BPP, LOW, false> (h, (w[i * BPP / 4] >> (8 * BPP *
                  (i % (4 / BPP)))) & mask, high);
}

/* The window of one sample counted into its bins (cleared first): slots
 * 0 .. n - 1 of @run as they are, then slot @pos's sample replaced by
 * @cur */
template <int BPP, bool LOW>
static __host__ __device__ __forceinline__ void
count_run (const uint8_t * run, int n, int pos, uint32_t cur, uint32_t * h,
    uint32_t high)
{
  const int per_word = 16 / BPP, full = n / per_word;
  const uint8_t *sp = run_slot<BPP> (run, pos);
  const uint32_t stale = BPP == 1 ? *sp : *(const uint16_t *) sp;

  for (int w = 0; w < HIST_WORDS; w++)
    h[w * 32] = 0;
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
  for (int v = 0; v < full; v++)
    bin_word<BPP, LOW> (h, *(const uint4 *) (run + (size_t) v * WORD_STRIDE),
        per_word, high);
  if (n % per_word)
    bin_word<BPP, LOW> (h, *(const uint4 *) (run + (size_t) full *
            WORD_STRIDE), n % per_word, high);
  unbin_sample<BPP, LOW> (h, stale, high);
  bin_sample<BPP, LOW, false> (h, cur, high);
}

/* The rank-k sample of the window of one sample (bins at @h) */
template <int BPP>
static __host__ __device__ __forceinline__ uint32_t
run_rank (const uint8_t * run, int n, int pos, int k, uint32_t cur,
    uint32_t * h)
{
  int below;
  uint32_t bg;

  count_run<BPP, false> (run, n, pos, cur, h, 0);
  bg = find_rank (h, k, &below);
  if (BPP == 2) {
    const uint32_t high = bg;

    count_run<BPP, true> (run, n, pos, cur, h, high);
    bg = high << 8 | find_rank (h, k - below, &below);
  }
  return bg;
}

template <int BPP>
__global__ void __launch_bounds__ (RUNS_THREADS)
temporal_runs_kernel (temporal_args t)
{
  extern __shared__ uint32_t smem[];
  uint32_t *h = smem + (threadIdx.x >> 5) * (HIST_WORDS * 32) +
      (threadIdx.x & 31);
  const int x = blockIdx.x * RUNS_THREADS + threadIdx.x;

  if (x >= t.samples)
    return;
  for (int y = blockIdx.y; y < t.height; y += gridDim.y) {
    uint8_t *run = t.ring + (size_t) y * t.ring_pitch +
        (size_t) (x / RUN_LANES) * RUN_LANES * t.run_bytes +
        (size_t) (x % RUN_LANES) * 16;
    const uint8_t *s = t.src + (size_t) y * t.src_pitch + (size_t) x * BPP;
    uint8_t *d = t.dst + (size_t) y * t.dst_pitch + (size_t) x * BPP;
    const uint32_t cur = BPP == 1 ? *s : *(const uint16_t *) s;
    uint32_t out = cur;

    if (!temporal_is_alpha (t, x)) {
      const uint32_t bg = run_rank<BPP> (run, t.n, t.pos, t.k, cur, h);

      out = !t.diff ? bg : cur > bg ? cur - bg : bg - cur;
    }
    /* after the reads of the run */
    if (BPP == 1) {
      *run_slot<BPP> (run, t.pos) = (uint8_t) cur;
      *d = (uint8_t) out;
    } else {
      *(uint16_t *) run_slot<BPP> (run, t.pos) = (uint16_t) cur;
      *(uint16_t *) d = (uint16_t) out;
    }
  }
}

cudaError_t
temporal_runs_launch (const temporal_args & t, int bpp, cudaStream_t stream)
{
  const dim3 grid ((t.samples + RUNS_THREADS - 1) / RUNS_THREADS,
      t.height < 65535 ? t.height : 65535);
  cudaError_t e;

  /* 64 KB a block: above the 48 KB a launch gets unasked */
  if (bpp == 1) {
    e = cudaFuncSetAttribute (temporal_runs_kernel<1>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, RUNS_SMEM);
    if (e == cudaSuccess)
      temporal_runs_kernel<1> <<<grid, RUNS_THREADS, RUNS_SMEM, stream>>> (t);
  } else {
    e = cudaFuncSetAttribute (temporal_runs_kernel<2>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, RUNS_SMEM);
    if (e == cudaSuccess)
      temporal_runs_kernel<2> <<<grid, RUNS_THREADS, RUNS_SMEM, stream>>> (t);
  }
  return e != cudaSuccess ? e : cudaGetLastError ();
}
