/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hiphistogram on a GPU: counts, statistics, message and meta compared with
 * the CPU reference; buffers must come out as they went in, also with
 * several frames in flight.
 */
#include <math.h>

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "gpucheck.h"
#include "gsthipvideo.h"
#include "gsthipzones.h"
#include "hipf-kernels.h"
#include "hipf-runtime.h"
#include "reference.h"
#include "testutil.h"

typedef enum
{
  FILL_RANDOM,
  FILL_CONSTANT,
  FILL_GRADIENT,
} Fill;

#define FRAME_DURATION (GST_SECOND / 30)

typedef struct
{
  guint x, y, w, h;
} Roi;

/* @launch: the element and its properties, in gst-launch syntax (set
 * before it starts, for those only changeable in READY). */
static GstHarness *
harness_for (const gchar * launch, GstVideoFormat format, gint width,
    gint height, GstBus ** bus)
{
  GstElement *e = gst_parse_launch (launch, NULL);
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);

  *bus = gst_bus_new ();
  gst_element_set_bus (h->element, *bus);
  gst_harness_set_caps_str (h, caps, caps);
  g_free (caps);
  gst_object_unref (e);
  return h;
}

/* harness_for an element with frames in flight whose device never reports
 * a frame done before the element must wait for it (GST_HIP_BUSY), so that
 * frames leave when they must, whatever the GPU's pace. */
static GstHarness *
busy_harness_for (const gchar * launch, GstVideoFormat format, gint width,
    gint height, GstBus ** bus)
{
  GstHarness *h;

  g_setenv ("GST_HIP_BUSY", "1", TRUE);
  h = harness_for (launch, format, width, height, bus);
  g_unsetenv ("GST_HIP_BUSY");
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

/* Bins a report holds for @bins asked of a format of @values values. */
static guint
report_bins (guint bins, guint values)
{
  return MIN (bins, values);
}

/* The report's histograms equal the reference binned to @bins. */
static void
check_histograms (const GstStructure * s, const RefHistogram * ref, guint bins,
    const gchar * ctx)
{
  const GValue *channels = gst_structure_get_value (s, "channels");
  const GValue *hists = gst_structure_get_value (s, "histograms");
  guint c, b;

  bins = report_bins (bins, ref->values);
  fail_unless (channels && GST_VALUE_HOLDS_ARRAY (channels), "%s", ctx);
  fail_unless (hists && GST_VALUE_HOLDS_ARRAY (hists), "%s", ctx);
  fail_unless_equals_int (gst_value_array_get_size (channels),
      ref->n_channels);
  fail_unless_equals_int (gst_value_array_get_size (hists), ref->n_channels);
  for (c = 0; c < ref->n_channels; c++) {
    const GValue *hist = gst_value_array_get_value (hists, c);
    guint64 binned[REF_HIST_MAX_VALUES], total = 0;

    fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
            (channels, c)), ref->names[c]);
    fail_unless_equals_int (gst_value_array_get_size (hist), bins);
    ref_histogram_bin (ref->counts[c], ref->values, bins, binned);
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

  ref_histogram_stats (ref->counts[luma], ref->values, ref->unit, low, high,
      target, &st);
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
  CHECK_UINT ("max-value", ref->values * ref->unit - 1);
}

static void
set_counting (GstHarness * h, guint bins, const Roi * roi)
{
  g_object_set (h->element, "bins", bins, "roi-x", roi->x, "roi-y", roi->y,
      "roi-width", roi->w, "roi-height", roi->h, NULL);
}

/* @out and its message @msg are what the element made of @orig (a copy of
 * the input taken before the push, described by @info), counted in @bins
 * bins inside @roi: the same bytes, the reference's histograms and
 * statistics, and a meta of the message's fields. */
static void
check_output (GstBuffer * out, GstMessage * msg, GstBuffer * orig,
    const GstVideoInfo * info, guint bins, const Roi * roi, const gchar * ctx)
{
  GstVideoFrame frame;
  GstCustomMeta *meta;
  const GstStructure *s;
  RefHistogram ref;
  guint64 ts;

  fail_unless (out != NULL, "%s: no output", ctx);
  fail_unless (gst_video_frame_map (&frame, info, orig, GST_MAP_READ));
  ref_histogram_frame (&frame, roi->x, roi->y, roi->w, roi->h, &ref);
  gst_video_frame_unmap (&frame);

  /* Frames pass through byte for byte. */
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (orig));
  fail_unless (gst_buffer_get_size (out) == gst_buffer_get_size (orig));
  {
    GstMapInfo a, b;

    gst_buffer_map (out, &a, GST_MAP_READ);
    gst_buffer_map (orig, &b, GST_MAP_READ);
    fail_unless (memcmp (a.data, b.data, a.size) == 0, "%s: data changed", ctx);
    gst_buffer_unmap (out, &a);
    gst_buffer_unmap (orig, &b);
  }

  fail_unless (msg != NULL, "%s: no message", ctx);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "hiphistogram"));
  fail_unless (gst_structure_get_uint64 (s, "timestamp", &ts));
  fail_unless_equals_uint64 (ts, GST_BUFFER_PTS (orig));
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
  GstMessage *msg;
  gchar *ctx;

  fill (in, how, value);
  orig = gst_buffer_copy_deep (in);
  set_counting (h, bins, roi);
  out = gst_harness_push_and_pull (h, in);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  ctx = g_strdup_printf ("%s %dx%d pad %u fill %d/%u bins %u roi %u,%u %ux%u "
      "(seed %u)", gst_video_format_to_string (format), width, height,
      padding, how, value, bins, roi->x, roi->y, roi->w, roi->h,
      hipf_test_seed ());
  check_output (out, msg, orig, &info, bins, roi, ctx);
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

/* Every format, the 16-bit ones too (hiphistogram takes hipboxblur's
 * formats), bins 1, 7, 64, 256 and 1024 (256 for 8-bit formats) and
 * regions full, interior, on the edges and of one pixel, at small and odd
 * sizes. */
GST_START_TEST (test_counts_small)
{
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {33, 17}, {1, 9}, {9, 1} };
  static const guint bins[] = { 1, 7, 64, 256, 1024 };
  guint f, s, b, r;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint w = sizes[s][0], ht = sizes[s][1];
      Roi rois[] = {
        {0, 0, 0, 0}, {w / 4, ht / 3, (w + 1) / 2, (ht + 1) / 2},
        {w - 1, 0, 5, 0}, {0, ht - 1, 0, 1}, {w / 2, ht / 2, 1, 1},
        {w + 3, 0, 0, 0},
      };
      GstBus *bus;
      GstHarness *h = harness_for ("hiphistogram", hipf_test_blur_formats[f],
          w, ht, &bus);

      for (b = 0; b < G_N_ELEMENTS (bins); b++)
        for (r = 0; r < G_N_ELEMENTS (rois); r++)
          check_frame (h, bus, hipf_test_blur_formats[f], w, ht, 0,
              FILL_RANDOM, 0, bins[b], &rois[r]);
      teardown (h, bus);
    }
  }
}

GST_END_TEST;

/* Flat frames put every sample in one bin: the worst case for contention.
 * A byte b makes the 16-bit formats' words b * 257: all ones or all zeros
 * for b 255 and 0. */
GST_START_TEST (test_constant_frames)
{
  guint f, i;
  Roi full = { 0, 0, 0, 0 }, part = { 100, 50, 301, 203 };

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    GstVideoFormat format = hipf_test_blur_formats[f];
    GstBus *bus;
    GstHarness *h = harness_for ("hiphistogram", format, 640, 480, &bus);
    guint8 values[] = { 0, 255, g_rand_int_range (hipf_test_rand (), 1, 255) };

    for (i = 0; i < G_N_ELEMENTS (values); i++) {
      check_frame (h, bus, format, 640, 480, 0, FILL_CONSTANT, values[i], 256,
          &full);
      check_frame (h, bus, format, 640, 480, 0, FILL_CONSTANT, values[i], 7,
          &part);
    }
    check_frame (h, bus, format, 640, 480, 0, FILL_GRADIENT, 0, 64, &full);
    check_frame (h, bus, format, 640, 480, 0, FILL_GRADIENT, 0, 1024, &part);
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
    {GST_VIDEO_FORMAT_GRAY16_LE, 3840, 2160, 0},
    {GST_VIDEO_FORMAT_P010_10LE, 3840, 2160, 0},
    {GST_VIDEO_FORMAT_I420_10LE, 1921, 1081, 0},
    {GST_VIDEO_FORMAT_P010_10LE, 1281, 721, 6},
    {GST_VIDEO_FORMAT_GRAY16_LE, 641, 479, 5},
    {GST_VIDEO_FORMAT_I420_10LE, 333, 211, 3},
  };
  Roi full = { 0, 0, 0, 0 }, inner = { 17, 9, 301, 150 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBus *bus;
    GstHarness *h = harness_for ("hiphistogram", cases[i].format, cases[i].w,
        cases[i].h, &bus);

    check_frame (h, bus, cases[i].format, cases[i].w, cases[i].h,
        cases[i].padding, FILL_RANDOM, 0, 256, &full);
    check_frame (h, bus, cases[i].format, cases[i].w, cases[i].h,
        cases[i].padding, FILL_CONSTANT, 200, 64, &full);
    check_frame (h, bus, cases[i].format, cases[i].w, cases[i].h,
        cases[i].padding, FILL_GRADIENT, 0, 7, &inner);
    check_frame (h, bus, cases[i].format, cases[i].w, cases[i].h,
        cases[i].padding, FILL_RANDOM, 0, 1024, &inner);
    teardown (h, bus);
  }
}

GST_END_TEST;

static GstBuffer *
timed_frame (GstClockTime pts)
{
  return hipf_test_timed_frame_new (GST_VIDEO_FORMAT_GRAY8, 16, 8, pts,
      10 * GST_MSECOND);
}

