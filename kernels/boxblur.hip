/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Box blur by prefix sums: the cost per sample does not depend on the radius.
 *
 * Border modes are folded into the prefix sums themselves. For a signal s of
 * length n and its prefix P (P(0) = 0, P(j) = s[0] + ... + s[j-1]), the
 * prefix F(k) of the border-extended signal is known in closed form for any
 * integer k (periodic for wrap and mirror), and the window [a, b) sums to
 * F(b) - F(a). All sums are modulo 2^32: differences stay exact as long as
 * the true window sum fits, which HIPF_BOX_BLUR_MAX_RADIUS guarantees.
 *
 * Pass 1 (column_prefix_sum): prefix down every sample column.
 * Pass 2 (box_blur_rows): per row, vertical window sums from pass 1, a block
 * scan along the row, then horizontal window sums and the rounded mean.
 */
#include "hipf-device.cuh"

namespace hipf {
namespace {

constexpr int kRowThreads = 256;        /* one row tile per block scan step */
constexpr int kColumnThreads = 256;
constexpr int kMaxChannels = 4;

__device__ inline int floor_div (int a, int b)
{
  int q = a / b;
  return (a % b != 0 && (a < 0)) ? q - 1 : q;
}

__device__ inline int clamp_index (int k, int n)
{
  return k < 0 ? 0 : (k > n ? n : k);
}

/* Reads P(j) of one sample column or one channel of a row. */
struct StridedPrefix
{
  const uint32_t *base;
  size_t stride;
  __device__ uint32_t operator() (int j) const { return base[(size_t) j * stride]; }
};

/* F(k): sum of the border-extended signal over [0, k), from P(0..n). */
__device__ inline uint32_t extended_prefix (const StridedPrefix & p, int n,
    int k, HipfBorderMode mode)
{
  switch (mode) {
    case HIPF_BORDER_CLAMP:
      if (k < 0)
        return (uint32_t) k * p (1);
      if (k > n)
        return p (n) + (uint32_t) (k - n) * (p (n) - p (n - 1));
      return p (k);
    case HIPF_BORDER_WRAP:{
      int q = floor_div (k, n);
      return (uint32_t) q * p (n) + p (k - q * n);
    }
    case HIPF_BORDER_MIRROR:{
      if (n == 1)
        return (uint32_t) k * p (1);
      /* Reflect-101 repeats with period 2n - 2: s[0..n-1] then s[n-2..1]. */
      int period = 2 * n - 2;
      int q = floor_div (k, period);
      int r = k - q * period;
      uint32_t tail = p (n) + p (n - 1);
      uint32_t whole = tail - p (1);
      uint32_t part = r <= n ? p (r) : tail - p (period - r + 1);
      return (uint32_t) q * whole + part;
    }
    default:                   /* zero and valid: nothing outside the plane */
      return p (clamp_index (k, n));
  }
}

__device__ inline uint32_t window_count (int a, int b, int n, HipfBorderMode mode)
{
  if (mode == HIPF_BORDER_VALID)
    return (uint32_t) (clamp_index (b, n) - clamp_index (a, n));
  return (uint32_t) (b - a);
}

__global__ void column_prefix_sum (const uint8_t * __restrict__ src,
    size_t pitch, int row_samples, int height, uint32_t * __restrict__ prefix)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= row_samples)
    return;
  uint32_t acc = 0;
  prefix[i] = 0;
  for (int y = 0; y < height; ++y) {
    acc += src[(size_t) y * pitch + i];
    prefix[(size_t) (y + 1) * row_samples + i] = acc;
  }
}

/* Inclusive scan of kRowThreads values per channel, in place. */
template <int C>
__device__ inline void block_inclusive_scan (uint32_t (&values)[kMaxChannels][kRowThreads])
{
  const int tid = threadIdx.x;
  for (int offset = 1; offset < kRowThreads; offset <<= 1) {
    uint32_t add[C];
#pragma unroll
    for (int c = 0; c < C; ++c)
      add[c] = tid >= offset ? values[c][tid - offset] : 0;
    __syncthreads ();
#pragma unroll
    for (int c = 0; c < C; ++c)
      values[c][tid] += add[c];
    __syncthreads ();
  }
}

