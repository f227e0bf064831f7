/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * frame_histogram: any frame, every plane in one launch, with the flat
 * shortcut (common.cuh says why).
 */
#include "histogram/algorithms.h"
#include "histogram/common.cuh"
#include "histogram/zones.cuh"

namespace hipf::hist {
namespace {

/* Whether every pixel of a group equals its first. */
template <int PS>
__device__ inline bool group_is_flat (const uint32_t (&w)[group_bytes<PS> () / 4])
{
  constexpr int words = group_bytes<PS> () / 4;
  bool flat = true;
  if constexpr (PS == 3) {
    const uint32_t first = bytes_at<3, 0> (w) & 0xffffff;
#define HIPF_SAME(P) flat = flat && (bytes_at<3, 3 * P> (w) & 0xffffff) == first;
    HIPF_SAME (1) HIPF_SAME (2) HIPF_SAME (3) HIPF_SAME (4) HIPF_SAME (5)
    HIPF_SAME (6) HIPF_SAME (7) HIPF_SAME (8) HIPF_SAME (9) HIPF_SAME (10)
    HIPF_SAME (11) HIPF_SAME (12) HIPF_SAME (13) HIPF_SAME (14) HIPF_SAME (15)
#undef HIPF_SAME
  } else {
#pragma unroll
    for (int k = 1; k < words; ++k)
      flat = flat && w[k] == w[0];
    if (PS == 1)
      flat = flat && w[0] == (w[0] & 0xff) * 0x01010101u;
    else if (PS == 2)
      flat = flat && (w[0] >> 16) == (w[0] & 0xffff);
  }
  return flat;
}

/* Counts one group whose first pixel is x0 of the plane; pixels outside
 * [roi_x, roi_end) do not count. */
template <typename Sample, int PS, int NT, bool LUMA>
__device__ __forceinline__ void count_group (const Taps<Sample, PS, NT,
        LUMA> & taps,
    const uint32_t (&w)[group_bytes<PS> () / 4], int x0, int roi_x,
    int roi_end)
{
  constexpr int pixels = group_bytes<PS> () / PS;
  const bool inside = x0 >= roi_x && x0 + pixels <= roi_end;
  /* The flat shortcut, when every lane here holds one pixel value. */
  const uint32_t px0 = bytes_at<PS, 0> (w);
  const lane_mask mask = active_lanes ();
  const int leader = first_lane (mask);
  const uint32_t lead_px = shfl_among (mask, px0, leader);
  if (all_among (mask, inside && group_is_flat<PS> (w) && px0 == lead_px)) {
    if ((int) (threadIdx.x % kWarpSize) == leader)
      taps.template count<0, true> (w, lane_count (mask) * pixels);
    return;
  }
  count_pixels<pixels> ([&](auto pixel) {
        taps.template count<decltype (pixel)::value, false> (w);
      }, x0, roi_x, roi_end);
}

/* Counts the groups of one plane's region of interest. Groups are numbered
 * row by row and dealt out to every thread of the grid in turn, so that no
 * thread idles on narrow rows; each thread loads several groups before it
 * counts any. With ZONES, the plane is the luma plane, whole, and its
 * groups also go to @meter: a warp then steps on while its first lane has
 * groups left. */
template <typename Sample, int PS, int NT, bool LUMA, bool ZONES = false>
__device__ __forceinline__ void count_plane (const uint8_t * src,
    const HipfHistogramPlane & pl, uint32_t * copy,
    const ZoneMeter * meter = nullptr)
{
  constexpr int G = group_bytes<PS> (), pixels = G / PS, words = G / 4;
  constexpr int U = PS == 3 ? 1 : 2;
  const int first = (pl.roi_x * PS) / G;
  const int last = ((pl.roi_x + pl.roi_width) * PS + G - 1) / G;
  const uint32_t per_row = last - first;
  const uint32_t items = per_row * pl.roi_height;
  const uint32_t row_magic = 0xffffffffu / per_row;
  const uint32_t stride = gridDim.x * blockDim.x;
  const int roi_end = pl.roi_x + pl.roi_width;
  const uint8_t *plane = src + pl.offset + (size_t) pl.roi_y * pl.pitch;
  const Taps<Sample, PS, NT, LUMA> taps (pl, copy);

  const uint32_t lane = ZONES ? threadIdx.x % kWarpSize : 0;
  for (uint32_t i0 = blockIdx.x * blockDim.x + threadIdx.x; i0 - lane < items;
      i0 += U * stride) {
    uint32_t w[U][words];
    int x0[U], y[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const uint32_t i = i0 + u * stride;
      const uint32_t row = divide_corrected (i, row_magic, per_row);
      const int g = first + (int) (i - row * per_row);
      x0[u] = g * pixels;
      y[u] = row;
      if (i < items) {
        const uint4 *q = reinterpret_cast<const uint4 *>(plane +
            (size_t) row * pl.pitch + (size_t) g * G);
#pragma unroll
        for (int k = 0; k < G / 16; ++k) {
          const uint4 v = q[k];
          w[u][4 * k] = v.x;
          w[u][4 * k + 1] = v.y;
          w[u][4 * k + 2] = v.z;
          w[u][4 * k + 3] = v.w;
        }
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (i0 + u * stride < items)
        count_group<Sample, PS, NT, LUMA> (taps, w[u], x0[u], pl.roi_x,
            roi_end);
    if constexpr (ZONES) {
#pragma unroll
      for (int u = 0; u < U; ++u)
        meter->template add<pixels> (w[u], x0[u], y[u],
            i0 + u * stride < items);
    }
  }
}

/* The layouts of the planes after the luma plane in frames whose zones
 * frame_histogram meters: planar and semi-planar YUV chroma. Only these
 * are compiled into its zoned instance. */
#define HIPF_ZONED_CHROMA_LAYOUTS(X) X (1, 1, false) X (2, 2, false)

/* count_plane for the plane's layout; CHROMA: one of the zoned frames'
 * chroma layouts. */
template <typename Sample, bool CHROMA = false>
__device__ __forceinline__ void count_any_plane (const uint8_t * src,
    const HipfHistogramPlane & pl, uint32_t * copy)
{
#define HIPF_COUNT(PS, NT, LUMA) \
  if (layout_is (pl, PS, NT, LUMA)) { \
    count_plane<Sample, PS, NT, LUMA> (src, pl, copy); \
    return; \
  }
  if constexpr (CHROMA) {
    HIPF_ZONED_CHROMA_LAYOUTS (HIPF_COUNT)
  } else if constexpr (sizeof (Sample) == 2) {
    HIPF_HISTOGRAM_WIDE_LAYOUTS (HIPF_COUNT)
  } else {
    HIPF_HISTOGRAM_LAYOUTS (HIPF_COUNT)
  }
#undef HIPF_COUNT
}

/* Adds the frame's histograms into counts (zero before the launch) and
 * clears next, the half the next launch adds into. With ZONES (8-bit
 * planar and semi-planar YUV: the host checks) it meters @zones in the
 * first plane, the luma plane, on the way. */
template <typename Sample, bool ZONES>
__global__ void __launch_bounds__ (kHistogramThreads)
frame_histogram (HipfHistogramFrame frame, const uint8_t * __restrict__ src,
    uint32_t * __restrict__ counts, uint32_t * __restrict__ next, int copies,
    ZoneArgs zones)
{
  extern __shared__ uint32_t shared_hist[];
  const int hist_words = frame.n_channels * Counting<Sample>::kValues;
  const int warps = blockDim.x / kWarpSize;
  uint32_t *hist = shared_hist +
      (size_t) ((threadIdx.x / kWarpSize) * copies / warps) * hist_words;
  const ZoneMeter meter (zones, shared_hist + copies * hist_words);

  if constexpr (ZONES)
    meter.begin ();
  clear_copies (next, shared_hist, copies * hist_words);
  for (int p = 0; p < frame.n_planes; ++p) {
    const HipfHistogramPlane & pl = frame.planes[p];
    if (pl.roi_width <= 0 || pl.roi_height <= 0)
      continue;
    if constexpr (!ZONES)
      count_any_plane<Sample> (src, pl, hist);
    else if (p == 0)
      count_plane<uint8_t, 1, 1, false, true> (src, pl, hist, &meter);
    else
      count_any_plane<uint8_t, true> (src, pl, hist);
  }
  add_copies<Sample> (shared_hist, copies, hist_words, counts);
  if constexpr (ZONES)
    meter.end ();
}

}                               // namespace

/* The 16-bit instance for frames of 16-bit samples, the zoned one for
 * @zones. */
hipError_t
run_frame (const HipfDeviceLimits * limits, const HipfHistogramFrame & frame,
    const uint8_t * src, uint32_t * counts, uint32_t * next, int copies,
    size_t shared, int rows, const ZoneArgs * zones, hipStream_t stream)
{
  const ZoneArgs none = ZoneArgs ();
  if (zones) {
    shared += zone_shared_bytes (zones);
    const int grid = persistent_grid (limits, frame_histogram<uint8_t, true>,
        kHistogramThreads, shared, rows, kStaticShared);
    frame_histogram<uint8_t, true> <<<grid, kHistogramThreads, shared,
        stream>>> (frame, src, counts, next, copies, *zones);
    return hipGetLastError ();
  }
  if (frame.sample_bytes == 2) {
    const int grid = persistent_grid (limits, frame_histogram<uint16_t, false>,
        kHistogramThreads, shared, rows, kStaticShared);
    frame_histogram<uint16_t, false> <<<grid, kHistogramThreads, shared,
        stream>>> (frame, src, counts, next, copies, none);
    return hipGetLastError ();
  }
  const int grid = persistent_grid (limits, frame_histogram<uint8_t, false>,
      kHistogramThreads, shared, rows, kStaticShared);

  frame_histogram<uint8_t, false> <<<grid, kHistogramThreads, shared,
      stream>>> (frame, src, counts, next, copies, none);
  return hipGetLastError ();
}

/* Planes whose zones the zoned instance meters: the luma plane of 8-bit
 * planar or semi-planar YUV (one byte a sample, one tap), its other
 * planes of the chroma layouts compiled in. */
bool
frame_takes_zones (const HipfHistogramFrame & frame)
{
  if (frame.sample_bytes != 1 || frame.n_planes < 2
      || !layout_is (frame.planes[0], 1, 1, false))
    return false;
  for (int p = 1; p < frame.n_planes; ++p) {
    bool chroma = false;
#define HIPF_IS(PS, NT, LUMA) chroma = chroma || layout_is (frame.planes[p], \
        PS, NT, LUMA);
    HIPF_ZONED_CHROMA_LAYOUTS (HIPF_IS)
#undef HIPF_IS
    if (!chroma)
      return false;
  }
  return true;
}

}                               // namespace hipf::hist
