/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Hardening on a GPU: HIP failures injected through GST_HIP_FAIL (see
 * gst/gsthipdevice.c) become element errors and leave the process able to
 * run the next pipeline; malformed buffers, frames too large for the
 * device, renegotiation, concurrency, properties changed while playing and
 * many start/stop cycles neither crash nor lose or corrupt a frame. Every
 * frame that comes out is compared with the CPU reference.
 *
 * Checks that run in other threads never call fail_unless(): they return a
 * description of the first problem, which the test thread asserts on.
 */
#include <string.h>

#include <gst/app/gstappsrc.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "gpucheck.h"
#include "hipf-runtime.h"
#include "reference.h"
#include "testutil.h"

/* Start/stop cycles of test_play_cycles; each is a few milliseconds. */
#define PLAY_CYCLES 1000
#define N_THREADS 8
#define THREAD_FRAMES 30
/* Generous: a pipeline that needs this long is stuck. */
#define WAIT (60 * GST_SECOND)
#define FRAME_DURATION (GST_SECOND / 30)

#define META_NAME "GstHipHistogramMeta"

/* ---- frames and references --------------------------------------------- */

/* The blurred frame, in a buffer of default strides. */
static GstBuffer *
blur_reference (GstBuffer * in, const GstVideoInfo * in_info, gint rx, gint ry,
    RefBorder mode)
{
  GstVideoInfo out_info;
  GstVideoFrame fi, fo;
  GstBuffer *out;

  gst_video_info_set_format (&out_info, GST_VIDEO_INFO_FORMAT (in_info),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info));
  out = gst_buffer_new_allocate (NULL, out_info.size, NULL);
  gst_video_frame_map (&fi, in_info, in, GST_MAP_READ);
  gst_video_frame_map (&fo, &out_info, out, GST_MAP_WRITE);
  ref_box_blur_frame (&fi, &fo, rx, ry, mode);
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  return out;
}

/* The visible samples of @got equal those of @expected, both frames of
 * @format at @width x @height (strides from their video metas, if any). */
static gboolean
same_frame (GstBuffer * got, GstBuffer * expected, GstVideoFormat format,
    gint width, gint height, gchar ** why)
{
  GstVideoInfo info;
  GstVideoFrame a, b;
  gchar *where = NULL;
  gboolean ok;

  gst_video_info_set_format (&info, format, width, height);
  if (!gst_video_frame_map (&a, &info, got, GST_MAP_READ)) {
    *why = g_strdup_printf ("output buffer of %" G_GSIZE_FORMAT " bytes does "
        "not map as %s %dx%d", gst_buffer_get_size (got),
        gst_video_format_to_string (format), width, height);
    return FALSE;
  }
  if (!gst_video_frame_map (&b, &info, expected, GST_MAP_READ)) {
    gst_video_frame_unmap (&a);
    *why = g_strdup ("reference does not map");
    return FALSE;
  }
  ok = hipf_test_frames_equal (&a, &b, &where);
  gst_video_frame_unmap (&a);
  gst_video_frame_unmap (&b);
  if (!ok)
    *why = where;
  return ok;
}

static gboolean
check_blur (GstBuffer * out, GstBuffer * in, const GstVideoInfo * in_info,
    gint rx, gint ry, RefBorder mode, gchar ** why)
{
  GstBuffer *exp = blur_reference (in, in_info, rx, ry, mode);
  gchar *where = NULL;
  gboolean ok = same_frame (out, exp, GST_VIDEO_INFO_FORMAT (in_info),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info), &where);

  if (!ok) {
    *why = g_strdup_printf ("blur r %d,%d %s: %s", rx, ry,
        ref_border_nicks[mode], where);
    g_free (where);
  }
  gst_buffer_unref (exp);
  return ok;
}

static void
histogram_reference (GstBuffer * buf, const GstVideoInfo * info,
    RefHistogram * ref)
{
  GstVideoFrame frame;

  gst_video_frame_map (&frame, info, buf, GST_MAP_READ);
  ref_histogram_frame (&frame, 0, 0, 0, 0, ref);
  gst_video_frame_unmap (&frame);
}

/* The histograms of a message or meta structure equal @ref in @bins bins. */
static gboolean
same_histograms (const GstStructure * s, const RefHistogram * ref, guint bins,
    gchar ** why)
{
  const GValue *channels = gst_structure_get_value (s, "channels");
  const GValue *hists = gst_structure_get_value (s, "histograms");
  guint c, b;

  if (!channels || !hists || !GST_VALUE_HOLDS_ARRAY (channels)
      || !GST_VALUE_HOLDS_ARRAY (hists)) {
    *why = g_strdup ("no channels / histograms");
    return FALSE;
  }
  if (gst_value_array_get_size (channels) != ref->n_channels
      || gst_value_array_get_size (hists) != ref->n_channels) {
    *why = g_strdup_printf ("%u channels, expected %u",
        gst_value_array_get_size (hists), ref->n_channels);
    return FALSE;
  }
  for (c = 0; c < ref->n_channels; c++) {
    const GValue *hist = gst_value_array_get_value (hists, c);
    guint64 binned[REF_HIST_MAX_VALUES];
    const gchar *name = g_value_get_string (gst_value_array_get_value
        (channels, c));

    if (g_strcmp0 (name, ref->names[c]) != 0) {
      *why = g_strdup_printf ("channel %u is %s, expected %s", c, name,
          ref->names[c]);
      return FALSE;
    }
    if (gst_value_array_get_size (hist) != bins) {
      *why = g_strdup_printf ("%s: %u bins, expected %u", name,
          gst_value_array_get_size (hist), bins);
      return FALSE;
    }
    ref_histogram_bin (ref->counts[c], ref->values, bins, binned);
    for (b = 0; b < bins; b++) {
      guint got = g_value_get_uint (gst_value_array_get_value (hist, b));

      if (got != binned[b]) {
        *why = g_strdup_printf ("%s bin %u of %u: %u, expected %"
            G_GUINT64_FORMAT, name, b, bins, got, binned[b]);
        return FALSE;
      }
    }
  }
  return TRUE;
}

/* @out carries one histogram meta, whose histograms are those of @frame. */
static gboolean
check_histogram_meta (GstBuffer * out, GstBuffer * frame,
    const GstVideoInfo * info, guint bins, gchar ** why)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (out, META_NAME);
  RefHistogram ref;

  if (meta == NULL) {
    *why = g_strdup ("no " META_NAME);
    return FALSE;
  }
  histogram_reference (frame, info, &ref);
  return same_histograms (gst_custom_meta_get_structure (meta), &ref, bins,
      why);
}

/* Bins of the meta's first histogram, 0 without a meta. */
static guint
meta_bins (GstBuffer * out)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (out, META_NAME);
  const GValue *hists;

  if (meta == NULL)
    return 0;
  hists = gst_structure_get_value (gst_custom_meta_get_structure (meta),
      "histograms");
  if (hists == NULL || gst_value_array_get_size (hists) == 0)
    return 0;
  return gst_value_array_get_size (gst_value_array_get_value (hists, 0));
}

/* ---- pipelines fed by appsrc ------------------------------------------- */

typedef struct
{
  GstElement *pipeline;
  GstElement *src;
  GstVideoFormat format;
  gint width, height;
  GMutex lock;
  GPtrArray *outputs;           /* buffers that reached the sink, in order */
} Pipe;

static GstPadProbeReturn
collect_output (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Pipe *p = user_data;

  g_mutex_lock (&p->lock);
  g_ptr_array_add (p->outputs,
      gst_buffer_ref (GST_PAD_PROBE_INFO_BUFFER (info)));
  g_mutex_unlock (&p->lock);
  return GST_PAD_PROBE_OK;
}

/* appsrc ! @middle ! fakesink in system memory, the frames that reach the sink collected.
 * NULL and *error set if the description does not parse. The sink does not
 * preroll (async=false), so the pipeline plays before the first frame
 * comes: frames an element still pushes after posting an error (frames in
 * flight) are not held in preroll. */
