/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIPF_CUDA_INTEROP_H__
#define __GST_HIPF_CUDA_INTEROP_H__

#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_HIPF_CUDA_FEATURE "memory:CUDAMemory"
/* Formats the elements take in CUDA memory, which GStreamer 1.22's CUDA
 * allocator lays out (gstcudamemory.c): eleven 8-bit ones, which every
 * element takes, and P010_10LE and I420_10LE for the elements that take
 * 16-bit samples. It does not lay out GRAY16_LE (nor GRAY8): those, and
 * the formats not listed, come in the plugin's device memory or in system
 * memory. */
#define GST_HIPF_CUDA_FORMATS_8 "I420, YV12, NV12, NV21, Y444, RGBA, BGRA, " \
    "RGBx, BGRx, ARGB, ABGR"
#define GST_HIPF_CUDA_FORMATS_16 "P010_10LE, I420_10LE"
#define GST_HIPF_CUDA_FORMATS "{ " GST_HIPF_CUDA_FORMATS_8 " }"
#define GST_HIPF_CUDA_FORMATS_ALL "{ " GST_HIPF_CUDA_FORMATS_8 ", " \
    GST_HIPF_CUDA_FORMATS_16 " }"

/* An element's share of GStreamer's CUDA library: the GstCudaContext it
 * gives its neighbours and takes from them. */
typedef struct _GstHipfCuda GstHipfCuda;

GstHipfCuda *gst_hipf_cuda_new (void);
void gst_hipf_cuda_free (GstHipfCuda * cuda);

/* READY: the context of the element's device, taken from a neighbour or
 * the application, or made. FALSE where CUDA is not there to use. */
gboolean gst_hipf_cuda_open (GstHipfCuda * cuda, GstElement * element,
    gint device_id);
void gst_hipf_cuda_close (GstHipfCuda * cuda);
/* Whether there is a context to give frames in CUDA memory to. */
gboolean gst_hipf_cuda_ready (GstHipfCuda * cuda);
/* Whether the element's caps offer CUDA memory: where there is a context,
 * and before READY, where it is not known yet (as the pad templates do), so
 * that a link filtered to CUDA memory can be made in NULL. */
gboolean gst_hipf_cuda_may_offer (GstHipfCuda * cuda);
void gst_hipf_cuda_set_context (GstHipfCuda * cuda, GstElement * element,
    GstContext * context, gint device_id);
/* TRUE where @query was a context query it answered. */
gboolean gst_hipf_cuda_query (GstHipfCuda * cuda, GstElement * element,
    GstQuery * query);

/* Appends @s (taken) to @caps in CUDA memory, for the formats of it that
 * GST_HIPF_CUDA_FORMATS_ALL has; drops it where none. Each element's pad
 * templates then keep its own formats of those. */
GstCaps *gst_hipf_cuda_merge_caps (GstCaps * caps, GstStructure * s);

/* Maps @buf's CUDA memory for the device into @frame (each plane's device
 * address and stride in bytes, whatever the samples' size, as @info with
 * the buffer's video meta says), where it is memory of the element's
 * context that holds the frame; FALSE otherwise, nothing mapped. Unmap
 * with gst_memory_unmap (@mem, @map). */
gboolean gst_hipf_cuda_map (GstHipfCuda * cuda, GstBuffer * buf,
    const GstVideoInfo * info, GstMapFlags flags, GstVideoFrame * frame,
    GstMemory ** mem, GstMapInfo * map);

/* A pool of CUDA memory of the element's context for @caps. */
GstBufferPool *gst_hipf_cuda_pool_new (GstHipfCuda * cuda, GstCaps * caps,
    guint min, guint max);
gboolean gst_hipf_cuda_is_pool (GstHipfCuda * cuda, GstBufferPool * pool);

G_END_DECLS

#endif /* __GST_HIPF_CUDA_INTEROP_H__ */
