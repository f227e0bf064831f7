/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hiphistogram on a GPU: counts, statistics, message and meta compared with
 * the CPU reference; buffers must come out as they went in.
 */
#include <math.h>

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "gpucheck.h"
#include "reference.h"
#include "testutil.h"

typedef enum
{
  FILL_RANDOM,
  FILL_CONSTANT,
  FILL_GRADIENT,
} Fill;

typedef struct
{
  guint x, y, w, h;
} Roi;

static GstHarness *
harness_for (GstVideoFormat format, gint width, gint height, GstBus ** bus)
{
  GstHarness *h = gst_harness_new ("hiphistogram");
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);

  *bus = gst_bus_new ();
  gst_element_set_bus (h->element, *bus);
  gst_harness_set_caps_str (h, caps, caps);
  g_free (caps);
  return h;
}

static void
fill (GstBuffer * buf, Fill how, guint8 value)
{
  GstMapInfo map;
  gsize i;

  if (how == FILL_RANDOM)
    return;
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = how == FILL_CONSTANT ? value : (guint8) (i * 7 + i / 251);
  gst_buffer_unmap (buf, &map);
}

static guint
array_uint (const GValue * array, guint i)
{
  return g_value_get_uint (gst_value_array_get_value (array, i));
}

/* The report's histograms equal the reference binned to @bins. */
static void
check_histograms (const GstStructure * s, const RefHistogram * ref, guint bins,
    const gchar * ctx)
{
  const GValue *channels = gst_structure_get_value (s, "channels");
  const GValue *hists = gst_structure_get_value (s, "histograms");
  guint c, v, b;

  fail_unless (channels && GST_VALUE_HOLDS_ARRAY (channels), "%s", ctx);
  fail_unless (hists && GST_VALUE_HOLDS_ARRAY (hists), "%s", ctx);
  fail_unless_equals_int (gst_value_array_get_size (channels),
      ref->n_channels);
  fail_unless_equals_int (gst_value_array_get_size (hists), ref->n_channels);
  for (c = 0; c < ref->n_channels; c++) {
    const GValue *hist = gst_value_array_get_value (hists, c);
    guint64 binned[REF_HIST_VALUES] = { 0 }, total = 0;

    fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
            (channels, c)), ref->names[c]);
    fail_unless_equals_int (gst_value_array_get_size (hist), bins);
    for (v = 0; v < REF_HIST_VALUES; v++)
      binned[v * bins / REF_HIST_VALUES] += ref->counts[c][v];
    for (b = 0; b < bins; b++) {
      fail_unless (array_uint (hist, b) == binned[b],
          "%s: %s bin %u: got %u, expected %" G_GUINT64_FORMAT, ctx,
          ref->names[c], b, array_uint (hist, b), binned[b]);
      total += array_uint (hist, b);
    }
    fail_unless_equals_uint64 (total, ref->samples[c]);
  }
}

static void
check_stats (const GstStructure * s, const RefHistogram * ref, guint low,
    guint high, guint target)
{
  guint luma = ref->n_channels == 1 || !strcmp (ref->names[0], "luma") ? 0 :
      ref->n_channels - 1;
  RefStats st;
  guint64 pixels;
  gdouble d;
  guint u;

  ref_histogram_stats (ref->counts[luma], low, high, target, &st);
  fail_unless (gst_structure_get_uint64 (s, "pixels", &pixels));
  fail_unless_equals_uint64 (pixels, st.pixels);
  fail_unless_equals_uint64 (pixels, ref->samples[luma]);
#define CHECK_DOUBLE(name, want) \
  fail_unless (gst_structure_get_double (s, name, &d)); \
  fail_unless (fabs (d - (want)) <= 1e-9 * MAX (1.0, fabs (want)), \
      "%s: %.12g, expected %.12g", name, d, (double) (want));
#define CHECK_UINT(name, want) \
  fail_unless (gst_structure_get_uint (s, name, &u)); \
  fail_unless_equals_int (u, want);
  CHECK_DOUBLE ("mean", st.mean);
  CHECK_DOUBLE ("stddev", st.stddev);
  CHECK_DOUBLE ("clipped-low", st.clipped_low);
  CHECK_DOUBLE ("clipped-high", st.clipped_high);
  CHECK_DOUBLE ("ev-correction", st.ev_correction);
  CHECK_UINT ("median", st.median);
  CHECK_UINT ("min", st.min);
  CHECK_UINT ("max", st.max);
}

