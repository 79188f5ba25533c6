/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Evidence for the memory model (docs/design.md, Memory model): can the core's
 * runtime-API plans work on frames of a gstreamer-cuda buffer pool?
 *
 * For NV12 and RGBA 1920x1080 frames of a gst_cuda_buffer_pool_new() pool
 * of a GstCudaContext on device 0: fill the input on the host, map input
 * and output with GST_MAP_CUDA, erode by a 5x5 rectangle (NV12: the luma
 * plane, chroma copied; RGBA: R, G and B through the channel split, alpha
 * copied) on our own stream, synchronise, unmap, map the output on the
 * host and compare with the CPU reference bit for bit. Three ways:
 *
 *   pushed   the GstCudaContext pushed around everything (stream and plan
 *            created inside it): the model the elements use; must pass
 *   mixed    stream and plan made in the primary context, run with the
 *            GstCudaContext pushed: reported only
 *   primary  never pushed, all in the primary context: reported only
 *
 * Also the CUDA pool helpers in allocation queries. Prints the current
 * CUcontext, the frame pointers and their owning context (through the
 * driver, looked up at run time), and each result.
 * Exit 77 (SKIP) without a device or without the driver library; exit 1
 * when a "pushed" case or a pool check fails. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstcudamorphologymemory.h"

#include "device.h"
#include "morph/morph.h"
#include "planes.h"
#include "morph/se.h"
#include "test-util.h"

#define WIDTH 1920
#define HEIGHT 1080

typedef enum
{
  MODE_PUSHED,
  MODE_MIXED,
  MODE_PRIMARY
} Mode;

static const char *const mode_names[] = { "pushed", "mixed", "primary" };

/* driver entry points for the report only (not linked: no libcuda here at
 * build time is fine) */
typedef CUresult (*CtxGetCurrentFn) (CUcontext * ctx);
typedef CUresult (*PointerGetAttributeFn) (void *data, int attribute,
    CUdeviceptr ptr);
static CtxGetCurrentFn ctx_get_current;
static PointerGetAttributeFn pointer_get_attribute;

static void
driver_probe (void)
{
  void *lib = dlopen ("libcuda.so.1", RTLD_LAZY);

  if (!lib)
    return;
  ctx_get_current = (CtxGetCurrentFn) dlsym (lib, "cuCtxGetCurrent");
  pointer_get_attribute = (PointerGetAttributeFn) dlsym (lib,
      "cuPointerGetAttribute");
}

static void *
current_context (void)
{
  CUcontext c = NULL;

  if (!ctx_get_current || ctx_get_current (&c) != CUDA_SUCCESS)
    return (void *) -1;
  return c;
}

static void *
pointer_context (const void *ptr)
{
  CUcontext c = NULL;

  /* 1 = CU_POINTER_ATTRIBUTE_CONTEXT */
  if (!pointer_get_attribute || pointer_get_attribute (&c, 1,
          (CUdeviceptr) (guintptr) ptr) != CUDA_SUCCESS)
    return (void *) -1;
  return c;
}

static cm_image_packed
as_packed (const cm_image * img, int channels)
{
  cm_image_packed p;

  p.data = img->data;
  p.pitch = img->pitch;
  p.width = img->width / channels;
  p.height = img->height;
  p.depth = img->depth;
  p.channels = channels;
  return p;
}

/* host copy of a mapped plane view */
static cm_image
copy_plane (const cm_image * view)
{
  cm_image img = test_image_new (view->width, view->height, view->depth, 0);
  int y;

  for (y = 0; y < view->height; y++)
    memcpy ((guint8 *) img.data + y * img.pitch,
        (const guint8 *) view->data + y * view->pitch,
        (size_t) view->width * cm_depth_bytes (view->depth));
  return img;
}

/* The expected output planes, from the host input planes. */
static int
reference (const cm_morph_desc * desc, gboolean rgba, cm_image * in,
    guint n_planes, cm_image * expect)
{
  guint p;
  int c;

  for (p = 0; p < n_planes; p++) {
    expect[p] = copy_plane (&in[p]);
  }
  if (!rgba)
    return cm_morph_ref (desc, &in[0], &expect[0]) == CM_OK;

  {
    cm_image_packed src = as_packed (&in[0], 4);
    cm_image_packed dst = as_packed (&expect[0], 4);
    cm_image a = test_image_new (WIDTH, HEIGHT, CM_DEPTH_8, 0);
    cm_image b = test_image_new (WIDTH, HEIGHT, CM_DEPTH_8, 0);
    int ok = 1;

    for (c = 0; c < 3 && ok; c++) {
      ok = cm_extract_channel_ref (&src, c, &a) == CM_OK &&
          cm_morph_ref (desc, &a, &b) == CM_OK &&
          cm_insert_channel_ref (&b, c, &dst) == CM_OK;
    }
    test_image_free (&a);
    test_image_free (&b);
    return ok;
  }
}

