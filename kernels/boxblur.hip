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
 * Fast path (box_blur_bands), for rows that fit a block's shared memory:
 * each block owns a band of rows and keeps the vertical window sums of its
 * 16-sample chunks in registers, sliding them down the band (add the row
 * entering the window, subtract the one leaving). Per output row it scans
 * the sums along the row into shared memory and reads the horizontal window
 * sums off that prefix. A band starts its window either by summing the
 * window's rows or, for tall windows, from column prefixes kept at band
 * boundaries (column_band_prefix), so its cost stays flat in the radius.
 * Neighbouring bands read the same rows at about the same time, so most
 * re-reads hit L2.
 *
 * General path, any size: column_prefix_sum stores the prefix down every
 * sample column; box_blur_rows takes the vertical window sums from it, scans
 * them along each row and forms the horizontal window sums.
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


/* ---- fast path -------------------------------------------------------- */

constexpr int kChunk = 16;              /* samples per 16-byte access */
/* Threads of a band block: one chunk each up to 1024 threads (64 registers
 * a thread), two chunks each from 512 threads (128 registers). */
constexpr int kMaxBandThreads = 1024;
__host__ __device__ constexpr int band_threads (int chunks_per_thread)
{
  return chunks_per_thread == 1 ? kMaxBandThreads : kMaxBandThreads / 2;
}
constexpr int kScanWarps = 32;          /* slots for per-warp scan totals */

/* Shared-memory index of prefix element i, skewed by one word every 32 so
 * that threads reading 16 apart hit distinct banks. */
__device__ inline int skew (int i)
{
  return i + (i >> 5);
}

__host__ __device__ inline int skewed_words (int n)
{
  return n + (n >> 5) + 1;
}

struct BandParams
{
  const uint8_t *src;
  size_t src_pitch;
  uint8_t *dst;
  size_t dst_pitch;
  int width, height, radius_x, radius_y;
  HipfBorderMode mode;
  int band_rows;
  int chunks;                   /* 16-sample chunks per row */
  const uint32_t *band_prefix;  /* NULL: bands sum their first window */
  size_t band_stride;           /* words between band prefix rows */
};

__device__ inline void add_bytes (uint32_t (&v)[kChunk], const uint4 & q,
    int sign)
{
  const uint32_t w[4] = { q.x, q.y, q.z, q.w };
#pragma unroll
  for (int k = 0; k < kChunk; ++k) {
    uint32_t b = (w[k / 4] >> (8 * (k % 4))) & 0xff;
    v[k] += sign > 0 ? b : 0u - b;
  }
}

__device__ inline void add_row (uint32_t (&v)[kChunk], const uint8_t * row,
    int sign)
{
  add_bytes (v, *reinterpret_cast<const uint4 *>(row), sign);
}

/* Row seen at index i of the border-extended plane, or -1 for none. */
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

/* F(k) of extended_prefix() as a sum of coef * P(j) terms, for callers
 * whose P(j) is expensive. */
template <typename Add>
__device__ inline void expand_prefix (int k, int n, HipfBorderMode mode,
    uint32_t sign, Add add)
{
  switch (mode) {
    case HIPF_BORDER_CLAMP:
      if (k < 0) {
        add (sign * (uint32_t) k, 1);
      } else if (k > n) {
        add (sign, n);
        add (sign * (uint32_t) (k - n), n);
        add (0u - sign * (uint32_t) (k - n), n - 1);
      } else {
        add (sign, k);
      }
      break;
    case HIPF_BORDER_WRAP:{
      int q = floor_div (k, n);
      if (q)
        add (sign * (uint32_t) q, n);
      add (sign, k - q * n);
      break;
    }
    case HIPF_BORDER_MIRROR:{
      if (n == 1) {
        add (sign * (uint32_t) k, 1);
        break;
      }
      int period = 2 * n - 2;
      int q = floor_div (k, period);
      int r = k - q * period;
      if (q) {
        add (sign * (uint32_t) q, n);
        add (sign * (uint32_t) q, n - 1);
        add (0u - sign * (uint32_t) q, 1);
      }
      if (r <= n) {
        add (sign, r);
      } else {
        add (sign, n);
        add (sign, n - 1);
        add (0u - sign, period - r + 1);
      }
      break;
    }
    default:
      add (sign, clamp_index (k, n));
  }
}

/* Window sum of the row prefix where the window crosses an edge: rare, so
 * kept out of line to keep the unrolled sample loop small. */
