/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frames in flight, shared by the elements: with frames-in-flight = N, up to
 * N frames are on the device at once, so that the upload of one overlaps
 * the kernels and download of the ones before. Every frame's upload goes on
 * one stream and every download on another, in frame order, and each
 * frame's kernels on its slot's stream, events passing the frame from one
 * to the next. With all of a frame's copies on a stream of its own, an
 * upload could wait behind other frames' downloads queued on the same copy
 * engine; throughput measured the same either way (docs/performance.md).
 * An element may also pass a frame through in slices of rows (GstHipSlices),
 * so that even one frame in flight keeps both copy engines busy: slice k
 * is downloaded while slice k + 1 is blurred and later ones uploaded.
 *
 * Frames leave in order, as soon as the device is done with them, and at
 * the latest once N - 1 newer frames have entered. While frames come, the
 * streaming thread pushes them: each new frame finds the older ones done
 * or not. Between frames, a thread of the element's own, the waiter,
 * sleeps until the oldest frame is done and pushes it under the sink
 * pad's stream lock, unless the streaming thread came by meanwhile. So
 * behind a source slower than the device (a live one), or one that
 * stalls, a frame leaves once done, not when the next one comes. The
 * waiter never blocks on the stream lock, whose holder may be stopping
 * the element and joining it; stopped from its own thread, it is not
 * joined but finishes on its own. The
 * waiter leaves the frame after one dropped as late to the streaming
 * thread, whose GstBaseTransform owes it the DISCONT flag, and a push of
 * its own that fails is returned upstream by the next chain. The frames
 * pushed here rather than by GstBaseTransform's chain are added to the
 * processed count of its QoS messages, and position queries downstream
 * of the element are answered here, from every buffer out.
 * Tags wait behind the
 * frames in flight and leave right after the frame before them, so that
 * the overlap goes on; other serialized events (EOS, segment, caps, custom
 * ...) first push every frame in flight (those after a push that fails are
 * dropped), so does a DRAIN query, a flush drops them (the tags behind
 * them still go out, with the next event or frame), and the latency query
 * adds N - 1 frames, the most a frame may wait; sinks that sync still
 * render each frame that late.
 *
 * A gap in the stream (a DISCONT input, a frame dropped as late) lets the
 * frames before it leave at once, pushed here: GstBaseTransform's chain
 * marks DISCONT on the next buffer it pushes, which then is the first frame
 * after the gap, as with no frames in flight; that frame carries the flag
 * itself too, should an event push it out first.
 *
 * The element overrides submit_input_buffer: it lets GstBaseTransform's
 * renegotiate and drop late frames (QoS) through gst_hip_in_flight_accept(),
 * then maps each frame into the slot gst_hip_in_flight_next() names, in its
 * own per-slot state, and calls gst_hip_in_flight_submit(), or hands a
 * buffer it passes through to gst_hip_in_flight_pass(). Its generate_output,
 * sink_event and query call the functions here, and its callbacks enqueue a
 * frame's work and let go of the frame.
 *
 * When a frame fails to start, the frames before it were enqueued whole:
 * they still leave, after the element error, then the error is returned
 * upstream. When waiting for a frame fails, it and every newer frame are
 * dropped.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthipinflight.h"

GST_DEBUG_CATEGORY_STATIC (gst_hip_in_flight_debug);
#define GST_CAT_DEFAULT gst_hip_in_flight_debug

void
gst_hip_in_flight_init (GstHipInFlight * f, GstBaseTransform * trans,
    const GstHipInFlightFuncs * funcs)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_hip_in_flight_debug, "hipinflight", 0,
        "HIP frames in flight");
    g_once_init_leave (&done, 1);
  }
  f->frames_in_flight = GST_HIP_IN_FLIGHT_DEFAULT;
  g_queue_init (&f->due);
  f->duration = f->reported = f->position = GST_CLOCK_TIME_NONE;
  f->holds = TRUE;
  f->trans = trans;
  f->funcs = funcs;
}

