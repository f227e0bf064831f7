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

/* The device, stream and error reporting one element uses. Plain struct,
 * embedded in the element; every call is made from one thread at a time. */
typedef struct _GstHipDevice
{
  GstElement *element;          /* not owned: errors are posted on it */
  gint device_id;
  hipStream_t stream;
  HipfDeviceLimits limits;
  gboolean opened;
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
gboolean gst_hip_device_alloc (GstHipDevice * dev, GstHipMemory * mem,
    gsize size, const gchar * what);
void gst_hip_device_free (GstHipDevice * dev, GstHipMemory * mem);
gboolean gst_hip_device_alloc_host (GstHipDevice * dev, GstHipMemory * mem,
    gsize size, const gchar * what);
void gst_hip_device_free_host (GstHipDevice * dev, GstHipMemory * mem);
gboolean gst_hip_device_copy (GstHipDevice * dev, void *dst, const void *src,
    gsize size, hipMemcpyKind kind);
gboolean gst_hip_device_copy_2d (GstHipDevice * dev, void *dst, gsize dst_pitch,
    const void *src, gsize src_pitch, gsize row_bytes, gsize rows,
    hipMemcpyKind kind);
gboolean gst_hip_device_launched (GstHipDevice * dev, hipError_t err,
    const gchar * kernel);
gboolean gst_hip_device_synchronize (GstHipDevice * dev);

G_END_DECLS

#endif /* __GST_HIP_DEVICE_H__ */
