/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Device-side includes shared by every kernel source.
 */
#ifndef HIPF_DEVICE_CUH
#define HIPF_DEVICE_CUH

#include <mutex>

#include "hipf-kernels.h"

#if defined(HIPF_PLATFORM_AMD)
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>
#endif

namespace hipf {

__host__ __device__ inline int ceil_div (int a, int b) { return (a + b - 1) / b; }

/* Blocks of @kernel resident per multiprocessor, asked of the runtime once
 * per device, kernel, block size and shared memory size: the answer does
 * not change, and asking costs host time on every frame. Kernels may use
 * up to @shared_optin bytes of dynamic shared memory. */
inline int resident_blocks (const void *kernel, int threads, size_t shared,
    size_t shared_optin)
{
  struct Entry
  {
    int device;
    const void *kernel;
    int threads;
    size_t shared;
    int per_mp;
  };
  constexpr int kEntries = 16;
  static Entry cache[kEntries];
  static int next;
  static std::mutex lock;
  int device = 0;
  (void) hipGetDevice (&device);

  std::lock_guard<std::mutex> guard (lock);
  for (const Entry & e : cache)
    if (e.kernel == kernel && e.device == device && e.threads == threads
        && e.shared == shared)
      return e.per_mp;
  (void) hipFuncSetAttribute (kernel,
      hipFuncAttributeMaxDynamicSharedMemorySize, (int) shared_optin);
  int per_mp = 0;
  if (hipOccupancyMaxActiveBlocksPerMultiprocessor (&per_mp, kernel, threads,
          shared) != hipSuccess || per_mp < 1)
    per_mp = 1;
  (void) hipGetLastError ();
  cache[next] = Entry { device, kernel, threads, shared, per_mp };
  next = (next + 1) % kEntries;
  return per_mp;
}

/* Grid size that keeps every multiprocessor busy without oversubscribing a
 * persistent kernel: resident blocks per multiprocessor times their count. */
template <typename Kernel>
inline int persistent_grid (const HipfDeviceLimits * limits, Kernel kernel,
    int block_threads, size_t dynamic_shared, int work_items,
    size_t static_shared = 0)
{
  const int per_mp = resident_blocks ((const void *) kernel, block_threads,
      dynamic_shared, limits->shared_mem_optin - static_shared);
  int grid = per_mp * limits->multiprocessors;
  return grid < work_items ? grid : (work_items > 0 ? work_items : 1);
}

/* Dependent launches: a kernel that launch_dependent() starts may be
 * launched while the kernel before it on the stream is still running, so
 * that its launch and its blocks' start overlap that kernel's last blocks.
 * It must call wait_for_prior_grid(), which returns once that kernel has
 * finished and its writes are visible, before it touches memory. A kernel
 * that calls allow_dependent_grid() lets the next one launch once all its
 * blocks have called it, rather than as they finish. Where the device has
 * no such launches (AMD, and NVIDIA before compute capability 9.0), the
 * launch is an ordinary one and both calls do nothing. */
inline hipError_t launch_dependent (const HipfDeviceLimits * limits,
    const void *kernel, dim3 grid, dim3 block, void **args, size_t shared,
    hipStream_t stream)
{
#if defined(HIPF_PLATFORM_NVIDIA)
  if (limits->dependent_launch) {
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = { };
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    config.attrs = &attr;
    config.numAttrs = 1;
    return cudaLaunchKernelExC (&config, kernel, args);
  }
#endif
  return hipLaunchKernel (kernel, grid, block, args, shared, stream);
}

#if defined(HIPF_PLATFORM_NVIDIA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define HIPF_DEPENDENT_LAUNCH 1
#endif

__device__ inline void wait_for_prior_grid ()
{
#ifdef HIPF_DEPENDENT_LAUNCH
  asm volatile ("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ inline void allow_dependent_grid ()
{
#ifdef HIPF_DEPENDENT_LAUNCH
  asm volatile ("griddepcontrol.launch_dependents;");
#endif
}
#undef HIPF_DEPENDENT_LAUNCH

/* Lanes of a warp as a constant, so that loops over them unroll. On AMD it
 * depends on the target (wave64 on GCN and CDNA, wave32 on RDNA). */
#if defined(HIPF_PLATFORM_NVIDIA)
constexpr int kWarpSize = 32;
#elif defined(__AMDGCN_WAVEFRONT_SIZE)
constexpr int kWarpSize = __AMDGCN_WAVEFRONT_SIZE;
#else
constexpr int kWarpSize = 64;           /* the host pass: never used there */
#endif

/* floor (x / n) from m = floor ((2^32 - 1) / n), which falls short by at
 * most one. */
__device__ inline uint32_t divide_corrected (uint32_t x, uint32_t m, uint32_t n)
{
  const uint32_t q = __umulhi (x, m);
  return q + ((q + 1) * n <= x);
}

/* Warp shuffles across the platforms: HIP 5.2 has no _sync variants, and
 * its warps (wavefronts) may be 64 wide. */
#if defined(HIPF_PLATFORM_NVIDIA)
#define HIPF_SHUFFLE(op, v, arg) __##op##_sync (0xffffffffu, v, arg)
#else
#define HIPF_SHUFFLE(op, v, arg) __##op (v, arg)
#endif
__device__ inline uint32_t shfl_up (uint32_t v, int delta)
{
  return HIPF_SHUFFLE (shfl_up, v, delta);
}

__device__ inline uint32_t shfl (uint32_t v, int src)
{
  return HIPF_SHUFFLE (shfl, v, src);
}

__device__ inline uint32_t shfl_down (uint32_t v, int delta)
{
  return HIPF_SHUFFLE (shfl_down, v, delta);
}

__device__ inline uint32_t shfl_xor (uint32_t v, int mask)
{
  return HIPF_SHUFFLE (shfl_xor, v, mask);
}
#undef HIPF_SHUFFLE

/* Sum of v over the whole warp, in every lane: one instruction where the
 * hardware reduces (NVIDIA sm_80 and later), a butterfly elsewhere. */
__device__ inline uint32_t warp_sum (uint32_t v)
{
#if defined(HIPF_PLATFORM_NVIDIA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync (0xffffffffu, v);
#else
#pragma unroll
  for (int mask = kWarpSize / 2; mask > 0; mask >>= 1)
    v += shfl_xor (v, mask);
  return v;
#endif
}

/* Least and greatest of v over the whole warp, in every lane, as
 * warp_sum. */
__device__ inline uint32_t warp_min (uint32_t v)
{
#if defined(HIPF_PLATFORM_NVIDIA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_min_sync (0xffffffffu, v);
#else
#pragma unroll
  for (int mask = kWarpSize / 2; mask > 0; mask >>= 1)
    v = min (v, shfl_xor (v, mask));
  return v;
#endif
}

__device__ inline uint32_t warp_max (uint32_t v)
{
#if defined(HIPF_PLATFORM_NVIDIA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync (0xffffffffu, v);
#else
#pragma unroll
  for (int mask = kWarpSize / 2; mask > 0; mask >>= 1)
    v = max (v, shfl_xor (v, mask));
  return v;
#endif
}

/* The warp's lanes meet, each seeing the shared-memory writes the others
 * made before. HIP 5.2 has no __syncwarp: a wavefront runs in lockstep,
 * and only the order of its memory accesses around that point needs
 * keeping. */
__device__ inline void warp_sync ()
{
#if defined(HIPF_PLATFORM_NVIDIA)
  __syncwarp ();
#else
  __builtin_amdgcn_fence (__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier ();
  __builtin_amdgcn_fence (__ATOMIC_ACQUIRE, "wavefront");
#endif
}

/* The lanes of the warp running this code, and votes and shuffles among
 * them only (a loop may have left some lanes behind). */
#if defined(HIPF_PLATFORM_NVIDIA)
typedef uint32_t lane_mask;
__device__ inline lane_mask active_lanes () { return __activemask (); }
__device__ inline int first_lane (lane_mask m) { return __ffs (m) - 1; }
__device__ inline int lane_count (lane_mask m) { return __popc (m); }
__device__ inline bool all_among (lane_mask m, bool p) { return __all_sync (m, p); }
__device__ inline uint32_t shfl_among (lane_mask m, uint32_t v, int src)
{
  return __shfl_sync (m, v, src);
}
#else
typedef uint64_t lane_mask;
__device__ inline lane_mask active_lanes () { return __ballot (1); }
__device__ inline int first_lane (lane_mask m) { return __ffsll ((unsigned long long) m) - 1; }
__device__ inline int lane_count (lane_mask m) { return __popcll (m); }
__device__ inline bool all_among (lane_mask, bool p) { return __all (p); }
__device__ inline uint32_t shfl_among (lane_mask, uint32_t v, int src)
{
  return __shfl (v, src);
}
#endif

/* The lanes of the whole warp (every one of them calls it) for which p
 * holds. */
__device__ inline lane_mask warp_ballot (bool p)
{
#if defined(HIPF_PLATFORM_NVIDIA)
  return __ballot_sync (0xffffffffu, p);
#else
  return __ballot (p);
#endif
}

}  // namespace hipf

#endif /* HIPF_DEVICE_CUH */
