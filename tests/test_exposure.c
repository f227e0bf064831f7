/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipexposure checks that need no GPU: registration, properties, caps (the
 * 16-bit formats outside CUDA memory) and the error when the device cannot
 * be opened.
 */
#include <gst/check/gstcheck.h>

#include "testutil.h"
#include "overlay/palette.h"

GST_START_TEST (test_registered)
{
  GstElementFactory *factory = gst_element_factory_find ("hipexposure");

  fail_unless (factory != NULL);
  fail_unless (g_str_has_prefix (gst_element_factory_get_metadata (factory,
              GST_ELEMENT_METADATA_KLASS), "Filter/Effect/Video"));
  gst_object_unref (factory);
}

GST_END_TEST;

GST_START_TEST (test_properties)
{
  static const struct
  {
    const gchar *name;
    guint min, max, def;
  } uints[] = {
    {"zebra-threshold", 0, 255, 235},
    {"histogram-x", 0, 8192, 16},
    {"histogram-y", 0, 8192, 16},
    {"histogram-width", 16, 8192, 256},
    {"histogram-height", 16, 8192, 128},
    {"histogram-opacity", 0, 255, 160},
  };
  GstElement *e = gst_element_factory_make ("hipexposure", NULL);
  gboolean zebra, histogram, false_color;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (uints); i++) {
    GParamSpecUInt *p = G_PARAM_SPEC_UINT (g_object_class_find_property
        (G_OBJECT_GET_CLASS (e), uints[i].name));

    fail_unless (p != NULL, "%s", uints[i].name);
    fail_unless_equals_int (p->minimum, uints[i].min);
    fail_unless_equals_int (p->maximum, uints[i].max);
    fail_unless_equals_int (p->default_value, uints[i].def);
  }
  g_object_get (e, "zebra", &zebra, "histogram", &histogram, "false-color",
      &false_color, NULL);
  fail_unless (zebra && histogram && !false_color);
  /* Before caps any box is taken. */
  g_object_set (e, "histogram-x", 8000, "histogram-width", 8000, NULL);
  g_object_get (e, "histogram-x", &i, NULL);
  fail_unless_equals_int (i, 8000);
  /* The graph's modes, by nick. */
  g_object_get (e, "histogram-mode", &i, NULL);
  fail_unless_equals_int (i, 0);
  gst_util_set_object_arg (G_OBJECT (e), "histogram-mode", "rgb");
  g_object_get (e, "histogram-mode", &i, NULL);
  fail_unless_equals_int (i, 1);
  gst_util_set_object_arg (G_OBJECT (e), "histogram-mode", "luma");
  g_object_get (e, "histogram-mode", &i, NULL);
  fail_unless_equals_int (i, 0);
  gst_object_unref (e);
}

GST_END_TEST;

/* Every format hipboxblur takes, the 16-bit ones too. */
GST_START_TEST (test_caps)
{
  hipf_test_check_caps ("hipexposure", hipf_test_blur_formats,
      hipf_test_n_blur_formats);
}

GST_END_TEST;

/* The 16-bit formats in system and device memory, and those GStreamer
 * 1.22's CUDA allocator lays out in CUDA memory where the plugin has it. */
GST_START_TEST (test_wide_caps_memory)
{
  hipf_test_check_wide_memories ("hipexposure", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_error_without_device)
{
  hipf_test_check_start_error ("hipexposure");
}

GST_END_TEST;

/* The colour conversions the RGB graph and the palette use, which the
 * kernel and the reference share, by hand. */
GST_START_TEST (test_colours)
{
  static const struct
  {
    gint y, u, v, r, g, b;
  } yuv[] = {
    {235, 128, 128, 255, 255, 255}, {16, 128, 128, 0, 0, 0},
    /* BT.601 red: R (298·66 + 409·112 + 128) >> 8 = 256 -> 255, G
     * (19668 + 3800 - 23296 + 128) >> 8 = 1, B (19668 - 19608 + 128) >> 8
     * = 0. */
    {82, 90, 240, 255, 1, 0},
    /* Below the range: clamped at 0, with the floor of negative sums. */
    {0, 128, 128, 0, 0, 0}, {126, 16, 16, 0, 255, 0},
  };
  guint8 colours[8][6];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (yuv); i++) {
    gint rgb[3];

    hipf_exposure_yuv_to_rgb (yuv[i].y, yuv[i].u, yuv[i].v, rgb);
    fail_unless (rgb[0] == yuv[i].r && rgb[1] == yuv[i].g
        && rgb[2] == yuv[i].b, "%d %d %d -> %d %d %d", yuv[i].y, yuv[i].u,
        yuv[i].v, rgb[0], rgb[1], rgb[2]);
  }
  hipf_exposure_graph_colours (colours);
  /* Black, red (bit 2), white; Y' Cb Cr by BT.601 limited range. */
  fail_unless (colours[0][0] == 0 && colours[0][3] == 16
      && colours[0][4] == 128 && colours[0][5] == 128);
  fail_unless (colours[4][0] == 255 && colours[4][1] == 0
      && colours[4][2] == 0 && colours[4][3] == 82 && colours[4][4] == 90
      && colours[4][5] == 240);
  fail_unless (colours[7][3] == 235 && colours[7][4] == 128
      && colours[7][5] == 128);
}

GST_END_TEST;

static Suite *
exposure_suite (void)
{
  Suite *s = suite_create ("hipexposure");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_registered);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_colours);
  tcase_add_test (tc, test_caps);
  tcase_add_test (tc, test_wide_caps_memory);
  tcase_add_test (tc, test_error_without_device);
  return s;
}

GST_CHECK_MAIN (exposure);