static Pipe *
pipe_new (const gchar * middle, GstVideoFormat format, gint width,
    gint height, gchar ** error)
{
  Pipe *p = g_new0 (Pipe, 1);
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! %s ! "
      "video/x-raw ! fakesink name=sink sync=false async=false", middle);
  GError *err = NULL;
  GstElement *sink;
  GstCaps *caps;
  GstPad *pad;

  p->pipeline = gst_parse_launch_full (desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &err);
  g_free (desc);
  if (p->pipeline == NULL) {
    *error = g_strdup_printf ("%s: %s", middle, err->message);
    g_clear_error (&err);
    g_free (p);
    return NULL;
  }
  p->format = format;
  p->width = width;
  p->height = height;
  g_mutex_init (&p->lock);
  p->outputs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  p->src = gst_bin_get_by_name (GST_BIN (p->pipeline), "src");
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      gst_video_format_to_string (format), "width", G_TYPE_INT, width,
      "height", G_TYPE_INT, height, "framerate", GST_TYPE_FRACTION, 30, 1,
      NULL);
  gst_app_src_set_caps (GST_APP_SRC (p->src), caps);
  gst_caps_unref (caps);
  sink = gst_bin_get_by_name (GST_BIN (p->pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, collect_output, p, NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  return p;
}

static GstElement *
pipe_get (Pipe * p, const gchar * name)
{
  return gst_bin_get_by_name (GST_BIN (p->pipeline), name);
}

/* Sets the pipeline playing, pushes @frames (keeping the caller's refs) with
 * timestamps from 0, @pace_us apart, and ends the stream; returns the first
 * EOS or ERROR message, or NULL when none came in time or the pipeline did
 * not start. Element messages on the way are appended to @element_msgs if
 * given. */
static GstMessage *
pipe_play_paced (Pipe * p, GstBuffer ** frames, guint n, gulong pace_us,
    GPtrArray * element_msgs)
{
  GstBus *bus = gst_element_get_bus (p->pipeline);
  GstMessage *msg;
  guint i;

  if (gst_element_set_state (p->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* The error says why. */
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    gst_object_unref (bus);
    return msg;
  }
  for (i = 0; i < n; i++) {
    /* A copy of its own, so that the caller's frame is what went in even
     * if an element wrote to its input. */
    GstBuffer *buf = gst_buffer_copy_deep (frames[i]);

    GST_BUFFER_PTS (buf) = i * FRAME_DURATION;
    GST_BUFFER_DURATION (buf) = FRAME_DURATION;
    /* After an error appsrc refuses the rest: not checked here. */
    gst_app_src_push_buffer (GST_APP_SRC (p->src), buf);
    if (pace_us)
      g_usleep (pace_us);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (p->src));

  for (;;) {
    msg = gst_bus_timed_pop_filtered (bus, WAIT, GST_MESSAGE_EOS |
        GST_MESSAGE_ERROR | (element_msgs ? GST_MESSAGE_ELEMENT : 0));
    if (msg == NULL || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ELEMENT)
      break;
    g_ptr_array_add (element_msgs, msg);
  }
  gst_object_unref (bus);
  return msg;
}

static GstMessage *
pipe_play (Pipe * p, GstBuffer ** frames, guint n, GPtrArray * element_msgs)
{
  return pipe_play_paced (p, frames, n, 0, element_msgs);
}

/* The buffers that reached the sink; the pipeline must be stopped. */
static GstBuffer *
pipe_output (Pipe * p, guint i)
{
  return i < p->outputs->len ? g_ptr_array_index (p->outputs, i) : NULL;
}

/* Back to NULL; the outputs stay until pipe_reset_outputs(). */
static GstStateChangeReturn
pipe_stop (Pipe * p)
{
  return gst_element_set_state (p->pipeline, GST_STATE_NULL);
}

static void
pipe_reset_outputs (Pipe * p)
{
  g_mutex_lock (&p->lock);
  g_ptr_array_set_size (p->outputs, 0);
  g_mutex_unlock (&p->lock);
}

static void
pipe_free (Pipe * p)
{
  gst_element_set_state (p->pipeline, GST_STATE_NULL);
  gst_object_unref (p->src);
  gst_object_unref (p->pipeline);
  g_ptr_array_unref (p->outputs);
  g_mutex_clear (&p->lock);
  g_free (p);
}

/* Description of an unexpected EOS / ERROR / missing message. */
static gchar *
describe (GstMessage * msg)
{
  GError *err = NULL;
  gchar *debug = NULL, *ret;

  if (msg == NULL)
    return g_strdup ("no EOS or error in time");
  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR)
    return g_strdup_printf ("%s from %s", GST_MESSAGE_TYPE_NAME (msg),
        GST_MESSAGE_SRC_NAME (msg));
  gst_message_parse_error (msg, &err, &debug);
  ret = g_strdup_printf ("error from %s: %s (%s)", GST_MESSAGE_SRC_NAME (msg),
      err->message, debug ? debug : "");
  g_clear_error (&err);
  g_free (debug);
  return ret;
}

static GstBuffer **
random_frames (GRand * rand, guint n, GstVideoFormat format, gint width,
    gint height, guint padding, GstVideoInfo * info)
{
  GstBuffer **frames = g_new0 (GstBuffer *, n);
  guint i;

  for (i = 0; i < n; i++)
    frames[i] = hipf_test_frame_new_with_rand (rand, format, width, height,
        padding, info);
  return frames;
}

static void
free_frames (GstBuffer ** frames, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    gst_buffer_unref (frames[i]);
  g_free (frames);
}

/* What an element does to a frame, for checking its outputs. */
typedef struct
{
  const gchar *factory;
  const gchar *launch;          /* the element in a launch line, named f */
  gint rx, ry;                  /* hipboxblur */
  RefBorder border;
} Filter;

static const Filter blur_filter = {
  "hipboxblur", "hipboxblur name=f radius=2 border-mode=mirror", 2, 2,
  REF_BORDER_MIRROR
};

static const Filter blur_in_flight_filter = {
  "hipboxblur", "hipboxblur name=f radius=2 border-mode=mirror "
      "frames-in-flight=4", 2, 2, REF_BORDER_MIRROR
};

static const Filter histogram_filter = {
  "hiphistogram", "hiphistogram name=f", 0, 0, 0
};

static const Filter histogram_in_flight_filter = {
  "hiphistogram", "hiphistogram name=f frames-in-flight=4", 0, 0, 0
};

/* Output @out is what @filter makes of input @in, and has the timestamp of
 * input number @index. */
static gboolean
check_output (const Filter * filter, GstBuffer * out, GstBuffer * in,
    const GstVideoInfo * info, guint index, gchar ** why)
{
  gchar *where = NULL;
  gboolean ok;

  if (GST_BUFFER_PTS (out) != index * FRAME_DURATION) {
    *why = g_strdup_printf ("output %u has the timestamp %" GST_TIME_FORMAT,
        index, GST_TIME_ARGS (GST_BUFFER_PTS (out)));
    return FALSE;
  }
  if (g_str_equal (filter->factory, "hipboxblur"))
    ok = check_blur (out, in, info, filter->rx, filter->ry, filter->border,
        &where);
  else
    ok = same_frame (out, in, GST_VIDEO_INFO_FORMAT (info),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), &where)
        && check_histogram_meta (out, in, info, 256, &where);
  if (!ok) {
    *why = g_strdup_printf ("output %u: %s", index, where);
    g_free (where);
  }
  return ok;
}

/* Runs @n fresh frames through @filter and checks that all come out
 * right: the pipeline works, whatever happened before in the process. */
static void
check_clean_run (const Filter * filter, GstVideoFormat format, gint width,
    gint height, guint n)
{
  GstVideoInfo info;
  GstBuffer **frames = random_frames (hipf_test_rand (), n, format, width,
      height, 0, &info);
  gchar *error = NULL;
  Pipe *p = pipe_new (filter->launch, format, width, height, &error);
  GstMessage *msg;
  guint i;

  fail_unless (p != NULL, "%s", error);
  msg = pipe_play (p, frames, n, NULL);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s: %s",
      filter->factory, describe (msg));
  gst_message_unref (msg);
  fail_unless_equals_int (pipe_stop (p), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (p->outputs->len, n);
  for (i = 0; i < n; i++) {
    gchar *why = NULL;

    fail_unless (check_output (filter, pipe_output (p, i), frames[i], &info, i,
            &why), "%s: %s (seed %u)", filter->factory, why,
        hipf_test_seed ());
  }
  pipe_free (p);
  free_frames (frames, n);
}

