/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GPU morphology == CPU reference on the paths the automatic choice does
 * not take for a shape, chosen through cm_morph_tuning: the legacy paths,
 * other tiles and chunks, the row kernels forced, the diagonals' tile
 * layouts and store checks, the fall-backs of devices with less shared
 * memory (the tile limit hook), and the runs pass's gather with one or
 * four rows per thread. The case runner: test-morph-gpu.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "morph/morph.h"
#include "morph/se.h"
#include "test-util.h"
#include "test-morph-gpu.h"

static int
expects (const shape * s, const char *algo)
{
  return s->expect_algo && strcmp (s->expect_algo, algo) == 0;
}

/* The paths of the plans built from now on. The single-launch rectangle
 * kernel (rect2d) that two of the former modes forced is gone; those
 * modes run on what they took besides it, the legacy paths (the shapes
 * they ran are rectangles: no diagonal), so that the cases, seeds and
 * layouts of the parts below stay as they were. */
enum
{ PATHS_AUTO, PATHS_LEGACY, PATHS_FORMER_RECT2D, PATHS_FORMER_SEPARABLE };

static void
force_paths (int mode)
{
  tuning.paths = mode == PATHS_AUTO ? CM_MORPH_PATHS_AUTO :
      CM_MORPH_PATHS_LEGACY;
}

/* The tile kernels with smaller tiles and the line kernel on rows,
 * columns and diagonals (taken on devices with less shared memory: the
 * tuning's smem_limit, 20000 bytes or 1, no tile fits), and
 * the 3 x 3 and separable-route shapes on the separable passes with
 * either limit (legacy paths, twice: the former rect2d mode too) */
void
run_tile_limits (void)
{
  static const int limits[] = { 20000, 1 };
  static const size2 lsizes[] = { {37, 23}, {257, 131}, {33, 1100},
    {1100, 7}, {3, 2}
  };

  for (int li = 0; li < 2; li++) {
    tuning.smem_limit = limits[li];
    for (int hi = 0; hi < n_shapes; hi++) {
      const shape *s = &shapes[hi];
      const int legacy = expects (s, "rank3-stream");
      const int rects = expects (s, "vhgw-separable") ||
          expects (s, "rank3-stream");

      if (!s->expect_algo)
        continue;
      for (int mode = 0; mode < 3; mode++) {
        if ((mode == 1 && !legacy) || (mode == 2 && !rects))
          continue;
        force_paths (mode == 1 ? PATHS_LEGACY : mode == 2 ?
            PATHS_FORMER_RECT2D : PATHS_AUTO);
        for (int si = 0; si < 5; si++) {
          for (int k = 0; k < 20; k++) {
            static const int ops[] = { CM_MORPH_ERODE, CM_MORPH_DILATE };
            morph_case c;

            fill_case (&c, s, lsizes[si], ops[k % 2], k / 2 % 5, k / 10, 1);
            if (case_cost (&c) > 2.0e8)
              continue;
            case_counter++;
            run_morph_case (&c);
          }
        }
      }
    }
  }
  force_paths (PATHS_AUTO);
  tuning.smem_limit = 0;
}

/* The paths the automatic choice does not take for a shape: the legacy
 * paths on every full rectangle (mode 0, the former rect2d mode) and on
 * the shapes whose automatic path is new (mode 1: the separable passes,
 * the diagonals' line kernel), the vertical and diagonal passes with a
 * tile of 72 rows (vtile, rounded up to the chunk) and the horizontal
 * ones on the vHGW tile kernel (rows TILE, not the doubling kernel) with
 * 72 columns (htile) (mode 2), the same tiles on the legacy paths (mode
 * 3, the former separable mode), and the diagonals again with 72-row
 * tiles on the fixed grid of rows (mode 4: diag_grid, the layout before
 * tiles started at each strip's first row). Every border and depth,
 * iterations 1 and 2, frames smaller than the SE and not multiples of the
 * tiles. */
