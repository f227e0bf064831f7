/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per-frame histograms of every channel of every plane, in one launch:
 * what both kernels (frame.hip, plane.hip) share.
 *
 * Each warp counts into its own copy of the histograms in shared memory
 * (as many copies as fit), so warps never contend for a counter; a sample
 * costs a byte extraction, an address and one shared atomic. Threads read
 * 16-byte groups of a row (48 for 3-byte pixels). A warp whose groups are
 * all one pixel value (flat areas, letterboxes, test frames) counts them
 * with one atomic per channel instead of one per sample: without that, its
 * 32 lanes would queue on the same counter. Blocks add their copies
 * straight into the output, one of HIPF_HISTOGRAM_COPIES copies of it in
 * turn in one of the buffer's two halves, and clear the other half for
 * the next frame: no clearing launch, and no block waits for the others
 * to finish. Frames of one plane of one- or four-byte pixels
 * (GRAY8, RGBA and the like) take a kernel of their own, plane_histogram,
 * without the flat shortcut.
 *
 * Frames of 16-bit samples take frame_histogram's own instance for them,
 * which counts ten bits of each sample into 1024 counters a channel: the
 * same code, templated on the sample type, so that the 8-bit instance
 * compiles as it would alone.
 */
#ifndef HIPF_HISTOGRAM_COMMON_CUH
#define HIPF_HISTOGRAM_COMMON_CUH

#include "hipf-device.cuh"
#include "histogram/tuning.h"

#include <type_traits>
#include <utility>

namespace hipf::hist {

/* What a frame of Sample counts: values a channel, and the copies of its
 * counts in a half of the output and the words from one to the next. */
template <typename Sample>
struct Counting;

template <>
struct Counting<uint8_t>
{
  static constexpr int kValues = HIPF_HISTOGRAM_VALUES;
  static constexpr int kCopies = HIPF_HISTOGRAM_COPIES;
  static constexpr int kCopyWords = HIPF_HISTOGRAM_COPY_WORDS;
};

template <>
struct Counting<uint16_t>
{
  static constexpr int kValues = HIPF_HISTOGRAM_WIDE_VALUES;
  static constexpr int kCopies = HIPF_HISTOGRAM_WIDE_COPIES;
  static constexpr int kCopyWords = HIPF_HISTOGRAM_WIDE_COPY_WORDS;
};

static_assert (Counting<uint16_t>::kCopies >= 1
    && Counting<uint16_t>::kCopies * Counting<uint16_t>::kCopyWords <=
    HIPF_HISTOGRAM_HALF_WORDS, "16-bit counts fit in a half");

__device__ inline uint32_t rgb_luma (uint32_t r, uint32_t g, uint32_t b)
{
  return (77 * r + 150 * g + 29 * b + 128) >> 8;
}

/* Bytes a thread reads at once: 16, or 48 for 3-byte pixels so that a
 * group holds whole pixels. */
template <int PS>
__host__ __device__ constexpr int group_bytes ()
{
  return PS == 3 ? 48 : 16;
}

/* The 32 bits starting at byte b of a group held in registers. */
template <int PS, int B>
__device__ inline uint32_t bytes_at (const uint32_t (&w)[group_bytes<PS> () / 4])
{
  constexpr int k = B / 4, shift = 8 * (B % 4);
  constexpr int words = group_bytes<PS> () / 4;
  if constexpr (shift == 0) {
    return w[k];
  } else {
    const uint32_t hi = k + 1 < words ? w[k + 1] : 0;
    return (w[k] >> shift) | (hi << (32 - shift));
  }
}

/* Byte @offset of a word, for __byte_perm: the other three bytes are 0. */
__host__ __device__ constexpr uint32_t byte_selector (int offset)
{
  return 0x4440u | (uint32_t) offset;
}

/* What a plane's pixels feed: NT taps, each a sample of the pixel counted
 * in its channel's counters, and with LUMA the luma of its R, G and B
 * bytes. Each channel's counters and the byte selectors stay in registers;
 * a one-byte pixel is its own tap, so its selector is a constant. A 16-bit
 * sample's selector is the shift that brings its ten counted bits to the
 * bottom of the pixel's word (pixels of 16-bit samples lie within one
 * word). */
template <typename Sample, int PS, int NT, bool LUMA>
struct Taps
{
  static constexpr bool kWide = sizeof (Sample) == 2;
  static constexpr int kValues = Counting<Sample>::kValues;
  static_assert (!kWide || (!LUMA && (PS == 2 || PS == 4)),
      "16-bit samples: YUV and GRAY layouts only");
  uint32_t *counters[NT];
  uint32_t select[NT];
  uint32_t *luma_counters;
  uint32_t rgb_select[3];

  __device__ Taps (const HipfHistogramPlane & pl, uint32_t * copy)
  {
#pragma unroll
    for (int t = 0; t < NT; ++t) {
      counters[t] = copy + pl.tap_channel[t] * kValues;
      if (kWide)
        select[t] = 8 * pl.tap_offset[t] + pl.sample_shift;
      else
        select[t] = PS == 1 ? byte_selector (0) :
            byte_selector (pl.tap_offset[t]);
    }
    luma_counters = copy + (LUMA ? pl.luma_channel : 0) * kValues;
#pragma unroll
    for (int c = 0; c < 3; ++c)
      rgb_select[c] = byte_selector (pl.rgb_offset[c]);
  }

