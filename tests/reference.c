/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "reference.h"

const gchar *const ref_border_nicks[REF_N_BORDERS] = {
  "zero", "clamp", "mirror", "wrap", "valid",
};

gint
ref_border_index (gint i, gint n, RefBorder mode)
{
  if (i >= 0 && i < n)
    return i;
  switch (mode) {
    case REF_BORDER_CLAMP:
      return i < 0 ? 0 : n - 1;
    case REF_BORDER_WRAP:
      return ((i % n) + n) % n;
    case REF_BORDER_MIRROR:
      if (n == 1)
        return 0;
      /* Reflect about the edge samples until inside, as often as needed. */
      while (i < 0 || i >= n) {
        if (i < 0)
          i = -i;
        if (i >= n)
          i = 2 * (n - 1) - i;
      }
      return i;
    default:
      return -1;
  }
}

static guint8
rounded_mean (guint64 sum, guint64 n)
{
  return (guint8) ((sum + n / 2) / n);
}

void
ref_box_blur_plane_direct (const RefPlane * src, const RefPlane * dst,
    gint rx, gint ry, RefBorder mode)
{
  gint x, y, c, dx, dy;

  for (y = 0; y < src->height; y++) {
    for (x = 0; x < src->width; x++) {
      for (c = 0; c < src->channels; c++) {
        guint64 sum = 0, n = 0;

        for (dy = -ry; dy <= ry; dy++) {
          for (dx = -rx; dx <= rx; dx++) {
            gint sy = ref_border_index (y + dy, src->height, mode);
            gint sx = ref_border_index (x + dx, src->width, mode);

            if (sx >= 0 && sy >= 0)
              sum += src->data[sy * src->stride + sx * src->channels + c];
            if (mode != REF_BORDER_VALID || (sx >= 0 && sy >= 0))
              n++;
          }
        }
        dst->data[y * dst->stride + x * dst->channels + c] =
            rounded_mean (sum, n);
      }
    }
  }
}

void
ref_box_blur_plane (const RefPlane * src, const RefPlane * dst, gint rx,
    gint ry, RefBorder mode)
{
  const gint w = src->width, h = src->height, ch = src->channels;
  guint64 *rows = g_new0 (guint64, (gsize) w * h * ch);
  guint *count_x = g_new0 (guint, w);
  gint x, y, c, d;

  /* Horizontal window sums of every row. */
  for (x = 0; x < w; x++)
    for (d = -rx; d <= rx; d++)
      if (mode != REF_BORDER_VALID || ref_border_index (x + d, w, mode) >= 0)
        count_x[x]++;
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      guint64 *sum = &rows[((gsize) y * w + x) * ch];

      for (d = -rx; d <= rx; d++) {
        gint sx = ref_border_index (x + d, w, mode);
        if (sx >= 0)
          for (c = 0; c < ch; c++)
            sum[c] += src->data[y * src->stride + sx * ch + c];
      }
    }
  }
  /* Vertical sums of those, which cover the whole window. */
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      for (c = 0; c < ch; c++) {
        guint64 sum = 0, count_y = 0;

        for (d = -ry; d <= ry; d++) {
          gint sy = ref_border_index (y + d, h, mode);
          if (mode != REF_BORDER_VALID || sy >= 0)
            count_y++;
          if (sy >= 0)
            sum += rows[((gsize) sy * w + x) * ch + c];
        }
        dst->data[y * dst->stride + x * ch + c] =
            rounded_mean (sum, count_x[x] * count_y);
      }
    }
  }
  g_free (rows);
  g_free (count_x);
}

void
ref_plane_from_frame (const GstVideoFrame * frame, guint p, RefPlane * plane,
    guint * w_sub, guint * h_sub)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint c;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (frame); c++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == p)
      break;
  plane->data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
  plane->stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
  plane->width = GST_VIDEO_FRAME_COMP_WIDTH (frame, c);
  plane->height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, c);
  plane->channels = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c);
  if (w_sub)
    *w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
  if (h_sub)
    *h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
}

void
ref_box_blur_frame (const GstVideoFrame * in, GstVideoFrame * out, gint rx,
    gint ry, RefBorder mode)
{
  guint p;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (in); p++) {
    RefPlane src, dst;
    guint w_sub, h_sub;

    ref_plane_from_frame (in, p, &src, &w_sub, &h_sub);
    ref_plane_from_frame (out, p, &dst, NULL, NULL);
    /* Radius (r + 1) >> 1 on planes subsampled by two. */
    ref_box_blur_plane (&src, &dst, w_sub ? (rx + 1) >> 1 : rx,
        h_sub ? (ry + 1) >> 1 : ry, mode);
  }
}
