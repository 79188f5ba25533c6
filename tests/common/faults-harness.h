/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fault tests' harness (tests/check/test-faults-nodevice.c on any
 * machine, tests/gpu/test-faults.c on a CUDA device): the element error or
 * warning an element posts, host memory in use, and NULL <-> PLAYING
 * cycles of a harnessed element with one frame checked per cycle. */
#pragma once

#include "reliability-harness.h"

/* The settings both fault tests run: an opening by a disk, a median, a
 * line spectrum, blobs with a mask, a temporal median of 3 frames (one
 * of each element). */
#define FAULTS_N_SETTINGS 5
extern const Setting faults_settings[FAULTS_N_SETTINGS];

/* Bytes of the C heap in use (malloc'ed and not freed, mmapped blocks
 * included) in KiB, from glibc's mallinfo2 (); 0 where there is none.
 * Beside RSS it tells held memory from pages the allocator keeps. */
gsize faults_heap_kib (void);

/* TRUE when built with AddressSanitizer (its quarantine keeps freed memory
 * resident, so RSS says nothing about leaks there: LeakSanitizer does). */
gboolean faults_under_asan (void);

/* The first message of @type on @bus (the others are dropped), with its
 * text and debug string joined in *@text (lower case). NULL when none. */
GstMessage *faults_pop (GstBus * bus, GstMessageType type, gchar ** text);

/* Like morph_harness_set_caps () but without asserting that the element
 * takes the caps (gst_harness_set_src_caps () does): caps and a segment,
 * TRUE when the caps were taken. */
gboolean faults_push_caps (GstHarness * h, const char *format, int width,
    int height,
    GstVideoInfo * info);

/* Frames of these sizes and formats alternate from cycle to cycle, so
 * that every cycle negotiates caps anew. */
const char *faults_cycle_format (ElemKind k, guint cycle);

/* Takes harnessed element @e from PLAYING to NULL and back, sends it a new
 * stream (stream-start, caps, segment) and checks one frame. */
void faults_cycle_once (GstHarness * h, GstElement * e, GstBus * bus,
    const Setting * s, guint cycle, int w, int hgt);

typedef struct
{
  gsize rss_before_kib, rss_after_kib;
  gsize heap_before_kib, heap_after_kib;        /* faults_heap_kib ()   */
  guint cycles;
} FaultsCycleResult;

/* @warmup then @cycles NULL <-> PLAYING cycles of the element of @s on the
 * test backend, one @w x @h frame checked per cycle; RSS sampled after the
 * warm-up and at the end. @between, when set, is called after the warm-up
 * and at the end too (device memory sampling). */
FaultsCycleResult faults_cycles (const Setting * s, guint warmup,
    guint cycles, int w, int h,
    void (*between) (gboolean end, gpointer data), gpointer data);

/* CM_TEST_CYCLES, or @def */
guint faults_n_cycles (guint def);