/* ---- (a) failure injection --------------------------------------------- */

typedef struct
{
  const gchar *spec;            /* GST_HIP_FAIL */
  const gchar *call;            /* in the error message: the failed call */
  hipError_t error;             /* whose hipGetErrorString() it names */
  gint code;                    /* GstResourceError */
  /* Frames out before the failure: one plane, one copy up, one launch,
   * one copy down (hipboxblur) or of the counts (hiphistogram) and one
   * synchronization a frame; -1: not checked (allocations are made at
   * negotiation, which may be retried). */
  gint good;
} FailCase;

static const FailCase fail_cases[] = {
  {"alloc:1", "allocate", hipErrorOutOfMemory,
      GST_RESOURCE_ERROR_NO_SPACE_LEFT, -1},
  {"alloc:3", "allocate", hipErrorOutOfMemory,
      GST_RESOURCE_ERROR_NO_SPACE_LEFT, -1},
  {"copy:2", "hipMemcpy", hipErrorLaunchFailure, GST_RESOURCE_ERROR_FAILED, 0},
  {"copy:7", "hipMemcpy", hipErrorLaunchFailure, GST_RESOURCE_ERROR_FAILED, 3},
  {"launch:3", "hipf_", hipErrorLaunchFailure, GST_RESOURCE_ERROR_FAILED, 2},
  {"sync:4", "Synchronize", hipErrorLaunchFailure,
      GST_RESOURCE_ERROR_FAILED, 3},
  /* A list, whose first entry is never reached. */
  {"copy:1000, launch:5", "hipf_", hipErrorLaunchFailure,
      GST_RESOURCE_ERROR_FAILED, 4},
};

#define FAIL_FRAMES 10

static void
check_fail_injection (const Filter * filter)
{
  GstVideoInfo info;
  GstBuffer **frames = random_frames (hipf_test_rand (), FAIL_FRAMES,
      GST_VIDEO_FORMAT_RGBA, 64, 48, 0, &info);
  guint c, i;

  for (c = 0; c < G_N_ELEMENTS (fail_cases); c++) {
    const FailCase *fc = &fail_cases[c];
    const gchar *hip_error = hipGetErrorString (fc->error);
    gchar *error = NULL, *debug = NULL;
    GError *err = NULL;
    GstElement *f;
    GstMessage *msg;
    GstState state;
    Pipe *p;

    /* Read when the element opens its device, as it starts. */
    g_setenv ("GST_HIP_FAIL", fc->spec, TRUE);
    p = pipe_new (filter->launch, GST_VIDEO_FORMAT_RGBA, 64, 48, &error);
    fail_unless (p != NULL, "%s", error);
    f = pipe_get (p, "f");
    msg = pipe_play (p, frames, FAIL_FRAMES, NULL);
    g_unsetenv ("GST_HIP_FAIL");

    fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
        "%s with GST_HIP_FAIL=%s: %s", filter->factory, fc->spec,
        describe (msg));
    gst_message_parse_error (msg, &err, &debug);
    GST_INFO ("GST_HIP_FAIL=%s: %s (%s)", fc->spec, err->message, debug);
    fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (f), "%s: %s",
        fc->spec, describe (msg));
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR, fc->code),
        "%s: %s", fc->spec, err->message);
    fail_unless (strstr (err->message, hip_error) != NULL,
        "%s: '%s' does not name the HIP error '%s'", fc->spec, err->message,
        hip_error);
    fail_unless (strstr (err->message, fc->call) != NULL,
        "%s: '%s' does not name the failed call (%s)", fc->spec, err->message,
        fc->call);
    fail_unless (debug && strstr (debug, "GST_HIP_FAIL") != NULL,
        "%s: debug '%s' does not say the failure was injected", fc->spec,
        debug);
    g_clear_error (&err);
    g_free (debug);
    gst_message_unref (msg);
    /* A frame that failed: the source posts an error of its own once the
     * element returned it the error, so what the element still pushed
     * before that has arrived. (Refused caps it offers again instead.) */
    if (fc->good >= 0) {
      msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p->pipeline), WAIT,
          GST_MESSAGE_ERROR);
      fail_unless (msg && GST_MESSAGE_SRC (msg) == GST_OBJECT (p->src),
          "%s: %s", fc->spec, describe (msg));
      gst_message_unref (msg);
    }

    /* Down to NULL cleanly. */
    fail_unless_equals_int (pipe_stop (p), GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_get_state (p->pipeline, &state, NULL,
            0), GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (state, GST_STATE_NULL);

    /* Nothing lost or damaged before the failure, nothing after it, with
     * frames in flight too: those started before a frame that fails to
     * start still leave, and a wait fails after the frames before it left
     * (calls per frame are counted alike whatever the number in flight). */
    if (fc->good >= 0)
      fail_unless_equals_int (p->outputs->len, fc->good);
    GST_INFO ("%s GST_HIP_FAIL=%s: %u frames out", filter->launch, fc->spec,
        p->outputs->len);
    fail_unless (p->outputs->len < FAIL_FRAMES, "%s: all frames came out",
        fc->spec);
    for (i = 0; i < p->outputs->len; i++) {
      gchar *why = NULL;

      fail_unless (check_output (filter, pipe_output (p, i), frames[i], &info,
              i, &why), "%s %s: %s (seed %u)", filter->factory, fc->spec, why,
          hipf_test_seed ());
    }
    gst_object_unref (f);
    pipe_free (p);

    /* The variable unset, a fresh pipeline in this process works. */
    check_clean_run (filter, GST_VIDEO_FORMAT_RGBA, 64, 48, FAIL_FRAMES);
  }
  free_frames (frames, FAIL_FRAMES);
}

GST_START_TEST (test_fail_injection_boxblur)
{
  check_fail_injection (&blur_filter);
}

GST_END_TEST;

GST_START_TEST (test_fail_injection_boxblur_in_flight)
{
  check_fail_injection (&blur_in_flight_filter);
}

GST_END_TEST;

GST_START_TEST (test_fail_injection_histogram)
{
  check_fail_injection (&histogram_filter);
}

GST_END_TEST;

GST_START_TEST (test_fail_injection_histogram_in_flight)
{
  check_fail_injection (&histogram_in_flight_filter);
}

GST_END_TEST;

/* Malformed values of GST_HIP_FAIL are ignored: nothing fails. */
GST_START_TEST (test_fail_injection_ignores_garbage)
{
  static const gchar *specs[] = {
    "", "bogus", "copy", "copy:", "copy:0", "copy:-1", "copy:x", "free:1",
    ",,,", "launch:1x",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (specs); i++) {
    g_setenv ("GST_HIP_FAIL", specs[i], TRUE);
    check_clean_run (&blur_filter, GST_VIDEO_FORMAT_GRAY8, 17, 9, 3);
    check_clean_run (&histogram_filter, GST_VIDEO_FORMAT_GRAY8, 17, 9, 3);
  }
  g_unsetenv ("GST_HIP_FAIL");
}

GST_END_TEST;

/* ---- harness helpers --------------------------------------------------- */

/* The element of @filter, set up as the filter says. */
static GstHarness *
harness_new (const Filter * filter, GstBus ** bus)
{
  GstHarness *h = gst_harness_new (filter->factory);

  if (g_str_equal (filter->factory, "hipboxblur")) {
    g_object_set (h->element, "radius", 0, "radius-x", filter->rx,
        "radius-y", filter->ry, NULL);
    gst_util_set_object_arg (G_OBJECT (h->element), "border-mode",
        ref_border_nicks[filter->border]);
  }
  *bus = gst_bus_new ();
  gst_element_set_bus (h->element, *bus);
  return h;
}

static gchar *
caps_string (GstVideoFormat format, gint width, gint height)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);
}

