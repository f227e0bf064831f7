/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Zone metering, a pass of its own over the luma plane after the
 * histogram's: zone_init sets every zone's words (its pixel count, and
 * the starting values the others are added to); then each zone is cut into
 * row sets, a block each, so that the whole device takes even a few zones.
 * A block adds its pixels' luma into counters in shared memory and then
 * into the zone's words in global memory, once. 16-bit samples take an
 * instance of their own, which meters ten bits of each as the histogram
 * counts them, so that the 8-bit one is compiled as it would be alone.
 * The histogram's own pass meters the zones where it can
 * (histogram/zones.cuh, hipf_histogram_zones_fuse ()); this pass takes the
 * rest: a region of interest, the zones' histograms, 3-byte RGB and 16-bit
 * samples.
 */
#include "hipf-device.cuh"
#include "zones.h"

namespace hipf {
namespace {

/* Threads a block: a row of a 16x9 grid's zone on 4K is 240 pixels. */
constexpr int kZoneThreads = 256;

struct ZoneBounds
{
  int x0, x1, y0, y1;
};

__device__ inline ZoneBounds zone_bounds (const HipfZonesFrame & f, int zone)
{
  const int zi = zone % f.cols, zj = zone / f.cols;
  return { (int) ((long long) zi * f.width / f.cols),
    (int) ((long long) (zi + 1) * f.width / f.cols),
    (int) ((long long) zj * f.height / f.rows),
    (int) ((long long) (zj + 1) * f.height / f.rows) };
}

/* Values a zone's histogram counts for Sample. */
template <typename Sample>
constexpr int kZoneValues = sizeof (Sample) == 2 ? HIPF_HISTOGRAM_WIDE_VALUES :
    HIPF_HISTOGRAM_VALUES;

template <typename Sample>
__device__ inline size_t zone_stride (const HipfZonesFrame & f)
{
  return HIPF_ZONE_WORDS + (f.histograms ? kZoneValues<Sample> : 0);
}

template <typename Sample>
__device__ inline uint32_t zone_luma (const uint8_t * p,
    const HipfZonesFrame & f)
{
  if constexpr (sizeof (Sample) == 2) {
    const uint32_t word = *reinterpret_cast<const uint16_t *>(p +
        f.luma_offset);
    return (word >> f.sample_shift) & (kZoneValues<Sample> - 1);
  } else {
    if (f.luma_offset >= 0)
      return p[f.luma_offset];
    return (77 * p[f.rgb_offset[0]] + 150 * p[f.rgb_offset[1]] +
        29 * p[f.rgb_offset[2]] + 128) >> 8;
  }
}

/* A block a zone: its words before any pixel is added. An empty zone
 * (more zones than pixels) keeps them: 0 to 0. */
template <typename Sample>
__global__ void __launch_bounds__ (kZoneThreads)
zone_init (HipfZonesFrame f, uint32_t * __restrict__ out)
{
  const ZoneBounds b = zone_bounds (f, blockIdx.x);
  const uint32_t n = (uint32_t) ((b.x1 - b.x0) * (b.y1 - b.y0));
  uint32_t *z = out + blockIdx.x * zone_stride<Sample> (f);
  for (int i = threadIdx.x; i < (int) zone_stride<Sample> (f);
      i += blockDim.x)
    z[i] = i == HIPF_ZONE_PIXELS ? n : i == HIPF_ZONE_MIN && n ?
        kZoneValues<Sample> - 1 : 0;
}

/* zone_stats' shared memory, which the occupancy query leaves out of the
 * dynamic share it may ask for. */
template <typename Sample>
constexpr size_t kStatsShared = sizeof (unsigned long long) +
    4 * sizeof (uint32_t) + kZoneValues<Sample> * sizeof (uint32_t);

/* Block (zone, part): the zone's rows part, part + parts, ... */
template <typename Sample>
__global__ void __launch_bounds__ (kZoneThreads)
zone_stats (HipfZonesFrame f, const uint8_t * __restrict__ src,
    uint32_t * __restrict__ out)
{
  constexpr int kValues = kZoneValues<Sample>;
  constexpr uint32_t kTop = kValues - 1;
  __shared__ unsigned long long sum;
  __shared__ uint32_t lo, hi, low, high;
  __shared__ uint32_t hist[kValues];
  const ZoneBounds b = zone_bounds (f, blockIdx.x);

  if (b.y0 + (int) blockIdx.y >= b.y1 || b.x0 >= b.x1)
    return;
  if (threadIdx.x == 0) {
    sum = 0;
    lo = kTop;
    hi = low = high = 0;
  }
  for (int i = threadIdx.x; f.histograms && i < kValues; i += blockDim.x)
    hist[i] = 0;
  __syncthreads ();

  unsigned long long my_sum = 0;
  uint32_t my_lo = kTop, my_hi = 0, my_low = 0, my_high = 0;
  for (int y = b.y0 + blockIdx.y; y < b.y1; y += gridDim.y) {
    const uint8_t *row = src + f.offset + (size_t) y * f.pitch;
    for (int x = b.x0 + threadIdx.x; x < b.x1; x += blockDim.x) {
      const uint32_t v = zone_luma<Sample> (row + (size_t) x * f.pixel_stride,
          f);
      my_sum += v;
      my_lo = min (my_lo, v);
      my_hi = max (my_hi, v);
      my_low += v <= (uint32_t) f.low_threshold;
      my_high += v >= (uint32_t) f.high_threshold;
      if (f.histograms)
        atomicAdd (&hist[v], 1u);
    }
  }
  atomicAdd (&sum, my_sum);
  atomicMin (&lo, my_lo);
  atomicMax (&hi, my_hi);
  atomicAdd (&low, my_low);
  atomicAdd (&high, my_high);
  __syncthreads ();

  uint32_t *z = out + blockIdx.x * zone_stride<Sample> (f);
  if (threadIdx.x == 0) {
    atomicAdd (reinterpret_cast<unsigned long long *>(z + HIPF_ZONE_SUM_LO),
        sum);
    atomicMin (&z[HIPF_ZONE_MIN], lo);
    atomicMax (&z[HIPF_ZONE_MAX], hi);
    atomicAdd (&z[HIPF_ZONE_LOW], low);
    atomicAdd (&z[HIPF_ZONE_HIGH], high);
  }
  for (int i = threadIdx.x; f.histograms && i < kValues; i += blockDim.x)
    if (hist[i])
      atomicAdd (&z[HIPF_ZONE_WORDS + i], hist[i]);
}

}                               // namespace
}                               // namespace hipf