/* Timestamps follow the segment; interval thins the messages; the switches
 * turn messages and meta off. */
GST_START_TEST (test_message_timing_and_switches)
{
  GstBus *bus;
  GstHarness *h = harness_for ("hiphistogram", GST_VIDEO_FORMAT_GRAY8, 16, 8,
      &bus);
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

/* Pops the element message the frame at @pts posted, or NULL, after
 * checking its running time. */
static GstMessage *
push_timed (GstHarness * h, GstBus * bus, GstClockTime pts,
    GstClockTime running_time)
{
  GstBuffer *out = gst_harness_push_and_pull (h, timed_frame (pts));
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  guint64 rt = 0, st = 0;

  fail_unless (gst_buffer_get_custom_meta (out, "GstHipHistogramMeta"));
  gst_buffer_unref (out);
  if (msg) {
    fail_unless (gst_structure_get (gst_message_get_structure (msg),
            "running-time", G_TYPE_UINT64, &rt, "stream-time", G_TYPE_UINT64,
            &st, NULL));
    fail_unless_equals_uint64 (rt, running_time);
    if (!GST_CLOCK_TIME_IS_VALID (running_time))
      fail_unless_equals_uint64 (st, GST_CLOCK_TIME_NONE);
  }
  return msg;
}

/* A segment that is not in time has no running or stream time (and no
 * criticals: the check library fails on any); with an interval set such
 * frames post nothing, nor do frames without a timestamp; an interval
 * near G_MAXUINT64 posts once, not every frame. */
GST_START_TEST (test_untimed_and_long_intervals)
{
  GstBus *bus;
  GstHarness *h = harness_for ("hiphistogram", GST_VIDEO_FORMAT_GRAY8, 16, 8,
      &bus);
  GstSegment segment;
  GstMessage *msg;
  guint i;

  gst_segment_init (&segment, GST_FORMAT_BYTES);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  msg = push_timed (h, bus, 40 * GST_MSECOND, GST_CLOCK_TIME_NONE);
  fail_unless (msg != NULL, "interval 0 posts every frame");
  gst_message_unref (msg);
  g_object_set (h->element, "interval", 35 * GST_MSECOND, NULL);
  for (i = 0; i < 3; i++)
    fail_unless (push_timed (h, bus, i * GST_SECOND, 0) == NULL,
        "untimed frame %u posted under an interval", i);

  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  fail_unless (push_timed (h, bus, GST_CLOCK_TIME_NONE, 0) == NULL,
      "a frame without PTS posted under an interval");
  g_object_set (h->element, "interval", G_MAXUINT64, NULL);
  for (i = 1; i <= 4; i++) {
    msg = push_timed (h, bus, i * GST_SECOND, i * GST_SECOND);
    fail_unless ((msg != NULL) == (i == 1), "frame at %u s: message %s", i,
        msg ? "posted" : "missing");
    if (msg)
      gst_message_unref (msg);
  }
  g_object_set (h->element, "interval", (guint64) 0, NULL);
  msg = push_timed (h, bus, 5 * GST_SECOND, 5 * GST_SECOND);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  teardown (h, bus);
}

GST_END_TEST;

/* Thresholds and target reach the statistics, in the 8-bit scale for the
 * 16-bit formats too. */
GST_START_TEST (test_exposure_settings)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I420_10LE,
    GST_VIDEO_FORMAT_GRAY16_LE
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstBus *bus;
    GstHarness *h = harness_for ("hiphistogram", formats[f], 64, 48, &bus);
    GstVideoInfo info;
    GstBuffer *in = hipf_test_frame_new (formats[f], 64, 48, 0, &info);
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
}

GST_END_TEST;

/* Pushes @in (@info) through a new element of @launch and returns its
 * message. */
static GstMessage *
message_for (const gchar * launch, GstBuffer * in, const GstVideoInfo * info)
{
  GstBus *bus;
  GstHarness *h = harness_for (launch, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), &bus);
  GstMessage *msg;

  gst_buffer_unref (gst_harness_push_and_pull (h, in));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  teardown (h, bus);
  return msg;
}

/* Count @i of channel @c of the report's histograms. */
static guint
count_at (const GstStructure * s, guint c, guint i)
{
  return array_uint (gst_value_array_get_value (gst_structure_get_value (s,
              "histograms"), c), i);
}

static void
check_uint (const GstStructure * s, const gchar * name, guint want)
{
  guint u = G_MAXUINT;

  fail_unless (gst_structure_get_uint (s, name, &u), "no %s", name);
  fail_unless (u == want, "%s: %u, expected %u", name, u, want);
}

static void
check_double (const GstStructure * s, const gchar * name, gdouble want)
{
  gdouble d = -1;

  fail_unless (gst_structure_get_double (s, name, &d), "no %s", name);
  fail_unless (fabs (d - want) <= 1e-9 * MAX (1.0, fabs (want)),
      "%s: %.12g, expected %.12g", name, d, want);
}

/* Hand-made 16-bit frames with answers worked out by hand, apart from the
 * reference: P010's and I420_10LE's ten bits (the other bits of their
 * words set, to be ignored), P010's U and V side by side in their pair,
 * clipping at the thresholds' edges (19 is at or below 4 in the 8-bit
 * scale, 20 is not; 1004 is at or above 251, 1003 is not), and GRAY16_LE
 * counted by its top ten bits, its statistics those times 64. */
GST_START_TEST (test_wide_by_hand)
{
  static const guint luma[8] = { 0, 19, 20, 512, 1003, 1004, 1023, 77 };
  static const guint16 gray[5] = { 0x0000, 0x003f, 0xffc0, 0xffff, 0x1234 };
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_P010_10LE,
    GST_VIDEO_FORMAT_I420_10LE
  };
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *in;
  GstMessage *msg;
  const GstStructure *s;
  gdouble var = 0, mean = 3658 / 8.0;
  guint f, i;

  for (i = 0; i < 8; i++)
    var += (luma[i] - mean) * (luma[i] - mean);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    gboolean p010 = formats[f] == GST_VIDEO_FORMAT_P010_10LE;
    guint8 *uv;

    gst_video_info_set_format (&info, formats[f], 4, 2);
    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    gst_buffer_memset (in, 0, 0, info.size);
    fail_unless (gst_video_frame_map (&frame, &info, in, GST_MAP_WRITE));
    for (i = 0; i < 8; i++)
      GST_WRITE_UINT16_LE ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0)
          + (i / 4) * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + 2 * (i % 4),
          p010 ? luma[i] << 6 | (i * 9 % 64) : luma[i] | (i * 0x1400 &
              0xfc00));
    /* The second chroma pixel: U 300, V 700. */
    uv = GST_VIDEO_FRAME_PLANE_DATA (&frame, 1);
    if (p010) {
      GST_WRITE_UINT16_LE (uv + 4, 300 << 6 | 0x2a);
      GST_WRITE_UINT16_LE (uv + 6, 700 << 6);
    } else {
      GST_WRITE_UINT16_LE (uv + 2, 0xfc00 | 300);
      GST_WRITE_UINT16_LE ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 2)
          + 2, 0x0400 | 700);
    }
    gst_video_frame_unmap (&frame);
    msg = message_for ("hiphistogram bins=1024", in, &info);
    s = gst_message_get_structure (msg);
    for (i = 0; i < 8; i++)
      fail_unless_equals_int (count_at (s, 0, luma[i]), 1);
    fail_unless_equals_int (count_at (s, 1, 300), 1);
    fail_unless_equals_int (count_at (s, 1, 0), 1);
    fail_unless_equals_int (count_at (s, 2, 700), 1);
    fail_unless_equals_int (count_at (s, 2, 0), 1);
    check_uint (s, "min", 0);
    check_uint (s, "max", 1023);
    check_uint (s, "median", 77);
    check_uint (s, "max-value", 1023);
    check_double (s, "mean", mean);
    check_double (s, "stddev", sqrt (var / 8));
    check_double (s, "clipped-low", 0.25);
    check_double (s, "clipped-high", 0.25);
    check_double (s, "ev-correction", log2 (118 / (mean / 4)));
    gst_message_unref (msg);
  }

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY16_LE, 5, 1);
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_memset (in, 0, 0, info.size);
  fail_unless (gst_video_frame_map (&frame, &info, in, GST_MAP_WRITE));
  for (i = 0; i < 5; i++)
    GST_WRITE_UINT16_LE ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        2 * i, gray[i]);
  gst_video_frame_unmap (&frame);
  /* In 256 bins, a bin a top eight bits: 0, 18 (0x1234), 255. */
  msg = message_for ("hiphistogram zones=2x1", in, &info);
  s = gst_message_get_structure (msg);
  fail_unless_equals_int (count_at (s, 0, 0), 2);
  fail_unless_equals_int (count_at (s, 0, 18), 1);
  fail_unless_equals_int (count_at (s, 0, 255), 2);
  mean = (2 * 65472 + 4608) / 5.0;
  check_uint (s, "min", 0);
  check_uint (s, "max", 65472);
  check_uint (s, "median", 4608);
  check_uint (s, "max-value", 65535);
  check_double (s, "mean", mean);
  check_double (s, "clipped-low", 0.4);
  check_double (s, "clipped-high", 0.4);
  check_double (s, "ev-correction", log2 (118 / (mean / 256)));
  /* Zones of columns 0-1 and 2-4. */
  {
    const GValue *zmin = gst_structure_get_value (s, "zone-min");
    const GValue *zmax = gst_structure_get_value (s, "zone-max");
    const GValue *zmean = gst_structure_get_value (s, "zone-mean");
    const GValue *zlow = gst_structure_get_value (s, "zone-clipped-low");

    fail_unless_equals_int (array_uint (zmin, 0), 0);
    fail_unless_equals_int (array_uint (zmax, 0), 0);
    fail_unless_equals_int (array_uint (zmin, 1), 4608);
    fail_unless_equals_int (array_uint (zmax, 1), 65472);
    fail_unless (fabs (g_value_get_double (gst_value_array_get_value (zmean,
                    1)) - (2 * 65472 + 4608) / 3.0) < 1e-6);
    fail_unless (g_value_get_double (gst_value_array_get_value (zlow,
                0)) == 1.0);
  }
  gst_message_unref (msg);
}

