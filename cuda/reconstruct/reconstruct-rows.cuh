/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/reconstruct/reconstruct.cu: a row sweep, both ways
 * along a whole row by warp scans of composed clamps (reconstruct.cu says
 * why a row is a scan), through a chunk staging or with the whole row in
 * the warp's shared memory. Included by reconstruct-sweeps.cuh, after its
 * arguments, warp reductions and dirty flags. */
#pragma once

/* The warp's scan of a chunk's clamps. Lane l holds (cl, ch), the
 * composite of the clamps [lo, hi] of its samples in scan order (the
 * identity [0, max] for none); carry is the value entering the chunk.
 * Returns the value entering lane l's first sample: carry through the
 * clamps of lanes 0 .. l - 1. Whole warp. */
template <typename T>
static __device__ __forceinline__ unsigned
clamp_scan (unsigned cl, unsigned ch, unsigned carry, int lane)
{
  const unsigned maxv = (T) ~0u;

  /* inclusive scan: lane l ends with the clamps of lanes 0..l composed */
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const unsigned pl = __shfl_up_sync (0xffffffffu, cl, off);
    const unsigned ph = __shfl_up_sync (0xffffffffu, ch, off);

    if (lane >= off) {
      const unsigned nl = clampu<T> (pl, cl, ch);
      const unsigned nh = clampu<T> (ph, cl, ch);
      cl = nl;
      ch = nh;
    }
  }
  /* exclusive: what lanes 0..l-1 do to the chunk's incoming value */
  unsigned el = __shfl_up_sync (0xffffffffu, cl, 1);
  unsigned eh = __shfl_up_sync (0xffffffffu, ch, 1);
  if (lane == 0) {
    el = 0;
    eh = maxv;
  }
  return clampu<T> (carry, el, eh);
}

/* [*l, *h] := [l, h] followed by [lo, hi] (clamps compose into clamps) */
template <typename T>
static __device__ __forceinline__ void
clamp_then (unsigned *l, unsigned *h, unsigned lo, unsigned hi)
{
  *l = clampu<T> (*l, lo, hi);
  *h = clampu<T> (*h, lo, hi);
}

/* A lane's ROW_PER_LANE samples of a chunk, clamps [lo[i], hi[i]] in scan
 * order: their composite, scanned over the warp from carry (clamp_scan),
 * then sample by sample; out[i]: the new value of sample i. Returns the
 * last one, what leaves the lane. Whole warp. The composite is a tree
 * and the samples go in ROW_RUNS runs side by side, each from its
 * run's entry value (the runs' composites applied in turn), so that the
 * chain a chunk waits on is short: a row's chunks follow one another. */
#define ROW_RUNS 4
#define ROW_RUN (ROW_PER_LANE / ROW_RUNS)
static_assert (ROW_RUN == 4, "a run's composite is a tree of depth 2");

template <typename T>
static __device__ __forceinline__ unsigned
lane_sweep (const unsigned *lo, const unsigned *hi, unsigned carry,
    int lane, unsigned *out)
{
  unsigned rl[ROW_RUNS], rh[ROW_RUNS];

  /* each run's composite: (c0 then c1) then (c2 then c3) */
#pragma unroll
  for (int k = 0; k < ROW_RUNS; k++) {
    const int i = k * ROW_RUN;
    unsigned al = lo[i], ah = hi[i], bl = lo[i + 2], bh = hi[i + 2];

    clamp_then<T> (&al, &ah, lo[i + 1], hi[i + 1]);
    clamp_then<T> (&bl, &bh, lo[i + 3], hi[i + 3]);
    clamp_then<T> (&al, &ah, bl, bh);
    rl[k] = al;
    rh[k] = ah;
  }
  /* the lane's: (r0 then r1) then (r2 then r3) */
  unsigned cl = rl[0], ch = rh[0], dl = rl[2], dh = rh[2];

  clamp_then<T> (&cl, &ch, rl[1], rh[1]);
  clamp_then<T> (&dl, &dh, rl[3], rh[3]);
  clamp_then<T> (&cl, &ch, dl, dh);
  /* the value entering each run, then the runs side by side */
  unsigned in[ROW_RUNS];

  in[0] = clamp_scan<T> (cl, ch, carry, lane);
#pragma unroll
  for (int k = 1; k < ROW_RUNS; k++)
    in[k] = clampu<T> (in[k - 1], rl[k - 1], rh[k - 1]);
#pragma unroll
  for (int k = 0; k < ROW_RUNS; k++) {
    unsigned v = in[k];

#pragma unroll
    for (int i = k * ROW_RUN; i < (k + 1) * ROW_RUN; i++) {
      v = clampu<T> (v, lo[i], hi[i]);
      out[i] = v;
    }
  }
  return out[ROW_PER_LANE - 1];
}

