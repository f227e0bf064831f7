/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The CPU reference against hand-computed values, and its fast separable
 * form against the direct definition.
 */
#include <math.h>

#include <gst/check/gstcheck.h>

#include "reference.h"
#include "testutil.h"

static void
blur_row (const guint8 * in, gint width, gint channels, gint rx, gint ry,
    RefBorder mode, guint8 * out)
{
  guint8 copy[64];
  RefPlane src = { copy, width * channels, width, 1, channels };
  RefPlane dst = { out, width * channels, width, 1, channels };

  memcpy (copy, in, width * channels);
  ref_box_blur_plane_direct (&src, &dst, rx, ry, mode);
}

GST_START_TEST (test_border_index)
{
  fail_unless_equals_int (ref_border_index (-1, 4, REF_BORDER_MIRROR), 1);
  fail_unless_equals_int (ref_border_index (4, 4, REF_BORDER_MIRROR), 2);
  fail_unless_equals_int (ref_border_index (-7, 3, REF_BORDER_MIRROR), 1);
  fail_unless_equals_int (ref_border_index (9, 1, REF_BORDER_MIRROR), 0);
  fail_unless_equals_int (ref_border_index (-1, 4, REF_BORDER_WRAP), 3);
  fail_unless_equals_int (ref_border_index (9, 4, REF_BORDER_WRAP), 1);
  fail_unless_equals_int (ref_border_index (-5, 4, REF_BORDER_CLAMP), 0);
  fail_unless_equals_int (ref_border_index (7, 4, REF_BORDER_CLAMP), 3);
  fail_unless_equals_int (ref_border_index (-1, 4, REF_BORDER_ZERO), -1);
  fail_unless_equals_int (ref_border_index (4, 4, REF_BORDER_VALID), -1);
  fail_unless_equals_int (ref_border_index (2, 4, REF_BORDER_VALID), 2);
}

GST_END_TEST;

/* [10 20 30 40], window of 3: each mode's edge values by hand. */
GST_START_TEST (test_row_each_mode)
{
  static const guint8 row[] = { 10, 20, 30, 40 };
  static const guint8 expect[REF_N_BORDERS][4] = {
    {10, 20, 30, 23},           /* zero: (0+10+20+1)/3, (30+40+0+1)/3 */
    {13, 20, 30, 37},           /* clamp: (10+10+20+1)/3, (30+40+40+1)/3 */
    {17, 20, 30, 33},           /* mirror: (20+10+20+1)/3, (30+40+30+1)/3 */
    {23, 20, 30, 27},           /* wrap: (40+10+20+1)/3, (30+40+10+1)/3 */
    {15, 20, 30, 35},           /* valid: (10+20+1)/2, (30+40+1)/2 */
  };
  guint8 out[4];
  gint m;

  for (m = 0; m < REF_N_BORDERS; m++) {
    blur_row (row, 4, 1, 1, 0, m, out);
    fail_unless (memcmp (out, expect[m], 4) == 0, "%s: %u %u %u %u",
        ref_border_nicks[m], out[0], out[1], out[2], out[3]);
  }
}

GST_END_TEST;

/* [0 90 180], radius 4 > width: reflections and periods repeat. */
GST_START_TEST (test_radius_beyond_plane)
{
  static const guint8 row[] = { 0, 90, 180 };
  /* Sample 0, window -4..4:
   * zero 270/9, clamp (4*0 + 270 + 2*180)/9, mirror 720/9 (0 90 180 90 0 90
   * 180 90 0), wrap 810/9 (180 0 90 180 0 90 180 0 90), valid 270/3. */
  static const guint8 expect[REF_N_BORDERS] = { 30, 70, 80, 90, 90 };
  guint8 out[3];
  gint m;

  for (m = 0; m < REF_N_BORDERS; m++) {
    blur_row (row, 3, 1, 4, 0, m, out);
    fail_unless_equals_int (out[0], expect[m]);
  }
}

GST_END_TEST;

/* 3x3 plane 10..90, radius 1: the corner sample in each mode. */
GST_START_TEST (test_2d_corner)
{
  guint8 data[9] = { 10, 20, 30, 40, 50, 60, 70, 80, 90 }, out[9];
  RefPlane src = { data, 3, 3, 3, 1 }, dst = { out, 3, 3, 3, 1 };
  /* zero 120/9, clamp (40+40+130)/9, mirror (140+50+140)/9,
   * wrap (240+60+150)/9, valid 120/4 */
  static const guint8 expect[REF_N_BORDERS] = { 13, 23, 37, 50, 30 };
  gint m;

  for (m = 0; m < REF_N_BORDERS; m++) {
    ref_box_blur_plane_direct (&src, &dst, 1, 1, m);
    fail_unless_equals_int (out[0], expect[m]);
    fail_unless_equals_int (out[4], 50);
  }
}

GST_END_TEST;

