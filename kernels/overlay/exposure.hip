/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The exposure overlay (overlay/exposure.h has what it draws) in one pass
 * over the frame: each block takes rows of a plane, each thread a pixel,
 * read once and written once; outside the graph's box a pixel's drawing is
 * a read of a table from luma to its false-colour bytes. With the graph on, the same pass counts the
 * luma histogram the graph shows (in shared memory, added into global
 * memory at the block's end) and leaves the graph's box alone; a one-block
 * launch turns the counts into bar heights and a launch over the box
 * draws it. The frame is thus read once whatever is drawn.
 *
 * The kernels are templates on the sample type: 16-bit samples (at most
 * two a pixel, so a pixel still fits a 32-bit word) read their value out of
 * the word, decide by its top eight bits and scale the 8-bit colours into
 * their range (Samples<> below); the 8-bit instances are the code they
 * were.
 */
#include "hipf-device.cuh"
#include "overlay/exposure.h"

namespace hipf {
namespace {

/* Threads a block; with persistent blocks, each adds its histogram into
 * global memory once. */
constexpr int kDrawThreads = 256;

/* Counters of the graphs: luma's, or R's, G's and B's. */
constexpr int kGraphWords = HIPF_EXPOSURE_GRAPHS * HIPF_HISTOGRAM_VALUES;

/* The global scratch: the counts, then the bar heights. */
__host__ __device__ inline uint16_t *heights_of (void *scratch)
{
  return reinterpret_cast<uint16_t *>(static_cast<uint32_t *>(scratch) +
      kGraphWords);
}

/* The blend, in the samples' own range (a: 0 - 255). */
__device__ inline int blend (int colour, int v, int a)
{
  return (a * colour + (255 - a) * v + 127) / 255;
}

/* What the sample type changes (exposure.h has the rules): a sample's value
 * from its word, the value's top eight bits, an 8-bit colour component in
 * the value's range, and the word a drawn value is stored as. */
template <typename T> struct Samples;

template <> struct Samples<uint8_t>
{
  static constexpr int kBits = 8;
  __device__ static int value (uint32_t word, const HipfExposureFrame &)
  {
    return (int) word;
  }
  __device__ static int top8 (int v, const HipfExposureFrame &)
  {
    return v;
  }
  __device__ static int colour (int c, const HipfExposureFrame &)
  {
    return c;
  }
  __device__ static uint32_t word (int v, const HipfExposureFrame &)
  {
    return (uint32_t) v;
  }
};

template <> struct Samples<uint16_t>
{
  static constexpr int kBits = 16;
  __device__ static int value (uint32_t word, const HipfExposureFrame & f)
  {
    return (int) (word >> f.shift) & ((1 << f.depth) - 1);
  }
  __device__ static int top8 (int v, const HipfExposureFrame & f)
  {
    return v >> (f.depth - 8);
  }
  __device__ static int colour (int c, const HipfExposureFrame & f)
  {
    return c * f.colour_scale;
  }
  __device__ static uint32_t word (int v, const HipfExposureFrame & f)
  {
    return (uint32_t) v << f.shift;
  }
};

template <typename T>
constexpr uint32_t kSampleMask = (1u << Samples<T>::kBits) - 1;

/* A pixel's samples (at most four bytes), sample k at bit kBits * k of the
 * word. */
template <typename T>
__device__ inline uint32_t load_pixel (const uint8_t * at, int channels)
{
  if (channels * (int) sizeof (T) == 4)
    return *reinterpret_cast<const uint32_t *>(at);
  const T *s = reinterpret_cast<const T *>(at);
  uint32_t px = 0;
  for (int k = 0; k < channels; ++k)
    px |= (uint32_t) s[k] << (Samples<T>::kBits * k);
  return px;
}

template <typename T>
__device__ inline void store_pixel (uint8_t * at, int channels, uint32_t px)
{
  if (channels * (int) sizeof (T) == 4) {
    *reinterpret_cast<uint32_t *>(at) = px;
    return;
  }
  T *s = reinterpret_cast<T *>(at);
  for (int k = 0; k < channels; ++k)
    s[k] = (T) (px >> (Samples<T>::kBits * k));
}

template <typename T>
__device__ inline int sample_of (uint32_t px, int k)
{
  return (px >> (Samples<T>::kBits * k)) & kSampleMask<T>;
}

/* The top eight bits of the value of the sample at @at. */
template <typename T>
__device__ inline int top8_at (const HipfExposureFrame & f,
    const uint8_t * at)
{
  using S = Samples<T>;
  return S::top8 (S::value (*reinterpret_cast<const T *>(at), f), f);
}

/* The luma that decides sample (x, y) of plane @plane, whose samples are
 * @px, in the 8-bit scale: its own where the plane holds luma, else plane
 * 0's at the sample's luma position. */
template <typename T>
__device__ inline int luma_for (const HipfExposureFrame & f, int plane,
    uint32_t px, const uint8_t * src, int x, int y)
{
  using S = Samples<T>;
  if (plane == 0) {
    if (f.luma_offset >= 0)
      return S::top8 (S::value (sample_of<T> (px, f.luma_offset), f), f);
    return (77 * sample_of<T> (px, f.rgb_offset[0]) +
        150 * sample_of<T> (px, f.rgb_offset[1]) +
        29 * sample_of<T> (px, f.rgb_offset[2]) + 128) >> 8;
  }
  const HipfExposurePlane & l = f.planes[0];
  const HipfExposurePlane & p = f.planes[plane];
  return top8_at<T> (f, src + (l.offset + (size_t) (y << p.h_sub) * l.pitch +
          (size_t) (x << p.w_sub) * l.channels * sizeof (T) +
          f.luma_offset * sizeof (T)));
}

/* Whether sample (x, y) of plane @p lies in the graph's box. */
__device__ inline bool in_box (const HipfExposureFrame & f,
    const HipfExposurePlane & p, int x, int y)
{
  const int gx = (x << p.w_sub) - f.graph_x, gy = (y << p.h_sub) - f.graph_y;
  return f.graph && gx >= 0 && gx < f.graph_width && gy >= 0
      && gy < f.graph_height;
}

/* The pixel @px of sample (x, y) of plane @plane, drawn (in the box: every
 * sample is drawn). */
template <typename T>
__device__ inline uint32_t shade (const HipfExposureFrame & f, int plane,
    uint32_t px, int luma, int x, int y, const uint16_t * heights)
{
  const HipfExposurePlane & p = f.planes[plane];
  const int lx = x << p.w_sub, ly = y << p.h_sub;
  int band = 0;
  for (int b = 1; b < HIPF_EXPOSURE_BANDS; ++b)
    band += luma >= f.band_start[b];
  const bool zebra = f.zebra && luma >= f.zebra_threshold
      && (((unsigned) (lx + ly) + f.frame) / 4) % 2 == 0;
  const bool graph = in_box (f, p, x, y);
  const int gx = lx - f.graph_x, gy = ly - f.graph_y;
  const int bin = graph ? gx * HIPF_HISTOGRAM_VALUES / f.graph_width : 0;
  const int above = f.graph_height - 1 - gy;
  const bool bar = graph && above < heights[bin];
  /* The RGB graph's colour: which of the three bars stand here. */
  const int bars = graph && f.graph_rgb ? (above < heights[bin]) << 2 |
      (above < heights[HIPF_HISTOGRAM_VALUES + bin]) << 1 |
      (above < heights[2 * HIPF_HISTOGRAM_VALUES + bin]) : 0;

  using S = Samples<T>;
  constexpr int bits = S::kBits;
  uint32_t out = px;
  for (int k = 0; k < p.channels; ++k) {
    const int role = p.roles[k];
    if (role == HIPF_ROLE_KEEP)
      continue;
    const int chroma = role == HIPF_ROLE_U || role == HIPF_ROLE_V;
    const int luma_role = role == HIPF_ROLE_Y;
    int v = S::value (sample_of<T> (px, k), f);
    if (f.false_color)
      v = S::colour (f.palette[band][role - HIPF_ROLE_R], f);
    if (zebra)
      v = S::colour (chroma ? 128 : luma_role ? 16 : 0, f);
    if (graph && f.graph_rgb)
      v = blend (S::colour (f.graph_colours[bars][role - HIPF_ROLE_R], f), v,
          f.graph_opacity);
    else if (graph)
      v = blend (S::colour (chroma ? 128 : luma_role ? (bar ? 235 : 16) :
              (bar ? 255 : 0), f), v, f.graph_opacity);
    out = (out & ~(kSampleMask<T> << (bits * k))) | (S::word (v, f) <<
        (bits * k));
  }
  return out;
}

/* A plane's drawing outside the box, as sample masks of its pixels: the
 * samples kept (alpha, padding), zebra's black, and each luma's false
 * colour (luma in the 8-bit scale). Built once a block, so that a pixel
 * costs a table read. */
struct PlaneLook
{
  uint32_t keep;
  uint32_t black;
  uint32_t colour[HIPF_HISTOGRAM_VALUES];
};

template <typename T>
__device__ inline void plane_look_init (const HipfExposureFrame & f,
    const HipfExposurePlane & p, PlaneLook & look)
{
  using S = Samples<T>;
  constexpr int bits = S::kBits;
  for (int luma = threadIdx.x; luma < HIPF_HISTOGRAM_VALUES;
      luma += blockDim.x) {
    int band = 0;
    for (int b = 1; b < HIPF_EXPOSURE_BANDS; ++b)
      band += luma >= f.band_start[b];
    uint32_t colour = 0, keep = 0, black = 0;
    for (int k = 0; k < p.channels; ++k) {
      const int role = p.roles[k];
      if (role == HIPF_ROLE_KEEP) {
        keep |= kSampleMask<T> << (bits * k);
        continue;
      }
      const int chroma = role == HIPF_ROLE_U || role == HIPF_ROLE_V;
      colour |= S::word (S::colour (f.palette[band][role - HIPF_ROLE_R], f),
          f) << (bits * k);
      black |= S::word (S::colour (chroma ? 128 : role == HIPF_ROLE_Y ? 16 :
              0, f), f) << (bits * k);
    }
    look.colour[luma] = colour;
    if (luma == 0) {
      look.keep = keep;
      look.black = black;
    }
  }
}

/* shade() for a sample outside the box, from the plane's tables. */
__device__ inline uint32_t shade_outside (const HipfExposureFrame & f,
    const HipfExposurePlane & p, const PlaneLook & look, uint32_t px,
    int luma, int x, int y)
{
  uint32_t out = px;
  if (f.false_color)
    out = (px & look.keep) | look.colour[luma];
  if (f.zebra && luma >= f.zebra_threshold
      && (((unsigned) ((x << p.w_sub) + (y << p.h_sub)) + f.frame) / 4) % 2
      == 0)
    out = (px & look.keep) | look.black;
  return out;
}

/* Counts @luma into @hist: once a warp where all its lanes hold the same
 * value (flat areas would otherwise queue 32 lanes on one counter). */
__device__ inline void count_luma (uint32_t * hist, int luma)
{
  const lane_mask mask = active_lanes ();
  const int leader = first_lane (mask);
  const uint32_t lead = shfl_among (mask, (uint32_t) luma, leader);
  if (all_among (mask, (uint32_t) luma == lead)) {
    if ((int) (threadIdx.x % kWarpSize) == leader)
      atomicAdd (&hist[luma], (uint32_t) lane_count (mask));
  } else {
    atomicAdd (&hist[luma], 1u);
  }
}

/* Every sample of plane blockIdx.y outside the graph's box (where COUNT,
 * which also counts plane 0's luma into @counts), rows dealt out to the
 * blocks. The frame description is copied to shared memory once: indexed
 * by plane, band and channel, it would otherwise be copied out of the
 * kernel's parameters for every thread. */
/* Sample @channel (plane, channel) of YUV pixel (x, y) of plane 0, whose
 * samples are @px, in the 8-bit scale: its own, or its block's in a
 * chroma plane. */
template <typename T>
__device__ inline int chroma_at (const HipfExposureFrame & f, int plane,
    int channel, uint32_t px, const uint8_t * src, int x, int y)
{
  using S = Samples<T>;
  if (plane == 0)
    return S::top8 (S::value (sample_of<T> (px, channel), f), f);
  const HipfExposurePlane & c = f.planes[plane];
  return top8_at<T> (f, src + (c.offset + (size_t) (y >> c.h_sub) * c.pitch +
          (size_t) (x >> c.w_sub) * c.channels * sizeof (T) +
          channel * sizeof (T)));
}

/* Counts pixel (x, y) of plane 0 into the graph's counters. */
template <typename T>
__device__ inline void count_pixel (const HipfExposureFrame & f,
    uint32_t * hist, uint32_t px, int luma, const uint8_t * src, int x,
    int y)
{
  if (!f.graph_rgb) {
    count_luma (hist, luma);
    return;
  }
  int rgb[3];
  if (f.luma_offset < 0) {
    for (int c = 0; c < 3; ++c)
      rgb[c] = sample_of<T> (px, f.rgb_offset[c]);
  } else if (f.u_plane < 0) {
    rgb[0] = rgb[1] = rgb[2] = luma;
  } else {
    hipf_exposure_yuv_to_rgb (luma, chroma_at<T> (f, f.u_plane, f.u_channel,
            px, src, x, y), chroma_at<T> (f, f.v_plane, f.v_channel, px, src,
            x, y), rgb);
  }
  for (int c = 0; c < 3; ++c)
    count_luma (hist + c * HIPF_HISTOGRAM_VALUES, rgb[c]);
}

template <bool COUNT>
constexpr size_t kDrawShared = sizeof (HipfExposureFrame) +
    sizeof (PlaneLook) + sizeof (uint32_t) * (COUNT ? kGraphWords : 1);

template <bool COUNT, typename T>
__global__ void __launch_bounds__ (kDrawThreads)
draw_frame (HipfExposureFrame frame, const uint8_t * __restrict__ src,
    uint8_t * __restrict__ dst, uint32_t * __restrict__ counts)
{
  __shared__ HipfExposureFrame f;
  __shared__ PlaneLook look;
  __shared__ uint32_t hist[COUNT ? kGraphWords : 1];
  if (threadIdx.x == 0)
    f = frame;
  if (COUNT)
    for (int i = threadIdx.x; i < kGraphWords; i += blockDim.x)
      hist[i] = 0;
  __syncthreads ();

  const int plane = blockIdx.y;
  const HipfExposurePlane & p = f.planes[plane];
  plane_look_init<T> (f, p, look);
  __syncthreads ();
  for (int y = blockIdx.x; y < p.height; y += gridDim.x) {
    const uint8_t *row = src + p.offset + (size_t) y * p.pitch;
    uint8_t *out = dst + p.offset + (size_t) y * p.pitch;
    for (int x = threadIdx.x; x < p.width; x += blockDim.x) {
      const size_t at = (size_t) x * p.channels * sizeof (T);
      const uint32_t px = load_pixel<T> (row + at, p.channels);
      const int luma = luma_for<T> (f, plane, px, src, x, y);
      if (COUNT && plane == 0)
        count_pixel<T> (f, hist, px, luma, src, x, y);
      if (COUNT && in_box (f, p, x, y))
        continue;
      store_pixel<T> (out + at, p.channels,
          shade_outside (f, p, look, px, luma, x, y));
    }
  }
  if (COUNT && plane == 0) {
    __syncthreads ();
    for (int i = threadIdx.x; i < kGraphWords; i += blockDim.x)
      if (hist[i])
        atomicAdd (&counts[i], hist[i]);
  }
}

/* Bar heights of @graphs histograms of 256 counts, against the largest
 * count of them all. */
__global__ void __launch_bounds__ (HIPF_HISTOGRAM_VALUES)
bar_heights (const uint32_t * __restrict__ counts, int graphs, int height,
    uint16_t * __restrict__ heights)
{
  __shared__ uint32_t largest;
  const int v = threadIdx.x;
  uint32_t most = 0;
  for (int g = 0; g < graphs; ++g)
    most = max (most, counts[g * HIPF_HISTOGRAM_VALUES + v]);
  if (v == 0)
    largest = 0;
  __syncthreads ();
  atomicMax (&largest, most);
  __syncthreads ();
  for (int g = 0; g < graphs; ++g) {
    const int i = g * HIPF_HISTOGRAM_VALUES + v;
    heights[i] = (uint16_t) ((uint64_t) counts[i] * height /
        (largest ? largest : 1));
  }
}

/* The samples of plane blockIdx.y inside the graph's box, plane columns
 * [x0, x0 + blockDim.x * gridDim.x) cut to the box, rows by blockIdx.z. */
template <typename T>
__global__ void __launch_bounds__ (kDrawThreads)
draw_box (HipfExposureFrame frame, const uint8_t * __restrict__ src,
    uint8_t * __restrict__ dst, const uint16_t * __restrict__ heights)
{
  __shared__ HipfExposureFrame f;
  if (threadIdx.x == 0)
    f = frame;
  __syncthreads ();

  const int plane = blockIdx.y;
  const HipfExposurePlane & p = f.planes[plane];
  /* Plane samples whose luma position lies in the box. */
  const int x0 = (f.graph_x + (1 << p.w_sub) - 1) >> p.w_sub;
  const int x1 = min (p.width, (f.graph_x + f.graph_width +
          (1 << p.w_sub) - 1) >> p.w_sub);
  const int y0 = (f.graph_y + (1 << p.h_sub) - 1) >> p.h_sub;
  const int y1 = min (p.height, (f.graph_y + f.graph_height +
          (1 << p.h_sub) - 1) >> p.h_sub);
  const int x = x0 + blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= x1)
    return;
  for (int y = y0 + blockIdx.z; y < y1; y += gridDim.z) {
    const size_t at = p.offset + (size_t) y * p.pitch +
        (size_t) x * p.channels * sizeof (T);
    const uint32_t px = load_pixel<T> (src + at, p.channels);
    store_pixel<T> (dst + at, p.channels, shade<T> (f, plane, px,
            luma_for<T> (f, plane, px, src, x, y), x, y, heights));
  }
}

/* The launches of one frame of samples of type T. */
template <typename T>
hipError_t draw (const HipfDeviceLimits * limits,
    const HipfExposureFrame * frame, const uint8_t * src, uint8_t * dst,
    void *scratch, hipStream_t stream)
{
  int height = 0, width = 0;
  for (int p = 0; p < frame->n_planes; ++p) {
    height = height > frame->planes[p].height ? height :
        frame->planes[p].height;
    width = width > frame->planes[p].width ? width : frame->planes[p].width;
  }
  uint32_t *counts = static_cast<uint32_t *>(scratch);
  if (!frame->graph) {
    const int grid = persistent_grid (limits, draw_frame<false, T>,
        kDrawThreads, 0, height, kDrawShared<false>);
    draw_frame<false, T> <<<dim3 (grid, frame->n_planes), kDrawThreads, 0,
        stream>>> (*frame, src, dst, counts);
    return hipGetLastError ();
  }
  const int graphs = frame->graph_rgb ? 3 : 1;
  hipError_t err = hipMemsetAsync (counts, 0,
      graphs * HIPF_HISTOGRAM_VALUES * sizeof (uint32_t), stream);
  if (err != hipSuccess)
    return err;
  const int grid = persistent_grid (limits, draw_frame<true, T>,
      kDrawThreads, 0, height, kDrawShared<true>);
  draw_frame<true, T> <<<dim3 (grid, frame->n_planes), kDrawThreads, 0,
      stream>>> (*frame, src, dst, counts);
  bar_heights <<<1, HIPF_HISTOGRAM_VALUES, 0, stream>>> (counts, graphs,
      frame->graph_height, heights_of (scratch));
  const int box_w = frame->graph_width < width ? frame->graph_width : width;
  const int box_h = frame->graph_height < height ? frame->graph_height :
      height;
  draw_box<T> <<<dim3 (ceil_div (box_w, kDrawThreads), frame->n_planes,
      box_h), kDrawThreads, 0, stream>>> (*frame, src, dst,
      heights_of (scratch));
  return hipGetLastError ();
}

}                               // namespace
}                               // namespace hipf

