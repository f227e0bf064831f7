/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipboxblur on a GPU: every output compared byte for byte with the CPU
 * reference, on fresh random frames.
 */
#include <stdio.h>
#include <string.h>

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "gpucheck.h"
#include "hipf-kernels.h"
#include "hipf-runtime.h"
#include "reference.h"
#include "testutil.h"

typedef struct
{
  gint width, height;
} Size;

static GstHarness *
harness_for (GstVideoFormat format, gint width, gint height)
{
  GstHarness *h = gst_harness_new ("hipboxblur");
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);

  gst_harness_set_caps_str (h, caps, caps);
  g_free (caps);
  return h;
}

static void
set_blur (GstHarness * h, gint rx, gint ry, RefBorder mode)
{
  g_object_set (h->element, "radius", 0, "radius-x", rx, "radius-y", ry, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "border-mode",
      ref_border_nicks[mode]);
}

/* How bright a test frame is: random samples, random in [240, 255], or
 * all 255 (every window sum as large as its window allows). */
typedef enum
{
  FRAME_RANDOM,
  FRAME_BRIGHT,
  FRAME_WHITE
} FrameFill;

/* Pushes one frame and checks the output against the reference and the
 * input against its copy taken before the push. */
static void
check_filled_frame (GstHarness * h, GstVideoFormat format, gint width,
    gint height, guint padding, gint rx, gint ry, RefBorder mode,
    FrameFill fill)
{
  GstVideoInfo info, out_info;
  GstBuffer *in = hipf_test_frame_new (format, width, height, padding, &info);
  GstBuffer *orig;
  GstBuffer *expected, *out;
  GstVideoFrame in_frame, exp_frame, out_frame;
  gchar *where = NULL;

  if (fill != FRAME_RANDOM) {
    GstMapInfo map;
    gsize i;

    gst_buffer_map (in, &map, GST_MAP_WRITE);
    for (i = 0; i < map.size; i++)
      map.data[i] = fill == FRAME_WHITE ? 255 : map.data[i] | 0xf0;
    gst_buffer_unmap (in, &map);
  }
  orig = gst_buffer_copy_deep (in);
  set_blur (h, rx, ry, mode);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);

  gst_video_info_set_format (&out_info, format, width, height);
  expected = gst_buffer_new_allocate (NULL, out_info.size, NULL);
  fail_unless (gst_video_frame_map (&in_frame, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&exp_frame, &out_info, expected,
          GST_MAP_WRITE));
  fail_unless (gst_video_frame_map (&out_frame, &out_info, out, GST_MAP_READ));
  ref_box_blur_frame (&in_frame, &exp_frame, rx, ry, mode);
  fail_unless (hipf_test_frames_equal (&out_frame, &exp_frame, &where),
      "r %d,%d %s padding %u fill %d: %s (seed %u)", rx, ry,
      ref_border_nicks[mode], padding, fill, where, hipf_test_seed ());
  gst_video_frame_unmap (&in_frame);
  gst_video_frame_unmap (&exp_frame);
  gst_video_frame_unmap (&out_frame);

  {
    GstMapInfo a, b;

    gst_buffer_map (in, &a, GST_MAP_READ);
    gst_buffer_map (orig, &b, GST_MAP_READ);
    fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
        "input buffer modified");
    gst_buffer_unmap (in, &a);
    gst_buffer_unmap (orig, &b);
  }
  gst_buffer_unref (in);
  gst_buffer_unref (orig);
  gst_buffer_unref (expected);
  gst_buffer_unref (out);
}

static void
check_frame (GstHarness * h, GstVideoFormat format, gint width, gint height,
    guint padding, gint rx, gint ry, RefBorder mode)
{
  check_filled_frame (h, format, width, height, padding, rx, ry, mode,
      FRAME_RANDOM);
}

/* Field @field of @blur's stats: the slices the last frame took
 * ("slices"), and how many frames in flight hold a second output frame
 * for slices to write in turn ("slice-buffers"). */
static guint
blur_stat (GstElement * blur, const gchar * field)
{
  GstStructure *stats = NULL;
  guint value = G_MAXUINT;

  g_object_get (blur, "stats", &stats, NULL);
  fail_unless (stats != NULL);
  fail_unless (gst_structure_get_uint (stats, field, &value), "%s", field);
  gst_structure_free (stats);
  return value;
}

static guint
last_slices (GstHarness * h)
{
  return blur_stat (h->element, "slices");
}

static guint
slice_buffers (GstHarness * h)
{
  return blur_stat (h->element, "slice-buffers");
}

/* Every format, border mode and radius 0, 1, 6, 50 and beyond the frame. */
GST_START_TEST (test_small_frames)
{
  static const Size sizes[] = { {1, 1}, {2, 3}, {33, 17}, {1, 9}, {9, 1} };
  guint f, s, m, r;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      const Size *sz = &sizes[s];
      gint radii[] = { 0, 1, 6, 50, MAX (sz->width, sz->height) + 3 };
      GstHarness *h = harness_for (hipf_test_blur_formats[f], sz->width,
          sz->height);

      for (m = 0; m < REF_N_BORDERS; m++)
        for (r = 0; r < G_N_ELEMENTS (radii); r++)
          check_frame (h, hipf_test_blur_formats[f], sz->width, sz->height, 0,
              radii[r], radii[r], m);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_anisotropic)
{
  static const Size sizes[] = { {33, 17}, {97, 41} };
  /* {1, 300}: a window cut into pieces for the band prefixes' 16-bit
   * lanes, every cut outside the plane. */
  static const gint radii[][2] = { {0, 4}, {5, 0}, {2, 9}, {40, 1}, {1, 300} };
  guint f, s, m, r;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstHarness *h = harness_for (hipf_test_blur_formats[f], sizes[s].width,
          sizes[s].height);

      for (m = 0; m < REF_N_BORDERS; m++)
        for (r = 0; r < G_N_ELEMENTS (radii); r++)
          check_frame (h, hipf_test_blur_formats[f], sizes[s].width,
              sizes[s].height, 0, radii[r][0], radii[r][1], m);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_vga)
{
  guint f, m;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    GstVideoFormat fmt = hipf_test_blur_formats[f];
    GstHarness *h = harness_for (fmt, 640, 480);

    for (m = 0; m < REF_N_BORDERS; m++) {
      check_frame (h, fmt, 640, 480, 0, 6, 6, m);
      check_frame (h, fmt, 640, 480, 0, 11, 3, m);
      if (fmt == GST_VIDEO_FORMAT_GRAY8 || fmt == GST_VIDEO_FORMAT_NV12)
        check_frame (h, fmt, 640, 480, 0, 50, 50, m);
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

GST_START_TEST (test_full_hd)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_RGB
  };

  /* Frames this large cross the device in slices of their own accord, as
   * many as the square root of their bytes over 400 kB: RGBA (8.3 MB) in
   * 5 at radius 6 and 50, NV12 and I420 (3.1 MB) in 3, RGB (6.2 MB) in
   * 4. Wrapped rows take whole frames. */
  static const guint slices[] = { 5, 3, 3, 4 };
  guint f, m;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h;

    /* One second output frame, allocated as the caps arrive. */
    h = harness_for (formats[f], 1920, 1080);
    fail_unless_equals_int (slice_buffers (h), 1);
    fail_unless_equals_int (last_slices (h), 0);
    for (m = 0; m < REF_N_BORDERS; m++) {
      guint expected = m == REF_BORDER_WRAP ? 1 : slices[f];

      check_frame (h, formats[f], 1920, 1080, 0, 6, 6, m);
      fail_unless_equals_int (last_slices (h), expected);
      if (f < 2) {
        check_frame (h, formats[f], 1920, 1080, 0, 50, 50, m);
        fail_unless_equals_int (last_slices (h), expected);
      }
    }
    gst_harness_teardown (h);
  }

  /* No slice is shorter than the vertical radius: 2048x320 RGBA (2.6 MB)
   * takes 3 at radius 6 and at vertical radius 100 (slices of 107 rows,
   * each blurring the 100 above it again into the buffer that the slice
   * two before downloads from), and 2 of 160 rows at vertical radius
   * 110. */
  {
    GstHarness *h = harness_for (GST_VIDEO_FORMAT_RGBA, 2048, 320);

    check_frame (h, GST_VIDEO_FORMAT_RGBA, 2048, 320, 0, 6, 6,
        REF_BORDER_MIRROR);
    fail_unless_equals_int (last_slices (h), 3);
    check_frame (h, GST_VIDEO_FORMAT_RGBA, 2048, 320, 0, 2, 100,
        REF_BORDER_MIRROR);
    fail_unless_equals_int (last_slices (h), 3);
    check_frame (h, GST_VIDEO_FORMAT_RGBA, 2048, 320, 0, 2, 110,
        REF_BORDER_MIRROR);
    fail_unless_equals_int (last_slices (h), 2);
    gst_harness_teardown (h);
  }

  /* With two frames in flight, whole frames, exact, and no second output
   * frame in either slot. */
  {
    GstHarness *h = gst_harness_new_parse ("hipboxblur frames-in-flight=2 "
        "radius=6");
    GstVideoInfo info;
    GstBuffer *in = hipf_test_frame_new (GST_VIDEO_FORMAT_RGBA, 1920, 1080,
        0, &info);
    GstBuffer *expected = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstVideoFrame fi, fe, fo;
    GstBuffer *out;
    GstElement *blur = gst_harness_find_element (h, "hipboxblur");
    gchar *where = NULL;

    gst_harness_set_caps_str (h,
        "video/x-raw,format=RGBA,width=1920,height=1080,framerate=30/1",
        "video/x-raw,format=RGBA,width=1920,height=1080,framerate=30/1");
    fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fe, &info, expected, GST_MAP_WRITE));
    ref_box_blur_frame (&fi, &fe, 6, 6, REF_BORDER_MIRROR);
    gst_video_frame_unmap (&fi);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    fail_unless_equals_int (blur_stat (blur, "slices"), 1);
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
    fail_unless (hipf_test_frames_equal (&fo, &fe, &where), "%s (seed %u)",
        where, hipf_test_seed ());
    gst_video_frame_unmap (&fo);
    gst_video_frame_unmap (&fe);
    gst_buffer_unref (out);
    gst_buffer_unref (expected);
    fail_unless_equals_int (blur_stat (blur, "slice-buffers"), 0);
    gst_object_unref (blur);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Rows too wide for one block's shared memory and threads (more than 512
 * chunks of GRAY8 and chroma, more than 1024 of RGBA, more than 1536 of
 * RGB), which take the general path, and rows just narrower, which take
 * the band kernels; RGBA at radius 1 takes the strips (any width). */
