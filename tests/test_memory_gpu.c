/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frames in device memory: each element on each memory path (system or
 * device in, system or device out), chains that keep frames on the device,
 * a tee with a CPU branch, and CPU maps of device frames, all against the
 * CPU reference.
 */
#include <math.h>
#include <string.h>

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "gpucheck.h"
#include "reference.h"
#include "testutil.h"

#define WIDTH 33
#define HEIGHT 17
#define PADDING 3

/* Moves frames to device memory ahead of the element under test, without
 * touching them: each element does that where the pads' memory differs
 * and it has nothing to compute. */
#define UPLOAD_BY_HISTOGRAM "hiphistogram post-messages=false attach-meta=false"
#define UPLOAD_BY_BLUR "hipboxblur radius=0"

static const gchar *const path_names[] = {
  "system to system", "system to device", "device to system",
  "device to device"
};

static GstElement *
under_test (GstHarness * h)
{
  return gst_bin_get_by_name (GST_BIN (h->element), "e");
}

/* The element's pads negotiated the memory the path asks for, and the
 * output buffer is in it. */
static void
check_path (GstHarness * h, GstBuffer * out, gboolean in_dev, gboolean out_dev,
    const gchar * ctx)
{
  GstElement *e = under_test (h);
  guint64 via_host;

  fail_unless (hipf_test_pad_in_device (e, "sink") == in_dev, "%s: sink", ctx);
  fail_unless (hipf_test_pad_in_device (e, "src") == out_dev, "%s: src", ctx);
  fail_unless (hipf_test_buffer_in_device (out) == out_dev, "%s: buffer", ctx);
  /* Device memory used on the device, not through a CPU mapping. */
  g_object_get (e, "frames-via-host", &via_host, NULL);
  fail_unless_equals_uint64 (via_host, 0);
  gst_object_unref (e);
}

/* @out holds @expected's samples (mapped through its video meta, which
 * downloads a device frame). */
static void
check_pixels (GstBuffer * out, GstVideoFormat format, const GstVideoFrame *
    expected, const gchar * ctx)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  gchar *where = NULL;

  gst_video_info_set_format (&info, format, WIDTH, HEIGHT);
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ), "%s",
      ctx);
  fail_unless (hipf_test_frames_equal (&frame, expected, &where),
      "%s: %s (seed %u)", ctx, where, hipf_test_seed ());
  gst_video_frame_unmap (&frame);
}

