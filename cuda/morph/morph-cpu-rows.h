/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The row passes of morph-cpu.c for one sample type, included once per
 * depth with T (uint8_t or uint16_t) and SFX (a name suffix) defined.
 * Every loop runs over whole rows so that the compiler vectorises it:
 * blocks of CPU_BLOCK samples, a constant trip count that GCC vectorises
 * at -O2 too, then the rest. */

#define CAT_(a, b) a ## b
#define CAT(a, b) CAT_ (a, b)
#define FN(name) CAT (name, SFX)

/* The element-wise min or max of whole rows. Each kernel runs on blocks
 * of CPU_BLOCK samples, then on the rest: inlined with that constant
 * count, its loop is one GCC vectorises at -O2 (where it refuses loops
 * of unknown length). The pointers of one call never alias what they
 * write (restrict); the in-place forms take the row they update once. */
#define MIN2(x, y) ((x) < (y) ? (x) : (y))
#define MAX2(x, y) ((x) > (y) ? (x) : (y))
#define ROW_KERNEL(name, params, expr) \
  static inline void FN (name) params \
  { \
    for (int j = 0; j < n; j++) \
      expr; \
  }
ROW_KERNEL (k_min, (T * restrict d, const T * restrict a,
        const T * restrict b, int n), d[j] = MIN2 (a[j], b[j]))
ROW_KERNEL (k_max, (T * restrict d, const T * restrict a,
        const T * restrict b, int n), d[j] = MAX2 (a[j], b[j]))
ROW_KERNEL (k_min_in, (T * restrict d, const T * restrict b, int n),
    d[j] = MIN2 (d[j], b[j]))
ROW_KERNEL (k_max_in, (T * restrict d, const T * restrict b, int n),
    d[j] = MAX2 (d[j], b[j]))
ROW_KERNEL (k_min3, (T * restrict d, const T * restrict a,
        const T * restrict b, int n), d[j] = MIN2 (d[j], MIN2 (a[j], b[j])))
ROW_KERNEL (k_max3, (T * restrict d, const T * restrict a,
        const T * restrict b, int n), d[j] = MAX2 (d[j], MAX2 (a[j], b[j])))
ROW_KERNEL (k_sub_in, (T * restrict d, const T * restrict b, int n),
    d[j] = (T) (d[j] > b[j] ? d[j] - b[j] : 0))
ROW_KERNEL (k_sub_from, (T * restrict d, const T * restrict a, int n),
    d[j] = (T) (a[j] > d[j] ? a[j] - d[j] : 0))
#undef ROW_KERNEL

/* A row function over blocks of CPU_BLOCK, then the rest: @sel picks
 * kernel @k_yes or @k_no, called with @args, in which cnt is the count */
#define ROW_BLOCKED(name, params, sel, k_yes, k_no, args) \
  static inline void FN (name) params \
  { \
    int i = 0; \
    for (; i + CPU_BLOCK <= n; i += CPU_BLOCK) { \
      const int cnt = CPU_BLOCK; \
      if (sel) \
        FN (k_yes) args; \
      else \
        FN (k_no) args; \
    } \
    { \
      const int cnt = n - i; \
      if (sel) \
        FN (k_yes) args; \
      else \
        FN (k_no) args; \
    } \
  }

/* d = max (d - b, 0), or max (b - d, 0) when @from */
ROW_BLOCKED (row_sub, (T * restrict d, const T * restrict b, int n,
        int from), from, k_sub_from, k_sub_in, (d + i, b + i, cnt))
/* d = min/max (a, b) */
ROW_BLOCKED (row_ext, (T * restrict d, const T * restrict a,
        const T * restrict b, int n, int is_min), is_min, k_min, k_max,
    (d + i, a + i, b + i, cnt))
/* d = min/max (d, b) */
ROW_BLOCKED (row_ext_in, (T * restrict d, const T * restrict b, int n,
        int is_min), is_min, k_min_in, k_max_in, (d + i, b + i, cnt))
/* acc = min/max (acc, a, b) */
ROW_BLOCKED (row_ext3, (T * restrict acc, const T * restrict a,
        const T * restrict b, int n, int is_min), is_min, k_min3, k_max3,
    (acc + i, a + i, b + i, cnt))
#undef ROW_BLOCKED

static void
FN (row_fill) (T * d, T v, int n)
{
  for (int i = 0; i < n; i++)
    d[i] = v;
}

