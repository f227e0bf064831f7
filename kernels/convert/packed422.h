/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Packed 4:2:2 frames (YUY2, UYVY, YVYU) to three planes and back, so that
 * the planar kernels take them as they take Y42B.
 */
#ifndef HIPF_PACKED422_H
#define HIPF_PACKED422_H

#include <stddef.h>
#include <stdint.h>

#include "hipf-runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where each sample of a four-byte pair of pixels lies: YUY2 is
 * Y0 U Y1 V, so { 0, 2, 1, 3 }. */
typedef struct {
  int y0, y1, u, v;
} HipfPacked422Order;

/* One packed frame and its three planes: Y of @width samples, U and V of
 * (@width + 1) / 2, each @height rows. */
typedef struct {
  HipfPacked422Order order;
  int width, height;
  const uint8_t *packed_src;    /* unpack's source */
  uint8_t *packed_dst;          /* pack's destination */
  size_t packed_pitch;
  uint8_t *planes[3];           /* Y, U, V */
  size_t pitches[3];
} HipfPacked422Frame;

/* Rows @first to @end (exclusive) from the packed frame to the planes. */
hipError_t hipf_unpack_422 (const HipfPacked422Frame * frame, int first,
    int end, hipStream_t stream);
/* Rows @first to @end from the planes to the packed frame. Where @width is
 * odd, the last pair's second luma sample repeats the first. */
hipError_t hipf_pack_422 (const HipfPacked422Frame * frame, int first,
    int end, hipStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* HIPF_PACKED422_H */
