/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The overlap ring of the cudamorphology elements (property overlap):
 * frames given to the device and not pushed yet, in output order. A frame
 * whose work was left in flight ends with one of two events (created once,
 * never per frame) and keeps a reference to its input buffer until the
 * device has read it. At most one frame stays on the device between two
 * input buffers; the element pushes the others. The ring knows nothing of
 * pads: the element pops the frames and pushes them. */
#pragma once

#include <gst/gst.h>

#include "gstcudamorphologydevice.h"

G_BEGIN_DECLS

/* frames in flight: the one being received and the one the device still
 * works on (+ one slot so that the ring is never full) */
#define GST_CUDA_MORPHOLOGY_RING_SIZE 3

typedef struct
{
  GstBuffer *outbuf;
  GstBuffer *inbuf;             /* kept until the device has read it */
  cm_event event;               /* recorded after its work; NULL: done */
} GstCudaMorphologyPending;

typedef struct
{
  GstCudaMorphologyDevice *dev; /* entered to wait for the events */
  gboolean active;              /* overlap chosen for the caps */
  cm_event events[2];
  guint next_event;
  GstCudaMorphologyPending pending[GST_CUDA_MORPHOLOGY_RING_SIZE];
  guint head, len;
  /* the frame of the buffer being transformed, left in flight */
  gboolean deferred;
  GstBuffer *deferred_in;
  cm_event deferred_event;
} GstCudaMorphologyRing;

void gst_cuda_morphology_ring_init (GstCudaMorphologyRing * ring,
    GstCudaMorphologyDevice * dev);
gboolean gst_cuda_morphology_ring_events_new (GstCudaMorphologyRing * ring);
void gst_cuda_morphology_ring_events_free (GstCudaMorphologyRing * ring);
gboolean gst_cuda_morphology_ring_can_overlap (GstCudaMorphologyRing * ring);

void gst_cuda_morphology_ring_frame_begin (GstCudaMorphologyRing * ring);
cm_event gst_cuda_morphology_ring_defer_event (GstCudaMorphologyRing * ring);
void gst_cuda_morphology_ring_deferred (GstCudaMorphologyRing * ring,
    GstBuffer * inbuf);
void gst_cuda_morphology_ring_frame_abort (GstCudaMorphologyRing * ring);
gboolean gst_cuda_morphology_ring_take (GstCudaMorphologyRing * ring,
    GstBuffer * outbuf);

gboolean gst_cuda_morphology_ring_has_ready (GstCudaMorphologyRing * ring);
cm_status gst_cuda_morphology_ring_pop (GstCudaMorphologyRing * ring,
    GstBuffer ** outbuf);
void gst_cuda_morphology_ring_drop (GstCudaMorphologyRing * ring);

G_END_DECLS