/* Interleaved channels never mix. */
GST_START_TEST (test_channels_apart)
{
  static const guint8 row[] = { 10, 200, 20, 100 };
  guint8 out[4];

  blur_row (row, 2, 2, 1, 0, REF_BORDER_CLAMP, out);
  fail_unless_equals_int (out[0], 13);  /* (10+10+20+1)/3 */
  fail_unless_equals_int (out[1], 167); /* (200+200+100+1)/3 */
  fail_unless_equals_int (out[2], 17);  /* (10+20+20+1)/3 */
  fail_unless_equals_int (out[3], 133); /* (200+100+100+1)/3 */
}

GST_END_TEST;

GST_START_TEST (test_separable_equals_direct)
{
  GRand *rand = hipf_test_rand ();
  gint iter;

  for (iter = 0; iter < 400; iter++) {
    gint w = g_rand_int_range (rand, 1, 13), h = g_rand_int_range (rand, 1, 13);
    gint ch = g_rand_int_range (rand, 1, 5);
    gint rx = g_rand_int_range (rand, 0, 16), ry = g_rand_int_range (rand, 0,
        16);
    RefBorder m = g_rand_int_range (rand, 0, REF_N_BORDERS);
    gint stride = w * ch + g_rand_int_range (rand, 0, 5);
    guint8 *in = g_malloc (stride * h), *a = g_malloc0 (stride * h),
        *b = g_malloc0 (stride * h);
    RefPlane src = { in, stride, w, h, ch };
    RefPlane da = { a, stride, w, h, ch }, db = { b, stride, w, h, ch };
    gint i;

    for (i = 0; i < stride * h; i++)
      in[i] = g_rand_int (rand);
    ref_box_blur_plane_direct (&src, &da, rx, ry, m);
    ref_box_blur_plane (&src, &db, rx, ry, m);
    fail_unless (memcmp (a, b, stride * h) == 0,
        "%dx%d ch %d r %d,%d %s (seed %u)", w, h, ch, rx, ry,
        ref_border_nicks[m], hipf_test_seed ());
    g_free (in);
    g_free (a);
    g_free (b);
  }
}

GST_END_TEST;

/* The same for 16-bit samples, whole and with P010's six low bits
 * dropped. */
GST_START_TEST (test_separable_equals_direct_16)
{
  GRand *rand = hipf_test_rand ();
  gint iter;

  for (iter = 0; iter < 200; iter++) {
    gint w = g_rand_int_range (rand, 1, 13), h = g_rand_int_range (rand, 1, 13);
    gint ch = g_rand_int_range (rand, 1, 3), shift = iter % 2 ? 6 : 0;
    gint rx = g_rand_int_range (rand, 0, 16), ry = g_rand_int_range (rand, 0,
        16);
    RefBorder m = g_rand_int_range (rand, 0, REF_N_BORDERS);
    gint stride = 2 * w * ch + 2 * g_rand_int_range (rand, 0, 3);
    guint8 *in = g_malloc (stride * h), *a = g_malloc0 (stride * h),
        *b = g_malloc0 (stride * h);
    RefPlane src = { in, stride, w, h, ch, 2, shift };
    RefPlane da = { a, stride, w, h, ch, 2, shift };
    RefPlane db = { b, stride, w, h, ch, 2, shift };
    gint i;

    for (i = 0; i < stride * h; i++)
      in[i] = g_rand_int (rand);
    ref_box_blur_plane_direct (&src, &da, rx, ry, m);
    ref_box_blur_plane (&src, &db, rx, ry, m);
    fail_unless (memcmp (a, b, stride * h) == 0,
        "%dx%d ch %d shift %d r %d,%d %s (seed %u)", w, h, ch, shift, rx, ry,
        ref_border_nicks[m], hipf_test_seed ());
    g_free (in);
    g_free (a);
    g_free (b);
  }
}

GST_END_TEST;

/* 16-bit means by hand: no sample is cut to 8 bits, and P010's low bits
 * are dropped before the mean and zero after it. */
GST_START_TEST (test_16bit_by_hand)
{
  guint8 in[4], out[4];
  RefPlane src = { in, 4, 2, 1, 1, 2, 0 }, dst = { out, 4, 2, 1, 1, 2, 0 };

  /* 65 535 and 65 534, radius 1, clamp: (2 * 65535 + 65534 + 1) / 3 and
   * (65535 + 2 * 65534 + 1) / 3. */
  GST_WRITE_UINT16_LE (in, 65535);
  GST_WRITE_UINT16_LE (in + 2, 65534);
  ref_box_blur_plane_direct (&src, &dst, 1, 0, REF_BORDER_CLAMP);
  fail_unless_equals_int (GST_READ_UINT16_LE (out), 65535);
  fail_unless_equals_int (GST_READ_UINT16_LE (out + 2), 65534);
  /* P010: 0xffff is 1023 and 0x003f is 0: (1023 + 1023 + 0 + 1) / 3 = 682
   * and (1023 + 0 + 0 + 1) / 3 = 341, stored six bits up. */
  src.shift = dst.shift = 6;
  GST_WRITE_UINT16_LE (in, 0xffff);
  GST_WRITE_UINT16_LE (in + 2, 0x003f);
  ref_box_blur_plane_direct (&src, &dst, 1, 0, REF_BORDER_CLAMP);
  fail_unless_equals_int (GST_READ_UINT16_LE (out), 682 << 6);
  fail_unless_equals_int (GST_READ_UINT16_LE (out + 2), 341 << 6);
}

