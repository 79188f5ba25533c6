/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The concurrent max-tree of attribute.cu: parent links over pixels that
 * any number of threads extend at once, in shared memory (a tile's pixels,
 * local indices) or in global memory (the frame's, raster indices).
 *
 * Pixels are ordered strictly by (level, index): a link always goes from
 * a pixel to a lower one, so the links never make a cycle. A pixel whose
 * parent has its level is a member of that level component; the others
 * (parent lower, or itself: the root) are the components' canonical
 * nodes, the level roots. Merging two neighbours is Wilkinson's connect
 * (2008) made lock-free as in Blin et al. (IEEE TPDS 2022): the two chains
 * of level roots from the neighbours down to the root are merged like two
 * sorted lists; a pixel b goes between a and a's parent by one atomicCAS
 * on a's link (it fails, and the step is taken again, when another thread
 * changed that link first), after which the thread merges a's old parent
 * with b. Every link written joins two pixels of one component of the
 * level set of the lower one, and a thread that moves a link on keeps
 * merging what the old link joined, so when every merge has returned the
 * links describe exactly the components of the frame: the max-tree, its
 * level roots the first pixel of each component in raster order. Links
 * inside a level component are also shortened (path halving) by plain
 * stores: the pixel skipped is of the same component, which no merge
 * loses. */
#pragma once

#include <stdint.h>

/* The links (volatile loads and stores: other threads write them, and in
 * global memory other SMs, whose writes L1 does not see) and the levels,
 * read through the read-only cache in global memory (@GLOBAL: the frame's
 * tree) or plainly in shared memory (a tile's) */
template <bool GLOBAL>
struct attr_tree
{
  int *par;
  const uint16_t *lev;

  __device__ int link (int i) const
  {
    return *(volatile int *) (par + i);
  }
  __device__ void set_link (int i, int v) const
  {
    *(volatile int *) (par + i) = v;
  }
  __device__ int cas (int i, int expect, int v) const
  {
    return atomicCAS (par + i, expect, v);
  }
  __device__ unsigned level (int i) const
  {
    return GLOBAL ? __ldg (lev + i) : lev[i];
  }
};

typedef attr_tree<true> attr_global_tree;
typedef attr_tree<false> attr_shared_tree;

/* (la, a) below (lb, b) in the strict order */
static __device__ __forceinline__ bool
attr_below (unsigned la, int a, unsigned lb, int b)
{
  return la < lb || (la == lb && a < b);
}

/* The level root of @x's level component, halving the path there */
template <class Tree>
static __device__ int
attr_level_root (const Tree & t, int x)
{
  unsigned lx = t.level (x);

  for (;;) {
    int p = t.link (x), gp;

    if (p == x || t.level (p) != lx)
      return x;
    gp = t.link (p);
    if (gp == p || t.level (gp) != lx)
      return p;
    t.set_link (x, gp);
    x = gp;
  }
}

/* Joins the trees of neighbours @a and @b (Wilkinson's connect, lock-free) */
template <class Tree>
static __device__ void
attr_merge (const Tree & t, int a, int b)
{
  unsigned la, lb;

  a = attr_level_root (t, a);
  b = attr_level_root (t, b);
  la = t.level (a);
  lb = t.level (b);
  for (;;) {
    int pa, z;
    unsigned lz;

    if (a == b)
      return;
    if (attr_below (la, a, lb, b)) {
      int ti = a;
      unsigned tl = la;

      a = b;
      la = lb;
      b = ti;
      lb = tl;
    }
    /* b below a: b goes into a's chain */
    pa = t.link (a);
    if (pa == a) {
      /* a root: b becomes its parent */
      if (t.cas (a, a, b) == a)
        return;
      continue;
    }
    if (t.level (pa) == la) {
      /* a joined a level component meanwhile: go on from its root */
      a = attr_level_root (t, pa);
      continue;
    }
    z = attr_level_root (t, pa);
    if (z == b)
      return;
    lz = t.level (z);
    if (attr_below (lz, z, lb, b)) {
      /* z below b below a: b between a and z, then z joins b's chain */
      if (t.cas (a, pa, b) == pa) {
        a = z;
        la = lz;
      }
      continue;
    }
    a = z;
    la = lz;
  }
}

/* The 1-D tree of the @n pixels from @l0 of a tile (strict order), by
 * one left-to-right scan: the pixels of rising level still open form a
 * stack whose links point down it; a pixel that closes the top links it
 * to the higher of the pixel below it and itself */
static __device__ void
attr_row_tree (int *s_par, const uint16_t *s_lev, int l0, int n)
{
  int top = -1;

  for (int l = l0; l < l0 + n; l++) {
    unsigned v = s_lev[l];

    while (top >= 0 && !attr_below (s_lev[top], top, v, l)) {
      int below = s_par[top] == top ? -1 : s_par[top];

      if (below < 0 || attr_below (s_lev[below], below, v, l))
        s_par[top] = l;
      top = below;
    }
    s_par[l] = top < 0 ? l : top;
    top = l;
  }
}

/* ---- walks along borders ------------------------------------------------
 * Concurrent merges of the edges of one border all walk the two trees'
 * chains from the top before any of them has joined the trees: the work
 * is edges x depth. One thread that merges a border's edges in turn pays
 * for the depth once; each later edge joins two pixels already joined
 * near their levels and walks only the few nodes between them. */

/* The pairs (a0 + k da, b0 + k da), k in [0, n), and, when k + 1 <
 * n_diag, the diagonals (a_k, b_k+1) and (a_k+1, b_k) */
template <class Tree>
static __device__ void
attr_walk (const Tree & t, int a0, int b0, int da, int n, int n_diag)
{
  for (int k = 0; k < n; k++) {
    int a = a0 + k * da, b = b0 + k * da;

    attr_merge (t, a, b);
    if (k + 1 < n_diag) {
      attr_merge (t, a, b + da);
      attr_merge (t, a + da, b);
    }
  }
}

/* Walk @j of a tile of @cols x @rows pixels (in a row pitch of @stride),
 * @seg columns a walk: the rows @j / segs and the next, joined along
 * columns [s, s + seg) */
template <class Tree>
static __device__ void
attr_tile_walk (const Tree & t, int j, int stride, int cols, int seg,
    bool diag)
{
  int segs = (cols + seg - 1) / seg, r = j / segs, xs = (j % segs) * seg;
  int n = min (seg, cols - xs);

  attr_walk (t, r * stride + xs, (r + 1) * stride + xs, 1, n,
      diag ? cols - xs : 0);
}

/* Walk @s of the seam between frame rows @y and @y + 1: columns
 * [s seg, s seg + seg) */
template <class Tree>
static __device__ void
attr_row_seam_walk (const Tree & t, int s, int y, int w, int seg, bool diag)
{
  int xs = s * seg;

  if (xs < w)
    attr_walk (t, y * w + xs, (y + 1) * w + xs, 1, min (seg, w - xs),
        diag ? w - xs : 0);
}

/* Walk @s of the seam between frame columns @x and @x + 1: rows
 * [s seg, s seg + seg) */
template <class Tree>
static __device__ void
attr_column_seam_walk (const Tree & t, int s, int x, int w, int h, int seg,
    bool diag)
{
  int ys = s * seg;

  if (ys < h)
    attr_walk (t, ys * w + x, ys * w + x + 1, w, min (seg, h - ys),
        diag ? h - ys : 0);
}
