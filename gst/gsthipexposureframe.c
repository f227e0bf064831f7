/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipexposure's description of a frame for the overlay kernels, shared
 * with the benchmark so that it times the element's drawing.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gsthipexposureframe.h"

/* The channel (sample, not byte) of component @comp in its pixel. */
static gint
comp_channel (const GstVideoInfo * info, guint comp)
{
  return gst_hip_video_comp_offset (info, comp) /
      (GST_VIDEO_INFO_COMP_DEPTH (info, comp) > 8 ? 2 : 1);
}

/* The samples' value in their word, and what an 8-bit colour component
 * becomes in its range (overlay/exposure.h): limited-range Y'CbCr of n bits
 * takes c << (n - 8), GRAY16_LE's full word c * 257. */
static void
samples_init (HipfExposureFrame * f, const GstVideoInfo * info,
    const GstHipVideoLayout * layout)
{
  f->sample_bytes = layout->planes[0].sample_bytes;
  f->depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0);
  f->shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, 0);
  if (f->depth == 8)
    f->colour_scale = 1;
  else if (GST_VIDEO_INFO_IS_GRAY (info))
    f->colour_scale = ((1 << f->depth) - 1) / 255;
  else
    f->colour_scale = 1 << (f->depth - 8);
}

/* Which sample of each plane is what: R, G, B, or Y, Cb, Cr; alpha and
 * padding are kept. */
void
gst_hipf_exposure_frame_init (HipfExposureFrame * f, const GstVideoInfo * info,
    const GstHipVideoLayout * layout)
{
  static const HipfSampleRole rgb[3] = { HIPF_ROLE_R, HIPF_ROLE_G,
    HIPF_ROLE_B
  };
  static const HipfSampleRole yuv[3] = { HIPF_ROLE_Y, HIPF_ROLE_U,
    HIPF_ROLE_V
  };
  gboolean is_rgb = GST_VIDEO_INFO_IS_RGB (info);
  guint p, c;

  memset (f, 0, sizeof (*f));
  hipf_exposure_palette (f->band_start, f->palette);
  hipf_exposure_graph_colours (f->graph_colours);
  f->u_plane = f->v_plane = -1;
  samples_init (f, info, layout);
  f->n_planes = layout->n_planes;
  for (p = 0; p < layout->n_planes; p++) {
    const GstHipPlane *pl = &layout->planes[p];

    f->planes[p].offset = pl->offset;
    f->planes[p].pitch = pl->pitch;
    f->planes[p].width = pl->width;
    f->planes[p].height = pl->height;
    f->planes[p].channels = pl->channels;
    f->planes[p].w_sub = pl->w_sub;
    f->planes[p].h_sub = pl->h_sub;
  }
  if (layout->packed) {
    /* Unpacked into Y42B's planes. */
    for (p = 0; p < 3; p++)
      f->planes[p].roles[0] = yuv[p];
    f->luma_offset = 0;
    f->u_plane = 1;
    f->v_plane = 2;
    return;
  }
  for (c = 0; c < MIN (GST_VIDEO_INFO_N_COMPONENTS (info), 3); c++) {
    guint plane = GST_VIDEO_INFO_COMP_PLANE (info, c);

    f->planes[plane].roles[comp_channel (info, c)] = is_rgb ? rgb[c] : yuv[c];
  }
  if (is_rgb) {
    f->luma_offset = -1;
    for (c = 0; c < 3; c++)
      f->rgb_offset[c] = comp_channel (info, c);
  } else {
    f->luma_offset = comp_channel (info, GST_VIDEO_COMP_Y);
    if (GST_VIDEO_INFO_IS_YUV (info)) {
      f->u_plane = GST_VIDEO_INFO_COMP_PLANE (info, GST_VIDEO_COMP_U);
      f->u_channel = comp_channel (info, GST_VIDEO_COMP_U);
      f->v_plane = GST_VIDEO_INFO_COMP_PLANE (info, GST_VIDEO_COMP_V);
      f->v_channel = comp_channel (info, GST_VIDEO_COMP_V);
    }
  }
}