/* Pushes one frame; checks the output buffer, message and meta. */
static void
check_frame (GstHarness * h, GstBus * bus, GstVideoFormat format, gint width,
    gint height, guint padding, Fill how, guint8 value, guint bins,
    const Roi * roi)
{
  GstVideoInfo info;
  GstBuffer *in = hipf_test_frame_new (format, width, height, padding, &info);
  GstBuffer *orig, *out;
  GstVideoFrame frame;
  GstMessage *msg;
  GstCustomMeta *meta;
  const GstStructure *s;
  RefHistogram ref;
  gchar *ctx;

  fill (in, how, value);
  orig = gst_buffer_copy_deep (in);
  g_object_set (h->element, "bins", bins, "roi-x", roi->x, "roi-y", roi->y,
      "roi-width", roi->w, "roi-height", roi->h, NULL);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (out != NULL);

  fail_unless (gst_video_frame_map (&frame, &info, orig, GST_MAP_READ));
  ref_histogram_frame (&frame, roi->x, roi->y, roi->w, roi->h, &ref);
  gst_video_frame_unmap (&frame);
  ctx = g_strdup_printf ("%s %dx%d pad %u fill %d/%u bins %u roi %u,%u %ux%u "
      "(seed %u)", gst_video_format_to_string (format), width, height,
      padding, how, value, bins, roi->x, roi->y, roi->w, roi->h,
      hipf_test_seed ());

  /* Frames pass through byte for byte. */
  fail_unless (gst_buffer_get_size (out) == gst_buffer_get_size (orig));
  {
    GstMapInfo a, b;

    gst_buffer_map (out, &a, GST_MAP_READ);
    gst_buffer_map (orig, &b, GST_MAP_READ);
    fail_unless (memcmp (a.data, b.data, a.size) == 0, "%s: data changed", ctx);
    gst_buffer_unmap (out, &a);
    gst_buffer_unmap (orig, &b);
  }

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "%s: no message", ctx);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "hiphistogram"));
  check_histograms (s, &ref, bins, ctx);
  check_stats (s, &ref, 4, 251, 118);

  meta = gst_buffer_get_custom_meta (out, "GstHipHistogramMeta");
  fail_unless (meta != NULL, "%s: no meta", ctx);
  {
    GstStructure *m = gst_custom_meta_get_structure (meta);
    GstStructure *copy = gst_structure_copy (s);

    /* Same fields and values, only the structure's name differs. */
    gst_structure_set_name (copy, gst_structure_get_name (m));
    fail_unless (gst_structure_is_equal (copy, m), "%s: meta differs", ctx);
    gst_structure_free (copy);
  }
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);

  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (orig);
  g_free (ctx);
}

static void
teardown (GstHarness * h, GstBus * bus)
{
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

/* Every format, bins 1, 7, 64, 256 and regions full, interior, on the
 * edges and of one pixel, at small and odd sizes. */
GST_START_TEST (test_counts_small)
{
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {33, 17}, {1, 9}, {9, 1} };
  static const guint bins[] = { 1, 7, 64, 256 };
  guint f, s, b, r;

  for (f = 0; f < hipf_test_n_formats; f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint w = sizes[s][0], ht = sizes[s][1];
      Roi rois[] = {
        {0, 0, 0, 0}, {w / 4, ht / 3, (w + 1) / 2, (ht + 1) / 2},
        {w - 1, 0, 5, 0}, {0, ht - 1, 0, 1}, {w / 2, ht / 2, 1, 1},
        {w + 3, 0, 0, 0},
      };
      GstBus *bus;
      GstHarness *h = harness_for (hipf_test_formats[f], w, ht, &bus);

      for (b = 0; b < G_N_ELEMENTS (bins); b++)
        for (r = 0; r < G_N_ELEMENTS (rois); r++)
          check_frame (h, bus, hipf_test_formats[f], w, ht, 0, FILL_RANDOM, 0,
              bins[b], &rois[r]);
      teardown (h, bus);
    }
  }
}

