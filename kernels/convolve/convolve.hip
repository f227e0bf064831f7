/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipconvolve's kernels. A 2D mask: each block stages the tile of samples
 * its outputs read (the window's reach around them, border-extended as it
 * loads) and the taps in shared memory, and each thread sums several rows
 * of outputs in 32-bit integers. A separable mask: a row pass into 32-bit
 * row sums, then a column pass over tiles of them. The taps come from a
 * device copy made on the stream before the launches, so that frames in
 * flight on other streams may carry other masks (a __constant__ mask would
 * be one for all).
 */
#include "hipf-device.cuh"
#include "convolve/convolve.h"

namespace hipf {
namespace {

/* The 2D kernel's block: 32 pixels wide, 8 threads high, each thread
 * kRowsPerThread output rows, so a block's tile is 32 x 32 outputs. */
constexpr int kTileX = 32, kThreadsY = 8, kRowsPerThread = 4;
constexpr int kTileY = kThreadsY * kRowsPerThread;
/* The row pass: a block a stretch of kRowThreads pixels of a row. */
constexpr int kRowThreads = 256;
/* The column pass: 32 samples wide, kColRows rows a block. */
constexpr int kColX = 32, kColThreadsY = 8, kColRows = 64;

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
  int divisor, offset;
};

__device__ inline uint8_t output (int sum, const Args & a)
{
  const int v = hipf_convolve_round (sum, a.divisor) + a.offset;
  return (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
}

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
  const int x0 = blockIdx.x * kTileX, y0 = blockIdx.y * kTileY;
  const int tid = threadIdx.y * kTileX + threadIdx.x;
  const int threads = kTileX * kThreadsY;

  for (int i = tid; i < a.mw * a.mh; i += threads)
    mask[i] = taps[i];
  for (int i = tid; i < tw * th * C; i += threads) {
    const int ty = i / (tw * C), rest = i - ty * tw * C;
    const int tx = rest / C, c = rest - tx * C;
    const int sy = border_index (y0 + ty - a.mh / 2, a.height, a.border);
    const int sx = border_index (x0 + tx - a.mw / 2, a.width, a.border);
    tile[i] = sx < 0 || sy < 0 ? 0 :
        src[(size_t) sy * src_pitch + (size_t) sx * C + c];
  }
  __syncthreads ();

  const int x = x0 + threadIdx.x;
  if (x >= a.width)
    return;
  for (int r = 0; r < kRowsPerThread; ++r) {
    const int ly = threadIdx.y + r * kThreadsY, y = y0 + ly;
    if (y >= a.height)
      break;
    int sum[C];
#pragma unroll
    for (int c = 0; c < C; ++c)
      sum[c] = 0;
    for (int j = 0; j < a.mh; ++j) {
      const uint8_t *row = tile + ((size_t) (ly + j) * tw + threadIdx.x) * C;
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
      const int sx = border_index (x0 + tx - a.mw / 2, a.width, a.border);
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
  const int s0 = blockIdx.x * kColX, y0 = blockIdx.y * kColRows;
  const int samples = a.width * C;
  const int tid = threadIdx.y * kColX + threadIdx.x;
  const int threads = kColX * kColThreadsY;

  for (int i = tid; i < a.mh; i += threads)
    mask[i] = taps[i];
  for (int i = tid; i < th * kColX; i += threads) {
    const int ty = i / kColX, tx = i - ty * kColX, s = s0 + tx;
    const int sy = border_index (y0 + ty - a.mh / 2, a.height, a.border);
    tile[i] = sy < 0 || s >= samples ? 0 : sums[(size_t) sy * samples + s];
  }
  __syncthreads ();
  const int s = s0 + threadIdx.x;
  if (s >= samples)
    return;
  const int c = s % C;
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

template <int C>
hipError_t launch (const HipfConvolvePlane * p, const HipfConvolveMask * m,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    int *taps, hipStream_t stream)
{
  Args a = { p->width, p->height, 0, 0, p->channel_mask, p->border,
    m->divisor, m->offset };
  if (!m->separable) {
    a.mw = m->width;
    a.mh = m->height;
    const size_t shared = (size_t) a.mw * a.mh * sizeof (int) +
        (size_t) (kTileX + a.mw - 1) * (kTileY + a.mh - 1) * C;
    convolve_2d<C> <<<dim3 (ceil_div (p->width, kTileX),
            ceil_div (p->height, kTileY)), dim3 (kTileX, kThreadsY), shared,
        stream>>> (src, src_pitch, dst, dst_pitch, a, taps);
    return hipGetLastError ();
  }
  int32_t *sums = reinterpret_cast<int32_t *>(taps +
      HIPF_CONVOLVE_MAX_TAPS * 2);
  a.mw = m->n_x;
  a.mh = 1;
  convolve_rows<C> <<<dim3 (ceil_div (p->width, kRowThreads),
          p->height < 65535 ? p->height : 65535),
      kRowThreads, a.mw * sizeof (int) + (size_t) (kRowThreads + a.mw - 1) *
      C, stream>>> (src, src_pitch, sums, a, taps);
  a.mw = 1;
  a.mh = m->n_y;
  convolve_cols<C> <<<dim3 (ceil_div (p->width * C, kColX),
          ceil_div (p->height, kColRows)), dim3 (kColX, kColThreadsY),
      a.mh * sizeof (int) + (size_t) (kColRows + a.mh - 1) * kColX *
      sizeof (int32_t), stream>>> (src, src_pitch, sums, dst, dst_pitch, a,
      taps + HIPF_CONVOLVE_MAX_TAPS);
  return hipGetLastError ();
}

}                               // namespace
}                               // namespace hipf

extern "C" size_t
hipf_convolve_scratch_size (const HipfConvolvePlane * plane,
    const HipfConvolveMask * mask)
{
  /* Room for either kind of mask's taps, then the row sums. */
  size_t taps = sizeof (int) * (HIPF_CONVOLVE_MAX_SIDE *
      HIPF_CONVOLVE_MAX_SIDE > 2 * HIPF_CONVOLVE_MAX_TAPS ?
      HIPF_CONVOLVE_MAX_SIDE * HIPF_CONVOLVE_MAX_SIDE :
      2 * HIPF_CONVOLVE_MAX_TAPS);
  if (!mask->separable)
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
  (void) limits;
  (void) hipGetLastError ();
  if (p->width < 1 || p->height < 1 || p->channels < 1 || p->channels > 4
      || p->border == HIPF_BORDER_VALID || m->divisor == 0
      || (m->separable ? (m->n_x < 1 || m->n_y < 1
              || m->n_x > HIPF_CONVOLVE_MAX_TAPS
              || m->n_y > HIPF_CONVOLVE_MAX_TAPS || m->n_x % 2 == 0
              || m->n_y % 2 == 0) : (m->width < 1 || m->height < 1
              || m->width > HIPF_CONVOLVE_MAX_SIDE
              || m->height > HIPF_CONVOLVE_MAX_SIDE || m->width % 2 == 0
              || m->height % 2 == 0)))
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
  switch (p->channels) {
    case 1:
      return hipf::launch<1> (p, m, src, src_pitch, dst, dst_pitch, taps,
          stream);
    case 2:
      return hipf::launch<2> (p, m, src, src_pitch, dst, dst_pitch, taps,
          stream);
    case 3:
      return hipf::launch<3> (p, m, src, src_pitch, dst, dst_pitch, taps,
          stream);
    default:
      return hipf::launch<4> (p, m, src, src_pitch, dst, dst_pitch, taps,
          stream);
  }
}
