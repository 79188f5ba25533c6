/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "test-util.h"
#include "cm-sample.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void
test_rng_seed (test_rng * r, uint64_t seed)
{
  r->s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
  if (r->s == 0)
    r->s = 1;
}

uint32_t
test_rng_next (test_rng * r)
{
  /* xorshift64* */
  uint64_t x = r->s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  r->s = x;
  return (uint32_t) ((x * 0x2545F4914F6CDD1Dull) >> 32);
}

uint32_t
test_rng_below (test_rng * r, uint32_t n)
{
  return n ? (uint32_t) (((uint64_t) test_rng_next (r) * n) >> 32) : 0;
}

static long sample_every = -1, sample_seen, sample_kept;
static uint64_t sample_seed;

int
test_sample_keep (void)
{
  uint64_t x;

  if (sample_every < 0) {
    const char *n = getenv ("CM_TEST_SAMPLE");
    const char *seed = getenv ("CM_TEST_SAMPLE_SEED");
    sample_every = n ? atol (n) : 0;
    sample_seed = seed ? strtoull (seed, NULL, 0) : 0;
  }
  sample_seen++;
  if (!test_shard_keep (sample_seen))
    return 0;
  if (sample_every <= 1) {
    sample_kept++;
    return 1;
  }
  /* splitmix64 of the index: no period that a table's loops could alias */
  x = (uint64_t) sample_seen + sample_seed * 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  if (x % (uint64_t) sample_every)
    return 0;
  sample_kept++;
  return 1;
}

static long shard = -1, shards = 1;

static void
shard_read (void)
{
  if (shard < 0) {
    const char *s = getenv ("CM_TEST_SHARD");
    long k, n;

    shard = 0;
    if (s != NULL && sscanf (s, "%ld/%ld", &k, &n) == 2 && n > 0 && k >= 0
        && k < n) {
      shard = k;
      shards = n;
      printf ("shard %ld of %ld (CM_TEST_SHARD)\n", k, n);
    }
  }
}

int
test_shard_keep (long index)
{
  shard_read ();
  return index % shards == shard;
}

int
test_shard_count (void)
{
  shard_read ();
  return (int) shards;
}

void
test_sample_report (void)
{
  if (sample_every > 1)
    printf ("sampled %ld of %ld cases (1 in %ld, CM_TEST_SAMPLE)\n",
        sample_kept, sample_seen, sample_every);
}

cm_image
test_image_new (int width, int height, cm_depth depth, int extra_pitch)
{
  cm_image img;
  size_t size;

  img.width = width;
  img.height = height;
  img.depth = depth;
  img.pitch = (size_t) width * cm_depth_bytes (depth) + (size_t) extra_pitch;
  size = img.pitch * (size_t) (height > 0 ? height : 1);
  img.data = malloc (size ? size : 1);
  if (img.data)
    memset (img.data, 0xA5, size);
  return img;
}

void
test_image_free (cm_image * img)
{
  free (img->data);
  img->data = NULL;
}

/* the core's sample access (cm-sample.h: memcpy, odd pitches are tested
 * too) */
uint32_t
test_image_get (const cm_image * img, int x, int y)
{
  return cm_image_sample (img, x, y);
}

void
test_image_set (const cm_image * img, int x, int y, uint32_t v)
{
  cm_store_sample ((uint8_t *) img->data + (size_t) y * img->pitch, x,
      cm_depth_bytes (img->depth), v);
}

cm_image_packed
test_packed_new (int width, int height, cm_depth depth, int channels,
    int extra)
{
  cm_image_packed p;
  size_t size;

  p.width = width;
  p.height = height;
  p.depth = depth;
  p.channels = channels;
  p.pitch = (size_t) width * channels * cm_depth_bytes (depth) +
      (size_t) extra;
  size = p.pitch * (size_t) height;
  p.data = malloc (size);
  memset (p.data, 0xA5, size);
  return p;
}

uint32_t
test_packed_get (const cm_image_packed * p, int x, int y, int c)
{
  return cm_load_sample ((const uint8_t *) p->data + (size_t) y * p->pitch,
      x * p->channels + c, cm_depth_bytes (p->depth));
}

void
test_packed_set (const cm_image_packed * p, int x, int y, int c, uint32_t v)
{
  cm_store_sample ((uint8_t *) p->data + (size_t) y * p->pitch,
      x * p->channels + c, cm_depth_bytes (p->depth), v);
}

int
test_border_fold (cm_border_mode mode, int i, int n)
{
  if (i >= 0 && i < n)
    return i;
  if (mode == CM_BORDER_CONSTANT)
    return -1;
  if (mode == CM_BORDER_REPLICATE || mode == CM_BORDER_NEUTRAL)
    return i < 0 ? 0 : n - 1;
  if (n == 1)
    return 0;
  while (i < 0 || i >= n) {
    if (mode == CM_BORDER_REFLECT)      /* ... b a | a b ... */
      i = i < 0 ? -1 - i : 2 * n - 1 - i;
    else                        /* mirror: ... c b | a b c ... */
      i = i < 0 ? -i : 2 * n - 2 - i;
  }
  return i;
}

void
test_image_fill_random (cm_image * img, test_rng * r)
{
  uint32_t range = cm_depth_max (img->depth) + 1;
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      test_image_set (img, x, y, test_rng_below (r, range));
}

void
test_image_fill_levels (cm_image * img, test_rng * r, int levels)
{
  uint32_t max = cm_depth_max (img->depth);
  if (levels < 2)
    levels = 2;
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      test_image_set (img, x, y,
          test_rng_below (r, (uint32_t) levels) * max / (uint32_t) (levels - 1));
}

