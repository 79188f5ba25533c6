/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Two elements fed the same frames, each in a GstHarness with a bus of its
 * own: the GPU element tests (tests/gpu) compare an element on the CUDA
 * backend with the same element on the CPU backend, bit for bit. */
#pragma once

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

typedef struct
{
  GstElement *cpu, *cuda;
  GstHarness *hcpu, *hcuda;
  GstBus *bcpu, *bcuda;
} ElementPair;

/* @cpu and @cuda (their references taken over), a bus set on each, each
 * in a harness. */
void element_pair_init (ElementPair * pair, GstElement * cpu,
    GstElement * cuda);

/* Tears both harnesses down, asserts that the CUDA element posted no error
 * or warning, and lets go of the elements and their buses. */
void element_pair_clear (ElementPair * pair);

/* The same caps @format @width x @height on both harnesses (*@info). */
void element_pair_set_caps (ElementPair * pair, const char *format,
    int width, int height, GstVideoInfo * info);

/* @in through the CUDA then the CPU element; their outputs (asserted
 * there) in *@out_cuda and *@out_cpu. */
void element_pair_push (ElementPair * pair, GstBuffer * in,
    GstBuffer ** out_cuda, GstBuffer ** out_cpu, const char *what);
