/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * memory:CUDAMemory in and out: frames that nvh264dec decodes into CUDA
 * memory go through hipboxblur and hiphistogram and out through
 * cudadownload without a host copy, and come out as those that
 * cudadownload hands the elements in system memory, and as the CPU
 * reference makes them. Skipped where GStreamer's NVIDIA decoder is not
 * there (no NVDEC, or gst-plugins-bad's nvcodec not installed).
 */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
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

static Suite *
cuda_gpu_suite (void)
{
  Suite *s = suite_create ("cuda-gpu");
  TCase *tc = tcase_create ("decoder");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_decoder_in_cuda_memory);
  tcase_add_test (tc, test_foreign_context);
  return s;
}

int
main (int argc, char **argv)
{
  static const gchar *needed[] = { "nvh264dec", "h264parse", "cudadownload" };
  guint i;

  gst_init (NULL, NULL);
  for (i = 0; i < G_N_ELEMENTS (needed); i++) {
    GstElementFactory *f = gst_element_factory_find (needed[i]);

    if (f == NULL) {
      g_print ("SKIP cuda_gpu: no %s here\n", needed[i]);
      return HIPF_TEST_SKIP;
    }
    gst_object_unref (f);
  }
  return hipf_gpu_check_main (argc, argv, cuda_gpu_suite, "cuda_gpu",
      __FILE__);
}
