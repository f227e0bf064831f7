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
    /* 32768 = 128 << 8: the chroma offset, added before the shift so
     * that it shifts a non-negative sum (a floor, on every compiler). */
    palette[b][3] = ((66 * r + 129 * g + 25 * bl + 128) >> 8) + 16;
    palette[b][4] = (-38 * r - 74 * g + 112 * bl + 128 + 32768) >> 8;
    palette[b][5] = (112 * r - 94 * g - 18 * bl + 128 + 32768) >> 8;
  }
}

#endif /* HIPF_EXPOSURE_PALETTE_H */