/* Row y in one direction (FORWARD: x grows; otherwise the same on
 * mirrored indices), a chunk of 32 * ROW_PER_LANE samples at a time: the
 * warp loads the chunk with coalesced accesses into its shared staging
 * (s_f, s_g), each lane then takes ROW_PER_LANE consecutive samples and
 * composes their clamps, the warp scans the composites, the value entering
 * the chunk comes from the previous one, and the changed samples go back
 * with coalesced stores. Returns TRUE in the lanes that changed one. */
#define ROW_CHUNK (32 * ROW_PER_LANE)
#define ROW_PAD(k) ((k) + ((k) >> 5)) /* one word in 33: no bank conflicts */
#define ROW_STAGE ROW_PAD (ROW_CHUNK)

template <typename T, bool EROSION, bool FORWARD>
static __device__ bool
row_sweep_dir (const recon_args & a, int y, int lane, unsigned *s_f,
    unsigned *s_g)
{
  const T *f = row_of<T> (a.f, a.fpitch, y);
  T *g = (T *) (a.g + (size_t) y * a.gpitch);
  const unsigned maxv = (T) ~0u;
  const int w = a.width;
  unsigned carry = 0;
  bool changed = false;

  for (int c0 = 0; c0 < w; c0 += ROW_CHUNK) {
#pragma unroll
    for (int j = 0; j < ROW_PER_LANE; j++) {
      const int k = c0 + j * 32 + lane;
      /* past the row: the identity clamp [0, max] */
      unsigned fv = maxv, gv = 0;

      if (k < w) {
        const int x = FORWARD ? k : w - 1 - k;

        fv = to_dil<T, EROSION> (__ldg (f + x));
        gv = to_dil<T, EROSION> (__ldcg (g + x));
      }
      s_f[ROW_PAD (j * 32 + lane)] = fv;
      s_g[ROW_PAD (j * 32 + lane)] = gv;
    }
    __syncwarp ();

    unsigned lo[ROW_PER_LANE], hi[ROW_PER_LANE], nv[ROW_PER_LANE];

#pragma unroll
    for (int i = 0; i < ROW_PER_LANE; i++) {
      const int k = ROW_PAD (lane * ROW_PER_LANE + i);

      hi[i] = s_f[k];
      lo[i] = min (s_g[k], hi[i]);
    }
    const unsigned v = lane_sweep<T> (lo, hi, carry, lane, nv);

#pragma unroll
    for (int i = 0; i < ROW_PER_LANE; i++)
      s_f[ROW_PAD (lane * ROW_PER_LANE + i)] = nv[i];   /* the new value */
    carry = __shfl_sync (0xffffffffu, v, 31);
    __syncwarp ();

    bool wrote = false;

#pragma unroll
    for (int j = 0; j < ROW_PER_LANE; j++) {
      const int k = c0 + j * 32 + lane;
      const unsigned nv = s_f[ROW_PAD (j * 32 + lane)];

      if (k < w && nv != s_g[ROW_PAD (j * 32 + lane)]) {
        g[FORWARD ? k : w - 1 - k] = to_dil<T, EROSION> ((T) nv);
        wrote = true;
      }
    }
    if (__any_sync (0xffffffffu, wrote)) {
      /* the chunk's columns, one more each side, in rows y - 1 .. y + 1:
       * their vertical neighbourhoods saw a new value (the row itself is
       * left stable along x by the two directions) */
      const int xa = FORWARD ? c0 : w - 1 - min (c0 + ROW_CHUNK - 1, w - 1);
      const int xb = FORWARD ? min (c0 + ROW_CHUNK - 1, w - 1) : w - 1 - c0;

      __threadfence ();
      mark_bands (a, (xa - 1) >> 5, (xb + 1) >> 5, y - 1, y + 1, lane);
      changed |= wrote;
    }
    __syncwarp ();              /* the staging is refilled next */
  }
  return changed;
}

