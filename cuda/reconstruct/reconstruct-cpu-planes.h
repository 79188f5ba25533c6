/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The hybrid reconstruction of reconstruct-cpu.c on planes of one sample
 * type, included once per depth with T (uint8_t or uint16_t) and SFX (a
 * name suffix) defined. j (the marker) and i (the mask) are padded by a
 * sample of 0 on every side; j <= i everywhere, the padding included, so
 * that a pad sample never raises a pixel nor gets queued. The element-wise
 * loops run on blocks of RC_BLOCK samples, a constant trip count that GCC
 * vectorises at -O2 too, then on the rest. */

#define CAT_(a, b) a ## b
#define CAT(a, b) CAT_ (a, b)
#define FN(name) CAT (name, SFX)
#define TMAX ((T) ~(T) 0)

/* Whole-row kernels, n samples from the pointers given. */
#define ROW_KERNEL(name, params, body) \
  static inline void FN (name) params \
  { \
    for (int x = 0; x < n; x++) \
      body; \
  } \
  static inline void FN (CAT (name, _row)) params \
  { \
    int b = 0; \
    for (; b + RC_BLOCK <= n; b += RC_BLOCK) \
      FN (name) ROW_ARGS (b, RC_BLOCK); \
    FN (name) ROW_ARGS (b, n - b); \
  }

/* j = min (max (j, nb[-1], nb[0], nb[1]), i): the row before (raster
 * scan) or after (anti-raster scan), taken before the run along the row */
#define ROW_ARGS(b, m) (j + b, nb + b, i + b, m)
ROW_KERNEL (k_fold8, (T * restrict j, const T * restrict nb,
        const T * restrict i, int n), j[x] = RC_MIN (RC_MAX (RC_MAX (j[x],
                nb[x - 1]), RC_MAX (nb[x], nb[x + 1])), i[x]))
ROW_KERNEL (k_fold4, (T * restrict j, const T * restrict nb,
        const T * restrict i, int n), j[x] = RC_MIN (RC_MAX (j[x], nb[x]),
        i[x]))
#undef ROW_ARGS

/* u = j where the mask lets it rise (j < i), else TMAX: what the queue's
 * seeds compare with */
#define ROW_ARGS(b, m) (u + b, j + b, i + b, m)
ROW_KERNEL (k_free, (T * restrict u, const T * restrict j,
        const T * restrict i, int n), u[x] = j[x] < i[x] ? j[x] : TMAX)
#undef ROW_ARGS

/* seed flags of a row after its anti-raster scan: a neighbour after it
 * (u: this row, un: the next) that it can raise */
#define ROW_ARGS(b, m) (f + b, j + b, u + b, un + b, m)
ROW_KERNEL (k_seeds8, (uint8_t * restrict f, const T * restrict j,
        const T * restrict u, const T * restrict un, int n),
    f[x] = RC_MIN (RC_MIN (u[x + 1], un[x - 1]), RC_MIN (un[x],
            un[x + 1])) < j[x])
ROW_KERNEL (k_seeds4, (uint8_t * restrict f, const T * restrict j,
        const T * restrict u, const T * restrict un, int n),
    f[x] = RC_MIN (u[x + 1], un[x]) < j[x])
#undef ROW_ARGS

/* the marker and the output from the mask */
#define ROW_ARGS(b, m) (d + b, m)
ROW_KERNEL (k_flip, (T * restrict d, int n), d[x] = (T) (TMAX - d[x]))
#undef ROW_ARGS
#define ROW_ARGS(b, m) (d + b, s + b, h, m)
ROW_KERNEL (k_sub, (T * restrict d, const T * restrict s, T h, int n),
    d[x] = (T) (s[x] > h ? s[x] - h : 0))
#undef ROW_ARGS
#define ROW_ARGS(b, m) (d + b, s + b, m)
ROW_KERNEL (k_min_in, (T * restrict d, const T * restrict s, int n),
    d[x] = RC_MIN (d[x], s[x]))
ROW_KERNEL (k_residue, (T * restrict d, const T * restrict s, int n),
    d[x] = (T) (s[x] - d[x]))
#undef ROW_ARGS
#undef ROW_KERNEL

/* The run along a row, left to right (raster) or right to left: j[x] =
 * max (j[x], min (j[x -+ 1], i[x])), which is the scan's
 * min (max (j[x], j[x -+ 1]), i[x]) since j[x] <= i[x]. Serial. */
static inline void
FN (run_right) (T * restrict j, const T * restrict i, int n)
{
  T prev = 0;

  for (int x = 0; x < n; x++) {
    T v = RC_MAX (j[x], RC_MIN (prev, i[x]));

    j[x] = v;
    prev = v;
  }
}

