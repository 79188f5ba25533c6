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
 * loses.
 *
 * In global memory a merge stops once the two pixels it has walked down
 * to are known large: their components hold at least min_area pixels.
 * The tiles' own trees give each pixel a lower bound, its level
 * component's count in its tile (a component only grows). A merge also
 * learns largeness on its way: the two nodes it holds at once are both
 * in the component of its edge at the lower one's level, so when their
 * tiles differ their counts add up there; once the sum reaches min_area
 * every node at or below that level on either chain is large, and the
 * merge stops when it holds two such nodes, marking them. The filter
 * asks of each component only whether it is large. Above the two pixels
 * the merge is done; below, each chain holds only large nodes, whatever
 * the links between the chains. A link the merge moved may have taken
 * pixels out of a large component's subtree, so its counted area can
 * fall short: the marks count as large wherever areas are compared
 * (attr_is_large), and no answer changes (docs/design.md). */
#pragma once

#include <stdint.h>

/* A pixel's tile count (attribute.cu's tiles): the area of its level
 * component in its tile (at most 4096) in the low bits, a hash of the
 * tile in the top 3: tiles whose hashes differ are different tiles, and
 * neighbouring tiles' hashes differ */
#define ATTR_COUNT_AREA 0x1fffu
#define ATTR_COUNT_TILE_SHIFT 13

static __device__ __forceinline__ unsigned
attr_tile_hash (unsigned tile_x, unsigned tile_y)
{
  return ((tile_x & 3u) | (tile_y & 1u) << 2) << ATTR_COUNT_TILE_SHIFT;
}

/* The links (volatile loads and stores: other threads write them, and in
 * global memory other SMs, whose writes L1 does not see) and the levels,
 * read through the read-only cache in global memory (@GLOBAL: the frame's
 * tree) or plainly in shared memory (a tile's). In global memory also the
 * pixels' tile counts (read-only while the merges run), a byte a pixel,
 * nonzero where its level component is known to be large (the merges
 * only write it), and min_area. */
