/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_ALLOCATOR_H__
#define __GST_HIP_ALLOCATOR_H__

#include <gst/video/video.h>

G_BEGIN_DECLS

/* Page-locked (pinned) host memory: copies between it and a device run
 * asynchronously at the full speed of the link. Registered under this name
 * as the plugin loads; where pinned memory runs out, the same allocator
 * hands out pageable memory. */
#define GST_HIP_HOST_MEMORY_TYPE "HipHostMemory"

GstAllocator *gst_hip_host_allocator_get (void);

/* A video buffer pool of pinned memory for @caps. */
GstBufferPool *gst_hip_host_buffer_pool_new (GstCaps * caps, guint min,
    guint max);

G_END_DECLS

#endif /* __GST_HIP_ALLOCATOR_H__ */