GST_END_TEST;

/* 2x2 RGBA: every channel and the luma by hand. */
/* Packed 4:2:2 blurs as the same samples laid out as Y42B do: each
 * component apart, chroma with half the horizontal radius. */
GST_START_TEST (test_packed_422_as_y42b)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_YUY2,
    GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YVYU
  };
  guint f, c, m;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (m = 0; m < REF_N_BORDERS; m++) {
      GstVideoInfo pinfo, qinfo;
      GstBuffer *packed = hipf_test_frame_new (formats[f], 37, 11, 3, &pinfo);
      GstBuffer *packed_out, *planar, *planar_out;
      GstVideoFrame pi, po, qi, qo;
      gint x, y;

      gst_video_info_set_format (&qinfo, GST_VIDEO_FORMAT_Y42B, 37, 11);
      planar = gst_buffer_new_allocate (NULL, qinfo.size, NULL);
      planar_out = gst_buffer_new_allocate (NULL, qinfo.size, NULL);
      packed_out = gst_buffer_new_allocate (NULL, pinfo.size, NULL);
      fail_unless (gst_video_frame_map (&pi, &pinfo, packed, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&po, &pinfo, packed_out,
              GST_MAP_WRITE));
      fail_unless (gst_video_frame_map (&qi, &qinfo, planar, GST_MAP_WRITE));
      fail_unless (gst_video_frame_map (&qo, &qinfo, planar_out,
              GST_MAP_WRITE));
      /* The same samples, planar. */
      for (c = 0; c < 3; c++)
        for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&pi, c); y++)
          for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&pi, c); x++)
            ((guint8 *) GST_VIDEO_FRAME_COMP_DATA (&qi, c))[y *
                GST_VIDEO_FRAME_COMP_STRIDE (&qi, c) + x] =
                ((guint8 *) GST_VIDEO_FRAME_COMP_DATA (&pi, c))[y *
                GST_VIDEO_FRAME_COMP_STRIDE (&pi, c) +
                x * GST_VIDEO_FRAME_COMP_PSTRIDE (&pi, c)];
      ref_box_blur_frame (&pi, &po, 5, 2, m);
      ref_box_blur_frame (&qi, &qo, 5, 2, m);
      for (c = 0; c < 3; c++)
        for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&po, c); y++)
          for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&po, c); x++)
            fail_unless_equals_int (((guint8 *)
                    GST_VIDEO_FRAME_COMP_DATA (&po, c))[y *
                    GST_VIDEO_FRAME_COMP_STRIDE (&po, c) +
                    x * GST_VIDEO_FRAME_COMP_PSTRIDE (&po, c)],
                ((guint8 *) GST_VIDEO_FRAME_COMP_DATA (&qo, c))[y *
                    GST_VIDEO_FRAME_COMP_STRIDE (&qo, c) + x]);
      gst_video_frame_unmap (&pi);
      gst_video_frame_unmap (&po);
      gst_video_frame_unmap (&qi);
      gst_video_frame_unmap (&qo);
      gst_buffer_unref (packed);
      gst_buffer_unref (packed_out);
      gst_buffer_unref (planar);
      gst_buffer_unref (planar_out);
    }
  }
}

GST_END_TEST;

/* One zone of the whole frame holds what the frame's luma histogram says;
 * a grid's zones add up to it. */
GST_START_TEST (test_zones)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_RGB,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_P010_10LE,
    GST_VIDEO_FORMAT_I420_10LE
  };
  guint f, v;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstVideoInfo info;
    GstBuffer *buf = hipf_test_frame_new (formats[f], 37, 19, 2, &info);
    RefHistogram hist;
    RefZone one, grid[7 * 5], total;
    RefStats st;
    GstVideoFrame frame;
    guint luma, z;

    fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
    ref_histogram_frame (&frame, 0, 0, 0, 0, &hist);
    luma = GST_VIDEO_INFO_IS_RGB (&info) ? hist.n_channels - 1 : 0;
    ref_histogram_stats (hist.counts[luma], hist.values, hist.unit, 4, 251,
        118, &st);
    ref_zones (&frame, 1, 1, 4, 251, &one);
    fail_unless_equals_uint64 (one.pixels, st.pixels);
    fail_unless (fabs ((gdouble) one.sum / one.pixels - st.mean) < 1e-9);
    fail_unless_equals_int (one.min, st.min);
    fail_unless_equals_int (one.max, st.max);
    fail_unless (fabs ((gdouble) one.low / one.pixels - st.clipped_low) < 1e-9);
    fail_unless (fabs ((gdouble) one.high / one.pixels - st.clipped_high) <
        1e-9);
    for (v = 0; v < hist.values; v++)
      fail_unless_equals_uint64 (one.hist[v], hist.counts[luma][v]);

    ref_zones (&frame, 7, 5, 4, 251, grid);
    memset (&total, 0, sizeof (total));
    for (z = 0; z < 7 * 5; z++) {
      total.pixels += grid[z].pixels;
      total.sum += grid[z].sum;
      total.low += grid[z].low;
      fail_unless (grid[z].pixels > 0);
      fail_unless (grid[z].min >= one.min && grid[z].max <= one.max);
    }
    fail_unless_equals_uint64 (total.pixels, one.pixels);
    fail_unless_equals_uint64 (total.sum, one.sum);
    fail_unless_equals_uint64 (total.low, one.low);
    gst_video_frame_unmap (&frame);
    gst_buffer_unref (buf);
  }
}

