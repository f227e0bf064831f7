/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_VIDEO_H__
#define __GST_HIP_VIDEO_H__

#include <gst/video/video.h>
#include "gsthipdevice.h"

G_BEGIN_DECLS

/* The formats of 8 bits a sample, packed or planar: every element takes
 * them. */
#define GST_HIP_VIDEO_FORMATS_8 "GRAY8, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, " \
    "xRGB, xBGR, RGB, BGR, AYUV, I420, YV12, NV12, NV21, Y444, Y42B, " \
    "YUY2, UYVY, YVYU"
#define GST_HIP_VIDEO_FORMATS "{ " GST_HIP_VIDEO_FORMATS_8 " }"
/* And those of 16-bit samples, which hipboxblur takes too. */
#define GST_HIP_VIDEO_FORMATS_16 "GRAY16_LE, P010_10LE, I420_10LE"
#define GST_HIP_VIDEO_FORMATS_ALL "{ " GST_HIP_VIDEO_FORMATS_8 ", " \
    GST_HIP_VIDEO_FORMATS_16 " }"

#define GST_HIP_VIDEO_ROW_ALIGN 16
#define GST_HIP_VIDEO_PLANE_ALIGN 256
#define GST_HIP_VIDEO_SLACK 64

typedef struct
{
  gint width;                   /* pixels */
  gint height;
  gint channels;                /* interleaved samples per pixel */
  gint sample_bytes;            /* 1, or 2 for 16-bit samples */
  gint shift;                   /* low bits below the sample's (P010: 6) */
  guint w_sub, h_sub;           /* log2 of the subsampling */
  gsize offset;                 /* into the packed device copy of the frame */
  gsize pitch;                  /* row bytes rounded up to ROW_ALIGN */
} GstHipPlane;

/* Bytes of a plane's row of samples. */
static inline gsize
gst_hip_plane_row_bytes (const GstHipPlane * plane)
{
  return (gsize) plane->width * plane->channels * plane->sample_bytes;
}

/* A frame as the kernels see it: planes one after the other, rows and
 * planes aligned. */
typedef struct
{
  guint n_planes;
  GstHipPlane planes[GST_VIDEO_MAX_PLANES];
  gint height;                  /* of the frame */
  guint max_h_sub;              /* the most any plane is subsampled down */
  /* Packed 4:2:2 (YUY2, UYVY, YVYU): the planes are those of Y42B, and
   * the frame crosses to and from them through its packed rows, which
   * stage at @packed_offset, @packed_pitch apart. */
  gboolean packed;
  HipfPacked422Order order;
  gsize packed_offset, packed_pitch;
  gsize size;
} GstHipVideoLayout;

void gst_hip_video_layout_init (GstHipVideoLayout * layout,
    const GstVideoInfo * info);
/* Whether every row of every plane the strides describe lies inside the
 * memory mapped for @frame: a video meta may promise more than a buffer
 * holds. */
gboolean gst_hip_video_frame_fits (const GstHipVideoLayout * layout,
    const GstVideoFrame * frame);

/* The rows of plane @plane that frame rows @first to @end (exclusive)
 * cover: those whose first frame row lies there. */
void gst_hip_video_plane_rows (const GstHipVideoLayout * layout,
    guint plane, gint first, gint end, gint * plane_first, gint * plane_end);

/* Frame rows @first to @end (exclusive) of every plane, asynchronous on
 * @stream (NULL: the device's stream), between @frame and the device copy.
 * @frame_on_device: the frame's planes are device memory (CUDA memory,
 * say), their addresses in the frame's data. */
gboolean gst_hip_video_upload (GstHipDevice * dev, hipStream_t stream,
    const GstHipVideoLayout * layout, const GstVideoFrame * frame,
    gboolean frame_on_device, guint8 * device, gint first, gint end);
gboolean gst_hip_video_download (GstHipDevice * dev, hipStream_t stream,
    const GstHipVideoLayout * layout, const guint8 * device,
    GstVideoFrame * frame, gboolean frame_on_device, gint first, gint end);

/* The histogram channels of the format, in the order the elements report
 * them, with the region of interest left unset. */
void gst_hip_video_histogram_init (HipfHistogramFrame * frame,
    const gchar ** names, guint * luma_channel, const GstVideoInfo * info,
    const GstHipVideoLayout * layout);
/* The byte of component @comp in its pixel. GStreamer 1.22's table gives
 * P010's V (P012's, P016's) at byte 1, its offset in samples, though its
 * own unpacking reads V from bytes 2 and 3: an offset that is no whole
 * number of samples is taken in samples. */
gint gst_hip_video_comp_offset (const GstVideoInfo * info, guint comp);
/* How far component @comp's 16-bit word shifts right to bring the ten bits
 * the histogram counts to its bottom (then masked): its own shift for the
 * 10-bit formats, 6 for GRAY16_LE, whose top ten bits count; 0 for 8-bit
 * samples. */
gint gst_hip_video_histogram_shift (const GstVideoInfo * info, guint comp);
/* What a histogram value of 1 stands for in the format's own scale: 64
 * for GRAY16_LE (value v stands for the samples v * 64 to v * 64 + 63, the
 * statistics take it as v * 64), 1 for every other format. */
guint gst_hip_video_histogram_unit (const GstVideoInfo * info);

G_END_DECLS

#endif /* __GST_HIP_VIDEO_H__ */