GST_END_TEST;

/* Flat frames put every sample in one bin: the worst case for contention. */
GST_START_TEST (test_constant_frames)
{
  guint f, i;
  Roi full = { 0, 0, 0, 0 }, part = { 100, 50, 301, 203 };

  for (f = 0; f < hipf_test_n_formats; f++) {
    GstBus *bus;
    GstHarness *h = harness_for (hipf_test_formats[f], 640, 480, &bus);
    guint8 values[] = { 0, 255, g_rand_int_range (hipf_test_rand (), 1, 255) };

    for (i = 0; i < G_N_ELEMENTS (values); i++) {
      check_frame (h, bus, hipf_test_formats[f], 640, 480, 0, FILL_CONSTANT,
          values[i], 256, &full);
      check_frame (h, bus, hipf_test_formats[f], 640, 480, 0, FILL_CONSTANT,
          values[i], 7, &part);
    }
    check_frame (h, bus, hipf_test_formats[f], 640, 480, 0, FILL_GRADIENT, 0,
        64, &full);
    teardown (h, bus);
  }
}

GST_END_TEST;

GST_START_TEST (test_large_and_padded)
{
  static const struct
  {
    GstVideoFormat format;
    gint w, h;
    guint padding;
  } cases[] = {
    {GST_VIDEO_FORMAT_RGBA, 3840, 2160, 0},
    {GST_VIDEO_FORMAT_NV12, 3840, 2160, 0},
    {GST_VIDEO_FORMAT_GRAY8, 3840, 2160, 0},
    {GST_VIDEO_FORMAT_I420, 1921, 1081, 0},
    {GST_VIDEO_FORMAT_RGB, 1921, 1081, 0},
    {GST_VIDEO_FORMAT_BGRx, 1280, 721, 37},
    {GST_VIDEO_FORMAT_NV21, 641, 479, 5},
    {GST_VIDEO_FORMAT_Y42B, 333, 211, 64},
    {GST_VIDEO_FORMAT_AYUV, 333, 211, 3},
  };
  Roi full = { 0, 0, 0, 0 }, inner = { 17, 9, 301, 150 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBus *bus;
    GstHarness *h = harness_for (cases[i].format, cases[i].w, cases[i].h, &bus);

    check_frame (h, bus, cases[i].format, cases[i].w, cases[i].h,
        cases[i].padding, FILL_RANDOM, 0, 256, &full);
    check_frame (h, bus, cases[i].format, cases[i].w, cases[i].h,
        cases[i].padding, FILL_CONSTANT, 200, 64, &full);
    check_frame (h, bus, cases[i].format, cases[i].w, cases[i].h,
        cases[i].padding, FILL_GRADIENT, 0, 7, &inner);
    teardown (h, bus);
  }
}

GST_END_TEST;

static GstBuffer *
timed_frame (GstClockTime pts)
{
  GstVideoInfo info;
  GstBuffer *buf = hipf_test_frame_new (GST_VIDEO_FORMAT_GRAY8, 16, 8, 0,
      &info);

  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = 10 * GST_MSECOND;
  return buf;
}

/* Timestamps follow the segment; interval thins the messages; the switches
 * turn messages and meta off. */
