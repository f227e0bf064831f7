/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The zones in the histogram's pass, on the host: which launches take
 * them, their arguments, and a zones buffer's first start words
 * (zones.cuh has the metering).
 */
#include "histogram/algorithms.h"
#include "histogram/zones.cuh"

namespace hipf::hist {
namespace {

/* Both halves of a zones buffer as a launch leaves its next half. */
__global__ void __launch_bounds__ (256)
zone_buffer_init (uint32_t * __restrict__ buffer)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x;
      i < 2 * HIPF_HISTOGRAM_ZONE_HALF_WORDS; i += gridDim.x * blockDim.x)
    buffer[i] = zone_start_word (i);
}

}                               // namespace

ZoneArgs
zone_args (const HipfZonesFrame & zones, uint32_t * buffer, int half)
{
  ZoneArgs a;
  a.cols = zones.cols;
  a.rows = zones.rows;
  a.width = zones.width;
  a.height = zones.height;
  a.width_magic = 0xffffffffu / a.width;
  a.height_magic = 0xffffffffu / a.height;
  a.cols_magic = 0xffffffffu / (uint32_t) a.cols;
  a.low = zones.low_threshold;
  a.high = zones.high_threshold;
  a.words = hipf_histogram_zones_words (buffer, half);
  a.next = hipf_histogram_zones_words (buffer, !half);
  return a;
}

}                               // namespace hipf::hist

extern "C" size_t
hipf_histogram_zones_buffer_size (void)
{
  return 2 * (size_t) HIPF_HISTOGRAM_ZONE_HALF_WORDS * sizeof (uint32_t);
}

extern "C" hipError_t
hipf_histogram_zones_buffer_init (uint32_t * buffer, hipStream_t stream)
{
  (void) hipGetLastError ();
  hipf::hist::zone_buffer_init <<<2 * HIPF_HISTOGRAM_ZONE_HALF_WORDS / 256,
      256, 0, stream>>> (buffer);
  return hipGetLastError ();
}

extern "C" int
hipf_histogram_zones_fuse (const HipfDeviceLimits * limits,
    const HipfHistogramFrame * frame, const HipfZonesFrame * zones)
{
  using namespace hipf::hist;
  const HipfHistogramPlane & pl = frame->planes[0];

  /* 8-bit samples, and zones without their histograms (256 counters a
   * zone would not fit beside the copies). */
  if (frame->sample_bytes != 1 || zones->sample_bytes != 1
      || zones->histograms || frame->n_planes < 1 || frame->n_planes > 3
      || frame->n_channels < 1
      || frame->n_channels > HIPF_HISTOGRAM_MAX_CHANNELS
      || zones->cols < 1 || zones->rows < 1 || zones->cols > HIPF_ZONES_MAX
      || zones->rows > HIPF_ZONES_MAX || zones->width < 1
      || zones->height < 1)
    return 0;
  /* The plane the zones read, whole: they cover the frame whatever the
   * region of interest, and the kernels walk only the region. */
  if (pl.offset != zones->offset || pl.pitch != zones->pitch
      || pl.width != zones->width || pl.height != zones->height
      || pl.pixel_stride != zones->pixel_stride || pl.roi_x != 0
      || pl.roi_y != 0 || pl.roi_width != pl.width
      || pl.roi_height != pl.height)
    return 0;
  /* The luma the zones meter is what the kernel hands them: that of R, G
   * and B, or the plane's first tap. */
  if (zones->luma_offset < 0) {
    if (pl.luma_channel < 0 || pl.rgb_offset[0] != zones->rgb_offset[0]
        || pl.rgb_offset[1] != zones->rgb_offset[1]
        || pl.rgb_offset[2] != zones->rgb_offset[2])
      return 0;
  } else if (pl.luma_channel >= 0 || pl.n_taps < 1
      || pl.tap_offset[0] != zones->luma_offset) {
    return 0;
  }
  if (!layout_supported (pl, 1)
      || !(plane_takes (*frame) || frame_takes_zones (*frame)))
    return 0;
  /* Zone columns and rows found in 32-bit arithmetic. */
  if ((long long) zones->width * zones->cols > INT32_MAX
      || (long long) zones->height * zones->rows > INT32_MAX)
    return 0;
  /* The counters, in their part of shared memory, and at least one copy
   * of the counts (a 256-word copy a warp for GRAY8) beside them. */
  const size_t room = limits->shared_mem_optin - kStaticShared;
  const size_t zone_bytes = (size_t) zones->cols * zones->rows *
      kZoneSlotBytes;
  const size_t counts_bytes = frame->n_planes == 1 && pl.pixel_stride == 1 ?
      (size_t) (kHistogramThreads / limits->warp_size) *
      HIPF_HISTOGRAM_VALUES * sizeof (uint32_t) :
      (size_t) frame->n_channels * HIPF_HISTOGRAM_VALUES * sizeof (uint32_t);
  return zone_bytes <= room / kZoneSharedDivisor
      && zone_bytes + counts_bytes <= room;
}
