/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The band path's starts: a band's first vertical window sums, summed
 * from its rows or, for tall windows, read off column prefixes kept at
 * band boundaries (column_band_sums, column_band_scan in bands.hip), two
 * sample columns a word in 16-bit lanes.
 */
#ifndef HIPF_BOXBLUR_BAND_STARTS_CUH
#define HIPF_BOXBLUR_BAND_STARTS_CUH

#include "boxblur/bands.cuh"

namespace hipf::blur {

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

/* V += coef * P(j) down Chunks chunk columns, two sample columns a word in
 * 16-bit lanes as in the prefix, P from the prefix at the nearer band
 * boundary and the rows between it and row j: at most half a band of
 * rows, all loaded at once with the prefix. */
template <int Chunks>
__device__ inline void add_column_prefix (uint32_t (&v)[Chunks * kChunk / 2],
    uint32_t coef, int j, const BandParams & p, int pr, int chunk)
{
  constexpr int W = Chunks * kChunk / 2, kVectorsPerChunk = kChunk / 2 / 4;
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
  add_rows<1, 2, Chunks> (rows, p.src, p.src_pitch, chunk, p.chunks,
      ahead ? y_end - j : j - y0, [=](int d) { return from + d; });
  const uint32_t row_coef = ahead ? 0u - coef : coef;
#pragma unroll
  for (int k = 0; k < W; ++k)
    v[k] += coef * base[k] + row_coef * rows[k];
}

/* A cut in (k - pr, k] where F(cut), in expand_prefix's terms, reads band
 * prefixes at multiples of pr, or P(n), and no rows but for P(1) and
 * P(n - 1), a row from P(0) and P(n), which clamp reads outside the plane
 * and mirror beyond its first reflection. */
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

/* w = F(b) - F(a) down Chunks chunk columns, from the band prefixes, in their
 * 16-bit lanes: exact for windows of up to kMaxLaneRows rows. Terms on
 * one P(j) are merged first, and every P(j) is then read from one place in
 * the code: each read is a round trip to memory, and the border expansions
 * have up to twelve terms. */
template <int Chunks>
__device__ inline void piece_sums (uint32_t (&w)[Chunks * kChunk / 2], int a,
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
  for (int m = 0; m < Chunks * kChunk / 2; ++m)
    w[m] = 0;
  for (int t = 0; t < terms; ++t)
    add_column_prefix<Chunks> (w, coefs[t], js[t], p, pr, chunk);
}

/* Vertical window sums of row y for the Chunks chunks from chunk on. Once per
 * band, so out of line; the sums come back through memory. */
template <int PixelWords, int ChannelsPerWord, int Chunks>
__device__ __noinline__ void start_window (uint32_t * out,
    const BandParams & p, int chunk, int y)
{
  constexpr int S = Chunks * Lanes<PixelWords, ChannelsPerWord>::kWords;
  uint32_t v[S] = { };
  if (!p.band_prefix) {
    const int first = y - p.radius_y, height = p.height;
    const HipfBorderMode mode = p.mode;
    add_rows<PixelWords, ChannelsPerWord, Chunks> (v, p.src, p.src_pitch,
        chunk, p.chunks, 2 * p.radius_y + 1,
        [=](int d) { return border_row (first + d, height, mode); });
  } else if constexpr (ChannelsPerWord == 1) {
    /* Lanes never take band prefixes: their windows are short. The band
     * prefixes hold two sample columns a word in 16-bit lanes, whose
     * carries cancel in any sum of terms that is the sum of a window of
     * at most kMaxLaneRows rows. Taller windows are cut into such pieces,
     * where F(k) reads prefixes with no rows to add (prefix_cut). The
     * pieces add up in out rather than in registers, which the next
     * piece's loads need (RGB spilled 1 KB more). */
    constexpr int W = Chunks * kChunk / 2;
    const int b = y + p.radius_y + 1, pr = prefix_rows_for (p.band_rows);
    for (int k = y - p.radius_y, first = 1; k < b; first = 0) {
      const int next = k + kMaxLaneRows >= b ? b :
          prefix_cut (k + kMaxLaneRows, p.height, p.mode, pr);
      uint32_t w[W];
      piece_sums<Chunks> (w, k, next, p, pr, chunk);
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

}  // namespace hipf::blur

#endif /* HIPF_BOXBLUR_BAND_STARTS_CUH */
