/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Device helpers every convolution kernel shares: where a border-extended
 * index reads, the launch arguments, and the rounded output of a sum.
 */
#ifndef HIPF_CONVOLVE_COMMON_CUH
#define HIPF_CONVOLVE_COMMON_CUH

#include "hipf-device.cuh"
#include "convolve/convolve.h"

namespace hipf::conv {

/* Where the border-extended signal at i shows the plane's sample (the
 * reference's rules: tests/reference.c), or -1 (zero border). */
__device__ inline int border_index (int i, int n, HipfBorderMode mode)
{
  if (i >= 0 && i < n)
    return i;
  switch (mode) {
    case HIPF_BORDER_CLAMP:
      return i < 0 ? 0 : n - 1;
    case HIPF_BORDER_WRAP:
      return ((i % n) + n) % n;
    case HIPF_BORDER_MIRROR:
      if (n == 1)
        return 0;
      while (i < 0 || i >= n) {
        if (i < 0)
          i = -i;
        if (i >= n)
          i = 2 * (n - 1) - i;
      }
      return i;
    default:
      return -1;
  }
}

struct Args
{
  int width, height, mw, mh;
  unsigned channel_mask;
  HipfBorderMode border;
  /* The rounding of mask.h as floor (n / d2) with n = 2 * sum + d, d2 =
   * 2 * d and d > 0 (a negative divisor negates the sum): inv_d2 = 1 / d2
   * estimates the quotient, off by at most one (|n| < 2^33, and a double
   * carries 53 bits), which the remainder corrects. A 64-bit division
   * costs a hundred-odd instructions a sample. */
  long long d, d2;
  int negate;
  double inv_d2;
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
  a.d = a.negate ? -(long long) m->divisor : m->divisor;
  a.d2 = 2 * a.d;
  a.inv_d2 = 1.0 / (double) a.d2;
  a.offset = m->offset;
  return a;
}

__device__ inline uint8_t output (int sum, const Args & a)
{
  const long long n = 2 * (long long) (a.negate ? -sum : sum) + a.d;
  long long q = (long long) floor ((double) n * a.inv_d2);
  const long long r = n - q * a.d2;
  if (r < 0)
    --q;
  else if (r >= a.d2)
    ++q;
  const long long v = q + a.offset;
  return (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
}

}                               // namespace hipf::conv

#endif /* HIPF_CONVOLVE_COMMON_CUH */
