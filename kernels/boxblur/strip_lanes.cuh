/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The strip path's lanes: how a warp lane holds, loads, slides and sums
 * the pixels of its strip (strips.hip).
 */
#ifndef HIPF_BOXBLUR_STRIP_LANES_CUH
#define HIPF_BOXBLUR_STRIP_LANES_CUH

#include "boxblur/algorithms.h"
#include "boxblur/common.cuh"

namespace hipf::blur {

/* Pixels a lane of two- or four-byte pixels holds (bytes, for lanes of
 * bytes, are four times as many); a window reaches at most that far. */
constexpr int kLanePixels = 8;
constexpr int kMaxStripRadius = kLanePixels;
constexpr int kStripThreads = kStripWarps * kWarpSize;

/* A lane's pixels, chunks and words. Pixels of two and four bytes, and
 * widened ones of three: eight pixels a lane, of kPixelWords words each,
 * channels c and c + kPixelWords sharing word c (Lanes<kPixelWords, 2>);
 * their columns across the row's ends fit the registers (sixteen spilled).
 * Lanes of bytes, for pixels of one and three bytes: 32 bytes a lane, what
 * four-byte lanes move; word i holds byte i in its low lane and byte i + 16
 * in its high lane, so that each lane of the words is a run of 16
 * neighbouring bytes for the window to slide along, a byte at a time or,
 * for three-byte pixels, three. Widened: three-byte pixels widened
 * (widens_pixels). */
template <int PixelBytes, bool Widened = false>
struct StripLayout
{
  static_assert (!Widened || PixelBytes == 3, "only three-byte pixels widen");
  static constexpr bool kBytes = PixelBytes % 2 == 1 && !Widened;
  static constexpr bool kWidened = Widened;
  /* Bytes a pixel takes in the lane's words. */
  static constexpr int kLaneBytes = kWidened ? 4 : PixelBytes;
  static constexpr int kStride = kBytes ? PixelBytes : 1;    /* bytes a pixel */
  static constexpr int kPixels = kBytes ? 4 * kLanePixels : kLanePixels;
  static constexpr int kChunks = kPixels * (kBytes ? 1 : kLaneBytes) / kChunk;
  static constexpr int kPixelWords = kBytes ? 1 : kLaneBytes / 2;
  static constexpr int kWords = kChunks * kChunk / 2;
  static constexpr int kRun = kWords / kPixelWords;    /* pixels a lane's run */
};

/* The lane's pixels of row y (none where y < 0) as its chunks. A lane
 * with every pixel in the row reads its chunks as they lie; one across the
 * row's ends reads pixel k from column col[k] (none where negative).
 * Three-byte pixels arrive as they lie, 24 bytes in q[0] and the first
 * half of q[1], to be widened where they are summed: widened here, the
 * rows in flight would be waited for as soon as they were asked for. */
template <int PixelBytes, int Chunks = StripLayout<PixelBytes>::kChunks>
__device__ inline void load_lane (const StripParams & p, int y, int x0,
    bool whole, bool needed, const int (&col)[kLanePixels], uint4 (&q)[Chunks])
{
  constexpr int Pixels = kLanePixels;
  const uint8_t *row = p.src + (size_t) y * p.src_pitch;
  if (y >= 0 && needed && whole) {
    if constexpr (PixelBytes == 3) {
      /* Eight-byte aligned: a lane starts 24 bytes after the one before. */
      const uint2 *at =
          reinterpret_cast<const uint2 *>(row + (size_t) x0 * PixelBytes);
      const uint2 a = at[0], b = at[1], c = at[2];
      q[0] = make_uint4 (a.x, a.y, b.x, b.y);
      q[1] = make_uint4 (c.x, c.y, 0, 0);
    } else {
#pragma unroll
      for (int s = 0; s < Chunks; ++s)
        q[s] = *reinterpret_cast<const uint4 *>(row + (size_t) x0 * PixelBytes +
            s * kChunk);
    }
  } else if (y >= 0 && needed) {
    uint32_t w[Chunks * 4] = { };
#pragma unroll
    for (int k = 0; k < Pixels; ++k) {
      if constexpr (PixelBytes == 3) {
#pragma unroll
        for (int b = 0; b < PixelBytes; ++b)
          if (col[k] >= 0)
            w[(k * PixelBytes + b) / 4] |=
                (uint32_t) row[col[k] * PixelBytes + b] <<
                (8 * ((k * PixelBytes + b) % 4));
      } else {
        uint32_t px = 0;
        if (col[k] >= 0)
          px = PixelBytes == 4 ?
              reinterpret_cast<const uint32_t *>(row)[col[k]] :
              reinterpret_cast<const uint16_t *>(row)[col[k]];
        w[k * PixelBytes / 4] |= px << (8 * (k * PixelBytes % 4));
      }
    }
#pragma unroll
    for (int s = 0; s < Chunks; ++s)
      q[s] = make_uint4 (w[4 * s], w[4 * s + 1], w[4 * s + 2], w[4 * s + 3]);
  } else {
#pragma unroll
    for (int s = 0; s < Chunks; ++s)
      q[s] = make_uint4 (0, 0, 0, 0);
  }
}

/* The column that the border mode reads for x, outside the row but
 * within RadiusX < width of its ends (no division), or -1 for none. */
template <int RadiusX>
__device__ inline int near_border_column (int x, int width, HipfBorderMode mode)
{
  if (x >= 0 && x < width)
    return -1;
  if (x < -RadiusX || x >= width + RadiusX)
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
 * reads one by one the kReach = PixelBytes * RadiusX bytes past them that
 * windows reach: the last kReach of a lane before the row
 * (edge_at = 32 - kReach), the first kReach of a lane after it (0), or
 * those after the first chunk of a lane that ends 16 bytes past the row
 * (16). samples: the row's bytes. */
template <int PixelBytes, int RadiusX>
__device__ inline void load_run_lane (const StripParams & p, int y, int x0,
    int samples, bool whole, bool needed, const EdgeRun & edge, uint4 (&q)[2])
{
  constexpr int kReach = PixelBytes * RadiusX, kReachWords = (kReach + 3) / 4;
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
  uint32_t r[kReachWords + 1] = { };
#pragma unroll
  for (int i = 0; i < kReach; ++i) {
    const unsigned t = edge.byte + i;
    const int col = near_border_column<RadiusX> (edge.pixel +
        (int) (t / PixelBytes), p.width, p.mode);
    r[i / 4] |= (col >= 0 ?
        (uint32_t) row[col * PixelBytes + t % PixelBytes] : 0u) <<
        (8 * (i % 4));
  }
  const int edge_at = edge.at;
  uint32_t w[8] = { q[0].x, q[0].y, q[0].z, q[0].w,
    q[1].x, q[1].y, q[1].z, q[1].w
  };
  if (edge_at == 0) {
#pragma unroll
    for (int k = 0; k < kReachWords; ++k)
      w[k] |= r[k];
  } else if (edge_at == kChunk) {
#pragma unroll
    for (int k = 0; k < kReachWords && k < 4; ++k)
      w[4 + k] |= r[k];
  } else {
    /* Bytes 32 - kReach on: the run moved up by the bytes that align its
     * end. */
    constexpr int up = (4 - kReach % 4) % 4, base = (32 - kReach - up) / 4;
#pragma unroll
    for (int k = kReachWords; k > 0; --k)
      r[k] = up ? __funnelshift_l (r[k - 1], r[k], 8 * up) : r[k];
    r[0] = r[0] << (8 * up);
#pragma unroll
    for (int k = 0; k <= kReachWords; ++k)
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

/* v += the lane's pixels of q, as the lane words of
 * StripLayout<PixelBytes, Widened>. */
template <int PixelBytes, bool Widened = false, int Chunks, int Words>
__device__ inline void add_lane (uint32_t (&v)[Words], const uint4 (&q)[Chunks])
{
  if constexpr (Widened) {
    uint4 wide[2];
    widen_pixels (q, wide);
    add_lane<4> (v, wide);
  } else if constexpr (StripLayout<PixelBytes>::kBytes) {
    uint32_t w[Words];
    run_words (q, w);
#pragma unroll
    for (int i = 0; i < Words; ++i)
      v[i] += w[i];
  } else {
#pragma unroll
    for (int s = 0; s < Chunks; ++s)
      add_bytes<PixelBytes / 2, 2> (v, q[s],
          s * Lanes<PixelBytes / 2, 2>::kWords);
  }
}

/* v += the words of enter - those of leave. */
template <int PixelBytes, bool Widened = false, int Chunks, int Words>
__device__ inline void slide_lane (uint32_t (&v)[Words],
    const uint4 (&enter)[Chunks], const uint4 (&leave)[Chunks])
{
  if constexpr (Widened) {
    uint4 e[2], l[2];
    widen_pixels (enter, e);
    widen_pixels (leave, l);
    slide_lane<4> (v, e, l);
  } else if constexpr (StripLayout<PixelBytes>::kBytes) {
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
    for (int s = 0; s < Chunks; ++s)
      slide<PixelBytes / 2, 2> (v, enter[s], leave[s],
          s * Lanes<PixelBytes / 2, 2>::kWords);
  }
}

/* Horizontal window sums of the lane's pixels from their vertical sums v
 * and those of the lanes beside, word c of pixel k at PixelWords * k + c
 * of both. The window slides along the lane's pixels; a lane's sum may
 * carry into the other lane between the add and the subtraction, and the
 * subtraction takes the carry back. */
template <int Pixels, int PixelWords, int RadiusX>
__device__ inline void
strip_window_sums (const uint32_t (&v)[Pixels * PixelWords],
    uint32_t (&s)[Pixels * PixelWords])
{
  constexpr int kSpan = Pixels + 2 * RadiusX;
  uint32_t e[kSpan][PixelWords];
#pragma unroll
  for (int c = 0; c < PixelWords; ++c) {
#pragma unroll
    for (int i = 0; i < RadiusX; ++i) {
      e[i][c] = shfl_up (v[PixelWords * (Pixels - RadiusX + i) + c], 1);
      e[RadiusX + Pixels + i][c] = shfl_down (v[PixelWords * i + c], 1);
    }
#pragma unroll
    for (int i = 0; i < Pixels; ++i)
      e[RadiusX + i][c] = v[PixelWords * i + c];
    uint32_t sum = 0;
#pragma unroll
    for (int i = 0; i <= 2 * RadiusX; ++i)
      sum += e[i][c];
    s[c] = sum;
#pragma unroll
    for (int k = 1; k < Pixels; ++k) {
      sum += e[k + 2 * RadiusX][c] - e[k - 1][c];
      s[PixelWords * k + c] = sum;
    }
  }
}

/* The same for lanes of bytes: word j holds byte j of the lane in its low
 * lane and byte j + Words in its high one, and a window of pixels of
 * PixelBytes bytes takes every PixelBytes-th byte,
 * kHalo = PixelBytes * RadiusX either side. Word j - k before the first
 * joins the high lane of the lane before's word Words - k with the low
 * lane of this lane's, and from k = Words on both lanes are the lane
 * before's word 2 Words - k; after the last likewise. */
template <int PixelBytes, int RadiusX, int Words>
__device__ inline void run_window_sums (const uint32_t (&v)[Words],
    uint32_t (&s)[Words])
{
  constexpr int kHalo = PixelBytes * RadiusX;
  static_assert (kHalo <= 2 * Words, "a window past the lanes beside");
  uint32_t e[Words + 2 * kHalo];
#pragma unroll
  for (int i = 0; i < kHalo; ++i) {
    const int k = kHalo - i;
    if (k <= Words) {
      const uint32_t left = v[Words - k];
      e[i] = __byte_perm (shfl_up (left, 1), left, 0x5432);
    } else {
      e[i] = shfl_up (v[2 * Words - k], 1);
    }
    if (i < Words)
      e[kHalo + Words + i] = __byte_perm (v[i], shfl_down (v[i], 1), 0x5432);
    else
      e[kHalo + Words + i] = shfl_down (v[i - Words], 1);
  }
#pragma unroll
  for (int i = 0; i < Words; ++i)
    e[kHalo + i] = v[i];
#pragma unroll
  for (int j = 0; j < Words; ++j) {
    if (j < PixelBytes) {
      uint32_t sum = 0;
#pragma unroll
      for (int d = -RadiusX; d <= RadiusX; ++d)
        sum += e[kHalo + j + PixelBytes * d];
      s[j] = sum;
    } else {
      s[j] = s[j - PixelBytes] + e[j + 2 * kHalo] - e[j - PixelBytes];
    }
  }
}

/* A lane's two chunks lie 32 bytes apart, so each store of one of them
 * fills half of every sector it touches, and L2 takes each sector twice:
 * in the four-byte strip kernel the stores' registers were still being
 * read out when the next row step wanted them back (the kernel's main
 * stall). Warps whose lanes all lie in the row deal their
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

/* Whether widened lanes across the row's ends read any pixel, and so
 * read their rows where they are summed (box_blur_strips, DefersEdgeReads): in
 * the zero and valid modes, rows a whole number of lanes wide leave them
 * nothing to read, and a kernel without those reads is faster. */
__host__ __device__ constexpr bool defers_edge_reads (int width,
    HipfBorderMode mode)
{
  return !((mode == HIPF_BORDER_ZERO || mode == HIPF_BORDER_VALID)
      && width % kLanePixels == 0);
}

/* Whether three-byte pixels of a row @width wide take widened lanes
 * (tuning.h says from which radius). */
__host__ __device__ constexpr bool widens_pixels (int rx, int width,
    HipfBorderMode mode)
{
  return rx >= (mode == HIPF_BORDER_VALID ? kWideMinValidRadius :
      !defers_edge_reads (width, mode) ? kWideMinAtLoadRadius :
      kWideMinRadius);
}

}  // namespace hipf::blur

#endif /* HIPF_BOXBLUR_STRIP_LANES_CUH */