/* One direction of the scan of a row in the warp's shared memory (s_f,
 * s_g: the mask and the marker, s_o: the marker as loaded; @nchunks
 * chunks of ROW_CHUNK samples), from chunk @from through chunk @must at
 * least, then on while the sample leaving a chunk changed. Returns the
 * last chunk scanned. Whole warp. */
template <typename T, bool FORWARD>
static __device__ int
scan_row_shared (const T * s_f, T * s_g, const T * s_o, int nchunks,
    int from, int must, int lane)
{
  /* what enters chunk @from: the sample before it, as it is (the row was
   * settled there) */
  unsigned carry = 0;
  int c = from;

  if (FORWARD && from > 0)
    carry = s_g[from * ROW_CHUNK - 1];
  if (!FORWARD && from < nchunks - 1)
    carry = s_g[(from + 1) * ROW_CHUNK];
  for (;; c += FORWARD ? 1 : -1) {
    const int c0 = c * ROW_CHUNK;
    const int seg = c0 + (FORWARD ? lane : 31 - lane) * ROW_PER_LANE;
    union
    {
      uint4 q[sizeof (T)];
      T v[ROW_PER_LANE];
    } F, G;
    unsigned lo[ROW_PER_LANE], hi[ROW_PER_LANE], nv[ROW_PER_LANE];

#pragma unroll
    for (int q = 0; q < (int) sizeof (T); q++) {
      F.q[q] = ((const uint4 *) (s_f + seg))[q];
      G.q[q] = ((const uint4 *) (s_g + seg))[q];
    }
#pragma unroll
    for (int i = 0; i < ROW_PER_LANE; i++) {
      const int j = FORWARD ? i : ROW_PER_LANE - 1 - i;

      hi[i] = F.v[j];
      lo[i] = min ((unsigned) G.v[j], hi[i]);
    }
    const unsigned v = lane_sweep<T> (lo, hi, carry, lane, nv);

#pragma unroll
    for (int i = 0; i < ROW_PER_LANE; i++)
      G.v[FORWARD ? i : ROW_PER_LANE - 1 - i] = (T) nv[i];
#pragma unroll
    for (int q = 0; q < (int) sizeof (T); q++)
      ((uint4 *) (s_g + seg))[q] = G.q[q];
    carry = __shfl_sync (0xffffffffu, v, 31);
    if (c == (FORWARD ? nchunks - 1 : 0))
      break;
    /* past the marked chunks, on only while the sample leaving this one
     * changed (the next chunk saw the same value at its last sweep) */
    if ((FORWARD ? c >= must : c <= must) &&
        carry == s_o[FORWARD ? c0 + ROW_CHUNK - 1 : c0])
      break;
  }
  return c;
}

/* ---- a whole row in shared memory ----------------------------------------
 * Loaded and written back 16 bytes a lane where the rows start on 16
 * bytes (a warp then moves 512 bytes an instruction; a sample a lane kept
 * 32 bytes an instruction, and a 4K row took 30 batches of loads, one
 * after another), a sample a lane otherwise. */
#define ROW_VEC_BYTES 16
#define ROW_VEC_BATCH 2         /* vectors a lane loads before storing */

static __device__ __forceinline__ bool
vec_aligned (const void *p)
{
  return ((uintptr_t) p & (ROW_VEC_BYTES - 1)) == 0;
}

static __device__ __forceinline__ uint4
flip4 (uint4 v, unsigned flip)
{
  return make_uint4 (v.x ^ flip, v.y ^ flip, v.z ^ flip, v.w ^ flip);
}