GST_END_TEST;

/* ---- frames in flight --------------------------------------------------- */

#define IN_FLIGHT 4
#define IN_FLIGHT_FRAMES 10

/* A frame pushed into an element with frames in flight, and what it must
 * come out as. */
typedef struct
{
  GstBuffer *orig;              /* a copy of the input, taken before the push */
  GstMemory *mem;               /* the input's memory, which must come out */
  guint bins;
  Roi roi;
} Sent;

/* Pushes frame number @i, random, counted with @bins and @roi. */
static void
push_numbered (GstHarness * h, const GstVideoInfo * info, guint i,
    guint bins, const Roi * roi, Sent * sent)
{
  GstVideoInfo in_info;
  GstBuffer *in = hipf_test_frame_new (GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), 0, &in_info);

  GST_BUFFER_PTS (in) = i * FRAME_DURATION;
  GST_BUFFER_DURATION (in) = FRAME_DURATION;
  sent->orig = gst_buffer_copy_deep (in);
  sent->mem = gst_buffer_peek_memory (in, 0);
  sent->bins = bins;
  sent->roi = *roi;
  set_counting (h, bins, roi);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
}

/* Moves the element messages posted so far to @msgs. */
static void
collect_messages (GstBus * bus, GPtrArray * msgs)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)))
    g_ptr_array_add (msgs, msg);
}

/* Pulls the @n frames of @sent, in order: each is the frame that went in,
 * its memory not copied, with the message of the same index in @msgs and
 * a meta that report what it held when it entered. */
static void
check_sent (GstHarness * h, const GstVideoInfo * info, Sent * sent, guint n,
    GPtrArray * msgs, const gchar * what)
{
  guint i;

  fail_unless_equals_int (gst_harness_buffers_in_queue (h), n);
  fail_unless_equals_int (msgs->len, n);
  for (i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_pull (h);
    gchar *ctx = g_strdup_printf ("%s %s, output %u of %u, bins %u (seed %u)",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)), what, i, n,
        sent[i].bins, hipf_test_seed ());

    check_output (out, g_ptr_array_index (msgs, i), sent[i].orig, info,
        sent[i].bins, &sent[i].roi, ctx);
    fail_unless (gst_buffer_n_memory (out) == 1
        && gst_buffer_peek_memory (out, 0) == sent[i].mem, "%s: copied", ctx);
    gst_buffer_unref (out);
    gst_buffer_unref (sent[i].orig);
    g_free (ctx);
  }
  g_ptr_array_set_size (msgs, 0);
}

/* Frames in flight in one format, on a device always busy: each leaves,
 * with its message, once three newer ones have entered, counted with the
 * properties of when it entered; EOS hands out the rest; latency grows by
 * three frames; a flush drops what is in flight, messages included; after
 * a new segment (a seek) every frame comes out, timed in that segment. */
static void
check_in_flight (GstVideoFormat format, gint width, gint height)
{
  static const guint bins[] = { 256, 7, 1024, 64, 1 };
  const Roi rois[] = { {0, 0, 0, 0}, {width / 4, height / 3, width / 2, 3} };
  gchar *launch = g_strdup_printf ("hiphistogram frames-in-flight=%d",
      IN_FLIGHT);
  GPtrArray *msgs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_message_unref);
  GstBus *bus;
  GstHarness *h = busy_harness_for (launch, format, width, height, &bus);
  Sent sent[IN_FLIGHT_FRAMES];
  GstVideoInfo info;
  GstSegment segment;
  guint i, start = 5;
  guint64 rt;

  gst_video_info_set_format (&info, format, width, height);
  info.fps_n = 30;
  info.fps_d = 1;
  for (i = 0; i < IN_FLIGHT_FRAMES; i++) {
    push_numbered (h, &info, i, bins[i % G_N_ELEMENTS (bins)],
        &rois[i % G_N_ELEMENTS (rois)], &sent[i]);
    collect_messages (bus, msgs);
    fail_unless_equals_int (gst_harness_buffers_received (h),
        i < IN_FLIGHT - 1 ? 0 : i - (IN_FLIGHT - 2));
    /* A message for each frame out, none for those in flight. */
    fail_unless_equals_int (msgs->len, gst_harness_buffers_received (h));
  }
  fail_unless_equals_uint64 (gst_harness_query_latency (h),
      (IN_FLIGHT - 1) * GST_SECOND / 30);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  collect_messages (bus, msgs);
  check_sent (h, &info, sent, IN_FLIGHT_FRAMES, msgs, "before EOS");

  /* Out of EOS, then frames in flight that a flush drops. */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_harness_set_caps (h, gst_video_info_to_caps (&info),
      gst_video_info_to_caps (&info));
  for (i = 0; i < IN_FLIGHT - 1; i++)
    push_numbered (h, &info, i, 256, &rois[0], &sent[i]);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);
  for (i = 0; i < IN_FLIGHT - 1; i++)
    gst_buffer_unref (sent[i].orig);

  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = segment.time = start * FRAME_DURATION;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  for (i = start; i < IN_FLIGHT_FRAMES; i++)
    push_numbered (h, &info, i, bins[i % G_N_ELEMENTS (bins)], &rois[0],
        &sent[i - start]);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  collect_messages (bus, msgs);
  for (i = 0; i < msgs->len; i++) {
    fail_unless (gst_structure_get_uint64 (gst_message_get_structure
            (g_ptr_array_index (msgs, i)), "running-time", &rt));
    fail_unless_equals_uint64 (rt, i * FRAME_DURATION);
  }
  check_sent (h, &info, sent, IN_FLIGHT_FRAMES - start, msgs, "after a seek");

  g_ptr_array_unref (msgs);
  g_free (launch);
  teardown (h, bus);
}

GST_START_TEST (test_frames_in_flight)
{
  GstElement *e = gst_element_factory_make ("hiphistogram", NULL);
  GParamSpec *p = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "frames-in-flight");

  fail_unless (p != NULL && p->flags & GST_PARAM_MUTABLE_READY);
  fail_unless_equals_int (G_PARAM_SPEC_UINT (p)->minimum, 1);
  fail_unless_equals_int (G_PARAM_SPEC_UINT (p)->maximum, 16);
  fail_unless_equals_int (G_PARAM_SPEC_UINT (p)->default_value, 1);
  gst_object_unref (e);

  check_in_flight (GST_VIDEO_FORMAT_RGBA, 97, 33);
  check_in_flight (GST_VIDEO_FORMAT_NV12, 97, 33);
  check_in_flight (GST_VIDEO_FORMAT_I420, 33, 17);
  check_in_flight (GST_VIDEO_FORMAT_RGB, 31, 5);
  check_in_flight (GST_VIDEO_FORMAT_GRAY8, 16, 8);
  check_in_flight (GST_VIDEO_FORMAT_P010_10LE, 97, 33);
  check_in_flight (GST_VIDEO_FORMAT_GRAY16_LE, 31, 5);
  check_in_flight (GST_VIDEO_FORMAT_I420_10LE, 33, 17);
}

GST_END_TEST;

/* A frame in flight leaves with its report as soon as the device is done
 * with it, with no newer frame to push it out: exposure monitoring behind
 * a live source hears of each frame once it is counted. */
GST_START_TEST (test_done_frame_reports)
{
  const Roi roi = { 0, 0, 0, 0 };
  GPtrArray *msgs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_message_unref);
  GstBus *bus;
  GstHarness *h = harness_for ("hiphistogram frames-in-flight=3",
      GST_VIDEO_FORMAT_RGBA, 97, 33, &bus);
  GstVideoInfo info;
  Sent sent;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 97, 33);
  info.fps_n = 30;
  info.fps_d = 1;
  for (i = 0; i < 3; i++) {
    push_numbered (h, &info, i, 256, &roi, &sent);
    fail_unless (hipf_test_wait_received (h, i + 1), "frame %u stayed in "
        "flight", i);
    collect_messages (bus, msgs);
    check_sent (h, &info, &sent, 1, msgs, "alone in flight");
  }
  g_ptr_array_unref (msgs);
  teardown (h, bus);
}

GST_END_TEST;

/* Behind frames in flight, a frame with nothing to count (messages and
 * meta off) leaves as it came, after them. An input held elsewhere as well
 * leaves as a new buffer sharing its memory, which carries the meta. */
