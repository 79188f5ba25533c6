/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* median-cpu-exec.h: each loop runs blocks of CM_MNET_BLOCK samples
 * through restrict pointers, which is what gcc's cheapest vectorisation
 * model (-O2) takes: no run-time alias or trip-count checks. */
#include "median-cpu-exec.h"
#include "cm-cpu-clones.h"

#include <string.h>

#define BLK CM_MNET_BLOCK

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) < (b) ? (b) : (a))

/* A comparator with one output: @d = OP (a, b), sample by sample */
#define DEFINE_ONE_SIDED(T, name, OP) \
static inline void \
name (T * restrict d, const T * restrict a, const T * restrict b, int len) \
{ \
  for (int x = 0; x < len; x += BLK) \
    for (int i = 0; i < BLK; i++) \
      d[x + i] = OP (a[x + i], b[x + i]); \
}

/* One comparator of each kind and the phase loops, for sample type T */
#define DEFINE_LOOPS(T, S) \
static inline void \
cmp_##S (T * restrict lo, T * restrict hi, const T * restrict a, \
    const T * restrict b, int len) \
{ \
  for (int x = 0; x < len; x += BLK) \
    for (int i = 0; i < BLK; i++) { \
      T u = a[x + i], v = b[x + i]; \
      lo[x + i] = MIN (u, v); \
      hi[x + i] = MAX (u, v); \
    } \
} \
\
DEFINE_ONE_SIDED (T, min_##S, MIN) \
DEFINE_ONE_SIDED (T, max_##S, MAX) \
\
CM_CPU_CLONES static void \
run_##S (const cm_mnet * net, void *const *loc, int len) \
{ \
  for (int i = 0; i < net->n_ops; i++) { \
    const cm_mnet_op *o = &net->ops[i]; \
\
    if (o->b < 0) \
      memcpy (loc[o->lo], loc[o->a], sizeof (T) * (size_t) len); \
    else if (o->hi < 0) \
      min_##S (loc[o->lo], loc[o->a], loc[o->b], len); \
    else if (o->lo < 0) \
      max_##S (loc[o->hi], loc[o->a], loc[o->b], len); \
    else \
      cmp_##S (loc[o->lo], loc[o->hi], loc[o->a], loc[o->b], len); \
  } \
} \
\
CM_CPU_CLONES static void \
split2_##S (T * restrict d0, T * restrict d1, const T * restrict s, int q) \
{ \
  for (int x = 0; x < q; x += BLK) \
    for (int i = 0; i < BLK; i++) { \
      d0[x + i] = s[2 * (x + i)]; \
      d1[x + i] = s[2 * (x + i) + 1]; \
    } \
} \
\
CM_CPU_CLONES static void \
split4_##S (T * restrict d0, T * restrict d1, T * restrict d2, \
    T * restrict d3, const T * restrict s, int q) \
{ \
  for (int x = 0; x < q; x += BLK) \
    for (int i = 0; i < BLK; i++) { \
      d0[x + i] = s[4 * (x + i)]; \
      d1[x + i] = s[4 * (x + i) + 1]; \
      d2[x + i] = s[4 * (x + i) + 2]; \
      d3[x + i] = s[4 * (x + i) + 3]; \
    } \
} \
\
CM_CPU_CLONES static void \
join2_##S (T * restrict d, const T * restrict s0, const T * restrict s1, \
    int len) \
{ \
  for (int x = 0; x < len; x += BLK) \
    for (int i = 0; i < BLK; i++) { \
      d[2 * (x + i)] = s0[x + i]; \
      d[2 * (x + i) + 1] = s1[x + i]; \
    } \
} \
\
CM_CPU_CLONES static void \
join4_##S (T * restrict d, const T * restrict s0, const T * restrict s1, \
    const T * restrict s2, const T * restrict s3, int len) \
{ \
  for (int x = 0; x < len; x += BLK) \
    for (int i = 0; i < BLK; i++) { \
      d[4 * (x + i)] = s0[x + i]; \
      d[4 * (x + i) + 1] = s1[x + i]; \
      d[4 * (x + i) + 2] = s2[x + i]; \
      d[4 * (x + i) + 3] = s3[x + i]; \
    } \
}

