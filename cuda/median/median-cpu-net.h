/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Selection networks of the CPU median (median-cpu.c): comparators of
 * min / max over whole arrays of samples, built once per window and rank.
 *
 * A window of ww x wh samples is ranked in two stages (Adams, "Fast median
 * filters using separable sorting networks", 2021):
 *
 *  - the column network sorts the wh rows of the window elementwise, so
 *    that every image column of the window's rows becomes a sorted list;
 *  - the row network merges the sorted columns of G neighbouring windows
 *    (ww + G - 1 columns) and picks rank k of each: merges that windows
 *    share are made once (the G windows have ww - G + 1 columns in
 *    common, halves of them ww - G / 2 + 1, ...).
 *
 * A merge keeps only the samples that may still be of rank k: in a sorted
 * list of m of the R candidates left, position i is at least the i-th and
 * at most the (R - m + i)-th of them, so positions above the target t or
 * below t - (R - m) go (t drops by the number dropped below). Comparators
 * whose outputs nobody reads are then removed, and a comparator of which
 * one output is read becomes a single min or max. */
#pragma once

#include "cm-status.h"

CM_BEGIN_DECLS

/* lo = min (a, b), hi = max (a, b); an output not read is -1; b = -1:
 * lo = a (a copy). Operands are indices into the run's table of arrays:
 * [0, n_in) the inputs, then n_slots scratch arrays, then the n_out
 * outputs. */
typedef struct
{
  int a, b, lo, hi;
} cm_mnet_op;

typedef struct
{
  int n_in, n_slots, n_out;
  int n_ops;
  cm_mnet_op *ops;
  unsigned char *in_used;       /* n_in flags: whether an op reads input i */
} cm_mnet;

/* The column network of wh rows: inputs the rows, output i the sample of
 * rank i of the column, for the ranks of @want (wh flags; NULL: all). */
cm_status cm_mnet_columns (cm_mnet * net, int wh, const unsigned char *want);

/* The row network: inputs (ww + g - 1) * wh, input j * wh + i the sample
 * of rank i of column j (columns left to right); output w the sample of
 * rank k of the window of columns w .. w + ww - 1, for w < g. */
cm_status cm_mnet_rows (cm_mnet * net, int ww, int wh, int k, int g);

/* Comparators (a min or a max counts one, both two) */
int cm_mnet_cost (const cm_mnet * net);

void cm_mnet_clear (cm_mnet * net);

CM_END_DECLS