static inline void
FN (run_left) (T * restrict j, const T * restrict i, int n)
{
  T prev = 0;

  for (int x = n - 1; x >= 0; x--) {
    T v = RC_MAX (j[x], RC_MIN (prev, i[x]));

    j[x] = v;
    prev = v;
  }
}

/* The flagged pixels of a row (plane index @base + x) onto the lists of
 * their levels; the pool has room for n more. */
static inline void
FN (push_seeds) (rc_queue * q, const uint8_t * f, const T * j, int n,
    uint32_t base)
{
  for (int x = 0; x < n; x += 8) {
    const int m = n - x < 8 ? n - x : 8;
    uint64_t word = 0;

    memcpy (&word, f + x, (size_t) m);
    if (word == 0)
      continue;
    for (int k = x; k < x + m; k++)
      if (f[k]) {
        rc_push (q, base + (uint32_t) k, j[k]);
        if (j[k] > q->top)
          q->top = j[k];
      }
  }
}

/* One neighbour r of the pixel p being served at level lv: raised to
 * min (lv, i[r]) if that is higher, then served at once (lv: onto the
 * stack) or at its lower level (its list). A pad sample (0, under a mask
 * of 0) is never raised. */
#define RC_VISIT(off) do { \
    const size_t r_ = p + (off); \
    const T nv_ = RC_MIN (lv, i[r_]); \
    if (j[r_] < nv_) { \
      j[r_] = nv_; \
      if (nv_ == lv) { \
        stack[sn++] = (uint32_t) r_; \
      } else { \
        pool[n].pix = (uint32_t) r_; \
        pool[n].next = head[nv_]; \
        head[nv_] = (uint32_t) n++; \
      } \
    } \
  } while (0)

/* The propagation: levels from the highest seeded down, each list's
 * pixels served with what they raise at that level (a stack, so the
 * flood stays where it is in the frame); a pixel raised by a level is at
 * its final value (what comes later is lower), so each pixel is raised
 * at most once here. CM_ERR_CANCELLED when @opts asks, looked at every
 * RC_CHECK_EVERY pixels. */
static cm_status
FN (propagate) (cm_recon_cpu * c, T * restrict j, const T * restrict i)
{
  rc_queue *q = &c->queue;
  const ptrdiff_t s = (ptrdiff_t) c->stride;
  const int conn8 = c->desc.connectivity == 8;
  uint32_t *const head = q->head;
  rc_entry *pool = q->pool;
  uint32_t *stack = q->stack;
  size_t n = q->n, sn = 0;
  unsigned countdown = RC_CHECK_EVERY;

  for (int level = q->top; level > 0; level--) {
    const T lv = (T) level;
    uint32_t e;

    while ((e = head[level]) != RC_NONE) {
      size_t p = pool[e].pix;

      head[level] = pool[e].next;
      /* raised since it was listed: served at that level already */
      if (j[p] != lv)
        continue;
      stack[0] = (uint32_t) p;
      sn = 1;
      while (sn > 0) {
        if (n + 8 > q->cap || sn + 8 > q->stack_cap) {
          /* room for what one pixel may push (kept for later frames) */
          q->n = n;
          if (!rc_queue_room (q, 8, sn + 8))
            return CM_ERR_NO_MEMORY;
          pool = q->pool;
          stack = q->stack;
        }
        if (--countdown == 0) {
          if (cm_cpu_cancelled (c->opts))
            return CM_ERR_CANCELLED;
          countdown = RC_CHECK_EVERY;
        }
        p = stack[--sn];
        RC_VISIT (-s);
        RC_VISIT (-1);
        RC_VISIT (1);
        RC_VISIT (s);
        if (conn8) {
          RC_VISIT (-s - 1);
          RC_VISIT (-s + 1);
          RC_VISIT (s - 1);
          RC_VISIT (s + 1);
        }
      }
    }
  }
  q->n = 0;
  q->top = 0;
  return CM_OK;
}

#undef RC_VISIT

/* Vincent (1993), hybrid: the raster scan, the anti-raster scan that
 * seeds the queue, then the queue. j (<= i) becomes the reconstruction
 * by dilation of j under i. */