GST_START_TEST (test_message_timing_and_switches)
{
  GstBus *bus;
  GstHarness *h = harness_for (GST_VIDEO_FORMAT_GRAY8, 16, 8, &bus);
  GstSegment segment;
  GstMessage *msg;
  GstBuffer *out, *in;
  guint64 ts, rt, st, dur;
  guint i, posted = 0;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = 1 * GST_SECOND;
  segment.time = 5 * GST_SECOND;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  gst_buffer_unref (gst_harness_push_and_pull (h,
          timed_frame (1 * GST_SECOND + 20 * GST_MSECOND)));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  fail_unless (gst_structure_get (gst_message_get_structure (msg),
          "timestamp", G_TYPE_UINT64, &ts, "running-time", G_TYPE_UINT64, &rt,
          "stream-time", G_TYPE_UINT64, &st, "duration", G_TYPE_UINT64, &dur,
          NULL));
  fail_unless_equals_uint64 (ts, 1 * GST_SECOND + 20 * GST_MSECOND);
  fail_unless_equals_uint64 (rt, 20 * GST_MSECOND);
  fail_unless_equals_uint64 (st, 5 * GST_SECOND + 20 * GST_MSECOND);
  fail_unless_equals_uint64 (dur, 10 * GST_MSECOND);
  gst_message_unref (msg);

  /* 10 ms frames, one message per 35 ms: running times 30, 65, 100 ... */
  g_object_set (h->element, "interval", 35 * GST_MSECOND, NULL);
  for (i = 3; i < 13; i++) {
    gst_buffer_unref (gst_harness_push_and_pull (h,
            timed_frame (1 * GST_SECOND + i * 10 * GST_MSECOND)));
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
    fail_unless ((msg != NULL) == (i == 3 || i == 7 || i == 11),
        "frame %u: message %s", i, msg ? "posted" : "missing");
    if (msg) {
      posted++;
      gst_message_unref (msg);
    }
  }
  fail_unless_equals_int (posted, 3);

  g_object_set (h->element, "interval", (guint64) 0, "post-messages", FALSE,
      NULL);
  out = gst_harness_push_and_pull (h, timed_frame (2 * GST_SECOND));
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);
  fail_unless (gst_buffer_get_custom_meta (out, "GstHipHistogramMeta"));
  gst_buffer_unref (out);

  g_object_set (h->element, "post-messages", TRUE, "attach-meta", FALSE, NULL);
  in = timed_frame (3 * GST_SECOND);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out == in, "without meta the buffer is not passed through");
  fail_if (gst_buffer_get_custom_meta (out, "GstHipHistogramMeta"));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  teardown (h, bus);
}

GST_END_TEST;

/* Thresholds and target reach the statistics. */
GST_START_TEST (test_exposure_settings)
{
  GstBus *bus;
  GstHarness *h = harness_for (GST_VIDEO_FORMAT_I420, 64, 48, &bus);
  GstVideoInfo info;
  GstBuffer *in = hipf_test_frame_new (GST_VIDEO_FORMAT_I420, 64, 48, 0, &info);
  GstVideoFrame frame;
  GstMessage *msg;
  RefHistogram ref;

  fail_unless (gst_video_frame_map (&frame, &info, in, GST_MAP_READ));
  ref_histogram_frame (&frame, 0, 0, 0, 0, &ref);
  gst_video_frame_unmap (&frame);
  g_object_set (h->element, "low-threshold", 60, "high-threshold", 190,
      "target-mean", 200, NULL);
  gst_buffer_unref (gst_harness_push_and_pull (h, in));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  check_stats (gst_message_get_structure (msg), &ref, 60, 190, 200);
  gst_message_unref (msg);
  teardown (h, bus);
}

GST_END_TEST;

static Suite *
histogram_gpu_suite (void)
{
  Suite *s = suite_create ("hiphistogram-gpu");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_counts_small);
  tcase_add_test (tc, test_constant_frames);
  tcase_add_test (tc, test_large_and_padded);
  tcase_add_test (tc, test_message_timing_and_switches);
  tcase_add_test (tc, test_exposure_settings);
  return s;
}

HIPF_GPU_CHECK_MAIN (histogram_gpu);
