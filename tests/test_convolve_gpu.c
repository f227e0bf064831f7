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
  return s;
}

HIPF_GPU_CHECK_MAIN (convolve_gpu);
