/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the band path's device code shares: prefix spacing, block size
 * and the shared-memory layout of a row's prefix.
 */
#ifndef HIPF_BOXBLUR_BANDS_CUH
#define HIPF_BOXBLUR_BANDS_CUH

#include "boxblur/algorithms.h"
#include "boxblur/common.cuh"

namespace hipf::blur {

/* Rows from one band prefix to the next: every band, or every
 * kMaxPrefixRows rows where bands are taller. The spacing grows with the
 * bands, so the tallest window's plan, which has the most bands, sizes
 * the scratch for every radius. */
__host__ __device__ inline int prefix_rows_for (int band_rows)
{
  return band_rows < kMaxPrefixRows ? band_rows : kMaxPrefixRows;
}

/* Threads of a band block for @words_per_thread words a thread. */
__host__ __device__ constexpr int band_threads (int words_per_thread)
{
  return words_per_thread <= kChunk ? kMaxBandThreads : kMaxBandThreads / 2;
}

constexpr int kScanWarps = 32;          /* slots for per-warp scan totals */

/* Shared-memory word of prefix element w, for pixels of @pixel_words
 * words. A thread owns 16 or 32 words in a row; padding spreads
 * neighbouring threads over the banks. Pixels of two and four words are
 * read as one vector, so they are padded by whole pixels. */
__host__ __device__ inline int padded_words (int pixel_words, int w)
{
  return w + (w >> 5) * ((pixel_words & (pixel_words - 1)) == 0 ?
      pixel_words : 1);
}

template <int PixelWords>
__host__ __device__ inline int padded (int w)
{
  return padded_words (PixelWords, w);
}

}  // namespace hipf::blur

#endif /* HIPF_BOXBLUR_BANDS_CUH */
