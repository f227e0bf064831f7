/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Where a border-extended plane reads (border.h's modes, the reference's
 * rules: tests/reference.c), for every kernel that reads around a sample.
 */
#ifndef HIPF_BORDER_CUH
#define HIPF_BORDER_CUH

#include "border.h"

namespace hipf {

/* a / b rounded toward minus infinity (b > 0). */
__device__ inline int floor_div (int a, int b)
{
  int q = a / b;
  return (a % b != 0 && (a < 0)) ? q - 1 : q;
}

/* Row (or column) seen at index i of the border-extended plane, n long,
 * or -1 for none (zero border). Any distance outside it. */
__device__ inline int border_row (int i, int n, HipfBorderMode mode)
{
  if (i >= 0 && i < n)
    return i;
  switch (mode) {
    case HIPF_BORDER_CLAMP:
      return i < 0 ? 0 : n - 1;
    case HIPF_BORDER_WRAP:
      return i - floor_div (i, n) * n;
    case HIPF_BORDER_MIRROR:{
      if (n == 1)
        return 0;
      int period = 2 * n - 2;
      int r = i - floor_div (i, period) * period;
      return r < n ? r : period - r;
    }
    default:
      return -1;
  }
}

}                               // namespace hipf

#endif /* HIPF_BORDER_CUH */