GST_START_TEST (test_wide_rows)
{
  static const struct
  {
    GstVideoFormat format;
    gint width;
  } cases[] = {
    {GST_VIDEO_FORMAT_GRAY8, 8192}, {GST_VIDEO_FORMAT_GRAY8, 8200},
    {GST_VIDEO_FORMAT_NV12, 8200}, {GST_VIDEO_FORMAT_RGBA, 4096},
    {GST_VIDEO_FORMAT_RGBA, 4100}, {GST_VIDEO_FORMAT_RGB, 8192},
    {GST_VIDEO_FORMAT_RGB, 8200},
  };
  static const gint radii[][2] = { {1, 1}, {6, 2}, {60, 3} };
  guint c, m, r;
  GstHarness *h;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    h = harness_for (cases[c].format, cases[c].width, 5);
    for (m = 0; m < REF_N_BORDERS; m++)
      for (r = 0; r < G_N_ELEMENTS (radii); r++)
        check_frame (h, cases[c].format, cases[c].width, 5, 0, radii[r][0],
            radii[r][1], m);
    gst_harness_teardown (h);
  }
  /* Tall enough for the general path's column segments: three of 34
   * rows, the last of 32. */
  h = harness_for (GST_VIDEO_FORMAT_GRAY8, 8200, 100);
  for (m = 0; m < REF_N_BORDERS; m++)
    check_frame (h, GST_VIDEO_FORMAT_GRAY8, 8200, 100, 0, 60, 40, m);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Frames whose samples are all near or at 255, where every window sum is
 * as large as its window allows: at the largest windows whose sums 16-bit
 * lanes hold (255 samples) and just past them, no more than 3 rows tall so
 * that no band prefix keeps them off lanes, and at windows taller than 9
 * rows, which planes of 300 rows give band prefixes: up to 257 rows, whose
 * column sums fill the band prefixes' 16-bit lanes, and 259. */
GST_START_TEST (test_bright_frames)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY8
  };
  static const gint radii[][2] = { {42, 1}, {43, 1}, {127, 0}, {128, 0},
  {60, 3}, {8, 8}, {3, 128}, {2, 129}
  };
  guint f, m, r, fill;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = harness_for (formats[f], 157, 300);

    for (fill = FRAME_BRIGHT; fill <= FRAME_WHITE; fill++)
      for (m = 0; m < REF_N_BORDERS; m++)
        for (r = 0; r < G_N_ELEMENTS (radii); r++)
          check_filled_frame (h, formats[f], 157, 300, 0, radii[r][0],
              radii[r][1], m, fill);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* 16-bit samples at the largest radius: a window of 4001 x 4001 samples
 * of 65 535 sums to about 2^40, which 32 bits would wrap. Frames of
 * 0xffff words, bright ones and random ones, with random low bits that
 * P010 drops. 45 rows make one column segment of the general path, 301
 * rows nine (the last of 29 rows; the chroma of 151 rows four). */
GST_START_TEST (test_wide_samples)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY16_LE,
    GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I420_10LE
  };
  static const gint radii[][2] = { {HIPF_BOX_BLUR_MAX_RADIUS,
          HIPF_BOX_BLUR_MAX_RADIUS}, {3, HIPF_BOX_BLUR_MAX_RADIUS},
  {HIPF_BOX_BLUR_MAX_RADIUS, 0}, {7, 5}
  };
  static const gint heights[] = { 45, 301 };
  guint f, m, r, fill, t;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (t = 0; t < G_N_ELEMENTS (heights); t++) {
      GstHarness *h = harness_for (formats[f], 67, heights[t]);

      /* The tall frames, for the segments, random only: the bright
       * fills check the same sums' bound on the short ones. */
      for (fill = FRAME_RANDOM; fill <= (t ? FRAME_RANDOM : FRAME_WHITE);
          fill++)
        for (m = 0; m < REF_N_BORDERS; m++)
          for (r = 0; r < G_N_ELEMENTS (radii); r++)
            check_filled_frame (h, formats[f], 67, heights[t], 3,
                radii[r][0], radii[r][1], m, fill);
      gst_harness_teardown (h);
    }
}

GST_END_TEST;

/* Input strides padded through the video meta. */
GST_START_TEST (test_padded_input)
{
  static const Size sizes[] = { {33, 17}, {181, 97} };
  guint f, s, m;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstHarness *h = harness_for (hipf_test_blur_formats[f], sizes[s].width,
          sizes[s].height);

      for (m = 0; m < REF_N_BORDERS; m++)
        check_frame (h, hipf_test_blur_formats[f], sizes[s].width,
            sizes[s].height, g_rand_int_range (hipf_test_rand (), 1, 68), 3,
            2, m);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* Output strides padded too: frames handed straight to transform_frame,
 * the padding bytes of the output left as they were. */
GST_START_TEST (test_padded_output)
{
  guint f, m;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    GstVideoFormat fmt = hipf_test_blur_formats[f];
    GstHarness *h = harness_for (fmt, 45, 23);
    GstVideoFilterClass *klass;

    /* Negotiates and starts the element. */
    check_frame (h, fmt, 45, 23, 0, 1, 1, REF_BORDER_CLAMP);
    klass = GST_VIDEO_FILTER_GET_CLASS (h->element);
    for (m = 0; m < REF_N_BORDERS; m++) {
      GstVideoInfo in_info, out_info, exp_info;
      GstBuffer *in = hipf_test_frame_new (fmt, 45, 23, 5, &in_info);
      GstBuffer *out = hipf_test_frame_new (fmt, 45, 23, 13, &out_info);
      GstBuffer *exp;
      GstVideoFrame fi, fo, fe;
      GstMapInfo map;
      guint8 *orig;
      gchar *where = NULL;

      gst_video_info_set_format (&exp_info, fmt, 45, 23);
      exp = gst_buffer_new_allocate (NULL, exp_info.size, NULL);
      gst_buffer_map (out, &map, GST_MAP_READ);
      orig = g_memdup2 (map.data, map.size);
      gst_buffer_unmap (out, &map);

      set_blur (h, 4, 7, m);
      fail_unless (gst_video_frame_map (&fi, &in_info, in, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fo, &out_info, out, GST_MAP_WRITE));
      fail_unless (gst_video_frame_map (&fe, &exp_info, exp, GST_MAP_WRITE));
      fail_unless_equals_int (klass->transform_frame (GST_VIDEO_FILTER
              (h->element), &fi, &fo), GST_FLOW_OK);
      ref_box_blur_frame (&fi, &fe, 4, 7, m);
      fail_unless (hipf_test_frames_equal (&fo, &fe, &where), "%s: %s (seed %u)",
          ref_border_nicks[m], where, hipf_test_seed ());
      fail_unless (hipf_test_padding_unchanged (&fo, orig),
          "output padding overwritten (%s)", gst_video_format_to_string (fmt));
      gst_video_frame_unmap (&fi);
      gst_video_frame_unmap (&fo);
      gst_video_frame_unmap (&fe);
      g_free (orig);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_buffer_unref (exp);
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Radius 0 hands the input buffer on untouched; radii changed while
 * playing apply from the next frame. */
GST_START_TEST (test_passthrough_and_changes)
{
  GstHarness *h = harness_for (GST_VIDEO_FORMAT_I420, 64, 36);
  GstVideoInfo info;
  GstBuffer *in, *out;

  check_frame (h, GST_VIDEO_FORMAT_I420, 64, 36, 0, 2, 2, REF_BORDER_MIRROR);
  g_object_set (h->element, "radius", 0, "radius-x", -1, "radius-y", -1, NULL);
  in = hipf_test_frame_new (GST_VIDEO_FORMAT_I420, 64, 36, 0, &info);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out == in, "radius 0 did not pass the buffer through");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  check_frame (h, GST_VIDEO_FORMAT_I420, 64, 36, 0, 9, 1, REF_BORDER_WRAP);
  check_frame (h, GST_VIDEO_FORMAT_I420, 64, 36, 0, 0, 5, REF_BORDER_ZERO);
  check_frame (h, GST_VIDEO_FORMAT_I420, 64, 36, 0, 3, 3, REF_BORDER_VALID);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The frames the frames-in-flight tests push: NV12 97x33 unless a test
 * changes caps. */
static GstVideoFormat numbered_format = GST_VIDEO_FORMAT_NV12;
static gint numbered_width = 97, numbered_height = 33;

/* Frame @i, whose blur push_numbered's reference gives @expected. */
static GstBuffer *
numbered_frame_new (guint i, GstBuffer ** expected)
{
  GstVideoInfo info, out_info;
  GstBuffer *in = hipf_test_frame_new (numbered_format, numbered_width,
      numbered_height, 0, &info);
  GstVideoFrame fi, fe;

  gst_video_info_set_format (&out_info, numbered_format, numbered_width,
      numbered_height);
  *expected = gst_buffer_new_allocate (NULL, out_info.size, NULL);
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fe, &out_info, *expected, GST_MAP_WRITE));
  ref_box_blur_frame (&fi, &fe, 5, 5, REF_BORDER_CLAMP);
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fe);
  GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;
  return in;
}

static void
push_numbered (GstHarness * h, guint i, GstBuffer ** expected)
{
  fail_unless_equals_int (gst_harness_push (h, numbered_frame_new (i,
              expected)), GST_FLOW_OK);
}

/* Pulls the next output, which must be frame @i, equal @expected and
 * flagged DISCONT if and only if @discont; both are released. */
static void
pull_numbered_flagged (GstHarness * h, guint i, GstBuffer * expected,
    gboolean discont)
{
  GstBuffer *out = gst_harness_pull (h);
  GstVideoInfo info;
  GstVideoFrame fo, fe;
  gchar *where = NULL;

  gst_video_info_set_format (&info, numbered_format, numbered_width,
      numbered_height);
  fail_unless (out != NULL, "frame %u missing", i);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / 30);
  fail_unless (!GST_BUFFER_IS_DISCONT (out) == !discont,
      "frame %u: DISCONT %s", i, discont ? "missing" : "where no gap was");
  fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fe, &info, expected, GST_MAP_READ));
  fail_unless (hipf_test_frames_equal (&fo, &fe, &where), "frame %u: %s "
      "(seed %u)", i, where, hipf_test_seed ());
  gst_video_frame_unmap (&fo);
  gst_video_frame_unmap (&fe);
  gst_buffer_unref (out);
  gst_buffer_unref (expected);
}

/* The same, for a frame after no gap. */
static void
pull_numbered (GstHarness * h, guint i, GstBuffer * expected)
{
  pull_numbered_flagged (h, i, expected, FALSE);
}

/* The numbered frames' caps, in and out. */
static void
set_numbered_caps (GstHarness * h)
{
  gst_harness_set_caps_str (h,
      "video/x-raw,format=NV12,width=97,height=33,framerate=30/1",
      "video/x-raw,format=NV12,width=97,height=33,framerate=30/1");
}

/* hipboxblur with four frames in flight, blurring as push_numbered's
 * reference does, negotiated for the numbered frames. Unless @done_early,
 * its device never reports a frame done before the element must wait for
 * it (GST_HIP_BUSY), so that frames leave when they must, whatever the
 * GPU's pace. */
