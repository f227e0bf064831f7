/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * C entry points of the HIP kernels: the device limits, the box blur
 * (boxblur/boxblur.h) and the histogram. Everything here is callable from
 * C; the kernels themselves are the only C++ in the project.
 */
#ifndef HIPF_KERNELS_H
#define HIPF_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "hipf-runtime.h"
#include "hipf-limits.h"
#include "boxblur/boxblur.h"
#include "convert/packed422.h"
#include "zones.h"
#include "overlay/exposure.h"
#include "convolve/convolve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Histograms always count 256 values per channel; coarser bins are sums of
 * these and cost nothing on the device. */
#define HIPF_HISTOGRAM_VALUES 256
#define HIPF_HISTOGRAM_MAX_CHANNELS 5
#define HIPF_HISTOGRAM_MAX_TAPS 4

/* One plane of the frame and the histogram channels its samples feed. */
typedef struct {
  size_t offset;                /* of the plane in the device frame */
  size_t pitch;                 /* bytes from one row to the next */
  int width;                    /* pixels */
  int height;
  int pixel_stride;             /* bytes per pixel */
  int roi_x, roi_y, roi_width, roi_height;      /* in this plane's pixels */
  int n_taps;                   /* samples counted as they are */
  int tap_offset[HIPF_HISTOGRAM_MAX_TAPS];      /* byte within the pixel */
  int tap_channel[HIPF_HISTOGRAM_MAX_TAPS];
  int luma_channel;             /* >= 0: also count luma of R, G, B below */
  int rgb_offset[3];
} HipfHistogramPlane;

typedef struct {
  int n_channels;
  int n_planes;
  HipfHistogramPlane planes[3];
} HipfHistogramFrame;

/* Blocks add their counts into this many copies of the histograms in turn,
 * which the caller adds up: a hundred-odd blocks adding into one copy
 * queue on its words' atomics; 32 copies gained no more than 8
 * (docs/design/histogram.md). */
#define HIPF_HISTOGRAM_COPIES 8
/* Words of one copy, and of one half of the buffer (all its copies). */
#define HIPF_HISTOGRAM_COPY_WORDS \
  (HIPF_HISTOGRAM_MAX_CHANNELS * HIPF_HISTOGRAM_VALUES)
#define HIPF_HISTOGRAM_HALF_WORDS \
  (HIPF_HISTOGRAM_COPIES * HIPF_HISTOGRAM_COPY_WORDS)

/* Bytes of device memory hipf_histogram() needs: two halves, each room for
 * the copies of a frame's histograms. It must be zeroed when allocated,
 * and used by one stream at a time, or by streams ordered with events. */
size_t hipf_histogram_buffer_size (void);

/* Where half @half of such a buffer starts: its first copy, the others
 * HIPF_HISTOGRAM_COPY_WORDS apart. */
static inline uint32_t *
hipf_histogram_counts (uint32_t * buffer, int half)
{
  return buffer + (half ? HIPF_HISTOGRAM_HALF_WORDS : 0);
}

/* The histograms: the sum of the HIPF_HISTOGRAM_COPIES copies at @copies,
 * @stride words apart, of which the first @words words count. */
static inline void
hipf_histogram_add_copies (const uint32_t * copies, size_t stride,
    size_t words, uint32_t * counts)
{
  size_t i;
  int k;

  for (i = 0; i < words; i++)
    counts[i] = copies[i];
  for (k = 1; k < HIPF_HISTOGRAM_COPIES; k++)
    for (i = 0; i < words; i++)
      counts[i] += copies[k * stride + i];
}

/* Counts every channel of @frame in one launch into the copies of half
 * @half of @buffer, a buffer as above: channel c's count of value v is
 * word c * HIPF_HISTOGRAM_VALUES + v of the copies added up. Blocks add
 * into that half, which must be zero, and the launch clears the
 * other half for the next: launches on a buffer alternate halves 0, 1, 0,
 * ... and need no clearing launch between them. A launch that returns an
 * error did not start and leaves the buffer as it was; one that fails on
 * the device leaves it unusable. Planes have the layouts of the elements'
 * formats (hipErrorInvalidValue otherwise): 1-byte samples with one tap,
 * 2-byte chroma pairs with two, 3- and 4-byte RGB with three or four taps
 * and luma, 4-byte AYUV with three. Rows must start
 * on 16-byte boundaries; the kernel reads whole 16-byte groups (48 for
 * 3-byte pixels) around the region of interest, up to 32 bytes past the
 * end of the last row. */
hipError_t hipf_histogram (const HipfDeviceLimits * limits,
    const HipfHistogramFrame * frame, const uint8_t * src, uint32_t * buffer,
    int half, hipStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* HIPF_KERNELS_H */
