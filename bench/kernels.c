/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Kernel rows: the kernels on frames already on the device, each against
 * a device copy of the same frame timed in the same run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gsthipvideo.h"
#include "gsthipzones.h"
#include "gsthipexposureframe.h"
#include "gsthipconvmask.h"

typedef struct
{
  GstVideoInfo info;
  GstHipVideoLayout layout;
  guint8 *src[ROTATION], *dst;
  void *scratch;
  guint32 *counts;
  gint counts_half;             /* the half the next histogram adds into */
  gint zone_half;               /* likewise for the zones counted in it */
  hipStream_t stream;
} DevFrame;

/* The copy every kernel row is set against: the frame's bytes, rounded up
 * to whole 4 KB (COPY_GRANULE). The runtime copies a size with a tail past
 * such a multiple more slowly (H100: 3840x2160 RGBA 26.4 us, 29.7 with 64
 * bytes more; NV12's 12,441,600 bytes 13.7 us, 10.5 rounded up), which
 * would flatter every ratio against it. */
#define COPY_GRANULE 4096

static gsize
copy_bytes (const DevFrame * f)
{
  /* A packed frame's own bytes, not those of the planes it is unpacked
   * into as well. */
  if (f->layout.packed)
    return GST_ROUND_UP_N (f->layout.packed_pitch * f->layout.height,
        COPY_GRANULE);
  return GST_ROUND_UP_N (f->layout.size - GST_HIP_VIDEO_SLACK, COPY_GRANULE);
}

static void
dev_frame_init (DevFrame * f, GstVideoFormat format, gint w, gint h,
    const HipfDeviceLimits * limits, gboolean constant)
{
  guint8 *host;
  guint p, i;
  gsize scratch = 0, alloc;

  memset (f, 0, sizeof (*f));
  gst_video_info_set_format (&f->info, format, w, h);
  gst_hip_video_layout_init (&f->layout, &f->info);
  for (p = 0; p < f->layout.n_planes; p++) {
    const GstHipPlane *pl = &f->layout.planes[p];
    HipfBoxBlurPlane bp = { pl->width, pl->height, pl->channels, 0, 0,
      HIPF_BORDER_ZERO, 0, pl->sample_bytes, pl->shift
    };
    scratch = MAX (scratch, hipf_box_blur_scratch_size (limits, &bp));
  }
  /* Room for the copy's rounded-up bytes too. */
  alloc = MAX (f->layout.size, copy_bytes (f));
  host = g_malloc (f->layout.size);
  CHECK (hipStreamCreateWithFlags (&f->stream, hipStreamNonBlocking));
  for (i = 0; i < ROTATION; i++) {
    CHECK (hipMalloc ((void **) &f->src[i], alloc));
    if (constant)
      memset (host, 97, f->layout.size);
    else
      fill_random (host, f->layout.size, 1234 + i);
    CHECK (hipMemcpyAsync (f->src[i], host, f->layout.size,
            hipMemcpyHostToDevice, f->stream));
    CHECK (hipStreamSynchronize (f->stream));
  }
  CHECK (hipMalloc ((void **) &f->dst, alloc));
  CHECK (hipMalloc (&f->scratch, scratch));
  CHECK (hipMalloc ((void **) &f->counts,
          hipf_histogram_buffer_size ()));
  CHECK (hipMemsetAsync (f->counts, 0,
          hipf_histogram_buffer_size (), f->stream));
  g_free (host);
}

static void
dev_frame_clear (DevFrame * f)
{
  guint i;

  for (i = 0; i < ROTATION; i++)
    hipFree (f->src[i]);
  hipFree (f->dst);
  hipFree (f->scratch);
  hipFree (f->counts);
  hipStreamDestroy (f->stream);
}

typedef struct
{
  const HipfDeviceLimits *limits;
  gint radius_x, radius_y;
  HipfBorderMode border;
  HipfHistogramFrame hist;
  HipfBoxBlurPlan *plans[GST_VIDEO_MAX_PLANES];  /* made by time_blur */
  HipfZonesFrame zones;
  guint32 *zone_words;          /* the separate pass's */
  guint32 *zone_halves;         /* those counted in the histogram's pass */
  HipfExposureFrame overlay;
  void *exposure_scratch;
  HipfConvolveMask *conv;
  void *conv_scratch;
  HipfConvolvePath conv_path;
} OpArgs;

