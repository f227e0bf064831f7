/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A GstAllocator of pinned host memory (hipHostMalloc), and video buffer
 * pools of it. The elements offer such a pool upstream and take their
 * output buffers from one, so that every frame crosses the link by DMA.
 * Where pinned memory runs out it hands out pageable memory instead.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <unistd.h>

#include "gsthipallocator.h"
#include "hipf-runtime.h"

GST_DEBUG_CATEGORY_STATIC (gst_hip_allocator_debug);
#define GST_CAT_DEFAULT gst_hip_allocator_debug

typedef struct
{
  GstAllocator parent;
} GstHipHostAllocator;

typedef struct
{
  GstAllocatorClass parent_class;
} GstHipHostAllocatorClass;

typedef struct
{
  GstMemory mem;
  gpointer data;
  gboolean pinned;              /* FALSE: the pageable fallback */
} GstHipHostMemory;

GType gst_hip_host_allocator_get_type (void);
G_DEFINE_TYPE (GstHipHostAllocator, gst_hip_host_allocator, GST_TYPE_ALLOCATOR);

static GstMemory *
host_memory_new (GstMemoryFlags flags, GstAllocator * allocator,
    GstMemory * parent, gpointer data, gboolean pinned, gsize maxsize,
    gsize align, gsize offset, gsize size)
{
  GstHipHostMemory *mem = g_new0 (GstHipHostMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (mem), flags, allocator, parent, maxsize,
      align, offset, size);
  mem->data = data;
  mem->pinned = pinned;
  return GST_MEMORY_CAST (mem);
}

static GstMemory *
gst_hip_host_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  gsize maxsize = size + params->prefix + params->padding;
  gsize align = params->align | gst_memory_alignment;
  gpointer data = NULL;
  hipError_t err;

  /* hipHostMalloc returns page-aligned memory, more than any align asks. */
  err = hipHostMalloc (&data, maxsize, hipHostMallocPortable);
  if (err == hipSuccess)
    return host_memory_new (0, allocator, NULL, data, TRUE, maxsize, align,
        params->prefix, size);

  /* Pinned memory runs out long before memory does (and there is none
   * without a driver): upstream's frames go on in pageable memory, which
   * crosses the link more slowly, rather than its allocation failing. */
  (void) hipGetLastError ();
  GST_WARNING ("hipHostMalloc of %" G_GSIZE_FORMAT " bytes failed (%s): "
      "pageable memory instead", maxsize, hipGetErrorString (err));
  /* Page-aligned, as the pinned memory it stands in for. */
  if (posix_memalign (&data, MAX (align + 1, (gsize) sysconf (_SC_PAGESIZE)),
          maxsize)) {
    GST_ERROR ("no memory for %" G_GSIZE_FORMAT " bytes", maxsize);
    return NULL;
  }
  return host_memory_new (0, allocator, NULL, data, FALSE, maxsize, align,
      params->prefix, size);
}

static void
gst_hip_host_allocator_free (GstAllocator * allocator, GstMemory * memory)
{
  GstHipHostMemory *mem = (GstHipHostMemory *) memory;

  if (!memory->parent && mem->pinned)
    hipHostFree (mem->data);
  else if (!memory->parent)
    free (mem->data);
  g_free (mem);
}

static gpointer
host_memory_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  return ((GstHipHostMemory *) memory)->data;
}

static void
host_memory_unmap (GstMemory * memory)
{
}

static GstMemory *
host_memory_share (GstMemory * memory, gssize offset, gssize size)
{
  GstHipHostMemory *mem = (GstHipHostMemory *) memory;
  GstMemory *parent = memory->parent ? memory->parent : memory;

  if (size == -1)
    size = memory->size - offset;
  /* A share must not write what its parent's other holders read. */
  return host_memory_new (GST_MINI_OBJECT_FLAGS (parent) |
      GST_MINI_OBJECT_FLAG_LOCK_READONLY, memory->allocator, parent,
      mem->data, mem->pinned, memory->maxsize, memory->align,
      memory->offset + offset, size);
}

static void
gst_hip_host_allocator_class_init (GstHipHostAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = gst_hip_host_allocator_alloc;
  allocator_class->free = gst_hip_host_allocator_free;
  GST_DEBUG_CATEGORY_INIT (gst_hip_allocator_debug, "hipallocator", 0,
      "Pinned host memory");
}

static void
gst_hip_host_allocator_init (GstHipHostAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR (self);

  allocator->mem_type = GST_HIP_HOST_MEMORY_TYPE;
  allocator->mem_map = host_memory_map;
  allocator->mem_unmap = host_memory_unmap;
  allocator->mem_share = host_memory_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_hip_host_allocator_get (void)
{
  static GstAllocator *allocator = NULL;

  if (g_once_init_enter (&allocator)) {
    GstAllocator *a = g_object_new (gst_hip_host_allocator_get_type (), NULL);

    gst_object_ref_sink (a);
    /* Registered so that it lives, and can be found, for the process. */
    gst_allocator_register (GST_HIP_HOST_MEMORY_TYPE, gst_object_ref (a));
    g_once_init_leave (&allocator, a);
  }
  return gst_object_ref (allocator);
}

GstBufferPool *
gst_hip_host_buffer_pool_new (GstCaps * caps, guint min, guint max)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstAllocator *allocator = gst_hip_host_allocator_get ();
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps)) {
    gst_object_unref (allocator);
    gst_structure_free (config);
    gst_object_unref (pool);
    return NULL;
  }
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  gst_buffer_pool_config_set_allocator (config, allocator, NULL);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_object_unref (allocator);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}
