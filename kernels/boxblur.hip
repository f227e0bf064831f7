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
 * 16-sample chunks in registers, sliding them along the band (add the row
 * entering the window, subtract the one leaving), down in even bands and
 * up in odd ones. Per output row it scans
 * the sums along the row into shared memory, with the border-extended
 * prefix beyond both ends, and reads every horizontal window sum off that
 * prefix as one difference. A band starts its window either by summing the
 * window's rows or, for tall windows, from column prefixes kept at band
 * boundaries (column_band_sums, column_band_scan; two sample columns a
 * word, in 16-bit lanes), so its cost stays flat in the radius. Where
 * every window sum of a channel fits 16 bits (windows of up to 255
 * samples), two channels of a pixel share a word in 16-bit
 * lanes (Lanes): the row's scan and prefix take half the work, and the
 * registers that frees let a block take two rows a step, which halves the
 * barriers a row and gives each warp two scans to interleave.
 * Neighbouring bands read the same rows at about the same time, so most
 * re-reads hit L2.
 *
 * Strip path (box_blur_strips), for pixels of two or four bytes, and of
 * one or three in rows a multiple of 16 pixels wide, whose horizontal
 * window reaches at most 8 pixels either side and holds at most 255
 * samples: the same sliding vertical sums in lanes, but a warp owns a
 * strip of the band and its lanes pass each other the sums a horizontal
 * window needs, so a row costs no scan and no barrier.
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
template <typename Prefix>
__device__ inline uint32_t extended_prefix (const Prefix & p, int n,
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
  /* The scan tile is static shared memory: the dynamic share left to ask
   * for is smaller by it. */
  return persistent_grid (limits, box_blur_rows<C>, kRowThreads, 0, height,
      sizeof (uint32_t) * kMaxChannels * kRowThreads);
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
/* Windows of at most this many samples sum in 16-bit lanes, and their
 * means divide by the lanes' 24-bit multiplier (store_means). */
constexpr int kMaxLaneWindow = 255;
/* Column sums of up to this many rows fit a 16-bit lane: the band
 * prefixes hold two columns a word, and tall windows are summed from them
 * in pieces of at most this many rows, each exact in its lanes. */
constexpr int kMaxLaneRows = 65535 / 255;
/* Band prefixes are kept every band, or every this many rows where bands
 * are taller (few multiprocessors, tall planes): a piece is then cut
 * where its ends read prefixes alone, and a prefix read that cannot be
 * has at most half this many rows to add. The spacing grows with the
 * bands, so the tallest window's plan, which has the most bands, sizes
 * the scratch for every radius. */
constexpr int kMaxPrefixRows = 128;
__host__ __device__ inline int prefix_rows_for (int band_rows)
{
  return band_rows < kMaxPrefixRows ? band_rows : kMaxPrefixRows;
}
/* Threads of a band block: up to 1024 for 16 words a thread (64 registers
 * a thread), 512 for 32 (128 registers). */
constexpr int kMaxBandThreads = 1024;
__host__ __device__ constexpr int band_threads (int words_per_thread)
{
  return words_per_thread <= kChunk ? kMaxBandThreads : kMaxBandThreads / 2;
}
constexpr int kScanWarps = 32;          /* slots for per-warp scan totals */
/* Rows loaded before any of them is added: enough loads in flight to hide
 * the memory latency of a column walk. */
constexpr int kRowBatch = 8;
/* Rows column_band_sums loads at once: a 4K plane's bands have 17 rows
 * and 1080p's 9, two batches and one. Sixteen at once took 1.5 to 1.9 us
 * longer at RGBA 4K radius 50 and 200: the kernel had 40 registers, too
 * few to keep sixteen 16-byte loads in flight, and the 17th row took a
 * round trip of its own. 4, 6 and 12 rows were slower than 9. */
constexpr int kSumBatch = 9;
/* Exact division by multiply-high: quotients are at most 255 and windows
 * hold at most 2^24 samples, so x < 2^8 * n. */
constexpr int kQuotientBits = 8;

/* Shared-memory word of prefix element w, for C words a pixel. A thread
 * owns 16 or 32 words in a row; padding spreads neighbouring threads over
 * the banks. Pixels of two and four words are read as one vector, so they
 * are padded by whole pixels. */
__host__ __device__ inline int padded_words (int C, int w)
{
  return w + (w >> 5) * ((C & (C - 1)) == 0 ? C : 1);
}

template <int C>
__host__ __device__ inline int padded (int w)
{
  return padded_words (C, w);
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
  /* floor (x / n) = umulhi (x, magic) >> shift for the whole window's n,
   * when exact, with shift a whole number of bytes where the multiplier
   * allows (the means then pick the byte out); otherwise the quotient is
   * corrected (divide_corrected). */
  uint32_t magic;
  int shift;
  int exact;
  /* The shared prefix holds the border-extended entries beyond the row. */
  int extended;
  /* Words of shared memory from one row's prefix to the next. */
  int row_words;
  /* Wrap and mirror: the samples whose windows reach past the row's left
   * end all lie in the first warp, those past its right end in the last,
   * and a warp writes its part of the extension a lane an entry. */
  int own_extension;
};

/* The words a 16-byte chunk of samples is summed in: a sample a word
 * (L = 1), or for pixels of C = 1 or 2 words, two channels a word in 16-bit
 * lanes (L = 2), channels c and c + C sharing word c of the pixel. Sums mod
 * 2^32 of such words are the lanes' sums side by side, exactly, wherever
 * each lane's sum lies in [0, 2^16): a lane's carries cancel in every
 * difference of prefixes that is a window sum. */
template <int C, int L>
struct Lanes
{
  static constexpr int kWords = kChunk / L;
  /* The chunk's byte in the low lane of word j, and of lane l. */
  __host__ __device__ static constexpr int byte_of (int j, int l = 0)
  {
    return L == 1 ? j : (j / C) * 2 * C + j % C + l * C;
  }
  /* Word j from 32-bit word byte_of (j) / 4 of the chunk, by __byte_perm. */
  __host__ __device__ static constexpr unsigned selector (int j)
  {
    return L == 1 ? 0x4440u | (j % 4) :
        0x4040u | (byte_of (j, 1) % 4) << 8 | (byte_of (j) % 4);
  }
  __device__ static inline uint32_t word (const uint32_t (&w)[4], int j)
  {
    return __byte_perm (w[byte_of (j) / 4], 0, selector (j));
  }
};

/* v[at ..] += the words of the 16 bytes of q. */
template <int C, int L, int N>
__device__ inline void add_bytes (uint32_t (&v)[N], const uint4 & q, int at = 0)
{
  const uint32_t w[4] = { q.x, q.y, q.z, q.w };
#pragma unroll
  for (int j = 0; j < Lanes<C, L>::kWords; ++j)
    v[at + j] += Lanes<C, L>::word (w, j);
}

/* v[at ..] += the words of enter - those of leave: the window slides down
 * a row. */
template <int C, int L, int N>
__device__ inline void slide (uint32_t (&v)[N], const uint4 & enter,
    const uint4 & leave, int at)
{
  const uint32_t e[4] = { enter.x, enter.y, enter.z, enter.w };
  const uint32_t l[4] = { leave.x, leave.y, leave.z, leave.w };
#pragma unroll
  for (int j = 0; j < Lanes<C, L>::kWords; ++j)
    v[at + j] += Lanes<C, L>::word (e, j) - Lanes<C, L>::word (l, j);
}

__device__ inline const uint4 & chunk_at (const uint8_t * src, size_t pitch,
    int row, int chunk)
{
  return *reinterpret_cast<const uint4 *>(src + (size_t) row * pitch +
      (size_t) chunk * kChunk);
}

/* v += the samples of rows row_of (0 .. count - 1) in N neighbouring chunk
 * columns from chunk on, those below chunks only; a negative row adds
 * nothing. Rows are loaded in batches, every chunk's at once. */
template <int C, int L, int N, int B = kRowBatch, int V, typename RowOf>
__device__ inline void add_rows (uint32_t (&v)[V], const uint8_t * src,
    size_t pitch, int chunk, int chunks, int count, RowOf row_of)
{
  static_assert (V == N * Lanes<C, L>::kWords, "one word a chunk's lane");
  for (int d = 0; d < count; d += B) {
    uint4 q[B][N];
#pragma unroll
    for (int b = 0; b < B; ++b) {
      const int r = d + b < count ? row_of (d + b) : -1;
#pragma unroll
      for (int s = 0; s < N; ++s)
        q[b][s] = r >= 0 && chunk + s < chunks ?
            chunk_at (src, pitch, r, chunk + s) : make_uint4 (0, 0, 0, 0);
    }
#pragma unroll
    for (int b = 0; b < B; ++b)
#pragma unroll
      for (int s = 0; s < N; ++s)
        add_bytes<C, L> (v, q[b][s], s * Lanes<C, L>::kWords);
  }
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

/* border_row for an index at most one reflection or one period outside
 * the plane, i in [-(n - 1), 2n - 2], with no division. */
__device__ inline int border_row_near (int i, int n, HipfBorderMode mode)
{
  if (i >= 0 && i < n)
    return i;
  switch (mode) {
    case HIPF_BORDER_CLAMP:
      return i < 0 ? 0 : n - 1;
    case HIPF_BORDER_WRAP:
      return i < 0 ? i + n : i - n;
    case HIPF_BORDER_MIRROR:
      return i < 0 ? -i : 2 * n - 2 - i;
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
      if (k < 0 && k > 1 - n) {
        /* Within the first reflection above the plane: rows 1 .. -k, two
         * terms where the periodic form takes six. */
        add (0u - sign, 1 - k);
        add (sign, 1);
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

/* Column sums of each band: row b + 1 of the prefix holds the sums of the
 * rows of band b, two sample columns a word in 16-bit lanes
 * (column_band_scan turns them into prefixes). */
__global__ void column_band_sums (const uint8_t * __restrict__ src,
    size_t pitch, int height, int band_rows, int chunks,
    uint32_t * __restrict__ prefix, size_t stride)
{
  constexpr int W = kChunk / 2;
  allow_dependent_grid ();
  wait_for_prior_grid ();
  const int chunk = blockIdx.x * blockDim.x + threadIdx.x;
  const int y0 = blockIdx.y * band_rows;
  if (chunk >= chunks)
    return;
  uint32_t v[W] = { };
  add_rows<1, 2, 1, kSumBatch> (v, src, pitch, chunk, chunks,
      min (height, y0 + band_rows) - y0, [=](int d) { return y0 + d; });
  uint4 *out = reinterpret_cast<uint4 *>(prefix + (blockIdx.y + 1) * stride +
      chunk * W);
#pragma unroll
  for (int k = 0; k < W / 4; ++k)
    out[k] = make_uint4 (v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
}

/* Band sums to prefixes over the bands, in place. A block takes a warp's
 * width of sample columns (blockDim.x), its warps (blockDim.y) a segment
 * of kScanBatch bands each: a lane walks its segment down one column with
 * every load in flight at once, and the segments' totals are then added
 * across the warps, so that a column waits on memory once per
 * kScanSegments segments rather than once per segment. */
constexpr int kScanBatch = 32;
constexpr int kScanSegments = 4;

__global__ void column_band_scan (int bands, int columns,
    uint32_t * __restrict__ prefix, size_t stride)
{
  __shared__ uint32_t totals[kScanSegments][kWarpSize];
  wait_for_prior_grid ();
  allow_dependent_grid ();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int segment = threadIdx.y;
  uint32_t *column = prefix + i;
  uint32_t carry = 0;
  if (i < columns && segment == 0)
    column[0] = 0;
  for (int b0 = 1; b0 <= bands; b0 += kScanBatch * kScanSegments) {
    const int first = b0 + segment * kScanBatch;
    uint32_t v[kScanBatch];
#pragma unroll
    for (int k = 0; k < kScanBatch; ++k)
      v[k] = i < columns && first + k <= bands ?
          column[(size_t) (first + k) * stride] : 0;
#pragma unroll
    for (int k = 1; k < kScanBatch; ++k)
      v[k] += v[k - 1];
    totals[segment][threadIdx.x] = v[kScanBatch - 1];
    __syncthreads ();
    uint32_t offset = carry;
#pragma unroll
    for (int t = 0; t < kScanSegments; ++t) {
      const uint32_t total = totals[t][threadIdx.x];
      offset += t < segment ? total : 0;
      carry += total;
    }
    /* The totals are rewritten next round only after every warp read. */
    __syncthreads ();
    if (i < columns) {
#pragma unroll
      for (int k = 0; k < kScanBatch; ++k)
        if (first + k <= bands)
          column[(size_t) (first + k) * stride] = v[k] + offset;
    }
  }
}

/* V += coef * P(j) down N chunk columns, two sample columns a word in
 * 16-bit lanes as in the prefix, P from the prefix at the nearer band
 * boundary and the rows between it and row j: at most half a band of
 * rows, all loaded at once with the prefix. */
template <int N>
__device__ inline void add_column_prefix (uint32_t (&v)[N * kChunk / 2],
    uint32_t coef, int j, const BandParams & p, int pr, int chunk)
{
  constexpr int W = N * kChunk / 2, kVectorsPerChunk = kChunk / 2 / 4;
  if (j == 0 || coef == 0)
    return;
  const int band = j / pr;
  const int y0 = band * pr;
  const int y_end = min (y0 + pr, p.height);
  const bool ahead = y_end - j < j - y0;
  const int from = ahead ? j : y0;
  const uint4 *bp = reinterpret_cast<const uint4 *>(p.band_prefix +
      (band + ahead) * p.band_stride + chunk * (kChunk / 2));
  uint32_t base[W], rows[W] = { };
#pragma unroll
  for (int k = 0; k < W / 4; ++k) {
    uint4 q = chunk + k / kVectorsPerChunk < p.chunks ? bp[k] :
        make_uint4 (0, 0, 0, 0);
    base[4 * k] = q.x;
    base[4 * k + 1] = q.y;
    base[4 * k + 2] = q.z;
    base[4 * k + 3] = q.w;
  }
  add_rows<1, 2, N> (rows, p.src, p.src_pitch, chunk, p.chunks,
      ahead ? y_end - j : j - y0, [=](int d) { return from + d; });
  const uint32_t row_coef = ahead ? 0u - coef : coef;
#pragma unroll
  for (int k = 0; k < W; ++k)
    v[k] += coef * base[k] + row_coef * rows[k];
}

/* A cut in (k - pr, k] where F(cut), in expand_prefix's
 * terms, reads band prefixes at multiples of pr, or P(n), and no rows but
 * for P(1) and P(n - 1), a row from P(0) and P(n), which clamp reads
 * outside the plane and mirror beyond its first reflection. */
__device__ inline int prefix_cut (int k, int n, HipfBorderMode mode, int pr)
{
  if (k >= 0 && k <= n)
    return k == n ? k : k - k % pr;
  switch (mode) {
    case HIPF_BORDER_WRAP:
      return k - (k - floor_div (k, n) * n) % pr;
    case HIPF_BORDER_MIRROR:{
      if (n == 1)
        return k;
      const int period = 2 * n - 2;
      const int r = k - floor_div (k, period) * period;
      if (r <= n)
        return k - r % pr;
      /* F(k) reads P(j), and P(j + d) d rows lower, until r - d = n. */
      const int j = period - r + 1;
      return k - min ((pr - j % pr) % pr, r - n);
    }
    default:
      return k;
  }
}

/* w = F(b) - F(a) down N chunk columns, from the band prefixes, in their
 * 16-bit lanes: exact for windows of up to kMaxLaneRows rows. Terms on
 * one P(j) are merged first, and every P(j) is then read from one place in
 * the code: each read is a round trip to memory, and the border expansions
 * have up to twelve terms. */
template <int N>
__device__ inline void piece_sums (uint32_t (&w)[N * kChunk / 2], int a,
    int b, const BandParams & p, int pr, int chunk)
{
  constexpr int kMaxTerms = 12;
  int js[kMaxTerms];
  uint32_t coefs[kMaxTerms];
  int terms = 0;
  auto add = [&](uint32_t coef, int j) {
    for (int t = 0; t < terms; ++t) {
      if (js[t] == j) {
        coefs[t] += coef;
        return;
      }
    }
    js[terms] = j;
    coefs[terms++] = coef;
  };
  expand_prefix (b, p.height, p.mode, 1u, add);
  expand_prefix (a, p.height, p.mode, 0u - 1u, add);
#pragma unroll
  for (int m = 0; m < N * kChunk / 2; ++m)
    w[m] = 0;
  for (int t = 0; t < terms; ++t)
    add_column_prefix<N> (w, coefs[t], js[t], p, pr, chunk);
}

/* Vertical window sums of row y for the N chunks from chunk on. Once per
 * band, so out of line; the sums come back through memory. */
template <int C, int L, int N>
__device__ __noinline__ void start_window (uint32_t * out,
    const BandParams & p, int chunk, int y)
{
  constexpr int S = N * Lanes<C, L>::kWords;
  uint32_t v[S] = { };
  if (!p.band_prefix) {
    const int first = y - p.radius_y, height = p.height;
    const HipfBorderMode mode = p.mode;
    add_rows<C, L, N> (v, p.src, p.src_pitch, chunk, p.chunks,
        2 * p.radius_y + 1,
        [=](int d) { return border_row (first + d, height, mode); });
  } else if constexpr (L == 1) {
    /* Lanes never take band prefixes: their windows are short. The band
     * prefixes hold two sample columns a word in 16-bit lanes, whose
     * carries cancel in any sum of terms that is the sum of a window of
     * at most kMaxLaneRows rows. Taller windows are cut into such pieces,
     * where F(k) reads prefixes with no rows to add (prefix_cut). The
     * pieces add up in out rather than in registers, which the next
     * piece's loads need (RGB spilled 1 KB more). */
    constexpr int W = N * kChunk / 2;
    const int b = y + p.radius_y + 1, pr = prefix_rows_for (p.band_rows);
    for (int k = y - p.radius_y, first = 1; k < b; first = 0) {
      const int next = k + kMaxLaneRows >= b ? b :
          prefix_cut (k + kMaxLaneRows, p.height, p.mode, pr);
      uint32_t w[W];
      piece_sums<N> (w, k, next, p, pr, chunk);
#pragma unroll
      for (int m = 0; m < W; ++m) {
        const uint32_t lo = w[m] & 0xffffu, hi = w[m] >> 16;
        out[2 * m] = first ? lo : out[2 * m] + lo;
        out[2 * m + 1] = first ? hi : out[2 * m + 1] + hi;
      }
      k = next;
    }
    return;
  }
  for (int k = 0; k < S; ++k)
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

/* floor (x / n) for a quotient below 2^8, from a float reciprocal of n:
 * off by at most one before the correction, and no integer division, which
 * would hold up the edge threads that every other thread waits for. */
__device__ inline uint32_t divide_by_reciprocal (uint32_t x, uint32_t n,
    float reciprocal)
{
  uint32_t q = __float2uint_rz (__uint2float_rz (x) * reciprocal);
  q -= q * n > x;
  q += (q + 1) * n <= x;
  return q;
}

/* The C words of the pixel at prefix word w, as one access where C is 2
 * or 4 (padded() keeps those pixels whole and aligned). */
template <int C>
__device__ inline void load_pixel (const uint32_t * prefix, int w,
    uint32_t (&a)[C])
{
  if constexpr (C == 4) {
    const uint4 q = *reinterpret_cast<const uint4 *>(prefix + padded<C> (w));
    a[0] = q.x;
    a[1] = q.y;
    a[2] = q.z;
    a[3] = q.w;
  } else if constexpr (C == 2) {
    const uint2 q = *reinterpret_cast<const uint2 *>(prefix + padded<C> (w));
    a[0] = q.x;
    a[1] = q.y;
  } else {
#pragma unroll
    for (int c = 0; c < C; ++c)
      a[c] = prefix[padded<C> (w + c)];
  }
}

template <int C>
__device__ inline void store_pixel (uint32_t * prefix, int w,
    const uint32_t (&a)[C])
{
  if constexpr (C == 4) {
    *reinterpret_cast<uint4 *>(prefix + padded<C> (w)) =
        make_uint4 (a[0], a[1], a[2], a[3]);
  } else if constexpr (C == 2) {
    *reinterpret_cast<uint2 *>(prefix + padded<C> (w)) = make_uint2 (a[0], a[1]);
  } else {
#pragma unroll
    for (int c = 0; c < C; ++c)
      prefix[padded<C> (w + c)] = a[c];
  }
}

/* Byte k of each of a, b, c and d, as the bytes of one word in that
 * order. */
__device__ inline uint32_t pick_bytes (uint32_t a, uint32_t b, uint32_t c,
    uint32_t d, uint32_t k = 0)
{
  const uint32_t pick = 0x40u + 0x11u * k;
  return __byte_perm (__byte_perm (a, b, pick), __byte_perm (c, d, pick),
      0x5410);
}

/* The top bytes of a, b, c and d, as the bytes of one word in that order. */
__device__ inline uint32_t top_bytes (uint32_t a, uint32_t b, uint32_t c,
    uint32_t d)
{
  return pick_bytes (a, b, c, d, 3);
}

/* P_c(j) of the row prefix in shared memory, for extended_prefix(). */
template <int C>
struct SharedPrefix
{
  const uint32_t *prefix;
  int origin;
  int c;
  __device__ uint32_t operator() (int j) const
  {
    return prefix[padded<C> (origin + j * C + c)];
  }
};

/* The 16 bytes of a chunk from the top bytes of its lanes' products. */
template <int C>
__device__ inline uint4 lane_quotients (const uint32_t (&t)[kChunk / 2][2])
{
  /* Byte k of the chunk is lane (k % 2C) / C of word (k / 2C) C + k % C. */
  auto at = [&](int k) {
    return t[k / (2 * C) * C + k % C][k % (2 * C) / C];
  };
  uint32_t packed[kChunk / 4];
#pragma unroll
  for (int w = 0; w < kChunk / 4; ++w)
    packed[w] = top_bytes (at (4 * w), at (4 * w + 1), at (4 * w + 2),
        at (4 * w + 3));
  return make_uint4 (packed[0], packed[1], packed[2], packed[3]);
}

template <int C>
__device__ inline void store_lane_quotients (const uint32_t (&t)[kChunk / 2][2],
    uint8_t * out)
{
  *reinterpret_cast<uint4 *>(out) = lane_quotients<C> (t);
}

/* Lane means of a chunk from the prefix words at lag and lag + lead. Lanes
 * divide by multiplying: with m = ceil (2^24 / n) for n < 2^8,
 * (x + n / 2) m has floor ((x + n / 2) / n) in its top byte for every lane
 * sum x <= 255 n, since the error x (m n - 2^24) / n stays below 2^24 / n;
 * the half comes in as bias = m (n / 2). multiplier (px, m, bias) gives
 * pixel px of the chunk its m and bias. */
template <int C, typename Multiplier>
__device__ inline void store_lane_means (const uint32_t * prefix, int lag,
    int lead, Multiplier multiplier, uint8_t * out)
{
  constexpr int W = Lanes<C, 2>::kWords;
  uint32_t t[W][2];
#pragma unroll
  for (int px = 0; px < W / C; ++px) {
    uint32_t m, bias, a[C], b[C];
    multiplier (px, m, bias);
    load_pixel<C> (prefix, lag + C * px, a);
    load_pixel<C> (prefix, lag + C * px + lead, b);
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const uint32_t d = b[c] - a[c];
      t[C * px + c][0] = (d & 0xffffu) * m + bias;
      t[C * px + c][1] = (d >> 16) * m + bias;
    }
  }
  store_lane_quotients<C> (t, out);
}

/* Rounded means of one chunk of the row, written as 16 bytes, from the
 * prefix words at lag (the window's start) and lag + lead. Samples past
 * the row land in its padding. */
enum class Division { kExactByte, kExactShifted, kCorrected, kLanes };

template <int C, int L, Division D>
__device__ inline void store_means (const uint32_t * prefix, int lag,
    int lead, uint32_t n, uint32_t magic, int shift, uint8_t * out)
{
  if constexpr (D == Division::kLanes && L == 2) {
    const uint32_t bias = (n / 2) * magic;
    store_lane_means<C> (prefix, lag, lead,
        [&](int, uint32_t & m, uint32_t & b) { m = magic; b = bias; }, out);
  } else {
    uint32_t packed[kChunk / 4];
    const uint32_t half = n / 2;
    /* kExactByte leaves the quotient in byte shift / 8 of the product's
     * high word, and the permutes that pack a word's bytes pick it out:
     * no shift a sample. The other divisions leave it in byte 0. */
    auto mean = [&](uint32_t sum) {
      const uint32_t x = sum + half;
      if (D == Division::kExactByte)
        return __umulhi (x, magic);
      if (D == Division::kExactShifted)
        return __umulhi (x, magic) >> shift;
      return divide_corrected (x, magic, n);
    };
    const uint32_t byte = D == Division::kExactByte ? shift / 8 : 0;
    auto pack = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
      return pick_bytes (a, b, c, d, byte);
    };
#pragma unroll
    for (int px = 0; px < kChunk / 4; ++px) {
      const int i = lag + 4 * px;
      if constexpr (C == 4) {
        uint32_t a[C], b[C];
        load_pixel<C> (prefix, i, a);
        load_pixel<C> (prefix, i + lead, b);
        packed[px] = pack (mean (b[0] - a[0]), mean (b[1] - a[1]),
            mean (b[2] - a[2]), mean (b[3] - a[3]));
      } else {
        uint32_t q[4];
#pragma unroll
        for (int k = 0; k < 4; ++k)
          q[k] = mean (prefix[padded<C> (i + k + lead)] -
              prefix[padded<C> (i + k)]);
        packed[px] = pack (q[0], q[1], q[2], q[3]);
      }
    }
    *reinterpret_cast<uint4 *>(out) =
        make_uint4 (packed[0], packed[1], packed[2], packed[3]);
  }
}

/* The valid mode's windows at a row's ends hold h columns of count_y
 * rows, n = h count_y, h from radius_x + 1 to 2 radius_x + 1. Their means
 * divide by divide_corrected, from a table in shared memory whose entry
 * h - radius_x - 1 holds {floor ((2^32 - 1) / n), n}; the block fills it
 * for each count_y its rows have, between a step's barriers. A float
 * reciprocal a pixel, out of line, made the warps at the ends the ones
 * every barrier waited for, and the bands near the top and bottom, where
 * count_y changes, the ones the launch waited for: 11 us of RGBA 4K radius
 * 50 and 200. Kernels of four-word pixels take it; those of one to three
 * words spread the chunks at the row's ends over the block (edge_means),
 * which was 2 to 9 us slower for four. */
__host__ __device__ constexpr bool takes_cut_table (int pixel_words, int lanes)
{
  return lanes == 1 && pixel_words == 4;
}

__device__ inline void fill_cut_table (uint2 * cut, uint32_t count_y, int rx)
{
  for (int j = threadIdx.x; j <= rx; j += blockDim.x) {
    const uint32_t n = (uint32_t) (rx + 1 + j) * count_y;
    cut[j] = make_uint2 (0xffffffffu / n, n);
  }
}

__device__ inline uint32_t cut_mean (uint32_t sum, uint2 entry)
{
  return divide_corrected (sum + entry.y / 2, entry.x, entry.y);
}

/* Means of a chunk whose windows cross the row's ends, where the prefix has
 * no extension to read (the closed forms stand in for it), or where the
 * valid mode gives each pixel its own count. */
template <int C, int L>
__device__ __noinline__ void store_edge_means (const uint32_t * prefix,
    int i0, const BandParams & p, int origin, bool extended,
    uint32_t count_y, uint8_t * out)
{
  const int samples = p.width * C;
  uint32_t packed[kChunk / 4] = { };
  if constexpr (C == 4) {
    if (extended) {
      /* A pixel at a time: one count, one reciprocal, two vector reads. */
#pragma unroll
      for (int px = 0; px < kChunk / 4; ++px) {
        const int x = min (i0 / 4 + px, p.width - 1);
        const int xa = x - p.radius_x, xb = x + p.radius_x + 1;
        uint32_t a[C], b[C];
        load_pixel<C> (prefix, origin + xa * C, a);
        load_pixel<C> (prefix, origin + xb * C, b);
        const uint32_t n = window_count (xa, xb, p.width, p.mode) * count_y;
        const float r = __frcp_rn ((float) n);
        const uint32_t half = n / 2;
#pragma unroll
        for (int c = 0; c < C; ++c)
          packed[px] |= divide_by_reciprocal (b[c] - a[c] + half, n, r) <<
              (8 * c);
      }
      *reinterpret_cast<uint4 *>(out) =
          make_uint4 (packed[0], packed[1], packed[2], packed[3]);
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < Lanes<C, L>::kWords; ++j) {
    const int i = min (i0 + j, samples - 1), x = i / C, c = i % C;
    const int xa = x - p.radius_x, xb = x + p.radius_x + 1;
    uint32_t sum;
    if (extended) {
      sum = prefix[padded<C> (origin + xb * C + c)] -
          prefix[padded<C> (origin + xa * C + c)];
    } else {
      const SharedPrefix<C> pc = { prefix, origin, c };
      sum = extended_prefix (pc, p.width, xb, p.mode) -
          extended_prefix (pc, p.width, xa, p.mode);
    }
    const uint32_t n = window_count (xa, xb, p.width, p.mode) * count_y;
    const float r = __frcp_rn ((float) n);
#pragma unroll
    for (int l = 0; l < L; ++l) {
      const uint32_t lane = L == 1 ? sum : l ? sum >> 16 : sum & 0xffffu;
      const int k = Lanes<C, L>::byte_of (j, l);
      packed[k / 4] |= divide_by_reciprocal (lane + n / 2, n, r) <<
          (8 * (k % 4));
    }
  }
  *reinterpret_cast<uint4 *>(out) =
      make_uint4 (packed[0], packed[1], packed[2], packed[3]);
}

/* Means of a chunk of the valid mode's warps at the row's ends, for
 * four-word pixels: a pixel at a time, two vector reads, one entry of the
 * cut table. */
__device__ inline void store_cut_pixels (const uint32_t * prefix, int lag,
    int lead, int x0, const BandParams & p, const uint2 * cut, uint8_t * out)
{
  constexpr int C = 4;
  uint32_t packed[kChunk / 4];
#pragma unroll
  for (int px = 0; px < kChunk / 4; ++px) {
    const int x = min (x0 + px, p.width - 1);
    const int h = window_count (x - p.radius_x, x + p.radius_x + 1, p.width,
        p.mode);
    const uint2 entry = cut[h - p.radius_x - 1];
    uint32_t a[C], b[C], q[C];
    load_pixel<C> (prefix, lag + C * px, a);
    load_pixel<C> (prefix, lag + C * px + lead, b);
#pragma unroll
    for (int c = 0; c < C; ++c)
      q[c] = cut_mean (b[c] - a[c], entry);
    packed[px] = pick_bytes (q[0], q[1], q[2], q[3]);
  }
  *reinterpret_cast<uint4 *>(out) =
      make_uint4 (packed[0], packed[1], packed[2], packed[3]);
}

/* The border-extended prefix beyond both ends of a row, for wrap and
 * mirror, once the row's own prefix F(0 .. width) is in shared memory:
 * each entry is F(j) of one pixel j inside the row, shifted by the row's
 * total T or reflected about the first or last pixel's sum. A thread per
 * entry: the block waits for one load and one store, not for the threads
 * that own the row's ends to walk their pixels. */
template <int C>
__device__ inline void extend_periodic (uint32_t * prefix, int origin,
    int width, int rx, bool mirror, const uint32_t (&total)[C],
    const uint32_t (&first)[C], const uint32_t (&last)[C], int begin,
    int end, int thread, int threads)
{
  for (int m = begin + thread; m < end; m += threads) {
    const bool left = m < rx;
    /* Entry k in [-rx, -1] or [width + 1, width + rx], from F(j). */
    const int k = left ? m - rx : width + 1 + m - rx;
    const int j = mirror ? (left ? 1 - k : 2 * width - 1 - k) :
        (left ? k + width : k - width);
    uint32_t f[C], e[C];
    load_pixel<C> (prefix, origin + j * C, f);
#pragma unroll
    for (int c = 0; c < C; ++c)
      e[c] = mirror ? (left ? first[c] - f[c] : 2 * total[c] - last[c] - f[c])
          : (left ? f[c] - total[c] : total[c] + f[c]);
    store_pixel<C> (prefix, origin + k * C, e);
  }
}

/* exact_divider() for one row's n, on the device: m = ceil (2^(32+s) / n)
 * from a double quotient, which is within one of it, and corrected. */
__device__ inline bool row_divider (uint32_t n, uint32_t & magic, int & shift)
{
  if (n < 2)
    return false;
  const uint64_t bound = ((uint64_t) n * (n - 1)) << kQuotientBits;
  const int s = max (0, 32 - __clzll ((long long) bound));
  const uint64_t power = (uint64_t) 1 << (32 + s);
  uint64_t m = (uint64_t) ((double) power / (double) n);
  m += m * n < power;
  if (m > 0xffffffffu)
    return false;
  magic = (uint32_t) m;
  shift = s;
  return true;
}

/* The valid mode's means of the chunks at a row's ends, [0, left) and
 * [right, chunks), a sample a thread of the block in turn: each pixel
 * there has its own count of columns, and its own divisor. Spread over
 * the block, they cost each thread a sample or a few; in the warps that
 * own those chunks, they cost those warps 16 to 48 samples a row, and
 * every other warp waited for them at the next barrier (RGB 4K radius 50
 * 125 us against 98, GRAY8 57 against 42, H100). */
template <int C>
__device__ inline void edge_means (const uint32_t * prefix,
    const BandParams & p, int origin, int left, int right, uint32_t count_y,
    uint8_t * out)
{
  const int samples = p.width * C;
  const int left_samples = min (left * kChunk, samples);
  const int edge = left_samples + max (samples - right * kChunk, 0);
  for (int e = threadIdx.x; e < edge; e += blockDim.x) {
    const int i = e < left_samples ? e : right * kChunk + e - left_samples;
    const int x = i / C, c = i % C;
    const int xa = x - p.radius_x, xb = x + p.radius_x + 1;
    const uint32_t sum = prefix[padded<C> (origin + xb * C + c)] -
        prefix[padded<C> (origin + xa * C + c)];
    const uint32_t n = window_count (xa, xb, p.width, p.mode) * count_y;
    out[i] = (uint8_t) divide_by_reciprocal (sum + n / 2, n,
        __frcp_rn ((float) n));
  }
}

/* The rows entering and leaving the window as it moves to the band's
 * output row @step, first + dir * step, from the one before, in the
 * thread's chunks; nothing past the band's @rows rows. */
template <int CH>
struct Transition
{
  uint4 enter[CH], leave[CH];
};

/* With NEAR, rows outside the plane are found without a division wherever
 * the vertical radius keeps them within one reflection or period of it:
 * the bands at the plane's top and bottom, which the launch waits for
 * last, took two divisions a row. */
template <int CH, bool NEAR>
__device__ inline Transition<CH> load_transition (const BandParams & p,
    int step, int rows, int first, int dir)
{
  Transition<CH> q;
  const bool more = step < rows;
  const int t = first + dir * step;
  auto row = [&](int i) {
    return NEAR && p.radius_y <= p.height - 2 ?
        border_row_near (i, p.height, p.mode) : border_row (i, p.height,
        p.mode);
  };
  const int enter = more ? row (t + dir * p.radius_y) : -1;
  const int leave = more ? row (t - dir * (p.radius_y + 1)) : -1;
#pragma unroll
  for (int s = 0; s < CH; ++s) {
    const int chunk = threadIdx.x * CH + s;
    const bool valid = chunk < p.chunks;
    q.enter[s] = valid && enter >= 0 ? chunk_at (p.src, p.src_pitch, enter,
        chunk) : make_uint4 (0, 0, 0, 0);
    q.leave[s] = valid && leave >= 0 ? chunk_at (p.src, p.src_pitch, leave,
        chunk) : make_uint4 (0, 0, 0, 0);
  }
  return q;
}

template <int C, int L, int CH, int N>
__device__ inline void apply (uint32_t (&v)[N], const Transition<CH> & q)
{
#pragma unroll
  for (int s = 0; s < CH; ++s)
    slide<C, L> (v, q.enter[s], q.leave[s], s * Lanes<C, L>::kWords);
}

/* Each block owns a band of whole rows and takes R output rows a step.
 * Per row: the vertical window sums (held in registers) are scanned along
 * the row in two steps, within each warp and then across the warps'
 * totals, which every warp scans for itself rather than waiting on one;
 * the prefix goes to shared memory with the border-extended prefix around
 * it, and every mean is then a difference of two prefix entries. Two
 * barriers a step: the warp totals are complete, the prefixes are complete
 * (wrap and mirror take a third, for the entries beyond the row's ends that
 * follow from them, unless the warps that read those entries write them).
 * Nothing needs more, because each shared array is
 * rewritten only after a barrier its readers have passed. Two rows a step
 * halve the barriers a row and give each warp two independent scans to
 * interleave, where registers allow. VALID compiles in the valid mode's
 * own means for one to three words a pixel: the chunks at the row's ends
 * spread over the block, and rows with fewer window rows divided exactly
 * (row_divider). Four-word pixels have the cut table instead, and the
 * lanes kernels their own multipliers. */
template <int C, int CH, int L, int R, bool VALID>
__global__ void __launch_bounds__ (band_threads (R * CH * Lanes<C, L>::kWords), 1)
box_blur_bands (BandParams p)
{
  /* Row r's F_c(k) at prefix[r * row_words + padded (origin + k * C + c)]:
   * the prefix of the row, for k in [0, width], and when extended that of
   * the border-extended row, for k in [-radius_x, width + radius_x]. */
  extern __shared__ uint32_t prefix[];
  __shared__ uint4 warp_sums[R][kScanWarps];    /* per channel */
  __shared__ uint32_t edge_sums[R][2][kMaxChannels];  /* first, last pixel */
  /* The valid mode's lane multipliers for the windows cut short at the
   * row's ends, by their width. */
  __shared__ uint32_t cut_magic[R][L == 2 ? kMaxLaneWindow / 2 + 1 : 1];
  constexpr int W = Lanes<C, L>::kWords;
  constexpr int S = CH * W;             /* words a thread owns */
  /* Rows by border_row_near where the radius allows: three- and four-byte
   * pixels only, since the one- and two-byte kernels ran slower with it. */
  constexpr bool NEAR_ROWS = C >= 3;
  const int samples = p.width * C, rx = p.radius_x, width = p.width;
  const bool extended = p.extended;
  const int origin = extended ? rx * C : 0;
  const int i0 = threadIdx.x * S;
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  const int warps = blockDim.x / kWarpSize;
  const int y0 = blockIdx.x * p.band_rows;
  const int y1 = min (p.height, y0 + p.band_rows);
  /* Sample i's own prefix entry is F(x + 1); its window is F(x + rx + 1)
   * - F(x - rx). */
  const int own = origin + C, lead = C * (2 * rx + 1), lag = origin - rx * C;
  const bool periodic = extended && (p.mode == HIPF_BORDER_WRAP
      || p.mode == HIPF_BORDER_MIRROR);
  const bool counted = L == 2 && extended && p.mode == HIPF_BORDER_VALID;
  /* The valid mode's cut table, past the rows' prefixes, and the count_y
   * it was filled for. */
  const bool cut = takes_cut_table (C, L) && extended
      && p.mode == HIPF_BORDER_VALID;
  uint2 *const cut_table = reinterpret_cast<uint2 *>(prefix + R * p.row_words);
  uint32_t cut_count_y = 0;
  /* Warps with a pixel whose window crosses the row's ends, where that
   * has no simple mean, take the slower means for all their chunks, so
   * that the out-of-line call is never divergent: with CUDA 13's nvcc, a
   * call made by some lanes only corrupted the other lanes' means. */
  bool at_edge = false;
  /* One to three words a pixel, the valid mode's chunks at the row's
   * ends, [0, left_chunks) and [right_chunk, chunks), are instead the
   * whole block's, a sample a thread (edge_means), where the rows have the
   * extension. */
  static_assert (!VALID || L == 1, "a sample a word");
  const bool spread_edges = VALID && !takes_cut_table (C, L) && extended
      && p.mode == HIPF_BORDER_VALID;
  const int left_chunks = spread_edges ? min (p.chunks,
      ceil_div (rx * C, kChunk)) : 0;
  const int right_chunk = spread_edges ? max (left_chunks,
      (width - rx) * C / kChunk) : p.chunks;
  if (!spread_edges && (!extended || p.mode == HIPF_BORDER_VALID)) {
    const int first = warp * kWarpSize * S;
    const int last = min ((warp + 1) * kWarpSize * S, samples) - 1;
    at_edge = first / C < rx || last / C >= width - rx;
  }
  /* Even bands walk down, odd ones up: neighbouring bands start at their
   * common boundary and end at the next, so the rows of the windows they
   * start with, and those they read last, come from DRAM once for both. */
  const int rows = y1 - y0, dir = blockIdx.x % 2 ? -1 : 1;
  const int first = dir > 0 ? y0 : y1 - 1;
  /* v[0]: the window sums of the step's first row, carried; pending: the
   * transitions to its other rows, loaded a step ahead. */
  uint32_t v[R][S];
  Transition<CH> pending[R];

  /* Launched as a dependent of the kernel before it (the band prefixes'
   * scan, where there is one): no memory is touched before this. */
  wait_for_prior_grid ();
  {
    uint32_t start[S] = { };
    if (threadIdx.x * CH < p.chunks)
      start_window<C, L, CH> (start, p, threadIdx.x * CH, first);
#pragma unroll
    for (int k = 0; k < S; ++k)
      v[0][k] = start[k];
#pragma unroll
    for (int r = 1; r < R; ++r)
      pending[r] = load_transition<CH, NEAR_ROWS> (p, r, rows, first, dir);
  }

  for (int step = 0; step < rows; step += R) {
#pragma unroll
    for (int r = 1; r < R; ++r) {
#pragma unroll
      for (int k = 0; k < S; ++k)
        v[r][k] = v[r - 1][k];
      apply<C, L> (v[r], pending[r]);
    }
    /* The transitions of the next step, loaded now so that their latency
     * hides behind this step's work. */
    const Transition<CH> next = load_transition<CH, NEAR_ROWS> (p, step + R,
        rows, first, dir);
#pragma unroll
    for (int r = 1; r < R; ++r)
      pending[r] = load_transition<CH, NEAR_ROWS> (p, step + R + r, rows,
          first, dir);

    /* The thread's totals, scanned within the warp. The thread's own
     * prefix is formed again after the barrier rather than held across
     * it, which would cost a register per sample. */
    const int base = C == 3 && S % 3 ? i0 % 3 : 0;
    uint32_t total[R][C], incl[R][C];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      /* Samples past the row (in its padding) must not count. */
      if (i0 + S > samples) {
#pragma unroll
        for (int k = 0; k < S; ++k)
          v[r][k] = i0 + k < samples ? v[r][k] : 0;
      }
#pragma unroll
      for (int c = 0; c < C; ++c)
        total[r][c] = 0;
#pragma unroll
      for (int k = 0; k < S; ++k) {
        const int c = chunk_channel<C> (base, k);
        put<C> (total[r], c, pick<C> (total[r], c) + v[r][k]);
      }
#pragma unroll
      for (int c = 0; c < C; ++c)
        incl[r][c] = total[r][c];
    }
#pragma unroll
    for (int off = 1; off < kWarpSize; off <<= 1) {
#pragma unroll
      for (int r = 0; r < R; ++r) {
#pragma unroll
        for (int c = 0; c < C; ++c) {
          const uint32_t n = shfl_up (incl[r][c], off);
          if (lane >= off)
            incl[r][c] += n;
        }
      }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const uint32_t (&in)[C] = incl[r];
      if (lane == kWarpSize - 1)
        warp_sums[r][warp] = make_uint4 (in[0], C > 1 ? in[C > 1 ? 1 : 0] : 0,
            C > 2 ? in[C > 2 ? 2 : 0] : 0, C > 3 ? in[C > 3 ? 3 : 0] : 0);
      /* The edge pixels' sums, which the clamp and mirror extensions use. */
      if (i0 < C) {
#pragma unroll
        for (int k = 0; k < C; ++k)
          if (i0 + k < C)
            edge_sums[r][0][i0 + k] = v[r][k];
      }
      if (i0 + S > samples - C && i0 < samples) {
#pragma unroll
        for (int k = 0; k < S; ++k)
          if (i0 + k >= samples - C && i0 + k < samples)
            edge_sums[r][1][(i0 + k) % C] = v[r][k];
      }
    }
    __syncthreads ();

    uint32_t row_total[R][C], s0[R][C], s_last[R][C];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      uint32_t *const row = prefix + r * p.row_words;
      /* Across the warps: every warp sums the totals of the warps before
       * its own, and of all of them, by reductions rather than a scan. */
      uint32_t run[C];
      const uint4 sums = lane < warps ? warp_sums[r][lane] :
          make_uint4 (0, 0, 0, 0);
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const uint32_t x = c == 0 ? sums.x : c == 1 ? sums.y : c == 2 ?
            sums.z : sums.w;
        run[c] = warp_sum (lane < warp ? x : 0) + incl[r][c] - total[r][c];
        row_total[r][c] = warp_sum (x);
        s0[r][c] = edge_sums[r][0][c];
        s_last[r][c] = edge_sums[r][1][c];
      }

      /* The thread's own prefix entries. A thread whose samples all lie in
       * the row stores them without a test each, which the compiler turned
       * into a branch a store. */
      auto store_run = [&](bool guarded) {
        if constexpr (C == 4 || C == 2) {
#pragma unroll
          for (int px = 0; px < S / C; ++px) {
#pragma unroll
            for (int c = 0; c < C; ++c)
              run[c] += v[r][C * px + c];
            if (!guarded || i0 + C * px < samples)
              store_pixel<C> (row, i0 + C * px + own, run);
          }
        } else {
#pragma unroll
          for (int k = 0; k < S; ++k) {
            const int c = chunk_channel<C> (base, k);
            put<C> (run, c, pick<C> (run, c) + v[r][k]);
            if (!guarded || i0 + k < samples)
              row[padded<C> (i0 + k + own)] = pick<C> (run, c);
          }
        }
      };
      if (i0 + S <= samples)
        store_run (false);
      else
        store_run (true);

      auto extend = [&](int k, int c, uint32_t value) {
        row[padded<C> (origin + k * C + c)] = value;
      };
      if (threadIdx.x == 0) {
#pragma unroll
        for (int c = 0; c < C; ++c)
          extend (0, c, 0);
      }
      /* Wrap and mirror entries come from the row's own prefix, so every
       * thread fills some of them once the prefix is complete (below);
       * zero, valid and clamp have closed forms in the row's ends. */
      if (extended && !periodic) {
        const bool clamp = p.mode == HIPF_BORDER_CLAMP;
        for (int m = threadIdx.x; m < 2 * rx; m += blockDim.x) {
          const bool left = m < rx;
          const int k = left ? m - rx : width + 1 + m - rx;
#pragma unroll
          for (int c = 0; c < C; ++c)
            extend (k, c, left ? (clamp ? (uint32_t) k * s0[r][c] : 0u) :
                row_total[r][c] + (clamp ? (uint32_t) (k - width) *
                    s_last[r][c] : 0u));
        }
      }
    }
    if (cut) {
      static_assert (!takes_cut_table (C, L) || R == 1, "a table a step");
      const int y = first + dir * step;
      const uint32_t count_y = window_count (y - p.radius_y,
          y + p.radius_y + 1, p.height, p.mode);
      if (count_y != cut_count_y)
        fill_cut_table (cut_table, count_y, rx);
      cut_count_y = count_y;
    }
    if (counted) {
#pragma unroll
      for (int r = 0; r < R; ++r) {
        /* A row past the band has no means, and may count no rows. */
        if (R > 1 && step + r >= rows)
          break;
        const int y = first + dir * (step + r);
        const uint32_t count_y = window_count (y - p.radius_y,
            y + p.radius_y + 1, p.height, p.mode);
        for (int k = threadIdx.x; k <= rx; k += blockDim.x) {
          const uint32_t n = (uint32_t) (rx + 1 + k) * count_y;
          cut_magic[r][k] = ((1u << 24) + n - 1) / n;
        }
      }
    }
    /* Slide the window on to the next step, with the loads issued early:
     * done here, the loaded rows need no registers while the means are
     * formed. */
    if constexpr (R > 1) {
#pragma unroll
      for (int k = 0; k < S; ++k)
        v[0][k] = v[R - 1][k];
    }
    apply<C, L> (v[0], next);
    __syncthreads ();
    if (periodic) {
      /* Where p.own_extension allows, the first and last warps write the
       * entries they read themselves, and the block needs no third
       * barrier. Entries [0, rx) extend the row to the left, [rx, 2 rx)
       * to the right. The lanes kernels keep the barrier: with CUDA 13's
       * nvcc, this code made them slower in every border mode. */
      const int last_warp = (samples - 1) / (kWarpSize * S);
      const bool own = L == 1 && p.own_extension;
      const int begin = own && warp > 0 ? rx : 0;
      const int end = !own || warp == last_warp ? 2 * rx : warp == 0 ? rx : 0;
#pragma unroll
      for (int r = 0; r < R; ++r)
        extend_periodic<C> (prefix + r * p.row_words, origin, width, rx,
            p.mode == HIPF_BORDER_MIRROR, row_total[r], s0[r], s_last[r],
            begin, end, own ? lane : threadIdx.x, own ? kWarpSize : blockDim.x);
      if (own)
        warp_sync ();
      else
        __syncthreads ();
    }

#pragma unroll
    for (int r = 0; r < R; ++r) {
      if (R > 1 && step + r >= rows)
        break;
      const uint32_t *const row = prefix + r * p.row_words;
      /* Means off the prefix. Inside the valid mode's top and bottom rows
       * the window holds fewer rows, and n changes with the row. */
      const int y = first + dir * (step + r);
      const int ya = y - p.radius_y, yb = y + p.radius_y + 1;
      const uint32_t count_y = window_count (ya, yb, p.height, p.mode);
      const uint32_t n = (uint32_t) (2 * rx + 1) * count_y;
      const bool exact = p.exact && count_y == (uint32_t) (2 * p.radius_y + 1);
      uint8_t *row_out = p.dst + (size_t) y * p.dst_pitch;
      uint32_t lane_magic = p.magic;
      if (L == 2 && !exact)
        lane_magic = ((1u << 24) + n - 1) / n;
      /* The valid mode's rows whose windows hold fewer rows divide exactly
       * too, by a multiplier of their own: a division a chunk and a
       * corrected quotient a sample took 1 to 2.4 us more at radius 50 and
       * 200 (GRAY8 and RGB 4K), in the bands the launch waits for. */
      uint32_t row_magic = 0;
      int row_shift = 0;
      const bool row_exact = VALID && !exact
          && row_divider (n, row_magic, row_shift);
      if (spread_edges)
        edge_means<C> (row, p, origin, left_chunks, right_chunk, count_y,
            row_out);
      /* Chunks of this thread's that edge_means does not write. */
      auto inner = [&](int chunk) {
        if constexpr (VALID)
          return chunk >= left_chunks && chunk < right_chunk;
        return chunk < p.chunks;
      };
      /* The common case, chosen once a row rather than once a chunk, where
       * that did not make the kernel spill (three-byte pixels and the
       * lanes kernels), and the valid mode's warps at the row's ends. */
      if constexpr (L == 1 && C != 3) {
        if (!at_edge && exact && p.shift % 8 == 0) {
#pragma unroll
          for (int s = 0; s < CH; ++s) {
            const int chunk = threadIdx.x * CH + s;
            if (inner (chunk))
              store_means<C, L, Division::kExactByte> (row, chunk * W + lag,
                  lead, n, p.magic, p.shift, row_out + (size_t) chunk *
                  kChunk);
          }
          continue;
        }
        if (C == 4 && cut && at_edge) {
#pragma unroll
          for (int s = 0; s < CH; ++s) {
            const int chunk = threadIdx.x * CH + s;
            if (chunk < p.chunks)
              store_cut_pixels (row, chunk * W + lag, lead, chunk * W / C, p,
                  cut_table, row_out + (size_t) chunk * kChunk);
          }
          continue;
        }
      }
      for (int s = 0; s < CH; ++s) {
        const int chunk = threadIdx.x * CH + s, ic = chunk * W;
        uint8_t *out = row_out + (size_t) chunk * kChunk;
        if (VALID ? !inner (chunk) : chunk >= p.chunks)
          continue;
        if (at_edge && counted) {
          /* Pixels within rx of the row's ends count fewer columns, h, and
           * take cut_magic[h - rx - 1]. */
          const int x0 = ic / C;
          const uint32_t *magic = cut_magic[r];
          store_lane_means<C> (row, ic + lag, lead,
              [&](int px, uint32_t & m, uint32_t & bias) {
                const int x = x0 + px;
                const int h = min (x + rx, width - 1) - max (x - rx, 0) + 1;
                m = magic[max (h - rx - 1, 0)];
                bias = ((uint32_t) h * count_y / 2) * m;
              }, out);
        }
        else if (at_edge)
          store_edge_means<C, L> (row, ic, p, origin, extended, count_y, out);
        else if (L == 2)
          store_means<C, L, Division::kLanes> (row, ic + lag, lead, n,
              lane_magic, 0, out);
        else if (exact && p.shift % 8 == 0)
          store_means<C, L, Division::kExactByte> (row, ic + lag, lead, n,
              p.magic, p.shift, out);
        else if (exact)
          store_means<C, L, Division::kExactShifted> (row, ic + lag, lead, n,
              p.magic, p.shift, out);
        else if (row_exact)
          store_means<C, L, Division::kExactShifted> (row, ic + lag, lead, n,
              row_magic, row_shift, out);
        else
          store_means<C, L, Division::kCorrected> (row, ic + lag, lead, n,
              0xffffffffu / n, 0, out);
      }
    }
  }
}

/* ---- strip path ------------------------------------------------------- */

/* Pixels whose horizontal window reaches at most 8 pixels either side:
 * each warp owns a strip of a band's rows, each lane 8 pixels of it (32
 * bytes of one- and three-byte pixels), and slides the vertical window
 * sums of its pixels down the band in 16-bit lanes, as box_blur_bands
 * does. The lanes beside
 * lend their sums by shuffles, so a row needs no scan, no prefix, no
 * shared memory and no barrier. A warp's first and last lanes only lend:
 * neighbouring strips overlap by a lane each side, and past its band's
 * start every warp runs on its own. Lanes whose pixels cross the row's
 * ends read each pixel from the column the border mode takes it from, so
 * that the lanes beside see the border-extended row. */
constexpr int kLanePixels = 8;
constexpr int kMaxStripRadius = kLanePixels;
/* Warps a block: eight at 128 registers fill a multiprocessor in two
 * blocks. Where bands share their starts (shares_band_starts), a block
 * holds the same strips of two neighbouring bands, which walk away from
 * their common boundary and share the rows their first windows have in
 * common. */
constexpr int kStripWarps = 8;
constexpr int kStripThreads = kStripWarps * kWarpSize;

/* A lane's pixels, chunks and words. Pixels of two and four bytes, and
 * widened ones of three: eight pixels a lane, WP words a pixel, channels
 * c and c + WP sharing word c (Lanes<WP, 2>); their columns across the
 * row's ends fit the registers (sixteen spilled). Lanes of bytes, for
 * pixels of one and three bytes: 32 bytes a lane, what four-byte lanes
 * move; word i holds byte i in its low lane and byte i + 16 in its high
 * lane, so that each lane of the words is a run of 16 neighbouring bytes
 * for the window to slide along, a byte at a time or, for three-byte
 * pixels, three. WIDE: three-byte pixels widened (widens_pixels). */
template <int CH, bool WIDE = false>
struct StripLayout
{
  static_assert (!WIDE || CH == 3, "only three-byte pixels widen");
  static constexpr bool kBytes = CH % 2 == 1 && !WIDE;
  static constexpr bool kWidened = WIDE;
  /* Bytes a pixel takes in the lane's words. */
  static constexpr int kLaneBytes = kWidened ? 4 : CH;
  static constexpr int kStride = kBytes ? CH : 1;     /* bytes a pixel */
  static constexpr int kPixels = kBytes ? 4 * kLanePixels : kLanePixels;
  static constexpr int kChunks = kPixels * (kBytes ? 1 : kLaneBytes) / kChunk;
  static constexpr int kPixelWords = kBytes ? 1 : kLaneBytes / 2;
  static constexpr int kWords = kChunks * kChunk / 2;
  static constexpr int kRun = kWords / kPixelWords;    /* pixels a lane's run */
};

struct StripParams
{
  const uint8_t *src;
  size_t src_pitch;
  uint8_t *dst;
  size_t dst_pitch;
  int width, height, radius_y;
  HipfBorderMode mode;
  int strips;
  int band_rows;
  uint32_t magic;               /* the lanes' multiplier for a whole window */
  int after_plane;              /* HipfBoxBlurPlane's */
};

/* The lane's pixels of row y (none where y < 0) as its chunks. A lane
 * with every pixel in the row reads its chunks as they lie; one across the
 * row's ends reads pixel k from column col[k] (none where negative).
 * Three-byte pixels arrive as they lie, 24 bytes in q[0] and the first
 * half of q[1], to be widened where they are summed: widened here, the
 * rows in flight would be waited for as soon as they were asked for. */
template <int CH, int N = StripLayout<CH>::kChunks>
__device__ inline void load_lane (const StripParams & p, int y, int x0,
    bool whole, bool needed, const int (&col)[kLanePixels], uint4 (&q)[N])
{
  constexpr int P = kLanePixels;
  const uint8_t *row = p.src + (size_t) y * p.src_pitch;
  if (y >= 0 && needed && whole) {
    if constexpr (CH == 3) {
      /* Eight-byte aligned: a lane starts 24 bytes after the one before. */
      const uint2 *at =
          reinterpret_cast<const uint2 *>(row + (size_t) x0 * CH);
      const uint2 a = at[0], b = at[1], c = at[2];
      q[0] = make_uint4 (a.x, a.y, b.x, b.y);
      q[1] = make_uint4 (c.x, c.y, 0, 0);
    } else {
#pragma unroll
      for (int s = 0; s < N; ++s)
        q[s] = *reinterpret_cast<const uint4 *>(row + (size_t) x0 * CH +
            s * kChunk);
    }
  } else if (y >= 0 && needed) {
    uint32_t w[N * 4] = { };
#pragma unroll
    for (int k = 0; k < P; ++k) {
      if constexpr (CH == 3) {
#pragma unroll
        for (int b = 0; b < CH; ++b)
          if (col[k] >= 0)
            w[(k * CH + b) / 4] |= (uint32_t) row[col[k] * CH + b] <<
                (8 * ((k * CH + b) % 4));
      } else {
        uint32_t px = 0;
        if (col[k] >= 0)
          px = CH == 4 ? reinterpret_cast<const uint32_t *>(row)[col[k]] :
              reinterpret_cast<const uint16_t *>(row)[col[k]];
        w[k * CH / 4] |= px << (8 * (k * CH % 4));
      }
    }
#pragma unroll
    for (int s = 0; s < N; ++s)
      q[s] = make_uint4 (w[4 * s], w[4 * s + 1], w[4 * s + 2], w[4 * s + 3]);
  } else {
#pragma unroll
    for (int s = 0; s < N; ++s)
      q[s] = make_uint4 (0, 0, 0, 0);
  }
}

/* The column that the border mode reads for x, outside the row but
 * within RX < width of its ends (no division), or -1 for none. */
template <int RX>
__device__ inline int near_border_column (int x, int width, HipfBorderMode mode)
{
  if (x >= 0 && x < width)
    return -1;
  if (x < -RX || x >= width + RX)
    return -1;
  const bool left = x < 0;
  switch (mode) {
    case HIPF_BORDER_CLAMP:
      return left ? 0 : width - 1;
    case HIPF_BORDER_WRAP:
      return left ? x + width : x - width;
    case HIPF_BORDER_MIRROR:
      return left ? -x : 2 * width - 2 - x;
    default:
      return -1;
  }
}

/* Where a lane of bytes across the row's ends keeps the bytes past them:
 * at, and the pixel and byte of it that the first lies in. */
struct EdgeRun
{
  int at;
  int pixel;
  int byte;
};

/* load_lane for lanes of bytes, in rows a multiple of 16 pixels wide: the
 * chunks in the row load as they lie, and a lane across the row's ends
 * reads one by one the L = ST RX bytes past them that windows reach: the
 * last L of a lane before the row (edge_at = 32 - L), the first L of a
 * lane after it (0), or those after the first chunk of a lane that ends
 * 16 bytes past the row (16). samples: the row's bytes. */
template <int ST, int RX>
__device__ inline void load_run_lane (const StripParams & p, int y, int x0,
    int samples, bool whole, bool needed, const EdgeRun & edge, uint4 (&q)[2])
{
  constexpr int L = ST * RX, RW = (L + 3) / 4;
  const uint8_t *row = p.src + (size_t) y * p.src_pitch;
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    const int cx = x0 + s * kChunk;
    q[s] = y >= 0 && needed && (whole || (cx >= 0 && cx < samples)) ?
        *reinterpret_cast<const uint4 *>(row + cx) : make_uint4 (0, 0, 0, 0);
  }
  if (whole || y < 0 || !needed)
    return;
  /* The run's bytes, r[i / 4] byte i % 4 for byte i, from the columns the
   * border mode reads for their pixels. */
  uint32_t r[RW + 1] = { };
#pragma unroll
  for (int i = 0; i < L; ++i) {
    const unsigned t = edge.byte + i;
    const int col = near_border_column<RX> (edge.pixel + (int) (t / ST),
        p.width, p.mode);
    r[i / 4] |= (col >= 0 ? (uint32_t) row[col * ST + t % ST] : 0u) <<
        (8 * (i % 4));
  }
  const int edge_at = edge.at;
  uint32_t w[8] = { q[0].x, q[0].y, q[0].z, q[0].w,
    q[1].x, q[1].y, q[1].z, q[1].w
  };
  if (edge_at == 0) {
#pragma unroll
    for (int k = 0; k < RW; ++k)
      w[k] |= r[k];
  } else if (edge_at == kChunk) {
#pragma unroll
    for (int k = 0; k < RW && k < 4; ++k)
      w[4 + k] |= r[k];
  } else {
    /* Bytes 32 - L on: the run moved up by the bytes that align its end. */
    constexpr int up = (4 - L % 4) % 4, base = (32 - L - up) / 4;
#pragma unroll
    for (int k = RW; k > 0; --k)
      r[k] = up ? __funnelshift_l (r[k - 1], r[k], 8 * up) : r[k];
    r[0] = r[0] << (8 * up);
#pragma unroll
    for (int k = 0; k <= RW; ++k)
      if (base + k < 8)
        w[base + k] |= r[k];
  }
  q[0] = make_uint4 (w[0], w[1], w[2], w[3]);
  q[1] = make_uint4 (w[4], w[5], w[6], w[7]);
}

/* Lane words 4m + 2h and 4m + 2h + 1 of a lane of bytes (word i = byte
 * i | byte i + 16 << 16), from word m of its two chunks, a of bytes 0-15
 * and b of bytes 16-31. */
__device__ inline void run_word_pair (uint32_t a, uint32_t b, int h,
    uint32_t & even, uint32_t & odd)
{
  const uint32_t pair = __byte_perm (a, b, h ? 0x7632 : 0x5410);
  even = pair & 0x00ff00ffu;
  odd = (pair >> 8) & 0x00ff00ffu;
}

/* The lane words of a lane of bytes' two chunks. */
__device__ inline void run_words (const uint4 (&q)[2], uint32_t (&w)[16])
{
  const uint32_t a[4] = { q[0].x, q[0].y, q[0].z, q[0].w };
  const uint32_t b[4] = { q[1].x, q[1].y, q[1].z, q[1].w };
#pragma unroll
  for (int m = 0; m < 4; ++m)
#pragma unroll
    for (int h = 0; h < 2; ++h)
      run_word_pair (a[m], b[m], h, w[4 * m + 2 * h], w[4 * m + 2 * h + 1]);
}

/* Eight three-byte pixels as load_lane left them, as the two chunks of
 * eight four-byte ones. Each pixel's fourth byte is whichever byte of the
 * row follows it: it sums in a channel of its own, within its 16-bit
 * lanes as any byte does, and its means are never stored. */
__device__ inline void widen_pixels (const uint4 (&q)[2], uint4 (&wide)[2])
{
  const uint32_t a[6] = { q[0].x, q[0].y, q[0].z, q[0].w, q[1].x, q[1].y };
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const uint32_t *b = a + 3 * h;
    wide[h] = make_uint4 (b[0], __byte_perm (b[0], b[1], 0x6543),
        __byte_perm (b[1], b[2], 0x5432), b[2] >> 8);
  }
}

/* The 24 bytes of eight three-byte pixels from the chunks of their
 * widened means. */
__device__ inline void narrow_pixels (const uint4 (&wide)[2], uint2 (&out)[3])
{
  uint32_t o[6];
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    o[3 * h] = __byte_perm (wide[h].x, wide[h].y, 0x4210);
    o[3 * h + 1] = __byte_perm (wide[h].y, wide[h].z, 0x5421);
    o[3 * h + 2] = __byte_perm (wide[h].z, wide[h].w, 0x6542);
  }
#pragma unroll
  for (int k = 0; k < 3; ++k)
    out[k] = make_uint2 (o[2 * k], o[2 * k + 1]);
}

