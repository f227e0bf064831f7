/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef HIPF_GPUCHECK_H
#define HIPF_GPUCHECK_H

#include <gst/check/gstcheck.h>

#include "hipf-kernels.h"

/* Exit status meson counts as a skipped test. */
#define HIPF_TEST_SKIP 77

/* Runs @suite when a HIP device is present; otherwise skips. */
int hipf_gpu_check_main (int argc, char **argv, Suite * (*suite) (void),
    const gchar * name, const gchar * file);

/* The name of the path hipf_box_blur_plan_new() chooses for @plane. */
const gchar *hipf_test_blur_path (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane);
/* @plane planned, run and its plan freed. */
hipError_t hipf_test_blur (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane, const void *src, gsize src_pitch,
    void *dst, gsize dst_pitch, void *scratch, hipStream_t stream);

#define HIPF_GPU_CHECK_MAIN(name)                                       \
int main (int argc, char **argv)                                        \
{                                                                       \
  return hipf_gpu_check_main (argc, argv, name##_suite, #name, __FILE__); \
}

#endif