static GstHarness *
in_flight_harness_full (gboolean done_early)
{
  GstHarness *h;

  if (done_early)
    g_unsetenv ("GST_HIP_BUSY");
  else
    g_setenv ("GST_HIP_BUSY", "1", TRUE);
  h = gst_harness_new_parse ("hipboxblur frames-in-flight=4 radius=5 "
      "border-mode=clamp");
  g_unsetenv ("GST_HIP_BUSY");
  set_numbered_caps (h);
  return h;
}

static GstHarness *
in_flight_harness (void)
{
  return in_flight_harness_full (FALSE);
}

/* Several frames in flight on a device always busy: each leaves after
 * three newer ones, EOS hands out the rest in order, a flush drops them,
 * frames after a flush and a new segment (a seek) come out, latency grows
 * by three frames. */
GST_START_TEST (test_frames_in_flight)
{
  GstHarness *h = in_flight_harness ();
  GstBuffer *expected[12];
  GstClockTime latency;
  guint i;

  for (i = 0; i < 10; i++) {
    push_numbered (h, i, &expected[i]);
    fail_unless_equals_int (gst_harness_buffers_received (h), i < 3 ? 0 :
        i - 2);
  }
  latency = gst_harness_query_latency (h);
  fail_unless_equals_uint64 (latency, 3 * GST_SECOND / 30);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 10);
  for (i = 0; i < 10; i++)
    pull_numbered (h, i, expected[i]);

  /* A flush drops what is in flight; frames after it come out. */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  set_numbered_caps (h);
  for (i = 0; i < 3; i++)
    push_numbered (h, i, &expected[i]);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  for (i = 0; i < 3; i++)
    gst_buffer_unref (expected[i]);

  /* What a flushing seek leaves: a new segment, then frames from there on,
   * every one out, in order and exact. */
  {
    GstSegment segment;

    gst_segment_init (&segment, GST_FORMAT_TIME);
    segment.start = segment.time = 5 * GST_SECOND / 30;
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  }
  for (i = 5; i < 11; i++)
    push_numbered (h, i, &expected[i]);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 6);
  for (i = 5; i < 11; i++)
    pull_numbered (h, i, expected[i]);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The same for a frame passed through at radius 0 after frames lost to a
 * push that failed, here on a gap event: it leaves as it came, marked
 * DISCONT, and the next one does not. */
GST_START_TEST (test_in_flight_push_fails_passthrough)
{
  GstHarness *h = in_flight_harness ();
  GstBuffer *expected, *in[2];
  GstElement *blur;
  guint i;

  for (i = 0; i < 3; i++) {
    push_numbered (h, i, &expected);
    gst_buffer_unref (expected);
  }
  fail_unless (gst_pad_set_active (h->sinkpad, FALSE));
  gst_harness_push_event (h, gst_event_new_gap (3 * GST_SECOND / 30,
          GST_SECOND / 30));
  fail_unless (gst_pad_set_active (h->sinkpad, TRUE));

  blur = gst_harness_find_element (h, "hipboxblur");
  g_object_set (blur, "radius", 0, NULL);
  gst_object_unref (blur);
  for (i = 0; i < 2; i++) {
    GstBuffer *out;

    in[i] = numbered_frame_new (3 + i, &expected);
    gst_buffer_unref (expected);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[i])),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL, "frame %u missing", 3 + i);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), (3 + i) * GST_SECOND /
        30);
    fail_unless (gst_buffer_peek_memory (out, 0) == gst_buffer_peek_memory
        (in[i], 0), "frame %u not passed through", 3 + i);
    fail_unless (!GST_BUFFER_IS_DISCONT (out) == (i > 0), "frame %u: DISCONT "
        "%s", 3 + i, i == 0 ? "missing" : "where no gap was");
    gst_buffer_unref (out);
    gst_buffer_unref (in[i]);
  }
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Pulls the events the harness got: TRUE where a tag titled @title was
 * among them. */
static gboolean
pulled_tag (GstHarness * h, const gchar * title)
{
  GstEvent *event;
  gboolean found = FALSE;

  while ((event = gst_harness_try_pull_event (h))) {
    GstTagList *tags;
    gchar *t = NULL;

    if (GST_EVENT_TYPE (event) == GST_EVENT_TAG) {
      gst_event_parse_tag (event, &tags);
      if (gst_tag_list_get_string (tags, GST_TAG_TITLE, &t))
        found |= g_str_equal (t, title);
    }
    g_free (t);
    gst_event_unref (event);
  }
  return found;
}

static void
push_tag (GstHarness * h, const gchar * title)
{
  fail_unless (gst_harness_push_event (h, gst_event_new_tag
          (gst_tag_list_new (GST_TAG_TITLE, title, NULL))));
}

typedef struct
{
  GstHarness *h;
  const gchar *title;
} Tag;

static gboolean
tag_pulled (gpointer data)
{
  Tag *t = data;

  return pulled_tag (t->h, t->title);
}

/* Pulls the events the harness got until a tag titled @title is among
 * them, for at most ten seconds; FALSE if it did not come. */
static gboolean
waited_tag (GstHarness * h, const gchar * title)
{
  Tag t = { h, title };

  return hipf_test_wait_for (tag_pulled, &t);
}

/* A frame leaves as soon as the device is done with it, with no newer
 * frame to push it out: behind a source slower than the device, or one
 * that stalls, each frame comes out on its own, exact, the tags behind it
 * follow it, position queries find the stream where it ends, the first
 * frame after a gap is marked DISCONT, and the latency reported stays the
 * most a frame may wait. */
GST_START_TEST (test_done_frames_leave)
{
  GstHarness *h = in_flight_harness_full (TRUE);
  GstElement *blur = gst_harness_find_element (h, "hipboxblur");
  GstPad *src = gst_element_get_static_pad (blur, "src");
  GstBuffer *expected, *in;
  gint64 position;
  guint i;

  for (i = 0; i < 6; i++) {
    gchar *title = g_strdup_printf ("after %u", i);

    push_numbered (h, i, &expected);
    push_tag (h, title);
    fail_unless (hipf_test_wait_received (h, i + 1), "frame %u stayed in "
        "flight", i);
    pull_numbered (h, i, expected);
    fail_unless (waited_tag (h, title), "tag %s stayed in flight", title);
    g_free (title);
    /* Downstream of the element, the stream is where that frame ends. */
    fail_unless (gst_pad_query_position (src, GST_FORMAT_TIME, &position));
    fail_unless_equals_int64 (position, i * GST_SECOND / 30 + GST_SECOND /
        30);
  }
  /* The first frame after a gap too, marked DISCONT. */
  in = numbered_frame_new (6, &expected);
  GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  fail_unless (hipf_test_wait_received (h, 7), "frame 6 stayed in flight");
  pull_numbered_flagged (h, 6, expected, TRUE);
  fail_unless_equals_uint64 (gst_harness_query_latency (h),
      3 * GST_SECOND / 30);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 7);
  gst_object_unref (src);
  gst_object_unref (blur);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Refuses every buffer, counting them. */
static GstPadProbeReturn
refuse_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer refused)
{
  g_atomic_int_inc ((gint *) refused);
  gst_buffer_unref (GST_PAD_PROBE_INFO_BUFFER (info));
  GST_PAD_PROBE_INFO_FLOW_RETURN (info) = GST_FLOW_NOT_LINKED;
  return GST_PAD_PROBE_HANDLED;
}

static gboolean
any_refused (gpointer refused)
{
  return g_atomic_int_get ((gint *) refused) > 0;
}

/* A frame that left on its own and was refused downstream: upstream hears
 * of it with its next frame, which still comes out, as do the ones after
 * it. */
GST_START_TEST (test_done_frame_refused)
{
  GstHarness *h = in_flight_harness_full (TRUE);
  GstElement *blur = gst_harness_find_element (h, "hipboxblur");
  GstPad *src = gst_element_get_static_pad (blur, "src");
  gint refused = 0;
  gulong probe = gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER,
      refuse_buffer, &refused, NULL);
  GstBuffer *expected[3];

  push_numbered (h, 0, &expected[0]);
  gst_buffer_unref (expected[0]);
  hipf_test_wait_for (any_refused, &refused);
  fail_unless_equals_int (g_atomic_int_get (&refused), 1);
  gst_pad_remove_probe (src, probe);
  fail_unless_equals_int (gst_harness_push (h, numbered_frame_new (1,
              &expected[1])), GST_FLOW_NOT_LINKED);
  fail_unless (hipf_test_wait_received (h, 1), "frame 1 stayed in flight");
  pull_numbered (h, 1, expected[1]);
  push_numbered (h, 2, &expected[2]);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_numbered (h, 2, expected[2]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  gst_object_unref (src);
  gst_object_unref (blur);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Tags wait behind the frames in flight instead of pushing them out, and
 * leave right after the frame before them; a flush drops the frames, and
 * the tags still go out after it. Custom events push the frames out first
 * (upstream may wait on one for what it sent before). */
GST_START_TEST (test_events_in_flight)
{
  GstHarness *h = in_flight_harness ();
  GstBuffer *expected[10];
  GstEvent *event;
  guint i;

  while ((event = gst_harness_try_pull_event (h)))
    gst_event_unref (event);
  for (i = 0; i < 3; i++)
    push_numbered (h, i, &expected[i]);
  push_tag (h, "after 2");
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  fail_unless_equals_int (gst_harness_events_in_queue (h), 0);
  for (i = 3; i < 6; i++) {
    push_numbered (h, i, &expected[i]);
    fail_unless_equals_int (gst_harness_buffers_received (h), i - 2);
    /* Frame 2 left with the sixth frame, the tag right after it. */
    fail_unless (pulled_tag (h, "after 2") == (i == 5), "tag %s frame %u",
        i < 5 ? "before" : "not after", i - 3);
  }
  for (i = 0; i < 3; i++)
    pull_numbered (h, i, expected[i]);

  /* Frame 3 leaves with frame 6; the flush drops 4 to 6, not the tag. */
  push_numbered (h, 6, &expected[6]);
  push_tag (h, "kept");
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  set_numbered_caps (h);
  fail_unless (pulled_tag (h, "kept"), "the tag behind a flushed frame was "
      "lost");
  pull_numbered (h, 3, expected[3]);
  for (i = 4; i < 7; i++)
    gst_buffer_unref (expected[i]);

  /* A custom event: the frames before it first. */
  for (i = 7; i < 10; i++)
    push_numbered (h, i, &expected[i]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  fail_unless (gst_harness_push_event (h, gst_event_new_custom
          (GST_EVENT_CUSTOM_DOWNSTREAM, gst_structure_new_empty ("still"))));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 3);
  for (i = 7; i < 10; i++)
    pull_numbered (h, i, expected[i]);
  event = gst_harness_pull_event (h);
  fail_unless (event && gst_event_has_name (event, "still"));
  gst_event_unref (event);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A DRAIN query (a decoder about to free the buffers it handed out) gets
 * every frame in flight out before it is answered. */
GST_START_TEST (test_drain_query)
{
  GstHarness *h = in_flight_harness ();
  GstBuffer *expected[3];
  GstQuery *query;
  guint i;

  for (i = 0; i < 3; i++)
    push_numbered (h, i, &expected[i]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  query = gst_query_new_drain ();
  gst_pad_peer_query (h->srcpad, query);
  gst_query_unref (query);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 3);
  for (i = 0; i < 3; i++)
    pull_numbered (h, i, expected[i]);
  gst_harness_teardown (h);
}

GST_END_TEST;

static GstBuffer *
frame_at (GstClockTime pts)
{
  return hipf_test_timed_frame_new (GST_VIDEO_FORMAT_RGBA, 64, 48, pts,
      GST_SECOND / 30);
}

/* Sends downstream's QoS verdict upstream: frames due before
 * @timestamp + @diff are late. */
static void
send_qos (GstHarness * h, GstClockTime timestamp, GstClockTimeDiff diff)
{
  fail_unless (gst_harness_push_upstream_event (h,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 2.0, diff, timestamp)));
}

/* QoS as GstVideoFilter promises it: a frame that downstream said would be
 * late is dropped with a QoS message, the next one on time is blurred;
 * with qos=false late frames are blurred as well. */
GST_START_TEST (test_qos)
{
  GstHarness *h = harness_for (GST_VIDEO_FORMAT_RGBA, 64, 48);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GstFormat format;
  guint64 processed, dropped;
  GstBuffer *out;

  gst_element_set_bus (h->element, bus);
  set_blur (h, 2, 2, REF_BORDER_MIRROR);
  gst_buffer_unref (gst_harness_push_and_pull (h, frame_at (0)));

  send_qos (h, 1 * GST_SECOND, 50 * GST_MSECOND);
  fail_unless_equals_int (gst_harness_push (h, frame_at (GST_SECOND)),
      GST_FLOW_OK);
  fail_unless (gst_harness_try_pull (h) == NULL, "a late frame came out");
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_QOS);
  fail_unless (msg != NULL, "no QoS message for the dropped frame");
  gst_message_parse_qos_stats (msg, &format, &processed, &dropped);
  fail_unless_equals_int (format, GST_FORMAT_BUFFERS);
  fail_unless_equals_uint64 (processed, 1);
  fail_unless_equals_uint64 (dropped, 1);
  gst_message_unref (msg);
  out = gst_harness_push_and_pull (h, frame_at (GST_SECOND + 100 *
          GST_MSECOND));
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_SECOND + 100 *
      GST_MSECOND);
  gst_buffer_unref (out);

  g_object_set (h->element, "qos", FALSE, NULL);
  send_qos (h, 2 * GST_SECOND, 50 * GST_MSECOND);
  out = gst_harness_push_and_pull (h, frame_at (2 * GST_SECOND));
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_QOS) == NULL);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Drops frame @i, late by downstream's QoS, and checks the QoS message:
 * @processed frames counted as processed, @dropped as dropped. */