/* v += the lane's pixels of q, as the lane words of StripLayout<CH, WIDE>. */
template <int CH, bool WIDE = false, int N, int S>
__device__ inline void add_lane (uint32_t (&v)[S], const uint4 (&q)[N])
{
  if constexpr (WIDE) {
    uint4 wide[2];
    widen_pixels (q, wide);
    add_lane<4> (v, wide);
  } else if constexpr (StripLayout<CH>::kBytes) {
    uint32_t w[S];
    run_words (q, w);
#pragma unroll
    for (int i = 0; i < S; ++i)
      v[i] += w[i];
  } else {
#pragma unroll
    for (int s = 0; s < N; ++s)
      add_bytes<CH / 2, 2> (v, q[s], s * Lanes<CH / 2, 2>::kWords);
  }
}

/* v += the words of enter - those of leave. */
template <int CH, bool WIDE = false, int N, int S>
__device__ inline void slide_lane (uint32_t (&v)[S], const uint4 (&enter)[N],
    const uint4 (&leave)[N])
{
  if constexpr (WIDE) {
    uint4 e[2], l[2];
    widen_pixels (enter, e);
    widen_pixels (leave, l);
    slide_lane<4> (v, e, l);
  } else if constexpr (StripLayout<CH>::kBytes) {
    const uint32_t ea[4] = { enter[0].x, enter[0].y, enter[0].z, enter[0].w };
    const uint32_t eb[4] = { enter[1].x, enter[1].y, enter[1].z, enter[1].w };
    const uint32_t la[4] = { leave[0].x, leave[0].y, leave[0].z, leave[0].w };
    const uint32_t lb[4] = { leave[1].x, leave[1].y, leave[1].z, leave[1].w };
#pragma unroll
    for (int m = 0; m < 4; ++m) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        uint32_t e_even, e_odd, l_even, l_odd;
        run_word_pair (ea[m], eb[m], h, e_even, e_odd);
        run_word_pair (la[m], lb[m], h, l_even, l_odd);
        v[4 * m + 2 * h] += e_even - l_even;
        v[4 * m + 2 * h + 1] += e_odd - l_odd;
      }
    }
  } else {
#pragma unroll
    for (int s = 0; s < N; ++s)
      slide<CH / 2, 2> (v, enter[s], leave[s], s * Lanes<CH / 2, 2>::kWords);
  }
}

