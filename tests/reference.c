/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "reference.h"
#include "overlay/palette.h"

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

static guint64
rounded_mean (guint64 sum, guint64 n)
{
  return (sum + n / 2) / n;
}

/* Sample c of pixel x of row y. */
static guint
sample_get (const RefPlane * p, gint x, gint y, gint c)
{
  const guint8 *at = p->data + (gsize) y * p->stride;

  if (p->sample_bytes == 2)
    return GST_READ_UINT16_LE (at + 2 * ((gsize) x * p->channels + c)) >>
        p->shift;
  return at[(gsize) x * p->channels + c];
}

static void
sample_set (const RefPlane * p, gint x, gint y, gint c, guint64 v)
{
  guint8 *at = p->data + (gsize) y * p->stride;

  if (p->sample_bytes == 2)
    GST_WRITE_UINT16_LE (at + 2 * ((gsize) x * p->channels + c),
        (guint16) (v << p->shift));
  else
    at[(gsize) x * p->channels + c] = (guint8) v;
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
              sum += sample_get (src, sx, sy, c);
            if (mode != REF_BORDER_VALID || (sx >= 0 && sy >= 0))
              n++;
          }
        }
        sample_set (dst, x, y, c, rounded_mean (sum, n));
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
            sum[c] += sample_get (src, sx, y, c);
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
        sample_set (dst, x, y, c, rounded_mean (sum, count_x[x] * count_y));
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
  plane->sample_bytes = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) > 8 ? 2 : 1;
  plane->shift = plane->sample_bytes == 2 ?
      GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c) : 0;
  plane->channels = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c) /
      plane->sample_bytes;
  if (w_sub)
    *w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
  if (h_sub)
    *h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
}

/* Component @comp of a frame whose components interleave within a plane
 * (packed 4:2:2), copied out into a plane of its own, through @apply, and
 * back. */
typedef void (*PlaneOp) (const RefPlane * src, const RefPlane * dst,
    guint comp, gconstpointer data);

static void
through_component (const GstVideoFrame * in, GstVideoFrame * out,
    guint comp, PlaneOp apply, gconstpointer data)
{
  gint w = GST_VIDEO_FRAME_COMP_WIDTH (in, comp);
  gint h = GST_VIDEO_FRAME_COMP_HEIGHT (in, comp);
  gint ps_in = GST_VIDEO_FRAME_COMP_PSTRIDE (in, comp);
  gint ps_out = GST_VIDEO_FRAME_COMP_PSTRIDE (out, comp);
  const guint8 *src = GST_VIDEO_FRAME_COMP_DATA (in, comp);
  guint8 *dst = GST_VIDEO_FRAME_COMP_DATA (out, comp);
  guint8 *a = g_malloc ((gsize) w * h), *b = g_malloc ((gsize) w * h);
  RefPlane pa = { a, w, w, h, 1 }, pb = { b, w, w, h, 1 };
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      a[y * w + x] = src[y * GST_VIDEO_FRAME_COMP_STRIDE (in, comp) +
          x * ps_in];
  apply (&pa, &pb, comp, data);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      dst[y * GST_VIDEO_FRAME_COMP_STRIDE (out, comp) + x * ps_out] =
          b[y * w + x];
  g_free (a);
  g_free (b);
}

typedef struct
{
  const GstVideoFormatInfo *finfo;
  gint rx, ry;
  RefBorder mode;
} BlurArgs;

/* Luma with the radius, chroma with half the horizontal one, as for
 * Y42B. */
static void
blur_component (const RefPlane * src, const RefPlane * dst, guint comp,
    gconstpointer data)
{
  const BlurArgs *b = data;

  ref_box_blur_plane (src, dst,
      GST_VIDEO_FORMAT_INFO_W_SUB (b->finfo, comp) ? (b->rx + 1) >> 1 : b->rx,
      GST_VIDEO_FORMAT_INFO_H_SUB (b->finfo, comp) ? (b->ry + 1) >> 1 : b->ry,
      b->mode);
}

/* gst_video_frame_copy, and the half-filled last macropixel of an odd
 * packed 4:2:2 row (its Y1 and Cr), which that leaves. */
