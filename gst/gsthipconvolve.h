/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_CONVOLVE_H__
#define __GST_HIP_CONVOLVE_H__

#include "gsthipfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_HIP_CONVOLVE_PRESET (gst_hip_convolve_preset_get_type ())
GType gst_hip_convolve_preset_get_type (void);

#define GST_TYPE_HIP_CONVOLVE (gst_hip_convolve_get_type ())
G_DECLARE_FINAL_TYPE (GstHipConvolve, gst_hip_convolve, GST, HIP_CONVOLVE,
    GstHipfFilter);

GST_ELEMENT_REGISTER_DECLARE (hipconvolve);

G_END_DECLS

#endif /* __GST_HIP_CONVOLVE_H__ */