extern "C" hipError_t
hipf_exposure_draw (const HipfDeviceLimits * limits,
    const HipfExposureFrame * frame, const uint8_t * src, uint8_t * dst,
    void *scratch, hipStream_t stream)
{
  (void) hipGetLastError ();
  if (frame->n_planes < 1 || frame->n_planes > 3
      || (frame->graph && (frame->graph_width < 1 || frame->graph_height < 1
              || frame->graph_height > 65535)))
    return hipErrorInvalidValue;
  if (frame->sample_bytes == 1 && frame->depth == 8 && frame->shift == 0
      && frame->colour_scale == 1)
    return hipf::draw<uint8_t> (limits, frame, src, dst, scratch, stream);
  /* 16-bit samples: a value of 8 to 16 bits inside the word, an 8-bit
   * colour scaled no further than the value's range; at most two samples
   * a pixel, so that a pixel fits one 32-bit word. */
  for (int p = 0; p < frame->n_planes; ++p)
    if (frame->planes[p].channels > 2)
      return hipErrorInvalidValue;
  if (frame->sample_bytes != 2 || frame->depth < 8 || frame->depth > 16
      || frame->shift < 0 || frame->shift + frame->depth > 16
      || frame->colour_scale < 1
      || 255 * frame->colour_scale >= 1 << frame->depth)
    return hipErrorInvalidValue;
  return hipf::draw<uint16_t> (limits, frame, src, dst, scratch, stream);
}