/* Horizontal window sums of the lane's pixels from their vertical sums v
 * and those of the lanes beside, word c of pixel k at WP k + c of both.
 * The window slides along the lane's pixels; a lane's sum may carry into
 * the other lane between the add and the subtraction, and the subtraction
 * takes the carry back. */
template <int P, int WP, int RX>
__device__ inline void strip_window_sums (const uint32_t (&v)[P * WP],
    uint32_t (&s)[P * WP])
{
  constexpr int E = P + 2 * RX;
  uint32_t e[E][WP];
#pragma unroll
  for (int c = 0; c < WP; ++c) {
#pragma unroll
    for (int i = 0; i < RX; ++i) {
      e[i][c] = shfl_up (v[WP * (P - RX + i) + c], 1);
      e[RX + P + i][c] = shfl_down (v[WP * i + c], 1);
    }
#pragma unroll
    for (int i = 0; i < P; ++i)
      e[RX + i][c] = v[WP * i + c];
    uint32_t sum = 0;
#pragma unroll
    for (int i = 0; i <= 2 * RX; ++i)
      sum += e[i][c];
    s[c] = sum;
#pragma unroll
    for (int k = 1; k < P; ++k) {
      sum += e[k + 2 * RX][c] - e[k - 1][c];
      s[WP * k + c] = sum;
    }
  }
}

