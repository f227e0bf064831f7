/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipconvolve's masks (text, presets, factoring) and the rounding and CPU
 * reference of its output, without a GPU.
 */
#include <gst/check/gstcheck.h>
#include <gst/base/gstbasetransform.h>

#include "gsthipconvmask.h"
#include "reference.h"
#include "testutil.h"

GST_START_TEST (test_parse)
{
  static const gchar *refused[] = {
    "", ";", "1 2", "1 2 1; 2 4", "1 2 1; 2 4 2", "a b c", "1 2x 1",
    "1 2 1;; 1 2 1", "9000000", "1 2 1; 2 4 2; 1 2 1; 1 1 1",
  };
  HipfConvolveMask m = { 0 };
  gchar *why = NULL, *text;
  GString *wide;
  guint i;

  fail_unless (gst_hip_conv_mask_parse ("1 2 1; 2 4 2; 1 2 1", &m, &why));
  fail_unless (why == NULL);
  fail_unless_equals_int (m.width, 3);
  fail_unless_equals_int (m.height, 3);
  fail_unless_equals_int (m.taps[4], 4);
  fail_unless_equals_int (m.taps[5], 2);
  fail_unless (gst_hip_conv_mask_parse ("-1,0,1 ;\t-2 , 0 ,2; -1 0 1 ", &m,
          &why));
  fail_unless_equals_int (m.taps[3], -2);
  text = gst_hip_conv_mask_to_string (&m);
  fail_unless_equals_string (text, "-1 0 1; -2 0 2; -1 0 1");
  g_free (text);
  fail_unless (gst_hip_conv_mask_parse ("7", &m, &why));
  fail_unless_equals_int (m.width * m.height, 1);
  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    HipfConvolveMask before = m;

    fail_if (gst_hip_conv_mask_parse (refused[i], &m, &why), "took '%s'",
        refused[i]);
    fail_unless (why != NULL && *why != '\0', "'%s': no reason", refused[i]);
    fail_unless (memcmp (&before, &m, sizeof (m)) == 0, "'%s' changed it",
        refused[i]);
    g_free (why);
  }
  /* 31 columns are taken, 33 are not; the taps' weight is bounded. */
  wide = g_string_new ("1");
  for (i = 1; i < 31; i++)
    g_string_append (wide, " 1");
  fail_unless (gst_hip_conv_mask_parse (wide->str, &m, &why));
  g_string_append (wide, " 1 1");
  fail_if (gst_hip_conv_mask_parse (wide->str, &m, &why));
  g_free (why);
  g_string_free (wide, TRUE);
  fail_unless (gst_hip_conv_mask_parse ("8388608", &m, &why));
  fail_if (gst_hip_conv_mask_parse ("8388608 0 1", &m, &why));
  g_free (why);
}

GST_END_TEST;

GST_START_TEST (test_taps)
{
  gint taps[HIPF_CONVOLVE_MAX_TAPS + 2], n = 0;
  HipfConvolveMask m = { 0 };
  gchar *why = NULL;
  GString *many = g_string_new ("1");
  guint i;

  fail_unless (gst_hip_conv_taps_parse ("1 4 6 4 1", taps, &n, &why));
  fail_unless_equals_int (n, 5);
  fail_unless_equals_int (taps[2], 6);
  fail_if (gst_hip_conv_taps_parse ("1 2", taps, &n, &why));
  g_free (why);
  fail_if (gst_hip_conv_taps_parse ("", taps, &n, &why));
  g_free (why);
  for (i = 1; i < 255; i++)
    g_string_append (many, " 1");
  fail_unless (gst_hip_conv_taps_parse (many->str, taps, &n, &why));
  fail_unless_equals_int (n, 255);
  g_string_append (many, " 1 1");
  fail_if (gst_hip_conv_taps_parse (many->str, taps, &n, &why));
  g_free (why);
  g_string_free (many, TRUE);
  /* A row and a column whose outer product weighs too much. */
  taps[0] = 2896;
  fail_unless (gst_hip_conv_mask_set_separable (&m, taps, 1, taps, 1, &why));
  taps[0] = 2897;
  fail_if (gst_hip_conv_mask_set_separable (&m, taps, 1, taps, 1, &why));
  g_free (why);
}

GST_END_TEST;

static void
check_product (const HipfConvolveMask * m, const gint * taps, gint w, gint h)
{
  gint i, j;

  fail_unless (m->separable);
  fail_unless_equals_int (m->n_x, w);
  fail_unless_equals_int (m->n_y, h);
  for (j = 0; j < h; j++)
    for (i = 0; i < w; i++)
      fail_unless_equals_int (m->taps_y[j] * m->taps_x[i], taps[j * w + i]);
}