void
gst_hip_in_flight_install_property (GObjectClass * klass, guint prop_id)
{
  g_object_class_install_property (klass, prop_id,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Most frames processed at once, their transfers and kernels "
          "overlapping; a frame leaves as soon as the device is done with "
          "it, at the latest once frames-in-flight - 1 newer frames entered, "
          "and the latency reported is that most",
          1, GST_HIP_IN_FLIGHT_MAX, GST_HIP_IN_FLIGHT_DEFAULT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
}

GstFlowReturn
gst_hip_in_flight_prepare_output (GstHipInFlight * f, GstBuffer * input,
    GstBuffer ** outbuf)
{
  GstFlowReturn ret;

  *outbuf = NULL;
  ret = GST_BASE_TRANSFORM_GET_CLASS (f->trans)->prepare_output_buffer
      (f->trans, input, outbuf);
  if (ret == GST_FLOW_OK && *outbuf)
    return GST_FLOW_OK;
  gst_buffer_unref (input);
  return ret != GST_FLOW_OK ? ret : GST_FLOW_ERROR;
}

guint
gst_hip_in_flight_next (GstHipInFlight * f)
{
  g_assert (f->pending < f->n_slots);
  return (f->first + f->pending) % f->n_slots;
}

gboolean
gst_hip_in_flight_map_input (GstHipInFlight * f, GstVideoFrame * frame,
    const GstVideoInfo * info, const GstHipVideoLayout * layout,
    GstBuffer * buf)
{
  if (!gst_video_frame_map (frame, info, buf, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (f->trans, STREAM, FORMAT, (NULL),
        ("input buffer of %" G_GSIZE_FORMAT " bytes does not hold a frame "
            "of the negotiated caps", gst_buffer_get_size (buf)));
    return FALSE;
  }
  if (!gst_hip_video_frame_fits (layout, frame)) {
    gst_video_frame_unmap (frame);
    GST_ELEMENT_ERROR (f->trans, STREAM, FORMAT, (NULL),
        ("input buffer of %" G_GSIZE_FORMAT " bytes is smaller than its "
            "strides and caps say", gst_buffer_get_size (buf)));
    return FALSE;
  }
  return TRUE;
}

/* Ends the frame of slot @index, whose work is done: the element lets go
 * of it, and its output buffer is handed back. */
static GstBuffer *
slot_release (GstHipInFlight * f, guint index)
{
  GstBuffer *out = f->slots[index].outbuf;

  f->funcs->release (f->trans, index);
  f->slots[index].outbuf = NULL;
  f->slots[index].discont = FALSE;
  return out;
}

/* Queues @events (taken) to be pushed with the next event or frame. Where
 * their frame will not leave, @sticky_only keeps the sticky ones (tags),
 * as a sticky event outlives a flush, and drops the others. */
static void
queue_due (GstHipInFlight * f, GList * events, gboolean sticky_only)
{
  GList *l;

  for (l = events; l; l = l->next) {
    if (!sticky_only || GST_EVENT_IS_STICKY (l->data))
      g_queue_push_tail (&f->due, l->data);
    else
      gst_event_unref (l->data);
  }
  g_list_free (events);
}

/* Pushes the events whose frames have left, in order. */
static void
push_due (GstHipInFlight * f)
{
  GstEvent *event;

  while ((event = g_queue_pop_head (&f->due)))
    gst_pad_push_event (f->trans->srcpad, event);
}

/* Drops the frame of slot @index once no work of it is left on the
 * device. */
static void
slot_drop (GstHipInFlight * f, guint index)
{
  GstBuffer *out;

  /* The streams rather than the event: a frame that failed to start never
   * recorded it, and copies it enqueued may still read its buffers. */
  hipStreamSynchronize (f->upload);
  hipStreamSynchronize (f->slots[index].stream);
  hipStreamSynchronize (f->download);
  out = slot_release (f, index);
  if (out)
    gst_buffer_unref (out);
  queue_due (f, f->slots[index].events, TRUE);
  f->slots[index].events = NULL;
}

/* Drops every frame in flight. */
static void
discard (GstHipInFlight * f)
{
  /* Frames lost (a push or a wait failed): the next one follows a gap. A
   * flush clears it again. */
  if (f->pending)
    f->gap = TRUE;
  while (f->pending) {
    slot_drop (f, f->first);
    f->first = (f->first + 1) % f->n_slots;
    f->pending--;
  }
  f->draining = FALSE;
}

/* The waiter's own state, apart from the element's: a waiter stopped from
 * its own thread (an application's handler of a frame it pushed stopping
 * the element) cannot be joined there; it finishes on its own once back,
 * and frees this. The streaming thread's visits, the event to wait on and
 * the stop are under @lock. */
typedef struct _GstHipWaiter
{
  GstHipInFlight *f;
  GThread *thread;
  GMutex lock;
  GCond cond;
  gboolean stop;
  GstObject *detached;          /* the element, kept while it finishes */
  guint64 visits;
  hipEvent_t watch;
} GstHipWaiter;

static gboolean waiter_start (GstHipInFlight * f);
static void waiter_end (GstHipInFlight * f);

gboolean
gst_hip_in_flight_start (GstHipInFlight * f, GstHipDevice * dev)
{
  guint i;

  GST_OBJECT_LOCK (f->trans);
  f->n_slots = f->frames_in_flight;
  f->duration = f->reported = f->position = GST_CLOCK_TIME_NONE;
  GST_OBJECT_UNLOCK (f->trans);
  f->device = dev;
  f->first = f->pending = 0;
  f->draining = f->gap = f->chain_discont = FALSE;
  f->waiter_ret = GST_FLOW_OK;
  f->pushed = 0;
  if (!gst_hip_device_stream_new (dev, &f->upload)
      || !gst_hip_device_stream_new (dev, &f->download)) {
    gst_hip_in_flight_stop (f);
    return FALSE;
  }
  for (i = 0; i < f->n_slots; i++) {
    GstHipSlot *slot = &f->slots[i];
    gboolean ok = gst_hip_device_stream_new (dev, &slot->stream)
        && gst_hip_device_event_new_sleeping (dev, &slot->left);
    guint k;

    for (k = 0; ok && k < GST_HIP_IN_FLIGHT_MAX_SLICES; k++)
      ok = gst_hip_device_event_new (dev, &slot->uploaded[k])
          && gst_hip_device_event_new (dev, &slot->computed[k])
          && gst_hip_device_event_new (dev, &slot->downloaded[k]);
    if (!ok) {
      gst_hip_in_flight_stop (f);
      return FALSE;
    }
  }
  /* One slot holds no frame back; GST_HIP_BUSY holds them all. */
  if (f->n_slots > 1 && !dev->faults.busy && !waiter_start (f)) {
    gst_hip_in_flight_stop (f);
    return FALSE;
  }
  return TRUE;
}

void
gst_hip_in_flight_stop (GstHipInFlight * f)
{
  guint i;
  gint prev;

  if (f->device == NULL || !f->device->opened)
    return;
  g_atomic_int_inc (&f->stops);
  waiter_end (f);
  /* On the application's thread, with its device current. */
  prev = gst_hip_device_enter (f->device);
  discard (f);
  g_queue_clear_full (&f->due, (GDestroyNotify) gst_event_unref);
  for (i = 0; i < f->n_slots; i++) {
    GstHipSlot *slot = &f->slots[i];
    guint k;

    for (k = 0; k < GST_HIP_IN_FLIGHT_MAX_SLICES; k++) {
      gst_hip_device_event_free (f->device, slot->uploaded[k]);
      gst_hip_device_event_free (f->device, slot->computed[k]);
      gst_hip_device_event_free (f->device, slot->downloaded[k]);
      slot->uploaded[k] = slot->computed[k] = slot->downloaded[k] = NULL;
    }
    gst_hip_device_event_free (f->device, slot->left);
    slot->left = NULL;
    gst_hip_device_stream_free (f->device, slot->stream);
    slot->stream = NULL;
  }
  gst_hip_device_stream_free (f->device, f->upload);
  gst_hip_device_stream_free (f->device, f->download);
  f->upload = f->download = NULL;
  GST_OBJECT_LOCK (f->trans);
  f->n_slots = 0;
  f->reported = GST_CLOCK_TIME_NONE;
  GST_OBJECT_UNLOCK (f->trans);
  gst_hip_device_leave (prev);
}

/* Recorded once the oldest frame's last download is done. */
static hipEvent_t
oldest_done_event (GstHipInFlight * f)
{
  GstHipSlot *slot = &f->slots[f->first];

  return slot->downloaded[slot->n_slices - 1];
}

/* Notes where @buf, on its way out, ends. */
static void
note_position (GstHipInFlight * f, GstBuffer * buf)
{
  GstClockTime end = GST_BUFFER_PTS (buf);

  if (!GST_CLOCK_TIME_IS_VALID (end))
    return;
  if (GST_BUFFER_DURATION_IS_VALID (buf))
    end += GST_BUFFER_DURATION (buf);
  GST_OBJECT_LOCK (f->trans);
  f->position = end;
  GST_OBJECT_UNLOCK (f->trans);
}

/* Hands the oldest frame's output buffer back, once the device is done
 * with it. */
static void
take_oldest (GstHipInFlight * f, GstBuffer ** outbuf)
{
  guint index = f->first;
  GstHipSlot *slot = &f->slots[index];
  gboolean discont = slot->discont;

  *outbuf = slot_release (f, index);
  /* Pushed after the frame: by push_pending, or by generate_output once
   * GstBaseTransform's chain pushed it. */
  queue_due (f, slot->events, FALSE);
  slot->events = NULL;
  if (*outbuf && discont && !GST_BUFFER_IS_DISCONT (*outbuf)) {
    *outbuf = gst_buffer_make_writable (*outbuf);
    GST_BUFFER_FLAG_SET (*outbuf, GST_BUFFER_FLAG_DISCONT);
  }
  /* The frame is out of flight before finish posts its report: a
   * handler of the application's may stop the element from there. */
  f->first = (index + 1) % f->n_slots;
  f->pending--;
  if (*outbuf)
    note_position (f, *outbuf);
  if (f->funcs->finish && *outbuf)
    f->funcs->finish (f->trans, index, *outbuf);
}

/* Whether the element was stopped since @stops were counted: from a
 * handler of what the caller sent out meanwhile (a report, a frame, an
 * event), on whichever thread. */
static gboolean
stopped_since (GstHipInFlight * f, gint stops)
{
  return g_atomic_int_get (&f->stops) != stops;
}

/* Waits for the oldest frame and hands its output buffer back. */
static GstFlowReturn
finish_oldest (GstHipInFlight * f, GstBuffer ** outbuf)
{
  gint stops = g_atomic_int_get (&f->stops);

  if (!gst_hip_device_event_wait (f->device, oldest_done_event (f))) {
    discard (f);
    return GST_FLOW_ERROR;
  }
  take_oldest (f, outbuf);
  /* Stopped from a handler of its report (and maybe started again by
   * then, from another thread): the frame goes no further. */
  if (stopped_since (f, stops)) {
    gst_clear_buffer (outbuf);
    return GST_FLOW_FLUSHING;
  }
  return GST_FLOW_OK;
}

/* Pushes the oldest frame, once done, and the tags behind it. */
static GstFlowReturn
push_oldest (GstHipInFlight * f)
{
  GstBuffer *out = NULL;
  gint stops = g_atomic_int_get (&f->stops);
  GstFlowReturn ret = finish_oldest (f, &out);

  if (ret == GST_FLOW_OK && out) {
    f->pushed++;
    ret = gst_pad_push (f->trans->srcpad, out);
  }
  /* Stopped from downstream (a pad probe, a handler) during the push of
   * the frame or of its tags, which may still have gone through: the
   * caller goes no further. */
  if (ret == GST_FLOW_OK && !stopped_since (f, stops))
    push_due (f);
  return stopped_since (f, stops) ? GST_FLOW_FLUSHING : ret;
}

/* Pushes every frame in flight, oldest first, until one push fails; the
 * frames after it are dropped, so that none is left on the device when the
 * caller goes on (new caps reallocate the slots' memory). */
static GstFlowReturn
push_pending (GstHipInFlight * f)
{
  GstFlowReturn ret = GST_FLOW_OK;

  /* Those of a frame the chain failed to push come before the next. */
  push_due (f);
  while (f->pending && ret == GST_FLOW_OK)
    ret = push_oldest (f);
  discard (f);
  return ret;
}

/* The streaming thread is done with the frames for now: the waiter
 * watches the oldest one left in flight. */
static void
visit (GstHipInFlight * f)
{
  GstHipWaiter *w = f->waiter;

  /* Pulled from downstream, frames leave only as asked for. */
  if (w == NULL || GST_PAD_MODE (f->trans->srcpad) != GST_PAD_MODE_PUSH)
    return;
  g_mutex_lock (&w->lock);
  w->visits++;
  w->watch = f->pending ? f->slots[f->first].left : NULL;
  g_cond_signal (&w->cond);
  g_mutex_unlock (&w->lock);
}

/* The waiter's, under the stream lock: pushes the oldest frames the device
 * is done with, and watches the next. Where the chain owes its next buffer
 * the DISCONT flag, after a push that failed, or one by the chain (a
 * buffer passed through left behind), the streaming thread goes on. */
static void
push_done (GstHipWaiter * w)
{
  GstHipInFlight *f = w->f;
  GstFlowReturn ret = GST_FLOW_OK;
  gboolean pushed = FALSE;

  if (f->chain_discont || f->waiter_ret != GST_FLOW_OK
      || f->trans->queued_buf)
    return;
  push_due (f);
  /* push_oldest waits all the same, so that GST_HIP_FAIL counts a wait a
   * frame whichever thread pushes it. */
  while (ret == GST_FLOW_OK && f->pending
      && gst_hip_device_event_done (f->device, oldest_done_event (f))) {
    ret = push_oldest (f);
    pushed = TRUE;
  }
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (f->trans, "pushing a frame done: %s",
        gst_flow_get_name (ret));
    /* Upstream learns of a flush, whichever way it went, on its own. */
    if (ret != GST_FLOW_FLUSHING)
      f->waiter_ret = ret;
  } else if (pushed && f->pending) {
    g_mutex_lock (&w->lock);
    w->watch = f->slots[f->first].left;
    g_mutex_unlock (&w->lock);
  }
}

/* How long the waiter, finding the stream lock held, first waits for the
 * holder's visit before it tries again; it waits twice as long each time
 * up to the most, so that a streaming thread blocked downstream (a sink
 * prerolling) does not keep it busy. */
#define WAITER_RETRY_FIRST_US 1000
#define WAITER_RETRY_MOST_US (64 * WAITER_RETRY_FIRST_US)

/* The waiter: sleeps until the frame watched is done, then pushes what is
 * done, unless the streaming thread came by meanwhile. */
static gpointer
waiter_loop (gpointer data)
{
  GstHipWaiter *w = data;
  GstHipInFlight *f = w->f;
  GstPad *sinkpad = f->trans->sinkpad;
  gint prev = gst_hip_device_enter (f->device);
  gint64 retry = WAITER_RETRY_FIRST_US;
  GstObject *detached;

  g_mutex_lock (&w->lock);
  while (!w->stop) {
    hipEvent_t watch = w->watch;
    guint64 visits = w->visits;

    if (watch == NULL) {
      g_cond_wait (&w->cond, &w->lock);
      continue;
    }
    w->watch = NULL;
    g_mutex_unlock (&w->lock);
    gst_hip_device_event_sleep (watch);
    g_mutex_lock (&w->lock);
    /* Where the streaming thread came by meanwhile, it took the frames it
     * found done and set the watch again. */
    if (w->visits != visits || w->stop)
      continue;
    g_mutex_unlock (&w->lock);
    /* Never blocked on the stream lock: its holder may be stopping the
     * element from a handler of a frame it pushed, and joining this
     * thread. The holder is mostly the streaming thread, whose visit
     * wakes the waiter; else it tries again after a while. */
    if (GST_PAD_STREAM_TRYLOCK (sinkpad)) {
      push_done (w);
      GST_PAD_STREAM_UNLOCK (sinkpad);
      retry = WAITER_RETRY_FIRST_US;
      g_mutex_lock (&w->lock);
      continue;
    }
    g_mutex_lock (&w->lock);
    if (w->visits == visits && !w->stop) {
      w->watch = watch;
      g_cond_wait_until (&w->cond, &w->lock, g_get_monotonic_time () + retry);
      retry = w->visits == visits ? MIN (2 * retry, WAITER_RETRY_MOST_US) :
          WAITER_RETRY_FIRST_US;
    }
  }
  detached = w->detached;
  g_mutex_unlock (&w->lock);
  gst_hip_device_leave (prev);
  if (detached) {
    g_mutex_clear (&w->lock);
    g_cond_clear (&w->cond);
    g_free (w);
    gst_object_unref (detached);
  }
  return NULL;
}

static gboolean
waiter_start (GstHipInFlight * f)
{
  GstHipWaiter *w = g_new0 (GstHipWaiter, 1);
  GError *err = NULL;

  w->f = f;
  g_mutex_init (&w->lock);
  g_cond_init (&w->cond);
  f->waiter_ret = GST_FLOW_OK;
  w->thread = g_thread_try_new ("hipinflight", waiter_loop, w, &err);
  if (w->thread) {
    f->waiter = w;
    return TRUE;
  }
  GST_ELEMENT_ERROR (f->trans, RESOURCE, FAILED,
      ("Could not start the thread that pushes frames in flight"),
      ("%s", err->message));
  g_error_free (err);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->cond);
  g_free (w);
  return FALSE;
}