/* The same for lanes of bytes: word j holds byte j of the lane in its low
 * lane and byte j + R in its high one, and a window of pixels of ST bytes
 * takes every ST-th byte, H = ST RX either side. Word j - k before the
 * first joins the high lane of the lane before's word R - k with the low
 * lane of this lane's, and from k = R on both lanes are the lane
 * before's word 2R - k; after the last likewise. */
template <int ST, int RX, int R>
__device__ inline void run_window_sums (const uint32_t (&v)[R],
    uint32_t (&s)[R])
{
  constexpr int H = ST * RX;
  static_assert (H <= 2 * R, "a window past the lanes beside");
  uint32_t e[R + 2 * H];
#pragma unroll
  for (int i = 0; i < H; ++i) {
    const int k = H - i;
    if (k <= R) {
      const uint32_t left = v[R - k];
      e[i] = __byte_perm (shfl_up (left, 1), left, 0x5432);
    } else {
      e[i] = shfl_up (v[2 * R - k], 1);
    }
    if (i < R)
      e[H + R + i] = __byte_perm (v[i], shfl_down (v[i], 1), 0x5432);
    else
      e[H + R + i] = shfl_down (v[i - R], 1);
  }
#pragma unroll
  for (int i = 0; i < R; ++i)
    e[H + i] = v[i];
#pragma unroll
  for (int j = 0; j < R; ++j) {
    if (j < ST) {
      uint32_t sum = 0;
#pragma unroll
      for (int d = -RX; d <= RX; ++d)
        sum += e[H + j + ST * d];
      s[j] = sum;
    } else {
      s[j] = s[j - ST] + e[j + 2 * H] - e[j - ST];
    }
  }
}