namespace hipf {
namespace {

template <typename Sample>
hipError_t
launch_zones (const HipfDeviceLimits * limits, const HipfZonesFrame * frame,
    const uint8_t * src, uint32_t * out, hipStream_t stream)
{
  const int zones = frame->cols * frame->rows;
  /* Enough row sets that every multiprocessor has blocks to run, and no
   * more sets than a zone has rows. */
  const int resident = persistent_grid (limits, zone_stats<Sample>,
      kZoneThreads, 0, 1 << 30, kStatsShared<Sample>);
  const int rows = ceil_div (frame->height, frame->rows);
  int parts = ceil_div (resident, zones);
  parts = parts < rows ? parts : rows;
  parts = parts < 65535 ? parts : 65535;
  zone_init<Sample> <<<zones, kZoneThreads, 0, stream>>> (*frame, out);
  zone_stats<Sample> <<<dim3 (zones, parts), kZoneThreads, 0, stream>>>
      (*frame, src, out);
  return hipGetLastError ();
}

}                               // namespace
}                               // namespace hipf

extern "C" size_t
hipf_zones_words (const HipfZonesFrame * frame)
{
  return (size_t) frame->cols * frame->rows * (HIPF_ZONE_WORDS +
      (frame->histograms ? hipf_zones_values (frame) : 0));
}

extern "C" hipError_t
hipf_zones (const HipfDeviceLimits * limits, const HipfZonesFrame * frame,
    const uint8_t * src, uint32_t * out, hipStream_t stream)
{
  static_assert (hipf::kZoneValues<uint8_t> == 256
      && hipf::kZoneValues<uint16_t> == 1024, "as hipf_zones_values () says");
  (void) hipGetLastError ();
  if (frame->cols < 1 || frame->rows < 1 || frame->cols > HIPF_ZONES_MAX
      || frame->rows > HIPF_ZONES_MAX || frame->width < 1
      || frame->height < 1
      || (frame->sample_bytes != 1 && frame->sample_bytes != 2)
      || (frame->sample_bytes == 2 && frame->luma_offset < 0))
    return hipErrorInvalidValue;
  if (frame->sample_bytes == 2)
    return hipf::launch_zones<uint16_t> (limits, frame, src, out, stream);
  return hipf::launch_zones<uint8_t> (limits, frame, src, out, stream);
}
