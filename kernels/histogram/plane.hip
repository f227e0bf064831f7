/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * plane_histogram: frames of a single plane of one- or four-byte pixels.
 */
#include "histogram/algorithms.h"
#include "histogram/common.cuh"
#include "histogram/zones.cuh"

namespace hipf::hist {
namespace {

/* How plane_histogram's threads walk the region's 16-byte groups, worked
 * out on the host, so that no division holds back a thread's first
 * loads. */
struct GroupWalk
{
  uint32_t per_row;             /* groups a row of the region */
  uint32_t items;               /* groups in all */
  uint32_t row_magic;           /* for divide_corrected () by per_row */
  uint32_t row_step, g_step;    /* the grid's stride in rows and groups */
};

/* Frames of a single plane of one- or four-byte pixels (GRAY8, RGBA and
 * the other four-byte layouts) take a kernel of their own, one block a
 * multiprocessor. A thread's first groups are loaded before the copies are
 * cleared, so that their latency hides behind the clearing and the
 * barrier, and a step's loads are issued before its atomics, so that they
 * are in flight while the atomics run. No flat shortcut: shared atomics
 * that add 1 merge the lanes that hit one counter in hardware. It is
 * faster than frame_histogram on both random and constant planes
 * (docs/design/histogram.md). With ZONES it meters @zones on the way
 * (zones.cuh), from the luma its taps read: its warps then walk their
 * groups together, to the last group of the warp's first lane. */
template <int PS, int NT, bool LUMA, bool ZONES>
__global__ void __launch_bounds__ (kHistogramThreads)
plane_histogram (HipfHistogramPlane pl, GroupWalk walk, int n_channels,
    int copies, const uint8_t * __restrict__ src,
    uint32_t * __restrict__ counts, uint32_t * __restrict__ next,
    ZoneArgs zones)
{
  extern __shared__ uint32_t shared_hist[];
  constexpr int G = kPlaneGroup, pixels = G / PS;
  static_assert (G % PS == 0, "whole pixels a group");
  /* One-byte planes count into one set of counters, a copy a warp,
   * indexed by the byte itself: through Taps the GRAY8 kernel took 57
   * registers instead of 54 and 0.3 us longer. */
  constexpr bool kBytes = PS == 1;
  const int warps = blockDim.x / kWarpSize;
  const int hist_words = kBytes ? HIPF_HISTOGRAM_VALUES :
      n_channels * HIPF_HISTOGRAM_VALUES;
  const int n_copies = kBytes ? warps : copies;
  uint32_t *hist = shared_hist + (size_t) (kBytes ? threadIdx.x / kWarpSize :
      (threadIdx.x / kWarpSize) * copies / warps) * hist_words;
  const Taps<uint8_t, PS, NT, LUMA> taps (pl, hist);
  /* Counts pixel P of a group, and returns its luma. */
  auto count = [&](const uint32_t (&w)[4], auto pixel) {
    constexpr int P = decltype (pixel)::value;
    if constexpr (kBytes) {
      const uint32_t b = __byte_perm (w[P / 4], 0, byte_selector (P % 4));
      atomicAdd (hist + b, 1u);
      return b;
    } else {
      return taps.template count<P, false> (w);
    }
  };
  const ZoneMeter meter (zones, shared_hist + n_copies * hist_words);
  const int first = pl.roi_x * PS / G;
  const int roi_end = pl.roi_x + pl.roi_width;
  const uint32_t per_row = walk.per_row, items = walk.items;
  const uint32_t stride = gridDim.x * blockDim.x;
  const uint32_t t0 = blockIdx.x * blockDim.x + threadIdx.x;
  /* A thread's groups are t0, t0 + stride, ...: a cursor (row, group,
   * address) steps through them without a division or a multiplication. */
  const size_t p_step = (size_t) walk.row_step * pl.pitch + walk.g_step * G;
  const ptrdiff_t p_wrap = (ptrdiff_t) pl.pitch - (ptrdiff_t) per_row * G;
  uint32_t row = divide_corrected (t0, walk.row_magic, per_row);
  uint32_t g = t0 - row * per_row;
  const uint8_t *p = src + pl.offset + (size_t) (pl.roi_y + row) * pl.pitch
      + (size_t) (first + g) * G;
  auto load = [&](uint4 & q, int &x0) {
    x0 = (first + (int) g) * pixels;
    if (row < (uint32_t) pl.roi_height)
      q = *reinterpret_cast<const uint4 *>(p);
    g += walk.g_step;
    row += walk.row_step;
    p += p_step;
    if (g >= per_row) {
      g -= per_row;
      ++row;
      p += p_wrap;
    }
  };
  uint4 q[kGroupsAhead];
  int x0[kGroupsAhead];
#pragma unroll
  for (int k = 0; k < kGroupsAhead; ++k)
    load (q[k], x0[k]);

  if constexpr (ZONES)
    meter.begin ();
  clear_copies (next, shared_hist, n_copies * hist_words);

  /* With zones, a warp steps on while its first lane has groups left. */
  const uint32_t lane = ZONES ? threadIdx.x % kWarpSize : 0;
  for (uint32_t i0 = t0; i0 - lane < items; i0 += kGroupsAhead * stride) {
    uint4 v[kGroupsAhead];
    int x[kGroupsAhead];
#pragma unroll
    for (int k = 0; k < kGroupsAhead; ++k) {
      v[k] = q[k];
      x[k] = x0[k];
      load (q[k], x0[k]);
    }
#pragma unroll
    for (int k = 0; k < kGroupsAhead; ++k) {
      const bool valid = i0 + k * stride < items;
      if (!ZONES && !valid)
        break;
      /* With zones the group's place is worked out from its number, not
       * kept from its load: the RGBA kernel ran out of registers. */
      int y = 0;
      if constexpr (ZONES) {
        const uint32_t i = i0 + k * stride;
        y = divide_corrected (i, walk.row_magic, per_row);
        x[k] = (first + (int) (i - y * per_row)) * pixels;
      }
      const uint32_t w[4] = { v[k].x, v[k].y, v[k].z, v[k].w };
      /* The luma bytes of four-byte pixels; a one-byte plane's are w. */
      uint32_t luma[1] = { 0 };
      if (valid)
        count_pixels<pixels> ([&](auto pixel) {
              const uint32_t l = count (w, pixel);
              if constexpr (ZONES && !kBytes)
                luma[0] |= l << 8 * decltype (pixel)::value;
            }, x[k], pl.roi_x, roi_end);
      if constexpr (ZONES && kBytes)
        meter.add<pixels> (w, x[k], y, valid);
      else if constexpr (ZONES)
        meter.add<pixels> (luma, x[k], y, valid);
    }
  }
  add_copies<uint8_t> (shared_hist, n_copies, hist_words, kBytes ?
      counts + pl.tap_channel[0] * HIPF_HISTOGRAM_VALUES : counts);
  if constexpr (ZONES)
    meter.end ();
}

/* The single-plane layouts plane_histogram takes: GRAY8 and the
 * four-byte ones. */
#define HIPF_PLANE_LAYOUTS(X) \
  X (1, 1, false) X (4, 3, true) X (4, 4, true) X (4, 3, false)

/* The instance of plane_histogram for the frame's layout, if any, with
 * or without zones. */
const void *
plane_kernel (const HipfHistogramFrame & frame, bool zoned)
{
  const HipfHistogramPlane & pl = frame.planes[0];
  const void *kernel = nullptr;
  if (frame.n_planes == 1 && frame.sample_bytes == 1) {
#define HIPF_PICK(PS, NT, LUMA) if (layout_is (pl, PS, NT, LUMA)) \
      kernel = zoned ? (const void *) plane_histogram<PS, NT, LUMA, true> : \
          (const void *) plane_histogram<PS, NT, LUMA, false>;
    HIPF_PLANE_LAYOUTS (HIPF_PICK)
#undef HIPF_PICK
  }
  return kernel;
}

}                               // namespace

bool
plane_takes (const HipfHistogramFrame & frame)
{
  return plane_kernel (frame, false) != nullptr;
}

hipError_t
run_plane (const HipfDeviceLimits * limits, const HipfHistogramFrame & frame,
    const uint8_t * src, uint32_t * counts, uint32_t * next, int copies,
    size_t shared, const ZoneArgs * zones, hipStream_t stream)
{
  const HipfHistogramPlane & pl = frame.planes[0];
  const void *kernel = plane_kernel (frame, zones != nullptr);
  const int warps = kHistogramThreads / limits->warp_size;
  /* One-byte planes count into a 256-word copy a warp, whatever the
   * frame's channels; the zones' counters follow the copies. */
  const size_t plane_shared = (pl.pixel_stride == 1 ? (size_t) warps *
      HIPF_HISTOGRAM_VALUES * sizeof (uint32_t) : shared) +
      zone_shared_bytes (zones);
  GroupWalk walk;
  walk.per_row = ceil_div ((pl.roi_x + pl.roi_width) * pl.pixel_stride,
      kPlaneGroup) - pl.roi_x * pl.pixel_stride / kPlaneGroup;
  walk.items = walk.per_row * pl.roi_height;
  walk.row_magic = 0xffffffffu / walk.per_row;
  /* One block a multiprocessor, whatever the occupancy allows: with two,
   * a stripped-down GRAY8 kernel of 32 registers took 0.6 us longer. */
  (void) resident_blocks (kernel, kHistogramThreads, plane_shared,
      limits->shared_mem_optin - kStaticShared);
  const int grid = walk.items < (uint32_t) (limits->multiprocessors *
      kHistogramThreads) ? ceil_div (walk.items, kHistogramThreads) :
      limits->multiprocessors;
  const uint32_t stride = grid * kHistogramThreads;
  walk.row_step = stride / walk.per_row;
  walk.g_step = stride % walk.per_row;
  int n_channels = frame.n_channels;
  ZoneArgs zone_args = zones ? *zones : ZoneArgs ();
  void *args[] = { (void *) &pl, &walk, &n_channels, &copies,
    (void *) &src, &counts, &next, &zone_args };
  return hipLaunchKernel (kernel, dim3 (grid), dim3 (kHistogramThreads),
      args, plane_shared, stream);
}

}                               // namespace hipf::hist