/* Called once streaming has stopped: a push the waiter makes fails. */
static void
waiter_end (GstHipInFlight * f)
{
  GstHipWaiter *w = f->waiter;

  if (w == NULL)
    return;
  f->waiter = NULL;
  g_mutex_lock (&w->lock);
  w->stop = TRUE;
  g_cond_signal (&w->cond);
  if (g_thread_self () == w->thread) {
    /* Stopped from a handler on the waiter's own thread: it has no frame
     * left to watch, and finishes once back from the handler. */
    GST_DEBUG_OBJECT (f->trans, "stopped from the waiter's thread");
    w->detached = gst_object_ref (f->trans);
    g_mutex_unlock (&w->lock);
    g_thread_unref (w->thread);
    return;
  }
  g_mutex_unlock (&w->lock);
  g_thread_join (w->thread);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->cond);
  g_free (w);
}

/* Slice @k's kernels and download, once the uploads it needs are
 * enqueued. Each hand-over between streams has an event of its own: HIP
 * leaves recording an event whose last record is still pending
 * undefined. */
static gboolean
enqueue_slice (GstHipInFlight * f, guint index, const GstHipSlices * s,
    guint k)
{
  GstHipSlot *slot = &f->slots[index];
  GstHipDevice *dev = f->device;

  return gst_hip_device_stream_wait (dev, slot->stream,
      slot->uploaded[s->needs[k]])
      && (k < 2 || gst_hip_device_stream_wait (dev, slot->stream,
          slot->downloaded[k - 2]))
      && f->funcs->compute (f->trans, index, k, slot->stream)
      && gst_hip_device_record (dev, slot->computed[k], slot->stream)
      && gst_hip_device_stream_wait (dev, f->download, slot->computed[k])
      && f->funcs->download (f->trans, index, k, f->download)
      && gst_hip_device_record (dev, slot->downloaded[k], f->download);
}

