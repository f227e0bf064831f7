/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipexposure checks that need no GPU: registration, properties, caps and
 * the error when the device cannot be opened.
 */
#include <gst/check/gstcheck.h>

#include "testutil.h"

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

GST_START_TEST (test_caps)
{
  hipf_test_check_caps ("hipexposure", hipf_test_formats,
      hipf_test_n_formats);
}

GST_END_TEST;

GST_START_TEST (test_error_without_device)
{
  hipf_test_check_start_error ("hipexposure");
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
  tcase_add_test (tc, test_caps);
  tcase_add_test (tc, test_error_without_device);
  return s;
}

GST_CHECK_MAIN (exposure);