/* The device work of one frame, as an element would queue it. */
static cm_status
queue_frame (cm_morph_plan * plan, gboolean rgba, GstVideoFrame * in,
    GstVideoFrame * out, cm_image * scratch, cm_stream stream)
{
  cm_image src, dst;
  cm_status st;
  guint p;
  int c;

  if (!rgba) {
    gst_cuda_morphology_memory_plane_view (in, 0, &src);
    gst_cuda_morphology_memory_plane_view (out, 0, &dst);
    st = cm_morph_plan_run (plan, &src, &dst, stream);
    for (p = 1; st == CM_OK && p < GST_VIDEO_FRAME_N_PLANES (in); p++) {
      gst_cuda_morphology_memory_plane_view (in, p, &src);
      gst_cuda_morphology_memory_plane_view (out, p, &dst);
      st = cm_copy_2d_async (dst.data, dst.pitch, src.data, src.pitch,
          (size_t) src.width * cm_depth_bytes (src.depth), src.height,
          CM_COPY_D2D, stream);
    }
    return st;
  } else {
    cm_image_packed psrc, pdst;

    gst_cuda_morphology_memory_packed_view (in, &psrc);
    gst_cuda_morphology_memory_packed_view (out, &pdst);
    st = cm_copy_2d_async (pdst.data, pdst.pitch, psrc.data, psrc.pitch,
        (size_t) psrc.width * 4, psrc.height, CM_COPY_D2D, stream);
    for (c = 0; st == CM_OK && c < 3; c++) {
      st = cm_extract_channel_cuda (&psrc, c, &scratch[0], stream);
      if (st == CM_OK)
        st = cm_morph_plan_run (plan, &scratch[0], &scratch[1], stream);
      if (st == CM_OK)
        st = cm_insert_channel_cuda (&scratch[1], c, &pdst, stream);
    }
    return st;
  }
}

