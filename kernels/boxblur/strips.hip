/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The strip path, for pixels of two or four bytes, and of one or three in
 * rows a multiple of 16 pixels wide, whose horizontal window reaches at
 * most 8 pixels either side and holds at most 255 samples: each warp owns
 * a strip of a band's rows, each lane 8 pixels of it (32 bytes of one- and
 * three-byte pixels), and slides the vertical window sums of its pixels
 * down the band in 16-bit lanes, as the band path does. The lanes beside
 * lend their sums by shuffles, so a row needs no scan, no prefix, no
 * shared memory and no barrier. A warp's first and last lanes only lend:
 * neighbouring strips overlap by a lane each side. Lanes whose pixels
 * cross the row's ends read each pixel from the column the border mode
 * takes it from, so that the lanes beside see the border-extended row.
 */
#include "boxblur/strip_lanes.cuh"

namespace hipf::blur {
namespace {

/* ValidMode: the valid mode's kernel for lanes of bytes, whose code for
 * cut windows spills the others' registers; the other lanes always carry
 * it. Paired: bands share their starts in pairs (shares_band_starts), in
 * a kernel of its own so that the others keep their registers. Widened,
 * DefersEdgeReads: three-byte pixels in widened lanes, which read the
 * pixels past the row's ends where they are summed. */
template <int PixelBytes, int RadiusX, bool ValidMode, bool Paired,
    bool Widened, bool DefersEdgeReads>
__global__ void __launch_bounds__ (kStripThreads, 2)
box_blur_strips (StripParams p)
{
  using Layout = StripLayout<PixelBytes, Widened>;
  constexpr int kPixels = Layout::kPixels, kPixelWords = Layout::kPixelWords;
  constexpr int kChunks = Layout::kChunks;
  constexpr int kChunkWords = Lanes<kPixelWords, 2>::kWords,
      kWords = Layout::kWords;
  constexpr bool kBytes = Layout::kBytes;
  /* Bytes a pixel, and those past the row's ends that windows reach. */
  constexpr int kStride = Layout::kStride, kReach = kStride * RadiusX;
  static_assert (RadiusX <= kMaxStripRadius, "a window past the lanes beside");
  static_assert (2 * RadiusX + 1 <= kWarpSize, "a lane for each cut window");
  /* Launched as a dependent of the kernel before it: no memory is touched
   * before it has finished, unless that is the same frame's previous
   * plane, which reads and writes none of this plane's memory. The next
   * kernel may launch once every block has passed this point: past the
   * wait, so that a plane that does not wait still starts only after what
   * came before the frame. */
  if (!p.after_plane)
    wait_for_prior_grid ();
  allow_dependent_grid ();
  /* Where the bands share their starts, warp w < pair_strips walks band
   * 2 blockIdx.y up from its last row, and warp w + pair_strips the same
   * strip of the band below down from its first: both start at their
   * common boundary. Elsewhere a block's warps are strips of band
   * blockIdx.y, and even bands walk down, odd ones up, as in
   * box_blur_bands. */
  static_assert (!Paired || shares_band_starts (PixelBytes, ValidMode),
      "lanes that do not pair");
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  const int pair_strips = max (1, (int) blockDim.x / (2 * kWarpSize));
  const int lower = Paired ? warp / pair_strips : blockIdx.y % 2;
  const int strip = Paired ? blockIdx.x * pair_strips + warp % pair_strips :
      blockIdx.x * kStripWarps + warp;
  const bool in_plane = strip < p.strips;
  /* Warps that take no part in a barrier leave at once. */
  if (!Paired && !in_plane)
    return;
  const int width = p.width, height = p.height, ry = p.radius_y;
  const HipfBorderMode mode = p.mode;
  /* Lanes of bytes count the row, x0 and kPixels in bytes. */
  const int samples = kBytes ? width * kStride : width;
  const int x0 = (strip * (kWarpSize - 2) + lane - 1) * kPixels;
  const bool whole = x0 >= 0 && x0 + kPixels <= samples;
  /* Lanes further right lend to no lane with means to form. */
  const bool needed = x0 < samples + kPixels;
  const bool outputs = lane > 0 && lane < kWarpSize - 1 && x0 < samples;
  /* Warps with a pixel whose window the valid mode cuts short at the
   * row's ends: lane k holds the multiplier for a window of k + 1
   * columns, recomputed where the rows counted change, and those pixels
   * take theirs by a shuffle. */
  const int strip_x0 = x0 - lane * kPixels;
  const bool cut = (ValidMode || !kBytes) && mode == HIPF_BORDER_VALID
      && (strip_x0 < kReach
          || strip_x0 + kWarpSize * kPixels > samples - kReach);
  uint32_t cut_count = 0, cut_magic = 0;
  /* The columns a lane across the row's ends reads its pixels from:
   * kept for eight pixels a lane, found as they are read for 32. */
  int col[kBytes ? 1 : kPixels];
  EdgeRun edge = { };
  /* The pixel and byte a lane of bytes starts in, for cut windows. */
  int lane_pixel = 0, lane_byte = 0;
  if constexpr (kBytes) {
    edge.at = x0 < 0 ? kPixels - kReach : x0 >= samples ? 0 : kChunk;
    edge.pixel = floor_div (x0 + edge.at, kStride);
    edge.byte = x0 + edge.at - edge.pixel * kStride;
    lane_pixel = floor_div (x0, kStride);
    lane_byte = x0 - lane_pixel * kStride;
  } else {
#pragma unroll
    for (int k = 0; k < kPixels; ++k)
      col[k] = border_row (x0 + k, width, mode);
  }
  /* Warps within the row store their rows as stretches, where the lanes
   * deal their chunks (deals_chunks). */
  constexpr bool kDeals = deals_chunks (PixelBytes);
  static_assert (!kDeals || kChunks == 2, "two chunks a lane");
  const bool stretches = kDeals && strip_x0 >= 0 &&
      strip_x0 + kWarpSize * kPixels <= samples;
  __shared__ uint4
      stages[kStripWarps][strip_stage_chunks (PixelBytes, kWarpSize)];
  /* Widened lanes across the row's ends read their pixels a byte at a
   * time, and put them together as they arrive: read with the rows in
   * flight, they would hold up their warp there for each row. With
   * DefersEdgeReads they keep the row's index instead and read it where
   * it is summed, from the lines that the lanes beside have just loaded;
   * where no lane reads past the row's ends, the kernel without those
   * reads is faster (defers_edge_reads). */
  constexpr bool kDefer = Layout::kWidened && DefersEdgeReads;
  auto load = [&](int y, uint4 (&q)[kChunks]) {
    if constexpr (kBytes)
      load_run_lane<kStride, RadiusX> (p, y, x0, samples, whole, needed,
          edge, q);
    else if (kDefer && !whole)
      q[0].x = (uint32_t) y;
    else
      load_lane<PixelBytes> (p, y, x0, whole, needed, col, q);
  };
  /* The row q as load left it, read now where load deferred it; in
   * place, since a copy of a row in flight would wait for it. */
  auto arrived = [&](uint4 (&q)[kChunks]) {
    if constexpr (kDefer) {
      if (!whole)
        load_lane<PixelBytes> (p, (int) q[0].x, x0, false, needed, col, q);
    }
  };

  const int boundary = (2 * blockIdx.y + 1) * p.band_rows;
  const int y0 = Paired ? (lower ? boundary : boundary - p.band_rows) :
      blockIdx.y * p.band_rows;
  /* None only for a pair's lower band past the plane's end. */
  const int rows = min (height, y0 + p.band_rows) - y0;
  const int dir = Paired ? (lower ? 1 : -1) : (lower ? -1 : 1);
  const int first = dir > 0 ? y0 : y0 + rows - 1;

  /* Lanes of bytes load half as many rows at once: their edge runs take
   * the registers (eight one-byte rows spilled 22 to 44 bytes). */
  constexpr int kBatch = kBytes ? kRowBatch / 2 : kRowBatch;
  uint32_t v[kWords] = { };
  auto add_rows = [&](int from, int count) {
    for (int d = 0; d < count; d += kBatch) {
      uint4 q[kBatch][kChunks];
#pragma unroll
      for (int b = 0; b < kBatch; ++b)
        load (d + b < count ? border_row (from + d + b, height, mode) : -1,
            q[b]);
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        arrived (q[b]);
        add_lane<PixelBytes, Widened> (v, q[b]);
      }
    }
  };
  /* The two bands' first windows share all rows but one each: each warp
   * sums the half on its side of the boundary and takes the other half
   * from its partner, so a band starts with radius_y + 1 rows, not
   * 2 radius_y + 1. Whether a pair shares is the same for all its
   * block's warps, which all meet at the barrier. */
  extern __shared__ uint32_t strip_halves[];
  bool paired = false;
  if constexpr (Paired)
    paired = boundary < height && ry > 0;
  if (paired) {
    if (in_plane)
      add_rows (lower ? boundary : boundary - ry, ry);
#pragma unroll
    for (int k = 0; k < kWords; ++k)
      strip_halves[(warp * kWords + k) * kWarpSize + lane] = v[k];
    /* The row of its own, on its way while the partner finishes. */
    uint4 own[kChunks];
    if (in_plane)
      load (border_row (lower ? boundary + ry : boundary - 1 - ry, height,
              mode), own);
    __syncthreads ();
    const int partner = lower ? warp - pair_strips : warp + pair_strips;
#pragma unroll
    for (int k = 0; k < kWords; ++k)
      v[k] += strip_halves[(partner * kWords + k) * kWarpSize + lane];
    if (in_plane) {
      arrived (own);
      add_lane<PixelBytes, Widened> (v, own);
    }
  } else if (!Paired || (in_plane && rows > 0)) {
    add_rows (first - ry, 2 * ry + 1);
  }
  if (Paired && (!in_plane || rows <= 0))
    return;