static void
frame_copy (GstVideoFrame * out, const GstVideoFrame * in)
{
  gint y;

  gst_video_frame_copy (out, in);
  if (GST_VIDEO_FRAME_N_PLANES (in) == 1 &&
      GST_VIDEO_FORMAT_INFO_W_SUB (in->info.finfo, 1) > 0 &&
      GST_VIDEO_FRAME_WIDTH (in) % 2 != 0)
    for (y = 0; y < GST_VIDEO_FRAME_HEIGHT (in); y++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (out, 0) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (out, 0),
          (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (in, 0) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (in, 0),
          (gsize) GST_ROUND_UP_2 (GST_VIDEO_FRAME_WIDTH (in)) * 2);
}

void
ref_box_blur_frame (const GstVideoFrame * in, GstVideoFrame * out, gint rx,
    gint ry, RefBorder mode)
{
  guint p;

  /* No window at all: the element passes the frame through untouched,
   * P010's low bits too. */
  if (rx == 0 && ry == 0) {
    frame_copy (out, in);
    return;
  }
  switch (GST_VIDEO_FRAME_FORMAT (in)) {
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_UYVY:
    case GST_VIDEO_FORMAT_YVYU:{
      BlurArgs b = { in->info.finfo, rx, ry, mode };

      for (p = 0; p < GST_VIDEO_FRAME_N_COMPONENTS (in); p++)
        through_component (in, out, p, blur_component, &b);
      return;
    }
    default:
      break;
  }
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

/* The value the histogram counts for component @comp's sample at @at:
 * the sample as its format defines it (the bits of its depth from its
 * shift up, of a little-endian word where wider than 8 bits), and of a
 * sample wider than ten bits its top ten. */
static guint
counted_value (const GstVideoFormatInfo * finfo, guint comp, const guint8 * at)
{
  guint depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, comp);
  guint sample;

  if (depth <= 8)
    return *at;
  sample = (GST_READ_UINT16_LE (at) >> GST_VIDEO_FORMAT_INFO_SHIFT (finfo,
          comp)) & ((1u << depth) - 1);
  return depth > 10 ? sample >> (depth - 10) : sample;
}

guint
ref_histogram_values (GstVideoFormat format)
{
  return GST_VIDEO_FORMAT_INFO_DEPTH (gst_video_format_get_info (format),
      0) > 8 ? REF_HIST_MAX_VALUES : REF_HIST_VALUES;
}

guint
ref_histogram_unit (GstVideoFormat format)
{
  guint depth = GST_VIDEO_FORMAT_INFO_DEPTH (gst_video_format_get_info
      (format), 0);

  return depth > 10 ? 1u << (depth - 10) : 1;
}

void
ref_histogram_bin (const guint64 * counts, guint values, guint bins,
    guint64 * binned)
{
  guint v;

  memset (binned, 0, bins * sizeof (*binned));
  for (v = 0; v < values; v++)
    binned[(guint64) v * bins / values] += counts[v];
}

/* Where component @comp's samples start: their plane's data and their
 * byte in the pixel. P010's V lies in bytes 2 and 3 of its chroma pair,
 * where GStreamer's unpacking reads it; GStreamer 1.22's table gives byte
 * 1, and GST_VIDEO_FRAME_COMP_DATA() with it. */
static const guint8 *
comp_data (const GstVideoFrame * frame, guint comp)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, comp);

  if (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, comp) > 8 && offset % 2)
    offset *= 2;
  return (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame,
      GST_VIDEO_FORMAT_INFO_PLANE (finfo, comp)) + offset;
}

static void
count_component (const GstVideoFrame * frame, guint comp, guint x0, guint y0,
    guint x1, guint y1, guint64 * counts, guint64 * samples)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint ws = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp);
  guint hs = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp);
  guint cx0 = x0 >> ws, cy0 = y0 >> hs;
  guint cx1 = (x1 + (1 << ws) - 1) >> ws, cy1 = (y1 + (1 << hs) - 1) >> hs;
  const guint8 *data = comp_data (frame, comp);
  gint stride = GST_VIDEO_FRAME_COMP_STRIDE (frame, comp);
  gint pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp);
  guint x, y;

  if (x1 <= x0 || y1 <= y0)
    return;
  for (y = cy0; y < cy1; y++)
    for (x = cx0; x < cx1; x++) {
      counts[counted_value (finfo, comp, data + y * stride + x * pstride)]++;
      (*samples)++;
    }
}