static void
harness_set_caps (GstHarness * h, GstVideoFormat format, gint width,
    gint height)
{
  gchar *caps = caps_string (format, width, height);

  gst_harness_set_caps_str (h, caps, caps);
  g_free (caps);
}

static void
harness_free (GstHarness * h, GstBus * bus)
{
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

/* Pushes a random frame through the harness and checks the output. */
static void
harness_check_frame (GstHarness * h, const Filter * filter,
    GstVideoFormat format, gint width, gint height, guint padding)
{
  GstVideoInfo info;
  GstBuffer *in = hipf_test_frame_new (format, width, height,
      padding, &info);
  GstBuffer *out;
  GstFlowReturn ret;
  gchar *why = NULL;

  GST_BUFFER_PTS (in) = 0;
  ret = gst_harness_push (h, gst_buffer_copy_deep (in));
  if (ret != GST_FLOW_OK) {
    GstBus *bus = gst_element_get_bus (h->element);

    fail ("%s %s %dx%d: %s, %s", filter->factory,
        gst_video_format_to_string (format), width, height,
        gst_flow_get_name (ret), describe (bus ?
            gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) : NULL));
  }
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", filter->factory);
  fail_unless (check_output (filter, out, in, &info, 0, &why),
      "%s %s %dx%d: %s (seed %u)", filter->factory,
      gst_video_format_to_string (format), width, height, why,
      hipf_test_seed ());
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* The one error message on @bus comes from the element, in @domain. */
static void
expect_error (GstBus * bus, GstHarness * h, GQuark domain,
    const gchar * contains, const gchar * ctx)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *debug = NULL;

  fail_unless (msg != NULL, "%s: no error posted", ctx);
  gst_message_parse_error (msg, &err, &debug);
  GST_INFO ("%s: %s (%s)", ctx, err->message, debug);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (h->element), "%s: %s",
      ctx, describe (msg));
  fail_unless (err->domain == domain, "%s: %s", ctx, err->message);
  if (contains)
    fail_unless (strstr (err->message, contains) != NULL, "%s: '%s' does not "
        "say '%s'", ctx, err->message, contains);
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
  /* Drained, so that the next check sees only its own. */
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)))
    gst_message_unref (msg);
}

/* ---- (b) malformed buffers --------------------------------------------- */

/* Buffers smaller than the caps say: an element error and GST_FLOW_ERROR,
 * nothing pushed on, and the next good frame comes out right. */
static void
check_short_buffers (const Filter * filter)
{
  GstBus *bus;
  GstHarness *h = harness_new (filter, &bus);
  GstVideoInfo info;
  gsize sizes[4];
  guint i;

  harness_set_caps (h, GST_VIDEO_FORMAT_I420, 64, 48);
  harness_check_frame (h, filter, GST_VIDEO_FORMAT_I420, 64, 48, 0);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64, 48);
  sizes[0] = info.size - 1;
  sizes[1] = info.size / 2;
  sizes[2] = 1;
  sizes[3] = 0;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    GstBuffer *buf = sizes[i] ? gst_buffer_new_allocate (NULL, sizes[i], NULL)
        : gst_buffer_new ();
    gchar *ctx = g_strdup_printf ("%s: %" G_GSIZE_FORMAT "-byte buffer for "
        "%" G_GSIZE_FORMAT "-byte caps", filter->factory, sizes[i], info.size);
    GstFlowReturn ret;

    if (sizes[i])
      gst_buffer_memset (buf, 0, 0x5a, sizes[i]);
    ret = gst_harness_push (h, buf);
    fail_unless (ret == GST_FLOW_ERROR, "%s: returned %s, expected an error",
        ctx, gst_flow_get_name (ret));
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    expect_error (bus, h, GST_STREAM_ERROR, NULL, ctx);
    g_free (ctx);
  }
  harness_check_frame (h, filter, GST_VIDEO_FORMAT_I420, 64, 48, 0);
  harness_free (h, bus);
}

GST_START_TEST (test_short_buffer_boxblur)
{
  check_short_buffers (&blur_filter);
}

GST_END_TEST;

GST_START_TEST (test_short_buffer_histogram)
{
  check_short_buffers (&histogram_filter);
}

GST_END_TEST;

/* A buffer of the caps' size whose video meta describes planes that run
 * past its end (strides twice the buffer's): refused the same way, and
 * never read beyond the buffer. */
static void
check_meta_overrun (const Filter * filter)
{
  GstBus *bus;
  GstHarness *h = harness_new (filter, &bus);
  GstVideoInfo info;
  GstBuffer *buf;
  GstFlowReturn ret;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  guint p;

  harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  harness_check_frame (h, filter, GST_VIDEO_FORMAT_GRAY8, 64, 48, 0);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++)
    stride[p] = 2 * GST_VIDEO_INFO_PLANE_STRIDE (&info, p);
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_memset (buf, 0, 0x33, info.size);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_GRAY8, 64, 48, GST_VIDEO_INFO_N_PLANES (&info), offset,
      stride);
  ret = gst_harness_push (h, buf);
  fail_unless (ret == GST_FLOW_ERROR, "%s: a %" G_GSIZE_FORMAT "-byte buffer "
      "whose meta says %d-byte rows returned %s, expected an error",
      filter->factory, info.size, stride[0], gst_flow_get_name (ret));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  expect_error (bus, h, GST_STREAM_ERROR, NULL, filter->factory);
  harness_check_frame (h, filter, GST_VIDEO_FORMAT_GRAY8, 64, 48, 0);
  harness_free (h, bus);
}

GST_START_TEST (test_meta_overrun_boxblur)
{
  check_meta_overrun (&blur_filter);
}

GST_END_TEST;

GST_START_TEST (test_meta_overrun_histogram)
{
  check_meta_overrun (&histogram_filter);
}

GST_END_TEST;

/* ---- (c) frames too large ---------------------------------------------- */

/* Sends caps that cannot be set up: the caps event is refused, a buffer
 * pushed after them is not negotiated and nothing comes out. */
static void
refuse_caps (GstHarness * h, const gchar * caps_str, const gchar * ctx)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstBuffer *small = gst_buffer_new_allocate (NULL, 64, NULL);
  GstPad *sinkpad = gst_element_get_static_pad (h->element, "sink");
  GstCaps *current;
  GstSegment segment;
  GstFlowReturn ret;

  gst_harness_set_sink_caps (h, gst_caps_ref (caps));
  /* The harness stores a sticky event even when it is refused: whether it
   * was taken shows on the element's pad. */
  gst_harness_push_event (h, gst_event_new_caps (caps));
  current = gst_pad_get_current_caps (sinkpad);
  fail_if (current && gst_caps_is_equal (current, caps), "%s: caps %s "
      "accepted", ctx, caps_str);
  gst_clear_caps (&current);
  gst_caps_unref (caps);
  gst_object_unref (sinkpad);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_harness_push_event (h, gst_event_new_segment (&segment));
  gst_buffer_memset (small, 0, 0, 64);
  ret = gst_harness_push (h, small);
  fail_unless (ret == GST_FLOW_NOT_NEGOTIATED, "%s: pushing after refused "
      "caps returned %s", ctx, gst_flow_get_name (ret));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
}

/* Beyond what GStreamer describes (frames of 4 GiB and more): refused at
 * negotiation, before the element allocates anything. */
static void
check_huge_caps (const Filter * filter)
{
  GstBus *bus;
  GstHarness *h = harness_new (filter, &bus);
  GstMessage *msg;

  refuse_caps (h, "video/x-raw,format=RGBA,width=100000,height=100000,"
      "framerate=30/1", filter->factory);
  refuse_caps (h, "video/x-raw,format=Y444,width=65536,height=65536,"
      "framerate=30/1", filter->factory);
  /* No allocation was attempted, so no allocation error. */
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL, "%s", describe (msg));
  /* Fine with caps it can handle. */
  harness_set_caps (h, GST_VIDEO_FORMAT_RGBA, 64, 48);
  harness_check_frame (h, filter, GST_VIDEO_FORMAT_RGBA, 64, 48, 0);
  harness_free (h, bus);
}

