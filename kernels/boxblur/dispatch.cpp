/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Chooses a plane's algorithm once, when it is planned: the strips where
 * they take the plane (the cheapest, no barrier), else the bands (rows
 * that fit shared memory), else the general path. The choice and every
 * launch parameter are kept in the plan, so that a run only fills in the
 * frame's memory and launches.
 */
#include <new>

#include "boxblur/algorithms.h"
#include "boxblur/common.cuh"

using namespace hipf;
using namespace hipf::blur;

struct HipfBoxBlurPlan
{
  HipfDeviceLimits limits;
  HipfBoxBlurPlane plane;
  HipfBoxBlurPath path;
  size_t scratch;
  StripPlan strips;
  BandPlan bands;
  GeneralPlan general;
};

extern "C" hipError_t
hipf_box_blur_plan_new (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * p, HipfBoxBlurPlan ** out)
{
  *out = nullptr;
  if (p->width < 1 || p->height < 1 || p->channels < 1
      || p->channels > kMaxChannels || p->radius_x < 0 || p->radius_y < 0
      || p->radius_x > HIPF_BOX_BLUR_MAX_RADIUS
      || p->radius_y > HIPF_BOX_BLUR_MAX_RADIUS || p->sample_bytes < 0
      || p->sample_bytes > 2 || p->shift < 0
      || p->shift > (p->sample_bytes == 2 ? 15 : 0))
    return hipErrorInvalidValue;
  HipfBoxBlurPlan *plan = new (std::nothrow) HipfBoxBlurPlan ();
  if (!plan)
    return hipErrorOutOfMemory;
  plan->limits = *limits;
  plan->plane = *p;
  /* The strips and bands sum 8-bit samples in 16-bit lanes. */
  const bool narrow = p->sample_bytes < 2;
  if (narrow)
    plan->strips = plan_strips (limits, p);
  if (plan->strips.ok) {
    plan->path = plan->strips.paired ? HIPF_BOX_BLUR_PAIRED_STRIPS :
        HIPF_BOX_BLUR_STRIPS;
  } else if (narrow && (plan->bands = plan_bands (limits, p)).ok) {
    plan->path = HIPF_BOX_BLUR_BANDS;
    plan->scratch = plan->bands.scratch;
  } else {
    plan->general = plan_general (limits, p);
    plan->path = HIPF_BOX_BLUR_GENERAL;
    plan->scratch = plan->general.scratch;
  }
  /* Occupancy queries may leave an error behind: the runs' errors must
   * be their own. */
  (void) hipGetLastError ();
  *out = plan;
  return hipSuccess;
}

extern "C" void
hipf_box_blur_plan_free (HipfBoxBlurPlan * plan)
{
  delete plan;
}

extern "C" const HipfBoxBlurPlane *
hipf_box_blur_plan_plane (const HipfBoxBlurPlan * plan)
{
  return &plan->plane;
}

extern "C" HipfBoxBlurPath
hipf_box_blur_plan_path (const HipfBoxBlurPlan * plan)
{
  return plan->path;
}

extern "C" size_t
hipf_box_blur_plan_scratch_size (const HipfBoxBlurPlan * plan)
{
  return plan->scratch;
}

extern "C" const char *
hipf_box_blur_path_name (HipfBoxBlurPath path)
{
  switch (path) {
    case HIPF_BOX_BLUR_GENERAL: return "general";
    case HIPF_BOX_BLUR_BANDS: return "bands";
    case HIPF_BOX_BLUR_STRIPS: return "strips";
    case HIPF_BOX_BLUR_PAIRED_STRIPS: return "paired strips";
  }
  return "unknown";
}

extern "C" size_t
hipf_box_blur_scratch_size (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane)
{
  /* The most bands any radius gives: the tallest window, and the least
   * shared memory, which lets the most blocks share a multiprocessor, in
   * either of the steps a radius may get. */
  if (plane->sample_bytes == 2)
    return plan_general (limits, plane).scratch;
  HipfBoxBlurPlane tallest = *plane;
  tallest.radius_x = tallest.width;
  tallest.radius_y = HIPF_BOX_BLUR_MAX_RADIUS;
  const BandPlan one = plan_bands (limits, &tallest, 1, 1);
  const BandPlan two = plan_bands (limits, &tallest, 1, 2);
  (void) hipGetLastError ();
  if (!one.ok && !two.ok)
    return plan_general (limits, plane).scratch;
  /* And the most of any plane no taller: one prefix a band of one row
   * where the plane fills the device no further, one every
   * kMaxPrefixRows rows at most, one every band's rows between (never
   * more than fill bands). */
  size_t most = 0;
  for (const BandPlan *plan : { &one, &two }) {
    const int filled = plane->height < plan->fill ? plane->height :
        plan->fill;
    const int every = ceil_div (plane->height, kMaxPrefixRows);
    const size_t bytes = (size_t) ((filled > every ? filled : every) + 1)
        * plan->prefix_words * sizeof (uint32_t);
    if (plan->ok && bytes > most)
      most = bytes;
  }
  return most;
}

extern "C" hipError_t
hipf_box_blur_run (const HipfBoxBlurPlan * plan, const uint8_t * src,
    size_t src_pitch, uint8_t * dst, size_t dst_pitch, void *scratch,
    hipStream_t stream)
{
  /* Clears an error an earlier call on this thread left behind, so that
   * the error returned is this run's own. */
  (void) hipGetLastError ();
  switch (plan->path) {
    case HIPF_BOX_BLUR_STRIPS:
    case HIPF_BOX_BLUR_PAIRED_STRIPS:
      return run_strips (&plan->limits, plan->strips, src, src_pitch, dst,
          dst_pitch, stream);
    case HIPF_BOX_BLUR_BANDS:
      return run_bands (&plan->limits, plan->bands, src, src_pitch, dst,
          dst_pitch, scratch, stream);
    case HIPF_BOX_BLUR_GENERAL:
      break;
  }
  return run_general (plan->general, src, src_pitch, dst, dst_pitch,
      scratch, stream);
}
