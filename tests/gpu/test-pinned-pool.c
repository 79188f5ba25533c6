/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pinned-memory video buffer pool: buffers are page-locked (asked of
 * the driver), carry GstVideoMeta with the requested stride alignment and
 * the requested memory alignment, map on the host, round-trip through the
 * device, are reused without new allocations, stay pinned when shared and
 * not when deep-copied, survive a downstream allocator being forced into
 * the config, and are all freed when the pool stops (also a buffer still
 * out when the pool went away). The propose/decide helpers in allocation
 * queries. Once with no GstCudaContext (primary context) and, with
 * gstreamer-cuda, once with one. Exit 77 (SKIP) without a CUDA device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstcudaplanefilterpinnedpool.h"
#ifdef HAVE_GST_CUDA
#include "gstcudaplanefiltermemory.h"
#endif

#include "device.h"
#include "test-util.h"

static int n_fail;

#define CHECK(cond, ...) do { \
    if (!(cond)) { \
      fprintf (stderr, "FAILED line %d: %s: ", __LINE__, #cond); \
      fprintf (stderr, __VA_ARGS__); \
      fprintf (stderr, "\n"); \
      n_fail++; \
    } \
  } while (0)

/* cuMemHostGetFlags, looked up at run time: fails on pageable memory */
typedef int (*HostGetFlagsFn) (unsigned int *flags, void *p);
static HostGetFlagsFn host_get_flags;

static void
driver_probe (void)
{
  void *lib = dlopen ("libcuda.so.1", RTLD_LAZY);

  if (lib)
    host_get_flags = (HostGetFlagsFn) dlsym (lib, "cuMemHostGetFlags");
}

/* 1 pinned, 0 pageable, -1 cannot tell; asked in @ctx, the context the
 * block was allocated in (NULL: the current one) */
static int
driver_says_pinned (GstObject * ctx, void *p)
{
  unsigned int flags = 0;
  int ret;

  if (!host_get_flags)
    return -1;
#ifdef HAVE_GST_CUDA
  if (ctx && !gst_cuda_plane_filter_memory_push (GST_CUDA_CONTEXT (ctx)))
    return -1;
#endif
  ret = host_get_flags (&flags, p) == 0;
#ifdef HAVE_GST_CUDA
  if (ctx)
    gst_cuda_plane_filter_memory_pop ();
#endif
  return ret;
}

static guint
live_blocks (void)
{
  guint live;

  gst_cuda_plane_filter_pinned_get_stats (&live, NULL);
  return live;
}

static guint
allocated_blocks (void)
{
  guint n;

  gst_cuda_plane_filter_pinned_get_stats (NULL, &n);
  return n;
}

/* host write, H2D, D2H into a second buffer, compare */
static void
check_round_trip (GstBuffer * a, GstBuffer * b, const GstVideoInfo * info,
    cm_stream stream)
{
  GstVideoFrame fa, fb;
  cm_image dev;
  gsize row = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, 0) *
      GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  gint h = GST_VIDEO_INFO_HEIGHT (info);
  test_rng rng;
  gint y;

  CHECK (gst_video_frame_map (&fa, (GstVideoInfo *) info, a, GST_MAP_WRITE),
      "map a");
  CHECK (gst_video_frame_map (&fb, (GstVideoInfo *) info, b, GST_MAP_WRITE),
      "map b");
  test_rng_seed (&rng, 42);
  for (y = 0; y < h; y++) {
    guint8 *ra = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, 0);
    guint8 *rb = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, 0);
    gsize x;

    for (x = 0; x < row; x++) {
      ra[x] = (guint8) test_rng_next (&rng);
      rb[x] = (guint8) ~ra[x];
    }
  }
  CHECK (cm_device_image_alloc (&dev, (int) row, h, CM_DEPTH_8) == CM_OK,
      "device image");
  CHECK (cm_copy_2d_async (dev.data, dev.pitch,
          GST_VIDEO_FRAME_PLANE_DATA (&fa, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&fa, 0), row, h, CM_COPY_H2D,
          stream) == CM_OK, "upload");
  CHECK (cm_copy_2d_async (GST_VIDEO_FRAME_PLANE_DATA (&fb, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&fb, 0), dev.data, dev.pitch, row, h,
          CM_COPY_D2H, stream) == CM_OK, "download");
  CHECK (cm_stream_sync (stream) == CM_OK, "sync");
  for (y = 0; y < h; y++) {
    CHECK (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, 0) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, 0),
            (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, 0) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, 0), row) == 0,
        "row %d differs after the round trip", y);
  }
  cm_device_free (dev.data);
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fa);
}