/* A buffer before any caps (a source that sets none, say filesrc): not
 * negotiated, no critical (the check library fails on any), nothing out.
 * (Caps after the segment would be misordered: a stream that gets caps
 * later is a new harness's.) */
static void
check_no_caps (const Filter * filter)
{
  GstBus *bus;
  GstHarness *h = harness_new (filter, &bus);
  GstSegment segment;
  GstFlowReturn ret;

  gst_harness_push_event (h, gst_event_new_stream_start ("no-caps"));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_harness_push_event (h, gst_event_new_segment (&segment));
  ret = gst_harness_push (h, gst_buffer_new_allocate (NULL, 64, NULL));
  fail_unless (ret == GST_FLOW_NOT_NEGOTIATED, "%s: a buffer without caps "
      "returned %s", filter->factory, gst_flow_get_name (ret));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  harness_free (h, bus);
}

GST_START_TEST (test_no_caps_boxblur)
{
  check_no_caps (&blur_filter);
}

GST_END_TEST;

GST_START_TEST (test_no_caps_histogram)
{
  check_no_caps (&histogram_filter);
}

GST_END_TEST;

GST_START_TEST (test_huge_caps_boxblur)
{
  check_huge_caps (&blur_filter);
}

GST_END_TEST;

GST_START_TEST (test_huge_caps_histogram)
{
  check_huge_caps (&histogram_filter);
}

GST_END_TEST;

/* Takes nearly all free device memory, in blocks of 1 GiB down to 16 MiB. */
static GPtrArray *
hog_device_memory (void)
{
  GPtrArray *blocks = g_ptr_array_new ();
  gsize block;
  size_t free_mem = 0, total = 0;

  for (block = (gsize) 1 << 30; block >= (gsize) 16 << 20; block /= 2) {
    void *ptr = NULL;

    while (hipMalloc (&ptr, block) == hipSuccess)
      g_ptr_array_add (blocks, ptr);
    (void) hipGetLastError ();
  }
  fail_unless (hipMemGetInfo (&free_mem, &total) == hipSuccess);
  GST_INFO ("holding %u blocks; %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
      " bytes free", blocks->len, (gsize) free_mem, (gsize) total);
  fail_unless (free_mem < ((gsize) 512 << 20), "%" G_GSIZE_FORMAT " bytes "
      "still free", (gsize) free_mem);
  return blocks;
}

static void
release_device_memory (GPtrArray * blocks)
{
  guint i;

  for (i = 0; i < blocks->len; i++)
    fail_unless (hipFree (g_ptr_array_index (blocks, i)) == hipSuccess);
  g_ptr_array_unref (blocks);
}

/* A frame larger than the device memory left: the allocation fails with an
 * element error that says so; once memory is back the element works. The
 * test holds nearly all device memory for a moment, which is why the test
 * program does not run in parallel with others. */
static void
check_device_out_of_memory (const Filter * filter)
{
  GstBus *bus;
  GstHarness *h = harness_new (filter, &bus);
  const gchar *caps = "video/x-raw,format=RGBA,width=16384,height=16384,"
      "framerate=30/1";
  gchar *ctx = g_strdup_printf ("%s, 1 GiB frame, device memory taken",
      filter->factory);
  GPtrArray *hog;

  /* The element has its device and stream: only the frame is missing. */
  harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 16, 16);
  harness_check_frame (h, filter, GST_VIDEO_FORMAT_GRAY8, 16, 16, 0);

  hog = hog_device_memory ();
  refuse_caps (h, caps, ctx);
  release_device_memory (hog);
  expect_error (bus, h, GST_RESOURCE_ERROR, "allocate", ctx);
  /* expect_error() drained the bus; check the words of a fresh one. */
  hog = hog_device_memory ();
  refuse_caps (h, caps, ctx);
  release_device_memory (hog);
  {
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    GError *err = NULL;

    fail_unless (msg != NULL, "%s: no error", ctx);
    gst_message_parse_error (msg, &err, NULL);
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_NO_SPACE_LEFT), "%s: %s", ctx, err->message);
    fail_unless (strstr (err->message, hipGetErrorString (hipErrorOutOfMemory))
        != NULL, "%s: %s", ctx, err->message);
    {
      /* "Could not allocate <bytes> bytes ...": at least the frame's. */
      const gchar *at = strstr (err->message, "allocate ");
      guint64 bytes = at ? g_ascii_strtoull (at + 9, NULL, 10) : 0;

      fail_unless (bytes >= ((guint64) 1 << 30), "%s: '%s' does not give "
          "the size", ctx, err->message);
    }
    g_clear_error (&err);
    gst_message_unref (msg);
    /* The caps are offered again with the buffer: one error each time. */
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)))
      gst_message_unref (msg);
  }

  /* Memory is back: smaller caps and frames work, the failed allocation
   * leaves nothing behind that fails them. */
  harness_set_caps (h, GST_VIDEO_FORMAT_RGBA, 64, 48);
  harness_check_frame (h, filter, GST_VIDEO_FORMAT_RGBA, 64, 48, 0);
  g_free (ctx);
  harness_free (h, bus);
}

GST_START_TEST (test_device_out_of_memory_boxblur)
{
  check_device_out_of_memory (&blur_filter);
}

GST_END_TEST;

GST_START_TEST (test_device_out_of_memory_histogram)
{
  check_device_out_of_memory (&histogram_filter);
}

GST_END_TEST;

/* ---- (d) renegotiation ------------------------------------------------- */

typedef struct
{
  GstVideoFormat format;
  gint width, height;
  guint padding;
} Shape;

static void
check_renegotiation (const Filter * filter)
{
  static const Shape shapes[] = {
    {GST_VIDEO_FORMAT_RGBA, 64, 48, 0},
    {GST_VIDEO_FORMAT_NV12, 97, 33, 0},
    {GST_VIDEO_FORMAT_GRAY8, 1, 1, 0},
    {GST_VIDEO_FORMAT_I420, 333, 211, 7},
    {GST_VIDEO_FORMAT_RGB, 31, 5, 3},
    {GST_VIDEO_FORMAT_RGBA, 64, 48, 0},
  };
  GstBus *bus;
  GstHarness *h = harness_new (filter, &bus);
  GstMessage *msg;
  guint s, i;

  for (s = 0; s < G_N_ELEMENTS (shapes); s++) {
    harness_set_caps (h, shapes[s].format, shapes[s].width, shapes[s].height);
    for (i = 0; i < 3; i++)
      harness_check_frame (h, filter, shapes[s].format, shapes[s].width,
          shapes[s].height, i == 2 ? shapes[s].padding : 0);
  }
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
  fail_unless (msg == NULL, "%s", describe (msg));
  harness_free (h, bus);
}

GST_START_TEST (test_renegotiation_boxblur)
{
  check_renegotiation (&blur_filter);
}

GST_END_TEST;

GST_START_TEST (test_renegotiation_histogram)
{
  check_renegotiation (&histogram_filter);
}

GST_END_TEST;

/* ---- (e) concurrency --------------------------------------------------- */

typedef struct
{
  guint index;
  GstVideoFormat format;
  gint width, height;
  gint rx, ry;
  RefBorder border;
  guint checked;                /* outputs found right */
  gchar *error;                 /* the first problem, NULL if none */
} Worker;

