/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_IN_FLIGHT_H__
#define __GST_HIP_IN_FLIGHT_H__

#include <gst/base/gstbasetransform.h>
#include "gsthipvideo.h"

G_BEGIN_DECLS

#define GST_HIP_IN_FLIGHT_DEFAULT 1
#define GST_HIP_IN_FLIGHT_MAX 16
/* Most row slices a frame crosses the device in. */
#define GST_HIP_IN_FLIGHT_MAX_SLICES 16

/* How a frame crosses the device: in n slices, each uploaded, computed
 * and downloaded in turn, so that one slice's upload overlaps the kernels
 * and download of the slices before it. Slice k's kernels wait for the
 * uploads of slices 0 to needs[k] (the rows its windows reach), and for
 * the download of slice k - 2: consecutive slices' kernels write two
 * output buffers in turn, and may write rows of their buffer beyond their
 * own slice. */
typedef struct
{
  guint n;                      /* 1 to GST_HIP_IN_FLIGHT_MAX_SLICES */
  guint needs[GST_HIP_IN_FLIGHT_MAX_SLICES];
} GstHipSlices;

/* What the element does with the frame in slot @index. Its own per-slot
 * state (mapped frames, device memory) lives in the element, indexed the
 * same way. A frame's work comes in three parts a slice, each enqueued on
 * the stream given without waiting; each returns FALSE, with the element
 * error posted, if a call failed (what was enqueued may still run). */
typedef struct
{
  /* Optional: the slices of the frame (one without it); FALSE, with the
   * element error posted, if the frame cannot start. */
  gboolean (*slice) (GstBaseTransform * trans, guint index, GstHipSlices * s);
  /* Copies slice @slice of the frame to the device, on the stream every
   * upload shares. */
  gboolean (*upload) (GstBaseTransform * trans, guint index, guint slice,
      hipStream_t stream);
  /* The slice's kernels, on the slot's own stream, after its uploads. */
  gboolean (*compute) (GstBaseTransform * trans, guint index, guint slice,
      hipStream_t stream);
  /* Copies the slice's results back, on the stream every download shares,
   * after its kernels. */
  gboolean (*download) (GstBaseTransform * trans, guint index, guint slice,
      hipStream_t stream);
  /* The device is done with the frame: unmap what the slot maps. */
  void (*release) (GstBaseTransform * trans, guint index);
  /* Optional: the frame is complete and leaves, in order, as @outbuf;
   * called after release, so a buffer only this slot held is writable. */
  void (*finish) (GstBaseTransform * trans, guint index, GstBuffer * outbuf);
} GstHipInFlightFuncs;

typedef struct
{
  hipStream_t stream;           /* the frame's kernels */
  /* A slice's each: the kernels wait for uploads (and downloads two
   * slices back), the downloads for the kernels. */
  hipEvent_t uploaded[GST_HIP_IN_FLIGHT_MAX_SLICES];
  hipEvent_t computed[GST_HIP_IN_FLIGHT_MAX_SLICES];
  hipEvent_t downloaded[GST_HIP_IN_FLIGHT_MAX_SLICES];
  guint n_slices;               /* downloaded[n_slices - 1] ends the frame */
  hipEvent_t left;              /* the same, for the waiter to sleep on */
  GstBuffer *outbuf;            /* pushed when the frame leaves; may be NULL */
  gboolean discont;             /* the first frame after a gap */
  GList *events;                /* tags after it, in order */
} GstHipSlot;

/* Frames of a GstBaseTransform on their way through the device, each in a
 * slot of its own (kernel stream and events) so that consecutive frames
 * overlap. Plain struct, embedded in the element and used under its sink
 * pad's stream lock (its streaming thread, and the waiter), but for
 * frames_in_flight and what the comments below say. */