GST_END_TEST;

/* The overlay's rules on frames whose answer is known: false colour of a
 * constant frame is its band's colour, zebra stripes only the bright
 * pixels of even stripes, and the graph of a constant frame is one full
 * bar. */
GST_START_TEST (test_exposure)
{
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstVideoFrame fi, fo;
  RefExposure e = { 0 };
  guint8 *p;
  gint x, y;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 40, 24);
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_WRITE));
  fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_WRITE));
  /* Grey 100 (luma 100, the green band), the right half white. */
  for (y = 0; y < 24; y++)
    for (x = 0; x < 40; x++) {
      p = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fi, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0) + 4 * x;
      p[0] = p[1] = p[2] = x < 20 ? 100 : 255;
      p[3] = 77;
    }

  e.false_color = TRUE;
  ref_exposure_frame (&fi, &fo, &e);
  p = GST_VIDEO_FRAME_PLANE_DATA (&fo, 0);
  fail_unless (p[0] == 0 && p[1] == 200 && p[2] == 0 && p[3] == 77);
  p += 4 * 30;
  fail_unless (p[0] == 255 && p[1] == 0 && p[2] == 0, "white is red");

  e.false_color = FALSE;
  e.zebra = TRUE;
  e.zebra_threshold = 235;
  e.frame = 3;
  ref_exposure_frame (&fi, &fo, &e);
  for (y = 0; y < 24; y++)
    for (x = 0; x < 40; x++) {
      gboolean striped = x >= 20 && ((x + y + 3) / 4) % 2 == 0;

      p = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fo, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0) + 4 * x;
      fail_unless_equals_int (p[0], striped ? 0 : x < 20 ? 100 : 255);
    }

  /* Two values, 480 samples each: two bars as high as the box, opaque. */
  e.zebra = FALSE;
  e.graph = TRUE;
  e.graph_x = e.graph_y = 0;
  e.graph_width = 256;
  e.graph_height = 16;
  e.graph_opacity = 255;
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 256, 16);
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_WRITE));
  fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_WRITE));
  for (y = 0; y < 16; y++)
    for (x = 0; x < 256; x++)
      ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fi, 0))[y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0) + x] = x < 128 ? 40 : 200;
  ref_exposure_frame (&fi, &fo, &e);
  for (y = 0; y < 16; y++)
    for (x = 0; x < 256; x++)
      fail_unless_equals_int (((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fo,
                  0))[y * GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0) + x],
          x == 40 || x == 200 ? 235 : 16);
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

GST_END_TEST;

GST_START_TEST (test_histogram_rgba)
{
  static const guint8 px[] = { 255, 0, 0, 255, 0, 255, 0, 128,
    0, 0, 255, 0, 100, 100, 100, 7
  };
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;
  RefHistogram h;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 2, 2);
  buf = gst_buffer_new_memdup (px, sizeof (px));
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  ref_histogram_frame (&frame, 0, 0, 0, 0, &h);
  fail_unless_equals_int (h.n_channels, 5);
  fail_unless_equals_string (h.names[3], "alpha");
  fail_unless_equals_string (h.names[4], "luma");
  fail_unless_equals_int (h.counts[0][255], 1);
  fail_unless_equals_int (h.counts[0][0], 2);
  fail_unless_equals_int (h.counts[3][128], 1);
  fail_unless_equals_int (h.counts[3][7], 1);
  /* (77*255+128)>>8 = 77, (150*255+128)>>8 = 149, (29*255+128)>>8 = 29,
   * (256*100+128)>>8 = 100 */
  fail_unless_equals_int (h.counts[4][77], 1);
  fail_unless_equals_int (h.counts[4][149], 1);
  fail_unless_equals_int (h.counts[4][29], 1);
  fail_unless_equals_int (h.counts[4][100], 1);
  fail_unless_equals_int (h.samples[4], 4);
  /* Only the right column. */
  ref_histogram_frame (&frame, 1, 0, 0, 0, &h);
  fail_unless_equals_int (h.samples[0], 2);
  fail_unless_equals_int (h.counts[4][149], 1);
  fail_unless_equals_int (h.counts[4][100], 1);
  gst_video_frame_unmap (&frame);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* 3x3 I420: chroma is 2x2, a 1x1 region at (2, 2) touches chroma (1, 1). */