typedef void (*DevOp) (DevFrame * f, const guint8 * src, const OpArgs * a);

/* Device copies enqueued ahead of the timed runs: the host then enqueues
 * the runs while the device is still busy, so no run waits for the host
 * and the events time the device work alone. */
#define HEAD_START_COPIES 64

static void op_copy (DevFrame * f, const guint8 * src, const OpArgs * a);

static gdouble
time_op (DevFrame * f, DevOp op, const OpArgs * a)
{
  gdouble *t = g_new (gdouble, bench_runs);
  hipEvent_t *ev = g_new (hipEvent_t, 2 * bench_runs);
  gdouble m;
  gint i;

  for (i = 0; i < 2 * bench_runs; i++)
    CHECK (hipEventCreateWithFlags (&ev[i], hipEventDefault));
  for (i = 0; i < 3; i++)
    op (f, f->src[i % ROTATION], a);
  for (i = 0; i < HEAD_START_COPIES; i++)
    op_copy (f, f->src[i % ROTATION], a);
  for (i = 0; i < bench_runs; i++) {
    CHECK (hipEventRecord (ev[2 * i], f->stream));
    op (f, f->src[i % ROTATION], a);
    CHECK (hipEventRecord (ev[2 * i + 1], f->stream));
  }
  CHECK (hipStreamSynchronize (f->stream));
  for (i = 0; i < bench_runs; i++) {
    gfloat ms;

    CHECK (hipEventElapsedTime (&ms, ev[2 * i], ev[2 * i + 1]));
    t[i] = ms * 1000.0;
  }
  for (i = 0; i < 2 * bench_runs; i++)
    CHECK (hipEventDestroy (ev[i]));
  m = bench_median (t, bench_runs);
  g_free (ev);
  g_free (t);
  return m;
}

static void
op_copy (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  CHECK (hipMemcpyAsync (f->dst, src, copy_bytes (f), hipMemcpyDeviceToDevice,
          f->stream));
}

/* A packed 4:2:2 frame's packed rows (in @src's staging) to its planes in
 * dst, and those back to the packed rows of dst. */
static void
packed_frame (DevFrame * f, const guint8 * src, HipfPacked422Frame * pf)
{
  const GstHipVideoLayout *l = &f->layout;
  guint p;

  pf->order = l->order;
  pf->width = l->planes[0].width;
  pf->height = l->height;
  pf->packed_src = src + l->packed_offset;
  pf->packed_dst = f->dst + l->packed_offset;
  pf->packed_pitch = l->packed_pitch;
  for (p = 0; p < 3; p++) {
    pf->planes[p] = f->dst + l->planes[p].offset;
    pf->pitches[p] = l->planes[p].pitch;
  }
}

static void
op_unpack (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  HipfPacked422Frame pf;

  packed_frame (f, src, &pf);
  CHECK (hipf_unpack_422 (&pf, 0, pf.height, f->stream));
}

static void
op_pack (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  HipfPacked422Frame pf;

  packed_frame (f, src, &pf);
  CHECK (hipf_pack_422 (&pf, 0, pf.height, f->stream));
}

static void
op_blur (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  guint p;

  for (p = 0; p < f->layout.n_planes; p++) {
    const GstHipPlane *pl = &f->layout.planes[p];

    CHECK (hipf_box_blur_run (a->plans[p], src + pl->offset, pl->pitch,
            f->dst + pl->offset, pl->pitch, f->scratch, f->stream));
  }
}

/* The frame's blur at @a's radii, planned once as the elements plan it,
 * then timed. */
static gdouble
time_blur (DevFrame * f, OpArgs * a)
{
  gdouble t;
  guint p;

  for (p = 0; p < f->layout.n_planes; p++) {
    const GstHipPlane *pl = &f->layout.planes[p];
    HipfBoxBlurPlane bp = { pl->width, pl->height, pl->channels,
      (a->radius_x + (1 << pl->w_sub) - 1) >> pl->w_sub,
      (a->radius_y + (1 << pl->h_sub) - 1) >> pl->h_sub, a->border, p > 0,
      pl->sample_bytes, pl->shift
    };

    CHECK (hipf_box_blur_plan_new (a->limits, &bp, &a->plans[p]));
  }
  t = time_op (f, op_blur, a);
  for (p = 0; p < f->layout.n_planes; p++) {
    hipf_box_blur_plan_free (a->plans[p]);
    a->plans[p] = NULL;
  }
  return t;
}

