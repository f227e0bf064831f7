/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * memory:CUDAMemory in and out: frames that nvh264dec decodes into CUDA
 * memory go through hipboxblur and hiphistogram and out through
 * cudadownload without a host copy, and come out as those that
 * cudadownload hands the elements in system memory, and as the CPU
 * reference makes them. The 16-bit formats GStreamer 1.22 lays out in CUDA
 * memory (P010_10LE, as nvh265dec gives HEVC Main10, and I420_10LE) come
 * from cudaupload, with no 10-bit clip. Skipped where gst-plugins-bad's
 * nvcodec is not installed; the decoder's tests where there is no NVDEC.
 */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

#include "gpucheck.h"
#include "reference.h"
#include "testutil.h"

#define CLIP "ball-318x238.h264"
#define CLIP_FRAMES 30
#define DECODE "filesrc location=%s ! h264parse ! nvh264dec name=dec ! "
#define BLUR "hipboxblur name=a radius=3 border-mode=mirror"
#define COUNT "hiphistogram name=h"
#define SINK "appsink name=sink sync=false"

typedef struct
{
  GPtrArray *buffers;
  GstVideoInfo info;
  GstElement *pipeline;
} Run;

static gchar *
clip_path (void)
{
  return g_build_filename (g_getenv ("HIPF_TEST_DATA"), CLIP, NULL);
}

/* Runs @desc (with the clip's path for %s) to its end and keeps every
 * buffer its appsink took; @context, if any, set on the decoder first. */
static void
run (const gchar * desc, GstContext * context, Run * r)
{
  gchar *path = clip_path ();
  gchar *full = g_strdup_printf (desc, path);
  GError *err = NULL;
  GstElement *sink;
  GstSample *sample;
  GstMessage *msg;
  GstBus *bus;

  r->pipeline = gst_parse_launch_full (full, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &err);
  fail_unless (r->pipeline != NULL, "%s: %s", full, err ? err->message : "");
  if (context) {
    GstElement *dec = gst_bin_get_by_name (GST_BIN (r->pipeline), "dec");

    gst_element_set_context (dec, context);
    gst_object_unref (dec);
  }
  r->buffers = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  sink = gst_bin_get_by_name (GST_BIN (r->pipeline), "sink");
  fail_unless (gst_element_set_state (r->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    if (r->buffers->len == 0)
      fail_unless (gst_video_info_from_caps (&r->info,
              gst_sample_get_caps (sample)));
    g_ptr_array_add (r->buffers,
        gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
  bus = gst_element_get_bus (r->pipeline);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg) {
    gst_message_parse_error (msg, &err, NULL);
    fail ("%s: %s", full, err->message);
  }
  gst_object_unref (bus);
  gst_object_unref (sink);
  g_free (full);
  g_free (path);
}

static void
run_clear (Run * r)
{
  gst_element_set_state (r->pipeline, GST_STATE_NULL);
  gst_object_unref (r->pipeline);
  g_ptr_array_unref (r->buffers);
}

static gboolean
pad_has_feature (GstElement * pipeline, const gchar * element,
    const gchar * pad_name, const gchar * feature)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), element);
  GstPad *pad = gst_element_get_static_pad (e, pad_name);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean ret = caps && gst_caps_features_contains (gst_caps_get_features
      (caps, 0), feature);

  gst_clear_caps (&caps);
  gst_object_unref (pad);
  gst_object_unref (e);
  return ret;
}

static guint64
via_host (GstElement * pipeline, const gchar * element)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), element);
  guint64 n;

  g_object_get (e, "frames-via-host", &n, NULL);
  gst_object_unref (e);
  return n;
}