void
run_forced_paths (void)
{
  static const size2 fsizes[] = { {1, 1}, {3, 2}, {9, 1}, {1, 9},
    {37, 23}, {257, 131}, {300, 70}, {70, 300}
  };
  static const int ops[] = { CM_MORPH_ERODE, CM_MORPH_DILATE, CM_MORPH_OPEN,
    CM_MORPH_CLOSE, CM_MORPH_GRADIENT
  };

  for (int mode = 0; mode < 5; mode++) {
    force_paths (mode == 0 ? PATHS_FORMER_RECT2D : mode == 1 ? PATHS_LEGACY
        : mode == 3 ? PATHS_FORMER_SEPARABLE : PATHS_AUTO);
    /* from mode 2 on (modes 3 and 4 keep them) */
    if (mode == 2) {
      tuning.vtile = 72;
      tuning.htile = 72;
      tuning.rows = CM_MORPH_ROWS_TILE;
    }
    if (mode == 4)
      tuning.diag_grid = 1;
    for (int hi = 0; hi < n_shapes; hi++) {
      const shape *s = &shapes[hi];
      const int vertical = expects (s, "vhgw-column") ||
          expects (s, "vhgw-diagonal") || expects (s, "vhgw-separable") ||
          expects (s, "vhgw-cross") || expects (s, "vhgw-row");
      const int rect = expects (s, "vhgw-row") ||
          expects (s, "rank3-stream") ||
          expects (s, "vhgw-column") || expects (s, "vhgw-separable");
      const int fresh = expects (s, "rank3-stream") ||
          expects (s, "vhgw-diagonal");

      if (mode == 4 ? !expects (s, "vhgw-diagonal") :
          mode == 0 ? !rect : mode == 1 ? !fresh : mode == 2 ? !vertical
          : !(expects (s, "vhgw-separable") ||
              expects (s, "rank3-stream") || expects (s, "vhgw-row")))
        continue;
      for (int si = 0; si < (int) (sizeof (fsizes) / sizeof (fsizes[0]));
          si++) {
        for (int k = 0; k < 20; k++) {
          morph_case c;

          fill_case (&c, s, fsizes[si], ops[k % 5], k % 5 == 4 ? 0 : k / 4,
              (k + si) % 2, 1 + (k % 7 == 3));
          if (case_cost (&c) > 1.0e8)
            continue;
          case_counter++;
          run_morph_case (&c);
        }
      }
    }
  }
  memset (&tuning, 0, sizeof (tuning));
}

/* Long rows on the two-window kernel (morph-row-pwin.cu), forced with
 * rows PWIN so that every block size P (32 .. 256) runs, short windows
 * included, rows whole or in parts (pwin_parts 1 or the default): lengths
 * at and around the powers of two (odd and
 * even, so centred windows of both parities), widths around the 16-sample
 * lanes and the 512-sample chunks, every border, the five ops, 8 and
 * 16 bit (16 bit and rows that are not 16-byte aligned, layout 2, take
 * the tile kernel), iterations 1 and 2. */
void
run_row_pwin (void)
{
  static const int lens[] = { 32, 33, 47, 63, 64, 65, 96, 127, 128, 129,
    191, 255, 256, 257, 383, 511
  };
  static const size2 psizes[] = { {1, 2}, {15, 3}, {16, 2}, {17, 3},
    {200, 4}, {511, 2}, {512, 3}, {513, 2}, {1100, 5}, {2049, 3}
  };
  static const int ops[] = { CM_MORPH_ERODE, CM_MORPH_DILATE, CM_MORPH_OPEN,
    CM_MORPH_CLOSE, CM_MORPH_GRADIENT
  };

  tuning.rows = CM_MORPH_ROWS_PWIN;
  for (int li = 0; li < (int) (sizeof (lens) / sizeof (lens[0])); li++) {
    shape s;

    /* rows in as many parts as there are chunks (the small heights here),
     * or whole rows, one warp each */
    tuning.pwin_parts = li % 2 ? 1 : 0;

    memset (&s, 0, sizeof (s));
    snprintf (s.name, sizeof (s.name), "rect %dx1 (pwin)", lens[li]);
    if (cm_se_new_rect (&s.se, lens[li], 1) != CM_OK) {
      FAIL ("%s: cm_se_new_rect", s.name);
      continue;
    }
    for (int si = 0; si < (int) (sizeof (psizes) / sizeof (psizes[0]));
        si++) {
      for (int k = 0; k < 12; k++) {
        morph_case c;

        fill_case (&c, &s, psizes[si], ops[(k + li) % 5],
            (k + si) % CM_BORDER_MODE_COUNT, k % 6 == 5, 1 + (k % 7 == 4));
        c.layout = k % 4 == 3 ? 2 : k % 2;
        case_counter++;
        run_morph_case (&c);
      }
    }
    cm_se_free (s.se);
  }
  memset (&tuning, 0, sizeof (tuning));
}

/* @per_size cases of shape @s on each of @sizes, their op, border, depth,
 * iterations and layout spread by the case's index plus @salt (@shift
 * moves the border and layout) */