static gpointer
worker_run (gpointer data)
{
  Worker *w = data;
  GRand *rand = g_rand_new_with_seed (hipf_test_seed () + 7919 * w->index);
  gchar *launch = g_strdup_printf ("hipboxblur name=f radius-x=%d "
      "radius-y=%d border-mode=%s", w->rx, w->ry, ref_border_nicks[w->border]);
  Filter filter = { "hipboxblur", launch, w->rx, w->ry, w->border };
  GstVideoInfo info;
  GstBuffer **frames = random_frames (rand, THREAD_FRAMES, w->format, w->width,
      w->height, w->index % 3 == 2 ? 5 : 0, &info);
  Pipe *p = pipe_new (launch, w->format, w->width, w->height, &w->error);
  GstMessage *msg;
  guint i;

  if (p == NULL)
    goto done;
  msg = pipe_play (p, frames, THREAD_FRAMES, NULL);
  if (msg == NULL || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS)
    w->error = describe (msg);
  if (msg)
    gst_message_unref (msg);
  if (pipe_stop (p) != GST_STATE_CHANGE_SUCCESS && !w->error)
    w->error = g_strdup ("did not stop");
  if (!w->error && p->outputs->len != THREAD_FRAMES)
    w->error = g_strdup_printf ("%u outputs of %u frames", p->outputs->len,
        THREAD_FRAMES);
  for (i = 0; !w->error && i < p->outputs->len; i++) {
    if (check_output (&filter, pipe_output (p, i), frames[i], &info, i,
            &w->error))
      w->checked++;
  }
  pipe_free (p);
done:
  free_frames (frames, THREAD_FRAMES);
  g_free (launch);
  g_rand_free (rand);
  return NULL;
}

/* Eight pipelines on one GPU at once, each with its own blur. */
GST_START_TEST (test_parallel_pipelines)
{
  static const GstVideoFormat formats[N_THREADS] = {
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_Y444,
    GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_NV21,
  };
  Worker workers[N_THREADS];
  GThread *threads[N_THREADS];
  guint t;

  for (t = 0; t < N_THREADS; t++) {
    Worker *w = &workers[t];

    memset (w, 0, sizeof (*w));
    w->index = t;
    w->format = formats[t];
    w->width = 160 + 13 * t;
    w->height = 120 - 7 * t;
    w->rx = 1 + t;
    w->ry = (3 * t) % 5;
    w->border = t % REF_N_BORDERS;
  }
  for (t = 0; t < N_THREADS; t++)
    threads[t] = g_thread_new ("worker", worker_run, &workers[t]);
  for (t = 0; t < N_THREADS; t++)
    g_thread_join (threads[t]);
  for (t = 0; t < N_THREADS; t++) {
    Worker *w = &workers[t];

    fail_unless (w->error == NULL, "thread %u (%s %dx%d r %d,%d %s): %s "
        "(seed %u)", t, gst_video_format_to_string (w->format), w->width,
        w->height, w->rx, w->ry, ref_border_nicks[w->border], w->error,
        hipf_test_seed ());
    fail_unless_equals_int (w->checked, THREAD_FRAMES);
  }
}

GST_END_TEST;

/* Six blurs and two histograms in one pipeline: the last output is the
 * six blurs applied in turn, and each histogram counted its own input. */
GST_START_TEST (test_long_chain)
{
  static const struct
  {
    gint rx, ry;
    RefBorder border;
    gint histogram_after;       /* -1, or the histogram that follows */
  } blurs[] = {
    {1, 1, REF_BORDER_MIRROR, 0},
    {2, 2, REF_BORDER_CLAMP, -1},
    {3, 0, REF_BORDER_WRAP, 1},
    {1, 1, REF_BORDER_ZERO, -1},
    {4, 1, REF_BORDER_VALID, -1},
    {0, 2, REF_BORDER_MIRROR, -1},
  };
  static const guint hist_bins[2] = { 256, 64 };
  const guint n = 5;
  GString *launch = g_string_new (NULL);
  GPtrArray *messages = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_message_unref);
  GstVideoInfo info;
  GstBuffer **frames = random_frames (hipf_test_rand (), n,
      GST_VIDEO_FORMAT_NV12, 97, 61, 0, &info);
  gchar *error = NULL;
  GstMessage *msg;
  Pipe *p;
  guint b, i, m, seen[2] = { 0, 0 };
  GstElement *hist[2];

  for (b = 0; b < G_N_ELEMENTS (blurs); b++) {
    g_string_append_printf (launch, "%shipboxblur radius-x=%d radius-y=%d "
        "border-mode=%s", b ? " ! " : "", blurs[b].rx, blurs[b].ry,
        ref_border_nicks[blurs[b].border]);
    if (blurs[b].histogram_after >= 0)
      g_string_append_printf (launch, " ! hiphistogram name=h%d bins=%u",
          blurs[b].histogram_after, hist_bins[blurs[b].histogram_after]);
  }
  p = pipe_new (launch->str, GST_VIDEO_FORMAT_NV12, 97, 61, &error);
  fail_unless (p != NULL, "%s", error);
  hist[0] = pipe_get (p, "h0");
  hist[1] = pipe_get (p, "h1");
  msg = pipe_play (p, frames, n, messages);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s",
      describe (msg));
  gst_message_unref (msg);
  fail_unless_equals_int (pipe_stop (p), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (p->outputs->len, n);

  for (i = 0; i < n; i++) {
    GstBuffer *cur = gst_buffer_ref (frames[i]);
    GstVideoInfo cur_info = info;
    gchar *why = NULL;

    for (b = 0; b < G_N_ELEMENTS (blurs); b++) {
      GstBuffer *next = blur_reference (cur, &cur_info, blurs[b].rx,
          blurs[b].ry, blurs[b].border);

      gst_buffer_unref (cur);
      cur = next;
      gst_video_info_set_format (&cur_info, GST_VIDEO_FORMAT_NV12, 97, 61);
      if (blurs[b].histogram_after >= 0) {
        gint k = blurs[b].histogram_after;
        RefHistogram ref;

        /* Histogram k's i-th message counts this intermediate frame. */
        histogram_reference (cur, &cur_info, &ref);
        for (m = 0, msg = NULL; m < messages->len; m++) {
          GstMessage *e = g_ptr_array_index (messages, m);

          if (GST_MESSAGE_SRC (e) == GST_OBJECT (hist[k])
              && gst_structure_has_name (gst_message_get_structure (e),
                  "hiphistogram")) {
            guint64 ts = 0;

            gst_structure_get_uint64 (gst_message_get_structure (e),
                "timestamp", &ts);
            if (ts == i * FRAME_DURATION) {
              fail_unless (msg == NULL, "two messages of h%d for frame %u", k,
                  i);
              msg = e;
            }
          }
        }
        fail_unless (msg != NULL, "no message of h%d for frame %u", k, i);
        fail_unless (same_histograms (gst_message_get_structure (msg), &ref,
                hist_bins[k], &why), "h%d frame %u: %s (seed %u)", k, i, why,
            hipf_test_seed ());
        seen[k]++;
      }
    }
    fail_unless (same_frame (pipe_output (p, i), cur, GST_VIDEO_FORMAT_NV12,
            97, 61, &why), "frame %u: %s (seed %u)", i, why,
        hipf_test_seed ());
    gst_buffer_unref (cur);
  }
  fail_unless_equals_int (seen[0], n);
  fail_unless_equals_int (seen[1], n);

  gst_object_unref (hist[0]);
  gst_object_unref (hist[1]);
  pipe_free (p);
  g_ptr_array_unref (messages);
  free_frames (frames, n);
  g_string_free (launch, TRUE);
}

GST_END_TEST;

/* ---- (f) properties changed while playing ------------------------------ */

/* Not 0, whose switch to passthrough test_radius_zero_toggle covers. */
static const guint toggle_radius[] = { 1, 3, 5 };
static const RefBorder toggle_border[] = { REF_BORDER_MIRROR, REF_BORDER_WRAP };
static const guint toggle_bins[] = { 1, 16, 256 };

typedef struct
{
  GstElement *blur, *hist;
  gint stop;
  guint changes;
} Toggler;

static gpointer
toggler_run (gpointer data)
{
  Toggler *t = data;
  GRand *rand = g_rand_new_with_seed (hipf_test_seed () + 17);

  while (!g_atomic_int_get (&t->stop)) {
    switch (g_rand_int_range (rand, 0, 3)) {
      case 0:
        g_object_set (t->blur, "radius",
            toggle_radius[g_rand_int_range (rand, 0, 3)], NULL);
        break;
      case 1:
        gst_util_set_object_arg (G_OBJECT (t->blur), "border-mode",
            ref_border_nicks[toggle_border[g_rand_int_range (rand, 0, 2)]]);
        break;
      default:
        g_object_set (t->hist, "bins",
            toggle_bins[g_rand_int_range (rand, 0, 3)], NULL);
        break;
    }
    t->changes++;
    g_usleep (g_rand_int_range (rand, 0, 200));
  }
  g_rand_free (rand);
  return NULL;
}

