/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the core and GPU test programs: seeded random images,
 * host image allocation with padded pitch, exact comparison that reports
 * the first mismatch. No GStreamer, no CUDA. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cm-border.h"
#include "cm-image.h"
#include "morph/se.h"

/* What a test returns when it cannot run here (no device, no driver, no
 * nvcodec): 77, which meson reports as SKIP; 1 (FAIL), with a line on
 * stderr, when CM_TEST_REQUIRE_GPU=1 is in the environment, as on the GPU
 * host (scripts/gpu-host-check), where a run must not pass by skipping.
 * The tests read it, never the library. */
int test_skip_status (void);
#define TEST_SKIP (test_skip_status ())

typedef struct
{
  uint64_t s;
} test_rng;

void test_rng_seed (test_rng * r, uint64_t seed);
uint32_t test_rng_next (test_rng * r);
/* uniform in [0, n) */
uint32_t test_rng_below (test_rng * r, uint32_t n);

/* Host image with pitch = width * bpp + extra_pitch bytes (padding filled
 * with 0xA5 so that reads of padding show up as wrong results). */
cm_image test_image_new (int width, int height, cm_depth depth,
    int extra_pitch);
void test_image_free (cm_image * img);

/* Fill with uniform random samples in [0, 2^depth). */
void test_image_fill_random (cm_image * img, test_rng * r);
/* Fill with random samples from a few levels (exercises ties). */
void test_image_fill_levels (cm_image * img, test_rng * r, int levels);
/* Fill every sample (not the padding) with v. */
void test_image_fill (cm_image * img, uint32_t v);

/* A serpentine maze: corridor rows (@corridor) between wall rows (@wall)
 * that open at alternate ends, so that one corridor visits every other
 * row (columns when @vertical). @framed: the serpentine fills the inside
 * of a one-pixel wall frame that opens only at the corridor's start, on
 * the left (top) edge: from the border, the corridor is one path of about
 * half the frame's pixels. */
void test_image_fill_maze (cm_image * img, uint32_t wall, uint32_t corridor,
    int vertical, int framed);
/* Piecewise-constant blobs: random levels on a grid of @cell x @cell
 * squares, plus random noise of amplitude @noise (regional extrema,
 * basins and plateaus as in photographs, but reproducible). */
void test_image_fill_blobs (cm_image * img, test_rng * r, int cell,
    uint32_t noise);

/* The inputs of the reconstruction tests, by kind: random samples,
 * plateaus (3 levels), one random level everywhere, blobs (cells of 9,
 * noise max/16), a serpentine maze open to the edge, and framed mazes
 * whose bright (clear-border floods it) or dark (fill-holes floods it)
 * corridor winds through the frame; the mazes along rows or, with
 * @vertical, along columns. */
typedef enum
{
  TEST_FILL_RANDOM, TEST_FILL_PLATEAUS, TEST_FILL_EQUAL, TEST_FILL_BLOBS,
  TEST_FILL_MAZE, TEST_FILL_MAZE_FRAMED, TEST_FILL_MAZE_FRAMED_DARK,
  TEST_FILL_KINDS
} test_fill_kind;

void test_image_fill_kind (cm_image * img, test_fill_kind k, int vertical,
    test_rng * r);
/* "random", "plateaus", ... (static string) */
const char *test_fill_name (test_fill_kind k);

uint32_t test_image_get (const cm_image * img, int x, int y);
void test_image_set (const cm_image * img, int x, int y, uint32_t v);

/* Host interleaved image, pitch = width * channels * bpp + @extra bytes,
 * every byte 0xA5 (padding read back shows up); free its data with
 * free (). */
cm_image_packed test_packed_new (int width, int height, cm_depth depth,
    int channels, int extra);
uint32_t test_packed_get (const cm_image_packed * p, int x, int y, int c);
void test_packed_set (const cm_image_packed * p, int x, int y, int c,
    uint32_t v);

/* The border rule of the oracles, as the pictures in cm-border.h read:
 * @i brought into [0, n) one reflection at a time (replicate and neutral
 * clamp); -1 outside for CM_BORDER_CONSTANT (the caller's value). */
int test_border_fold (cm_border_mode mode, int i, int n);

/* Resident set size of this process in KiB, from /proc/self/statm (0
 * where there is none). */
size_t test_rss_kib (void);

/* Case sampler for slow runs (compute-sanitizer instruments every
 * launch): with CM_TEST_SAMPLE=n in the environment, test_sample_keep ()
 * keeps about one call in n, chosen by a hash of the call's index so that
 * every loop of a nested table is represented; CM_TEST_SAMPLE_SEED picks
 * another subset. Without it (or n <= 1) every case is kept.
 * test_sample_report () prints "sampled K of N cases (1 in n)" when active. */
int test_sample_keep (void);
void test_sample_report (void);

/* Shards, so that one long test runs as n processes side by side: with
 * CM_TEST_SHARD=k/n in the environment (0 <= k < n), 1 for the cases (or
 * test functions) whose @index is k modulo n, else 0; 1 for every index
 * without it. The n shards together run every case. test_sample_keep ()
 * applies it to its call index. */
int test_shard_keep (long index);
/* n of CM_TEST_SHARD, 1 without it */
int test_shard_count (void);

/* 1 when equal over width x height; else prints "<what>: first mismatch
 * at (x, y): got G expected E" to stderr and returns 0. */
int test_image_equal (const cm_image * got, const cm_image * expected,
    const char *what);

/* A width and a height: tables of sizes and windows */
typedef struct
{
  int w, h;
} test_size;

/* The structuring element of @shape: @a the width, radius or length, @b
 * the height, @angle a line's, @custom the mask of any other shape */
cm_status test_se_new (cm_se ** out, cm_shape shape, int a, int b,
    double angle, const char *custom);
