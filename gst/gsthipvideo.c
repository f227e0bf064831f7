/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frame layout and transfers shared by the elements: each plane of a video
 * frame becomes a tightly packed array of `channels`-sample pixels (8- or
 * 16-bit samples) on the device, whatever the strides of the
 * system-memory frame.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gsthipvideo.h"

/* Y42B's planes for a packed 4:2:2 frame, and where its packed rows stage. */
static gboolean
packed_layout_init (GstHipVideoLayout * layout, const GstVideoInfo * info)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint pairs = (w + 1) / 2;
  gsize offset = 0;
  guint p;

  switch (GST_VIDEO_INFO_FORMAT (info)) {
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_UYVY:
    case GST_VIDEO_FORMAT_YVYU:
      break;
    default:
      return FALSE;
  }
  layout->packed = TRUE;
  layout->order.y0 = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_Y);
  layout->order.y1 = layout->order.y0 + 2;
  layout->order.u = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_U);
  layout->order.v = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_V);
  layout->n_planes = 3;
  for (p = 0; p < 3; p++) {
    GstHipPlane *plane = &layout->planes[p];

    plane->width = p == 0 ? w : pairs;
    plane->height = h;
    plane->channels = 1;
    plane->sample_bytes = 1;
    plane->w_sub = p == 0 ? 0 : 1;
    plane->h_sub = 0;
    plane->pitch = GST_ROUND_UP_N ((gsize) plane->width,
        GST_HIP_VIDEO_ROW_ALIGN);
    plane->offset = offset;
    offset = GST_ROUND_UP_N (offset + plane->pitch * plane->height,
        GST_HIP_VIDEO_PLANE_ALIGN);
  }
  layout->packed_offset = offset;
  layout->packed_pitch = GST_ROUND_UP_N ((gsize) pairs * 4,
      GST_HIP_VIDEO_ROW_ALIGN);
  layout->height = h;
  layout->size = offset + layout->packed_pitch * h + GST_HIP_VIDEO_SLACK;
  return TRUE;
}

void
gst_hip_video_layout_init (GstHipVideoLayout * layout,
    const GstVideoInfo * info)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint p, c;
  gsize offset = 0;

  memset (layout, 0, sizeof (*layout));
  if (packed_layout_init (layout, info))
    return;
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
    plane->sample_bytes = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) > 8 ? 2 : 1;
    plane->shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
    plane->channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, c) /
        plane->sample_bytes;
    plane->w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    plane->h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
    /* Rows and planes aligned for the kernels' 16-byte accesses. */
    plane->pitch = GST_ROUND_UP_N (gst_hip_plane_row_bytes (plane),
        GST_HIP_VIDEO_ROW_ALIGN);
    plane->offset = offset;
    offset = GST_ROUND_UP_N (offset + plane->pitch * plane->height,
        GST_HIP_VIDEO_PLANE_ALIGN);
  }
  layout->height = GST_VIDEO_INFO_HEIGHT (info);
  for (p = 0; p < layout->n_planes; p++)
    layout->max_h_sub = MAX (layout->max_h_sub, layout->planes[p].h_sub);
  /* Kernels may read a little past the last row of the last plane. */
  layout->size = offset + GST_HIP_VIDEO_SLACK;
}

gboolean
gst_hip_video_frame_fits (const GstHipVideoLayout * layout,
    const GstVideoFrame * frame)
{
  guint p;

  if (layout->packed) {
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
    gsize row = (gsize) layout->planes[1].width * 4;

    return stride >= 0 && (gsize) stride >= row && data >= frame->map[0].data
        && (guint64) (data - frame->map[0].data) + (guint64) stride *
        (layout->height - 1) + row <= frame->map[0].size;
  }
  for (p = 0; p < layout->n_planes; p++) {
    const GstHipPlane *plane = &layout->planes[p];
    /* Without a video meta every plane lies in the first mapping. */
    const GstMapInfo *map = frame->meta ? &frame->map[p] : &frame->map[0];
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    gsize row = gst_hip_plane_row_bytes (plane);
    guint64 end;

    if (stride < 0 || (gsize) stride < row || data < map->data)
      return FALSE;
    end = (guint64) (data - map->data) + (guint64) stride * (plane->height -
        1) + row;
    if (end > map->size)
      return FALSE;
  }
  return TRUE;
}

