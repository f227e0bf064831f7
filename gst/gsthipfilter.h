/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIPF_FILTER_H__
#define __GST_HIPF_FILTER_H__

#include <gst/video/gstvideofilter.h>
#include "gsthipdevicememory.h"
#include "gsthipinflight.h"

G_BEGIN_DECLS

#define GST_TYPE_HIPF_FILTER (gst_hipf_filter_get_type ())
#define GST_HIPF_FILTER(obj) \
  (G_TYPE_CHECK_INSTANCE_CAST ((obj), GST_TYPE_HIPF_FILTER, GstHipfFilter))
#define GST_HIPF_FILTER_CLASS(klass) \
  (G_TYPE_CHECK_CLASS_CAST ((klass), GST_TYPE_HIPF_FILTER, \
      GstHipfFilterClass))
#define GST_HIPF_FILTER_GET_CLASS(obj) \
  (G_TYPE_INSTANCE_GET_CLASS ((obj), GST_TYPE_HIPF_FILTER, \
      GstHipfFilterClass))

typedef struct _GstHipfFilter GstHipfFilter;
typedef struct _GstHipfFilterClass GstHipfFilterClass;

/* One frame on its way through the device. Each side is either in system
 * memory, mapped for the host and copied across the link; in device
 * memory of the element's device, read or written in place; or in CUDA
 * memory (memory:CUDAMemory), copied on the device. */
typedef struct
{
  GstBuffer *inbuf;             /* held until the device is done with it */
  /* The input and output where they are copied: mapped for the host, or
   * for CUDA memory the planes' device addresses. */
  GstVideoFrame in_frame;
  GstVideoFrame out_frame;
  gboolean in_host, out_host;   /* mapped for the host */
  gboolean in_cuda, out_cuda;   /* CUDA memory, mapped in in_mem, out_mem */
  /* Device memory copied (or unpacked) rather than used in place: the
   * frame's planes are addressed on the device (CUDA memory, and the
   * plugin's own memory of a packed 4:2:2 format). */
  gboolean in_copy, out_copy;
  gboolean borrowed;            /* frames the caller mapped */
  GstMemory *in_mem, *out_mem;  /* device memory, mapped */
  GstMapInfo in_map, out_map;
  GstHipMemory upload;          /* the input's device copy */
  GstHipMemory output[2];       /* device output of a frame that leaves in
                                 * system memory; [1] for alternate slices */
  /* The frame's input on the device (written by the upload where the
   * input is in system memory), and where slice k's kernels write:
   * dst[k % 2]. */
  guint8 *src;
  guint8 *dst[2];
  /* First rows of the slices uploaded, and of those computed and
   * downloaded (the last one's end after them). */
  gint up[GST_HIP_IN_FLIGHT_MAX_SLICES + 1];
  gint rows[GST_HIP_IN_FLIGHT_MAX_SLICES + 1];
  gboolean compute;             /* the element's kernels run on it */
} GstHipfFrame;

/* Abstract base of the elements: the device and its device-id property,
 * caps in system and device memory, pools, frames in flight, and each
 * frame's way on and off the device. An element adds its properties and
 * its kernels. */
struct _GstHipfFilter
{
  GstVideoFilter parent;

  /* streaming state, for the element's callbacks */
  GstHipDevice device;
  GstHipVideoLayout layout;
  /* the caps' memory: the plugin's own device memory, CUDA memory */
  gboolean in_device, out_device;
  gboolean in_cuda, out_cuda;
  GstHipInFlight in_flight;     /* holds the frames-in-flight property */
  GstHipfFrame frames[GST_HIP_IN_FLIGHT_MAX];

  /*< private > */
  gpointer cuda;                /* GstHipfCuda, where the plugin has it */
  gint device_id;               /* under the object lock */
  gboolean passthrough;         /* what the element asks for */
  GMutex modes_lock;            /* applying passthrough and in-place */
  guint slice_buffers;          /* under the object lock */
  guint64 frames_via_host;      /* under the object lock */
};

struct _GstHipfFilterClass
{
  GstVideoFilterClass parent_class;

  /* The output carries the input's samples (an analyser): the element
   * reads frames in place and the base class only moves them where the
   * output caps' memory differs. */
  gboolean reads_only;

  /* Negotiated: the layout and memory are known, the device bound. The
   * element allocates what its kernels keep. */
  gboolean (*configure) (GstHipfFilter * filter, const GstVideoInfo * info);
  /* Optional: whether frames of the negotiated size may cross the device
   * in slices as the properties stand (each frame then holds a second
   * output frame). */
  gboolean (*may_slice) (GstHipfFilter * filter);
  /* A frame enters slot @index: the element takes the properties it runs
   * with. FALSE: no kernels run on it (it is only moved, or passed on). */
  gboolean (*begin) (GstHipfFilter * filter, guint index);
  /* Optional: the frame's slices (where both sides cross the link), its
   * rows in frames[index].up and .rows. FALSE, with the error posted, if
   * the frame cannot start. */
  gboolean (*slice) (GstHipfFilter * filter, guint index, GstHipSlices * s);
  gboolean (*compute) (GstHipfFilter * filter, guint index, guint slice,
      hipStream_t stream);
  /* Optional: copies the kernels' results back, on the download stream. */
  gboolean (*readback) (GstHipfFilter * filter, guint index,
      hipStream_t stream);
  /* Optional: the frame's results are back; it leaves as @outbuf. */
  void (*finish) (GstHipfFilter * filter, guint index, GstBuffer * outbuf);
  /* Optional: the element stops; free what configure allocated. */
  void (*close) (GstHipfFilter * filter);
};

GType gst_hipf_filter_get_type (void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstHipfFilter, gst_object_unref);

/* Frames pass through untouched where the element asks for it and both
 * pads' caps are in the same memory. */
void gst_hipf_filter_set_passthrough (GstHipfFilter * filter,
    gboolean passthrough);
/* Frames in flight holding a second output frame for their slices. */
guint gst_hipf_filter_slice_buffers (GstHipfFilter * filter);
/* From an element's class_init: its pads take the 16-bit formats too
 * (GST_HIPF_CAPS_ALL), in place of the base class's 8-bit templates. */
void gst_hipf_filter_class_take_16_bit (GstElementClass * element_class);

G_END_DECLS

#endif /* __GST_HIPF_FILTER_H__ */