GST_START_TEST (test_frames_in_flight_passthrough)
{
  GstBus *bus;
  GstHarness *h = busy_harness_for ("hiphistogram frames-in-flight=3",
      GST_VIDEO_FORMAT_GRAY8, 16, 8, &bus);
  GstBuffer *in[5], *out[5], *held;
  GPtrArray *msgs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_message_unref);
  GstMemory *mem[5];
  guint i;

  for (i = 0; i < 5; i++) {
    in[i] = timed_frame (i * FRAME_DURATION);
    mem[i] = gst_buffer_peek_memory (in[i], 0);
  }
  held = gst_buffer_ref (in[2]);
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (gst_harness_push (h, in[i]), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (h), 1);
  fail_unless_equals_uint64 (gst_harness_query_latency (h),
      2 * FRAME_DURATION);
  /* Nothing to count: nothing held back, and the latency says so.
   * (Popping the latency message drops the others: collected first.) */
  collect_messages (bus, msgs);
  g_object_set (h->element, "post-messages", FALSE, "attach-meta", FALSE,
      NULL);
  hipf_test_pop_latency_message (bus);
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  fail_unless_equals_int (gst_harness_push (h, in[3]), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  collect_messages (bus, msgs);
  g_object_set (h->element, "post-messages", TRUE, "attach-meta", TRUE,
      NULL);
  hipf_test_pop_latency_message (bus);
  fail_unless_equals_uint64 (gst_harness_query_latency (h),
      2 * FRAME_DURATION);
  fail_unless_equals_int (gst_harness_push (h, in[4]), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  collect_messages (bus, msgs);
  fail_unless_equals_int (msgs->len, 4);
  for (i = 0; i < 5; i++) {
    guint64 ts = 0;

    out[i] = gst_harness_pull (h);
    fail_unless (out[i] != NULL, "output %u missing", i);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out[i]), i * FRAME_DURATION);
    fail_unless (gst_buffer_peek_memory (out[i], 0) == mem[i], "output %u "
        "was copied", i);
    fail_unless ((gst_buffer_get_custom_meta (out[i], "GstHipHistogramMeta")
            != NULL) == (i != 3), "output %u: meta", i);
    if (i != 3) {
      gst_structure_get_uint64 (gst_message_get_structure (g_ptr_array_index
              (msgs, i < 3 ? i : i - 1)), "timestamp", &ts);
      fail_unless_equals_uint64 (ts, i * FRAME_DURATION);
    }
  }
  /* Passed through: the buffer itself. */
  fail_unless (out[3] == in[3]);
  fail_unless (out[2] != held);
  fail_if (gst_buffer_get_custom_meta (held, "GstHipHistogramMeta"));

  for (i = 0; i < 5; i++)
    gst_buffer_unref (out[i]);
  gst_buffer_unref (held);
  g_ptr_array_unref (msgs);
  teardown (h, bus);
}

GST_END_TEST;

/* A frame passed through with nothing to count, after frames in flight
 * lost to a push that failed (here on a gap event), is marked DISCONT;
 * the next one is not. */
GST_START_TEST (test_in_flight_push_fails_passthrough)
{
  GstBus *bus;
  GstHarness *h = busy_harness_for ("hiphistogram frames-in-flight=3",
      GST_VIDEO_FORMAT_GRAY8, 16, 8, &bus);
  guint i;

  for (i = 0; i < 2; i++)
    fail_unless_equals_int (gst_harness_push (h, timed_frame (i *
                FRAME_DURATION)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  fail_unless (gst_pad_set_active (h->sinkpad, FALSE));
  gst_harness_push_event (h, gst_event_new_gap (2 * FRAME_DURATION,
          FRAME_DURATION));
  fail_unless (gst_pad_set_active (h->sinkpad, TRUE));

  g_object_set (h->element, "post-messages", FALSE, "attach-meta", FALSE,
      NULL);
  for (i = 2; i < 4; i++) {
    GstBuffer *in = timed_frame (i * FRAME_DURATION), *out;
    GstMemory *mem = gst_buffer_peek_memory (in, 0);

    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL, "frame %u missing", i);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * FRAME_DURATION);
    fail_unless (gst_buffer_peek_memory (out, 0) == mem, "frame %u copied",
        i);
    fail_unless (!GST_BUFFER_IS_DISCONT (out) == (i > 2), "frame %u: DISCONT "
        "%s", i, i == 2 ? "missing" : "where no gap was");
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  teardown (h, bus);
}

GST_END_TEST;

/* hipf_histogram() called directly on a plane of one-byte (GRAY8) or
 * four-byte pixels (R, G, B, alpha and luma, as RGBA counts): a region
 * with no width or no height, a negative one included, counts nothing and
 * reads nothing, and every launch clears the other half of the buffer; a
 * region inside the plane counts its pixels in each channel, once over
 * the copies of the counts (the whole plane takes a block for each copy
 * or more). The pixels are (v, v, v, alpha), so that luma is v too. */
static void
check_api_regions (gint stride)
{
  static const struct
  {
    gint x, y, w, h;
    guint count;
  } cases[] = {
    {0, 0, 16, -1, 0}, {0, 0, -1, 8, 0}, {0, 0, 0, 8, 0}, {0, 0, 16, 0, 0},
    {3, 2, 20, 5, 100}, {0, 0, 64, 8, 512}, {63, 7, 1, 1, 1},
    {0, 0, 64, 2048, 64 * 2048},
  };
  const gint w = 64, h = 2048;
  const guint8 value = 0x55, alpha = 0x99;
  const gint channels = stride == 1 ? 1 : 5;
  const gsize bytes = (gsize) w * stride * h;
  const gsize words = hipf_histogram_buffer_size () / sizeof (guint32);
  const gsize half_words = words / 2;
  guint32 *host = g_new (guint32, words);
  guint32 sums[HIPF_HISTOGRAM_COPY_WORDS];
  guint8 *pixels = g_malloc (bytes);
  HipfDeviceLimits limits;
  hipError_t err = hipf_device_limits_query (0, &limits);
  void *plane, *buffer;
  hipStream_t stream;
  guint c;
  gsize i;

  for (i = 0; i < bytes; i++)
    pixels[i] = stride == 4 && i % 4 == 3 ? alpha : value;
  fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
  fail_unless (hipStreamCreateWithFlags (&stream, hipStreamNonBlocking) ==
      hipSuccess);
  fail_unless (hipMalloc (&plane, bytes) == hipSuccess);
  fail_unless (hipMalloc (&buffer, words * sizeof (guint32)) == hipSuccess);
  fail_unless (hipMemcpyAsync (plane, pixels, bytes, hipMemcpyHostToDevice,
          stream) == hipSuccess);
  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    HipfHistogramFrame frame = { channels, 1 };
    HipfHistogramPlane *pl = &frame.planes[0];
    gint t;

    frame.sample_bytes = 1;
    pl->pitch = (gsize) w * stride;
    pl->width = w;
    pl->height = h;
    pl->pixel_stride = stride;
    pl->roi_x = cases[c].x;
    pl->roi_y = cases[c].y;
    pl->roi_width = cases[c].w;
    pl->roi_height = cases[c].h;
    pl->n_taps = stride == 1 ? 1 : 4;
    for (t = 0; t < pl->n_taps; t++) {
      pl->tap_offset[t] = t;
      pl->tap_channel[t] = t;
    }
    pl->luma_channel = stride == 1 ? -1 : 4;
    for (t = 0; t < 3; t++)
      pl->rgb_offset[t] = t;
    /* Half 0 zero, as the launch requires; half 1 garbage to be cleared. */
    fail_unless (hipMemsetAsync (buffer, 0, half_words * sizeof (guint32),
            stream) == hipSuccess);
    fail_unless (hipMemsetAsync ((guint32 *) buffer + half_words, 0xa5,
            half_words * sizeof (guint32), stream) == hipSuccess);
    err = hipf_histogram (&limits, &frame, plane, buffer, 0, stream);
    fail_unless (err == hipSuccess, "stride %d region %u: %s", stride, c,
        hipGetErrorString (err));
    fail_unless (hipMemcpyAsync (host, buffer, words * sizeof (guint32),
            hipMemcpyDeviceToHost, stream) == hipSuccess);
    fail_unless (hipStreamSynchronize (stream) == hipSuccess);
    hipf_histogram_add_copies (host, HIPF_HISTOGRAM_COPIES,
        HIPF_HISTOGRAM_COPY_WORDS, HIPF_HISTOGRAM_COPY_WORDS, sums);
    for (i = 0; i < HIPF_HISTOGRAM_COPY_WORDS; i++) {
      const gsize channel = i / HIPF_HISTOGRAM_VALUES;
      const guint bin = i % HIPF_HISTOGRAM_VALUES;
      const guint expected_bin = channel == 3 ? alpha : value;
      guint32 expected = channel < (gsize) channels
          && bin == expected_bin ? cases[c].count : 0;

      fail_unless (sums[i] == expected, "stride %d region %u word %"
          G_GSIZE_FORMAT ": %u, expected %u", stride, c, i, sums[i],
          expected);
    }
    for (i = half_words; i < words; i++)
      fail_unless (host[i] == 0, "stride %d region %u: word %" G_GSIZE_FORMAT
          " of the next half not cleared", stride, c, i - half_words);
  }
  hipStreamDestroy (stream);
  hipFree (buffer);
  hipFree (plane);
  g_free (pixels);
  g_free (host);
}

GST_START_TEST (test_api_regions)
{
  check_api_regions (1);
  check_api_regions (4);
}

GST_END_TEST;

/* A plane of 16-bit samples as hipf_histogram() takes it: one sample a
 * pixel (GRAY16_LE's, a 10-bit format's planes) counted in channel 0 of
 * one, or chroma pairs (P010's) whose U and V count in channels 1 and 2 of
 * three; ten bits of each word from @shift up. */
static void
wide_frame (HipfHistogramFrame * frame, gint stride, gint shift, gint w,
    gint h)
{
  HipfHistogramPlane *pl = &frame->planes[0];
  gint t;

  memset (frame, 0, sizeof (*frame));
  frame->n_channels = stride == 2 ? 1 : 3;
  frame->n_planes = 1;
  frame->sample_bytes = 2;
  pl->pitch = (gsize) w * stride;
  pl->width = w;
  pl->height = h;
  pl->pixel_stride = stride;
  pl->roi_width = w;
  pl->roi_height = h;
  pl->n_taps = stride / 2;
  for (t = 0; t < pl->n_taps; t++) {
    pl->tap_offset[t] = 2 * t;
    pl->tap_channel[t] = stride == 2 ? 0 : 1 + t;
  }
  pl->luma_channel = -1;
  pl->sample_shift = shift;
}

/* A plane of @w x @h pixels of @stride bytes, each word @words[0] (and
 * @words[1] in the second of a pair), on the device. */
