/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Zone metering inside the histogram's pass: the kernels that walk the
 * luma plane hand each group's luma bytes to a ZoneMeter, which adds them
 * into the zones' statistics (zones.h's words) as the separate pass
 * (zones_pass.hip) would.
 *
 * A block keeps every zone's (sum, min, max, low, high) in shared memory.
 * The lanes of a warp hold neighbouring groups, nearly always of one zone
 * or two: each lane sums its group's pixels of one zone in registers, the
 * warp adds up the lanes of each zone it holds (a reduction a zone, with
 * the other lanes adding nothing), and one lane adds the sums into the
 * block's counters, five shared atomics a zone. A group across a zone's
 * edge takes a round a zone. The block adds its counters into the zones'
 * words in global memory once, at its end.
 *
 * The words need their start values (min at its top, the rest 0) before
 * any block adds into them, and blocks do not wait for each other: each
 * launch sets them in the other half of a two-half buffer for the next
 * launch, as the histogram clears its next half, for every zone any grid
 * has, and writes its own zones' pixel counts (and an empty zone's min,
 * 0) into its half, words no atomic touches.
 */
#ifndef HIPF_HISTOGRAM_ZONES_CUH
#define HIPF_HISTOGRAM_ZONES_CUH

#include "histogram/common.cuh"
#include "zones.h"

namespace hipf::hist {

/* The zones a launch meters, worked out on the host (zones.hip). The
 * whole luma plane is metered: its region of interest covers it (the host
 * checks). */
struct ZoneArgs
{
  int cols, rows;
  uint32_t width, height;       /* of the luma plane */
  uint32_t width_magic, height_magic, cols_magic;  /* divide_corrected () */
  uint32_t low, high;           /* thresholds in the values metered */
  uint32_t *words;              /* the half this launch adds into */
  uint32_t *next;               /* the half it sets for the next launch */
};

/* A zone's counters in shared memory: a 64-bit sum, then min, max, and the
 * counts at the thresholds. */
struct ZoneSlot
{
  unsigned long long sum;
  uint32_t min, max, low, high;
};
constexpr size_t kZoneSlotBytes = sizeof (ZoneSlot);
static_assert (kZoneSlotBytes == 24, "a zone's counters in six words");

/* Shared memory a block's zone counters take; none without zones. */
__host__ __device__ inline size_t zone_shared_bytes (const ZoneArgs * zones)
{
  return zones ? (size_t) zones->cols * zones->rows * kZoneSlotBytes : 0;
}

/* Word @i of a half before a launch adds into it: every zone's min at its
 * top (any sample lowers it), the rest 0. */
__host__ __device__ constexpr uint32_t zone_start_word (int i)
{
  return i % HIPF_ZONE_WORDS == HIPF_ZONE_MIN ? ~0u : 0;
}

/* Luma bytes of a group's pixels, pixel p in byte p % 4 of word p / 4. */
template <int PIXELS>
using LumaBytes = uint32_t[(PIXELS + 3) / 4];

class ZoneMeter
{
public:
  /* @slots: a ZoneSlot a zone, 8-byte aligned, after the copies. */
  __device__ ZoneMeter (const ZoneArgs & args, uint32_t * slots)
  : z (args), zones (args.cols * args.rows),
      slot (reinterpret_cast<ZoneSlot *>(slots))
  {
  }

  /* Before the block's first add, ahead of a barrier: clears the block's
   * counters, sets the next half's start words, and this half's pixel
   * counts (and an empty zone's min, 0). */
  __device__ void begin () const
  {
    for (int i = threadIdx.x; i < zones; i += blockDim.x)
      slot[i] = ZoneSlot { 0, ~0u, 0, 0, 0 };
    const int thread = blockIdx.x * blockDim.x + threadIdx.x;
    const int threads = gridDim.x * blockDim.x;
    for (int i = thread; i < HIPF_HISTOGRAM_ZONE_HALF_WORDS; i += threads)
      z.next[i] = zone_start_word (i);
    for (int i = thread; i < zones; i += threads) {
      const int col = i % z.cols, row = i / z.cols;
      const uint32_t n = (col_start (col + 1) - col_start (col)) *
          (row_start (row + 1) - row_start (row));
      z.words[i * HIPF_ZONE_WORDS + HIPF_ZONE_PIXELS] = n;
      if (n == 0)
        z.words[i * HIPF_ZONE_WORDS + HIPF_ZONE_MIN] = 0;
    }
  }