  /* Counts pixel P of a group once, or @weight times, and returns its
   * luma (8-bit samples): that of its R, G and B with LUMA, its first
   * tap's sample without. The pixel's bytes are picked straight out of
   * the group's words where it lies within one word. */
  template <int P, bool WEIGHTED>
  __device__ uint32_t count (const uint32_t (&w)[group_bytes<PS> () / 4],
      uint32_t weight = 1) const
  {
    constexpr int at = P * PS;
    constexpr uint32_t shift = PS == 3 ? 0 : at % 4;
    const uint32_t px = PS == 3 ? bytes_at<PS, at> (w) : w[at / 4];
    auto add = [&](uint32_t * counter) {
      /* A constant 1 lets the compiler merge lanes that hit one counter. */
      if (WEIGHTED)
        atomicAdd (counter, weight);
      else
        atomicAdd (counter, 1u);
    };
    if constexpr (kWide) {
#pragma unroll
      for (int t = 0; t < NT; ++t)
        add (counters[t] + ((px >> (select[t] + 8 * shift)) & (kValues - 1)));
      return 0;
    } else {
      uint32_t first = 0;
#pragma unroll
      for (int t = 0; t < NT; ++t) {
        const uint32_t v = __byte_perm (px, 0, (PS == 1 ? byte_selector (0) :
                select[t]) + shift);
        first = t == 0 ? v : first;
        add (counters[t] + v);
      }
      if (!LUMA)
        return first;
      const uint32_t luma = rgb_luma (__byte_perm (px, 0, rgb_select[0] +
              shift), __byte_perm (px, 0, rgb_select[1] + shift),
          __byte_perm (px, 0, rgb_select[2] + shift));
      add (luma_counters + luma);
      return luma;
    }
  }
};

/* Calls count (std::integral_constant<int, P> ()) for each pixel P of a
 * group of PIXELS whose first pixel is x0, where it lies in [roi_x,
 * roi_end). A group wholly inside takes no test at all: a test before
 * each pixel would put every atomic in a block of its own. */
template <int PIXELS, typename Count, int... P>
__device__ __forceinline__ void count_pixels (Count count, int x0, int roi_x,
    int roi_end, std::integer_sequence<int, P...>)
{
  if (x0 >= roi_x && x0 + PIXELS <= roi_end)
    (count (std::integral_constant<int, P> ()), ...);
  else
    ((x0 + P >= roi_x && x0 + P < roi_end ?
            count (std::integral_constant<int, P> ()) : void ()), ...);
}

template <int PIXELS, typename Count>
__device__ __forceinline__ void count_pixels (Count count, int x0, int roi_x,
    int roi_end)
{
  count_pixels<PIXELS> (count, x0, roi_x, roi_end,
      std::make_integer_sequence<int, PIXELS> ());
}

/* The plane layouts of the formats the elements take (bytes a pixel, taps,
 * luma): GRAY8 and planar YUV planes, NV12/NV21 chroma, RGB/BGR, 4-byte RGB
 * without and with alpha, AYUV. Compiling only these keeps the build time
 * of the many AMD targets down. */
#define HIPF_HISTOGRAM_LAYOUTS(X) \
  X (1, 1, false) X (2, 2, false) X (3, 3, true) X (4, 3, true) \
  X (4, 4, true) X (4, 3, false)
/* Those of 16-bit samples: GRAY16_LE and planar 10-bit planes, P010
 * chroma. */
#define HIPF_HISTOGRAM_WIDE_LAYOUTS(X) X (2, 1, false) X (4, 2, false)

__host__ __device__ inline bool layout_is (const HipfHistogramPlane & pl,
    int ps, int nt, bool luma)
{
  return pl.pixel_stride == ps && pl.n_taps == nt
      && (pl.luma_channel >= 0) == luma;
}

__host__ __device__ inline bool layout_supported (const HipfHistogramPlane & pl,
    int sample_bytes)
{
#define HIPF_IS(PS, NT, LUMA) if (layout_is (pl, PS, NT, LUMA)) return true;
  if (sample_bytes == 2) {
    HIPF_HISTOGRAM_WIDE_LAYOUTS (HIPF_IS)
  } else {
    HIPF_HISTOGRAM_LAYOUTS (HIPF_IS)
  }
#undef HIPF_IS
  return false;
}

/* Clears next, the half of the output the next launch adds into, and the
 * block's @words words of copies, then waits for the whole block. */
__device__ inline void clear_copies (uint32_t * next, uint32_t * copies,
    int words)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x;
      i < HIPF_HISTOGRAM_HALF_WORDS;
      i += gridDim.x * blockDim.x)
    next[i] = 0;
  for (int i = threadIdx.x; i < words; i += blockDim.x)
    copies[i] = 0;
  __syncthreads ();
}

/* Adds @n copies of @words counters into the block's copy of the output
 * at @out, once the block is done. The blocks that share a copy add into
 * the same few cache lines, and L2 takes their atomics a request at a
 * time: a thread adds up all copies of its counter so that a warp's
 * atomics cover whole lines, in as few requests as can be. */
template <typename Sample>
__device__ inline void add_copies (const uint32_t * copies, int n, int words,
    uint32_t * out)
{
  out += (blockIdx.x % Counting<Sample>::kCopies) *
      Counting<Sample>::kCopyWords;
  __syncthreads ();
  for (int i = threadIdx.x; i < words; i += blockDim.x) {
    uint32_t sum = 0;
    for (int k = 0; k < n; ++k)
      sum += copies[k * words + i];
    if (sum)
      atomicAdd (&out[i], sum);
  }
}

}                               // namespace hipf::hist

#endif /* HIPF_HISTOGRAM_COMMON_CUH */
