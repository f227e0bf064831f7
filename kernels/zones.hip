/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Zone metering: a block a zone, its threads walking the zone's pixels and
 * adding into the block's counters in shared memory, thread 0 writing the
 * zone's words. No atomics reach global memory and nothing needs clearing.
 * A pass of its own over the luma plane, after the histogram's
 * (docs/design/camera.md has the design that folds it into that pass).
 */
#include "hipf-device.cuh"
#include "zones.h"

namespace hipf {
namespace {

/* Threads a zone: a 16x9 grid on 4K gives 144 zones of 57 600 pixels. */
constexpr int kZoneThreads = 256;

__device__ inline uint32_t zone_luma (const uint8_t * p, const HipfZonesFrame & f)
{
  if (f.luma_offset >= 0)
    return p[f.luma_offset];
  return (77 * p[f.rgb_offset[0]] + 150 * p[f.rgb_offset[1]] +
      29 * p[f.rgb_offset[2]] + 128) >> 8;
}

__global__ void __launch_bounds__ (kZoneThreads)
zone_stats (HipfZonesFrame f, const uint8_t * __restrict__ src,
    uint32_t * __restrict__ out)
{
  __shared__ unsigned long long sum;
  __shared__ uint32_t count, lo, hi, low, high;
  __shared__ uint32_t hist[HIPF_HISTOGRAM_VALUES];
  const int zi = blockIdx.x % f.cols, zj = blockIdx.x / f.cols;
  const int x0 = (int) ((long long) zi * f.width / f.cols);
  const int x1 = (int) ((long long) (zi + 1) * f.width / f.cols);
  const int y0 = (int) ((long long) zj * f.height / f.rows);
  const int y1 = (int) ((long long) (zj + 1) * f.height / f.rows);
  const int w = x1 - x0, n = w * (y1 - y0);

  if (threadIdx.x == 0) {
    sum = 0;
    count = n;
    lo = 255;
    hi = 0;
    low = high = 0;
  }
  for (int i = threadIdx.x; f.histograms && i < HIPF_HISTOGRAM_VALUES;
      i += blockDim.x)
    hist[i] = 0;
  __syncthreads ();

  unsigned long long my_sum = 0;
  uint32_t my_lo = 255, my_hi = 0, my_low = 0, my_high = 0;
  for (int k = threadIdx.x; k < n; k += blockDim.x) {
    const int x = x0 + k % w, y = y0 + k / w;
    const uint32_t v = zone_luma (src + f.offset + (size_t) y * f.pitch +
        (size_t) x * f.pixel_stride, f);
    my_sum += v;
    my_lo = min (my_lo, v);
    my_hi = max (my_hi, v);
    my_low += v <= (uint32_t) f.low_threshold;
    my_high += v >= (uint32_t) f.high_threshold;
    if (f.histograms)
      atomicAdd (&hist[v], 1u);
  }
  atomicAdd (&sum, my_sum);
  atomicMin (&lo, my_lo);
  atomicMax (&hi, my_hi);
  atomicAdd (&low, my_low);
  atomicAdd (&high, my_high);
  __syncthreads ();

  const size_t stride = HIPF_ZONE_WORDS +
      (f.histograms ? HIPF_HISTOGRAM_VALUES : 0);
  uint32_t *z = out + blockIdx.x * stride;
  if (threadIdx.x == 0) {
    z[HIPF_ZONE_PIXELS] = count;
    z[HIPF_ZONE_SUM_LO] = (uint32_t) sum;
    z[HIPF_ZONE_SUM_HI] = (uint32_t) (sum >> 32);
    /* An empty zone (more zones than pixels) reads as 0 to 0. */
    z[HIPF_ZONE_MIN] = n ? lo : 0;
    z[HIPF_ZONE_MAX] = hi;
    z[HIPF_ZONE_LOW] = low;
    z[HIPF_ZONE_HIGH] = high;
    z[HIPF_ZONE_HIGH + 1] = 0;
  }
  for (int i = threadIdx.x; f.histograms && i < HIPF_HISTOGRAM_VALUES;
      i += blockDim.x)
    z[HIPF_ZONE_WORDS + i] = hist[i];
}

}                               // namespace
}                               // namespace hipf

extern "C" size_t
hipf_zones_words (const HipfZonesFrame * frame)
{
  return (size_t) frame->cols * frame->rows * (HIPF_ZONE_WORDS +
      (frame->histograms ? HIPF_HISTOGRAM_VALUES : 0));
}

extern "C" hipError_t
hipf_zones (const HipfZonesFrame * frame, const uint8_t * src,
    uint32_t * out, hipStream_t stream)
{
  (void) hipGetLastError ();
  if (frame->cols < 1 || frame->rows < 1 || frame->cols > HIPF_ZONES_MAX
      || frame->rows > HIPF_ZONES_MAX || frame->width < 1
      || frame->height < 1)
    return hipErrorInvalidValue;
  hipf::zone_stats <<<frame->cols * frame->rows, hipf::kZoneThreads, 0,
      stream>>> (*frame, src, out);
  return hipGetLastError ();
}
