/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The device of a cudamorphology element (gstcudaplanefilterdevice.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaplanefilterdevice.h"
#include "gstcudaplanefiltererrors.h"

#include "gstcudaplanefiltermemory.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_plane_filter_device_debug);
#define GST_CAT_DEFAULT gst_cuda_plane_filter_device_debug

/* The backend and cuda-device-id properties (kept by the base class). */
void
gst_cuda_plane_filter_device_install_properties (GObjectClass * gobject_class,
    guint prop_backend, guint prop_device_id)
{
  /**
   * GstCudaPlaneFilter:backend:
   *
   * Where frames are computed. Read when the element starts.
   */
  g_object_class_install_property (gobject_class, prop_backend,
      g_param_spec_enum ("backend", "Backend",
          "Where frames are computed: auto = CUDA when a device is usable, "
          "otherwise the CPU reference implementation with one warning on "
          "the bus; cuda = CUDA only, the element fails to start without a "
          "usable device; cpu = the CPU reference implementation (slow, "
          "bit-exact twin of the CUDA kernels; cudamorph and cudamedian use "
          "every core, and a flush or a stop ends a running frame). Takes "
          "effect at the next "
          "READY to PAUSED change",
          GST_TYPE_CUDA_MORPHOLOGY_BACKEND,
          GST_CUDA_PLANE_FILTER_DEVICE_DEFAULT_BACKEND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaPlaneFilter:cuda-device-id:
   *
   * The CUDA runtime device index. Read when the element starts.
   */
  g_object_class_install_property (gobject_class, prop_device_id,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA runtime device index to run on (as ordered by the CUDA "
          "runtime, after CUDA_VISIBLE_DEVICES); -1 = the default device "
          "(index 0). Takes effect at the next READY to PAUSED change",
          -1, G_MAXINT16, GST_CUDA_PLANE_FILTER_DEVICE_DEFAULT_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
}

/* Posts @status as an element error "@what: <status text>"; a device
 * that failed is not reused at the next start. Any thread. */
void
gst_cuda_plane_filter_device_post_error (GstCudaPlaneFilterDevice * dev,
    cm_status status, const gchar * what)
{
  if (CM_STATUS_IS_CUDA (status))
    g_atomic_int_set (&dev->failed, TRUE);
  gst_cuda_plane_filter_post_status (dev->element, dev->category, status,
      what);
}

/**
 * gst_cuda_plane_filter_device_init:
 * @element: the owner; its object lock guards the context
 * @category: (nullable): where errors are logged too
 */
void
gst_cuda_plane_filter_device_init (GstCudaPlaneFilterDevice * dev,
    GstElement * element, GstDebugCategory * category)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_plane_filter_device_debug,
        "cudaplanefilterdevice", 0, "CUDA plane filter device and context");
    g_once_init_leave (&once, 1);
  }
  memset (dev, 0, sizeof (*dev));
  dev->element = element;
  dev->category = category;
  dev->device_id = -1;
}

/* The context, a reference taken under the object lock, or NULL. */
static GstCudaContext *
ref_context (GstCudaPlaneFilterDevice * dev)
{
  GstCudaContext *ctx;

  GST_OBJECT_LOCK (dev->element);
  ctx = dev->context ? gst_object_ref (dev->context) : NULL;
  GST_OBJECT_UNLOCK (dev->element);
  return ctx;
}

/* Replaces the context by @ctx (transfer full, nullable). */
static void
replace_context (GstCudaPlaneFilterDevice * dev, GstCudaContext * ctx)
{
  GstCudaContext *old;

  GST_OBJECT_LOCK (dev->element);
  old = dev->context;
  dev->context = ctx;
  GST_OBJECT_UNLOCK (dev->element);
  gst_clear_object (&old);
}

/**
 * gst_cuda_plane_filter_device_drop_context:
 *
 * Lets go of the context (the CPU backend shares nothing).
 */
void
gst_cuda_plane_filter_device_drop_context (GstCudaPlaneFilterDevice * dev)
{
  replace_context (dev, NULL);
}

/* Until end_start, contexts given by the calling thread (answers to
 * open's context query) are taken; others wait for the next stop. */
void
gst_cuda_plane_filter_device_begin_start (GstCudaPlaneFilterDevice * dev)
{
  GST_OBJECT_LOCK (dev->element);
  dev->starting = g_thread_self ();
  dev->backend = CM_BACKEND_CPU;
  dev->stream = NULL;
  dev->gst_stream = NULL;
  GST_OBJECT_UNLOCK (dev->element);
}

void
gst_cuda_plane_filter_device_end_start (GstCudaPlaneFilterDevice * dev)
{
  GST_OBJECT_LOCK (dev->element);
  dev->starting = NULL;
  GST_OBJECT_UNLOCK (dev->element);
}

/* The device made current and the stream created, in the pipeline's
 * GstCudaContext when there is one (shared, or made and announced), so
 * that the stream belongs to the frames' context. *@reason: why not, in
 * words (g_free). */
cm_status
gst_cuda_plane_filter_device_open (GstCudaPlaneFilterDevice * dev,
    gint device_id, gchar ** reason)
{
  GstElement *element = dev->element;
  cm_status status;
  gchar name[256];
  gint n;

  dev->device_id = device_id;
  if (!cm_have_cuda ()) {
    *reason = g_strdup (cm_status_string (CM_ERR_NO_CUDA));
    return CM_ERR_NO_CUDA;
  }

  n = cm_device_count ();
  if (n <= 0) {
    *reason = g_strdup (cm_status_string (CM_ERR_NO_DEVICE));
    return CM_ERR_NO_DEVICE;
  }
  if (device_id >= n) {
    *reason = g_strdup_printf ("cuda-device-id is %d but there %s only %d "
        "CUDA device%s", device_id, n == 1 ? "is" : "are", n,
        n == 1 ? "" : "s");
    return CM_ERR_NO_DEVICE;
  }

  /* kept from the last run: only for the same device */
  if (dev->context != NULL && device_id >= 0 &&
      gst_cuda_plane_filter_memory_context_device_id (dev->context) !=
      device_id)
    replace_context (dev, NULL);
  if (gst_cuda_plane_filter_memory_ensure_context (element, device_id,
          (GstCudaContext **) & dev->context)) {
    gint ctx_device =
        gst_cuda_plane_filter_memory_context_device_id (dev->context);

    if (gst_cuda_plane_filter_memory_push (dev->context)) {
      /* >= 1.24: a GstCudaStream, which the pools give to their frames */
      dev->gst_stream = gst_cuda_plane_filter_memory_stream_new (dev->context);
      if (dev->gst_stream != NULL) {
        dev->stream = (cm_stream)
            gst_cuda_plane_filter_memory_stream_handle (dev->gst_stream);
        status = CM_OK;
      } else {
        status = cm_stream_new (&dev->stream);
      }
      gst_cuda_plane_filter_memory_pop ();
      if (status == CM_OK) {
        dev->device_id = ctx_device;
        dev->backend = CM_BACKEND_CUDA;
        if (cm_device_name (ctx_device, name, sizeof (name)) != CM_OK)
          g_strlcpy (name, "unknown", sizeof (name));
        GST_INFO_OBJECT (element, "CUDA backend on device %d (%s), sharing "
            "GstCudaContext %" GST_PTR_FORMAT, ctx_device, name,
            dev->context);
        return CM_OK;
      }
      dev->stream = NULL;
      GST_WARNING_OBJECT (element, "cannot create a stream in the "
          "GstCudaContext (%s): system memory only",
          cm_status_string (status));
    } else {
      GST_WARNING_OBJECT (element, "cannot push the GstCudaContext: system "
          "memory only");
    }
    replace_context (dev, NULL);
  } else {
    GST_INFO_OBJECT (element, "no GstCudaContext: system memory only");
  }

  status = cm_device_set (device_id);
  if (status != CM_OK) {
    *reason = g_strdup_printf ("cannot use CUDA device %d: %s", device_id,
        cm_status_string (status));
    return status;
  }

  status = cm_stream_new (&dev->stream);
  if (status != CM_OK) {
    dev->stream = NULL;
    *reason = g_strdup_printf ("cannot create a CUDA stream: %s",
        cm_status_string (status));
    return status;
  }

  if (cm_device_name (device_id, name, sizeof (name)) != CM_OK)
    g_strlcpy (name, "unknown", sizeof (name));
  GST_INFO_OBJECT (element, "CUDA backend on device %d (%s)", device_id,
      name);
  dev->backend = CM_BACKEND_CUDA;
  return CM_OK;
}

/* The backend chosen at start: the CPU for backend=cpu; else the device,
 * or the CPU with a warning (auto) or an error (cuda) when it is not
 * usable. FALSE: cannot start (posted). */
gboolean
gst_cuda_plane_filter_device_start (GstCudaPlaneFilterDevice * dev,
    gboolean cpu_backend, gboolean cuda_only, gint device_id)
{
  GstElement *self = dev->element;
  gchar *reason = NULL;
  cm_status status;

  if (cpu_backend) {
    GST_INFO_OBJECT (self, "CPU reference backend (backend=cpu)");
    gst_cuda_plane_filter_device_drop_context (dev);
    return TRUE;
  }

  status = gst_cuda_plane_filter_device_open (dev, device_id, &reason);
  if (status == CM_OK)
    return TRUE;
  gst_cuda_plane_filter_device_drop_context (dev);

  if (cuda_only) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("backend=cuda, but CUDA is not usable: %s", reason),
        ("cuda-device-id=%d: %s", device_id, cm_status_string (status)));
    g_free (reason);
    return FALSE;
  }

  GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
      ("Falling back to the CPU reference backend, which is much slower: "
          "%s", reason),
      ("backend=auto, cuda-device-id=%d: %s", device_id,
          cm_status_string (status)));
  g_free (reason);
  return TRUE;
}

