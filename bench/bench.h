/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef HIPF_BENCH_H
#define HIPF_BENCH_H

#include <stdio.h>
#include <stdlib.h>

#include <gst/video/video.h>
#include "hipf-kernels.h"

/* Frames before timing: the device opened, memory allocated. */
#define WARM_UP 8
#define ROTATION 4              /* input frames cycled so L2 cannot flatter */
/* Frames a timed batch of link copies moves, and the batches whose median
 * is reported. */
#define LINK_FRAMES 16
#define LINK_BATCHES 5

#define CHECK(call) G_STMT_START {                                        \
  hipError_t _e = (call);                                                 \
  if (_e != hipSuccess) {                                                 \
    g_printerr ("%s failed: %s\n", #call, hipGetErrorString (_e));       \
    exit (1);                                                             \
  }                                                                       \
} G_STMT_END

/* The table (rows.c). */
extern gint bench_runs;         /* timed runs a kernel row takes the median of */
void bench_rows_init (void);
void bench_rows_free (void);
void add_row (const gchar * what, GstVideoFormat format, gint w, gint h,
    const gchar * params, gdouble time_us, gdouble copy_us, gdouble fps);
void bench_print_table (FILE * out, gboolean csv);
gdouble bench_median (gdouble * v, gint n);
void fill_random (guint8 * data, gsize size, guint32 seed);

/* Kernel rows (kernels.c). */
void bench_device (GstVideoFormat format, gint w, gint h, gboolean all_modes,
    const HipfDeviceLimits * limits);
void bench_convolve (GstVideoFormat format, gint w, gint h,
    const HipfDeviceLimits * limits);
void bench_split_radii (GstVideoFormat format, gint w, gint h,
    const HipfDeviceLimits * limits);
/* The device time of one blur at @radius (mirror border), or with
 * @radius < 0 of one histogram, of a random frame: median of the runs. */
gdouble bench_kernel_us (GstVideoFormat format, gint w, gint h, gint radius,
    const HipfDeviceLimits * limits);

/* Link, element and CPU rows (elements.c). */
typedef enum
{
  LINK_UP,                      /* host to device */
  LINK_BOTH,                    /* and device to host at once, two streams */
} LinkDirection;
extern const gchar *link_names[];
gdouble time_link (gsize size, gboolean pinned, LinkDirection dir);
gdouble bench_element (const gchar * element, GstVideoFormat format, gint w,
    gint h, gboolean pinned, gint frames, gint pace, gdouble * latency_us);
void bench_cpu (GstVideoFormat format, gint w, gint h, gint radius);

/* Rows of frames that stay on the device between elements (resident.c). */
void bench_resident (const HipfDeviceLimits * limits);

#endif /* HIPF_BENCH_H */
