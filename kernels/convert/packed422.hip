/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Packed 4:2:2 to planes and back: a thread a pair of pixels, four bytes
 * read or written at once. The copy is bound by memory, as a device copy
 * of the frame is; the blur that follows reads the planes as Y42B.
 */
#include "hipf-device.cuh"
#include "convert/packed422.h"

namespace hipf {
namespace {

/* Threads a block: enough pairs a row to keep the loads wide, few enough
 * that narrow frames still fill the device. */
constexpr int kPackThreads = 256;

__global__ void __launch_bounds__ (kPackThreads)
unpack_422 (HipfPacked422Frame f, int first)
{
  const int pairs = (f.width + 1) / 2;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = first + blockIdx.y;
  if (x >= pairs)
    return;
  const uchar4 p = *reinterpret_cast<const uchar4 *> (f.packed_src +
      y * f.packed_pitch + 4 * (size_t) x);
  const uint8_t b[4] = { p.x, p.y, p.z, p.w };
  uint8_t *yrow = f.planes[0] + y * f.pitches[0];
  yrow[2 * x] = b[f.order.y0];
  if (2 * x + 1 < f.width)
    yrow[2 * x + 1] = b[f.order.y1];
  f.planes[1][y * f.pitches[1] + x] = b[f.order.u];
  f.planes[2][y * f.pitches[2] + x] = b[f.order.v];
}

__global__ void __launch_bounds__ (kPackThreads)
pack_422 (HipfPacked422Frame f, int first)
{
  const int pairs = (f.width + 1) / 2;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = first + blockIdx.y;
  if (x >= pairs)
    return;
  const uint8_t *yrow = f.planes[0] + y * f.pitches[0];
  const uint8_t y0 = yrow[2 * x];
  uint8_t b[4];
  b[f.order.y0] = y0;
  b[f.order.y1] = 2 * x + 1 < f.width ? yrow[2 * x + 1] : y0;
  b[f.order.u] = f.planes[1][y * f.pitches[1] + x];
  b[f.order.v] = f.planes[2][y * f.pitches[2] + x];
  *reinterpret_cast<uchar4 *> (f.packed_dst + y * f.packed_pitch +
      4 * (size_t) x) = make_uchar4 (b[0], b[1], b[2], b[3]);
}

/* Four-byte accesses: the packed rows must start on four bytes. */
bool packed_aligned (const void *p, size_t pitch)
{
  return ((uintptr_t) p % 4) == 0 && pitch % 4 == 0;
}

hipError_t launch (void (*kernel) (HipfPacked422Frame, int),
    const HipfPacked422Frame & f, int first, int end, hipStream_t stream)
{
  (void) hipGetLastError ();
  if (f.width <= 0 || first < 0 || end > f.height || first > end)
    return hipErrorInvalidValue;
  if (first == end)
    return hipSuccess;
  const int pairs = (f.width + 1) / 2;
  kernel <<<dim3 (ceil_div (pairs, kPackThreads), end - first),
      kPackThreads, 0, stream>>> (f, first);
  return hipGetLastError ();
}

}                               // namespace
}                               // namespace hipf

extern "C" hipError_t
hipf_unpack_422 (const HipfPacked422Frame * frame, int first, int end,
    hipStream_t stream)
{
  if (!hipf::packed_aligned (frame->packed_src, frame->packed_pitch))
    return hipErrorInvalidValue;
  return hipf::launch (hipf::unpack_422, *frame, first, end, stream);
}

extern "C" hipError_t
hipf_pack_422 (const HipfPacked422Frame * frame, int first, int end,
    hipStream_t stream)
{
  if (!hipf::packed_aligned (frame->packed_dst, frame->packed_pitch))
    return hipErrorInvalidValue;
  return hipf::launch (hipf::pack_422, *frame, first, end, stream);
}