GST_START_TEST (test_histogram_chroma_roi)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;
  RefHistogram h;
  gint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 3, 3);
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  /* The luma plane is counted too: no uninitialised bytes (valgrind). */
  gst_buffer_memset (buf, 0, 0, info.size);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  for (i = 0; i < 4; i++) {
    GST_VIDEO_FRAME_COMP_DATA (&frame, 1)[(i / 2) *
        GST_VIDEO_FRAME_COMP_STRIDE (&frame, 1) + i % 2] = 10 + i;
    GST_VIDEO_FRAME_COMP_DATA (&frame, 2)[(i / 2) *
        GST_VIDEO_FRAME_COMP_STRIDE (&frame, 2) + i % 2] = 20 + i;
  }
  ref_histogram_frame (&frame, 2, 2, 1, 1, &h);
  fail_unless_equals_int (h.n_channels, 3);
  fail_unless_equals_int (h.samples[0], 1);
  fail_unless_equals_int (h.samples[1], 1);
  fail_unless_equals_int (h.counts[1][13], 1);
  fail_unless_equals_int (h.counts[2][23], 1);
  /* Luma columns 1..2 touch both chroma columns. */
  ref_histogram_frame (&frame, 1, 0, 2, 1, &h);
  fail_unless_equals_int (h.samples[0], 2);
  fail_unless_equals_int (h.counts[1][10], 1);
  fail_unless_equals_int (h.counts[1][11], 1);
  gst_video_frame_unmap (&frame);
  gst_buffer_unref (buf);
}

GST_END_TEST;

GST_START_TEST (test_histogram_stats)
{
  guint64 luma[REF_HIST_VALUES] = { 0 };
  RefStats st;

  luma[2] = 1;
  luma[100] = 2;
  luma[252] = 1;
  ref_histogram_stats (luma, REF_HIST_VALUES, 1, 4, 251, 118, &st);
  fail_unless_equals_uint64 (st.pixels, 4);
  fail_unless (fabs (st.mean - 113.5) < 1e-9);
  /* deviations -111.5, -13.5, -13.5, 138.5 */
  fail_unless (fabs (st.stddev - sqrt ((111.5 * 111.5 + 2 * 13.5 * 13.5 +
                  138.5 * 138.5) / 4)) < 1e-9);
  fail_unless_equals_int (st.median, 100);
  fail_unless_equals_int (st.min, 2);
  fail_unless_equals_int (st.max, 252);
  fail_unless (st.clipped_low == 0.25 && st.clipped_high == 0.25);
  fail_unless (fabs (st.ev_correction - log2 (118 / 113.5)) < 1e-12);
}

GST_END_TEST;

/* A zeroed frame of @format, mapped for writing into @frame. */
static GstBuffer *
zero_frame (GstVideoFormat format, gint width, gint height,
    GstVideoInfo * info, GstVideoFrame * frame)
{
  GstBuffer *buf;

  gst_video_info_set_format (info, format, width, height);
  buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  gst_buffer_memset (buf, 0, 0, info->size);
  fail_unless (gst_video_frame_map (frame, info, buf, GST_MAP_WRITE));
  return buf;
}

/* The first @n luma samples, row by row, set to the 16-bit words
 * @words. */
static void
put_luma (GstVideoFrame * frame, const guint16 * words, guint n)
{
  gint w = GST_VIDEO_FRAME_WIDTH (frame);
  guint i;

  for (i = 0; i < n; i++)
    GST_WRITE_UINT16_LE ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame, 0)
        + (i / w) * GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0) + 2 * (i % w),
        words[i]);
}

/* The 10-bit formats count their ten bits: P010's from the top of the
 * word (its low six bits ignored), I420_10LE's from the bottom (the bits
 * above ignored); the statistics are those of the 10-bit values, and
 * clipping compares their top eight bits: 19 is at or below 4, 20 is not;
 * 1004 is at or above 251, 1003 is not. */
