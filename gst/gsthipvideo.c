/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frame layout and transfers shared by the elements: each plane of a video
 * frame becomes a tightly packed array of `channels`-sample pixels on the
 * device, whatever the strides of the system-memory frame.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gsthipvideo.h"

void
gst_hip_video_layout_init (GstHipVideoLayout * layout,
    const GstVideoInfo * info)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint p, c;
  gsize offset = 0;

  memset (layout, 0, sizeof (*layout));
  layout->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  for (p = 0; p < layout->n_planes; p++) {
    GstHipPlane *plane = &layout->planes[p];

    /* Any component of the plane gives its size; the pixel stride also
     * covers padding bytes (RGBx), which are blurred like any sample. */
    for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == p)
        break;
    }
    plane->width = GST_VIDEO_INFO_COMP_WIDTH (info, c);
    plane->height = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
    plane->channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, c);
    plane->w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    plane->h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
    plane->pitch = (gsize) plane->width * plane->channels;
    plane->offset = offset;
    offset += plane->pitch * plane->height;
  }
  layout->size = offset;
}

gboolean
gst_hip_video_upload (GstHipDevice * dev, const GstHipVideoLayout * layout,
    const GstVideoFrame * frame, guint8 * device)
{
  guint p;

  for (p = 0; p < layout->n_planes; p++) {
    const GstHipPlane *plane = &layout->planes[p];

    if (!gst_hip_device_copy_2d (dev, device + plane->offset, plane->pitch,
            GST_VIDEO_FRAME_PLANE_DATA (frame, p),
            GST_VIDEO_FRAME_PLANE_STRIDE (frame, p), plane->pitch,
            plane->height, hipMemcpyHostToDevice))
      return FALSE;
  }
  return TRUE;
}

gboolean
gst_hip_video_download (GstHipDevice * dev, const GstHipVideoLayout * layout,
    const guint8 * device, GstVideoFrame * frame)
{
  guint p;

  for (p = 0; p < layout->n_planes; p++) {
    const GstHipPlane *plane = &layout->planes[p];

    if (!gst_hip_device_copy_2d (dev, GST_VIDEO_FRAME_PLANE_DATA (frame, p),
            GST_VIDEO_FRAME_PLANE_STRIDE (frame, p), device + plane->offset,
            plane->pitch, plane->pitch, plane->height, hipMemcpyDeviceToHost))
      return FALSE;
  }
  return TRUE;
}