__device__ __noinline__ uint32_t row_window_at_edge (const uint32_t * prefix,
    int xa, int xb, int width, int channels, int c, HipfBorderMode mode)
{
  uint32_t sum = 0;
  auto add = [&](uint32_t coef, int j) {
    sum += coef * prefix[skew (j * channels + c)];
  };
  expand_prefix (xb, width, mode, 1u, add);
  expand_prefix (xa, width, mode, 0u - 1u, add);
  return sum;
}

/* Mean of a window that crosses the left or right edge of the row. */
__device__ __noinline__ uint32_t edge_mean (const uint32_t * prefix, int x,
    int c, int channels, const BandParams & p, uint32_t count_y)
{
  const int xa = x - p.radius_x, xb = x + p.radius_x + 1;
  const uint32_t sum = row_window_at_edge (prefix, xa, xb, p.width, channels,
      c, p.mode);
  const uint32_t n = window_count (xa, xb, p.width, p.mode) * count_y;
  return (sum + n / 2) / n;
}

/* Exclusive scan of per-thread C-vectors over the block, in thread order;
 * @total receives the block's sum. */
template <int C>
__device__ inline void block_exclusive_scan (uint32_t (&v)[C],
    uint32_t (&total)[C], uint32_t (*warp_sums)[kScanWarps])
{
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int warps = blockDim.x / warpSize;
  uint32_t incl[C];

#pragma unroll
  for (int c = 0; c < C; ++c) {
    incl[c] = v[c];
    for (int off = 1; off < warpSize; off <<= 1) {
      uint32_t n = shfl_up (incl[c], off);
      if (lane >= off)
        incl[c] += n;
    }
    if (lane == warpSize - 1)
      warp_sums[c][warp] = incl[c];
  }
  __syncthreads ();
  if (warp == 0) {
#pragma unroll
    for (int c = 0; c < C; ++c) {
      uint32_t x = lane < warps ? warp_sums[c][lane] : 0;
      for (int off = 1; off < warpSize; off <<= 1) {
        uint32_t n = shfl_up (x, off);
        if (lane >= off)
          x += n;
      }
      if (lane < warps)
        warp_sums[c][lane] = x;
    }
  }
  __syncthreads ();
#pragma unroll
  for (int c = 0; c < C; ++c) {
    v[c] = (warp ? warp_sums[c][warp - 1] : 0) + incl[c] - v[c];
    total[c] = warp_sums[c][warps - 1];
  }
  __syncthreads ();
}

/* Column prefixes at band boundaries: prefix[b][i] is the sum of rows
 * [0, b * band_rows) of sample column i, b = 0 .. bands. */
__global__ void column_band_sums (const uint8_t * __restrict__ src,
    size_t pitch, int height, int band_rows, int chunks,
    uint32_t * __restrict__ prefix, size_t stride)
{
  const int chunk = blockIdx.x * blockDim.x + threadIdx.x;
  const int band = blockIdx.y;
  if (chunk >= chunks)
    return;
  uint32_t v[kChunk] = { };
  const int y1 = min (height, (band + 1) * band_rows);
  for (int y = band * band_rows; y < y1; ++y)
    add_row (v, src + (size_t) y * pitch + chunk * kChunk, 1);
  uint4 *out = reinterpret_cast<uint4 *>(prefix + (band + 1) * stride +
      chunk * kChunk);
#pragma unroll
  for (int k = 0; k < kChunk / 4; ++k)
    out[k] = make_uint4 (v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
}

__global__ void column_band_scan (int bands, int samples,
    uint32_t * __restrict__ prefix, size_t stride)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= samples)
    return;
  uint32_t acc = 0;
  prefix[i] = 0;
  for (int b = 1; b <= bands; ++b) {
    acc += prefix[b * stride + i];
    prefix[b * stride + i] = acc;
  }
}

/* V += coef * P(j) down the thread's chunk columns, P from the band
 * prefixes plus the rows of band j / band_rows above row j. */
__device__ inline void add_column_prefix (uint32_t (&v)[kChunk], uint32_t coef,
    int j, const BandParams & p, int chunk)
{
  if (j == 0 || coef == 0)
    return;
  const int band = j / p.band_rows;
  const uint4 *bp = reinterpret_cast<const uint4 *>(p.band_prefix +
      band * p.band_stride + chunk * kChunk);
  uint32_t sum[kChunk];
#pragma unroll
  for (int k = 0; k < kChunk / 4; ++k) {
    uint4 q = bp[k];
    sum[4 * k] = q.x;
    sum[4 * k + 1] = q.y;
    sum[4 * k + 2] = q.z;
    sum[4 * k + 3] = q.w;
  }
  for (int y = band * p.band_rows; y < j; ++y)
    add_row (sum, p.src + (size_t) y * p.src_pitch + chunk * kChunk, 1);
#pragma unroll
  for (int k = 0; k < kChunk; ++k)
    v[k] += coef * sum[k];
}

