/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIPF_ZONES_H__
#define __GST_HIPF_ZONES_H__

#include <gst/video/video.h>
#include "gsthipvideo.h"

G_BEGIN_DECLS

/* "COLSxROWS", each 1 to HIPF_ZONES_MAX: FALSE for anything else. */
gboolean gst_hipf_zones_parse (const gchar * text, guint * cols,
    guint * rows);

/* The plane luma is read from in the device frame of @layout (@info's
 * format), for a grid of @cols x @rows. The thresholds are in the 8-bit
 * scale, as hiphistogram's properties: a sample counts at or below the low
 * one (at or above the high one) where its top eight bits do. */
void gst_hipf_zones_frame_init (HipfZonesFrame * frame,
    const GstVideoInfo * info, const GstHipVideoLayout * layout, guint cols,
    guint rows, guint low_threshold, guint high_threshold,
    gboolean histograms);

/* Sets in @st the zones' statistics from the words hipf_zones() wrote:
 * `zones` ("COLSxROWS") and, in row-major order, `zone-mean`, `zone-min`,
 * `zone-max` (in the format's scale: the values metered times @unit, as
 * gst_hip_video_histogram_unit() has it), `zone-clipped-low`,
 * `zone-clipped-high`, and where counted `zone-histograms` in @bins bins
 * (at most hipf_zones_values()). */
void gst_hipf_zones_report (GstStructure * st, const HipfZonesFrame * frame,
    const guint32 * words, guint bins, guint unit);

G_END_DECLS

#endif /* __GST_HIPF_ZONES_H__ */
