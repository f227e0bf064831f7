/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipexposure's false-colour palette, shared by the element and the CPU
 * reference (no HIP runtime needed).
 */
#ifndef HIPF_EXPOSURE_PALETTE_H
#define HIPF_EXPOSURE_PALETTE_H

#include <stdint.h>

#define HIPF_EXPOSURE_BANDS 8

#if defined(__CUDACC__) || defined(__HIPCC__)
#define HIPF_EXPOSURE_HD __host__ __device__
#else
#define HIPF_EXPOSURE_HD
#endif

/* floor (t / 256) for t > -2^24, without shifting a negative value. */
static inline HIPF_EXPOSURE_HD int
hipf_exposure_floor8 (int t)
{
  return ((t + (1 << 24)) >> 8) - (1 << 16);
}

static inline HIPF_EXPOSURE_HD int
hipf_exposure_clamp8 (int v)
{
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* BT.601 limited range, in integers: R, G, B to Y', Cb, Cr ... */
static inline HIPF_EXPOSURE_HD void
hipf_exposure_rgb_to_yuv (int r, int g, int b, uint8_t yuv[3])
{
  yuv[0] = (uint8_t) (((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
  yuv[1] = (uint8_t) (hipf_exposure_floor8 (-38 * r - 74 * g + 112 * b +
          128) + 128);
  yuv[2] = (uint8_t) (hipf_exposure_floor8 (112 * r - 94 * g - 18 * b +
          128) + 128);
}

/* ... and back, clamped to 0 - 255. */
static inline HIPF_EXPOSURE_HD void
hipf_exposure_yuv_to_rgb (int y, int u, int v, int rgb[3])
{
  const int c = 298 * (y - 16), d = u - 128, e = v - 128;

  rgb[0] = hipf_exposure_clamp8 (hipf_exposure_floor8 (c + 409 * e + 128));
  rgb[1] = hipf_exposure_clamp8 (hipf_exposure_floor8 (c - 100 * d - 208 * e
          + 128));
  rgb[2] = hipf_exposure_clamp8 (hipf_exposure_floor8 (c + 516 * d + 128));
}

/* The documented palette: purple, blue, dark grey, green (skin), light
 * grey, yellow, orange, red, from luma 0, 13, 51, 97, 107, 153, 204, 247;
 * Y'CbCr by BT.601 limited range in integers. */
static inline void
hipf_exposure_palette (uint8_t band_start[HIPF_EXPOSURE_BANDS],
    uint8_t palette[HIPF_EXPOSURE_BANDS][6])
{
  static const uint8_t start[HIPF_EXPOSURE_BANDS] =
      { 0, 13, 51, 97, 107, 153, 204, 247 };
  static const uint8_t rgb[HIPF_EXPOSURE_BANDS][3] = {
    {128, 0, 128}, {0, 0, 255}, {80, 80, 80}, {0, 200, 0},
    {160, 160, 160}, {255, 255, 0}, {255, 140, 0}, {255, 0, 0},
  };
  int b;

  for (b = 0; b < HIPF_EXPOSURE_BANDS; b++) {
    int r = rgb[b][0], g = rgb[b][1], bl = rgb[b][2];

    band_start[b] = start[b];
    palette[b][0] = r;
    palette[b][1] = g;
    palette[b][2] = bl;
    hipf_exposure_rgb_to_yuv (r, g, bl, &palette[b][3]);
  }
}

/* The RGB graph's colours: for bars of red, green and blue standing (bit
 * 2, 1 and 0 of the index), each 255 where its bar stands and 0 where not,
 * as R, G, B, Y', Cb, Cr. */
static inline void
hipf_exposure_graph_colours (uint8_t colours[8][6])
{
  int i;

  for (i = 0; i < 8; i++) {
    int r = i & 4 ? 255 : 0, g = i & 2 ? 255 : 0, b = i & 1 ? 255 : 0;

    colours[i][0] = r;
    colours[i][1] = g;
    colours[i][2] = b;
    hipf_exposure_rgb_to_yuv (r, g, b, &colours[i][3]);
  }
}

#endif /* HIPF_EXPOSURE_PALETTE_H */