void
ref_histogram_frame (const GstVideoFrame * frame, guint x, guint y, guint w,
    guint h, RefHistogram * hist)
{
  guint fw = GST_VIDEO_FRAME_WIDTH (frame), fh = GST_VIDEO_FRAME_HEIGHT (frame);
  guint x0 = MIN (x, fw), y0 = MIN (y, fh);
  guint x1 = w ? MIN (x0 + w, fw) : fw, y1 = h ? MIN (y0 + h, fh) : fh;
  guint i, j;

  memset (hist, 0, sizeof (*hist));
  hist->values = ref_histogram_values (GST_VIDEO_FRAME_FORMAT (frame));
  hist->unit = ref_histogram_unit (GST_VIDEO_FRAME_FORMAT (frame));
  if (GST_VIDEO_INFO_IS_RGB (&frame->info)) {
    static const gchar *rgba[] = { "red", "green", "blue", "alpha" };
    guint n = GST_VIDEO_FRAME_N_COMPONENTS (frame) == 4 ? 4 : 3;
    guint64 *luma;

    for (i = 0; i < n; i++) {
      hist->names[i] = rgba[i];
      count_component (frame, i, x0, y0, x1, y1, hist->counts[i],
          &hist->samples[i]);
    }
    hist->names[n] = "luma";
    luma = hist->counts[n];
    for (j = y0; j < y1; j++)
      for (i = x0; i < x1; i++) {
        guint r = GST_VIDEO_FRAME_COMP_DATA (frame, 0)[j *
            GST_VIDEO_FRAME_COMP_STRIDE (frame, 0) +
            i * GST_VIDEO_FRAME_COMP_PSTRIDE (frame, 0)];
        guint g = GST_VIDEO_FRAME_COMP_DATA (frame, 1)[j *
            GST_VIDEO_FRAME_COMP_STRIDE (frame, 1) +
            i * GST_VIDEO_FRAME_COMP_PSTRIDE (frame, 1)];
        guint b = GST_VIDEO_FRAME_COMP_DATA (frame, 2)[j *
            GST_VIDEO_FRAME_COMP_STRIDE (frame, 2) +
            i * GST_VIDEO_FRAME_COMP_PSTRIDE (frame, 2)];

        luma[(77 * r + 150 * g + 29 * b + 128) >> 8]++;
        hist->samples[n]++;
      }
    hist->n_channels = n + 1;
  } else {
    static const gchar *yuv[] = { "luma", "u", "v" };
    guint n = GST_VIDEO_INFO_IS_YUV (&frame->info) ? 3 : 1;

    for (i = 0; i < n; i++) {
      hist->names[i] = yuv[i];
      count_component (frame, i, x0, y0, x1, y1, hist->counts[i],
          &hist->samples[i]);
    }
    hist->n_channels = n;
  }
}

/* The top eight bits of @x, a value of a format whose samples span
 * [0, @full). */
static guint
top_eight (guint64 x, guint64 full)
{
  return x * 256 / full;
}

void
ref_histogram_stats (const guint64 * luma, guint values, guint unit,
    guint low, guint high, guint target, RefStats * st)
{
  const guint64 full = (guint64) values * unit;
  guint64 below = 0, above = 0, acc = 0;
  gdouble sum = 0, var = 0;
  guint v;
  gboolean have_min = FALSE, have_median = FALSE;

  memset (st, 0, sizeof (*st));
  for (v = 0; v < values; v++) {
    st->pixels += luma[v];
    sum += (gdouble) v * unit * luma[v];
  }
  for (v = 0; v < values; v++) {
    guint x = v * unit;

    if (!luma[v])
      continue;
    if (!have_min)
      st->min = x;
    have_min = TRUE;
    st->max = x;
    if (top_eight (x, full) <= low)
      below += luma[v];
    if (top_eight (x, full) >= high)
      above += luma[v];
  }
  if (st->pixels == 0) {
    st->ev_correction = log2 (target);
    return;
  }
  st->mean = sum / st->pixels;
  for (v = 0; v < values; v++) {
    gdouble d = (gdouble) v * unit - st->mean;

    var += luma[v] * d * d;
    acc += luma[v];
    if (!have_median && 2 * acc >= st->pixels) {
      st->median = v * unit;
      have_median = TRUE;
    }
  }
  st->stddev = sqrt (var / st->pixels);
  st->clipped_low = (gdouble) below / st->pixels;
  st->clipped_high = (gdouble) above / st->pixels;
  st->ev_correction = log2 (target / MAX (st->mean * 256 / full, 1.0));
}