/* Every frame of @got equals the reference blur of @decoded's. */
static void
check_blurred (Run * got, Run * decoded, const gchar * ctx)
{
  guint i;

  fail_unless_equals_int (got->buffers->len, CLIP_FRAMES);
  fail_unless_equals_int (decoded->buffers->len, CLIP_FRAMES);
  for (i = 0; i < CLIP_FRAMES; i++) {
    GstVideoFrame in, out, exp;
    GstBuffer *expected = gst_buffer_new_allocate (NULL, decoded->info.size,
        NULL);
    gchar *where = NULL;

    fail_unless (gst_video_frame_map (&in, &decoded->info,
            g_ptr_array_index (decoded->buffers, i), GST_MAP_READ));
    fail_unless (gst_video_frame_map (&exp, &decoded->info, expected,
            GST_MAP_WRITE));
    fail_unless (gst_video_frame_map (&out, &got->info,
            g_ptr_array_index (got->buffers, i), GST_MAP_READ));
    ref_box_blur_frame (&in, &exp, 3, 3, REF_BORDER_MIRROR);
    fail_unless (hipf_test_frames_equal (&out, &exp, &where), "%s, frame "
        "%u: %s", ctx, i, where);
    gst_video_frame_unmap (&in);
    gst_video_frame_unmap (&exp);
    gst_video_frame_unmap (&out);
    gst_buffer_unref (expected);
  }
}

/* The decoder's CUDA memory through both elements to cudadownload, against
 * cudadownload's system memory through them and against the reference. */
GST_START_TEST (test_decoder_in_cuda_memory)
{
  Run decoded, on_gpu, via_system;

  run (DECODE "cudadownload ! video/x-raw ! " SINK, NULL, &decoded);
  run (DECODE BLUR " ! " COUNT " ! cudadownload ! video/x-raw ! " SINK, NULL,
      &on_gpu);
  run (DECODE "cudadownload ! video/x-raw ! " BLUR " ! " COUNT " ! "
      "video/x-raw ! " SINK, NULL, &via_system);

  fail_unless (pad_has_feature (on_gpu.pipeline, "a", "sink",
          "memory:CUDAMemory"));
  fail_unless (pad_has_feature (on_gpu.pipeline, "a", "src",
          HIPF_TEST_DEVICE_FEATURE));
  fail_unless (pad_has_feature (on_gpu.pipeline, "h", "src",
          "memory:CUDAMemory"));
  /* Used on the device: the decoder took the elements' context. */
  fail_unless_equals_uint64 (via_host (on_gpu.pipeline, "a"), 0);
  fail_unless_equals_uint64 (via_host (on_gpu.pipeline, "h"), 0);

  check_blurred (&on_gpu, &decoded, "CUDA memory");
  check_blurred (&via_system, &decoded, "system memory");
  run_clear (&decoded);
  run_clear (&on_gpu);
  run_clear (&via_system);
}

GST_END_TEST;

/* A decoder given a CUDA context of its own (not the device's primary
 * one) hands over memory the elements cannot use on the device: they read
 * it through its CPU mapping, and the frames still come out right. */
GST_START_TEST (test_foreign_context)
{
  GstCudaContext *theirs;
  GstContext *context;
  Run decoded, got;

  fail_unless (gst_cuda_load_library ());
  theirs = gst_cuda_context_new (0);
  fail_unless (theirs != NULL);
  context = gst_context_new_cuda_context (theirs);
  run (DECODE "cudadownload ! video/x-raw ! " SINK, NULL, &decoded);
  run (DECODE BLUR " ! " COUNT " ! cudadownload ! video/x-raw ! " SINK,
      context, &got);
  fail_unless (pad_has_feature (got.pipeline, "a", "sink",
          "memory:CUDAMemory"));
  fail_unless_equals_uint64 (via_host (got.pipeline, "a"), CLIP_FRAMES);
  check_blurred (&got, &decoded, "foreign context");
  run_clear (&decoded);
  run_clear (&got);
  gst_context_unref (context);
  gst_object_unref (theirs);
}

GST_END_TEST;

/* The 16-bit formats, in CUDA memory from cudaupload. */

