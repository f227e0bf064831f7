/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthipallocator.h"
#include "gsthipboxblur.h"
#include "gsthipexposure.h"
#include "gsthipconvolve.h"
#include "gsthiphistogram.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  /* Registered as the plugin loads, so that applications filling frames
   * for these elements (appsrc) find it by GST_HIP_HOST_MEMORY_TYPE. */
  gst_object_unref (gst_hip_host_allocator_get ());
  ret |= GST_ELEMENT_REGISTER (hipboxblur, plugin);
  ret |= GST_ELEMENT_REGISTER (hiphistogram, plugin);
  ret |= GST_ELEMENT_REGISTER (hipexposure, plugin);
  ret |= GST_ELEMENT_REGISTER (hipconvolve, plugin);
  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, hipfilters,
    "Video filters running on HIP devices (AMD and NVIDIA GPUs)",
    plugin_init, VERSION, "LGPL", PACKAGE, PACKAGE_ORIGIN)
