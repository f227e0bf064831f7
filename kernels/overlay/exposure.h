/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The exposure overlay (hipexposure): false colour by luma band, zebra
 * stripes over bright samples, and a graph of the luma histogram, drawn
 * into a frame's planes in integer arithmetic.
 *
 * Every decision reads the input's luma at a sample's luma position (a
 * subsampled chroma sample: its block's top-left luma sample); luma is the
 * Y sample, or (77 R + 150 G + 29 B + 128) >> 8. In order:
 *  - false colour: each sample becomes its band's colour (R, G, B, or its
 *    BT.601 limited-range Y', Cb, Cr);
 *  - zebra: where luma >= the threshold and ((x + y + frame) / 4) is even,
 *    black (R, G, B 0; Y 16, Cb and Cr 128);
 *  - graph: inside its box, column c shows bin (c * 256 / width) of the
 *    luma histogram as a bar (white: 255, or Y 235) of height
 *    count * height / the largest count, over black (0, or Y 16; Cb and
 *    Cr 128), blended at opacity a: (a * colour + (255 - a) * v + 127) / 255.
 *    The RGB graph shows the histograms of R, G and B instead, each bar
 *    count * height / the largest count of the three, in its own colour:
 *    where bars overlap their colours add (red and green: yellow; all
 *    three: white), as hipf_exposure_graph_colours() lists. YUV pixels
 *    count the R, G, B of hipf_exposure_yuv_to_rgb() on their Y and their
 *    block's Cb and Cr; GRAY8 pixels count their value in all three.
 *
 * Samples of 16 bits (GRAY16_LE, P010_10LE, I420_10LE) follow the same
 * rules in the 8-bit scale; integers throughout:
 *  - a sample's value is its word's bits of the format, (w >> shift) &
 *    (2^depth - 1): P010's ten high bits, I420_10LE's ten low bits (the
 *    bits above are not part of the sample), all of GRAY16's word;
 *  - everything decided by luma (band, zebra, the graph's bin) and every
 *    count of the RGB graph takes the value's top eight bits, v >> (depth
 *    - 8), so that zebra-threshold and the bands mean what they mean on
 *    8-bit formats (as hiphistogram's thresholds do); 16-bit YUV pixels
 *    count the R, G, B of their samples' top eight bits;
 *  - a colour component c of the 8-bit rules above (palette, black, white,
 *    neutral chroma) becomes c * colour_scale: c << 2 for the 10-bit
 *    formats, whose limited range puts black, white and neutral chroma at
 *    64, 940 and 512 (8-bit codes times four, as BT.709 has them); c * 257
 *    for GRAY16_LE, the full word (0 to 65535), as GRAY8's c is c / 255 of
 *    its range. Either way its top eight bits are c again;
 *  - the graph blends values of the format's range with the 8-bit opacity:
 *    (a * colour * colour_scale + (255 - a) * v + 127) / 255;
 *  - a drawn sample is stored as value << shift, the word's other bits 0
 *    (P010's low six, I420_10LE's high six); a sample that nothing draws
 *    keeps its word, every bit. Every sample in the graph's box is drawn.
 */
#ifndef HIPF_EXPOSURE_H
#define HIPF_EXPOSURE_H

#include <stddef.h>
#include <stdint.h>

#include "hipf-runtime.h"
#include "hipf-limits.h"
#include "overlay/palette.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef enum {
  HIPF_ROLE_KEEP, HIPF_ROLE_R, HIPF_ROLE_G, HIPF_ROLE_B, HIPF_ROLE_Y,
  HIPF_ROLE_U, HIPF_ROLE_V,
} HipfSampleRole;

typedef struct {
  size_t offset, pitch;
  int width, height;
  int channels;
  int w_sub, h_sub;
  int roles[4];                 /* HipfSampleRole of each channel */
} HipfExposurePlane;

typedef struct {
  int n_planes;
  HipfExposurePlane planes[3];
  int luma_offset;              /* channel of luma in plane 0; -1: R, G, B */
  int rgb_offset[3];
  /* Band b covers luma from band_start[b]; its colour as R, G, B, Y, U, V. */
  uint8_t band_start[HIPF_EXPOSURE_BANDS];
  uint8_t palette[HIPF_EXPOSURE_BANDS][6];
  int false_color;
  int zebra, zebra_threshold;
  unsigned frame;
  int graph, graph_x, graph_y, graph_width, graph_height, graph_opacity;
  /* The RGB graph, and where a YUV pixel's Cb and Cr lie: plane and
   * channel (u_plane -1: none, GRAY8). */
  int graph_rgb;
  int u_plane, u_channel, v_plane, v_channel;
  uint8_t graph_colours[8][6];
  /* The samples (HipfSampleRole channels count samples, not bytes): 1 or
   * 2 bytes; their value's bits (8, 10 or 16) and its shift in the word;
   * what an 8-bit colour component is multiplied by (1, 4 or 257). */
  int sample_bytes, depth, shift, colour_scale;
} HipfExposureFrame;

/* Device scratch a frame's drawing needs: the counts the graph shows
 * (256 words for luma, R, G and B each: the luma graph uses the first),
 * then its bar heights (as many halves). */
#define HIPF_EXPOSURE_GRAPHS 3
#define HIPF_EXPOSURE_SCRATCH_BYTES (HIPF_EXPOSURE_GRAPHS * \
    HIPF_HISTOGRAM_VALUES * (sizeof (uint32_t) + sizeof (uint16_t)))

/* Draws the overlay of @frame from @src into @dst (the same layout, not
 * overlapping), counting the graph's histogram on the way where it is
 * drawn. */
hipError_t hipf_exposure_draw (const HipfDeviceLimits * limits,
    const HipfExposureFrame * frame, const uint8_t * src, uint8_t * dst,
    void *scratch, hipStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* HIPF_EXPOSURE_H */