#define WIDE_WIDTH 161          /* odd: chroma rounds up, and I420_10LE's */
#define WIDE_HEIGHT 91          /* V plane starts half a row in (1.22) */
#define WIDE_FRAMES 3
#define WIDE_RX 3
#define WIDE_RY 2

static const GstVideoFormat wide_formats[] = {
  GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I420_10LE,
};

typedef struct
{
  GPtrArray *in, *out, *messages;
  GstVideoInfo info;            /* of the frames pushed */
  GstElement *pipeline;
} WideRun;

/* Pushes WIDE_FRAMES random frames of @format from appsrc (system memory)
 * through cudaupload, @element (named "e") with CUDA memory on both pads,
 * and cudadownload, and keeps what went in, what came out and the
 * element's messages. The capsfilters make negotiation fail, rather than
 * fall back to system memory, where the element does not take the format
 * in CUDA memory. */
static void
run_wide (const gchar * element, GstVideoFormat format, WideRun * r)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time ! cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! %s name=e ! "
      "video/x-raw(memory:CUDAMemory) ! cudadownload ! video/x-raw ! " SINK,
      element);
  GError *err = NULL;
  GstElement *src, *sink;
  GstVideoInfo caps_info;
  GstCaps *caps;
  GstSample *sample;
  GstMessage *msg;
  GstBus *bus;
  guint i;

  r->pipeline = gst_parse_launch_full (desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &err);
  fail_unless (r->pipeline != NULL, "%s: %s", desc, err ? err->message : "");
  src = gst_bin_get_by_name (GST_BIN (r->pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (r->pipeline), "sink");
  gst_video_info_set_format (&caps_info, format, WIDE_WIDTH, WIDE_HEIGHT);
  caps_info.fps_n = 30;
  caps_info.fps_d = 1;
  caps = gst_video_info_to_caps (&caps_info);
  gst_app_src_set_caps (GST_APP_SRC (src), caps);
  gst_caps_unref (caps);
  r->in = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
  r->out = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
  r->messages = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_message_unref);
  fail_unless (gst_element_set_state (r->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < WIDE_FRAMES; i++) {
    GstBuffer *buf = hipf_test_frame_new (format, WIDE_WIDTH, WIDE_HEIGHT, 0,
        &r->info);

    GST_BUFFER_PTS (buf) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
    g_ptr_array_add (r->in, gst_buffer_ref (buf));
    gst_app_src_push_buffer (GST_APP_SRC (src), buf);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  /* A timeout, not a hang, where an error stops the stream; the bus then
   * says which. */
  while (r->out->len < WIDE_FRAMES && (sample =
          gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              30 * GST_SECOND))) {
    g_ptr_array_add (r->out, gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
  /* Every message, in order: popping one type drops the others. */
  bus = gst_element_get_bus (r->pipeline);
  while ((msg = gst_bus_pop (bus))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &err, NULL);
      fail ("%s, %s: %s", desc, gst_video_format_to_string (format),
          err->message);
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
        && gst_message_has_name (msg, "hiphistogram"))
      g_ptr_array_add (r->messages, msg);
    else
      gst_message_unref (msg);
  }
  fail_unless_equals_int (r->out->len, WIDE_FRAMES);
  /* Both of the element's pads in CUDA memory, used on the device. */
  fail_unless (pad_has_feature (r->pipeline, "e", "sink",
          "memory:CUDAMemory"), "%s: sink", element);
  fail_unless (pad_has_feature (r->pipeline, "e", "src",
          "memory:CUDAMemory"), "%s: src", element);
  fail_unless_equals_uint64 (via_host (r->pipeline, "e"), 0);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
  g_free (desc);
}

static void
wide_clear (WideRun * r)
{
  gst_element_set_state (r->pipeline, GST_STATE_NULL);
  gst_object_unref (r->pipeline);
  g_ptr_array_unref (r->in);
  g_ptr_array_unref (r->out);
  g_ptr_array_unref (r->messages);
}