/* Enqueues the frame of slot @index, each slice's kernels and download as
 * soon as the uploads they need are: uploads from pageable memory return
 * only once staged, and the slices before them run meanwhile. */
static gboolean
enqueue (GstHipInFlight * f, guint index)
{
  GstHipSlot *slot = &f->slots[index];
  GstHipSlices s = { 1, {0} };
  guint k, next = 0;

  if (f->funcs->slice && !f->funcs->slice (f->trans, index, &s))
    return FALSE;
  g_assert (s.n >= 1 && s.n <= GST_HIP_IN_FLIGHT_MAX_SLICES);
  slot->n_slices = s.n;
  for (k = 0; k < s.n; k++) {
    if (!f->funcs->upload (f->trans, index, k, f->upload)
        || !gst_hip_device_record (f->device, slot->uploaded[k], f->upload))
      return FALSE;
    for (; next < s.n && s.needs[next] <= k; next++) {
      g_assert (s.needs[next] >= next);
      if (!enqueue_slice (f, index, &s, next))
        return FALSE;
    }
  }
  return f->waiter == NULL
      || gst_hip_device_record (f->device, slot->left, f->download);
}

/* Frames a frame waits for at most, times a frame's duration: the caps' frame
 * rate, or the longest duration seen where the rate varies (the caps'
 * max-framerate, if any, is only its shortest). Call with the object
 * lock held. */
