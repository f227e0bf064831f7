/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per-frame histograms of every channel of every plane, in one launch.
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
#include "hipf-device.cuh"

#include <type_traits>
#include <utility>

namespace hipf {
namespace {

/* One block of 1024 threads a multiprocessor rather than two of 512: every
 * block adds its counts into the same output words at its end (those of
 * its copy of the output), and half as many blocks queue half as long on
 * those atomics. */
constexpr int kHistogramThreads = 1024;
/* Shared memory kept back from the histogram copies for the kernel's own
 * variables. */
constexpr size_t kStaticShared = 256;

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

  /* Counts pixel P of a group once, or @weight times. The pixel's bytes
   * are picked straight out of the group's words where it lies within
   * one word. */
  template <int P, bool WEIGHTED>
  __device__ void count (const uint32_t (&w)[group_bytes<PS> () / 4],
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
    } else {
#pragma unroll
      for (int t = 0; t < NT; ++t)
        add (counters[t] + __byte_perm (px, 0, (PS == 1 ? byte_selector (0) :
                    select[t]) + shift));
      if (LUMA)
        add (luma_counters +
            rgb_luma (__byte_perm (px, 0, rgb_select[0] + shift),
                __byte_perm (px, 0, rgb_select[1] + shift),
                __byte_perm (px, 0, rgb_select[2] + shift)));
    }
  }
};

/* Whether every pixel of a group equals its first. */
template <int PS>
__device__ inline bool group_is_flat (const uint32_t (&w)[group_bytes<PS> () / 4])
{
  constexpr int words = group_bytes<PS> () / 4;
  bool flat = true;
  if constexpr (PS == 3) {
    const uint32_t first = bytes_at<3, 0> (w) & 0xffffff;
#define HIPF_SAME(P) flat = flat && (bytes_at<3, 3 * P> (w) & 0xffffff) == first;
    HIPF_SAME (1) HIPF_SAME (2) HIPF_SAME (3) HIPF_SAME (4) HIPF_SAME (5)
    HIPF_SAME (6) HIPF_SAME (7) HIPF_SAME (8) HIPF_SAME (9) HIPF_SAME (10)
    HIPF_SAME (11) HIPF_SAME (12) HIPF_SAME (13) HIPF_SAME (14) HIPF_SAME (15)
#undef HIPF_SAME
  } else {
#pragma unroll
    for (int k = 1; k < words; ++k)
      flat = flat && w[k] == w[0];
    if (PS == 1)
      flat = flat && w[0] == (w[0] & 0xff) * 0x01010101u;
    else if (PS == 2)
      flat = flat && (w[0] >> 16) == (w[0] & 0xffff);
  }
  return flat;
}

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

/* Counts one group whose first pixel is x0 of the plane; pixels outside
 * [roi_x, roi_end) do not count. */
template <typename Sample, int PS, int NT, bool LUMA>
__device__ __forceinline__ void count_group (const Taps<Sample, PS, NT,
        LUMA> & taps,
    const uint32_t (&w)[group_bytes<PS> () / 4], int x0, int roi_x,
    int roi_end)
{
  constexpr int pixels = group_bytes<PS> () / PS;
  const bool inside = x0 >= roi_x && x0 + pixels <= roi_end;
  /* The flat shortcut, when every lane here holds one pixel value. */
  const uint32_t px0 = bytes_at<PS, 0> (w);
  const lane_mask mask = active_lanes ();
  const int leader = first_lane (mask);
  const uint32_t lead_px = shfl_among (mask, px0, leader);
  if (all_among (mask, inside && group_is_flat<PS> (w) && px0 == lead_px)) {
    if ((int) (threadIdx.x % kWarpSize) == leader)
      taps.template count<0, true> (w, lane_count (mask) * pixels);
    return;
  }
  count_pixels<pixels> ([&](auto pixel) {
        taps.template count<decltype (pixel)::value, false> (w);
      }, x0, roi_x, roi_end);
}

/* Counts the groups of one plane's region of interest. Groups are numbered
 * row by row and dealt out to every thread of the grid in turn, so that no
 * thread idles on narrow rows; each thread loads several groups before it
 * counts any. */
