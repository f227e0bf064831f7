/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_BOX_BLUR_H__
#define __GST_HIP_BOX_BLUR_H__

#include "gsthipfilter.h"
#include "gsthipborder.h"

G_BEGIN_DECLS

#define GST_TYPE_HIP_BOX_BLUR (gst_hip_box_blur_get_type ())
G_DECLARE_FINAL_TYPE (GstHipBoxBlur, gst_hip_box_blur, GST, HIP_BOX_BLUR,
    GstHipfFilter);

GST_ELEMENT_REGISTER_DECLARE (hipboxblur);

G_END_DECLS

#endif /* __GST_HIP_BOX_BLUR_H__ */