/* Vertical window sums of row y for the thread's chunk. Once per band, so
 * out of line; the sums come back through memory. */
__device__ __noinline__ void start_window (uint32_t * out,
    const BandParams & p, int chunk, int y)
{
  uint32_t v[kChunk] = { };
  if (!p.band_prefix) {
    for (int d = -p.radius_y; d <= p.radius_y; ++d) {
      int r = border_row (y + d, p.height, p.mode);
      if (r >= 0)
        add_row (v, p.src + (size_t) r * p.src_pitch + chunk * kChunk, 1);
    }
    for (int k = 0; k < kChunk; ++k)
      out[k] = v[k];
    return;
  }
  auto add = [&](uint32_t coef, int j) {
    add_column_prefix (v, coef, j, p, chunk);
  };
  expand_prefix (y + p.radius_y + 1, p.height, p.mode, 1u, add);
  expand_prefix (y - p.radius_y, p.height, p.mode, 0u - 1u, add);
  for (int k = 0; k < kChunk; ++k)
    out[k] = v[k];
}

template <int C>
__device__ inline int chunk_channel (int base, int k)
{
  return C == 3 ? (base + k) % 3 : k % C;
}

/* a[c] for a run-time c without dynamic register indexing. */
template <int C>
__device__ inline uint32_t pick (const uint32_t (&a)[C], int c)
{
  uint32_t r = a[0];
#pragma unroll
  for (int j = 1; j < C; ++j)
    r = c == j ? a[j] : r;
  return r;
}

template <int C>
__device__ inline void put (uint32_t (&a)[C], int c, uint32_t v)
{
#pragma unroll
  for (int j = 0; j < C; ++j)
    a[j] = c == j ? v : a[j];
}

