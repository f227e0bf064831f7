/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Device helpers every convolution kernel shares: the launch arguments
 * and the rounded output of a sum (border.cuh says where a
 * border-extended index reads).
 */
#ifndef HIPF_CONVOLVE_COMMON_CUH
#define HIPF_CONVOLVE_COMMON_CUH

#include "hipf-device.cuh"
#include "border.cuh"
#include "convolve/convolve.h"

namespace hipf::conv {

struct Args
{
  int width, height, mw, mh;
  unsigned channel_mask;
  HipfBorderMode border;
  /* The rounding of mask.h, a division by d = |divisor| (a negative
   * divisor negates the sum): floor (sum / d) from the multiplier m =
   * floor ((2^32 - 1) / d), then the remainder says whether to round up.
   * A 64-bit division costs a hundred-odd instructions a sample. */
  uint32_t d, magic;
  int negate;
  int offset;
};

inline Args make_args (const HipfConvolvePlane * p, const HipfConvolveMask * m,
    int mw, int mh)
{
  Args a;
  a.width = p->width;
  a.height = p->height;
  a.mw = mw;
  a.mh = mh;
  a.channel_mask = p->channel_mask;
  a.border = p->border;
  a.negate = m->divisor < 0;
  a.d = (uint32_t) (a.negate ? -(long long) m->divisor : m->divisor);
  a.magic = (uint32_t) (0xffffffffu / a.d);
  a.offset = m->offset;
  return a;
}

__device__ inline uint8_t output (int sum, const Args & a)
{
  /* |sum| < 2^31 (mask.h's bound), d <= 2^31. */
  const int s = a.negate ? -sum : sum;
  /* floor (s / d): of a negative s, minus the ceiling of -s / d. */
  const uint32_t u = s >= 0 ? (uint32_t) s : (uint32_t) -s + a.d - 1;
  uint32_t q = __umulhi (u, a.magic);
  q += (unsigned long long) (q + 1) * a.d <= u;
  const int q0 = s >= 0 ? (int) q : -(int) q;
  /* round (s / d) = floor (s / d + 1/2): up where the remainder is at
   * least half of d. */
  const uint32_t r = (uint32_t) s - (uint32_t) q0 * a.d;
  const long long v = (long long) q0 + (2ull * r >= a.d) + a.offset;
  return (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
}

}                               // namespace hipf::conv

#endif /* HIPF_CONVOLVE_COMMON_CUH */
