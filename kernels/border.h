/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * How a plane is extended past its edges, for every kernel that reads
 * around a sample (the reference's rules: tests/reference.c).
 */
#ifndef HIPF_BORDER_H
#define HIPF_BORDER_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  HIPF_BORDER_ZERO,
  HIPF_BORDER_CLAMP,
  HIPF_BORDER_MIRROR,
  HIPF_BORDER_WRAP,
  HIPF_BORDER_VALID,
} HipfBorderMode;

#ifdef __cplusplus
}
#endif

#endif /* HIPF_BORDER_H */
