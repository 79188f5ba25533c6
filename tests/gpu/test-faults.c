/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device faults on the CUDA backend (GstHarness, CK_FORK=no), for the
 * five elements of tests/common/faults-harness.c. Exits 77 (meson: SKIP)
 * without a usable CUDA device.
 *
 *  - device out of memory: the test takes almost all device memory itself
 *    (cudaMalloc in chunks), then negotiates 8192x8192 GRAY16: an element
 *    error that says so, a flow error, no crash; with the memory given back
 *    the same element restarts (NULL -> PLAYING) with small caps and its
 *    frames are exact;
 *  - huge caps (32767x32767 GRAY16, 2 GiB a frame; CM_TEST_HUGE=0 skips):
 *    either the frame is filtered right or an element error, no crash;
 *  - NULL <-> PLAYING CM_TEST_CYCLES times (default 1000), a frame checked
 *    each cycle; host RSS and device memory in use (cudaMemGetInfo)
 *    sampled after 20 warm-up cycles and at the end: both flat
 *    (CM_TEST_RSS_SLACK_KIB, default 4096; CM_TEST_DEVMEM_SLACK_KIB,
 *    default 4096).
 * CM_TEST_NO_OOM skips the out-of-memory case (set by the meson test
 * setups of compute-sanitizer, which reports every failed cudaMalloc). */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "device.h"
#include "faults-harness.h"
#include "test-util.h"
#include "test-suite.h"

static gssize
env_kib (const char *name, gssize def)
{
  const gchar *v = g_getenv (name);

  return v && *v ? g_ascii_strtoll (v, NULL, 10) : def;
}

/* device memory in use on device 0, KiB */
static gsize
device_used_kib (void)
{
  size_t free_b = 0, total_b = 0;

  fail_unless (cudaMemGetInfo (&free_b, &total_b) == cudaSuccess);
  return (total_b - free_b) / 1024;
}

typedef struct
{
  gsize before, after;
} DevMem;

static void
sample_device (gboolean end, gpointer data)
{
  DevMem *d = data;

  if (end)
    d->after = device_used_kib ();
  else
    d->before = device_used_kib ();
}

GST_START_TEST (test_state_cycles_cuda)
{
  const Setting *s = &faults_settings[__i__];
  guint cycles = faults_n_cycles (1000);
  gssize rss_slack = env_kib ("CM_TEST_RSS_SLACK_KIB", 4096);
  gssize dev_slack = env_kib ("CM_TEST_DEVMEM_SLACK_KIB", 4096);
  FaultsCycleResult r;
  DevMem d = { 0, 0 };
  gssize rss_grown, dev_grown;

  r = faults_cycles (s, 20, cycles, 320, 240, sample_device, &d);
  rss_grown = (gssize) r.rss_after_kib - (gssize) r.rss_before_kib;
  dev_grown = (gssize) d.after - (gssize) d.before;
  printf ("%s backend=cuda: %u NULL<->PLAYING cycles: host RSS %"
      G_GSIZE_FORMAT " -> %" G_GSIZE_FORMAT " KiB (%+" G_GSSIZE_FORMAT
      "), device used %" G_GSIZE_FORMAT " -> %" G_GSIZE_FORMAT " KiB (%+"
      G_GSSIZE_FORMAT ")\n", kind_name (s->kind), cycles, r.rss_before_kib,
      r.rss_after_kib, rss_grown, d.before, d.after, dev_grown);
  fail_unless (dev_grown <= dev_slack, "%s: device memory grew by %"
      G_GSSIZE_FORMAT " KiB over %u cycles", kind_name (s->kind), dev_grown,
      cycles);
  if (!faults_under_asan () && !g_getenv ("CM_TEST_NO_RSS"))
    fail_unless (rss_grown <= rss_slack, "%s: host RSS grew by %"
        G_GSSIZE_FORMAT " KiB over %u cycles", kind_name (s->kind),
        rss_grown, cycles);
}

GST_END_TEST;

/* Takes device memory in chunks until at most @leave bytes are free. */
static GPtrArray *
reserve_device_memory (size_t leave)
{
  GPtrArray *blocks = g_ptr_array_new ();
  size_t chunk = (size_t) 1 << 30;

  while (chunk >= ((size_t) 1 << 20)) {
    size_t free_b = 0, total_b = 0;
    void *p = NULL;

    fail_unless (cudaMemGetInfo (&free_b, &total_b) == cudaSuccess);
    if (free_b <= leave)
      break;
    if (free_b - leave < chunk) {
      chunk /= 2;
      continue;
    }
    if (cudaMalloc (&p, chunk) != cudaSuccess) {
      cudaGetLastError ();
      chunk /= 2;
      continue;
    }
    g_ptr_array_add (blocks, p);
  }
  return blocks;
}

static void
release_device_memory (GPtrArray * blocks)
{
  for (guint i = 0; i < blocks->len; i++)
    cudaFree (g_ptr_array_index (blocks, i));
  g_ptr_array_free (blocks, TRUE);
}