  /* The rows entering and leaving the window on the way to output row
   * step, loaded kAhead steps ahead. */
  auto load_step = [&](int step, uint4 (&enter)[kChunks],
      uint4 (&leave)[kChunks]) {
    const bool more = step < rows;
    const int t = first + dir * step;
    load (more ? border_row (t + dir * ry, height, mode) : -1, enter);
    load (more ? border_row (t - dir * (ry + 1), height, mode) : -1, leave);
  };
  /* Three-byte lanes of bytes load one step ahead: their wider windows
   * take the registers. */
  constexpr int kAhead = Layout::kStride == 3 ? 1 : 2;
  /* Output row step from the window sums v; then v slides on to the
   * next row with the rows entering and leaving. */
  auto row_step = [&](int step, uint4 (&enter)[kChunks],
      uint4 (&leave)[kChunks]) {
    uint32_t s[kWords];
    if constexpr (kBytes)
      run_window_sums<kStride, RadiusX> (v, s);
    else
      strip_window_sums<Layout::kRun, kPixelWords, RadiusX> (v, s);
    const int y = first + dir * step;
    const uint32_t count_y = window_count (y - ry, y + ry + 1, height, mode);
    const uint32_t n = (2 * RadiusX + 1) * count_y;
    const uint32_t m = count_y == (uint32_t) (2 * ry + 1) ? p.magic :
        ((1u << 24) + n - 1) / n;
    if (cut && count_y != cut_count) {
      const uint32_t nk = (uint32_t) (min (lane, 2 * RadiusX) + 1) * count_y;
      cut_magic = ((1u << 24) + nk - 1) / nk;
      cut_count = count_y;
    }
    uint8_t *out = p.dst + (size_t) y * p.dst_pitch +
        (size_t) x0 * (kBytes ? 1 : PixelBytes);
    auto multiplier = [&](int x, uint32_t & mx, uint32_t & bias) {
      mx = m;
      bias = (n / 2) * m;
      if (cut) {
        /* Every lane shuffles, those past the row's ends too. */
        const int h = min (x + RadiusX, width - 1) - max (x - RadiusX, 0) + 1;
        mx = shfl (cut_magic, max (h - 1, 0));
        bias = ((uint32_t) max (h, 0) * count_y / 2) * mx;
      }
    };
    uint4 chunks[kChunks];
    if constexpr (kBytes) {
      /* Chunk c holds the bytes of lane c of the words, a run. The
       * windows cut short take their multipliers after the others, at the
       * places some lane of the warp has one. */
      constexpr int kRun = Layout::kRun;
      static_assert (kRun == kChunk, "a run a chunk");
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
        uint32_t t[kRun];
#pragma unroll
        for (int k = 0; k < kRun; ++k)
          t[k] = (c ? s[k] >> 16 : s[k] & 0xffffu) * m + (n / 2) * m;
        if (cut) {
#pragma unroll
          for (int k = 0; k < kRun; ++k) {
            const int at = c * kRun + k;
            if (at < kReach || ((samples - 1 - at) & (kPixels - 1)) < kReach) {
              uint32_t mk, bias;
              multiplier (lane_pixel + (int) ((unsigned) (lane_byte + at) /
                      kStride), mk, bias);
              t[k] = (c ? s[k] >> 16 : s[k] & 0xffffu) * mk + bias;
            }
          }
        }
        chunks[c] = make_uint4 (top_bytes (t[0], t[1], t[2], t[3]),
            top_bytes (t[4], t[5], t[6], t[7]),
            top_bytes (t[8], t[9], t[10], t[11]),
            top_bytes (t[12], t[13], t[14], t[15]));
      }
    } else {
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
        uint32_t t[kChunkWords][2];
#pragma unroll
        for (int j = 0; j < kChunkWords; j += kPixelWords) {
          uint32_t mj, bias;
          multiplier (x0 + (c * kChunkWords + j) / kPixelWords, mj, bias);
#pragma unroll
          for (int k = j; k < j + kPixelWords; ++k) {
            const uint32_t word = s[c * kChunkWords + k];
            t[k][0] = (word & 0xffffu) * mj + bias;
            t[k][1] = (word >> 16) * mj + bias;
          }
        }
        chunks[c] = lane_quotients<kPixelWords> (t);
      }
    }
    if constexpr (Layout::kWidened) {
      uint2 pieces[3];
      narrow_pixels (chunks, pieces);
#pragma unroll
      for (int k = 0; k < 3; ++k)
        if (outputs && x0 * PixelBytes + k * 8 < samples * PixelBytes)
          reinterpret_cast<uint2 *>(out)[k] = pieces[k];
    } else if (stretches) {
      /* The pieces of the lanes with means: all but the first and last. */
      if constexpr (kDeals)
        lane_to_pieces (stages[warp], chunks);
      uint8_t *span = out - (size_t) lane * kPixels * PixelBytes;
#pragma unroll
      for (int h = 0; h < kChunks; ++h) {
        const int piece = h * kWarpSize + lane;
        if (piece >= kChunks && piece < kChunks * (kWarpSize - 1))
          *reinterpret_cast<uint4 *>(span + piece * kChunk) = chunks[h];
      }
    } else {
#pragma unroll
      for (int c = 0; c < kChunks; ++c)
        if (outputs && x0 + c * (kPixels / kChunks) < samples)
          *reinterpret_cast<uint4 *>(out + c * kChunk) = chunks[c];
    }