/* The reference blur of @in into a new buffer, mapped into @frame. */
static GstBuffer *
reference_blur (GstBuffer * in, const GstVideoInfo * info, gint rx, gint ry,
    RefBorder mode, GstVideoFrame * frame)
{
  GstVideoInfo out_info;
  GstVideoFrame in_frame;
  GstBuffer *buf;

  gst_video_info_set_format (&out_info, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
  buf = gst_buffer_new_allocate (NULL, out_info.size, NULL);
  fail_unless (gst_video_frame_map (&in_frame, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (frame, &out_info, buf, GST_MAP_WRITE));
  ref_box_blur_frame (&in_frame, frame, rx, ry, mode);
  gst_video_frame_unmap (&in_frame);
  return buf;
}

GST_START_TEST (test_blur_paths)
{
  GRand *rand = hipf_test_rand ();
  guint f, path;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    GstVideoFormat fmt = hipf_test_blur_formats[f];

    for (path = 0; path < 4; path++) {
      gboolean in_dev = path >= 2, out_dev = path % 2;
      RefBorder mode = g_rand_int_range (rand, 0, REF_N_BORDERS);
      GstHarness *h = hipf_test_path_harness ("hipboxblur name=e "
          "radius-x=3 radius-y=2", UPLOAD_BY_HISTOGRAM, fmt, WIDTH, HEIGHT,
          in_dev, out_dev);
      GstVideoInfo info;
      GstBuffer *in = hipf_test_frame_new (fmt, WIDTH, HEIGHT, PADDING, &info);
      GstBuffer *out, *exp;
      GstVideoFrame exp_frame;
      GstElement *e = under_test (h);
      gchar *ctx = g_strdup_printf ("%s, %s, %s border",
          gst_video_format_to_string (fmt), path_names[path],
          ref_border_nicks[mode]);

      gst_util_set_object_arg (G_OBJECT (e), "border-mode",
          ref_border_nicks[mode]);
      gst_object_unref (e);
      out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
      fail_unless (out != NULL, "%s: no output", ctx);
      check_path (h, out, in_dev, out_dev, ctx);
      exp = reference_blur (in, &info, 3, 2, mode, &exp_frame);
      check_pixels (out, fmt, &exp_frame, ctx);
      gst_video_frame_unmap (&exp_frame);
      gst_buffer_unref (exp);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      gst_harness_teardown (h);
      g_free (ctx);
    }
  }
}

GST_END_TEST;

static guint
array_uint (const GValue * array, guint i)
{
  return g_value_get_uint (gst_value_array_get_value (array, i));
}

static gdouble
array_double (const GValue * array, guint i)
{
  return g_value_get_double (gst_value_array_get_value (array, i));
}

#define ZONE_COLS 3
#define ZONE_ROWS 2

/* The message's histograms, one bin a value, its luma statistics and its
 * zones equal the reference's. */
static void
check_counts (GstMessage * msg, GstBuffer * in, const GstVideoInfo * info,
    const gchar * ctx)
{
  const GstStructure *s;
  const GValue *hists, *zmean, *zmin, *zmax;
  RefHistogram ref;
  RefZone zones[ZONE_COLS * ZONE_ROWS];
  RefStats st;
  GstVideoFrame frame;
  guint64 pixels;
  gdouble mean;
  guint c, v, luma, u;

  fail_unless (msg != NULL, "%s: no message", ctx);
  s = gst_message_get_structure (msg);
  fail_unless (gst_video_frame_map (&frame, info, in, GST_MAP_READ));
  ref_histogram_frame (&frame, 0, 0, 0, 0, &ref);
  ref_zones (&frame, ZONE_COLS, ZONE_ROWS, 4, 251, zones);
  gst_video_frame_unmap (&frame);
  hists = gst_structure_get_value (s, "histograms");
  fail_unless_equals_int (gst_value_array_get_size (hists), ref.n_channels);
  for (c = 0; c < ref.n_channels; c++) {
    const GValue *hist = gst_value_array_get_value (hists, c);

    fail_unless_equals_int (gst_value_array_get_size (hist), ref.values);
    for (v = 0; v < ref.values; v++) {
      guint got = array_uint (hist, v);

      fail_unless (got == ref.counts[c][v], "%s: %s value %u: %u, expected %"
          G_GUINT64_FORMAT, ctx, ref.names[c], v, got, ref.counts[c][v]);
    }
  }
  fail_unless (gst_structure_get_uint64 (s, "pixels", &pixels));
  fail_unless_equals_uint64 (pixels, (guint64) WIDTH * HEIGHT);

  luma = GST_VIDEO_INFO_IS_RGB (info) ? ref.n_channels - 1 : 0;
  ref_histogram_stats (ref.counts[luma], ref.values, ref.unit, 4, 251, 118,
      &st);
  fail_unless (gst_structure_get_double (s, "mean", &mean));
  fail_unless (fabs (mean - st.mean) <= 1e-9 * MAX (1.0, st.mean),
      "%s: mean %.12g, expected %.12g", ctx, mean, st.mean);
  fail_unless (gst_structure_get_uint (s, "median", &u));
  fail_unless_equals_int (u, st.median);
  fail_unless (gst_structure_get_uint (s, "min", &u));
  fail_unless_equals_int (u, st.min);
  fail_unless (gst_structure_get_uint (s, "max", &u));
  fail_unless_equals_int (u, st.max);

  zmean = gst_structure_get_value (s, "zone-mean");
  zmin = gst_structure_get_value (s, "zone-min");
  zmax = gst_structure_get_value (s, "zone-max");
  fail_unless (zmean && zmin && zmax, "%s: no zones", ctx);
  for (v = 0; v < ZONE_COLS * ZONE_ROWS; v++) {
    gdouble want = (gdouble) zones[v].sum / zones[v].pixels;

    fail_unless (fabs (array_double (zmean, v) - want) <= 1e-9 * MAX (1.0,
            want), "%s: zone %u mean %.12g, expected %.12g", ctx, v,
        array_double (zmean, v), want);
    fail_unless_equals_int (array_uint (zmin, v), zones[v].min);
    fail_unless_equals_int (array_uint (zmax, v), zones[v].max);
  }
}

GST_START_TEST (test_histogram_paths)
{
  guint f, path;

  /* Every format the histogram takes: hipboxblur's. */
  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    GstVideoFormat fmt = hipf_test_blur_formats[f];

    for (path = 0; path < 4; path++) {
      gboolean in_dev = path >= 2, out_dev = path % 2;
      /* A bin a value, whatever the format counts. */
      GstHarness *h = hipf_test_path_harness ("hiphistogram name=e "
          "bins=1024 zones=" G_STRINGIFY (ZONE_COLS) "x"
          G_STRINGIFY (ZONE_ROWS), UPLOAD_BY_BLUR, fmt, WIDTH, HEIGHT,
          in_dev, out_dev);
      GstBus *bus = gst_bus_new ();
      GstVideoInfo info;
      GstBuffer *in = hipf_test_frame_new (fmt, WIDTH, HEIGHT, PADDING, &info);
      GstBuffer *out;
      GstVideoFrame in_frame;
      GstMessage *msg;
      gchar *ctx = g_strdup_printf ("%s, %s",
          gst_video_format_to_string (fmt), path_names[path]);

      gst_element_set_bus (h->element, bus);
      out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
      fail_unless (out != NULL, "%s: no output", ctx);
      check_path (h, out, in_dev, out_dev, ctx);
      msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
      check_counts (msg, in, &info, ctx);
      fail_unless (gst_buffer_get_custom_meta (out,
              "GstHipHistogramMeta") != NULL, "%s: no meta", ctx);
      /* The frame leaves as it came. */
      fail_unless (gst_video_frame_map (&in_frame, &info, in, GST_MAP_READ));
      check_pixels (out, fmt, &in_frame, ctx);
      gst_video_frame_unmap (&in_frame);
      gst_message_unref (msg);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      gst_element_set_bus (h->element, NULL);
      gst_object_unref (bus);
      gst_harness_teardown (h);
      g_free (ctx);
    }
  }
}

