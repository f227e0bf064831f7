/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per-frame histograms of every channel of every plane, in one launch.
 *
 * Each block keeps several copies of the histograms in shared memory (one
 * per group of warps) so that warps rarely contend for one counter, and each
 * thread merges runs of equal samples before it touches shared memory, so a
 * flat frame costs one atomic per run rather than one per sample. Threads
 * read 16-byte groups of a row (48 for 3-byte pixels) and decode the pixels
 * in registers. Blocks add their copies into the frame's histograms at the
 * end.
 */
#include "hipf-device.cuh"

namespace hipf {
namespace {

constexpr int kHistogramThreads = 256;

/* Counts runs of one value: an atomic only when the value changes. */
struct RunCounter
{
  uint32_t value;
  uint32_t run;

  __device__ void add (uint32_t v, uint32_t * hist)
  {
    if (v == value) {
      ++run;
      return;
    }
    flush (hist);
    value = v;
    run = 1;
  }
  __device__ void flush (uint32_t * hist)
  {
    if (run)
      atomicAdd (&hist[value], run);
    run = 0;
  }
};

__device__ inline uint32_t rgb_luma (uint32_t r, uint32_t g, uint32_t b)
{
  return (77 * r + 150 * g + 29 * b + 128) >> 8;
}

/* Bytes a thread reads at once: 16, or 48 for 3-byte pixels so that a
 * group holds whole pixels. */
template <int PS>
__host__ __device__ constexpr int group_bytes ()
{
  return PS == 3 ? 48 : 16;
}

/* The 32 bits starting at byte b of a group held in registers. */
template <int PS, int B>
__device__ inline uint32_t bytes_at (const uint32_t (&w)[group_bytes<PS> () / 4])
{
  constexpr int k = B / 4, shift = 8 * (B % 4);
  constexpr int words = group_bytes<PS> () / 4;
  if constexpr (shift == 0) {
    return w[k];
  } else {
    const uint32_t hi = k + 1 < words ? w[k + 1] : 0;
    return (w[k] >> shift) | (hi << (32 - shift));
  }
}

constexpr int kSlots = HIPF_HISTOGRAM_MAX_TAPS + 1;

/* Counts one row of the region of interest of a plane with PS-byte pixels:
 * each thread reads 16-byte groups (coalesced across the block) and feeds
 * every tap of every pixel in them to its run counters. */
template <int PS, int P>
__device__ inline void count_pixel (const uint32_t (&w)[group_bytes<PS> () / 4],
    const HipfHistogramPlane & pl, int x, RunCounter (&counter)[kSlots],
    uint32_t * (&slot_hist)[kSlots])
{
  if (x < pl.roi_x || x >= pl.roi_x + pl.roi_width)
    return;
  const uint32_t px = bytes_at<PS, P * PS> (w);
#pragma unroll
  for (int t = 0; t < HIPF_HISTOGRAM_MAX_TAPS; ++t)
    if (t < pl.n_taps)
      counter[t].add ((px >> (8 * pl.tap_offset[t])) & 0xff, slot_hist[t]);
  if (pl.luma_channel >= 0)
    counter[kSlots - 1].add (rgb_luma ((px >> (8 * pl.rgb_offset[0])) & 0xff,
            (px >> (8 * pl.rgb_offset[1])) & 0xff,
            (px >> (8 * pl.rgb_offset[2])) & 0xff), slot_hist[kSlots - 1]);
}

template <int PS>
__device__ inline void count_row (const uint8_t * line,
    const HipfHistogramPlane & pl, RunCounter (&counter)[kSlots],
    uint32_t * (&slot_hist)[kSlots])
{
  constexpr int G = group_bytes<PS> (), pixels = G / PS;
  const int first = (pl.roi_x * PS) / G;
  const int last = ((pl.roi_x + pl.roi_width) * PS + G - 1) / G;

  for (int g = first + threadIdx.x; g < last; g += blockDim.x) {
    uint32_t w[G / 4];
    const uint4 *q = reinterpret_cast<const uint4 *>(line + (size_t) g * G);
#pragma unroll
    for (int k = 0; k < G / 16; ++k) {
      const uint4 v = q[k];
      w[4 * k] = v.x;
      w[4 * k + 1] = v.y;
      w[4 * k + 2] = v.z;
      w[4 * k + 3] = v.w;
    }
    const int x0 = g * pixels;
#define HIPF_PIXEL(P) if (P < pixels) \
      count_pixel<PS, (P < pixels ? P : 0)> (w, pl, x0 + P, counter, slot_hist);
    HIPF_PIXEL (0) HIPF_PIXEL (1) HIPF_PIXEL (2) HIPF_PIXEL (3)
    HIPF_PIXEL (4) HIPF_PIXEL (5) HIPF_PIXEL (6) HIPF_PIXEL (7)
    HIPF_PIXEL (8) HIPF_PIXEL (9) HIPF_PIXEL (10) HIPF_PIXEL (11)
    HIPF_PIXEL (12) HIPF_PIXEL (13) HIPF_PIXEL (14) HIPF_PIXEL (15)
#undef HIPF_PIXEL
  }
}

/* Rows of the regions of interest of every plane, numbered one after the
 * other, are shared out among the blocks. */
__global__ void __launch_bounds__ (kHistogramThreads)
frame_histogram (HipfHistogramFrame frame, const uint8_t * __restrict__ src,
    uint32_t * __restrict__ counts, int copies)
{
  extern __shared__ uint32_t shared_hist[];
  const int hist_words = frame.n_channels * HIPF_HISTOGRAM_VALUES;
  const int warps = blockDim.x / warpSize;
  uint32_t *hist = shared_hist +
      (size_t) ((threadIdx.x / warpSize) * copies / warps) * hist_words;

  for (int i = threadIdx.x; i < copies * hist_words; i += blockDim.x)
    shared_hist[i] = 0;
  __syncthreads ();

  int total_rows = 0;
  for (int p = 0; p < frame.n_planes; ++p)
    total_rows += frame.planes[p].roi_height;

  /* Slot t counts tap t of the current plane, the last slot its luma; the
   * slots are flushed whenever the plane, and so their channels, change. */
  RunCounter counter[kSlots];
  uint32_t *slot_hist[kSlots];
#pragma unroll
  for (int k = 0; k < kSlots; ++k) {
    counter[k] = RunCounter { 0, 0 };
    slot_hist[k] = hist;
  }

  int plane = -1;
  for (int row = blockIdx.x; row < total_rows; row += gridDim.x) {
    int p = 0, r = row;
    while (r >= frame.planes[p].roi_height) {
      r -= frame.planes[p].roi_height;
      ++p;
    }
    const HipfHistogramPlane & pl = frame.planes[p];
    if (p != plane) {
#pragma unroll
      for (int k = 0; k < kSlots; ++k) {
        counter[k].flush (slot_hist[k]);
        int channel = k < kSlots - 1 ? (k < pl.n_taps ? pl.tap_channel[k] : 0)
            : (pl.luma_channel >= 0 ? pl.luma_channel : 0);
        slot_hist[k] = hist + channel * HIPF_HISTOGRAM_VALUES;
      }
      plane = p;
    }
    const uint8_t *line = src + pl.offset + (size_t) (pl.roi_y + r) * pl.pitch;
    switch (pl.pixel_stride) {
      case 1: count_row<1> (line, pl, counter, slot_hist); break;
      case 2: count_row<2> (line, pl, counter, slot_hist); break;
      case 3: count_row<3> (line, pl, counter, slot_hist); break;
      default: count_row<4> (line, pl, counter, slot_hist); break;
    }
  }
#pragma unroll
  for (int k = 0; k < kSlots; ++k)
    counter[k].flush (slot_hist[k]);
  __syncthreads ();

  for (int i = threadIdx.x; i < hist_words; i += blockDim.x) {
    uint32_t sum = 0;
    for (int k = 0; k < copies; ++k)
      sum += shared_hist[k * hist_words + i];
    if (sum)
      atomicAdd (&counts[i], sum);
  }
}

}  // namespace
}  // namespace hipf

