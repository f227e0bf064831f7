/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hiphistogram checks that need no GPU: registration, properties, caps, and
 * the error when the device cannot be opened.
 */
#include <gst/check/gstcheck.h>

#include "testutil.h"

GST_START_TEST (test_registered)
{
  GstElementFactory *factory = gst_element_factory_find ("hiphistogram");

  fail_unless (factory != NULL);
  fail_unless_equals_int (gst_plugin_feature_get_rank (GST_PLUGIN_FEATURE
          (factory)), GST_RANK_NONE);
  fail_unless (g_str_has_prefix (gst_element_factory_get_metadata (factory,
              GST_ELEMENT_METADATA_KLASS), "Filter/Analyzer/Video"));
  gst_object_unref (factory);
}

GST_END_TEST;

typedef struct
{
  const gchar *name;
  GType type;
  guint64 min, max, def;
} Range;

GST_START_TEST (test_properties)
{
  static const Range uints[] = {
    {"bins", G_TYPE_UINT, 1, 1024, 256},
    {"roi-x", G_TYPE_UINT, 0, G_MAXINT, 0},
    {"roi-y", G_TYPE_UINT, 0, G_MAXINT, 0},
    {"roi-width", G_TYPE_UINT, 0, G_MAXINT, 0},
    {"roi-height", G_TYPE_UINT, 0, G_MAXINT, 0},
    {"low-threshold", G_TYPE_UINT, 0, 255, 4},
    {"high-threshold", G_TYPE_UINT, 0, 255, 251},
    {"target-mean", G_TYPE_UINT, 1, 255, 118},
    {"interval", G_TYPE_UINT64, 0, G_MAXUINT64, 0},
  };
  GstElement *e = gst_element_factory_make ("hiphistogram", NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  GParamSpec *p;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (uints); i++) {
    p = g_object_class_find_property (klass, uints[i].name);
    fail_unless (p != NULL, "no %s", uints[i].name);
    fail_unless (strlen (g_param_spec_get_blurb (p)) > 10);
    fail_unless (p->flags & GST_PARAM_MUTABLE_PLAYING, "%s", uints[i].name);
    fail_unless_equals_int (p->value_type, uints[i].type);
    if (uints[i].type == G_TYPE_UINT) {
      fail_unless_equals_uint64 (G_PARAM_SPEC_UINT (p)->minimum, uints[i].min);
      fail_unless_equals_uint64 (G_PARAM_SPEC_UINT (p)->maximum, uints[i].max);
      fail_unless_equals_uint64 (G_PARAM_SPEC_UINT (p)->default_value,
          uints[i].def);
    } else {
      fail_unless_equals_uint64 (G_PARAM_SPEC_UINT64 (p)->minimum,
          uints[i].min);
      fail_unless_equals_uint64 (G_PARAM_SPEC_UINT64 (p)->maximum,
          uints[i].max);
      fail_unless_equals_uint64 (G_PARAM_SPEC_UINT64 (p)->default_value,
          uints[i].def);
    }
  }
  p = g_object_class_find_property (klass, "post-messages");
  fail_unless (G_PARAM_SPEC_BOOLEAN (p)->default_value);
  p = g_object_class_find_property (klass, "attach-meta");
  fail_unless (G_PARAM_SPEC_BOOLEAN (p)->default_value);
  p = g_object_class_find_property (klass, "device-id");
  fail_unless_equals_int (G_PARAM_SPEC_INT (p)->minimum, -1);
  fail_unless_equals_int (G_PARAM_SPEC_INT (p)->default_value, -1);
  gst_object_unref (e);
}

GST_END_TEST;

/* zones takes COLSxROWS, each 1 to 64, and refuses anything else with a
 * warning, keeping what it had. */
GST_START_TEST (test_zones_property)
{
  static const gchar *refused[] = { "0x3", "3x0", "65x1", "1x65", "abc",
    "4x", "x4", "4x4x4", "", " 4x4", "4X4", "-1x2", "18446744073709551617x1"
  };
  GstElement *e = gst_element_factory_make ("hiphistogram", NULL);
  gchar *zones = NULL;
  guint i;

  g_object_get (e, "zones", &zones, NULL);
  fail_unless_equals_string (zones, "1x1");
  g_free (zones);
  g_object_set (e, "zones", "16x9", NULL);
  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    ASSERT_WARNING (g_object_set (e, "zones", refused[i], NULL));
    g_object_get (e, "zones", &zones, NULL);
    fail_unless_equals_string (zones, "16x9");
    g_free (zones);
  }
  g_object_set (e, "zones", "64x64", NULL);
  g_object_get (e, "zones", &zones, NULL);
  fail_unless_equals_string (zones, "64x64");
  g_free (zones);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_caps)
{
  hipf_test_check_caps ("hiphistogram", hipf_test_blur_formats,
      hipf_test_n_blur_formats);
}

GST_END_TEST;

/* The 16-bit formats in system and device memory, and those GStreamer
 * 1.22's CUDA allocator lays out in CUDA memory where the plugin has it. */
GST_START_TEST (test_wide_caps_memory)
{
  hipf_test_check_wide_memories ("hiphistogram", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_error_without_device)
{
  hipf_test_check_start_error ("hiphistogram");
}

GST_END_TEST;

static Suite *
histogram_suite (void)
{
  Suite *s = suite_create ("hiphistogram");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_registered);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_zones_property);
  tcase_add_test (tc, test_caps);
  tcase_add_test (tc, test_wide_caps_memory);
  tcase_add_test (tc, test_error_without_device);
  return s;
}

GST_CHECK_MAIN (histogram);
