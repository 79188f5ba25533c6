/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The overlap ring of the cudamorphology elements
 * (gstcudamorphologyoverlap.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudamorphologyoverlap.h"

void
gst_cuda_morphology_ring_init (GstCudaMorphologyRing * ring,
    GstCudaMorphologyDevice * dev)
{
  memset (ring, 0, sizeof (*ring));
  ring->dev = dev;
}

/**
 * gst_cuda_morphology_ring_events_new:
 *
 * Creates the two events of frames left on the device (with the device
 * entered, when the element starts on CUDA).
 *
 * Returns: %FALSE without them: then frames never overlap
 */
gboolean
gst_cuda_morphology_ring_events_new (GstCudaMorphologyRing * ring)
{
  if (cm_event_new (&ring->events[0]) != CM_OK ||
      cm_event_new (&ring->events[1]) != CM_OK) {
    gst_cuda_morphology_ring_events_free (ring);
    return FALSE;
  }
  return TRUE;
}

void
gst_cuda_morphology_ring_events_free (GstCudaMorphologyRing * ring)
{
  g_clear_pointer (&ring->events[0], cm_event_free);
  g_clear_pointer (&ring->events[1], cm_event_free);
}

/**
 * gst_cuda_morphology_ring_can_overlap:
 *
 * Returns: whether frames may be left on the device at all (the events
 * exist)
 */
gboolean
gst_cuda_morphology_ring_can_overlap (GstCudaMorphologyRing * ring)
{
  return ring->events[0] != NULL && ring->events[1] != NULL;
}

/**
 * gst_cuda_morphology_ring_frame_begin:
 *
 * Before a buffer is transformed: nothing of it is in flight yet.
 */
void
gst_cuda_morphology_ring_frame_begin (GstCudaMorphologyRing * ring)
{
  ring->deferred = FALSE;
}

/**
 * gst_cuda_morphology_ring_defer_event:
 *
 * Returns: the event to record after the work of the frame being
 * transformed, when it is to be left on the device
 */
cm_event
gst_cuda_morphology_ring_defer_event (GstCudaMorphologyRing * ring)
{
  ring->deferred_event = ring->events[ring->next_event];
  ring->next_event ^= 1;
  return ring->deferred_event;
}

/**
 * gst_cuda_morphology_ring_deferred:
 * @inbuf: the input buffer of the frame
 *
 * The frame's work was queued and its event recorded: its input is kept
 * until the device has read it.
 */
void
gst_cuda_morphology_ring_deferred (GstCudaMorphologyRing * ring,
    GstBuffer * inbuf)
{
  ring->deferred = TRUE;
  ring->deferred_in = gst_buffer_ref (inbuf);
}

/**
 * gst_cuda_morphology_ring_frame_abort:
 *
 * The frame gave no output (GstBaseTransform drops it on an error): let
 * go of its input.
 */
void
gst_cuda_morphology_ring_frame_abort (GstCudaMorphologyRing * ring)
{
  if (ring->deferred)
    gst_clear_buffer (&ring->deferred_in);
  ring->deferred = FALSE;
}

/**
 * gst_cuda_morphology_ring_take:
 * @outbuf: (transfer full): the output of the frame just transformed
 *
 * Returns: %TRUE when the ring took @outbuf (its frame is on the device,
 * or older frames wait to be pushed first); %FALSE when @outbuf leaves
 * right away (the ring is empty and the frame is done: no overlap) and
 * stays the caller's
 */
gboolean
gst_cuda_morphology_ring_take (GstCudaMorphologyRing * ring,
    GstBuffer * outbuf)
{
  GstCudaMorphologyPending *pf;

  if (ring->len == 0 && !ring->deferred)
    return FALSE;
  g_assert (ring->len < GST_CUDA_MORPHOLOGY_RING_SIZE);
  pf = &ring->pending[(ring->head + ring->len) %
      GST_CUDA_MORPHOLOGY_RING_SIZE];
  pf->outbuf = outbuf;
  pf->inbuf = ring->deferred ? ring->deferred_in : NULL;
  pf->event = ring->deferred ? ring->deferred_event : NULL;
  ring->deferred_in = NULL;
  ring->len++;
  return TRUE;
}

/**
 * gst_cuda_morphology_ring_has_ready:
 *
 * Returns: whether the oldest frame is to leave now: it is done, or a
 * newer one waits behind it (at most one frame stays on the device)
 */
gboolean
gst_cuda_morphology_ring_has_ready (GstCudaMorphologyRing * ring)
{
  return ring->len > 1 || (ring->len == 1 &&
      ring->pending[ring->head].event == NULL);
}

/* Waits until the device has finished @pf (when it was left in flight)
 * and lets go of its input. */
static cm_status
complete (GstCudaMorphologyRing * ring, GstCudaMorphologyPending * pf)
{
  cm_status status = CM_OK;
  gboolean pushed;

  if (pf->event != NULL) {
    status = gst_cuda_morphology_device_enter (ring->dev, &pushed);
    if (status == CM_OK) {
      status = cm_event_sync (pf->event);
      gst_cuda_morphology_device_leave (ring->dev, pushed);
    }
    pf->event = NULL;
  }
  gst_clear_buffer (&pf->inbuf);
  return status;
}

/**
 * gst_cuda_morphology_ring_pop:
 * @outbuf: (out) (transfer full): the oldest frame's output, %NULL when
 *     the device failed on it
 *
 * Takes the oldest frame out of the ring (there is one), after its work
 * is done.
 *
 * Returns: the device's status for the frame
 */
cm_status
gst_cuda_morphology_ring_pop (GstCudaMorphologyRing * ring,
    GstBuffer ** outbuf)
{
  GstCudaMorphologyPending *pf = &ring->pending[ring->head];
  cm_status status;

  g_assert (ring->len > 0);
  status = complete (ring, pf);
  *outbuf = pf->outbuf;
  pf->outbuf = NULL;
  ring->head = (ring->head + 1) % GST_CUDA_MORPHOLOGY_RING_SIZE;
  ring->len--;
  if (status != CM_OK)
    gst_clear_buffer (outbuf);
  return status;
}

/**
 * gst_cuda_morphology_ring_drop:
 *
 * Flush, stop: the frames in flight are waited for and dropped.
 */
void
gst_cuda_morphology_ring_drop (GstCudaMorphologyRing * ring)
{
  while (ring->len > 0) {
    GstCudaMorphologyPending *pf = &ring->pending[ring->head];

    complete (ring, pf);
    gst_clear_buffer (&pf->outbuf);
    ring->head = (ring->head + 1) % GST_CUDA_MORPHOLOGY_RING_SIZE;
    ring->len--;
  }
  ring->head = 0;
}
