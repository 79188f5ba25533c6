/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* a CPU and a CUDA element fed the same frames */
#include <gst/check/gstcheck.h>

#include "element-harness.h"
#include "element-pair.h"

void
element_pair_init (ElementPair * pair, GstElement * cpu, GstElement * cuda)
{
  pair->cpu = cpu;
  pair->cuda = cuda;
  pair->bcpu = gst_bus_new ();
  pair->bcuda = gst_bus_new ();
  gst_element_set_bus (cpu, pair->bcpu);
  gst_element_set_bus (cuda, pair->bcuda);
  pair->hcpu = morph_harness_new (cpu);
  pair->hcuda = morph_harness_new (cuda);
}

void
element_pair_clear (ElementPair * pair)
{
  gst_harness_teardown (pair->hcuda);
  gst_harness_teardown (pair->hcpu);
  fail_unless_equals_int (test_bus_count_problems (pair->bcuda,
          GST_MESSAGE_ERROR | GST_MESSAGE_WARNING), 0);
  gst_element_set_bus (pair->cuda, NULL);
  gst_element_set_bus (pair->cpu, NULL);
  gst_object_unref (pair->bcuda);
  gst_object_unref (pair->bcpu);
  gst_object_unref (pair->cuda);
  gst_object_unref (pair->cpu);
}

void
element_pair_set_caps (ElementPair * pair, const char *format, int width,
    int height, GstVideoInfo * info)
{
  morph_harness_set_caps (pair->hcpu, format, width, height, info);
  morph_harness_set_caps (pair->hcuda, format, width, height, info);
}

void
element_pair_push (ElementPair * pair, GstBuffer * in, GstBuffer ** out_cuda,
    GstBuffer ** out_cpu, const char *what)
{
  *out_cuda = gst_harness_push_and_pull (pair->hcuda, gst_buffer_ref (in));
  fail_unless (*out_cuda != NULL, "%s: no output from the CUDA element",
      what);
  *out_cpu = gst_harness_push_and_pull (pair->hcpu, gst_buffer_ref (in));
  fail_unless (*out_cpu != NULL, "%s: no output from the CPU element", what);
}