/* A lane's two chunks lie 32 bytes apart, so each store of one of them
 * fills half of every sector it touches, and L2 takes each sector twice:
 * in the four-byte strip kernel the stores' registers were still being
 * read out when the next row step wanted them back (the kernel's main
 * stall on the H100). Warps whose lanes all lie in the row deal their
 * chunks through shared memory and store the warp's span as two
 * stretches, a chunk a lane: piece h W + lane of the span in stretch h,
 * from lane (h W + lane) / 2. The slots are swizzled so that neither
 * order's accesses conflict in banks. Loading the rows the same way
 * cost more than it saved (the kernel's code doubled, and its
 * instruction fetches stalled). */
__device__ inline int piece_slot (int piece)
{
  return piece ^ ((piece >> 3) & 1);
}

/* Whether the strip kernel's lanes of CH-byte pixels store their rows
 * as stretches: four-byte lanes only. Lanes of bytes ran slower with
 * them on the H100 (GRAY8 4K 0.1 to 1 us, RGB 4K 1.3 us). */
__host__ __device__ constexpr bool deals_chunks (int ch)
{
  return ch == 4;
}

/* Chunks of static shared memory a warp of that kernel keeps for
 * lane_to_pieces (one, unused, where it does not deal its chunks). */
__host__ __device__ constexpr int strip_stage_chunks (int ch, int warp_size)
{
  return deals_chunks (ch) ? 2 * warp_size : 1;
}

/* The lane's chunks 0 and 1 in, pieces lane and W + lane out. */
__device__ inline void lane_to_pieces (uint4 * stage, uint4 (&q)[2])
{
  const int lane = threadIdx.x % kWarpSize;
  stage[piece_slot (2 * lane)] = q[0];
  stage[piece_slot (2 * lane + 1)] = q[1];
  warp_sync ();
  q[0] = stage[piece_slot (lane)];
  q[1] = stage[piece_slot (kWarpSize + lane)];
  warp_sync ();
}

