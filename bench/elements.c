/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Link and element rows: a frame's copies over the PCIe link, the elements
 * in pipelines fed by appsrc against them, and the CPU reference.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include <gst/app/gstappsrc.h>

#include "reference.h"

/* ---- PCIe link rows ------------------------------------------------------- */



const gchar *link_names[] = { "host to device", "both ways at once" };

/* Time a frame of @size takes over the link, per frame, from host memory
 * that is pinned or pageable (the element's output pool is pinned, so
 * downloads always land in pinned memory): what an element that moves
 * frames that way can reach at best, measured in the same run. */
gdouble
time_link (gsize size, gboolean pinned, LinkDirection dir)
{
  guint8 *in[ROTATION], *out[ROTATION], *dev[2 * ROTATION];
  hipStream_t up, down;
  hipEvent_t start, stop, down_done;
  gdouble t[LINK_BATCHES];
  gint b, i;

  for (i = 0; i < ROTATION; i++) {
    if (pinned)
      CHECK (hipHostMalloc ((void **) &in[i], size, hipHostMallocDefault));
    else
      in[i] = g_malloc (size);
    fill_random (in[i], size, 5 + i);
    CHECK (hipHostMalloc ((void **) &out[i], size, hipHostMallocDefault));
  }
  for (i = 0; i < 2 * ROTATION; i++)
    CHECK (hipMalloc ((void **) &dev[i], size));
  CHECK (hipStreamCreateWithFlags (&up, hipStreamNonBlocking));
  CHECK (hipStreamCreateWithFlags (&down, hipStreamNonBlocking));
  CHECK (hipEventCreateWithFlags (&start, hipEventDefault));
  CHECK (hipEventCreateWithFlags (&stop, hipEventDefault));
  CHECK (hipEventCreateWithFlags (&down_done, hipEventDisableTiming));

  /* Batch -1 warms the link up and is not timed. */
  for (b = -1; b < LINK_BATCHES; b++) {
    gfloat ms;

    CHECK (hipEventRecord (start, up));
    CHECK (hipStreamWaitEvent (down, start, 0));
    for (i = 0; i < LINK_FRAMES; i++) {
      CHECK (hipMemcpyAsync (dev[i % ROTATION], in[i % ROTATION], size,
              hipMemcpyHostToDevice, up));
      if (dir == LINK_BOTH)
        CHECK (hipMemcpyAsync (out[i % ROTATION],
                dev[ROTATION + i % ROTATION], size, hipMemcpyDeviceToHost,
                down));
    }
    CHECK (hipEventRecord (down_done, down));
    CHECK (hipStreamWaitEvent (up, down_done, 0));
    CHECK (hipEventRecord (stop, up));
    CHECK (hipEventSynchronize (stop));
    CHECK (hipEventElapsedTime (&ms, start, stop));
    if (b >= 0)
      t[b] = ms * 1000.0 / LINK_FRAMES;
  }

  hipEventDestroy (start);
  hipEventDestroy (stop);
  hipEventDestroy (down_done);
  hipStreamDestroy (up);
  hipStreamDestroy (down);
  for (i = 0; i < 2 * ROTATION; i++)
    hipFree (dev[i]);
  for (i = 0; i < ROTATION; i++) {
    if (pinned)
      hipHostFree (in[i]);
    else
      g_free (in[i]);
    hipHostFree (out[i]);
  }
  return bench_median (t, LINK_BATCHES);
}

/* ---- element rows --------------------------------------------------------- */

static void
free_pinned (gpointer data)
{
  hipHostFree (data);
}

/* An error stops the pipeline's streaming thread, and a push into a full
 * appsrc would then wait for ever: flushing the source lets it return. */
static GstBusSyncReply
unblock_on_error (GstBus * bus, GstMessage * msg, gpointer src)
{
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_element_send_event (GST_ELEMENT (src), gst_event_new_flush_start ());
  return GST_BUS_PASS;
}


/* When each frame entered and left the element, by its index. */
typedef struct
{
  gint rate;
  gint64 *t;
  gint frames;
} PassTimes;

static GstPadProbeReturn
note_pass (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  PassTimes *p = data;
  GstClockTime pts = GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info));
  guint64 i;

  if (!GST_CLOCK_TIME_IS_VALID (pts))
    return GST_PAD_PROBE_OK;
  i = gst_util_uint64_scale_round (pts, p->rate, GST_SECOND);
  if (i < (guint64) p->frames)
    p->t[i] = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

/* Runs @frames frames through @element and returns its frames/s. With
 * @pace, frames enter at that many a second, as from a live source, and
 * @latency_us gets the median time from a frame entering the element to
 * its leaving it. */
