/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A convolution mask as hipconvolve applies it, shared by the element, the
 * kernels and the CPU reference (no HIP runtime needed):
 *
 *   out = clamp (round (sum / divisor) + offset, 0, 255)
 *
 * where sum is the exact integer sum of tap * sample over the window,
 * and round() takes the nearest integer, halves toward +infinity:
 * floor ((2 * sum + d) / (2 * d)) for a divisor d > 0 (a negative
 * divisor negates both). So -2.5 rounds to -2 and 2.5 to 3.
 *
 * Taps are applied as a correlation: tap (i, j) of a w x h mask weighs
 * the sample at (x + i - w/2, y + j - h/2), as GStreamer users read a
 * mask written out row by row (it equals convolution for symmetric
 * masks).
 */
#ifndef HIPF_CONVOLVE_MASK_H
#define HIPF_CONVOLVE_MASK_H

#include <stdint.h>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define HIPF_CONVOLVE_HD __host__ __device__
#else
#define HIPF_CONVOLVE_HD
#endif

#define HIPF_CONVOLVE_MAX_SIDE 31       /* a 2D mask's width and height */
#define HIPF_CONVOLVE_MAX_TAPS 255      /* each of a separable mask's */
/* The absolute values of the (outer product of the) taps sum to at most
 * this: 255 * 2^23 < 2^31, so every sum, and for separable masks every
 * row sum too, fits a 32-bit signed integer. */
#define HIPF_CONVOLVE_MAX_WEIGHT (1 << 23)

typedef struct {
  /* Separable: the outer product of taps_y (a column) and taps_x (a row),
   * n_y by n_x; otherwise width by height taps, row by row. */
  int separable;
  int width, height;
  int taps[HIPF_CONVOLVE_MAX_SIDE * HIPF_CONVOLVE_MAX_SIDE];
  int n_x, n_y;
  int taps_x[HIPF_CONVOLVE_MAX_TAPS], taps_y[HIPF_CONVOLVE_MAX_TAPS];
  int divisor;                  /* never 0 */
  int offset;
} HipfConvolveMask;

/* The rounded quotient defined above. */
static inline HIPF_CONVOLVE_HD int
hipf_convolve_round (int64_t sum, int64_t divisor)
{
  int64_t n, d, q;

  if (divisor < 0) {
    sum = -sum;
    divisor = -divisor;
  }
  n = 2 * sum + divisor;
  d = 2 * divisor;
  q = n / d;
  /* C division truncates toward zero: floor for negative quotients. */
  if ((n % d != 0) && n < 0)
    q--;
  return (int) q;
}

static inline HIPF_CONVOLVE_HD uint8_t
hipf_convolve_output (int64_t sum, const HipfConvolveMask * mask)
{
  int64_t v = (int64_t) hipf_convolve_round (sum, mask->divisor) +
      mask->offset;

  return (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
}

#endif /* HIPF_CONVOLVE_MASK_H */
