/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Device handling shared by every element: device choice, one non-blocking
 * stream, persistent device memory, and HIP errors turned into element
 * errors that name the HIP error. No call here aborts; each failure posts an
 * error on the element and returns FALSE.
 *
 * Failure injection (a test hook, not a feature): when the environment
 * variable GST_HIP_FAIL is set as gst_hip_device_open() runs, e.g.
 *
 *   GST_HIP_FAIL=alloc:1            the first device allocation fails
 *   GST_HIP_FAIL=copy:2,launch:3    the 2nd copy and the 3rd launch fail
 *
 * its entries OP:N make the Nth call of kind OP that this device makes
 * (counted from 1, from the open) fail as if the HIP runtime had returned an
 * error: hipErrorOutOfMemory for alloc, hipErrorLaunchFailure for the
 * others. The failure takes the path a real one takes (element error naming
 * the call and hipGetErrorString() of the error, FALSE returned); the
 * element error's debug string says that it was injected, and each injection
 * is logged as a GST_WARNING. The kinds:
 *   alloc   gst_hip_device_alloc(), gst_hip_device_alloc_host(), counting
 *           only the calls that allocate (one that can keep its memory
 *           cannot fail and does not count)
 *   copy    gst_hip_device_copy(), gst_hip_device_copy_2d(); the copy is
 *           not made
 *   launch  gst_hip_device_launched(), i.e. every kernel launch reported
 *   sync    gst_hip_device_synchronize(), gst_hip_device_event_wait(); the
 *           wait still happens
 * At most GST_HIP_FAIL_MAX_RULES entries; malformed ones are ignored with a
 * warning. The variable is read at each open, so a test can set it before
 * starting an element and unset it afterwards. Unset, each counted call
 * costs one predictable branch.
 *
 * A device slower than its source (a test hook too): with GST_HIP_BUSY set
 * (not empty) as gst_hip_device_open() runs, gst_hip_device_event_done()
 * never reports work done, so that frames in flight leave only when their
 * element must wait for them, as they would behind a device always busy.
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

/* ---- failure injection (GST_HIP_FAIL) ---------------------------------- */

static const gchar *const op_names[GST_HIP_N_OPS] = {
  "alloc", "copy", "launch", "sync",
};

/* Reads GST_HIP_FAIL into dev->faults, which the caller has zeroed. */
static void
faults_parse (GstHipDevice * dev)
{
  GstHipFaults *f = &dev->faults;
  const gchar *env = g_getenv ("GST_HIP_FAIL");
  gchar **entries;
  guint i;

  if (env == NULL || *env == '\0')
    return;
  entries = g_strsplit (env, ",", -1);
  for (i = 0; entries[i]; i++) {
    gchar *entry = g_strstrip (entries[i]);
    gchar **parts = g_strsplit (entry, ":", 2);
    gchar *end = NULL;
    guint64 call = 0;
    gint op = -1, o;

    if (*entry == '\0') {
      g_strfreev (parts);
      continue;
    }
    if (parts[0] && parts[1]) {
      gchar *number = g_strstrip (parts[1]);

      for (o = 0; o < GST_HIP_N_OPS; o++)
        if (g_ascii_strcasecmp (g_strstrip (parts[0]), op_names[o]) == 0)
          op = o;
      call = g_ascii_strtoull (number, &end, 10);
      if (end == number || *end != '\0' || *number == '-')
        call = 0;
    }
    g_strfreev (parts);
    if (op < 0 || call == 0) {
      GST_WARNING_OBJECT (dev->element, "GST_HIP_FAIL: ignoring '%s' (want "
          "OP:N, OP one of alloc, copy, launch, sync, N >= 1)", entry);
      continue;
    }
    if (f->n_rules == GST_HIP_FAIL_MAX_RULES) {
      GST_WARNING_OBJECT (dev->element, "GST_HIP_FAIL: ignoring '%s': more "
          "than %d entries", entry, GST_HIP_FAIL_MAX_RULES);
      continue;
    }
    f->rules[f->n_rules].op = op;
    f->rules[f->n_rules].call = call;
    f->n_rules++;
    GST_WARNING_OBJECT (dev->element, "GST_HIP_FAIL: call %" G_GUINT64_FORMAT
        " of kind %s will fail", call, op_names[op]);
  }
  g_strfreev (entries);
}

static hipError_t
fault_error (GstHipOp op)
{
  return op == GST_HIP_OP_ALLOC ? hipErrorOutOfMemory : hipErrorLaunchFailure;
}