static void *
wide_plane (gint stride, gint w, gint h, const guint16 words[2],
    hipStream_t stream)
{
  const gsize bytes = (gsize) w * stride * h;
  guint8 *pixels = g_malloc (bytes);
  void *plane;
  gsize i;

  for (i = 0; i < bytes / 2; i++)
    GST_WRITE_UINT16_LE (pixels + 2 * i, words[i % (stride / 2)]);
  fail_unless (hipMalloc (&plane, bytes) == hipSuccess);
  fail_unless (hipMemcpyAsync (plane, pixels, bytes, hipMemcpyHostToDevice,
          stream) == hipSuccess);
  fail_unless (hipStreamSynchronize (stream) == hipSuccess);
  g_free (pixels);
  return plane;
}

/* Half @half of @buffer after the launch: its copies added up into @sums
 * (every word of a copy), and nothing written past them. */
static void
sum_half (void *buffer, gint half, const HipfHistogramFrame * frame,
    guint32 * sums, hipStream_t stream, const gchar * ctx)
{
  const gsize half_words = HIPF_HISTOGRAM_HALF_WORDS;
  const gsize copy_words = hipf_histogram_copy_words (frame);
  const gint copies = hipf_histogram_copies (frame);
  guint32 *host = g_new (guint32, half_words);
  gsize i;

  fail_unless (hipMemcpyAsync (host, hipf_histogram_counts (buffer, half),
          half_words * sizeof (guint32), hipMemcpyDeviceToHost, stream) ==
      hipSuccess);
  fail_unless (hipStreamSynchronize (stream) == hipSuccess);
  hipf_histogram_add_copies (host, copies, copy_words, copy_words, sums);
  for (i = copies * copy_words; i < half_words; i++)
    fail_unless (host[i] == 0, "%s: word %" G_GSIZE_FORMAT " past the copies "
        "written", ctx, i);
  g_free (host);
}

/* hipf_histogram() on planes of 16-bit samples: the words 0xabcd and
 * 0x1234 count as ten bits from the shift up, (0xabcd >> 6) & 1023 = 687
 * and (0x1234 >> 6) & 1023 = 72, or 973 and 564 from bit 0. A region with
 * no width or no height counts nothing, one inside the plane each of its
 * pixels once over the copies, and each launch clears the whole other
 * half. */
static void
check_api_wide_regions (gint stride, gint shift)
{
  static const struct
  {
    gint x, y, w, h;
    guint count;
  } cases[] = {
    {0, 0, 16, -1, 0}, {0, 0, 0, 8, 0}, {3, 2, 20, 5, 100},
    {0, 0, 64, 8, 512}, {63, 7, 1, 1, 1}, {1, 0, 63, 2048, 63 * 2048},
  };
  static const guint16 words[2] = { 0xabcd, 0x1234 };
  const guint values[2] = { shift ? 687 : 973, shift ? 72 : 564 };
  const gint w = 64, h = 2048;
  const gsize half_words = HIPF_HISTOGRAM_HALF_WORDS;
  guint32 sums[HIPF_HISTOGRAM_WIDE_COPY_WORDS];
  guint32 *host = g_new (guint32, half_words);
  HipfDeviceLimits limits;
  HipfHistogramFrame frame;
  hipStream_t stream;
  void *plane, *buffer;
  guint c;
  gsize i;

  fail_unless (hipf_device_limits_query (0, &limits) == hipSuccess);
  fail_unless (hipStreamCreateWithFlags (&stream, hipStreamNonBlocking) ==
      hipSuccess);
  plane = wide_plane (stride, w, h, words, stream);
  fail_unless (hipMalloc (&buffer, hipf_histogram_buffer_size ()) ==
      hipSuccess);
  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    gchar *ctx = g_strdup_printf ("stride %d shift %d region %u", stride,
        shift, c);
    hipError_t err;

    wide_frame (&frame, stride, shift, w, h);
    frame.planes[0].roi_x = cases[c].x;
    frame.planes[0].roi_y = cases[c].y;
    frame.planes[0].roi_width = cases[c].w;
    frame.planes[0].roi_height = cases[c].h;
    fail_unless (hipMemsetAsync (buffer, 0, half_words * sizeof (guint32),
            stream) == hipSuccess);
    fail_unless (hipMemsetAsync ((guint32 *) buffer + half_words, 0xa5,
            half_words * sizeof (guint32), stream) == hipSuccess);
    err = hipf_histogram (&limits, &frame, plane, buffer, 0, stream);
    fail_unless (err == hipSuccess, "%s: %s", ctx, hipGetErrorString (err));
    sum_half (buffer, 0, &frame, sums, stream, ctx);
    for (i = 0; i < HIPF_HISTOGRAM_WIDE_COPY_WORDS; i++) {
      const guint channel = i / HIPF_HISTOGRAM_WIDE_VALUES;
      const guint value = i % HIPF_HISTOGRAM_WIDE_VALUES;
      /* Channel 0 counts the only sample, or nothing beside a pair's. */
      const gint tap = stride == 2 ? (gint) channel : (gint) channel - 1;
      guint32 expected = tap >= 0 && tap < stride / 2
          && value == values[tap] ? cases[c].count : 0;

      fail_unless (sums[i] == expected, "%s: channel %u value %u: %u, "
          "expected %u", ctx, channel, value, sums[i], expected);
    }
    fail_unless (hipMemcpyAsync (host, hipf_histogram_counts (buffer, 1),
            half_words * sizeof (guint32), hipMemcpyDeviceToHost, stream) ==
        hipSuccess);
    fail_unless (hipStreamSynchronize (stream) == hipSuccess);
    for (i = 0; i < half_words; i++)
      fail_unless (host[i] == 0, "%s: word %" G_GSIZE_FORMAT " of the next "
          "half not cleared", ctx, i);
    g_free (ctx);
  }
  hipStreamDestroy (stream);
  hipFree (buffer);
  hipFree (plane);
  g_free (host);
}

GST_START_TEST (test_api_wide_regions)
{
  check_api_wide_regions (2, 6);
  check_api_wide_regions (2, 0);
  check_api_wide_regions (4, 6);
}

GST_END_TEST;

/* One buffer, its launches alternating halves and sample sizes with no
 * clearing between them, as an element whose caps change between 8- and
 * 16-bit formats does: each launch counts its own frame alone. The 8-bit
 * plane is GRAY8 of 0x55 bytes. */
GST_START_TEST (test_api_alternating_sizes)
{
  static const guint16 words[2] = { 0xabcd, 0x1234 };
  const gint w = 256, h = 512;
  HipfDeviceLimits limits;
  HipfHistogramFrame wide, narrow = { 1, 1 };
  guint32 sums[MAX (HIPF_HISTOGRAM_WIDE_COPY_WORDS,
          HIPF_HISTOGRAM_COPY_WORDS)];
  hipStream_t stream;
  void *wide_px, *narrow_px, *buffer;
  guint8 *bytes = g_malloc ((gsize) w * h);
  gint k, half = 0;
  gsize i;

  fail_unless (hipf_device_limits_query (0, &limits) == hipSuccess);
  fail_unless (hipStreamCreateWithFlags (&stream, hipStreamNonBlocking) ==
      hipSuccess);
  wide_px = wide_plane (4, w, h, words, stream);
  memset (bytes, 0x55, (gsize) w * h);
  fail_unless (hipMalloc (&narrow_px, (gsize) w * h) == hipSuccess);
  fail_unless (hipMemcpyAsync (narrow_px, bytes, (gsize) w * h,
          hipMemcpyHostToDevice, stream) == hipSuccess);
  fail_unless (hipMalloc (&buffer, hipf_histogram_buffer_size ()) ==
      hipSuccess);
  fail_unless (hipMemsetAsync (buffer, 0, hipf_histogram_buffer_size (),
          stream) == hipSuccess);
  wide_frame (&wide, 4, 6, w, h);
  narrow.sample_bytes = 1;
  narrow.planes[0].pitch = w;
  narrow.planes[0].width = narrow.planes[0].roi_width = w;
  narrow.planes[0].height = narrow.planes[0].roi_height = h;
  narrow.planes[0].pixel_stride = 1;
  narrow.planes[0].n_taps = 1;
  narrow.planes[0].luma_channel = -1;

  for (k = 0; k < 6; k++) {
    /* Wide, narrow, narrow, wide, wide, narrow: each size on each half. */
    const gboolean is_wide = k % 4 == 0 || k % 4 == 3;
    const HipfHistogramFrame *f = is_wide ? &wide : &narrow;
    /* Every word of a copy: the other size's counts left there show. */
    const gsize words_used = hipf_histogram_copy_words (f);
    gchar *ctx = g_strdup_printf ("launch %d (%s, half %d)", k, is_wide ?
        "16-bit" : "8-bit", half);
    hipError_t err = hipf_histogram (&limits, f, is_wide ? wide_px :
        narrow_px, buffer, half, stream);

    fail_unless (err == hipSuccess, "%s: %s", ctx, hipGetErrorString (err));
    sum_half (buffer, half, f, sums, stream, ctx);
    for (i = 0; i < words_used; i++) {
      guint32 expected = 0;

      if (is_wide && (i == HIPF_HISTOGRAM_WIDE_VALUES + 687
              || i == 2 * HIPF_HISTOGRAM_WIDE_VALUES + 72))
        expected = w * h;
      else if (!is_wide && i == 0x55)
        expected = w * h;
      fail_unless (sums[i] == expected, "%s: word %" G_GSIZE_FORMAT ": %u, "
          "expected %u", ctx, i, sums[i], expected);
    }
    g_free (ctx);
    half = !half;
  }
  hipStreamDestroy (stream);
  hipFree (buffer);
  hipFree (wide_px);
  hipFree (narrow_px);
  g_free (bytes);
}

GST_END_TEST;