/* Each output of "hipboxblur name=b radius=1 border-mode=mirror ! hiphistogram
 * name=h bins=256", each element with @extra_blur and @extra_hist, must be
 * one of the blurs the toggler can select (radius and border mode are two
 * properties: any pair of them), and its histogram that of the output in
 * one of the bin counts in use. */
static void
check_properties_while_playing (const gchar * extra_blur,
    const gchar * extra_hist)
{
  const guint n = 120;
  GstVideoInfo info;
  GstBuffer **frames = random_frames (hipf_test_rand (), n,
      GST_VIDEO_FORMAT_RGBA, 96, 64, 0, &info);
  gchar *error = NULL;
  /* Starting from values of the sets the toggler picks from. */
  gchar *launch = g_strdup_printf ("hipboxblur name=b radius=1 "
      "border-mode=mirror %s ! hiphistogram name=h bins=256 %s", extra_blur,
      extra_hist);
  Pipe *p = pipe_new (launch, GST_VIDEO_FORMAT_RGBA, 96, 64, &error);
  Toggler t = { 0 };
  GThread *thread;
  GstMessage *msg;
  guint i, r, m, used[G_N_ELEMENTS (toggle_radius)] = { 0 };
  guint bins_used[G_N_ELEMENTS (toggle_bins)] = { 0 };

  fail_unless (p != NULL, "%s", error);
  t.blur = pipe_get (p, "b");
  t.hist = pipe_get (p, "h");
  thread = g_thread_new ("toggler", toggler_run, &t);
  /* Paced, so that the stream lasts while properties change. */
  msg = pipe_play_paced (p, frames, n, 250, NULL);
  g_atomic_int_set (&t.stop, 1);
  g_thread_join (thread);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s",
      describe (msg));
  gst_message_unref (msg);
  fail_unless_equals_int (pipe_stop (p), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (p->outputs->len, n);
  GST_INFO ("%u property changes during %u frames", t.changes, n);
  fail_unless (t.changes > 10, "only %u changes", t.changes);

  for (i = 0; i < n; i++) {
    GstBuffer *out = pipe_output (p, i);
    guint bins = meta_bins (out);
    gboolean matched = FALSE;
    gchar *why = NULL;

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * FRAME_DURATION);
    for (r = 0; r < G_N_ELEMENTS (toggle_radius) && !matched; r++)
      for (m = 0; m < G_N_ELEMENTS (toggle_border) && !matched; m++) {
        matched = check_blur (out, frames[i], &info, toggle_radius[r],
            toggle_radius[r], toggle_border[m], &why);
        g_clear_pointer (&why, g_free);
        if (matched)
          used[r]++;
      }
    fail_unless (matched, "frame %u is none of the blurs in use (seed %u)",
        i, hipf_test_seed ());
    fail_unless (bins == 1 || bins == 16 || bins == 256, "frame %u: %u bins",
        i, bins);
    bins_used[bins == 1 ? 0 : bins == 16 ? 1 : 2]++;
    {
      GstVideoInfo out_info;

      gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_RGBA, 96, 64);
      fail_unless (check_histogram_meta (out, out, &out_info, bins, &why),
          "frame %u: %s (seed %u)", i, why, hipf_test_seed ());
    }
  }
  GST_INFO ("outputs of radius 1 / 3 / 5: %u / %u / %u, of 1 / 16 / 256 "
      "bins: %u / %u / %u", used[0], used[1], used[2], bins_used[0],
      bins_used[1], bins_used[2]);
  /* The changes reached the stream while it ran. */
  fail_unless ((used[0] > 0) + (used[1] > 0) + (used[2] > 0) >= 2,
      "one radius for all frames");
  fail_unless ((bins_used[0] > 0) + (bins_used[1] > 0) + (bins_used[2] > 0)
      >= 2, "one bin count for all frames");

  gst_object_unref (t.blur);
  gst_object_unref (t.hist);
  pipe_free (p);
  free_frames (frames, n);
  g_free (launch);
}

GST_START_TEST (test_properties_while_playing)
{
  check_properties_while_playing ("", "");
}

GST_END_TEST;

/* Each frame is blurred and counted with the properties of when it
 * entered its element, whenever it leaves. */
GST_START_TEST (test_properties_while_playing_in_flight)
{
  check_properties_while_playing ("frames-in-flight=3", "frames-in-flight=4");
}

GST_END_TEST;

/* Radius 0 switches the element to passthrough: flipping between 0 and 1
 * as fast as possible while small frames stream through, every output is
 * the frame itself or its blur, and nothing else happens (no critical, no
 * error). */
#define TOGGLE_FRAMES 20000

typedef struct
{
  GstElement *e;
  gint stop;
} Flipper;

static gpointer
flipper_run (gpointer data)
{
  Flipper *f = data;
  guint i = 0;

  while (!g_atomic_int_get (&f->stop))
    g_object_set (f->e, "radius", (i++ & 1) ? 0u : 1u, NULL);
  return NULL;
}

GST_START_TEST (test_radius_zero_toggle)
{
  GstBus *bus;
  Filter one = { "hipboxblur", NULL, 1, 1, REF_BORDER_MIRROR };
  GstHarness *h = harness_new (&one, &bus);
  Flipper f = { h->element, 0 };
  GThread *thread;
  guint i, same = 0, blurred = 0;
  GstMessage *msg;

  g_object_set (h->element, "radius", 1, "radius-x", -1, "radius-y", -1,
      NULL);
  harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 8, 8);
  thread = g_thread_new ("flipper", flipper_run, &f);
  for (i = 0; i < TOGGLE_FRAMES; i++) {
    GstVideoInfo info;
    GstBuffer *in = hipf_test_frame_new (GST_VIDEO_FORMAT_GRAY8,
        8, 8, 0, &info);
    GstBuffer *out;
    GstFlowReturn ret;
    gchar *why = NULL;

    GST_BUFFER_PTS (in) = i * FRAME_DURATION;
    ret = gst_harness_push (h, gst_buffer_copy_deep (in));
    if (ret != GST_FLOW_OK) {
      g_atomic_int_set (&f.stop, 1);
      g_thread_join (thread);
      fail ("frame %u: %s, %s", i, gst_flow_get_name (ret),
          describe (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)));
    }
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    if (same_frame (out, in, GST_VIDEO_FORMAT_GRAY8, 8, 8, &why)) {
      same++;
    } else {
      g_clear_pointer (&why, g_free);
      if (check_blur (out, in, &info, 1, 1, REF_BORDER_MIRROR, &why)) {
        blurred++;
      } else {
        g_atomic_int_set (&f.stop, 1);
        g_thread_join (thread);
        fail ("frame %u is neither the frame nor its blur: %s (seed %u)", i,
            why, hipf_test_seed ());
      }
    }
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  g_atomic_int_set (&f.stop, 1);
  g_thread_join (thread);
  GST_INFO ("%u frames passed through, %u blurred", same, blurred);
  /* Both kinds, or the switch never happened while streaming. (A random
   * 8x8 frame equal to its own blur does not happen.) */
  fail_unless (same > 0 && blurred > 0, "%u passed through, %u blurred",
      same, blurred);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
  fail_unless (msg == NULL, "%s", describe (msg));
  harness_free (h, bus);
}

GST_END_TEST;

/* ---- (g) start / stop cycles ------------------------------------------- */

