/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What each convolution algorithm offers the dispatch (dispatch.cpp): a
 * launch on one plane, the taps already in device memory. Host code,
 * compiled with the kernels.
 */
#ifndef HIPF_CONVOLVE_ALGORITHMS_H
#define HIPF_CONVOLVE_ALGORITHMS_H

#include "convolve/convolve.h"

namespace hipf::conv {

/* Whether the tensor-core kernel runs on the current device: NVIDIA
 * compute capability 8.0 on, with its code built for 8.0 or later. */
bool mma_available ();

/* Signed byte digits the widest tap of a 2D mask needs (1 to 4): each
 * digit is one more pass of the tensor-core kernel. */
int tap_digits (const HipfConvolveMask * mask);

/* ---- tensor-core 2D kernel (mma.hip): @digits as tap_digits() gives
 * them ---- */
hipError_t run_mma (const HipfDeviceLimits * limits,
    const HipfConvolvePlane * plane, const HipfConvolveMask * mask,
    int digits, const uint8_t * src, size_t src_pitch, uint8_t * dst,
    size_t dst_pitch, const int *taps, hipStream_t stream);

/* ---- separable masks on the tensor cores, both passes in one kernel
 * (passes_mma.hip): whether they take the mask on the current device,
 * and the launch; hipErrorInvalidValue for a 2D mask, where there are no
 * tensor cores, or where the mask's tile outgrows shared memory ---- */
bool passes_mma_fit (const HipfDeviceLimits * limits,
    const HipfConvolvePlane * plane, const HipfConvolveMask * mask);
hipError_t run_passes_mma (const HipfDeviceLimits * limits,
    const HipfConvolvePlane * plane, const HipfConvolveMask * mask,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    const int *taps, hipStream_t stream);

/* ---- direct 2D kernel (direct.hip) ---- */
hipError_t run_direct (const HipfConvolvePlane * plane,
    const HipfConvolveMask * mask, const uint8_t * src, size_t src_pitch,
    uint8_t * dst, size_t dst_pitch, const int *taps, hipStream_t stream);

/* ---- separable passes (separable.hip): taps_x at @taps, taps_y
 * HIPF_CONVOLVE_MAX_TAPS words on, the row sums at @sums ---- */
hipError_t run_separable (const HipfConvolvePlane * plane,
    const HipfConvolveMask * mask, const uint8_t * src, size_t src_pitch,
    uint8_t * dst, size_t dst_pitch, const int *taps, int32_t * sums,
    hipStream_t stream);

}                               // namespace hipf::conv

#endif /* HIPF_CONVOLVE_ALGORITHMS_H */