static void
check_pool (GstObject * ctx, const char *format, int width, int height)
{
  GstCaps *caps;
  gchar *str;
  GstVideoInfo info;
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoAlignment align;
  GstAllocationParams params;
  GstBuffer *bufs[4] = { NULL, }, *kept, *shared, *deep;
  guint live0 = live_blocks (), alloc0, i, p;
  cm_stream stream = NULL;

  printf ("  %s %dx%d\n", format, width, height);
  str = g_strdup_printf ("video/x-raw, format=%s, width=%d, height=%d, "
      "framerate=30/1", format, width, height);
  caps = gst_caps_from_string (str);
  g_free (str);
  gst_video_info_from_caps (&info, caps);

  pool = gst_cuda_plane_filter_pinned_pool_new (ctx);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      2, 4);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
  gst_video_alignment_reset (&align);
  align.padding_right = 3;
  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++)
    align.stride_align[p] = 63;
  gst_buffer_pool_config_set_video_alignment (config, &align);
  gst_allocation_params_init (&params);
  params.align = 4095;
  /* a downstream allocator in the config is replaced by the pinned one */
  gst_buffer_pool_config_set_allocator (config, NULL, &params);
  CHECK (gst_buffer_pool_set_config (pool, config), "set_config");

  alloc0 = allocated_blocks ();
  CHECK (gst_buffer_pool_set_active (pool, TRUE), "activate");
  CHECK (allocated_blocks () - alloc0 == 2, "preallocated %u, want 2",
      allocated_blocks () - alloc0);

  for (i = 0; i < 4; i++) {
    GstVideoMeta *meta;
    GstMapInfo map;

    CHECK (gst_buffer_pool_acquire_buffer (pool, &bufs[i], NULL) ==
        GST_FLOW_OK, "acquire %u", i);
    if (!bufs[i])
      continue;
    CHECK (gst_cuda_plane_filter_pinned_buffer_is_pinned (bufs[i]),
        "buffer %u not marked pinned", i);
    meta = gst_buffer_get_video_meta (bufs[i]);
    CHECK (meta != NULL, "no video meta");
    for (p = 0; meta && p < meta->n_planes; p++)
      CHECK (meta->stride[p] % 64 == 0 && meta->stride[p] >=
          GST_VIDEO_INFO_PLANE_STRIDE (&info, p), "plane %u stride %d", p,
          meta->stride[p]);
    CHECK (gst_buffer_map (bufs[i], &map, GST_MAP_READWRITE), "map");
    CHECK (((guintptr) map.data & 4095) == 0, "data %p not page aligned",
        map.data);
    CHECK (driver_says_pinned (ctx, map.data) != 0, "driver: %p not pinned",
        map.data);
    if (i == 0)
      printf ("    buffer %p: %" G_GSIZE_FORMAT " bytes, driver says pinned: "
          "%d, stride %d\n", map.data, map.size,
          driver_says_pinned (ctx, map.data),
          meta ? meta->stride[0] : -1);
    gst_buffer_unmap (bufs[i], &map);
  }
  CHECK (allocated_blocks () - alloc0 == 4, "allocated %u, want 4",
      allocated_blocks () - alloc0);
  CHECK (live_blocks () - live0 == 4, "live %u, want 4",
      live_blocks () - live0);

  CHECK (cm_stream_new (&stream) == CM_OK, "stream");
  if (bufs[0] && bufs[1])
    check_round_trip (bufs[0], bufs[1], &info, stream);
  cm_stream_free (stream);

  /* shares stay pinned, deep copies are ordinary memory */
  shared = gst_buffer_copy_region (bufs[0], GST_BUFFER_COPY_MEMORY, 16, 32);
  CHECK (gst_cuda_plane_filter_pinned_buffer_is_pinned (shared), "share");
  deep = gst_buffer_copy_deep (bufs[0]);
  CHECK (!gst_cuda_plane_filter_pinned_buffer_is_pinned (deep), "deep copy");
  gst_buffer_unref (deep);
  gst_buffer_unref (shared);

  /* reuse: release and acquire again, nothing new */
  for (i = 0; i < 4; i++)
    gst_clear_buffer (&bufs[i]);
  for (i = 0; i < 4; i++)
    CHECK (gst_buffer_pool_acquire_buffer (pool, &bufs[i], NULL) ==
        GST_FLOW_OK, "reacquire %u", i);
  CHECK (allocated_blocks () - alloc0 == 4, "reuse allocated %u more",
      allocated_blocks () - alloc0 - 4);
  for (i = 1; i < 4; i++)
    gst_clear_buffer (&bufs[i]);
  kept = bufs[0];

  /* with a buffer still out, GstBufferPool defers its stop (and so the
   * freeing of the idle buffers) until that buffer comes back: the four
   * blocks stay live here; the buffer out lives on, even past the pool,
   * and everything is freed when it is released (checked at the end) */
  CHECK (gst_buffer_pool_set_active (pool, FALSE), "deactivate");
  CHECK (live_blocks () - live0 == 4, "after stop %u live, want 4",
      live_blocks () - live0);
  gst_object_unref (pool);
  {
    GstMapInfo map;

    CHECK (gst_buffer_map (kept, &map, GST_MAP_WRITE), "map after pool");
    memset (map.data, 0x5a, map.size);
    gst_buffer_unmap (kept, &map);
  }
  gst_buffer_unref (kept);
  CHECK (live_blocks () == live0, "leak: %u live, want %u", live_blocks (),
      live0);
  gst_caps_unref (caps);
}