GST_START_TEST (test_play_cycles)
{
  gchar *error = NULL;
  Pipe *p = pipe_new ("hipboxblur radius=2 border-mode=clamp ! hiphistogram "
      "bins=32", GST_VIDEO_FORMAT_RGBA, 32, 24, &error);
  Filter blur = { "hipboxblur", NULL, 2, 2, REF_BORDER_CLAMP };
  gint64 start = g_get_monotonic_time ();
  guint c;

  fail_unless (p != NULL, "%s", error);
  for (c = 0; c < PLAY_CYCLES; c++) {
    GstVideoInfo info, out_info;
    GstBuffer *frame = hipf_test_frame_new (GST_VIDEO_FORMAT_RGBA,
        32, 24, 0, &info);
    GstMessage *msg = pipe_play (p, &frame, 1, NULL);
    gchar *why = NULL;

    fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
        "cycle %u: %s", c, describe (msg));
    gst_message_unref (msg);
    fail_unless_equals_int (pipe_stop (p), GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (p->outputs->len, 1);
    fail_unless (check_output (&blur, pipe_output (p, 0), frame, &info, 0,
            &why), "cycle %u: %s (seed %u)", c, why, hipf_test_seed ());
    gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_RGBA, 32, 24);
    fail_unless (check_histogram_meta (pipe_output (p, 0), pipe_output (p, 0),
            &out_info, 32, &why), "cycle %u: %s", c, why);
    pipe_reset_outputs (p);
    gst_buffer_unref (frame);
  }
  g_print ("%u play/stop cycles in %.1f s\n", PLAY_CYCLES,
      (g_get_monotonic_time () - start) / 1e6);
  ASSERT_OBJECT_REFCOUNT (p->pipeline, "pipeline", 1);
  pipe_free (p);
}

GST_END_TEST;

/* The frames that reached the sink are the first of @frames, blurred as
 * @filter does, in order; @what names the case. */
static void
check_outputs (Pipe * p, const Filter * filter, GstBuffer ** frames,
    const GstVideoInfo * info, const gchar * what, guint cycle)
{
  guint i;

  for (i = 0; i < p->outputs->len; i++) {
    gchar *why = NULL;

    fail_unless (check_output (filter, pipe_output (p, i), frames[i], info, i,
            &why), "cycle %u, %s, frame %u: %s (seed %u)", cycle, what, i,
        why, hipf_test_seed ());
  }
}

/* The same with frames in flight in both elements, whose threads that push
 * frames done start and stop each cycle: frames played to EOS all come
 * out, exact and in order, and a stop with frames still in flight neither
 * hangs nor fails, what came out of it exact and in order. */
GST_START_TEST (test_play_cycles_in_flight)
{
  gchar *error = NULL;
  Pipe *p = pipe_new ("hipboxblur radius=2 border-mode=clamp "
      "frames-in-flight=3 ! hiphistogram bins=32 frames-in-flight=2",
      GST_VIDEO_FORMAT_RGBA, 32, 24, &error);
  Filter blur = { "hipboxblur", NULL, 2, 2, REF_BORDER_CLAMP };
  GstVideoInfo info;
  GstBuffer **frames = random_frames (hipf_test_rand (), 4,
      GST_VIDEO_FORMAT_RGBA, 32, 24, 0, &info);
  guint c, i;

  fail_unless (p != NULL, "%s", error);
  for (c = 0; c < PLAY_CYCLES / 10; c++) {
    GstMessage *msg = pipe_play (p, frames, 4, NULL);

    fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
        "cycle %u: %s", c, describe (msg));
    gst_message_unref (msg);
    fail_unless_equals_int (pipe_stop (p), GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (p->outputs->len, 4);
    check_outputs (p, &blur, frames, &info, "to EOS", c);
    pipe_reset_outputs (p);

    fail_if (gst_element_set_state (p->pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE);
    for (i = 0; i < 4; i++) {
      GstBuffer *buf = gst_buffer_copy_deep (frames[i]);

      GST_BUFFER_PTS (buf) = i * FRAME_DURATION;
      GST_BUFFER_DURATION (buf) = FRAME_DURATION;
      gst_app_src_push_buffer (GST_APP_SRC (p->src), buf);
    }
    fail_unless_equals_int (pipe_stop (p), GST_STATE_CHANGE_SUCCESS);
    fail_unless (p->outputs->len <= 4);
    check_outputs (p, &blur, frames, &info, "stopped in flight", c);
    pipe_reset_outputs (p);
  }
  free_frames (frames, 4);
  ASSERT_OBJECT_REFCOUNT (p->pipeline, "pipeline", 1);
  pipe_free (p);
}

GST_END_TEST;

/* ---- negotiation failing at run time ----------------------------------- */

/* A source forced onto a format the element does not take (linked without
 * checks) stops with not-negotiated; nothing comes out. */
static void
check_not_negotiated (const Filter * filter)
{
  GstVideoInfo info;
  GstBuffer *frame = hipf_test_frame_new (GST_VIDEO_FORMAT_Y41B,
      64, 48, 0, &info);
  GstElement *pipeline = gst_pipeline_new (NULL);
  GstElement *src = gst_element_factory_make ("appsrc", NULL);
  GstElement *e = gst_element_factory_make (filter->factory, NULL);
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);
  GstPad *srcpad, *sinkpad;
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=Y41B,width=64,"
      "height=48,framerate=30/1");
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;

  g_object_set (src, "format", GST_FORMAT_TIME, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_bin_add_many (GST_BIN (pipeline), src, e, sink, NULL);
  fail_unless (gst_element_link (e, sink));
  srcpad = gst_element_get_static_pad (src, "src");
  sinkpad = gst_element_get_static_pad (e, "sink");
  fail_unless_equals_int (gst_pad_link_full (srcpad, sinkpad,
          GST_PAD_LINK_CHECK_NOTHING), GST_PAD_LINK_OK);
  gst_object_unref (srcpad);
  gst_object_unref (sinkpad);

  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  GST_BUFFER_PTS (frame) = 0;
  gst_app_src_push_buffer (GST_APP_SRC (src), frame);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline), WAIT,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR, "%s",
      describe (msg));
  gst_message_parse_error (msg, &err, &debug);
  /* GstBaseSrc: "Internal data stream error", reason not-negotiated. */
  fail_unless (err->domain == GST_STREAM_ERROR, "%s", describe (msg));
  fail_unless (err->code == GST_STREAM_ERROR_FORMAT || (debug
          && strstr (debug, "not-negotiated")), "%s", describe (msg));
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
}

GST_START_TEST (test_not_negotiated_boxblur)
{
  check_not_negotiated (&blur_filter);
}

GST_END_TEST;

GST_START_TEST (test_not_negotiated_histogram)
{
  check_not_negotiated (&histogram_filter);
}

GST_END_TEST;

static Suite *
hardening_gpu_suite (void)
{
  Suite *s = suite_create ("hardening-gpu");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_fail_injection_boxblur);
  tcase_add_test (tc, test_fail_injection_boxblur_in_flight);
  tcase_add_test (tc, test_fail_injection_histogram);
  tcase_add_test (tc, test_fail_injection_histogram_in_flight);
  tcase_add_test (tc, test_fail_injection_ignores_garbage);
  tcase_add_test (tc, test_short_buffer_boxblur);
  tcase_add_test (tc, test_short_buffer_histogram);
  tcase_add_test (tc, test_meta_overrun_boxblur);
  tcase_add_test (tc, test_meta_overrun_histogram);
  tcase_add_test (tc, test_no_caps_boxblur);
  tcase_add_test (tc, test_no_caps_histogram);
  tcase_add_test (tc, test_huge_caps_boxblur);
  tcase_add_test (tc, test_huge_caps_histogram);
  tcase_add_test (tc, test_device_out_of_memory_boxblur);
  tcase_add_test (tc, test_device_out_of_memory_histogram);
  tcase_add_test (tc, test_renegotiation_boxblur);
  tcase_add_test (tc, test_renegotiation_histogram);
  tcase_add_test (tc, test_parallel_pipelines);
  tcase_add_test (tc, test_long_chain);
  tcase_add_test (tc, test_properties_while_playing);
  tcase_add_test (tc, test_properties_while_playing_in_flight);
  tcase_add_test (tc, test_radius_zero_toggle);
  tcase_add_test (tc, test_play_cycles);
  tcase_add_test (tc, test_play_cycles_in_flight);
  tcase_add_test (tc, test_not_negotiated_boxblur);
  tcase_add_test (tc, test_not_negotiated_histogram);
  return s;
}

HIPF_GPU_CHECK_MAIN (hardening_gpu);
