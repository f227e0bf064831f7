/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frames in HIP device memory, passed between the elements without
 * crossing the link: a GstMemory of one device allocation, a pool of such
 * frames, and the caps feature that names them. Readers on the device wait
 * on the frame's ready event on their own stream, so that one element's
 * kernels queue behind the last one's without the host waiting. Anything
 * else may still map the frame: a CPU map downloads a host copy once the
 * device is done, and a CPU write is uploaded at the next device map.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthipdevicememory.h"

GST_DEBUG_CATEGORY_STATIC (gst_hipf_device_memory_debug);
#define GST_CAT_DEFAULT gst_hipf_device_memory_debug

enum
{
  STALE_HOST = 1 << 0,          /* the device holds newer samples */
  STALE_DEVICE = 1 << 1,        /* the host copy does */
};

typedef struct
{
  GstAllocator parent;
} GstHipfDeviceAllocator;

typedef struct
{
  GstAllocatorClass parent_class;
} GstHipfDeviceAllocatorClass;

GType gst_hipf_device_allocator_get_type (void);
G_DEFINE_TYPE (GstHipfDeviceAllocator, gst_hipf_device_allocator,
    GST_TYPE_ALLOCATOR);

/* Device memory is used from any thread (a CPU map downstream, the last
 * unref): each call makes the memory's device current and then puts the
 * thread's own back. */
static gint
enter (gint device_id)
{
  gint prev = device_id;

  if (hipGetDevice (&prev) != hipSuccess)
    prev = device_id;
  if (prev != device_id)
    hipSetDevice (device_id);
  return prev;
}

static void
leave (gint prev, gint device_id)
{
  if (prev != device_id)
    hipSetDevice (prev);
}

static GstAllocator *
allocator_get (void)
{
  static GstAllocator *allocator = NULL;

  if (g_once_init_enter (&allocator)) {
    GstAllocator *a =
        g_object_new (gst_hipf_device_allocator_get_type (), NULL);

    gst_object_ref_sink (a);
    gst_allocator_register (GST_HIPF_DEVICE_MEMORY_TYPE, gst_object_ref (a));
    g_once_init_leave (&allocator, a);
  }
  return allocator;
}

/* A share is the whole frame: it forwards to the memory that holds it. */
static GstHipfDeviceMemory *
root (GstMemory * memory)
{
  return (GstHipfDeviceMemory *) (memory->parent ? memory->parent : memory);
}

gboolean
gst_is_hipf_device_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL
      && G_TYPE_CHECK_INSTANCE_TYPE (mem->allocator,
      gst_hipf_device_allocator_get_type ());
}

GstMemory *
gst_hipf_device_memory_alloc (gint device_id, gsize size)
{
  GstHipfDeviceMemory *mem;
  void *data = NULL;
  hipEvent_t ready = NULL;
  hipError_t err;
  gint prev = enter (device_id);

  err = hipMalloc (&data, size);
  if (err == hipSuccess)
    err = hipEventCreateWithFlags (&ready,
        hipEventDisableTiming | hipEventBlockingSync);
  leave (prev, device_id);
  if (err != hipSuccess) {
    (void) hipGetLastError ();
    GST_ERROR ("no device memory for a frame of %" G_GSIZE_FORMAT " bytes "
        "on HIP device %d: %s", size, device_id, hipGetErrorString (err));
    if (data) {
      prev = enter (device_id);
      hipFree (data);
      leave (prev, device_id);
    }
    return NULL;
  }

  mem = g_new0 (GstHipfDeviceMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (mem), 0, allocator_get (), NULL, size, 0,
      0, size);
  mem->device_id = device_id;
  mem->data = data;
  mem->ready = ready;
  mem->stale = STALE_HOST;
  g_mutex_init (&mem->lock);
  return GST_MEMORY_CAST (mem);
}

static GstMemory *
gst_hipf_device_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GST_ERROR ("device memory comes from gst_hipf_device_memory_alloc(), "
      "which names the device");
  return NULL;
}

static void
gst_hipf_device_allocator_free (GstAllocator * allocator, GstMemory * memory)
{
  GstHipfDeviceMemory *mem = (GstHipfDeviceMemory *) memory;
  gint prev;

  if (memory->parent) {
    g_free (mem);
    return;
  }
  prev = enter (mem->device_id);
  /* hipFree waits for the work that may still use the memory. */
  hipFree (mem->data);
  hipEventDestroy (mem->ready);
  if (mem->host)
    hipHostFree (mem->host);
  leave (prev, mem->device_id);
  g_mutex_clear (&mem->lock);
  g_free (mem);
}

/* A copy between the device and the host copy, once the device's last
 * write is done. */
static hipError_t
copy_sync (GstHipfDeviceMemory * mem, void *dst, const void *src,
    hipMemcpyKind kind)
{
  hipError_t err = hipSuccess;

  if (mem->recorded)
    err = hipEventSynchronize (mem->ready);
  if (err == hipSuccess)
    err = hipMemcpyAsync (dst, src, mem->mem.maxsize, kind, NULL);
  if (err == hipSuccess)
    err = hipStreamSynchronize (NULL);
  return err;
}

