/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The histogram's tuning constants, in one place. Each line says what
 * chose it; docs/design/histogram.md has the measurements (H100).
 */
#ifndef HIPF_HISTOGRAM_TUNING_H
#define HIPF_HISTOGRAM_TUNING_H

#include <stddef.h>

namespace hipf::hist {

/* One block of 1024 threads a multiprocessor rather than two of 512: every
 * block adds its counts into the same output words at its end (those of
 * its copy of the output), and half as many blocks queue half as long on
 * those atomics. */
constexpr int kHistogramThreads = 1024;
/* Shared memory kept back from the histogram copies for the kernel's own
 * variables. */
constexpr size_t kStaticShared = 256;

/* plane_histogram: groups a thread loads ahead of its counting (four
 * took longer), and the bytes of a group (a 16-byte load; not tuned). */
constexpr int kGroupsAhead = 2;
constexpr int kPlaneGroup = 16;

/* The zones' counters take at most this part of a block's shared memory
 * (1/2), the histogram's copies the rest: on the H200 a 64x64 grid's 96 KB
 * leave RGBA 26 of its 32 copies; where they do not fit, the zones take
 * their own pass. Not tuned. */
constexpr size_t kZoneSharedDivisor = 2;

}                               // namespace hipf::hist

#endif /* HIPF_HISTOGRAM_TUNING_H */
