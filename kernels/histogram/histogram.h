/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * C API of the histogram: every channel of a frame counted in one launch.
 * docs/design/histogram.md describes the kernels and how one is chosen.
 */
#ifndef HIPF_HISTOGRAM_H
#define HIPF_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "hipf-runtime.h"
#include "hipf-limits.h"
#include "zones.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Histograms count 256 values per channel of 8-bit samples, and 1024 of
 * 16-bit ones: ten bits of each sample, those of a 10-bit format and the
 * top ten of GRAY16_LE. Coarser bins are sums of these and cost nothing on
 * the device. The 16-bit formats have three channels at most. */
#define HIPF_HISTOGRAM_VALUES 256
#define HIPF_HISTOGRAM_MAX_CHANNELS 5
#define HIPF_HISTOGRAM_MAX_TAPS 4
#define HIPF_HISTOGRAM_WIDE_VALUES 1024
#define HIPF_HISTOGRAM_WIDE_MAX_CHANNELS 3

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
  /* 16-bit samples: the value counted is (word >> sample_shift) & 1023,
   * 6 for P010's and GRAY16_LE's words, 0 for I420_10LE's. */
  int sample_shift;
} HipfHistogramPlane;

typedef struct {
  int n_channels;
  int n_planes;
  HipfHistogramPlane planes[3];
  int sample_bytes;             /* 1, or 2 for 16-bit samples */
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
/* Frames of 16-bit samples take as many copies of their larger counts as
 * fit in the same half, so that every launch clears the same words, 8-bit
 * ones as many as before. */
#define HIPF_HISTOGRAM_WIDE_COPY_WORDS \
  (HIPF_HISTOGRAM_WIDE_MAX_CHANNELS * HIPF_HISTOGRAM_WIDE_VALUES)
#define HIPF_HISTOGRAM_WIDE_COPIES \
  (HIPF_HISTOGRAM_HALF_WORDS / HIPF_HISTOGRAM_WIDE_COPY_WORDS)

/* Values a channel of @frame counts. */
static inline int
hipf_histogram_values (const HipfHistogramFrame * frame)
{
  return frame->sample_bytes == 2 ? HIPF_HISTOGRAM_WIDE_VALUES :
      HIPF_HISTOGRAM_VALUES;
}

/* Copies of @frame's counts in a half, and the words from one to the
 * next. */
static inline int
hipf_histogram_copies (const HipfHistogramFrame * frame)
{
  return frame->sample_bytes == 2 ? HIPF_HISTOGRAM_WIDE_COPIES :
      HIPF_HISTOGRAM_COPIES;
}

static inline size_t
hipf_histogram_copy_words (const HipfHistogramFrame * frame)
{
  return frame->sample_bytes == 2 ? HIPF_HISTOGRAM_WIDE_COPY_WORDS :
      HIPF_HISTOGRAM_COPY_WORDS;
}

/* Bytes of device memory hipf_histogram() needs: two halves, each room for
 * the copies of a frame's histograms. It must be zeroed when allocated,
 * and used by one stream at a time, or by streams ordered with events. */
size_t hipf_histogram_buffer_size (void);

/* Where half @half of such a buffer starts: its first copy, the others
 * hipf_histogram_copy_words() apart. */
static inline uint32_t *
hipf_histogram_counts (uint32_t * buffer, int half)
{
  return buffer + (half ? HIPF_HISTOGRAM_HALF_WORDS : 0);
}

/* The histograms: the sum of the @n copies at @copies, @stride words
 * apart, of which the first @words words count. */
static inline void
hipf_histogram_add_copies (const uint32_t * copies, int n, size_t stride,
    size_t words, uint32_t * counts)
{
  size_t i;
  int k;

  for (i = 0; i < words; i++)
    counts[i] = copies[i];
  for (k = 1; k < n; k++)
    for (i = 0; i < words; i++)
      counts[i] += copies[k * stride + i];
}

/* Counts every channel of @frame in one launch into the
 * hipf_histogram_copies() copies of half @half of @buffer, a buffer as
 * above: channel c's count of value v is word
 * c * hipf_histogram_values() + v of the copies added up. Blocks add
 * into that half, which must be zero, and the launch clears the
 * other half for the next: launches on a buffer alternate halves 0, 1, 0,
 * ..., whatever their frames' sample size, and need no clearing launch
 * between them. A launch that returns an
 * error did not start and leaves the buffer as it was; one that fails on
 * the device leaves it unusable. Planes have the layouts of the elements'
 * formats (hipErrorInvalidValue otherwise): of 8-bit samples, 1-byte
 * samples with one tap, 2-byte chroma pairs with two, 3- and 4-byte RGB
 * with three or four taps and luma, 4-byte AYUV with three; of 16-bit
 * samples, 2-byte samples with one tap and 4-byte chroma pairs with two.
 * Rows must start
 * on 16-byte boundaries; the kernel reads whole 16-byte groups (48 for
 * 3-byte pixels) around the region of interest, up to 32 bytes past the
 * end of the last row. */
hipError_t hipf_histogram (const HipfDeviceLimits * limits,
    const HipfHistogramFrame * frame, const uint8_t * src, uint32_t * buffer,
    int half, hipStream_t stream);

/* ---- The zones in the histogram's pass ----
 * hipf_histogram_zones() counts a frame as hipf_histogram() does and, in
 * the same launch, meters the zones of its luma (zones.h), where
 * hipf_histogram_zones_fuse() says it can; elsewhere hipf_zones() meters
 * them in a launch of its own. Both write the same words. */

/* Words of a half of a zones buffer: those of the most zones a grid has,
 * without their histograms. */
#define HIPF_HISTOGRAM_ZONE_HALF_WORDS \
  (HIPF_ZONES_MAX * HIPF_ZONES_MAX * HIPF_ZONE_WORDS)

/* Bytes of device memory for the zones' words: two halves, as the
 * counts' buffer. hipf_histogram_zones_buffer_init() sets both for the
 * first launches, once allocated; launches then alternate its halves, as
 * they alternate the counts'. */
size_t hipf_histogram_zones_buffer_size (void);
hipError_t hipf_histogram_zones_buffer_init (uint32_t * buffer,
    hipStream_t stream);

/* The words of half @half of such a buffer: zone z's HIPF_ZONE_WORDS
 * from word z * HIPF_ZONE_WORDS on, as hipf_zones() writes them. */
static inline uint32_t *
hipf_histogram_zones_words (uint32_t * buffer, int half)
{
  return buffer + (half ? HIPF_HISTOGRAM_ZONE_HALF_WORDS : 0);
}

/* Whether hipf_histogram_zones() takes @zones with @frame: frames of 8-bit
 * samples whose first plane is the one @zones reads, whole (the region of
 * interest covers it: zones cover the whole frame whatever the region),
 * counted with the luma @zones meters (a 4-byte RGB plane's, or the first
 * tap's of GRAY8, AYUV and a planar or semi-planar YUV frame's luma
 * plane), zones without their histograms, and as many zones as shared
 * memory holds beside the counts. */
int hipf_histogram_zones_fuse (const HipfDeviceLimits * limits,
    const HipfHistogramFrame * frame, const HipfZonesFrame * zones);

/* hipf_histogram (@limits, @frame, @src, @buffer, @half, @stream), and
 * @zones metered into half @zone_half of @zone_buffer (a buffer as above),
 * whose other half it sets for the next launch. hipErrorInvalidValue,
 * and no launch, where hipf_histogram_zones_fuse() is false. */
hipError_t hipf_histogram_zones (const HipfDeviceLimits * limits,
    const HipfHistogramFrame * frame, const HipfZonesFrame * zones,
    const uint8_t * src, uint32_t * buffer, int half, uint32_t * zone_buffer,
    int zone_half, hipStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* HIPF_HISTOGRAM_H */