GST_START_TEST (test_histogram_10bit_by_hand)
{
  static const guint values[8] = { 0, 19, 20, 512, 1003, 1004, 1023, 77 };
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_P010_10LE,
    GST_VIDEO_FORMAT_I420_10LE
  };
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    gboolean p010 = formats[f] == GST_VIDEO_FORMAT_P010_10LE;
    guint16 luma[8], u = p010 ? (300 << 6) | 0x2a : 0xfc00 | 300;
    guint16 v = p010 ? 700 << 6 : 0x0400 | 700;
    GstVideoInfo info;
    GstBuffer *buf;
    GstVideoFrame frame;
    RefHistogram h;
    RefZone zone;
    RefStats st;
    gdouble var = 0;

    /* Other bits set where the format ignores them. */
    for (i = 0; i < 8; i++)
      luma[i] = p010 ? values[i] << 6 | (i * 9 % 64) : values[i] |
          (i * 0x1400 & 0xfc00);
    buf = zero_frame (formats[f], 4, 2, &info, &frame);
    put_luma (&frame, luma, 8);
    /* The first chroma pixel: P010's U and V words side by side, as
     * GStreamer's unpacking reads them; I420_10LE's in planes of their
     * own. */
    GST_WRITE_UINT16_LE (GST_VIDEO_FRAME_PLANE_DATA (&frame, 1), u);
    GST_WRITE_UINT16_LE ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
            p010 ? 1 : 2) + (p010 ? 2 : 0), v);
    ref_histogram_frame (&frame, 0, 0, 0, 0, &h);
    fail_unless_equals_int (h.values, 1024);
    fail_unless_equals_int (h.unit, 1);
    fail_unless_equals_int (h.n_channels, 3);
    for (i = 0; i < 8; i++)
      fail_unless_equals_uint64 (h.counts[0][values[i]], 1);
    fail_unless_equals_uint64 (h.samples[0], 8);
    /* 2x1 chroma: U is 300 and 0, V 700 and 0. */
    fail_unless_equals_uint64 (h.counts[1][300], 1);
    fail_unless_equals_uint64 (h.counts[1][0], 1);
    fail_unless_equals_uint64 (h.counts[2][700], 1);
    fail_unless_equals_uint64 (h.counts[2][0], 1);

    ref_histogram_stats (h.counts[0], h.values, h.unit, 4, 251, 118, &st);
    fail_unless_equals_uint64 (st.pixels, 8);
    fail_unless_equals_int (st.min, 0);
    fail_unless_equals_int (st.max, 1023);
    /* Sorted 0 19 20 77 512 ...: the fourth of eight. */
    fail_unless_equals_int (st.median, 77);
    fail_unless (fabs (st.mean - 3658 / 8.0) < 1e-9);
    for (i = 0; i < 8; i++)
      var += (values[i] - 3658 / 8.0) * (values[i] - 3658 / 8.0);
    fail_unless (fabs (st.stddev - sqrt (var / 8)) < 1e-9);
    fail_unless (st.clipped_low == 0.25 && st.clipped_high == 0.25);
    fail_unless (fabs (st.ev_correction - log2 (118 / (3658 / 8.0 / 4))) <
        1e-12);

    /* The zone of the whole frame meters the same. */
    ref_zones (&frame, 1, 1, 4, 251, &zone);
    fail_unless_equals_uint64 (zone.sum, 3658);
    fail_unless_equals_int (zone.min, 0);
    fail_unless_equals_int (zone.max, 1023);
    fail_unless_equals_uint64 (zone.low, 2);
    fail_unless_equals_uint64 (zone.high, 2);
    fail_unless_equals_uint64 (zone.hist[1003], 1);
    gst_video_frame_unmap (&frame);
    gst_buffer_unref (buf);
  }
}

GST_END_TEST;

/* GRAY16_LE counts the top ten bits, value v standing for v * 64: 0x003f
 * counts as 0, 0xffff and 0xffc0 as 1023 (65472), 0x1234 as 72 (4608). */