/* Counts a call of kind @op; TRUE when GST_HIP_FAIL asks it to fail. */
static gboolean
fault_hit (GstHipDevice * dev, GstHipOp op)
{
  GstHipFaults *f = &dev->faults;
  guint64 n = ++f->calls[op];
  guint i;

  for (i = 0; i < f->n_rules; i++) {
    if (f->rules[i].op == op && f->rules[i].call == n) {
      GST_WARNING_OBJECT (dev->element, "GST_HIP_FAIL: injecting %s into %s "
          "call %" G_GUINT64_FORMAT " on HIP device %d",
          hipGetErrorName (fault_error (op)), op_names[op], n, dev->device_id);
      return TRUE;
    }
  }
  return FALSE;
}

/* Evaluates to TRUE when this call is to fail; counts it only while
 * injection is on, so that unset it is one well predicted branch. */
#define FAULT(dev, op) \
  (G_UNLIKELY ((dev)->faults.n_rules != 0) && fault_hit ((dev), (op)))

/* ---- errors ------------------------------------------------------------ */

/* The runtime keeps the last error of each host thread until it is read,
 * and the kernels' launch wrappers return hipGetLastError(): an error
 * reported here is consumed, so that it cannot resurface as the result of a
 * later, successful launch on this thread (e.g. the first frame after a
 * failed allocation). A sticky error still fails the calls that follow. */
static void
clear_last_error (void)
{
  (void) hipGetLastError ();
}

/* Posts the error for a failed HIP call; FALSE so callers can return it. */
static gboolean
post_error (GstHipDevice * dev, hipError_t err, const gchar * what,
    gboolean injected)
{
  clear_last_error ();
  GST_ELEMENT_ERROR (dev->element, RESOURCE, FAILED,
      ("HIP call %s failed on device %d: %s", what, dev->device_id,
          hipGetErrorString (err)), ("%s (%d)%s", hipGetErrorName (err),
          (gint) err, injected ? ", injected by GST_HIP_FAIL" : ""));
  return FALSE;
}

static gboolean
post_hip_error (GstHipDevice * dev, hipError_t err, const gchar * what)
{
  return post_error (dev, err, what, FALSE);
}

#define CHECK(dev, call) G_STMT_START {                             \
  hipError_t _err = (call);                                         \
  if (_err != hipSuccess)                                           \
    return post_hip_error ((dev), _err, #call);                     \
} G_STMT_END

/* CHECK for a call of a kind GST_HIP_FAIL can fail: an injected failure
 * skips the call. */
#define CHECK_OP(dev, op, call) G_STMT_START {                      \
  gboolean _injected = FAULT ((dev), (op));                         \
  hipError_t _err = _injected ? fault_error (op) : (call);          \
  if (_err != hipSuccess)                                           \
    return post_error ((dev), _err, #call, _injected);              \
} G_STMT_END

static gboolean
open_stream (GstHipDevice * dev)
{
  CHECK (dev, hipSetDevice (dev->device_id));
  CHECK (dev, hipf_device_limits_query (dev->device_id, &dev->limits));
  CHECK (dev, hipStreamCreateWithFlags (&dev->stream, hipStreamNonBlocking));
  return TRUE;
}

gboolean
gst_hip_device_open (GstHipDevice * dev, GstElement * element, gint device_id)
{
  const gchar *busy;
  gint count = 0;
  hipError_t err;

  init_debug ();
  memset (dev, 0, sizeof (*dev));
  dev->element = element;
  dev->device_id = device_id;
  faults_parse (dev);
  busy = g_getenv ("GST_HIP_BUSY");
  dev->faults.busy = busy != NULL && *busy != '\0';
  if (dev->faults.busy)
    GST_WARNING_OBJECT (element, "GST_HIP_BUSY: work is never reported done "
        "without a wait");

  err = hipGetDeviceCount (&count);
  if (err != hipSuccess || count == 0) {
    clear_last_error ();
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("No HIP device available: %s", err != hipSuccess ?
            hipGetErrorString (err) : "the runtime reports no device"),
        ("hipGetDeviceCount: %s (%d)", hipGetErrorName (err), (gint) err));
    return FALSE;
  }
  /* -1 is the device the application has current on this thread, which
   * the elements hand back after using the thread (release). */
  CHECK (dev, hipGetDevice (&dev->caller_device));
  if (device_id < 0) {
    dev->device_id = dev->caller_device;
  } else if (device_id >= count) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("HIP device %d does not exist (%d device(s) found): %s", device_id,
            count, hipGetErrorString (hipErrorInvalidDevice)), (NULL));
    return FALSE;
  }
  if (!open_stream (dev)) {
    gst_hip_device_release (dev);
    return FALSE;
  }
  dev->opened = TRUE;
  GST_INFO_OBJECT (element, "using HIP device %d: %d multiprocessors",
      dev->device_id, dev->limits.multiprocessors);
  return TRUE;
}