/* Output frame @i of @r equals @expected, bit for bit. */
static void
check_wide_frame (WideRun * r, guint i, const GstVideoFrame * expected,
    const gchar * ctx)
{
  GstVideoFrame out;
  gchar *where = NULL;

  fail_unless (gst_video_frame_map (&out, &r->info,
          g_ptr_array_index (r->out, i), GST_MAP_READ));
  fail_unless (hipf_test_frames_equal (&out, expected, &where),
      "%s, frame %u: %s (seed %u)", ctx, i, where, hipf_test_seed ());
  gst_video_frame_unmap (&out);
}

/* @draw makes frame @i's expected output from its input into @exp. */
static void
check_wide_frames (WideRun * r, void (*draw) (const GstVideoFrame * in,
        GstVideoFrame * exp, guint i), const gchar * ctx)
{
  guint i;

  for (i = 0; i < WIDE_FRAMES; i++) {
    GstBuffer *expected = gst_buffer_new_allocate (NULL, r->info.size, NULL);
    GstVideoFrame in, exp;

    fail_unless (gst_video_frame_map (&in, &r->info,
            g_ptr_array_index (r->in, i), GST_MAP_READ));
    fail_unless (gst_video_frame_map (&exp, &r->info, expected,
            GST_MAP_WRITE));
    draw (&in, &exp, i);
    check_wide_frame (r, i, &exp, ctx);
    gst_video_frame_unmap (&in);
    gst_video_frame_unmap (&exp);
    gst_buffer_unref (expected);
  }
}

static void
draw_blur (const GstVideoFrame * in, GstVideoFrame * exp, guint i)
{
  ref_box_blur_frame (in, exp, WIDE_RX, WIDE_RY, REF_BORDER_MIRROR);
}

static void
draw_nothing (const GstVideoFrame * in, GstVideoFrame * exp, guint i)
{
  gst_video_frame_copy (exp, in);
}

/* What test_wide_in_cuda_memory's hipexposure draws on frame @i. */
static void
draw_exposure (const GstVideoFrame * in, GstVideoFrame * exp, guint i)
{
  RefExposure e = { TRUE, TRUE, TRUE, 100, i, 5, 4, 64, 40, 90, FALSE };

  ref_exposure_frame (in, exp, &e);
}

#define EXPOSURE "hipexposure false-color=true zebra=true zebra-threshold=100 " \
    "histogram=true histogram-x=5 histogram-y=4 histogram-width=64 " \
    "histogram-height=40 histogram-opacity=90 histogram-mode=luma"

/* Each message's histograms, a bin a value, equal the reference's counts
 * of its frame. */
static void
check_wide_counts (WideRun * r, const gchar * ctx)
{
  guint i, c, v;

  fail_unless_equals_int (r->messages->len, WIDE_FRAMES);
  for (i = 0; i < WIDE_FRAMES; i++) {
    const GstStructure *s =
        gst_message_get_structure (g_ptr_array_index (r->messages, i));
    const GValue *hists = gst_structure_get_value (s, "histograms");
    RefHistogram *ref = g_new0 (RefHistogram, 1);
    GstVideoFrame in;
    guint64 pixels;

    fail_unless (gst_video_frame_map (&in, &r->info,
            g_ptr_array_index (r->in, i), GST_MAP_READ));
    ref_histogram_frame (&in, 0, 0, 0, 0, ref);
    gst_video_frame_unmap (&in);
    fail_unless_equals_int (ref->values, 1024);
    fail_unless (hists != NULL, "%s: no histograms", ctx);
    fail_unless_equals_int (gst_value_array_get_size (hists),
        ref->n_channels);
    for (c = 0; c < ref->n_channels; c++) {
      const GValue *hist = gst_value_array_get_value (hists, c);

      fail_unless_equals_int (gst_value_array_get_size (hist), ref->values);
      for (v = 0; v < ref->values; v++) {
        guint got = g_value_get_uint (gst_value_array_get_value (hist, v));

        fail_unless (got == ref->counts[c][v], "%s, frame %u: %s value %u: "
            "%u, expected %" G_GUINT64_FORMAT " (seed %u)", ctx, i,
            ref->names[c], v, got, ref->counts[c][v], hipf_test_seed ());
      }
    }
    fail_unless (gst_structure_get_uint64 (s, "pixels", &pixels));
    fail_unless_equals_uint64 (pixels, (guint64) WIDE_WIDTH * WIDE_HEIGHT);
    g_free (ref);
  }
}