/* An application's handler of the element's reports that stops the
 * element, from the thread that posted the first report (@thread's only,
 * where set), after holding that thread for @hold_us. */
typedef struct
{
  GstElement *element;
  GThread *thread;
  gulong hold_us;
  gint stopped;                 /* atomic */
  GThread *stopped_on;
  GstStateChangeReturn result;
} Stopper;

static void
stop_once (Stopper * s)
{
  if (g_atomic_int_get (&s->stopped)
      || (s->thread && s->thread != g_thread_self ()))
    return;
  g_usleep (s->hold_us);
  s->result = gst_element_set_state (s->element, GST_STATE_NULL);
  s->stopped_on = g_thread_self ();
  g_atomic_int_set (&s->stopped, 1);
}

static GstBusSyncReply
stop_on_report (GstBus * bus, GstMessage * msg, gpointer data)
{
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
      && gst_message_has_name (msg, "hiphistogram"))
    stop_once (data);
  return GST_BUS_PASS;
}

/* Stops on a buffer or on a tag event. */
static GstPadProbeReturn
stop_on_data (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  if (!(GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM)
      || GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_TAG)
    stop_once (data);
  return GST_PAD_PROBE_OK;
}

static gboolean
stopped (gpointer data)
{
  return g_atomic_int_get (&((Stopper *) data)->stopped);
}

/* Starts @h's element again from NULL, with the stream's events. */
static void
restart (GstHarness * h, const GstVideoInfo * info)
{
  GstCaps *caps = gst_video_info_to_caps (info);
  GstSegment segment;
  GstBuffer *buf;

  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  while ((buf = gst_harness_try_pull (h)))
    gst_buffer_unref (buf);
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h,
          gst_event_new_stream_start ("restarted")));
  fail_unless (gst_harness_push_event (h, gst_event_new_caps (caps)));
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
}

/* The element, stopped and in NULL, starts again and counts a frame. */
static void
check_restarted (GstHarness * h, GstBus * bus, const GstVideoInfo * info)
{
  const Roi roi = { 0, 0, 0, 0 };
  GPtrArray *msgs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_message_unref);
  GstState state;
  Sent sent;

  fail_unless_equals_int (gst_element_get_state (h->element, &state, NULL,
          0), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (state, GST_STATE_NULL);
  restart (h, info);
  collect_messages (bus, msgs);
  g_ptr_array_set_size (msgs, 0);
  push_numbered (h, info, 1, 256, &roi, &sent);
  gst_harness_push_event (h, gst_event_new_eos ());
  collect_messages (bus, msgs);
  check_sent (h, info, &sent, 1, msgs, "after a stop");
  g_ptr_array_unref (msgs);
}

/* Where an application's handler of a report may stop the element: on
 * the streaming thread (one frame in flight), on the streaming thread
 * draining at EOS while the waiter, woken by the same frame, wants the
 * stream lock, and on the waiter's own thread. */
static const struct
{
  guint in_flight;
  gboolean at_eos, on_waiter;
} stop_cases[] = {
  {1, FALSE, FALSE}, {3, TRUE, FALSE}, {3, FALSE, TRUE},
};

/* Nothing crashes or hangs: the element stops, and started again it
 * counts the next frame. A 4K frame keeps the device busy for
 * milliseconds, so that EOS comes while it is still in flight (else the
 * waiter reports it, the handler skips that report, and the case tries
 * again). */
GST_START_TEST (test_stopped_from_report)
{
  const guint in_flight = stop_cases[__i__].in_flight;
  const gboolean at_eos = stop_cases[__i__].at_eos;
  const gboolean on_waiter = stop_cases[__i__].on_waiter;
  gchar *launch = g_strdup_printf ("hiphistogram frames-in-flight=%u",
      in_flight);
  GstBus *bus;
  GstHarness *h = harness_for (launch, GST_VIDEO_FORMAT_RGBA, 3840, 2160,
      &bus);
  Stopper stop = { h->element, on_waiter ? NULL : g_thread_self (),
    at_eos ? 50 * 1000 : 0, 0, NULL, GST_STATE_CHANGE_FAILURE
  };
  GstVideoInfo info;
  guint attempt;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 3840, 2160);
  info.fps_n = 30;
  info.fps_d = 1;
  gst_bus_set_sync_handler (bus, stop_on_report, &stop, NULL);
  for (attempt = 0; attempt < 10 && !stopped (&stop); attempt++) {
    if (attempt)
      restart (h, &info);
    /* Stopped in the push with one frame in flight; frames left in
     * flight leave later. */
    fail_unless_equals_int (gst_harness_push (h,
            hipf_test_timed_frame_new (GST_VIDEO_FORMAT_RGBA, 3840, 2160, 0,
                FRAME_DURATION)), in_flight == 1 ? GST_FLOW_FLUSHING :
        GST_FLOW_OK);
    if (at_eos)
      gst_harness_push_event (h, gst_event_new_eos ());
    else
      hipf_test_wait_for (stopped, &stop);
  }
  fail_unless (stopped (&stop), "no report stopped the element");
  fail_unless_equals_int (stop.result, GST_STATE_CHANGE_SUCCESS);
  fail_unless (on_waiter == (stop.stopped_on != g_thread_self ()),
      "stopped on the %s thread", on_waiter ? "test's" : "waiter's");
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  check_restarted (h, bus, &info);
  g_free (launch);
  teardown (h, bus);
}

GST_END_TEST;

/* What the probe stops on: the frame in flight, or the tag behind it. */
static const GstPadProbeType stop_probes[] = {
  GST_PAD_PROBE_TYPE_BUFFER, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
};

/* A pad probe downstream that stops the element during a push that
 * drains frames in flight (a DISCONT input lets them leave first), where
 * the push itself still goes through: the input that drained them is
 * refused, nothing crashes, and the element starts again. */
GST_START_TEST (test_stopped_from_probe)
{
  const GstPadProbeType type = stop_probes[__i__];
  GstBus *bus;
  GstHarness *h = busy_harness_for ("hiphistogram frames-in-flight=3",
      GST_VIDEO_FORMAT_GRAY8, 16, 8, &bus);
  GstPad *src = gst_element_get_static_pad (h->element, "src");
  Stopper stop = { h->element, g_thread_self (), 0, 0, NULL,
    GST_STATE_CHANGE_FAILURE
  };
  GstVideoInfo info;
  GstBuffer *in;
  gulong probe;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 16, 8);
  info.fps_n = 30;
  info.fps_d = 1;
  fail_unless_equals_int (gst_harness_push (h, timed_frame (0)),
      GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_tag
          (gst_tag_list_new (GST_TAG_TITLE, "behind frame 0", NULL))));
  probe = gst_pad_add_probe (src, type, stop_on_data, &stop, NULL);
  in = timed_frame (FRAME_DURATION);
  GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_FLUSHING);
  fail_unless (stopped (&stop), "the probe saw no %s", type ==
      GST_PAD_PROBE_TYPE_BUFFER ? "frame" : "tag");
  fail_unless_equals_int (stop.result, GST_STATE_CHANGE_SUCCESS);
  gst_pad_remove_probe (src, probe);
  check_restarted (h, bus, &info);
  gst_object_unref (src);
  teardown (h, bus);
}

GST_END_TEST;

/* The zones of @msg as the reference meters @in (@info): a grid of
 * @cols x @rows over the whole frame, whatever the region of interest,
 * and their histograms in @bins bins where @histograms. */
static void
check_zone_report (GstMessage * msg, GstBuffer * in, const GstVideoInfo * info,
    guint cols, guint rows, guint bins, gboolean histograms)
{
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (info);
  RefZone *ref = g_new (RefZone, cols * rows);
  GstVideoFrame frame;
  const GstStructure *s;
  const GValue *mean, *min, *max, *low, *high, *hists;
  gchar *grid;
  guint z, b;
  const guint values = ref_histogram_values (format);
  const guint shown = report_bins (bins, values);

  fail_unless (gst_video_frame_map (&frame, info, in, GST_MAP_READ));
  ref_zones (&frame, cols, rows, 4, 251, ref);
  gst_video_frame_unmap (&frame);
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  grid = g_strdup_printf ("%ux%u", cols, rows);
  fail_unless_equals_string (gst_structure_get_string (s, "zones"), grid);
  mean = gst_structure_get_value (s, "zone-mean");
  min = gst_structure_get_value (s, "zone-min");
  max = gst_structure_get_value (s, "zone-max");
  low = gst_structure_get_value (s, "zone-clipped-low");
  high = gst_structure_get_value (s, "zone-clipped-high");
  hists = gst_structure_get_value (s, "zone-histograms");
  fail_unless (mean && min && max && low && high);
  fail_unless ((hists != NULL) == histograms);
  fail_unless_equals_int (gst_value_array_get_size (mean), cols * rows);
  for (z = 0; z < cols * rows; z++) {
    const RefZone *r = &ref[z];
    gdouble n = MAX (r->pixels, 1);
    const GValue *hist;
    guint64 binned[REF_HIST_MAX_VALUES];

    fail_unless (fabs (g_value_get_double (gst_value_array_get_value (mean,
                    z)) - r->sum / n) < 1e-9 * MAX (1.0, r->sum / n),
        "%s %ux%u %s zone %u mean (seed %u)",
        gst_video_format_to_string (format), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), grid, z, hipf_test_seed ());
    fail_unless (array_uint (min, z) == r->min, "%s %s zone %u min %u, "
        "expected %u", gst_video_format_to_string (format), grid, z,
        array_uint (min, z), r->min);
    fail_unless (array_uint (max, z) == r->max, "%s %s zone %u max %u, "
        "expected %u", gst_video_format_to_string (format), grid, z,
        array_uint (max, z), r->max);
    fail_unless (fabs (g_value_get_double (gst_value_array_get_value (low,
                    z)) - r->low / n) < 1e-9, "%s %s zone %u clipped-low",
        gst_video_format_to_string (format), grid, z);
    fail_unless (fabs (g_value_get_double (gst_value_array_get_value (high,
                    z)) - r->high / n) < 1e-9, "%s %s zone %u clipped-high",
        gst_video_format_to_string (format), grid, z);
    if (!histograms)
      continue;
    hist = gst_value_array_get_value (hists, z);
    ref_histogram_bin (r->hist, values, shown, binned);
    fail_unless_equals_int (gst_value_array_get_size (hist), shown);
    for (b = 0; b < shown; b++)
      fail_unless (array_uint (hist, b) == binned[b], "%s %s zone %u bin %u",
          gst_video_format_to_string (format), grid, z, b);
  }
  g_free (ref);
  g_free (grid);
}