static void
run_sized_cases (const shape * s, const size2 * sizes, int n_sizes,
    int per_size, int salt, int shift)
{
  static const int ops[] = { CM_MORPH_ERODE, CM_MORPH_DILATE, CM_MORPH_OPEN,
    CM_MORPH_CLOSE, CM_MORPH_GRADIENT
  };

  for (int si = 0; si < n_sizes; si++) {
    for (int k = 0; k < per_size; k++) {
      const int j = k + si + salt;
      morph_case c;

      fill_case (&c, s, sizes[si], ops[j % 5],
          (j + shift) % CM_BORDER_MODE_COUNT, j % 4 == 3, 1 + (j % 9 == 4));
      c.layout = (j + shift) % LAYOUTS;
      if (case_cost (&c) > 1.0e8)
        continue;
      case_counter++;
      run_morph_case (&c);
    }
  }
}

/* Diagonal lines on the sheared tile kernel, its stores checked in every
 * block or not (diag_checked), its strips in either order (diag_flip),
 * chunks capped at 32 or 64 (cmax) and several tiles (vtile): lengths
 * around the
 * chunks and the powers of two, frames around the 64-column strips and
 * the tiles, both diagonals, every border, the five ops, 8 and 16 bit,
 * every layout. */
void
run_diagonals (void)
{
  static const int lens[] = { 3, 15, 32, 33, 63, 64, 65, 127, 128, 129,
    192, 255
  };
  static const size2 dsizes[] = { {1, 9}, {9, 1}, {63, 65}, {64, 64},
    {65, 130}, {129, 64}, {200, 333}, {333, 200}, {700, 577}
  };
  /* bit 0: diag_checked, bit 1: diag_flip */
  static const int access[] = { 0, 1, 2, 2, 3 };
  static const char *access_name[] = { "", "checked", "flip", "flip",
    "checked,flip"
  };
  static const int cmax[] = { 0, 64, 32, 64, 32 };
  static const int tiles[] = { 0, 576, 72, 0, 128 };

  for (int v = 0; v < 5; v++) {
    tuning.diag_checked = access[v] & 1;
    tuning.diag_flip = (access[v] & 2) != 0;
    tuning.cmax = cmax[v];
    tuning.vtile = tiles[v];
    for (int li = 0; li < (int) (sizeof (lens) / sizeof (lens[0])); li++) {
      for (int ai = 0; ai < 2; ai++) {
        shape s;

        memset (&s, 0, sizeof (s));
        snprintf (s.name, sizeof (s.name), "line %d@%d (diag %s)", lens[li],
            ai ? 135 : 45, access_name[v]);
        if (cm_se_new_line (&s.se, lens[li], ai ? 135.0 : 45.0) != CM_OK) {
          FAIL ("%s: cm_se_new_line", s.name);
          continue;
        }
        run_sized_cases (&s, dsizes, (int) (sizeof (dsizes) /
                sizeof (dsizes[0])), 4, li + v, ai);
        cm_se_free (s.se);
      }
    }
  }
  memset (&tuning, 0, sizeof (tuning));
}

/* The runs pass's shared gather with one output row per thread and with
 * four (runs_rows: the cost estimate takes one row on small frames and
 * four on most large ones, so each is forced here on both): shapes the
 * runs pass takes (disks, octagon, diamond, a line off the axes on rows,
 * a random mask), frames from 1x1 to 512x512 around the tiles, every
 * border, the five ops, 8 and 16 bit, every layout, iterations 1 and 2. */
void
run_runs_rows (void)
{
  static const char *names[] = { "disk 7", "disk 15", "octagon 5",
    "diamond 3", "line 31@30", "custom 63x63 random"
  };
  static const size2 rsizes[] = { {1, 1}, {3, 2}, {37, 23}, {97, 33},
    {96, 24}, {257, 131}, {300, 70}, {70, 300}, {512, 512}
  };
  static const int rows[] = { 1, 4 };

  for (int ri = 0; ri < 2; ri++) {
    tuning.runs_rows = rows[ri];
    for (int hi = 0; hi < n_shapes; hi++) {
      const shape *s = &shapes[hi];
      int known = 0;

      for (int ni = 0; ni < (int) (sizeof (names) / sizeof (names[0])); ni++)
        known |= strcmp (s->name, names[ni]) == 0;
      if (!known)
        continue;
      run_sized_cases (s, rsizes, (int) (sizeof (rsizes) /
              sizeof (rsizes[0])), 6, hi + ri, 0);
    }
  }
  memset (&tuning, 0, sizeof (tuning));
}