static void
op_histogram (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  CHECK (hipf_histogram (a->limits, &a->hist, src, f->counts, f->counts_half,
          f->stream));
  f->counts_half = !f->counts_half;
}

/* The histogram with the zones counted in its pass, as hiphistogram
 * runs them where that launch takes them. */
static void
op_histogram_zones (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  CHECK (hipf_histogram_zones (a->limits, &a->hist, &a->zones, src,
          f->counts, f->counts_half, a->zone_halves, f->zone_half,
          f->stream));
  f->counts_half = !f->counts_half;
  f->zone_half = !f->zone_half;
}

/* The histogram and the zones' pass of their own after it, as
 * hiphistogram runs them elsewhere. */
static void
op_histogram_zone_pass (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  op_histogram (f, src, a);
  CHECK (hipf_zones (a->limits, &a->zones, src, a->zone_words, f->stream));
}

/* hipexposure's work a frame with every overlay on: the drawing and the
 * histogram its graph shows. */
static void
op_exposure (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  CHECK (hipf_exposure_draw (a->limits, &a->overlay, src, f->dst,
          a->exposure_scratch, f->stream));
}

/* hipexposure's description of the frame, every overlay on, the graph at
 * the element's place and twice its size. */
static void
overlay_init (const DevFrame * f, HipfExposureFrame * o)
{
  gst_hipf_exposure_frame_init (o, &f->info, &f->layout);
  o->false_color = o->zebra = o->graph = 1;
  o->zebra_threshold = 235;
  o->graph_x = o->graph_y = 16;
  o->graph_width = 512;
  o->graph_height = 256;
  o->graph_opacity = 160;
}

static const gchar *border_nicks[] = { "zero", "clamp", "mirror", "wrap",
  "valid"
};