/* A random frame with padded rows through @h, whose zones are @cols x
 * @rows (and their histograms where @histograms) as it stands, checked
 * against the reference. */
static void
push_zoned (GstHarness * h, GstBus * bus, GstVideoFormat format, gint width,
    gint height, guint cols, guint rows, guint bins, gboolean histograms)
{
  GstVideoInfo info;
  GstBuffer *in = hipf_test_frame_new (format, width, height, 3, &info);
  GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  GstMessage *msg;

  fail_unless (out != NULL);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  check_zone_report (msg, in, &info, cols, rows, bins, histograms);
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* The zones of a grid, in the message, as the reference meters them, in
 * a new element: with their histograms (a pass of their own for every
 * format), or without (in the histogram's pass where it takes them). */
static void
check_zones_as (GstVideoFormat format, gint width, gint height, guint cols,
    guint rows, guint bins, gboolean histograms)
{
  gchar *launch = g_strdup_printf ("hiphistogram zones=%ux%u "
      "zone-histograms=%s bins=%u", cols, rows, histograms ? "true" : "false",
      bins);
  GstBus *bus;
  GstHarness *h = harness_for (launch, format, width, height, &bus);

  push_zoned (h, bus, format, width, height, cols, rows, bins, histograms);
  g_free (launch);
  teardown (h, bus);
}

/* Every luma layout, grids that do not divide the frame, more zones than
 * pixels in a row, and the zones' histograms. */
static void
check_zones (GstVideoFormat format, gint width, gint height, guint cols,
    guint rows, guint bins)
{
  check_zones_as (format, width, height, cols, rows, bins, TRUE);
}

GST_START_TEST (test_zones)
{
  guint f;

  for (f = 0; f < hipf_test_n_blur_formats; f++)
    check_zones (hipf_test_blur_formats[f], 45, 23, 7, 5, 16);
  check_zones (GST_VIDEO_FORMAT_RGBA, 640, 360, 16, 9, 256);
  check_zones (GST_VIDEO_FORMAT_NV12, 45, 23, 64, 3, 4);
  check_zones (GST_VIDEO_FORMAT_GRAY8, 33, 17, 1, 1, 256);
  /* The 16-bit formats' zone histograms a bin a value, and in 256 bins. */
  check_zones (GST_VIDEO_FORMAT_GRAY16_LE, 640, 360, 16, 9, 1024);
  check_zones (GST_VIDEO_FORMAT_P010_10LE, 45, 23, 64, 3, 256);
  check_zones (GST_VIDEO_FORMAT_I420_10LE, 33, 17, 1, 1, 1024);
  /* 1024 bins asked of an 8-bit format: 256. */
  check_zones (GST_VIDEO_FORMAT_I420, 33, 17, 2, 2, 1024);
}

GST_END_TEST;

/* Zones without their histograms: counted in the histogram's pass for the
 * formats whose luma it walks (test_api_zones checks which), in a pass of
 * their own for RGB, BGR and the 16-bit formats. Odd sizes; more zones
 * than columns and rows (empty zones); zones narrower than a 16-byte
 * group, so that a group spans several; a 1x1 frame; and sizes where
 * blocks take several groups a thread. */
GST_START_TEST (test_zones_fused)
{
  guint f;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    check_zones_as (hipf_test_blur_formats[f], 45, 23, 7, 5, 256, FALSE);
    check_zones_as (hipf_test_blur_formats[f], 33, 17, 64, 64, 256, FALSE);
  }
  check_zones_as (GST_VIDEO_FORMAT_GRAY8, 200, 9, 64, 3, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_NV12, 202, 9, 64, 2, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_RGBx, 61, 9, 64, 2, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_GRAY8, 1, 1, 64, 64, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_ABGR, 1, 1, 2, 1, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_I420, 1, 1, 1, 64, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_RGBA, 640, 360, 16, 9, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_NV12, 640, 360, 16, 9, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_GRAY8, 1366, 768, 16, 9, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_BGRx, 1366, 768, 64, 64, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_YUY2, 1366, 768, 13, 7, 256, FALSE);
}

GST_END_TEST;

/* One element, frame after frame, as its zones move between the passes:
 * the grid changed (the histogram's pass sets every zone's start words
 * for the next launch, whatever its grid), a region of interest set and
 * unset and the zones' histograms asked for and not (both metered in a
 * pass of their own meanwhile: the zones stay those of the whole frame),
 * and the zones dropped and asked for again. Two frames each, so that
 * both halves of the zones' buffer take each grid. */
static void
check_zone_changes (GstVideoFormat format, gint width, gint height)
{
  static const struct
  {
    guint cols, rows;
    gboolean histograms;
    Roi roi;
  } steps[] = {
    {16, 9}, {64, 64}, {3, 1}, {7, 5, FALSE, {5, 3, 20, 9}}, {7, 5},
    {1, 64, TRUE}, {2, 2}, {1, 1, TRUE}, {64, 1}, {16, 9, FALSE, {0, 1}},
    {16, 9},
  };
  GstBus *bus;
  GstHarness *h = harness_for ("hiphistogram", format, width, height, &bus);
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    gchar *grid = g_strdup_printf ("%ux%u", steps[i].cols, steps[i].rows);

    g_object_set (h->element, "zones", grid, "zone-histograms",
        steps[i].histograms, "roi-x", steps[i].roi.x, "roi-y",
        steps[i].roi.y, "roi-width", steps[i].roi.w, "roi-height",
        steps[i].roi.h, NULL);
    for (k = 0; k < 2; k++)
      push_zoned (h, bus, format, width, height, steps[i].cols,
          steps[i].rows, 256, steps[i].histograms);
    g_free (grid);
  }
  teardown (h, bus);
}

GST_START_TEST (test_zone_changes)
{
  check_zone_changes (GST_VIDEO_FORMAT_RGBA, 67, 41);
  check_zone_changes (GST_VIDEO_FORMAT_NV21, 67, 41);
  check_zone_changes (GST_VIDEO_FORMAT_GRAY8, 67, 41);
}

GST_END_TEST;

/* A region of interest: the histogram counts it, the zones the whole
 * frame (in a pass of their own). */
GST_START_TEST (test_zones_with_region)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_AYUV,
    GST_VIDEO_FORMAT_RGB
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstBus *bus;
    GstHarness *h = harness_for ("hiphistogram zones=7x5 roi-x=5 roi-y=3 "
        "roi-width=20 roi-height=9", formats[f], 45, 23, &bus);
    GstVideoInfo info;
    GstBuffer *in = hipf_test_frame_new (formats[f], 45, 23, 3, &info);
    GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
    guint64 pixels = 0;

    fail_unless (out != NULL && msg != NULL);
    fail_unless (gst_structure_get_uint64 (gst_message_get_structure (msg),
            "pixels", &pixels));
    fail_unless_equals_uint64 (pixels, 20 * 9);
    check_zone_report (msg, in, &info, 7, 5, 256, FALSE);
    gst_message_unref (msg);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    teardown (h, bus);
  }
}

GST_END_TEST;

/* Whether a format's zones are counted in the histogram's pass: every
 * format of 8-bit samples whose luma the histogram walks, all but RGB and
 * BGR (three-byte pixels) and the 16-bit formats. */
static gboolean
zones_fuse (GstVideoFormat format)
{
  return format != GST_VIDEO_FORMAT_RGB && format != GST_VIDEO_FORMAT_BGR
      && format != GST_VIDEO_FORMAT_GRAY16_LE
      && format != GST_VIDEO_FORMAT_P010_10LE
      && format != GST_VIDEO_FORMAT_I420_10LE;
}

/* hipf_histogram_zones () against hipf_histogram () and hipf_zones () on
 * one random frame laid out as the elements lay it out: the same counts
 * and, word for word, the same zones, launch after launch on one pair of
 * buffers as the grid changes, more zones than pixels included; @value
 * >= 0: a frame of that byte (whole warps take frame_histogram's flat
 * shortcut). Formats it does not take, a region of interest and the zones'
 * histograms are refused. */