void
gst_hip_video_plane_rows (const GstHipVideoLayout * layout, guint plane,
    gint first, gint end, gint * plane_first, gint * plane_end)
{
  guint s = layout->planes[plane].h_sub;

  /* A plane row belongs to the slice its first frame row lies in. */
  *plane_first = GST_VIDEO_SUB_SCALE (s, first);
  *plane_end = GST_VIDEO_SUB_SCALE (s, end);
}

/* Rows @first to @end of the frame's planes, into the device copy or out
 * of it. */
static gboolean
copy_rows (GstHipDevice * dev, hipStream_t stream,
    const GstHipVideoLayout * layout, guint8 * device, GstVideoFrame * frame,
    gint first, gint end, gboolean in, hipMemcpyKind kind)
{
  guint p;

  for (p = 0; p < layout->n_planes; p++) {
    const GstHipPlane *plane = &layout->planes[p];
    gsize stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    guint8 *host = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    guint8 *dev_rows;
    gint a, b;

    gst_hip_video_plane_rows (layout, p, first, end, &a, &b);
    if (a >= b)
      continue;
    host += stride * a;
    dev_rows = device + plane->offset + plane->pitch * a;
    if (!(in ?
            gst_hip_device_copy_2d (dev, stream, dev_rows, plane->pitch, host,
                stride, gst_hip_plane_row_bytes (plane), b - a, kind) :
            gst_hip_device_copy_2d (dev, stream, host, stride, dev_rows,
                plane->pitch, gst_hip_plane_row_bytes (plane), b - a,
                kind)))
      return FALSE;
  }
  return TRUE;
}

/* A packed 4:2:2 frame whose packed rows lie at @packed, @pitch apart, and
 * the planes of the device copy at @device. */
static void
packed_frame (const GstHipVideoLayout * layout, guint8 * device,
    guint8 * packed, gsize pitch, HipfPacked422Frame * f)
{
  guint p;

  f->order = layout->order;
  f->width = layout->planes[0].width;
  f->height = layout->height;
  f->packed_src = f->packed_dst = packed;
  f->packed_pitch = pitch;
  for (p = 0; p < 3; p++) {
    f->planes[p] = device + layout->planes[p].offset;
    f->pitches[p] = layout->planes[p].pitch;
  }
}

/* Rows @first to @end of a packed frame: to the device's staging rows
 * first where the frame is in host memory, then unpacked into the planes;
 * or the other way. */
static gboolean
copy_packed (GstHipDevice * dev, hipStream_t stream,
    const GstHipVideoLayout * layout, guint8 * device, GstVideoFrame * frame,
    gboolean frame_on_device, gint first, gint end, gboolean in)
{
  guint8 *rows = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  gsize stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  gsize row_bytes = (gsize) layout->planes[1].width * 4;
  guint8 *staging = device + layout->packed_offset;
  HipfPacked422Frame f;

  if (first >= end)
    return TRUE;
  if (frame_on_device)
    packed_frame (layout, device, rows, stride, &f);
  else
    packed_frame (layout, device, staging, layout->packed_pitch, &f);
  if (in) {
    return (frame_on_device || gst_hip_device_copy_2d (dev, stream,
            staging + layout->packed_pitch * first, layout->packed_pitch,
            rows + stride * first, stride, row_bytes, end - first,
            hipMemcpyHostToDevice))
        && gst_hip_device_launched (dev,
        hipf_unpack_422 (&f, first, end, stream), "hipf_unpack_422");
  }
  return gst_hip_device_launched (dev, hipf_pack_422 (&f, first, end, stream),
      "hipf_pack_422")
      && (frame_on_device || gst_hip_device_copy_2d (dev, stream,
          rows + stride * first, stride,
          staging + layout->packed_pitch * first, layout->packed_pitch,
          row_bytes, end - first, hipMemcpyDeviceToHost));
}

gboolean
gst_hip_video_upload (GstHipDevice * dev, hipStream_t stream,
    const GstHipVideoLayout * layout, const GstVideoFrame * frame,
    gboolean frame_on_device, guint8 * device, gint first, gint end)
{
  if (layout->packed)
    return copy_packed (dev, stream, layout, device, (GstVideoFrame *) frame,
        frame_on_device, first, end, TRUE);
  return copy_rows (dev, stream, layout, device, (GstVideoFrame *) frame,
      first, end, TRUE, frame_on_device ? hipMemcpyDeviceToDevice :
      hipMemcpyHostToDevice);
}

