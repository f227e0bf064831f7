/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The band path's means: each output chunk's rounded means off a row's
 * prefix in shared memory, divided exactly by multiply-high; the windows
 * cut short at the row's ends (the valid mode) and the border-extended
 * entries beyond them.
 */
#ifndef HIPF_BOXBLUR_BAND_MEANS_CUH
#define HIPF_BOXBLUR_BAND_MEANS_CUH

#include "boxblur/bands.cuh"

namespace hipf::blur {

template <int PixelWords>
__device__ inline int chunk_channel (int base, int k)
{
  return PixelWords == 3 ? (base + k) % 3 : k % PixelWords;
}

/* a[c] for a run-time c without dynamic register indexing. */
template <int PixelWords>
__device__ inline uint32_t pick (const uint32_t (&a)[PixelWords], int c)
{
  uint32_t r = a[0];
#pragma unroll
  for (int j = 1; j < PixelWords; ++j)
    r = c == j ? a[j] : r;
  return r;
}

template <int PixelWords>
__device__ inline void put (uint32_t (&a)[PixelWords], int c, uint32_t v)
{
#pragma unroll
  for (int j = 0; j < PixelWords; ++j)
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

/* The words of the pixel at prefix word w, PixelWords of them, as one
 * access where PixelWords is 2 or 4 (padded() keeps those pixels whole and
 * aligned). */
template <int PixelWords>
__device__ inline void load_pixel (const uint32_t * prefix, int w,
    uint32_t (&a)[PixelWords])
{
  if constexpr (PixelWords == 4) {
    const uint4 q =
        *reinterpret_cast<const uint4 *>(prefix + padded<PixelWords> (w));
    a[0] = q.x;
    a[1] = q.y;
    a[2] = q.z;
    a[3] = q.w;
  } else if constexpr (PixelWords == 2) {
    const uint2 q =
        *reinterpret_cast<const uint2 *>(prefix + padded<PixelWords> (w));
    a[0] = q.x;
    a[1] = q.y;
  } else {
#pragma unroll
    for (int c = 0; c < PixelWords; ++c)
      a[c] = prefix[padded<PixelWords> (w + c)];
  }
}

template <int PixelWords>
__device__ inline void store_pixel (uint32_t * prefix, int w,
    const uint32_t (&a)[PixelWords])
{
  if constexpr (PixelWords == 4) {
    *reinterpret_cast<uint4 *>(prefix + padded<PixelWords> (w)) =
        make_uint4 (a[0], a[1], a[2], a[3]);
  } else if constexpr (PixelWords == 2) {
    *reinterpret_cast<uint2 *>(prefix + padded<PixelWords> (w)) =
        make_uint2 (a[0], a[1]);
  } else {
#pragma unroll
    for (int c = 0; c < PixelWords; ++c)
      prefix[padded<PixelWords> (w + c)] = a[c];
  }
}

/* P_c(j) of the row prefix in shared memory, for extended_prefix(). */
template <int PixelWords>
struct SharedPrefix
{
  const uint32_t *prefix;
  int origin;
  int c;
  __device__ uint32_t operator() (int j) const
  {
    return prefix[padded<PixelWords> (origin + j * PixelWords + c)];
  }
};

/* Lane means of a chunk from the prefix words at lag and lag + lead. Lanes
 * divide by multiplying: with m = ceil (2^24 / n) for n < 2^8,
 * (x + n / 2) m has floor ((x + n / 2) / n) in its top byte for every lane
 * sum x <= 255 n, since the error x (m n - 2^24) / n stays below 2^24 / n;
 * the half comes in as bias = m (n / 2). multiplier (px, m, bias) gives
 * pixel px of the chunk its m and bias. */
template <int PixelWords, typename Multiplier>
__device__ inline void store_lane_means (const uint32_t * prefix, int lag,
    int lead, Multiplier multiplier, uint8_t * out)
{
  constexpr int W = Lanes<PixelWords, 2>::kWords;
  uint32_t t[W][2];
#pragma unroll
  for (int px = 0; px < W / PixelWords; ++px) {
    uint32_t m, bias, a[PixelWords], b[PixelWords];
    multiplier (px, m, bias);
    load_pixel<PixelWords> (prefix, lag + PixelWords * px, a);
    load_pixel<PixelWords> (prefix, lag + PixelWords * px + lead, b);
#pragma unroll
    for (int c = 0; c < PixelWords; ++c) {
      const uint32_t d = b[c] - a[c];
      t[PixelWords * px + c][0] = (d & 0xffffu) * m + bias;
      t[PixelWords * px + c][1] = (d >> 16) * m + bias;
    }
  }
  store_lane_quotients<PixelWords> (t, out);
}

/* Rounded means of one chunk of the row, written as 16 bytes, from the
 * prefix words at lag (the window's start) and lag + lead. Samples past
 * the row land in its padding. */
enum class Division { kExactByte, kExactShifted, kCorrected, kLanes };

template <int PixelWords, int ChannelsPerWord, Division Divide>
__device__ inline void store_means (const uint32_t * prefix, int lag,
    int lead, uint32_t n, uint32_t magic, int shift, uint8_t * out)
{
  if constexpr (Divide == Division::kLanes && ChannelsPerWord == 2) {
    const uint32_t bias = (n / 2) * magic;
    store_lane_means<PixelWords> (prefix, lag, lead,
        [&](int, uint32_t & m, uint32_t & b) { m = magic; b = bias; }, out);
  } else {
    uint32_t packed[kChunk / 4];
    const uint32_t half = n / 2;
    /* kExactByte leaves the quotient in byte shift / 8 of the product's
     * high word, and the permutes that pack a word's bytes pick it out:
     * no shift a sample. The other divisions leave it in byte 0. */
    auto mean = [&](uint32_t sum) {
      const uint32_t x = sum + half;
      if (Divide == Division::kExactByte)
        return __umulhi (x, magic);
      if (Divide == Division::kExactShifted)
        return __umulhi (x, magic) >> shift;
      return divide_corrected (x, magic, n);
    };
    const uint32_t byte = Divide == Division::kExactByte ? shift / 8 : 0;
    auto pack = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
      return pick_bytes (a, b, c, d, byte);
    };
#pragma unroll
    for (int px = 0; px < kChunk / 4; ++px) {
      const int i = lag + 4 * px;
      if constexpr (PixelWords == 4) {
        uint32_t a[PixelWords], b[PixelWords];
        load_pixel<PixelWords> (prefix, i, a);
        load_pixel<PixelWords> (prefix, i + lead, b);
        packed[px] = pack (mean (b[0] - a[0]), mean (b[1] - a[1]),
            mean (b[2] - a[2]), mean (b[3] - a[3]));
      } else {
        uint32_t q[4];
#pragma unroll
        for (int k = 0; k < 4; ++k)
          q[k] = mean (prefix[padded<PixelWords> (i + k + lead)] -
              prefix[padded<PixelWords> (i + k)]);
        packed[px] = pack (q[0], q[1], q[2], q[3]);
      }
    }
    *reinterpret_cast<uint4 *>(out) =
        make_uint4 (packed[0], packed[1], packed[2], packed[3]);
  }
}

/* The valid mode's windows at a row's ends hold h columns of count_y
 * rows, n = h count_y, h from radius_x + 1 to 2 radius_x + 1. Where
 * takes_cut_table() (tuning.h), their means divide by divide_corrected,
 * from a table in shared memory whose entry h - radius_x - 1 holds
 * {floor ((2^32 - 1) / n), n}; the block fills it for each count_y its
 * rows have, between a step's barriers, so that no warp at the row's
 * ends divides on its own while the others wait at the next barrier. */
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
template <int PixelWords, int ChannelsPerWord>
__device__ __noinline__ void store_edge_means (const uint32_t * prefix,
    int i0, const BandParams & p, int origin, bool extended,
    uint32_t count_y, uint8_t * out)
{
  const int samples = p.width * PixelWords;
  uint32_t packed[kChunk / 4] = { };
  if constexpr (PixelWords == 4) {
    if (extended) {
      /* A pixel at a time: one count, one reciprocal, two vector reads. */
#pragma unroll
      for (int px = 0; px < kChunk / 4; ++px) {
        const int x = min (i0 / 4 + px, p.width - 1);
        const int xa = x - p.radius_x, xb = x + p.radius_x + 1;
        uint32_t a[PixelWords], b[PixelWords];
        load_pixel<PixelWords> (prefix, origin + xa * PixelWords, a);
        load_pixel<PixelWords> (prefix, origin + xb * PixelWords, b);
        const uint32_t n = window_count (xa, xb, p.width, p.mode) * count_y;
        const float r = __frcp_rn ((float) n);
        const uint32_t half = n / 2;
#pragma unroll
        for (int c = 0; c < PixelWords; ++c)
          packed[px] |= divide_by_reciprocal (b[c] - a[c] + half, n, r) <<
              (8 * c);
      }
      *reinterpret_cast<uint4 *>(out) =
          make_uint4 (packed[0], packed[1], packed[2], packed[3]);
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < Lanes<PixelWords, ChannelsPerWord>::kWords; ++j) {
    const int i = min (i0 + j, samples - 1), x = i / PixelWords,
        c = i % PixelWords;
    const int xa = x - p.radius_x, xb = x + p.radius_x + 1;
    uint32_t sum;
    if (extended) {
      sum = prefix[padded<PixelWords> (origin + xb * PixelWords + c)] -
          prefix[padded<PixelWords> (origin + xa * PixelWords + c)];
    } else {
      const SharedPrefix<PixelWords> pc = { prefix, origin, c };
      sum = extended_prefix (pc, p.width, xb, p.mode) -
          extended_prefix (pc, p.width, xa, p.mode);
    }
    const uint32_t n = window_count (xa, xb, p.width, p.mode) * count_y;
    const float r = __frcp_rn ((float) n);
#pragma unroll
    for (int l = 0; l < ChannelsPerWord; ++l) {
      const uint32_t lane = ChannelsPerWord == 1 ? sum : l ? sum >> 16 :
          sum & 0xffffu;
      const int k = Lanes<PixelWords, ChannelsPerWord>::byte_of (j, l);
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
  constexpr int PixelWords = 4;
  uint32_t packed[kChunk / 4];
#pragma unroll
  for (int px = 0; px < kChunk / 4; ++px) {
    const int x = min (x0 + px, p.width - 1);
    const int h = window_count (x - p.radius_x, x + p.radius_x + 1, p.width,
        p.mode);
    const uint2 entry = cut[h - p.radius_x - 1];
    uint32_t a[PixelWords], b[PixelWords], q[PixelWords];
    load_pixel<PixelWords> (prefix, lag + PixelWords * px, a);
    load_pixel<PixelWords> (prefix, lag + PixelWords * px + lead, b);
#pragma unroll
    for (int c = 0; c < PixelWords; ++c)
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
template <int PixelWords>
__device__ inline void extend_periodic (uint32_t * prefix, int origin,
    int width, int rx, bool mirror, const uint32_t (&total)[PixelWords],
    const uint32_t (&first)[PixelWords], const uint32_t (&last)[PixelWords],
    int begin, int end, int thread, int threads)
{
  for (int m = begin + thread; m < end; m += threads) {
    const bool left = m < rx;
    /* Entry k in [-rx, -1] or [width + 1, width + rx], from F(j). */
    const int k = left ? m - rx : width + 1 + m - rx;
    const int j = mirror ? (left ? 1 - k : 2 * width - 1 - k) :
        (left ? k + width : k - width);
    uint32_t f[PixelWords], e[PixelWords];
    load_pixel<PixelWords> (prefix, origin + j * PixelWords, f);
#pragma unroll
    for (int c = 0; c < PixelWords; ++c)
      e[c] = mirror ? (left ? first[c] - f[c] : 2 * total[c] - last[c] - f[c])
          : (left ? f[c] - total[c] : total[c] + f[c]);
    store_pixel<PixelWords> (prefix, origin + k * PixelWords, e);
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
 * every other warp would wait for them at the next barrier. */
template <int PixelWords>
__device__ inline void edge_means (const uint32_t * prefix,
    const BandParams & p, int origin, int left, int right, uint32_t count_y,
    uint8_t * out)
{
  const int samples = p.width * PixelWords;
  const int left_samples = min (left * kChunk, samples);
  const int edge = left_samples + max (samples - right * kChunk, 0);
  for (int e = threadIdx.x; e < edge; e += blockDim.x) {
    const int i = e < left_samples ? e : right * kChunk + e - left_samples;
    const int x = i / PixelWords, c = i % PixelWords;
    const int xa = x - p.radius_x, xb = x + p.radius_x + 1;
    const uint32_t sum =
        prefix[padded<PixelWords> (origin + xb * PixelWords + c)] -
        prefix[padded<PixelWords> (origin + xa * PixelWords + c)];
    const uint32_t n = window_count (xa, xb, p.width, p.mode) * count_y;
    out[i] = (uint8_t) divide_by_reciprocal (sum + n / 2, n,
        __frcp_rn ((float) n));
  }
}

}  // namespace hipf::blur

#endif /* HIPF_BOXBLUR_BAND_MEANS_CUH */
