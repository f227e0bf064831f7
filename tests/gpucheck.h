/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef HIPF_GPUCHECK_H
#define HIPF_GPUCHECK_H

#include <gst/check/gstcheck.h>

/* Exit status meson counts as a skipped test. */
#define HIPF_TEST_SKIP 77

/* Runs @suite when a HIP device is present; otherwise skips. */
int hipf_gpu_check_main (int argc, char **argv, Suite * (*suite) (void),
    const gchar * name, const gchar * file);

#define HIPF_GPU_CHECK_MAIN(name)                                       \
int main (int argc, char **argv)                                        \
{                                                                       \
  return hipf_gpu_check_main (argc, argv, name##_suite, #name, __FILE__); \
}

#endif