static GstClockTime
extra_latency (GstHipInFlight * f)
{
  guint frames = f->n_slots ? f->n_slots : f->frames_in_flight;
  GstClockTime extra = 0;

  if (frames < 2 || !f->holds)
    return 0;
  if (f->fps_n > 0)
    extra = gst_util_uint64_scale_int (GST_SECOND * (frames - 1), f->fps_d,
        f->fps_n);
  if ((f->fps_n <= 0 || f->variable_fps)
      && GST_CLOCK_TIME_IS_VALID (f->duration))
    extra = MAX (extra, (frames - 1) * f->duration);
  return extra;
}

/* Posts a latency message where a query was told another latency than
 * the element now adds; called with the object lock held, which it
 * releases. */
static void
unlock_and_check_latency (GstHipInFlight * f)
{
  GstClockTime extra = extra_latency (f);
  gboolean changed = GST_CLOCK_TIME_IS_VALID (f->reported)
      && extra != f->reported;

  if (changed)
    f->reported = extra;
  GST_OBJECT_UNLOCK (f->trans);
  if (changed) {
    GST_DEBUG_OBJECT (f->trans, "latency now %" GST_TIME_FORMAT " more",
        GST_TIME_ARGS (extra));
    gst_element_post_message (GST_ELEMENT (f->trans),
        gst_message_new_latency (GST_OBJECT (f->trans)));
  }
}