/* P010_10LE and I420_10LE through each element that takes 16-bit samples,
 * in CUDA memory on both pads, bit for bit as the CPU reference. */
GST_START_TEST (test_wide_in_cuda_memory)
{
  guint f;

  for (f = 0; f < G_N_ELEMENTS (wide_formats); f++) {
    GstVideoFormat fmt = wide_formats[f];
    const gchar *name = gst_video_format_to_string (fmt);
    gchar *ctx;
    WideRun r;

    ctx = g_strdup_printf ("hipboxblur, %s", name);
    run_wide ("hipboxblur radius-x=" G_STRINGIFY (WIDE_RX) " radius-y="
        G_STRINGIFY (WIDE_RY) " border-mode=mirror", fmt, &r);
    check_wide_frames (&r, draw_blur, ctx);
    wide_clear (&r);
    g_free (ctx);

    ctx = g_strdup_printf ("hiphistogram, %s", name);
    run_wide ("hiphistogram bins=1024", fmt, &r);
    check_wide_counts (&r, ctx);
    /* The frame leaves as it came. */
    check_wide_frames (&r, draw_nothing, ctx);
    wide_clear (&r);
    g_free (ctx);

    ctx = g_strdup_printf ("hipexposure, %s", name);
    run_wide (EXPOSURE, fmt, &r);
    check_wide_frames (&r, draw_exposure, ctx);
    wide_clear (&r);
    g_free (ctx);
  }
}

GST_END_TEST;

/* Whether the decoder's tests run: NVDEC and the H.264 parser are there. */
static gboolean have_decoder;

static Suite *
cuda_gpu_suite (void)
{
  Suite *s = suite_create ("cuda-gpu");
  TCase *wide = tcase_create ("wide");

  if (have_decoder) {
    TCase *tc = tcase_create ("decoder");

    suite_add_tcase (s, tc);
    tcase_set_timeout (tc, 120);
    tcase_add_test (tc, test_decoder_in_cuda_memory);
    tcase_add_test (tc, test_foreign_context);
  }
  suite_add_tcase (s, wide);
  tcase_set_timeout (wide, 120);
  tcase_add_test (wide, test_wide_in_cuda_memory);
  return s;
}

static gboolean
have_element (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (f == NULL)
    return FALSE;
  gst_object_unref (f);
  return TRUE;
}

int
main (int argc, char **argv)
{
  static const gchar *needed[] = { "cudaupload", "cudadownload" };
  static const gchar *decoder[] = { "nvh264dec", "h264parse" };
  guint i;

  gst_init (NULL, NULL);
  for (i = 0; i < G_N_ELEMENTS (needed); i++) {
    if (!have_element (needed[i])) {
      g_print ("SKIP cuda_gpu: no %s here\n", needed[i]);
      return HIPF_TEST_SKIP;
    }
  }
  have_decoder = TRUE;
  for (i = 0; i < G_N_ELEMENTS (decoder); i++) {
    if (!have_element (decoder[i])) {
      g_print ("SKIP cuda_gpu's decoder tests: no %s here\n", decoder[i]);
      have_decoder = FALSE;
    }
  }
  return hipf_gpu_check_main (argc, argv, cuda_gpu_suite, "cuda_gpu",
      __FILE__);
}
