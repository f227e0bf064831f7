/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipexposure against the CPU reference of the drawing: every format (the
 * 16-bit ones too), each overlay alone and all together, two frames (the
 * zebra moves), a box in a corner and one that the frame clips, odd sizes
 * and padded strides, and a box refused once caps are known. The memory
 * paths are in test_memory_gpu.
 */
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "gpucheck.h"
#include "reference.h"
#include "testutil.h"

#define WIDTH 45
#define HEIGHT 23
#define PADDING 3

/* Keeps YUV samples in limited range, luma 16 - 235 and chroma near 128
 * in their top eight bits, as a camera's are: random ones would clamp a
 * quarter of their R, G and B to 0 or 255 and leave the RGB graph's middle
 * bars empty. A 10-bit sample keeps random low two bits below those eight,
 * and its word the random bits outside the sample (P010's low six,
 * I420_10LE's high six), which the element must ignore. */
static void
camera_like (GstBuffer * buf, const GstVideoInfo * info)
{
  GstVideoFrame f;
  guint c;
  gint x, y;

  if (!GST_VIDEO_INFO_IS_YUV (info))
    return;
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (c = 0; c < 3; c++) {
    guint depth = GST_VIDEO_FRAME_COMP_DEPTH (&f, c);
    guint shift = GST_VIDEO_FORMAT_INFO_SHIFT (f.info.finfo, c);
    gint offset = GST_VIDEO_FRAME_COMP_POFFSET (&f, c);

    /* GStreamer 1.22 gives P010's V at byte 1, its offset in samples. */
    if (depth > 8 && offset % 2)
      offset *= 2;
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++) {
        guint8 *p = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f,
            GST_VIDEO_FRAME_COMP_PLANE (&f, c)) + offset +
            y * GST_VIDEO_FRAME_COMP_STRIDE (&f, c) +
            x * GST_VIDEO_FRAME_COMP_PSTRIDE (&f, c);
        guint w, top, v;

        if (depth == 8) {
          *p = c == 0 ? 16 + *p % 220 : 104 + *p % 49;
          continue;
        }
        w = GST_READ_UINT16_LE (p);
        top = c == 0 ? 16 + w % 220 : 104 + w % 49;
        v = top << (depth - 8) | (w >> 8 & ((1u << (depth - 8)) - 1));
        GST_WRITE_UINT16_LE (p, (w & ~(((1u << depth) - 1) << shift)) |
            v << shift);
      }
  }
  gst_video_frame_unmap (&f);
}

/* Two frames of @format, @width x @height, rows @padding bytes longer than
 * their samples, drawn as @e has it. */
static void
check_format (GstVideoFormat format, gint width, gint height, guint padding,
    const RefExposure * e)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);
  GstHarness *h = gst_harness_new ("hipexposure");
  guint n;

  g_object_set (h->element, "false-color", e->false_color, "zebra", e->zebra,
      "zebra-threshold", e->zebra_threshold, "histogram", e->graph,
      "histogram-x", e->graph_x, "histogram-y", e->graph_y,
      "histogram-width", e->graph_width, "histogram-height", e->graph_height,
      "histogram-opacity", e->graph_opacity, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "histogram-mode",
      e->graph_rgb ? "rgb" : "luma");
  gst_harness_set_caps_str (h, caps, caps);
  for (n = 0; n < 2; n++) {
    GstVideoInfo info, out_info;
    GstBuffer *in = hipf_test_frame_new (format, width, height, padding,
        &info);
    GstBuffer *exp = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstBuffer *out;
    GstVideoFrame fi, fe, fo;
    RefExposure frame = *e;
    gchar *where = NULL;

    frame.frame = n;
    if (e->graph_rgb)
      camera_like (in, &info);
    fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fe, &info, exp, GST_MAP_WRITE));
    ref_exposure_frame (&fi, &fe, &frame);
    gst_video_frame_unmap (&fi);
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL);
    gst_video_info_set_format (&out_info, format, width, height);
    fail_unless (gst_video_frame_map (&fo, &out_info, out, GST_MAP_READ));
    fail_unless (hipf_test_frames_equal (&fo, &fe, &where),
        "%s %dx%d +%u, false colour %d, zebra %d (%u), graph %d (%s, %u,%u "
        "%ux%u, opacity %u), frame %u: %s (seed %u)",
        gst_video_format_to_string (format), width, height, padding,
        e->false_color, e->zebra, e->zebra_threshold, e->graph,
        e->graph_rgb ? "rgb" : "luma", e->graph_x, e->graph_y,
        e->graph_width, e->graph_height, e->graph_opacity, n, where,
        hipf_test_seed ());
    gst_video_frame_unmap (&fo);
    gst_video_frame_unmap (&fe);
    gst_buffer_unref (out);
    gst_buffer_unref (exp);
  }
  gst_harness_teardown (h);
  g_free (caps);
}