void
gst_hip_in_flight_set_format (GstHipInFlight * f, const GstVideoInfo * info)
{
  GST_OBJECT_LOCK (f->trans);
  f->fps_n = info->fps_n;
  f->fps_d = info->fps_d;
  f->variable_fps = GST_VIDEO_INFO_FLAG_IS_SET (info,
      GST_VIDEO_FLAG_VARIABLE_FPS);
  unlock_and_check_latency (f);
}

void
gst_hip_in_flight_set_holding (GstHipInFlight * f, gboolean holds)
{
  GST_OBJECT_LOCK (f->trans);
  f->holds = holds;
  unlock_and_check_latency (f);
}

/* Keeps the longest input duration for the latency at a variable frame
 * rate. */
static void
note_duration (GstHipInFlight * f, GstBuffer * input)
{
  GstClockTime duration = GST_BUFFER_DURATION (input);

  if (!GST_CLOCK_TIME_IS_VALID (duration))
    return;
  GST_OBJECT_LOCK (f->trans);
  if (GST_CLOCK_TIME_IS_VALID (f->duration) && duration <= f->duration) {
    GST_OBJECT_UNLOCK (f->trans);
    return;
  }
  f->duration = duration;
  unlock_and_check_latency (f);
}

GstFlowReturn
gst_hip_in_flight_accept (GstHipInFlight * f,
    GstBaseTransformClass * parent_class, gboolean is_discont,
    GstBuffer * input, GstBuffer ** accepted)
{
  GstBaseTransform *trans = f->trans;
  gint stops = g_atomic_int_get (&f->stops);
  GstFlowReturn ret;

  *accepted = NULL;
  /* Without caps GstBaseTransform would make up an output buffer from
   * none; refuse as its own generate_output does, and upstream posts. */
  if (!gst_pad_has_current_caps (trans->sinkpad)) {
    GST_DEBUG_OBJECT (trans, "a buffer before any caps");
    gst_buffer_unref (input);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  note_duration (f, input);
  /* Renegotiating sets the caps again, which may reallocate what the
   * frames in flight use; a DISCONT input starts a gap: either way the
   * frames in flight leave first. */
  if (GST_BUFFER_IS_DISCONT (input))
    f->gap = TRUE;
  if (f->pending && (f->gap || gst_pad_needs_reconfigure (trans->srcpad))) {
    ret = push_pending (f);
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (input);
      return ret;
    }
  }
  /* A buffer passed through and left by a push that failed is not wanted
   * any more, and the parent would overwrite it. */
  gst_buffer_replace (&trans->queued_buf, NULL);
  ret = parent_class->submit_input_buffer (trans, is_discont, input);
  if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED) {
    /* Dropped as late: a gap, which the frames in flight leave before. */
    GstFlowReturn pushed = GST_FLOW_OK;

    f->gap = TRUE;
    f->chain_discont = TRUE;
    if (f->pending)
      pushed = push_pending (f);
    return pushed == GST_FLOW_OK ? ret : pushed;
  }
  /* Stopped from a handler of what went out on the way (frames, tags,
   * caps, a latency message): no frame to start. */
  if (stopped_since (f, stops)) {
    gst_buffer_replace (&trans->queued_buf, NULL);
    return GST_FLOW_FLUSHING;
  }
  if (ret != GST_FLOW_OK || trans->queued_buf == NULL)
    return ret;
  *accepted = trans->queued_buf;
  trans->queued_buf = NULL;
  return GST_FLOW_OK;
}

