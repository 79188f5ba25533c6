/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pinned pool (gstcudaplanefilterpinnedpool.h). It forces its own
 * allocator into every config (GstBaseTransform's decide_allocation writes
 * downstream's in after us). A block belongs to the context current when
 * it was allocated: a given GstCudaContext is pushed around every
 * allocation and free and kept until the last block goes; without one the
 * primary context's (pinned memory is portable across contexts). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaplanefilterpinnedpool.h"
#include "gstcudaplanefilterpool.h"

#include "device.h"

#include "gstcudaplanefiltermemory.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_plane_filter_pinned_debug);
#define GST_CAT_DEFAULT gst_cuda_plane_filter_pinned_debug

#define PINNED_MEMORY_TYPE "CudaMorphologyPinnedMemory"

static gint pinned_live;        /* blocks allocated and not yet freed */
static gint pinned_allocated;   /* blocks allocated since the start */

static GQuark
pinned_quark (void)
{
  static gsize q = 0;

  if (g_once_init_enter (&q))
    g_once_init_leave (&q, g_quark_from_static_string (PINNED_MEMORY_TYPE));
  return (GQuark) q;
}

static void
debug_init (void)
{
  GST_DEBUG_CATEGORY_INIT (gst_cuda_plane_filter_pinned_debug,
      "cudaplanefilterpinned", 0, "CUDA plane filter pinned host memory");
}

/* ---- CUDA context around allocations ------------------------------------ */

static gboolean
context_push (GstObject * cuda_context)
{
  if (cuda_context)
    return gst_cuda_plane_filter_memory_push ((GstCudaContext *)
        cuda_context);
  return TRUE;
}

static void
context_pop (GstObject * cuda_context)
{
  if (cuda_context)
    gst_cuda_plane_filter_memory_pop ();
}

/* ---- allocator ---------------------------------------------------------- */

typedef struct
{
  void *data;                   /* from cm_host_alloc_pinned () */
  GstObject *cuda_context;      /* (nullable) owner of the block */
} PinnedBlock;

static void
pinned_block_free (gpointer user_data)
{
  PinnedBlock *block = user_data;

  if (context_push (block->cuda_context)) {
    cm_host_free_pinned (block->data);
    context_pop (block->cuda_context);
  } else {
    GST_ERROR ("cannot push the CUDA context: leaking a pinned block");
  }
  if (block->cuda_context)
    gst_object_unref (block->cuda_context);
  g_free (block);
  g_atomic_int_add (&pinned_live, -1);
}

#define GST_TYPE_CM_PINNED_ALLOCATOR (gst_cm_pinned_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCmPinnedAllocator, gst_cm_pinned_allocator,
    GST, CM_PINNED_ALLOCATOR, GstAllocator);

struct _GstCmPinnedAllocator
{
  GstAllocator parent;

  GstObject *cuda_context;      /* (nullable) */
};

G_DEFINE_TYPE_WITH_CODE (GstCmPinnedAllocator, gst_cm_pinned_allocator,
    GST_TYPE_ALLOCATOR, debug_init ());

static GstMemory *
gst_cm_pinned_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCmPinnedAllocator *self = GST_CM_PINNED_ALLOCATOR (allocator);
  gsize align = params->align | gst_memory_alignment;
  gsize maxsize = size + params->prefix + params->padding;
  gsize offset;
  PinnedBlock *block;
  GstMemory *mem;
  cm_status status;

  block = g_new0 (PinnedBlock, 1);
  if (!context_push (self->cuda_context)) {
    GST_ERROR_OBJECT (self, "cannot push the CUDA context");
    g_free (block);
    return NULL;
  }
  status = cm_host_alloc_pinned (&block->data, maxsize + align);
  context_pop (self->cuda_context);
  if (status != CM_OK) {
    GST_WARNING_OBJECT (self, "cannot allocate %" G_GSIZE_FORMAT " bytes of "
        "pinned memory: %s", maxsize + align, cm_status_string (status));
    g_free (block);
    return NULL;
  }
  if (self->cuda_context)
    block->cuda_context = gst_object_ref (self->cuda_context);
  g_atomic_int_inc (&pinned_live);
  g_atomic_int_inc (&pinned_allocated);

  /* align is a mask (2^n - 1); the block is at least page aligned in
   * practice, but nothing documents it */
  offset = (align + 1 - ((guintptr) block->data & align)) & align;
  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset ((guint8 *) block->data + offset, 0, params->prefix);
  if (params->padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset ((guint8 *) block->data + offset + params->prefix + size, 0,
        params->padding);

  mem = gst_memory_new_wrapped (params->flags, block->data, maxsize + align,
      offset + params->prefix, size, block, pinned_block_free);
  gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), pinned_quark (),
      GINT_TO_POINTER (1), NULL);
  return mem;
}