GST_END_TEST;

/* Between the elements of a chain the frame stays on the device: it
 * crosses the link once each way. */
/* hipexposure on each path, every format it takes (the 16-bit ones too),
 * all three overlays at once; the luma graph on paths that start in
 * system memory, the RGB graph on the others. */
GST_START_TEST (test_exposure_paths)
{
  guint f, path;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    GstVideoFormat fmt = hipf_test_blur_formats[f];

    for (path = 0; path < 4; path++) {
      gboolean in_dev = path >= 2, out_dev = path % 2;
      RefExposure e = { TRUE, TRUE, TRUE, 100, 0, 3, 2, 20, 16, 90, in_dev };
      gchar *launch = g_strdup_printf ("hipexposure name=e false-color=true "
          "zebra=true zebra-threshold=%u histogram=true histogram-x=%u "
          "histogram-y=%u histogram-width=%u histogram-height=%u "
          "histogram-opacity=%u histogram-mode=%s", e.zebra_threshold,
          e.graph_x, e.graph_y, e.graph_width, e.graph_height,
          e.graph_opacity, e.graph_rgb ? "rgb" : "luma");
      GstHarness *h = hipf_test_path_harness (launch, UPLOAD_BY_BLUR, fmt,
          WIDTH, HEIGHT, in_dev, out_dev);
      GstVideoInfo info, exp_info;
      GstBuffer *in = hipf_test_frame_new (fmt, WIDTH, HEIGHT, PADDING, &info);
      GstBuffer *out, *exp;
      GstVideoFrame in_frame, exp_frame;
      gchar *ctx = g_strdup_printf ("%s, %s",
          gst_video_format_to_string (fmt), path_names[path]);

      out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
      fail_unless (out != NULL, "%s: no output", ctx);
      check_path (h, out, in_dev, out_dev, ctx);
      gst_video_info_set_format (&exp_info, fmt, WIDTH, HEIGHT);
      exp = gst_buffer_new_allocate (NULL, exp_info.size, NULL);
      fail_unless (gst_video_frame_map (&in_frame, &info, in, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&exp_frame, &exp_info, exp,
              GST_MAP_WRITE));
      ref_exposure_frame (&in_frame, &exp_frame, &e);
      gst_video_frame_unmap (&in_frame);
      check_pixels (out, fmt, &exp_frame, ctx);
      gst_video_frame_unmap (&exp_frame);
      gst_buffer_unref (exp);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      gst_harness_teardown (h);
      g_free (launch);
      g_free (ctx);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_chain)
{
  guint f;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    GstVideoFormat fmt = hipf_test_blur_formats[f];
    GstHarness *h = hipf_test_path_harness ("hipboxblur name=a radius=2 "
        "border-mode=clamp ! hiphistogram name=e ! hipboxblur name=b "
        "radius-x=1 radius-y=3 border-mode=wrap", NULL, fmt, WIDTH, HEIGHT,
        FALSE, FALSE);
    GstBin *bin = GST_BIN (h->element);
    GstElement *a = gst_bin_get_by_name (bin, "a");
    GstElement *b = gst_bin_get_by_name (bin, "b");
    GstVideoInfo info, mid_info;
    GstBuffer *in = hipf_test_frame_new (fmt, WIDTH, HEIGHT, PADDING, &info);
    GstBuffer *out, *mid, *exp;
    GstVideoFrame mid_frame, exp_frame;
    const gchar *ctx = gst_video_format_to_string (fmt);

    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL, "%s: no output", ctx);
    fail_if (hipf_test_pad_in_device (a, "sink"), "%s", ctx);
    fail_unless (hipf_test_pad_in_device (a, "src"), "%s", ctx);
    fail_unless (hipf_test_pad_in_device (b, "sink"), "%s", ctx);
    fail_if (hipf_test_pad_in_device (b, "src"), "%s", ctx);
    fail_if (hipf_test_buffer_in_device (out), "%s", ctx);
    {
      GstElement *e = under_test (h);

      fail_unless (hipf_test_pad_in_device (e, "sink"), "%s", ctx);
      fail_unless (hipf_test_pad_in_device (e, "src"), "%s", ctx);
      gst_object_unref (e);
    }

    mid = reference_blur (in, &info, 2, 2, REF_BORDER_CLAMP, &mid_frame);
    gst_video_frame_unmap (&mid_frame);
    gst_video_info_set_format (&mid_info, fmt, WIDTH, HEIGHT);
    exp = reference_blur (mid, &mid_info, 1, 3, REF_BORDER_WRAP, &exp_frame);
    check_pixels (out, fmt, &exp_frame, ctx);
    gst_video_frame_unmap (&exp_frame);
    gst_buffer_unref (exp);
    gst_buffer_unref (mid);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_object_unref (a);
    gst_object_unref (b);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* A tee whose branches differ: one takes only system memory, so the
 * element hands out system memory to both, and both see the blurred
 * frame. */
GST_START_TEST (test_tee_with_cpu_branch)
{
  GstHarness *h = hipf_test_path_harness ("hipboxblur name=e radius=4 ! "
      "tee name=t ! queue ! hiphistogram name=hist bins=1024 zones="
      G_STRINGIFY (ZONE_COLS) "x" G_STRINGIFY (ZONE_ROWS)
      " ! fakesink async=false "
      "t. ! queue", NULL, GST_VIDEO_FORMAT_NV12, WIDTH, HEIGHT, FALSE, FALSE);
  GstElement *hist = gst_bin_get_by_name (GST_BIN (h->element), "hist");
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info, exp_info;
  GstBuffer *in = hipf_test_frame_new (GST_VIDEO_FORMAT_NV12, WIDTH, HEIGHT,
      PADDING, &info);
  GstBuffer *out, *exp;
  GstVideoFrame exp_frame;
  GstMessage *msg;

  gst_element_set_bus (h->element, bus);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  check_path (h, out, FALSE, FALSE, "tee");
  fail_if (hipf_test_pad_in_device (hist, "sink"));
  exp = reference_blur (in, &info, 4, 4, REF_BORDER_MIRROR, &exp_frame);
  check_pixels (out, GST_VIDEO_FORMAT_NV12, &exp_frame, "tee");
  gst_video_frame_unmap (&exp_frame);
  /* The other branch counted the same frame. */
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ELEMENT);
  gst_video_info_set_format (&exp_info, GST_VIDEO_FORMAT_NV12, WIDTH, HEIGHT);
  check_counts (msg, exp, &exp_info, "tee branch");
  gst_message_unref (msg);
  gst_buffer_unref (exp);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_object_unref (hist);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A device frame written through a CPU map reaches the next element's
 * kernels as written; a deep copy of it is a frame of its own. */
GST_START_TEST (test_cpu_write)
{
  GstVideoFormat fmt = GST_VIDEO_FORMAT_I420;
  GstHarness *up = hipf_test_path_harness ("hiphistogram name=e "
      "post-messages=false attach-meta=false", NULL, fmt, WIDTH, HEIGHT,
      FALSE, TRUE);
  GstHarness *blur = gst_harness_new_parse ("hipboxblur radius-x=2 "
      "radius-y=1 border-mode=zero");
  gchar *caps = g_strdup_printf ("format=I420,width=%d,height=%d,"
      "framerate=30/1", WIDTH, HEIGHT);
  gchar *dev_caps = g_strdup_printf ("video/x-raw(" HIPF_TEST_DEVICE_FEATURE
      "),%s", caps);
  gchar *sys_caps = g_strdup_printf ("video/x-raw,%s", caps);
  GstVideoInfo info, dev_info;
  GstBuffer *in = hipf_test_frame_new (fmt, WIDTH, HEIGHT, 0, &info);
  GstBuffer *other = hipf_test_frame_new (fmt, WIDTH, HEIGHT, PADDING, &info);
  GstBuffer *dev, *copy, *out, *exp;
  GstVideoFrame dst, src, exp_frame;

  gst_harness_set_caps_str (blur, dev_caps, sys_caps);
  dev = gst_harness_push_and_pull (up, in);
  fail_unless (dev != NULL && hipf_test_buffer_in_device (dev));
  gst_video_info_set_format (&dev_info, fmt, WIDTH, HEIGHT);
  fail_unless (gst_video_frame_map (&dst, &dev_info, dev, GST_MAP_WRITE));
  fail_unless (gst_video_frame_map (&src, &info, other, GST_MAP_READ));
  fail_unless (gst_video_frame_copy (&dst, &src));
  gst_video_frame_unmap (&dst);

  copy = gst_buffer_copy_deep (dev);
  fail_unless (copy != NULL && hipf_test_buffer_in_device (copy));
  check_pixels (copy, fmt, &src, "deep copy");

  out = gst_harness_push_and_pull (blur, dev);
  fail_unless (out != NULL);
  exp = reference_blur (other, &info, 2, 1, REF_BORDER_ZERO, &exp_frame);
  check_pixels (out, fmt, &exp_frame, "written through a CPU map");
  gst_video_frame_unmap (&exp_frame);
  gst_video_frame_unmap (&src);
  gst_buffer_unref (exp);
  gst_buffer_unref (out);
  gst_buffer_unref (copy);
  gst_buffer_unref (other);
  gst_harness_teardown (blur);
  gst_harness_teardown (up);
  g_free (caps);
  g_free (dev_caps);
  g_free (sys_caps);
}

GST_END_TEST;

/* Device memory whose video meta describes another layout than the
 * element's (rows 40 bytes apart rather than 48) cannot be read in place:
 * it is read through its CPU mapping, as the meta describes it. */
GST_START_TEST (test_foreign_layout)
{
  GstVideoFormat fmt = GST_VIDEO_FORMAT_GRAY8;
  GstHarness *up = hipf_test_path_harness ("hiphistogram name=e "
      "post-messages=false attach-meta=false", NULL, fmt, WIDTH, HEIGHT,
      FALSE, TRUE);
  GstHarness *blur = gst_harness_new_parse ("hipboxblur name=e radius=2 "
      "border-mode=clamp");
  gchar *caps = g_strdup_printf ("format=GRAY8,width=%d,height=%d,"
      "framerate=30/1", WIDTH, HEIGHT);
  gchar *dev_caps = g_strdup_printf ("video/x-raw(" HIPF_TEST_DEVICE_FEATURE
      "),%s", caps);
  gchar *sys_caps = g_strdup_printf ("video/x-raw,%s", caps);
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 40 };
  GstVideoInfo info, foreign_info;
  GstBuffer *in = hipf_test_frame_new (fmt, WIDTH, HEIGHT, 0, &info);
  GstBuffer *dev, *foreign, *out, *exp;
  GstVideoFrame exp_frame;

  gst_harness_set_caps_str (blur, dev_caps, sys_caps);
  dev = gst_harness_push_and_pull (up, in);
  fail_unless (dev != NULL && hipf_test_buffer_in_device (dev));
  foreign = gst_buffer_new ();
  gst_buffer_append_memory (foreign,
      gst_memory_ref (gst_buffer_peek_memory (dev, 0)));
  gst_buffer_add_video_meta_full (foreign, GST_VIDEO_FRAME_FLAG_NONE, fmt,
      WIDTH, HEIGHT, 1, offsets, strides);
  /* The reference reads what the meta describes. */
  gst_video_info_set_format (&foreign_info, fmt, WIDTH, HEIGHT);
  foreign_info.stride[0] = 40;
  foreign_info.size = gst_buffer_get_size (foreign);
  exp = reference_blur (foreign, &foreign_info, 2, 2, REF_BORDER_CLAMP,
      &exp_frame);
  out = gst_harness_push_and_pull (blur, foreign);
  fail_unless (out != NULL);
  check_pixels (out, fmt, &exp_frame, "foreign layout");
  {
    GstElement *e = under_test (blur);
    guint64 via_host;

    g_object_get (e, "frames-via-host", &via_host, NULL);
    fail_unless_equals_uint64 (via_host, 1);
    gst_object_unref (e);
  }
  gst_video_frame_unmap (&exp_frame);
  gst_buffer_unref (exp);
  gst_buffer_unref (out);
  gst_buffer_unref (dev);
  gst_harness_teardown (blur);
  gst_harness_teardown (up);
  g_free (caps);
  g_free (dev_caps);
  g_free (sys_caps);
}