GstFlowReturn
gst_hip_in_flight_submit (GstHipInFlight * f, GstBuffer * outbuf)
{
  guint index = gst_hip_in_flight_next (f);
  GstHipSlot *slot = &f->slots[index];
  GstFlowReturn ret;

  slot->outbuf = outbuf;
  slot->discont = f->gap;
  f->gap = FALSE;
  f->pending++;
  if (enqueue (f, index))
    return GST_FLOW_OK;

  /* This frame is lost; the older ones still leave. */
  slot_drop (f, index);
  f->pending--;
  ret = push_pending (f);
  if (ret != GST_FLOW_OK)
    GST_DEBUG_OBJECT (f->trans, "frames before the failed one: %s",
        gst_flow_get_name (ret));
  return GST_FLOW_ERROR;
}

void
gst_hip_in_flight_pass (GstHipInFlight * f, GstBuffer * buf)
{
  f->draining = f->pending > 0;
  /* GstBaseTransform knows of gaps from its own drops and inputs only, not
   * of frames lost to a push that failed. */
  if (f->gap && !GST_BUFFER_IS_DISCONT (buf)) {
    buf = gst_buffer_make_writable (buf);
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  }
  f->gap = FALSE;
  /* One left behind by a push that failed is not wanted any more. */
  if (f->trans->queued_buf)
    gst_buffer_unref (f->trans->queued_buf);
  f->trans->queued_buf = buf;
}

GstFlowReturn
gst_hip_in_flight_run (GstHipInFlight * f)
{
  GstFlowReturn ret = gst_hip_in_flight_submit (f, NULL);

  /* Older frames first, then this one. */
  while (ret == GST_FLOW_OK && f->pending) {
    GstBuffer *out = NULL;

    ret = finish_oldest (f, &out);
    if (out)
      gst_buffer_unref (out);
  }
  return ret;
}

GstFlowReturn
gst_hip_in_flight_generate_output (GstHipInFlight * f, GstBuffer ** outbuf)
{
  GstBaseTransform *trans = f->trans;

  *outbuf = NULL;
  /* A push of the waiter's failed: upstream hears of it now, the frame it
   * just gave still in flight. */
  if (f->waiter_ret != GST_FLOW_OK) {
    GstFlowReturn ret = f->waiter_ret;

    f->waiter_ret = GST_FLOW_OK;
    visit (f);
    return ret;
  }
  /* The events after the frame the chain just pushed. */
  push_due (f);
  /* The newest frame was just enqueued: not worth asking about. */
  if (f->pending && (f->draining || f->pending >= f->n_slots
          || (f->pending > 1 && gst_hip_device_event_done (f->device,
                  oldest_done_event (f))))) {
    GstFlowReturn ret = finish_oldest (f, outbuf);

    if (*outbuf)
      f->chain_discont = FALSE;
    return ret;
  }
  f->draining = FALSE;
  if (trans->queued_buf) {
    /* Passed through: the input itself, after every older frame. */
    *outbuf = trans->queued_buf;
    trans->queued_buf = NULL;
    f->chain_discont = FALSE;
    note_position (f, *outbuf);
    return GST_FLOW_OK;
  }
  visit (f);
  return GST_FLOW_OK;
}

