/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The box blur's tuning constants, in one place. Each line says what
 * chose it; docs/design/boxblur.md has the measurements (H100 unless
 * noted). Limits that exactness sets, not speed, live in common.cuh.
 */
#ifndef HIPF_BOXBLUR_TUNING_H
#define HIPF_BOXBLUR_TUNING_H

namespace hipf::blur {

/* ---- general path ---- */
/* Threads of a row block: one scan tile of samples a step. */
constexpr int kRowThreads = 256;
/* Threads of a column block (prefix down columns, band sums). */
constexpr int kColumnThreads = 256;
/* The column prefix's segments: a walk of fewer rows than this spends more
 * on adding up the totals above it than it saves, and a column's walks
 * each add up to kMaxColumnSegments - 1 totals (predicted, not measured). */
constexpr int kMinSegmentRows = 32;
constexpr int kMaxColumnSegments = 64;

/* ---- bands ---- */
/* Most threads of a band block: 16 words a thread at 64 registers each;
 * 32 words a thread get half (128 registers). */
constexpr int kMaxBandThreads = 1024;
/* Rows loaded before any is added: enough loads in flight to hide the
 * latency of a column walk. */
constexpr int kRowBatch = 8;
/* Rows column_band_sums loads at once: 9 beat 4, 6, 12 and 16 at radius
 * 50 and 200 (16 spilled the loads). */
constexpr int kSumBatch = 9;
/* Band prefixes at most this many rows apart: bounds the rows a prefix
 * read adds on few multiprocessors or tall planes. */
constexpr int kMaxPrefixRows = 128;
/* Bands start from column prefixes where the window is taller than this
 * many bands: summing it costs more than the prefixes' pass. */
constexpr int kBandPrefixMinBands = 3;
/* The band-prefix scan: bands a warp walks with every load in flight, and
 * warps (segments) a block. */
constexpr int kScanBatch = 32;
constexpr int kScanSegments = 4;
/* Rows outside the plane found without a division (border_row_near) for
 * pixels of this many words or more: slower for one and two. */
constexpr int kNearRowsMinWords = 3;

/* The valid mode's cut-table divisions at a row's ends for four-word
 * pixels; fewer words spread those chunks over the block (2 to 9 us
 * faster for them, 2 to 9 us slower for four). */
__host__ __device__ constexpr bool takes_cut_table (int pixel_words,
    int channels_per_word)
{
  return channels_per_word == 1 && pixel_words == 4;
}

/* ---- strips ---- */
/* Warps a strip block: eight at 128 registers fill a multiprocessor in
 * two blocks. */
constexpr int kStripWarps = 8;
/* Strip bands share their starts in pairs from this vertical radius:
 * below it a pair cost up to 1.4 us more than it saved. */
constexpr int kPairMinRadius = 4;
/* Three-byte pixels take widened lanes from this horizontal radius (lanes
 * of bytes spill more with every pixel of radius), from the second in the
 * valid mode, and from the fourth where the lanes read nothing past the
 * row's ends. */
constexpr int kWideMinRadius = 5;
constexpr int kWideMinValidRadius = 2;
constexpr int kWideMinAtLoadRadius = 4;

/* Lanes that store their rows as stretches through shared memory: four
 * bytes a pixel only; lanes of bytes ran 0.1 to 1.3 us slower with it. */
__host__ __device__ constexpr bool deals_chunks (int pixel_bytes)
{
  return pixel_bytes == 4;
}

/* Lanes whose bands may share their first windows in pairs: one and two
 * bytes always paid; four only where a band is shorter than its window
 * (dispatch); three bytes, and one byte in the valid mode, spilled. */
__host__ __device__ constexpr bool shares_band_starts (int pixel_bytes,
    bool valid_bytes)
{
  return pixel_bytes == 2 || pixel_bytes == 4
      || (pixel_bytes == 1 && !valid_bytes);
}

/* ---- dispatch: strips or bands ---- */
/* A strip band sums its first window (in pairs, half of it) itself: the
 * strips keep a plane while those rows are at most kStartBands bands, or
 * short_start_rows() (strips.hip): kShortStartRows (kShortPairStartRows in
 * pairs) on rows under kShortStartRowBytes, a step more for each doubling
 * of the row's bytes beyond, up to kShortStartSteps. Chosen over 244
 * planes from 320x240 to 4K where these steps change the path. */
constexpr int kStartBands = 3;
constexpr int kShortStartRows = 23;
constexpr int kShortPairStartRows = 17;
constexpr int kShortStartRowBytes = 1024;
constexpr int kShortStartStep = 8;
constexpr int kShortPairStartStep = 6;
constexpr int kShortStartSteps = 4;

}  // namespace hipf::blur

#endif /* HIPF_BOXBLUR_TUNING_H */