template <int C, int CHUNKS>
__global__ void __launch_bounds__ (band_threads (CHUNKS), 1)
box_blur_bands (BandParams p)
{
  extern __shared__ uint32_t prefix[];          /* P_c(x) at skew(x * C + c) */
  __shared__ uint32_t warp_sums[kMaxChannels][kScanWarps];
  const int samples = p.width * C;
  const int y0 = blockIdx.x * p.band_rows;
  const int y1 = min (p.height, y0 + p.band_rows);
  uint32_t v[CHUNKS][kChunk];

#pragma unroll
  for (int s = 0; s < CHUNKS; ++s) {
    const int chunk = s * blockDim.x + threadIdx.x;
    uint32_t start[kChunk] = { };
    if (chunk < p.chunks)
      start_window (start, p, chunk, y0);
#pragma unroll
    for (int k = 0; k < kChunk; ++k)
      v[s][k] = start[k];
  }

  for (int y = y0; y < y1; ++y) {
    /* The rows entering and leaving the window for the next output row,
     * loaded now so their latency hides behind this row's work. */
    uint4 enter_q[CHUNKS], leave_q[CHUNKS];
    {
      const bool more = y + 1 < y1;
      const int enter = more ? border_row (y + p.radius_y + 1, p.height,
          p.mode) : -1;
      const int leave = more ? border_row (y - p.radius_y, p.height,
          p.mode) : -1;
#pragma unroll
      for (int s = 0; s < CHUNKS; ++s) {
        const int chunk = s * blockDim.x + threadIdx.x;
        const bool valid = chunk < p.chunks;
        enter_q[s] = valid && enter >= 0 ? *reinterpret_cast<const uint4 *>
            (p.src + (size_t) enter * p.src_pitch + chunk * kChunk) :
            make_uint4 (0, 0, 0, 0);
        leave_q[s] = valid && leave >= 0 ? *reinterpret_cast<const uint4 *>
            (p.src + (size_t) leave * p.src_pitch + chunk * kChunk) :
            make_uint4 (0, 0, 0, 0);
      }
    }

    /* Prefix of the vertical sums along the row, per channel. */
    uint32_t carry[C] = { };
#pragma unroll
    for (int s = 0; s < CHUNKS; ++s) {
      const int i0 = (s * blockDim.x + threadIdx.x) * kChunk;
      const int base = C == 3 ? i0 % 3 : 0;
      uint32_t local[kChunk], sums[C] = { }, total[C];
#pragma unroll
      for (int k = 0; k < kChunk; ++k) {
        const int c = chunk_channel<C> (base, k);
        local[k] = (i0 + k < samples ? v[s][k] : 0) + pick<C> (sums, c);
        put<C> (sums, c, local[k]);
      }
      /* sums: chunk totals in, the sum of all earlier chunks out. */
      block_exclusive_scan<C> (sums, total, warp_sums);
#pragma unroll
      for (int k = 0; k < kChunk; ++k) {
        const int c = chunk_channel<C> (base, k);
        if (i0 + k < samples)
          prefix[skew (i0 + k + C)] = pick<C> (carry, c) + pick<C> (sums, c) +
              local[k];
      }
#pragma unroll
      for (int c = 0; c < C; ++c)
        carry[c] += total[c];
    }
    if (threadIdx.x < C)
      prefix[skew (threadIdx.x)] = 0;
    __syncthreads ();

    /* Horizontal window sums off the prefix, and the rounded mean. Inside
     * the row the window is whole: n and its reciprocal hold for the row. */
    const int ya = y - p.radius_y, yb = y + p.radius_y + 1;
    const uint32_t count_y = window_count (ya, yb, p.height, p.mode);
    const uint32_t n_inner = (2 * p.radius_x + 1) * count_y;
    const uint32_t magic = 0xffffffffu / n_inner + 1;
    const int lead = (p.radius_x + 1) * C, lag = p.radius_x * C;
    const int inner_end = (p.width - p.radius_x) * C;
#pragma unroll
    for (int s = 0; s < CHUNKS; ++s) {
      const int chunk = s * blockDim.x + threadIdx.x;
      const int i0 = chunk * kChunk;
      if (chunk >= p.chunks)
        continue;
      uint32_t packed[kChunk / 4] = { };
      if (i0 >= lag && i0 + kChunk <= inner_end) {
#pragma unroll
        for (int k = 0; k < kChunk; ++k) {
          const int i = i0 + k;
          const uint32_t x = prefix[skew (i + lead)] - prefix[skew (i - lag)] +
              n_inner / 2;
          uint32_t q = __umulhi (x, magic);
          q -= q * n_inner > x;
          packed[k / 4] |= q << (8 * (k % 4));
        }
      } else {
        for (int k = 0; k < kChunk; ++k) {
          const int i = i0 + k;
          if (i < samples)
            packed[k / 4] |= edge_mean (prefix, i / C, i % C, C, p, count_y)
                << (8 * (k % 4));
        }
      }
      *reinterpret_cast<uint4 *>(p.dst + (size_t) y * p.dst_pitch + i0) =
          make_uint4 (packed[0], packed[1], packed[2], packed[3]);
    }

    /* Slide the window down one row, with the loads issued early. */
#pragma unroll
    for (int s = 0; s < CHUNKS; ++s) {
      add_bytes (v[s], enter_q[s], 1);
      add_bytes (v[s], leave_q[s], -1);
    }
    /* The next row rewrites the prefix. */
    __syncthreads ();
  }
}

/* How the fast path would run a plane, or why it cannot. */
struct BandPlan
{
  bool ok;
  int chunks_per_thread;
  int threads;
  int bands;
  int band_rows;
  size_t shared;
  bool band_prefix;
  size_t prefix_bytes;
  size_t prefix_stride;
};

template <int C, int CHUNKS>
void *band_kernel ()
{
  return reinterpret_cast<void *>(box_blur_bands<C, CHUNKS>);
}

template <int C>
void *band_kernel_chunks (int chunks_per_thread)
{
  switch (chunks_per_thread) {
    case 1: return band_kernel<C, 1> ();
    default: return band_kernel<C, 2> ();
  }
}

void *band_kernel_for (int channels, int chunks_per_thread)
{
  switch (channels) {
    case 1: return band_kernel_chunks<1> (chunks_per_thread);
    case 2: return band_kernel_chunks<2> (chunks_per_thread);
    case 3: return band_kernel_chunks<3> (chunks_per_thread);
    default: return band_kernel_chunks<4> (chunks_per_thread);
  }
}