/* Row @r of the border-extended source (0 <= r < height or not): a row
 * of the image, or @fill's row (NEUTRAL: the identity, CONSTANT: the
 * value) when it lies outside and the rule is not an index map. */
static const T *
FN (src_row) (const cm_image * src, int r, cm_border_mode border,
    const T * fill)
{
  if (r < 0 || r >= src->height) {
    if (border == CM_BORDER_NEUTRAL || border == CM_BORDER_CONSTANT)
      return fill;
    r = cm_border_map (border, r, src->height);
  }
  return (const T *) ((const uint8_t *) src->data + (size_t) r * src->pitch);
}

/* e[0 .. pad_l + w + pad_r): @row (w samples) with @pad_l and @pad_r
 * columns of the border rule on each side. */
static void
FN (row_extend) (T * e, const T * row, int w, int pad_l, int pad_r,
    cm_border_mode border, T fill)
{
  if (row != e + pad_l)
    memcpy (e + pad_l, row, sizeof (T) * (size_t) w);
  if (border == CM_BORDER_NEUTRAL || border == CM_BORDER_CONSTANT) {
    FN (row_fill) (e, fill, pad_l);
    FN (row_fill) (e + pad_l + w, fill, pad_r);
    return;
  }
  for (int x = -pad_l; x < 0; x++)
    e[pad_l + x] = row[cm_border_map (border, x, w)];
  for (int x = w; x < w + pad_r; x++)
    e[pad_l + x] = row[cm_border_map (border, x, w)];
}

/* Levels 1 .. @k over level 0 (the @n samples at lv): level j (at
 * lv + j * stride) holds the min/max of 2^j consecutive samples from
 * each position, valid for the first n - 2^j + 1. */
static void
FN (row_levels) (T * lv, int n, int k, size_t stride, int is_min)
{
  for (int j = 1; j <= k; j++) {
    int half = 1 << (j - 1), m = n - (1 << j) + 1;
    T *prev = lv + (size_t) (j - 1) * stride;

    if (m > 0)
      FN (row_ext) (lv + (size_t) j * stride, prev, prev + half, m, is_min);
  }
}

/* acc[x] = min/max (acc[x], the run [x + a, x + a + len) of the extended
 * row whose levels are at lv, column 0 at lv + pad_l), x in [0, w) */
static inline void
FN (acc_run) (T * acc, const T * lv, size_t stride, int pad_l, int a,
    int len, int w, int is_min)
{
  int j = cpu_log2 (len);
  const T *level = lv + (size_t) j * stride + pad_l + a;

  FN (row_ext3) (acc, level, level + len - (1 << j), w, is_min);
}

/* One erosion or dilation, rows [y0, y1) of @dst, by the separable
 * rectangle (s->dy0 .. + s->h rows, s->a .. + s->len columns): van
 * Herk/Gil-Werman down the columns (blocks of h rows: the suffix extremes
 * of a block and the prefix extremes of the next, 3 row operations a
 * row whatever h), then the runs of the rows. @scratch: cpu_separable_
 * scratch () samples. */