gdouble
bench_element (const gchar * element, GstVideoFormat format, gint w, gint h,
    gboolean pinned, gint frames, gint pace, gdouble * latency_us)
{
  const gint rate = pace > 0 ? pace : 30;
  GstVideoInfo info;
  GstBuffer *pool[ROTATION];
  GstElement *pipeline, *src, *under_test;
  PassTimes in = { rate, g_new0 (gint64, frames), frames };
  PassTimes out = { rate, g_new0 (gint64, frames), frames };
  GstBus *bus;
  GstMessage *msg;
  GError *error = NULL;
  gchar *desc;
  gint64 t0, t1;
  gint i;

  desc = g_strdup_printf ("appsrc name=src format=time is-live=false "
      "max-buffers=8 block=true ! %s name=under_test ! video/x-raw ! "
      "fakesink sync=false",
      element);
  pipeline = gst_parse_launch_full (desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &error);
  g_free (desc);
  if (pipeline == NULL) {
    g_printerr ("%s: %s\n", element, error->message);
    g_error_free (error);
    g_free (in.t);
    g_free (out.t);
    return 0;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  under_test = gst_bin_get_by_name (GST_BIN (pipeline), "under_test");
  if (pace > 0) {
    GstPad *sink = gst_element_get_static_pad (under_test, "sink");
    GstPad *srcpad = gst_element_get_static_pad (under_test, "src");

    gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER, note_pass, &in, NULL);
    gst_pad_add_probe (srcpad, GST_PAD_PROBE_TYPE_BUFFER, note_pass, &out,
        NULL);
    gst_object_unref (sink);
    gst_object_unref (srcpad);
  }
  bus = gst_element_get_bus (pipeline);
  gst_bus_set_sync_handler (bus, unblock_on_error, src, NULL);

  gst_video_info_set_format (&info, format, w, h);
  info.fps_n = rate;
  info.fps_d = 1;
  for (i = 0; i < ROTATION; i++) {
    guint8 *data;

    if (pinned) {
      CHECK (hipHostMalloc ((void **) &data, info.size, hipHostMallocDefault));
      pool[i] = gst_buffer_new_wrapped_full (0, data, info.size, 0, info.size,
          data, free_pinned);
    } else {
      data = g_malloc (info.size);
      pool[i] = gst_buffer_new_wrapped (data, info.size);
    }
    fill_random (data, info.size, 99 + i);
  }

  {
    GstCaps *caps = gst_video_info_to_caps (&info);
    g_object_set (src, "caps", caps, NULL);
    gst_caps_unref (caps);
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  t0 = 0;
  for (i = 0; i < frames; i++) {
    GstBuffer *buf = gst_buffer_copy (pool[i % ROTATION]);      /* shares memory */

    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, rate);
    GST_BUFFER_DURATION (buf) = GST_SECOND / rate;
    if (i == WARM_UP)
      t0 = g_get_monotonic_time ();
    if (pace > 0 && i > WARM_UP) {
      gint64 due = t0 + gst_util_uint64_scale (i - WARM_UP, G_USEC_PER_SEC,
          pace);
      gint64 now = g_get_monotonic_time ();

      if (due > now)
        g_usleep (due - now);
    }
    if (gst_app_src_push_buffer (GST_APP_SRC (src), buf) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  t1 = g_get_monotonic_time ();
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err;
    gst_message_parse_error (msg, &err, NULL);
    g_printerr ("%s: %s\n", element, err->message);
    g_error_free (err);
    t1 = t0;
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (under_test);
  gst_object_unref (pipeline);
  for (i = 0; i < ROTATION; i++)
    gst_buffer_unref (pool[i]);
  if (pace > 0) {
    gdouble *lat = g_new (gdouble, frames);
    gint n = 0;

    for (i = WARM_UP; i < frames; i++)
      if (in.t[i] && out.t[i])
        lat[n++] = out.t[i] - in.t[i];
    *latency_us = n == frames - WARM_UP ? bench_median (lat, n) : 0;
    if (n < frames - WARM_UP)
      g_printerr ("%s: %d of %d frames did not pass\n", element,
          frames - WARM_UP - n, frames - WARM_UP);
    g_free (lat);
  }
  g_free (in.t);
  g_free (out.t);
  return t1 > t0 ? (frames - WARM_UP) * 1e6 / (t1 - t0) : 0;
}

/* ---- CPU reference rows ----------------------------------------------------- */

void
bench_cpu (GstVideoFormat format, gint w, gint h, gint radius)
{
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstVideoFrame fi, fo;
  RefHistogram *hist = g_new (RefHistogram, 1);
  gchar *params;
  gint64 t0, t1, t2;

  gst_video_info_set_format (&info, format, w, h);
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_video_frame_map (&fi, &info, in, GST_MAP_READWRITE);
  gst_video_frame_map (&fo, &info, out, GST_MAP_WRITE);
  fill_random (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0), info.size, 7);
  t0 = g_get_monotonic_time ();
  ref_box_blur_frame (&fi, &fo, radius, radius, REF_BORDER_MIRROR);
  t1 = g_get_monotonic_time ();
  ref_histogram_frame (&fi, 0, 0, 0, 0, hist);
  t2 = g_get_monotonic_time ();
  params = g_strdup_printf ("cpu reference, radius %d mirror", radius);
  add_row ("blur", format, w, h, params, (gdouble) (t1 - t0), 0, 0);
  add_row ("histogram", format, w, h, "cpu reference", (gdouble) (t2 - t1), 0,
      0);
  g_free (params);
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  g_free (hist);
}