DEFINE_LOOPS (uint8_t, u8)
DEFINE_LOOPS (uint16_t, u16)

/* The 3x3 median from the columns sorted once (lo <= mid <= hi): the
 * median of a window is med3 (max3 of its lows, med3 of its middles, min3
 * of its highs) (Paeth, "Median finding on a 3x3 grid", Graphics Gems,
 * 1990) */
#define MED3(a, b, c) MAX (MIN (a, b), MIN (MAX (a, b), c))
#define DEFINE_MEDIAN3(T, S) \
CM_CPU_CLONES static void \
median3_##S (T * restrict out, const T * restrict r0, \
    const T * restrict r1, const T * restrict r2, T * restrict lo, \
    T * restrict mid, T * restrict hi, int len) \
{ \
  for (int x = 0; x < len + BLK; x += BLK) \
    for (int i = 0; i < BLK; i++) { \
      T a = r0[x + i], b = r1[x + i], c = r2[x + i]; \
      T l = MIN (a, b), h = MAX (a, b); \
      lo[x + i] = MIN (l, c); \
      hi[x + i] = MAX (h, c); \
      mid[x + i] = MAX (l, MIN (h, c)); \
    } \
  for (int x = 0; x < len; x += BLK) \
    for (int i = 0; i < BLK; i++) { \
      T l = MAX (MAX (lo[x + i], lo[x + i + 1]), lo[x + i + 2]); \
      T h = MIN (MIN (hi[x + i], hi[x + i + 1]), hi[x + i + 2]); \
      T m = MED3 (mid[x + i], mid[x + i + 1], mid[x + i + 2]); \
      out[x + i] = MED3 (l, m, h); \
    } \
}

DEFINE_MEDIAN3 (uint8_t, u8)
DEFINE_MEDIAN3 (uint16_t, u16)

void
cm_mnet_run (const cm_mnet * net, void *const *loc, int len, int bpp)
{
  if (bpp == 1)
    run_u8 (net, loc, len);
  else
    run_u16 (net, loc, len);
}

void
cm_mrow_split (void *dst, const void *src, int g, int q, int bpp)
{
  uint8_t *d8 = dst;
  uint16_t *d16 = dst;

  if (g == 1)
    memcpy (dst, src, (size_t) q * (size_t) bpp);
  else if (g == 2 && bpp == 1)
    split2_u8 (d8, d8 + q, src, q);
  else if (g == 2)
    split2_u16 (d16, d16 + q, src, q);
  else if (bpp == 1)
    split4_u8 (d8, d8 + q, d8 + 2 * q, d8 + 3 * q, src, q);
  else
    split4_u16 (d16, d16 + q, d16 + 2 * q, d16 + 3 * q, src, q);
}

void
cm_mrow_join (void *dst, void *const *src, int g, int len, int bpp)
{
  if (g == 1)
    memcpy (dst, src[0], (size_t) len * (size_t) bpp);
  else if (g == 2 && bpp == 1)
    join2_u8 (dst, src[0], src[1], len);
  else if (g == 2)
    join2_u16 (dst, src[0], src[1], len);
  else if (bpp == 1)
    join4_u8 (dst, src[0], src[1], src[2], src[3], len);
  else
    join4_u16 (dst, src[0], src[1], src[2], src[3], len);
}

void
cm_mrow_median3 (void *out, void *const *rows, void *const *tmp, int len,
    int bpp)
{
  if (bpp == 1)
    median3_u8 (out, rows[0], rows[1], rows[2], tmp[0], tmp[1], tmp[2], len);
  else
    median3_u16 (out, rows[0], rows[1], rows[2], tmp[0], tmp[1], tmp[2],
        len);
}
