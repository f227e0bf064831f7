/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIPF_MEMORY_CAPS_H__
#define __GST_HIPF_MEMORY_CAPS_H__

#include <gst/video/video.h>
#include "gsthipdevicememory.h"
#ifdef HAVE_GST_CUDA
#include "gsthipcudainterop.h"
#endif

G_BEGIN_DECLS

/* The memories frames travel in, in the order the elements prefer. */
typedef enum
{
  GST_HIPF_MEMORY_DEVICE,       /* the plugin's device memory */
  GST_HIPF_MEMORY_CUDA,         /* GStreamer's CUDA memory */
  GST_HIPF_MEMORY_SYSTEM,
} GstHipfMemory;

#ifdef HAVE_GST_CUDA
#define GST_HIPF_CUDA_CAPS(cuda_formats) \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_HIPF_CUDA_FEATURE, \
      cuda_formats) "; "
#else
#define GST_HIPF_CUDA_CAPS(cuda_formats)
#endif
/* The elements' pad templates for @formats in the plugin's device memory
 * and system memory, and @cuda_formats of them (GST_HIPF_CUDA_FORMATS or
 * GST_HIPF_CUDA_FORMATS_ALL) in CUDA memory where the plugin has it. */
#define GST_HIPF_CAPS_FOR(formats, cuda_formats) \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_HIPF_DEVICE, \
      formats) "; " GST_HIPF_CUDA_CAPS (cuda_formats) \
  GST_VIDEO_CAPS_MAKE (formats)
/* The 8-bit formats: every element's. */
#define GST_HIPF_CAPS GST_HIPF_CAPS_FOR (GST_HIP_VIDEO_FORMATS, \
    GST_HIPF_CUDA_FORMATS)
/* And the 16-bit ones: hipboxblur's, hiphistogram's and hipexposure's. */
#define GST_HIPF_CAPS_ALL GST_HIPF_CAPS_FOR (GST_HIP_VIDEO_FORMATS_ALL, \
    GST_HIPF_CUDA_FORMATS_ALL)

GstHipfMemory gst_hipf_caps_memory (GstCaps * caps);

/* Each structure of @caps in every memory (CUDA memory @with_cuda), in
 * the order above, filtered by @filter (if any): what the elements make of
 * what they take. */
GstCaps *gst_hipf_caps_transform (GstCaps * caps, gboolean with_cuda,
    GstCaps * filter);
/* Of @caps (taken), the first structure in @first, or in the memory after
 * it in the order above, or @caps where none. */
GstCaps *gst_hipf_caps_prefer_memory (GstCaps * caps, GstHipfMemory first);

/* Offers upstream, first in @query, a pool (where it asks for one) of
 * the memory its caps name: the plugin's device memory of @device_id,
 * CUDA memory of @cuda's context (a GstHipfCuda, NULL without it), or
 * pinned host memory; each holds at least @min buffers. */
void gst_hipf_allocation_propose (GstQuery * query, gint device_id,
    gpointer cuda, guint min);
/* Puts first in @query the pool output buffers come from: downstream's
 * only where it is of the same memory, device and context; otherwise one
 * of the element's own, of frames of @device_size bytes in its device
 * memory. FALSE where there is none. */
gboolean gst_hipf_allocation_decide (GstQuery * query, gint device_id,
    gpointer cuda, gsize device_size, guint min);

G_END_DECLS

#endif /* __GST_HIPF_MEMORY_CAPS_H__ */
