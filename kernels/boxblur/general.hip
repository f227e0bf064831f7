/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The general path, for planes no other algorithm takes: column_prefix_sum
 * stores the prefix down every sample column, in segments of rows whose
 * totals column_segment_totals adds first; box_blur_rows takes each
 * row's vertical window sums from it, scans them along the row and forms
 * the horizontal window sums. Any size, any radius; the slowest path, and
 * the one for 16-bit samples (Sample = uint16_t).
 *
 * Column prefixes are 32-bit for either sample size: a vertical window
 * holds at most 4001 samples of at most 65 535, so the differences of
 * wrapping prefixes stay exact. A whole window of 16-bit samples reaches
 * 4001^2 * 65 535 (about 2^40): rows then scan in 64 bits (Wide<>).
 */
#include "boxblur/algorithms.h"
#include "boxblur/common.cuh"

#include <algorithm>
#include <climits>
#include <type_traits>

namespace hipf::blur {
namespace {

/* The row sums' type for a sample type. */
template <typename Sample>
using Wide = std::conditional_t<sizeof (Sample) == 1, uint32_t, uint64_t>;

/* Samples are read as (v >> shift) and means stored as (m << shift):
 * P010 keeps its 10 bits in the high bits of each word. */
template <typename Sample>
__device__ inline uint32_t column_sample (const uint8_t * src, size_t pitch,
    int y, int i, int shift)
{
  return reinterpret_cast<const Sample *>(src + (size_t) y * pitch)[i]
      >> shift;
}

/* The columns are cut into segments of @rows rows, so that enough threads
 * walk them to fill the device: one column a thread walks a plane's
 * height in a chain of dependent loads. First each segment's total. */
template <typename Sample>
__global__ void column_segment_totals (const uint8_t * __restrict__ src,
    size_t pitch, int row_samples, int height, int rows, int shift,
    uint32_t * __restrict__ totals)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= row_samples)
    return;
  const int y0 = blockIdx.y * rows;
  const int y1 = min (y0 + rows, height);
  uint32_t acc = 0;
  for (int y = y0; y < y1; ++y)
    acc += column_sample<Sample> (src, pitch, y, i, shift);
  totals[(size_t) blockIdx.y * row_samples + i] = acc;
}

/* Then each segment's prefixes, from the totals of the segments above:
 * the same wrapping 32-bit prefixes one walk down the column gives. */
template <typename Sample>
__global__ void column_prefix_sum (const uint8_t * __restrict__ src,
    size_t pitch, int row_samples, int height, int rows, int shift,
    const uint32_t * __restrict__ totals, uint32_t * __restrict__ prefix)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= row_samples)
    return;
  const int y0 = blockIdx.y * rows;
  const int y1 = min (y0 + rows, height);
  uint32_t acc = 0;
  for (int s = 0; s < (int) blockIdx.y; ++s)
    acc += totals[(size_t) s * row_samples + i];
  if (blockIdx.y == 0)
    prefix[i] = 0;
  for (int y = y0; y < y1; ++y) {
    acc += column_sample<Sample> (src, pitch, y, i, shift);
    prefix[(size_t) (y + 1) * row_samples + i] = acc;
  }
}

/* Inclusive scan of kRowThreads values per channel, in place. */
template <int Channels, typename Sum>
__device__ inline void
block_inclusive_scan (Sum (&values)[kMaxChannels][kRowThreads])
{
  const int tid = threadIdx.x;
  for (int offset = 1; offset < kRowThreads; offset <<= 1) {
    Sum add[Channels];
#pragma unroll
    for (int c = 0; c < Channels; ++c)
      add[c] = tid >= offset ? values[c][tid - offset] : 0;
    __syncthreads ();
#pragma unroll
    for (int c = 0; c < Channels; ++c)
      values[c][tid] += add[c];
    __syncthreads ();
  }
}