/* Whether the strip kernel's bands of CH-byte pixels can share the rows
 * of their first windows in pairs (box_blur_strips). A pair saves
 * radius_y rows a band and costs a barrier and blocks of half as many
 * strips; on the H100 that paid for lanes of one and two bytes (GRAY8 4K
 * radius 6 23.3 -> 20.0 us, two-byte 4K 33.8 -> 32.1). Four-byte lanes
 * pair only where a band is shorter than its window (plan_strips):
 * 1920x1080 RGBA radius 6 (5-row bands) 16.8-17.1 -> 15.6-15.8 us, but
 * 4K (17-row bands) 0.2 to 1.2 us slower. Three-byte lanes, and one-byte
 * ones in the valid mode, spilled more with the exchange, and ran up to
 * twice as long where they summed their start rows out of line to make
 * room. */
__host__ __device__ constexpr bool shares_band_starts (int ch, bool cut)
{
  return ch == 2 || ch == 4 || (ch == 1 && !cut);
}

/* Below this radius_y a pair cost more than it saved: up to 1.4 us on
 * the H100 (two-byte 4K radius 1 27.1 -> 28.5), and 1.9 us saved at
 * radius 4 (GRAY8 4K). */
constexpr int kPairMinRadius = 4;

/* Whether three-byte pixels take widened lanes (StripLayout<3, true>)
 * rather than lanes of bytes. Lanes of bytes spill more with every pixel
 * of horizontal radius, and their valid mode's cut windows at any; widened
 * lanes sum a fourth channel and read 24 bytes a lane in three pieces.
 * Interleaved probe runs on the H100, lanes of bytes against widened
 * lanes with deferred edge reads (RGB, us): 4K radius 4 zero 46.5
 * against 44.9, mirror 47.4 against 46.3, radius 6 zero 61.4 against
 * 46.2, mirror 62.0 against 48.4; 1920x1080 radius 4 zero 19.4 against
 * 21.2, mirror 20.1 against 23.4, radius 6 30.1 against 22.7, 29.5
 * against 24.5; valid mode 4K radius 1 47.1 against 41.4, radius 2 52.7
 * against 42.2, 1920x1080 radius 1 15.1 against 16.6, radius 3 21.4
 * against 18.2. */
constexpr int kWideMinRadius = 5;
constexpr int kWideMinValidRadius = 2;

/* Whether widened lanes across the row's ends read any pixel, and so
 * read their rows where they are summed (box_blur_strips, DEFERS): in
 * the zero and valid modes, rows a whole number of lanes wide leave them
 * nothing to read, and a kernel without those reads is faster (H100,
 * RGB 4K radius 6 zero 46.2 -> 40.9 us, valid 49.4 -> 44.0, 1920x1080
 * zero 22.6 -> 20.6; interleaved probe runs). */
__host__ __device__ constexpr bool defers_edge_reads (int width,
    HipfBorderMode mode)
{
  return !((mode == HIPF_BORDER_ZERO || mode == HIPF_BORDER_VALID)
      && width % kLanePixels == 0);
}

/* Whether three-byte pixels of a row @width wide take widened lanes:
 * from kWideMinRadius, from kWideMinValidRadius in the valid mode, and
 * from kWideMinAtLoadRadius where the lanes read no pixel past the row's
 * ends (defers_edge_reads), which makes them cheaper: RGB zero radius 4,
 * lanes of bytes against widened lanes (H100, us), 4K 46.4 against 39.0,
 * 1920x1080 19.2 against 18.7; at radius 3 4K 40.9 against 36.1 but
 * 1920x1080 15.0 against 15.6. */
constexpr int kWideMinAtLoadRadius = 4;
__host__ __device__ constexpr bool widens_pixels (int rx, int width,
    HipfBorderMode mode)
{
  return rx >= (mode == HIPF_BORDER_VALID ? kWideMinValidRadius :
      !defers_edge_reads (width, mode) ? kWideMinAtLoadRadius :
      kWideMinRadius);
}

/* CUT: the kernel for the valid mode, for lanes of bytes, whose code for
 * cut windows spills the others' registers (three-byte mirror rows 12 %
 * slower); the other lanes always carry it. PAIRS: bands share their
 * starts in pairs (shares_band_starts); a kernel of its own, so that the
 * others keep their registers. */
template <int CH, int RX, bool CUT, bool PAIRS, bool WIDE, bool DEFERS>
__global__ void __launch_bounds__ (kStripThreads, 2)
box_blur_strips (StripParams p)
{
  using Layout = StripLayout<CH, WIDE>;
  constexpr int P = Layout::kPixels, WP = Layout::kPixelWords;
  constexpr int N = Layout::kChunks;
  constexpr int W = Lanes<WP, 2>::kWords, S = Layout::kWords;
  constexpr bool BYTES = Layout::kBytes;
  /* Bytes a pixel, and those past the row's ends that windows reach. */
  constexpr int ST = Layout::kStride, L = ST * RX;
  static_assert (RX <= kMaxStripRadius, "a window past the lanes beside");
  static_assert (2 * RX + 1 <= kWarpSize, "a lane for each cut window");
  /* Launched as a dependent of the kernel before it: no memory is touched
   * before it has finished, unless that is the same frame's previous
   * plane, which reads and writes none of this plane's memory. The next
   * kernel may launch once every block has passed this point: past the
   * wait, so that a plane that does not wait still starts only after what
   * came before the frame (NV12 4K radius 6 3.3 us faster, H100). */
  if (!p.after_plane)
    wait_for_prior_grid ();
  allow_dependent_grid ();
  /* Where the bands share their starts, warp w < pair_strips walks band
   * 2 blockIdx.y up from its last row, and warp w + pair_strips the same
   * strip of the band below down from its first: both start at their
   * common boundary. Elsewhere a block's warps are strips of band
   * blockIdx.y, and even bands walk down, odd ones up, as in
   * box_blur_bands. */
  static_assert (!PAIRS || shares_band_starts (CH, CUT),
      "lanes that do not pair");
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  const int pair_strips = max (1, (int) blockDim.x / (2 * kWarpSize));
  const int lower = PAIRS ? warp / pair_strips : blockIdx.y % 2;
  const int strip = PAIRS ? blockIdx.x * pair_strips + warp % pair_strips :
      blockIdx.x * kStripWarps + warp;
  const bool in_plane = strip < p.strips;
  /* Warps that take no part in a barrier leave at once. */
  if (!PAIRS && !in_plane)
    return;
  const int width = p.width, height = p.height, ry = p.radius_y;
  const HipfBorderMode mode = p.mode;
  /* Lanes of bytes count the row, x0 and P in bytes. */
  const int samples = BYTES ? width * ST : width;
  const int x0 = (strip * (kWarpSize - 2) + lane - 1) * P;
  const bool whole = x0 >= 0 && x0 + P <= samples;
  /* Lanes further right lend to no lane with means to form. */
  const bool needed = x0 < samples + P;
  const bool outputs = lane > 0 && lane < kWarpSize - 1 && x0 < samples;
  /* Warps with a pixel whose window the valid mode cuts short at the
   * row's ends: lane k holds the multiplier for a window of k + 1
   * columns, recomputed where the rows counted change, and those pixels
   * take theirs by a shuffle. */
  const int strip_x0 = x0 - lane * P;
  const bool cut = (CUT || !BYTES) && mode == HIPF_BORDER_VALID
      && (strip_x0 < L || strip_x0 + kWarpSize * P > samples - L);
  uint32_t cut_count = 0, cut_magic = 0;
  /* The columns a lane across the row's ends reads its pixels from:
   * kept for eight pixels a lane, found as they are read for 32. */
  int col[BYTES ? 1 : P];
  EdgeRun edge = { };
  /* The pixel and byte a lane of bytes starts in, for cut windows. */
  int lane_pixel = 0, lane_byte = 0;
  if constexpr (BYTES) {
    edge.at = x0 < 0 ? P - L : x0 >= samples ? 0 : kChunk;
    edge.pixel = floor_div (x0 + edge.at, ST);
    edge.byte = x0 + edge.at - edge.pixel * ST;
    lane_pixel = floor_div (x0, ST);
    lane_byte = x0 - lane_pixel * ST;
  } else {
#pragma unroll
    for (int k = 0; k < P; ++k)
      col[k] = border_row (x0 + k, width, mode);
  }
  /* Warps within the row store their rows as stretches, where the lanes
   * deal their chunks (deals_chunks). */
  constexpr bool PIECES = deals_chunks (CH);
  static_assert (!PIECES || N == 2, "two chunks a lane");
  const bool stretches = PIECES && strip_x0 >= 0 &&
      strip_x0 + kWarpSize * P <= samples;
  __shared__ uint4 stages[kStripWarps][strip_stage_chunks (CH, kWarpSize)];
  /* Widened lanes across the row's ends read their pixels a byte at a
   * time, and put them together as they arrive: read with the rows in
   * flight, they held up their warp there for each row (on the H100, RGB
   * 4K radius 6 mirror 56 us against 40.9 zero). With DEFERS they keep
   * the row's index instead and read it where it is summed, from the
   * lines that the lanes beside have just loaded: mirror 48.4 us, but
   * zero 46.2, as the kernel's other lanes pay for the read's place in
   * the row step (defers_edge_reads). */
  constexpr bool DEFER = Layout::kWidened && DEFERS;
  auto load = [&](int y, uint4 (&q)[N]) {
    if constexpr (BYTES)
      load_run_lane<ST, RX> (p, y, x0, samples, whole, needed, edge, q);
    else if (DEFER && !whole)
      q[0].x = (uint32_t) y;
    else
      load_lane<CH> (p, y, x0, whole, needed, col, q);
  };
  /* The row q as load left it, read now where load deferred it; in
   * place, since a copy of a row in flight would wait for it. */
  auto arrived = [&](uint4 (&q)[N]) {
    if constexpr (DEFER) {
      if (!whole)
        load_lane<CH> (p, (int) q[0].x, x0, false, needed, col, q);
    }
  };

  const int boundary = (2 * blockIdx.y + 1) * p.band_rows;
  const int y0 = PAIRS ? (lower ? boundary : boundary - p.band_rows) :
      blockIdx.y * p.band_rows;
  /* None only for a pair's lower band past the plane's end. */
  const int rows = min (height, y0 + p.band_rows) - y0;
  const int dir = PAIRS ? (lower ? 1 : -1) : (lower ? -1 : 1);
  const int first = dir > 0 ? y0 : y0 + rows - 1;

  /* Lanes of bytes load half as many rows at once: their edge runs take
   * the registers (eight one-byte rows spilled 22 to 44 bytes). */
  constexpr int B = BYTES ? kRowBatch / 2 : kRowBatch;
  uint32_t v[S] = { };
  auto add_rows = [&](int from, int count) {
    for (int d = 0; d < count; d += B) {
      uint4 q[B][N];
#pragma unroll
      for (int b = 0; b < B; ++b)
        load (d + b < count ? border_row (from + d + b, height, mode) : -1,
            q[b]);
#pragma unroll
      for (int b = 0; b < B; ++b) {
        arrived (q[b]);
        add_lane<CH, WIDE> (v, q[b]);
      }
    }
  };
  /* The two bands' first windows share all rows but one each: each warp
   * sums the half on its side of the boundary and takes the other half
   * from its partner, so a band starts with radius_y + 1 rows, not
   * 2 radius_y + 1. Whether a pair shares is the same for all its
   * block's warps, which all meet at the barrier. */
  extern __shared__ uint32_t strip_halves[];
  bool paired = false;
  if constexpr (PAIRS)
    paired = boundary < height && ry > 0;
  if (paired) {
    if (in_plane)
      add_rows (lower ? boundary : boundary - ry, ry);
#pragma unroll
    for (int k = 0; k < S; ++k)
      strip_halves[(warp * S + k) * kWarpSize + lane] = v[k];
    /* The row of its own, on its way while the partner finishes. */
    uint4 own[N];
    if (in_plane)
      load (border_row (lower ? boundary + ry : boundary - 1 - ry, height,
              mode), own);
    __syncthreads ();
    const int partner = lower ? warp - pair_strips : warp + pair_strips;
#pragma unroll
    for (int k = 0; k < S; ++k)
      v[k] += strip_halves[(partner * S + k) * kWarpSize + lane];
    if (in_plane) {
      arrived (own);
      add_lane<CH, WIDE> (v, own);
    }
  } else if (!PAIRS || (in_plane && rows > 0)) {
    add_rows (first - ry, 2 * ry + 1);
  }
  if (PAIRS && (!in_plane || rows <= 0))
    return;

  /* The rows entering and leaving the window on the way to output row
   * step, loaded AHEAD steps ahead. */
  auto load_step = [&](int step, uint4 (&enter)[N],
      uint4 (&leave)[N]) {
    const bool more = step < rows;
    const int t = first + dir * step;
    load (more ? border_row (t + dir * ry, height, mode) : -1, enter);
    load (more ? border_row (t - dir * (ry + 1), height, mode) : -1, leave);
  };
  /* Three-byte lanes of bytes load one step ahead: their wider windows
   * take the registers. */
  constexpr int AHEAD = Layout::kStride == 3 ? 1 : 2;
  /* Output row step from the window sums v; then v slides on to the
   * next row with the rows entering and leaving. */
  auto row_step = [&](int step, uint4 (&enter)[N], uint4 (&leave)[N]) {
    uint32_t s[S];
    if constexpr (BYTES)
      run_window_sums<ST, RX> (v, s);
    else
      strip_window_sums<Layout::kRun, WP, RX> (v, s);
    const int y = first + dir * step;
    const uint32_t count_y = window_count (y - ry, y + ry + 1, height, mode);
    const uint32_t n = (2 * RX + 1) * count_y;
    const uint32_t m = count_y == (uint32_t) (2 * ry + 1) ? p.magic :
        ((1u << 24) + n - 1) / n;
    if (cut && count_y != cut_count) {
      const uint32_t nk = (uint32_t) (min (lane, 2 * RX) + 1) * count_y;
      cut_magic = ((1u << 24) + nk - 1) / nk;
      cut_count = count_y;
    }
    uint8_t *out = p.dst + (size_t) y * p.dst_pitch +
        (size_t) x0 * (BYTES ? 1 : CH);
    auto multiplier = [&](int x, uint32_t & mx, uint32_t & bias) {
      mx = m;
      bias = (n / 2) * m;
      if (cut) {
        /* Every lane shuffles, those past the row's ends too. */
        const int h = min (x + RX, width - 1) - max (x - RX, 0) + 1;
        mx = shfl (cut_magic, max (h - 1, 0));
        bias = ((uint32_t) max (h, 0) * count_y / 2) * mx;
      }
    };
    uint4 chunks[N];
    if constexpr (BYTES) {
      /* Chunk c holds the bytes of lane c of the words, a run. The
       * windows cut short take their multipliers after the others, at the
       * places some lane of the warp has one. */
      constexpr int R = Layout::kRun;
      static_assert (R == kChunk, "a run a chunk");
#pragma unroll
      for (int c = 0; c < N; ++c) {
        uint32_t t[R];
#pragma unroll
        for (int k = 0; k < R; ++k)
          t[k] = (c ? s[k] >> 16 : s[k] & 0xffffu) * m + (n / 2) * m;
        if (cut) {
#pragma unroll
          for (int k = 0; k < R; ++k) {
            const int at = c * R + k;
            if (at < L || ((samples - 1 - at) & (P - 1)) < L) {
              uint32_t mk, bias;
              multiplier (lane_pixel + (int) ((unsigned) (lane_byte + at) /
                      ST), mk, bias);
              t[k] = (c ? s[k] >> 16 : s[k] & 0xffffu) * mk + bias;
            }
          }
        }
        chunks[c] = make_uint4 (top_bytes (t[0], t[1], t[2], t[3]),
            top_bytes (t[4], t[5], t[6], t[7]),
            top_bytes (t[8], t[9], t[10], t[11]),
            top_bytes (t[12], t[13], t[14], t[15]));
      }
    } else {
#pragma unroll
      for (int c = 0; c < N; ++c) {
        uint32_t t[W][2];
#pragma unroll
        for (int j = 0; j < W; j += WP) {
          uint32_t mj, bias;
          multiplier (x0 + (c * W + j) / WP, mj, bias);
#pragma unroll
          for (int k = j; k < j + WP; ++k) {
            const uint32_t word = s[c * W + k];
            t[k][0] = (word & 0xffffu) * mj + bias;
            t[k][1] = (word >> 16) * mj + bias;
          }
        }
        chunks[c] = lane_quotients<WP> (t);
      }
    }
    if constexpr (Layout::kWidened) {
      uint2 pieces[3];
      narrow_pixels (chunks, pieces);
#pragma unroll
      for (int k = 0; k < 3; ++k)
        if (outputs && x0 * CH + k * 8 < samples * CH)
          reinterpret_cast<uint2 *>(out)[k] = pieces[k];
    } else if (stretches) {
      /* The pieces of the lanes with means: all but the first and last. */
      if constexpr (PIECES)
        lane_to_pieces (stages[warp], chunks);
      uint8_t *span = out - (size_t) lane * P * CH;
#pragma unroll
      for (int h = 0; h < N; ++h) {
        const int piece = h * kWarpSize + lane;
        if (piece >= N && piece < N * (kWarpSize - 1))
          *reinterpret_cast<uint4 *>(span + piece * kChunk) = chunks[h];
      }
    } else {
#pragma unroll
      for (int c = 0; c < N; ++c)
        if (outputs && x0 + c * (P / N) < samples)
          *reinterpret_cast<uint4 *>(out + c * kChunk) = chunks[c];
    }

    arrived (enter);
    arrived (leave);
    slide_lane<CH, WIDE> (v, enter, leave);
  };
  if constexpr (Layout::kPixelWords == 2) {
    /* Two steps a round, each with its own rows in flight, in registers
     * that no step copies: a copy of the rows in flight waits for them
     * at the top of the next step, not where the slide needs them (on
     * the H100 the four-byte kernel's main stall; RGBA 4K radius 6 1.3
     * us faster this way). Lanes of one and two bytes lost as much:
     * GRAY8 4K radius 6 valid 27.1 -> 31.7 us. */
    static_assert (AHEAD == 2, "rows two steps ahead");
    uint4 odd[2][N], even[2][N];
    load_step (1, odd[0], odd[1]);
    for (int step = 0; step < rows; step += 2) {
      load_step (step + 2, even[0], even[1]);
      row_step (step, odd[0], odd[1]);
      if (step + 1 < rows) {
        load_step (step + 3, odd[0], odd[1]);
        row_step (step + 1, even[0], even[1]);
      }
    }
  } else {
    uint4 enter[N], leave[N];
    if (AHEAD == 2)
      load_step (1, enter, leave);
    for (int step = 0; step < rows; ++step) {
      uint4 next_enter[N], next_leave[N];
      if (AHEAD == 2)
        load_step (step + 2, next_enter, next_leave);
      else
        load_step (step + 1, enter, leave);
      row_step (step, enter, leave);
      if (AHEAD == 2) {
#pragma unroll
        for (int c = 0; c < N; ++c) {
          enter[c] = next_enter[c];
          leave[c] = next_leave[c];
        }
      }
    }
  }
}

