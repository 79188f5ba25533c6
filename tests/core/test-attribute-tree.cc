/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CUDA area opening's algorithm, run on the CPU: attribute.cu's
 * passes over attribute-tree.cuh's merges, edge choices and rows' trees
 * (the header compiled for the host, cuda-host-shim.h), one thread at a
 * time, every pass's merges in a random order, against the reference.
 * What it holds, where CI has no GPU: that the edges left out and the
 * merges stopped at large components change no result, for every tile
 * height and without tiles. The device code's races are the GPU test's
 * (tests/gpu/test-attribute-gpu.c).
 *
 * Table: both operations x 4/8-connectivity x 8/16-bit x every frame kind
 * of attribute-frames.h x frames from 1x1, 1xN, Nx1 to sizes off the
 * tiles' multiples x min_area 1 to more than the frame x tiles of 1, 4,
 * 32 and 128 rows and none, against the reference (the CPU backend
 * past 2500 pixels); 300x200 frames with min_area 64 and 1000 under
 * tiles of 32, 64 and 128 rows against the CPU backend. "N passed, M failed";
 * exit 1 on any failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <random>
#include <vector>

#include "cuda-host-shim.h"
#include "attribute/attribute-tree.cuh"

extern "C"
{
#include "attribute/attribute.h"
#include "attribute-frames.h"
#include "test-util.h"
}

static std::mt19937 order_rng (7);

#define COLS 32

struct tile_levels
{
  const uint16_t *lev;
  unsigned operator () (int x, int y) const
  {
    return lev[y * COLS + x];
  }
};

struct frame_levels
{
  const uint16_t *lev;
  int w;
  unsigned operator () (int x, int y) const
  {
    return lev[(size_t) y * w + x];
  }
};

template <class T>
static void
shuffled (std::vector<T> & v)
{
  std::shuffle (v.begin (), v.end (), order_rng);
}

/* the frame's state between the passes, as in the plan */
struct frame
{
  int w, h;
  std::vector<int> par;
  std::vector<uint16_t> lev;
  std::vector<uint16_t> count;
  std::vector<uint8_t> large;
  std::vector<std::pair<int, int>> edges;       /* for the seams' pass */
};

/* tiles_kernel of one tile */
static void
run_tile (frame & f, int x0, int y0, int tile_rows, int forward,
    unsigned min_area, const std::vector<unsigned> & in)
{
  int size = COLS * tile_rows, w = f.w, h = f.h;
  int cols = std::min (COLS, w - x0), rows = std::min (tile_rows, h - y0);
  std::vector<int> s_par (size), order;
  std::vector<unsigned> s_acc (size, 0);
  std::vector<uint16_t> s_lev (size, 0);
  attr_shared_tree t = { s_par.data (), s_lev.data (), NULL, NULL, 0 };
  unsigned hash = attr_tile_hash (x0 / COLS, y0 / tile_rows);
  tile_levels L = { s_lev.data () };
  std::vector<unsigned> queue;

  for (int r = 0; r < tile_rows; r++) {
    unsigned v[COLS];

    for (int lane = 0; lane < COLS; lane++) {
      int x = x0 + lane, y = y0 + r;

      v[lane] = x < w && y < h ? in[(size_t) y * w + x] : 0;
      if (x < w && y < h)
        f.lev[(size_t) y * w + x] = (uint16_t) v[lane];
      s_lev[r * COLS + lane] = (uint16_t) v[lane];
      host_warp.shuffled[lane] = v[lane] << 5 | lane;
    }
    for (int lane = 0; lane < COLS; lane++) {
      threadIdx.x = lane;
      s_par[r * COLS + lane] = r * COLS + attr_row_parent (v[lane],
          r < rows ? cols : 0);
    }
  }
  for (int l = 0; l < size; l++) {
    if (l % COLS >= cols || l / COLS >= rows)
      continue;
    order.push_back (l);
    if (l / COLS + 1 < rows) {
      unsigned entry = attr_tile_needed_down (L, l, forward - 1, cols);

      if (entry != 0)
        queue.push_back (entry);
    }
  }
  shuffled (queue);
  for (unsigned entry : queue)
    attr_tile_merge_entry (t, entry);
  shuffled (order);
  for (int l : order)
    attr_make_canonical (t, l);
  for (int l : order)
    attr_tile_count (s_par.data (), s_lev.data (), s_acc.data (), l);
  for (int l : order)
    attr_tile_climb (s_par.data (), s_lev.data (), s_acc.data (), l);
  for (int l : order) {
    int p = s_par[l], root = p != l && s_lev[p] == s_lev[l] ? p : l;
    size_t g = (size_t) (y0 + l / COLS) * w + x0 + l % COLS;
    unsigned area = s_acc[root] & TILE_AREA;

    f.par[g] = (y0 + p / COLS) * w + x0 + p % COLS;
    f.count[g] = (uint16_t) (area | hash);
    f.large[g] = area >= min_area;
  }
}

