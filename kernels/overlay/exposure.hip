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

__device__ inline int blend (int colour, int v, int a)
{
  return (a * colour + (255 - a) * v + 127) / 255;
}

/* Up to four bytes of a pixel, byte k of the word being channel k. */
__device__ inline uint32_t load_pixel (const uint8_t * at, int channels)
{
  if (channels == 4)
    return *reinterpret_cast<const uint32_t *>(at);
  uint32_t px = 0;
  for (int k = 0; k < channels; ++k)
    px |= (uint32_t) at[k] << (8 * k);
  return px;
}

__device__ inline void store_pixel (uint8_t * at, int channels, uint32_t px)
{
  if (channels == 4) {
    *reinterpret_cast<uint32_t *>(at) = px;
    return;
  }
  for (int k = 0; k < channels; ++k)
    at[k] = (uint8_t) (px >> (8 * k));
}

__device__ inline int byte_of (uint32_t px, int k)
{
  return (px >> (8 * k)) & 0xff;
}

/* The luma that decides sample (x, y) of plane @plane, whose bytes are
 * @px: its own where the plane holds luma, else plane 0's at the sample's
 * luma position. */
__device__ inline int luma_for (const HipfExposureFrame & f, int plane,
    uint32_t px, const uint8_t * src, int x, int y)
{
  if (plane == 0) {
    if (f.luma_offset >= 0)
      return byte_of (px, f.luma_offset);
    return (77 * byte_of (px, f.rgb_offset[0]) +
        150 * byte_of (px, f.rgb_offset[1]) +
        29 * byte_of (px, f.rgb_offset[2]) + 128) >> 8;
  }
  const HipfExposurePlane & l = f.planes[0];
  const HipfExposurePlane & p = f.planes[plane];
  return src[l.offset + (size_t) (y << p.h_sub) * l.pitch +
      (size_t) (x << p.w_sub) * l.channels + f.luma_offset];
}

/* Whether sample (x, y) of plane @p lies in the graph's box. */
__device__ inline bool in_box (const HipfExposureFrame & f,
    const HipfExposurePlane & p, int x, int y)
{
  const int gx = (x << p.w_sub) - f.graph_x, gy = (y << p.h_sub) - f.graph_y;
  return f.graph && gx >= 0 && gx < f.graph_width && gy >= 0
      && gy < f.graph_height;
}

/* The pixel @px of sample (x, y) of plane @plane, drawn. */
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

  uint32_t out = px;
  for (int k = 0; k < p.channels; ++k) {
    const int role = p.roles[k];
    if (role == HIPF_ROLE_KEEP)
      continue;
    const int chroma = role == HIPF_ROLE_U || role == HIPF_ROLE_V;
    const int luma_role = role == HIPF_ROLE_Y;
    int v = byte_of (px, k);
    if (f.false_color)
      v = f.palette[band][role - HIPF_ROLE_R];
    if (zebra)
      v = chroma ? 128 : luma_role ? 16 : 0;
    if (graph && f.graph_rgb)
      v = blend (f.graph_colours[bars][role - HIPF_ROLE_R], v,
          f.graph_opacity);
    else if (graph)
      v = blend (chroma ? 128 : luma_role ? (bar ? 235 : 16) :
          (bar ? 255 : 0), v, f.graph_opacity);
    out = (out & ~(0xffu << (8 * k))) | ((uint32_t) v << (8 * k));
  }
  return out;
}

/* A plane's drawing outside the box, as byte masks of its pixels: the
 * bytes kept (alpha, padding), zebra's black, and each luma's false
 * colour. Built once a block, so that a pixel costs a table read. */
struct PlaneLook
{
  uint32_t keep;
  uint32_t black;
  uint32_t colour[HIPF_HISTOGRAM_VALUES];
};

