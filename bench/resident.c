/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Rows of frames that stay on the device between the elements: a chain
 * against its first element alone, each element from device memory to
 * device memory against its kernel alone, and many streams in one
 * process. Each row's figure to compare with is measured in the same run.
 */
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

#include "bench.h"

#define DEVICE_CAPS "video/x-raw(memory:HipfDeviceMemory)"
#define POOL 4                  /* input frames cycled */

static void
free_pinned (gpointer data)
{
  hipHostFree (data);
}

/* @n frames of @info with random samples: in pinned memory, or moved on
 * to the device by an element (so in the plugin's device memory). */
static void
make_frames (const GstVideoInfo * info, gboolean device, GstBuffer ** out,
    gint n)
{
  GstElement *pipe = NULL, *src = NULL, *sink = NULL;
  gint i;

  if (device) {
    pipe = gst_parse_launch ("appsrc name=src format=time ! hiphistogram "
        "post-messages=false attach-meta=false ! " DEVICE_CAPS " ! appsink "
        "name=sink", NULL);
    src = gst_bin_get_by_name (GST_BIN (pipe), "src");
    sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
    {
      GstCaps *caps = gst_video_info_to_caps (info);

      g_object_set (src, "caps", caps, NULL);
      gst_caps_unref (caps);
    }
    gst_element_set_state (pipe, GST_STATE_PLAYING);
  }
  for (i = 0; i < n; i++) {
    guint8 *data;
    GstBuffer *buf;

    if (hipHostMalloc ((void **) &data, info->size, hipHostMallocDefault)
        != hipSuccess) {
      g_printerr ("no pinned memory\n");
      exit (1);
    }
    fill_random (data, info->size, 77 + i);
    buf = gst_buffer_new_wrapped_full (0, data, info->size, 0, info->size,
        data, free_pinned);
    if (device) {
      GstSample *sample;

      GST_BUFFER_PTS (buf) = i * GST_MSECOND;
      gst_app_src_push_buffer (GST_APP_SRC (src), buf);
      sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
      if (sample == NULL) {
        g_printerr ("could not move a frame to the device\n");
        exit (1);
      }
      buf = gst_buffer_ref (gst_sample_get_buffer (sample));
      gst_sample_unref (sample);
    }
    out[i] = buf;
  }
  if (device) {
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (src);
    gst_object_unref (sink);
    gst_object_unref (pipe);
  }
}

typedef struct
{
  GstElement *src;
  GstBuffer **frames;
  gint n_frames;
  gint *pushed;                 /* by every feeder */
  gint warm;                    /* pushes after which timing starts */
  gint64 *t0;
} Feed;

static gpointer
feed (gpointer data)
{
  Feed *f = data;
  gint i;

  for (i = 0; i < f->n_frames; i++) {
    GstBuffer *buf = gst_buffer_copy (f->frames[i % POOL]);   /* shares */

    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, 30);
    GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
    if (g_atomic_int_add (f->pushed, 1) + 1 == f->warm)
      *f->t0 = g_get_monotonic_time ();
    if (gst_app_src_push_buffer (GST_APP_SRC (f->src), buf) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (f->src));
  return NULL;
}

/* @n_streams copies of "appsrc ! @chain ! fakesink" in one pipeline, each
 * fed @frames frames of @frames_in (caps @caps) by a thread of its own:
 * the frames a second of all of them together, after the warm-up. */