/* merge_forward: the needed forward edges of (x, y) in [e0, e1) */
static void
forward_edges (frame & f, int x, int y, int e0, int e1)
{
  frame_levels L = { f.lev.data (), f.w };

  for (int e = e0; e < e1; e++) {
    int dx, dy;

    attr_forward_step (e, &dx, &dy);
    const int nx = x + dx, ny = y + dy;

    if (nx < 0 || nx >= f.w || ny >= f.h)
      continue;
    if (e == 0 || attr_edge_needed (L, x, y, dx, 0, f.w - 1))
      f.edges.push_back ({y * f.w + x, ny * f.w + nx});
  }
}

/* the plan's run: tiles (or none), seams, nodes, area, output */
static void
run (const cm_attr_desc * d, const cm_image * src, const cm_image * dst,
    int tile_rows)
{
  int w = src->width, h = src->height, n = w * h;
  int forward = d->connectivity == 8 ? 4 : 2;
  unsigned inv = d->op == CM_ATTR_CLOSE ? cm_depth_max (src->depth) : 0;
  frame f = { w, h, std::vector<int> (n), std::vector<uint16_t> (n),
    std::vector<uint16_t> (n), std::vector<uint8_t> (n), {}
  };
  std::vector<unsigned> in (n);
  std::vector<unsigned long long> acc (n, 0);
  std::vector<int> order (n);
  attr_global_tree t = { f.par.data (), f.lev.data (), f.count.data (),
    f.large.data (), d->min_area
  };

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const uint8_t *row = (const uint8_t *) src->data + (size_t) y *
          src->pitch;

      in[(size_t) y * w + x] = (src->depth == CM_DEPTH_16 ?
          ((const uint16_t *) row)[x] : row[x]) ^ inv;
    }
  if (tile_rows > 0) {
    for (int y0 = 0; y0 < h; y0 += tile_rows)
      for (int x0 = 0; x0 < w; x0 += COLS)
        run_tile (f, x0, y0, tile_rows, forward, d->min_area, in);
    for (int y = tile_rows - 1; y + 1 < h; y += tile_rows)
      for (int x = 0; x < w; x++)
        forward_edges (f, x, y, 1, forward);
    for (int x = COLS - 1; x + 1 < w; x += COLS)
      for (int y = 0; y < h; y++) {
        forward_edges (f, x, y, 0, 1);
        if (forward > 2) {
          forward_edges (f, x, y, 2, 3);
          forward_edges (f, x + 1, y, 3, 4);
        }
      }
  } else {
    for (int g = 0; g < n; g++) {
      f.lev[g] = (uint16_t) in[g];
      f.par[g] = g;
      f.count[g] = 1;
      f.large[g] = d->min_area <= 1;
    }
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        forward_edges (f, x, y, 0, forward);
  }
  shuffled (f.edges);
  for (auto & e : f.edges)
    attr_merge (t, e.first, e.second);
  /* nodes */
  for (int i = 0; i < n; i++)
    order[i] = i;
  shuffled (order);
  for (int p : order)
    acc[attr_node (t, acc.data (), p)] += 1;
  /* area */
  for (int r : order)
    attr_area_climb (f.par.data (), f.lev.data (), f.large.data (),
        acc.data (), d->min_area, r);
  /* output */
  for (int p = 0; p < n; p++) {
    uint8_t *row = (uint8_t *) dst->data + (size_t) (p / w) * dst->pitch;
    unsigned v = attr_output_level (t, acc.data (), d->min_area, p);

    if (dst->depth == CM_DEPTH_16)
      ((uint16_t *) row)[p % w] = (uint16_t) (v ^ inv);
    else
      row[p % w] = (uint8_t) (v ^ inv);
  }
}

