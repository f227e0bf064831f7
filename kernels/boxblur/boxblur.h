/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * C API of the box blur: plan a plane once, then run the plan on frames.
 * docs/design/boxblur.md describes the algorithms and how one is chosen.
 */
#ifndef HIPF_BOXBLUR_H
#define HIPF_BOXBLUR_H

#include <stddef.h>
#include <stdint.h>

#include "hipf-runtime.h"
#include "hipf-limits.h"
#include "border.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Window sums of 8-bit samples are kept in 32 bits; (2r+1)^2 * 255 +
 * (2r+1)^2 / 2 stays below 2^32 up to this radius, so the rounded mean is
 * exact. 16-bit samples sum in 64 bits (general.hip). */
#define HIPF_BOX_BLUR_MAX_RADIUS 2000

/* One plane of 8- or 16-bit samples, `channels` of them interleaved per
 * pixel. */
typedef struct {
  int width;
  int height;
  int channels;                 /* 1 to 4 */
  int radius_x;
  int radius_y;
  HipfBorderMode border;
  /* Nonzero where the last work before this plane's run on the stream is
   * the run of another plane of the same frame, whose source and
   * destination do not overlap this plane's: a plane on the strip path
   * then starts without waiting for that one to finish (the first plane's
   * kernels wait for what came before the frame). */
  int after_plane;
  /* 2: 16-bit little-endian samples (the general path takes them); 0 or
   * 1: 8-bit. Each 16-bit sample is blurred as v >> shift and its mean
   * stored << shift (P010's 6: its 10 bits sit high in each word). */
  int sample_bytes;
  int shift;
} HipfBoxBlurPlane;

/* The algorithm a plan runs (docs/design/boxblur.md). */
typedef enum {
  HIPF_BOX_BLUR_GENERAL,        /* column prefixes, then row scans */
  HIPF_BOX_BLUR_BANDS,          /* a block a band, row scans in shared memory */
  HIPF_BOX_BLUR_STRIPS,         /* a warp a strip, sums passed between lanes */
  HIPF_BOX_BLUR_PAIRED_STRIPS,  /* strips whose bands share their starts */
} HipfBoxBlurPath;

/* Everything a plane's blur needs decided before its frames come: the
 * algorithm, its launch configuration and its scratch size. Made with
 * the device current whose limits it is given, and valid on that device. */
typedef struct HipfBoxBlurPlan HipfBoxBlurPlan;

/* Plans the blur of @plane into *@plan, to free with
 * hipf_box_blur_plan_free(); hipErrorInvalidValue for a plane no
 * algorithm takes (sizes below 1, more than 4 channels, a radius out of
 * range), hipErrorOutOfMemory where the host has none. */
hipError_t hipf_box_blur_plan_new (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane, HipfBoxBlurPlan ** plan);
void hipf_box_blur_plan_free (HipfBoxBlurPlan * plan);

/* The plane a plan was made for, and what it chose. */
const HipfBoxBlurPlane *hipf_box_blur_plan_plane (const HipfBoxBlurPlan * plan);
HipfBoxBlurPath hipf_box_blur_plan_path (const HipfBoxBlurPlan * plan);
/* Bytes of device scratch memory the plan's runs need. */
size_t hipf_box_blur_plan_scratch_size (const HipfBoxBlurPlan * plan);

/* The path's name, for logs: "general", "bands", "strips", "paired strips". */
const char *hipf_box_blur_path_name (HipfBoxBlurPath path);

/* Bytes of scratch that every plan of a plane of @plane's width and
 * channels, no taller, at any radius and border mode, stays within: what
 * to allocate once for planes whose radius may change. */
size_t hipf_box_blur_scratch_size (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane);

/* Enqueues the planned blur on @stream. @src and @dst are device memory
 * and must not overlap; their rows must start on 16-byte boundaries and
 * hold a whole number of 16-byte chunks (the samples rounded up), which
 * the kernels may read and write past the last sample. @scratch holds at
 * least the plan's scratch size. */
hipError_t hipf_box_blur_run (const HipfBoxBlurPlan * plan,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    void *scratch, hipStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* HIPF_BOXBLUR_H */