/* Row (f, g) of width @w into s_f, s_g and s_o (a copy of s_g) in the
 * "by dilation" orientation, @padded samples each, those past the row
 * the identity clamp [0, max] (s_f max, s_g 0). Whole warp. */
template <typename T, bool EROSION>
static __device__ __forceinline__ void
row_load_shared (const T * f, const T * g, int w, int padded, T * s_f,
    T * s_g, T * s_o, int lane)
{
  const unsigned flip = EROSION ? ~0u : 0u;
  const int per = ROW_VEC_BYTES / sizeof (T);

  if (!vec_aligned (f) || !vec_aligned (g)) {
#pragma unroll 8
    for (int k = lane; k < padded; k += 32) {
      T fv = (T) ~0u, gv = 0;   /* past the row: the identity clamp */

      if (k < w) {
        fv = (T) to_dil<T, EROSION> (__ldg (f + k));
        gv = (T) to_dil<T, EROSION> (__ldcg (g + k));
      }
      s_f[k] = fv;
      s_g[k] = gv;
      s_o[k] = gv;
    }
    return;
  }

  const int whole = w / per;    /* vectors inside the row */
  const uint4 *f4 = (const uint4 *) f, *g4 = (const uint4 *) g;
  uint4 *sf4 = (uint4 *) s_f, *sg4 = (uint4 *) s_g, *so4 = (uint4 *) s_o;

  /* a batch of loads in flight, unconditional (their index clamped into
   * the row), then the stores of those inside it */
  for (int q0 = 0; q0 < whole; q0 += 32 * ROW_VEC_BATCH) {
    uint4 fv[ROW_VEC_BATCH], gv[ROW_VEC_BATCH];

#pragma unroll
    for (int u = 0; u < ROW_VEC_BATCH; u++) {
      const int q = min (q0 + u * 32 + lane, whole - 1);

      fv[u] = __ldg (f4 + q);
      gv[u] = __ldcg (g4 + q);
    }
#pragma unroll
    for (int u = 0; u < ROW_VEC_BATCH; u++) {
      const int q = q0 + u * 32 + lane;

      if (q < whole) {
        sf4[q] = flip4 (fv[u], flip);
        sg4[q] = flip4 (gv[u], flip);
        so4[q] = sg4[q];
      }
    }
  }
  /* past the whole vectors: the identity, then the row's last samples */
  for (int q = whole + lane; q < padded / per; q += 32) {
    sf4[q] = make_uint4 (~0u, ~0u, ~0u, ~0u);
    sg4[q] = make_uint4 (0u, 0u, 0u, 0u);
    so4[q] = sg4[q];
  }
  __syncwarp ();
  for (int k = whole * per + lane; k < w; k += 32) {
    s_f[k] = (T) to_dil<T, EROSION> (__ldg (f + k));
    s_g[k] = (T) to_dil<T, EROSION> (__ldcg (g + k));
    s_o[k] = s_g[k];
  }
}

/* The samples of [from, to) (from a multiple of ROW_VEC_BYTES / sizeof
 * (T)) where s_g differs from s_o, written to g (back in the sample's
 * orientation); *@first and *@last take columns at or before the first
 * and at or after the last written (a 4-byte word's). A word whose
 * samples all changed goes back whole, the others sample by sample: a
 * store of a sample that did not change could undo what another sweep
 * wrote there meanwhile. Whole warp. */
