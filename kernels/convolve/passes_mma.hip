/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Separable masks on NVIDIA's tensor cores, both passes in one kernel,
 * the row sums kept in shared memory between them.
 *
 * A block stages its tile of samples, border-extended, a plane per
 * channel, then takes each channel in turn:
 *
 * - The row pass is a product of the row's taps, laid out as a band, by
 *   the samples: D = A B with A (16 x 32) the taps that weigh a chunk of
 *   32 samples into 16 outputs of a row (signed bytes) and B (32 x 8)
 *   those samples of 8 rows. Each output group of 16 reads 3 chunks for
 *   a 61-tap row; two groups share them.
 * - Each row sum is split into byte digits (the low ones unsigned, the
 *   top one signed) and stored by columns, so that the column pass reads
 *   32 rows of a column as 8 words.
 * - The column pass is a product of those digits (A: 16 columns by 32
 *   rows) by the column's taps as a band (B: 32 rows into 8 outputs), a
 *   product per digit, added up shifted.
 *
 * Taps beyond a signed byte are split into digits too, a product each.
 * The mask's bound (mask.h) keeps every row sum and the whole sum in 32
 * bits, so the wrapping adds give them exactly. The outputs of all the
 * channels are gathered in shared memory and stored in whole rows.
 */
#include "convolve/common.cuh"
#include "convolve/mma.cuh"
#include "convolve/stage.cuh"
#include "convolve/tuning.h"
#include "convolve/algorithms.h"