template <int Channels, typename Sample>
__global__ void __launch_bounds__ (kRowThreads)
box_blur_rows (const uint32_t * __restrict__ column_prefix, int width,
    int height, int radius_x, int radius_y, HipfBorderMode mode, int shift,
    uint8_t * __restrict__ dst, size_t dst_pitch, Wide<Sample> * row_scratch)
{
  using Sum = Wide<Sample>;
  __shared__ Sum scan[kMaxChannels][kRowThreads];
  const int tid = threadIdx.x;
  const int row_samples = width * Channels;
  /* P(x) of channel c lives at row[x * Channels + c], x in [0, width]. */
  Sum *row = row_scratch + (size_t) blockIdx.x * (width + 1) * Channels;

  for (int y = blockIdx.x; y < height; y += gridDim.x) {
    const int ya = y - radius_y, yb = y + radius_y + 1;
    const uint32_t count_y = window_count (ya, yb, height, mode);
    Sum carry[Channels];
#pragma unroll
    for (int c = 0; c < Channels; ++c)
      carry[c] = 0;
    if (tid < Channels)
      row[tid] = 0;

    for (int x0 = 0; x0 < width; x0 += kRowThreads) {
      const int x = x0 + tid;
#pragma unroll
      for (int c = 0; c < Channels; ++c) {
        uint32_t v = 0;
        if (x < width) {
          StridedPrefix col = { column_prefix + x * Channels + c,
              (size_t) row_samples };
          v = extended_prefix (col, height, yb, mode) -
              extended_prefix (col, height, ya, mode);
        }
        scan[c][tid] = v;
      }
      __syncthreads ();
      block_inclusive_scan<Channels> (scan);
      if (x < width) {
#pragma unroll
        for (int c = 0; c < Channels; ++c)
          row[(size_t) (x + 1) * Channels + c] = carry[c] + scan[c][tid];
      }
#pragma unroll
      for (int c = 0; c < Channels; ++c)
        carry[c] += scan[c][kRowThreads - 1];
      __syncthreads ();
    }
    /* Makes the row prefix written above visible to the whole block. */
    __syncthreads ();

    Sample *out = reinterpret_cast<Sample *>(dst + (size_t) y * dst_pitch);
    for (int x = tid; x < width; x += kRowThreads) {
      const int xa = x - radius_x, xb = x + radius_x + 1;
      const uint32_t n = window_count (xa, xb, width, mode) * count_y;
#pragma unroll
      for (int c = 0; c < Channels; ++c) {
        StridedSums<Sum> p = { row + c, (size_t) Channels };
        Sum sum = extended_prefix (p, width, xb, mode) -
            extended_prefix (p, width, xa, mode);
        out[x * Channels + c] = (Sample) (((sum + n / 2) / n) << shift);
      }
    }
    /* The next row reuses the row prefix buffer. */
    __syncthreads ();
  }
}

/* Blocks of the row kernel: as many as stay resident, at most a row each.
 * Its scan tile is static shared memory: the dynamic share left to ask
 * for is smaller by it. */
template <int Channels, typename Sample>
int rows_grid (const HipfDeviceLimits * limits, int height)
{
  return persistent_grid (limits, box_blur_rows<Channels, Sample>,
      kRowThreads, 0, height,
      sizeof (Wide<Sample>) * kMaxChannels * kRowThreads);
}

template <typename Sample>
int rows_grid (const HipfDeviceLimits * limits, const HipfBoxBlurPlane * p)
{
  switch (p->channels) {
    case 1: return rows_grid<1, Sample> (limits, p->height);
    case 2: return rows_grid<2, Sample> (limits, p->height);
    case 3: return rows_grid<3, Sample> (limits, p->height);
    default: return rows_grid<4, Sample> (limits, p->height);
  }
}

template <int Channels, typename Sample>
void launch_rows (const GeneralPlan & plan, const uint32_t * prefix,
    uint8_t * dst, size_t dst_pitch, void *row_scratch, hipStream_t stream)
{
  const HipfBoxBlurPlane & p = plan.plane;
  box_blur_rows<Channels, Sample> <<<plan.grid, kRowThreads, 0, stream>>>
      (prefix, p.width, p.height, p.radius_x, p.radius_y, p.border, p.shift,
      dst, dst_pitch, (Wide<Sample> *) row_scratch);
}

