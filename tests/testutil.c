/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include <gst/check/gstcheck.h>

#include "testutil.h"
#include "reference.h"

const GstVideoFormat hipf_test_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA,
  GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR,
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_AYUV,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YVYU,
};
const guint hipf_test_n_formats = G_N_ELEMENTS (hipf_test_formats);

const GstVideoFormat hipf_test_blur_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA,
  GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR,
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_AYUV,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YVYU,
  GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_P010_10LE,
  GST_VIDEO_FORMAT_I420_10LE,
};
const guint hipf_test_n_blur_formats = G_N_ELEMENTS (hipf_test_blur_formats);

guint32
hipf_test_seed (void)
{
  static gsize init = 0;
  static guint32 seed;

  if (g_once_init_enter (&init)) {
    const gchar *env = g_getenv ("HIPF_TEST_SEED");
    seed = env ? (guint32) strtoul (env, NULL, 0) : g_random_int ();
    g_print ("random seed %u (HIPF_TEST_SEED=%u repeats this run)\n", seed,
        seed);
    g_once_init_leave (&init, 1);
  }
  return seed;
}

GRand *
hipf_test_rand (void)
{
  static GRand *rand = NULL;

  if (!rand)
    rand = g_rand_new_with_seed (hipf_test_seed ());
  return rand;
}

GstBuffer *
hipf_test_frame_new (GstVideoFormat format, gint width, gint height,
    guint padding, GstVideoInfo * info)
{
  return hipf_test_frame_new_with_rand (hipf_test_rand (), format, width,
      height, padding, info);
}

GstBuffer *
hipf_test_timed_frame_new (GstVideoFormat format, gint width, gint height,
    GstClockTime pts, GstClockTime duration)
{
  GstVideoInfo info;
  GstBuffer *buf = hipf_test_frame_new (format, width, height, 0, &info);

  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = duration;
  return buf;
}

/* Bytes of a plane's row: packed 4:2:2 rows end with a whole macropixel,
 * odd widths too. */
static gsize
packed_row_bytes (const GstVideoInfo * info, const RefPlane * plane)
{
  if (GST_VIDEO_INFO_N_PLANES (info) == 1 &&
      GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, 1) > 0)
    return (gsize) GST_ROUND_UP_2 (plane->width) * plane->channels;
  return ref_plane_row_bytes (plane);
}

GstBuffer *
hipf_test_frame_new_with_rand (GRand * rand, GstVideoFormat format,
    gint width, gint height, guint padding, GstVideoInfo * info)
{
  GstBuffer *buf;
  GstMapInfo map;
  gsize offset = 0, i;
  guint p;

  gst_video_info_set_format (info, format, width, height);
  if (padding) {
    for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
      GstVideoFrame dummy = { 0 };
      RefPlane plane;

      dummy.info = *info;
      ref_plane_from_frame (&dummy, p, &plane, NULL, NULL);
      info->stride[p] = packed_row_bytes (info, &plane) + padding;
      info->offset[p] = offset;
      offset += (gsize) info->stride[p] * plane.height;
    }
    info->size = offset;
  }

  buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = (guint8) g_rand_int (rand);
  gst_buffer_unmap (buf, &map);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, format,
      width, height, GST_VIDEO_INFO_N_PLANES (info), info->offset,
      info->stride);
  return buf;
}

static gboolean
is_packed_422 (GstVideoFormat format)
{
  return format == GST_VIDEO_FORMAT_YUY2 || format == GST_VIDEO_FORMAT_UYVY
      || format == GST_VIDEO_FORMAT_YVYU;
}

/* Sample by sample, component by component: in packed 4:2:2 a row's bytes
 * hold a luma sample past the width where the width is odd. */
static gboolean
components_equal (const GstVideoFrame * got, const GstVideoFrame * expected,
    gchar ** where)
{
  guint c;
  gint x, y;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (got); c++) {
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (got, c); y++) {
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (got, c); x++) {
        guint8 a = ((const guint8 *) GST_VIDEO_FRAME_COMP_DATA (got, c))
            [y * GST_VIDEO_FRAME_COMP_STRIDE (got, c) +
            x * GST_VIDEO_FRAME_COMP_PSTRIDE (got, c)];
        guint8 b = ((const guint8 *) GST_VIDEO_FRAME_COMP_DATA (expected, c))
            [y * GST_VIDEO_FRAME_COMP_STRIDE (expected, c) +
            x * GST_VIDEO_FRAME_COMP_PSTRIDE (expected, c)];

        if (a != b) {
          *where = g_strdup_printf ("%s %dx%d component %u sample x=%d y=%d: "
              "got %u, expected %u",
              gst_video_format_to_string (GST_VIDEO_FRAME_FORMAT (got)),
              GST_VIDEO_FRAME_WIDTH (got), GST_VIDEO_FRAME_HEIGHT (got), c, x,
              y, a, b);
          return FALSE;
        }
      }
    }
  }
  return TRUE;
}