void
bench_device (GstVideoFormat format, gint w, gint h, gboolean all_modes,
    const HipfDeviceLimits * limits)
{
  static const gint radii[] = { 1, 6, 50, 200 };
  DevFrame f;
  OpArgs a = { limits };
  const gchar *names[HIPF_HISTOGRAM_MAX_CHANNELS];
  guint luma, r, m, p;
  gdouble copy, hist = 0;
  gint constant;

  for (constant = 0; constant < 2; constant++) {
    dev_frame_init (&f, format, w, h, limits, constant);
    copy = time_op (&f, op_copy, &a);
    if (!constant)
      add_row ("copy", format, w, h, "device to device", copy, 0, 0);
    /* Packed 4:2:2: the planes the kernels take, and back. */
    if (!constant && f.layout.packed) {
      add_row ("unpack", format, w, h, "to Y42B planes",
          time_op (&f, op_unpack, &a), copy, 0);
      add_row ("pack", format, w, h, "from Y42B planes",
          time_op (&f, op_pack, &a), copy, 0);
    }
    gst_hip_video_histogram_init (&a.hist, names, &luma, &f.info, &f.layout);
    for (p = 0; p < (guint) a.hist.n_planes; p++) {
      a.hist.planes[p].roi_width = a.hist.planes[p].width;
      a.hist.planes[p].roi_height = a.hist.planes[p].height;
    }
    hist = time_op (&f, op_histogram, &a);
    add_row ("histogram", format, w, h, constant ? "constant frame" :
        "random frame", hist, copy, 0);
    /* Zone metering, against the whole-frame histogram alone: counted in
     * the histogram's pass, as the element does, and in a pass of their
     * own. */
    if (!constant && all_modes) {
      gst_hipf_zones_frame_init (&a.zones, &f.info, &f.layout, 16, 9, 4, 251,
          FALSE);
      if (hipf_histogram_zones_fuse (limits, &a.hist, &a.zones)) {
        CHECK (hipMalloc ((void **) &a.zone_halves,
                hipf_histogram_zones_buffer_size ()));
        CHECK (hipf_histogram_zones_buffer_init (a.zone_halves, f.stream));
        add_row ("zones", format, w, h, "16x9 and the histogram, vs it alone",
            time_op (&f, op_histogram_zones, &a), hist, 0);
        CHECK (hipFree (a.zone_halves));
      }
      CHECK (hipMalloc ((void **) &a.zone_words,
              hipf_zones_words (&a.zones) * sizeof (guint32)));
      add_row ("zones", format, w, h, "16x9, separate pass, vs histogram",
          time_op (&f, op_histogram_zone_pass, &a), hist, 0);
      CHECK (hipFree (a.zone_words));
    }
    /* The overlay, on the planes the element draws on (packed 4:2:2 is
     * drawn on its unpacked planes: the unpack and pack rows above). */
    if (!constant && !f.layout.packed) {
      overlay_init (&f, &a.overlay);
      CHECK (hipMalloc (&a.exposure_scratch, HIPF_EXPOSURE_SCRATCH_BYTES));
      add_row ("exposure", format, w, h, "graph, zebra, false colour",
          time_op (&f, op_exposure, &a), copy, 0);
      if (all_modes && GST_VIDEO_INFO_IS_RGB (&f.info)) {
        a.overlay.graph_rgb = 1;
        add_row ("exposure", format, w, h, "RGB graph, zebra, false colour",
            time_op (&f, op_exposure, &a), copy, 0);
      }
      CHECK (hipFree (a.exposure_scratch));
    }
    if (!constant) {
      for (r = 0; r < G_N_ELEMENTS (radii); r++)
        for (m = 0; m < G_N_ELEMENTS (border_nicks); m++) {
          gchar *params;

          if (!all_modes && m != HIPF_BORDER_MIRROR)
            continue;
          a.radius_x = a.radius_y = radii[r];
          a.border = m;
          params = g_strdup_printf ("radius %d %s", radii[r], border_nicks[m]);
          add_row ("blur", format, w, h, params, time_blur (&f, &a), copy,
              0);
          g_free (params);
        }
    }
    dev_frame_clear (&f);
  }
}

gdouble
bench_kernel_us (GstVideoFormat format, gint w, gint h, gint radius,
    const HipfDeviceLimits * limits)
{
  DevFrame f;
  OpArgs a = { limits, radius, radius, HIPF_BORDER_MIRROR };
  const gchar *names[HIPF_HISTOGRAM_MAX_CHANNELS];
  guint luma, p;
  gdouble t;

  dev_frame_init (&f, format, w, h, limits, FALSE);
  if (radius >= 0) {
    t = time_blur (&f, &a);
  } else {
    gst_hip_video_histogram_init (&a.hist, names, &luma, &f.info, &f.layout);
    for (p = 0; p < (guint) a.hist.n_planes; p++) {
      a.hist.planes[p].roi_width = a.hist.planes[p].width;
      a.hist.planes[p].roi_height = a.hist.planes[p].height;
    }
    t = time_op (&f, op_histogram, &a);
  }
  dev_frame_clear (&f);
  return t;
}

/* Blur rows with the horizontal and the vertical radius apart (mirror
 * border), each next to the frame's copy: what each direction of a
 * radius costs. */
void
bench_split_radii (GstVideoFormat format, gint w, gint h,
    const HipfDeviceLimits * limits)
{
  static const gint split[][2] = { {6, 1}, {1, 6} };
  DevFrame f;
  OpArgs a = { limits };
  gdouble copy;
  guint i;

  dev_frame_init (&f, format, w, h, limits, FALSE);
  copy = time_op (&f, op_copy, &a);
  a.border = HIPF_BORDER_MIRROR;
  for (i = 0; i < G_N_ELEMENTS (split); i++) {
    gchar *params = g_strdup_printf ("radius %d,%d mirror", split[i][0],
        split[i][1]);

    a.radius_x = split[i][0];
    a.radius_y = split[i][1];
    add_row ("blur", format, w, h, params, time_blur (&f, &a), copy, 0);
    g_free (params);
  }
  dev_frame_clear (&f);
}