    arrived (enter);
    arrived (leave);
    slide_lane<PixelBytes, Widened> (v, enter, leave);
  };
  if constexpr (Layout::kPixelWords == 2) {
    /* Two steps a round, each with its own rows in flight, in registers
     * that no step copies: a copy of the rows in flight waits for them
     * at the top of the next step, not where the slide needs them (the
     * four-byte kernel's main stall). Lanes of one and two bytes ran
     * slower this way. */
    static_assert (kAhead == 2, "rows two steps ahead");
    uint4 odd[2][kChunks], even[2][kChunks];
    load_step (1, odd[0], odd[1]);
    for (int step = 0; step < rows; step += 2) {
      load_step (step + 2, even[0], even[1]);
      row_step (step, odd[0], odd[1]);
      if (step + 1 < rows) {
        load_step (step + 3, odd[0], odd[1]);
        row_step (step + 1, even[0], even[1]);
      }
    }
  } else {
    uint4 enter[kChunks], leave[kChunks];
    if (kAhead == 2)
      load_step (1, enter, leave);
    for (int step = 0; step < rows; ++step) {
      uint4 next_enter[kChunks], next_leave[kChunks];
      if (kAhead == 2)
        load_step (step + 2, next_enter, next_leave);
      else
        load_step (step + 1, enter, leave);
      row_step (step, enter, leave);
      if (kAhead == 2) {
#pragma unroll
        for (int c = 0; c < kChunks; ++c) {
          enter[c] = next_enter[c];
          leave[c] = next_leave[c];
        }
      }
    }
  }
}

