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
 *  - 16-bit samples: a run of their high bytes, then one of their low
 *    bytes. The high bytes are counted first (as 8-bit samples); then the
 *    low bytes of the samples in the bin found, a word of low bytes read
 *    only where the word of high bytes holds that bin (the high bytes
 *    read twice, the second time mostly from L2). A bin of a few samples
 *    (noise, a moving scene) has its low bytes ranked from a short list,
 *    without the 256 bins' clearing and walk; a fuller one (a still
 *    scene) counts them into the bins. */
#include "cm-cuda.h"
#include "temporal-bins.cuh"
#include "temporal-impl.cuh"
#include "temporal.h"

#define RUNS_THREADS 256
#define RUNS_SMEM (RUNS_THREADS * HIST_WORDS * 4)
#define RUN_LANES 32            /* samples whose words interleave */
#define WORD_STRIDE (RUN_LANES * 16)    /* a sample's next word */
#define LIST_MAX 16             /* 16-bit: low bytes ranked from a list */
#define RUN_BATCH 4             /* words loaded before they are counted */

/* Slot @s of the byte run whose first word is at @run */
static __device__ __forceinline__ uint8_t *
run_slot (const uint8_t * run, int s)
{
  return (uint8_t *) run + (s >> 4) * WORD_STRIDE + (s & 15);
}

/* Byte @i of a 16-byte word */
static __device__ __forceinline__ uint32_t
word_byte (const uint32_t w[4], int i)
{
  return (w[i >> 2] >> (8 * (i & 3))) & 255;
}

/* The first @count bytes of a 16-byte word into the bins */
static __device__ __forceinline__ void
bin_word (uint32_t * h, const uint4 & q, int count)
{
  const uint32_t w[4] = { q.x, q.y, q.z, q.w };

  for (int i = 0; i < 16; i++)
    if (i < count)
      bin_sample<1, false, false> (h, word_byte (w, i), 0);
}

/* Words @v0 .. @v0 + RUN_BATCH - 1 of the byte run @run (zeros past
 * @words) */
static __device__ __forceinline__ void
load_words (uint4 q[RUN_BATCH], const uint8_t * run, int v0, int words)
{
#pragma unroll
  for (int j = 0; j < RUN_BATCH; j++)
    q[j] = v0 + j < words ? *(const uint4 *) (run + (size_t) (v0 + j) *
        WORD_STRIDE) : make_uint4 (0, 0, 0, 0);
}

/* The window's bytes of one run (8-bit samples, or the high bytes of
 * 16-bit ones) counted into the bins (cleared first): slots 0 .. n - 1 as
 * they are, then slot @pos's byte replaced by @cur. @q: the run's first
 * RUN_BATCH words, loaded by the caller. Each batch's successor is loaded
 * before the batch is counted: a load behind the bins' shared-memory
 * stores would wait for them. */
static __device__ __forceinline__ void
count_run (const uint8_t * run, int n, int pos, uint32_t cur,
    uint4 q[RUN_BATCH], uint32_t * h)
{
  const int words = (n + 15) >> 4;
  const uint32_t stale = *run_slot (run, pos);

  for (int w = 0; w < HIST_WORDS; w++)
    h[w * 32] = 0;
  for (int v0 = 0; v0 < words; v0 += RUN_BATCH) {
    uint4 next[RUN_BATCH];

    load_words (next, run, v0 + RUN_BATCH, words);
#pragma unroll
    for (int j = 0; j < RUN_BATCH; j++) {
      const int left = n - 16 * (v0 + j);

      /* the same branch in every lane: n is the frame's */
      if (left >= 16)
        bin_word (h, q[j], 16);
      else if (left > 0)
        bin_word (h, q[j], left);
      q[j] = next[j];
    }
  }
  unbin_sample<1, false> (h, stale, 0);
  bin_sample<1, false, false> (h, cur, 0);
}

