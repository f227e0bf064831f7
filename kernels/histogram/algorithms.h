/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What each histogram kernel offers the dispatch (dispatch.cpp): whether
 * it takes a frame, and its launch, once the dispatch has checked the
 * frame and sized the copies of its counts. Host code, compiled with the
 * kernels.
 */
#ifndef HIPF_HISTOGRAM_ALGORITHMS_H
#define HIPF_HISTOGRAM_ALGORITHMS_H

#include "histogram/histogram.h"

namespace hipf::hist {

struct ZoneArgs;                /* zones.cuh */

/* Both launches add the frame's counts into @counts, @copies copies of
 * them in @shared bytes of shared memory a block, and clear @next, the
 * half of the buffer the next launch adds into; with @zones (not null),
 * they also meter those, with the zones' counters beside the copies. */

/* ---- plane_histogram (plane.hip) ---- */
/* A single plane of one- or four-byte pixels (GRAY8, 4-byte RGB, AYUV),
 * with zones too. */
bool plane_takes (const HipfHistogramFrame & frame);
hipError_t run_plane (const HipfDeviceLimits * limits,
    const HipfHistogramFrame & frame, const uint8_t * src, uint32_t * counts,
    uint32_t * next, int copies, size_t shared, const ZoneArgs * zones,
    hipStream_t stream);

/* ---- frame_histogram (frame.hip) ---- */
/* Any frame whose planes' layouts are supported; @rows, the rows of its
 * regions, bounds the grid. Zones only where frame_takes_zones (). */
bool frame_takes_zones (const HipfHistogramFrame & frame);
hipError_t run_frame (const HipfDeviceLimits * limits,
    const HipfHistogramFrame & frame, const uint8_t * src, uint32_t * counts,
    uint32_t * next, int copies, size_t shared, int rows,
    const ZoneArgs * zones, hipStream_t stream);

/* ---- the zones' arguments (zones.hip) ---- */
/* Those of @zones, metered into half @half of @buffer. */
ZoneArgs zone_args (const HipfZonesFrame & zones, uint32_t * buffer,
    int half);

}                               // namespace hipf::hist

#endif /* HIPF_HISTOGRAM_ALGORITHMS_H */
