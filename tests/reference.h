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

/* One plane: `channels` 8-bit samples interleaved per pixel. */
typedef struct
{
  guint8 *data;
  gint stride;
  gint width;
  gint height;
  gint channels;
} RefPlane;

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