static gdouble
run_streams (const gchar * chain, GstCaps * caps, GstBuffer ** frames_in,
    gint n_streams, gint frames)
{
  GString *desc = g_string_new (NULL);
  GstElement *pipe;
  GstBus *bus;
  GstMessage *msg;
  Feed *feeds = g_new0 (Feed, n_streams);
  GThread **threads = g_new0 (GThread *, n_streams);
  GError *error = NULL;
  gint pushed = 0, k;
  gint64 t0 = 0, t1;
  gboolean ok;

  for (k = 0; k < n_streams; k++)
    g_string_append_printf (desc, "appsrc name=s%d format=time "
        "is-live=false max-buffers=8 block=true ! %s ! fakesink sync=false ",
        k, chain);
  pipe = gst_parse_launch_full (desc->str, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &error);
  g_string_free (desc, TRUE);
  if (pipe == NULL) {
    g_printerr ("%s: %s\n", chain, error->message);
    g_error_free (error);
    return 0;
  }
  for (k = 0; k < n_streams; k++) {
    gchar *name = g_strdup_printf ("s%d", k);

    feeds[k].src = gst_bin_get_by_name (GST_BIN (pipe), name);
    g_object_set (feeds[k].src, "caps", caps, NULL);
    feeds[k].frames = frames_in;
    feeds[k].n_frames = frames;
    feeds[k].pushed = &pushed;
    feeds[k].warm = n_streams * WARM_UP;
    feeds[k].t0 = &t0;
    g_free (name);
  }
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (k = 0; k < n_streams; k++)
    threads[k] = g_thread_new ("feed", feed, &feeds[k]);
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  t1 = g_get_monotonic_time ();
  ok = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (!ok) {
    GError *err = NULL;

    if (msg)
      gst_message_parse_error (msg, &err, NULL);
    g_printerr ("%s: %s\n", chain, err ? err->message : "timed out");
    g_clear_error (&err);
    /* Unblocks feeders waiting on a full appsrc. */
    for (k = 0; k < n_streams; k++)
      gst_element_send_event (feeds[k].src, gst_event_new_flush_start ());
  }
  if (msg)
    gst_message_unref (msg);
  for (k = 0; k < n_streams; k++) {
    g_thread_join (threads[k]);
    gst_object_unref (feeds[k].src);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (feeds);
  g_free (threads);
  if (!ok || t1 <= t0)
    return 0;
  return (gdouble) n_streams * (frames - WARM_UP) * 1e6 / (t1 - t0);
}

static void
free_frames (GstBuffer ** frames)
{
  gint i;

  for (i = 0; i < POOL; i++)
    gst_buffer_unref (frames[i]);
}

static gdouble
us (gdouble fps)
{
  return fps > 0 ? 1e6 / fps : 0;
}

typedef struct
{
  gint count;
  gint64 t0;
} Passed;

static GstPadProbeReturn
count_pass (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Passed *p = data;

  if (++p->count == WARM_UP)
    p->t0 = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

/* Frames a second through @desc (its sink named "sink"), after the warm-up,
 * to its end. */
static gdouble
run_to_end (const gchar * desc)
{
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch_full (desc, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, &error);
  GstElement *sink;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  Passed p = { 0, 0 };
  gint64 t1;
  gboolean ok;

  if (pipe == NULL) {
    g_printerr ("%s: %s\n", desc, error->message);
    g_error_free (error);
    return 0;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_pass, &p, NULL);
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  t1 = g_get_monotonic_time ();
  ok = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (!ok)
    g_printerr ("%s: %s\n", desc, msg ? "error" : "timed out");
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return ok && t1 > p.t0 ? (p.count - WARM_UP) * 1e6 / (t1 - p.t0) : 0;
}

/* Frames NVDEC decodes into CUDA memory, through both elements with no host
 * copy, against the decoder alone: HIPF_BENCH_CLIP names a 1920x1080 H.264
 * byte stream (CONTRIBUTING.md makes one). */
static void
bench_decoder (void)
{
  const gchar *clip = g_getenv ("HIPF_BENCH_CLIP");
  GstElementFactory *dec = gst_element_factory_find ("nvh264dec");
  gchar *alone, *chain;
  gdouble fps_alone, fps_chain;

  if (clip == NULL || dec == NULL) {
    g_printerr ("no decoder rows: %s\n", clip ? "no nvh264dec" :
        "HIPF_BENCH_CLIP not set");
    gst_clear_object (&dec);
    return;
  }
  gst_object_unref (dec);
  alone = g_strdup_printf ("filesrc location=%s ! h264parse ! nvh264dec ! "
      "fakesink name=sink sync=false", clip);
  chain = g_strdup_printf ("filesrc location=%s ! h264parse ! nvh264dec ! "
      "hipboxblur radius=6 ! hiphistogram ! fakesink name=sink sync=false",
      clip);
  fps_alone = run_to_end (alone);
  fps_chain = run_to_end (chain);
  add_row ("decode", GST_VIDEO_FORMAT_NV12, 1920, 1080,
      "nvh264dec ! fakesink", us (fps_alone), 0, fps_alone);
  add_row ("decode", GST_VIDEO_FORMAT_NV12, 1920, 1080,
      "nvh264dec ! blur ! hist, vs alone", us (fps_chain), us (fps_alone),
      fps_chain);
  g_free (alone);
  g_free (chain);
}

void
bench_resident (const HipfDeviceLimits * limits)
{
  const GstVideoFormat fmt = GST_VIDEO_FORMAT_RGBA;
  const gint w = 3840, h = 2160, frames = 400;
  GstVideoInfo info;
  GstBuffer *pinned[POOL], *device[POOL];
  GstCaps *caps, *dev_caps;
  gdouble alone, chain, kernel, fps;
  guint i;
  static const struct
  {
    const gchar *name, *element, *params;
    gint radius;                /* of the kernel; -1: the histogram, -2:
                                 * none to compare with */
  } resident[] = {
    {"hipboxblur", "hipboxblur radius=6", "device to device", 6},
    {"hipboxblur", "hipboxblur radius=6 frames-in-flight=4",
        "device to device, 4 in flight", 6},
    {"hipconvolve", "hipconvolve preset=sobel-x offset=128 frames-in-flight=4",
        "device to device, 4 in flight, sobel-x", -2},
    {"hiphist", "hiphistogram", "device to device", -1},
    {"hiphist", "hiphistogram frames-in-flight=4",
        "device to device, 4 in flight", -1},
    /* The report's cost on the host: two structures (message and meta) of
     * every bin a frame, against 16 bins, or the message alone. */
    {"hiphist", "hiphistogram frames-in-flight=4 bins=16",
        "device to device, 4 in flight, 16 bins", -1},
    {"hiphist", "hiphistogram frames-in-flight=4 attach-meta=false",
        "device to device, 4 in flight, no meta", -1},
  };

  g_printerr ("frames on the device between elements (%d frames):\n",
      frames);
  gst_video_info_set_format (&info, fmt, w, h);
  info.fps_n = 30;
  info.fps_d = 1;
  caps = gst_video_info_to_caps (&info);
  dev_caps = gst_caps_copy (caps);
  gst_caps_set_features (dev_caps, 0,
      gst_caps_features_new ("memory:HipfDeviceMemory", NULL));
  make_frames (&info, FALSE, pinned, POOL);
  make_frames (&info, TRUE, device, POOL);

  /* A chain crosses the link once each way, as its first element alone. */
  alone = run_streams ("hipboxblur radius=6 frames-in-flight=4 ! video/x-raw",
      caps, pinned, 1, frames);
  chain = run_streams ("hipboxblur radius=6 frames-in-flight=4 ! "
      "hiphistogram frames-in-flight=4 ! video/x-raw", caps, pinned, 1,
      frames);
  add_row ("chain", fmt, w, h, "blur ! hist, pinned, vs blur alone",
      us (chain), us (alone), chain);

  /* Each element's own cost a frame beside its kernel's. */
  for (i = 0; i < G_N_ELEMENTS (resident); i++) {
    gchar *desc = g_strdup_printf ("%s ! " DEVICE_CAPS, resident[i].element);

    kernel = resident[i].radius >= -1 ? bench_kernel_us (fmt, w, h,
        resident[i].radius, limits) : 0;
    fps = run_streams (desc, dev_caps, device, 1, frames);
    add_row (resident[i].name, fmt, w, h, resident[i].params, us (fps), kernel,
        fps);
    g_free (desc);
  }
  free_frames (pinned);
  free_frames (device);
  gst_caps_unref (caps);
  gst_caps_unref (dev_caps);

  /* Many small streams at once, from and to pinned system memory: with
   * the frame on the device between the two elements, and forced through
   * system memory between them as a comparison. */
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 1920, 1080);
  info.fps_n = 30;
  info.fps_d = 1;
  caps = gst_video_info_to_caps (&info);
  make_frames (&info, FALSE, pinned, POOL);
  chain = run_streams ("hipboxblur radius=6 ! hiphistogram ! video/x-raw",
      caps, pinned, 32, 200);
  alone = run_streams ("hipboxblur radius=6 ! video/x-raw ! hiphistogram ! "
      "video/x-raw", caps, pinned, 32, 200);
  add_row ("streams", GST_VIDEO_FORMAT_NV12, 1920, 1080,
      "32 x blur ! hist, pinned, together", us (chain), 0, chain);
  add_row ("streams", GST_VIDEO_FORMAT_NV12, 1920, 1080,
      "32 x, system memory between", us (alone), 0, alone);
  free_frames (pinned);
  gst_caps_unref (caps);

  bench_decoder ();
}