/* Rank-one integer masks factor into integer vectors, others do not. */
GST_START_TEST (test_factor)
{
  GRand *rand = hipf_test_rand ();
  HipfConvolveMask m = { 0 };
  gchar *why = NULL;
  gint iter;

  fail_unless (gst_hip_conv_mask_parse ("1 2 1; 2 4 2; 1 2 1", &m, &why));
  fail_unless (gst_hip_conv_mask_factor (&m));
  fail_unless_equals_int (m.taps_x[1], 2);
  fail_unless_equals_int (m.taps_y[1], 2);
  fail_unless (gst_hip_conv_mask_parse ("0 0 0; -3 0 3; 0 0 0", &m, &why));
  fail_unless (gst_hip_conv_mask_factor (&m));
  fail_unless (gst_hip_conv_mask_parse ("0 -1 0; -1 5 -1; 0 -1 0", &m, &why));
  fail_if (gst_hip_conv_mask_factor (&m));
  fail_if (m.separable);
  fail_unless (gst_hip_conv_mask_parse ("0 0 0; 0 0 0; 0 0 0", &m, &why));
  fail_if (gst_hip_conv_mask_factor (&m));

  for (iter = 0; iter < 500; iter++) {
    gint w = 2 * g_rand_int_range (rand, 0, 8) + 1;
    gint h = 2 * g_rand_int_range (rand, 0, 8) + 1;
    gint u[HIPF_CONVOLVE_MAX_SIDE], v[HIPF_CONVOLVE_MAX_SIDE];
    gint taps[HIPF_CONVOLVE_MAX_SIDE * HIPF_CONVOLVE_MAX_SIDE], i, j;
    gboolean bump = iter % 2;

    for (i = 0; i < w; i++)
      v[i] = g_rand_int_range (rand, -6, 7);
    for (j = 0; j < h; j++)
      u[j] = g_rand_int_range (rand, -6, 7);
    for (j = 0; j < h; j++)
      for (i = 0; i < w; i++)
        taps[j * w + i] = u[j] * v[i];
    if (bump)
      taps[g_rand_int_range (rand, 0, w * h)] += 1;
    m.separable = FALSE;
    m.width = w;
    m.height = h;
    memcpy (m.taps, taps, sizeof (taps));
    if (gst_hip_conv_mask_factor (&m)) {
      check_product (&m, taps, w, h);
    } else {
      /* Then some 2x2 minor is nonzero (rank above one), or all is 0. */
      gboolean rank_two = FALSE, zero = TRUE;
      gint a, b, c, d;

      for (a = 0; a < h; a++)
        for (b = 0; b < w; b++) {
          zero = zero && taps[a * w + b] == 0;
          for (c = 0; c < h; c++)
            for (d = 0; d < w; d++)
              rank_two = rank_two || taps[a * w + b] * taps[c * w + d] !=
                  taps[a * w + d] * taps[c * w + b];
        }
      fail_unless (rank_two || zero, "rank-one mask not factored");
      fail_unless (bump || zero, "a product of two vectors not factored");
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_presets)
{
  static const gint gauss1[] = { 4, 54, 242, 399, 242, 54, 4 };
  HipfConvolveMask m = { 0 };
  gchar *text;
  guint i;

  fail_unless (gst_hip_conv_mask_preset (GST_HIP_CONVOLVE_PRESET_GAUSSIAN, 1.0,
          &m));
  fail_unless (m.separable);
  fail_unless_equals_int (m.n_x, G_N_ELEMENTS (gauss1));
  for (i = 0; i < G_N_ELEMENTS (gauss1); i++) {
    fail_unless_equals_int (m.taps_x[i], gauss1[i]);
    fail_unless_equals_int (m.taps_y[i], gauss1[i]);
  }
  fail_unless_equals_int64 (gst_hip_conv_mask_sum (&m), 999 * 999);
  /* Tails that round to 0 are dropped; the widest keeps 255 taps at most. */
  fail_unless (gst_hip_conv_mask_preset (GST_HIP_CONVOLVE_PRESET_GAUSSIAN,
          0.1, &m));
  fail_unless_equals_int (m.n_x, 1);
  fail_unless (gst_hip_conv_mask_preset (GST_HIP_CONVOLVE_PRESET_GAUSSIAN,
          GST_HIP_CONVOLVE_MAX_SIGMA, &m));
  fail_unless (m.n_x <= HIPF_CONVOLVE_MAX_TAPS && m.n_x % 2 == 1);
  fail_unless (m.taps_x[0] > 0);
  fail_unless (gst_hip_conv_mask_preset (GST_HIP_CONVOLVE_PRESET_SOBEL_X, 0,
          &m));
  text = gst_hip_conv_mask_to_string (&m);
  fail_unless_equals_string (text, "-1 0 1; -2 0 2; -1 0 1");
  g_free (text);
  fail_unless (gst_hip_conv_mask_preset (GST_HIP_CONVOLVE_PRESET_SOBEL_Y, 0,
          &m));
  text = gst_hip_conv_mask_to_string (&m);
  fail_unless_equals_string (text, "-1 -2 -1; 0 0 0; 1 2 1");
  g_free (text);
  fail_unless (gst_hip_conv_mask_preset (GST_HIP_CONVOLVE_PRESET_SHARPEN, 0,
          &m));
  fail_unless_equals_int64 (gst_hip_conv_mask_sum (&m), 1);
  fail_unless (gst_hip_conv_mask_preset (GST_HIP_CONVOLVE_PRESET_LAPLACIAN, 0,
          &m));
  fail_unless_equals_int64 (gst_hip_conv_mask_sum (&m), 0);
  fail_unless (gst_hip_conv_mask_preset (GST_HIP_CONVOLVE_PRESET_EMBOSS, 0,
          &m));
  text = gst_hip_conv_mask_to_string (&m);
  fail_unless_equals_string (text, "-2 -1 0; -1 1 1; 0 1 2");
  g_free (text);
  fail_if (gst_hip_conv_mask_preset (GST_HIP_CONVOLVE_PRESET_NONE, 0, &m));
}

GST_END_TEST;

/* Nearest, halves toward +infinity, for either sign of sum and divisor. */
GST_START_TEST (test_rounding)
{
  static const struct
  {
    gint64 sum, divisor;
    gint q;
  } cases[] = {
    {5, 2, 3}, {-5, 2, -2}, {-3, 2, -1}, {3, 2, 2}, {7, -2, -3},
    {-7, -2, 4}, {-1, 3, 0}, {-2, 3, -1}, {2, 3, 1}, {0, 5, 0},
    {-2139095040, 1, -2139095040}, {2139095040, 16, 133693440},
  };
  HipfConvolveMask m = { 0 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    fail_unless_equals_int (hipf_convolve_round (cases[i].sum,
            cases[i].divisor), cases[i].q);
  m.divisor = 4;
  m.offset = 128;
  fail_unless_equals_int (hipf_convolve_output (-1024, &m), 0);
  fail_unless_equals_int (hipf_convolve_output (-6, &m), 127);
  fail_unless_equals_int (hipf_convolve_output (2, &m), 129);
  fail_unless_equals_int (hipf_convolve_output (1000, &m), 255);
}

GST_END_TEST;

/* Sobel-x by hand on a 3x3 plane, clamp border, offset 128. */
GST_START_TEST (test_reference_by_hand)
{
  guint8 in[9] = { 10, 20, 30, 10, 20, 30, 10, 20, 30 }, out[9];
  RefPlane src = { in, 3, 3, 3, 1 }, dst = { out, 3, 3, 3, 1 };
  HipfConvolveMask m = { 0 };

  fail_unless (gst_hip_conv_mask_preset (GST_HIP_CONVOLVE_PRESET_SOBEL_X, 0,
          &m));
  m.divisor = 4;
  m.offset = 128;
  ref_convolve_plane (&src, &dst, &m, REF_BORDER_CLAMP, 1);
  /* Centre: 4 * (30 - 10) / 4 = 20; left column: 4 * (20 - 10) / 4. */
  fail_unless_equals_int (out[4], 148);
  fail_unless_equals_int (out[3], 138);
  fail_unless_equals_int (out[5], 138);
  /* Zero border: the right column sees -4 * 20 / 4. */
  ref_convolve_plane (&src, &dst, &m, REF_BORDER_ZERO, 1);
  fail_unless_equals_int (out[5], 128 - 20);
}

GST_END_TEST;

/* A mask of ones over its count is the box blur: two references written
 * apart agree, in every border mode convolution takes. */
GST_START_TEST (test_reference_is_box_blur)
{
  GRand *rand = hipf_test_rand ();
  gint iter;

  for (iter = 0; iter < 200; iter++) {
    gint w = g_rand_int_range (rand, 1, 14), h = g_rand_int_range (rand, 1, 14);
    gint ch = g_rand_int_range (rand, 1, 5), r = g_rand_int_range (rand, 0, 8);
    RefBorder mode = g_rand_int_range (rand, 0, REF_BORDER_VALID);
    gint stride = w * ch + g_rand_int_range (rand, 0, 4);
    guint8 *in = g_malloc (stride * h), *a = g_malloc0 (stride * h),
        *b = g_malloc0 (stride * h);
    RefPlane src = { in, stride, w, h, ch };
    RefPlane pa = { a, stride, w, h, ch }, pb = { b, stride, w, h, ch };
    HipfConvolveMask m = { 0 };
    gint i, y;

    for (i = 0; i < stride * h; i++)
      in[i] = g_rand_int (rand);
    m.width = m.height = 2 * r + 1;
    for (i = 0; i < m.width * m.height; i++)
      m.taps[i] = 1;
    m.divisor = m.width * m.height;
    ref_convolve_plane (&src, &pa, &m, mode, 0xf);
    ref_box_blur_plane (&src, &pb, r, r, mode);
    for (y = 0; y < h; y++)
      fail_unless (memcmp (a + y * stride, b + y * stride, w * ch) == 0,
          "%dx%d ch %d r %d %s (seed %u)", w, h, ch, r,
          ref_border_nicks[mode], hipf_test_seed ());
    g_free (in);
    g_free (a);
    g_free (b);
  }
}

GST_END_TEST;

/* The element's properties: ranges, defaults, and bad values refused
 * with a warning, the old value kept. */
GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("hipconvolve", NULL);
  GParamSpecInt *divisor, *offset;
  gchar *text = NULL;
  gint mode;

  fail_unless (e != NULL);
  divisor = G_PARAM_SPEC_INT (g_object_class_find_property
      (G_OBJECT_GET_CLASS (e), "divisor"));
  offset = G_PARAM_SPEC_INT (g_object_class_find_property
      (G_OBJECT_GET_CLASS (e), "offset"));
  fail_unless_equals_int (divisor->minimum, -8388608);
  fail_unless_equals_int (divisor->maximum, 8388608);
  fail_unless_equals_int (divisor->default_value, 0);
  fail_unless_equals_int (offset->default_value, 0);
  /* Without a mask frames pass through. */
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (e)));

  g_object_set (e, "kernel", "1 2 1; 2 4 2; 1 2 1", NULL);
  fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (e)));
  ASSERT_WARNING (g_object_set (e, "kernel", "1 2; 3 4", NULL));
  ASSERT_WARNING (g_object_set (e, "kernel", "1 x 1", NULL));
  g_object_get (e, "kernel", &text, NULL);
  fail_unless_equals_string (text, "1 2 1; 2 4 2; 1 2 1");
  g_free (text);
  ASSERT_WARNING (g_object_set (e, "kernel-x", "1 1", NULL));
  g_object_get (e, "kernel-x", &text, NULL);
  fail_unless (text == NULL);
  g_object_set (e, "kernel-x", "1, 4, 6, 4, 1", NULL);
  g_object_get (e, "kernel-x", &text, NULL);
  fail_unless_equals_string (text, "1 4 6 4 1");
  g_free (text);
  /* A row and a column that weigh too much together, or alone. */
  g_object_set (e, "kernel-y", "4096 4096 4096", NULL);
  ASSERT_WARNING (g_object_set (e, "kernel-x", "4096 4096 4096", NULL));
  g_object_get (e, "kernel-x", &text, NULL);
  fail_unless_equals_string (text, "1 4 6 4 1");
  g_free (text);
  g_object_set (e, "kernel-x", "", "kernel-y", "0", NULL);
  ASSERT_WARNING (g_object_set (e, "kernel-x",
          "8388608 8388608 8388608", NULL));
  g_object_get (e, "kernel-x", &text, NULL);
  fail_unless (text == NULL);
  /* valid is refused: it means nothing for signed masks. */
  gst_util_set_object_arg (G_OBJECT (e), "border-mode", "clamp");
  ASSERT_WARNING (gst_util_set_object_arg (G_OBJECT (e), "border-mode",
          "valid"));
  g_object_get (e, "border-mode", &mode, NULL);
  fail_unless_equals_int (mode, 1);
  /* Clearing the mask passes frames through again. */
  g_object_set (e, "kernel", "", NULL);
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (e)));
  gst_util_set_object_arg (G_OBJECT (e), "preset", "sobel-x");
  fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (e)));
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_caps)
{
  hipf_test_check_caps ("hipconvolve", hipf_test_formats,
      hipf_test_n_formats);
}

GST_END_TEST;

/* 8-bit samples only, in every memory: the CUDA formats other elements
 * take are not the convolution's. */
GST_START_TEST (test_wide_caps_memory)
{
  hipf_test_check_wide_memories ("hipconvolve", FALSE);
}

GST_END_TEST;

GST_START_TEST (test_error_without_device)
{
  hipf_test_check_start_error ("hipconvolve");
}

GST_END_TEST;

static Suite *
convolve_suite (void)
{
  Suite *s = suite_create ("hipconvolve");
  TCase *tc = tcase_create ("masks");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parse);
  tcase_add_test (tc, test_taps);
  tcase_add_test (tc, test_factor);
  tcase_add_test (tc, test_presets);
  tcase_add_test (tc, test_rounding);
  tcase_add_test (tc, test_reference_by_hand);
  tcase_add_test (tc, test_reference_is_box_blur);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_caps);
  tcase_add_test (tc, test_wide_caps_memory);
  tcase_add_test (tc, test_error_without_device);
  return s;
}

GST_CHECK_MAIN (convolve);