/* Makes @dev current on this thread and returns the device that was, for
 * calls made from threads that are not the element's own. */
gint
gst_hip_device_enter (GstHipDevice * dev)
{
  gint prev = dev->device_id;

  if (hipGetDevice (&prev) != hipSuccess)
    prev = dev->device_id;
  hipSetDevice (dev->device_id);
  return prev;
}

/* Makes @prev, what gst_hip_device_enter() returned, current again. */
void
gst_hip_device_leave (gint prev)
{
  hipSetDevice (prev);
}

void
gst_hip_device_close (GstHipDevice * dev)
{
  gint prev;

  if (!dev->opened)
    return;
  prev = gst_hip_device_enter (dev);
  hipStreamSynchronize (dev->stream);
  hipStreamDestroy (dev->stream);
  dev->stream = NULL;
  dev->opened = FALSE;
  gst_hip_device_leave (prev);
}

/* The current device is per host thread: streaming threads bind first. */
gboolean
gst_hip_device_bind (GstHipDevice * dev)
{
  CHECK (dev, hipSetDevice (dev->device_id));
  return TRUE;
}

/* Gives the thread that opened @dev back the device it had current, so
 * that an element on another device, or the application's own HIP calls,
 * find it unchanged. */
void
gst_hip_device_release (GstHipDevice * dev)
{
  hipSetDevice (dev->caller_device);
}

static gboolean
post_alloc_error (GstHipDevice * dev, hipError_t err, gsize size,
    const gchar * kind, const gchar * what, gboolean injected)
{
  clear_last_error ();
  GST_ELEMENT_ERROR (dev->element, RESOURCE, NO_SPACE_LEFT,
      ("Could not allocate %" G_GSIZE_FORMAT " bytes of %s memory for the %s "
          "on HIP device %d: %s", size, kind, what, dev->device_id,
          hipGetErrorString (err)), ("%s (%d)%s", hipGetErrorName (err),
          (gint) err, injected ? ", injected by GST_HIP_FAIL" : ""));
  return FALSE;
}

gboolean
gst_hip_device_alloc (GstHipDevice * dev, GstHipMemory * mem, gsize size,
    const gchar * what)
{
  gboolean injected;
  hipError_t err;

  if (mem->ptr && mem->size >= size)
    return TRUE;
  gst_hip_device_free (dev, mem);
  injected = FAULT (dev, GST_HIP_OP_ALLOC);
  err = injected ? fault_error (GST_HIP_OP_ALLOC) : hipMalloc (&mem->ptr, size);
  if (err != hipSuccess) {
    mem->ptr = NULL;
    return post_alloc_error (dev, err, size, "device", what, injected);
  }
  mem->size = size;
  GST_DEBUG_OBJECT (dev->element, "%" G_GSIZE_FORMAT " bytes of device "
      "memory for the %s", size, what);
  /* Zeroed once, and finished before any stream uses it: kernels read whole
   * 16-byte groups, including row padding that no upload writes. */
  CHECK (dev, hipMemsetAsync (mem->ptr, 0, size, dev->stream));
  CHECK (dev, hipStreamSynchronize (dev->stream));
  return TRUE;
}