static void
FN (separable_rows) (const cpu_shape * s, int is_min, cm_border_mode border,
    T fill, const cm_image * src, const cm_image * dst, int y0, int y1,
    T * scratch, const cm_cpu_opts * opts, int *cancelled)
{
  const int w = src->width, h = s->h;
  const int pad_l = s->a < 0 ? -s->a : 0;
  const int pad_r = s->a + s->len - 1 > 0 ? s->a + s->len - 1 : 0;
  const size_t stride = (size_t) (pad_l + w + pad_r);
  const int k = cpu_log2 (s->len);
  T *suffix = scratch;                          /* h rows of w */
  T *prefix = suffix + (size_t) h * w;          /* w */
  T *fill_row = prefix + w;                     /* w */
  T *lv = fill_row + w;                         /* k + 1 rows of stride */
  T *column = lv;                               /* the vertical result */

  FN (row_fill) (fill_row, fill, w);
  for (int s0 = y0 + s->dy0; s0 < y1 + s->dy0; s0 += h) {
    /* suffix[i]: rows s0 + i .. s0 + h - 1 */
    memcpy (suffix + (size_t) (h - 1) * w,
        FN (src_row) (src, s0 + h - 1, border, fill_row), sizeof (T) * w);
    for (int i = h - 2; i >= 0; i--)
      FN (row_ext) (suffix + (size_t) i * w, suffix + (size_t) (i + 1) * w,
          FN (src_row) (src, s0 + i, border, fill_row), w, is_min);
    for (int i = 0; i < h && s0 + i < y1 + s->dy0; i++) {
      int y = s0 + i - s->dy0;
      T *out = (T *) ((uint8_t *) dst->data + (size_t) y * dst->pitch);

      if (cm_cpu_cancelled (opts)) {
        *cancelled = 1;
        return;
      }
      /* prefix: rows s0 + h .. s0 + h + i - 1 */
      if (i == 1)
        memcpy (prefix, FN (src_row) (src, s0 + h, border, fill_row),
            sizeof (T) * w);
      else if (i > 1)
        FN (row_ext_in) (prefix, FN (src_row) (src, s0 + h + i - 1,
                border, fill_row), w, is_min);
      if (i == 0)
        FN (row_extend) (column, suffix, w, pad_l, pad_r, border, fill);
      else {
        FN (row_ext) (column + pad_l, suffix + (size_t) i * w, prefix, w,
            is_min);
        FN (row_extend) (column, column + pad_l, w, pad_l, pad_r, border,
            fill);
      }
      FN (row_levels) (lv, (int) stride, k, stride, is_min);
      {
        /* the row's one run: the extreme of its two level-k samples */
        const T *level = lv + (size_t) k * stride + pad_l + s->a;

        FN (row_ext) (out, level, level + s->len - (1 << k), w, is_min);
      }
    }
  }
}

/* Row @r of the border-extended source read along a diagonal: d[k] =
 * f_ext (k + @base, r) for k in [0, n) */
static void
FN (diagonal_row) (T * d, const cm_image * src, int r, int base, int n,
    cm_border_mode border, T fill, const T * fill_row)
{
  const int w = src->width;
  const T *row = FN (src_row) (src, r, border, fill_row);
  int k0 = -base < 0 ? 0 : (-base > n ? n : -base);
  int k1 = w - base > n ? n : (w - base < k0 ? k0 : w - base);

  if (k1 > k0)
    memcpy (d + k0, row + k0 + base, sizeof (T) * (size_t) (k1 - k0));
  if (border == CM_BORDER_NEUTRAL || border == CM_BORDER_CONSTANT) {
    FN (row_fill) (d, fill, k0);
    FN (row_fill) (d + k1, fill, n - k1);
    return;
  }
  for (int k = 0; k < k0; k++)
    d[k] = row[cm_border_map (border, k + base, w)];
  for (int k = k1; k < n; k++)
    d[k] = row[cm_border_map (border, k + base, w)];
}

/* One erosion or dilation, rows [y0, y1) of @dst, by a contiguous
 * diagonal line (one sample a row, the column moving by s->step = +1 or
 * -1 a row, s->a at row s->dy0): van Herk/Gil-Werman along the diagonal.
 * With q = x_src - step * r constant along the line, out (x, y) is the
 * extreme over h consecutive rows of G_r (q) = f_ext (q + step * r, r) at
 * q = x + a - step * (y + dy0): the column pass of the rectangle on rows
 * read along the diagonal, a block's rows aligned on the q of its
 * outputs. @scratch: h + 2 rows of w + h. */