/* never called: the memories belong to the system allocator */
static void
gst_cm_pinned_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  g_return_if_reached ();
}

static void
gst_cm_pinned_allocator_dispose (GObject * object)
{
  GstCmPinnedAllocator *self = GST_CM_PINNED_ALLOCATOR (object);

  gst_clear_object (&self->cuda_context);
  G_OBJECT_CLASS (gst_cm_pinned_allocator_parent_class)->dispose (object);
}

static void
gst_cm_pinned_allocator_class_init (GstCmPinnedAllocatorClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  gobject_class->dispose = gst_cm_pinned_allocator_dispose;
  allocator_class->alloc = gst_cm_pinned_allocator_alloc;
  allocator_class->free = gst_cm_pinned_allocator_free;
}

static void
gst_cm_pinned_allocator_init (GstCmPinnedAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = PINNED_MEMORY_TYPE;
  /* pinning is slow: the allocator is for pools only, not for elements
   * looking for a general-purpose allocator */
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

static GstAllocator *
gst_cm_pinned_allocator_new (GstObject * cuda_context)
{
  GstCmPinnedAllocator *self = g_object_new (GST_TYPE_CM_PINNED_ALLOCATOR,
      NULL);

  gst_object_ref_sink (self);
  if (cuda_context)
    self->cuda_context = gst_object_ref (cuda_context);
  return GST_ALLOCATOR_CAST (self);
}

/* ---- pool --------------------------------------------------------------- */

struct _GstCudaPlaneFilterPinnedPool
{
  GstVideoBufferPool parent;

  GstAllocator *allocator;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaPlaneFilterPinnedPool,
    gst_cuda_plane_filter_pinned_pool, GST_TYPE_VIDEO_BUFFER_POOL,
    debug_init ());

static gboolean
gst_cuda_plane_filter_pinned_pool_set_config (GstBufferPool * pool,
    GstStructure * config)
{
  GstCudaPlaneFilterPinnedPool *self = GST_CUDA_PLANE_FILTER_PINNED_POOL (pool);
  GstAllocationParams params;

  /* keep the caller's alignment, prefix and padding, not its allocator */
  if (!gst_buffer_pool_config_get_allocator (config, NULL, &params))
    gst_allocation_params_init (&params);
  gst_buffer_pool_config_set_allocator (config, self->allocator, &params);

  return
      GST_BUFFER_POOL_CLASS (gst_cuda_plane_filter_pinned_pool_parent_class)->
      set_config (pool, config);
}

static void
gst_cuda_plane_filter_pinned_pool_dispose (GObject * object)
{
  GstCudaPlaneFilterPinnedPool *self = GST_CUDA_PLANE_FILTER_PINNED_POOL (object);

  gst_clear_object (&self->allocator);
  G_OBJECT_CLASS (gst_cuda_plane_filter_pinned_pool_parent_class)->dispose
      (object);
}

static void
gst_cuda_plane_filter_pinned_pool_class_init (GstCudaPlaneFilterPinnedPoolClass *
    klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->dispose = gst_cuda_plane_filter_pinned_pool_dispose;
  pool_class->set_config = gst_cuda_plane_filter_pinned_pool_set_config;
}

static void
gst_cuda_plane_filter_pinned_pool_init (GstCudaPlaneFilterPinnedPool * self)
{
}

/* A new unconfigured pinned pool; its blocks belong to @cuda_context
 * (pushed around them) or, NULL, to the primary context. */
GstBufferPool *
gst_cuda_plane_filter_pinned_pool_new (GstObject * cuda_context)
{
  GstCudaPlaneFilterPinnedPool *self;

  self = g_object_new (GST_TYPE_CUDA_PLANE_FILTER_PINNED_POOL, NULL);
  gst_object_ref_sink (self);
  self->allocator = gst_cm_pinned_allocator_new (cuda_context);
  return GST_BUFFER_POOL_CAST (self);
}

/* propose_allocation: a pinned pool for @caps and GstVideoMeta, unless
 * @query has a pool (no allocator alone: pinning per buffer costs more
 * than a pageable copy). */
gboolean
gst_cuda_plane_filter_pinned_pool_propose (GstQuery * query, GstCaps * caps,
    GstObject * cuda_context)
{
  GstVideoInfo info;
  GstBufferPool *pool;
  gboolean ok;

  g_return_val_if_fail (query != NULL, FALSE);

  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (!gst_cuda_plane_filter_pool_propose_wanted (query))
    return TRUE;

  pool = gst_cuda_plane_filter_pinned_pool_new (cuda_context);
  ok = gst_cuda_plane_filter_pool_offer (query, pool, caps,
      GST_VIDEO_INFO_SIZE (&info));
  if (!ok)
    GST_WARNING_OBJECT (pool, "cannot configure for %" GST_PTR_FORMAT, caps);
  gst_object_unref (pool);
  return ok;
}

/* decide_allocation: a pinned pool first (downstream's if pinned), its
 * buffer counts, GstVideoMeta when downstream has it; chain up after. */
gboolean
gst_cuda_plane_filter_pinned_pool_decide (GstQuery * query, GstCaps * caps,
    GstObject * cuda_context)
{
  GstVideoInfo info;
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;
  gboolean update, video_meta;

  g_return_val_if_fail (query != NULL, FALSE);

  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  update = gst_query_get_n_allocation_pools (query) > 0;
  if (update)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (pool && !GST_IS_CUDA_PLANE_FILTER_PINNED_POOL (pool))
    gst_clear_object (&pool);
  if (pool == NULL)
    pool = gst_cuda_plane_filter_pinned_pool_new (cuda_context);

  size = MAX (size, (guint) GST_VIDEO_INFO_SIZE (&info));
  video_meta = gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
      NULL);
  if (!gst_cuda_plane_filter_pool_set_config (pool,
          gst_buffer_pool_get_config (pool), caps, &size, min, max,
          video_meta)) {
    GST_WARNING_OBJECT (pool, "cannot configure for %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return FALSE;
  }

  gst_cuda_plane_filter_pool_put_first (query, pool, size, min, max, update);
  gst_object_unref (pool);
  return TRUE;
}

/* @mem (or the memory it was shared from) came from a pinned pool. */
gboolean
gst_cuda_plane_filter_pinned_memory_is_pinned (GstMemory * mem)
{
  for (; mem != NULL; mem = mem->parent) {
    if (gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
            pinned_quark ()))
      return TRUE;
  }
  return FALSE;
}

/* Every memory of @buffer is pinned: uploads need no staging copy. */
gboolean
gst_cuda_plane_filter_pinned_buffer_is_pinned (GstBuffer * buffer)
{
  guint i, n;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), FALSE);

  n = gst_buffer_n_memory (buffer);
  if (n == 0)
    return FALSE;
  for (i = 0; i < n; i++) {
    if (!gst_cuda_plane_filter_pinned_memory_is_pinned (gst_buffer_peek_memory
            (buffer, i)))
      return FALSE;
  }
  return TRUE;
}

/* Process-wide counts of pinned blocks (live, ever), for tests. */
void
gst_cuda_plane_filter_pinned_get_stats (guint * live, guint * allocated)
{
  if (live)
    *live = (guint) g_atomic_int_get (&pinned_live);
  if (allocated)
    *allocated = (guint) g_atomic_int_get (&pinned_allocated);
}