static const RefExposure cases[] = {
    /* false colour, zebra, graph; threshold, frame; box, opacity */
    {TRUE, FALSE, FALSE, 235, 0, 0, 0, 16, 16, 160},
    {FALSE, TRUE, FALSE, 128, 0, 0, 0, 16, 16, 160},
    {FALSE, FALSE, TRUE, 235, 0, 3, 2, 30, 17, 160},
    {FALSE, FALSE, TRUE, 235, 0, 0, 0, 45, 23, 255},
    /* Set before caps: taken, and clipped to the frame. */
    {FALSE, FALSE, TRUE, 235, 0, 30, 10, 40, 20, 200},
    {TRUE, TRUE, TRUE, 100, 0, 7, 5, 20, 16, 90},
    /* The RGB graph, alone and over the others, and clipped. */
    {FALSE, FALSE, TRUE, 235, 0, 3, 2, 30, 17, 160, TRUE},
    {TRUE, TRUE, TRUE, 100, 0, 0, 0, 45, 23, 255, TRUE},
    {FALSE, TRUE, TRUE, 128, 0, 30, 10, 40, 20, 200, TRUE},
};

GST_START_TEST (test_overlays)
{
  guint f, c;

  for (f = 0; f < hipf_test_n_blur_formats; f++)
    for (c = 0; c < G_N_ELEMENTS (cases); c++)
      check_format (hipf_test_blur_formats[f], WIDTH, HEIGHT, PADDING,
          &cases[c]);
}

GST_END_TEST;

/* The 16-bit formats at odd sizes (a chroma block half outside the frame,
 * a frame smaller than a block, rows longer than a block's threads), with
 * tight and padded rows (odd strides), in every drawing mode; zebra
 * thresholds at 0 and 255, the ends of the 8-bit scale. */
GST_START_TEST (test_wide_sizes)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY16_LE,
    GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I420_10LE
  };
  static const struct
  {
    gint width, height;
    guint padding;
  } sizes[] = { {1, 1, 0}, {7, 3, 5}, {33, 17, 0}, {301, 29, 7} };
  static const RefExposure wide_cases[] = {
    {TRUE, TRUE, FALSE, 0, 1, 0, 0, 16, 16, 160},
    {FALSE, TRUE, TRUE, 255, 2, 1, 1, 16, 16, 255},
    {TRUE, TRUE, TRUE, 180, 5, 2, 0, 300, 28, 77},
    {TRUE, FALSE, TRUE, 235, 0, 0, 1, 40, 16, 200, TRUE},
    {FALSE, TRUE, TRUE, 200, 3, 5, 2, 256, 20, 0, TRUE},
  };
  guint f, s, c;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (c = 0; c < G_N_ELEMENTS (wide_cases); c++)
        check_format (formats[f], sizes[s].width, sizes[s].height,
            sizes[s].padding, &wide_cases[c]);
}

GST_END_TEST;

/* Once caps are known, a box that leaves the frame is refused, the old
 * one kept; only the axis a property moves is checked, so the default box,
 * clipped on a small frame, takes other settings and one-axis changes. */
GST_START_TEST (test_box_refused)
{
  GstHarness *h = gst_harness_new ("hipexposure");
  GstVideoInfo info;
  GstBuffer *out;
  guint x;
  gboolean zebra;

  gst_harness_set_caps_str (h, "video/x-raw,format=RGBA,width=64,height=48,"
      "framerate=30/1", "video/x-raw,format=RGBA,width=64,height=48,"
      "framerate=30/1");
  g_object_set (h->element, "zebra", TRUE, NULL);
  g_object_get (h->element, "zebra", &zebra, NULL);
  fail_unless (zebra);
  g_object_set (h->element, "histogram-width", 32, "histogram-height", 16,
      NULL);
  g_object_get (h->element, "histogram-height", &x, NULL);
  fail_unless_equals_int (x, 16);
  ASSERT_WARNING (g_object_set (h->element, "histogram-y", 40, NULL));
  out = gst_harness_push_and_pull (h, hipf_test_frame_new
      (GST_VIDEO_FORMAT_RGBA, 64, 48, 0, &info));
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  ASSERT_WARNING (g_object_set (h->element, "histogram-x", 40, NULL));
  g_object_get (h->element, "histogram-x", &x, NULL);
  fail_unless_equals_int (x, 16);
  g_object_set (h->element, "histogram-x", 32, NULL);
  g_object_get (h->element, "histogram-x", &x, NULL);
  fail_unless_equals_int (x, 32);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
exposure_gpu_suite (void)
{
  Suite *s = suite_create ("hipexposure-gpu");
  TCase *tc = tcase_create ("overlay");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_overlays);
  tcase_add_test (tc, test_wide_sizes);
  tcase_add_test (tc, test_box_refused);
  return s;
}

HIPF_GPU_CHECK_MAIN (exposure_gpu);