extern "C" hipError_t
hipf_histogram (const HipfDeviceLimits * limits,
    const HipfHistogramFrame * frame, const uint8_t * src, uint32_t * counts,
    hipStream_t stream)
{
  using namespace hipf;
  /* Clears an error an earlier call on this thread left behind, so that
   * the error returned is this launch's own. */
  (void) hipGetLastError ();
  if (frame->n_channels < 1 || frame->n_channels > HIPF_HISTOGRAM_MAX_CHANNELS
      || frame->n_planes < 1 || frame->n_planes > 3)
    return hipErrorInvalidValue;

  const size_t hist_bytes =
      (size_t) frame->n_channels * HIPF_HISTOGRAM_VALUES * sizeof (uint32_t);
  hipError_t err = hipMemsetAsync (counts, 0, hist_bytes, stream);
  if (err != hipSuccess)
    return err;

  int rows = 0;
  for (int p = 0; p < frame->n_planes; ++p)
    rows += frame->planes[p].roi_width > 0 ? frame->planes[p].roi_height : 0;
  if (rows == 0)
    return hipSuccess;

  /* As many copies as there are warps, or as fit in shared memory. */
  const int warps = kHistogramThreads / limits->warp_size;
  int copies = (int) (limits->shared_mem_per_block / hist_bytes);
  copies = copies < warps ? copies : warps;
  copies = copies > 0 ? copies : 1;
  const size_t shared = copies * hist_bytes;
  const int grid = persistent_grid (limits, frame_histogram, kHistogramThreads,
      shared, rows);

  frame_histogram <<<grid, kHistogramThreads, shared, stream>>> (*frame, src,
      counts, copies);
  return hipGetLastError ();
}
