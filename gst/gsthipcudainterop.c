/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * memory:CUDAMemory through GStreamer's CUDA library (NVIDIA only).
 *
 * The elements run their kernels through the CUDA runtime, in the device's
 * primary context. A GstCudaContext is a driver context of its own, unless
 * it wraps the primary one: so the elements give their neighbours (a
 * decoder, cudadownload) a GstCudaContext wrapping the primary context of
 * their device, made as they go to READY, before the elements upstream of
 * them (which go later) ask. CUDA memory of that context is then memory of
 * the primary context, and the elements copy frames between it and their
 * own device memory on the device. A context from the application or a
 * neighbour is taken only where it is that same primary context; CUDA
 * memory of any other context is read and written through its CPU
 * mapping, which is correct and slow.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudautils.h>

#include "gsthipcudainterop.h"
#include "hipf-runtime.h"

GST_DEBUG_CATEGORY_STATIC (gst_hipf_cuda_debug);
#define GST_CAT_DEFAULT gst_hipf_cuda_debug

struct _GstHipfCuda
{
  GstCudaContext *context;      /* wraps the primary context of the device */
  gint device_id;
  /* Open was called since the element left NULL, whatever it found. */
  gboolean tried;
  /* The application or a neighbour set a CUDA context on the element:
   * the bin keeps theirs rather than the element's. */
  gboolean offered;
};

GstHipfCuda *
gst_hipf_cuda_new (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_hipf_cuda_debug, "hipfcuda", 0,
        "memory:CUDAMemory interop");
    g_once_init_leave (&done, 1);
  }
  return g_new0 (GstHipfCuda, 1);
}

void
gst_hipf_cuda_free (GstHipfCuda * cuda)
{
  if (cuda == NULL)
    return;
  gst_hipf_cuda_close (cuda);
  g_free (cuda);
}

/* The primary context of @device_id, as the CUDA runtime makes it current
 * on this thread; NULL where there is none. */
static CUcontext
primary_context (gint device_id)
{
  CUcontext handle = NULL;
  gint prev = device_id;

  if (hipGetDevice (&prev) != hipSuccess)
    prev = device_id;
  /* hipFree (NULL) makes the runtime create and bind the context. */
  if (hipSetDevice (device_id) != hipSuccess || hipFree (NULL) != hipSuccess) {
    (void) hipGetLastError ();
    hipSetDevice (prev);
    return NULL;
  }
  if (gst_cuda_context_pop (&handle))
    CuCtxPushCurrent (handle);
  hipSetDevice (prev);
  return handle;
}

static gboolean
is_primary (GstHipfCuda * cuda, GstCudaContext * context)
{
  return context != NULL && cuda->context != NULL
      && gst_cuda_context_get_handle (context) ==
      gst_cuda_context_get_handle (cuda->context);
}

gboolean
gst_hipf_cuda_open (GstHipfCuda * cuda, GstElement * element, gint device_id)
{
  CUcontext handle;
  CUdevice device;

  cuda->tried = TRUE;
  if (device_id < 0 && hipGetDevice (&device_id) != hipSuccess) {
    (void) hipGetLastError ();
    return FALSE;
  }
  if (cuda->context && cuda->device_id == device_id)
    return TRUE;
  gst_hipf_cuda_close (cuda);
  cuda->tried = TRUE;
  if (!gst_cuda_load_library ())
    return FALSE;
  handle = primary_context (device_id);
  if (handle == NULL || CuDeviceGet (&device, device_id) != CUDA_SUCCESS) {
    GST_WARNING_OBJECT (element, "no CUDA context for device %d: "
        "memory:CUDAMemory through system memory only", device_id);
    return FALSE;
  }
  cuda->context = gst_cuda_context_new_wrapped (handle, device);
  cuda->device_id = device_id;
  GST_INFO_OBJECT (element, "CUDA context %p: the primary context of "
      "device %d", handle, device_id);
  /* Neighbours that go to READY later ask the bin, which keeps it. */
  if (!cuda->offered)
    gst_element_post_message (element, gst_message_new_have_context
        (GST_OBJECT (element), gst_context_new_cuda_context (cuda->context)));
  return TRUE;
}

void
gst_hipf_cuda_close (GstHipfCuda * cuda)
{
  gst_clear_object (&cuda->context);
  cuda->tried = FALSE;
}

