/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Staging samples for the tensor-core kernels: 4 samples of a row,
 * border-extended, each channel's packed in a word, as their fragments
 * take them.
 */
#ifndef HIPF_CONVOLVE_STAGE_CUH
#define HIPF_CONVOLVE_STAGE_CUH

#include "convolve/common.cuh"

namespace hipf::conv {

/* Samples x to x + 3 of row y, border-extended, each channel's in a
 * word: whole 16-, 8- or 4-byte loads where the row allows (@src_align:
 * 16, 8, 4 or 1, what rows start on). */
template <int C>
__device__ inline void load_group (const uint8_t * __restrict__ src,
    size_t src_pitch, const Args & a, int src_align, int y, int x,
    uint32_t (&w)[C])
{
#pragma unroll
  for (int c = 0; c < C; ++c)
    w[c] = 0;
  const int sy = border_row (y, a.height, a.border);
  if (sy < 0)
    return;
  const uint8_t *row = src + (size_t) sy * src_pitch;
  if (x >= 0 && x + 3 < a.width && src_align >= 4 * C && C != 3) {
    if (C == 1) {
      w[0] = *reinterpret_cast<const uint32_t *>(row + x);
    } else if (C == 2) {
      const uint2 p = *reinterpret_cast<const uint2 *>(row + 2 * x);
      w[0] = __byte_perm (p.x, p.y, 0x6420);
      w[1 % C] = __byte_perm (p.x, p.y, 0x7531);
    } else {
      const uint4 p = *reinterpret_cast<const uint4 *>(row + 4 * x);
      const uint32_t lo01 = __byte_perm (p.x, p.y, 0x5140);
      const uint32_t hi01 = __byte_perm (p.x, p.y, 0x7362);
      const uint32_t lo23 = __byte_perm (p.z, p.w, 0x5140);
      const uint32_t hi23 = __byte_perm (p.z, p.w, 0x7362);
      w[0] = __byte_perm (lo01, lo23, 0x5410);
      w[1 % C] = __byte_perm (lo01, lo23, 0x7632);
      w[2 % C] = __byte_perm (hi01, hi23, 0x5410);
      w[3 % C] = __byte_perm (hi01, hi23, 0x7632);
    }
    return;
  }
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int sx = x + k >= 0 && x + k < a.width ? x + k :
        border_row (x + k, a.width, a.border);
    if (sx < 0)
      continue;
#pragma unroll
    for (int c = 0; c < C; ++c)
      w[c] |= (uint32_t) row[(size_t) sx * C + c] << 8 * k;
  }
}

}                               // namespace hipf::conv

#endif /* HIPF_CONVOLVE_STAGE_CUH */