/* Whether box_blur_strips<PixelBytes, Radius, ...> is ever planned:
 * three-byte pixels take widened lanes from kWideMinValidRadius on (the
 * least of the radii widens_pixels() starts them at), lanes of bytes
 * below the others, and in the valid mode below kWideMinValidRadius. */
constexpr bool strip_radius_planned (int pixel_bytes, int radius,
    bool valid_mode, bool widened)
{
  if (pixel_bytes != 3)
    return true;
  if (widened)
    return radius >= kWideMinValidRadius;
  if (valid_mode)
    return radius < kWideMinValidRadius;
  return radius < (kWideMinRadius > kWideMinAtLoadRadius ? kWideMinRadius :
      kWideMinAtLoadRadius);
}

/* The kernel for horizontal radius @rx, from Radius up: only the radii
 * some plane is planned with are compiled. */
template <int PixelBytes, bool ValidMode, bool Paired, bool Widened = false,
    bool DefersEdgeReads = false, int Radius = 1>
const void *strip_kernel_for (int rx)
{
  if constexpr (Radius > kMaxStripRadius) {
    return nullptr;
  } else {
    if constexpr (strip_radius_planned (PixelBytes, Radius, ValidMode,
            Widened)) {
      if (rx == Radius)
        return reinterpret_cast<const void *>(box_blur_strips<PixelBytes,
            Radius, ValidMode, Paired, Widened, DefersEdgeReads>);
    }
    return strip_kernel_for<PixelBytes, ValidMode, Paired, Widened,
        DefersEdgeReads, Radius + 1> (rx);
  }
}

