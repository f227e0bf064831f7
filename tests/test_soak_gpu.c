/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Soak: 100 000 1920x1080 frames through hipboxblur (several in flight) and
 * hiphistogram. Every frame comes out, in order, and host RSS and device
 * memory sampled every 10 000 frames stay flat.
 */
#include <stdio.h>
#include <unistd.h>

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include "gpucheck.h"
#include "hipf-runtime.h"
#include "testutil.h"

#define SOAK_FRAMES 100000
#define SAMPLE_EVERY 10000
/* Growth allowed between the first sample and any later one. */
#define RSS_SLACK (8 * 1024 * 1024)
#define DEVICE_SLACK (4 * 1024 * 1024)

static gsize
rss_bytes (void)
{
  gchar *text = NULL;
  gsize pages = 0, resident = 0;

  if (g_file_get_contents ("/proc/self/statm", &text, NULL, NULL))
    sscanf (text, "%zu %zu", &pages, &resident);
  g_free (text);
  return resident * (gsize) sysconf (_SC_PAGESIZE);
}

static gsize
device_used (void)
{
  size_t free_mem = 0, total = 0;

  fail_unless (hipMemGetInfo (&free_mem, &total) == hipSuccess);
  return total - free_mem;
}

static GstFlowReturn
count_sample (GstAppSink * sink, gpointer data)
{
  guint64 *seen = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf = gst_sample_get_buffer (sample);

  /* In order: each frame's timestamp is its number. */
  fail_unless_equals_uint64 (GST_BUFFER_PTS (buf), *seen);
  fail_unless (gst_buffer_get_custom_meta (buf, "GstHipHistogramMeta"));
  (*seen)++;
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

GST_START_TEST (test_soak)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time "
      "block=true max-buffers=8 ! hipboxblur radius=6 frames-in-flight=3 ! "
      "hiphistogram post-messages=false ! appsink name=sink sync=false "
      "emit-signals=true max-buffers=8", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstBuffer *frames[4];
  GstVideoInfo info;
  GstCaps *caps;
  GstMessage *msg;
  guint64 seen = 0, i;
  gsize rss0 = 0, dev0 = 0;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (frames); f++)
    frames[f] = hipf_test_frame_new (GST_VIDEO_FORMAT_RGBA, 1920, 1080, 0,
        &info);
  info.fps_n = 30;
  info.fps_d = 1;
  caps = gst_video_info_to_caps (&info);
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  g_signal_connect (sink, "new-sample", G_CALLBACK (count_sample), &seen);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  for (i = 0; i < SOAK_FRAMES; i++) {
    GstBuffer *buf = gst_buffer_copy (frames[i % G_N_ELEMENTS (frames)]);

    GST_BUFFER_PTS (buf) = i;
    GST_BUFFER_DURATION (buf) = 1;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), buf),
        GST_FLOW_OK);
    if (i % SAMPLE_EVERY == 0) {
      gsize rss = rss_bytes (), dev = device_used ();

      g_print ("frame %6" G_GUINT64_FORMAT ": rss %zu KiB, device %zu KiB\n",
          i, rss / 1024, dev / 1024);
      if (i == SAMPLE_EVERY) {  /* after warm-up: pools and caches full */
        rss0 = rss;
        dev0 = dev;
      } else if (i > SAMPLE_EVERY) {
        fail_unless (rss <= rss0 + RSS_SLACK, "host RSS grew from %zu to %zu",
            rss0, rss);
        fail_unless (dev <= dev0 + DEVICE_SLACK, "device memory grew from %zu "
            "to %zu", dev0, dev);
      }
    }
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless_equals_uint64 (seen, SOAK_FRAMES);
  g_print ("soak: %d frames in, %" G_GUINT64_FORMAT " out, in order\n",
      SOAK_FRAMES, seen);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  for (f = 0; f < G_N_ELEMENTS (frames); f++)
    gst_buffer_unref (frames[f]);
}

GST_END_TEST;

static Suite *
soak_gpu_suite (void)
{
  Suite *s = suite_create ("soak-gpu");
  TCase *tc = tcase_create ("soak");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_soak);
  return s;
}

HIPF_GPU_CHECK_MAIN (soak_gpu);