static void
drop_numbered (GstHarness * h, GstBus * bus, guint i, guint64 processed,
    guint64 dropped)
{
  GstBuffer *expected;
  GstMessage *msg;
  GstFormat format;
  guint64 p, d;

  send_qos (h, i * GST_SECOND / 30, 10 * GST_MSECOND);
  push_numbered (h, i, &expected);
  gst_buffer_unref (expected);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_QOS);
  fail_unless (msg != NULL, "no QoS message for frame %u", i);
  gst_message_parse_qos_stats (msg, &format, &p, &d);
  fail_unless_equals_int (format, GST_FORMAT_BUFFERS);
  fail_unless_equals_uint64 (p, processed);
  fail_unless_equals_uint64 (d, dropped);
  gst_message_unref (msg);
}

/* Pushes every frame in flight out with a DRAIN query. */
static void
drain (GstHarness * h)
{
  GstQuery *query = gst_query_new_drain ();

  gst_pad_peer_query (h->srcpad, query);
  gst_query_unref (query);
}

/* With frames in flight, QoS messages count as processed every frame that
 * left, also those pushed out by a query or by the waiter rather than by
 * the chain, and start counting again after a flush. */
GST_START_TEST (test_qos_in_flight)
{
  GstHarness *h = in_flight_harness ();
  GstBus *bus = gst_bus_new ();
  GstBuffer *expected[9];
  GstSegment segment;
  guint i;

  gst_element_set_bus (h->element, bus);
  for (i = 0; i < 6; i++)
    push_numbered (h, i, &expected[i]);
  /* Frames 0 to 2 left with the chain, 3 to 5 with the query. */
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 3);
  drain (h);
  for (i = 0; i < 6; i++)
    pull_numbered (h, i, expected[i]);
  drop_numbered (h, bus, 6, 6, 1);

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  set_numbered_caps (h);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  for (i = 7; i < 9; i++)
    push_numbered (h, i, &expected[i]);
  drain (h);
  for (i = 7; i < 9; i++)
    pull_numbered (h, i, expected[i]);
  drop_numbered (h, bus, 9, 2, 1);
  gst_element_set_bus (h->element, NULL);
  gst_harness_teardown (h);

  /* A frame the waiter pushed, between frames. */
  h = in_flight_harness_full (TRUE);
  gst_element_set_bus (h->element, bus);
  push_numbered (h, 0, &expected[0]);
  fail_unless (hipf_test_wait_received (h, 1), "frame 0 stayed in flight");
  pull_numbered (h, 0, expected[0]);
  drop_numbered (h, bus, 1, 1, 1);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A gap in the stream with frames in flight, as without: the frames
 * before it leave at once, and DISCONT marks the first frame after it, for
 * a frame dropped as late and for a DISCONT input alike, also where an
 * event pushes that frame out. */
GST_START_TEST (test_discont_in_flight)
{
  GstHarness *h = in_flight_harness ();
  GstBuffer *expected[13], *in;
  guint i;

  for (i = 0; i < 3; i++)
    push_numbered (h, i, &expected[i]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  send_qos (h, 3 * GST_SECOND / 30, 10 * GST_MSECOND);
  push_numbered (h, 3, &expected[3]);
  gst_buffer_unref (expected[3]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 3);
  for (i = 0; i < 3; i++)
    pull_numbered (h, i, expected[i]);
  for (i = 4; i < 7; i++)
    push_numbered (h, i, &expected[i]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  push_numbered (h, 7, &expected[7]);
  pull_numbered_flagged (h, 4, expected[4], TRUE);

  in = numbered_frame_new (8, &expected[8]);
  GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 3);
  for (i = 5; i < 8; i++)
    pull_numbered (h, i, expected[i]);
  push_numbered (h, 9, &expected[9]);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_numbered_flagged (h, 8, expected[8], TRUE);
  pull_numbered (h, 9, expected[9]);

  /* After a drop, the frame after it pushed out by an event, not by the
   * chain that knows of the gap. */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  set_numbered_caps (h);
  {
    GstSegment segment;

    gst_segment_init (&segment, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  }
  send_qos (h, 10 * GST_SECOND / 30, 10 * GST_MSECOND);
  push_numbered (h, 10, &expected[10]);
  gst_buffer_unref (expected[10]);
  push_numbered (h, 11, &expected[11]);
  push_numbered (h, 12, &expected[12]);
  fail_unless (gst_harness_push_event (h, gst_event_new_gap (13 *
              GST_SECOND / 30, GST_SECOND / 30)));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 2);
  pull_numbered_flagged (h, 11, expected[11], TRUE);
  pull_numbered (h, 12, expected[12]);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The latency reported follows what the element holds back: the caps'
 * frame rate, as it changes, at a variable rate the longest frame
 * duration seen, nothing while radius 0 passes frames through, and a
 * latency message whenever that changes what a query was told. */
GST_START_TEST (test_latency)
{
  GstElement *e = gst_parse_launch ("hipboxblur frames-in-flight=4 "
      "radius=5 border-mode=clamp", NULL);
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstBus *bus = gst_bus_new ();
  GstBuffer *expected[2], *in;

  gst_element_set_bus (h->element, bus);
  /* Asked before any caps, as live pipelines do. */
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  gst_harness_set_caps_str (h,
      "video/x-raw,format=NV12,width=97,height=33,framerate=30/1",
      "video/x-raw,format=NV12,width=97,height=33,framerate=30/1");
  hipf_test_pop_latency_message (bus);
  fail_unless_equals_uint64 (gst_harness_query_latency (h),
      3 * GST_SECOND / 30);
  gst_harness_set_caps_str (h,
      "video/x-raw,format=NV12,width=97,height=33,framerate=0/1",
      "video/x-raw,format=NV12,width=97,height=33,framerate=0/1");
  hipf_test_pop_latency_message (bus);
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  push_numbered (h, 0, &expected[0]);
  hipf_test_pop_latency_message (bus);
  fail_unless_equals_uint64 (gst_harness_query_latency (h),
      3 * (GST_SECOND / 30));
  in = numbered_frame_new (1, &expected[1]);
  GST_BUFFER_DURATION (in) = GST_SECOND / 60;
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_LATENCY) == NULL);

  g_object_set (h->element, "radius", 0, NULL);
  hipf_test_pop_latency_message (bus);
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  g_object_set (h->element, "radius", 5, NULL);
  hipf_test_pop_latency_message (bus);
  fail_unless_equals_uint64 (gst_harness_query_latency (h),
      3 * (GST_SECOND / 30));
  g_object_set (h->element, "radius", 6, NULL);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_LATENCY) == NULL);

  g_object_set (h->element, "radius", 5, NULL);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_numbered (h, 0, expected[0]);
  pull_numbered (h, 1, expected[1]);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* Records which buffers entering and leaving hipboxblur lie in the
 * plugin's pinned memory, and sets a radius as input @blur_from arrives. */
typedef struct
{
  GstElement *blur;
  guint blur_from;              /* 0: never */
  guint n_in, n_out;
  gboolean pinned_in[8], pinned_out[8];
} PoolProbe;

static gboolean
is_pinned (GstBuffer * buf)
{
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);

  return mem->allocator && g_str_equal (mem->allocator->mem_type,
      "HipHostMemory");
}