template <typename T, bool EROSION>
static __device__ __forceinline__ void
row_store_changed (T * g, const T * s_g, const T * s_o, int from, int to,
    int lane, int *first, int *last)
{
  const unsigned flip = EROSION ? ~0u : 0u;
  const int per = ROW_VEC_BYTES / sizeof (T);
  const int in_word = 4 / sizeof (T);

  if (!vec_aligned (g)) {
#pragma unroll 8
    for (int k = from + lane; k < to; k += 32) {
      const T nv = s_g[k];

      if (nv != s_o[k]) {
        g[k] = (T) to_dil<T, EROSION> (nv);
        *first = min (*first, k);
        *last = max (*last, k);
      }
    }
    return;
  }
  for (int q = from / per + lane; q * per < to; q += 32) {
    const uint4 n4 = ((const uint4 *) s_g)[q], o4 = ((const uint4 *) s_o)[q];
    const unsigned n[4] = { n4.x, n4.y, n4.z, n4.w };
    const unsigned d[4] = { n4.x ^ o4.x, n4.y ^ o4.y, n4.z ^ o4.z,
      n4.w ^ o4.w
    };

    if (!(d[0] | d[1] | d[2] | d[3]))
      continue;
#pragma unroll
    for (int j = 0; j < 4; j++) {
      const int k0 = q * per + j * in_word;
      /* every sample of the word changed (and lies in the row) */
      const bool all = k0 + in_word <= to && (sizeof (T) == 1 ?
          __vcmpeq4 (d[j], 0u) == 0 : __vcmpeq2 (d[j], 0u) == 0);

      if (!d[j])
        continue;
      if (all) {
        *(unsigned *) (g + k0) = n[j] ^ flip;
      } else {
#pragma unroll
        for (int i = 0; i < in_word; i++) {
          const unsigned sh = 8 * sizeof (T) * i;

          if (k0 + i < to && (d[j] >> sh & (T) ~0u))
            g[k0 + i] = (T) ((n[j] ^ flip) >> sh);
        }
      }
      *first = min (*first, k0);
      *last = max (*last, min (k0 + in_word, to) - 1);
    }
  }
}

/* Row y with the whole row in the warp's shared memory (s_f, s_g, s_o:
 * @padded samples each, a multiple of ROW_CHUNK, the samples past the row
 * being the identity clamp): one coalesced load of the row, both
 * directions of the scan out of shared memory (no global round trip
 * between chunks or directions), one coalesced write of what changed.
 * @marked: bit c, chunk c may be unsettled (a walk wrote in it or at its
 * edge since the last sweep); the rest of the row was settled then, so
 * the scans start and end at marked chunks and go further only while
 * what they carry changes. Returns TRUE in every lane when a sample
 * changed. Not inlined: the kernel's registers are then allotted to the
 * walks and the row apart (inlined, the 16-bit 8-connected kernel
 * spilled). */
template <typename T, bool EROSION>
static __device__ __noinline__ bool
row_sweep_shared (const recon_args & a, int y, unsigned marked, int lane,
    T * s_f, T * s_g, T * s_o, int padded)
{
  const T *f = row_of<T> (a.f, a.fpitch, y);
  T *g = (T *) (a.g + (size_t) y * a.gpitch);
  const int w = a.width;
  int first = w, last = -1;     /* the columns written */

  row_load_shared<T, EROSION> (f, g, w, padded, s_f, s_g, s_o, lane);
  __syncwarp ();
  /* forward from the first marked chunk through the last, back from
   * there (or from where the forward scan stopped) through the first */
  const int nchunks = padded / ROW_CHUNK;
  const int lo = min (__ffs (marked) - 1, nchunks - 1);
  const int hi = min (31 - __clz (marked), nchunks - 1);
  const int fe = scan_row_shared<T, true> (s_f, s_g, s_o, nchunks, lo, hi,
      lane);
  __syncwarp ();
  const int top = max (hi, fe);
  const int be = scan_row_shared<T, false> (s_f, s_g, s_o, nchunks, top, lo,
      lane);
  __syncwarp ();
  row_store_changed<T, EROSION> (g, s_g, s_o, be * ROW_CHUNK,
      min (w, (top + 1) * ROW_CHUNK), lane, &first, &last);
  first = warp_min (first);
  last = warp_max (last);
  if (last < 0)
    return false;
  /* the written columns, one more each side, in rows y - 1 .. y + 1:
   * their vertical neighbourhoods saw a new value (the row itself is left
   * stable along x by the two directions) */
  __threadfence ();
  mark_bands (a, (first - 1) >> 5, (last + 1) >> 5, y - 1, y + 1, lane);
  return true;
}
