/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIPF_EXPOSURE_FRAME_H__
#define __GST_HIPF_EXPOSURE_FRAME_H__

#include <gst/video/video.h>
#include "gsthipvideo.h"

G_BEGIN_DECLS

/* @frame described for the device frame of @layout (@info's format): its
 * planes, which sample of each is R, G, B or Y, Cb, Cr, the samples' bits,
 * the palette and the graph's colours. Everything to draw is left off; the
 * caller turns on what it wants. */
void gst_hipf_exposure_frame_init (HipfExposureFrame * frame,
    const GstVideoInfo * info, const GstHipVideoLayout * layout);

G_END_DECLS

#endif /* __GST_HIPF_EXPOSURE_FRAME_H__ */
