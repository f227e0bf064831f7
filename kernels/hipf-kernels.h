/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * C entry points of the HIP kernels: the device limits, and the headers
 * of the box blur (boxblur/boxblur.h), the histogram
 * (histogram/histogram.h) and the others. Everything here is callable from
 * C; the kernels themselves are the only C++ in the project.
 */
#ifndef HIPF_KERNELS_H
#define HIPF_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "hipf-runtime.h"
#include "hipf-limits.h"
#include "boxblur/boxblur.h"
#include "histogram/histogram.h"
#include "convert/packed422.h"
#include "histogram/zones.h"
#include "overlay/exposure.h"
#include "convolve/convolve.h"

#endif /* HIPF_KERNELS_H */