static void
FN (diagonal_rows) (const cpu_shape * s, int is_min, cm_border_mode border,
    T fill, const cm_image * src, const cm_image * dst, int y0, int y1,
    T * scratch, const cm_cpu_opts * opts, int *cancelled)
{
  const int w = src->width, h = s->h, step = s->step;
  const int wq = w + h - 1;
  T *suffix = scratch;                          /* h rows of wq */
  T *prefix = suffix + (size_t) h * wq;         /* wq */
  T *fill_row = prefix + wq;                    /* w */

  FN (row_fill) (fill_row, fill, w);
  for (int s0 = y0 + s->dy0; s0 < y1 + s->dy0; s0 += h) {
    /* the q of the block's outputs start at qlo (x = 0 of its extreme
     * row): k = q - qlo in [0, wq) */
    int qlo = s->a - step * s0 - (step > 0 ? h - 1 : 0);

    FN (diagonal_row) (suffix + (size_t) (h - 1) * wq, src, s0 + h - 1,
        qlo + step * (s0 + h - 1), wq, border, fill, fill_row);
    for (int i = h - 2; i >= 0; i--) {
      T *row = prefix;                          /* free until i == 0 */

      FN (diagonal_row) (row, src, s0 + i, qlo + step * (s0 + i), wq,
          border, fill, fill_row);
      FN (row_ext) (suffix + (size_t) i * wq, suffix + (size_t) (i + 1) * wq,
          row, wq, is_min);
    }
    for (int i = 0; i < h && s0 + i < y1 + s->dy0; i++) {
      int y = s0 + i - s->dy0;
      int k = s->a - step * (y + s->dy0) - qlo;
      T *out = (T *) ((uint8_t *) dst->data + (size_t) y * dst->pitch);

      if (cm_cpu_cancelled (opts)) {
        *cancelled = 1;
        return;
      }
      /* prefix: rows s0 + h .. s0 + h + i - 1, aligned on qlo */
      if (i == 1)
        FN (diagonal_row) (prefix, src, s0 + h, qlo + step * (s0 + h), wq,
            border, fill, fill_row);
      else if (i > 1) {
        T *row = fill_row + w;                  /* the row after prefix */

        FN (diagonal_row) (row, src, s0 + h + i - 1,
            qlo + step * (s0 + h + i - 1), wq, border, fill, fill_row);
        FN (row_ext_in) (prefix, row, wq, is_min);
      }
      if (i == 0)
        memcpy (out, suffix + k, sizeof (T) * (size_t) w);
      else
        FN (row_ext) (out, suffix + (size_t) i * wq + k, prefix + k, w,
            is_min);
    }
  }
}

/* One erosion or dilation, rows [y0, y1) of @dst, by the runs of every
 * row of the SE: each source row is extended and its levels computed once
 * (a ring of s->h rows), then an output row takes two level samples a
 * run. @scratch: cpu_chords_scratch () samples. */
static void
FN (chords_rows) (const cpu_shape * s, int is_min, cm_border_mode border,
    T fill, const cm_image * src, const cm_image * dst, int y0, int y1,
    T * scratch, const cm_cpu_opts * opts, int *cancelled)
{
  const int w = src->width, h = s->h;
  const size_t stride = (size_t) (s->pad_l + w + s->pad_r);
  const size_t slot = stride * (size_t) (s->k + 1);
  /* the source row each slot of the ring holds, the fill row, the ring */
  int *held = (int *) (void *) scratch;
  T *fill_row = (T *) (void *) ((uint8_t *) scratch +
      cm_align64 ((size_t) h * sizeof (int)));
  T *ring = fill_row + cm_align64 (w);

  FN (row_fill) (fill_row, fill, w);
  for (int i = 0; i < h; i++)
    held[i] = INT32_MIN;
  for (int y = y0; y < y1; y++) {
    T *out = (T *) ((uint8_t *) dst->data + (size_t) y * dst->pitch);

    if (cm_cpu_cancelled (opts)) {
      *cancelled = 1;
      return;
    }
    FN (row_fill) (out, is_min ? (T) ~(T) 0 : 0, w);
    for (int r = 0; r < s->n_runs; r++) {
      const cpu_run *run = &s->runs[r];
      int sy = y + run->dy;
      int i = ((sy % h) + h) % h;
      T *lv = ring + slot * (size_t) i;

      if (held[i] != sy) {
        FN (row_extend) (lv, FN (src_row) (src, sy, border, fill_row), w,
            s->pad_l, s->pad_r, border, fill);
        FN (row_levels) (lv, (int) stride, s->k, stride, is_min);
        held[i] = sy;
      }
      FN (acc_run) (out, lv, stride, s->pad_l, run->a, run->len, w, is_min);
    }
  }
}

/* One erosion or dilation, rows [y0, y1) of @dst, by the pass @s takes */
static void
FN (shape_rows) (const cpu_shape * s, int is_min, cm_border_mode border,
    T fill, const cm_image * src, const cm_image * dst, int y0, int y1,
    T * scratch, const cm_cpu_opts * opts, int *cancelled)
{
  if (s->diagonal)
    FN (diagonal_rows) (s, is_min, border, fill, src, dst, y0, y1, scratch,
        opts, cancelled);
  else if (s->separable)
    FN (separable_rows) (s, is_min, border, fill, src, dst, y0, y1, scratch,
        opts, cancelled);
  else
    FN (chords_rows) (s, is_min, border, fill, src, dst, y0, y1, scratch,
        opts, cancelled);
}

#undef MIN2
#undef MAX2
#undef FN
#undef CAT
#undef CAT_
