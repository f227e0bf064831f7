/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The exposure overlay (overlay/exposure.h has what it draws): a thread a
 * pixel of a plane, every plane in one launch, each sample read once and
 * written once; the graph's bar heights come from a one-block launch
 * before it.
 */
#include "hipf-device.cuh"
#include "overlay/exposure.h"

namespace hipf {
namespace {

constexpr int kDrawThreads = 256;

__global__ void __launch_bounds__ (HIPF_HISTOGRAM_VALUES)
bar_heights (const uint32_t * __restrict__ counts, int channel, int height,
    uint16_t * __restrict__ heights)
{
  __shared__ uint32_t largest;
  const int v = threadIdx.x;
  uint32_t n = 0;
  for (int k = 0; k < HIPF_HISTOGRAM_COPIES; ++k)
    n += counts[k * HIPF_HISTOGRAM_COPY_WORDS + channel *
        HIPF_HISTOGRAM_VALUES + v];
  if (v == 0)
    largest = 0;
  __syncthreads ();
  atomicMax (&largest, n);
  __syncthreads ();
  heights[v] = (uint16_t) ((uint64_t) n * height / (largest ? largest : 1));
}

__device__ inline int luma_at (const HipfExposureFrame & f,
    const uint8_t * src, int x, int y)
{
  const HipfExposurePlane & p = f.planes[0];
  const uint8_t *px = src + p.offset + (size_t) y * p.pitch +
      (size_t) x * p.channels;
  if (f.luma_offset >= 0)
    return px[f.luma_offset];
  return (77 * px[f.rgb_offset[0]] + 150 * px[f.rgb_offset[1]] +
      29 * px[f.rgb_offset[2]] + 128) >> 8;
}

__device__ inline int blend (int colour, int v, int a)
{
  return (a * colour + (255 - a) * v + 127) / 255;
}

__global__ void __launch_bounds__ (kDrawThreads)
draw (HipfExposureFrame f, const uint8_t * __restrict__ src,
    uint8_t * __restrict__ dst, const uint16_t * __restrict__ heights)
{
  const HipfExposurePlane & p = f.planes[blockIdx.z];
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= p.width || y >= p.height)
    return;
  /* The sample's luma position, and what it decides. */
  const int lx = x << p.w_sub, ly = y << p.h_sub;
  const int luma = luma_at (f, src, lx, ly);
  int band = 0;
  for (int b = 1; b < HIPF_EXPOSURE_BANDS; ++b)
    band += luma >= f.band_start[b];
  const bool zebra = f.zebra && luma >= f.zebra_threshold
      && ((lx + ly + (int) f.frame) / 4) % 2 == 0;
  const int gx = lx - f.graph_x, gy = ly - f.graph_y;
  const bool in_graph = f.graph && gx >= 0 && gx < f.graph_width && gy >= 0
      && gy < f.graph_height;
  const bool bar = in_graph
      && f.graph_height - 1 - gy < heights[gx * HIPF_HISTOGRAM_VALUES /
      f.graph_width];

  const size_t at = p.offset + (size_t) y * p.pitch + (size_t) x * p.channels;
  for (int k = 0; k < p.channels; ++k) {
    const int role = p.roles[k];
    int v = src[at + k];
    if (role != HIPF_ROLE_KEEP) {
      const int chroma = role == HIPF_ROLE_U || role == HIPF_ROLE_V;
      const int luma_role = role == HIPF_ROLE_Y;
      if (f.false_color)
        v = f.palette[band][role - HIPF_ROLE_R];
      if (zebra)
        v = chroma ? 128 : luma_role ? 16 : 0;
      if (in_graph)
        v = blend (chroma ? 128 : luma_role ? (bar ? 235 : 16) :
            (bar ? 255 : 0), v, f.graph_opacity);
    }
    dst[at + k] = (uint8_t) v;
  }
}

}                               // namespace
}                               // namespace hipf

extern "C" hipError_t
hipf_exposure_heights (const uint32_t * counts, int channel, int height,
    uint16_t * heights, hipStream_t stream)
{
  (void) hipGetLastError ();
  if (channel < 0 || channel >= HIPF_HISTOGRAM_MAX_CHANNELS || height < 1
      || height > 65535)
    return hipErrorInvalidValue;
  hipf::bar_heights <<<1, HIPF_HISTOGRAM_VALUES, 0, stream>>> (counts,
      channel, height, heights);
  return hipGetLastError ();
}

extern "C" hipError_t
hipf_exposure_draw (const HipfExposureFrame * frame, const uint8_t * src,
    uint8_t * dst, const uint16_t * heights, hipStream_t stream)
{
  (void) hipGetLastError ();
  if (frame->n_planes < 1 || frame->n_planes > 3
      || (frame->graph && (frame->graph_width < 1 || frame->graph_height < 1)))
    return hipErrorInvalidValue;
  int width = 0, height = 0;
  for (int p = 0; p < frame->n_planes; ++p) {
    width = width > frame->planes[p].width ? width : frame->planes[p].width;
    height = height > frame->planes[p].height ? height :
        frame->planes[p].height;
  }
  hipf::draw <<<dim3 (hipf::ceil_div (width, hipf::kDrawThreads), height,
      frame->n_planes), hipf::kDrawThreads, 0, stream>>> (*frame, src, dst,
      heights);
  return hipGetLastError ();
}