static void
check_api_zones_of (GstVideoFormat format, gint width, gint height,
    gint value)
{
  static const guint grids[][2] = { {16, 9}, {64, 64}, {7, 5}, {1, 1},
  {64, 1}, {1, 64}, {2, 1}, {16, 9}
  };
  const gboolean fused = zones_fuse (format);
  GstVideoInfo info;
  GstHipVideoLayout layout;
  HipfHistogramFrame frame;
  HipfZonesFrame zones;
  HipfDeviceLimits limits;
  const gchar *names[HIPF_HISTOGRAM_MAX_CHANNELS];
  guint luma, i, p;
  hipStream_t stream;
  guint8 *host, *src;
  guint32 *plain, *counted, *halves, *words;
  guint32 *host_counts = g_new (guint32, hipf_histogram_buffer_size () / 4);
  guint32 *host_plain = g_new (guint32, hipf_histogram_buffer_size () / 4);
  guint32 *host_words = g_new (guint32, HIPF_HISTOGRAM_ZONE_HALF_WORDS);
  guint32 *host_fused = g_new (guint32, HIPF_HISTOGRAM_ZONE_HALF_WORDS);
  gchar *ctx = g_strdup_printf ("%s %dx%d", gst_video_format_to_string
      (format), width, height);
  GRand *rand = hipf_test_rand ();
  gsize n;

  fail_unless (hipf_device_limits_query (0, &limits) == hipSuccess);
  gst_video_info_set_format (&info, format, width, height);
  gst_hip_video_layout_init (&layout, &info);
  gst_hip_video_histogram_init (&frame, names, &luma, &info, &layout);
  for (p = 0; p < (guint) frame.n_planes; p++) {
    frame.planes[p].roi_width = frame.planes[p].width;
    frame.planes[p].roi_height = frame.planes[p].height;
  }
  host = g_malloc (layout.size);
  for (n = 0; n < layout.size; n++)
    host[n] = value >= 0 ? (guint32) value : g_rand_int (rand);
  fail_unless (hipStreamCreateWithFlags (&stream, hipStreamNonBlocking) ==
      hipSuccess);
  fail_unless (hipMalloc ((void **) &src, layout.size) == hipSuccess);
  fail_unless (hipMalloc ((void **) &plain, hipf_histogram_buffer_size ())
      == hipSuccess);
  fail_unless (hipMalloc ((void **) &counted, hipf_histogram_buffer_size ())
      == hipSuccess);
  fail_unless (hipMalloc ((void **) &halves,
          hipf_histogram_zones_buffer_size ()) == hipSuccess);
  fail_unless (hipMalloc ((void **) &words,
          HIPF_HISTOGRAM_ZONE_HALF_WORDS * sizeof (guint32)) == hipSuccess);
  fail_unless (hipMemcpyAsync (src, host, layout.size, hipMemcpyHostToDevice,
          stream) == hipSuccess);
  fail_unless (hipMemsetAsync (plain, 0, hipf_histogram_buffer_size (),
          stream) == hipSuccess);
  fail_unless (hipMemsetAsync (counted, 0, hipf_histogram_buffer_size (),
          stream) == hipSuccess);
  fail_unless (hipf_histogram_zones_buffer_init (halves, stream) ==
      hipSuccess);

  for (i = 0; i < G_N_ELEMENTS (grids); i++) {
    const gint half = i % 2;
    const gsize zone_words = (gsize) grids[i][0] * grids[i][1] *
        HIPF_ZONE_WORDS;
    const gsize copy_words = hipf_histogram_copy_words (&frame);
    guint32 sums[2][HIPF_HISTOGRAM_COPY_WORDS];
    hipError_t err;
    gsize w;

    gst_hipf_zones_frame_init (&zones, &info, &layout, grids[i][0],
        grids[i][1], 4, 251, FALSE);
    fail_unless (hipf_histogram_zones_fuse (&limits, &frame, &zones) ==
        fused, "%s: taken %d", ctx, !fused);
    if (!fused) {
      fail_unless (hipf_histogram_zones (&limits, &frame, &zones, src,
              counted, half, halves, half, stream) == hipErrorInvalidValue);
      break;
    }
    err = hipf_histogram_zones (&limits, &frame, &zones, src, counted, half,
        halves, half, stream);
    fail_unless (err == hipSuccess, "%s: %s", ctx, hipGetErrorString (err));
    fail_unless (hipf_histogram (&limits, &frame, src, plain, half,
            stream) == hipSuccess);
    fail_unless (hipf_zones (&limits, &zones, src, words, stream) ==
        hipSuccess);
    fail_unless (hipMemcpyAsync (host_counts, counted,
            hipf_histogram_buffer_size (), hipMemcpyDeviceToHost,
            stream) == hipSuccess);
    fail_unless (hipMemcpyAsync (host_plain, plain,
            hipf_histogram_buffer_size (), hipMemcpyDeviceToHost,
            stream) == hipSuccess);
    fail_unless (hipMemcpyAsync (host_fused,
            hipf_histogram_zones_words (halves, half),
            zone_words * sizeof (guint32), hipMemcpyDeviceToHost,
            stream) == hipSuccess);
    fail_unless (hipMemcpyAsync (host_words, words,
            zone_words * sizeof (guint32), hipMemcpyDeviceToHost,
            stream) == hipSuccess);
    fail_unless (hipStreamSynchronize (stream) == hipSuccess);
    hipf_histogram_add_copies (hipf_histogram_counts (host_counts, half),
        hipf_histogram_copies (&frame), copy_words, copy_words, sums[0]);
    hipf_histogram_add_copies (hipf_histogram_counts (host_plain, half),
        hipf_histogram_copies (&frame), copy_words, copy_words, sums[1]);
    for (w = 0; w < copy_words; w++)
      fail_unless (sums[0][w] == sums[1][w], "%s %ux%u: count %"
          G_GSIZE_FORMAT ": %u, alone %u", ctx, grids[i][0], grids[i][1], w,
          sums[0][w], sums[1][w]);
    for (w = 0; w < zone_words; w++)
      fail_unless (host_fused[w] == host_words[w], "%s %ux%u: zone %"
          G_GSIZE_FORMAT " word %" G_GSIZE_FORMAT ": %u, separate pass %u",
          ctx, grids[i][0], grids[i][1], w / HIPF_ZONE_WORDS,
          w % HIPF_ZONE_WORDS, host_fused[w], host_words[w]);
  }

  /* Zones over the whole frame, where the histogram counts a region. */
  gst_hipf_zones_frame_init (&zones, &info, &layout, 3, 2, 4, 251, FALSE);
  frame.planes[0].roi_x = 1;
  fail_if (hipf_histogram_zones_fuse (&limits, &frame, &zones), "%s", ctx);
  frame.planes[0].roi_x = 0;
  frame.planes[0].roi_height--;
  fail_if (hipf_histogram_zones_fuse (&limits, &frame, &zones), "%s", ctx);
  frame.planes[0].roi_height++;
  fail_unless (hipf_histogram_zones_fuse (&limits, &frame, &zones) == fused);
  /* Zone histograms: a pass of their own. */
  gst_hipf_zones_frame_init (&zones, &info, &layout, 3, 2, 4, 251, TRUE);
  fail_if (hipf_histogram_zones_fuse (&limits, &frame, &zones), "%s", ctx);

  hipFree (words);
  hipFree (halves);
  hipFree (counted);
  hipFree (plain);
  hipFree (src);
  hipStreamDestroy (stream);
  g_free (host);
  g_free (host_counts);
  g_free (host_plain);
  g_free (host_words);
  g_free (host_fused);
  g_free (ctx);
}

static void
check_api_zones (GstVideoFormat format, gint width, gint height)
{
  check_api_zones_of (format, width, height, -1);
}

GST_START_TEST (test_api_zones)
{
  guint f;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    check_api_zones (hipf_test_blur_formats[f], 45, 23);
    check_api_zones (hipf_test_blur_formats[f], 1, 1);
  }
  check_api_zones (GST_VIDEO_FORMAT_GRAY8, 200, 9);
  check_api_zones (GST_VIDEO_FORMAT_RGBA, 640, 360);
  check_api_zones (GST_VIDEO_FORMAT_NV12, 640, 360);
  check_api_zones_of (GST_VIDEO_FORMAT_NV12, 640, 360, 251);
  check_api_zones_of (GST_VIDEO_FORMAT_RGBx, 333, 99, 4);
}

GST_END_TEST;

/* Frames large enough that every block takes several groups a thread (4K
 * RGBA: 15 steps a thread on an H200), at the camera's grid and at the
 * largest, against the reference and word for word against the pass of
 * their own. Apart from test_zones_fused, which the sanitizers take. */
GST_START_TEST (test_zones_large)
{
  check_zones_as (GST_VIDEO_FORMAT_RGBA, 3840, 2160, 16, 9, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_RGBA, 3840, 2160, 64, 64, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_NV12, 3840, 2160, 16, 9, 256, FALSE);
  check_zones_as (GST_VIDEO_FORMAT_GRAY8, 1920, 1080, 16, 9, 256, FALSE);
  check_api_zones (GST_VIDEO_FORMAT_RGBA, 3840, 2160);
  check_api_zones (GST_VIDEO_FORMAT_BGRx, 1920, 1080);
  check_api_zones (GST_VIDEO_FORMAT_GRAY8, 1920, 1080);
  check_api_zones (GST_VIDEO_FORMAT_I420, 3840, 2160);
  check_api_zones (GST_VIDEO_FORMAT_Y444, 1920, 1080);
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
  tcase_add_test (tc, test_untimed_and_long_intervals);
  tcase_add_test (tc, test_exposure_settings);
  tcase_add_test (tc, test_wide_by_hand);
  tcase_add_test (tc, test_frames_in_flight);
  tcase_add_test (tc, test_done_frame_reports);
  tcase_add_test (tc, test_frames_in_flight_passthrough);
  tcase_add_test (tc, test_in_flight_push_fails_passthrough);
  tcase_add_test (tc, test_api_regions);
  tcase_add_test (tc, test_api_wide_regions);
  tcase_add_test (tc, test_api_alternating_sizes);
  tcase_add_test (tc, test_zones);
  tcase_add_test (tc, test_zones_fused);
  tcase_add_test (tc, test_zone_changes);
  tcase_add_test (tc, test_zones_with_region);
  tcase_add_test (tc, test_api_zones);
  tcase_add_test (tc, test_zones_large);
  /* A case that hangs fails in a minute, not ten. */
  tc = tcase_create ("stopped from a report");
  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_stopped_from_report, 0,
      G_N_ELEMENTS (stop_cases));
  tcase_add_loop_test (tc, test_stopped_from_probe, 0,
      G_N_ELEMENTS (stop_probes));
  return s;
}

HIPF_GPU_CHECK_MAIN (histogram_gpu);