/* Luma of pixel (x, y), as the histogram counts it. */
static guint
pixel_luma (const GstVideoFrame * frame, gint x, gint y)
{
  if (GST_VIDEO_INFO_IS_RGB (&frame->info)) {
    guint rgb[3], c;
    static const guint comps[3] = { GST_VIDEO_COMP_R, GST_VIDEO_COMP_G,
      GST_VIDEO_COMP_B
    };

    for (c = 0; c < 3; c++)
      rgb[c] = ((const guint8 *) GST_VIDEO_FRAME_COMP_DATA (frame,
              comps[c]))[y * GST_VIDEO_FRAME_COMP_STRIDE (frame, comps[c]) +
          x * GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comps[c])];
    return (77 * rgb[0] + 150 * rgb[1] + 29 * rgb[2] + 128) >> 8;
  }
  return counted_value (frame->info.finfo, GST_VIDEO_COMP_Y,
      comp_data (frame, GST_VIDEO_COMP_Y) + y *
      GST_VIDEO_FRAME_COMP_STRIDE (frame, GST_VIDEO_COMP_Y) + x *
      GST_VIDEO_FRAME_COMP_PSTRIDE (frame, GST_VIDEO_COMP_Y));
}

void
ref_zones (const GstVideoFrame * frame, guint cols, guint rows, guint low,
    guint high, RefZone * zones)
{
  gint w = GST_VIDEO_FRAME_WIDTH (frame), h = GST_VIDEO_FRAME_HEIGHT (frame);
  guint unit = ref_histogram_unit (GST_VIDEO_FRAME_FORMAT (frame));
  guint64 full = (guint64) ref_histogram_values (GST_VIDEO_FRAME_FORMAT
      (frame)) * unit;
  guint i, j;
  gint x, y;

  for (j = 0; j < rows; j++) {
    for (i = 0; i < cols; i++) {
      RefZone *z = &zones[j * cols + i];

      memset (z, 0, sizeof (*z));
      z->min = G_MAXUINT;
      for (y = (gint) ((guint64) j * h / rows);
          y < (gint) ((guint64) (j + 1) * h / rows); y++) {
        for (x = (gint) ((guint64) i * w / cols);
            x < (gint) ((guint64) (i + 1) * w / cols); x++) {
          guint v = pixel_luma (frame, x, y), luma = v * unit;

          z->pixels++;
          z->sum += luma;
          z->min = MIN (z->min, luma);
          z->max = MAX (z->max, luma);
          z->low += top_eight (luma, full) <= low;
          z->high += top_eight (luma, full) >= high;
          z->hist[v]++;
        }
      }
      if (z->pixels == 0)
        z->min = 0;
    }
  }
}

/* hipexposure's view of a format's samples (overlay/exposure.h): the
 * value's bits and its shift in the word, and what an 8-bit colour
 * component is multiplied by in the format's range. */
typedef struct
{
  guint depth, shift, scale;
} ExpSamples;

static void
exp_samples_init (GstVideoFormat format, ExpSamples * s)
{
  switch (format) {
    case GST_VIDEO_FORMAT_GRAY16_LE:
      /* The full word: 0 -> 0, 255 -> 65535. */
      s->depth = 16;
      s->shift = 0;
      s->scale = 257;
      break;
    case GST_VIDEO_FORMAT_P010_10LE:
      /* Ten bits at the top of the word; limited range, times four. */
      s->depth = 10;
      s->shift = 6;
      s->scale = 4;
      break;
    case GST_VIDEO_FORMAT_I420_10LE:
      s->depth = 10;
      s->shift = 0;
      s->scale = 4;
      break;
    default:
      s->depth = 8;
      s->shift = 0;
      s->scale = 1;
      break;
  }
}

/* Component @comp's sample (x, y), in the component's own coordinates. */
static guint8 *
exp_sample (const GstVideoFrame * frame, guint comp, gint x, gint y)
{
  return (guint8 *) comp_data (frame, comp) + (gsize) y *
      GST_VIDEO_FRAME_COMP_STRIDE (frame, comp) + (gsize) x *
      GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp);
}

static guint
exp_value (const ExpSamples * s, const guint8 * at)
{
  if (s->depth == 8)
    return *at;
  return (GST_READ_UINT16_LE (at) >> s->shift) & ((1u << s->depth) - 1);
}

static void
exp_store (const ExpSamples * s, guint8 * at, guint value)
{
  if (s->depth == 8)
    *at = (guint8) value;
  else
    GST_WRITE_UINT16_LE (at, (guint16) (value << s->shift));
}