/* Bit i set where byte i of the 16-byte word @wh is @high */
static __device__ __forceinline__ uint32_t
byte_matches (const uint32_t wh[4], uint32_t high)
{
  const uint32_t pattern = high * 0x01010101u;
  uint32_t mask = 0;

  /* the bytes' low bits (0 or 1) gathered into bits 24..27 */
  for (int j = 0; j < 4; j++)
    mask |= (((__vcmpeq4 (wh[j], pattern) & 0x01010101u) * 0x01020408u)
        >> 24 & 15) << (4 * j);
  return mask;
}

/* The (r)-th smallest (0-based) of the @m bytes listed at @h */
static __device__ __forceinline__ uint32_t
list_rank (const uint32_t * h, int m, int r)
{
  for (int j = 0; j < m; j++) {
    const uint32_t v = h[(j >> 2) * 32] >> ((j & 3) * 8) & 255;
    int less = 0, same = 0;

    for (int i = 0; i < m; i++) {
      const uint32_t u = h[(i >> 2) * 32] >> ((i & 3) * 8) & 255;

      less += u < v;
      same += u == v;
    }
    if (less <= r && r < less + same)
      return v;
  }
  return 255;                   /* not reached: r < m */
}

/* One low byte @b of the bin into the list (@list) or the bins */
static __device__ __forceinline__ void
take_low (uint32_t * h, bool list, int *listed, uint32_t b)
{
  if (list) {
    h[(*listed >> 2) * 32] |= b << ((*listed & 3) * 8);
    (*listed)++;
  } else
    bin_sample<1, false, false> (h, b, 0);
}

/* The slots of word @v of a window of @n whose high byte is @high, slot
 * @pos left out (it holds an older sample: the current one is taken
 * apart); 0 past the window */
static __device__ __forceinline__ uint32_t
word_matches (const uint4 & q, int v, int n, int pos, uint32_t high)
{
  const uint32_t wh[4] = { q.x, q.y, q.z, q.w };
  uint32_t mask;

  if (16 * v >= n)
    return 0;
  mask = byte_matches (wh, high) & (0xffffu >> (16 - min (16, n - 16 * v)));
  return v == pos >> 4 ? mask & ~(1u << (pos & 15)) : mask;
}

/* The rank-@r low byte (run @lo) among the window's 16-bit samples whose
 * high byte (run @hi) is @high, @m of them, slot @pos holding @cur. A word
 * of low bytes is read only where its word of high bytes holds @high (one
 * word in a window of noise, all of them in a still scene); up to
 * LIST_MAX low bytes are listed at @h and ranked by counting, more are
 * counted into the bins. @q: the high bytes' first RUN_BATCH words,
 * loaded by the caller. A batch's loads (the low words its high words
 * call for, then the next batch's high words) all leave before any byte
 * is taken: a load after a shared-memory store waits for it, and each
 * taken byte's load would stand alone behind the last. */
static __device__ __forceinline__ uint32_t
low_rank (const uint8_t * hi, const uint8_t * lo, int n, int pos,
    uint32_t cur, uint32_t high, int m, int r, uint4 q[RUN_BATCH],
    uint32_t * h)
{
  const bool list = m <= LIST_MAX;
  const int words = (n + 15) >> 4;
  int listed = 0, below;

  for (int w = 0; w < (list ? LIST_MAX / 4 : HIST_WORDS); w++)
    h[w * 32] = 0;
  for (int v0 = 0; v0 < words; v0 += RUN_BATCH) {
    uint4 next[RUN_BATCH];
    uint32_t mask[RUN_BATCH];

#pragma unroll
    for (int j = 0; j < RUN_BATCH; j++) {
      mask[j] = word_matches (q[j], v0 + j, n, pos, high);
      q[j] = mask[j] ? *(const uint4 *) (lo + (size_t) (v0 + j) *
          WORD_STRIDE) : make_uint4 (0, 0, 0, 0);
    }
    load_words (next, hi, v0 + RUN_BATCH, words);
#pragma unroll
    for (int j = 0; j < RUN_BATCH; j++) {
      const uint32_t wl[4] = { q[j].x, q[j].y, q[j].z, q[j].w };

      for (uint32_t m_j = mask[j]; m_j; m_j &= m_j - 1)
        take_low (h, list, &listed, word_byte (wl, __ffs (m_j) - 1));
      q[j] = next[j];
    }
  }
  if ((cur >> 8) == high)
    take_low (h, list, &listed, cur & 255);
  return list ? list_rank (h, listed, r) : find_rank (h, r, &below);
}

