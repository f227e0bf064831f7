/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Zone metering: luma statistics of a grid of zones of a frame.
 */
#ifndef HIPF_ZONES_H
#define HIPF_ZONES_H

#include <stddef.h>
#include <stdint.h>

#include "hipf-runtime.h"
#include "hipf-limits.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HIPF_ZONES_MAX 64       /* columns, and rows */
/* A zone's words: sum (low, high: first, so that blocks add into it as one
 * 64-bit word), pixels, min, max, at or below the low threshold, at or
 * above the high one, and one spare; then, where asked for, its luma
 * histogram, of hipf_zones_values() values. Sums, extremes and thresholds
 * are in the values counted: the 8-bit samples, or ten bits of 16-bit ones
 * as the histogram counts them (histogram/histogram.h). */
#define HIPF_ZONE_WORDS 8
enum {
  HIPF_ZONE_SUM_LO, HIPF_ZONE_SUM_HI, HIPF_ZONE_PIXELS, HIPF_ZONE_MIN,
  HIPF_ZONE_MAX, HIPF_ZONE_LOW, HIPF_ZONE_HIGH,
};

/* The plane luma is read from, and the grid. Zone (i, j) covers columns
 * [i * width / cols, (i + 1) * width / cols) and rows likewise. */
typedef struct {
  size_t offset;                /* of the plane in the device frame */
  size_t pitch;
  int width, height;            /* luma samples */
  int pixel_stride;             /* bytes a pixel */
  int luma_offset;              /* byte of luma in a pixel; -1: from R, G, B
                                 * (8-bit samples only) */
  int rgb_offset[3];
  int cols, rows;
  int low_threshold, high_threshold;
  int histograms;               /* also each zone's histogram */
  int sample_bytes;             /* 1, or 2: 16-bit samples */
  int sample_shift;             /* 16-bit: (word >> sample_shift) & 1023 */
} HipfZonesFrame;

/* Values a zone's histogram counts: 256, or 1024 for 16-bit samples. */
static inline int
hipf_zones_values (const HipfZonesFrame * frame)
{
  return frame->sample_bytes == 2 ? 1024 : 256;
}

/* Words of the output for @frame's grid. */
size_t hipf_zones_words (const HipfZonesFrame * frame);

/* Writes every zone's words of the frame at @src to @out (no clearing
 * needed: the first launch sets every word). */
hipError_t hipf_zones (const HipfDeviceLimits * limits,
    const HipfZonesFrame * frame, const uint8_t * src, uint32_t * out,
    hipStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* HIPF_ZONES_H */