/* A strip band sums the rows of its first window, or in pairs the half on
 * its side and the row between, before its first mean. Bands as many as
 * fill the device take the strips while those rows are at most
 * kStartBands bands' worth, or at most short_start_rows(): kShortStartRows
 * (kShortPairStartRows in pairs) on rows of fewer than kShortStartRowBytes
 * bytes, a step more for each doubling of the row's bytes beyond, up to
 * kShortStartSteps. Past both, a plane's bands reread too much of it and
 * the band path's prefixes cost less; within the second, the band path's
 * three launches cost more than the start, or about as much on the
 * smallest planes, and the more so the wider the rows. H100, interleaved
 * probe runs, band path against strips (us, mirror): GRAY8 1920x1080
 * radius 2 12.9 against 9.7, radius 6 21.6 against 12.8, RGBA 1280x720
 * radius 6 27.0 against 12.6, RGB 1280x720 radius 3 33.0 against 13.6;
 * radius 1 across and 11 down, RGB 1920x1080 45.3 against 21.1, 320x240
 * 16.8 against 13.9; 1 across and 16 down (pairs), GRAY8 1920x1080 22.8
 * against 17.4, 320x240 12.3 against 12.5. Past the limits strips lost on
 * the smallest planes: single bands of 25 rows, RGB 320x240 radius 3
 * across and 12 down (zero) 15.5 against 16.2; pairs at radius 20 down,
 * GRAY8 320x240 12.7 against 14.1. On wider rows they won further (1
 * across, mirror): RGB 1920x1080 (5760 bytes a row) up to 61 rows, 24
 * down 45.8 against 33.5; RGBA 1920x1080 pairs up to 43, 20 down 35.1
 * against 22.0; RGBA 640x480 pairs up to 31; two-byte 1280x720 pairs up
 * to 26 (31: 20.4 against 21.2); GRAY8 3840x2160 pairs up to 37. Over
 * 244 planes from 320x240 to 4K, radius 1 to 4 across and 12 to 42 down,
 * zero, mirror and valid, whose path these steps change, 231 gained 0.5
 * to 25 us (RGB 1920x1080 radius 1 across and 12 down, zero, 44.1
 * against 19.8) and 8 lost 0.6 to 3.3, most of them one-byte rows in the
 * valid mode (GRAY8 2560x1440 radius 3 across and 17 down 22.9 against
 * 26.2), whose lanes do not pair; on 1920 and 3840 bytes a row those
 * gained 2.2 to 7.7. Held to
 * their start rather than their window, two- and four-byte pairs on large
 * planes took the strips at larger vertical radii, 10.7 to 31.5 us faster
 * than the band path (RGBA 4K radius 1 across and 30 down 77.7 against
 * 46.8, two-byte 2560x1440 20 down 37.5 against 24.8). */
constexpr int kStartBands = 3;
constexpr int kShortStartRows = 23;
constexpr int kShortPairStartRows = 17;
constexpr int kShortStartRowBytes = 1024;
constexpr int kShortStartStep = 8;
constexpr int kShortPairStartStep = 6;
constexpr int kShortStartSteps = 4;

int short_start_rows (const HipfBoxBlurPlane * p, bool share)
{
  int rows = share ? kShortPairStartRows : kShortStartRows;
  int64_t bytes = (int64_t) p->width * p->channels;
  for (int s = 0; s < kShortStartSteps && bytes >= kShortStartRowBytes;
      ++s, bytes /= 2)
    rows += share ? kShortPairStartStep : kShortStartStep;
  return rows;
}

/* How the strip path would run a plane, if it can. */
struct StripPlan
{
  bool ok;
  void *kernel;
  int strips;
  int threads;
  int blocks_x;                 /* blocks a band's (or pair's) strips take */
  int blocks_y;                 /* bands, or pairs of bands */
  int band_rows;
  bool paired;                  /* the bands share their starts in pairs */
  size_t shared;                /* the pairs' halves */
};

template <int CH, bool CUT, bool PAIRS, bool WIDE = false,
    bool DEFERS = false>
void *strip_kernel_for (int rx)
{
  using Kernel = void (*) (StripParams);
  Kernel k = nullptr;
  switch (rx) {
    case 1: k = box_blur_strips<CH, 1, CUT, PAIRS, WIDE, DEFERS>; break;
    case 2: k = box_blur_strips<CH, 2, CUT, PAIRS, WIDE, DEFERS>; break;
    case 3: k = box_blur_strips<CH, 3, CUT, PAIRS, WIDE, DEFERS>; break;
    case 4: k = box_blur_strips<CH, 4, CUT, PAIRS, WIDE, DEFERS>; break;
    case 5: k = box_blur_strips<CH, 5, CUT, PAIRS, WIDE, DEFERS>; break;
    case 6: k = box_blur_strips<CH, 6, CUT, PAIRS, WIDE, DEFERS>; break;
    case 7: k = box_blur_strips<CH, 7, CUT, PAIRS, WIDE, DEFERS>; break;
    case 8: k = box_blur_strips<CH, 8, CUT, PAIRS, WIDE, DEFERS>; break;
    default: break;
  }
  return reinterpret_cast<void *>(k);
}

/* The strip kernel for the plane: lanes of bytes have one for the valid
 * mode, lanes that share their bands' starts one for pairs, and
 * three-byte pixels one for widened lanes. */
template <int CH>
void *strip_kernel_for (int rx, HipfBorderMode mode, bool pairs, bool wide,
    bool defers = false)
{
  if constexpr (CH == 3) {
    if (wide)
      return defers ? strip_kernel_for<CH, false, false, true, true> (rx) :
          strip_kernel_for<CH, false, false, true, false> (rx);
  }
  if constexpr (StripLayout<CH>::kBytes) {
    if (mode == HIPF_BORDER_VALID)
      return strip_kernel_for<CH, true, false> (rx);
  }
  if constexpr (shares_band_starts (CH, false)) {
    if (pairs)
      return strip_kernel_for<CH, false, true> (rx);
  }
  return strip_kernel_for<CH, false, false> (rx);
}

/* The strip plan for the plane, its bands in pairs (share) or not. */
StripPlan plan_strips_as (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * p, bool share)
{
  StripPlan plan = { };
  const int64_t window = (int64_t) (2 * p->radius_x + 1) * (2 * p->radius_y + 1);
  if (window > kMaxLaneWindow || limits->warp_size < 4)
    return plan;
  const int rx = p->radius_x;
  const HipfBorderMode mode = p->border;
  const bool wide = p->channels == 3 && widens_pixels (rx, p->width,
      mode);
  /* Lanes of bytes read whole chunks up to the row's end. */
  const bool bytes = p->channels % 2 == 1 && !wide;
  plan.kernel = p->channels == 4 ? strip_kernel_for<4> (rx, mode, share,
      false) : p->channels == 2 ? strip_kernel_for<2> (rx, mode, share,
      false) : p->channels == 1 ? strip_kernel_for<1> (rx, mode, share,
      false) : p->channels == 3 ? strip_kernel_for<3> (rx, mode, share,
      wide, defers_edge_reads (p->width, mode)) : nullptr;
  if (!plan.kernel)
    return plan;
  if (bytes && p->width % kChunk != 0)
    return plan;
  plan.strips = bytes ? ceil_div (p->width * p->channels,
      (limits->warp_size - 2) * StripLayout<1>::kPixels) :
      ceil_div (p->width, (limits->warp_size - 2) * kLanePixels);
  /* A block: strips of one band, or the same strips of a pair of bands. */
  const int bands_a_block = share ? 2 : 1;
  const int strips_a_block = plan.strips < kStripWarps / bands_a_block ?
      plan.strips : kStripWarps / bands_a_block;
  plan.threads = bands_a_block * strips_a_block * limits->warp_size;
  plan.blocks_x = ceil_div (plan.strips, strips_a_block);
  /* A word a thread for each of its lane's words. */
  const int words = p->channels == 4 ? StripLayout<4>::kWords :
      p->channels == 2 ? StripLayout<2>::kWords : StripLayout<1>::kWords;
  plan.shared = share ? (size_t) plan.threads * words * sizeof (uint32_t) : 0;
  /* As many bands as fill the device, each band's strips together. */
  const size_t stages = sizeof (uint4) * kStripWarps *
      strip_stage_chunks (p->channels, limits->warp_size);
  const int per_mp = resident_blocks (plan.kernel, plan.threads, plan.shared,
      limits->shared_mem_optin - stages);
  int bands = per_mp * limits->multiprocessors / plan.blocks_x *
      bands_a_block;
  bands = bands > 0 ? bands : 1;
  plan.band_rows = ceil_div (p->height, bands);
  const int window_rows = 2 * p->radius_y + 1;
  const int start_rows = share ? p->radius_y + 1 : window_rows;
  if (start_rows > kStartBands * plan.band_rows
      && start_rows > short_start_rows (p, share))
    return plan;
  plan.blocks_y = ceil_div (ceil_div (p->height, plan.band_rows),
      bands_a_block);
  plan.paired = share;
  plan.ok = true;
  return plan;
}

/* How the strip path would run a plane, if it can: bands in pairs where
 * the lanes share their starts, four-byte lanes only where their bands
 * alone would be shorter than their windows (shares_band_starts). */
StripPlan plan_strips (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * p)
{
  const bool cut = p->channels % 2 == 1 && p->border == HIPF_BORDER_VALID;
  const bool share = shares_band_starts (p->channels, cut)
      && p->radius_y >= kPairMinRadius;
  if (p->channels != 4 || !share)
    return plan_strips_as (limits, p, share);
  const StripPlan single = plan_strips_as (limits, p, false);
  if (single.band_rows == 0 || 2 * p->radius_y + 1 <= single.band_rows)
    return single;
  return plan_strips_as (limits, p, true);
}

