/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Zone metering for hiphistogram: the grid property, where luma lies, and
 * the zones' part of the report.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gsthipzones.h"

gboolean
gst_hipf_zones_parse (const gchar * text, guint * cols, guint * rows)
{
  gchar *end = NULL;
  guint64 c, r;

  if (text == NULL || !g_ascii_isdigit (text[0]))
    return FALSE;
  c = g_ascii_strtoull (text, &end, 10);
  if (end == NULL || *end != 'x' || !g_ascii_isdigit (end[1]))
    return FALSE;
  r = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '\0' || c < 1 || r < 1 || c > HIPF_ZONES_MAX
      || r > HIPF_ZONES_MAX)
    return FALSE;
  *cols = c;
  *rows = r;
  return TRUE;
}

void
gst_hipf_zones_frame_init (HipfZonesFrame * frame, const GstVideoInfo * info,
    const GstHipVideoLayout * layout, guint cols, guint rows,
    guint low_threshold, guint high_threshold, gboolean histograms)
{
  const GstHipPlane *plane = &layout->planes[0];
  guint values;

  memset (frame, 0, sizeof (*frame));
  frame->offset = plane->offset;
  frame->pitch = plane->pitch;
  frame->width = plane->width;
  frame->height = plane->height;
  frame->pixel_stride = plane->channels * plane->sample_bytes;
  frame->sample_bytes = plane->sample_bytes;
  frame->sample_shift = gst_hip_video_histogram_shift (info,
      GST_VIDEO_COMP_Y);
  if (GST_VIDEO_INFO_IS_RGB (info)) {
    frame->luma_offset = -1;
    frame->rgb_offset[0] = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_R);
    frame->rgb_offset[1] = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_G);
    frame->rgb_offset[2] = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_B);
  } else {
    /* Packed 4:2:2 is unpacked: its luma is a plane of its own. */
    frame->luma_offset = layout->packed ? 0 :
        gst_hip_video_comp_offset (info, GST_VIDEO_COMP_Y);
  }
  frame->cols = cols;
  frame->rows = rows;
  /* In the values metered: v's top eight bits are v * 256 / values. */
  values = hipf_zones_values (frame);
  frame->low_threshold = (low_threshold + 1) * values / 256 - 1;
  frame->high_threshold = high_threshold * values / 256;
  frame->histograms = histograms;
}

static void
append_double (GValue * array, gdouble d)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, d);
  gst_value_array_append_and_take_value (array, &v);
}

static void
append_uint (GValue * array, guint u)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, G_TYPE_UINT);
  g_value_set_uint (&v, u);
  gst_value_array_append_and_take_value (array, &v);
}

void
gst_hipf_zones_report (GstStructure * st, const HipfZonesFrame * frame,
    const guint32 * words, guint bins, guint unit)
{
  static const gchar *names[] = { "zone-mean", "zone-min", "zone-max",
    "zone-clipped-low", "zone-clipped-high", "zone-histograms"
  };
  GValue fields[G_N_ELEMENTS (names)] = { G_VALUE_INIT };
  guint n = frame->cols * frame->rows;
  guint values = hipf_zones_values (frame);
  gsize stride = HIPF_ZONE_WORDS + (frame->histograms ? values : 0);
  guint z, f, v;
  gchar *grid;

  for (f = 0; f < G_N_ELEMENTS (names); f++)
    gst_value_array_init (&fields[f], n);
  for (z = 0; z < n; z++) {
    const guint32 *w = words + z * stride;
    guint64 sum = (guint64) w[HIPF_ZONE_SUM_HI] << 32 | w[HIPF_ZONE_SUM_LO];
    guint32 pixels = w[HIPF_ZONE_PIXELS];

    append_double (&fields[0], pixels ? (gdouble) sum / pixels * unit : 0.0);
    append_uint (&fields[1], w[HIPF_ZONE_MIN] * unit);
    append_uint (&fields[2], w[HIPF_ZONE_MAX] * unit);
    append_double (&fields[3], pixels ?
        (gdouble) w[HIPF_ZONE_LOW] / pixels : 0.0);
    append_double (&fields[4], pixels ?
        (gdouble) w[HIPF_ZONE_HIGH] / pixels : 0.0);
    if (frame->histograms) {
      GValue hist = G_VALUE_INIT;
      guint32 binned[HIPF_HISTOGRAM_WIDE_VALUES] = { 0 };

      for (v = 0; v < values; v++)
        binned[v * bins / values] += w[HIPF_ZONE_WORDS + v];
      gst_value_array_init (&hist, bins);
      for (v = 0; v < bins; v++)
        append_uint (&hist, binned[v]);
      gst_value_array_append_and_take_value (&fields[5], &hist);
    }
  }
  grid = g_strdup_printf ("%ux%u", frame->cols, frame->rows);
  gst_structure_set (st, "zones", G_TYPE_STRING, grid, NULL);
  g_free (grid);
  for (f = 0; f < G_N_ELEMENTS (names); f++) {
    if (f + 1 == G_N_ELEMENTS (names) && !frame->histograms)
      g_value_unset (&fields[f]);
    else
      gst_structure_take_value (st, names[f], &fields[f]);
  }
}
