/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CPU references, written from the elements' definitions and sharing no
 * code with the kernels.
 */
#ifndef HIPF_TEST_REFERENCE_H
#define HIPF_TEST_REFERENCE_H

#include <gst/video/video.h>

#include "convolve/mask.h"

typedef enum
{
  REF_BORDER_ZERO,
  REF_BORDER_CLAMP,
  REF_BORDER_MIRROR,
  REF_BORDER_WRAP,
  REF_BORDER_VALID,
  REF_N_BORDERS,
} RefBorder;

/* The element's nick for each RefBorder, in order. */
extern const gchar *const ref_border_nicks[REF_N_BORDERS];

/* One plane: `channels` samples interleaved per pixel, of 8 bits, or of
 * 16 (sample_bytes 2, little-endian) read as v >> shift and written as
 * m << shift. */
typedef struct
{
  guint8 *data;
  gint stride;
  gint width;
  gint height;
  gint channels;
  gint sample_bytes;            /* 0 or 1: 8-bit */
  gint shift;
} RefPlane;

/* Bytes of a row's samples. */
static inline gsize
ref_plane_row_bytes (const RefPlane * plane)
{
  return (gsize) plane->width * plane->channels *
      (plane->sample_bytes == 2 ? 2 : 1);
}

/* Position in [0, n) that the border-extended signal shows at i, or -1. */
gint ref_border_index (gint i, gint n, RefBorder mode);

/* Box blur straight from the definition: every window sample visited. */
void ref_box_blur_plane_direct (const RefPlane * src, const RefPlane * dst,
    gint rx, gint ry, RefBorder mode);
/* The same result through the separability of the window: O(r) a sample. */
void ref_box_blur_plane (const RefPlane * src, const RefPlane * dst,
    gint rx, gint ry, RefBorder mode);
/* Every plane of a frame, chroma radii scaled by the subsampling. */
void ref_box_blur_frame (const GstVideoFrame * in, GstVideoFrame * out,
    gint rx, gint ry, RefBorder mode);

/* Plane p of a mapped frame, as the reference sees it. */
void ref_plane_from_frame (const GstVideoFrame * frame, guint p,
    RefPlane * plane, guint * w_sub, guint * h_sub);

#endif

/* Histograms: channel names in order, the counts of each value. 8-bit
 * samples count as they are (256 values); 16-bit formats count 1024
 * values: the ten bits of a 10-bit format's sample, the top ten of a
 * 16-bit one, whose value v stands for v * 64 in the format's scale. */
#define REF_HIST_VALUES 256
#define REF_HIST_MAX_VALUES 1024
#define REF_HIST_MAX_CHANNELS 5

typedef struct
{
  guint n_channels;
  guint values;                 /* counted a channel: 256 or 1024 */
  guint unit;                   /* a value of 1 in the format's scale */
  const gchar *names[REF_HIST_MAX_CHANNELS];
  guint64 counts[REF_HIST_MAX_CHANNELS][REF_HIST_MAX_VALUES];
  guint64 samples[REF_HIST_MAX_CHANNELS];       /* counted per channel */
} RefHistogram;

/* The values and unit of RefHistogram for @format. */
guint ref_histogram_values (GstVideoFormat format);
guint ref_histogram_unit (GstVideoFormat format);

/* Counts the region x, y, w, h of luma samples (0 width or height reaches
 * the frame's edge); chroma planes count every sample the region touches. */
void ref_histogram_frame (const GstVideoFrame * frame, guint x, guint y,
    guint w, guint h, RefHistogram * hist);

/* @counts of @values values binned into @bins (at most @values) bins:
 * value v into bin v * bins / values. */
void ref_histogram_bin (const guint64 * counts, guint values, guint bins,
    guint64 * binned);

/* Luma statistics as the element defines them, in the format's scale
 * (value v of @luma is v * @unit there). The thresholds and target are in
 * the 8-bit scale: a sample is clipped by its top eight bits, and the
 * target compares with the mean brought to the 8-bit scale. */
typedef struct
{
  guint64 pixels;
  gdouble mean, stddev;
  guint median, min, max;
  gdouble clipped_low, clipped_high, ev_correction;
} RefStats;

void ref_histogram_stats (const guint64 * luma, guint values, guint unit,
    guint low, guint high, guint target, RefStats * stats);

/* hipconvolve's output for one plane (kernels/convolve/mask.h has the
 * rules): the channels whose bit @channels has (the others copied), the
 * window's samples outside the plane as @mode has them (zero, clamp,
 * mirror or wrap). */
void ref_convolve_plane (const RefPlane * src, const RefPlane * dst,
    const HipfConvolveMask * mask, RefBorder mode, guint channels);
/* Every plane of a frame through the same mask, or with @luma_only (YUV
 * formats) luma alone, the rest copied. */
void ref_convolve_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const HipfConvolveMask * mask, RefBorder mode, gboolean luma_only);

/* What hipexposure draws (kernels/overlay/exposure.h has the rules). */
typedef struct
{
  gboolean false_color, zebra, graph;
  guint zebra_threshold, frame;
  guint graph_x, graph_y, graph_width, graph_height, graph_opacity;
  gboolean graph_rgb;           /* red, green and blue graphs, not luma's */
} RefExposure;

/* @out: @in with the overlay drawn, by the same integer rules. */
void ref_exposure_frame (const GstVideoFrame * in, GstVideoFrame * out,
    const RefExposure * e);

/* One zone of a grid: luma statistics of the pixels in it, in the
 * format's scale, and its histogram as RefHistogram counts it. */
typedef struct
{
  guint64 pixels, sum;
  guint min, max;               /* 0 and 0 for a zone of no pixels */
  guint64 low, high;            /* at or below, at or above the thresholds */
  guint64 hist[REF_HIST_MAX_VALUES];
} RefZone;

/* The @cols x @rows zones of the whole frame, row-major into @zones: zone
 * (i, j) covers luma columns [i W / cols, (i + 1) W / cols) and rows
 * likewise; luma is (77 R + 150 G + 29 B + 128) >> 8 for RGB formats. The
 * thresholds are in the 8-bit scale, as for ref_histogram_stats(). */
void ref_zones (const GstVideoFrame * frame, guint cols, guint rows,
    guint low, guint high, RefZone * zones);