template <typename Sample>
void launch (const GeneralPlan & plan, const uint8_t * src, size_t src_pitch,
    uint8_t * dst, size_t dst_pitch, uint32_t * prefix, uint32_t * totals,
    void *row_scratch, hipStream_t stream)
{
  const HipfBoxBlurPlane & p = plan.plane;
  const int row_samples = p.width * p.channels;

  const dim3 columns (ceil_div (row_samples, kColumnThreads),
      plan.column_segments);

  if (plan.column_segments > 1)
    column_segment_totals<Sample> <<<columns, kColumnThreads, 0, stream>>>
        (src, src_pitch, row_samples, p.height, plan.segment_rows, p.shift,
        totals);
  column_prefix_sum<Sample> <<<columns, kColumnThreads, 0, stream>>> (src,
      src_pitch, row_samples, p.height, plan.segment_rows, p.shift, totals,
      prefix);
  switch (p.channels) {
    case 1:
      launch_rows<1, Sample> (plan, prefix, dst, dst_pitch, row_scratch,
          stream);
      break;
    case 2:
      launch_rows<2, Sample> (plan, prefix, dst, dst_pitch, row_scratch,
          stream);
      break;
    case 3:
      launch_rows<3, Sample> (plan, prefix, dst, dst_pitch, row_scratch,
          stream);
      break;
    default:
      launch_rows<4, Sample> (plan, prefix, dst, dst_pitch, row_scratch,
          stream);
      break;
  }
}

}  // namespace

GeneralPlan plan_general (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * p)
{
  GeneralPlan plan = { };
  const bool wide = p->sample_bytes == 2;
  plan.plane = *p;
  plan.grid = wide ? rows_grid<uint16_t> (limits, p) :
      rows_grid<uint8_t> (limits, p);
  /* Column segments: enough column walks for every thread the device
   * holds, each at least kMinSegmentRows rows. */
  const int row_samples = p->width * p->channels;
  const int walks = persistent_grid (limits, wide ?
      column_prefix_sum<uint16_t> : column_prefix_sum<uint8_t>,
      kColumnThreads, 0, INT_MAX) * kColumnThreads;
  int segments = ceil_div (walks, row_samples);
  segments = std::min (segments, std::max (1, p->height / kMinSegmentRows));
  segments = std::max (1, std::min (segments, kMaxColumnSegments));
  plan.segment_rows = ceil_div (p->height, segments);
  plan.column_segments = ceil_div (p->height, plan.segment_rows);
  /* Each part rounded up so that the 64-bit row sums are aligned. */
  plan.prefix_bytes = ((size_t) (p->height + 1) * row_samples *
      sizeof (uint32_t) + 15) & ~(size_t) 15;
  plan.totals_bytes = ((size_t) plan.column_segments * row_samples *
      sizeof (uint32_t) + 15) & ~(size_t) 15;
  plan.scratch = plan.prefix_bytes + plan.totals_bytes + (size_t) plan.grid *
      (p->width + 1) * p->channels * (wide ? sizeof (uint64_t) :
      sizeof (uint32_t));
  return plan;
}

hipError_t run_general (const GeneralPlan & plan, const uint8_t * src,
    size_t src_pitch, uint8_t * dst, size_t dst_pitch, void *scratch,
    hipStream_t stream)
{
  uint32_t *prefix = (uint32_t *) scratch;
  uint32_t *totals = (uint32_t *) ((uint8_t *) scratch + plan.prefix_bytes);
  void *row_scratch = (uint8_t *) totals + plan.totals_bytes;

  if (plan.plane.sample_bytes == 2)
    launch<uint16_t> (plan, src, src_pitch, dst, dst_pitch, prefix, totals,
        row_scratch, stream);
  else
    launch<uint8_t> (plan, src, src_pitch, dst, dst_pitch, prefix, totals,
        row_scratch, stream);
  return hipGetLastError ();
}

}  // namespace hipf::blur
