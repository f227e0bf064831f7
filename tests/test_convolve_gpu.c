/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipconvolve against the CPU reference: every format, odd sizes and
 * padded strides, every border mode it takes, random signed 2D masks of
 * every size, random separable masks, 2D masks that factor, each preset,
 * luma-only, frames past the passes' first blocks, taps at the weight
 * bound, and frames in flight each with a mask of its own.
 */
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "gpucheck.h"
#include "gsthipconvmask.h"
#include "hipf-kernels.h"
#include "reference.h"
#include "testutil.h"

static const RefBorder borders[] = { REF_BORDER_ZERO, REF_BORDER_CLAMP,
  REF_BORDER_MIRROR, REF_BORDER_WRAP
};

static GstHarness *
harness_for (GstVideoFormat format, gint width, gint height)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);
  GstHarness *h = gst_harness_new ("hipconvolve");

  gst_harness_set_caps_str (h, caps, caps);
  g_free (caps);
  return h;
}

/* Sets @mask on the element the way a user would: as text. */
static void
set_mask (GstElement * e, const HipfConvolveMask * m, gint divisor)
{
  gchar *text;

  gst_util_set_object_arg (G_OBJECT (e), "preset", "none");
  if (m->separable) {
    GString *x = g_string_new (NULL), *y = g_string_new (NULL);
    gint i;

    for (i = 0; i < m->n_x; i++)
      g_string_append_printf (x, " %d", m->taps_x[i]);
    for (i = 0; i < m->n_y; i++)
      g_string_append_printf (y, " %d", m->taps_y[i]);
    g_object_set (e, "kernel", "", "kernel-x", x->str, "kernel-y",
        y->str, NULL);
    g_string_free (x, TRUE);
    g_string_free (y, TRUE);
  } else {
    text = gst_hip_conv_mask_to_string (m);
    g_object_set (e, "kernel-x", "", "kernel-y", "", "kernel", text,
        NULL);
    g_free (text);
  }
  g_object_set (e, "divisor", divisor, "offset", m->offset, NULL);
}

/* One frame through @h against the reference of @m (its divisor the
 * element's: @divisor, or the mask's sum). */