static void
check_queries (GstObject * ctx)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw, format=GRAY8, "
      "width=64, height=48, framerate=30/1");
  GstQuery *query;
  GstBufferPool *pool = NULL, *plain, *got = NULL;
  guint min, max;

  query = gst_query_new_allocation (caps, TRUE);
  CHECK (gst_cuda_plane_filter_pinned_pool_propose (query, caps, ctx),
      "propose");
  CHECK (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL), "video meta");
  CHECK (gst_query_get_n_allocation_pools (query) == 1, "one pool");
  CHECK (gst_query_get_n_allocation_params (query) == 0, "no allocator");
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  CHECK (pool && GST_IS_CUDA_PLANE_FILTER_PINNED_POOL (pool), "pinned pool");
  gst_query_unref (query);

  /* decide keeps a pinned pool, replaces any other */
  query = gst_query_new_allocation (caps, TRUE);
  gst_query_add_allocation_pool (query, pool, 0, 2, 6);
  CHECK (gst_cuda_plane_filter_pinned_pool_decide (query, caps, ctx), "decide");
  gst_query_parse_nth_allocation_pool (query, 0, &got, NULL, &min, &max);
  CHECK (got == pool && min == 2 && max == 6, "kept");
  gst_clear_object (&got);
  gst_query_unref (query);

  query = gst_query_new_allocation (caps, TRUE);
  plain = gst_video_buffer_pool_new ();
  gst_query_add_allocation_pool (query, plain, 0, 1, 0);
  CHECK (gst_cuda_plane_filter_pinned_pool_decide (query, caps, ctx), "decide");
  gst_query_parse_nth_allocation_pool (query, 0, &got, NULL, &min, &max);
  CHECK (got && got != plain && GST_IS_CUDA_PLANE_FILTER_PINNED_POOL (got) &&
      min == 1, "replaced");
  gst_clear_object (&got);
  gst_query_unref (query);
  gst_object_unref (plain);
  gst_clear_object (&pool);
  gst_caps_unref (caps);
}

static void
run_all (GstObject * ctx)
{
  check_pool (ctx, "NV12", 1920, 1080);
  check_pool (ctx, "RGBA", 33, 17);
  check_pool (ctx, "GRAY16_LE", 1, 1);
  check_queries (ctx);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);

  if (cm_device_count () == 0) {
    printf ("no CUDA device: skipped\n");
    return TEST_SKIP;
  }
  driver_probe ();

  printf ("no GstCudaContext (primary context):\n");
  run_all (NULL);

#ifdef HAVE_GST_CUDA
  if (gst_cuda_plane_filter_memory_init ()) {
    GstCudaContext *ctx = gst_cuda_context_new (0);

    CHECK (ctx != NULL, "GstCudaContext for device 0");
    if (ctx) {
      printf ("GstCudaContext %p:\n", (void *) ctx);
      run_all (GST_OBJECT (ctx));
      gst_object_unref (ctx);
    }
  }
#endif

  printf ("%d check(s) failed; %u pinned block(s) still live\n", n_fail,
      live_blocks ());
  return n_fail || live_blocks () ? 1 : 0;
}
