/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What each blur algorithm offers the dispatch (dispatch.cpp): a plan,
 * made once for a plane, that says whether the algorithm takes the plane
 * and holds everything its launches need but the frame's memory; and a run
 * that launches it. Host code, compiled with the kernels.
 */
#ifndef HIPF_BOXBLUR_ALGORITHMS_H
#define HIPF_BOXBLUR_ALGORITHMS_H

#include "boxblur/boxblur.h"

namespace hipf::blur {

/* ---- general path (general.hip) ---- */
struct GeneralPlan
{
  HipfBoxBlurPlane plane;
  int grid;                     /* blocks of the row kernel */
  int column_segments;          /* row segments the columns are cut in */
  int segment_rows;             /* rows of a segment (the last: the rest) */
  size_t prefix_bytes;          /* the column prefixes, then the */
  size_t totals_bytes;          /* segments' totals, then the rows' */
  size_t scratch;
};

GeneralPlan plan_general (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane);
hipError_t run_general (const GeneralPlan & plan, const uint8_t * src,
    size_t src_pitch, uint8_t * dst, size_t dst_pitch, void *scratch,
    hipStream_t stream);

/* ---- bands (bands.hip) ---- */
/* The band kernel's arguments; the frame's memory is filled in per run. */
struct BandParams
{
  const uint8_t *src;
  size_t src_pitch;
  uint8_t *dst;
  size_t dst_pitch;
  int width, height, radius_x, radius_y;
  HipfBorderMode mode;
  int band_rows;
  int chunks;                   /* 16-sample chunks per row */
  const uint32_t *band_prefix;  /* NULL: bands sum their first window */
  size_t band_stride;           /* words between band prefix rows */
  /* floor (x / n) = umulhi (x, magic) >> shift for the whole window's n,
   * when exact, with shift a whole number of bytes where the multiplier
   * allows (the means then pick the byte out); otherwise the quotient is
   * corrected (divide_corrected). */
  uint32_t magic;
  int shift;
  int exact;
  /* The shared prefix holds the border-extended entries beyond the row. */
  int extended;
  /* Words of shared memory from one row's prefix to the next. */
  int row_words;
  /* Wrap and mirror: the samples whose windows reach past the row's left
   * end all lie in the first warp, those past its right end in the last,
   * and a warp writes its part of the extension a lane an entry. */
  int own_extension;
};

struct BandPlan
{
  bool ok;
  const void *kernel;
  int channels_per_word;        /* 2: two channels a word in 16-bit lanes */
  int rows_per_step;
  int row_words;                /* shared words a row's prefix takes */
  int chunks_per_thread;
  int threads;
  int bands;
  int fill;                     /* bands as many as fill the device */
  size_t shared;
  bool band_prefix;             /* bands start from column prefixes */
  int prefix_rows;              /* rows from one band prefix to the next */
  int prefix_bands;             /* band prefixes, less P(0) */
  size_t prefix_stride;         /* samples of a row, in whole chunks */
  size_t prefix_words;          /* words of a band prefix row */
  size_t scratch;
  BandParams params;
};

/* The band plan: two channels a word where the windows fit 16-bit lanes,
 * two rows a step where the registers hold them. */
BandPlan plan_bands (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane);
/* The band plan with that many channels a word and rows a step. */
BandPlan plan_bands (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane, int channels_per_word, int rows_per_step);
hipError_t run_bands (const HipfDeviceLimits * limits, const BandPlan & plan,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    void *scratch, hipStream_t stream);

/* ---- strips (strips.hip) ---- */
struct StripParams
{
  const uint8_t *src;
  size_t src_pitch;
  uint8_t *dst;
  size_t dst_pitch;
  int width, height, radius_y;
  HipfBorderMode mode;
  int strips;
  int band_rows;
  uint32_t magic;               /* the lanes' multiplier for a whole window */
  int after_plane;              /* HipfBoxBlurPlane's */
};

struct StripPlan
{
  bool ok;
  const void *kernel;
  int threads;
  int blocks_x;                 /* blocks a band's (or pair's) strips take */
  int blocks_y;                 /* bands, or pairs of bands */
  int band_rows;                /* set once the bands are sized */
  bool paired;                  /* the bands share their starts in pairs */
  size_t shared;                /* the pairs' halves */
  StripParams params;
};

StripPlan plan_strips (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane);
hipError_t run_strips (const HipfDeviceLimits * limits,
    const StripPlan & plan, const uint8_t * src, size_t src_pitch,
    uint8_t * dst, size_t dst_pitch, hipStream_t stream);

}  // namespace hipf::blur

#endif /* HIPF_BOXBLUR_ALGORITHMS_H */