/* Events stay in order with the buffers around them: tags, which change
 * nothing about the frames after them, wait behind the frames in flight,
 * in the newest one's slot; the frames in flight leave before any other
 * serialized event, custom ones included (upstream may wait on one, as
 * after a still-frame event, for what it sent before); a flush drops the
 * frames, and the tags behind them still go out after it. */
gboolean
gst_hip_in_flight_sink_event (GstHipInFlight * f, GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    GList *waiting;

    /* A flush comes on the thread that seeks, with its device current. */
    if (f->pending) {
      gint prev = gst_hip_device_enter (f->device);

      discard (f);
      gst_hip_device_leave (prev);
    }
    waiting = f->due.head;
    g_queue_init (&f->due);
    queue_due (f, waiting, TRUE);
    f->gap = f->chain_discont = FALSE;
    f->waiter_ret = GST_FLOW_OK;
    f->pushed = 0;
    GST_OBJECT_LOCK (f->trans);
    f->position = GST_CLOCK_TIME_NONE;
    GST_OBJECT_UNLOCK (f->trans);
    /* A buffer passed through behind them, left by a push the flush
     * failed, belongs before the flush too. */
    gst_buffer_replace (&f->trans->queued_buf, NULL);
    return FALSE;
  }
  if (!GST_EVENT_IS_SERIALIZED (event))
    return FALSE;
  if (f->pending && GST_EVENT_TYPE (event) == GST_EVENT_TAG) {
    GstHipSlot *newest = &f->slots[(f->first + f->pending - 1) % f->n_slots];

    newest->events = g_list_append (newest->events, event);
    return TRUE;
  }
  if (f->pending) {
    GstFlowReturn ret = push_pending (f);

    if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING)
      GST_DEBUG_OBJECT (f->trans, "draining before %s: %s",
          GST_EVENT_TYPE_NAME (event), gst_flow_get_name (ret));
  }
  push_due (f);
  return FALSE;
}

/* Upstream that drains (a decoder about to free its buffers, say) gets
 * every frame in flight back before the query goes on. */
void
gst_hip_in_flight_sink_query (GstHipInFlight * f, GstPadDirection direction,
    GstQuery * query)
{
  GstFlowReturn ret;

  if (direction != GST_PAD_SINK || GST_QUERY_TYPE (query) != GST_QUERY_DRAIN)
    return;
  /* Queries may come without the stream lock, which keeps the waiter out. */
  GST_PAD_STREAM_LOCK (f->trans->sinkpad);
  if (f->pending) {
    ret = push_pending (f);
    if (ret != GST_FLOW_OK)
      GST_DEBUG_OBJECT (f->trans, "draining: %s", gst_flow_get_name (ret));
  }
  GST_PAD_STREAM_UNLOCK (f->trans->sinkpad);
}

/* GstBaseTransform posts QoS messages from its chain, under the stream
 * lock, as it drops a frame; like its count, ours restarts at a flush. */
GstMessage *
gst_hip_in_flight_post_message (GstHipInFlight * f, GstMessage * msg)
{
  GstFormat format;
  guint64 processed, dropped;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_QOS
      || GST_MESSAGE_SRC (msg) != GST_OBJECT (f->trans) || f->pushed == 0)
    return msg;
  gst_message_parse_qos_stats (msg, &format, &processed, &dropped);
  if (format != GST_FORMAT_BUFFERS)
    return msg;
  msg = gst_message_make_writable (msg);
  gst_message_set_qos_stats (msg, format, processed + f->pushed, dropped);
  return msg;
}

/* Each frame waits for at most frames-in-flight - 1 newer ones: the slots
 * there are while running, the property before. */
void
gst_hip_in_flight_query (GstHipInFlight * f, GstPadDirection direction,
    GstQuery * query)
{
  GstClockTime min, max, extra;
  gboolean live;

  if (direction == GST_PAD_SRC
      && GST_QUERY_TYPE (query) == GST_QUERY_POSITION) {
    GstFormat format;
    GstClockTime end;

    gst_query_parse_position (query, &format, NULL);
    GST_OBJECT_LOCK (f->trans);
    end = f->position;
    GST_OBJECT_UNLOCK (f->trans);
    if (format == GST_FORMAT_TIME && GST_CLOCK_TIME_IS_VALID (end)
        && f->trans->segment.format == GST_FORMAT_TIME)
      gst_query_set_position (query, format, gst_segment_to_stream_time
          (&f->trans->segment, GST_FORMAT_TIME, end));
    return;
  }
  if (direction != GST_PAD_SRC || GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return;
  GST_OBJECT_LOCK (f->trans);
  extra = f->reported = extra_latency (f);
  GST_OBJECT_UNLOCK (f->trans);
  gst_query_parse_latency (query, &live, &min, &max);
  if (GST_CLOCK_TIME_IS_VALID (max))
    max += extra;
  gst_query_set_latency (query, live, min + extra, max);
}
