/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The 2D kernel where there is no tensor core (AMD, NVIDIA before compute
 * capability 8.0): each block stages the tile of samples its outputs read
 * (the window's reach around them, border-extended as it loads) and the
 * taps in shared memory, and each thread sums several rows of outputs in
 * 32-bit integers.
 */
#include "convolve/common.cuh"
#include "convolve/tuning.h"
#include "convolve/algorithms.h"

namespace hipf::conv {
namespace {

template <int C>
__global__ void __launch_bounds__ (kTileX * kThreadsY)
convolve_2d (const uint8_t * __restrict__ src, size_t src_pitch,
    uint8_t * __restrict__ dst, size_t dst_pitch, Args a,
    const int * __restrict__ taps)
{
  extern __shared__ int shared[];
  int *mask = shared;
  uint8_t *tile = reinterpret_cast<uint8_t *>(shared + a.mw * a.mh);
  const int tw = kTileX + a.mw - 1, th = kTileY + a.mh - 1;
  const int x0 = blockIdx.x * kTileX;
  const int tid = threadIdx.y * kTileX + threadIdx.x;
  const int threads = kTileX * kThreadsY;
  const int x = x0 + threadIdx.x;

  for (int i = tid; i < a.mw * a.mh; i += threads)
    mask[i] = taps[i];
  /* Tile rows dealt out to the grid's rows: a grid is at most 65535
   * blocks high. */
  for (int y0 = blockIdx.y * kTileY; y0 < a.height; y0 += gridDim.y * kTileY) {
    __syncthreads ();
    for (int i = tid; i < tw * th * C; i += threads) {
      const int ty = i / (tw * C), rest = i - ty * tw * C;
      const int tx = rest / C, c = rest - tx * C;
      const int sy = border_row (y0 + ty - a.mh / 2, a.height, a.border);
      const int sx = border_row (x0 + tx - a.mw / 2, a.width, a.border);
      tile[i] = sx < 0 || sy < 0 ? 0 :
          src[(size_t) sy * src_pitch + (size_t) sx * C + c];
    }
    __syncthreads ();

    if (x >= a.width)
      continue;
    for (int r = 0; r < kRowsPerThread; ++r) {
      const int ly = threadIdx.y + r * kThreadsY, y = y0 + ly;
      if (y >= a.height)
        break;
      int sum[C];
#pragma unroll
      for (int c = 0; c < C; ++c)
        sum[c] = 0;
      for (int j = 0; j < a.mh; ++j) {
        const uint8_t *row = tile + ((size_t) (ly + j) * tw + threadIdx.x) *
            C;
        const int *m = mask + j * a.mw;
        for (int i = 0; i < a.mw; ++i) {
#pragma unroll
          for (int c = 0; c < C; ++c)
            sum[c] += m[i] * row[i * C + c];
        }
      }
      uint8_t *out = dst + (size_t) y * dst_pitch + (size_t) x * C;
      const uint8_t *centre = tile + ((size_t) (ly + a.mh / 2) * tw +
          threadIdx.x + a.mw / 2) * C;
#pragma unroll
      for (int c = 0; c < C; ++c)
        out[c] = a.channel_mask >> c & 1 ? output (sum[c], a) : centre[c];
    }
  }
}

template <int C>
hipError_t launch (const HipfConvolvePlane * p, const HipfConvolveMask * m,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    const int *taps, hipStream_t stream)
{
  const Args a = make_args (p, m, m->width, m->height);
  const size_t shared = (size_t) a.mw * a.mh * sizeof (int) +
      (size_t) (kTileX + a.mw - 1) * (kTileY + a.mh - 1) * C;
  const int tiles_y = ceil_div (p->height, kTileY);
  convolve_2d<C> <<<dim3 (ceil_div (p->width, kTileX),
          tiles_y < 65535 ? tiles_y : 65535), dim3 (kTileX, kThreadsY), shared,
      stream>>> (src, src_pitch, dst, dst_pitch, a, taps);
  return hipGetLastError ();
}

}                               // namespace

hipError_t run_direct (const HipfConvolvePlane * p,
    const HipfConvolveMask * m, const uint8_t * src, size_t src_pitch,
    uint8_t * dst, size_t dst_pitch, const int *taps, hipStream_t stream)
{
  switch (p->channels) {
    case 1: return launch<1> (p, m, src, src_pitch, dst, dst_pitch, taps, stream);
    case 2: return launch<2> (p, m, src, src_pitch, dst, dst_pitch, taps, stream);
    case 3: return launch<3> (p, m, src, src_pitch, dst, dst_pitch, taps, stream);
    default: return launch<4> (p, m, src, src_pitch, dst, dst_pitch, taps, stream);
  }
}

}                               // namespace hipf::conv