GST_START_TEST (test_histogram_gray16_by_hand)
{
  static const guint16 words[5] = { 0x0000, 0x003f, 0xffc0, 0xffff, 0x1234 };
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf = zero_frame (GST_VIDEO_FORMAT_GRAY16_LE, 5, 1, &info,
      &frame);
  RefHistogram h;
  RefZone zone;
  RefStats st;
  guint64 binned[REF_HIST_MAX_VALUES];
  const gdouble mean = (2 * 65472 + 4608) / 5.0;

  put_luma (&frame, words, 5);
  ref_histogram_frame (&frame, 0, 0, 0, 0, &h);
  fail_unless_equals_int (h.values, 1024);
  fail_unless_equals_int (h.unit, 64);
  fail_unless_equals_uint64 (h.counts[0][0], 2);
  fail_unless_equals_uint64 (h.counts[0][1023], 2);
  fail_unless_equals_uint64 (h.counts[0][72], 1);
  /* In 256 bins, v / 4: the top eight bits. In 7, v * 7 / 1024. */
  ref_histogram_bin (h.counts[0], h.values, 256, binned);
  fail_unless (binned[0] == 2 && binned[18] == 1 && binned[255] == 2);
  ref_histogram_bin (h.counts[0], h.values, 7, binned);
  fail_unless (binned[0] == 3 && binned[6] == 2);

  ref_histogram_stats (h.counts[0], h.values, h.unit, 4, 251, 118, &st);
  fail_unless_equals_int (st.min, 0);
  fail_unless_equals_int (st.max, 65472);
  /* Sorted 0 0 4608 65472 65472. */
  fail_unless_equals_int (st.median, 4608);
  fail_unless (fabs (st.mean - mean) < 1e-9);
  fail_unless (fabs (st.stddev - sqrt ((2 * mean * mean + (4608 - mean) *
                  (4608 - mean) + 2 * (65472 - mean) * (65472 - mean)) / 5)) <
      1e-9);
  /* Top eight bits 0, 0, 255, 255, 18. */
  fail_unless (st.clipped_low == 0.4 && st.clipped_high == 0.4);
  fail_unless (fabs (st.ev_correction - log2 (118 / (mean / 256))) < 1e-12);

  ref_zones (&frame, 1, 1, 4, 251, &zone);
  fail_unless_equals_uint64 (zone.sum, 2 * 65472 + 4608);
  fail_unless_equals_int (zone.max, 65472);
  fail_unless_equals_uint64 (zone.low, 2);
  fail_unless_equals_uint64 (zone.hist[72], 1);
  gst_video_frame_unmap (&frame);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* Word (x, y) of plane @p of a 16-bit frame. */
static guint8 *
word_at (GstVideoFrame * f, guint p, gint x, gint y)
{
  return (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, p) +
      y * GST_VIDEO_FRAME_PLANE_STRIDE (f, p) + 2 * x;
}

static GstBuffer *
frame_for (GstVideoFormat format, gint w, gint h, GstVideoInfo * info,
    GstVideoFrame * frame)
{
  GstBuffer *buf;

  gst_video_info_set_format (info, format, w, h);
  buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  fail_unless (gst_video_frame_map (frame, info, buf, GST_MAP_WRITE));
  return buf;
}

/* The overlay's rules on 16-bit samples, answers worked out by hand
 * (overlay/exposure.h): P010's false colour from its words' ten high bits,
 * the low six set and ignored, drawn as 10-bit values (the 8-bit colour
 * times four) with the low six bits 0. Luma 387 (top eight bits 96) is
 * dark grey, 388 (97) green, 1023 (255) red, 0 purple; in BT.601 limited
 * range dark grey is Y'CbCr 85, 128, 128, green 117, 70, 55, red 82, 90,
 * 240, purple 62, 165, 175. */
GST_START_TEST (test_exposure_p010_false_colour)
{
  static const guint luma[2][4] = { {387, 388, 1023, 0}, {388, 387, 0, 1023} };
  static const guint y_out[2][4] = {
    {85 * 4, 117 * 4, 82 * 4, 62 * 4}, {117 * 4, 85 * 4, 62 * 4, 82 * 4}
  };
  /* Chroma pair 0 follows luma (0, 0), dark grey; pair 1 luma (2, 0), red. */
  static const guint uv_out[2][2] = { {128 * 4, 128 * 4}, {90 * 4, 240 * 4} };
  GstVideoInfo info;
  GstVideoFrame fi, fo;
  GstBuffer *in = frame_for (GST_VIDEO_FORMAT_P010_10LE, 4, 2, &info, &fi);
  GstBuffer *out = frame_for (GST_VIDEO_FORMAT_P010_10LE, 4, 2, &info, &fo);
  RefExposure e = { 0 };
  gint x, y, c;

  for (y = 0; y < 2; y++)
    for (x = 0; x < 4; x++)
      GST_WRITE_UINT16_LE (word_at (&fi, 0, x, y), luma[y][x] << 6 | 0x2a);
  for (x = 0; x < 4; x++)
    GST_WRITE_UINT16_LE (word_at (&fi, 1, x, 0), 0x1234);
  e.false_color = TRUE;
  ref_exposure_frame (&fi, &fo, &e);
  for (y = 0; y < 2; y++)
    for (x = 0; x < 4; x++)
      fail_unless_equals_int (GST_READ_UINT16_LE (word_at (&fo, 0, x, y)),
          y_out[y][x] << 6);
  for (x = 0; x < 2; x++)
    for (c = 0; c < 2; c++)
      fail_unless_equals_int (GST_READ_UINT16_LE (word_at (&fo, 1, 2 * x + c,
                  0)), uv_out[x][c] << 6);
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

GST_END_TEST;

/* I420_10LE's zebra: a sample is bright where its ten low bits reach
 * threshold 235 in their top eight (940 does, 939 does not), the six
 * high bits set and ignored. On frame 2, luma positions with x + y < 2
 * are on the stripe: (0, 0) and (0, 1) turn black, Y 16 * 4 = 64, their
 * high bits cleared; (1, 0) is not bright; the rest are off the stripe
 * and keep their words. Chroma block 0 (luma (0, 0)) turns 128 * 4 = 512;
 * block 1 (luma (2, 0)) is off the stripe. */
GST_START_TEST (test_exposure_i420_10_zebra)
{
  GstVideoInfo info;
  GstVideoFrame fi, fo;
  GstBuffer *in = frame_for (GST_VIDEO_FORMAT_I420_10LE, 4, 2, &info, &fi);
  GstBuffer *out = frame_for (GST_VIDEO_FORMAT_I420_10LE, 4, 2, &info, &fo);
  RefExposure e = { 0 };
  gint x, y, p;

  for (y = 0; y < 2; y++)
    for (x = 0; x < 4; x++)
      GST_WRITE_UINT16_LE (word_at (&fi, 0, x, y), 0xfc00 |
          (x == 1 && y == 0 ? 939 : 940));
  for (p = 1; p < 3; p++)
    for (x = 0; x < 2; x++)
      GST_WRITE_UINT16_LE (word_at (&fi, p, x, 0), 0xfc00 | 300);
  e.zebra = TRUE;
  e.zebra_threshold = 235;
  e.frame = 2;
  ref_exposure_frame (&fi, &fo, &e);
  for (y = 0; y < 2; y++)
    for (x = 0; x < 4; x++) {
      guint want = x + y < 2 && !(x == 1 && y == 0) ? 64 :
          0xfc00 | (x == 1 && y == 0 ? 939 : 940);

      fail_unless_equals_int (GST_READ_UINT16_LE (word_at (&fo, 0, x, y)),
          want);
    }
  for (p = 1; p < 3; p++) {
    fail_unless_equals_int (GST_READ_UINT16_LE (word_at (&fo, p, 0, 0)), 512);
    fail_unless_equals_int (GST_READ_UINT16_LE (word_at (&fo, p, 1, 0)),
        0xfc00 | 300);
  }
  /* A threshold above the top eight bits of 940 leaves the frame alone. */
  e.zebra_threshold = 236;
  ref_exposure_frame (&fi, &fo, &e);
  fail_unless_equals_int (GST_READ_UINT16_LE (word_at (&fo, 0, 0, 0)),
      0xfc00 | 940);
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

GST_END_TEST;

/* GRAY16_LE's graph: the left half 40 * 257 + 100 (top eight bits 40),
 * the right 200 * 256 + 255 (200), so bins 40 and 200 hold 2048 samples
 * each and their columns are full bars. Opaque, bars are white 235 * 257
 * = 60395 and the rest black 16 * 257 = 4112. At opacity 128 the blend is
 * in the word's range: over 10380, black (128 * 4112 + 127 * 10380 + 127)
 * / 255 = 7234 and white 35486; over 51455, black 27691 and white
 * 55943. */
GST_START_TEST (test_exposure_gray16_graph)
{
  GstVideoInfo info;
  GstVideoFrame fi, fo;
  GstBuffer *in = frame_for (GST_VIDEO_FORMAT_GRAY16_LE, 256, 16, &info, &fi);
  GstBuffer *out = frame_for (GST_VIDEO_FORMAT_GRAY16_LE, 256, 16, &info,
      &fo);
  RefExposure e = { 0 };
  gint x, y;

  for (y = 0; y < 16; y++)
    for (x = 0; x < 256; x++)
      GST_WRITE_UINT16_LE (word_at (&fi, 0, x, y), x < 128 ? 40 * 257 + 100 :
          200 * 256 + 255);
  e.graph = TRUE;
  e.graph_width = 256;
  e.graph_height = 16;
  e.graph_opacity = 255;
  ref_exposure_frame (&fi, &fo, &e);
  for (y = 0; y < 16; y++)
    for (x = 0; x < 256; x++)
      fail_unless_equals_int (GST_READ_UINT16_LE (word_at (&fo, 0, x, y)),
          x == 40 || x == 200 ? 60395 : 4112);
  e.graph_opacity = 128;
  ref_exposure_frame (&fi, &fo, &e);
  for (y = 0; y < 16; y++)
    for (x = 0; x < 256; x++) {
      gboolean bar = x == 40 || x == 200;

      fail_unless_equals_int (GST_READ_UINT16_LE (word_at (&fo, 0, x, y)),
          x < 128 ? (bar ? 35486 : 7234) : (bar ? 55943 : 27691));
    }
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

GST_END_TEST;

static Suite *
reference_suite (void)
{
  Suite *s = suite_create ("reference");
  TCase *tc = tcase_create ("boxblur");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_border_index);
  tcase_add_test (tc, test_row_each_mode);
  tcase_add_test (tc, test_radius_beyond_plane);
  tcase_add_test (tc, test_2d_corner);
  tcase_add_test (tc, test_channels_apart);
  tcase_add_test (tc, test_separable_equals_direct);
  tcase_add_test (tc, test_separable_equals_direct_16);
  tcase_add_test (tc, test_16bit_by_hand);
  tcase_add_test (tc, test_packed_422_as_y42b);
  tcase_add_test (tc, test_zones);
  tcase_add_test (tc, test_exposure);
  tcase_add_test (tc, test_exposure_p010_false_colour);
  tcase_add_test (tc, test_exposure_i420_10_zebra);
  tcase_add_test (tc, test_exposure_gray16_graph);
  tcase_add_test (tc, test_histogram_rgba);
  tcase_add_test (tc, test_histogram_chroma_roi);
  tcase_add_test (tc, test_histogram_stats);
  tcase_add_test (tc, test_histogram_10bit_by_hand);
  tcase_add_test (tc, test_histogram_gray16_by_hand);
  return s;
}

GST_CHECK_MAIN (reference);
