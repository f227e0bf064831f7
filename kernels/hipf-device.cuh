/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Device-side includes shared by every kernel source.
 */
#ifndef HIPF_DEVICE_CUH
#define HIPF_DEVICE_CUH

#include "hipf-kernels.h"

#if defined(HIPF_PLATFORM_AMD)
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>
#endif

namespace hipf {

__host__ __device__ inline int ceil_div (int a, int b) { return (a + b - 1) / b; }

/* Grid size that keeps every multiprocessor busy without oversubscribing a
 * persistent kernel: resident blocks per multiprocessor times their count. */
template <typename Kernel>
inline int persistent_grid (const HipfDeviceLimits * limits, Kernel kernel,
    int block_threads, size_t dynamic_shared, int work_items)
{
  int per_mp = 0;
  if (hipOccupancyMaxActiveBlocksPerMultiprocessor (&per_mp, kernel,
          block_threads, dynamic_shared) != hipSuccess || per_mp < 1)
    per_mp = 1;
  int grid = per_mp * limits->multiprocessors;
  return grid < work_items ? grid : (work_items > 0 ? work_items : 1);
}

/* Warp shuffle across the platforms: HIP 5.2 has no _sync variants, and
 * its warps (wavefronts) may be 64 wide. */
__device__ inline uint32_t shfl_up (uint32_t v, int delta)
{
#if defined(HIPF_PLATFORM_NVIDIA)
  return __shfl_up_sync (0xffffffffu, v, delta);
#else
  return __shfl_up (v, delta);
#endif
}

}  // namespace hipf

#endif /* HIPF_DEVICE_CUH */