__device__ inline void plane_look_init (const HipfExposureFrame & f,
    const HipfExposurePlane & p, PlaneLook & look)
{
  for (int luma = threadIdx.x; luma < HIPF_HISTOGRAM_VALUES;
      luma += blockDim.x) {
    int band = 0;
    for (int b = 1; b < HIPF_EXPOSURE_BANDS; ++b)
      band += luma >= f.band_start[b];
    uint32_t colour = 0, keep = 0, black = 0;
    for (int k = 0; k < p.channels; ++k) {
      const int role = p.roles[k];
      if (role == HIPF_ROLE_KEEP) {
        keep |= 0xffu << (8 * k);
        continue;
      }
      const int chroma = role == HIPF_ROLE_U || role == HIPF_ROLE_V;
      colour |= (uint32_t) f.palette[band][role - HIPF_ROLE_R] << (8 * k);
      black |= (uint32_t) (chroma ? 128 : role == HIPF_ROLE_Y ? 16 : 0)
          << (8 * k);
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
 * bytes are @px: its own, or its block's in a chroma plane. */
__device__ inline int chroma_at (const HipfExposureFrame & f, int plane,
    int channel, uint32_t px, const uint8_t * src, int x, int y)
{
  if (plane == 0)
    return byte_of (px, channel);
  const HipfExposurePlane & c = f.planes[plane];
  return src[c.offset + (size_t) (y >> c.h_sub) * c.pitch +
      (size_t) (x >> c.w_sub) * c.channels + channel];
}

/* Counts pixel (x, y) of plane 0 into the graph's counters. */
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
      rgb[c] = byte_of (px, f.rgb_offset[c]);
  } else if (f.u_plane < 0) {
    rgb[0] = rgb[1] = rgb[2] = luma;
  } else {
    hipf_exposure_yuv_to_rgb (luma, chroma_at (f, f.u_plane, f.u_channel,
            px, src, x, y), chroma_at (f, f.v_plane, f.v_channel, px, src,
            x, y), rgb);
  }
  for (int c = 0; c < 3; ++c)
    count_luma (hist + c * HIPF_HISTOGRAM_VALUES, rgb[c]);
}

template <bool COUNT>
constexpr size_t kDrawShared = sizeof (HipfExposureFrame) +
    sizeof (PlaneLook) + sizeof (uint32_t) * (COUNT ? kGraphWords : 1);

template <bool COUNT>
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
  plane_look_init (f, p, look);
  __syncthreads ();
  for (int y = blockIdx.x; y < p.height; y += gridDim.x) {
    const uint8_t *row = src + p.offset + (size_t) y * p.pitch;
    uint8_t *out = dst + p.offset + (size_t) y * p.pitch;
    for (int x = threadIdx.x; x < p.width; x += blockDim.x) {
      const uint32_t px = load_pixel (row + (size_t) x * p.channels,
          p.channels);
      const int luma = luma_for (f, plane, px, src, x, y);
      if (COUNT && plane == 0)
        count_pixel (f, hist, px, luma, src, x, y);
      if (COUNT && in_box (f, p, x, y))
        continue;
      store_pixel (out + (size_t) x * p.channels, p.channels,
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
        (size_t) x * p.channels;
    const uint32_t px = load_pixel (src + at, p.channels);
    store_pixel (dst + at, p.channels, shade (f, plane, px,
            luma_for (f, plane, px, src, x, y), x, y, heights));
  }
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
  int height = 0, width = 0;
  for (int p = 0; p < frame->n_planes; ++p) {
    height = height > frame->planes[p].height ? height :
        frame->planes[p].height;
    width = width > frame->planes[p].width ? width : frame->planes[p].width;
  }
  uint32_t *counts = static_cast<uint32_t *>(scratch);
  if (!frame->graph) {
    const int grid = hipf::persistent_grid (limits, hipf::draw_frame<false>,
        hipf::kDrawThreads, 0, height, hipf::kDrawShared<false>);
    hipf::draw_frame<false> <<<dim3 (grid, frame->n_planes),
        hipf::kDrawThreads, 0, stream>>> (*frame, src, dst, counts);
    return hipGetLastError ();
  }
  const int graphs = frame->graph_rgb ? 3 : 1;
  hipError_t err = hipMemsetAsync (counts, 0,
      graphs * HIPF_HISTOGRAM_VALUES * sizeof (uint32_t), stream);
  if (err != hipSuccess)
    return err;
  const int grid = hipf::persistent_grid (limits, hipf::draw_frame<true>,
      hipf::kDrawThreads, 0, height, hipf::kDrawShared<true>);
  hipf::draw_frame<true> <<<dim3 (grid, frame->n_planes),
      hipf::kDrawThreads, 0, stream>>> (*frame, src, dst, counts);
  hipf::bar_heights <<<1, HIPF_HISTOGRAM_VALUES, 0, stream>>> (counts,
      graphs, frame->graph_height, hipf::heights_of (scratch));
  const int box_w = frame->graph_width < width ? frame->graph_width : width;
  const int box_h = frame->graph_height < height ? frame->graph_height :
      height;
  hipf::draw_box <<<dim3 (hipf::ceil_div (box_w, hipf::kDrawThreads),
      frame->n_planes, box_h), hipf::kDrawThreads, 0, stream>>> (*frame, src,
      dst, hipf::heights_of (scratch));
  return hipGetLastError ();
}