/* Component @comp at luma position (x, y): its block's sample, in the 8-bit
 * scale (the value's top eight bits). */
static guint
exp_top8 (const GstVideoFrame * frame, const ExpSamples * s, guint comp,
    gint x, gint y)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;

  return exp_value (s, exp_sample (frame, comp, x >>
          GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp), y >>
          GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp))) >> (s->depth - 8);
}

/* The luma that decides luma position (x, y), in the 8-bit scale. */
static guint
exp_luma (const GstVideoFrame * frame, const ExpSamples * s, gint x, gint y)
{
  if (GST_VIDEO_INFO_IS_RGB (&frame->info))
    return (77 * exp_top8 (frame, s, GST_VIDEO_COMP_R, x, y) +
        150 * exp_top8 (frame, s, GST_VIDEO_COMP_G, x, y) +
        29 * exp_top8 (frame, s, GST_VIDEO_COMP_B, x, y) + 128) >> 8;
  return exp_top8 (frame, s, GST_VIDEO_COMP_Y, x, y);
}

/* The R, G, B the RGB graph counts for pixel (x, y) (exposure.h). */
static void
exp_rgb (const GstVideoFrame * frame, const ExpSamples * s, gint x, gint y,
    gint rgb[3])
{
  guint c;

  if (GST_VIDEO_INFO_IS_RGB (&frame->info)) {
    for (c = 0; c < 3; c++)
      rgb[c] = exp_top8 (frame, s, c, x, y);
  } else if (GST_VIDEO_INFO_IS_YUV (&frame->info)) {
    hipf_exposure_yuv_to_rgb (exp_top8 (frame, s, GST_VIDEO_COMP_Y, x, y),
        exp_top8 (frame, s, GST_VIDEO_COMP_U, x, y),
        exp_top8 (frame, s, GST_VIDEO_COMP_V, x, y), rgb);
  } else {
    rgb[0] = rgb[1] = rgb[2] = exp_top8 (frame, s, GST_VIDEO_COMP_Y, x, y);
  }
}

void
ref_exposure_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefExposure * e)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gboolean is_rgb = GST_VIDEO_INFO_IS_RGB (&in->info);
  struct
  {
    uint8_t band_start[HIPF_EXPOSURE_BANDS];
    uint8_t palette[HIPF_EXPOSURE_BANDS][6];
  } pal;
  ExpSamples s;
  guint64 largest = 0, counts[3][REF_HIST_VALUES] = { {0} };
  guint heights[3][REF_HIST_VALUES], v, c, graphs = e->graph_rgb ? 3 : 1;
  guint8 colours[8][6];
  gint x, y;

  exp_samples_init (GST_VIDEO_FRAME_FORMAT (in), &s);
  hipf_exposure_palette (pal.band_start, pal.palette);
  hipf_exposure_graph_colours (colours);
  for (y = 0; y < GST_VIDEO_FRAME_HEIGHT (in); y++)
    for (x = 0; x < GST_VIDEO_FRAME_WIDTH (in); x++) {
      gint rgb[3];

      if (!e->graph_rgb) {
        counts[0][exp_luma (in, &s, x, y)]++;
        continue;
      }
      exp_rgb (in, &s, x, y, rgb);
      for (c = 0; c < 3; c++)
        counts[c][rgb[c]]++;
    }
  for (c = 0; c < graphs; c++)
    for (v = 0; v < REF_HIST_VALUES; v++)
      largest = MAX (largest, counts[c][v]);
  for (c = 0; c < graphs; c++)
    for (v = 0; v < REF_HIST_VALUES; v++)
      heights[c][v] = counts[c][v] * e->graph_height / MAX (largest, 1);
  frame_copy (out, in);

  for (c = 0; c < MIN (GST_VIDEO_FRAME_N_COMPONENTS (in), 3); c++) {
    /* R, G, B or Y, Cb, Cr: the palette's columns 0-2 or 3-5. */
    guint role = is_rgb ? c : 3 + c;
    gboolean chroma = !is_rgb && c > 0, luma_role = !is_rgb && c == 0;
    guint ws = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    guint hs = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);

    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (in, c); y++) {
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (in, c); x++) {
        gint lx = x << ws, ly = y << hs, gx, gy, band = 0, b;
        guint luma = exp_luma (in, &s, lx, ly);
        guint8 *p = exp_sample (out, c, x, y);
        gint val = exp_value (&s, p);
        gboolean in_graph, bar, drawn = FALSE;

        for (b = 1; b < HIPF_EXPOSURE_BANDS; b++)
          band += luma >= pal.band_start[b];
        if (e->false_color) {
          val = pal.palette[band][role] * s.scale;
          drawn = TRUE;
        }
        if (e->zebra && luma >= e->zebra_threshold
            && (((guint) (lx + ly) + e->frame) / 4) % 2 == 0) {
          val = (chroma ? 128 : luma_role ? 16 : 0) * s.scale;
          drawn = TRUE;
        }
        gx = lx - (gint) e->graph_x;
        gy = ly - (gint) e->graph_y;
        in_graph = e->graph && gx >= 0 && gx < (gint) e->graph_width
            && gy >= 0 && gy < (gint) e->graph_height;
        if (in_graph) {
          gint bin = gx * REF_HIST_VALUES / e->graph_width;
          gint above = (gint) e->graph_height - 1 - gy;
          gint colour;

          bar = above < (gint) heights[0][bin];
          if (e->graph_rgb)
            colour = colours[(above < (gint) heights[0][bin]) << 2 |
                (above < (gint) heights[1][bin]) << 1 |
                (above < (gint) heights[2][bin])][role];
          else
            colour = chroma ? 128 : luma_role ? (bar ? 235 : 16) :
                (bar ? 255 : 0);

          val = ((gint) e->graph_opacity * colour * (gint) s.scale +
              (255 - (gint) e->graph_opacity) * val + 127) / 255;
          drawn = TRUE;
        }
        /* Samples nothing draws keep their words, every bit. */
        if (drawn)
          exp_store (&s, p, val);
      }
    }
  }
}

