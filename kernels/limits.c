/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "hipf-limits.h"

hipError_t
hipf_device_limits_query (int device, HipfDeviceLimits * limits)
{
  int value;
  hipError_t err;

  if ((err = hipDeviceGetAttribute (&limits->multiprocessors,
              hipDeviceAttributeMultiprocessorCount, device)) != hipSuccess)
    return err;
  if ((err = hipDeviceGetAttribute (&limits->max_threads_per_block,
              hipDeviceAttributeMaxThreadsPerBlock, device)) != hipSuccess)
    return err;
  if ((err = hipDeviceGetAttribute (&limits->warp_size,
              hipDeviceAttributeWarpSize, device)) != hipSuccess)
    return err;
  if ((err = hipDeviceGetAttribute (&value,
              hipDeviceAttributeMaxSharedMemoryPerBlock, device)) != hipSuccess)
    return err;
  limits->shared_mem_per_block = (size_t) value;
  /* Only CUDA devices let a block opt in to more. */
  if (hipDeviceGetAttribute (&value, hipDeviceAttributeSharedMemPerBlockOptin,
          device) != hipSuccess || value <= 0)
    value = (int) limits->shared_mem_per_block;
  limits->shared_mem_optin = (size_t) value;
  limits->dependent_launch = 0;
#if defined(HIPF_PLATFORM_NVIDIA)
  if (hipDeviceGetAttribute (&value, hipDeviceAttributeComputeCapabilityMajor,
          device) == hipSuccess)
    limits->dependent_launch = value >= 9;
#endif
  (void) hipGetLastError ();
  return hipSuccess;
}
