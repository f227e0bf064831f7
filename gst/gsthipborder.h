/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __GST_HIP_BORDER_H__
#define __GST_HIP_BORDER_H__

#include <glib-object.h>

G_BEGIN_DECLS

/* The `border-mode` enum of the elements whose windows reach beyond the
 * frame (HipfBorderMode's values). */
#define GST_TYPE_HIP_BORDER_MODE (gst_hip_border_mode_get_type ())
GType gst_hip_border_mode_get_type (void);

G_END_DECLS

#endif /* __GST_HIP_BORDER_H__ */