static GstPadProbeReturn
probe_pool_in (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  PoolProbe *p = data;

  if (p->blur_from && p->n_in == p->blur_from)
    g_object_set (p->blur, "radius", 2, NULL);
  if (p->n_in < G_N_ELEMENTS (p->pinned_in))
    p->pinned_in[p->n_in] = is_pinned (GST_PAD_PROBE_INFO_BUFFER (info));
  p->n_in++;
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
probe_pool_out (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  PoolProbe *p = data;

  if (p->n_out < G_N_ELEMENTS (p->pinned_out))
    p->pinned_out[p->n_out] = is_pinned (GST_PAD_PROBE_INFO_BUFFER (info));
  p->n_out++;
  return GST_PAD_PROBE_OK;
}

/* Eight videotestsrc frames through hipboxblur starting at @radius. */
static void
run_pool_pipeline (PoolProbe * p, guint radius)
{
  GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=8 ! "
      "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1 ! "
      "hipboxblur name=b frames-in-flight=2 ! video/x-raw ! fakesink sync=false", NULL);
  GstBus *bus = gst_element_get_bus (pipe);
  GstPad *sink, *src;
  GstMessage *msg;

  fail_unless (pipe != NULL);
  p->blur = gst_bin_get_by_name (GST_BIN (pipe), "b");
  g_object_set (p->blur, "radius", radius, NULL);
  sink = gst_element_get_static_pad (p->blur, "sink");
  src = gst_element_get_static_pad (p->blur, "src");
  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER, probe_pool_in, p, NULL);
  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, probe_pool_out, p, NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "the pipeline did not reach EOS");
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless_equals_int (p->n_in, 8);
  fail_unless_equals_int (p->n_out, 8);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (p->blur);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

/* Upstream fills the pinned pool the element proposes (ahead of the one
 * GstVideoFilter proposes), and the element writes into its own. Started
 * at radius 0, it passes frames through with no pool decided; once blurring
 * it decides one, and upstream asks again and takes the pinned one. */
GST_START_TEST (test_pinned_pools)
{
  PoolProbe blurring = { NULL, 0 }, later = { NULL, 3 };
  guint i;

  run_pool_pipeline (&blurring, 2);
  for (i = 0; i < 8; i++) {
    fail_unless (blurring.pinned_in[i], "input %u not in pinned memory", i);
    fail_unless (blurring.pinned_out[i], "output %u not in pinned memory", i);
  }

  run_pool_pipeline (&later, 0);
  for (i = 0; i < 3; i++)
    fail_if (later.pinned_out[i], "passed-through output %u pinned", i);
  for (i = 3; i < 8; i++)
    fail_unless (later.pinned_out[i], "output %u, blurred after radius 0, "
        "not in pinned memory", i);
  fail_unless (later.pinned_in[7], "upstream did not take the pinned pool "
      "once the element blurred");
}

GST_END_TEST;

/* A push that fails, here on the caps event that follows three frames in
 * flight, drops the frames behind it: none is left on the device while the
 * new caps reallocate the slots, and none of the old size comes out after
 * the new caps. Every frame after them does, in order and exact, the
 * first marked DISCONT. */
GST_START_TEST (test_in_flight_push_fails)
{
  GstHarness *h = in_flight_harness ();
  GstBuffer *expected[8];
  guint i;

  for (i = 0; i < 3; i++) {
    push_numbered (h, i, &expected[i]);
    gst_buffer_unref (expected[i]);
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);

  /* Downstream flushing: the first frame's push fails. */
  fail_unless (gst_pad_set_active (h->sinkpad, FALSE));
  gst_harness_set_sink_caps_str (h,
      "video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1");
  gst_harness_push_event (h, gst_event_new_caps (gst_caps_from_string
          ("video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1")));
  fail_unless (gst_pad_set_active (h->sinkpad, TRUE));

  numbered_format = GST_VIDEO_FORMAT_GRAY8;
  numbered_width = 64;
  numbered_height = 48;
  for (i = 3; i < 8; i++)
    push_numbered (h, i, &expected[i]);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 5);
  /* The first frame after those lost follows a gap. */
  pull_numbered_flagged (h, 3, expected[3], TRUE);
  for (i = 4; i < 8; i++)
    pull_numbered (h, i, expected[i]);
  numbered_format = GST_VIDEO_FORMAT_NV12;
  numbered_width = 97;
  numbered_height = 33;
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The kernels' modes, in RefBorder's order. */
static const HipfBorderMode kernel_modes[REF_N_BORDERS] = { HIPF_BORDER_ZERO,
  HIPF_BORDER_CLAMP, HIPF_BORDER_MIRROR, HIPF_BORDER_WRAP, HIPF_BORDER_VALID
};

/* Fills each of @n device outputs with 0xa5, a value no blur of random
 * samples leaves everywhere, so that a kernel that writes nothing fails. */
static void
poison_outputs (void *const *dst, gint n, gsize size, hipStream_t stream)
{
  gint i;

  for (i = 0; i < n; i++)
    fail_unless (hipMemsetAsync (dst[i], 0xa5, size, stream) == hipSuccess);
}

/* Copies @size bytes of device memory to @out once @stream gets there. */
static void
download (guint8 * out, const void *dst, gsize size, hipStream_t stream)
{
  hipError_t err;

  fail_unless (hipMemcpyAsync (out, dst, size, hipMemcpyDeviceToHost,
          stream) == hipSuccess);
  err = hipStreamSynchronize (stream);
  fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
}

/* Whether hipf_box_blur_path() names the kernels @path: "strips" stands
 * for the strip kernels with their bands in pairs or not, since pairing
 * follows the device's occupancy; "paired strips" asks for the pairs. */
static gboolean
takes_path (const gchar * actual, const gchar * path)
{
  if (path == NULL)
    return TRUE;
  if (strcmp (path, "strips") == 0)
    return strcmp (actual, "strips") == 0 ||
        strcmp (actual, "paired strips") == 0;
  return strcmp (actual, path) == 0;
}

/* The launch wrapper driven directly, on a plane of random samples (all
 * 255 where white) with rows padded by @padding bytes, in every border
 * mode, against the reference; the plane must take the kernels of @path
 * (takes_path) in every mode, or any kernels where @path is NULL. */
static void
check_kernel_plane (const HipfDeviceLimits * limits, gint ch, gint w, gint h,
    gint padding, gint rx, gint ry, gboolean white, const gchar * path)
{
  const gsize pitch = GST_ROUND_UP_16 (w * ch) + padding, size = pitch * h;
  guint8 *in = g_malloc (size), *out = g_malloc (size);
  guint8 *expected = g_malloc (size);
  RefPlane ref_in = { in, (gint) pitch, w, h, ch };
  RefPlane ref_out = { expected, (gint) pitch, w, h, ch };
  /* The scratch depends on the plane's size, not on its radius or mode. */
  HipfBoxBlurPlane plane = { w, h, ch, rx, ry, HIPF_BORDER_ZERO };
  void *src = NULL, *dst = NULL, *scratch = NULL;
  hipError_t err;
  gsize i;
  guint m;

  for (i = 0; i < size; i++)
    in[i] = white ? 255 : g_rand_int_range (hipf_test_rand (), 0, 256);
  fail_unless (hipMalloc (&src, size) == hipSuccess);
  fail_unless (hipMalloc (&dst, size) == hipSuccess);
  fail_unless (hipMalloc (&scratch,
          hipf_box_blur_scratch_size (limits, &plane)) == hipSuccess);
  fail_unless (hipMemcpyAsync (src, in, size, hipMemcpyHostToDevice,
          NULL) == hipSuccess);
  for (m = 0; m < REF_N_BORDERS; m++) {
    gint x, y;

    plane.border = kernel_modes[m];
    fail_unless (takes_path (hipf_test_blur_path (limits, &plane), path),
        "%d channels %dx%d radius %d,%d %s: %s kernels, not %s", ch, w, h,
        rx, ry, ref_border_nicks[m], hipf_test_blur_path (limits, &plane),
        path);
    /* Not the previous mode's output, which is right away from the edges
     * whatever this mode's kernel writes. */
    poison_outputs (&dst, 1, size, NULL);
    err = hipf_test_blur (limits, &plane, src, pitch, dst, pitch, scratch,
        NULL);
    fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
    download (out, dst, size, NULL);

    ref_box_blur_plane (&ref_in, &ref_out, rx, ry, m);
    for (y = 0; y < h; y++)
      if (memcmp (out + y * pitch, expected + y * pitch, w * ch) != 0)
        break;
    for (x = 0; y < h && out[y * pitch + x] == expected[y * pitch + x];)
      x++;
    fail_unless (y == h, "%d channels %dx%d radius %d,%d %s: sample %d of "
        "row %d is %u, not %u (seed %u)", ch, w, h, rx, ry,
        ref_border_nicks[m], x, y, y < h ? out[y * pitch + x] : 0,
        y < h ? expected[y * pitch + x] : 0, hipf_test_seed ());
  }
  hipFree (src);
  hipFree (dst);
  hipFree (scratch);
  g_free (in);
  g_free (out);
  g_free (expected);
}

/* Limits of the device, told of @multiprocessors of them: told of one,
 * planes get fewer bands, each taller; told of many, more, each shorter. */
static void
told_multiprocessors (HipfDeviceLimits * limits, gint multiprocessors)
{
  hipError_t err = hipf_device_limits_query (0, limits);

  fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
  limits->multiprocessors = multiprocessors;
}

/* Bands taller than the band prefixes' spacing, as a device with few
 * multiprocessors gives them, and windows summed in several pieces, cut
 * inside and outside the plane, and vertical radii of the plane's height
 * less two, the largest whose rows outside the plane all lie within one
 * reflection, and less one. Narrow planes take small blocks, many of them
 * a multiprocessor, so their bands are still tens to hundreds of rows. */
GST_START_TEST (test_tall_bands)
{
  static const struct
  {
    gint channels, width, height, ry;
  } cases[] = {
    {4, 64, 4000, 600}, {1, 200, 3000, 300}, {3, 40, 2000, 129},
    {4, 64, 700, 700}, {2, 48, 1500, 260}, {4, 64, 300, 298},
    {3, 40, 300, 299},
  };
  HipfDeviceLimits limits;
  guint c;

  told_multiprocessors (&limits, 1);
  for (c = 0; c < G_N_ELEMENTS (cases); c++)
    check_kernel_plane (&limits, cases[c].channels, cases[c].width,
        cases[c].height, 0, 2, cases[c].ry, FALSE, "bands");
}

GST_END_TEST;

/* Planes of one-, two-, three- and four-byte pixels at every horizontal
 * radius the strip kernels take (a warp a strip of the row, windows of up
 * to 8 pixels either side and 255 samples): rows padded, planes of one
 * strip, where both row ends and every cut window lie in one warp, up to
 * four or five, and white planes, whose window sums fill the kernels'
 * 16-bit lanes. Lanes of one- and three-byte pixels hold 32 bytes and
 * read whole chunks: their rows are a multiple of 16 pixels (ending in a
 * lane's first or second chunk), and their narrow strips take more bands,
 * so their planes are taller. Three-byte pixels take widened lanes from
 * a horizontal radius of 5 (2 in the valid mode, 4 in the zero mode on
 * rows a multiple of 8 pixels wide), and then rows of any width, as two-
 * and four-byte pixels do, the fourth byte of each pixel the next
 * pixel's first wherever the row goes on: white planes and random ones
 * check that it reaches no mean that is stored. Each plane
 * is checked to take the strips: bands as tall as the vertical radii
 * need come from one multiprocessor and planes tall enough for the
 * blocks that share it. */