/* Pinned host memory, so that copies to and from it run asynchronously. */
gboolean
gst_hip_device_alloc_host (GstHipDevice * dev, GstHipMemory * mem, gsize size,
    const gchar * what)
{
  gboolean injected;
  hipError_t err;

  if (mem->ptr && mem->size >= size)
    return TRUE;
  gst_hip_device_free_host (dev, mem);
  injected = FAULT (dev, GST_HIP_OP_ALLOC);
  err = injected ? fault_error (GST_HIP_OP_ALLOC) :
      hipHostMalloc (&mem->ptr, size, hipHostMallocDefault);
  if (err != hipSuccess) {
    mem->ptr = NULL;
    return post_alloc_error (dev, err, size, "pinned host", what, injected);
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
  CHECK_OP (dev, GST_HIP_OP_COPY, hipMemcpyAsync (dst, src, size, kind,
          dev->stream));
  return TRUE;
}

void
gst_hip_device_free (GstHipDevice * dev, GstHipMemory * mem)
{
  if (mem->ptr) {
    gint prev = gst_hip_device_enter (dev);

    hipFree (mem->ptr);
    gst_hip_device_leave (prev);
  }
  mem->ptr = NULL;
  mem->size = 0;
}

gboolean
gst_hip_device_copy_2d (GstHipDevice * dev, hipStream_t stream, void *dst,
    gsize dst_pitch, const void *src, gsize src_pitch, gsize row_bytes,
    gsize rows, hipMemcpyKind kind)
{
  CHECK_OP (dev, GST_HIP_OP_COPY, hipMemcpy2DAsync (dst, dst_pitch, src,
          src_pitch, row_bytes, rows, kind, stream ? stream : dev->stream));
  return TRUE;
}

gboolean
gst_hip_device_check (GstHipDevice * dev, hipError_t err, const gchar * call)
{
  if (err != hipSuccess)
    return post_hip_error (dev, err, call);
  return TRUE;
}

gboolean
gst_hip_device_launched (GstHipDevice * dev, hipError_t err,
    const gchar * kernel)
{
  /* The kernel was enqueued: an injected failure only reports it failed. */
  gboolean injected = FAULT (dev, GST_HIP_OP_LAUNCH) && err == hipSuccess;

  if (injected)
    err = fault_error (GST_HIP_OP_LAUNCH);
  if (err != hipSuccess)
    return post_error (dev, err, kernel, injected);
  return TRUE;
}

gboolean
gst_hip_device_synchronize (GstHipDevice * dev)
{
  /* Synchronized even when failing on purpose: the caller may free or hand
   * on host memory that copies on the stream still write. */
  gboolean injected = FAULT (dev, GST_HIP_OP_SYNC);
  hipError_t err = hipStreamSynchronize (dev->stream);

  if (injected && err == hipSuccess)
    err = fault_error (GST_HIP_OP_SYNC);
  else
    injected = FALSE;
  if (err != hipSuccess)
    return post_error (dev, err, "hipStreamSynchronize (dev->stream)",
        injected);
  return TRUE;
}

/* ---- streams and events, for work that overlaps ---------------------- */

gboolean
gst_hip_device_stream_new (GstHipDevice * dev, hipStream_t * stream)
{
  CHECK (dev, hipStreamCreateWithFlags (stream, hipStreamNonBlocking));
  return TRUE;
}

void
gst_hip_device_stream_free (GstHipDevice * dev, hipStream_t stream)
{
  if (stream) {
    hipStreamSynchronize (stream);
    hipStreamDestroy (stream);
  }
}

/* Events only order and signal work: timing them costs. */
gboolean
gst_hip_device_event_new (GstHipDevice * dev, hipEvent_t * event)
{
  CHECK (dev, hipEventCreateWithFlags (event, hipEventDisableTiming));
  return TRUE;
}

/* A thread that only waits should not take a core while it does; the
 * streaming thread's own waits keep spinning, which returns sooner. */
gboolean
gst_hip_device_event_new_sleeping (GstHipDevice * dev, hipEvent_t * event)
{
  CHECK (dev, hipEventCreateWithFlags (event,
          hipEventDisableTiming | hipEventBlockingSync));
  return TRUE;
}

void
gst_hip_device_event_free (GstHipDevice * dev, hipEvent_t event)
{
  if (event)
    hipEventDestroy (event);
}

gboolean
gst_hip_device_record (GstHipDevice * dev, hipEvent_t event,
    hipStream_t stream)
{
  CHECK (dev, hipEventRecord (event, stream));
  return TRUE;
}

/* Without waiting: an error reads as done, so that the wait that follows
 * reports it at once (GST_HIP_FAIL cannot inject one here; the wait's own
 * failures are injected as sync). */
gboolean
gst_hip_device_event_done (GstHipDevice * dev, hipEvent_t event)
{
  if (dev->faults.busy)
    return FALSE;
  if (hipEventQuery (event) != hipErrorNotReady)
    return TRUE;
  /* ROCm keeps "not ready" as the thread's last error. */
  clear_last_error ();
  return FALSE;
}

gboolean
gst_hip_device_event_wait (GstHipDevice * dev, hipEvent_t event)
{
  gboolean injected = FAULT (dev, GST_HIP_OP_SYNC);
  hipError_t err = hipEventSynchronize (event);

  if (injected && err == hipSuccess)
    err = fault_error (GST_HIP_OP_SYNC);
  else
    injected = FALSE;
  if (err != hipSuccess)
    return post_error (dev, err, "hipEventSynchronize", injected);
  return TRUE;
}

void
gst_hip_device_event_sleep (hipEvent_t event)
{
  if (hipEventSynchronize (event) != hipSuccess)
    clear_last_error ();
}

gboolean
gst_hip_device_stream_wait (GstHipDevice * dev, hipStream_t stream,
    hipEvent_t event)
{
  CHECK (dev, hipStreamWaitEvent (stream, event, 0));
  return TRUE;
}
