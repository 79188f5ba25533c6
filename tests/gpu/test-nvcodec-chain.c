/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The elements right after NVIDIA's hardware decoder: an H.264 stream
 * (argv[1], tests/data/lines-320x240.h264) decoded by nvh264dec goes
 * straight into a chain on the CUDA backend, with no capsfilter in
 * between, so that the elements and the decoder agree on CUDA memory and
 * on the pipeline's GstCudaContext by themselves. The frames after
 * cudadownload (and the cudalinspectrum messages) must equal, bit for
 * bit, those of the same chain on the CPU backend run on the decoder's
 * frames downloaded to system memory first; and the frames must have
 * stayed on the GPU: CUDA caps on both pads of every chain element, every
 * element reads (and, unless it passes buffers through, writes) every
 * frame in CUDA memory, nobody maps CUDA memory for the host and nothing
 * is uploaded or downloaded by the elements.
 *
 * Exits 77 (meson: SKIP) without nvh264dec, h264parse or cudadownload
 * (nvcodec registers its elements only with a driver and a device), without
 * our cudamorph, or without our plugin's CUDA memory support. */
#include <stdio.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "test-util.h"
#include "chain-compare.h"

/* longest a pipeline may take to reach EOS */
#define RUN_TIMEOUT_S 120

/* Decodes @data with nvh264dec and runs the chain: on the CUDA backend
 * right after the decoder (@cuda), or on the CPU backend after
 * cudadownload. The output in system memory. */
static RunResult
run_chain (const char *data, const char *const *elements, gboolean cuda)
{
  RunResult r = run_result_new ();
  gchar *chain = chain_desc (elements, cuda ? " backend=cuda" :
      " backend=cpu"), *desc;
  const char *what = cuda ? "cuda" : "cpu";
  GstElement *pipe, *src, *sink;
  GstBus *bus;
  gint64 deadline;
  guint n_elements = g_strv_length ((gchar **) elements);

  if (cuda)
    desc = g_strdup_printf ("filesrc name=src ! h264parse ! nvh264dec ! %s ! "
        "cudadownload ! video/x-raw, format=NV12 ! appsink name=sink "
        "sync=false", chain);
  else
    desc = g_strdup_printf ("filesrc name=src ! h264parse ! nvh264dec ! "
        "cudadownload ! video/x-raw, format=NV12 ! %s ! appsink name=sink "
        "sync=false", chain);
  pipe = chain_pipeline_new (desc, &src, &sink, &bus);
  g_object_set (src, "location", data, NULL);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  /* until EOS; an error or a stall ends the wait instead of blocking in
   * gst_app_sink_pull_sample () for ever */
  deadline = g_get_monotonic_time () + RUN_TIMEOUT_S * G_TIME_SPAN_SECOND;
  for (;;) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        100 * GST_MSECOND);

    if (sample != NULL) {
      g_ptr_array_add (r.samples, sample);
      continue;
    }
    if (gst_app_sink_is_eos (GST_APP_SINK (sink)))
      break;
    if (!chain_drain_bus (bus, &r, what)) {
      r.ok = FALSE;
      break;
    }
    if (g_get_monotonic_time () > deadline) {
      fprintf (stderr, "%s: no EOS after %d s (%u frames)\n", what,
          RUN_TIMEOUT_S, r.samples->len);
      r.ok = FALSE;
      break;
    }
  }

  run_result_finish (&r, pipe, bus, n_elements, what);
  gst_object_unref (src);
  gst_object_unref (sink);
  g_free (desc);
  g_free (chain);
  return r;
}





/* Where element @i of the CUDA run had its frames; FALSE with the reason
 * in @why when any of them was not on the GPU. */
static gboolean
frames_on_gpu (const RunResult * gpu, guint i, const char *element,
    GString * why)
{
  const GstStructure *st = gpu->stats->pdata[i];
  GstCaps *sink_caps = gpu->sink_caps->pdata[i];
  GstCaps *src_caps = gpu->src_caps->pdata[i];
  guint64 frames = gpu->samples->len;
  /* without output= cudalinspectrum passes the buffers on untouched */
  gboolean passthrough = g_str_has_prefix (element, "cudalinspectrum") &&
      strstr (element, "output=") == NULL;
  static const char *const host_counters[] = { "cuda-host-maps",
    "pinned-uploads", "staged-uploads", "pinned-downloads",
    "staged-downloads"
  };
  gboolean ok = TRUE;
  gchar *s;

  GST_INFO ("e%u: %" GST_PTR_FORMAT " sink %" GST_PTR_FORMAT " src %"
      GST_PTR_FORMAT, i, st, sink_caps, src_caps);
  if (!caps_cuda (sink_caps) || !caps_cuda (src_caps)) {
    gchar *a = gst_caps_to_string (sink_caps);
    gchar *b = gst_caps_to_string (src_caps);

    g_string_append_printf (why, "e%u not in CUDA memory: sink caps %s, "
        "src caps %s", i, a, b);
    g_free (a);
    g_free (b);
    return FALSE;
  }
  if (stat_get (st, "frames") != frames || stat_get (st, "device-in") != frames)
    ok = FALSE;
  if (!passthrough && stat_get (st, "device-out") != frames)
    ok = FALSE;
  /* no host access at all: no host map, no copy to or from the host */
  for (guint k = 0; k < G_N_ELEMENTS (host_counters); k++) {
    if (stat_get (st, host_counters[k]) != 0)
      ok = FALSE;
  }
  if (!ok) {
    s = gst_structure_to_string (st);
    g_string_append_printf (why, "e%u frames not on the GPU (%"
        G_GUINT64_FORMAT " frames out): %s", i, frames, s);
    g_free (s);
  }
  return ok;
}

