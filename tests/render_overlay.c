/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Draws hipexposure's overlay on one test-pattern frame with the CPU
 * reference, which the element's output equals bit for bit
 * (test_exposure_gpu), and saves it as a PNG: the README's picture,
 * made without a GPU.
 *
 *   render-overlay OUT.png [false-color] [rgb]
 */
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include "reference.h"

#define CAPS "video/x-raw,format=RGBA,width=640,height=360,framerate=1/1"

/* One frame of videotestsrc's @pattern. */
static GstSample *
test_frame (const gchar * pattern)
{
  gchar *desc = g_strdup_printf ("videotestsrc pattern=%s num-buffers=1 ! "
      CAPS " ! appsink name=out", pattern);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "out");
  GstSample *sample;

  gst_element_set_state (p, GST_STATE_PLAYING);
  sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  g_free (desc);
  return sample;
}

static gboolean
save_png (GstBuffer * buf, const gchar * path)
{
  gchar *desc = g_strdup_printf ("appsrc name=in caps=\"" CAPS "\" ! "
      "videoconvert ! pngenc ! filesink location=\"%s\"", path);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "in");
  GstMessage *msg;
  gboolean ok;

  gst_element_set_state (p, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (src), buf);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 10 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (p);
  g_free (desc);
  return ok;
}

int
main (int argc, char **argv)
{
  /* hipexposure's defaults: graph at 16,16, 256x128, opacity 160; zebra
   * at 235 (the white bars). */
  RefExposure e = { FALSE, TRUE, TRUE, 235, 0, 16, 16, 256, 128, 160 };
  GstSample *sample;
  GstVideoInfo info;
  GstVideoFrame in, out;
  GstBuffer *drawn;
  gint i;

  gst_init (&argc, &argv);
  if (argc < 2) {
    g_printerr ("usage: %s OUT.png [false-color] [rgb]\n", argv[0]);
    return 2;
  }
  for (i = 2; i < argc; i++) {
    e.false_color |= g_str_equal (argv[i], "false-color");
    e.graph_rgb |= g_str_equal (argv[i], "rgb");
  }
  /* SMPTE bars show the zebra and the false colours; the RGB graph wants
   * a picture of many colours. */
  sample = test_frame (e.graph_rgb ? "colors" : "smpte");
  if (sample == NULL || !gst_video_info_from_caps (&info,
          gst_sample_get_caps (sample))) {
    g_printerr ("no test frame\n");
    return 1;
  }
  drawn = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_video_frame_map (&in, &info, gst_sample_get_buffer (sample),
      GST_MAP_READ);
  gst_video_frame_map (&out, &info, drawn, GST_MAP_WRITE);
  ref_exposure_frame (&in, &out, &e);
  gst_video_frame_unmap (&in);
  gst_video_frame_unmap (&out);
  gst_sample_unref (sample);
  if (!save_png (drawn, argv[1])) {
    g_printerr ("could not write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
