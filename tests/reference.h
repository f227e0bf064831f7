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

/* Histograms: channel names in order, 256 counts each. */
#define REF_HIST_VALUES 256
#define REF_HIST_MAX_CHANNELS 5

typedef struct
{
  guint n_channels;
  const gchar *names[REF_HIST_MAX_CHANNELS];
  guint64 counts[REF_HIST_MAX_CHANNELS][REF_HIST_VALUES];
  guint64 samples[REF_HIST_MAX_CHANNELS];       /* counted per channel */
} RefHistogram;

/* Counts the region x, y, w, h of luma samples (0 width or height reaches
 * the frame's edge); chroma planes count every sample the region touches. */
void ref_histogram_frame (const GstVideoFrame * frame, guint x, guint y,
    guint w, guint h, RefHistogram * hist);

/* Luma statistics as the element defines them. */
typedef struct
{
  guint64 pixels;
  gdouble mean, stddev;
  guint median, min, max;
  gdouble clipped_low, clipped_high, ev_correction;
} RefStats;

void ref_histogram_stats (const guint64 * luma, guint low, guint high,
    guint target, RefStats * stats);

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

/* One zone of a grid: luma statistics of the pixels in it. */
typedef struct
{
  guint64 pixels, sum;
  guint min, max;               /* 0 and 0 for a zone of no pixels */
  guint64 low, high;            /* at or below, at or above the thresholds */
  guint64 hist[REF_HIST_VALUES];
} RefZone;

/* The @cols x @rows zones of the whole frame, row-major into @zones: zone
 * (i, j) covers luma columns [i W / cols, (i + 1) W / cols) and rows
 * likewise; luma is (77 R + 150 G + 29 B + 128) >> 8 for RGB formats. */
void ref_zones (const GstVideoFrame * frame, guint cols, guint rows,
    guint low, guint high, RefZone * zones);