typedef struct
{
  guint frames_in_flight;       /* the property, under the object lock */

  GstBaseTransform *trans;
  const GstHipInFlightFuncs *funcs;
  GstHipDevice *device;
  /* Every frame's uploads on one stream and downloads on another, in
   * frame order (see gsthipinflight.c). */
  hipStream_t upload, download;
  GstHipSlot slots[GST_HIP_IN_FLIGHT_MAX];
  guint n_slots;                /* created: frames_in_flight at start */
  guint first;                  /* oldest frame in flight */
  guint pending;                /* frames in flight */
  gboolean draining;            /* hand out every frame in flight */
  gboolean gap;                 /* a gap lies before the next frame */
  /* GstBaseTransform owes the next buffer its chain pushes the DISCONT
   * flag (a frame dropped as late), and clears it then. */
  gboolean chain_discont;
  GQueue due;                   /* tags whose frames left, to push next */
  /* With more than one slot, a thread of its own pushes the frames the
   * device is done with while no newer frame comes (gsthipinflight.c);
   * its failed push, under the stream lock. */
  struct _GstHipWaiter *waiter;
  GstFlowReturn waiter_ret;
  /* Frames pushed here rather than by GstBaseTransform's chain, which
   * counts its own in the QoS statistics; since the start or the last
   * flush, under the stream lock. */
  guint64 pushed;
  /* Stops so far (atomic): a frame whose report or push stopped the
   * element belongs to no run, the next one's neither. */
  gint stops;
  /* What the latency depends on, under the object lock: the caps' frame
   * rate, the longest input duration seen (for variable rates), whether
   * the element holds frames back at all, and what the last latency query
   * was told (NONE before one). */
  gint fps_n, fps_d;
  gboolean variable_fps;
  GstClockTime duration;
  gboolean holds;
  GstClockTime reported;
  /* Where the last buffer out ends, under the object lock: position
   * queries, which GstBaseTransform answers from its chain's pushes. */
  GstClockTime position;
} GstHipInFlight;

void gst_hip_in_flight_init (GstHipInFlight * f, GstBaseTransform * trans,
    const GstHipInFlightFuncs * funcs);
void gst_hip_in_flight_install_property (GObjectClass * klass, guint prop_id);

gboolean gst_hip_in_flight_start (GstHipInFlight * f, GstHipDevice * dev);
void gst_hip_in_flight_stop (GstHipInFlight * f);

/* The element's submit_input_buffer begins here: @parent_class's (the
 * renegotiation and QoS of GstBaseTransform) takes @input after the frames
 * in flight have left where it will renegotiate; @accepted is the input it
 * let through, or NULL (dropped as late, or an error returned). */
GstFlowReturn gst_hip_in_flight_accept (GstHipInFlight * f,
    GstBaseTransformClass * parent_class, gboolean is_discont,
    GstBuffer * input, GstBuffer ** accepted);
/* The element's prepare_output_buffer for @input, which is dropped when
 * that fails. */
GstFlowReturn gst_hip_in_flight_prepare_output (GstHipInFlight * f,
    GstBuffer * input, GstBuffer ** outbuf);
/* The slot the next frame goes into; there must be room. */
guint gst_hip_in_flight_next (GstHipInFlight * f);
/* Maps @buf read-only into @frame, if it holds a frame of @info whose
 * planes lie inside it; otherwise posts the element error. */
gboolean gst_hip_in_flight_map_input (GstHipInFlight * f,
    GstVideoFrame * frame, const GstVideoInfo * info,
    const GstHipVideoLayout * layout, GstBuffer * buf);
/* Starts the frame the element mapped into the next slot; @outbuf
 * (owned) leaves with it. */
GstFlowReturn gst_hip_in_flight_submit (GstHipInFlight * f,
    GstBuffer * outbuf);
/* @buf (owned) leaves as it is, after every frame in flight. */
void gst_hip_in_flight_pass (GstHipInFlight * f, GstBuffer * buf);
/* For the transform vfuncs of callers that hand a frame in directly, mapped
 * into the next slot by the element: runs it from start to end. */
GstFlowReturn gst_hip_in_flight_run (GstHipInFlight * f);

/* The element's generate_output. */
GstFlowReturn gst_hip_in_flight_generate_output (GstHipInFlight * f,
    GstBuffer ** outbuf);
/* Called by the element's sink_event before it chains up; TRUE where it
 * took @event (a tag), to follow the frames in flight: the element returns
 * TRUE without chaining up. */
gboolean gst_hip_in_flight_sink_event (GstHipInFlight * f, GstEvent * event);
/* Called by the element's query before it chains up. */
void gst_hip_in_flight_sink_query (GstHipInFlight * f,
    GstPadDirection direction, GstQuery * query);
/* Called on a query its parent class answered: the latency, and the
 * position downstream of frames that the waiter pushed. */
void gst_hip_in_flight_query (GstHipInFlight * f, GstPadDirection direction,
    GstQuery * query);
/* The element's post_message, before it chains up: QoS messages count
 * the frames pushed here as processed too. Returns the message to post. */
GstMessage *gst_hip_in_flight_post_message (GstHipInFlight * f,
    GstMessage * msg);
/* The element's new caps (their frame rate), and whether frames wait for
 * newer ones (not while the element passes them through): where either
 * changes the latency a query was told, a latency message asks for a new
 * query. */
void gst_hip_in_flight_set_format (GstHipInFlight * f,
    const GstVideoInfo * info);
void gst_hip_in_flight_set_holding (GstHipInFlight * f, gboolean holds);

G_END_DECLS

#endif /* __GST_HIP_IN_FLIGHT_H__ */