gboolean
gst_hip_video_download (GstHipDevice * dev, hipStream_t stream,
    const GstHipVideoLayout * layout, const guint8 * device,
    GstVideoFrame * frame, gboolean frame_on_device, gint first, gint end)
{
  if (layout->packed)
    return copy_packed (dev, stream, layout, (guint8 *) device, frame,
        frame_on_device, first, end, FALSE);
  return copy_rows (dev, stream, layout, (guint8 *) device, frame, first, end,
      FALSE, frame_on_device ? hipMemcpyDeviceToDevice :
      hipMemcpyDeviceToHost);
}

/* Adds a channel fed by component @comp to its plane's taps. */
static void
add_tap (HipfHistogramFrame * f, const gchar ** names,
    const GstVideoInfo * info, guint comp, const gchar * name)
{
  HipfHistogramPlane *pl = &f->planes[GST_VIDEO_INFO_COMP_PLANE (info, comp)];

  pl->tap_offset[pl->n_taps] = gst_hip_video_comp_offset (info, comp);
  pl->tap_channel[pl->n_taps] = f->n_channels;
  pl->sample_shift = gst_hip_video_histogram_shift (info, comp);
  pl->n_taps++;
  names[f->n_channels++] = name;
}

gint
gst_hip_video_comp_offset (const GstVideoInfo * info, guint comp)
{
  gint offset = GST_VIDEO_INFO_COMP_POFFSET (info, comp);
  gint sample_bytes = GST_VIDEO_INFO_COMP_DEPTH (info, comp) > 8 ? 2 : 1;

  return offset % sample_bytes ? offset * sample_bytes : offset;
}

gint
gst_hip_video_histogram_shift (const GstVideoInfo * info, guint comp)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, comp);

  if (depth <= 8)
    return 0;
  return GST_VIDEO_FORMAT_INFO_SHIFT (finfo, comp) + depth - 10;
}

guint
gst_hip_video_histogram_unit (const GstVideoInfo * info)
{
  gint depth = GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, 0);

  return depth > 10 ? 1u << (depth - 10) : 1;
}

void
gst_hip_video_histogram_init (HipfHistogramFrame * f, const gchar ** names,
    guint * luma_channel, const GstVideoInfo * info,
    const GstHipVideoLayout * layout)
{
  guint p;

  memset (f, 0, sizeof (*f));
  f->n_planes = layout->n_planes;
  /* Every plane of a format has samples of one size. */
  f->sample_bytes = layout->planes[0].sample_bytes;
  for (p = 0; p < layout->n_planes; p++) {
    f->planes[p].offset = layout->planes[p].offset;
    f->planes[p].pitch = layout->planes[p].pitch;
    f->planes[p].width = layout->planes[p].width;
    f->planes[p].height = layout->planes[p].height;
    f->planes[p].pixel_stride = layout->planes[p].channels *
        layout->planes[p].sample_bytes;
    f->planes[p].luma_channel = -1;
  }

  if (layout->packed) {
    /* Y42B's planes: luma, u, v, a sample a pixel each. */
    static const gchar *packed_names[] = { "luma", "u", "v" };

    for (p = 0; p < 3; p++) {
      HipfHistogramPlane *pl = &f->planes[p];

      pl->tap_offset[0] = 0;
      pl->tap_channel[0] = f->n_channels;
      pl->n_taps = 1;
      names[f->n_channels++] = packed_names[p];
    }
    *luma_channel = 0;
  } else if (GST_VIDEO_INFO_IS_RGB (info)) {
    HipfHistogramPlane *pl = &f->planes[0];

    add_tap (f, names, info, GST_VIDEO_COMP_R, "red");
    add_tap (f, names, info, GST_VIDEO_COMP_G, "green");
    add_tap (f, names, info, GST_VIDEO_COMP_B, "blue");
    if (GST_VIDEO_INFO_HAS_ALPHA (info))
      add_tap (f, names, info, GST_VIDEO_COMP_A, "alpha");
    pl->luma_channel = f->n_channels;
    pl->rgb_offset[0] = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_R);
    pl->rgb_offset[1] = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_G);
    pl->rgb_offset[2] = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_B);
    *luma_channel = f->n_channels;
    names[f->n_channels++] = "luma";
  } else {
    *luma_channel = 0;
    add_tap (f, names, info, GST_VIDEO_COMP_Y, "luma");
    if (GST_VIDEO_INFO_IS_YUV (info)) {
      add_tap (f, names, info, GST_VIDEO_COMP_U, "u");
      add_tap (f, names, info, GST_VIDEO_COMP_V, "v");
    }
  }
}
