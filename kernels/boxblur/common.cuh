/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Device helpers every blur algorithm shares: the border-extended prefix,
 * border rows, 16-byte chunks summed in words or 16-bit lanes, and the
 * byte packing of means.
 *
 * Border modes are folded into prefix sums. For a signal s of length n
 * and its prefix P (P(0) = 0, P(j) = s[0] + ... + s[j-1]), the prefix F(k)
 * of the border-extended signal has a closed form for any integer k
 * (periodic for wrap and mirror), and the window [a, b) sums to
 * F(b) - F(a). Sums are modulo 2^32: differences stay exact while the true
 * window sum fits, which HIPF_BOX_BLUR_MAX_RADIUS guarantees.
 */
#ifndef HIPF_BOXBLUR_COMMON_CUH
#define HIPF_BOXBLUR_COMMON_CUH

#include "hipf-device.cuh"
#include "border.cuh"
#include "boxblur/tuning.h"

namespace hipf::blur {

__device__ inline int clamp_index (int k, int n)
{
  return k < 0 ? 0 : (k > n ? n : k);
}

/* Reads P(j) of one sample column or one channel of a row, kept in Sum. */
template <typename Sum>
struct StridedSums
{
  const Sum *base;
  size_t stride;
  __device__ Sum operator() (int j) const
  {
    return base[(size_t) j * stride];
  }
};
using StridedPrefix = StridedSums<uint32_t>;

/* F(k): sum of the border-extended signal over [0, k), from P(0..n), in
 * the prefix's own unsigned type (its sums wrap as the 32-bit ones do). */
template <typename Prefix>
__device__ inline auto extended_prefix (const Prefix & p, int n, int k,
    HipfBorderMode mode)
{
  using Sum = decltype (p (0));
  switch (mode) {
    case HIPF_BORDER_CLAMP:
      if (k < 0)
        return (Sum) k * p (1);
      if (k > n)
        return (Sum) (p (n) + (Sum) (k - n) * (p (n) - p (n - 1)));
      return p (k);
    case HIPF_BORDER_WRAP:{
      int q = floor_div (k, n);
      return (Sum) ((Sum) q * p (n) + p (k - q * n));
    }
    case HIPF_BORDER_MIRROR:{
      if (n == 1)
        return (Sum) k * p (1);
      /* Reflect-101 repeats with period 2n - 2: s[0..n-1] then s[n-2..1]. */
      int period = 2 * n - 2;
      int q = floor_div (k, period);
      int r = k - q * period;
      Sum tail = p (n) + p (n - 1);
      Sum whole = tail - p (1);
      Sum part = r <= n ? p (r) : (Sum) (tail - p (period - r + 1));
      return (Sum) ((Sum) q * whole + part);
    }
    default:                   /* zero and valid: nothing outside the plane */
      return p (clamp_index (k, n));
  }
}

__device__ inline uint32_t window_count (int a, int b, int n,
    HipfBorderMode mode)
{
  if (mode == HIPF_BORDER_VALID)
    return (uint32_t) (clamp_index (b, n) - clamp_index (a, n));
  return (uint32_t) (b - a);
}

constexpr int kChunk = 16;              /* samples per 16-byte access */
constexpr int kMaxChannels = 4;
/* Windows of at most this many samples sum in 16-bit lanes, and their
 * means divide by the lanes' 24-bit multiplier (store_means). */
constexpr int kMaxLaneWindow = 255;
/* Column sums of up to this many rows fit a 16-bit lane: the band
 * prefixes hold two columns a word, and tall windows are summed from them
 * in pieces of at most this many rows, each exact in its lanes. */
constexpr int kMaxLaneRows = 65535 / 255;

/* Exact division by multiply-high: quotients are at most 255 and windows
 * hold at most 2^24 samples, so x < 2^8 * n. */
constexpr int kQuotientBits = 8;

/* The words a 16-byte chunk of samples is summed in: a sample a word
 * (ChannelsPerWord = 1), or for pixels of PixelWords = 1 or 2 words, two
 * channels a word in 16-bit lanes (ChannelsPerWord = 2), channels c and
 * c + PixelWords sharing word c of the pixel. Sums mod 2^32 of such words
 * are the lanes' sums side by side, exactly, wherever each lane's sum lies
 * in [0, 2^16): a lane's carries cancel in every difference of prefixes
 * that is a window sum. */
template <int PixelWords, int ChannelsPerWord>
struct Lanes
{
  static constexpr int kWords = kChunk / ChannelsPerWord;
  /* The chunk's byte in the low lane of word j, and of lane l. */
  __host__ __device__ static constexpr int byte_of (int j, int l = 0)
  {
    return ChannelsPerWord == 1 ? j :
        (j / PixelWords) * 2 * PixelWords + j % PixelWords + l * PixelWords;
  }
  /* Word j from 32-bit word byte_of (j) / 4 of the chunk, by __byte_perm. */
  __host__ __device__ static constexpr unsigned selector (int j)
  {
    return ChannelsPerWord == 1 ? 0x4440u | (j % 4) :
        0x4040u | (byte_of (j, 1) % 4) << 8 | (byte_of (j) % 4);
  }
  __device__ static inline uint32_t word (const uint32_t (&w)[4], int j)
  {
    return __byte_perm (w[byte_of (j) / 4], 0, selector (j));
  }
};

/* v[at ..] += the words of the 16 bytes of q. */
template <int PixelWords, int ChannelsPerWord, int Words>
__device__ inline void add_bytes (uint32_t (&v)[Words], const uint4 & q,
    int at = 0)
{
  using Layout = Lanes<PixelWords, ChannelsPerWord>;
  const uint32_t w[4] = { q.x, q.y, q.z, q.w };
#pragma unroll
  for (int j = 0; j < Layout::kWords; ++j)
    v[at + j] += Layout::word (w, j);
}

/* v[at ..] += the words of enter - those of leave: the window slides down
 * a row. */
template <int PixelWords, int ChannelsPerWord, int Words>
__device__ inline void slide (uint32_t (&v)[Words], const uint4 & enter,
    const uint4 & leave, int at)
{
  using Layout = Lanes<PixelWords, ChannelsPerWord>;
  const uint32_t e[4] = { enter.x, enter.y, enter.z, enter.w };
  const uint32_t l[4] = { leave.x, leave.y, leave.z, leave.w };
#pragma unroll
  for (int j = 0; j < Layout::kWords; ++j)
    v[at + j] += Layout::word (e, j) - Layout::word (l, j);
}

__device__ inline const uint4 & chunk_at (const uint8_t * src, size_t pitch,
    int row, int chunk)
{
  return *reinterpret_cast<const uint4 *>(src + (size_t) row * pitch +
      (size_t) chunk * kChunk);
}

/* v += the samples of rows row_of (0 .. count - 1) in Chunks neighbouring
 * chunk columns from chunk on, those below chunks only; a negative row
 * adds nothing. Rows are loaded in batches, every chunk's at once. */
template <int PixelWords, int ChannelsPerWord, int Chunks,
    int Batch = kRowBatch, int Words, typename RowOf>
__device__ inline void add_rows (uint32_t (&v)[Words], const uint8_t * src,
    size_t pitch, int chunk, int chunks, int count, RowOf row_of)
{
  using Layout = Lanes<PixelWords, ChannelsPerWord>;
  static_assert (Words == Chunks * Layout::kWords, "one word a chunk's lane");
  for (int d = 0; d < count; d += Batch) {
    uint4 q[Batch][Chunks];
#pragma unroll
    for (int b = 0; b < Batch; ++b) {
      const int r = d + b < count ? row_of (d + b) : -1;
#pragma unroll
      for (int s = 0; s < Chunks; ++s)
        q[b][s] = r >= 0 && chunk + s < chunks ?
            chunk_at (src, pitch, r, chunk + s) : make_uint4 (0, 0, 0, 0);
    }
#pragma unroll
    for (int b = 0; b < Batch; ++b)
#pragma unroll
      for (int s = 0; s < Chunks; ++s)
        add_bytes<PixelWords, ChannelsPerWord> (v, q[b][s],
            s * Layout::kWords);
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

/* Whether rows at @ptr, @pitch bytes apart, start on whole chunks. */
inline bool aligned_rows (const void *ptr, size_t pitch)
{
  return ((uintptr_t) ptr % kChunk) == 0 && pitch % kChunk == 0;
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

/* The 16 bytes of a chunk from the top bytes of its lanes' products. */
template <int PixelWords>
__device__ inline uint4 lane_quotients (const uint32_t (&t)[kChunk / 2][2])
{
  /* Byte k of the chunk is lane (k % 2W) / W of word (k / 2W) W + k % W,
   * for W words a pixel. */
  constexpr int W = PixelWords;
  auto at = [&](int k) {
    return t[k / (2 * W) * W + k % W][k % (2 * W) / W];
  };
  uint32_t packed[kChunk / 4];
#pragma unroll
  for (int w = 0; w < kChunk / 4; ++w)
    packed[w] = top_bytes (at (4 * w), at (4 * w + 1), at (4 * w + 2),
        at (4 * w + 3));
  return make_uint4 (packed[0], packed[1], packed[2], packed[3]);
}

template <int PixelWords>
__device__ inline void store_lane_quotients (const uint32_t (&t)[kChunk / 2][2],
    uint8_t * out)
{
  *reinterpret_cast<uint4 *>(out) = lane_quotients<PixelWords> (t);
}

}  // namespace hipf::blur

#endif /* HIPF_BOXBLUR_COMMON_CUH */