GST_START_TEST (test_strips)
{
  static const struct
  {
    gint channels, narrow[3], wide[2], height, tall;
  } layouts[] = {
    {1, {16, 48, 944}, {1008, 2912}, 120, 48},
    {3, {16, 48, 304}, {1008, 1600}, 120, 48},
    {2, {1, 7, 61}, {487, 1001}, 40, 61},
    {4, {1, 7, 61}, {487, 1001}, 40, 61},
  };
  static const gint short_radii[][2] = { {1, 0}, {1, 1}, {2, 3}, {3, 4},
  {4, 4}, {5, 4}, {6, 4}, {7, 4}, {8, 4}, {8, 0}
  };
  static const gint radii[][2] = { {1, 0}, {1, 1}, {2, 3}, {3, 5}, {4, 6},
  {5, 4}, {6, 6}, {7, 8}, {8, 6}, {8, 0}
  };
  /* Widened three-byte lanes on rows of any width: one pixel, part of a
   * lane, rows ending in every pixel of a lane. */
  static const struct
  {
    gint width, height, padding, rx, ry;
    gboolean white;
  } wide_rgb[] = {
    {1, 100, 16, 5, 4, FALSE}, {7, 100, 32, 8, 4, FALSE},
    {61, 100, 0, 6, 6, FALSE}, {487, 40, 16, 5, 4, FALSE},
    {1001, 40, 48, 7, 8, FALSE}, {1003, 40, 0, 8, 6, TRUE},
    {245, 61, 16, 6, 0, FALSE}, {242, 61, 16, 5, 4, FALSE},
  }, valid_rgb[] = {
    {1, 60, 16, 2, 3, FALSE}, {7, 60, 32, 3, 4, FALSE},
    {61, 60, 0, 4, 2, FALSE}, {250, 61, 16, 2, 0, FALSE},
    {487, 40, 16, 3, 5, FALSE}, {1000, 40, 0, 2, 4, FALSE},
    {1001, 40, 48, 4, 1, FALSE}, {1003, 40, 0, 3, 6, TRUE},
  };
  HipfDeviceLimits limits;
  guint c, w, r;

  told_multiprocessors (&limits, 1);
  for (c = 0; c < G_N_ELEMENTS (layouts); c++) {
    const gint ch = layouts[c].channels, h = layouts[c].height;

    for (w = 0; w < G_N_ELEMENTS (layouts[c].narrow); w++)
      for (r = 0; r < G_N_ELEMENTS (short_radii); r++)
        check_kernel_plane (&limits, ch, layouts[c].narrow[w], 100,
            16 * (r % 3) + 32, short_radii[r][0], short_radii[r][1], FALSE,
            "strips");
    for (w = 0; w < G_N_ELEMENTS (layouts[c].wide); w++)
      for (r = 0; r < G_N_ELEMENTS (radii); r++)
        check_kernel_plane (&limits, ch, layouts[c].wide[w], h,
            16 * (r % 3) + 32, radii[r][0], radii[r][1], FALSE, "strips");
    check_kernel_plane (&limits, ch, layouts[c].wide[0], h, 0, 7, 8, TRUE,
        "strips");
    check_kernel_plane (&limits, ch, layouts[c].wide[1], h, 0, 8, 6, TRUE,
        "strips");
    /* One strip and tall bands: a window of 61 rows. */
    check_kernel_plane (&limits, ch, layouts[c].tall, 800, 16, 1, 30, FALSE,
        "strips");
  }
  /* Four-byte lanes pair their bands only where a band alone is shorter
   * than its window: 1001x40 on one multiprocessor gets bands of fewer
   * than 25 rows and more than 9, so a window of 25 rows pairs them and
   * one of 9 (whose kernels the planes above check) does not. */
  check_kernel_plane (&limits, 4, 1001, 40, 16, 4, 12, FALSE,
      "paired strips");
  check_kernel_plane (&limits, 4, 1001, 40, 16, 4, 12, TRUE,
      "paired strips");
  {
    const HipfBoxBlurPlane unpaired = { 1001, 40, 4, 4, 4, HIPF_BORDER_MIRROR };

    fail_unless_equals_string (hipf_test_blur_path (&limits, &unpaired),
        "strips");
  }
  for (w = 0; w < G_N_ELEMENTS (wide_rgb); w++)
    check_kernel_plane (&limits, 3, wide_rgb[w].width, wide_rgb[w].height,
        wide_rgb[w].padding, wide_rgb[w].rx, wide_rgb[w].ry,
        wide_rgb[w].white, "strips");
  /* In the valid mode, widened lanes from a horizontal radius of 2: rows
   * of other widths than a multiple of 16 pixels, where the other modes
   * take the band kernels, and whose lanes across the row's ends read
   * their pixels where the row is summed, except on rows a whole number
   * of lanes wide (1000). */
  for (w = 0; w < G_N_ELEMENTS (valid_rgb); w++) {
    const HipfBoxBlurPlane valid = { valid_rgb[w].width, valid_rgb[w].height,
      3, valid_rgb[w].rx, valid_rgb[w].ry, HIPF_BORDER_VALID
    };
    HipfBoxBlurPlane zero = valid;

    zero.border = HIPF_BORDER_ZERO;
    fail_unless (takes_path (hipf_test_blur_path (&limits, &valid), "strips"));
    fail_unless_equals_string (hipf_test_blur_path (&limits, &zero), "bands");
    check_kernel_plane (&limits, 3, valid_rgb[w].width, valid_rgb[w].height,
        valid_rgb[w].padding, valid_rgb[w].rx, valid_rgb[w].ry,
        valid_rgb[w].white, NULL);
  }
  /* In the zero mode, widened lanes from radius 4 on rows a whole number
   * of lanes wide (1000), where the mirror mode's lanes of bytes cannot
   * take the row. */
  {
    HipfBoxBlurPlane zero = { 1000, 40, 3, 4, 4, HIPF_BORDER_ZERO };
    HipfBoxBlurPlane mirror = zero;

    mirror.border = HIPF_BORDER_MIRROR;
    fail_unless_equals_string (hipf_test_blur_path (&limits, &zero),
        "strips");
    fail_unless_equals_string (hipf_test_blur_path (&limits, &mirror),
        "bands");
    check_kernel_plane (&limits, 3, 1000, 40, 16, 4, 4, FALSE, NULL);
    check_kernel_plane (&limits, 3, 1000, 40, 0, 4, 4, TRUE, NULL);
  }
  /* One- and three-byte rows of other widths take the band kernels where
   * their lanes are lanes of bytes. */
  check_kernel_plane (&limits, 1, 61, 100, 16, 3, 2, FALSE, "bands");
  check_kernel_plane (&limits, 3, 61, 100, 16, 1, 2, FALSE, "bands");
}

GST_END_TEST;

/* Planes whose bands, as many as fill the device, are shorter than a
 * third of the rows they start from (the first window, or in pairs the
 * half on a band's side and the row between), which take the strips all
 * the same while those rows are at most 23 (17 in pairs) on rows of fewer
 * than 1024 bytes, 8 (6) more for each doubling of the row's bytes, and
 * at the next vertical radius the band path. Told of many
 * multiprocessors, these planes get bands of one row. Lanes of bytes at
 * radius 1 across and widened ones at 5, and in the valid mode one-byte
 * lanes, which do not pair. */
GST_START_TEST (test_short_starts)
{
  static const struct
  {
    gint channels, width, rx, ry;
    const gchar *path;
  } cases[] = {
    {1, 208, 1, 11, "strips"}, {1, 208, 1, 17, "bands"},
    {2, 101, 1, 16, "paired strips"}, {2, 101, 1, 17, "bands"},
    {3, 208, 1, 11, "strips"}, {3, 208, 1, 12, "bands"},
    {3, 101, 5, 11, "strips"}, {4, 101, 2, 16, "paired strips"},
    {4, 101, 2, 17, "bands"},
    /* 2002, 3024, 4004 and 2048 bytes a row: one, two and one doubling. */
    {2, 1001, 1, 22, "paired strips"}, {2, 1001, 1, 23, "bands"},
    {3, 1008, 1, 19, "strips"}, {3, 1008, 1, 20, "bands"},
    {4, 1001, 1, 28, "paired strips"}, {4, 1001, 1, 29, "bands"},
    {1, 2048, 1, 19, "strips"}, {1, 2048, 1, 29, "bands"},
  };
  HipfDeviceLimits limits;
  guint c;

  told_multiprocessors (&limits, 4096);
  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    check_kernel_plane (&limits, cases[c].channels, cases[c].width, 150, 16,
        cases[c].rx, cases[c].ry, FALSE, cases[c].path);
    check_kernel_plane (&limits, cases[c].channels, cases[c].width, 150, 0,
        cases[c].rx, cases[c].ry, TRUE, cases[c].path);
  }
  /* Pairs whose start (31 and 35 rows) is more than the short limit (23
   * and 29 rows on 2002 and 4004 bytes a row), within three bands' rows,
   * and whose window (61 and 69) is not: 1001x320 told of 8
   * multiprocessors gets bands of 20 or 14 rows where two or three blocks
   * of pairs fit a multiprocessor, as they do at 65 to 128 registers a
   * thread (one block would give 40-row bands, which fit the window as
   * well; four, 10-row bands, which fit neither). */
  told_multiprocessors (&limits, 8);
  for (c = 2; c <= 4; c += 2) {
    gint ry = c == 2 ? 30 : 34;

    check_kernel_plane (&limits, c, 1001, 320, 16, 1, ry, FALSE,
        "paired strips");
    check_kernel_plane (&limits, c, 1001, 320, 0, 1, ry, TRUE,
        "paired strips");
  }
}

GST_END_TEST;

/* Planes of one to four bytes a pixel in the valid mode, whose means at
 * the row's ends divide by the columns their windows hold: four-byte
 * pixels in the warps at the ends, from a table the block fills for each
 * count of rows, the others a sample a thread of the whole block. Windows
 * cut at one end or both (both for every chunk of the narrower rows),
 * rows whose windows are also cut at the top or bottom (all of them in
 * short planes, where the table changes every row), radii up to the
 * widest the extended prefix takes, and white planes, whose means are 255
 * wherever the division is exact. */
GST_START_TEST (test_cut_windows)
{
  static const struct
  {
    gint width, height, rx, ry;
  } cases[] = {
    {200, 150, 60, 40}, {1000, 64, 300, 20}, {97, 80, 95, 3}, {61, 30, 9, 0},
    {1500, 120, 700, 100},
  };
  HipfDeviceLimits limits;
  hipError_t err = hipf_device_limits_query (0, &limits);
  guint c;
  gint ch;

  fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
  for (ch = 1; ch <= 4; ch++) {
    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      check_kernel_plane (&limits, ch, cases[c].width, cases[c].height, 16,
          cases[c].rx, cases[c].ry, FALSE, "bands");
      check_kernel_plane (&limits, ch, cases[c].width, cases[c].height, 0,
          cases[c].rx, cases[c].ry, TRUE, "bands");
    }
  }
}

