/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_CONV_MASK_H__
#define __GST_HIP_CONV_MASK_H__

#include <glib.h>
#include "convolve/mask.h"

G_BEGIN_DECLS

typedef enum
{
  GST_HIP_CONVOLVE_PRESET_NONE,
  GST_HIP_CONVOLVE_PRESET_GAUSSIAN,
  GST_HIP_CONVOLVE_PRESET_SHARPEN,
  GST_HIP_CONVOLVE_PRESET_LAPLACIAN,
  GST_HIP_CONVOLVE_PRESET_SOBEL_X,
  GST_HIP_CONVOLVE_PRESET_SOBEL_Y,
  GST_HIP_CONVOLVE_PRESET_EMBOSS,
} GstHipConvolvePreset;

#define GST_HIP_CONVOLVE_MIN_SIGMA 0.1
#define GST_HIP_CONVOLVE_MAX_SIGMA 40.0

/* A 2D mask from text: rows of integers separated by ';', the integers by
 * spaces, tabs or commas ("1 2 1; 2 4 2; 1 2 1"). Odd width and height
 * of at most HIPF_CONVOLVE_MAX_SIDE, rows of one length, the absolute taps
 * summing to at most HIPF_CONVOLVE_MAX_WEIGHT. FALSE, with *@why set (to
 * free), for anything else; @mask is then unchanged. The divisor and
 * offset are left as they were. */
gboolean gst_hip_conv_mask_parse (const gchar * text, HipfConvolveMask * mask,
    gchar ** why);

/* An odd number, at most HIPF_CONVOLVE_MAX_TAPS, of integers (spaces,
 * tabs or commas between them) into @taps; their count into *@n. */
gboolean gst_hip_conv_taps_parse (const gchar * text, gint * taps, gint * n,
    gchar ** why);

/* Makes @mask separable with @taps_x (a row) and @taps_y (a column); FALSE
 * with *@why set where the outer product, or either vector, weighs more
 * than HIPF_CONVOLVE_MAX_WEIGHT. */
gboolean gst_hip_conv_mask_set_separable (HipfConvolveMask * mask,
    const gint * taps_x, gint n_x, const gint * taps_y, gint n_y,
    gchar ** why);

/* Where a 2D mask is the outer product of an integer column and row,
 * makes it separable: the same taps, so the same result, in two passes.
 * TRUE where it did (or the mask was separable already). */
gboolean gst_hip_conv_mask_factor (HipfConvolveMask * mask);

/* The mask of @preset (@sigma for the Gaussian), separable where it is
 * (the Gaussian, Sobel); FALSE for GST_HIP_CONVOLVE_PRESET_NONE. */
gboolean gst_hip_conv_mask_preset (GstHipConvolvePreset preset, gdouble sigma,
    HipfConvolveMask * mask);

/* The sum of the taps (of their outer product where separable). */
gint64 gst_hip_conv_mask_sum (const HipfConvolveMask * mask);

/* The mask's taps as text, rows separated by "; " (separable masks as
 * their outer product). */
gchar *gst_hip_conv_mask_to_string (const HipfConvolveMask * mask);

G_END_DECLS

#endif /* __GST_HIP_CONV_MASK_H__ */