GST_START_TEST (test_out_of_memory)
{
  const Setting *s = &faults_settings[__i__];
  const char *format = "GRAY16_LE";
  GstVideoInfo info;
  GPtrArray *blocks;
  GstHarness *h;
  GstElement *e;
  GstBus *bus;
  GstMessage *msg;
  GstFlowReturn ret;
  GstBuffer *in;
  gchar *text = NULL;
  size_t free_b, total_b;

  /* compute-sanitizer reports the cudaMalloc failures it is made of */
  if (g_getenv ("CM_TEST_NO_OOM"))
    return;
  e = setting_element_new (s, &bus);
  h = morph_harness_new (e);

  /* 64 MiB left: less than one 8192x8192 16-bit frame (128 MiB) */
  blocks = reserve_device_memory ((size_t) 64 << 20);
  cudaMemGetInfo (&free_b, &total_b);
  printf ("%s: %u blocks reserved, %zu MiB of %zu MiB free\n",
      kind_name (s->kind), blocks->len, free_b >> 20, total_b >> 20);

  if (!faults_push_caps (h, format, 8192, 8192, &info))
    printf ("%s: caps refused\n", kind_name (s->kind));
  in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (in, 0, 0x5a, GST_VIDEO_INFO_SIZE (&info));
  ret = gst_harness_push (h, in);
  msg = faults_pop (bus, GST_MESSAGE_ERROR, &text);
  printf ("%s, 8192x8192 %s with 64 MiB free: flow %s, error: %s\n",
      kind_name (s->kind), format, gst_flow_get_name (ret),
      text ? text : "(none)");
  fail_unless (ret != GST_FLOW_OK, "%s: a frame needing more memory than "
      "free went through", kind_name (s->kind));
  fail_unless (msg != NULL, "%s: no element error when out of device memory",
      kind_name (s->kind));
  fail_unless (strstr (text, "memory") != NULL, "%s: the error does not say "
      "what ran out: %s", kind_name (s->kind), text);
  gst_message_unref (msg);
  g_free (text);
  /* nothing half-done came out */
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);

  /* the harness retries the negotiation: the same error may be posted
   * again; those belong to this phase, not to the restart below */
  while ((msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR)) != NULL)
    gst_message_unref (msg);

  /* memory back: restart with small caps, frames exact */
  release_device_memory (blocks);
  faults_cycle_once (h, e, bus, s, 0, 64, 48);
  faults_cycle_once (h, e, bus, s, 1, 64, 48);
  test_element_teardown (h, e, bus);
}

GST_END_TEST;

/* 32767x32767 GRAY16 through cudamorph: a constant frame stays constant
 * under an erosion, or a clean error. */
GST_START_TEST (test_huge_caps)
{
  const Setting *s = &faults_settings[0];
  const gchar *v = g_getenv ("CM_TEST_HUGE");
  const int side = 32767;
  GstVideoInfo info;
  GstHarness *h;
  GstElement *e;
  GstBus *bus;
  GstFlowReturn ret;
  GstBuffer *in, *out;
  GstMapInfo map;
  gchar *text = NULL;
  GstMessage *msg;

  if (v && strcmp (v, "0") == 0)
    return;
  e = setting_element_new (s, &bus);
  h = morph_harness_new (e);
  if (!faults_push_caps (h, "GRAY16_LE", side, side, &info))
    printf ("cudamorph: %dx%d caps refused\n", side, side);
  in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (in != NULL, "cannot allocate a 2 GiB host frame");
  gst_buffer_memset (in, 0, 0x11, GST_VIDEO_INFO_SIZE (&info));
  ret = gst_harness_push (h, in);
  msg = faults_pop (bus, GST_MESSAGE_ERROR, &text);
  printf ("cudamorph %dx%d GRAY16_LE: flow %s, error: %s\n", side, side,
      gst_flow_get_name (ret), text ? text : "(none)");
  if (ret == GST_FLOW_OK) {
    fail_unless (msg == NULL, "an error and a frame: %s", text);
    out = gst_harness_pull (h);
    gsize wrong = 0, first = G_MAXSIZE;

    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    /* plain loops: a check assertion per pixel (a mark point each) would
     * take minutes for 2^30 pixels */
    for (gsize y = 0; y < (gsize) side; y++) {
      const guint16 *row = (const guint16 *) (map.data + y *
          GST_VIDEO_INFO_PLANE_STRIDE (&info, 0));
      for (int x = 0; x < side; x++) {
        if (row[x] != 0x1111) {
          if (wrong++ == 0)
            first = y * side + x;
        }
      }
    }
    gst_buffer_unmap (out, &map);
    fail_unless (wrong == 0, "%" G_GSIZE_FORMAT " wrong pixels, the first "
        "at (%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ")", wrong,
        first % side, first / side);
    gst_buffer_unref (out);
  } else {
    fail_unless (msg != NULL, "flow %s without an element error",
        gst_flow_get_name (ret));
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  }
  if (msg)
    gst_message_unref (msg);
  g_free (text);
  test_element_teardown (h, e, bus);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_LOOP (test_out_of_memory, 0, FAULTS_N_SETTINGS),
  TEST_SUITE_TEST (test_huge_caps),
  TEST_SUITE_LOOP (test_state_cycles_cuda, 0, FAULTS_N_SETTINGS),
  {NULL}
};

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  if (cm_device_count () <= 0) {
    fprintf (stderr, "no usable CUDA device: skipped\n");
    return TEST_SKIP;
  }
  /* the elements of the shared helpers on the CUDA backend */
  g_setenv ("CM_TEST_BACKEND", "cuda", TRUE);
  cudaSetDevice (0);
  return test_suite_run (test_suite_new ("faults-gpu", "general", 1200,
          suite_tests));
}
