/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Element messages posted off the streaming thread, in order
 * (gstcudaplanefilterposter.h). */
#include "gstcudaplanefilterposter.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_plane_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_plane_filter_debug

typedef struct
{
  GstStructure *s;
  GstCudaPlaneFilterFinishFunc finish;
  gpointer data;
  GDestroyNotify free_data;
} PosterJob;

/* the message completed and posted; the last one pending wakes a drain */
static void
poster_post_now (GstCudaPlaneFilterPoster * p, PosterJob * job)
{
  job->finish (job->s, job->data);
  if (job->free_data != NULL)
    job->free_data (job->data);
  gst_element_post_message (p->element,
      gst_message_new_element (GST_OBJECT (p->element), job->s));
  g_free (job);
}

static void
poster_run (gpointer data, gpointer user_data)
{
  GstCudaPlaneFilterPoster *p = user_data;

  poster_post_now (p, data);
  g_mutex_lock (&p->lock);
  if (--p->pending == 0)
    g_cond_broadcast (&p->idle);
  g_mutex_unlock (&p->lock);
}

void
gst_cuda_plane_filter_poster_init (GstCudaPlaneFilterPoster * p,
    GstElement * element)
{
  p->element = element;
  p->pool = NULL;
  p->pending = 0;
  g_mutex_init (&p->lock);
  g_cond_init (&p->idle);
}

void
gst_cuda_plane_filter_poster_clear (GstCudaPlaneFilterPoster * p)
{
  gst_cuda_plane_filter_poster_drain (p);
  if (p->pool != NULL)
    g_thread_pool_free (p->pool, FALSE, TRUE);
  p->pool = NULL;
  g_mutex_clear (&p->lock);
  g_cond_clear (&p->idle);
}

/* Message @s (taken), completed by @finish from @data (freed by
 * @free_data) and posted by the poster's thread after those given before.
 * Without a thread (none could be made) it is posted here, at once. */
void
gst_cuda_plane_filter_poster_post (GstCudaPlaneFilterPoster * p,
    GstStructure * s, GstCudaPlaneFilterFinishFunc finish, gpointer data,
    GDestroyNotify free_data)
{
  PosterJob *job = g_new (PosterJob, 1);
  GError *err = NULL;

  job->s = s;
  job->finish = finish;
  job->data = data;
  job->free_data = free_data;
  if (p->pool == NULL) {
    /* a thread of its own, made here (exclusive): it runs the jobs one at
     * a time, in the order pushed, and a push never has to make one */
    p->pool = g_thread_pool_new (poster_run, p, 1, TRUE, &err);
    if (p->pool == NULL) {
      GST_WARNING_OBJECT (p->element, "no thread for the messages (%s): "
          "posting them from the streaming thread", err->message);
      g_clear_error (&err);
      poster_post_now (p, job);
      return;
    }
  }
  g_mutex_lock (&p->lock);
  p->pending++;
  g_mutex_unlock (&p->lock);
  /* queued whatever it returns; the pool's thread exists already */
  if (!g_thread_pool_push (p->pool, job, &err)) {
    GST_WARNING_OBJECT (p->element, "queueing a message: %s", err->message);
    g_clear_error (&err);
  }
}

/* Returns once every message given is on the bus */
void
gst_cuda_plane_filter_poster_drain (GstCudaPlaneFilterPoster * p)
{
  g_mutex_lock (&p->lock);
  while (p->pending > 0)
    g_cond_wait (&p->idle, &p->lock);
  g_mutex_unlock (&p->lock);
}
