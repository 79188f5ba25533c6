/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cm_border_map against tables worked out by hand from the definitions:
 *   replicate  a a a | a b c d | d d d
 *   reflect    d c b a | a b c d | d c b a   (SciPy 'reflect', edge repeated)
 *   mirror     d c b | a b c d | c b a       (SciPy 'mirror', edge once)
 * for indices -12 .. 16 (far past one reflection of the smallest images). */
#include <stdio.h>
#include <stdlib.h>

#include "test-count.h"

#include "cm-border.h"

#define FIRST (-12)
#define LAST 16
#define N_IDX (LAST - FIRST + 1)

typedef struct
{
  cm_border_mode mode;
  int n;
  int expected[N_IDX];          /* for i = FIRST .. LAST */
} border_case;

/* n = 1: every rule maps every index to 0 (the first loop of main); the
 * rows of larger n: */
/* *INDENT-OFF* */
static const border_case cases[] = {
  /* replicate: clamp */
  {CM_BORDER_REPLICATE, 2,
   {0,0,0,0,0,0,0,0,0,0,0,0, 0,1, 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1}},
  {CM_BORDER_REPLICATE, 3,
   {0,0,0,0,0,0,0,0,0,0,0,0, 0,1,2, 2,2,2,2,2,2,2,2,2,2,2,2,2,2}},
  {CM_BORDER_REPLICATE, 5,
   {0,0,0,0,0,0,0,0,0,0,0,0, 0,1,2,3,4, 4,4,4,4,4,4,4,4,4,4,4,4}},

  /* reflect: period 2n, i = -12 is 0 mod 2n for n = 2, 3 */
  {CM_BORDER_REFLECT, 2,
   /* -12..-1 */ {0,1,1,0, 0,1,1,0, 0,1,1,0,
   /*  0..15  */  0,1,1,0, 0,1,1,0, 0,1,1,0, 0,1,1,0,
   /*  16     */  0}},
  {CM_BORDER_REFLECT, 3,
   /* -12..-1 */ {0,1,2,2,1,0, 0,1,2,2,1,0,
   /*  0..11  */  0,1,2,2,1,0, 0,1,2,2,1,0,
   /* 12..16  */  0,1,2,2,1}},
  {CM_BORDER_REFLECT, 5,
   /* -12,-11 */ {1,0,
   /* -10..-1 */  0,1,2,3,4,4,3,2,1,0,
   /*  0..9   */  0,1,2,3,4,4,3,2,1,0,
   /* 10..16  */  0,1,2,3,4,4,3}},

  /* mirror: period 2n - 2 */
  {CM_BORDER_MIRROR, 2,
   {0,1,0,1,0,1,0,1,0,1,0,1, 0,1, 0,1,0,1,0,1,0,1,0,1,0,1,0,1,0}},
  {CM_BORDER_MIRROR, 3,
   /* -12..-1 */ {0,1,2,1, 0,1,2,1, 0,1,2,1,
   /*  0..15  */  0,1,2,1, 0,1,2,1, 0,1,2,1, 0,1,2,1,
   /*  16     */  0}},
  {CM_BORDER_MIRROR, 5,
   /* -12..-9 */ {4,3,2,1,
   /* -8..-1  */  0,1,2,3,4,3,2,1,
   /*  0..7   */  0,1,2,3,4,3,2,1,
   /*  8..15  */  0,1,2,3,4,3,2,1,
   /*  16     */  0}},
};
/* *INDENT-ON* */

static const char *map_names[CM_BORDER_MODE_COUNT] = {
  [CM_BORDER_REPLICATE] = "replicate",
  [CM_BORDER_REFLECT] = "reflect",
  [CM_BORDER_MIRROR] = "mirror",
};

static void
check_index (cm_border_mode mode, int n, int i, int want)
{
  int got = cm_border_map (mode, i, n);

  checks++;
  if (got != want) {
    fprintf (stderr, "border %s n=%d: index %d -> %d, expected %d\n",
        map_names[mode], n, i, got, want);
    failures++;
  }
}

int
main (void)
{
  const cm_border_mode maps[] =
      { CM_BORDER_REPLICATE, CM_BORDER_REFLECT, CM_BORDER_MIRROR };

  for (size_t m = 0; m < sizeof (maps) / sizeof (maps[0]); m++)
    for (int i = FIRST; i <= LAST; i++)
      check_index (maps[m], 1, i, 0);
  for (size_t c = 0; c < sizeof (cases) / sizeof (cases[0]); c++)
    for (int i = FIRST; i <= LAST; i++)
      check_index (cases[c].mode, cases[c].n, i,
          cases[c].expected[i - FIRST]);

  /* In range every map is the identity, for larger n too, and every result
   * lies in [0, n) far outside. */
  for (size_t m = 0; m < sizeof (maps) / sizeof (maps[0]); m++) {
    for (int n = 1; n <= 40; n++) {
      for (int i = -5 * n - 3; i < 6 * n + 3; i++) {
        int got = cm_border_map (maps[m], i, n);

        checks++;
        if ((i >= 0 && i < n && got != i) || got < 0 || got >= n) {
          fprintf (stderr, "border mode %d n=%d: index %d -> %d\n",
              (int) maps[m], n, i, got);
          failures++;
        }
      }
    }
  }

  return test_count_report ("test-border");
}