static cm_status
FN (reconstruct) (cm_recon_cpu * c)
{
  const int w = c->width, h = c->height, conn8 = c->desc.connectivity == 8;
  const size_t s = c->stride;
  T *const jp = (T *) c->j;
  const T *const ip = (const T *) c->i;
  T *u = (T *) c->urow[0] + 1, *un = (T *) c->urow[1] + 1;

  rc_queue_reset (&c->queue, (size_t) TMAX + 1);
  for (int y = 0; y < h; y++) {
    T *j = jp + (size_t) (y + 1) * s + 1;
    const T *i = ip + (size_t) (y + 1) * s + 1;

    if (cm_cpu_cancelled (c->opts))
      return CM_ERR_CANCELLED;
    if (conn8)
      FN (k_fold8_row) (j, j - s, i, w);
    else
      FN (k_fold4_row) (j, j - s, i, w);
    FN (run_right) (j, i, w);
  }
  /* the row below the last one: nothing it could raise */
  for (int x = -1; x <= w; x++)
    un[x] = TMAX;
  u[-1] = u[w] = TMAX;
  for (int y = h - 1; y >= 0; y--) {
    T *j = jp + (size_t) (y + 1) * s + 1, *t;
    const T *i = ip + (size_t) (y + 1) * s + 1;

    if (cm_cpu_cancelled (c->opts))
      return CM_ERR_CANCELLED;
    if (conn8)
      FN (k_fold8_row) (j, j + s, i, w);
    else
      FN (k_fold4_row) (j, j + s, i, w);
    FN (run_left) (j, i, w);
    FN (k_free_row) (u, j, i, w);
    if (conn8)
      FN (k_seeds8_row) (c->flags, j, u, un, w);
    else
      FN (k_seeds4_row) (c->flags, j, u, un, w);
    if (!rc_queue_room (&c->queue, (size_t) w, 0))
      return CM_ERR_NO_MEMORY;
    FN (push_seeds) (&c->queue, c->flags, j, w,
        (uint32_t) ((size_t) (y + 1) * s + 1));
    t = u;
    u = un;
    un = t;
  }
  return FN (propagate) (c, jp, ip);
}

/* Row y of @src into the mask's plane, complemented when @flip */
static void
FN (load_mask) (cm_recon_cpu * c, const cm_image * src, int flip)
{
  const int w = c->width;

  for (int y = 0; y < c->height; y++) {
    T *i = (T *) c->i + (size_t) (y + 1) * c->stride + 1;

    memcpy (i, (const uint8_t *) src->data + (size_t) y * src->pitch,
        (size_t) w * sizeof (T));
    if (flip)
      FN (k_flip_row) (i, w);
  }
}

/* The marker's plane: the mask on the outer rows and columns and 0
 * inside (fill holes, clear border), the mask less @hgt (h-ops), or
 * @marker (complemented when @flip), then clamped under the mask. */
static void
FN (load_marker) (cm_recon_cpu * c, rc_marker kind, T hgt,
    const cm_image * marker, int flip)
{
  const int w = c->width, h = c->height;

  for (int y = 0; y < h; y++) {
    T *j = (T *) c->j + (size_t) (y + 1) * c->stride + 1;
    const T *i = (const T *) c->i + (size_t) (y + 1) * c->stride + 1;

    switch (kind) {
      case RC_MARKER_BORDER:
        if (y == 0 || y == h - 1) {
          memcpy (j, i, (size_t) w * sizeof (T));
        } else {
          memset (j, 0, (size_t) w * sizeof (T));
          j[0] = i[0];
          j[w - 1] = i[w - 1];
        }
        break;
      case RC_MARKER_SUB:
        FN (k_sub_row) (j, i, hgt, w);
        break;
      default:                 /* RC_MARKER_IMAGE */
        memcpy (j, (const uint8_t *) marker->data +
            (size_t) y * marker->pitch, (size_t) w * sizeof (T));
        if (flip)
          FN (k_flip_row) (j, w);
        FN (k_min_in_row) (j, i, w);
        break;
    }
  }
}

/* The result into @dst: the marker's plane (complemented when @flip), or
 * the mask less it (@residue) */
static void
FN (store) (cm_recon_cpu * c, const cm_image * dst, int flip, int residue)
{
  const int w = c->width;

  for (int y = 0; y < c->height; y++) {
    T *j = (T *) c->j + (size_t) (y + 1) * c->stride + 1;
    const T *i = (const T *) c->i + (size_t) (y + 1) * c->stride + 1;

    if (residue)
      FN (k_residue_row) (j, i, w);
    else if (flip)
      FN (k_flip_row) (j, w);
    memcpy ((uint8_t *) dst->data + (size_t) y * dst->pitch, j,
        (size_t) w * sizeof (T));
  }
}

#undef TMAX
#undef FN
#undef CAT
#undef CAT_
