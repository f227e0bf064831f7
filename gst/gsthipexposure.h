/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_EXPOSURE_H__
#define __GST_HIP_EXPOSURE_H__

#include "gsthipfilter.h"

G_BEGIN_DECLS

/* What the graph shows. */
typedef enum
{
  GST_HIP_EXPOSURE_GRAPH_LUMA,
  GST_HIP_EXPOSURE_GRAPH_RGB,
} GstHipExposureGraph;

#define GST_TYPE_HIP_EXPOSURE_GRAPH (gst_hip_exposure_graph_get_type ())
GType gst_hip_exposure_graph_get_type (void);

#define GST_TYPE_HIP_EXPOSURE (gst_hip_exposure_get_type ())
G_DECLARE_FINAL_TYPE (GstHipExposure, gst_hip_exposure, GST, HIP_EXPOSURE,
    GstHipfFilter);

GST_ELEMENT_REGISTER_DECLARE (hipexposure);

G_END_DECLS

#endif /* __GST_HIP_EXPOSURE_H__ */