void
gst_hipf_cuda_set_context (GstHipfCuda * cuda, GstElement * element,
    GstContext * context, gint device_id)
{
  GstCudaContext *theirs = NULL;

  if (!gst_cuda_handle_set_context (element, context, device_id, &theirs)
      || theirs == NULL)
    return;
  cuda->offered = TRUE;
  if (cuda->context == NULL || !is_primary (cuda, theirs))
    GST_INFO_OBJECT (element, "CUDA context %" GST_PTR_FORMAT " is not the "
        "element's own: its memory goes through system memory", theirs);
  gst_object_unref (theirs);
}

gboolean
gst_hipf_cuda_ready (GstHipfCuda * cuda)
{
  return cuda->context != NULL;
}

gboolean
gst_hipf_cuda_may_offer (GstHipfCuda * cuda)
{
  return cuda->context != NULL || !cuda->tried;
}

gboolean
gst_hipf_cuda_query (GstHipfCuda * cuda, GstElement * element,
    GstQuery * query)
{
  return GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT && cuda->context
      && gst_cuda_handle_context_query (element, query, cuda->context);
}

GstCaps *
gst_hipf_cuda_merge_caps (GstCaps * caps, GstStructure * s)
{
  GstCaps *one = gst_caps_new_full (s, NULL);
  GstCaps *formats = gst_caps_from_string ("video/x-raw(" GST_HIPF_CUDA_FEATURE
      "), format=(string)" GST_HIPF_CUDA_FORMATS_ALL);
  GstCaps *cuda;
  guint i;

  gst_caps_set_features (one, 0,
      gst_caps_features_new (GST_HIPF_CUDA_FEATURE, NULL));
  cuda = gst_caps_intersect (one, formats);
  for (i = 0; i < gst_caps_get_size (cuda); i++) {
    caps = gst_caps_merge_structure_full (caps,
        gst_structure_copy (gst_caps_get_structure (cuda, i)),
        gst_caps_features_new (GST_HIPF_CUDA_FEATURE, NULL));
  }
  gst_caps_unref (cuda);
  gst_caps_unref (formats);
  gst_caps_unref (one);
  return caps;
}

gboolean
gst_hipf_cuda_map (GstHipfCuda * cuda, GstBuffer * buf,
    const GstVideoInfo * info, GstMapFlags flags, GstVideoFrame * frame,
    GstMemory ** mem, GstMapInfo * map)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  GstCudaMemory *cmem;
  guint p;

  *mem = NULL;
  if (gst_buffer_n_memory (buf) != 1)
    return FALSE;
  cmem = (GstCudaMemory *) gst_buffer_peek_memory (buf, 0);
  if (!gst_is_cuda_memory (GST_MEMORY_CAST (cmem))
      || !is_primary (cuda, cmem->context))
    return FALSE;
  memset (frame, 0, sizeof (*frame));
  frame->info = *info;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gsize offset = meta ? meta->offset[p] : cmem->info.offset[p];
    gint stride = meta ? meta->stride[p] : cmem->info.stride[p];
    guint c;

    /* Whole rows of the plane inside the memory, which may end at the last
     * sample of the last row. */
    for (c = 0; GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, c) != p; c++);
    if (stride < GST_VIDEO_INFO_COMP_WIDTH (info, c) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, c)
        || offset + (gsize) stride * (GST_VIDEO_INFO_COMP_HEIGHT (info,
                c) - 1) + GST_VIDEO_INFO_COMP_WIDTH (info, c) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, c) >
        gst_memory_get_sizes (GST_MEMORY_CAST (cmem), NULL, NULL))
      return FALSE;
    GST_VIDEO_INFO_PLANE_OFFSET (&frame->info, p) = offset;
    GST_VIDEO_INFO_PLANE_STRIDE (&frame->info, p) = stride;
  }
  if (!gst_memory_map (GST_MEMORY_CAST (cmem), map, flags | GST_MAP_CUDA))
    return FALSE;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    frame->data[p] = (guint8 *) map->data +
        GST_VIDEO_INFO_PLANE_OFFSET (&frame->info, p);
  frame->buffer = buf;
  *mem = GST_MEMORY_CAST (cmem);
  return TRUE;
}

GstBufferPool *
gst_hipf_cuda_pool_new (GstHipfCuda * cuda, GstCaps * caps, guint min,
    guint max)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  if (cuda->context == NULL || !gst_video_info_from_caps (&info, caps))
    return NULL;
  pool = gst_cuda_buffer_pool_new (cuda->context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config))
    gst_clear_object (&pool);
  return pool;
}

gboolean
gst_hipf_cuda_is_pool (GstHipfCuda * cuda, GstBufferPool * pool)
{
  return pool != NULL && GST_IS_CUDA_BUFFER_POOL (pool)
      && is_primary (cuda, GST_CUDA_BUFFER_POOL (pool)->context);
}