static void
check_frame (GstHarness * h, GstVideoFormat format, gint width, gint height,
    guint padding, const HipfConvolveMask * m, RefBorder mode,
    gboolean luma_only, const gchar * what)
{
  GstVideoInfo info, out_info;
  GstBuffer *in = hipf_test_frame_new (format, width, height, padding, &info);
  GstBuffer *expected, *out;
  GstVideoFrame fi, fe, fo;
  gchar *where = NULL;

  gst_util_set_object_arg (G_OBJECT (h->element), "border-mode",
      ref_border_nicks[mode]);
  g_object_set (h->element, "luma-only", luma_only, NULL);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s: no output", what);
  gst_video_info_set_format (&out_info, format, width, height);
  expected = gst_buffer_new_allocate (NULL, out_info.size, NULL);
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fe, &out_info, expected, GST_MAP_WRITE));
  fail_unless (gst_video_frame_map (&fo, &out_info, out, GST_MAP_READ));
  ref_convolve_frame (&fi, &fe, m, mode, luma_only);
  fail_unless (hipf_test_frames_equal (&fo, &fe, &where),
      "%s %s, %s border%s: %s (seed %u)", gst_video_format_to_string (format),
      what, ref_border_nicks[mode], luma_only ? ", luma only" : "", where,
      hipf_test_seed ());
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fe);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (expected);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* A random mask: 2D of @w x @h, or separable; signed taps, a divisor
 * (0: the element's default) and an offset. */
static void
random_mask (GRand * rand, HipfConvolveMask * m, gint w, gint h,
    gboolean separable, gint * divisor)
{
  gint i;

  memset (m, 0, sizeof (*m));
  if (separable) {
    m->separable = TRUE;
    m->n_x = w;
    m->n_y = h;
    for (i = 0; i < w; i++)
      m->taps_x[i] = g_rand_int_range (rand, -9, 10);
    for (i = 0; i < h; i++)
      m->taps_y[i] = g_rand_int_range (rand, -9, 10);
  } else {
    m->width = w;
    m->height = h;
    for (i = 0; i < w * h; i++)
      m->taps[i] = g_rand_int_range (rand, -20, 21);
  }
  *divisor = g_rand_boolean (rand) ? 0 : g_rand_int_range (rand, 1, 60) *
      (g_rand_boolean (rand) ? 1 : -1);
  m->offset = g_rand_int_range (rand, -40, 168);
  {
    gint64 sum = 0;
    gint j;

    if (separable) {
      gint64 sx = 0, sy = 0;
      for (j = 0; j < w; j++)
        sx += m->taps_x[j];
      for (j = 0; j < h; j++)
        sy += m->taps_y[j];
      sum = sx * sy;
    } else {
      for (j = 0; j < w * h; j++)
        sum += m->taps[j];
    }
    m->divisor = *divisor ? *divisor : sum ? (gint) sum : 1;
  }
}

GST_START_TEST (test_masks)
{
  static const gint sizes[][2] = { {1, 1}, {3, 3}, {5, 3}, {1, 7}, {9, 9},
  {31, 31}
  };
  static const gint frames[][3] = { {33, 17, 0}, {1, 1, 0}, {45, 23, 7},
  {2, 40, 3}
  };
  GRand *rand = hipf_test_rand ();
  guint f, s, b, k;

  for (f = 0; f < hipf_test_n_formats; f++) {
    GstVideoFormat fmt = hipf_test_formats[f];

    for (k = 0; k < G_N_ELEMENTS (frames); k++) {
      GstHarness *h = harness_for (fmt, frames[k][0], frames[k][1]);

      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        for (b = 0; b < G_N_ELEMENTS (borders); b++) {
          HipfConvolveMask m;
          gint divisor;
          gchar *what;

          random_mask (rand, &m, sizes[s][0], sizes[s][1], FALSE, &divisor);
          set_mask (h->element, &m, divisor);
          what = g_strdup_printf ("%dx%d (stride +%d), %dx%d mask",
              frames[k][0], frames[k][1], frames[k][2], sizes[s][0],
              sizes[s][1]);
          check_frame (h, fmt, frames[k][0], frames[k][1], frames[k][2], &m,
              borders[b], FALSE, what);
          g_free (what);
        }
      }
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* Separable masks, up to 255 taps a side; 2D masks that factor take the
 * same path. */
GST_START_TEST (test_separable)
{
  static const gint sizes[][2] = { {3, 3}, {1, 9}, {61, 61}, {255, 5},
  {7, 255}
  };
  GRand *rand = hipf_test_rand ();
  guint f, s, b;

  for (f = 0; f < hipf_test_n_formats; f++) {
    GstVideoFormat fmt = hipf_test_formats[f];
    GstHarness *h = harness_for (fmt, 45, 23);

    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (b = 0; b < G_N_ELEMENTS (borders); b++) {
        HipfConvolveMask m;
        gint divisor, i, j;
        gchar *what = g_strdup_printf ("%dx%d separable", sizes[s][0],
            sizes[s][1]);

        random_mask (rand, &m, sizes[s][0], sizes[s][1], TRUE, &divisor);
        /* Small taps, so that 255 x 255 stays in weight. */
        for (i = 0; i < m.n_x; i++)
          m.taps_x[i] = m.taps_x[i] % 3;
        for (i = 0; i < m.n_y; i++)
          m.taps_y[i] = m.taps_y[i] % 3;
        m.divisor = divisor ? divisor : 1;
        if (!divisor) {
          gint64 sx = 0, sy = 0;
          for (i = 0; i < m.n_x; i++)
            sx += m.taps_x[i];
          for (i = 0; i < m.n_y; i++)
            sy += m.taps_y[i];
          m.divisor = sx * sy != 0 ? (gint) (sx * sy) : 1;
        }
        set_mask (h->element, &m, divisor);
        check_frame (h, fmt, 45, 23, 5, &m, borders[b], FALSE, what);
        g_free (what);
        /* The same as a 2D mask where it fits: factored by the element. */
        if (m.n_x <= HIPF_CONVOLVE_MAX_SIDE && m.n_y <= HIPF_CONVOLVE_MAX_SIDE) {
          HipfConvolveMask d = m;

          d.separable = FALSE;
          d.width = m.n_x;
          d.height = m.n_y;
          for (j = 0; j < m.n_y; j++)
            for (i = 0; i < m.n_x; i++)
              d.taps[j * m.n_x + i] = m.taps_y[j] * m.taps_x[i];
          set_mask (h->element, &d, divisor);
          check_frame (h, fmt, 45, 23, 5, &d, borders[b], FALSE,
              "factored 2D");
        }
      }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

GST_START_TEST (test_presets)
{
  static const gchar *presets[] = { "gaussian", "sharpen", "laplacian",
    "sobel-x", "sobel-y", "emboss"
  };
  static const GstHipConvolvePreset values[] = {
    GST_HIP_CONVOLVE_PRESET_GAUSSIAN, GST_HIP_CONVOLVE_PRESET_SHARPEN,
    GST_HIP_CONVOLVE_PRESET_LAPLACIAN, GST_HIP_CONVOLVE_PRESET_SOBEL_X,
    GST_HIP_CONVOLVE_PRESET_SOBEL_Y, GST_HIP_CONVOLVE_PRESET_EMBOSS
  };
  guint f, p;

  for (f = 0; f < hipf_test_n_formats; f++) {
    GstVideoFormat fmt = hipf_test_formats[f];
    GstHarness *h = harness_for (fmt, 64, 36);

    for (p = 0; p < G_N_ELEMENTS (presets); p++) {
      HipfConvolveMask m;
      gint64 sum;

      fail_unless (gst_hip_conv_mask_preset (values[p], 2.5, &m));
      sum = gst_hip_conv_mask_sum (&m);
      m.divisor = sum ? (gint) sum : 1;
      m.offset = 128;
      g_object_set (h->element, "kernel", "", "kernel-x", "", "kernel-y", "",
          "sigma", 2.5, "divisor", 0, "offset", 128, NULL);
      gst_util_set_object_arg (G_OBJECT (h->element), "preset", presets[p]);
      check_frame (h, fmt, 64, 36, 0, &m, REF_BORDER_MIRROR, FALSE,
          presets[p]);
      check_frame (h, fmt, 64, 36, 0, &m, REF_BORDER_CLAMP, TRUE,
          presets[p]);
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Past the first block of every pass: a row pass takes 256 pixels a block
 * and a column pass 64 rows; and a plane taller than a grid is high. */
GST_START_TEST (test_large_frames)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_YUY2
  };
  GRand *rand = hipf_test_rand ();
  guint f, b, k;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = harness_for (formats[f], 300, 70);

    for (b = 0; b < G_N_ELEMENTS (borders); b++)
      for (k = 0; k < 2; k++) {
        HipfConvolveMask m;
        gint divisor;

        random_mask (rand, &m, k ? 15 : 5, k ? 31 : 5, k, &divisor);
        set_mask (h->element, &m, divisor);
        check_frame (h, formats[f], 300, 70, 3, &m, borders[b], FALSE,
            k ? "300x70, 15x31 separable" : "300x70, 5x5");
      }
    gst_harness_teardown (h);
  }
  {
    GstHarness *h = harness_for (GST_VIDEO_FORMAT_GRAY8, 2, 70000);

    for (k = 0; k < 2; k++) {
      HipfConvolveMask m;
      gint divisor;

      random_mask (rand, &m, 3, 5, k, &divisor);
      set_mask (h->element, &m, divisor);
      check_frame (h, GST_VIDEO_FORMAT_GRAY8, 2, 70000, 0, &m,
          REF_BORDER_MIRROR, FALSE, k ? "2x70000 separable" : "2x70000");
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Taps at the weight bound: sums of 255 * 2^23 and row sums as large. */
GST_START_TEST (test_weight_bound)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGBA
  };
  static const gint divisors[][2] = { {8388608, 0}, {-1, 255}, {3, -7} };
  guint f, d, k;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = harness_for (formats[f], 33, 17);

    for (d = 0; d < G_N_ELEMENTS (divisors); d++)
      for (k = 0; k < 2; k++) {
        HipfConvolveMask m = { 0 };

        if (k) {
          m.separable = TRUE;
          m.n_x = m.n_y = 1;
          m.taps_x[0] = 8388608;
          m.taps_y[0] = 1;
        } else {
          m.width = m.height = 1;
          m.taps[0] = 8388608;
        }
        m.divisor = divisors[d][0];
        m.offset = divisors[d][1];
        set_mask (h->element, &m, m.divisor);
        check_frame (h, formats[f], 33, 17, 0, &m, REF_BORDER_CLAMP, FALSE,
            k ? "2^23 separable" : "2^23");
      }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Four frames in flight, each entered with a mask of its own. */
GST_START_TEST (test_masks_in_flight)
{
  GRand *rand = hipf_test_rand ();
  GstHarness *h = gst_harness_new_parse ("hipconvolve frames-in-flight=4");
  HipfConvolveMask masks[6];
  GstBuffer *in[6];
  GstVideoInfo info;
  guint k;

  GstElement *e = gst_harness_find_element (h, "hipconvolve");

  gst_harness_set_caps_str (h, "video/x-raw,format=RGBA,width=64,height=36,"
      "framerate=30/1", "video/x-raw,format=RGBA,width=64,height=36,"
      "framerate=30/1");
  for (k = 0; k < G_N_ELEMENTS (masks); k++) {
    gint divisor;

    random_mask (rand, &masks[k], 3 + 2 * (k % 3), 3, k % 2, &divisor);
    set_mask (e, &masks[k], divisor);
    in[k] = hipf_test_frame_new (GST_VIDEO_FORMAT_RGBA, 64, 36, 0, &info);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[k])),
        GST_FLOW_OK);
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  for (k = 0; k < G_N_ELEMENTS (masks); k++) {
    GstBuffer *out = gst_harness_pull (h), *exp;
    GstVideoFrame fi, fe, fo;
    gchar *where = NULL;

    fail_unless (out != NULL, "frame %u: no output", k);
    exp = gst_buffer_new_allocate (NULL, info.size, NULL);
    fail_unless (gst_video_frame_map (&fi, &info, in[k], GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fe, &info, exp, GST_MAP_WRITE));
    fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
    ref_convolve_frame (&fi, &fe, &masks[k], REF_BORDER_MIRROR, FALSE);
    fail_unless (hipf_test_frames_equal (&fo, &fe, &where),
        "frame %u: %s (seed %u)", k, where, hipf_test_seed ());
    gst_video_frame_unmap (&fi);
    gst_video_frame_unmap (&fe);
    gst_video_frame_unmap (&fo);
    gst_buffer_unref (exp);
    gst_buffer_unref (out);
    gst_buffer_unref (in[k]);
  }
  gst_object_unref (e);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Taps of a random mask needing @digits signed bytes (one to four) at the
 * widest, the whole mask within the weight bound. */
static void
random_wide_mask (GRand * rand, HipfConvolveMask * m, gint w, gint h,
    gboolean separable, gint digits)
{
  static const gint spread[] = { 100, 5000, 60, 30 };
  gint i, n = separable ? 0 : w * h;

  memset (m, 0, sizeof (*m));
  m->separable = separable;
  if (separable) {
    /* Products of 1 to 3 digits: at most 100, 4000 or 90 000 (the bound
     * below may halve them). */
    static const gint side[] = { 10, 63, 300, 300 };
    m->n_x = w;
    m->n_y = h;
    for (i = 0; i < w; i++)
      m->taps_x[i] = g_rand_int_range (rand, -side[digits - 1],
          side[digits - 1] + 1) / (w > 31 ? 8 : 1);
    for (i = 0; i < h; i++)
      m->taps_y[i] = g_rand_int_range (rand, -side[digits - 1],
          side[digits - 1] + 1) / (h > 31 ? 8 : 1);
    /* Within the bound: halve the taps of the heavier side until so. */
    for (;;) {
      gint64 sx = 0, sy = 0;
      for (i = 0; i < w; i++)
        sx += ABS (m->taps_x[i]);
      for (i = 0; i < h; i++)
        sy += ABS (m->taps_y[i]);
      if (sx * sy <= HIPF_CONVOLVE_MAX_WEIGHT)
        break;
      if (sx > sy)
        for (i = 0; i < w; i++)
          m->taps_x[i] /= 2;
      else
        for (i = 0; i < h; i++)
          m->taps_y[i] /= 2;
    }
  } else {
    gint64 rest = HIPF_CONVOLVE_MAX_WEIGHT;

    m->width = w;
    m->height = h;
    for (i = 0; i < n; i++) {
      m->taps[i] = g_rand_int_range (rand, -spread[digits - 1],
          spread[digits - 1] + 1);
      rest -= ABS (m->taps[i]);
    }
    /* One tap of three digits, or the bound's remainder: four. */
    if (digits >= 3)
      m->taps[g_rand_int_range (rand, 0, n)] = digits == 4 ? (gint) rest :
          -(gint) g_rand_int_range (rand, 40000, (gint) MIN (rest, 4000000));
  }
  m->divisor = g_rand_int_range (rand, 1, 5000) * (g_rand_boolean (rand) ?
      1 : -1);
  m->offset = g_rand_int_range (rand, -40, 168);
}

/* Whether the tensor cores take masks up to HIPF_CONVOLVE_MAX_SIDE here:
 * NVIDIA from compute capability 8.0 on. */
static gboolean
tensor_expected (void)
{
#if defined(HIPF_PLATFORM_NVIDIA)
  gint major = 0;

  fail_unless (hipDeviceGetAttribute (&major,
          hipDeviceAttributeComputeCapabilityMajor, 0) == hipSuccess);
  return major >= 8;
#else
  return FALSE;
#endif
}

/* A plane in device memory, its reference output and the run's. */
typedef struct
{
  gint ch, w, h;
  gsize pitch, bytes;
  guint8 *in, *want, *got, *dev_in, *dev_out;
} PathPlane;

static void
path_plane_init (PathPlane * pp, GRand * rand, gint ch, gint w, gint h,
    gsize padding, hipStream_t stream)
{
  gsize i;

  pp->ch = ch;
  pp->w = w;
  pp->h = h;
  pp->pitch = (gsize) w * ch + padding;
  pp->bytes = pp->pitch * h;
  pp->in = g_malloc (pp->bytes);
  pp->want = g_malloc0 (pp->bytes);
  pp->got = g_malloc (pp->bytes);
  for (i = 0; i < pp->bytes; i++)
    pp->in[i] = g_rand_int_range (rand, 0, 256);
  fail_unless (hipMalloc ((void **) &pp->dev_in, pp->bytes) == hipSuccess);
  fail_unless (hipMalloc ((void **) &pp->dev_out, pp->bytes) == hipSuccess);
  fail_unless (hipMemcpyAsync (pp->dev_in, pp->in, pp->bytes,
          hipMemcpyHostToDevice, stream) == hipSuccess);
}

static void
path_plane_clear (PathPlane * pp)
{
  fail_unless (hipFree (pp->dev_in) == hipSuccess);
  fail_unless (hipFree (pp->dev_out) == hipSuccess);
  g_free (pp->in);
  g_free (pp->want);
  g_free (pp->got);
}

/* Runs @mask on @pp through @plane's path, against pp->want. Returns
 * whether the path ran: a path may refuse only a mask it cannot take
 * (the tensor cores: wider than HIPF_CONVOLVE_MAX_SIDE, or for their
 * passes a 2D mask or one longer than HIPF_CONVOLVE_TENSOR_TAPS; or no
 * tensor cores). */
static gboolean
check_path (const HipfDeviceLimits * limits, hipStream_t stream,
    const HipfConvolvePlane * plane, const HipfConvolveMask * mask,
    void *scratch, PathPlane * pp, const gchar * what)
{
  const gboolean fits = mask->separable ?
      mask->n_x <= HIPF_CONVOLVE_MAX_SIDE && mask->n_y <= HIPF_CONVOLVE_MAX_SIDE
      : TRUE;
  gchar *where = NULL;
  hipError_t err;
  gsize i;
  gint y;

  fail_unless (hipMemsetAsync (pp->dev_out, 0xa5, pp->bytes, stream) ==
      hipSuccess);
  err = hipf_convolve_run (limits, plane, mask, pp->dev_in, pp->pitch,
      pp->dev_out, pp->pitch, scratch, stream);
  if (err == hipErrorInvalidValue) {
    switch (plane->path) {
      case HIPF_CONVOLVE_TENSOR:
        fail_unless (!fits || !tensor_expected (),
            "%s: the tensor cores refused a mask they take", what);
        break;
      case HIPF_CONVOLVE_DIRECT:
        fail_unless (mask->separable, "%s: the direct kernel refused", what);
        break;
      case HIPF_CONVOLVE_AUTO:
        fail ("%s: no kernel took the mask", what);
        break;
      case HIPF_CONVOLVE_TENSOR_PASSES:
        fail_unless (!mask->separable || !tensor_expected ()
            || mask->n_x > HIPF_CONVOLVE_TENSOR_TAPS
            || mask->n_y > HIPF_CONVOLVE_TENSOR_TAPS
            || limits->shared_mem_optin < 128 * 1024,
            "%s: the tensor cores' passes refused a mask they take", what);
        break;
      default:
        fail_unless (!mask->separable, "%s: the passes refused", what);
        break;
    }
    return FALSE;
  }
  fail_unless (err == hipSuccess, "%s: %s", what, hipGetErrorString (err));
  fail_unless (hipMemcpyAsync (pp->got, pp->dev_out, pp->bytes,
          hipMemcpyDeviceToHost, stream) == hipSuccess);
  fail_unless (hipStreamSynchronize (stream) == hipSuccess);
  for (y = 0; y < pp->h && !where; y++)
    for (i = 0; i < (gsize) pp->w * pp->ch && !where; i++)
      if (pp->got[y * pp->pitch + i] != pp->want[y * pp->pitch + i])
        where = g_strdup_printf ("(%d, %d) channel %d: %u, not %u",
            (gint) (i / pp->ch), y, (gint) (i % pp->ch),
            pp->got[y * pp->pitch + i], pp->want[y * pp->pitch + i]);
  fail_unless (where == NULL, "path %d, %s: %s (seed %u)", plane->path, what,
      where, hipf_test_seed ());
  return TRUE;
}

/* Each kernel that takes a mask, called directly: the tensor cores' 2D
 * kernel and their passes, the direct one (what devices without tensor
 * cores run), the separable passes through memory, and the dispatch's
 * choice with the scratch it asks for; on planes of one to four channels
 * with odd sizes and pitches on and off the bounds the wide loads need,
 * every border, taps of one to four digits. */
GST_START_TEST (test_paths)
{
  static const gint masks[][3] = { {3, 3, 0}, {5, 5, 0}, {7, 1, 0},
  {15, 15, 0}, {25, 9, 0}, {27, 27, 0}, {31, 31, 0}, {1, 31, 0}, {3, 3, 1},
  {31, 29, 1}, {61, 61, 1}, {63, 9, 1}, {1, 63, 1}, {127, 3, 1}
  };
  /* channels, width, height, bytes past each row: the last three rows
   * on 16-, 8- and 4-byte bounds, as 4-, 2- and 1-channel loads want. */
  static const gint planes[][4] = { {4, 300, 70, 8}, {4, 131, 19, 3},
  {1, 130, 37, 0}, {3, 129, 33, 5}, {2, 257, 35, 1}, {4, 2, 40, 0},
  {4, 200, 45, 0}, {2, 132, 29, 0}, {1, 260, 41, 0}
  };
  static const HipfConvolvePath paths[] = { HIPF_CONVOLVE_AUTO,
    HIPF_CONVOLVE_TENSOR, HIPF_CONVOLVE_DIRECT, HIPF_CONVOLVE_SEPARABLE,
    HIPF_CONVOLVE_TENSOR_PASSES
  };
  GRand *rand = hipf_test_rand ();
  HipfDeviceLimits limits;
  HipfConvolveMask *mask;
  hipStream_t stream;
  guint pl, k, b, t;
  gboolean tensor = FALSE, tensor_passes = FALSE;

  fail_unless (hipf_device_limits_query (0, &limits) == hipSuccess);
  fail_unless (hipStreamCreateWithFlags (&stream, hipStreamNonBlocking) ==
      hipSuccess);
  fail_unless (hipHostMalloc ((void **) &mask, sizeof (*mask), 0) ==
      hipSuccess);
  for (pl = 0; pl < G_N_ELEMENTS (planes); pl++) {
    const gint ch = planes[pl][0], w = planes[pl][1], h = planes[pl][2];
    PathPlane pp;

    path_plane_init (&pp, rand, ch, w, h, planes[pl][3], stream);
    for (k = 0; k < G_N_ELEMENTS (masks); k++) {
      const gint digits = 1 + (pl + k) % 4;
      HipfConvolvePlane plane = { w, h, ch, (1u << ch) - 1 };
      RefPlane src = { pp.in, (gint) pp.pitch, w, h, ch };
      RefPlane dst = { pp.want, (gint) pp.pitch, w, h, ch };
      void *scratch[G_N_ELEMENTS (paths)];
      gsize sums;

      /* Channel 0 copied on some planes, as luma-only leaves chroma. */
      if (ch > 1 && k % 3 == 1)
        plane.channel_mask &= ~1u;
      random_wide_mask (rand, mask, masks[k][0], masks[k][1], masks[k][2],
          masks[k][2] && digits == 4 ? 3 : digits);
      /* Each path with the scratch it asks for, no more: where the tensor
       * cores' passes take a separable mask, no room for row sums. */
      plane.path = HIPF_CONVOLVE_SEPARABLE;
      sums = hipf_convolve_scratch_size (&limits, &plane, mask);
      for (t = 0; t < G_N_ELEMENTS (paths); t++) {
        gsize size;

        plane.path = paths[t];
        size = hipf_convolve_scratch_size (&limits, &plane, mask);
        if (paths[t] == HIPF_CONVOLVE_AUTO && mask->separable
            && tensor_expected () && limits.shared_mem_optin >= 128 * 1024
            && mask->n_x <= HIPF_CONVOLVE_TENSOR_TAPS
            && mask->n_y <= HIPF_CONVOLVE_TENSOR_TAPS)
          fail_unless (size + (gsize) w * h * ch * sizeof (gint32) == sums,
              "room for row sums no kernel writes: %" G_GSIZE_FORMAT
              " bytes of %" G_GSIZE_FORMAT, size, sums);
        fail_unless (hipMalloc (&scratch[t], size) == hipSuccess);
      }
      for (b = 0; b < G_N_ELEMENTS (borders); b++) {
        gchar *what = g_strdup_printf ("%d channels %dx%d pitch %"
            G_GSIZE_FORMAT ", %s%dx%d mask of %d digits, %s border", ch, w, h,
            pp.pitch, mask->separable ? "separable " : "", masks[k][0],
            masks[k][1], digits, ref_border_nicks[borders[b]]);

        plane.border = (HipfBorderMode) borders[b];
        ref_convolve_plane (&src, &dst, mask, borders[b], plane.channel_mask);
        for (t = 0; t < G_N_ELEMENTS (paths); t++) {
          plane.path = paths[t];
          if (check_path (&limits, stream, &plane, mask, scratch[t], &pp,
                  what)) {
            tensor |= paths[t] == HIPF_CONVOLVE_TENSOR;
            tensor_passes |= paths[t] == HIPF_CONVOLVE_TENSOR_PASSES;
          }
        }
        g_free (what);
      }
      for (t = 0; t < G_N_ELEMENTS (paths); t++)
        fail_unless (hipFree (scratch[t]) == hipSuccess);
    }
    path_plane_clear (&pp);
  }
  fail_unless ((tensor && tensor_passes) || !tensor_expected ());
  fail_unless (hipHostFree (mask) == hipSuccess);
  fail_unless (hipStreamDestroy (stream) == hipSuccess);
}

GST_END_TEST;

/* Planes taller than a grid is high at every kernel's rows a block (the
 * direct kernel's 32, the column pass's 64, the tensor cores' 32 and
 * their passes' 64): each deals its tiles out to the grid's rows. */
GST_START_TEST (test_tall_planes)
{
  static const HipfConvolvePath paths[] = { HIPF_CONVOLVE_TENSOR,
    HIPF_CONVOLVE_DIRECT, HIPF_CONVOLVE_SEPARABLE,
    HIPF_CONVOLVE_TENSOR_PASSES
  };
  const gint h = 65535 * 64 + 77;
  GRand *rand = hipf_test_rand ();
  HipfDeviceLimits limits;
  HipfConvolveMask *mask;
  hipStream_t stream;
  PathPlane pp;
  guint s, t;

  fail_unless (hipf_device_limits_query (0, &limits) == hipSuccess);
  fail_unless (hipStreamCreateWithFlags (&stream, hipStreamNonBlocking) ==
      hipSuccess);
  fail_unless (hipHostMalloc ((void **) &mask, sizeof (*mask), 0) ==
      hipSuccess);
  path_plane_init (&pp, rand, 1, 3, h, 1, stream);
  for (s = 0; s < 2; s++) {
    HipfConvolvePlane plane = { 3, h, 1, 1, HIPF_BORDER_MIRROR };
    RefPlane src = { pp.in, (gint) pp.pitch, 3, h, 1 };
    RefPlane dst = { pp.want, (gint) pp.pitch, 3, h, 1 };
    void *scratch;

    random_wide_mask (rand, mask, 3, 5, s, 2);
    /* Room for the passes through memory, the path that needs most. */
    plane.path = HIPF_CONVOLVE_SEPARABLE;
    fail_unless (hipMalloc (&scratch, hipf_convolve_scratch_size (&limits,
                &plane, mask)) == hipSuccess);
    ref_convolve_plane (&src, &dst, mask, REF_BORDER_MIRROR, 1);
    for (t = 0; t < G_N_ELEMENTS (paths); t++) {
      plane.path = paths[t];
      check_path (&limits, stream, &plane, mask, scratch, &pp,
          s ? "tall plane, separable 3x5" : "tall plane, 3x5");
    }
    fail_unless (hipFree (scratch) == hipSuccess);
  }
  path_plane_clear (&pp);
  fail_unless (hipHostFree (mask) == hipSuccess);
  fail_unless (hipStreamDestroy (stream) == hipSuccess);
}

GST_END_TEST;

static Suite *
convolve_gpu_suite (void)
{
  Suite *s = suite_create ("hipconvolve-gpu");
  TCase *tc = tcase_create ("gpu");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_masks);
  tcase_add_test (tc, test_separable);
  tcase_add_test (tc, test_presets);
  tcase_add_test (tc, test_large_frames);
  tcase_add_test (tc, test_weight_bound);
  tcase_add_test (tc, test_masks_in_flight);
  tcase_add_test (tc, test_paths);
  tcase_add_test (tc, test_tall_planes);
  return s;
}

HIPF_GPU_CHECK_MAIN (convolve_gpu);
