/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The planner of the runs pass (host only): the run axis, the kept table
 * levels and the tiling of an SE by a cost estimate, and the lookup list
 * (morph-runs.cu describes the algorithm). No CUDA calls: it works from
 * the device limits it is given. */
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "morph-runs.cuh"

namespace cm_runs
{

namespace
{

/* Runs of one axis as a histogram of lengths. */
struct runs_axis
{
  cm_se_run *runs;
  int count;
  int maxlen;
  long *hist;                   /* [maxlen + 1] */
};

int
runs_floordiv (int a, int b)
{
  int q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int
runs_ilog2 (unsigned v)
{
  int r = -1;
  while (v) {
    v >>= 1;
    r++;
  }
  return r;
}

/* Highest kept level q with 2^q <= len. */
int
runs_level_for (unsigned smask, int len)
{
  int p = runs_ilog2 ((unsigned) len);
  unsigned m = smask & ((2u << p) - 1u);
  return runs_ilog2 (m);
}

long
runs_count_lookups (const runs_axis * ax, unsigned smask)
{
  long total = 0;
  for (int len = 1; len <= ax->maxlen; len++) {
    if (!ax->hist[len])
      continue;
    int q = runs_level_for (smask, len);
    total += ax->hist[len] * (long) ((len + (1 << q) - 1) >> q);
  }
  return total;
}

/* Slot of each level 0..kmax. In place (shared): a level not kept lives
 * in the slot of the next kept level above it. Otherwise (global): kept
 * levels have their own slots and the others alternate between two
 * temporaries. Returns the slot count. */
int
runs_assign_slots (unsigned smask, int kmax, int inplace,
    unsigned long long *slots)
{
  int slot_of[RUNS_MAX_LEVELS];
  int n = 0;
  for (int k = 0; k <= kmax; k++)
    if (smask & (1u << k))
      slot_of[k] = n++;
  if (inplace) {
    for (int k = kmax - 1; k >= 0; k--)
      if (!(smask & (1u << k)))
        slot_of[k] = slot_of[k + 1];
  } else {
    int tmp[2] = { -1, -1 }, t = 0;
    for (int k = 0; k <= kmax; k++) {
      if (smask & (1u << k))
        continue;
      if (tmp[t] < 0)
        tmp[t] = n++;
      slot_of[k] = tmp[t];
      t ^= 1;
    }
  }
  *slots = 0;
  for (int k = 0; k <= kmax; k++)
    *slots |= (unsigned long long) (slot_of[k] & 15) << (4 * k);
  return n;
}

/* What the geometries of both paths start from: the image, the axis, the
 * SE's lowest dy and its lowest dx rounded down to a word */
void
runs_geom_init (runs_geom * g, int bps, int width, int height,
    const int bounds[4], int axis)
{
  const int P = 4 / bps;
  memset (g, 0, sizeof (*g));
  g->width = width;
  g->height = height;
  g->axis = axis;
  g->min_dy = bounds[2];
  g->mdxp = runs_floordiv (bounds[0], P) * P;
}

/* Shared-path geometry for a tiling; false when it does not fit. */
bool
runs_shared_geom (runs_geom * g, int bps, int width, int height,
    const int bounds[4], int axis, unsigned smask, int lx_shift,
    int nwarps, int v, long nlut, int budget, size_t *smem)
{
  const int P = 4 / bps;
  int lanes_x = 1 << lx_shift;
  runs_geom_init (g, bps, width, height, bounds, axis);
  g->tw = lanes_x * RUNS_NG * P;
  g->th = (32 >> lx_shift) * nwarps * v;
  g->v = v;
  g->rw = g->tw + bounds[1] - g->mdxp;
  g->rh = g->th + bounds[3] - bounds[2];
  g->nwr = (g->rw + P - 1) / P;
  g->lx_shift = lx_shift;
  if (g->nwr > 32 * RUNS_MMAX || (height + g->th - 1) / g->th > 65535)
    return false;
  /* Bank-conflict-free gather: with the warp spread over 32 / lanes_x
   * row groups, v * pitch_w must equal lanes_x * RUNS_NG modulo 32
   * banks (then lane L reads bank RUNS_NG * L + const). */
  int pitch = g->nwr + 1;
  if (lanes_x < 32) {
    int mod = 32 / v;
    int t = (lanes_x * RUNS_NG / v) % mod;
    pitch += ((t - pitch) % mod + mod) % mod;
  }
  g->pitch_w = pitch;
  g->kmax = runs_ilog2 (smask);
  g->nslots = runs_assign_slots (smask, g->kmax, 1, &g->slots);
  long slot_w = (long) g->rh * pitch;
  long lut_off = ((long) g->nslots * slot_w + 1) & ~1L;
  long bytes = lut_off * 4 + nlut * 8;
  if (bytes > budget)
    return false;
  g->slot_w = (int) slot_w;
  g->lut_off = (int) lut_off;
  g->nlut = (int) nlut;
  *smem = (size_t) bytes;
  return true;
}

/* Estimated time of the shared path in SM cycles (rough issue counts). */
double
runs_shared_cost (const runs_geom * g, int bps, int nwarps, long nlut,
    size_t smem, const runs_devinfo * dev)
{
  const int threads = 32 * nwarps;
  double c_load = (double) g->rh * ((g->nwr + 31) / 32) * 32 * 12.0;
  double c_build = 0;
  for (int k = 0; k < g->kmax; k++) {
    runs_level lv = bps == 1 ? runs_level_of<uint8_t> (*g, k)
        : runs_level_of<uint16_t> (*g, k);
    double ops = bps == 1 && !dev->paired8 ? 11.0 : 9.0;
    c_build += (double) lv.rows * ((lv.words + 31) / 32) * 32 * ops;
    if (runs_slot (*g, k) == runs_slot (*g, k + 1))
      c_build += (double) ((lv.rows + nwarps - 1) / nwarps) * threads * 8;
  }
  /* per output word and lookup: (NG + 1) / NG loads + permutes + min */
  double alu = bps == 2 ? 2.0 : (dev->paired8 ? 4.0 : 7.0);
  double per_word = (RUNS_NG + 1.0) / RUNS_NG + alu + 1.0 / RUNS_NG;
  double c_gather = (double) threads * g->v * RUNS_NG * nlut * per_word;
  double c_block = c_load + c_build + c_gather + threads * 60.0 + nlut;

  long bx = (g->width + g->tw - 1) / g->tw;
  long by = (g->height + g->th - 1) / g->th;
  long blocks = bx * by;
  int bps_sm = (int) (dev->smem_sm / (smem + 1024));
  int by_threads = dev->threads_sm / threads;
  int by_regs = 65536 / (64 * threads);
  if (by_threads < bps_sm)
    bps_sm = by_threads;
  if (by_regs < bps_sm)
    bps_sm = by_regs;
  if (bps_sm > 32)
    bps_sm = 32;
  if (bps_sm < 1)
    return HUGE_VAL;
  long per_sm = (blocks + dev->sms - 1) / dev->sms;
  int conc = per_sm < bps_sm ? (int) per_sm : bps_sm;
  double waves = (double) ((per_sm + bps_sm - 1) / bps_sm);
  double warps = (double) conc * nwarps;
  double eff = warps >= 16 ? 1.0 : 0.35 + 0.65 * warps / 16.0;
  return waves * conc * c_block / (128.0 * eff);
}

/* Global-path geometry: the padded image; false when too large. */
bool
runs_global_geom (runs_geom * g, int bps, int width, int height,
    const int bounds[4], int axis, unsigned smask, long nlut)
{
  const int P = 4 / bps;
  runs_geom_init (g, bps, width, height, bounds, axis);
  long rw = (long) width + bounds[1] - g->mdxp;
  long rh = (long) height + bounds[3] - bounds[2];
  long nwr = (rw + P - 1) / P;
  long pitch = (nwr + 1 + 31) & ~31L;
  g->kmax = runs_ilog2 (smask);
  g->nslots = runs_assign_slots (smask, g->kmax, 0, &g->slots);
  if (g->nslots > RUNS_GLOBAL_MAX_SLOTS)
    return false;
  long slot_w = rh * pitch;
  if ((size_t) slot_w * g->nslots * 4 > RUNS_GLOBAL_MAX_BYTES
      || slot_w * g->nslots >= INT_MAX || nlut >= INT_MAX / 2
      || (rh + RUNS_GY - 1) / RUNS_GY > 65535
      || (height + RUNS_GY * RUNS_V - 1) / (RUNS_GY * RUNS_V) > 65535)
    return false;
  g->rw = (int) rw;
  g->rh = (int) rh;
  g->nwr = (int) nwr;
  g->pitch_w = (int) pitch;
  g->slot_w = (int) slot_w;
  g->nlut = (int) nlut;
  return true;
}

/* Estimated time of the global path in SM cycles (same units). */
double
runs_global_cost (const runs_geom * g, int bps, long nlut,
    const runs_devinfo * dev)
{
  const int P = 4 / bps;
  double tab_words = (double) g->rh * g->nwr;
  double out_words = (double) g->height * ((g->width + P - 1) / P);
  double alu = bps == 2 ? 2.0 : (dev->paired8 ? 4.0 : 7.0);
  double instr = tab_words * 14.0 + g->kmax * tab_words * 10.0
      + out_words * nlut * (4.0 + alu) + out_words * 20.0;
  double bytes = tab_words * 4 * (1.0 + 3.0 * g->kmax)
      + (double) g->width * g->height * bps * 2;
  double cycles = instr / (128.0 * dev->sms * 0.7) + bytes / 1600.0;
  return cycles + (g->kmax + 2) * 3000.0;
}

/* Offsets' bounding box from the runs: min_dx, max_dx, min_dy, max_dy. */
void
runs_bounds (const runs_axis * ax, int axis, int bounds[4])
{
  bounds[0] = bounds[2] = INT_MAX;
  bounds[1] = bounds[3] = INT_MIN;
  for (int i = 0; i < ax->count; i++) {
    const cm_se_run *r = &ax->runs[i];
    int a0 = r->start, a1 = r->start + r->len - 1;
    int lo_x = axis == 0 ? a0 : r->fixed, hi_x = axis == 0 ? a1 : r->fixed;
    int lo_y = axis == 0 ? r->fixed : a0, hi_y = axis == 0 ? r->fixed : a1;
    if (lo_x < bounds[0])
      bounds[0] = lo_x;
    if (hi_x > bounds[1])
      bounds[1] = hi_x;
    if (lo_y < bounds[2])
      bounds[2] = lo_y;
    if (hi_y > bounds[3])
      bounds[3] = hi_y;
  }
}

/* The candidate of cost @c into *best when it is the first or cheaper;
 * lx_shift, nwarps and v only for the shared path (the global one leaves
 * them) */
void
runs_keep (runs_choice * best, double c, int axis, int shared,
    unsigned smask, int lx_shift, int nwarps, int v)
{
  if (best->valid && !(c < best->cost))
    return;
  best->valid = 1;
  best->axis = axis;
  best->shared = shared;
  best->smask = smask;
  if (shared) {
    best->lx_shift = lx_shift;
    best->nwarps = nwarps;
    best->v = v;
  }
  best->cost = c;
}

/* Frames of at most this many pixels per multiprocessor may take the
 * shared gather with one row per thread. There a tile of RUNS_V rows per
 * thread leaves most of the device's warps idle, and the cost estimate's
 * choice of one row won on every runs row measured; above it the estimate
 * overrates one row (it ignores the longer halo per output row: 1.1 to
 * 1.6 times slower at 1080p and 4K), so one row is not offered there
 * (docs/bench/history.md, "The runs pass on small frames: one output row
 * per thread"). */
#define RUNS_ONE_ROW_PIXELS_PER_SM 12288L

/* Best choice for one axis (updates *best when cheaper). @v_only: the
 * shared gather's rows per thread, 0: RUNS_V, then one on small frames
 * (ties keep RUNS_V). */
void
runs_choose_axis (const runs_axis * ax, int axis, int bps, int width,
    int height, const int bounds[4], const runs_devinfo * dev, int v_only,
    runs_choice * best)
{
  int ktop = runs_ilog2 ((unsigned) ax->maxlen);
  if (ktop >= RUNS_MAX_LEVELS - 1)
    ktop = RUNS_MAX_LEVELS - 2;
  for (unsigned rest = 0; rest < (1u << ktop); rest++) {
    unsigned smask = 1u | (rest << 1);
    long nlut = runs_count_lookups (ax, smask);
    runs_geom g;
    size_t smem;
    for (int vi = 0; vi < 2; vi++) {
      const int v = vi == 0 ? RUNS_V : 1;
      if (v_only != 0 ? v != v_only : v == 1 && (long) width * height >
          RUNS_ONE_ROW_PIXELS_PER_SM * dev->sms)
        continue;
      for (int lx_shift = 2; lx_shift <= 5; lx_shift++) {
        for (int nw = 2; nw <= RUNS_MAX_THREADS / 32; nw++) {
          if (!runs_shared_geom (&g, bps, width, height, bounds, axis, smask,
                  lx_shift, nw, v, nlut, dev->smem_budget, &smem))
            continue;
          runs_keep (best, runs_shared_cost (&g, bps, nw, nlut, smem, dev),
              axis, 1, smask, lx_shift, nw, v);
        }
      }
    }
    if (runs_global_geom (&g, bps, width, height, bounds, axis, smask,
            nlut))
      runs_keep (best, runs_global_cost (&g, bps, nlut, dev), axis, 0, smask,
          0, 0, 0);
  }
}

/* Lookup list for the chosen geometry: per window, the word offset of its
 * first sample relative to the output word (slot, row and column) and the
 * byte shift inside the word. */
void
runs_fill_lut (const runs_axis * ax, const runs_geom * g, int bps,
    unsigned smask, int2 * lut)
{
  const int P = 4 / bps;
  long n = 0;
  for (int i = 0; i < ax->count; i++) {
    const cm_se_run *r = &ax->runs[i];
    int q = runs_level_for (smask, r->len);
    int step = 1 << q;
    int full = r->len >> q;
    int tail = (r->len & (step - 1)) != 0;
    for (int m = 0; m < full + tail; m++) {
      int pos = m < full ? r->start + m * step : r->start + r->len - step;
      int ox = g->axis == 0 ? pos : r->fixed;
      int oy = g->axis == 0 ? r->fixed : pos;
      int cx = ox - g->mdxp;    /* >= 0 */
      lut[n].x = runs_slot (*g, q) * g->slot_w + (oy - g->min_dy) * g->pitch_w
          + cx / P;
      lut[n].y = (cx % P) * bps;
      n++;
    }
  }
}

void
runs_axis_clear (runs_axis * ax)
{
  free (ax->runs);
  free (ax->hist);
  memset (ax, 0, sizeof (*ax));
}

cm_status
runs_axis_load (runs_axis * ax, const cm_se * se, int axis)
{
  memset (ax, 0, sizeof (*ax));
  cm_status st = cm_se_runs (se, axis, &ax->runs, &ax->count);
  if (st != CM_OK)
    return st;
  if (ax->count <= 0 || ax->runs == NULL) {
    runs_axis_clear (ax);
    return CM_ERR_INVALID_ARG;
  }
  for (int i = 0; i < ax->count; i++) {
    if (ax->runs[i].len < 1 || ax->runs[i].len > CM_SE_MAX_EXTENT) {
      runs_axis_clear (ax);
      return CM_ERR_INVALID_ARG;
    }
    if (ax->runs[i].len > ax->maxlen)
      ax->maxlen = ax->runs[i].len;
  }
  ax->hist = (long *) calloc ((size_t) ax->maxlen + 1, sizeof (long));
  if (!ax->hist) {
    runs_axis_clear (ax);
    return CM_ERR_NO_MEMORY;
  }
  for (int i = 0; i < ax->count; i++)
    ax->hist[ax->runs[i].len]++;
  return CM_OK;
}

}                               /* namespace */

cm_status
runs_plan_host_build (runs_plan_host * out, const cm_se * se, int width,
    int height, cm_depth depth, const runs_devinfo * dev,
    int rows_per_thread)
{
  const int bps = cm_depth_bytes (depth);
  runs_axis ax[2];
  int bounds[4];
  cm_status st;

  memset (out, 0, sizeof (*out));
  st = runs_axis_load (&ax[0], se, 0);
  if (st != CM_OK)
    return st;
  st = runs_axis_load (&ax[1], se, 1);
  if (st != CM_OK) {
    runs_axis_clear (&ax[0]);
    return st;
  }
  runs_bounds (&ax[0], 0, bounds);

  runs_choice best;
  memset (&best, 0, sizeof (best));
  runs_choose_axis (&ax[0], 0, bps, width, height, bounds, dev,
      rows_per_thread, &best);
  runs_choose_axis (&ax[1], 1, bps, width, height, bounds, dev,
      rows_per_thread, &best);
  if (!best.valid) {
    /* level 0 only, one slot: always within the global limits unless the
     * image itself is huge */
    st = CM_ERR_UNSUPPORTED;
    goto done;
  }

  {
    const runs_axis *a = &ax[best.axis];
    long nlut = runs_count_lookups (a, best.smask);
    bool ok;
    if (best.shared)
      ok = runs_shared_geom (&out->g, bps, width, height, bounds, best.axis,
          best.smask, best.lx_shift, best.nwarps, best.v, nlut,
          dev->smem_budget, &out->smem);
    else
      ok = runs_global_geom (&out->g, bps, width, height, bounds, best.axis,
          best.smask, nlut);
    if (!ok) {
      st = CM_ERR_UNSUPPORTED;
      goto done;
    }
    out->lut = (int2 *) malloc ((size_t) nlut * sizeof (int2));
    if (!out->lut) {
      st = CM_ERR_NO_MEMORY;
      goto done;
    }
    runs_fill_lut (a, &out->g, bps, best.smask, out->lut);
    out->choice = best;
  }

done:
  runs_axis_clear (&ax[0]);
  runs_axis_clear (&ax[1]);
  return st;
}

}                               /* namespace cm_runs */