static int n_pass, n_fail;

static void
check (const cm_attr_desc * d, const cm_image * src, const cm_image * want,
    cm_image * got, int tile_rows, const char *what)
{
  run (d, src, got, tile_rows);
  if (test_image_equal (got, want, what)) {
    n_pass++;
    return;
  }
  n_fail++;
  fprintf (stderr, "FAIL: %s %dx%d %d-bit %s %d-connected min_area %u, "
      "tiles of %d rows\n", what, src->width, src->height,
      src->depth == CM_DEPTH_16 ? 16 : 8, cm_attr_op_name (d),
      d->connectivity, d->min_area, tile_rows);
}

/* the reference up to 2500 pixels, the CPU backend above (tests/core
 * holds the two equal) */
static bool
oracle (const cm_attr_desc * d, const cm_image * src, const cm_image * want)
{
  cm_attr_cpu *cpu = NULL;
  bool ok;

  if (src->width * src->height <= 2500)
    return cm_attr_ref (d, src, want) == CM_OK;
  ok = cm_attr_cpu_new (&cpu, d, src->width, src->height, src->depth,
      NULL) == CM_OK && cm_attr_cpu_run (cpu, src, want) == CM_OK;
  cm_attr_cpu_free (cpu);
  if (!ok) {
    n_fail++;
    fprintf (stderr, "FAIL: the CPU backend refused %dx%d\n", src->width,
        src->height);
  }
  return ok;
}

/* a frame of @kind through every operation, connectivity and area of
 * @areas, under each tile height of @rows, against the oracle */
static void
check_frame (int w, int h, int depth, int kind,
    const std::vector<uint32_t> & areas, const std::vector<int> & rows,
    test_rng * r)
{
  cm_image src = test_image_new (w, h, (cm_depth) depth, 0);
  cm_image want = test_image_new (w, h, (cm_depth) depth, 0);
  cm_image got = test_image_new (w, h, (cm_depth) depth, 0);

  attr_frame_fill (&src, (attr_frame_kind) kind, r);
  for (int op = 0; op < CM_ATTR_OP_COUNT; op++)
    for (int conn = 4; conn <= 8; conn += 4)
      for (uint32_t a : areas) {
        cm_attr_desc d = { (cm_attr_op) op, CM_ATTR_AREA, a, conn };

        if (oracle (&d, &src, &want))
          for (int tr : rows)
            check (&d, &src, &want, &got, tr,
                attr_frame_name ((attr_frame_kind) kind));
      }
  test_image_free (&src);
  test_image_free (&want);
  test_image_free (&got);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {1, 45}, {77, 1}, {2, 3},
  {31, 33}, {32, 32}, {65, 34}, {97, 71}
  };
  test_rng r;

  test_rng_seed (&r, 2207);
  for (auto & s : sizes)
    for (int depth = 8; depth <= 16; depth += 8)
      for (int k = 0; k < ATTR_FRAME_KINDS; k++)
        check_frame (s[0], s[1], depth, k, { 1, 2, 5, 64, 1000,
                (uint32_t) (s[0] * s[1] + 1) }, { 0, 1, 4, 32, 128 }, &r);
  for (int depth = 8; depth <= 16; depth += 8)
    for (int k = 0; k < ATTR_FRAME_KINDS; k++)
      check_frame (300, 200, depth, k, { 64, 1000 }, { 32, 64, 128 }, &r);
  printf ("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail != 0;
}
