/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * 2D masks on NVIDIA's tensor cores: integer matrix products of unsigned
 * 8-bit samples and signed 8-bit taps into exact 32-bit sums
 * (mma.m16n8k32 .u8.s8.s32).
 *
 * One product adds a mask row's taps into 128 outputs of a row: entry
 * (m, n) of the 16 x 8 result is output 8m + n, A's row m holds the 32
 * samples from 8m on, and B's column n holds the row's taps shifted down
 * by n (a band of zeros elsewhere). So a mask up to 25 wide takes one
 * product a row, one up to 31 wide two. A's rows start 8 samples apart,
 * so a thread's fragment is whole aligned words of a staged row, stored
 * a channel a plane so that a word holds 4 samples of one channel.
 *
 * A block stages its tile of samples border-extended, a plane per
 * channel, and every row's fragments of B. Each warp sums a few output
 * rows: every staged row it loads feeds each of them with the mask row
 * that weighs it. Taps beyond a signed byte are split into signed byte
 * digits (tap = d0 + 256 d1 + ...), a pass each, added up shifted: the
 * mask's bound (mask.h) keeps the whole sum in 32 bits, so the wrapping
 * adds give it exactly.
 */
#include "convolve/common.cuh"
#include "convolve/mma.cuh"
#include "convolve/stage.cuh"
#include "convolve/tuning.h"
#include "convolve/algorithms.h"

