/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Integer products on NVIDIA's tensor cores (compute capability 8.0 on),
 * shared by the kernels that run on them: mma.m16n8k32 of bytes into
 * exact 32-bit sums, and the signed byte digits wider values are split
 * into, a product each.
 *
 * Fragments, as the instruction lays them out for lane (g, t) = (lane / 4,
 * lane % 4): A (16 x 32, by rows) rows g and g + 8, bytes 4t to 4t + 3
 * and 16 on; B (32 x 8, by columns) column g, bytes 4t to 4t + 3 and 16
 * on; C rows g and g + 8, columns 2t and 2t + 1.
 */
#ifndef HIPF_CONVOLVE_MMA_CUH
#define HIPF_CONVOLVE_MMA_CUH

#include "hipf-device.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define HIPF_INT8_MMA 1
#endif

namespace hipf::conv {

/* c += a b, A's bytes signed where AS is, B's where BS is. */
template <bool AS, bool BS>
__device__ inline void mma_bytes (int (&c)[4], const uint32_t (&a)[4],
    uint2 b)
{
#ifdef HIPF_INT8_MMA
  if (!AS && BS)
    asm ("mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+r" (c[0]), "+r" (c[1]), "+r" (c[2]), "+r" (c[3])
        : "r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b.x),
        "r" (b.y));
  else if (AS && !BS)
    asm ("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+r" (c[0]), "+r" (c[1]), "+r" (c[2]), "+r" (c[3])
        : "r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b.x),
        "r" (b.y));
  else if (AS && BS)
    asm ("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+r" (c[0]), "+r" (c[1]), "+r" (c[2]), "+r" (c[3])
        : "r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b.x),
        "r" (b.y));
#endif
}

/* Four 8 x 16-byte matrices from shared memory (ldmatrix .x4): lane l
 * gives the address of row l % 8 of matrix l / 8, and gets in r[j] bytes
 * 4t to 4t + 3 of row g of matrix j, as A's fragment takes them. */
__device__ inline void load_matrices (uint32_t (&r)[4], const void *row)
{
#ifdef HIPF_INT8_MMA
  asm volatile ("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
      "{%0, %1, %2, %3}, [%4];"
      : "=r" (r[0]), "=r" (r[1]), "=r" (r[2]), "=r" (r[3])
      : "r" ((uint32_t) __cvta_generic_to_shared (row)));
#endif
}

/* Two such matrices (.x2): lanes 0 to 15 give the rows' addresses. */
__device__ inline uint2 load_matrix_pair (const void *row)
{
  uint2 r = make_uint2 (0, 0);
#ifdef HIPF_INT8_MMA
  asm volatile ("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
      : "=r" (r.x), "=r" (r.y)
      : "r" ((uint32_t) __cvta_generic_to_shared (row)));
#endif
  return r;
}

/* Signed byte digit @p of @w: w = d0 + 256 d1 + ..., each in [-128, 127].
 * 64-bit, so that no step overflows for any int. */
__host__ __device__ inline int digit (long long w, int p)
{
  for (int i = 0; i < p; ++i)
    w = (w - (((w + 128) & 255) - 128)) >> 8;
  return (int) (((w + 128) & 255) - 128);
}

/* Signed byte digits @w needs. */
__host__ __device__ inline int byte_digits (long long w)
{
  int n = 1;
  while (w < -128 || w > 127) {
    w = (w - (((w + 128) & 255) - 128)) / 256;
    ++n;
  }
  return n;
}

}                               // namespace hipf::conv

#endif /* HIPF_CONVOLVE_MMA_CUH */