/* Returns 1 when the output equals the reference. */
static int
run_case (GstCudaContext * ctx, const char *format, Mode mode)
{
  gboolean rgba = strcmp (format, "RGBA") == 0;
  GstCaps *caps;
  gchar *caps_str;
  GstVideoInfo info;
  GstBufferPool *pool;
  GstBuffer *inbuf = NULL, *outbuf = NULL;
  GstVideoFrame fin, fout;
  cm_image in_host[GST_VIDEO_MAX_PLANES], expect[GST_VIDEO_MAX_PLANES];
  cm_image scratch[2] = { {0}, {0} };
  cm_se *se = NULL;
  cm_morph_desc desc;
  cm_morph_plan *plan = NULL;
  cm_stream stream = NULL;
  cm_status st = CM_OK, sync_st = CM_OK;
  gboolean pushed = FALSE, mapped = FALSE;
  guint size, p, n_planes;
  test_rng rng;
  char what[64];
  int ok = 0;

  caps_str = g_strdup_printf ("video/x-raw("
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY "), format=%s, width=%d, "
      "height=%d, framerate=30/1", format, WIDTH, HEIGHT);
  caps = gst_caps_from_string (caps_str);
  g_free (caps_str);
  gst_video_info_from_caps (&info, caps);
  n_planes = GST_VIDEO_INFO_N_PLANES (&info);
  size = GST_VIDEO_INFO_SIZE (&info);
  pool = gst_cuda_morphology_memory_pool_new (ctx, caps, &size, 2, 2, NULL);
  if (!pool || !gst_buffer_pool_set_active (pool, TRUE) ||
      gst_buffer_pool_acquire_buffer (pool, &inbuf, NULL) != GST_FLOW_OK ||
      gst_buffer_pool_acquire_buffer (pool, &outbuf, NULL) != GST_FLOW_OK) {
    printf ("  [%s %s] cannot get buffers from a CUDA pool\n",
        mode_names[mode], format);
    goto out;
  }

  /* input written on the host (uploaded by the CUDA map), output filled
   * with noise so that missing writes show */
  test_rng_seed (&rng, 0x5eed + mode * 7 + rgba);
  gst_video_frame_map (&fin, &info, inbuf, GST_MAP_WRITE);
  for (p = 0; p < n_planes; p++) {
    cm_image v;

    gst_cuda_morphology_memory_plane_view (&fin, p, &v);
    test_image_fill_random (&v, &rng);
    in_host[p] = copy_plane (&v);
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_map (&fout, &info, outbuf, GST_MAP_WRITE);
  for (p = 0; p < n_planes; p++) {
    cm_image v;

    gst_cuda_morphology_memory_plane_view (&fout, p, &v);
    test_image_fill_random (&v, &rng);
  }
  gst_video_frame_unmap (&fout);

  cm_se_new_rect (&se, 5, 5);
  desc.op = CM_MORPH_ERODE;
  desc.se = se;
  desc.iterations = 1;
  desc.border = CM_BORDER_REPLICATE;
  desc.border_value = 0;
  if (!reference (&desc, rgba, in_host, n_planes, expect)) {
    printf ("  [%s %s] reference failed\n", mode_names[mode], format);
    goto free_host;
  }

  /* where the stream, the plan and the scratch are made */
  if (mode == MODE_PUSHED) {
    pushed = gst_cuda_morphology_memory_push (ctx);
    if (!pushed)
      st = CM_ERR_NO_DEVICE;
  } else {
    st = cm_device_set (0);
  }
  if (st == CM_OK)
    st = cm_stream_new (&stream);
  if (st == CM_OK)
    st = cm_morph_plan_new (&plan, &desc, WIDTH, HEIGHT, CM_DEPTH_8);
  if (st == CM_OK && rgba)
    st = cm_device_image_alloc (&scratch[0], WIDTH, HEIGHT, CM_DEPTH_8);
  if (st == CM_OK && rgba)
    st = cm_device_image_alloc (&scratch[1], WIDTH, HEIGHT, CM_DEPTH_8);
  if (mode == MODE_MIXED)
    pushed = gst_cuda_morphology_memory_push (ctx);
  printf ("  [%s %s] pushed %d, current CUcontext %p, stream %p, "
      "plan %s: %s\n", mode_names[mode], format, pushed, current_context (),
      stream, plan ? cm_morph_plan_algorithm (plan) : "-",
      cm_status_string (st));

  if (st == CM_OK) {
    if (!gst_cuda_morphology_memory_frame_map (&fin, &info, inbuf,
            GST_MAP_READ)) {
      printf ("  [%s %s] CUDA map of the input failed\n", mode_names[mode],
          format);
      goto release;
    }
    if (!gst_cuda_morphology_memory_frame_map (&fout, &info, outbuf,
            GST_MAP_WRITE)) {
      gst_video_frame_unmap (&fin);
      printf ("  [%s %s] CUDA map of the output failed\n", mode_names[mode],
          format);
      goto release;
    }
    mapped = TRUE;
    printf ("  [%s %s] frames: in %p (context %p), out %p, pitch %d\n",
        mode_names[mode], format, GST_VIDEO_FRAME_PLANE_DATA (&fin, 0),
        pointer_context (GST_VIDEO_FRAME_PLANE_DATA (&fin, 0)),
        GST_VIDEO_FRAME_PLANE_DATA (&fout, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0));
    st = queue_frame (plan, rgba, &fin, &fout, scratch, stream);
    /* on 1.22 nobody else waits for our stream: synchronise before unmap */
    sync_st = cm_stream_sync (stream);
    gst_video_frame_unmap (&fout);
    gst_video_frame_unmap (&fin);
  }
  printf ("  [%s %s] queue: %s, sync: %s\n", mode_names[mode], format,
      cm_status_string (st), cm_status_string (sync_st));

release:
  if (mode == MODE_MIXED && pushed) {
    gst_cuda_morphology_memory_pop ();
    pushed = FALSE;
  }
  cm_device_free (scratch[0].data);
  cm_device_free (scratch[1].data);
  cm_morph_plan_free (plan);
  cm_stream_free (stream);
  if (pushed)
    gst_cuda_morphology_memory_pop ();

  if (mapped && st == CM_OK && sync_st == CM_OK) {
    /* host map: downloads from the device */
    gst_video_frame_map (&fout, &info, outbuf, GST_MAP_READ);
    ok = 1;
    for (p = 0; p < n_planes; p++) {
      cm_image v;

      gst_cuda_morphology_memory_plane_view (&fout, p, &v);
      snprintf (what, sizeof (what), "[%s %s] plane %u", mode_names[mode],
          format, p);
      ok &= test_image_equal (&v, &expect[p], what);
    }
    gst_video_frame_unmap (&fout);
  }
  printf ("  [%s %s] result: %s\n", mode_names[mode], format,
      ok ? "exact" : "FAILED");

free_host:
  for (p = 0; p < n_planes; p++) {
    test_image_free (&in_host[p]);
    test_image_free (&expect[p]);
  }

out:
  cm_se_free (se);
  gst_clear_buffer (&inbuf);
  gst_clear_buffer (&outbuf);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  gst_caps_unref (caps);
  return ok;
}

/* propose and decide with the CUDA pool helpers */
static int
check_pools (GstCudaContext * ctx)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw("
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY "), format=NV12, width=33, "
      "height=17, framerate=30/1");
  GstQuery *query;
  GstBufferPool *pool = NULL, *plain;
  guint size = 0, min, max;
  int ok = 1;

  query = gst_query_new_allocation (caps, TRUE);
  ok &= gst_cuda_morphology_memory_propose (query, caps, ctx, NULL);
  ok &= gst_query_get_n_allocation_pools (query) == 1;
  ok &= gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, NULL, NULL);
  ok &= pool && GST_IS_CUDA_BUFFER_POOL (pool) &&
      GST_CUDA_BUFFER_POOL (pool)->context == ctx;
  printf ("  propose: pool %s, size %u: %s\n", pool ? G_OBJECT_TYPE_NAME (pool)
      : "none", size, ok ? "ok" : "FAILED");

  /* decide keeps a CUDA pool of our context with downstream's counts ... */
  gst_query_unref (query);
  query = gst_query_new_allocation (caps, TRUE);
  gst_query_add_allocation_pool (query, pool, size, 3, 5);
  ok &= gst_cuda_morphology_memory_decide (query, caps, ctx, NULL);
  {
    GstBufferPool *kept = NULL;

    gst_query_parse_nth_allocation_pool (query, 0, &kept, NULL, &min, &max);
    ok &= kept == pool && min == 3 && max == 5;
    gst_clear_object (&kept);
  }
  gst_query_unref (query);

  /* ... and replaces any other pool */
  query = gst_query_new_allocation (caps, TRUE);
  plain = gst_video_buffer_pool_new ();
  gst_query_add_allocation_pool (query, plain, 1000, 1, 0);
  ok &= gst_cuda_morphology_memory_decide (query, caps, ctx, NULL);
  {
    GstBufferPool *got = NULL;

    gst_query_parse_nth_allocation_pool (query, 0, &got, &size, &min, &max);
    ok &= got != plain && got && GST_IS_CUDA_BUFFER_POOL (got) && min == 1;
    gst_clear_object (&got);
  }
  printf ("  decide: %s\n", ok ? "ok" : "FAILED");
  gst_query_unref (query);
  gst_object_unref (plain);
  gst_clear_object (&pool);
  gst_caps_unref (caps);
  return ok;
}

