/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * C API of hipconvolve's kernels: one plane of 8-bit samples, `channels`
 * of them interleaved a pixel, through a mask (convolve/mask.h has the
 * arithmetic). docs/design/convolve.md describes the kernels.
 */
#ifndef HIPF_CONVOLVE_H
#define HIPF_CONVOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "hipf-runtime.h"
#include "hipf-limits.h"
#include "border.h"
#include "convolve/mask.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels a mask may run on (docs/design/convolve.md). */
typedef enum {
  HIPF_CONVOLVE_AUTO,           /* the fastest that takes the mask */
  HIPF_CONVOLVE_TENSOR,         /* tensor-core products: NVIDIA 8.0 on, up
                                 * to HIPF_CONVOLVE_MAX_SIDE each way */
  HIPF_CONVOLVE_DIRECT,         /* 32-bit multiply-adds: 2D masks */
  HIPF_CONVOLVE_SEPARABLE,      /* row and column passes: separable masks */
  HIPF_CONVOLVE_TENSOR_PASSES,  /* both passes on the tensor cores, the row
                                 * sums on chip: separable masks, NVIDIA
                                 * 8.0 on, up to HIPF_CONVOLVE_TENSOR_TAPS
                                 * taps each way wherever a block may have
                                 * 128 KiB of shared memory, longer ones
                                 * where their tile fits */
} HipfConvolvePath;

#define HIPF_CONVOLVE_TENSOR_TAPS 63

typedef struct {
  int width, height;            /* pixels */
  int channels;                 /* 1 to 4 */
  /* Bit c set: channel c is convolved; clear: copied as it is. */
  unsigned channel_mask;
  HipfBorderMode border;        /* zero, clamp, mirror or wrap */
  /* AUTO but to test a path: hipErrorInvalidValue where that path does
   * not take the mask or the device has none. */
  HipfConvolvePath path;
} HipfConvolvePlane;

/* Device bytes the run of @mask on @plane needs on the current device:
 * the mask's taps, and for separable masks that may take the passes
 * through memory (the plane's path asks for them, or the tensor cores'
 * passes do not take the mask here) the 32-bit row sums between them. */
size_t hipf_convolve_scratch_size (const HipfDeviceLimits * limits,
    const HipfConvolvePlane * plane, const HipfConvolveMask * mask);

/* Enqueues @mask on @plane from @src to @dst (device memory, not
 * overlapping, rows @src_pitch and @dst_pitch bytes apart) on @stream.
 * The taps are copied from @mask into @scratch first, when the stream
 * gets there: keep @mask unchanged until then, in pinned host memory so
 * that the copy waits for nothing on the host. hipErrorInvalidValue for a
 * plane or mask out of range (sizes, a zero divisor), or the valid
 * border; the taps' weight bound (mask.h) is the caller's to keep. Rows and pixels on
 * 4-byte boundaries (8 for the output) are read and written a word (a
 * pair) at a time. */
hipError_t hipf_convolve_run (const HipfDeviceLimits * limits,
    const HipfConvolvePlane * plane, const HipfConvolveMask * mask,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    void *scratch, hipStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* HIPF_CONVOLVE_H */