GST_END_TEST;

/* Blurs enqueued back to back on one stream and one scratch: two frames
 * in turn, and chains that blur the output of the blur before, band
 * kernels (with band prefixes) and strip kernels mixed. Where the device
 * overlaps a kernel's launch with the end of the one before it, each
 * kernel must still wait for that one's writes: a band kernel that read
 * the prefixes before their scan was done would blur with the other
 * frame's, and band sums or strips that read a plane still being blurred
 * would blur part of it. Run with the overlap and without. */
GST_START_TEST (test_dependent_launches)
{
  /* Each run's plane (bands or strips), and its input: frame 0 or 1, or
   * the output of the run it names. */
  enum { BANDS, STRIPS, FRAME0 = -1, FRAME1 = -2, FRAMES = 2 };
  static const struct
  {
    gint plane, input;
  } runs[] = {
    {BANDS, FRAME0}, {BANDS, FRAME1}, {STRIPS, FRAME0}, {BANDS, 2},
    {BANDS, 3}, {STRIPS, 4}, {BANDS, FRAME1}, {BANDS, FRAME0}, {BANDS, 7},
    {STRIPS, FRAME1}, {BANDS, 9}, {BANDS, FRAME1},
  };
  enum { RUNS = G_N_ELEMENTS (runs) };
  const gint w = 1000, h = 700, ch = 4;
  const gsize pitch = GST_ROUND_UP_16 (w * ch), size = pitch * h;
  const HipfBoxBlurPlane planes[2] = {
    {w, h, ch, 50, 60, HIPF_BORDER_MIRROR}, {w, h, ch, 3, 2, HIPF_BORDER_WRAP}
  };
  HipfDeviceLimits limits;
  hipError_t err = hipf_device_limits_query (0, &limits);
  guint8 *in[FRAMES], *expected[RUNS], *out = g_malloc (size);
  void *src[FRAMES], *dst[RUNS], *scratch;
  hipStream_t stream;
  gint f, r, overlap;

  fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
  fail_unless_equals_string (hipf_test_blur_path (&limits, &planes[BANDS]),
      "bands");
  fail_unless_equals_string (hipf_test_blur_path (&limits, &planes[STRIPS]),
      "strips");
  fail_unless (hipStreamCreateWithFlags (&stream, hipStreamNonBlocking) ==
      hipSuccess);
  fail_unless (hipMalloc (&scratch, MAX (hipf_box_blur_scratch_size (&limits,
                  &planes[BANDS]), hipf_box_blur_scratch_size (&limits,
                  &planes[STRIPS]))) == hipSuccess);
  for (f = 0; f < FRAMES; f++) {
    gsize i;

    in[f] = g_malloc (size);
    for (i = 0; i < size; i++)
      in[f][i] = g_rand_int_range (hipf_test_rand (), 0, 256);
    fail_unless (hipMalloc (&src[f], size) == hipSuccess);
    fail_unless (hipMemcpyAsync (src[f], in[f], size, hipMemcpyHostToDevice,
            stream) == hipSuccess);
  }
  for (r = 0; r < RUNS; r++) {
    const HipfBoxBlurPlane *pl = &planes[runs[r].plane];
    RefPlane ref_in = { runs[r].input < 0 ? in[-1 - runs[r].input] :
      expected[runs[r].input], (gint) pitch, w, h, ch
    };
    RefPlane ref_out = { NULL, (gint) pitch, w, h, ch };

    expected[r] = g_malloc0 (size);
    ref_out.data = expected[r];
    ref_box_blur_plane (&ref_in, &ref_out, pl->radius_x, pl->radius_y,
        pl->border == HIPF_BORDER_MIRROR ? REF_BORDER_MIRROR :
        REF_BORDER_WRAP);
    fail_unless (hipMalloc (&dst[r], size) == hipSuccess);
  }

  for (overlap = 1; overlap >= 0; overlap--) {
    limits.dependent_launch = limits.dependent_launch && overlap;
    poison_outputs (dst, RUNS, size, stream);
    for (r = 0; r < RUNS; r++) {
      err = hipf_test_blur (&limits, &planes[runs[r].plane],
          runs[r].input < 0 ? src[-1 - runs[r].input] : dst[runs[r].input],
          pitch, dst[r], pitch, scratch, stream);
      fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
    }
    for (r = 0; r < RUNS; r++) {
      gint y;

      download (out, dst[r], size, stream);
      for (y = 0; y < h; y++)
        fail_unless (memcmp (out + y * pitch, expected[r] + y * pitch,
                w * ch) == 0, "run %d (%s of %s %d, overlapping launches "
            "%d): row %d differs (seed %u)", r, runs[r].plane == BANDS ?
            "bands" : "strips", runs[r].input < 0 ? "frame" : "run",
            runs[r].input < 0 ? -1 - runs[r].input : runs[r].input,
            limits.dependent_launch, y, hipf_test_seed ());
    }
  }

  for (f = 0; f < FRAMES; f++) {
    hipFree (src[f]);
    g_free (in[f]);
  }
  for (r = 0; r < RUNS; r++) {
    hipFree (dst[r]);
    g_free (expected[r]);
  }
  hipFree (scratch);
  hipStreamDestroy (stream);
  g_free (out);
}

GST_END_TEST;

/* Frames of two planes, the second blurred with after_plane set, so that
 * its strip kernels start without waiting for the first plane's kernels:
 * a chain of frames, each the blur of the one before, strips and bands
 * mixed. The second plane must still see its whole input, which the
 * kernels of the frame before wrote, and where it takes the band kernels
 * it must wait anyway: both planes share one scratch. Run with the
 * overlap and without. */
GST_START_TEST (test_planes_in_turn)
{
  enum { STRIPS, BANDS, FRAME = -1 };
  static const struct
  {
    gint path[2], input;
  } runs[] = {
    {{STRIPS, STRIPS}, FRAME}, {{STRIPS, STRIPS}, 0}, {{BANDS, BANDS}, 1},
    {{STRIPS, STRIPS}, 2}, {{BANDS, STRIPS}, 3}, {{STRIPS, BANDS}, 4},
    {{STRIPS, STRIPS}, 5},
  };
  enum { RUNS = G_N_ELEMENTS (runs) };
  /* A luma plane and its half-size two-channel chroma plane, radii that
   * take the strip kernels and radii that take the band kernels. */
  const gint w[2] = { 1024, 512 }, h[2] = { 600, 300 }, ch[2] = { 1, 2 };
  const gint radius[2][2] = { {1, 1}, {40, 20} };
  const gsize pitch[2] = { GST_ROUND_UP_16 (w[0] * ch[0]),
    GST_ROUND_UP_16 (w[1] * ch[1])
  };
  const gsize offset[2] = { 0, pitch[0] * h[0] };
  const gsize size = offset[1] + pitch[1] * h[1];
  HipfDeviceLimits limits;
  hipError_t err = hipf_device_limits_query (0, &limits);
  guint8 *in = g_malloc (size), *out = g_malloc (size), *expected[RUNS];
  void *src, *dst[RUNS], *scratch;
  gsize scratch_size = 0, i;
  hipStream_t stream;
  gint r, k, overlap;

  fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
  for (k = 0; k < 2; k++) {
    gint path;

    for (path = STRIPS; path <= BANDS; path++) {
      const HipfBoxBlurPlane pl = { w[k], h[k], ch[k], radius[path][k],
        radius[path][k], HIPF_BORDER_MIRROR, k
      };

      fail_unless_equals_string (hipf_test_blur_path (&limits, &pl),
          path == BANDS ? "bands" : "strips");
      scratch_size = MAX (scratch_size,
          hipf_box_blur_scratch_size (&limits, &pl));
    }
  }
  fail_unless (hipStreamCreateWithFlags (&stream, hipStreamNonBlocking) ==
      hipSuccess);
  fail_unless (hipMalloc (&scratch, scratch_size) == hipSuccess);
  for (i = 0; i < size; i++)
    in[i] = g_rand_int_range (hipf_test_rand (), 0, 256);
  fail_unless (hipMalloc (&src, size) == hipSuccess);
  fail_unless (hipMemcpyAsync (src, in, size, hipMemcpyHostToDevice,
          stream) == hipSuccess);
  for (r = 0; r < RUNS; r++) {
    const guint8 *from = runs[r].input < 0 ? in : expected[runs[r].input];

    expected[r] = g_malloc0 (size);
    for (k = 0; k < 2; k++) {
      RefPlane ref_in = { (guint8 *) from + offset[k], (gint) pitch[k], w[k],
        h[k], ch[k]
      };
      RefPlane ref_out = { expected[r] + offset[k], (gint) pitch[k], w[k],
        h[k], ch[k]
      };
      const gint rk = radius[runs[r].path[k]][k];

      ref_box_blur_plane (&ref_in, &ref_out, rk, rk, REF_BORDER_MIRROR);
    }
    fail_unless (hipMalloc (&dst[r], size) == hipSuccess);
  }

  for (overlap = 1; overlap >= 0; overlap--) {
    limits.dependent_launch = limits.dependent_launch && overlap;
    poison_outputs (dst, RUNS, size, stream);
    for (r = 0; r < RUNS; r++) {
      const guint8 *from = runs[r].input < 0 ? src : dst[runs[r].input];

      for (k = 0; k < 2; k++) {
        const gint rk = radius[runs[r].path[k]][k];
        const HipfBoxBlurPlane pl = { w[k], h[k], ch[k], rk, rk,
          HIPF_BORDER_MIRROR, k
        };

        err = hipf_test_blur (&limits, &pl, from + offset[k], pitch[k],
            (guint8 *) dst[r] + offset[k], pitch[k], scratch, stream);
        fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
      }
    }
    for (r = 0; r < RUNS; r++) {
      download (out, dst[r], size, stream);
      for (k = 0; k < 2; k++) {
        gint y;

        for (y = 0; y < h[k]; y++) {
          const gsize at = offset[k] + y * pitch[k];

          fail_unless (memcmp (out + at, expected[r] + at, w[k] * ch[k]) == 0,
              "run %d, plane %d (%s, overlapping launches %d): row %d "
              "differs (seed %u)", r, k, runs[r].path[k] == BANDS ? "bands" :
              "strips", limits.dependent_launch, y, hipf_test_seed ());
        }
      }
    }
  }

  for (r = 0; r < RUNS; r++) {
    hipFree (dst[r]);
    g_free (expected[r]);
  }
  hipFree (src);
  hipFree (scratch);
  hipStreamDestroy (stream);
  g_free (in);
  g_free (out);
}

GST_END_TEST;

