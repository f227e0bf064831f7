/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_HISTOGRAM_H__
#define __GST_HIP_HISTOGRAM_H__

#include "gsthipfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_HIP_HISTOGRAM (gst_hip_histogram_get_type ())
G_DECLARE_FINAL_TYPE (GstHipHistogram, gst_hip_histogram, GST, HIP_HISTOGRAM,
    GstHipfFilter);

/* Name of the custom meta every buffer gets; its structure holds the same
 * fields as the element message. */
#define GST_HIP_HISTOGRAM_META_NAME "GstHipHistogramMeta"

GST_ELEMENT_REGISTER_DECLARE (hiphistogram);

G_END_DECLS

#endif /* __GST_HIP_HISTOGRAM_H__ */