template <int C>
__global__ void __launch_bounds__ (kRowThreads)
box_blur_rows (const uint32_t * __restrict__ column_prefix, int width,
    int height, int radius_x, int radius_y, HipfBorderMode mode,
    uint8_t * __restrict__ dst, size_t dst_pitch, uint32_t * row_scratch)
{
  __shared__ uint32_t scan[kMaxChannels][kRowThreads];
  const int tid = threadIdx.x;
  const int row_samples = width * C;
  /* P(x) of channel c lives at row[x * C + c], x in [0, width]. */
  uint32_t *row = row_scratch + (size_t) blockIdx.x * (width + 1) * C;

  for (int y = blockIdx.x; y < height; y += gridDim.x) {
    const int ya = y - radius_y, yb = y + radius_y + 1;
    const uint32_t count_y = window_count (ya, yb, height, mode);
    uint32_t carry[C];
#pragma unroll
    for (int c = 0; c < C; ++c)
      carry[c] = 0;
    if (tid < C)
      row[tid] = 0;

    for (int x0 = 0; x0 < width; x0 += kRowThreads) {
      const int x = x0 + tid;
#pragma unroll
      for (int c = 0; c < C; ++c) {
        uint32_t v = 0;
        if (x < width) {
          StridedPrefix col = { column_prefix + x * C + c, (size_t) row_samples };
          v = extended_prefix (col, height, yb, mode) -
              extended_prefix (col, height, ya, mode);
        }
        scan[c][tid] = v;
      }
      __syncthreads ();
      block_inclusive_scan<C> (scan);
      if (x < width) {
#pragma unroll
        for (int c = 0; c < C; ++c)
          row[(size_t) (x + 1) * C + c] = carry[c] + scan[c][tid];
      }
#pragma unroll
      for (int c = 0; c < C; ++c)
        carry[c] += scan[c][kRowThreads - 1];
      __syncthreads ();
    }
    /* Makes the row prefix written above visible to the whole block. */
    __syncthreads ();

    uint8_t *out = dst + (size_t) y * dst_pitch;
    for (int x = tid; x < width; x += kRowThreads) {
      const int xa = x - radius_x, xb = x + radius_x + 1;
      const uint32_t n = window_count (xa, xb, width, mode) * count_y;
#pragma unroll
      for (int c = 0; c < C; ++c) {
        StridedPrefix p = { row + c, (size_t) C };
        uint32_t sum = extended_prefix (p, width, xb, mode) -
            extended_prefix (p, width, xa, mode);
        out[x * C + c] = (uint8_t) ((sum + n / 2) / n);
      }
    }
    /* The next row reuses the row prefix buffer. */
    __syncthreads ();
  }
}

template <int C>
int rows_grid (const HipfDeviceLimits * limits, int height)
{
  return persistent_grid (limits, box_blur_rows<C>, kRowThreads, 0, height);
}

int rows_grid_for (const HipfDeviceLimits * limits, int channels, int height)
{
  switch (channels) {
    case 1: return rows_grid<1> (limits, height);
    case 2: return rows_grid<2> (limits, height);
    case 3: return rows_grid<3> (limits, height);
    default: return rows_grid<4> (limits, height);
  }
}

size_t column_prefix_bytes (const HipfBoxBlurPlane * p)
{
  return (size_t) (p->height + 1) * p->width * p->channels * sizeof (uint32_t);
}

template <int C>
void launch_rows (int grid, const HipfBoxBlurPlane * p, const uint32_t * prefix,
    uint8_t * dst, size_t dst_pitch, uint32_t * row_scratch, hipStream_t stream)
{
  box_blur_rows<C> <<<grid, kRowThreads, 0, stream>>> (prefix, p->width,
      p->height, p->radius_x, p->radius_y, p->border, dst, dst_pitch,
      row_scratch);
}

}  // namespace
}  // namespace hipf

extern "C" size_t
hipf_box_blur_scratch_size (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane)
{
  using namespace hipf;
  size_t rows = (size_t) rows_grid_for (limits, plane->channels, plane->height)
      * (plane->width + 1) * plane->channels * sizeof (uint32_t);
  return column_prefix_bytes (plane) + rows;
}

extern "C" hipError_t
hipf_box_blur (const HipfDeviceLimits * limits, const HipfBoxBlurPlane * p,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    void *scratch, hipStream_t stream)
{
  using namespace hipf;
  if (p->width < 1 || p->height < 1 || p->channels < 1
      || p->channels > kMaxChannels || p->radius_x < 0 || p->radius_y < 0
      || p->radius_x > HIPF_BOX_BLUR_MAX_RADIUS
      || p->radius_y > HIPF_BOX_BLUR_MAX_RADIUS)
    return hipErrorInvalidValue;

  const int row_samples = p->width * p->channels;
  uint32_t *prefix = (uint32_t *) scratch;
  uint32_t *row_scratch = (uint32_t *) ((uint8_t *) scratch + column_prefix_bytes (p));

  column_prefix_sum <<<ceil_div (row_samples, kColumnThreads), kColumnThreads,
      0, stream>>> (src, src_pitch, row_samples, p->height, prefix);

  const int grid = rows_grid_for (limits, p->channels, p->height);
  switch (p->channels) {
    case 1: launch_rows<1> (grid, p, prefix, dst, dst_pitch, row_scratch, stream); break;
    case 2: launch_rows<2> (grid, p, prefix, dst, dst_pitch, row_scratch, stream); break;
    case 3: launch_rows<3> (grid, p, prefix, dst, dst_pitch, row_scratch, stream); break;
    default: launch_rows<4> (grid, p, prefix, dst, dst_pitch, row_scratch, stream); break;
  }
  return hipGetLastError ();
}
