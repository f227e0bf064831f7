/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Device handling shared by every element: device choice, one non-blocking
 * stream, persistent device memory, and HIP errors turned into element
 * errors that name the HIP error. No call here aborts; each failure posts an
 * error on the element and returns FALSE.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gsthipdevice.h"

GST_DEBUG_CATEGORY_STATIC (gst_hip_device_debug);
#define GST_CAT_DEFAULT gst_hip_device_debug

static void
init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_hip_device_debug, "hipdevice", 0,
        "HIP device handling");
    g_once_init_leave (&done, 1);
  }
}

/* Posts the error for a failed HIP call; FALSE so callers can return it. */
static gboolean
post_hip_error (GstHipDevice * dev, hipError_t err, const gchar * what)
{
  GST_ELEMENT_ERROR (dev->element, RESOURCE, FAILED,
      ("HIP call %s failed on device %d: %s", what, dev->device_id,
          hipGetErrorString (err)), ("%s (%d)", hipGetErrorName (err),
          (gint) err));
  return FALSE;
}

#define CHECK(dev, call) G_STMT_START {                             \
  hipError_t _err = (call);                                         \
  if (_err != hipSuccess)                                           \
    return post_hip_error ((dev), _err, #call);                     \
} G_STMT_END

gboolean
gst_hip_device_open (GstHipDevice * dev, GstElement * element, gint device_id)
{
  gint count = 0;
  hipError_t err;

  init_debug ();
  memset (dev, 0, sizeof (*dev));
  dev->element = element;
  dev->device_id = device_id;

  err = hipGetDeviceCount (&count);
  if (err != hipSuccess || count == 0) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("No HIP device available: %s", err != hipSuccess ?
            hipGetErrorString (err) : "the runtime reports no device"),
        ("hipGetDeviceCount: %s (%d)", hipGetErrorName (err), (gint) err));
    return FALSE;
  }
  if (device_id < 0) {
    CHECK (dev, hipGetDevice (&dev->device_id));
  } else if (device_id >= count) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("HIP device %d does not exist (%d device(s) found): %s", device_id,
            count, hipGetErrorString (hipErrorInvalidDevice)), (NULL));
    return FALSE;
  }
  CHECK (dev, hipSetDevice (dev->device_id));
  CHECK (dev, hipf_device_limits_query (dev->device_id, &dev->limits));
  CHECK (dev, hipStreamCreateWithFlags (&dev->stream, hipStreamNonBlocking));
  dev->opened = TRUE;
  GST_INFO_OBJECT (element, "using HIP device %d: %d multiprocessors",
      dev->device_id, dev->limits.multiprocessors);
  return TRUE;
}

void
gst_hip_device_close (GstHipDevice * dev)
{
  if (!dev->opened)
    return;
  hipSetDevice (dev->device_id);
  hipStreamSynchronize (dev->stream);
  hipStreamDestroy (dev->stream);
  dev->stream = NULL;
  dev->opened = FALSE;
}

/* The current device is per host thread: streaming threads bind first. */
gboolean
gst_hip_device_bind (GstHipDevice * dev)
{
  CHECK (dev, hipSetDevice (dev->device_id));
  return TRUE;
}

static gboolean
post_alloc_error (GstHipDevice * dev, hipError_t err, gsize size,
    const gchar * kind, const gchar * what)
{
  GST_ELEMENT_ERROR (dev->element, RESOURCE, NO_SPACE_LEFT,
      ("Could not allocate %" G_GSIZE_FORMAT " bytes of %s memory for the %s "
          "on HIP device %d: %s", size, kind, what, dev->device_id,
          hipGetErrorString (err)), ("%s (%d)", hipGetErrorName (err),
          (gint) err));
  return FALSE;
}

gboolean
gst_hip_device_alloc (GstHipDevice * dev, GstHipMemory * mem, gsize size,
    const gchar * what)
{
  hipError_t err;

  if (mem->ptr && mem->size >= size)
    return TRUE;
  gst_hip_device_free (dev, mem);
  err = hipMalloc (&mem->ptr, size);
  if (err != hipSuccess) {
    mem->ptr = NULL;
    return post_alloc_error (dev, err, size, "device", what);
  }
  mem->size = size;
  return TRUE;
}

/* Pinned host memory, so that copies to and from it run asynchronously. */
gboolean
gst_hip_device_alloc_host (GstHipDevice * dev, GstHipMemory * mem, gsize size,
    const gchar * what)
{
  hipError_t err;

  if (mem->ptr && mem->size >= size)
    return TRUE;
  gst_hip_device_free_host (dev, mem);
  err = hipHostMalloc (&mem->ptr, size, hipHostMallocDefault);
  if (err != hipSuccess) {
    mem->ptr = NULL;
    return post_alloc_error (dev, err, size, "pinned host", what);
  }
  mem->size = size;
  return TRUE;
}

void
gst_hip_device_free_host (GstHipDevice * dev, GstHipMemory * mem)
{
  if (mem->ptr)
    hipHostFree (mem->ptr);
  mem->ptr = NULL;
  mem->size = 0;
}

gboolean
gst_hip_device_copy (GstHipDevice * dev, void *dst, const void *src,
    gsize size, hipMemcpyKind kind)
{
  CHECK (dev, hipMemcpyAsync (dst, src, size, kind, dev->stream));
  return TRUE;
}

void
gst_hip_device_free (GstHipDevice * dev, GstHipMemory * mem)
{
  if (mem->ptr) {
    hipSetDevice (dev->device_id);
    hipFree (mem->ptr);
  }
  mem->ptr = NULL;
  mem->size = 0;
}

gboolean
gst_hip_device_copy_2d (GstHipDevice * dev, void *dst, gsize dst_pitch,
    const void *src, gsize src_pitch, gsize row_bytes, gsize rows,
    hipMemcpyKind kind)
{
  CHECK (dev, hipMemcpy2DAsync (dst, dst_pitch, src, src_pitch, row_bytes,
          rows, kind, dev->stream));
  return TRUE;
}

gboolean
gst_hip_device_launched (GstHipDevice * dev, hipError_t err,
    const gchar * kernel)
{
  if (err != hipSuccess)
    return post_hip_error (dev, err, kernel);
  return TRUE;
}

gboolean
gst_hip_device_synchronize (GstHipDevice * dev)
{
  CHECK (dev, hipStreamSynchronize (dev->stream));
  return TRUE;
}
