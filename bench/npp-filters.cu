/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * NPP's filters on the frames and masks hipf-bench times hipconvolve on,
 * for its peer rows: a bench-only program, built where the CUDA toolkit
 * has NPP (the plugin never links it):
 *
 *   nvcc -O3 -o npp-filters bench/npp-filters.cu -lnppif -lnppc
 *   ./npp-filters            # CSV rows as hipf-bench --csv writes them
 *
 * 4K RGBA, replicated borders (NPP's only border mode for these), the
 * medians of 21 runs timed with events, each against the same run's
 * device copy of the frame.
 */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <npp.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
      std::fprintf (stderr, "%s: %s\n", #x, cudaGetErrorString (e_)); \
      std::exit (1); } } while (0)
#define NPP_CHECK(x) do { NppStatus s_ = (x); if (s_ < 0) { \
      std::fprintf (stderr, "%s: NPP status %d\n", #x, (int) s_); \
      std::exit (1); } } while (0)

static const int kWidth = 3840, kHeight = 2160, kRuns = 21;

template <typename Op>
static double
median_us (cudaStream_t stream, Op op)
{
  std::vector<double> t;
  cudaEvent_t a, b;
  CHECK (cudaEventCreate (&a));
  CHECK (cudaEventCreate (&b));
  op ();                        /* warm up */
  for (int i = 0; i < kRuns; ++i) {
    float ms;
    CHECK (cudaEventRecord (a, stream));
    op ();
    CHECK (cudaEventRecord (b, stream));
    CHECK (cudaEventSynchronize (b));
    CHECK (cudaEventElapsedTime (&ms, a, b));
    t.push_back (ms * 1000.0);
  }
  CHECK (cudaEventDestroy (a));
  CHECK (cudaEventDestroy (b));
  std::sort (t.begin (), t.end ());
  return t[t.size () / 2];
}

static void
row (const char *params, double us, double copy)
{
  std::printf ("npp,RGBA,%d,%d,\"%s\",%.2f,%.2f,%.3f,0.0\n", kWidth, kHeight,
      params, us, copy, us / copy);
}

int
main ()
{
  const size_t pitch = (size_t) kWidth * 4, bytes = pitch * kHeight;
  Npp8u *src, *dst, *tmp;
  Npp32s *taps;
  cudaStream_t stream;
  NppStreamContext ctx = { };
  cudaDeviceProp prop;
  int device;

  CHECK (cudaGetDevice (&device));
  CHECK (cudaGetDeviceProperties (&prop, device));
  CHECK (cudaStreamCreate (&stream));
  ctx.hStream = stream;
  ctx.nCudaDeviceId = device;
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  CHECK (cudaStreamGetFlags (stream, &ctx.nStreamFlags));

  CHECK (cudaMalloc (&src, bytes));
  CHECK (cudaMalloc (&dst, bytes));
  CHECK (cudaMalloc (&tmp, bytes));
  CHECK (cudaMalloc (&taps, 255 * sizeof (Npp32s)));
  {
    std::vector<unsigned char> host (bytes);
    for (size_t i = 0; i < bytes; ++i)
      host[i] = (unsigned char) (rand () & 0xff);
    CHECK (cudaMemcpy (src, host.data (), bytes, cudaMemcpyHostToDevice));
  }
  const NppiSize size = { kWidth, kHeight };
  const NppiPoint origin = { 0, 0 };
  const double copy = median_us (stream, [&] {
        CHECK (cudaMemcpyAsync (dst, src, bytes, cudaMemcpyDeviceToDevice,
                stream));
      });

  std::printf ("what,format,width,height,params,time_us,copy_us,ratio,fps\n");
  for (int side : { 3, 5, 15 }) {
    std::vector<Npp32s> mask (side * side);
    char params[64];
    for (int j = 0; j < side; ++j)
      for (int i = 0; i < side; ++i)
        mask[j * side + i] = (i * 7 + j * 3 + i * j) % 5 - 2;
    CHECK (cudaMemcpy (taps, mask.data (), mask.size () * sizeof (Npp32s),
            cudaMemcpyHostToDevice));
    const NppiSize ksize = { side, side };
    const NppiPoint anchor = { side / 2, side / 2 };
    std::snprintf (params, sizeof (params), "nppiFilterBorder %dx%d", side,
        side);
    row (params, median_us (stream, [&] {
          NPP_CHECK (nppiFilterBorder_8u_C4R_Ctx (src, (int) pitch, size,
                  origin, dst, (int) pitch, size, taps, ksize, anchor, 9,
                  NPP_BORDER_REPLICATE, ctx));
        }), copy);
  }
  {
    std::vector<Npp32s> g (61);
    int sum = 0;
    for (int i = 0; i < 61; ++i)
      sum += g[i] = (int) (1000 * std::exp (-(i - 30) * (i - 30) / 200.0) /
          25.07 + 0.5);
    CHECK (cudaMemcpy (taps, g.data (), 61 * sizeof (Npp32s),
            cudaMemcpyHostToDevice));
    row ("nppiFilterRowBorder + ColumnBorder, 61-tap gaussian",
        median_us (stream, [&] {
          NPP_CHECK (nppiFilterRowBorder_8u_C4R_Ctx (src, (int) pitch, size,
                  origin, tmp, (int) pitch, size, taps, 61, 30, sum,
                  NPP_BORDER_REPLICATE, ctx));
          NPP_CHECK (nppiFilterColumnBorder_8u_C4R_Ctx (tmp, (int) pitch,
                  size, origin, dst, (int) pitch, size, taps, 61, 30, sum,
                  NPP_BORDER_REPLICATE, ctx));
        }), copy);
  }
  return 0;
}
