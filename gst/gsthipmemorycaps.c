/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Caps and pools in the three memories the elements take and give: the
 * plugin's device memory, CUDA memory (where the plugin has GStreamer's
 * CUDA library) and system memory, preferred in that order
 * (docs/design/device-memory.md).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthipmemorycaps.h"
#include "gsthipallocator.h"

#define CUDA_FEATURE "memory:CUDAMemory"

GstHipfMemory
gst_hipf_caps_memory (GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  if (features && gst_caps_features_contains (features,
          GST_CAPS_FEATURE_MEMORY_HIPF_DEVICE))
    return GST_HIPF_MEMORY_DEVICE;
  if (features && gst_caps_features_contains (features, CUDA_FEATURE))
    return GST_HIPF_MEMORY_CUDA;
  return GST_HIPF_MEMORY_SYSTEM;
}

static GstCaps *
merge_all (GstCaps * ret, GstCaps * caps, const gchar * feature)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    ret = gst_caps_merge_structure_full (ret,
        gst_structure_copy (gst_caps_get_structure (caps, i)),
        gst_caps_features_new (feature, NULL));
  }
  return ret;
}

GstCaps *
gst_hipf_caps_transform (GstCaps * caps, gboolean with_cuda,
    GstCaps * filter)
{
  GstCaps *ret = gst_caps_new_empty ();

  ret = merge_all (ret, caps, GST_CAPS_FEATURE_MEMORY_HIPF_DEVICE);
#ifdef HAVE_GST_CUDA
  {
    guint i;

    /* Only the formats CUDA's allocator lays out. */
    for (i = 0; with_cuda && i < gst_caps_get_size (caps); i++) {
      ret = gst_hipf_cuda_merge_caps (ret,
          gst_structure_copy (gst_caps_get_structure (caps, i)));
    }
  }
#endif
  ret = merge_all (ret, caps, GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY);
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, ret,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (ret);
    ret = tmp;
  }
  return ret;
}

static gboolean
structure_in (GstCaps * caps, guint i, GstHipfMemory memory)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, i);

  switch (memory) {
    case GST_HIPF_MEMORY_DEVICE:
      return features && gst_caps_features_contains (features,
          GST_CAPS_FEATURE_MEMORY_HIPF_DEVICE);
    case GST_HIPF_MEMORY_CUDA:
      return features && gst_caps_features_contains (features, CUDA_FEATURE);
    case GST_HIPF_MEMORY_SYSTEM:
      return features == NULL || gst_caps_features_is_equal (features,
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY);
  }
  return FALSE;
}

/* GstBaseTransform keeps the peer's order, and a peer that lists system
 * memory first (cudadownload) would pull the frame to the host. */
GstCaps *
gst_hipf_caps_prefer_memory (GstCaps * caps, GstHipfMemory first)
{
  GstHipfMemory m;
  guint i;

  for (m = first; m <= GST_HIPF_MEMORY_SYSTEM; m++) {
    for (i = 0; i < gst_caps_get_size (caps); i++) {
      if (structure_in (caps, i, m)) {
        GstCaps *one = gst_caps_copy_nth (caps, i);

        gst_caps_unref (caps);
        return one;
      }
    }
  }
  return caps;
}

/* Makes @allocator (if any) the first allocator of @query, keeping the
 * alignment and padding asked for, and @pool (if any, taken) its first
 * pool. */
static void
put_first (GstQuery * query, GstAllocator * allocator, GstBufferPool * pool,
    guint size, guint min, guint max)
{
  if (allocator) {
    GstAllocationParams params;

    gst_allocation_params_init (&params);
    if (gst_query_get_n_allocation_params (query) > 0) {
      GstAllocator *theirs = NULL;

      gst_query_parse_nth_allocation_param (query, 0, &theirs, &params);
      gst_clear_object (&theirs);
      gst_query_set_nth_allocation_param (query, 0, allocator, &params);
    } else {
      gst_query_add_allocation_param (query, allocator, &params);
    }
  }
  if (pool == NULL)
    return;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
}

/* A pool of frames in the plugin's device memory for @caps. */
static GstBufferPool *
device_pool_new (gint device_id, GstCaps * caps, guint min, guint max)
{
  GstBufferPool *pool = gst_hipf_device_buffer_pool_new (device_id);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, 0, min, max);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config))
    gst_clear_object (&pool);
  return pool;
}

void
gst_hipf_allocation_propose (GstQuery * query, gint device_id, gpointer cuda,
    guint min)
{
  GstBufferPool *pool = NULL;
  GstAllocator *allocator = NULL;
  GstCaps *caps;
  gboolean need_pool;
  GstVideoInfo info;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return;
  switch (gst_hipf_caps_memory (caps)) {
    case GST_HIPF_MEMORY_DEVICE:
      pool = need_pool ? device_pool_new (device_id, caps, min, 0) : NULL;
      break;
    case GST_HIPF_MEMORY_CUDA:
#ifdef HAVE_GST_CUDA
      pool = need_pool && cuda ? gst_hipf_cuda_pool_new (cuda, caps, min,
          0) : NULL;
#endif
      break;
    case GST_HIPF_MEMORY_SYSTEM:
      allocator = gst_hip_host_allocator_get ();
      pool = need_pool ? gst_hip_host_buffer_pool_new (caps, min, 0) : NULL;
      break;
  }
  put_first (query, allocator, pool, info.size, min, 0);
  gst_clear_object (&allocator);
  if (!gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
}

gboolean
gst_hipf_allocation_decide (GstQuery * query, gint device_id, gpointer cuda,
    gsize device_size, guint min_buffers)
{
  GstBufferPool *pool = NULL;
  GstAllocator *allocator = NULL;
  GstCaps *caps;
  GstVideoInfo info;
  guint size = 0, min = 0, max = 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  /* Frames in flight hold their output buffers. */
  min = MAX (min, min_buffers);
  if (max && max < min)
    max = min;
  size = info.size;
  switch (gst_hipf_caps_memory (caps)) {
    case GST_HIPF_MEMORY_DEVICE:
      if (!gst_is_hipf_device_buffer_pool (pool, device_id)) {
        gst_clear_object (&pool);
        pool = device_pool_new (device_id, caps, min, max);
      }
      size = device_size;
      break;
    case GST_HIPF_MEMORY_CUDA:
#ifdef HAVE_GST_CUDA
      if (!cuda || !gst_hipf_cuda_is_pool (cuda, pool)) {
        gst_clear_object (&pool);
        pool = cuda ? gst_hipf_cuda_pool_new (cuda, caps, min, max) : NULL;
      }
#else
      gst_clear_object (&pool);
#endif
      break;
    case GST_HIPF_MEMORY_SYSTEM:
      gst_clear_object (&pool);
      allocator = gst_hip_host_allocator_get ();
      pool = gst_hip_host_buffer_pool_new (caps, min, max);
      break;
  }
  if (!pool) {
    gst_clear_object (&allocator);
    return FALSE;
  }
  put_first (query, allocator, pool, size, min, max);
  gst_clear_object (&allocator);
  return TRUE;
}