/* The scratch sized for a plane holds what every plane of its width and
 * channels that is no taller needs: hipboxblur blurs the slices of a frame
 * with the frame's scratch. Checked against what the kernels write into a
 * scratch of that size followed by a guard (which the bound before
 * 081b29c failed, 97x1081 at radius 20,2), then against the plan for
 * every height; on this device and on one told of 8 multiprocessors,
 * whose bands are taller than the prefixes' spacing. */
GST_START_TEST (test_scratch_bounds)
{
  static const gint widths[] = { 97, 960, 1920, 3840 };
  static const gint mps[] = { 0, 8 };
  /* Heights of planes whose kernels write their scratch, and radii that
   * take band prefixes at some of them (NV12 1920x1080 in three slices,
   * radius 20 across and 2 down, had written past it). */
  static const gint heights[] = { 1, 2, 5, 17, 100, 131, 181, 263, 400, 700,
    1081, 1500
  };
  static const gint radii[][2] = { {20, 2}, {50, 50}, {1, 30}, {200, 200} };
  /* Bytes past the bound that the kernels must leave as they were. */
  const gsize guard = 65536;
  HipfDeviceLimits limits;
  guint d, c, w, k, r;
  gint h;

  for (d = 0; d < G_N_ELEMENTS (mps); d++) {
    fail_unless (hipf_device_limits_query (0, &limits) == hipSuccess);
    if (mps[d])
      limits.multiprocessors = mps[d];
    for (c = 1; c <= 4; c++) {
      for (w = 0; w < G_N_ELEMENTS (widths); w++) {
        HipfBoxBlurPlane plane = { widths[w], 2160, (gint) c, 0, 0,
          HIPF_BORDER_ZERO
        };
        const gsize bound = hipf_box_blur_scratch_size (&limits, &plane);
        const gsize pitch = GST_ROUND_UP_16 (widths[w] * c);
        const gsize size = pitch * heights[G_N_ELEMENTS (heights) - 1];
        guint8 *tail = g_malloc (guard);
        void *src = NULL, *dst = NULL, *scratch = NULL;

        /* What the kernels write, not what the plan says: shorter planes
         * blurred with a scratch of the bound leave the bytes past it. */
        fail_unless (hipMalloc (&src, size) == hipSuccess);
        fail_unless (hipMalloc (&dst, size) == hipSuccess);
        fail_unless (hipMalloc (&scratch, bound + guard) == hipSuccess);
        fail_unless (hipMemsetAsync (src, 0x7f, size, NULL) == hipSuccess);
        for (k = 0; k < G_N_ELEMENTS (heights); k++) {
          for (r = 0; r < G_N_ELEMENTS (radii); r++) {
            hipError_t err;
            gsize i;

            plane.height = heights[k];
            plane.radius_x = radii[r][0];
            plane.radius_y = radii[r][1];
            fail_unless (hipMemsetAsync (scratch, 0xa5, bound + guard,
                    NULL) == hipSuccess);
            err = hipf_test_blur (&limits, &plane, src, pitch, dst, pitch,
                scratch, NULL);
            fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
            download (tail, (guint8 *) scratch + bound, guard, NULL);
            for (i = 0; i < guard && tail[i] == 0xa5; i++);
            fail_unless (i == guard, "%u channels, %d wide, %d rows, radius "
                "%d,%d, %d multiprocessors (%s kernels): byte %"
                G_GSIZE_FORMAT " past the %" G_GSIZE_FORMAT "-byte scratch "
                "written", c, widths[w], heights[k], radii[r][0],
                radii[r][1], limits.multiprocessors,
                hipf_test_blur_path (&limits, &plane), i, bound);
          }
        }
        hipFree (src);
        hipFree (dst);
        hipFree (scratch);
        g_free (tail);
        plane.radius_x = plane.radius_y = 0;

        /* And what the plan says, for every height. */
        for (h = 1; h <= 2160; h++) {
          plane.height = h;
          fail_unless (hipf_box_blur_scratch_size (&limits, &plane) <= bound,
              "%u channels, %d wide, %d multiprocessors: %d rows need %"
              G_GSIZE_FORMAT " bytes, 2160 rows %" G_GSIZE_FORMAT, c,
              widths[w], limits.multiprocessors, h,
              hipf_box_blur_scratch_size (&limits, &plane), bound);
        }
      }
    }
  }
}

GST_END_TEST;

/* Frames in slices of rows: every format, border mode and a few slice
 * counts, on odd sizes, with windows within a slice and across several;
 * slices start on rows of every plane, so 4:2:0 frames take slices of an
 * even number of rows. */
GST_START_TEST (test_slices)
{
  static const Size sizes[] = { {97, 41}, {33, 5} };
  static const guint counts[] = { 2, 3, 16 };
  /* Slices taken, by size, count asked and rows a slice starts on (one or
   * two): 41 rows in 16 slices of 3 (14) or of 4 (11), 5 rows in 16 of 1
   * or of 2 (2, 2 and 1). */
  static const guint taken[2][3][2] = {
    {{2, 2}, {3, 3}, {14, 11}},
    {{2, 2}, {3, 3}, {5, 3}},
  };
  static const gint radii[][2] = { {1, 1}, {2, 3}, {6, 6}, {1, 20}, {9, 40} };
  guint f, s, c, m, r;

  for (f = 0; f < hipf_test_n_blur_formats; f++) {
    GstVideoFormat fmt = hipf_test_blur_formats[f];
    const GstVideoFormatInfo *finfo = gst_video_format_get_info (fmt);
    guint sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo,
        GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo) - 1);

    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      const Size *sz = &sizes[s];
      GstHarness *h;

      /* Frames this small take one slice of their own accord: the second
       * output frame waits for the first frame asked to take more. */
      h = harness_for (fmt, sz->width, sz->height);
      fail_unless_equals_int (slice_buffers (h), 0);
      for (c = 0; c < G_N_ELEMENTS (counts); c++) {
        guint expected = taken[s][c][sub];

        g_object_set (h->element, "slices", counts[c], NULL);
        for (m = 0; m < REF_N_BORDERS; m++) {
          for (r = 0; r < G_N_ELEMENTS (radii); r++) {
            check_frame (h, fmt, sz->width, sz->height, 0, radii[r][0],
                radii[r][1], m);
            fail_unless (last_slices (h) == (m == REF_BORDER_WRAP ? 1 :
                    expected), "%s %dx%d, %u slices asked: %u taken",
                gst_video_format_to_string (fmt), sz->width, sz->height,
                counts[c], last_slices (h));
          }
        }
        fail_unless_equals_int (slice_buffers (h), 1);
      }
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* Slices of frames in flight: NV12 97x33 in three slices of 12 rows (the
 * last 9), four frames in flight, each frame exact and in order. */
GST_START_TEST (test_slices_in_flight)
{
  GstHarness *h;
  GstBuffer *expected[8];
  GstElement *blur;
  guint i;

  /* Negotiated for whole frames: no slot has a second output frame until
   * a frame in it is sliced. */
  h = in_flight_harness ();
  blur = gst_harness_find_element (h, "hipboxblur");
  fail_unless_equals_int (blur_stat (blur, "slice-buffers"), 0);
  g_object_set (blur, "slices", 3, NULL);
  for (i = 0; i < 8; i++) {
    push_numbered (h, i, &expected[i]);
    fail_unless_equals_int (blur_stat (blur, "slices"), 3);
    fail_unless_equals_int (blur_stat (blur, "slice-buffers"), MIN (i + 1, 4));
  }
  gst_object_unref (blur);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  for (i = 0; i < 8; i++)
    pull_numbered (h, i, expected[i]);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The second output frame allocated while playing, for the first frame
 * asked to take slices, fails: that frame is lost with an element error
 * naming it, the frame before it still leaves, exact, and the element
 * stops cleanly. Two slots negotiated for whole frames make six device
 * allocations (input, output and scratch each), so the seventh is the
 * second output frame of the second slot. */
GST_START_TEST (test_alternate_alloc_fails)
{
  GstHarness *h;
  GstBus *bus = gst_bus_new ();
  GstElement *blur;
  GstBuffer *expected, *in;
  GstVideoInfo info;
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;

  g_setenv ("GST_HIP_FAIL", "alloc:7", TRUE);
  h = gst_harness_new_parse ("hipboxblur frames-in-flight=2 radius=5 "
      "border-mode=clamp");
  gst_element_set_bus (h->element, bus);
  set_numbered_caps (h);
  g_unsetenv ("GST_HIP_FAIL");

  push_numbered (h, 0, &expected);
  blur = gst_harness_find_element (h, "hipboxblur");
  g_object_set (blur, "slices", 3, NULL);
  gst_object_unref (blur);
  in = hipf_test_frame_new (numbered_format, numbered_width, numbered_height,
      0, &info);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error posted");
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NO_SPACE_LEFT), "%s", err->message);
  fail_unless (strstr (err->message, "alternate slices") != NULL, "%s",
      err->message);
  fail_unless (debug && strstr (debug, "GST_HIP_FAIL") != NULL, "%s", debug);
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);

  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  pull_numbered (h, 0, expected);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
boxblur_gpu_suite (void)
{
  Suite *s = suite_create ("hipboxblur-gpu");
  TCase *tc = tcase_create ("gpu");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_small_frames);
  tcase_add_test (tc, test_anisotropic);
  tcase_add_test (tc, test_vga);
  tcase_add_test (tc, test_full_hd);
  tcase_add_test (tc, test_wide_rows);
  tcase_add_test (tc, test_bright_frames);
  tcase_add_test (tc, test_wide_samples);
  tcase_add_test (tc, test_tall_bands);
  tcase_add_test (tc, test_cut_windows);
  tcase_add_test (tc, test_dependent_launches);
  tcase_add_test (tc, test_planes_in_turn);
  tcase_add_test (tc, test_strips);
  tcase_add_test (tc, test_short_starts);
  tcase_add_test (tc, test_padded_input);
  tcase_add_test (tc, test_padded_output);
  tcase_add_test (tc, test_passthrough_and_changes);
  tcase_add_test (tc, test_frames_in_flight);
  tcase_add_test (tc, test_done_frames_leave);
  tcase_add_test (tc, test_done_frame_refused);
  tcase_add_test (tc, test_in_flight_push_fails);
  tcase_add_test (tc, test_in_flight_push_fails_passthrough);
  tcase_add_test (tc, test_drain_query);
  tcase_add_test (tc, test_events_in_flight);
  tcase_add_test (tc, test_qos);
  tcase_add_test (tc, test_qos_in_flight);
  tcase_add_test (tc, test_discont_in_flight);
  tcase_add_test (tc, test_latency);
  tcase_add_test (tc, test_pinned_pools);
  tcase_add_test (tc, test_scratch_bounds);
  tcase_add_test (tc, test_slices);
  tcase_add_test (tc, test_slices_in_flight);
  tcase_add_test (tc, test_alternate_alloc_fails);
  return s;
}

HIPF_GPU_CHECK_MAIN (boxblur_gpu);