static gpointer
device_memory_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  GstHipfDeviceMemory *mem = root (memory);
  gpointer ret = NULL;
  hipError_t err = hipSuccess;
  gint prev;

  g_mutex_lock (&mem->lock);
  prev = enter (mem->device_id);
  if (flags & GST_MAP_HIPF) {
    if (mem->stale & STALE_DEVICE) {
      err = copy_sync (mem, mem->data, mem->host, hipMemcpyHostToDevice);
      mem->recorded = FALSE;
    }
    if (err == hipSuccess) {
      mem->stale &= ~STALE_DEVICE;
      if (flags & GST_MAP_WRITE)
        mem->stale |= STALE_HOST;
      ret = mem->data;
    }
  } else {
    if (mem->host == NULL) {
      err = hipHostMalloc ((void **) &mem->host, mem->mem.maxsize,
          hipHostMallocDefault);
      if (err != hipSuccess)
        mem->host = NULL;
    }
    if (err == hipSuccess && (mem->stale & STALE_HOST))
      err = copy_sync (mem, mem->host, mem->data, hipMemcpyDeviceToHost);
    if (err == hipSuccess) {
      mem->stale &= ~STALE_HOST;
      if (flags & GST_MAP_WRITE)
        mem->stale |= STALE_DEVICE;
      ret = mem->host;
    }
  }
  leave (prev, mem->device_id);
  g_mutex_unlock (&mem->lock);
  if (err != hipSuccess) {
    (void) hipGetLastError ();
    GST_ERROR ("could not map a frame in memory of HIP device %d for the %s: "
        "%s", mem->device_id, (flags & GST_MAP_HIPF) ? "device" : "host",
        hipGetErrorString (err));
  }
  return ret;
}

static void
device_memory_unmap (GstMemory * memory)
{
}

static GstMemory *
device_memory_copy (GstMemory * memory, gssize offset, gssize size)
{
  GstHipfDeviceMemory *mem = root (memory);
  GstHipfDeviceMemory *copy;
  GstMapInfo map;
  hipError_t err;
  gint prev;

  /* Only whole frames: a part of one is not a frame of this memory. */
  if (offset != 0 || (size != -1 && (gsize) size != memory->size))
    return NULL;
  copy = (GstHipfDeviceMemory *)
      gst_hipf_device_memory_alloc (mem->device_id, memory->maxsize);
  if (copy == NULL)
    return NULL;
  if (!gst_memory_map (memory, &map, GST_MAP_READ | GST_MAP_HIPF)) {
    gst_memory_unref (GST_MEMORY_CAST (copy));
    return NULL;
  }
  g_mutex_lock (&mem->lock);
  prev = enter (mem->device_id);
  err = copy_sync (mem, copy->data, mem->data, hipMemcpyDeviceToDevice);
  leave (prev, mem->device_id);
  g_mutex_unlock (&mem->lock);
  gst_memory_unmap (memory, &map);
  if (err != hipSuccess) {
    (void) hipGetLastError ();
    GST_ERROR ("could not copy a frame on HIP device %d: %s", mem->device_id,
        hipGetErrorString (err));
    gst_memory_unref (GST_MEMORY_CAST (copy));
    return NULL;
  }
  return GST_MEMORY_CAST (copy);
}

/* Buffers that share a frame (a copy made writable for metadata, a tee's
 * branches) share its device memory and its state; part of a frame is not
 * a frame, and is copied instead. */
static GstMemory *
device_memory_share (GstMemory * memory, gssize offset, gssize size)
{
  GstHipfDeviceMemory *mem = root (memory), *share;

  if (offset != 0 || (size != -1 && (gsize) size != memory->size))
    return NULL;
  share = g_new0 (GstHipfDeviceMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (share),
      GST_MINI_OBJECT_FLAGS (mem) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      memory->allocator, GST_MEMORY_CAST (mem), memory->maxsize,
      memory->align, memory->offset, memory->size);
  share->device_id = mem->device_id;
  return GST_MEMORY_CAST (share);
}

hipError_t
gst_hipf_device_memory_set_ready (GstHipfDeviceMemory * mem,
    hipStream_t stream)
{
  hipError_t err;

  mem = root (GST_MEMORY_CAST (mem));
  g_mutex_lock (&mem->lock);
  err = hipEventRecord (mem->ready, stream);
  mem->recorded = err == hipSuccess;
  g_mutex_unlock (&mem->lock);
  return err;
}

hipError_t
gst_hipf_device_memory_wait (GstHipfDeviceMemory * mem, hipStream_t stream)
{
  hipError_t err = hipSuccess;

  mem = root (GST_MEMORY_CAST (mem));
  g_mutex_lock (&mem->lock);
  if (mem->recorded)
    err = hipStreamWaitEvent (stream, mem->ready, 0);
  g_mutex_unlock (&mem->lock);
  return err;
}