/* Work of frames left in flight ends before what it uses is freed or
 * rebuilt (device entered; nothing on the CPU). */
void
gst_cuda_plane_filter_device_finish_work (GstCudaPlaneFilterDevice * dev)
{
  cm_status status;

  if (dev->backend != CM_BACKEND_CUDA || dev->stream == NULL)
    return;
  status = cm_stream_sync (dev->stream);
  if (status != CM_OK)
    GST_WARNING_OBJECT (dev->element, "work of earlier frames failed: %s",
        cm_status_string (status));
}

/**
 * gst_cuda_plane_filter_device_free_stream:
 *
 * Frees the stream (with the device entered).
 */
void
gst_cuda_plane_filter_device_free_stream (GstCudaPlaneFilterDevice * dev)
{
  if (dev->gst_stream) {
    gst_cuda_plane_filter_memory_stream_unref (dev->gst_stream);
    dev->gst_stream = NULL;
    dev->stream = NULL;
  }
  if (dev->stream) {
    cm_stream_free (dev->stream);
    dev->stream = NULL;
  }
}

/* After stop the context is kept (making one costs about 0.1 s), unless
 * the device failed (a context made out of memory stays unusable). */
void
gst_cuda_plane_filter_device_end_run (GstCudaPlaneFilterDevice * dev)
{
  if (g_atomic_int_get (&dev->failed))
    replace_context (dev, NULL);
  g_atomic_int_set (&dev->failed, FALSE);
  dev->backend = CM_BACKEND_CPU;
}