namespace hipf::conv {

#if defined(HIPF_PLATFORM_NVIDIA)
namespace {

struct MmaArgs
{
  Args a;
  int digits;
  int tiles_y;
  /* Samples left of an output that its tile starts: the mask's half
   * width and the delta, less than 4, that puts the tile's first sample
   * on a 4-pixel bound, so that a group of 4 is one load. B's taps start
   * delta rows down to make up for it. */
  int halo, delta;
  int src_align;                /* 16, 8, 4 or 1: what rows start on */
  int dst_words;
  int dst_pairs;                /* and on 8-byte bounds */
  /* The taps: a row (taps_x) and a column (taps_y, HIPF_CONVOLVE_MAX_TAPS
   * words on) whose products they are, or width by height of them. */
  int separable;
};

/* KS: products a mask row (32 columns of B each); MP: taps of more than
 * one digit. */
template <int C, int KS, bool MP>
__global__ void __launch_bounds__ (kMmaWarps * 32, MP ? 1 : 2)
convolve_mma (const uint8_t * __restrict__ src, size_t src_pitch,
    uint8_t * __restrict__ dst, size_t dst_pitch, MmaArgs args,
    const int * __restrict__ taps)
{
  constexpr int R = kMmaRowsPerWarp;
  /* A tile row: the 128 outputs' reach, and the columns the last products
   * read past it (taps of zero weigh them). */
  constexpr int kTileWidth = kMmaTileX - 8 + 32 * KS;
  constexpr int kGroups = kTileWidth / 4;
  const Args & a = args.a;
  extern __shared__ uint4 shared_words[];
  uint2 *btab = reinterpret_cast<uint2 *>(shared_words);
  uint8_t *tile = reinterpret_cast<uint8_t *>(btab +
      args.digits * a.mh * KS * 32);
  const int rows = kMmaTileY + a.mh - 1;
  const int tid = threadIdx.x, threads = kMmaWarps * 32;
  const int lane = tid & 31, g = lane >> 2, t = lane & 3;
  const int r0 = (tid >> 5) * R;
  const int x0 = blockIdx.x * kMmaTileX;

  /* B of digit p, mask row j, product s, for each lane: taps k - g of
   * rows k = 32 s + 4 t + {0..3} and 16 on. */
  for (int e = tid; e < args.digits * a.mh * KS * 32; e += threads) {
    const int l = e & 31, s = (e >> 5) % KS, j = (e >> 5) / KS % a.mh;
    const int p = (e >> 5) / KS / a.mh;
    uint32_t w[2] = { 0, 0 };
    for (int h = 0; h < 2; ++h)
      for (int b = 0; b < 4; ++b) {
        const int i = 32 * s + 16 * h + 4 * (l & 3) + b - (l >> 2) -
            args.delta;
        if (i >= 0 && i < a.mw)
          w[h] |= (uint32_t) (digit (args.separable ? taps[i] *
                  taps[HIPF_CONVOLVE_MAX_TAPS + j] : taps[j * a.mw + i], p)
              & 255) << 8 * b;
      }
    btab[e] = make_uint2 (w[0], w[1]);
  }

  for (int ty = blockIdx.y; ty < args.tiles_y; ty += gridDim.y) {
    const int y0 = ty * kMmaTileY;
    __syncthreads ();
    /* Stage 4 samples of each channel a thread a group, kStageBatch
     * groups' loads in flight before any is stored. */
    for (int e0 = tid; e0 < rows * kGroups; e0 += kStageBatch * threads) {
      uint32_t w[kStageBatch][C];
#pragma unroll
      for (int u = 0; u < kStageBatch; ++u) {
        const int e = e0 + u * threads, ly = e / kGroups;
        if (e < rows * kGroups)
          load_group<C> (src, src_pitch, a, args.src_align,
              y0 + ly - a.mh / 2, x0 - args.halo + 4 * (e - ly * kGroups), w[u]);
      }
#pragma unroll
      for (int u = 0; u < kStageBatch; ++u) {
        const int e = e0 + u * threads, ly = e / kGroups;
        if (e < rows * kGroups)
#pragma unroll
          for (int c = 0; c < C; ++c)
            reinterpret_cast<uint32_t *>(tile + (c * rows + ly) *
                kTileWidth)[e - ly * kGroups] = w[u][c];
      }
    }
    __syncthreads ();

    int acc[R][C][4], total[MP ? R : 1][MP ? C : 1][4];
    for (int p = 0; p < args.digits; ++p) {
#pragma unroll
      for (int r = 0; r < R; ++r)
#pragma unroll
        for (int c = 0; c < C; ++c)
#pragma unroll
          for (int i = 0; i < 4; ++i)
            acc[r][c][i] = 0;
      const uint2 *bp = btab + p * a.mh * KS * 32 + lane;
      for (int yy = 0; yy < R + a.mh - 1; ++yy) {
        uint32_t af[C][KS][4];
#pragma unroll
        for (int c = 0; c < C; ++c) {
          if (!(a.channel_mask >> c & 1))
            continue;
          const uint8_t *rp = tile + (c * rows + r0 + yy) * kTileWidth +
              8 * g + 4 * t;
#pragma unroll
          for (int s = 0; s < KS; ++s) {
            af[c][s][0] = *reinterpret_cast<const uint32_t *>(rp + 32 * s);
            af[c][s][1] = *reinterpret_cast<const uint32_t *>(rp + 32 * s + 64);
            af[c][s][2] = *reinterpret_cast<const uint32_t *>(rp + 32 * s + 16);
            af[c][s][3] = *reinterpret_cast<const uint32_t *>(rp + 32 * s + 80);
          }
        }
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const int j = yy - r;
          if (j < 0 || j >= a.mh)
            continue;
#pragma unroll
          for (int s = 0; s < KS; ++s) {
            const uint2 b = bp[(j * KS + s) * 32];
#pragma unroll
            for (int c = 0; c < C; ++c)
              if (a.channel_mask >> c & 1)
                mma_bytes<false, true> (acc[r][c], af[c][s], b);
          }
        }
      }
      if (MP) {
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
          for (int c = 0; c < C; ++c)
#pragma unroll
            for (int i = 0; i < 4; ++i)
              total[MP ? r : 0][MP ? c : 0][i] = (int) ((p ? (uint32_t)
                      total[MP ? r : 0][MP ? c : 0][i] : 0u) +
                  ((uint32_t) acc[r][c][i] << 8 * p));
      }
    }

    /* Thread (g, t) holds outputs 8 m + 2 t and the next, m = g and
     * g + 8, of each of its rows. */
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int y = y0 + r0 + r;
      if (y >= a.height)
        break;
      uint8_t *out = dst + (size_t) y * dst_pitch;
      const uint8_t *centre = tile + (r0 + r + a.mh / 2) * kTileWidth +
          args.halo;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int xl = 8 * (g + 8 * h) + 2 * t, x = x0 + xl;
        uint8_t v[2][C];
#pragma unroll
        for (int k = 0; k < 2; ++k)
#pragma unroll
          for (int c = 0; c < C; ++c)
            v[k][c] = a.channel_mask >> c & 1 ?
                output (MP ? total[MP ? r : 0][MP ? c : 0][2 * h + k] :
                acc[r][c][2 * h + k], a) :
                centre[c * rows * kTileWidth + xl + k];
        if (C == 4 && args.dst_pairs && x + 1 < a.width) {
          *reinterpret_cast<uint2 *>(out + (size_t) x * 4) =
              make_uint2 (v[0][0] | v[0][1 % C] << 8 | v[0][2 % C] << 16 |
              (uint32_t) v[0][3 % C] << 24, v[1][0] | v[1][1 % C] << 8 |
              v[1][2 % C] << 16 | (uint32_t) v[1][3 % C] << 24);
          continue;
        }
#pragma unroll
        for (int k = 0; k < 2; ++k) {
          if (x + k >= a.width)
            break;
          if (C == 4 && args.dst_words) {
            *reinterpret_cast<uint32_t *>(out + (size_t) (x + k) * 4) =
                v[k][0] | v[k][1 % C] << 8 | v[k][2 % C] << 16 |
                (uint32_t) v[k][3 % C] << 24;
            continue;
          }
#pragma unroll
          for (int c = 0; c < C; ++c)
            out[(size_t) (x + k) * C + c] = v[k][c];
        }
      }
    }
  }
}