/* The strip kernel for the plane: lanes of bytes have one for the valid
 * mode, lanes that share their bands' starts one for pairs, and
 * three-byte pixels one for widened lanes. */
template <int PixelBytes>
const void *strip_kernel_for (int rx, HipfBorderMode mode, bool pairs,
    bool wide, bool defers = false)
{
  if constexpr (PixelBytes == 3) {
    if (wide)
      return defers ? strip_kernel_for<3, false, false, true, true> (rx) :
          strip_kernel_for<3, false, false, true, false> (rx);
  }
  if constexpr (StripLayout<PixelBytes>::kBytes) {
    if (mode == HIPF_BORDER_VALID)
      return strip_kernel_for<PixelBytes, true, false> (rx);
  }
  if constexpr (shares_band_starts (PixelBytes, false)) {
    if (pairs)
      return strip_kernel_for<PixelBytes, false, true> (rx);
  }
  return strip_kernel_for<PixelBytes, false, false> (rx);
}

/* Start rows up to which the strips keep a plane of @p's row bytes
 * (tuning.h, kStartBands). */
int short_start_rows (const HipfBoxBlurPlane * p, bool share)
{
  int rows = share ? kShortPairStartRows : kShortStartRows;
  int64_t bytes = (int64_t) p->width * p->channels;
  for (int s = 0; s < kShortStartSteps && bytes >= kShortStartRowBytes;
      ++s, bytes /= 2)
    rows += share ? kShortPairStartStep : kShortStartStep;
  return rows;
}