gboolean
hipf_test_frames_equal (const GstVideoFrame * got,
    const GstVideoFrame * expected, gchar ** where)
{
  guint p;
  gint x, y, c;

  if (is_packed_422 (GST_VIDEO_FRAME_FORMAT (got)))
    return components_equal (got, expected, where);
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (got); p++) {
    RefPlane a, b;

    ref_plane_from_frame (got, p, &a, NULL, NULL);
    ref_plane_from_frame (expected, p, &b, NULL, NULL);
    for (y = 0; y < a.height; y++) {
      const guint8 *ra = a.data + (gsize) y * a.stride;
      const guint8 *rb = b.data + (gsize) y * b.stride;

      if (memcmp (ra, rb, ref_plane_row_bytes (&a)) == 0)
        continue;
      for (x = 0; x < a.width; x++)
        for (c = 0; c < a.channels; c++) {
          gsize i = (gsize) x * a.channels + c;
          guint va = a.sample_bytes == 2 ? GST_READ_UINT16_LE (ra + 2 * i) :
              ra[i];
          guint vb = a.sample_bytes == 2 ? GST_READ_UINT16_LE (rb + 2 * i) :
              rb[i];

          if (va != vb) {
            *where = g_strdup_printf ("%s %dx%d plane %u (%dx%d) sample "
                "x=%d y=%d channel %d: got %u, expected %u",
                GST_VIDEO_FRAME_FORMAT (got) ==
                GST_VIDEO_FORMAT_UNKNOWN ? "?" :
                gst_video_format_to_string (GST_VIDEO_FRAME_FORMAT (got)),
                GST_VIDEO_FRAME_WIDTH (got), GST_VIDEO_FRAME_HEIGHT (got), p,
                a.width, a.height, x, y, c, va, vb);
            return FALSE;
          }
        }
    }
  }
  return TRUE;
}

gboolean
hipf_test_padding_unchanged (const GstVideoFrame * frame, const guint8 * orig)
{
  const guint8 *base = GST_VIDEO_FRAME_PLANE_DATA (frame, 0) -
      GST_VIDEO_FRAME_PLANE_OFFSET (frame, 0);
  guint p;
  gint y;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    RefPlane plane;
    gsize row = 0;

    ref_plane_from_frame (frame, p, &plane, NULL, NULL);
    row = packed_row_bytes (&frame->info, &plane);
    for (y = 0; y < plane.height; y++) {
      const guint8 *now = plane.data + (gsize) y * plane.stride + row;
      const guint8 *was = orig + (now - base);

      if (memcmp (now, was, plane.stride - row) != 0)
        return FALSE;
    }
  }
  return TRUE;
}

static gboolean
sink_accepts (GstElement * e, const gchar * caps_str)
{
  GstPad *pad = gst_element_get_static_pad (e, "sink");
  GstCaps *caps = gst_caps_from_string (caps_str);
  gboolean ret = gst_pad_query_accept_caps (pad, caps);

  gst_caps_unref (caps);
  gst_object_unref (pad);
  return ret;
}

