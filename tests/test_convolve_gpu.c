/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipconvolve against the CPU reference: every format, odd sizes and
 * padded strides, every border mode it takes, random signed 2D masks of
 * every size, random separable masks, 2D masks that factor, each preset,
 * luma-only, and a mask changed between frames.
 */
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "gpucheck.h"
#include "gsthipconvmask.h"
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
set_mask (GstHarness * h, const HipfConvolveMask * m, gint divisor)
{
  gchar *text;

  gst_util_set_object_arg (G_OBJECT (h->element), "preset", "none");
  if (m->separable) {
    GString *x = g_string_new (NULL), *y = g_string_new (NULL);
    gint i;

    for (i = 0; i < m->n_x; i++)
      g_string_append_printf (x, " %d", m->taps_x[i]);
    for (i = 0; i < m->n_y; i++)
      g_string_append_printf (y, " %d", m->taps_y[i]);
    g_object_set (h->element, "kernel", "", "kernel-x", x->str, "kernel-y",
        y->str, NULL);
    g_string_free (x, TRUE);
    g_string_free (y, TRUE);
  } else {
    text = gst_hip_conv_mask_to_string (m);
    g_object_set (h->element, "kernel-x", "", "kernel-y", "", "kernel", text,
        NULL);
    g_free (text);
  }
  g_object_set (h->element, "divisor", divisor, "offset", m->offset, NULL);
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
          set_mask (h, &m, divisor);
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
        set_mask (h, &m, divisor);
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
          set_mask (h, &d, divisor);
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

static Suite *
convolve_gpu_suite (void)
{
  Suite *s = suite_create ("hipconvolve-gpu");
  TCase *tc = tcase_create ("gpu");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_masks);
  tcase_add_test (tc, test_separable);
  tcase_add_test (tc, test_presets);
  return s;
}

HIPF_GPU_CHECK_MAIN (convolve_gpu);
