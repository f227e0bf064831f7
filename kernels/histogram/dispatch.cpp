/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Checks a frame, sizes the copies of its counts in shared memory, and
 * launches the kernel that takes it: plane_histogram (plane.hip) for a
 * single plane of one- or four-byte pixels, frame_histogram (frame.hip)
 * for everything else; either with the zones' counters beside the copies
 * where it meters them (zones.hip says where).
 */
#include "histogram/algorithms.h"
#include "histogram/common.cuh"
#include "histogram/zones.cuh"

namespace {

using namespace hipf;
using namespace hipf::hist;

hipError_t
count (const HipfDeviceLimits * limits, const HipfHistogramFrame * frame,
    const uint8_t * src, uint32_t * buffer, int half, const ZoneArgs * zones,
    hipStream_t stream)
{
  /* Clears an error an earlier call on this thread left behind, so that
   * the error returned is this launch's own. */
  (void) hipGetLastError ();
  const bool wide = frame->sample_bytes == 2;
  if ((frame->sample_bytes != 1 && !wide) || frame->n_channels < 1
      || frame->n_channels > (wide ? HIPF_HISTOGRAM_WIDE_MAX_CHANNELS :
          HIPF_HISTOGRAM_MAX_CHANNELS)
      || frame->n_planes < 1 || frame->n_planes > 3)
    return hipErrorInvalidValue;

  const size_t hist_bytes = (size_t) frame->n_channels *
      hipf_histogram_values (frame) * sizeof (uint32_t);
  int rows = 0;
  for (int p = 0; p < frame->n_planes; ++p) {
    if (!layout_supported (frame->planes[p], frame->sample_bytes))
      return hipErrorInvalidValue;
    /* Regions with no width or no height count nothing (the kernels skip
     * them); a frame of nothing else only clears the next half. */
    if (frame->planes[p].roi_width > 0 && frame->planes[p].roi_height > 0)
      rows += frame->planes[p].roi_height;
  }
  uint32_t *counts = hipf_histogram_counts (buffer, half);
  uint32_t *next = hipf_histogram_counts (buffer, !half);
  /* (Never with zones: their plane's region is all of it.) */
  if (rows == 0)
    return hipMemsetAsync (next, 0,
        HIPF_HISTOGRAM_HALF_WORDS * sizeof (uint32_t), stream);

  /* A copy per warp, or as many as fit beside the zones' counters. */
  const int warps = kHistogramThreads / limits->warp_size;
  int copies = (int) ((limits->shared_mem_optin - kStaticShared -
          zone_shared_bytes (zones)) / hist_bytes);
  copies = copies < warps ? copies : warps;
  copies = copies > 0 ? copies : 1;
  const size_t shared = copies * hist_bytes;

  if (plane_takes (*frame))
    return run_plane (limits, *frame, src, counts, next, copies, shared,
        zones, stream);
  return run_frame (limits, *frame, src, counts, next, copies, shared, rows,
      zones, stream);
}

}                               // namespace

extern "C" size_t
hipf_histogram_buffer_size (void)
{
  return 2 * (size_t) HIPF_HISTOGRAM_HALF_WORDS * sizeof (uint32_t);
}

extern "C" hipError_t
hipf_histogram (const HipfDeviceLimits * limits,
    const HipfHistogramFrame * frame, const uint8_t * src, uint32_t * buffer,
    int half, hipStream_t stream)
{
  return count (limits, frame, src, buffer, half, nullptr, stream);
}

extern "C" hipError_t
hipf_histogram_zones (const HipfDeviceLimits * limits,
    const HipfHistogramFrame * frame, const HipfZonesFrame * zones,
    const uint8_t * src, uint32_t * buffer, int half, uint32_t * zone_buffer,
    int zone_half, hipStream_t stream)
{
  if (!hipf_histogram_zones_fuse (limits, frame, zones))
    return hipErrorInvalidValue;
  const ZoneArgs args = zone_args (*zones, zone_buffer, zone_half);
  return count (limits, frame, src, buffer, half, &args, stream);
}
