/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The elements in CUDA memory (issue 5): chains run between nvcodec's
 * cudaupload and cudadownload must give, bit for bit, the frames (and
 * the cudalinspectrum and cudablobs messages) of the same chain on the
 * CPU backend in system memory; frames must stay in CUDA memory between
 * the elements (CUDA caps on every pad, no element maps CUDA memory for
 * the host, every element reads and writes the frames in place; from GStreamer
 * 1.24 the filters push them with their work still queued, ordered by
 * the memories' CUDA streams); a resolution change mid-stream on the CUDA
 * path; system memory on one side only; regions of interest (roi) in
 * CUDA memory.
 *
 * Exits 77 (meson: SKIP) without cudaupload/cudadownload (nvcodec
 * registers them only with a driver and a device) or without our
 * plugin's CUDA memory support. */
#include <stdio.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "test-util.h"
#include "chain-compare.h"


typedef enum
{
  MODE_CPU,                     /* backend=cpu, system memory throughout */
  MODE_CUDA,                    /* cudaupload ! chain ! cudadownload */
  MODE_SYS_IN,                  /* system in, CUDA out of the chain */
  MODE_SYS_OUT,                 /* CUDA in, system out of the chain */
} Mode;

static const char *const mode_names[] = { "cpu", "cuda", "system-in",
  "system-out"
};

/* every element's properties in @mode */
static const char *
mode_props (Mode mode)
{
  return mode == MODE_CPU ? " backend=cpu" : " backend=cuda overlap=auto";
}

static GstBuffer *
random_frame (const GstVideoInfo * info, guint64 seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstMapInfo map;
  test_rng rng;

  test_rng_seed (&rng, seed);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = (guint8) (test_rng_next (&rng) >> 24);
  gst_buffer_unmap (buf, &map);
  return buf;
}


/* Pushes @n_frames random frames per size of @sizes (w, h pairs ending
 * with 0) through the chain in @mode; the output in system memory. */
static RunResult
run_chain (const char *const *elements, const char *format,
    const int *sizes, int n_frames, Mode mode)
{
  RunResult r = run_result_new ();
  gchar *chain = chain_desc (elements, mode_props (mode)), *desc, *what;
  const char *pre = "", *post = "";
  GstElement *pipe, *src, *sink;
  GstBus *bus;
  guint64 pts = 0;
  guint n_elements = g_strv_length ((gchar **) elements);

  switch (mode) {
    case MODE_CPU:
      break;
    case MODE_CUDA:
      pre = "cudaupload ! ";
      post = " ! cudadownload";
      break;
    case MODE_SYS_IN:
      post = " ! video/x-raw(memory:CUDAMemory) ! cudadownload";
      break;
    case MODE_SYS_OUT:
      /* the final caps filter below is in system memory */
      pre = "cudaupload ! ";
      break;
  }
  desc = g_strdup_printf ("appsrc name=src format=time ! %s%s%s ! "
      "video/x-raw, format=%s ! appsink name=sink sync=false", pre, chain,
      post, format);
  pipe = chain_pipeline_new (desc, &src, &sink, &bus);
  g_object_set (src, "max-bytes", (guint64) 0, NULL);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (int k = 0; sizes[k]; k += 2) {
    GstVideoInfo info;
    GstCaps *caps;

    gst_video_info_set_format (&info, gst_video_format_from_string (format),
        sizes[k], sizes[k + 1]);
    caps = gst_video_info_to_caps (&info);
    gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
    gst_app_src_set_caps (GST_APP_SRC (src), caps);
    gst_caps_unref (caps);
    for (int i = 0; i < n_frames; i++) {
      GstBuffer *b = random_frame (&info, 1000 + 17 * k + i);

      GST_BUFFER_PTS (b) = pts;
      GST_BUFFER_DURATION (b) = GST_SECOND / 30;
      pts += GST_SECOND / 30;
      gst_app_src_push_buffer (GST_APP_SRC (src), b);
    }
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  for (;;) {
    /* a pipeline error never brings EOS: do not wait for ever */
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        60 * GST_SECOND);

    if (sample == NULL)
      break;
    g_ptr_array_add (r.samples, sample);
  }
  what = g_strdup_printf ("%s (%s)", mode_names[mode], chain);
  run_result_finish (&r, pipe, bus, n_elements, what);
  gst_object_unref (src);
  gst_object_unref (sink);
  g_free (what);
  g_free (desc);
  g_free (chain);
  return r;
}





static int failures;

/* The chain in @mode against the CPU backend, and where the frames were. */
static void
check_chain (const char *const *elements, const char *format,
    const int *sizes, Mode mode)
{
  const int n_frames = 3;
  gint64 t0 = g_get_monotonic_time ();
  RunResult cpu = run_chain (elements, format, sizes, n_frames, MODE_CPU);
  RunResult gpu = run_chain (elements, format, sizes, n_frames, mode);
  gchar *chain = chain_desc (elements, mode_props (mode));
  gchar *what = g_strdup_printf ("%s %s [%s]", format, mode_names[mode],
      chain);
  guint n = g_strv_length ((gchar **) elements), expected = 0;
  gboolean ok = cpu.ok && gpu.ok;
  GString *why = g_string_new (NULL);

  for (int k = 0; sizes[k]; k += 2)
    expected += n_frames;
  if (ok && (cpu.samples->len != expected || gpu.samples->len != expected)) {
    fprintf (stderr, "%s: %u and %u frames, expected %u\n", what,
        cpu.samples->len, gpu.samples->len, expected);
    ok = FALSE;
  }
  for (guint i = 0; ok && i < expected; i++)
    ok = samples_equal (cpu.samples->pdata[i], gpu.samples->pdata[i], i, why);
  if (ok)
    ok = messages_equal (cpu.messages, gpu.messages, why);
  if (!ok && why->len > 0)
    fprintf (stderr, "%s: %s\n", what, why->str);

  /* where the frames were: nobody maps CUDA memory for the host; with
   * CUDA on both sides every pad carries CUDA caps and every element reads
   * (and, unless it passes buffers through, writes) the frames in place;
   * with system memory on one side, the element at the CUDA end does */
  for (guint i = 0; ok && i < n; i++) {
    const GstStructure *st = gpu.stats->pdata[i];
    gboolean first = i == 0, last = i + 1 == n;
    gboolean blobs = g_str_has_prefix (elements[i], "cudablobs");
    gboolean analyser = blobs ||
        g_str_has_prefix (elements[i], "cudalinspectrum");
    gboolean passthrough = analyser &&
        strstr (elements[i], "output=") == NULL;
    gboolean regions = strstr (elements[i], "roi=") != NULL;
    /* analysers read their results on the host: they never leave work in
     * flight, and only cudablobs overlaps (its results read as the frame
     * leaves); frames with regions of interest do not overlap, and are
     * left in flight like whole ones */
    gboolean bad = stat_get (st, "frames") != expected ||
        stat_get (st, "cuda-host-maps") != 0;

    GST_INFO ("%s e%u: %" GST_PTR_FORMAT " %" GST_PTR_FORMAT, what, i, st,
        gpu.src_caps->pdata[i]);
    switch (mode) {
      case MODE_CUDA:
        bad |= !caps_cuda (gpu.src_caps->pdata[i]);
        bad |= stat_get (st, "device-in") != expected;
        bad |= !passthrough && stat_get (st, "device-out") != expected;
#if GST_CHECK_VERSION (1, 24, 0)
        /* the filters leave each frame with its work queued, ordered by
         * the memories' streams, and do not overlap; analysers read their
         * results on the host: no stream order, and cudablobs overlaps
         * whole frames (overlap=auto, appsrc not live). The first one's
         * input comes from cudaupload, whose memory may carry no stream:
         * then it waits on the host. The frames and messages above are
         * exact all the same. */
        bad |= stat_get (st, "overlapped") != (blobs && !regions ?
            expected : 0);
        if (analyser)
          bad |= stat_get (st, "stream-ordered") != 0;
        else if (i > 0 || stat_get (st, "stream-ordered") != 0)
          bad |= stat_get (st, "stream-ordered") != expected;
#else
        /* overlap=auto and appsrc is not live: the filters of whole frames
         * and cudablobs keep each frame on the device while the next comes
         * in (cudalinspectrum and regions never do); the frames and
         * messages above are exact all the same */
        bad |= stat_get (st, "overlapped") != ((analyser && !blobs) ||
            regions ? 0 : expected);
        bad |= stat_get (st, "stream-ordered") != 0;
#endif
        break;
      case MODE_SYS_IN:
        bad |= first && stat_get (st, "device-in") != 0;
        bad |= last && !caps_cuda (gpu.src_caps->pdata[i]);
        bad |= last && !passthrough && stat_get (st, "device-out") != expected;
        break;
      case MODE_SYS_OUT:
        bad |= first && stat_get (st, "device-in") != expected;
        bad |= last && caps_cuda (gpu.src_caps->pdata[i]);
        bad |= last && stat_get (st, "device-out") != 0;
        break;
      default:
        break;
    }
    if (bad) {
      gchar *s = gst_structure_to_string (st);
      gchar *c = gst_caps_to_string (gpu.src_caps->pdata[i]);

      fprintf (stderr, "%s: e%u frames not where expected: %s, src caps "
          "%s\n", what, i, s, c);
      g_free (s);
      g_free (c);
      ok = FALSE;
    }
  }

  printf ("%s %s (%.1f s)\n", ok ? "ok  " : "FAIL", what,
      (g_get_monotonic_time () - t0) / 1e6);
  fflush (stdout);
  if (!ok)
    failures++;
  run_result_clear (&cpu);
  run_result_clear (&gpu);
  g_string_free (why, TRUE);
  g_free (what);
  g_free (chain);
}

int
main (int argc, char **argv)
{
  static const char *const median[] = { "cudamedian size=5", NULL };
  static const char *const open[] = { "cudamorph operation=open shape=disk "
        "radius=7", NULL
  };
  static const char *const tophat[] = { "cudamorph operation=tophat "
        "shape=line length=31 angle=30", NULL
  };
  static const char *const spectrum[] = { "cudalinspectrum length=41 "
        "output=supremum", NULL
  };
  static const char *const passthrough[] = { "cudalinspectrum length=41",
    NULL
  };
  static const char *const three[] = { "cudamedian size=5",
    "cudamorph operation=open shape=disk radius=7",
    "cudamorph operation=tophat shape=line length=31 angle=30", NULL
  };
  static const char *const four[] = { "cudamedian size=5",
    "cudamorph operation=open shape=disk radius=7",
    "cudamorph operation=tophat shape=line length=31 angle=30",
    "cudalinspectrum length=41", NULL
  };
  /* reconstruction: the marker and every pass stay on the device */
  static const char *const recon[] = { "cudamorph operation=fill-holes",
    "cudamorph operation=open-rec shape=disk radius=3",
    "cudamorph operation=hdome dome-height=20 connectivity=4", NULL
  };
  /* regions of interest in CUDA memory: gathered, filtered and scattered
   * on the device, the rest copied there */
  static const char *const roi[] = { "cudamedian size=5 "
        "roi=<30,20,100,90>",
    "cudamorph operation=open shape=disk radius=7 roi=<200,100,160,200>",
    "cudamorph operation=fill-holes roi=<0,0,64,48>",
    "cudalinspectrum length=21 output=supremum roi=<10,10,128,96>", NULL
  };
  static const char *const roi_rgb[] = { "cudamedian size=5 "
        "color-mode=channels roi=<31,21,99,91>",
    "cudamorph operation=open shape=disk radius=7 roi=<200,100,160,200>",
    NULL
  };
  /* cudablobs after the chain: its results read on the host
   * from frames in CUDA memory, equal to the CPU backend's; and over
   * regions (roi) analysed where they lie */
  static const char *const blobs[] = { "cudamedian size=5",
    "cudamorph operation=tophat shape=disk radius=7",
    "cudablobs threshold=40", NULL
  };
  /* its mask: luma written on the device, chroma made neutral there */
  static const char *const blobs_mask[] = { "cudamedian size=5",
    "cudablobs threshold=40 output=mask", NULL
  };
  static const char *const blobs_roi[] = { "cudablobs threshold=128 "
        "connectivity=4 roi=<10,10,128,96>", NULL
  };
  /* the temporal percentile: the history of every plane on the device,
   * chroma made neutral there */
  static const char *const temporal[] = { "cudatemporal frames=3", NULL };
  static const char *const temporal_diff[] = { "cudatemporal frames=3 "
        "output=difference", NULL
  };
  static const char *const temporal_chain[] = { "cudamedian size=3",
    "cudatemporal frames=2 percentile=25", NULL
  };
  static const int one_size[] = { 320, 240, 0 };
  static const int two_sizes[] = { 320, 240, 178, 142, 0 };
  GstElementFactory *f;

  gst_init (&argc, &argv);
  if (!(f = gst_element_factory_find ("cudaupload")) ||
      (gst_object_unref (f), !(f = gst_element_factory_find ("cudadownload")))) {
    printf ("SKIP: no cudaupload/cudadownload (no CUDA device or no "
        "nvcodec plugin in GST_PLUGIN_SYSTEM_PATH)\n");
    return TEST_SKIP;
  }
  gst_object_unref (f);
  switch (plugin_has_cuda_memory ()) {
    case -1:
      fprintf (stderr, "no cudamorph: GST_PLUGIN_PATH?\n");
      return 1;
    case 0:
      printf ("SKIP: plugin built without gstreamer-cuda\n");
      return TEST_SKIP;
    default:
      break;
  }

  /* (1) + (2): each element and the chains, NV12 and RGBA */
  check_chain (median, "NV12", one_size, MODE_CUDA);
  check_chain (median, "RGBA", one_size, MODE_CUDA);
  check_chain (open, "NV12", one_size, MODE_CUDA);
  check_chain (open, "RGBA", one_size, MODE_CUDA);
  check_chain (tophat, "NV12", one_size, MODE_CUDA);
  check_chain (tophat, "RGBA", one_size, MODE_CUDA);
  check_chain (spectrum, "NV12", one_size, MODE_CUDA);
  check_chain (passthrough, "NV12", one_size, MODE_CUDA);
  check_chain (three, "NV12", one_size, MODE_CUDA);
  check_chain (three, "RGBA", one_size, MODE_CUDA);
  check_chain (four, "NV12", one_size, MODE_CUDA);
  check_chain (four, "I420", one_size, MODE_CUDA);
  check_chain (recon, "NV12", one_size, MODE_CUDA);
  check_chain (recon, "RGBA", one_size, MODE_CUDA);
  check_chain (blobs, "NV12", two_sizes, MODE_CUDA);
  check_chain (blobs, "I420", one_size, MODE_CUDA);
  check_chain (blobs_roi, "NV12", one_size, MODE_CUDA);
  check_chain (blobs, "NV12", one_size, MODE_SYS_IN);
  check_chain (blobs_mask, "NV12", two_sizes, MODE_CUDA);
  check_chain (blobs_mask, "I420", one_size, MODE_CUDA);
  check_chain (blobs_mask, "I420", one_size, MODE_SYS_OUT);

  check_chain (roi, "NV12", one_size, MODE_CUDA);
  check_chain (roi, "I420", one_size, MODE_CUDA);
  check_chain (roi_rgb, "RGBA", one_size, MODE_CUDA);
  check_chain (roi, "NV12", one_size, MODE_SYS_IN);
  check_chain (roi, "NV12", one_size, MODE_SYS_OUT);

  check_chain (temporal, "NV12", one_size, MODE_CUDA);
  check_chain (temporal, "I420", one_size, MODE_CUDA);
  check_chain (temporal, "Y444", one_size, MODE_CUDA);
  check_chain (temporal, "RGBA", one_size, MODE_CUDA);
  check_chain (temporal_diff, "NV12", one_size, MODE_CUDA);
  check_chain (temporal_diff, "I420", one_size, MODE_CUDA);
  check_chain (temporal_chain, "NV12", two_sizes, MODE_CUDA);
  check_chain (temporal, "I420", one_size, MODE_SYS_IN);
  check_chain (temporal, "I420", one_size, MODE_SYS_OUT);
  check_chain (temporal_diff, "NV12", one_size, MODE_SYS_OUT);

  /* (3) resolution change mid-stream on the CUDA path */
  check_chain (three, "NV12", two_sizes, MODE_CUDA);
  check_chain (four, "NV12", two_sizes, MODE_CUDA);
  check_chain (three, "RGBA", two_sizes, MODE_CUDA);
  check_chain (recon, "NV12", two_sizes, MODE_CUDA);

  /* (4) system memory on one side only */
  check_chain (three, "NV12", one_size, MODE_SYS_IN);
  check_chain (three, "NV12", one_size, MODE_SYS_OUT);
  check_chain (three, "RGBA", one_size, MODE_SYS_IN);
  check_chain (three, "RGBA", one_size, MODE_SYS_OUT);
  check_chain (spectrum, "NV12", one_size, MODE_SYS_IN);
  check_chain (spectrum, "NV12", one_size, MODE_SYS_OUT);

  printf ("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