GST_END_TEST;

/* The memory @tail (after hipboxblur, named e) leads the element's output
 * into, once two frames have gone through. */
static gboolean
out_in_device (const gchar * tail)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=NV12,width=64,height=48 ! hipboxblur name=e "
      "radius=2 ! %s", tail);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), "e");
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg;
  gboolean ret;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s", desc);
  ret = hipf_test_pad_in_device (e, "src");
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  gst_object_unref (pipe);
  g_free (desc);
  return ret;
}

/* A sink that takes any caps might read a frame's bytes without its video
 * meta: it gets system memory unless the pipeline asks for device memory. */
GST_START_TEST (test_any_caps_sink)
{
  fail_if (out_in_device ("fakesink"));
  fail_if (out_in_device ("queue ! fakesink"));
  fail_unless (out_in_device ("video/x-raw(" HIPF_TEST_DEVICE_FEATURE ") ! "
          "fakesink"));
  fail_unless (out_in_device ("hiphistogram ! fakesink"));
}

GST_END_TEST;

static Suite *
memory_gpu_suite (void)
{
  Suite *s = suite_create ("memory-gpu");
  TCase *tc = tcase_create ("paths");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_blur_paths);
  tcase_add_test (tc, test_histogram_paths);
  tcase_add_test (tc, test_exposure_paths);
  tcase_add_test (tc, test_chain);
  tcase_add_test (tc, test_tee_with_cpu_branch);
  tcase_add_test (tc, test_cpu_write);
  tcase_add_test (tc, test_foreign_layout);
  tcase_add_test (tc, test_any_caps_sink);
  return s;
}

HIPF_GPU_CHECK_MAIN (memory_gpu);
