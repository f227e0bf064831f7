/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIPF_DEVICE_MEMORY_H__
#define __GST_HIPF_DEVICE_MEMORY_H__

#include <gst/video/video.h>
#include "gsthipvideo.h"

G_BEGIN_DECLS

/* Frames that stay in HIP device memory between the elements. Named apart
 * from GStreamer's own memory:HIPMemory and memory:CUDAMemory, which other
 * libraries own. */
#define GST_CAPS_FEATURE_MEMORY_HIPF_DEVICE "memory:HipfDeviceMemory"
#define GST_HIPF_DEVICE_MEMORY_TYPE "HipfDeviceMemory"

/* With GST_MAP_READ or GST_MAP_WRITE: map the device pointer rather than
 * a host copy. */
#define GST_MAP_HIPF (GST_MAP_FLAG_LAST << 1)

/* One frame in device memory, its planes laid out as GstHipVideoLayout
 * says (the buffer's video meta carries the same offsets and strides).
 * A share is the whole frame, and uses the fields of its parent.
 * A CPU map reads through a host copy, downloaded once the device is done
 * writing; a CPU write is uploaded at the next device map. */
typedef struct
{
  GstMemory mem;

  gint device_id;
  guint8 *data;                 /* device */
  guint8 *host;                 /* pinned copy for CPU maps, on demand */
  /* Recorded on the stream of the last device write: readers on the
   * device wait for it there, CPU maps on the host. */
  hipEvent_t ready;
  gboolean recorded;
  guint stale;                  /* STALE_HOST, STALE_DEVICE */
  GMutex lock;
} GstHipfDeviceMemory;

gboolean gst_is_hipf_device_memory (GstMemory * mem);

/* Device memory of @size bytes on @device_id, or NULL (logged). */
GstMemory *gst_hipf_device_memory_alloc (gint device_id, gsize size);

/* The device write just enqueued on @stream makes the frame: readers wait
 * for that. */
hipError_t gst_hipf_device_memory_set_ready (GstHipfDeviceMemory * mem,
    hipStream_t stream);
/* Work enqueued on @stream from now on sees the frame written. */
hipError_t gst_hipf_device_memory_wait (GstHipfDeviceMemory * mem,
    hipStream_t stream);

/* Whether @buf holds one frame of @layout in device memory of @device_id
 * that kernels can read in place: its one memory is ours, large enough,
 * and any video meta agrees with the layout (a packed 4:2:2 frame: its
 * packed rows where the layout stages them, which the kernels unpack). */
gboolean gst_hipf_device_buffer_fits (GstBuffer * buf, gint device_id,
    const GstHipVideoLayout * layout);

/* A pool of frames in device memory of @device_id, for caps with the
 * GST_CAPS_FEATURE_MEMORY_HIPF_DEVICE feature. */
GstBufferPool *gst_hipf_device_buffer_pool_new (gint device_id);
gboolean gst_is_hipf_device_buffer_pool (GstBufferPool * pool,
    gint device_id);

G_END_DECLS

#endif /* __GST_HIPF_DEVICE_MEMORY_H__ */