/* The rank-k sample of the window of one sample (bins at @h); 16-bit: its
 * low bytes' run @plane bytes after the high bytes' */
template <int BPP>
static __device__ __forceinline__ uint32_t
run_rank (const uint8_t * run, size_t plane, int n, int pos, int k,
    uint32_t cur, uint32_t * h)
{
  const int words = (n + 15) >> 4;
  int below, m;
  uint32_t high;
  uint4 q[RUN_BATCH];

  /* the first words in flight before the bins are cleared */
  load_words (q, run, 0, words);
  if (BPP == 1) {
    count_run (run, n, pos, cur, q, h);
    return find_rank (h, k, &below);
  }
  count_run (run, n, pos, cur >> 8, q, h);
  /* the high bytes' first words again, in flight during the walk */
  load_words (q, run, 0, words);
  high = find_rank (h, k, &below);
  m = (int) (h[(high >> 2) * 32] >> ((high & 3) * 8) & 255);
  return high << 8 | low_rank (run, run + plane, n, pos, cur, high, m,
      k - below, q, h);
}

template <int BPP>
__global__ void __launch_bounds__ (RUNS_THREADS)
temporal_runs_kernel (temporal_args t)
{
  extern __shared__ uint32_t smem[];
  uint32_t *h = smem + (threadIdx.x >> 5) * (HIST_WORDS * 32) +
      (threadIdx.x & 31);
  const int x = blockIdx.x * RUNS_THREADS + threadIdx.x;
  /* the words of a byte run, times a word's stride */
  const size_t plane = t.run_bytes / BPP / 16 * WORD_STRIDE;

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
      const uint32_t bg = run_rank<BPP> (run, plane, t.n, t.pos, t.k, cur,
          h);

      out = !t.diff ? bg : cur > bg ? cur - bg : bg - cur;
    }
    /* after the reads of the runs */
    if (BPP == 1) {
      *run_slot (run, t.pos) = (uint8_t) cur;
      *d = (uint8_t) out;
    } else {
      *run_slot (run, t.pos) = (uint8_t) (cur >> 8);
      *run_slot (run + plane, t.pos) = (uint8_t) cur;
      *(uint16_t *) d = (uint16_t) out;
    }
  }
}

cudaError_t
temporal_runs_prepare (int bpp)
{
  /* 64 KB a block: above the 48 KB a launch gets unasked */
  return bpp == 1 ? cudaFuncSetAttribute (temporal_runs_kernel<1>,
      cudaFuncAttributeMaxDynamicSharedMemorySize, RUNS_SMEM) :
      cudaFuncSetAttribute (temporal_runs_kernel<2>,
      cudaFuncAttributeMaxDynamicSharedMemorySize, RUNS_SMEM);
}

cudaError_t
temporal_runs_launch (const temporal_args & t, int bpp, cudaStream_t stream)
{
  const dim3 grid ((t.samples + RUNS_THREADS - 1) / RUNS_THREADS,
      t.height < 65535 ? t.height : 65535);

  if (bpp == 1)
    temporal_runs_kernel<1> <<<grid, RUNS_THREADS, RUNS_SMEM, stream>>> (t);
  else
    temporal_runs_kernel<2> <<<grid, RUNS_THREADS, RUNS_SMEM, stream>>> (t);
  return cudaGetLastError ();
}
