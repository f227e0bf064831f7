/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipconvolve's dispatch: which kernel runs a mask. Masks up to
 * HIPF_CONVOLVE_MAX_SIDE each way run on the tensor cores where the
 * device has them; separable ones too where their outer product's taps
 * are single bytes (a product a row; each further digit is another pass
 * of products). Other separable masks take both passes on the tensor
 * cores, and where there are none (or their tile outgrows shared memory)
 * the two passes through memory; the rest the direct kernel.
 */
#include "convolve/common.cuh"
#include "convolve/mma.cuh"
#include "convolve/algorithms.h"

namespace hipf::conv {

namespace {

bool valid (const HipfConvolvePlane * p, const HipfConvolveMask * m)
{
  if (p->width < 1 || p->height < 1 || p->channels < 1 || p->channels > 4
      || p->border == HIPF_BORDER_VALID || m->divisor == 0)
    return false;
  if (m->separable)
    return m->n_x >= 1 && m->n_y >= 1 && m->n_x <= HIPF_CONVOLVE_MAX_TAPS
        && m->n_y <= HIPF_CONVOLVE_MAX_TAPS && m->n_x % 2 && m->n_y % 2;
  return m->width >= 1 && m->height >= 1
      && m->width <= HIPF_CONVOLVE_MAX_SIDE
      && m->height <= HIPF_CONVOLVE_MAX_SIDE && m->width % 2 && m->height % 2;
}

bool fits_2d (const HipfConvolveMask * m)
{
  return !m->separable || (m->n_x <= HIPF_CONVOLVE_MAX_SIDE
      && m->n_y <= HIPF_CONVOLVE_MAX_SIDE);
}

}                               // namespace

int tap_digits (const HipfConvolveMask * m)
{
  int n = 1, d;
  if (m->separable) {
    for (int j = 0; j < m->n_y; ++j)
      for (int i = 0; i < m->n_x; ++i)
        if ((d = byte_digits ((long long) m->taps_x[i] * m->taps_y[j])) > n)
          n = d;
  } else {
    for (int i = 0; i < m->width * m->height; ++i)
      if ((d = byte_digits (m->taps[i])) > n)
        n = d;
  }
  return n;
}

}                               // namespace hipf::conv

using namespace hipf::conv;

extern "C" size_t
hipf_convolve_scratch_size (const HipfDeviceLimits * limits,
    const HipfConvolvePlane * plane, const HipfConvolveMask * mask)
{
  /* Room for either kind of mask's taps, then the row sums where the
   * passes through memory may run. */
  size_t taps = sizeof (int) * (HIPF_CONVOLVE_MAX_SIDE *
      HIPF_CONVOLVE_MAX_SIDE > 2 * HIPF_CONVOLVE_MAX_TAPS ?
      HIPF_CONVOLVE_MAX_SIDE * HIPF_CONVOLVE_MAX_SIDE :
      2 * HIPF_CONVOLVE_MAX_TAPS);
  if (!mask->separable || (plane->path != HIPF_CONVOLVE_SEPARABLE
          && passes_mma_fit (limits, plane, mask)))
    return taps;
  return taps + (size_t) plane->width * plane->height * plane->channels *
      sizeof (int32_t);
}

extern "C" hipError_t
hipf_convolve_run (const HipfDeviceLimits * limits,
    const HipfConvolvePlane * p, const HipfConvolveMask * m,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    void *scratch, hipStream_t stream)
{
  (void) hipGetLastError ();
  if (!valid (p, m))
    return hipErrorInvalidValue;
  int *taps = static_cast<int *>(scratch);
  hipError_t err;
  if (m->separable) {
    err = hipMemcpyAsync (taps, m->taps_x, m->n_x * sizeof (int),
        hipMemcpyHostToDevice, stream);
    if (err == hipSuccess)
      err = hipMemcpyAsync (taps + HIPF_CONVOLVE_MAX_TAPS, m->taps_y,
          m->n_y * sizeof (int), hipMemcpyHostToDevice, stream);
  } else {
    err = hipMemcpyAsync (taps, m->taps, m->width * m->height * sizeof (int),
        hipMemcpyHostToDevice, stream);
  }
  if (err != hipSuccess)
    return err;
  /* The taps' digits, counted once for the frame: up to 961 products of
   * a separable mask's taps. */
  const int digits = fits_2d (m) ? tap_digits (m) : 0;
  switch (p->path) {
    case HIPF_CONVOLVE_TENSOR:
      return digits && mma_available ()? run_mma (limits, p, m, digits, src,
          src_pitch, dst, dst_pitch, taps, stream) : hipErrorInvalidValue;
    case HIPF_CONVOLVE_DIRECT:
      return m->separable ? hipErrorInvalidValue : run_direct (p, m, src,
          src_pitch, dst, dst_pitch, taps, stream);
    case HIPF_CONVOLVE_TENSOR_PASSES:
      return run_passes_mma (limits, p, m, src, src_pitch, dst, dst_pitch,
          taps, stream);
    case HIPF_CONVOLVE_SEPARABLE:
      break;
    default:
      /* A mask whose tables outgrow the device's shared memory falls
       * through to the kernels below. */
      if (digits && (!m->separable || digits == 1) && mma_available ()
          && run_mma (limits, p, m, digits, src, src_pitch, dst, dst_pitch,
              taps, stream) == hipSuccess)
        return hipSuccess;
      (void) hipGetLastError ();
      /* Where they take the mask, the tensor cores' passes are the only
       * way on: the scratch has no room for row sums. */
      if (m->separable && passes_mma_fit (limits, p, m))
        return run_passes_mma (limits, p, m, src, src_pitch, dst, dst_pitch,
            taps, stream);
      break;
  }
  if (m->separable)
    return run_separable (p, m, src, src_pitch, dst, dst_pitch, taps,
        reinterpret_cast<int32_t *>(taps + HIPF_CONVOLVE_MAX_TAPS * 2),
        stream);
  return p->path == HIPF_CONVOLVE_SEPARABLE ? hipErrorInvalidValue :
      run_direct (p, m, src, src_pitch, dst, dst_pitch, taps, stream);
}