  /* Adds a group of PIXELS pixels whose first is (x0, y) and whose luma
   * bytes are @luma; pixels from the plane's width on do not count, nor
   * does a group that is not @valid. Every lane of the warp calls it. */
  template <int PIXELS>
  __device__ void add (const LumaBytes<PIXELS> & luma, int x0, int y,
      bool valid) const
  {
    const int stop = valid ? (int) min ((uint32_t) (x0 + PIXELS), z.width)
        - x0 : 0;
    uint32_t row_zone = 0;
    if (valid)
      row_zone = divide_corrected ((y + 1) * z.rows - 1, z.height_magic,
          z.height) * z.cols;
    /* A round a zone of the lane's group, its pixels [p, end). */
    int p = 0;
    do {
      Run run;
      if (p < stop) {
        const uint32_t col = col_of (x0 + p);
        const int end = min ((int) col_start (col + 1) - x0, stop);
        run = p == 0 && end == PIXELS ? stats<PIXELS, false> (luma, 0, 0) :
            stats<PIXELS, true> (luma, p, end);
        run.zone = row_zone + col;
        p = end;
      }
      commit (run);
    } while (any_lane (p < stop));
  }

  /* After the block's last add: adds its counters into the zones'
   * words. */
  __device__ void end () const
  {
    __syncthreads ();
    for (int i = threadIdx.x; i < zones; i += blockDim.x) {
      const ZoneSlot s = slot[i];
      if (s.min == ~0u)
        continue;               /* no pixel of the block's */
      uint32_t *w = z.words + i * HIPF_ZONE_WORDS;
      atomicAdd (reinterpret_cast<unsigned long long *>(w +
              HIPF_ZONE_SUM_LO), s.sum);
      atomicMin (w + HIPF_ZONE_MIN, s.min);
      atomicMax (w + HIPF_ZONE_MAX, s.max);
      if (s.low)
        atomicAdd (w + HIPF_ZONE_LOW, s.low);
      if (s.high)
        atomicAdd (w + HIPF_ZONE_HIGH, s.high);
    }
  }

private:
  /* A lane's pixels of one zone: the low count in the low half of counts,
   * the high one in the high half (a warp's are at most 64 x 16). */
  struct Run
  {
    uint32_t zone = kNoZone;
    uint32_t sum = 0, counts = 0, lo = ~0u, hi = 0;
  };
  static constexpr uint32_t kNoZone = ~0u;

  const ZoneArgs & z;
  const int zones;
  ZoneSlot *const slot;

  /* Zone (col, row) covers columns [col_start (col), col_start (col + 1))
   * and rows likewise, as zones.h says. */
  __device__ uint32_t col_start (int col) const
  {
    return divide_corrected (col * z.width, z.cols_magic, z.cols);
  }

  __device__ uint32_t row_start (int row) const
  {
    return (uint32_t) ((unsigned long long) row * z.height / z.rows);
  }

  /* The zone column of x: the last whose start is at or before it. */
  __device__ uint32_t col_of (int x) const
  {
    return divide_corrected ((x + 1) * z.cols - 1, z.width_magic, z.width);
  }

  __device__ static bool any_lane (bool p)
  {
    return warp_ballot (p) != 0;
  }

  /* The statistics of pixels [first, end) of a group; RANGED false: all
   * of them. */
  template <int PIXELS, bool RANGED>
  __device__ Run stats (const LumaBytes<PIXELS> & luma, int first,
      int end) const
  {
    const uint32_t in = ((1u << end) - 1) & ~((1u << first) - 1);
    Run r;
#pragma unroll
    for (int q = 0; q < PIXELS; ++q) {
      if (RANGED && !((in >> q) & 1))
        continue;
      const uint32_t v = __byte_perm (luma[q / 4], 0, byte_selector (q % 4));
      r.sum += v;
      r.lo = min (r.lo, v);
      r.hi = max (r.hi, v);
      r.counts += (v <= z.low) + ((uint32_t) (v >= z.high) << 16);
    }
    return r;
  }

  /* Adds the warp's runs into the block's counters: for each zone among
   * them, the lanes of that zone added up and one atomic a counter. */
  __device__ void commit (const Run & run) const
  {
    for (lane_mask pending = warp_ballot (run.zone != kNoZone); pending;) {
      const int leader = first_lane (pending);
      const uint32_t zone = shfl (run.zone, leader);
      const bool mine = run.zone == zone;
      const uint32_t s = warp_sum (mine ? run.sum : 0);
      const uint32_t counts = warp_sum (mine ? run.counts : 0);
      const uint32_t lo = warp_min (mine ? run.lo : ~0u);
      const uint32_t hi = warp_max (mine ? run.hi : 0);
      if ((int) (threadIdx.x % kWarpSize) == leader) {
        ZoneSlot & c = slot[zone];
        atomicAdd (&c.sum, (unsigned long long) s);
        atomicMin (&c.min, lo);
        atomicMax (&c.max, hi);
        atomicAdd (&c.low, counts & 0xffff);
        atomicAdd (&c.high, counts >> 16);
      }
      pending &= ~warp_ballot (mine);
    }
  }
};

}                               // namespace hipf::hist

#endif /* HIPF_HISTOGRAM_ZONES_CUH */