int
main (int argc, char **argv)
{
  static const char *const formats[] = { "NV12", "RGBA" };
  GstCudaContext *ctx;
  int n_fail = 0, n_obs_fail = 0;
  int mode;
  guint f;

  gst_init (&argc, &argv);

  if (cm_device_count () == 0) {
    printf ("no CUDA device: skipped\n");
    return TEST_SKIP;
  }
  if (!gst_cuda_morphology_memory_init ()) {
    printf ("gstreamer-cuda cannot load the driver library: skipped\n");
    return TEST_SKIP;
  }
  driver_probe ();

  ctx = gst_cuda_context_new (0);
  if (!ctx) {
    fprintf (stderr, "cannot create a GstCudaContext for device 0\n");
    return 1;
  }
  printf ("GstCudaContext %p: CUcontext %p, device %d; current CUcontext "
      "before any push %p\n", (void *) ctx, gst_cuda_context_get_handle (ctx),
      gst_cuda_morphology_memory_context_device_id (ctx), current_context ());

  if (!check_pools (ctx))
    n_fail++;

  /* pushed first: a fault in the other ways may poison the process */
  for (mode = MODE_PUSHED; mode <= MODE_PRIMARY; mode++) {
    printf ("%s:\n", mode_names[mode]);
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      int ok = run_case (ctx, formats[f], mode);

      if (!ok && mode == MODE_PUSHED)
        n_fail++;
      else if (!ok)
        n_obs_fail++;
    }
  }

  printf ("current CUcontext at the end %p\n", current_context ());
  printf ("%d failed (pushed and pools), %d observations failed (mixed, "
      "primary)\n", n_fail, n_obs_fail);
  gst_object_unref (ctx);
  return n_fail ? 1 : 0;
}