/* The strip plan for the plane, its bands in pairs (share) or not. */
StripPlan plan_strips_as (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * p, bool share)
{
  StripPlan plan = { };
  const int64_t window = (int64_t) (2 * p->radius_x + 1) *
      (2 * p->radius_y + 1);
  if (window > kMaxLaneWindow || limits->warp_size < 4)
    return plan;
  const int rx = p->radius_x;
  const HipfBorderMode mode = p->border;
  const bool wide = p->channels == 3 && widens_pixels (rx, p->width, mode);
  /* Lanes of bytes read whole chunks up to the row's end. */
  const bool bytes = p->channels % 2 == 1 && !wide;
  plan.kernel = p->channels == 4 ? strip_kernel_for<4> (rx, mode, share,
      false) : p->channels == 2 ? strip_kernel_for<2> (rx, mode, share,
      false) : p->channels == 1 ? strip_kernel_for<1> (rx, mode, share,
      false) : p->channels == 3 ? strip_kernel_for<3> (rx, mode, share,
      wide, defers_edge_reads (p->width, mode)) : nullptr;
  if (!plan.kernel)
    return plan;
  if (bytes && p->width % kChunk != 0)
    return plan;
  const int strips = bytes ? ceil_div (p->width * p->channels,
      (limits->warp_size - 2) * StripLayout<1>::kPixels) :
      ceil_div (p->width, (limits->warp_size - 2) * kLanePixels);
  /* A block: strips of one band, or the same strips of a pair of bands. */
  const int bands_a_block = share ? 2 : 1;
  const int strips_a_block = strips < kStripWarps / bands_a_block ?
      strips : kStripWarps / bands_a_block;
  plan.threads = bands_a_block * strips_a_block * limits->warp_size;
  plan.blocks_x = ceil_div (strips, strips_a_block);
  /* A word a thread for each of its lane's words. */
  const int words = p->channels == 4 ? StripLayout<4>::kWords :
      p->channels == 2 ? StripLayout<2>::kWords : StripLayout<1>::kWords;
  plan.shared = share ? (size_t) plan.threads * words * sizeof (uint32_t) : 0;
  /* As many bands as fill the device, each band's strips together. */
  const size_t stages = sizeof (uint4) * kStripWarps *
      strip_stage_chunks (p->channels, limits->warp_size);
  const int per_mp = resident_blocks (plan.kernel, plan.threads, plan.shared,
      limits->shared_mem_optin - stages);
  int bands = per_mp * limits->multiprocessors / plan.blocks_x *
      bands_a_block;
  bands = bands > 0 ? bands : 1;
  const int band_rows = ceil_div (p->height, bands);
  plan.band_rows = band_rows;
  const int window_rows = 2 * p->radius_y + 1;
  const int start_rows = share ? p->radius_y + 1 : window_rows;
  if (start_rows > kStartBands * band_rows
      && start_rows > short_start_rows (p, share))
    return plan;
  plan.blocks_y = ceil_div (ceil_div (p->height, band_rows), bands_a_block);
  plan.paired = share;
  const uint32_t window_samples = (uint32_t) window;
  plan.params = StripParams { nullptr, 0, nullptr, 0, p->width, p->height,
    p->radius_y, p->border, strips, band_rows,
    ((1u << 24) + window_samples - 1) / window_samples, p->after_plane };
  plan.ok = true;
  return plan;
}

}  // namespace

/* Bands in pairs where the lanes share their starts; four-byte lanes only
 * where their bands alone would be shorter than their windows. */
StripPlan plan_strips (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * p)
{
  const bool cut = p->channels % 2 == 1 && p->border == HIPF_BORDER_VALID;
  const bool share = shares_band_starts (p->channels, cut)
      && p->radius_y >= kPairMinRadius;
  if (p->channels != 4 || !share)
    return plan_strips_as (limits, p, share);
  const StripPlan single = plan_strips_as (limits, p, false);
  if (single.band_rows == 0 || 2 * p->radius_y + 1 <= single.band_rows)
    return single;
  return plan_strips_as (limits, p, true);
}

hipError_t run_strips (const HipfDeviceLimits * limits,
    const StripPlan & plan, const uint8_t * src, size_t src_pitch,
    uint8_t * dst, size_t dst_pitch, hipStream_t stream)
{
  if (!aligned_rows (src, src_pitch) || !aligned_rows (dst, dst_pitch))
    return hipErrorInvalidValue;
  StripParams sp = plan.params;
  sp.src = src;
  sp.src_pitch = src_pitch;
  sp.dst = dst;
  sp.dst_pitch = dst_pitch;
  void *args[] = { &sp };
  return launch_dependent (limits, plan.kernel,
      dim3 (plan.blocks_x, plan.blocks_y), dim3 (plan.threads), args,
      plan.shared, stream);
}

}  // namespace hipf::blur
