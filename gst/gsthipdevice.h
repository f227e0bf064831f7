/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_DEVICE_H__
#define __GST_HIP_DEVICE_H__

#include <gst/gst.h>
#include "hipf-kernels.h"

G_BEGIN_DECLS

#define GST_HIP_DEVICE_ID_DEFAULT -1

/* Failure injection, a test hook (GST_HIP_FAIL, see gsthipdevice.c): the
 * kinds of calls it counts, and what it was asked to fail. Private. */
typedef enum
{
  GST_HIP_OP_ALLOC,
  GST_HIP_OP_COPY,
  GST_HIP_OP_LAUNCH,
  GST_HIP_OP_SYNC,
  GST_HIP_N_OPS,
} GstHipOp;

#define GST_HIP_FAIL_MAX_RULES 8

typedef struct
{
  guint n_rules;                /* 0: injection off, nothing is counted */
  struct
  {
    GstHipOp op;
    guint64 call;               /* the call of that kind to fail, from 1 */
  } rules[GST_HIP_FAIL_MAX_RULES];
  guint64 calls[GST_HIP_N_OPS]; /* calls made since the device was opened */
  gboolean busy;                /* GST_HIP_BUSY: work is never done early */
} GstHipFaults;

/* The device, stream and error reporting one element uses. Plain struct,
 * embedded in the element; every call is made from one thread at a time. */
typedef struct _GstHipDevice
{
  GstElement *element;          /* not owned: errors are posted on it */
  gint device_id;
  gint caller_device;           /* current on the thread that opened it */
  hipStream_t stream;
  HipfDeviceLimits limits;
  gboolean opened;
  GstHipFaults faults;
} GstHipDevice;

/* Device memory that persists across frames and only grows. */
typedef struct _GstHipMemory
{
  void *ptr;
  gsize size;
} GstHipMemory;

gboolean gst_hip_device_open (GstHipDevice * dev, GstElement * element,
    gint device_id);
void gst_hip_device_close (GstHipDevice * dev);
gboolean gst_hip_device_bind (GstHipDevice * dev);
void gst_hip_device_release (GstHipDevice * dev);
/* For calls from a thread other than the streaming one (stop, a flush):
 * makes @dev current until gst_hip_device_leave() with what it returns. */
gint gst_hip_device_enter (GstHipDevice * dev);
void gst_hip_device_leave (gint prev);
gboolean gst_hip_device_alloc (GstHipDevice * dev, GstHipMemory * mem,
    gsize size, const gchar * what);
void gst_hip_device_free (GstHipDevice * dev, GstHipMemory * mem);
gboolean gst_hip_device_alloc_host (GstHipDevice * dev, GstHipMemory * mem,
    gsize size, const gchar * what);
void gst_hip_device_free_host (GstHipDevice * dev, GstHipMemory * mem);
gboolean gst_hip_device_copy (GstHipDevice * dev, void *dst, const void *src,
    gsize size, hipMemcpyKind kind);
/* @stream NULL: the device's own stream. */
gboolean gst_hip_device_copy_2d (GstHipDevice * dev, hipStream_t stream,
    void *dst, gsize dst_pitch,
    const void *src, gsize src_pitch, gsize row_bytes, gsize rows,
    hipMemcpyKind kind);
/* FALSE, with the element error posted, where @err of @call is not
 * hipSuccess; for calls that fault injection does not count. */
gboolean gst_hip_device_check (GstHipDevice * dev, hipError_t err,
    const gchar * call);
gboolean gst_hip_device_launched (GstHipDevice * dev, hipError_t err,
    const gchar * kernel);
gboolean gst_hip_device_synchronize (GstHipDevice * dev);

gboolean gst_hip_device_stream_new (GstHipDevice * dev, hipStream_t * stream);
void gst_hip_device_stream_free (GstHipDevice * dev, hipStream_t stream);
gboolean gst_hip_device_event_new (GstHipDevice * dev, hipEvent_t * event);
/* An event that a thread other than the streaming one sleeps on, through
 * gst_hip_device_event_sleep(), rather than spins. */
gboolean gst_hip_device_event_new_sleeping (GstHipDevice * dev,
    hipEvent_t * event);
void gst_hip_device_event_free (GstHipDevice * dev, hipEvent_t event);
gboolean gst_hip_device_record (GstHipDevice * dev, hipEvent_t event,
    hipStream_t stream);
/* Whether the work before @event's last record is done. */
gboolean gst_hip_device_event_done (GstHipDevice * dev, hipEvent_t event);
gboolean gst_hip_device_event_wait (GstHipDevice * dev, hipEvent_t event);
/* Sleeps until the work before @event's last record is done, on an event
 * of gst_hip_device_event_new_sleeping(). Neither counted by GST_HIP_FAIL
 * nor reported: the streaming thread reports a failure where it waits. */
void gst_hip_device_event_sleep (hipEvent_t event);
/* Work enqueued on @stream from now on waits for @event's last record. */
gboolean gst_hip_device_stream_wait (GstHipDevice * dev, hipStream_t stream,
    hipEvent_t event);

G_END_DECLS

#endif /* __GST_HIP_DEVICE_H__ */