/* The device current on this thread: the context pushed (never
 * cm_device_set then: it would bring the primary context back), else the
 * runtime's device; leave with device_leave (*@pushed). */
cm_status
gst_cuda_plane_filter_device_enter (GstCudaPlaneFilterDevice * dev,
    gboolean * pushed)
{
  *pushed = FALSE;
  if (dev->backend != CM_BACKEND_CUDA)
    return CM_OK;
  if (dev->context != NULL) {
    if (!gst_cuda_plane_filter_memory_push (dev->context))
      return CM_ERR_NO_DEVICE;
    *pushed = TRUE;
    return CM_OK;
  }
  return cm_device_set (dev->device_id);
}

void
gst_cuda_plane_filter_device_leave (GstCudaPlaneFilterDevice * dev,
    gboolean pushed)
{
  if (pushed)
    gst_cuda_plane_filter_memory_pop ();
}

/* CUDA memory may be negotiated now: started on CUDA with a context, or
 * may be before the start. Object lock held. */
gboolean
gst_cuda_plane_filter_device_can_share (GstCudaPlaneFilterDevice * dev,
    gboolean started, gboolean cpu_backend)
{
  if (started)
    return dev->backend == CM_BACKEND_CUDA && dev->context != NULL;
  return !cpu_backend && gst_cuda_plane_filter_memory_available ();
}

/* A context given while stopped replaces the kept one; while started only
 * the starting thread (answering its own query) may set one. */
void
gst_cuda_plane_filter_device_set_context (GstCudaPlaneFilterDevice * dev,
    GstContext * context, gint device_id, gboolean started)
{
  GstCudaContext *given = NULL;
  gboolean busy;

  GST_OBJECT_LOCK (dev->element);
  busy = started ||
      (dev->starting != NULL && dev->starting != g_thread_self ());
  GST_OBJECT_UNLOCK (dev->element);

  if (busy) {
    GST_DEBUG_OBJECT (dev->element, "started: keeping the context in use, "
        "not %" GST_PTR_FORMAT, context);
  } else if (gst_cuda_plane_filter_memory_set_context (dev->element, context,
          device_id, &given)) {
    GST_DEBUG_OBJECT (dev->element, "taking %" GST_PTR_FORMAT, given);
    replace_context (dev, given);
  }
}

/* A CUDA context query answered with the element's; any thread. */
gboolean
gst_cuda_plane_filter_device_query_context (GstCudaPlaneFilterDevice * dev,
    GstQuery * query)
{
  GstCudaContext *ctx;
  gboolean answered;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;
  ctx = ref_context (dev);
  answered = gst_cuda_plane_filter_memory_query_context (dev->element, query,
      ctx);
  gst_clear_object (&ctx);
  return answered;
}
