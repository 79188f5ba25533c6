/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A value an element refuses (a malformed mask, connectivity 6, a roi of
 * three values) is said on stderr and, for applications, as a WARNING
 * message on the bus. A value set before the element has a bus (by
 * gst_parse_launch, or before gst_bin_add) waits, and is posted when the
 * element goes to READY: set_bus itself runs under the bin's lock, where
 * posting would deadlock. What waits is the text: a message would hold a
 * reference to the element that holds it.
 */
#include "gstcudaplanefiltererrors.h"

#include <stdarg.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_plane_filter_refusal_debug);
#define GST_CAT_DEFAULT gst_cuda_plane_filter_refusal_debug

static GQuark
pending_quark (void)
{
  static gsize quark;

  if (g_once_init_enter (&quark)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_plane_filter_refusal_debug,
        "cudaplanefiltererrors", 0, "CUDA plane filter errors");
    g_once_init_leave (&quark,
        g_quark_from_static_string ("gst-cuda-morphology-refusals"));
  }
  return (GQuark) quark;
}

static void
pending_free (gpointer data)
{
  g_queue_free_full (data, g_free);
}

static void
post_refusal (GstElement * element, const gchar * text)
{
  GError *err = g_error_new_literal (GST_LIBRARY_ERROR,
      GST_LIBRARY_ERROR_SETTINGS, text);

  gst_element_post_message (element, gst_message_new_warning (GST_OBJECT
          (element), err, "refused when set: the previous value is in use"));
  g_error_free (err);
}

/* A refused value: g_warning, and a WARNING (LIBRARY SETTINGS) on the bus
 * now or, without a bus yet, when @element goes to READY. */
void
gst_cuda_plane_filter_refuse (GstElement * element, const gchar * format, ...)
{
  GQuark quark = pending_quark ();
  GstBus *bus;
  va_list args;
  gchar *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  g_warning ("%s: %s", GST_OBJECT_NAME (element), text);
  GST_WARNING_OBJECT (element, "%s", text);

  bus = gst_element_get_bus (element);
  if (bus != NULL) {
    gst_object_unref (bus);
    gst_cuda_plane_filter_refusal_flush (element);
    post_refusal (element, text);
    g_free (text);
    return;
  }
  GST_OBJECT_LOCK (element);
  {
    GQueue *pending = g_object_get_qdata (G_OBJECT (element), quark);

    if (pending == NULL) {
      pending = g_queue_new ();
      g_object_set_qdata_full (G_OBJECT (element), quark, pending,
          pending_free);
    }
    g_queue_push_tail (pending, text);
  }
  GST_OBJECT_UNLOCK (element);
}

/* The refusals that waited for a bus posted in order; call where posting
 * is safe (not under a lock the bus's handlers take). */
void
gst_cuda_plane_filter_refuse_output (GstElement * element, GType output_type,
    gint asked, gint kept, GstCaps * outcaps)
{
  GEnumClass *klass = g_type_class_ref (output_type);

  GST_ELEMENT_WARNING (element, CORE, NEGOTIATION,
      ("Downstream refuses the frames of output=%s; keeping output=%s",
          g_enum_get_value (klass, asked)->value_nick,
          g_enum_get_value (klass, kept)->value_nick),
      ("negotiated %" GST_PTR_FORMAT, outcaps));
  g_type_class_unref (klass);
  g_object_notify (G_OBJECT (element), "output");
}

void
gst_cuda_plane_filter_refusal_flush (GstElement * element)
{
  GQuark quark = pending_quark ();
  GQueue *pending;
  gchar *text;
  GstBus *bus = gst_element_get_bus (element);

  if (bus == NULL)
    return;
  gst_object_unref (bus);
  GST_OBJECT_LOCK (element);
  pending = g_object_steal_qdata (G_OBJECT (element), quark);
  GST_OBJECT_UNLOCK (element);
  if (pending == NULL)
    return;
  while ((text = g_queue_pop_head (pending)) != NULL) {
    post_refusal (element, text);
    g_free (text);
  }
  g_queue_free (pending);
}

/* ---- errors ------------------------------------------------------------- */

/* Posts a GST_ELEMENT_ERROR "@what: <status text>" whose domain and code
 * say what kind of failure @status is, logged in @category too. */
void
gst_cuda_plane_filter_post_status (GstElement * element,
    GstDebugCategory * category, cm_status status, const gchar * what)
{
  const gchar *text = cm_status_string (status);

  if (category)
    GST_CAT_ERROR_OBJECT (category, element, "%s: %s", what, text);
  GST_ERROR_OBJECT (element, "%s: %s", what, text);

  switch (status) {
    case CM_ERR_INVALID_ARG:
    case CM_ERR_PARSE:
      GST_ELEMENT_ERROR (element, CORE, FAILED, ("%s: %s", what, text),
          ("the core said: %s", text));
      break;
    case CM_ERR_UNSUPPORTED:
      GST_ELEMENT_ERROR (element, CORE, NOT_IMPLEMENTED, ("%s: %s", what,
              text), ("the core said: %s", text));
      break;
    case CM_ERR_NO_MEMORY:
      GST_ELEMENT_ERROR (element, RESOURCE, NO_SPACE_LEFT, ("%s: %s", what,
              text), ("the core said: %s", text));
      break;
    case CM_ERR_NO_CUDA:
    case CM_ERR_NO_DEVICE:
      GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND, ("%s: %s", what,
              text), ("the core said: %s", text));
      break;
    default:
      GST_ELEMENT_ERROR (element, RESOURCE, FAILED, ("%s: %s", what, text),
          ("CUDA error %d: %s", CM_STATUS_IS_CUDA (status) ?
              (gint) status - CM_ERR_CUDA_BASE : 0, text));
      break;
  }
}