void
hipf_test_check_caps (const gchar * element, const GstVideoFormat * formats,
    guint n_formats)
{
  GstElement *e = gst_element_factory_make (element, NULL);
  static const gchar *rejected[] = {
    "video/x-raw,format=RGB16,width=64,height=48,framerate=30/1",
    "video/x-raw,format=GRAY16_BE,width=64,height=48,framerate=30/1",
    "video/x-raw,format=P012_LE,width=64,height=48,framerate=30/1",
    "video/x-raw(memory:GLMemory),format=RGBA,width=64,height=48,framerate=30/1",
    "video/x-bayer,format=rggb,width=64,height=48,framerate=30/1",
    "audio/x-raw,format=S16LE,rate=48000,channels=2",
  };
  guint i, j;

  for (i = 0; i < n_formats; i++) {
    gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=33,height=17,"
        "framerate=30/1", gst_video_format_to_string (formats[i]));
    fail_unless (sink_accepts (e, caps), "rejected %s", caps);
    g_free (caps);
  }
  for (i = 0; i < G_N_ELEMENTS (rejected); i++)
    fail_if (sink_accepts (e, rejected[i]), "accepted %s", rejected[i]);
  /* Whatever the plugin takes elsewhere and this element does not. */
  for (i = 0; i < hipf_test_n_blur_formats; i++) {
    gchar *caps;

    for (j = 0; j < n_formats && formats[j] != hipf_test_blur_formats[i]; j++);
    if (j < n_formats)
      continue;
    caps = g_strdup_printf ("video/x-raw,format=%s,width=33,height=17,"
        "framerate=30/1", gst_video_format_to_string
        (hipf_test_blur_formats[i]));
    fail_if (sink_accepts (e, caps), "accepted %s", caps);
    g_free (caps);
  }
  /* Frames in the plugin's device memory too, offered first downstream. */
  for (i = 0; i < n_formats; i++) {
    gchar *caps = g_strdup_printf ("video/x-raw(" HIPF_TEST_DEVICE_FEATURE
        "),format=%s,width=33,height=17,framerate=30/1",
        gst_video_format_to_string (formats[i]));
    fail_unless (sink_accepts (e, caps), "rejected %s", caps);
    g_free (caps);
  }
  {
    GstPad *src = gst_element_get_static_pad (e, "src");
    GstCaps *caps = gst_pad_query_caps (src, NULL);
    GstCapsFeatures *first = gst_caps_get_features (caps, 0);

    fail_unless (gst_caps_features_contains (first, HIPF_TEST_DEVICE_FEATURE),
        "%s offers %" GST_PTR_FORMAT, element, caps);
    fail_unless (gst_caps_features_is_equal (gst_caps_get_features (caps,
                gst_caps_get_size (caps) - 1),
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY));
    gst_caps_unref (caps);
    gst_object_unref (src);
  }
  gst_object_unref (e);
}

/* Whether @st takes frames of @format. */
static gboolean
structure_takes (const GstStructure * st, const gchar * format)
{
  GstStructure *one = gst_structure_new ("video/x-raw", "format",
      G_TYPE_STRING, format, NULL);
  gboolean takes = gst_structure_can_intersect (st, one);

  gst_structure_free (one);
  return takes;
}

void
hipf_test_check_wide_memories (const gchar * element, gboolean wide)
{
  static const gchar *formats[] = { "GRAY16_LE", "P010_10LE", "I420_10LE" };
  static const gchar *pads[] = { "sink", "src" };
#ifdef HIPF_TEST_CUDA
  const guint n_cuda = 1;
#else
  const guint n_cuda = 0;
#endif
  GstElement *e = gst_element_factory_make (element, NULL);
  guint p, i, f;

  fail_unless (e != NULL, "no %s", element);
  for (p = 0; p < G_N_ELEMENTS (pads); p++) {
    GstPadTemplate *tmpl =
        gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (e),
        pads[p]);
    GstCaps *caps = gst_pad_template_get_caps (tmpl);
    guint cuda = 0, others = 0;

    for (i = 0; i < gst_caps_get_size (caps); i++) {
      GstCapsFeatures *feat = gst_caps_get_features (caps, i);
      GstStructure *st = gst_caps_get_structure (caps, i);
      gboolean in_cuda = gst_caps_features_contains (feat,
          "memory:CUDAMemory");
      gchar *memory = gst_caps_features_to_string (feat);

      /* The 8-bit formats every element takes, in every memory. */
      fail_unless (structure_takes (st, "NV12"), "%s %s: no NV12 in %s",
          element, pads[p], memory);
      for (f = 0; f < G_N_ELEMENTS (formats); f++) {
        gboolean want = wide && (!in_cuda || f > 0);

        fail_unless (structure_takes (st, formats[f]) == want,
            "%s %s: %s %s in %s", element, pads[p],
            want ? "lacks" : "offers", formats[f], memory);
      }
      g_free (memory);
      if (in_cuda)
        cuda++;
      else
        others++;
    }
    /* System memory and the plugin's device memory, and CUDA memory where
     * the plugin has it. */
    fail_unless_equals_int (others, 2);
    fail_unless_equals_int (cuda, n_cuda);
    gst_caps_unref (caps);
  }