/* How the fast path would run a plane, or why it cannot. */
struct BandPlan
{
  bool ok;
  int lanes;                    /* channels summed in a word */
  int rows;                     /* output rows a step */
  int row_words;                /* shared words a row's prefix takes */
  int chunks_per_thread;
  int threads;
  int bands;
  int band_rows;
  int fill;                     /* bands as many as fill the device */
  size_t shared;
  bool extended;
  bool band_prefix;
  int prefix_rows;              /* rows from one band prefix to the next */
  int prefix_bands;             /* band prefixes, less P(0) */
  int cut_words;                /* the valid mode's cut table */
  size_t prefix_bytes;
  size_t prefix_stride;         /* samples of a row, in whole chunks */
  size_t prefix_words;          /* words of a band prefix row */
};

template <int C, int CH, int L, int R, bool VALID = false>
void *band_kernel ()
{
  return reinterpret_cast<void *>(box_blur_bands<C, CH, L, R, VALID>);
}

/* Four-channel rows take two chunks a thread, three-channel rows three
 * (16 whole pixels: every thread's samples start at channel 0, so no
 * sample's channel is looked up at run time), the others one; two-lane
 * words (four- and two-channel pixels) two chunks, 16 words. Two rows a
 * step where the registers hold them: lanes, and rows of one or two
 * channels up to 512 chunks (8192 pixels of GRAY8). Each kernel costs
 * minutes of AMD build time, and wider rows are rare enough for the
 * general path. One- and two-channel rows take a kernel of their own for
 * the valid mode (VALID), since its code alone made their mirror mode 3 us
 * slower at radius 50; three-channel rows have it in their only one.
 * Four-channel rows keep one kernel, with their cut table: with a valid
 * kernel of their own, their valid mode was no faster, and the other
 * kernel's zero mode 2.5 to 4 us slower. */
template <int CHANNELS>
void *band_kernel_chunks (int chunks_per_thread, int lanes, int rows,
    bool valid)
{
  if (lanes == 2) {
    if constexpr (CHANNELS % 2 == 0)
      return chunks_per_thread == 2 && rows == 2 ?
          band_kernel<CHANNELS / 2, 2, 2, 2> () : nullptr;
    return nullptr;
  }
  if constexpr (CHANNELS == 4)
    return chunks_per_thread == 2 && rows == 1 ?
        band_kernel<CHANNELS, 2, 1, 1> () : nullptr;
  else if constexpr (CHANNELS == 3)
    return chunks_per_thread == 3 && rows == 1 ?
        band_kernel<CHANNELS, 3, 1, 1, true> () : nullptr;
  else if (chunks_per_thread != 1 || rows != 2)
    return nullptr;
  else
    return valid ? band_kernel<CHANNELS, 1, 1, 2, true> () :
        band_kernel<CHANNELS, 1, 1, 2> ();
}

void *band_kernel_for (int channels, int chunks_per_thread, int lanes,
    int rows, HipfBorderMode mode)
{
  const bool valid = mode == HIPF_BORDER_VALID;
  const int cpt = chunks_per_thread;
  switch (channels) {
    case 1: return band_kernel_chunks<1> (cpt, lanes, rows, valid);
    case 2: return band_kernel_chunks<2> (cpt, lanes, rows, valid);
    case 3: return band_kernel_chunks<3> (cpt, lanes, rows, valid);
    default: return band_kernel_chunks<4> (cpt, lanes, rows, valid);
  }
}

/* Shared words of one row's prefix of @words words: room for a whole last
 * vector, and whole vectors, so that the next row's prefix is aligned. */
int band_row_words (int pixel_words, int words)
{
  return ceil_div (padded_words (pixel_words, words + 4), 4) * 4;
}

BandPlan plan_bands (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * p, int lanes, int rows)
{
  BandPlan plan = { };
  const int chunks = ceil_div (p->width * p->channels, kChunk);
  const int pixel_words = p->channels / lanes;
  const int chunk_words = kChunk / lanes;
  const int max_threads = limits->max_threads_per_block < kMaxBandThreads ?
      limits->max_threads_per_block : kMaxBandThreads;

  /* Two chunks a thread where that kernel exists: the row scan's cost is
   * shared by twice the samples, and the registers it gets hold them. */
  plan.lanes = lanes;
  plan.rows = rows;
  plan.chunks_per_thread = p->channels == 3 ? 3 : p->channels == 4
      || lanes == 2 || chunks > max_threads ? 2 : 1;
  void *kernel = band_kernel_for (p->channels, plan.chunks_per_thread, lanes,
      rows, p->border);
  if (!kernel)
    return plan;
  if (ceil_div (chunks, plan.chunks_per_thread) > min (max_threads,
          band_threads (plan.rows * plan.chunks_per_thread * chunk_words)))
    return plan;
  plan.threads = ceil_div (ceil_div (chunks, plan.chunks_per_thread),
      limits->warp_size) * limits->warp_size;
  /* Every thread's chunks, and the extension on both sides where the
   * radius leaves the extension one period long and it fits. */
  const int own_words = plan.threads * plan.chunks_per_thread * chunk_words;
  const size_t static_shared = sizeof (uint32_t) * plan.rows *
      (kMaxChannels * (kScanWarps + 2) + (lanes == 2 ? kMaxLaneWindow / 2 + 1 : 1));
  plan.extended = p->radius_x <= p->width - 2;
  plan.cut_words = takes_cut_table (pixel_words, lanes)
      && p->border == HIPF_BORDER_VALID ? 2 * (p->radius_x + 1) : 0;
  plan.row_words = band_row_words (pixel_words, own_words +
      (2 * p->radius_x + 2) * pixel_words);
  plan.shared = ((size_t) plan.rows * plan.row_words + plan.cut_words) *
      sizeof (uint32_t);
  if (!plan.extended || plan.shared + static_shared > limits->shared_mem_optin) {
    plan.extended = false;
    plan.cut_words = 0;
    plan.row_words = band_row_words (pixel_words, own_words + pixel_words);
    plan.shared = (size_t) plan.rows * plan.row_words * sizeof (uint32_t);
  }
  if (plan.shared + static_shared > limits->shared_mem_optin)
    return plan;
  /* One band per resident block: as many blocks as fill the device. */
  const int per_mp = resident_blocks (kernel, plan.threads, plan.shared,
      limits->shared_mem_optin - static_shared);
  plan.fill = per_mp * limits->multiprocessors;
  plan.band_rows = ceil_div (p->height, plan.fill);
  plan.bands = ceil_div (p->height, plan.band_rows);
  /* Summing a tall window costs more than prefixes at band boundaries,
   * which cost a pass over the plane and up to two bands of rows. Lanes
   * have no band prefixes: theirs would be sums of samples. */
  plan.band_prefix = 2 * p->radius_y + 1 > 3 * plan.band_rows;
  if (plan.band_prefix && lanes == 2)
    return plan;
  plan.prefix_stride = (size_t) chunks * kChunk;
  plan.prefix_words = plan.prefix_stride / 2;
  plan.prefix_rows = prefix_rows_for (plan.band_rows);
  plan.prefix_bands = ceil_div (p->height, plan.prefix_rows);
  plan.prefix_bytes = (size_t) (plan.prefix_bands + 1) * plan.prefix_words *
      sizeof (uint32_t);
  plan.ok = true;
  return plan;
}

/* Two channels a word halves the row's scan and the prefix, where every
 * window sum of a channel fits a 16-bit lane. */
BandPlan plan_bands (const HipfDeviceLimits * limits, const HipfBoxBlurPlane * p)
{
  const int64_t window = (int64_t) (2 * p->radius_x + 1) * (2 * p->radius_y + 1);
  if (p->channels % 2 == 0 && window <= kMaxLaneWindow) {
    BandPlan plan = plan_bands (limits, p, 2, 2);
    if (plan.ok)
      return plan;
  }
  BandPlan plan = plan_bands (limits, p, 1, 2);
  return plan.ok ? plan : plan_bands (limits, p, 1, 1);
}

/* Multiplier and shift that divide exactly by n every x < 2^8 n: with
 * m = ceil (2^(32+s) / n) the error m n - 2^(32+s) < n stays below
 * 2^(32+s) / x when 2^8 n (n - 1) < 2^(32+s). Fails (m past 32 bits)
 * only for windows of more than 2^23 samples. */
bool exact_divider (uint32_t n, uint32_t * magic, int *shift)
{
  if (n < 2)
    return false;
  const uint64_t bound = ((uint64_t) n * (n - 1)) << kQuotientBits;
  int s = 0;
  while (s < 31 && bound >= (uint64_t) 1 << (32 + s))
    ++s;
  const uint64_t m = (((uint64_t) 1 << (32 + s)) + n - 1) / n;
  if (m > 0xffffffffu)
    return false;
  /* A larger shift keeps the bound; one that is a whole number of bytes
   * saves the kernels a shift a sample, where the multiplier still fits. */
  const int byte_shift = (s + 7) / 8 * 8;
  const uint64_t mb = byte_shift < 32 ?
      (((uint64_t) 1 << (32 + byte_shift)) + n - 1) / n : UINT64_MAX;
  const bool bytes = mb <= 0xffffffffu;
  *magic = (uint32_t) (bytes ? mb : m);
  *shift = bytes ? byte_shift : s;
  return true;
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
  /* The most bands any radius gives: the tallest window, and the least
   * shared memory, which lets the most blocks share a multiprocessor, in
   * either of the steps a radius may get. */
  HipfBoxBlurPlane tallest = *plane;
  tallest.radius_x = tallest.width;
  tallest.radius_y = HIPF_BOX_BLUR_MAX_RADIUS;
  const BandPlan one = plan_bands (limits, &tallest, 1, 1);
  const BandPlan two = plan_bands (limits, &tallest, 1, 2);
  if (one.ok || two.ok) {
    /* And the most of any plane no taller: one prefix a band of one row
     * where the plane fills the device no further, one every
     * kMaxPrefixRows rows at most, one every band_rows rows between
     * (never more than fill bands). */
    const BandPlan *plans[] = { &one, &two };
    size_t most = 0;
    for (const BandPlan *plan : plans) {
      const int filled = plane->height < plan->fill ? plane->height :
          plan->fill;
      const int every = ceil_div (plane->height, kMaxPrefixRows);
      const size_t bytes = (size_t) ((filled > every ? filled : every) + 1)
          * plan->prefix_words * sizeof (uint32_t);
      if (plan->ok && bytes > most)
        most = bytes;
    }
    return most;
  }
  size_t rows = (size_t) rows_grid_for (limits, plane->channels, plane->height)
      * (plane->width + 1) * plane->channels * sizeof (uint32_t);
  return column_prefix_bytes (plane) + rows;
}

extern "C" const char *
hipf_box_blur_path (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane)
{
  using namespace hipf;
  const StripPlan strips = plan_strips (limits, plane);
  if (strips.ok)
    return strips.paired ? "paired strips" : "strips";
  return plan_bands (limits, plane).ok ? "bands" : "general";
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

  const StripPlan strips = plan_strips (limits, p);
  if (strips.ok) {
    if (!aligned (src, src_pitch) || !aligned (dst, dst_pitch))
      return hipErrorInvalidValue;
    const uint32_t window = (uint32_t) (2 * p->radius_x + 1) *
        (uint32_t) (2 * p->radius_y + 1);
    StripParams sp = { src, src_pitch, dst, dst_pitch, p->width, p->height,
      p->radius_y, p->border, strips.strips, strips.band_rows,
      ((1u << 24) + window - 1) / window, p->after_plane };
    void *args[] = { &sp };
    return launch_dependent (limits, strips.kernel,
        dim3 (strips.blocks_x, strips.blocks_y), dim3 (strips.threads),
        args, strips.shared, stream);
  }

  BandPlan plan = plan_bands (limits, p);
  if (plan.ok) {
    /* The scratch was sized for this path: misaligned rows cannot fall back. */
    if (!aligned (src, src_pitch) || !aligned (dst, dst_pitch)
        || src_pitch < plan.prefix_stride || dst_pitch < plan.prefix_stride)
      return hipErrorInvalidValue;
    BandParams bp = { src, src_pitch, dst, dst_pitch, p->width, p->height,
      p->radius_x, p->radius_y, p->border, plan.band_rows,
      (int) (plan.prefix_stride / kChunk), NULL, plan.prefix_words };
    const uint32_t window = (uint32_t) (2 * p->radius_x + 1) *
        (uint32_t) (2 * p->radius_y + 1);
    if (plan.lanes == 2) {
      bp.magic = ((1u << 24) + window - 1) / window;
      bp.exact = 1;
    } else {
      bp.exact = exact_divider (window, &bp.magic, &bp.shift);
    }
    bp.extended = plan.extended;
    bp.row_words = plan.row_words;
    {
      /* A warp writing a longer extension holds up the block for longer
       * than a barrier: radius 200 wrap and mirror were 5 us slower. */
      const int lanes = plan.lanes, pixel_words = p->channels / lanes;
      const int samples = p->width * pixel_words;
      const int warp_words = limits->warp_size * plan.chunks_per_thread *
          kChunk / lanes;
      const int last_warp = (samples - 1) / warp_words;
      bp.own_extension = lanes == 1 && p->radius_x <= limits->warp_size
          && p->radius_x * pixel_words <= warp_words
          && last_warp * warp_words <= (p->width - p->radius_x) * pixel_words;
    }
    if (plan.band_prefix) {
      uint32_t *prefix = (uint32_t *) scratch;
      int height = p->height, rows = plan.prefix_rows, chunks = bp.chunks;
      size_t stride = plan.prefix_words;
      void *sum_args[] = { &src, &src_pitch, &height, &rows, &chunks, &prefix,
        &stride };
      hipError_t err = launch_dependent (limits, (const void *)
          column_band_sums, dim3 (ceil_div (bp.chunks, kColumnThreads),
              plan.prefix_bands), dim3 (kColumnThreads), sum_args, 0, stream);
      if (err != hipSuccess)
        return err;
      /* Lane words scan as they are: their carries cancel in differences. */
      int columns = (int) plan.prefix_words, bands = plan.prefix_bands;
      void *scan_args[] = { &bands, &columns, &prefix, &stride };
      err = launch_dependent (limits,
          (const void *) column_band_scan, dim3 (ceil_div (columns,
                  limits->warp_size)), dim3 (limits->warp_size,
              kScanSegments), scan_args, 0, stream);
      if (err != hipSuccess)
        return err;
      bp.band_prefix = prefix;
    }
    /* The three launches overlap where the device allows: 2.5 to 3.5 us
     * less at radius 50 and 200 (RGBA, RGB and GRAY8 4K, H100). */
    void *args[] = { &bp };
    return launch_dependent (limits, band_kernel_for (p->channels,
            plan.chunks_per_thread, plan.lanes, plan.rows, p->border),
        dim3 (plan.bands), dim3 (plan.threads), args, plan.shared, stream);
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
