/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The one place that chooses the HIP runtime API of the configured platform.
 * Host C code and kernels include this, never a platform header directly.
 */
#ifndef HIPF_RUNTIME_H
#define HIPF_RUNTIME_H

#if defined(HIPF_PLATFORM_NVIDIA)
#include "hip-on-cuda.h"
#elif defined(HIPF_PLATFORM_AMD)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#else
#error "define HIPF_PLATFORM_NVIDIA or HIPF_PLATFORM_AMD (meson option hip-platform)"
#endif

#endif /* HIPF_RUNTIME_H */
