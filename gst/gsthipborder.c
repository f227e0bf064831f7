/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthipborder.h"
#include "hipf-kernels.h"

GType
gst_hip_border_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {HIPF_BORDER_ZERO, "Samples outside the frame are 0", "zero"},
    {HIPF_BORDER_CLAMP, "Samples outside the frame repeat the nearest edge "
          "sample", "clamp"},
    {HIPF_BORDER_MIRROR, "The frame is reflected about its edge samples, "
          "which are not repeated (d c b | a b c d)", "mirror"},
    {HIPF_BORDER_WRAP, "The frame repeats periodically", "wrap"},
    {HIPF_BORDER_VALID, "Only samples inside the frame are averaged",
        "valid"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstHipBorderMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}