template <typename Sample, int PS, int NT, bool LUMA>
__device__ __forceinline__ void count_plane (const uint8_t * src,
    const HipfHistogramPlane & pl, uint32_t * copy)
{
  constexpr int G = group_bytes<PS> (), pixels = G / PS, words = G / 4;
  constexpr int U = PS == 3 ? 1 : 2;
  const int first = (pl.roi_x * PS) / G;
  const int last = ((pl.roi_x + pl.roi_width) * PS + G - 1) / G;
  const uint32_t per_row = last - first;
  const uint32_t items = per_row * pl.roi_height;
  const uint32_t row_magic = 0xffffffffu / per_row;
  const uint32_t stride = gridDim.x * blockDim.x;
  const int roi_end = pl.roi_x + pl.roi_width;
  const uint8_t *plane = src + pl.offset + (size_t) pl.roi_y * pl.pitch;
  const Taps<Sample, PS, NT, LUMA> taps (pl, copy);

  for (uint32_t i0 = blockIdx.x * blockDim.x + threadIdx.x; i0 < items;
      i0 += U * stride) {
    uint32_t w[U][words];
    int x0[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const uint32_t i = i0 + u * stride;
      const uint32_t row = divide_corrected (i, row_magic, per_row);
      const int g = first + (int) (i - row * per_row);
      x0[u] = g * pixels;
      if (i < items) {
        const uint4 *q = reinterpret_cast<const uint4 *>(plane +
            (size_t) row * pl.pitch + (size_t) g * G);
#pragma unroll
        for (int k = 0; k < G / 16; ++k) {
          const uint4 v = q[k];
          w[u][4 * k] = v.x;
          w[u][4 * k + 1] = v.y;
          w[u][4 * k + 2] = v.z;
          w[u][4 * k + 3] = v.w;
        }
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (i0 + u * stride < items)
        count_group<Sample, PS, NT, LUMA> (taps, w[u], x0[u], pl.roi_x,
            roi_end);
  }
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

/* count_plane for the plane's layout. */
template <typename Sample>
__device__ __forceinline__ void count_any_plane (const uint8_t * src,
    const HipfHistogramPlane & pl, uint32_t * copy)
{
#define HIPF_COUNT(PS, NT, LUMA) \
  if (layout_is (pl, PS, NT, LUMA)) { \
    count_plane<Sample, PS, NT, LUMA> (src, pl, copy); \
    return; \
  }
  if constexpr (sizeof (Sample) == 2) {
    HIPF_HISTOGRAM_WIDE_LAYOUTS (HIPF_COUNT)
  } else {
    HIPF_HISTOGRAM_LAYOUTS (HIPF_COUNT)
  }
#undef HIPF_COUNT
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

/* Adds the frame's histograms into counts (zero before the launch) and
 * clears next, the half the next launch adds into. */
template <typename Sample>
__global__ void __launch_bounds__ (kHistogramThreads)
frame_histogram (HipfHistogramFrame frame, const uint8_t * __restrict__ src,
    uint32_t * __restrict__ counts, uint32_t * __restrict__ next, int copies)
{
  extern __shared__ uint32_t shared_hist[];
  const int hist_words = frame.n_channels * Counting<Sample>::kValues;
  const int warps = blockDim.x / kWarpSize;
  uint32_t *hist = shared_hist +
      (size_t) ((threadIdx.x / kWarpSize) * copies / warps) * hist_words;

  clear_copies (next, shared_hist, copies * hist_words);
  for (int p = 0; p < frame.n_planes; ++p) {
    const HipfHistogramPlane & pl = frame.planes[p];
    if (pl.roi_width <= 0 || pl.roi_height <= 0)
      continue;
    count_any_plane<Sample> (src, pl, hist);
  }
  add_copies<Sample> (shared_hist, copies, hist_words, counts);
}

/* Frames of a single plane of one- or four-byte pixels (GRAY8, RGBA and
 * the other four-byte layouts) take a kernel of their own, one block a
 * multiprocessor. A thread's first groups are loaded before the copies are
 * cleared, so that their latency hides behind the clearing and the
 * barrier, and a step's loads are issued before its atomics, so that they
 * are in flight while the atomics run. No flat shortcut: shared atomics
 * that add 1 merge the lanes that hit one counter in hardware. It is
 * faster than frame_histogram on both random and constant planes
 * (docs/design/histogram.md). */
constexpr int kGroupsAhead = 2;
constexpr int kPlaneGroup = 16;

/* How plane_histogram's threads walk the region's 16-byte groups, worked
 * out on the host, so that no division holds back a thread's first
 * loads. */
struct GroupWalk
{
  uint32_t per_row;             /* groups a row of the region */
  uint32_t items;               /* groups in all */
  uint32_t row_magic;           /* for divide_corrected () by per_row */
  uint32_t row_step, g_step;    /* the grid's stride in rows and groups */
};

template <int PS, int NT, bool LUMA>
__global__ void __launch_bounds__ (kHistogramThreads)
plane_histogram (HipfHistogramPlane pl, GroupWalk walk, int n_channels,
    int copies, const uint8_t * __restrict__ src,
    uint32_t * __restrict__ counts, uint32_t * __restrict__ next)
{
  extern __shared__ uint32_t shared_hist[];
  constexpr int G = kPlaneGroup, pixels = G / PS;
  static_assert (G % PS == 0, "whole pixels a group");
  /* One-byte planes count into one set of counters, a copy a warp,
   * indexed by the byte itself: through Taps the GRAY8 kernel took 57
   * registers instead of 54 and 0.3 us longer. */
  constexpr bool kBytes = PS == 1;
  const int warps = blockDim.x / kWarpSize;
  const int hist_words = kBytes ? HIPF_HISTOGRAM_VALUES :
      n_channels * HIPF_HISTOGRAM_VALUES;
  const int n_copies = kBytes ? warps : copies;
  uint32_t *hist = shared_hist + (size_t) (kBytes ? threadIdx.x / kWarpSize :
      (threadIdx.x / kWarpSize) * copies / warps) * hist_words;
  const Taps<uint8_t, PS, NT, LUMA> taps (pl, hist);
  /* Counts pixel P of a group. */
  auto count = [&](const uint32_t (&w)[4], auto pixel) {
    constexpr int P = decltype (pixel)::value;
    if constexpr (kBytes)
      atomicAdd (hist + __byte_perm (w[P / 4], 0, byte_selector (P % 4)), 1u);
    else
      taps.template count<P, false> (w);
  };
  const int first = pl.roi_x * PS / G;
  const int roi_end = pl.roi_x + pl.roi_width;
  const uint32_t per_row = walk.per_row, items = walk.items;
  const uint32_t stride = gridDim.x * blockDim.x;
  const uint32_t t0 = blockIdx.x * blockDim.x + threadIdx.x;
  /* A thread's groups are t0, t0 + stride, ...: a cursor (row, group,
   * address) steps through them without a division or a multiplication. */
  const size_t p_step = (size_t) walk.row_step * pl.pitch + walk.g_step * G;
  const ptrdiff_t p_wrap = (ptrdiff_t) pl.pitch - (ptrdiff_t) per_row * G;
  uint32_t row = divide_corrected (t0, walk.row_magic, per_row);
  uint32_t g = t0 - row * per_row;
  const uint8_t *p = src + pl.offset + (size_t) (pl.roi_y + row) * pl.pitch
      + (size_t) (first + g) * G;
  auto load = [&](uint4 & q, int &x0) {
    x0 = (first + (int) g) * pixels;
    if (row < (uint32_t) pl.roi_height)
      q = *reinterpret_cast<const uint4 *>(p);
    g += walk.g_step;
    row += walk.row_step;
    p += p_step;
    if (g >= per_row) {
      g -= per_row;
      ++row;
      p += p_wrap;
    }
  };
  uint4 q[kGroupsAhead];
  int x0[kGroupsAhead];
#pragma unroll
  for (int k = 0; k < kGroupsAhead; ++k)
    load (q[k], x0[k]);

  clear_copies (next, shared_hist, n_copies * hist_words);

  for (uint32_t i0 = t0; i0 < items; i0 += kGroupsAhead * stride) {
    uint4 v[kGroupsAhead];
    int x[kGroupsAhead];
#pragma unroll
    for (int k = 0; k < kGroupsAhead; ++k) {
      v[k] = q[k];
      x[k] = x0[k];
      load (q[k], x0[k]);
    }
#pragma unroll
    for (int k = 0; k < kGroupsAhead; ++k) {
      if (i0 + k * stride >= items)
        break;
      const uint32_t w[4] = { v[k].x, v[k].y, v[k].z, v[k].w };
      count_pixels<pixels> ([&](auto pixel) { count (w, pixel); }, x[k],
          pl.roi_x, roi_end);
    }
  }
  add_copies<uint8_t> (shared_hist, n_copies, hist_words, kBytes ?
      counts + pl.tap_channel[0] * HIPF_HISTOGRAM_VALUES : counts);
}

/* The single-plane layouts plane_histogram takes: GRAY8 and the
 * four-byte ones. */
#define HIPF_PLANE_LAYOUTS(X) \
  X (1, 1, false) X (4, 3, true) X (4, 4, true) X (4, 3, false)

}  // namespace
}  // namespace hipf

extern "C" size_t
hipf_histogram_buffer_size (void)
{
  return 2 * (size_t) HIPF_HISTOGRAM_HALF_WORDS * sizeof (uint32_t);
}

extern "C" hipError_t
hipf_histogram (const HipfDeviceLimits * limits,
    const HipfHistogramFrame * frame, const uint8_t * src, uint32_t * buffer,
    int half, hipStream_t stream)
{
  using namespace hipf;
  /* Clears an error an earlier call on this thread left behind, so that
   * the error returned is this launch's own. */
  (void) hipGetLastError ();
  const bool wide = frame->sample_bytes == 2;
  if ((frame->sample_bytes != 1 && !wide) || frame->n_channels < 1
      || frame->n_channels > (wide ? HIPF_HISTOGRAM_WIDE_MAX_CHANNELS :
          HIPF_HISTOGRAM_MAX_CHANNELS)
      || frame->n_planes < 1 || frame->n_planes > 3)
    return hipErrorInvalidValue;

  const size_t hist_bytes = (size_t) frame->n_channels *
      hipf_histogram_values (frame) * sizeof (uint32_t);
  int rows = 0;
  for (int p = 0; p < frame->n_planes; ++p) {
    if (!layout_supported (frame->planes[p], frame->sample_bytes))
      return hipErrorInvalidValue;
    /* Regions with no width or no height count nothing (the kernels skip
     * them); a frame of nothing else only clears the next half. */
    if (frame->planes[p].roi_width > 0 && frame->planes[p].roi_height > 0)
      rows += frame->planes[p].roi_height;
  }
  uint32_t *counts = hipf_histogram_counts (buffer, half);
  uint32_t *next = hipf_histogram_counts (buffer, !half);
  if (rows == 0)
    return hipMemsetAsync (next, 0,
        HIPF_HISTOGRAM_HALF_WORDS * sizeof (uint32_t), stream);

  /* A copy per warp, or as many as fit. */
  const int warps = kHistogramThreads / limits->warp_size;
  int copies = (int) ((limits->shared_mem_optin - kStaticShared) / hist_bytes);
  copies = copies < warps ? copies : warps;
  copies = copies > 0 ? copies : 1;
  const size_t shared = copies * hist_bytes;

  const HipfHistogramPlane & pl = frame->planes[0];
  const void *plane_kernel = nullptr;
  if (frame->n_planes == 1 && !wide) {
#define HIPF_PICK(PS, NT, LUMA) if (layout_is (pl, PS, NT, LUMA)) \
      plane_kernel = (const void *) plane_histogram<PS, NT, LUMA>;
    HIPF_PLANE_LAYOUTS (HIPF_PICK)
#undef HIPF_PICK
  }
  if (plane_kernel) {
    /* One-byte planes count into a 256-word copy a warp, whatever the
     * frame's channels. */
    const size_t plane_shared = pl.pixel_stride == 1 ? (size_t) warps *
        HIPF_HISTOGRAM_VALUES * sizeof (uint32_t) : shared;
    GroupWalk walk;
    walk.per_row = ceil_div ((pl.roi_x + pl.roi_width) * pl.pixel_stride,
        kPlaneGroup) - pl.roi_x * pl.pixel_stride / kPlaneGroup;
    walk.items = walk.per_row * pl.roi_height;
    walk.row_magic = 0xffffffffu / walk.per_row;
    /* One block a multiprocessor, whatever the occupancy allows: with two,
     * a stripped-down GRAY8 kernel of 32 registers took 0.6 us longer. */
    (void) resident_blocks (plane_kernel, kHistogramThreads, plane_shared,
        limits->shared_mem_optin - kStaticShared);
    const int grid = walk.items < (uint32_t) (limits->multiprocessors *
        kHistogramThreads) ? ceil_div (walk.items, kHistogramThreads) :
        limits->multiprocessors;
    const uint32_t stride = grid * kHistogramThreads;
    walk.row_step = stride / walk.per_row;
    walk.g_step = stride % walk.per_row;
    int n_channels = frame->n_channels;
    void *args[] = { (void *) &pl, &walk, &n_channels, &copies,
      (void *) &src, &counts, &next };
    return hipLaunchKernel (plane_kernel, dim3 (grid),
        dim3 (kHistogramThreads), args, plane_shared, stream);
  }

  if (wide) {
    const int grid = persistent_grid (limits, frame_histogram<uint16_t>,
        kHistogramThreads, shared, rows, kStaticShared);
    frame_histogram<uint16_t> <<<grid, kHistogramThreads, shared, stream>>>
        (*frame, src, counts, next, copies);
    return hipGetLastError ();
  }
  const int grid = persistent_grid (limits, frame_histogram<uint8_t>,
      kHistogramThreads, shared, rows, kStaticShared);

  frame_histogram<uint8_t> <<<grid, kHistogramThreads, shared, stream>>>
      (*frame, src, counts, next, copies);
  return hipGetLastError ();
}
