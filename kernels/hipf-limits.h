/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef HIPF_LIMITS_H
#define HIPF_LIMITS_H

#include <stddef.h>

#include "hipf-runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the launch wrappers need to know of the device to size their grids. */
typedef struct HipfDeviceLimits {
  int multiprocessors;
  int max_threads_per_block;
  int warp_size;
  size_t shared_mem_per_block;
  size_t shared_mem_optin;      /* the most a block may ask for explicitly */
  /* Whether a kernel may start while the one before it on a stream is
   * finishing (CUDA's programmatic dependent launch, compute capability
   * 9.0 on); the launch wrappers then overlap their kernels' launches. */
  int dependent_launch;
} HipfDeviceLimits;

hipError_t hipf_device_limits_query (int device, HipfDeviceLimits * limits);

#ifdef __cplusplus
}
#endif

#endif /* HIPF_LIMITS_H */
