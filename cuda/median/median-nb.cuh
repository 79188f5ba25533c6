/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Compile-time builder of the pruned selection networks of median-net.cuh
 * (the algorithm is described there: Szántó & Fehér, paper 001 section
 * 3.3; Adams 2021, "Fast median filters using separable sorting
 * networks"). Plain C++17 constexpr code without CUDA, so that the same
 * networks can also be built and checked exhaustively by a host program. */
#pragma once

#include <stdint.h>

namespace med_nb {

enum : int { K_LO = 0, K_HI = 1, K_IN = 2, K_MIN = 3, K_MAX = 4 };

/* program op kinds (the top 2 bits of an encoded op) */
enum : uint32_t { OP_LOAD = 0, OP_MIN = 1, OP_MAX = 2 };

constexpr int ML = 256;         /* longest list: N <= 225 (15 x 15) */

struct node
{
  int kind, a, b;
};

/* Symbolic values: node 0 is -inf, node 1 is +inf, then inputs and min /
 * max nodes, hash-consed (common subexpressions) and simplified with the
 * constants on creation. */
template <int MAXN>
struct graph
{
  node nd[MAXN];
  int n;
  int ht[2 * MAXN];
  bool overflow;

  constexpr graph () : nd {}, n (2), ht {}, overflow (false)
  {
    nd[0] = node { K_LO, 0, 0 };
    nd[1] = node { K_HI, 0, 0 };
    for (int i = 0; i < 2 * MAXN; i++)
      ht[i] = -1;
  }

  constexpr int make (int kind, int a, int b)
  {
    unsigned h = ((unsigned) kind * 0x9E3779B1u) ^
        ((unsigned) a * 0x85EBCA77u) ^ ((unsigned) b * 0xC2B2AE3Du);
    h ^= h >> 15;
    h %= (unsigned) (2 * MAXN);
    while (ht[h] >= 0) {
      const node &x = nd[ht[h]];
      if (x.kind == kind && x.a == a && x.b == b)
        return ht[h];
      h = (h + 1) % (unsigned) (2 * MAXN);
    }
    if (n >= MAXN) {
      overflow = true;
      return 0;
    }
    nd[n] = node { kind, a, b };
    ht[h] = n;
    return n++;
  }

  constexpr int input (int id)
  {
    return make (K_IN, id, 0);
  }

  /* min (!is_max) or max of two nodes, folded where the answer is known:
   * x op x = x; node 0 is the bottom and node 1 the top of the order, so
   * one of them absorbs (0 for min, 1 for max) and the other is neutral;
   * the operands in order, so that a commuted pair is the same node */
  constexpr int vext (bool is_max, int a, int b)
  {
    const int absorbing = is_max ? 1 : 0, neutral = is_max ? 0 : 1;

    if (a == b)
      return a;
    if (a == absorbing || b == absorbing)
      return absorbing;
    if (a == neutral)
      return b;
    if (b == neutral)
      return a;
    if (a > b) {
      int t = a;
      a = b;
      b = t;
    }
    return make (is_max ? K_MAX : K_MIN, a, b);
  }

  constexpr int vmin (int a, int b)
  {
    return vext (false, a, b);
  }

  constexpr int vmax (int a, int b)
  {
    return vext (true, a, b);
  }
};

/* A sorted list of retained elements; db / da: elements of its subtree
 * dropped below / above the answer. */
struct list
{
  int v[ML];
  int len, db, da;
};

/* Batcher's odd-even merge of sorted a[0..na) and b[0..nb), any sizes:
 * merge the even-indexed and the odd-indexed subsequences into v and w,
 * interleave v0 w0 v1 w1 ... and compare (w[i-1], v[i]). (With z zeros in
 * a 0-1 input, v has ceil(za/2) + ceil(zb/2) zeros and w floor + floor, so
 * the interleaving is sorted up to one pair that the comparator fixes.) */
template <class G>
constexpr void
oe_merge (G &g, const int *a, int na, const int *b, int nb, int *out)
{
  if (na == 0) {
    for (int i = 0; i < nb; i++)
      out[i] = b[i];
    return;
  }
  if (nb == 0) {
    for (int i = 0; i < na; i++)
      out[i] = a[i];
    return;
  }
  if (na == 1 && nb == 1) {
    out[0] = g.vmin (a[0], b[0]);
    out[1] = g.vmax (a[0], b[0]);
    return;
  }
  int ae[ML / 2 + 1] = {}, ao[ML / 2 + 1] = {};
  int be[ML / 2 + 1] = {}, bo[ML / 2 + 1] = {};
  int nae = 0, nao = 0, nbe = 0, nbo = 0;
  for (int i = 0; i < na; i++) {
    if (i % 2)
      ao[nao++] = a[i];
    else
      ae[nae++] = a[i];
  }
  for (int i = 0; i < nb; i++) {
    if (i % 2)
      bo[nbo++] = b[i];
    else
      be[nbe++] = b[i];
  }
  int v[ML] = {}, w[ML] = {};
  oe_merge (g, ae, nae, be, nbe, v);
  oe_merge (g, ao, nao, bo, nbo, w);
  int nv = nae + nbe, nw = nao + nbo, k = 1;
  out[0] = v[0];
  for (int i = 1; i < nv; i++) {
    if (i - 1 < nw) {
      out[k++] = g.vmin (w[i - 1], v[i]);
      out[k++] = g.vmax (w[i - 1], v[i]);
    } else
      out[k++] = v[i];
  }
  for (int i = nv - 1; i < nw; i++)
    out[k++] = w[i];
}

template <class G>
constexpr void
oe_sort (G &g, int *x, int n)
{
  if (n <= 1)
    return;
  int h = n / 2, out[ML] = {};
  oe_sort (g, x, h);
  oe_sort (g, x + h, n - h);
  oe_merge (g, x, h, x + h, n - h, out);
  for (int i = 0; i < n; i++)
    x[i] = out[i];
}

/* Element r of the merge of sorted A and B: max over i + j = r of
 * min (A[i], B[j]), with A[|A|] = B[|B|] = +inf and the terms that these
 * dominate left out. */
template <class G>
constexpr int
select2 (G &g, const list &A, const list &B, int r)
{
  if (A.len == 0)
    return B.v[r];
  if (B.len == 0)
    return A.v[r];
  int terms[ML + 1] = {}, nt = 0;
  int i0 = r - B.len > 0 ? r - B.len : 0;
  int i1 = r < A.len ? r : A.len;
  for (int i = i0; i <= i1; i++) {
    int j = r - i;
    terms[nt++] = i == A.len ? B.v[j] : j == B.len ? A.v[i] :
        g.vmin (A.v[i], B.v[j]);
  }
  while (nt > 1) {              /* balanced max tree */
    int m = 0;
    for (int i = 0; i + 1 < nt; i += 2)
      terms[m++] = g.vmax (terms[i], terms[i + 1]);
    if (nt % 2)
      terms[m++] = terms[nt - 1];
    nt = m;
  }
  return terms[0];
}

/* Merge the retained lists of two disjoint sample sets and prune the
 * result for rank K of N (median-net.cuh, step 3). */
template <class G>
constexpr list
merge_pruned (G &g, int N, int K, const list &A, const list &B)
{
  list L {};
  L.len = A.len + B.len;
  L.db = A.db + B.db;
  L.da = A.da + B.da;
  int rb = L.len - (N - K - L.da);
  if (rb < 0)
    rb = 0;
  int ra = L.len - (K - L.db) - 1;
  if (ra < 0)
    ra = 0;
  int keep = L.len - rb - ra;
  if (A.len == 0 || B.len == 0) {
    const list &S = A.len ? A : B;
    for (int i = 0; i < keep; i++)
      L.v[i] = S.v[rb + i];
  } else if (keep <= 2) {
    for (int i = 0; i < keep; i++)
      L.v[i] = select2 (g, A, B, rb + i);
  } else {
    int out[ML] = {};
    oe_merge (g, A.v, A.len, B.v, B.len, out);
    for (int i = 0; i < keep; i++)
      L.v[i] = out[rb + i];
  }
  L.len = keep;
  L.db += rb;
  L.da += ra;
  return L;
}

/* The TX outputs of one row of a thread; input (px, py) of the patch of
 * (TX + W - 1) x H samples is input id py * PW + px. */
template <int W, int H, int TX, int K, int MAXN>
struct tile_builder
{
  static constexpr int PW = TX + W - 1, N = W * H;
  graph<MAXN> g;
  list col[PW];
  bool have[PW];
  int outs[TX];

  constexpr tile_builder () : g (), col {}, have {}, outs {}
  {
  }

  /* sorted, pruned column x (built once, shared by every output) */
  constexpr const list &column (int x)
  {
    if (!have[x]) {
      int v[ML] = {};
      for (int r = 0; r < H; r++)
        v[r] = g.input (r * PW + x);
      oe_sort (g, v, H);
      list L {}, e {};
      L.len = H;
      for (int r = 0; r < H; r++)
        L.v[r] = v[r];
      col[x] = merge_pruned (g, N, K, e, L);
      have[x] = true;
    }
    return col[x];
  }

  /* columns c0 .. c1 merged as a balanced tree */
  constexpr list cols (int c0, int c1)
  {
    if (c0 > c1) {
      list e {};
      return e;
    }
    if (c0 == c1)
      return column (c0);
    int m = (c0 + c1) / 2;
    list A = cols (c0, m), B = cols (m + 1, c1);
    return merge_pruned (g, N, K, A, B);
  }

  /* Outputs i0 .. i1-1; par: the merged columns pc0 .. pc1 common to all
   * of them (has = false: none yet). */
  constexpr void solve (int i0, int i1, const list &par, int pc0, int pc1,
      bool has)
  {
    int c0 = i1 - 1, c1 = i0 + W - 1;
    if (c0 > c1) {              /* windows too far apart to share */
      int m = (i0 + i1) / 2;
      solve (i0, m, par, pc0, pc1, has);
      solve (m, i1, par, pc0, pc1, has);
      return;
    }
    list E {};
    if (!has)
      E = cols (c0, c1);
    else {
      list A = cols (c0, pc0 - 1), B = cols (pc1 + 1, c1);
      E = merge_pruned (g, N, K, A, B);
    }
    if (i1 - i0 == 1) {
      outs[i0] = select2 (g, par, E, K - par.db - E.db);
      return;
    }
    list L = merge_pruned (g, N, K, par, E);
    int m = (i0 + i1) / 2;
    solve (i0, m, L, c0, c1, true);
    solve (m, i1, L, c0, c1, true);
  }
};

/* A straight-line program: code[i] = kind << 30 | dst << 20 | a << 10 | b
 * (load: a = input id; min / max: a, b = source registers). */
template <int CAP, int NOUT>
struct program
{
  uint32_t code[CAP];
  int n;                        /* ops                   */
  int ns;                       /* registers             */
  int ops;                      /* min / max ops         */
  int out[NOUT];                /* register of an output */
  bool ok;
};

constexpr uint32_t
encode (uint32_t kind, int dst, int a, int b)
{
  return kind << 30 | (uint32_t) dst << 20 | (uint32_t) a << 10 |
      (uint32_t) b;
}

/* Dead-code elimination from the outputs, then registers by a linear scan
 * in creation order (a register is free after its last use). dual: swap
 * min and max (the dual network computes rank N - 1 - K). */
template <int CAP, int NOUT, int MAXN>
constexpr program<CAP, NOUT>
emit (const graph<MAXN> &g, const int *outs, bool dual)
{
  program<CAP, NOUT> p {};
  bool live[MAXN] = {};
  int last[MAXN] = {}, reg[MAXN] = {}, freel[MAXN] = {};
  int nfree = 0, ns = 0;

  p.ok = !g.overflow;
  for (int i = 0; i < NOUT; i++) {
    if (outs[i] < 2)
      p.ok = false;             /* an output folded to a constant */
    live[outs[i]] = true;
  }
  for (int i = g.n - 1; i >= 2; i--)
    if (live[i] && g.nd[i].kind >= K_MIN)
      live[g.nd[i].a] = live[g.nd[i].b] = true;
  for (int i = 0; i < g.n; i++)
    last[i] = -1;
  for (int i = 2; i < g.n; i++)
    if (live[i] && g.nd[i].kind >= K_MIN)
      last[g.nd[i].a] = last[g.nd[i].b] = i;
  for (int i = 0; i < NOUT; i++)
    last[outs[i]] = MAXN;
  for (int i = 2; i < g.n && p.ok; i++) {
    if (!live[i])
      continue;
    if (p.n >= CAP) {
      p.ok = false;
      break;
    }
    const node &x = g.nd[i];
    int r = nfree ? freel[--nfree] : ns++;
    if (x.kind == K_IN)
      p.code[p.n++] = encode (OP_LOAD, r, x.a, 0);
    else {
      p.code[p.n++] = encode ((x.kind == K_MIN) != dual ? OP_MIN : OP_MAX,
          r, reg[x.a], reg[x.b]);
      p.ops++;
    }
    reg[i] = r;
    if (x.kind >= K_MIN) {
      if (last[x.a] == i)
        freel[nfree++] = reg[x.a];
      if (last[x.b] == i && x.b != x.a)
        freel[nfree++] = reg[x.b];
    }
  }
  for (int i = 0; i < NOUT; i++)
    p.out[i] = reg[outs[i]];
  p.ns = ns;
  if (ns >= 1024)
    p.ok = false;
  return p;
}

/* Batcher's networks are not symmetric (the maximum of a sorted column
 * costs more than its minimum), so a rank above the median is built as
 * the min / max dual of rank N - 1 - K. */
template <int W, int H, int TX, int K, int MAXN>
constexpr program<MAXN, TX>
build_tile ()
{
  constexpr int N = W * H;
  constexpr bool dual = K > (N - 1) / 2;
  tile_builder<W, H, TX, dual ? N - 1 - K : K, MAXN> b {};
  list e {};
  b.solve (0, TX, e, 1, 0, false);
  return emit<MAXN, TX, MAXN> (b.g, b.outs, dual);
}

/* A full sorting network of NS inputs (every output kept). */
template <int NS, int MAXN>
constexpr program<MAXN, NS>
build_sort ()
{
  graph<MAXN> g {};
  int v[ML] = {};
  for (int i = 0; i < NS; i++)
    v[i] = g.input (i);
  oe_sort (g, v, NS);
  return emit<MAXN, NS, MAXN> (g, v, false);
}

}                               /* namespace med_nb */
