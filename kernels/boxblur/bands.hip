/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The band path, for rows that fit a block's shared memory: each block
 * owns a band of rows and keeps the vertical window sums of its 16-sample
 * chunks in registers, sliding them along the band (add the row entering
 * the window, subtract the one leaving), down in even bands and up in odd
 * ones, so neighbouring bands share their rows in L2. Per output row it
 * scans the sums along the row into shared memory, with the
 * border-extended prefix beyond both ends, and reads every horizontal
 * window sum off that prefix as one difference. Where every window sum of
 * a channel fits 16 bits, two channels share a word in 16-bit lanes,
 * which halves the scan and frees registers for two rows a step.
 */
#include "boxblur/band_means.cuh"
#include "boxblur/band_starts.cuh"

namespace hipf::blur {
namespace {

/* Column sums of each band: row b + 1 of the prefix holds the sums of the
 * rows of band b, two sample columns a word in 16-bit lanes
 * (column_band_scan turns them into prefixes). */
__global__ void column_band_sums (const uint8_t * __restrict__ src,
    size_t pitch, int height, int band_rows, int chunks,
    uint32_t * __restrict__ prefix, size_t stride)
{
  constexpr int W = kChunk / 2;
  allow_dependent_grid ();
  wait_for_prior_grid ();
  const int chunk = blockIdx.x * blockDim.x + threadIdx.x;
  const int y0 = blockIdx.y * band_rows;
  if (chunk >= chunks)
    return;
  uint32_t v[W] = { };
  add_rows<1, 2, 1, kSumBatch> (v, src, pitch, chunk, chunks,
      min (height, y0 + band_rows) - y0, [=](int d) { return y0 + d; });
  uint4 *out = reinterpret_cast<uint4 *>(prefix + (blockIdx.y + 1) * stride +
      chunk * W);
#pragma unroll
  for (int k = 0; k < W / 4; ++k)
    out[k] = make_uint4 (v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
}

/* Band sums to prefixes over the bands, in place. A block takes a warp's
 * width of sample columns (blockDim.x), its warps (blockDim.y) a segment
 * of kScanBatch bands each: a lane walks its segment down one column with
 * every load in flight at once, and the segments' totals are then added
 * across the warps, so that a column waits on memory once per
 * kScanSegments segments rather than once per segment. */
__global__ void column_band_scan (int bands, int columns,
    uint32_t * __restrict__ prefix, size_t stride)
{
  __shared__ uint32_t totals[kScanSegments][kWarpSize];
  wait_for_prior_grid ();
  allow_dependent_grid ();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int segment = threadIdx.y;
  uint32_t *column = prefix + i;
  uint32_t carry = 0;
  if (i < columns && segment == 0)
    column[0] = 0;
  for (int b0 = 1; b0 <= bands; b0 += kScanBatch * kScanSegments) {
    const int first = b0 + segment * kScanBatch;
    uint32_t v[kScanBatch];
#pragma unroll
    for (int k = 0; k < kScanBatch; ++k)
      v[k] = i < columns && first + k <= bands ?
          column[(size_t) (first + k) * stride] : 0;
#pragma unroll
    for (int k = 1; k < kScanBatch; ++k)
      v[k] += v[k - 1];
    totals[segment][threadIdx.x] = v[kScanBatch - 1];
    __syncthreads ();
    uint32_t offset = carry;
#pragma unroll
    for (int t = 0; t < kScanSegments; ++t) {
      const uint32_t total = totals[t][threadIdx.x];
      offset += t < segment ? total : 0;
      carry += total;
    }
    /* The totals are rewritten next round only after every warp read. */
    __syncthreads ();
    if (i < columns) {
#pragma unroll
      for (int k = 0; k < kScanBatch; ++k)
        if (first + k <= bands)
          column[(size_t) (first + k) * stride] = v[k] + offset;
    }
  }
}

/* The rows entering and leaving the window as it moves to the band's
 * output row @step, first + dir * step, from the one before, in the
 * thread's chunks; nothing past the band's @rows rows. */
template <int ChunksPerThread>
struct Transition
{
  uint4 enter[ChunksPerThread], leave[ChunksPerThread];
};

/* With NearRows, rows outside the plane are found without a division wherever
 * the vertical radius keeps them within one reflection or period of it:
 * the bands at the plane's top and bottom, which the launch waits for
 * last, took two divisions a row. */
template <int ChunksPerThread, bool NearRows>
__device__ inline Transition<ChunksPerThread>
load_transition (const BandParams & p, int step, int rows, int first, int dir)
{
  Transition<ChunksPerThread> q;
  const bool more = step < rows;
  const int t = first + dir * step;
  auto row = [&](int i) {
    return NearRows && p.radius_y <= p.height - 2 ?
        border_row_near (i, p.height, p.mode) : border_row (i, p.height,
        p.mode);
  };
  const int enter = more ? row (t + dir * p.radius_y) : -1;
  const int leave = more ? row (t - dir * (p.radius_y + 1)) : -1;
#pragma unroll
  for (int s = 0; s < ChunksPerThread; ++s) {
    const int chunk = threadIdx.x * ChunksPerThread + s;
    const bool valid = chunk < p.chunks;
    q.enter[s] = valid && enter >= 0 ? chunk_at (p.src, p.src_pitch, enter,
        chunk) : make_uint4 (0, 0, 0, 0);
    q.leave[s] = valid && leave >= 0 ? chunk_at (p.src, p.src_pitch, leave,
        chunk) : make_uint4 (0, 0, 0, 0);
  }
  return q;
}

template <int PixelWords, int ChannelsPerWord, int ChunksPerThread, int Words>
__device__ inline void apply (uint32_t (&v)[Words],
    const Transition<ChunksPerThread> & q)
{
#pragma unroll
  for (int s = 0; s < ChunksPerThread; ++s)
    slide<PixelWords, ChannelsPerWord> (v, q.enter[s], q.leave[s],
        s * Lanes<PixelWords, ChannelsPerWord>::kWords);
}

/* Each block owns a band of whole rows and takes RowsPerStep output rows a
 * step. Per row: the vertical window sums (held in registers) are scanned
 * along the row in two steps, within each warp and then across the warps'
 * totals, which every warp scans for itself rather than waiting on one;
 * the prefix goes to shared memory with the border-extended prefix around
 * it, and every mean is then a difference of two prefix entries. Two
 * barriers a step: the warp totals are complete, the prefixes are complete
 * (wrap and mirror take a third, for the entries beyond the row's ends that
 * follow from them, unless the warps that read those entries write them).
 * Nothing needs more, because each shared array is rewritten only after a
 * barrier its readers have passed. Two rows a step halve the barriers a row
 * and give each warp two independent scans to interleave, where registers
 * allow. ValidMode compiles in the valid mode's own means for one to three
 * words a pixel: the chunks at the row's ends spread over the block, and
 * rows with fewer window rows divided exactly (row_divider). Four-word
 * pixels have the cut table instead, and the lanes kernels their own
 * multipliers. */
template <int PixelWords, int ChunksPerThread, int ChannelsPerWord,
    int RowsPerStep, bool ValidMode>
__global__ void __launch_bounds__ (band_threads (RowsPerStep *
        ChunksPerThread * Lanes<PixelWords, ChannelsPerWord>::kWords), 1)
box_blur_bands (BandParams p)
{
  /* Row r's F_c(k) at
   * prefix[r * row_words + padded (origin + k * PixelWords + c)]: the
   * prefix of the row, for k in [0, width], and when extended that of the
   * border-extended row, for k in [-radius_x, width + radius_x]. */
  extern __shared__ uint32_t prefix[];
  __shared__ uint4 warp_sums[RowsPerStep][kScanWarps];    /* per channel */
  /* The first and last pixel's sums. */
  __shared__ uint32_t edge_sums[RowsPerStep][2][kMaxChannels];
  /* The valid mode's lane multipliers for the windows cut short at the
   * row's ends, by their width. */
  __shared__ uint32_t cut_magic[RowsPerStep][ChannelsPerWord == 2 ?
      kMaxLaneWindow / 2 + 1 : 1];
  constexpr int kChunkWords = Lanes<PixelWords, ChannelsPerWord>::kWords;
  /* Words a thread owns. */
  constexpr int kThreadWords = ChunksPerThread * kChunkWords;
  /* Rows by border_row_near where the radius allows (kNearRowsMinWords). */
  constexpr bool kNearRows = PixelWords >= kNearRowsMinWords;
  const int samples = p.width * PixelWords, rx = p.radius_x, width = p.width;
  const bool extended = p.extended;
  const int origin = extended ? rx * PixelWords : 0;
  const int i0 = threadIdx.x * kThreadWords;
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  const int warps = blockDim.x / kWarpSize;
  const int y0 = blockIdx.x * p.band_rows;
  const int y1 = min (p.height, y0 + p.band_rows);
  /* Sample i's own prefix entry is F(x + 1); its window is F(x + rx + 1)
   * - F(x - rx). */
  const int own = origin + PixelWords, lead = PixelWords * (2 * rx + 1),
      lag = origin - rx * PixelWords;
  const bool periodic = extended && (p.mode == HIPF_BORDER_WRAP
      || p.mode == HIPF_BORDER_MIRROR);
  const bool counted = ChannelsPerWord == 2 && extended
      && p.mode == HIPF_BORDER_VALID;
  /* The valid mode's cut table, past the rows' prefixes, and the count_y
   * it was filled for. */
  const bool cut = takes_cut_table (PixelWords, ChannelsPerWord) && extended
      && p.mode == HIPF_BORDER_VALID;
  uint2 *const cut_table =
      reinterpret_cast<uint2 *>(prefix + RowsPerStep * p.row_words);
  uint32_t cut_count_y = 0;
  /* Warps with a pixel whose window crosses the row's ends, where that
   * has no simple mean, take the slower means for all their chunks, so
   * that the out-of-line call is never divergent: with CUDA 13's nvcc, a
   * call made by some lanes only corrupted the other lanes' means. */
  bool at_edge = false;
  /* One to three words a pixel, the valid mode's chunks at the row's
   * ends, [0, left_chunks) and [right_chunk, chunks), are instead the
   * whole block's, a sample a thread (edge_means), where the rows have the
   * extension. */
  static_assert (!ValidMode || ChannelsPerWord == 1, "a sample a word");
  const bool spread_edges = ValidMode
      && !takes_cut_table (PixelWords, ChannelsPerWord) && extended
      && p.mode == HIPF_BORDER_VALID;
  const int left_chunks = spread_edges ? min (p.chunks,
      ceil_div (rx * PixelWords, kChunk)) : 0;
  const int right_chunk = spread_edges ? max (left_chunks,
      (width - rx) * PixelWords / kChunk) : p.chunks;
  if (!spread_edges && (!extended || p.mode == HIPF_BORDER_VALID)) {
    const int first = warp * kWarpSize * kThreadWords;
    const int last = min ((warp + 1) * kWarpSize * kThreadWords, samples) - 1;
    at_edge = first / PixelWords < rx || last / PixelWords >= width - rx;
  }
  /* Even bands walk down, odd ones up: neighbouring bands start at their
   * common boundary and end at the next, so the rows of the windows they
   * start with, and those they read last, come from DRAM once for both. */
  const int rows = y1 - y0, dir = blockIdx.x % 2 ? -1 : 1;
  const int first = dir > 0 ? y0 : y1 - 1;
  /* v[0]: the window sums of the step's first row, carried; pending: the
   * transitions to its other rows, loaded a step ahead. */
  uint32_t v[RowsPerStep][kThreadWords];
  Transition<ChunksPerThread> pending[RowsPerStep];

  /* Launched as a dependent of the kernel before it (the band prefixes'
   * scan, where there is one): no memory is touched before this. */
  wait_for_prior_grid ();
  {
    uint32_t start[kThreadWords] = { };
    if (threadIdx.x * ChunksPerThread < p.chunks)
      start_window<PixelWords, ChannelsPerWord, ChunksPerThread> (start, p,
          threadIdx.x * ChunksPerThread, first);
#pragma unroll
    for (int k = 0; k < kThreadWords; ++k)
      v[0][k] = start[k];
#pragma unroll
    for (int r = 1; r < RowsPerStep; ++r)
      pending[r] = load_transition<ChunksPerThread, kNearRows> (p, r, rows,
          first, dir);
  }

  for (int step = 0; step < rows; step += RowsPerStep) {
#pragma unroll
    for (int r = 1; r < RowsPerStep; ++r) {
#pragma unroll
      for (int k = 0; k < kThreadWords; ++k)
        v[r][k] = v[r - 1][k];
      apply<PixelWords, ChannelsPerWord> (v[r], pending[r]);
    }
    /* The transitions of the next step, loaded now so that their latency
     * hides behind this step's work. */
    const Transition<ChunksPerThread> next =
        load_transition<ChunksPerThread, kNearRows> (p, step + RowsPerStep,
        rows, first, dir);
#pragma unroll
    for (int r = 1; r < RowsPerStep; ++r)
      pending[r] = load_transition<ChunksPerThread, kNearRows> (p,
          step + RowsPerStep + r, rows, first, dir);

    /* The thread's totals, scanned within the warp. The thread's own
     * prefix is formed again after the barrier rather than held across
     * it, which would cost a register per sample. */
    const int base = PixelWords == 3 && kThreadWords % 3 ? i0 % 3 : 0;
    uint32_t total[RowsPerStep][PixelWords], incl[RowsPerStep][PixelWords];
#pragma unroll
    for (int r = 0; r < RowsPerStep; ++r) {
      /* Samples past the row (in its padding) must not count. */
      if (i0 + kThreadWords > samples) {
#pragma unroll
        for (int k = 0; k < kThreadWords; ++k)
          v[r][k] = i0 + k < samples ? v[r][k] : 0;
      }
#pragma unroll
      for (int c = 0; c < PixelWords; ++c)
        total[r][c] = 0;
#pragma unroll
      for (int k = 0; k < kThreadWords; ++k) {
        const int c = chunk_channel<PixelWords> (base, k);
        put<PixelWords> (total[r], c, pick<PixelWords> (total[r], c) + v[r][k]);
      }
#pragma unroll
      for (int c = 0; c < PixelWords; ++c)
        incl[r][c] = total[r][c];
    }
#pragma unroll
    for (int off = 1; off < kWarpSize; off <<= 1) {
#pragma unroll
      for (int r = 0; r < RowsPerStep; ++r) {
#pragma unroll
        for (int c = 0; c < PixelWords; ++c) {
          const uint32_t n = shfl_up (incl[r][c], off);
          if (lane >= off)
            incl[r][c] += n;
        }
      }
    }
#pragma unroll
    for (int r = 0; r < RowsPerStep; ++r) {
      const uint32_t (&in)[PixelWords] = incl[r];
      if (lane == kWarpSize - 1)
        warp_sums[r][warp] = make_uint4 (in[0],
            PixelWords > 1 ? in[PixelWords > 1 ? 1 : 0] : 0,
            PixelWords > 2 ? in[PixelWords > 2 ? 2 : 0] : 0,
            PixelWords > 3 ? in[PixelWords > 3 ? 3 : 0] : 0);
      /* The edge pixels' sums, which the clamp and mirror extensions use. */
      if (i0 < PixelWords) {
#pragma unroll
        for (int k = 0; k < PixelWords; ++k)
          if (i0 + k < PixelWords)
            edge_sums[r][0][i0 + k] = v[r][k];
      }
      if (i0 + kThreadWords > samples - PixelWords && i0 < samples) {
#pragma unroll
        for (int k = 0; k < kThreadWords; ++k)
          if (i0 + k >= samples - PixelWords && i0 + k < samples)
            edge_sums[r][1][(i0 + k) % PixelWords] = v[r][k];
      }
    }
    __syncthreads ();

    uint32_t row_total[RowsPerStep][PixelWords], s0[RowsPerStep][PixelWords],
        s_last[RowsPerStep][PixelWords];
#pragma unroll
    for (int r = 0; r < RowsPerStep; ++r) {
      uint32_t *const row = prefix + r * p.row_words;
      /* Across the warps: every warp sums the totals of the warps before
       * its own, and of all of them, by reductions rather than a scan. */
      uint32_t run[PixelWords];
      const uint4 sums = lane < warps ? warp_sums[r][lane] :
          make_uint4 (0, 0, 0, 0);
#pragma unroll
      for (int c = 0; c < PixelWords; ++c) {
        const uint32_t x = c == 0 ? sums.x : c == 1 ? sums.y : c == 2 ?
            sums.z : sums.w;
        run[c] = warp_sum (lane < warp ? x : 0) + incl[r][c] - total[r][c];
        row_total[r][c] = warp_sum (x);
        s0[r][c] = edge_sums[r][0][c];
        s_last[r][c] = edge_sums[r][1][c];
      }

      /* The thread's own prefix entries. A thread whose samples all lie in
       * the row stores them without a test each, which the compiler turned
       * into a branch a store. */
      auto store_run = [&](bool guarded) {
        if constexpr (PixelWords == 4 || PixelWords == 2) {
#pragma unroll
          for (int px = 0; px < kThreadWords / PixelWords; ++px) {
#pragma unroll
            for (int c = 0; c < PixelWords; ++c)
              run[c] += v[r][PixelWords * px + c];
            if (!guarded || i0 + PixelWords * px < samples)
              store_pixel<PixelWords> (row, i0 + PixelWords * px + own, run);
          }
        } else {
#pragma unroll
          for (int k = 0; k < kThreadWords; ++k) {
            const int c = chunk_channel<PixelWords> (base, k);
            put<PixelWords> (run, c, pick<PixelWords> (run, c) + v[r][k]);
            if (!guarded || i0 + k < samples)
              row[padded<PixelWords> (i0 + k + own)] =
                  pick<PixelWords> (run, c);
          }
        }
      };
      if (i0 + kThreadWords <= samples)
        store_run (false);
      else
        store_run (true);

      auto extend = [&](int k, int c, uint32_t value) {
        row[padded<PixelWords> (origin + k * PixelWords + c)] = value;
      };
      if (threadIdx.x == 0) {
#pragma unroll
        for (int c = 0; c < PixelWords; ++c)
          extend (0, c, 0);
      }
      /* Wrap and mirror entries come from the row's own prefix, so every
       * thread fills some of them once the prefix is complete (below);
       * zero, valid and clamp have closed forms in the row's ends. */
      if (extended && !periodic) {
        const bool clamp = p.mode == HIPF_BORDER_CLAMP;
        for (int m = threadIdx.x; m < 2 * rx; m += blockDim.x) {
          const bool left = m < rx;
          const int k = left ? m - rx : width + 1 + m - rx;
#pragma unroll
          for (int c = 0; c < PixelWords; ++c)
            extend (k, c, left ? (clamp ? (uint32_t) k * s0[r][c] : 0u) :
                row_total[r][c] + (clamp ? (uint32_t) (k - width) *
                    s_last[r][c] : 0u));
        }
      }
    }
    if (cut) {
      static_assert (!takes_cut_table (PixelWords, ChannelsPerWord)
          || RowsPerStep == 1, "a table a step");
      const int y = first + dir * step;
      const uint32_t count_y = window_count (y - p.radius_y,
          y + p.radius_y + 1, p.height, p.mode);
      if (count_y != cut_count_y)
        fill_cut_table (cut_table, count_y, rx);
      cut_count_y = count_y;
    }
    if (counted) {
#pragma unroll
      for (int r = 0; r < RowsPerStep; ++r) {
        /* A row past the band has no means, and may count no rows. */
        if (RowsPerStep > 1 && step + r >= rows)
          break;
        const int y = first + dir * (step + r);
        const uint32_t count_y = window_count (y - p.radius_y,
            y + p.radius_y + 1, p.height, p.mode);
        for (int k = threadIdx.x; k <= rx; k += blockDim.x) {
          const uint32_t n = (uint32_t) (rx + 1 + k) * count_y;
          cut_magic[r][k] = ((1u << 24) + n - 1) / n;
        }
      }
    }
    /* Slide the window on to the next step, with the loads issued early:
     * done here, the loaded rows need no registers while the means are
     * formed. */
    if constexpr (RowsPerStep > 1) {
#pragma unroll
      for (int k = 0; k < kThreadWords; ++k)
        v[0][k] = v[RowsPerStep - 1][k];
    }
    apply<PixelWords, ChannelsPerWord> (v[0], next);
    __syncthreads ();
    if (periodic) {
      /* Where p.own_extension allows, the first and last warps write the
       * entries they read themselves, and the block needs no third
       * barrier. Entries [0, rx) extend the row to the left, [rx, 2 rx)
       * to the right. The lanes kernels keep the barrier: with CUDA 13's
       * nvcc, this code made them slower in every border mode. */
      const int last_warp = (samples - 1) / (kWarpSize * kThreadWords);
      const bool own = ChannelsPerWord == 1 && p.own_extension;
      const int begin = own && warp > 0 ? rx : 0;
      const int end = !own || warp == last_warp ? 2 * rx : warp == 0 ? rx : 0;
#pragma unroll
      for (int r = 0; r < RowsPerStep; ++r)
        extend_periodic<PixelWords> (prefix + r * p.row_words, origin, width,
            rx, p.mode == HIPF_BORDER_MIRROR, row_total[r], s0[r], s_last[r],
            begin, end, own ? lane : threadIdx.x, own ? kWarpSize : blockDim.x);
      if (own)
        warp_sync ();
      else
        __syncthreads ();
    }

#pragma unroll
    for (int r = 0; r < RowsPerStep; ++r) {
      if (RowsPerStep > 1 && step + r >= rows)
        break;
      const uint32_t *const row = prefix + r * p.row_words;
      /* Means off the prefix. Inside the valid mode's top and bottom rows
       * the window holds fewer rows, and n changes with the row. */
      const int y = first + dir * (step + r);
      const int ya = y - p.radius_y, yb = y + p.radius_y + 1;
      const uint32_t count_y = window_count (ya, yb, p.height, p.mode);
      const uint32_t n = (uint32_t) (2 * rx + 1) * count_y;
      const bool exact = p.exact && count_y == (uint32_t) (2 * p.radius_y + 1);
      uint8_t *row_out = p.dst + (size_t) y * p.dst_pitch;
      uint32_t lane_magic = p.magic;
      if (ChannelsPerWord == 2 && !exact)
        lane_magic = ((1u << 24) + n - 1) / n;
      /* The valid mode's rows whose windows hold fewer rows divide exactly
       * too, by a multiplier of their own: a division a chunk and a
       * corrected quotient a sample cost more, in the bands the launch
       * waits for. */
      uint32_t row_magic = 0;
      int row_shift = 0;
      const bool row_exact = ValidMode && !exact
          && row_divider (n, row_magic, row_shift);
      if (spread_edges)
        edge_means<PixelWords> (row, p, origin, left_chunks, right_chunk,
            count_y, row_out);
      /* Chunks of this thread's that edge_means does not write. */
      auto inner = [&](int chunk) {
        if constexpr (ValidMode)
          return chunk >= left_chunks && chunk < right_chunk;
        return chunk < p.chunks;
      };
      /* The common case, chosen once a row rather than once a chunk, where
       * that did not make the kernel spill (three-byte pixels and the
       * lanes kernels), and the valid mode's warps at the row's ends. */
      if constexpr (ChannelsPerWord == 1 && PixelWords != 3) {
        if (!at_edge && exact && p.shift % 8 == 0) {
#pragma unroll
          for (int s = 0; s < ChunksPerThread; ++s) {
            const int chunk = threadIdx.x * ChunksPerThread + s;
            if (inner (chunk))
              store_means<PixelWords, ChannelsPerWord,
                  Division::kExactByte> (row, chunk * kChunkWords + lag, lead,
                  n, p.magic, p.shift, row_out + (size_t) chunk * kChunk);
          }
          continue;
        }
        if (PixelWords == 4 && cut && at_edge) {
#pragma unroll
          for (int s = 0; s < ChunksPerThread; ++s) {
            const int chunk = threadIdx.x * ChunksPerThread + s;
            if (chunk < p.chunks)
              store_cut_pixels (row, chunk * kChunkWords + lag, lead,
                  chunk * kChunkWords / PixelWords, p, cut_table,
                  row_out + (size_t) chunk * kChunk);
          }
          continue;
        }
      }
      for (int s = 0; s < ChunksPerThread; ++s) {
        const int chunk = threadIdx.x * ChunksPerThread + s,
            ic = chunk * kChunkWords;
        uint8_t *out = row_out + (size_t) chunk * kChunk;
        if (ValidMode ? !inner (chunk) : chunk >= p.chunks)
          continue;
        if (at_edge && counted) {
          /* Pixels within rx of the row's ends count fewer columns, h, and
           * take cut_magic[h - rx - 1]. */
          const int x0 = ic / PixelWords;
          const uint32_t *magic = cut_magic[r];
          store_lane_means<PixelWords> (row, ic + lag, lead,
              [&](int px, uint32_t & m, uint32_t & bias) {
                const int x = x0 + px;
                const int h = min (x + rx, width - 1) - max (x - rx, 0) + 1;
                m = magic[max (h - rx - 1, 0)];
                bias = ((uint32_t) h * count_y / 2) * m;
              }, out);
        }
        else if (at_edge)
          store_edge_means<PixelWords, ChannelsPerWord> (row, ic, p, origin,
              extended, count_y, out);
        else if (ChannelsPerWord == 2)
          store_means<PixelWords, ChannelsPerWord,
              Division::kLanes> (row, ic + lag, lead, n, lane_magic, 0, out);
        else if (exact && p.shift % 8 == 0)
          store_means<PixelWords, ChannelsPerWord,
              Division::kExactByte> (row, ic + lag, lead, n, p.magic,
              p.shift, out);
        else if (exact)
          store_means<PixelWords, ChannelsPerWord,
              Division::kExactShifted> (row, ic + lag, lead, n, p.magic,
              p.shift, out);
        else if (row_exact)
          store_means<PixelWords, ChannelsPerWord,
              Division::kExactShifted> (row, ic + lag, lead, n, row_magic,
              row_shift, out);
        else
          store_means<PixelWords, ChannelsPerWord,
              Division::kCorrected> (row, ic + lag, lead, n, 0xffffffffu / n,
              0, out);
      }
    }
  }
}

template <int PixelWords, int ChunksPerThread, int ChannelsPerWord,
    int RowsPerStep, bool ValidMode = false>
const void *band_kernel ()
{
  return reinterpret_cast<const void *>(box_blur_bands<PixelWords,
      ChunksPerThread, ChannelsPerWord, RowsPerStep, ValidMode>);
}

/* The band kernels that exist, one per channel count and lane layout, and
 * their chunks a thread and rows a step: four-channel rows two chunks a
 * thread, three-channel rows three (16 whole pixels, so no sample's
 * channel is looked up at run time), the others one; lanes two chunks.
 * Two rows a step where the registers hold them. One- and two-channel
 * rows have a kernel of their own for the valid mode (its code slowed
 * their mirror mode); three-channel rows have it in their only kernel,
 * four-channel rows their cut table. Each kernel costs minutes of AMD
 * build time, and wider rows are rare enough for the general path. */
template <int Channels>
const void *band_kernel_chunks (int chunks_per_thread, int channels_per_word,
    int rows_per_step, bool valid)
{
  if (channels_per_word == 2) {
    if constexpr (Channels % 2 == 0)
      return chunks_per_thread == 2 && rows_per_step == 2 ?
          band_kernel<Channels / 2, 2, 2, 2> () : nullptr;
    return nullptr;
  }
  if constexpr (Channels == 4)
    return chunks_per_thread == 2 && rows_per_step == 1 ?
        band_kernel<Channels, 2, 1, 1> () : nullptr;
  else if constexpr (Channels == 3)
    return chunks_per_thread == 3 && rows_per_step == 1 ?
        band_kernel<Channels, 3, 1, 1, true> () : nullptr;
  else if (chunks_per_thread != 1 || rows_per_step != 2)
    return nullptr;
  else
    return valid ? band_kernel<Channels, 1, 1, 2, true> () :
        band_kernel<Channels, 1, 1, 2> ();
}

const void *band_kernel_for (int channels, int chunks_per_thread,
    int channels_per_word, int rows_per_step, HipfBorderMode mode)
{
  const bool valid = mode == HIPF_BORDER_VALID;
  const int cpt = chunks_per_thread, cpw = channels_per_word;
  switch (channels) {
    case 1: return band_kernel_chunks<1> (cpt, cpw, rows_per_step, valid);
    case 2: return band_kernel_chunks<2> (cpt, cpw, rows_per_step, valid);
    case 3: return band_kernel_chunks<3> (cpt, cpw, rows_per_step, valid);
    default: return band_kernel_chunks<4> (cpt, cpw, rows_per_step, valid);
  }
}

/* Shared words of one row's prefix of @words words: room for a whole last
 * vector, and whole vectors, so that the next row's prefix is aligned. */
int band_row_words (int pixel_words, int words)
{
  return ceil_div (padded_words (pixel_words, words + 4), 4) * 4;
}

/* Multiplier and shift that divide exactly by n every x < 2^8 n: with
 * m = ceil (2^(32+s) / n) the error m n - 2^(32+s) < n stays below
 * 2^(32+s) / x when 2^8 n (n - 1) < 2^(32+s). Fails (m past 32 bits)
 * only for windows of more than 2^23 samples. */
bool exact_divider (uint32_t n, uint32_t * magic, int *shift)
{
  if (n < 2)
    return false;
  const uint64_t bound = ((uint64_t) n * (n - 1)) << kQuotientBits;
  int s = 0;
  while (s < 31 && bound >= (uint64_t) 1 << (32 + s))
    ++s;
  const uint64_t m = (((uint64_t) 1 << (32 + s)) + n - 1) / n;
  if (m > 0xffffffffu)
    return false;
  /* A larger shift keeps the bound; one that is a whole number of bytes
   * saves the kernels a shift a sample, where the multiplier still fits. */
  const int byte_shift = (s + 7) / 8 * 8;
  const uint64_t mb = byte_shift < 32 ?
      (((uint64_t) 1 << (32 + byte_shift)) + n - 1) / n : UINT64_MAX;
  const bool bytes = mb <= 0xffffffffu;
  *magic = (uint32_t) (bytes ? mb : m);
  *shift = bytes ? byte_shift : s;
  return true;
}

/* The kernel's arguments but the frame's memory, from the plan's layout. */
void fill_band_params (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * p, BandPlan & plan, int band_rows, bool extended)
{
  BandParams & bp = plan.params;
  bp.width = p->width;
  bp.height = p->height;
  bp.radius_x = p->radius_x;
  bp.radius_y = p->radius_y;
  bp.mode = p->border;
  bp.band_rows = band_rows;
  bp.chunks = (int) (plan.prefix_stride / kChunk);
  bp.band_stride = plan.prefix_words;
  const uint32_t window = (uint32_t) (2 * p->radius_x + 1) *
      (uint32_t) (2 * p->radius_y + 1);
  if (plan.channels_per_word == 2) {
    bp.magic = ((1u << 24) + window - 1) / window;
    bp.exact = 1;
  } else {
    bp.exact = exact_divider (window, &bp.magic, &bp.shift);
  }
  bp.extended = extended;
  bp.row_words = plan.row_words;
  /* A warp writing a longer extension holds up the block for longer than
   * a barrier would. */
  const int pixel_words = p->channels / plan.channels_per_word;
  const int samples = p->width * pixel_words;
  const int warp_words = limits->warp_size * plan.chunks_per_thread *
      kChunk / plan.channels_per_word;
  const int last_warp = (samples - 1) / warp_words;
  bp.own_extension = plan.channels_per_word == 1
      && p->radius_x <= limits->warp_size
      && p->radius_x * pixel_words <= warp_words
      && last_warp * warp_words <= (p->width - p->radius_x) * pixel_words;
}

}  // namespace

BandPlan plan_bands (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * p, int channels_per_word, int rows_per_step)
{
  BandPlan plan = { };
  const int chunks = ceil_div (p->width * p->channels, kChunk);
  const int pixel_words = p->channels / channels_per_word;
  const int chunk_words = kChunk / channels_per_word;
  const int max_threads = limits->max_threads_per_block < kMaxBandThreads ?
      limits->max_threads_per_block : kMaxBandThreads;

  /* Two chunks a thread where that kernel exists: the row scan's cost is
   * shared by twice the samples, and the registers it gets hold them. */
  plan.channels_per_word = channels_per_word;
  plan.rows_per_step = rows_per_step;
  plan.chunks_per_thread = p->channels == 3 ? 3 : p->channels == 4
      || channels_per_word == 2 || chunks > max_threads ? 2 : 1;
  plan.kernel = band_kernel_for (p->channels, plan.chunks_per_thread,
      channels_per_word, rows_per_step, p->border);
  if (!plan.kernel)
    return plan;
  if (ceil_div (chunks, plan.chunks_per_thread) > min (max_threads,
          band_threads (rows_per_step * plan.chunks_per_thread *
              chunk_words)))
    return plan;
  plan.threads = ceil_div (ceil_div (chunks, plan.chunks_per_thread),
      limits->warp_size) * limits->warp_size;
  /* Every thread's chunks, and the extension on both sides where the
   * radius leaves the extension one period long and it fits. */
  const int own_words = plan.threads * plan.chunks_per_thread * chunk_words;
  const size_t static_shared = sizeof (uint32_t) * rows_per_step *
      (kMaxChannels * (kScanWarps + 2) +
      (channels_per_word == 2 ? kMaxLaneWindow / 2 + 1 : 1));
  bool extended = p->radius_x <= p->width - 2;
  const int cut_words = takes_cut_table (pixel_words, channels_per_word)
      && p->border == HIPF_BORDER_VALID ? 2 * (p->radius_x + 1) : 0;
  plan.row_words = band_row_words (pixel_words, own_words +
      (2 * p->radius_x + 2) * pixel_words);
  plan.shared = ((size_t) rows_per_step * plan.row_words + cut_words) *
      sizeof (uint32_t);
  if (!extended || plan.shared + static_shared > limits->shared_mem_optin) {
    extended = false;
    plan.row_words = band_row_words (pixel_words, own_words + pixel_words);
    plan.shared = (size_t) rows_per_step * plan.row_words * sizeof (uint32_t);
  }
  if (plan.shared + static_shared > limits->shared_mem_optin)
    return plan;
  /* One band per resident block: as many blocks as fill the device. */
  const int per_mp = resident_blocks (plan.kernel, plan.threads, plan.shared,
      limits->shared_mem_optin - static_shared);
  plan.fill = per_mp * limits->multiprocessors;
  const int band_rows = ceil_div (p->height, plan.fill);
  plan.bands = ceil_div (p->height, band_rows);
  /* Lanes have no band prefixes: theirs would be sums of samples. */
  plan.band_prefix = 2 * p->radius_y + 1 > kBandPrefixMinBands * band_rows;
  if (plan.band_prefix && channels_per_word == 2)
    return plan;
  plan.prefix_stride = (size_t) chunks * kChunk;
  plan.prefix_words = plan.prefix_stride / 2;
  plan.prefix_rows = prefix_rows_for (band_rows);
  plan.prefix_bands = ceil_div (p->height, plan.prefix_rows);
  plan.scratch = plan.band_prefix ? (size_t) (plan.prefix_bands + 1) *
      plan.prefix_words * sizeof (uint32_t) : 0;
  fill_band_params (limits, p, plan, band_rows, extended);
  plan.ok = true;
  return plan;
}

/* Two channels a word halves the row's scan and the prefix, where every
 * window sum of a channel fits a 16-bit lane. */
BandPlan plan_bands (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * p)
{
  const int64_t window = (int64_t) (2 * p->radius_x + 1) *
      (2 * p->radius_y + 1);
  if (p->channels % 2 == 0 && window <= kMaxLaneWindow) {
    BandPlan plan = plan_bands (limits, p, 2, 2);
    if (plan.ok)
      return plan;
  }
  BandPlan plan = plan_bands (limits, p, 1, 2);
  return plan.ok ? plan : plan_bands (limits, p, 1, 1);
}

hipError_t run_bands (const HipfDeviceLimits * limits, const BandPlan & plan,
    const uint8_t * src, size_t src_pitch, uint8_t * dst, size_t dst_pitch,
    void *scratch, hipStream_t stream)
{
  /* The plan was made for whole chunks a row: misaligned rows cannot
   * fall back. */
  if (!aligned_rows (src, src_pitch) || !aligned_rows (dst, dst_pitch)
      || src_pitch < plan.prefix_stride || dst_pitch < plan.prefix_stride)
    return hipErrorInvalidValue;
  BandParams bp = plan.params;
  bp.src = src;
  bp.src_pitch = src_pitch;
  bp.dst = dst;
  bp.dst_pitch = dst_pitch;
  if (plan.band_prefix) {
    uint32_t *prefix = (uint32_t *) scratch;
    int height = bp.height, rows = plan.prefix_rows, chunks = bp.chunks;
    size_t stride = plan.prefix_words;
    void *sum_args[] = { &src, &src_pitch, &height, &rows, &chunks, &prefix,
      &stride };
    hipError_t err = launch_dependent (limits,
        (const void *) column_band_sums, dim3 (ceil_div (chunks,
                kColumnThreads), plan.prefix_bands), dim3 (kColumnThreads),
        sum_args, 0, stream);
    if (err != hipSuccess)
      return err;
    /* Lane words scan as they are: their carries cancel in differences. */
    int columns = (int) plan.prefix_words, bands = plan.prefix_bands;
    void *scan_args[] = { &bands, &columns, &prefix, &stride };
    err = launch_dependent (limits, (const void *) column_band_scan,
        dim3 (ceil_div (columns, limits->warp_size)),
        dim3 (limits->warp_size, kScanSegments), scan_args, 0, stream);
    if (err != hipSuccess)
      return err;
    bp.band_prefix = prefix;
  }
  /* The launches overlap where the device allows (dependent launches). */
  void *args[] = { &bp };
  return launch_dependent (limits, plan.kernel, dim3 (plan.bands),
      dim3 (plan.threads), args, plan.shared, stream);
}

}  // namespace hipf::blur
