/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef HIPF_BENCH_H
#define HIPF_BENCH_H

#include <gst/video/video.h>
#include "hipf-kernels.h"

/* Frames before timing: the device opened, memory allocated. */
#define WARM_UP 8

void add_row (const gchar * what, GstVideoFormat format, gint w, gint h,
    const gchar * params, gdouble time_us, gdouble copy_us, gdouble fps);
void fill_random (guint8 * data, gsize size, guint32 seed);
/* The device time of one blur at @radius (mirror border), or with
 * @radius < 0 of one histogram, of a random frame: median of the runs. */
gdouble bench_kernel_us (GstVideoFormat format, gint w, gint h, gint radius,
    const HipfDeviceLimits * limits);

/* Rows of frames that stay on the device between elements (resident.c). */
void bench_resident (const HipfDeviceLimits * limits);

#endif /* HIPF_BENCH_H */