void
test_image_fill (cm_image * img, uint32_t v)
{
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      test_image_set (img, x, y, v);
}

int
test_image_equal (const cm_image * got, const cm_image * expected,
    const char *what)
{
  if (got->width != expected->width || got->height != expected->height ||
      got->depth != expected->depth) {
    fprintf (stderr, "%s: size/depth differ: %dx%d/%d vs %dx%d/%d\n", what,
        got->width, got->height, got->depth, expected->width,
        expected->height, expected->depth);
    return 0;
  }
  for (int y = 0; y < got->height; y++)
    for (int x = 0; x < got->width; x++) {
      uint32_t g = test_image_get (got, x, y);
      uint32_t e = test_image_get (expected, x, y);
      if (g != e) {
        fprintf (stderr, "%s: first mismatch at (%d, %d) of %dx%d: got %u "
            "expected %u\n", what, x, y, got->width, got->height, g, e);
        return 0;
      }
    }
  return 1;
}

void
test_image_fill_maze (cm_image * img, uint32_t wall, uint32_t corridor,
    int vertical, int framed)
{
  const int f = framed ? 1 : 0;
  const int along = (vertical ? img->height : img->width) - 2 * f;
  const int across = (vertical ? img->width : img->height) - 2 * f;

  test_image_fill (img, wall);
  for (int a = 0; a < across; a++) {
    for (int b = 0; b < along; b++) {
      /* wall row a: open at the far end for a % 4 == 1, else the near one */
      const int open = a % 2 == 0 || (a % 4 == 1 ? b == along - 1 : b == 0);

      if (vertical)
        test_image_set (img, a + f, b + f, open ? corridor : wall);
      else
        test_image_set (img, b + f, a + f, open ? corridor : wall);
    }
  }
  if (framed && along > 0 && across > 0)
    test_image_set (img, vertical ? 1 : 0, vertical ? 0 : 1, corridor);
}

void
test_image_fill_blobs (cm_image * img, test_rng * r, int cell,
    uint32_t noise)
{
  const uint32_t maxv = img->depth == CM_DEPTH_16 ? 65535u : 255u;
  const int cw = (img->width + cell - 1) / cell;
  const int chh = (img->height + cell - 1) / cell;
  uint32_t *levels = malloc ((size_t) cw * chh * sizeof (*levels));

  if (!levels)
    abort ();
  for (int i = 0; i < cw * chh; i++)
    levels[i] = test_rng_below (r, maxv + 1);
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++) {
      uint32_t v = levels[(y / cell) * cw + x / cell];
      uint32_t n = noise ? test_rng_below (r, noise + 1) : 0;

      test_image_set (img, x, y, v + n > maxv ? maxv : v + n);
    }
  free (levels);
}

size_t
test_rss_kib (void)
{
  unsigned long size = 0, resident = 0;
  FILE *f = fopen ("/proc/self/statm", "r");

  if (f == NULL)
    return 0;
  if (fscanf (f, "%lu %lu", &size, &resident) != 2)
    resident = 0;
  fclose (f);
  return (size_t) resident * (size_t) sysconf (_SC_PAGESIZE) / 1024;
}

const char *
test_fill_name (test_fill_kind k)
{
  static const char *const names[TEST_FILL_KINDS] = { "random", "plateaus",
    "equal", "blobs", "maze", "framed maze", "framed dark maze"
  };

  return (int) k >= 0 && k < TEST_FILL_KINDS ? names[k] : "?";
}

void
test_image_fill_kind (cm_image * img, test_fill_kind k, int vertical,
    test_rng * r)
{
  const uint32_t maxv = cm_depth_max (img->depth);

  switch (k) {
    case TEST_FILL_RANDOM:
      test_image_fill_random (img, r);
      break;
    case TEST_FILL_PLATEAUS:
      test_image_fill_levels (img, r, 3);
      break;
    case TEST_FILL_EQUAL:
      test_image_fill (img, test_rng_below (r, maxv + 1));
      break;
    case TEST_FILL_BLOBS:
      test_image_fill_blobs (img, r, 9, maxv / 16);
      break;
    case TEST_FILL_MAZE:
      test_image_fill_maze (img, maxv / 8, maxv - maxv / 8, vertical, 0);
      break;
    case TEST_FILL_MAZE_FRAMED:
      /* bright corridor: clear-border floods it */
      test_image_fill_maze (img, maxv / 8, maxv - maxv / 8, vertical, 1);
      break;
    default:                   /* dark corridor: fill-holes floods it */
      test_image_fill_maze (img, maxv - maxv / 8, maxv / 8, vertical, 1);
      break;
  }
}

int
test_skip_status (void)
{
  const char *required = getenv ("CM_TEST_REQUIRE_GPU");

  if (required == NULL || required[0] == '\0' || strcmp (required, "0") == 0)
    return 77;
  fprintf (stderr, "FAIL: CM_TEST_REQUIRE_GPU=%s, and this test could not "
      "run here (it would have been skipped)\n", required);
  return 1;
}

cm_status
test_se_new (cm_se ** out, cm_shape shape, int a, int b, double angle,
    const char *custom)
{
  switch (shape) {
    case CM_SHAPE_RECT:
      return cm_se_new_rect (out, a, b);
    case CM_SHAPE_CROSS:
      return cm_se_new_cross (out, a, b);
    case CM_SHAPE_DIAMOND:
      return cm_se_new_diamond (out, a);
    case CM_SHAPE_DISK:
      return cm_se_new_disk (out, a);
    case CM_SHAPE_OCTAGON:
      return cm_se_new_octagon (out, a);
    case CM_SHAPE_LINE:
      return cm_se_new_line (out, a, angle);
    default:
      return cm_se_new_custom (out, custom);
  }
}