#ifdef HIPF_TEST_CUDA
  /* In NULL, before the element looks for a CUDA context, its caps offer
   * CUDA memory as its templates do, so that a link filtered to CUDA
   * memory (cudaupload ! video/x-raw(memory:CUDAMemory) ! element) can be
   * made then. */
  {
    GstPad *sink = gst_element_get_static_pad (e, "sink");
    GstCaps *cuda = gst_caps_from_string ("video/x-raw(memory:CUDAMemory), "
        "format=NV12, width=64, height=48, framerate=30/1");
    GstCaps *got = gst_pad_query_caps (sink, cuda);

    fail_if (gst_caps_is_empty (got), "%s: no CUDA memory in NULL", element);
    gst_caps_unref (got);
    gst_caps_unref (cuda);
    gst_object_unref (sink);
  }
#endif
  gst_object_unref (e);
}

GstHarness *
hipf_test_path_harness (const gchar * launch, const gchar * uploader,
    GstVideoFormat format, gint width, gint height, gboolean in_device,
    gboolean out_device)
{
  gchar *caps = g_strdup_printf ("format=%s,width=%d,height=%d,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);
  gchar *desc = in_device ? g_strdup_printf ("%s ! capsfilter caps=\"video/"
      "x-raw(" HIPF_TEST_DEVICE_FEATURE "),%s\" ! %s", uploader, caps,
      launch) : g_strdup (launch);
  GError *err = NULL;
  GstElement *bin = gst_parse_bin_from_description (desc, TRUE, &err);
  gchar *in_caps = g_strdup_printf ("video/x-raw,%s", caps);
  gchar *out_caps = g_strdup_printf ("video/x-raw%s,%s", out_device ?
      "(" HIPF_TEST_DEVICE_FEATURE ")" : "", caps);
  GstHarness *h;

  fail_unless (bin != NULL, "%s: %s", desc, err ? err->message : "?");
  h = gst_harness_new_with_element (bin, "sink", "src");
  gst_harness_set_caps_str (h, in_caps, out_caps);
  gst_object_unref (bin);
  g_free (caps);
  g_free (desc);
  g_free (in_caps);
  g_free (out_caps);
  return h;
}

gboolean
hipf_test_pad_in_device (GstElement * element, const gchar * pad_name)
{
  GstPad *pad = gst_element_get_static_pad (element, pad_name);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean ret;

  fail_unless (caps != NULL, "%s has no caps", pad_name);
  ret = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      HIPF_TEST_DEVICE_FEATURE);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return ret;
}

gboolean
hipf_test_buffer_in_device (GstBuffer * buf)
{
  return gst_buffer_n_memory (buf) == 1
      && gst_memory_is_type (gst_buffer_peek_memory (buf, 0),
      HIPF_TEST_DEVICE_MEMORY);
}

void
hipf_test_check_start_error (const gchar * element)
{
  GstElement *pipeline;
  GstStateChangeReturn ret;
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;
  gint round;

  for (round = 0; round < 2; round++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
        "%s device-id=4000 ! fakesink", element);

    pipeline = gst_parse_launch (desc, NULL);
    g_free (desc);
    fail_unless (pipeline != NULL);
    ret = gst_element_set_state (pipeline, GST_STATE_PAUSED);
    if (ret == GST_STATE_CHANGE_ASYNC)
      ret = gst_element_get_state (pipeline, NULL, NULL, GST_CLOCK_TIME_NONE);
    fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);

    msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline), 0,
        GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "no error message");
    gst_message_parse_error (msg, &err, &debug);
    fail_unless (err->domain == GST_RESOURCE_ERROR);
    fail_unless_equals_int (err->code, GST_RESOURCE_ERROR_NOT_FOUND);
    fail_unless (strstr (err->message, "HIP") != NULL, "%s", err->message);
    /* ...: <the runtime's error string> */
    fail_unless (strstr (err->message, ": ") != NULL, "%s", err->message);
    GST_INFO ("error: %s (%s)", err->message, debug);
    g_clear_error (&err);
    g_free (debug);
    gst_message_unref (msg);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
  }
}

gboolean
hipf_test_wait_for (gboolean (*done) (gpointer data), gpointer data)
{
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  while (!done (data)) {
    if (g_get_monotonic_time () > end)
      return FALSE;
    g_usleep (1000);
  }
  return TRUE;
}

typedef struct
{
  GstHarness *h;
  guint n;
} Received;

static gboolean
received (gpointer data)
{
  Received *r = data;

  return gst_harness_buffers_received (r->h) >= r->n;
}

gboolean
hipf_test_wait_received (GstHarness * h, guint n)
{
  Received r = { h, n };

  return hipf_test_wait_for (received, &r);
}

void
hipf_test_pop_latency_message (GstBus * bus)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_LATENCY);

  fail_unless (msg != NULL, "no latency message");
  gst_message_unref (msg);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_LATENCY) == NULL,
      "a second latency message");
}
