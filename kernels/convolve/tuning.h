/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipconvolve's tuning constants, in one place. Each line says what chose
 * it; docs/design/convolve.md has the measurements (H200).
 */
#ifndef HIPF_CONVOLVE_TUNING_H
#define HIPF_CONVOLVE_TUNING_H

namespace hipf::conv {

/* ---- tensor-core 2D kernel (mma.hip) ---- */
/* One m16n8 tile of int32 sums is 128 outputs of a row, 8 apart in m and
 * 1 in n: a warp's outputs per row, set by the instruction's shape. */
constexpr int kMmaTileX = 128;
/* Warps of a block, stacked down the tile. */
constexpr int kMmaWarps = 8;
/* Output rows a warp sums at once: each staged sample row feeds that many
 * rows' products from one load of its fragments. 4 at 2 blocks a
 * multiprocessor beat 2 (at 2 and 3 blocks) and 1 (at 4) on 15x15 and
 * 31x31 masks; 2 at 3 blocks was 13% faster on 3x3 and 5x5 ones. */
constexpr int kMmaRowsPerWarp = 4;
constexpr int kMmaTileY = kMmaWarps * kMmaRowsPerWarp;
/* Groups of 4 samples whose loads a thread has in flight as it stages a
 * tile: 4 took registers the products need (1 and 4 measured alike). */
constexpr int kStageBatch = 2;

/* ---- direct 2D kernel (direct.hip), where there is no tensor core ---- */
/* 32 pixels wide, 8 threads high, each thread kRowsPerThread output
 * rows: a block's tile is 32 x 32 outputs. */
constexpr int kTileX = 32, kThreadsY = 8, kRowsPerThread = 4;
constexpr int kTileY = kThreadsY * kRowsPerThread;

/* ---- separable masks on the tensor cores (passes_mma.hip) ---- */
/* A block's tile: 32 pixels (a pair of 16-output groups of the row
 * pass) by 64 rows. The row pass sums every staged row, 64 plus the
 * column's reach, so taller tiles spend less of it on the halo; at 64 a
 * 61-tap mask's RGBA tile takes 84 KiB, two blocks a multiprocessor. */
constexpr int kPassTileX = 32, kPassTileY = 64;
/* Warps of a block: one per group of 8 output rows in the column pass. */
constexpr int kPassWarps = 8;

/* ---- separable passes (separable.hip) ---- */
/* The row pass: a block a stretch of kRowThreads pixels of a row. */
constexpr int kRowThreads = 256;
/* The column pass: 32 samples wide, kColRows rows a block. */
constexpr int kColX = 32, kColThreadsY = 8, kColRows = 64;

}                               // namespace hipf::conv

#endif /* HIPF_CONVOLVE_TUNING_H */
