/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The GPU morphology test's parts (test-morph-gpu.c: the case runner, the
 * table, main; test-morph-gpu-paths.c: the paths the automatic choice
 * does not take) and what they share. */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "morph/morph.h"
#include "morph/se.h"

#define FAIL(...) do { fprintf (stderr, "FAIL: " __VA_ARGS__); \
    fputc ('\n', stderr); n_fail++; } while (0)

/* device image layouts (test-morph-gpu.c, view_of) */
#define LAYOUTS 3

typedef struct
{
  char name[32];
  cm_se *se;
  const char *expect_algo;      /* NULL: not checked */
} shape;

#define MAX_SHAPES 48

typedef struct
{
  cm_morph_op op;
  const shape *shape;
  cm_border_mode border;
  uint32_t border_value;
  cm_depth depth;
  int width, height;
  int iterations;
  int layout;
  int levels;                   /* 0: uniform random */
  uint64_t seed;
} morph_case;

typedef struct
{
  int w, h;
} size2;

extern int n_fail;
extern shape shapes[MAX_SHAPES];
extern int n_shapes;
/* counts the cases: their seeds and layouts follow it */
extern uint64_t case_counter;
/* the tuning of the plans built from now on (cm_morph_plan_new_tuned):
 * zero, the automatic choice, except inside the parts that set it */
extern cm_morph_tuning tuning;

/* samples the brute-force reference reads */
double case_cost (const morph_case * c);
void fill_case (morph_case * c, const shape * s, size2 sz, int op,
    int border, int depth16, int iterations);
/* one case: plan (with `tuning`), run, compare with the CPU reference */
void run_morph_case (const morph_case * c);

/* test-morph-gpu-paths.c */
void run_tile_limits (void);
void run_forced_paths (void);
void run_row_pwin (void);
void run_diagonals (void);
void run_runs_rows (void);