template <int C, int KS, bool MP>
hipError_t launch (const HipfDeviceLimits * limits, const MmaArgs & args,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    const int *taps, hipStream_t stream)
{
  const auto kernel = convolve_mma<C, KS, MP>;
  const size_t shared = (size_t) args.digits * args.a.mh * KS * 32 *
      sizeof (uint2) + (size_t) C * (kMmaTileY + args.a.mh - 1) *
      (kMmaTileX - 8 + 32 * KS);
  if (shared > limits->shared_mem_optin)
    return hipErrorInvalidValue;
  /* Lets the kernel ask for more than the default 48 KiB. */
  (void) resident_blocks ((const void *) kernel, kMmaWarps * 32, shared,
      limits->shared_mem_optin);
  const int grid_y = args.tiles_y < 65535 ? args.tiles_y : 65535;
  kernel <<<dim3 (ceil_div (args.a.width, kMmaTileX), grid_y),
      kMmaWarps * 32, shared, stream>>> (src, src_pitch, dst, dst_pitch,
      args, taps);
  return hipGetLastError ();
}

template <int C>
hipError_t launch_c (const HipfDeviceLimits * limits, const MmaArgs & args,
    int ks, const uint8_t * src, size_t src_pitch, uint8_t * dst,
    size_t dst_pitch, const int *taps, hipStream_t stream)
{
  if (ks == 1)
    return args.digits > 1 ?
        launch<C, 1, true> (limits, args, src, src_pitch, dst, dst_pitch,
        taps, stream) : launch<C, 1, false> (limits, args, src, src_pitch,
        dst, dst_pitch, taps, stream);
  return args.digits > 1 ?
      launch<C, 2, true> (limits, args, src, src_pitch, dst, dst_pitch,
      taps, stream) : launch<C, 2, false> (limits, args, src, src_pitch,
      dst, dst_pitch, taps, stream);
}

}                               // namespace

bool mma_available ()
{
  static int known[16];         /* 0: not asked, 1: no, 2: yes */
  int device = 0;
  (void) hipGetDevice (&device);
  if (device < 0 || device >= 16)
    return false;
  if (!known[device]) {
    /* The kernel's code as this device runs it: JIT-compiled PTX of a
     * target before 8.0 would have no tensor-core products. */
    cudaFuncAttributes attr;
    const bool yes = cudaFuncGetAttributes (&attr,
        convolve_mma<4, 1, false>) == cudaSuccess && attr.ptxVersion >= 80
        && attr.binaryVersion >= 80;
    (void) hipGetLastError ();
    known[device] = yes ? 2 : 1;
  }
  return known[device] == 2;
}

hipError_t run_mma (const HipfDeviceLimits * limits,
    const HipfConvolvePlane * p, const HipfConvolveMask * m, int digits,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    const int *taps, hipStream_t stream)
{
  MmaArgs args;
  const int mw = m->separable ? m->n_x : m->width;
  const int mh = m->separable ? m->n_y : m->height;
  args.a = make_args (p, m, mw, mh);
  args.separable = m->separable;
  args.digits = digits;
  args.tiles_y = ceil_div (p->height, kMmaTileY);
  const uintptr_t src_bits = (uintptr_t) src | src_pitch;
  args.src_align = src_bits % 16 == 0 ? 16 : src_bits % 8 == 0 ? 8 :
      src_bits % 4 == 0 ? 4 : 1;
  args.delta = (4 - mw / 2 % 4) % 4;
  args.halo = mw / 2 + args.delta;
  args.dst_words = (((uintptr_t) dst | dst_pitch) & 3) == 0;
  args.dst_pairs = (((uintptr_t) dst | dst_pitch) & 7) == 0;
  const int ks = mw + 7 + args.delta <= 32 ? 1 : 2;
  switch (p->channels) {
    case 1: return launch_c<1> (limits, args, ks, src, src_pitch, dst, dst_pitch, taps, stream);
    case 2: return launch_c<2> (limits, args, ks, src, src_pitch, dst, dst_pitch, taps, stream);
    case 3: return launch_c<3> (limits, args, ks, src, src_pitch, dst, dst_pitch, taps, stream);
    default: return launch_c<4> (limits, args, ks, src, src_pitch, dst, dst_pitch, taps, stream);
  }
}

#else /* AMD: no such products; the direct kernel runs instead. */

bool mma_available ()
{
  return false;
}

hipError_t run_mma (const HipfDeviceLimits *, const HipfConvolvePlane *,
    const HipfConvolveMask *, int, const uint8_t *, size_t, uint8_t *,
    size_t, const int *, hipStream_t)
{
  return hipErrorInvalidValue;
}

#endif

}                               // namespace hipf::conv