static void
gst_hipf_device_allocator_class_init (GstHipfDeviceAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = gst_hipf_device_allocator_alloc;
  allocator_class->free = gst_hipf_device_allocator_free;
  GST_DEBUG_CATEGORY_INIT (gst_hipf_device_memory_debug, "hipfdevicememory",
      0, "Frames in HIP device memory");
}

static void
gst_hipf_device_allocator_init (GstHipfDeviceAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR (self);

  allocator->mem_type = GST_HIPF_DEVICE_MEMORY_TYPE;
  allocator->mem_map = device_memory_map;
  allocator->mem_unmap = device_memory_unmap;
  allocator->mem_copy = device_memory_copy;
  allocator->mem_share = device_memory_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

gboolean
gst_hipf_device_buffer_fits (GstBuffer * buf, gint device_id,
    const GstHipVideoLayout * layout)
{
  GstVideoMeta *meta;
  GstMemory *mem;
  guint p;

  if (gst_buffer_n_memory (buf) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buf, 0);
  if (!gst_is_hipf_device_memory (mem) || mem->offset != 0
      || ((GstHipfDeviceMemory *) mem)->device_id != device_id
      || mem->size < layout->size)
    return FALSE;
  meta = gst_buffer_get_video_meta (buf);
  /* A packed frame is its packed rows, where the layout stages them. */
  if (layout->packed)
    return meta && meta->n_planes == 1
        && meta->offset[0] == layout->packed_offset
        && (gsize) meta->stride[0] == layout->packed_pitch;
  if (meta == NULL)
    return TRUE;
  if (meta->n_planes != layout->n_planes)
    return FALSE;
  for (p = 0; p < layout->n_planes; p++) {
    if (meta->offset[p] != layout->planes[p].offset
        || (gsize) meta->stride[p] != layout->planes[p].pitch)
      return FALSE;
  }
  return TRUE;
}

/* The pool: every buffer one device frame with its video meta. */
typedef struct
{
  GstBufferPool parent;
  gint device_id;
  GstVideoInfo info;
  GstHipVideoLayout layout;
} GstHipfDeviceBufferPool;

typedef struct
{
  GstBufferPoolClass parent_class;
} GstHipfDeviceBufferPoolClass;

GType gst_hipf_device_buffer_pool_get_type (void);
G_DEFINE_TYPE (GstHipfDeviceBufferPool, gst_hipf_device_buffer_pool,
    GST_TYPE_BUFFER_POOL);

static const gchar **
pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  return options;
}

static gboolean
pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstHipfDeviceBufferPool *self = (GstHipfDeviceBufferPool *) pool;
  GstCaps *caps = NULL;
  guint size, min, max;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || caps == NULL || !gst_video_info_from_caps (&self->info, caps)) {
    GST_WARNING_OBJECT (pool, "no video caps in config %" GST_PTR_FORMAT,
        config);
    return FALSE;
  }
  gst_hip_video_layout_init (&self->layout, &self->info);
  gst_buffer_pool_config_set_params (config, caps, self->layout.size, min,
      max);
  return GST_BUFFER_POOL_CLASS (gst_hipf_device_buffer_pool_parent_class)
      ->set_config (pool, config);
}

static GstFlowReturn
pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstHipfDeviceBufferPool *self = (GstHipfDeviceBufferPool *) pool;
  const GstHipVideoLayout *layout = &self->layout;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
  GstMemory *mem;
  guint p;

  mem = gst_hipf_device_memory_alloc (self->device_id, layout->size);
  if (mem == NULL)
    return GST_FLOW_ERROR;
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, mem);
  for (p = 0; p < layout->n_planes; p++) {
    offsets[p] = layout->planes[p].offset;
    strides[p] = (gint) layout->planes[p].pitch;
  }
  if (layout->packed) {
    offsets[0] = layout->packed_offset;
    strides[0] = (gint) layout->packed_pitch;
  }
  gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&self->info), GST_VIDEO_INFO_WIDTH (&self->info),
      GST_VIDEO_INFO_HEIGHT (&self->info),
      GST_VIDEO_INFO_N_PLANES (&self->info), offsets, strides);
  return GST_FLOW_OK;
}

static void
gst_hipf_device_buffer_pool_class_init (GstHipfDeviceBufferPoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  pool_class->get_options = pool_get_options;
  pool_class->set_config = pool_set_config;
  pool_class->alloc_buffer = pool_alloc_buffer;
}

static void
gst_hipf_device_buffer_pool_init (GstHipfDeviceBufferPool * self)
{
}

GstBufferPool *
gst_hipf_device_buffer_pool_new (gint device_id)
{
  GstHipfDeviceBufferPool *pool;

  allocator_get ();
  pool = g_object_new (gst_hipf_device_buffer_pool_get_type (), NULL);
  gst_object_ref_sink (pool);
  pool->device_id = device_id;
  return GST_BUFFER_POOL (pool);
}

gboolean
gst_is_hipf_device_buffer_pool (GstBufferPool * pool, gint device_id)
{
  return pool != NULL && G_TYPE_CHECK_INSTANCE_TYPE (pool,
      gst_hipf_device_buffer_pool_get_type ())
      && ((GstHipfDeviceBufferPool *) pool)->device_id == device_id;
}