void
ref_convolve_plane (const RefPlane * src, const RefPlane * dst,
    const HipfConvolveMask * m, RefBorder mode, guint channels)
{
  const gint w = m->separable ? m->n_x : m->width;
  const gint h = m->separable ? m->n_y : m->height;
  gint x, y, c, i, j;

  for (y = 0; y < src->height; y++)
    for (x = 0; x < src->width; x++)
      for (c = 0; c < src->channels; c++) {
        gint64 sum = 0;

        if (!(channels >> c & 1)) {
          sample_set (dst, x, y, c, sample_get (src, x, y, c));
          continue;
        }
        for (j = 0; j < h; j++) {
          gint sy = ref_border_index (y + j - h / 2, src->height, mode);

          for (i = 0; i < w; i++) {
            gint sx = ref_border_index (x + i - w / 2, src->width, mode);
            gint tap = m->separable ? m->taps_y[j] * m->taps_x[i] :
                m->taps[j * w + i];

            if (sx >= 0 && sy >= 0)
              sum += (gint64) tap * sample_get (src, sx, sy, c);
          }
        }
        sample_set (dst, x, y, c, hipf_convolve_output (sum, m));
      }
}

typedef struct
{
  const HipfConvolveMask *mask;
  RefBorder mode;
  gboolean luma_only;
} ConvolveArgs;

static void
convolve_component (const RefPlane * src, const RefPlane * dst, guint comp,
    gconstpointer data)
{
  const ConvolveArgs *c = data;

  ref_convolve_plane (src, dst, c->mask, c->mode, c->luma_only
      && comp != 0 ? 0 : 1);
}

void
ref_convolve_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const HipfConvolveMask * m, RefBorder mode, gboolean luma_only)
{
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gboolean yuv = GST_VIDEO_INFO_IS_YUV (&in->info) && luma_only;
  guint p, c;

  frame_copy (out, in);
  if (GST_VIDEO_FRAME_N_PLANES (in) == 1 &&
      GST_VIDEO_FORMAT_INFO_W_SUB (finfo, 1) > 0) {
    ConvolveArgs args = { m, mode, yuv };

    for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (in); c++)
      through_component (in, out, c, convolve_component, &args);
    return;
  }
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (in); p++) {
    RefPlane src, dst;
    guint channels = 0xf;

    ref_plane_from_frame (in, p, &src, NULL, NULL);
    ref_plane_from_frame (out, p, &dst, NULL, NULL);
    if (yuv)
      channels = p == GST_VIDEO_FORMAT_INFO_PLANE (finfo, GST_VIDEO_COMP_Y) ?
          1u << GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_Y) : 0;
    ref_convolve_plane (&src, &dst, m, mode, channels);
  }
}