static int failures;

/* The chain right after nvh264dec on CUDA against the CPU backend after
 * cudadownload. */
static void
check_chain (const char *data, const char *const *elements)
{
  RunResult cpu = run_chain (data, elements, FALSE);
  RunResult gpu = run_chain (data, elements, TRUE);
  gchar *chain = chain_desc (elements, " backend=cuda");
  GString *why = g_string_new (NULL);
  guint n = g_strv_length ((gchar **) elements);
  gboolean spectrum = FALSE;
  gboolean ok = TRUE;

  for (guint i = 0; i < n; i++)
    spectrum |= g_str_has_prefix (elements[i], "cudalinspectrum");

  if (!cpu.ok || !gpu.ok) {
    g_string_append_printf (why, "pipeline error or stall (%s)",
        !gpu.ok && !cpu.ok ? "both runs" : !gpu.ok ? "cuda run" : "cpu run");
    ok = FALSE;
  }
  if (ok && (cpu.samples->len == 0 || cpu.samples->len != gpu.samples->len)) {
    g_string_append_printf (why, "%u frames (cpu) vs %u (cuda)",
        cpu.samples->len, gpu.samples->len);
    ok = FALSE;
  }
  for (guint i = 0; ok && i < cpu.samples->len; i++)
    ok = samples_equal (cpu.samples->pdata[i], gpu.samples->pdata[i], i, why);
  if (ok && spectrum && gpu.messages->len == 0) {
    g_string_append (why, "no cudalinspectrum messages");
    ok = FALSE;
  }
  if (ok)
    ok = messages_equal (cpu.messages, gpu.messages, why);
  for (guint i = 0; ok && i < n; i++)
    ok = frames_on_gpu (&gpu, i, elements[i], why);

  if (ok)
    printf ("ok   nvh264dec ! %s: %u frames equal, %u messages, on the GPU\n",
        chain, gpu.samples->len, gpu.messages->len);
  else
    printf ("FAIL nvh264dec ! %s: %s\n", chain, why->str);
  if (!ok)
    failures++;
  run_result_clear (&cpu);
  run_result_clear (&gpu);
  g_string_free (why, TRUE);
  g_free (chain);
}

/* TRUE when the element factory @name is registered. */
static gboolean
have_factory (const char *name)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (f == NULL)
    return FALSE;
  gst_object_unref (f);
  return TRUE;
}

int
main (int argc, char **argv)
{
  static const char *const erode[] = { "cudamorph operation=erode "
        "shape=rect width=5 height=5", NULL
  };
  static const char *const median[] = { "cudamedian size=5", NULL };
  static const char *const four[] = { "cudamedian size=5",
    "cudamorph operation=open shape=disk radius=7",
    "cudamorph operation=tophat shape=line length=31 angle=30",
    "cudalinspectrum length=41", NULL
  };
  static const char *const needed[] = { "h264parse", "nvh264dec",
    "cudadownload", "cudamorph", NULL
  };
  const char *data;

  gst_init (&argc, &argv);
  if (argc < 2) {
    fprintf (stderr, "usage: %s FILE.h264\n", argv[0]);
    return 1;
  }
  data = argv[1];
  if (!g_file_test (data, G_FILE_TEST_IS_REGULAR)) {
    fprintf (stderr, "%s: no such file\n", data);
    return 1;
  }

  for (guint i = 0; needed[i]; i++) {
    if (!have_factory (needed[i])) {
      printf ("SKIP: no %s (nvcodec registers its elements only with a "
          "driver and a CUDA device; GST_PLUGIN_SYSTEM_PATH and "
          "GST_PLUGIN_PATH decide where plugins are looked for)\n",
          needed[i]);
      return TEST_SKIP;
    }
  }
  switch (plugin_has_cuda_memory ()) {
    case -1:
      printf ("SKIP: cudamorph cannot be created\n");
      return TEST_SKIP;
    case 0:
      printf ("SKIP: plugin built without gstreamer-cuda\n");
      return TEST_SKIP;
    default:
      break;
  }

  check_chain (data, erode);
  check_chain (data, median);
  check_chain (data, four);

  printf ("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