BandPlan plan_bands (const HipfDeviceLimits * limits, const HipfBoxBlurPlane * p)
{
  BandPlan plan = { };
  const int samples = p->width * p->channels;
  const int chunks = ceil_div (samples, kChunk);
  const int max_threads = limits->max_threads_per_block < kMaxBandThreads ?
      limits->max_threads_per_block : kMaxBandThreads;

  plan.chunks_per_thread = chunks <= max_threads ? 1 : 2;
  if (ceil_div (chunks, plan.chunks_per_thread) >
      min (max_threads, band_threads (plan.chunks_per_thread)))
    return plan;
  plan.threads = ceil_div (ceil_div (chunks, plan.chunks_per_thread),
      limits->warp_size) * limits->warp_size;
  plan.shared = skewed_words ((p->width + 1) * p->channels) * sizeof (uint32_t);
  if (plan.shared + sizeof (uint32_t) * kMaxChannels * kScanWarps >
      limits->shared_mem_optin)
    return plan;
  /* One band per resident block: as many blocks as fill the device. */
  int per_mp = 0;
  void *kernel = band_kernel_for (p->channels, plan.chunks_per_thread);
  if (plan.shared > 48 * 1024)
    (void) hipFuncSetAttribute ((const void *) kernel,
        hipFuncAttributeMaxDynamicSharedMemorySize, (int) plan.shared);
  if (hipOccupancyMaxActiveBlocksPerMultiprocessor (&per_mp,
          (const void *) kernel, plan.threads, plan.shared) != hipSuccess
      || per_mp < 1)
    per_mp = 1;
  (void) hipGetLastError ();
  plan.band_rows = ceil_div (p->height, per_mp * limits->multiprocessors);
  plan.bands = ceil_div (p->height, plan.band_rows);
  /* Summing a tall window costs more than prefixes at band boundaries,
   * which cost a pass over the plane and up to two bands of rows. */
  plan.band_prefix = 2 * p->radius_y + 1 > 3 * plan.band_rows;
  plan.prefix_stride = (size_t) chunks * kChunk;
  plan.prefix_bytes = (size_t) (plan.bands + 1) * plan.prefix_stride *
      sizeof (uint32_t);
  plan.ok = true;
  return plan;
}

bool aligned (const void *ptr, size_t pitch)
{
  return ((uintptr_t) ptr % kChunk) == 0 && pitch % kChunk == 0;
}

}  // namespace
}  // namespace hipf

extern "C" size_t
hipf_box_blur_scratch_size (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane)
{
  using namespace hipf;
  HipfBoxBlurPlane tallest = *plane;
  tallest.radius_y = HIPF_BOX_BLUR_MAX_RADIUS;
  BandPlan plan = plan_bands (limits, &tallest);
  if (plan.ok)
    return plan.prefix_bytes;
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
  /* Clears an error an earlier call on this thread left behind, so that
   * the error returned is this launch's own. */
  (void) hipGetLastError ();
  if (p->width < 1 || p->height < 1 || p->channels < 1
      || p->channels > kMaxChannels || p->radius_x < 0 || p->radius_y < 0
      || p->radius_x > HIPF_BOX_BLUR_MAX_RADIUS
      || p->radius_y > HIPF_BOX_BLUR_MAX_RADIUS)
    return hipErrorInvalidValue;

  BandPlan plan = plan_bands (limits, p);
  if (plan.ok) {
    /* The scratch was sized for this path: misaligned rows cannot fall back. */
    if (!aligned (src, src_pitch) || !aligned (dst, dst_pitch)
        || src_pitch < plan.prefix_stride || dst_pitch < plan.prefix_stride)
      return hipErrorInvalidValue;
    BandParams bp = { src, src_pitch, dst, dst_pitch, p->width, p->height,
      p->radius_x, p->radius_y, p->border, plan.band_rows,
      (int) (plan.prefix_stride / kChunk), NULL, plan.prefix_stride };
    if (plan.band_prefix) {
      uint32_t *prefix = (uint32_t *) scratch;
      dim3 grid (ceil_div (bp.chunks, kColumnThreads), plan.bands);
      column_band_sums <<<grid, kColumnThreads, 0, stream>>> (src, src_pitch,
          p->height, plan.band_rows, bp.chunks, prefix, plan.prefix_stride);
      column_band_scan <<<ceil_div ((int) plan.prefix_stride, kColumnThreads),
          kColumnThreads, 0, stream>>> (plan.bands, (int) plan.prefix_stride,
          prefix, plan.prefix_stride);
      bp.band_prefix = prefix;
    }
    void *args[] = { &bp };
    return hipLaunchKernel (band_kernel_for (p->channels,
            plan.chunks_per_thread), dim3 (plan.bands), dim3 (plan.threads),
        args, plan.shared, stream);
  }

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