namespace hipf::conv {

#if defined(HIPF_PLATFORM_NVIDIA)
namespace {

constexpr int kTX = kPassTileX, kTY = kPassTileY;
constexpr int kThreads = kPassWarps * 32;

struct PassArgs
{
  Args a;                       /* mw, mh: the row's and the column's taps */
  int src_align;                /* 16, 8, 4 or 1: what rows start on */
  int dst_vec;                  /* rows start on 16-byte bounds */
  int tiles_x, tiles_y;
  /* Staged columns left of the tile: the row's half width rounded up to
   * 4, so that a group of 4 samples is one load. */
  int pad_x;
  /* 32-sample chunks a pair of output groups reads in the row pass, and
   * 32-row chunks a group of 8 output rows reads in the column pass. */
  int ksh, ksv;
  int rows;                     /* staged rows: kTY - 32 + 32 ksv */
  int row_pitch;                /* bytes a staged row of samples */
  int sum_pitch;                /* bytes a column of row-sum digits */
  int dx, dy;                   /* signed byte digits of the taps */
  int nd;                       /* byte digits of a row sum */
};

/* Shared memory: the products' tap fragments, the samples, a channel's
 * row-sum digits and the outputs. */
struct Layout
{
  size_t btab, smp, rsd, out, total;
};

__host__ __device__ inline Layout layout (const PassArgs & p, int C)
{
  Layout l;
  l.btab = (size_t) p.dx * 2 * p.ksh * 32 * sizeof (uint4);
  l.smp = l.btab + (size_t) p.dy * 4 * p.ksv * 32 * sizeof (uint2);
  l.rsd = l.smp + (size_t) C * p.rows * p.row_pitch;
  l.out = l.rsd + (size_t) p.nd * kTX * p.sum_pitch;
  l.total = l.out + (size_t) kTY * kTX * C;
  return l;
}

template <int C>
__global__ void __launch_bounds__ (kThreads, 2)
convolve_passes_mma (const uint8_t * __restrict__ src, size_t src_pitch,
    uint8_t * __restrict__ dst, size_t dst_pitch, PassArgs p,
    const int * __restrict__ taps)
{
  const Args & a = p.a;
  const Layout l = layout (p, C);
  extern __shared__ uint4 shared_words[];
  uint8_t *base = reinterpret_cast<uint8_t *>(shared_words);
  const uint4 *atab = shared_words;
  const uint2 *btab = reinterpret_cast<const uint2 *>(base + l.btab);
  uint8_t *smp = base + l.smp, *rsd = base + l.rsd, *out = base + l.out;
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const int g = lane >> 2, t = lane & 3;
  const int hx = a.mw / 2, hy = a.mh / 2;

  /* A of the row pass, digit e, output group of parity q (16 q outputs
   * into a pair's chunks), chunk s: entry (m, k) weighs sample k of the
   * chunk into output m. */
  for (int e = tid; e < p.dx * 2 * p.ksh * 32; e += kThreads) {
    const int ln = e & 31, s = (e >> 5) % p.ksh, q = (e >> 5) / p.ksh % 2;
    const int dg = (e >> 5) / p.ksh / 2, lg = ln >> 2, lt = ln & 3;
    uint32_t w[4] = { 0, 0, 0, 0 };
    for (int r = 0; r < 4; ++r)
      for (int b = 0; b < 4; ++b) {
        const int i = 32 * s + 16 * (r >> 1) + 4 * lt + b - lg - 8 * (r & 1)
            - 16 * q - p.pad_x + hx;
        if (i >= 0 && i < a.mw)
          w[r] |= (uint32_t) (digit (taps[i], dg) & 255) << 8 * b;
      }
    reinterpret_cast<uint4 *>(base)[e] = make_uint4 (w[0], w[1], w[2], w[3]);
  }
  /* B of the column pass, digit e, output rows 8 v on in their chunk,
   * chunk s: entry (k, n) weighs row k of the chunk into output row n. */
  for (int e = tid; e < p.dy * 4 * p.ksv * 32; e += kThreads) {
    const int ln = e & 31, s = (e >> 5) % p.ksv, v = (e >> 5) / p.ksv % 4;
    const int dg = (e >> 5) / p.ksv / 4, lg = ln >> 2, lt = ln & 3;
    uint32_t w[2] = { 0, 0 };
    for (int h = 0; h < 2; ++h)
      for (int b = 0; b < 4; ++b) {
        const int j = 32 * s + 16 * h + 4 * lt + b - lg - 8 * v;
        if (j >= 0 && j < a.mh)
          w[h] |= (uint32_t) (digit (taps[HIPF_CONVOLVE_MAX_TAPS + j], dg)
              & 255) << 8 * b;
      }
    reinterpret_cast<uint2 *>(base + l.btab)[e] = make_uint2 (w[0], w[1]);
  }

  const int sw = kTX - 32 + 32 * p.ksh, groups = sw / 4;
  /* Blocks stay resident and take tiles in turn, along rows of tiles,
   * so that their tables are built once. */
  for (long long tile = blockIdx.x; tile < (long long) p.tiles_x * p.tiles_y;
      tile += gridDim.x) {
    const int x0 = (int) (tile % p.tiles_x) * kTX;
    const int y0 = (int) (tile / p.tiles_x) * kTY;
    __syncthreads ();
    /* Staged row r is row y0 - hy + r, column i is x0 - pad_x + i. */
    for (int e0 = tid; e0 < p.rows * groups; e0 += kStageBatch * kThreads) {
      uint32_t w[kStageBatch][C];
#pragma unroll
      for (int u = 0; u < kStageBatch; ++u) {
        const int e = e0 + u * kThreads, r = e / groups;
        if (e < p.rows * groups)
          load_group<C> (src, src_pitch, a, p.src_align, y0 - hy + r,
              x0 - p.pad_x + 4 * (e - r * groups), w[u]);
      }
#pragma unroll
      for (int u = 0; u < kStageBatch; ++u) {
        const int e = e0 + u * kThreads, r = e / groups;
        if (e < p.rows * groups)
#pragma unroll
          for (int c = 0; c < C; ++c)
            reinterpret_cast<uint32_t *>(smp + (c * p.rows + r) *
                p.row_pitch)[e - r * groups] = w[u][c];
      }
    }
    __syncthreads ();

#pragma unroll 1
    for (int c = 0; c < C; ++c) {
      if (!(a.channel_mask >> c & 1)) {
        for (int e = tid; e < kTY * kTX; e += kThreads) {
          const int yl = e / kTX, xl = e - yl * kTX;
          out[e * C + c] = smp[(c * p.rows + hy + yl) * p.row_pitch +
              p.pad_x + xl];
        }
        continue;
      }
      /* Row pass: a warp takes groups of 8 staged rows, and in each a
       * pair of output groups (32 columns) at a time. */
      for (int job = warp; job < p.rows / 8 * (kTX / 32);
          job += kPassWarps) {
        const int rg = job % (p.rows / 8), pair = job / (p.rows / 8);
        int rs[2][4] = { {0, 0, 0, 0}, {0, 0, 0, 0} };
        for (int dg = 0; dg < p.dx; ++dg) {
          int acc[2][4] = { {0, 0, 0, 0}, {0, 0, 0, 0} };
          /* B: rows 8 rg on, 16 bytes at 32 s and 16 more. */
          const uint8_t *rp = smp + (c * p.rows + 8 * rg + (lane & 7)) *
              p.row_pitch + 32 * pair + 16 * (lane >> 3 & 1);
          for (int s = 0; s < p.ksh; ++s) {
            const uint2 b = load_matrix_pair (rp + 32 * s);
#pragma unroll
            for (int q = 0; q < 2; ++q) {
              const uint4 af = atab[((dg * 2 + q) * p.ksh + s) * 32 + lane];
              const uint32_t fa[4] = { af.x, af.y, af.z, af.w };
              mma_bytes<true, false> (acc[q], fa, b);
            }
          }
#pragma unroll
          for (int q = 0; q < 2; ++q)
#pragma unroll
            for (int i = 0; i < 4; ++i)
              rs[q][i] = (int) ((uint32_t) rs[q][i] +
                  ((uint32_t) acc[q][i] << 8 * dg));
        }
        /* Thread (g, t) holds the sums of columns g and g + 8 of each
         * group, rows 2t and 2t + 1 of the row group: a digit of the two
         * is one 2-byte store down the column. */
#pragma unroll
        for (int q = 0; q < 2; ++q)
#pragma unroll
          for (int hm = 0; hm < 2; ++hm) {
            const int xl = 32 * pair + 16 * q + g + 8 * hm;
            const uint32_t v0 = (uint32_t) rs[q][2 * hm];
            const uint32_t v1 = (uint32_t) rs[q][2 * hm + 1];
            for (int d = 0; d < p.nd; ++d)
              *reinterpret_cast<uint16_t *>(rsd + (d * kTX + xl) *
                  p.sum_pitch + 8 * rg + 2 * t) =
                  (uint16_t) __byte_perm (v0, v1, d | (4 + d) << 4);
          }
      }
      __syncthreads ();
      /* Column pass: a warp takes groups of 8 output rows, a pair of
       * 16-column groups at a time. */
      for (int job = warp; job < kTY / 8 * (kTX / 32); job += kPassWarps) {
        const int og = job % (kTY / 8), pair = job / (kTY / 8);
        const int v = og % 4, cs = 32 * (og / 4);
        int total[2][4] = { {0, 0, 0, 0}, {0, 0, 0, 0} };
        for (int d = 0; d < p.nd; ++d)
          for (int dg = 0; dg < p.dy && d + dg < 4; ++dg) {
            /* (Products shifted 32 bits or more add nothing.) */
            int acc[2][4] = { {0, 0, 0, 0}, {0, 0, 0, 0} };
            for (int s = 0; s < p.ksv; ++s) {
              const uint2 b = btab[((dg * 4 + v) * p.ksv + s) * 32 + lane];
#pragma unroll
              for (int q = 0; q < 2; ++q) {
                /* A: columns 16 q on, by rows, 16 bytes at 32 s and 16
                 * more. */
                uint32_t fa[4];
                load_matrices (fa, rsd + (d * kTX + 32 * pair + 16 * q +
                        (lane & 15)) * p.sum_pitch + cs + 32 * s +
                    16 * (lane >> 4));
                if (d == p.nd - 1)
                  mma_bytes<true, true> (acc[q], fa, b);
                else
                  mma_bytes<false, true> (acc[q], fa, b);
              }
            }
#pragma unroll
            for (int q = 0; q < 2; ++q)
#pragma unroll
              for (int i = 0; i < 4; ++i)
                total[q][i] = (int) ((uint32_t) total[q][i] +
                    ((uint32_t) acc[q][i] << 8 * (d + dg)));
          }
        /* Thread (g, t) holds columns g and g + 8 of each group, output
         * rows 2t and 2t + 1 of the row group. */
#pragma unroll
        for (int q = 0; q < 2; ++q)
#pragma unroll
          for (int i = 0; i < 4; ++i) {
            const int xl = 32 * pair + 16 * q + g + 8 * (i >> 1);
            const int yl = 8 * og + 2 * t + (i & 1);
            out[(yl * kTX + xl) * C + c] = output (total[q][i], a);
          }
      }
      __syncthreads ();
    }
    __syncthreads ();

    /* The tile's outputs, 16 bytes a thread where the row allows. */
    constexpr int kChunks = kTX * C / 16;
    const int valid = (a.width - x0 < kTX ? a.width - x0 : kTX) * C;
    for (int e = tid; e < kTY * kChunks; e += kThreads) {
      const int yl = e / kChunks, bo = 16 * (e - yl * kChunks);
      const int y = y0 + yl;
      if (y >= a.height || bo >= valid)
        continue;
      uint8_t *row = dst + (size_t) y * dst_pitch + (size_t) x0 * C + bo;
      const uint8_t *o = out + yl * kTX * C + bo;
      if (p.dst_vec && bo + 16 <= valid) {
        *reinterpret_cast<uint4 *>(row) =
            *reinterpret_cast<const uint4 *>(o);
        continue;
      }
      for (int i = 0; i < 16 && bo + i < valid; ++i)
        row[i] = o[i];
    }
  }
}

template <int C>
hipError_t launch (const HipfDeviceLimits * limits, const PassArgs & p,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    const int *taps, hipStream_t stream)
{
  const auto kernel = convolve_passes_mma<C>;
  const size_t shared = layout (p, C).total;
  if (shared > limits->shared_mem_optin)
    return hipErrorInvalidValue;
  const long long tiles = (long long) p.tiles_x * p.tiles_y;
  const int grid = persistent_grid (limits, kernel, kThreads, shared,
      tiles < (1 << 30) ? (int) tiles : 1 << 30);
  kernel <<<grid, kThreads, shared, stream>>> (src, src_pitch, dst,
      dst_pitch, p, taps);
  return hipGetLastError ();
}

/* The launch's arguments but for the pointers' alignment. */
PassArgs pass_args (const HipfConvolvePlane * pl, const HipfConvolveMask * m)
{
  PassArgs p;
  p.a = make_args (pl, m, m->n_x, m->n_y);
  p.tiles_x = ceil_div (pl->width, kTX);
  p.tiles_y = ceil_div (pl->height, kTY);
  const int hx = m->n_x / 2, hy = m->n_y / 2;
  p.pad_x = (hx + 3) / 4 * 4;
  p.ksh = ceil_div (32 + p.pad_x + hx, 32);
  p.ksv = ceil_div (32 + 2 * hy, 32);
  p.rows = kTY - 32 + 32 * p.ksv;
  /* 16 bytes past each row and column: their fragments' loads, 8 lanes
   * a row or column apart, then fall in distinct banks. */
  p.row_pitch = kTX - 32 + 32 * p.ksh + 16;
  p.sum_pitch = p.rows + 16;
  p.dx = p.dy = 1;
  long long weight = 0;
  for (int i = 0; i < m->n_x; ++i) {
    const int d = byte_digits (m->taps_x[i]);
    p.dx = d > p.dx ? d : p.dx;
    weight += m->taps_x[i] < 0 ? -(long long) m->taps_x[i] : m->taps_x[i];
  }
  for (int j = 0; j < m->n_y; ++j) {
    const int d = byte_digits (m->taps_y[j]);
    p.dy = d > p.dy ? d : p.dy;
  }
  /* A row sum is within 255 times the row's weight: bytes enough that
   * the top one, signed, holds it. Digits from 256^4 on add nothing to a
   * sum kept modulo 2^32, so none takes more than 4. */
  p.nd = byte_digits (255 * weight);
  p.nd = p.nd < 4 ? p.nd : 4;
  p.dx = p.dx < 4 ? p.dx : 4;
  p.dy = p.dy < 4 ? p.dy : 4;
  return p;
}

}                               // namespace

bool passes_mma_fit (const HipfDeviceLimits * limits,
    const HipfConvolvePlane * pl, const HipfConvolveMask * m)
{
  return m->separable && mma_available ()
      && layout (pass_args (pl, m), pl->channels).total <=
      limits->shared_mem_optin;
}

hipError_t run_passes_mma (const HipfDeviceLimits * limits,
    const HipfConvolvePlane * pl, const HipfConvolveMask * m,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    const int *taps, hipStream_t stream)
{
  if (!m->separable || !mma_available ())
    return hipErrorInvalidValue;
  PassArgs p = pass_args (pl, m);
  const uintptr_t src_bits = (uintptr_t) src | src_pitch;
  p.src_align = src_bits % 16 == 0 ? 16 : src_bits % 8 == 0 ? 8 :
      src_bits % 4 == 0 ? 4 : 1;
  p.dst_vec = (((uintptr_t) dst | dst_pitch) & 15) == 0;
  switch (pl->channels) {
    case 1: return launch<1> (limits, p, src, src_pitch, dst, dst_pitch, taps, stream);
    case 2: return launch<2> (limits, p, src, src_pitch, dst, dst_pitch, taps, stream);
    case 3: return launch<3> (limits, p, src, src_pitch, dst, dst_pitch, taps, stream);
    default: return launch<4> (limits, p, src, src_pitch, dst, dst_pitch, taps, stream);
  }
}

#else /* AMD: no such products; the separable passes run instead. */

bool passes_mma_fit (const HipfDeviceLimits *, const HipfConvolvePlane *,
    const HipfConvolveMask *)
{
  return false;
}

hipError_t run_passes_mma (const HipfDeviceLimits *,
    const HipfConvolvePlane *, const HipfConvolveMask *, const uint8_t *,
    size_t, uint8_t *, size_t, const int *, hipStream_t)
{
  return hipErrorInvalidValue;
}

#endif

}                               // namespace hipf::conv
