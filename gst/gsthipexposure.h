/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_EXPOSURE_H__
#define __GST_HIP_EXPOSURE_H__

#include "gsthipfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_HIP_EXPOSURE (gst_hip_exposure_get_type ())
G_DECLARE_FINAL_TYPE (GstHipExposure, gst_hip_exposure, GST, HIP_EXPOSURE,
    GstHipfFilter);

GST_ELEMENT_REGISTER_DECLARE (hipexposure);

G_END_DECLS

#endif /* __GST_HIP_EXPOSURE_H__ */