template <bool GLOBAL>
struct attr_tree
{
  int *par;
  const uint16_t *lev;
  const uint16_t *count;
  uint8_t *large;
  unsigned min_area;

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
  /* loaded once for each node a merge comes to */
  __device__ unsigned tile_count (int i) const
  {
    return GLOBAL ? __ldg (count + i) : 0;
  }
  __device__ bool count_large (unsigned k) const
  {
    return GLOBAL && (k & ATTR_COUNT_AREA) >= min_area;
  }
  /* the component holding the nodes of counts @ka and @kb at the lower
   * one's level is large: their sum reaches min_area, and their tiles
   * differ (their tile components are apart) or one alone reaches it */
  __device__ bool together_large (unsigned ka, unsigned kb) const
  {
    return GLOBAL && (ka & ATTR_COUNT_AREA) + (kb & ATTR_COUNT_AREA) >=
        min_area && (((ka ^ kb) >> ATTR_COUNT_TILE_SHIFT) != 0 ||
        count_large (ka) || count_large (kb));
  }
  __device__ void mark_large (int i) const
  {
    if (GLOBAL)
      large[i] = 1;
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

/* Joins the trees of neighbours @a and @b (Wilkinson's connect, lock-free;
 * in global memory it stops early, as above) */
template <class Tree>
static __device__ void
attr_merge (const Tree & t, int a, int b)
{
  unsigned la, lb, ka, kb, known_level = 0;
  bool known = false;           /* every node at or below known_level is
                                 * large */

  a = attr_level_root (t, a);
  b = attr_level_root (t, b);
  la = t.level (a);
  lb = t.level (b);
  ka = t.tile_count (a);
  kb = t.tile_count (b);
  for (;;) {
    int pa, z;
    unsigned lz;

    if (a == b || (t.count_large (ka) && t.count_large (kb)))
      return;
    if (!known && t.together_large (ka, kb)) {
      known = true;
      known_level = min (la, lb);
    }
    if (known && la <= known_level && lb <= known_level) {
      t.mark_large (a);
      t.mark_large (b);
      return;
    }
    if (attr_below (la, a, lb, b)) {
      int ti = a;
      unsigned tl = la, tk = ka;

      a = b;
      la = lb;
      ka = kb;
      b = ti;
      lb = tl;
      kb = tk;
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
      ka = t.tile_count (a);
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
        ka = t.tile_count (z);
      }
      continue;
    }
    a = z;
    la = lz;
    ka = t.tile_count (z);
  }
}


/* ---- edges that need no merge ----------------------------------------
 * The max-tree is that of any set of edges that joins the same pixels at
 * every level: an edge whose two ends are already joined through pixels
 * at least as high as the lower end can go. The merges take every
 * horizontal edge (the tiles' row trees, the column seams) and skip
 *
 * - a vertical edge (x, y)-(x, y + 1) of weight m (its lower end's level)
 *   when the vertical edge beside it, whose two ends both reach m, joins
 *   the same: on the right at m or above, on the left above m. The edge
 *   it leans on has a larger (weight, column), so the leaning never goes
 *   round in a circle and ends at an edge that is merged;
 * - a diagonal edge when either pixel of the square it crosses reaches
 *   its weight (a horizontal and a vertical edge join its ends).
 *
 * On photographs most vertical and nearly all diagonal edges go. @L (x,
 * y) is a level; the vertical edge leans only on columns [@xmin, @xmax],
 * where the caller has the levels and merges every horizontal edge. */
template <class Level>
static __device__ __forceinline__ bool
attr_edge_needed (const Level & L, int x, int y, int dx, int xmin, int xmax)
{
  unsigned a = L (x, y), b = L (x + dx, y + 1), m = min (a, b);

  if (dx != 0)
    return L (x + dx, y) < m && L (x, y + 1) < m;
  if (x < xmax && L (x + 1, y) >= m && L (x + 1, y + 1) >= m)
    return false;
  if (x > xmin && L (x - 1, y) > m && L (x - 1, y + 1) > m)
    return false;
  return true;
}

/* ---- a row's tree by a warp -------------------------------------------
 * The max-tree of a row of 32 pixels in the strict order is its Cartesian
 * tree: a pixel's parent is the higher of the nearest lower pixels on its
 * left and on its right. Lane i holds column i's level @v; the first
 * @cols lanes are the row (the warp's 32 lanes all call). Returns the
 * lane of the parent (itself at the row's root; lanes past @cols
 * themselves). */
static __device__ __forceinline__ int
attr_row_parent (unsigned v, int cols)
{
  int lane = threadIdx.x & 31, left, right;
  unsigned key = v << 5 | lane, lower = 0, lo, hi, kl, kr;

  for (int j = 0; j < 32; j++) {
    unsigned kj = __shfl_sync (0xffffffffu, key, j);

    lower |= (unsigned) (j < cols && kj < key) << j;
  }
  lo = lower & ((1u << lane) - 1);
  hi = lane < 31 ? lower & (0xffffffffu << (lane + 1)) : 0;
  left = lo ? 31 - __clz (lo) : -1;
  right = hi ? __ffs (hi) - 1 : -1;
  kl = __shfl_sync (0xffffffffu, key, left < 0 ? lane : left);
  kr = __shfl_sync (0xffffffffu, key, right < 0 ? lane : right);
  if (lane >= cols || (left < 0 && right < 0))
    return lane;
  if (left < 0 || (right >= 0 && kr > kl))
    return right;
  return left;
}

/* ---- a tile's passes, a pixel at a time ------------------------------
 * The bodies of the tiles' passes (attribute.cu), also run on the CPU by
 * tests/core/test-attribute-tree.cc; @l is a pixel of a tile whose rows
 * are TILE_COLS (32) wide. */

/* The tiles' merges run from a queue of the pixels that have needed
 * down edges (attribute.cu): few edges are needed, and their merges are
 * long walks, so dealt out in turn they keep a warp's lanes busy. An
 * entry is the pixel's index in the tile (at most 4096 pixels) in the
 * low 12 bits and a bit per needed down edge above: vertical, down-right,
 * down-left. */
#define ATTR_ENTRY_PIXEL 0xfffu
#define ATTR_ENTRY_EDGE_SHIFT 12

/* the column step of down edge @k of an entry */
static __device__ __forceinline__ int
attr_down_dx (int k)
{
  return k == 0 ? 0 : k == 1 ? 1 : -1;
}

/* The step (*@dx, *@dy) of forward edge @e of a pixel: edge 0 to the
 * right, edge 1 + k down edge k of attr_down_dx */
static __device__ __forceinline__ void
attr_forward_step (int e, int *dx, int *dy)
{
  *dx = e == 0 ? 1 : attr_down_dx (e - 1);
  *dy = e == 0 ? 0 : 1;
}

/* @l's entry: its first @down down edges (1 at 4-connectivity, 3 at 8)
 * that stay inside the tile's @cols columns and are needed; 0 when none
 * is */
template <class Level>
static __device__ __forceinline__ unsigned
attr_tile_needed_down (const Level & L, int l, int down, int cols)
{
  int lx = l & 31, ly = l / 32;
  unsigned edges = 0;

  for (int k = 0; k < down; k++) {
    int dx = attr_down_dx (k), nlx = lx + dx;

    if (nlx >= 0 && nlx < cols && attr_edge_needed (L, lx, ly, dx, 0,
            cols - 1))
      edges |= 1u << k;
  }
  return edges != 0 ? edges << ATTR_ENTRY_EDGE_SHIFT | (unsigned) l : 0;
}

/* The merges of an entry, from one call site of attr_merge (a loop over
 * the edge bits, so that the walk is inlined once) */
static __device__ __forceinline__ void
attr_tile_merge_entry (const attr_shared_tree & t, unsigned entry)
{
  int l = (int) (entry & ATTR_ENTRY_PIXEL);

  for (unsigned e = entry >> ATTR_ENTRY_EDGE_SHIFT; e != 0; e &= e - 1)
    attr_merge (t, l, l + 32 + attr_down_dx (__ffs (e) - 1));
}

/* @l's link made canonical: to its level root, or from a level root to
 * its parent's. Each write points into the level component the old link
 * pointed into, further on, so the walks of others stay right. */
template <class Tree>
static __device__ __forceinline__ void
attr_make_canonical (const Tree & t, int l)
{
  int r = attr_level_root (t, l);

  if (r == l) {
    int p = t.link (l);

    if (p != l)
      t.set_link (l, attr_level_root (t, p));
  } else {
    t.set_link (l, r);
  }
}

/* A tile's accumulator in shared memory, as attribute.cu's ACC_* in 32
 * bits: its area (at most 4096) in bits 0-14, bit 15 once it has a
 * child, minus the children still to arrive in the high half */
#define TILE_AREA 0x7fffu
#define TILE_HAS_CHILD 0x8000u
#define TILE_CHILD 0x10000u

/* Over canonical links: @l counted into its level root, a level root
 * counted as a child of its parent */
static __device__ __forceinline__ void
attr_tile_count (const int *s_par, const uint16_t *s_lev, unsigned *s_acc,
    int l)
{
  int p = s_par[l];

  if (p != l && s_lev[p] == s_lev[l]) {
    atomicAdd (s_acc + p, 1u);
  } else {
    atomicAdd (s_acc + l, 1u);
    if (p != l && (atomicAdd (s_acc + p, 0u - TILE_CHILD) >> 16) == 0)
      atomicOr (s_acc + p, TILE_HAS_CHILD);
  }
}

/* From @l when it is a leaf: its area added into its parent, and on with
 * the parent when it was the last child to arrive */
static __device__ __forceinline__ void
attr_tile_climb (const int *s_par, const uint16_t *s_lev, unsigned *s_acc,
    int l)
{
  int r = l, up = s_par[l];
  unsigned a = s_acc[l];

  if ((up != l && s_lev[up] == s_lev[l]) || (a & TILE_HAS_CHILD))
    return;
  while (up != r) {
    unsigned old = atomicAdd (s_acc + up, TILE_CHILD | a);

    if ((old >> 16) != 0xffffu)
      break;
    a = (old & TILE_AREA) + a;
    r = up;
    up = s_par[up];
  }
}

/* ---- the frame's passes, a pixel at a time ---------------------------
 * The bodies of attribute.cu's nodes, area and output passes, also run
 * by tests/core/test-attribute-tree.cc. A level root's accumulator: its
 * area in bits 0-30; bit 31 set once it has a child (leaves must be told
 * apart from nodes whose children have all arrived); in the high word
 * minus the children whose area has not been added yet. */
#define ACC_AREA 0x7fffffffull
#define ACC_HAS_CHILD 0x80000000ull
#define ACC_CHILD (1ull << 32)

static __device__ __forceinline__ bool
attr_is_level_root (const uint16_t *lev, int p, int q)
{
  return q == p || lev[q] != lev[p];
}

/* A node is large when its counted area is, or when it is marked: the
 * seams' merges that stopped may leave a marked node's count short */
static __device__ __forceinline__ bool
attr_is_large (const unsigned long long *acc, const uint8_t * large,
    int r, unsigned min_area)
{
  return (acc[r] & ACC_AREA) >= min_area || large[r];
}

/* Nodes: @p linked straight to its level root, a level root to its
 * parent's and counted as that one's child; a pixel's mark handed to its
 * level root. Returns the level root, into which the caller counts @p. */
static __device__ __forceinline__ int
attr_node (const attr_global_tree & t, unsigned long long *acc, int p)
{
  int r = attr_level_root (t, p);

  if (r != p) {
    /* most pixels link to their level root already */
    if (t.link (p) != r)
      t.set_link (p, r);
    /* no thread writes a pixel that is not a level root's mark */
    if (*(volatile uint8_t *) (t.large + p) && !t.large[r])
      t.large[r] = 1;
  } else {
    int q = t.link (p);

    if (q != p) {
      int pr = attr_level_root (t, q);

      t.set_link (p, pr);
      /* only the first child sees 0 in the high word */
      if ((atomicAdd (acc + pr, 0ull - ACC_CHILD) >> 32) == 0)
        atomicOr (acc + pr, ACC_HAS_CHILD);
    }
  }
  return r;
}

/* Area: from @r when it is a leaf, its area added into its parent, and on
 * with the parent when it was the last child to arrive (the one whose
 * add brings the high word to 0). A marked node passes on at least
 * min_area. The parent's link is loaded before the add, not after. */
static __device__ __forceinline__ void
attr_area_climb (const int *par, const uint16_t *lev, const uint8_t * large,
    unsigned long long *acc, unsigned min_area, int r)
{
  int up = par[r];
  unsigned long long a = acc[r];

  if (!attr_is_level_root (lev, r, up) || (a & ACC_HAS_CHILD))
    return;
  for (;;) {
    unsigned long long old;
    int next;

    if (__ldg (large + r) && a < min_area)
      a = min_area;
    if (up == r)
      return;
    next = __ldg (par + up);
    old = atomicAdd (acc + up, ACC_CHILD | a);
    if ((old >> 32) != 0xffffffffull)
      return;
    /* the last child: the parent's area is now complete */
    a = (old & ACC_AREA) + a;
    r = up;
    up = next;
  }
}

/* Output: the level of the first large node from @p's level root down,
 * 0 when there is none; the links between small nodes halved on the way
 * (both small: the next large node is the same from either) */
static __device__ __forceinline__ unsigned
attr_output_level (const attr_global_tree & t,
    const unsigned long long *acc, unsigned min_area, int p)
{
  int q = t.link (p), r = attr_is_level_root (t.lev, p, q) ? p : q;

  for (;;) {
    int u, uu;

    if (attr_is_large (acc, t.large, r, min_area))
      return t.lev[r];
    u = t.link (r);
    if (u == r)
      return 0;
    uu = t.link (u);
    if (uu != u && !attr_is_large (acc, t.large, u, min_area))
      t.set_link (r, uu);
    r = u;
  }
}