static void
op_convolve (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  const GstHipPlane *pl = &f->layout.planes[0];
  HipfConvolvePlane plane = { pl->width, pl->height, pl->channels,
    (1u << pl->channels) - 1, HIPF_BORDER_CLAMP, a->conv_path
  };

  CHECK (hipf_convolve_run (a->limits, &plane, a->conv, src + pl->offset,
          pl->pitch, f->dst + pl->offset, pl->pitch, a->conv_scratch,
          f->stream));
}

/* hipconvolve's kernels on one plane of four-byte pixels: 2D masks that do
 * not factor, on the path the dispatch takes and on the direct kernel
 * (what devices without tensor cores run); and separable 31- and 61-tap
 * Gaussians; against the copy. */
void
bench_convolve (GstVideoFormat format, gint w, gint h,
    const HipfDeviceLimits * limits)
{
  static const gint sides[] = { 3, 5, 15, 31 };
  DevFrame f;
  OpArgs a = { limits };
  HipfConvolveMask *m;
  const GstHipPlane *pl;
  HipfConvolvePlane plane;
  gdouble copy;
  guint s, direct;
  gint i, j;

  /* Pinned, as the element keeps it: the taps' copy is asynchronous. */
  CHECK (hipHostMalloc ((void **) &m, sizeof (*m), 0));
  memset (m, 0, sizeof (*m));
  dev_frame_init (&f, format, w, h, limits, FALSE);
  pl = &f.layout.planes[0];
  plane.width = pl->width;
  plane.height = pl->height;
  plane.channels = pl->channels;
  copy = time_op (&f, op_copy, &a);
  a.conv = m;
  m->separable = TRUE;
  m->n_x = m->n_y = HIPF_CONVOLVE_MAX_TAPS;
  /* Room for the passes through memory, the path that needs most. */
  plane.path = HIPF_CONVOLVE_SEPARABLE;
  CHECK (hipMalloc (&a.conv_scratch, hipf_convolve_scratch_size (limits,
              &plane, m)));
  for (direct = 0; direct < 2; direct++)
    for (s = 0; s < G_N_ELEMENTS (sides); s++) {
      gchar *params = g_strdup_printf ("%dx%d mask, clamp%s", sides[s],
          sides[s], direct ? ", direct kernel" : "");

      /* Taps that no row and column multiply out to. */
      m->separable = FALSE;
      m->width = m->height = sides[s];
      for (j = 0; j < sides[s]; j++)
        for (i = 0; i < sides[s]; i++)
          m->taps[j * sides[s] + i] = (i * 7 + j * 3 + i * j) % 5 - 2;
      m->divisor = 9;
      m->offset = 128;
      a.conv_path = direct ? HIPF_CONVOLVE_DIRECT : HIPF_CONVOLVE_AUTO;
      add_row ("convolve", format, w, h, params, time_op (&f, op_convolve,
              &a), copy, 0);
      g_free (params);
    }
  /* Gaussians: sigma 5 out to 3 sigma (31 taps), and sigma 10 (61); on
   * the path the dispatch takes (the tensor cores' passes), and on the
   * passes through memory (what devices without tensor cores run). */
  for (s = 0; s < 4; s++) {
    const gint n = s % 2 ? 61 : 31;
    const gdouble sigma = s % 2 ? 10.0 : 5.0;
    gchar *params = g_strdup_printf ("%d-tap gaussian, separable, clamp%s",
        n, s >= 2 ? ", passes through memory" : "");

    a.conv_path = s >= 2 ? HIPF_CONVOLVE_SEPARABLE : HIPF_CONVOLVE_AUTO;
    m->separable = TRUE;
    m->n_x = m->n_y = n;
    for (i = 0; i < n; i++)
      m->taps_x[i] = m->taps_y[i] = (gint) (400 / sigma * exp (-(i - n / 2)
              * (i - n / 2) / (2 * sigma * sigma)) + 0.5);
    m->divisor = (gint) gst_hip_conv_mask_sum (m);
    m->offset = 0;
    add_row ("convolve", format, w, h, params, time_op (&f, op_convolve,
            &a), copy, 0);
    g_free (params);
  }
  CHECK (hipFree (a.conv_scratch));
  dev_frame_clear (&f);
  CHECK (hipHostFree (m));
}
