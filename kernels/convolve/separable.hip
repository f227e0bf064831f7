/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Separable masks in two passes: a row pass into 32-bit row sums, then a
 * column pass over tiles of them, each staging its samples and taps in
 * shared memory.
 */
#include "convolve/common.cuh"
#include "convolve/tuning.h"
#include "convolve/algorithms.h"

namespace hipf::conv {
namespace {

/* Row pass: the row sums of every convolved channel, 32-bit, a sample
 * apart as the plane's samples are. */
template <int C>
__global__ void __launch_bounds__ (kRowThreads)
convolve_rows (const uint8_t * __restrict__ src, size_t src_pitch,
    int32_t * __restrict__ sums, Args a, const int * __restrict__ taps)
{
  extern __shared__ int shared[];
  int *mask = shared;
  uint8_t *tile = reinterpret_cast<uint8_t *>(shared + a.mw);
  const int tw = kRowThreads + a.mw - 1;
  const int x0 = blockIdx.x * kRowThreads, x = x0 + threadIdx.x;

  for (int i = threadIdx.x; i < a.mw; i += kRowThreads)
    mask[i] = taps[i];
  /* Rows dealt out to the blocks of each stretch: a grid is at most
   * 65535 blocks high. */
  for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
    const uint8_t *row = src + (size_t) y * src_pitch;
    __syncthreads ();
    for (int i = threadIdx.x; i < tw * C; i += kRowThreads) {
      const int tx = i / C, c = i - tx * C;
      const int sx = border_row (x0 + tx - a.mw / 2, a.width, a.border);
      tile[i] = sx < 0 ? 0 : row[(size_t) sx * C + c];
    }
    __syncthreads ();
    if (x >= a.width)
      continue;
    int sum[C];
#pragma unroll
    for (int c = 0; c < C; ++c)
      sum[c] = 0;
    const uint8_t *t = tile + (size_t) threadIdx.x * C;
    for (int i = 0; i < a.mw; ++i) {
#pragma unroll
      for (int c = 0; c < C; ++c)
        sum[c] += mask[i] * t[i * C + c];
    }
    int32_t *out = sums + ((size_t) y * a.width + x) * C;
#pragma unroll
    for (int c = 0; c < C; ++c)
      out[c] = sum[c];
  }
}

/* Column pass over the row sums: a block kColX samples (pixel-channels)
 * wide and kColRows rows high, the rows its windows reach staged. */
template <int C>
__global__ void __launch_bounds__ (kColX * kColThreadsY)
convolve_cols (const uint8_t * __restrict__ src, size_t src_pitch,
    const int32_t * __restrict__ sums, uint8_t * __restrict__ dst,
    size_t dst_pitch, Args a, const int * __restrict__ taps)
{
  extern __shared__ int shared[];
  int *mask = shared;
  int32_t *tile = shared + a.mh;
  const int th = kColRows + a.mh - 1;
  const int s0 = blockIdx.x * kColX;
  const int samples = a.width * C;
  const int tid = threadIdx.y * kColX + threadIdx.x;
  const int threads = kColX * kColThreadsY;
  const int s = s0 + threadIdx.x;
  const int c = s % C;

  for (int i = tid; i < a.mh; i += threads)
    mask[i] = taps[i];
  /* Tile rows dealt out to the grid's rows: a grid is at most 65535
   * blocks high. */
  for (int y0 = blockIdx.y * kColRows; y0 < a.height;
      y0 += gridDim.y * kColRows) {
    __syncthreads ();
    for (int i = tid; i < th * kColX; i += threads) {
      const int ty = i / kColX, tx = i - ty * kColX, si = s0 + tx;
      const int sy = border_row (y0 + ty - a.mh / 2, a.height, a.border);
      tile[i] = sy < 0 || si >= samples ? 0 :
          sums[(size_t) sy * samples + si];
    }
    __syncthreads ();
    if (s >= samples)
      continue;
    for (int ly = threadIdx.y; ly < kColRows; ly += kColThreadsY) {
      const int y = y0 + ly;
      if (y >= a.height)
        break;
      uint8_t *out = dst + (size_t) y * dst_pitch + s;
      if (!(a.channel_mask >> c & 1)) {
        *out = src[(size_t) y * src_pitch + s];
        continue;
      }
      int sum = 0;
      for (int j = 0; j < a.mh; ++j)
        sum += mask[j] * tile[(ly + j) * kColX + threadIdx.x];
      *out = output (sum, a);
    }
  }
}

template <int C>
hipError_t launch (const HipfConvolvePlane * p, const HipfConvolveMask * m,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    const int *taps, int32_t * sums, hipStream_t stream)
{
  Args a = make_args (p, m, m->n_x, 1);
  convolve_rows<C> <<<dim3 (ceil_div (p->width, kRowThreads),
          p->height < 65535 ? p->height : 65535),
      kRowThreads, a.mw * sizeof (int) + (size_t) (kRowThreads + a.mw - 1) *
      C, stream>>> (src, src_pitch, sums, a, taps);
  a.mw = 1;
  a.mh = m->n_y;
  const int tiles_y = ceil_div (p->height, kColRows);
  convolve_cols<C> <<<dim3 (ceil_div (p->width * C, kColX),
          tiles_y < 65535 ? tiles_y : 65535), dim3 (kColX, kColThreadsY),
      a.mh * sizeof (int) + (size_t) (kColRows + a.mh - 1) * kColX *
      sizeof (int32_t), stream>>> (src, src_pitch, sums, dst, dst_pitch, a,
      taps + HIPF_CONVOLVE_MAX_TAPS);
  return hipGetLastError ();
}

}                               // namespace

hipError_t run_separable (const HipfConvolvePlane * p,
    const HipfConvolveMask * m, const uint8_t * src, size_t src_pitch,
    uint8_t * dst, size_t dst_pitch, const int *taps, int32_t * sums,
    hipStream_t stream)
{
  switch (p->channels) {
    case 1: return launch<1> (p, m, src, src_pitch, dst, dst_pitch, taps, sums, stream);
    case 2: return launch<2> (p, m, src, src_pitch, dst, dst_pitch, taps, sums, stream);
    case 3: return launch<3> (p, m, src, src_pitch, dst, dst_pitch, taps, sums, stream);
    default: return launch<4> (p, m, src, src_pitch, dst, dst_pitch, taps, sums, stream);
  }
}

}                               // namespace hipf::conv
