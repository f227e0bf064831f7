/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipboxblur checks that need no GPU: registration, properties, caps, and
 * the error when the device cannot be opened.
 */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "testutil.h"

GST_START_TEST (test_registered)
{
  GstElementFactory *factory = gst_element_factory_find ("hipboxblur");

  fail_unless (factory != NULL);
  fail_unless_equals_int (gst_plugin_feature_get_rank (GST_PLUGIN_FEATURE
          (factory)), GST_RANK_NONE);
  fail_unless (g_str_has_prefix (gst_element_factory_get_metadata (factory,
              GST_ELEMENT_METADATA_KLASS), "Filter/Effect/Video"));
  gst_object_unref (factory);
}

GST_END_TEST;

static GParamSpec *
find_property (GstElement * e, const gchar * name)
{
  GParamSpec *pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);

  fail_unless (pspec != NULL, "no property %s", name);
  fail_unless (g_param_spec_get_blurb (pspec) != NULL
      && strlen (g_param_spec_get_blurb (pspec)) > 10, "%s has no blurb", name);
  return pspec;
}

GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("hipboxblur", NULL);
  GParamSpecUInt *radius;
  GParamSpecInt *rx, *ry, *dev;
  GParamSpecEnum *border;
  static const gchar *nicks[] = { "zero", "clamp", "mirror", "wrap", "valid" };
  guint i, r;
  gint xi;

  radius = G_PARAM_SPEC_UINT (find_property (e, "radius"));
  fail_unless_equals_int (radius->minimum, 0);
  fail_unless (radius->maximum >= 1000);
  fail_unless (radius->parent_instance.flags & GST_PARAM_MUTABLE_PLAYING);
  for (i = 0; i < 2; i++) {
    GParamSpec *p = find_property (e, i ? "radius-y" : "radius-x");
    GParamSpecInt *ip = G_PARAM_SPEC_INT (p);

    fail_unless_equals_int (ip->minimum, -1);
    fail_unless_equals_int (ip->default_value, -1);
    fail_unless_equals_int (ip->maximum, radius->maximum);
    fail_unless (p->flags & GST_PARAM_MUTABLE_PLAYING);
  }
  rx = G_PARAM_SPEC_INT (find_property (e, "radius-x"));
  ry = G_PARAM_SPEC_INT (find_property (e, "radius-y"));
  fail_unless (rx != ry);

  border = G_PARAM_SPEC_ENUM (find_property (e, "border-mode"));
  fail_unless_equals_int (border->enum_class->n_values, G_N_ELEMENTS (nicks));
  for (i = 0; i < G_N_ELEMENTS (nicks); i++)
    fail_unless (g_enum_get_value_by_nick (border->enum_class,
            nicks[i]) != NULL, "no nick %s", nicks[i]);
  fail_unless (border->parent_instance.flags & GST_PARAM_MUTABLE_PLAYING);

  dev = G_PARAM_SPEC_INT (find_property (e, "device-id"));
  fail_unless_equals_int (dev->minimum, -1);
  fail_unless_equals_int (dev->default_value, -1);

  {
    GParamSpec *p = find_property (e, "slices");
    GParamSpecUInt *slices = G_PARAM_SPEC_UINT (p);

    fail_unless_equals_int (slices->minimum, 0);
    fail_unless_equals_int (slices->default_value, 0);
    fail_unless_equals_int (slices->maximum, 16);
    fail_unless (p->flags & GST_PARAM_MUTABLE_PLAYING);
    g_object_set (e, "slices", 3, NULL);
    g_object_get (e, "slices", &r, NULL);
    fail_unless_equals_int (r, 3);
  }

  /* Values round-trip, nicks included. */
  g_object_set (e, "radius", 1000, "radius-x", 7, "radius-y", -1, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "border-mode", "wrap");
  g_object_get (e, "radius", &r, "radius-x", &xi, NULL);
  fail_unless_equals_int (r, 1000);
  fail_unless_equals_int (xi, 7);
  g_object_get (e, "radius-y", &xi, NULL);
  fail_unless_equals_int (xi, -1);
  {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (border));
    g_object_get_property (G_OBJECT (e), "border-mode", &v);
    fail_unless_equals_string (g_enum_get_value (border->enum_class,
            g_value_get_enum (&v))->value_nick, "wrap");
    g_value_unset (&v);
  }
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_caps)
{
  hipf_test_check_caps ("hipboxblur", hipf_test_blur_formats,
      hipf_test_n_blur_formats);
}

GST_END_TEST;

/* The 16-bit formats in system and device memory, and those GStreamer
 * 1.22's CUDA allocator lays out in CUDA memory where the plugin has it. */
GST_START_TEST (test_wide_caps_memory)
{
  hipf_test_check_wide_memories ("hipboxblur", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_error_without_device)
{
  hipf_test_check_start_error ("hipboxblur");
}

GST_END_TEST;

static Suite *
boxblur_suite (void)
{
  Suite *s = suite_create ("hipboxblur");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_registered);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_caps);
  tcase_add_test (tc, test_wide_caps_memory);
  tcase_add_test (tc, test_error_without_device);
  return s;
}

GST_CHECK_MAIN (boxblur);
