/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the two files of the median GPU test share: test-median-gpu.c (grey
 * cases, kernel-specific cases, main) and test-median-gpu-luma.c (luma
 * mode, argument checks). */
#pragma once

#include <stdio.h>

#include "device.h"
#include "median/median.h"

extern int n_pass, n_fail, n_unsupported, verbose;
extern long max_pixels;         /* CM_TEST_MAX_PIXELS */
extern cm_stream stream;

#define FAIL(...) do { fprintf (stderr, "FAIL: " __VA_ARGS__); \
    fputc ('\n', stderr); n_fail++; } while (0)

#define N_OF(a) ((int) (sizeof (a) / sizeof ((a)[0])))

typedef struct
{
  int w, h;
} size2;

#define MEDIAN_TEST_BORDERS 5
#define MEDIAN_TEST_ALGORITHMS 3
/* replicate, reflect, mirror, constant, neutral */
extern const cm_border_mode borders[MEDIAN_TEST_BORDERS];
/* auto, network, histogram */
extern const cm_median_algorithm algorithms[MEDIAN_TEST_ALGORITHMS];

const char *border_name (cm_border_mode b);
/* Does a forced network accept this window and rank (median.h)? */
int network_supports (int ww, int wh, int k);

void test_luma (void);
void test_args (void);
