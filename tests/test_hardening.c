/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Hardening checks that need no GPU, for both elements: bad property values
 * and enum nicks are refused and leave the old value, unsupported caps are
 * refused by accept-caps and when linking, the start error for a missing
 * device can be provoked again and again without harm, elements and
 * pipelines survive many state cycles, and the plugin's host memory
 * behaves as GstMemory should. The CI runs these under valgrind.
 */
#include <string.h>

#include <gst/check/gstcheck.h>

/* ---- properties -------------------------------------------------------- */

typedef struct
{
  const gchar *name;
  gint64 good;                  /* a valid value other than the default */
  gint64 bad[3];                /* out of range; 0 ends the list early, */
  guint n_bad;                  /* so the count is explicit */
} IntCase;

static gint64
get_int (GObject * obj, const gchar * name)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (obj),
      name);
  GValue v = G_VALUE_INIT;
  gint64 ret;

  fail_unless (pspec != NULL, "no property %s", name);
  g_value_init (&v, pspec->value_type);
  g_object_get_property (obj, name, &v);
  switch (pspec->value_type) {
    case G_TYPE_INT:
      ret = g_value_get_int (&v);
      break;
    case G_TYPE_UINT:
      ret = g_value_get_uint (&v);
      break;
    default:
      ret = 0;
      fail ("%s: unexpected type %s", name, g_type_name (pspec->value_type));
  }
  g_value_unset (&v);
  return ret;
}

/* g_object_set with a value of the property's own type, so that an out of
 * range value reaches GObject's validation unchanged. */
static void
set_int (GObject * obj, const gchar * name, gint64 value)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (obj),
      name);

  if (pspec->value_type == G_TYPE_INT)
    g_object_set (obj, name, (gint) value, NULL);
  else
    g_object_set (obj, name, (guint) value, NULL);
}

static void
check_int_ranges (const gchar * factory, const IntCase * cases, guint n)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  GObject *obj;
  guint i, b;

  fail_unless (e != NULL, "no %s", factory);
  obj = G_OBJECT (e);
  for (i = 0; i < n; i++) {
    const IntCase *c = &cases[i];

    set_int (obj, c->name, c->good);
    fail_unless_equals_int64 (get_int (obj, c->name), c->good);
    for (b = 0; b < c->n_bad; b++) {
      /* GObject warns and leaves the property alone. */
      ASSERT_WARNING (set_int (obj, c->name, c->bad[b]));
      fail_unless (get_int (obj, c->name) == c->good,
          "%s %s: %" G_GINT64_FORMAT " replaced %" G_GINT64_FORMAT, factory,
          c->name, get_int (obj, c->name), c->good);
      /* The same value as a string, as gst-launch and parse set it. */
      {
        gchar *str = g_strdup_printf ("%" G_GINT64_FORMAT, c->bad[b]);

        ASSERT_WARNING (gst_util_set_object_arg (obj, c->name, str));
        fail_unless (get_int (obj, c->name) == c->good, "%s %s = \"%s\"",
            factory, c->name, str);
        g_free (str);
      }
    }
  }
  gst_object_unref (e);
}

GST_START_TEST (test_boxblur_property_ranges)
{
  static const IntCase cases[] = {
    {"radius", 7, {2001, G_MAXUINT}, 2},
    {"radius-x", 3, {-2, 2001, G_MININT}, 3},
    {"radius-y", 0, {-2, 2001, G_MAXINT}, 3},
    {"device-id", 3, {-2, G_MAXINT16 + 1, G_MININT}, 3},
    {"frames-in-flight", 4, {0, 17, G_MAXUINT}, 3},
  };

  check_int_ranges ("hipboxblur", cases, G_N_ELEMENTS (cases));
}

GST_END_TEST;

GST_START_TEST (test_histogram_property_ranges)
{
  static const IntCase cases[] = {
    {"bins", 300, {0, 1025, G_MAXUINT}, 3},
    {"roi-x", 5, {(gint64) G_MAXINT + 1, G_MAXUINT}, 2},
    {"roi-y", 6, {(gint64) G_MAXINT + 1}, 1},
    {"roi-width", 7, {(gint64) G_MAXINT + 1}, 1},
    {"roi-height", 8, {(gint64) G_MAXINT + 1}, 1},
    {"low-threshold", 20, {256, G_MAXUINT}, 2},
    {"high-threshold", 200, {256}, 1},
    {"target-mean", 90, {0, 256}, 2},
    {"device-id", 2, {-2, G_MAXINT16 + 1}, 2},
    {"frames-in-flight", 5, {0, 17, G_MAXUINT}, 3},
  };

  check_int_ranges ("hiphistogram", cases, G_N_ELEMENTS (cases));
}

GST_END_TEST;

static const gchar *
border_nick (GstElement * e)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "border-mode");
  GValue v = G_VALUE_INIT;
  GEnumValue *ev;

  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (e), "border-mode", &v);
  ev = g_enum_get_value (G_PARAM_SPEC_ENUM (pspec)->enum_class,
      g_value_get_enum (&v));
  g_value_unset (&v);
  fail_unless (ev != NULL);
  return ev->value_nick;
}

GST_START_TEST (test_boxblur_border_nicks)
{
  /* Not "": GStreamer reads an empty string as the enum value 0. */
  static const gchar *bogus[] = { "bogus", "MIRROR ", "5", "-1", "wrapx",
    " ", "mirror,wrap"
  };
  GstElement *e = gst_element_factory_make ("hipboxblur", NULL);
  GstElement *pipeline;
  GError *err = NULL;
  guint i;

  gst_util_set_object_arg (G_OBJECT (e), "border-mode", "wrap");
  fail_unless_equals_string (border_nick (e), "wrap");
  for (i = 0; i < G_N_ELEMENTS (bogus); i++) {
    gst_util_set_object_arg (G_OBJECT (e), "border-mode", bogus[i]);
    fail_unless_equals_string (border_nick (e), "wrap");
  }
  /* A number that is no value of the enum: GObject warns and refuses. */
  ASSERT_WARNING (g_object_set (e, "border-mode", 99, NULL));
  fail_unless_equals_string (border_nick (e), "wrap");
  /* Every real nick, and the numbers GStreamer also takes for enums. */
  gst_util_set_object_arg (G_OBJECT (e), "border-mode", "valid");
  fail_unless_equals_string (border_nick (e), "valid");
  gst_util_set_object_arg (G_OBJECT (e), "border-mode", "0");
  fail_unless_equals_string (border_nick (e), "zero");
  gst_object_unref (e);

  /* gst-launch syntax: an error, and no pipeline when errors are fatal. */
  pipeline = gst_parse_launch ("fakesrc ! hipboxblur border-mode=bogus ! "
      "fakesink", &err);
  fail_unless (err != NULL, "bogus border-mode parsed without error");
  fail_unless (g_error_matches (err, GST_PARSE_ERROR,
          GST_PARSE_ERROR_COULD_NOT_SET_PROPERTY), "%s", err->message);
  fail_unless (strstr (err->message, "border-mode") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  if (pipeline) {
    /* Recoverable: GStreamer leaves the element out of the pipeline; any
     * hipboxblur it did keep has the default border mode. */
    GstIterator *it = gst_bin_iterate_all_by_element_factory_name (GST_BIN
        (pipeline), "hipboxblur");
    GValue item = G_VALUE_INIT;

    while (gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
      fail_unless_equals_string (border_nick (g_value_get_object (&item)),
          "mirror");
      g_value_reset (&item);
    }
    g_value_unset (&item);
    gst_iterator_free (it);
    gst_object_unref (pipeline);
  }
  pipeline = gst_parse_launch_full ("fakesrc ! hipboxblur border-mode=bogus ! "
      "fakesink", NULL, GST_PARSE_FLAG_FATAL_ERRORS, &err);
  fail_unless (pipeline == NULL);
  fail_unless (g_error_matches (err, GST_PARSE_ERROR,
          GST_PARSE_ERROR_COULD_NOT_SET_PROPERTY));
  g_clear_error (&err);
}

GST_END_TEST;

static GstElement *
find_by_factory (GstElement * pipeline, const gchar * factory)
{
  GstIterator *it = gst_bin_iterate_all_by_element_factory_name (GST_BIN
      (pipeline), factory);
  GValue item = G_VALUE_INIT;
  GstElement *e;

  fail_unless_equals_int (gst_iterator_next (it, &item), GST_ITERATOR_OK);
  e = g_value_dup_object (&item);
  g_value_unset (&item);
  gst_iterator_free (it);
  return e;
}

/* Out of range numbers in a launch line: GObject warns and the default
 * stays (GStreamer's parser reports no error for them). */
GST_START_TEST (test_parse_out_of_range)
{
  static const struct
  {
    const gchar *factory, *desc, *prop;
    guint expected;
  } cases[] = {
    {"hipboxblur", "hipboxblur radius=2001", "radius", 1},
    {"hiphistogram", "hiphistogram bins=0", "bins", 256},
    {"hiphistogram", "hiphistogram bins=1025", "bins", 256},
    {"hiphistogram", "hiphistogram target-mean=0", "target-mean", 118},
    {"hiphistogram", "hiphistogram high-threshold=256", "high-threshold", 251},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = g_strdup_printf ("fakesrc ! %s ! fakesink", cases[i].desc);
    GstElement *pipeline = NULL, *e;
    GError *err = NULL;
    guint value = 0;

    ASSERT_WARNING (pipeline = gst_parse_launch (desc, &err));
    fail_unless (pipeline != NULL, "%s: %s", desc, err ? err->message : "");
    g_clear_error (&err);
    e = find_by_factory (pipeline, cases[i].factory);
    g_object_get (e, cases[i].prop, &value, NULL);
    fail_unless_equals_int (value, cases[i].expected);
    gst_object_unref (e);
    gst_object_unref (pipeline);
    g_free (desc);
  }
}

GST_END_TEST;

/* ---- caps -------------------------------------------------------------- */

static const gchar *const refused_caps[] = {
  "video/x-raw,format=RGB16,width=64,height=48,framerate=30/1",
  "video/x-raw,format=BGR16,width=64,height=48,framerate=30/1",
  "video/x-raw,format=GRAY16_BE,width=64,height=48,framerate=30/1",
  "video/x-raw,format=P012_LE,width=64,height=48,framerate=30/1",
  "video/x-raw,format=I420_12LE,width=64,height=48,framerate=30/1",
  "video/x-raw,format=v210,width=64,height=48,framerate=30/1",
  "video/x-raw,format=VYUY,width=64,height=48,framerate=30/1",
  "video/x-raw,format=Y41B,width=64,height=48,framerate=30/1",
  "video/x-raw,format=NV16,width=64,height=48,framerate=30/1",
  "video/x-raw,format=ARGB64,width=64,height=48,framerate=30/1",
  "video/x-raw(memory:GLMemory),format=RGBA,width=64,height=48,framerate=30/1",
  "video/x-raw(memory:DMABuf),format=NV12,width=64,height=48,framerate=30/1",
  "video/x-bayer,format=rggb,width=64,height=48,framerate=30/1",
  "image/jpeg,width=64,height=48,framerate=30/1",
  "video/x-h264,stream-format=byte-stream,alignment=au",
  "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved",
  "application/x-rtp",
  /* Fields of the wrong type or out of range. */
  "video/x-raw,format=RGBA,width=0,height=48,framerate=30/1",
  "video/x-raw,format=RGBA,width=64,height=0,framerate=30/1",
  "video/x-raw,format=RGBA,width=(string)64,height=48,framerate=30/1",
  "video/x-raw,format=(int)1,width=64,height=48,framerate=30/1",
};

static gboolean
accepts (GstElement * e, const gchar * pad_name, const gchar * str)
{
  GstPad *pad = gst_element_get_static_pad (e, pad_name);
  GstCaps *caps = gst_caps_from_string (str);
  gboolean ret;

  fail_unless (caps != NULL, "bad caps string %s", str);
  ret = gst_pad_query_accept_caps (pad, caps);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return ret;
}

static void
check_refused_caps (const gchar * factory)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  guint i;

  /* The supported formats are accepted, in any size ... */
  fail_unless (accepts (e, "sink",
          "video/x-raw,format=NV12,width=97,height=33,framerate=30/1"));
  fail_unless (accepts (e, "src",
          "video/x-raw,format=GRAY8,width=1,height=1,framerate=0/1"));
  /* ... and nothing else, on either pad. */
  for (i = 0; i < G_N_ELEMENTS (refused_caps); i++) {
    fail_if (accepts (e, "sink", refused_caps[i]), "%s sink accepted %s",
        factory, refused_caps[i]);
    fail_if (accepts (e, "src", refused_caps[i]), "%s src accepted %s",
        factory, refused_caps[i]);
  }
  gst_object_unref (e);
}

GST_START_TEST (test_boxblur_refuses_caps)
{
  check_refused_caps ("hipboxblur");
}

GST_END_TEST;

GST_START_TEST (test_histogram_refuses_caps)
{
  check_refused_caps ("hiphistogram");
}

GST_END_TEST;

static GstPadProbeReturn
count_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
  return GST_PAD_PROBE_OK;
}

/* Linking to a source whose caps the element cannot take fails, whether
 * by the launch syntax, with a filter, or element to element. */
static void
check_refused_link (const gchar * factory)
{
  static const gchar *sources[] = {
    "videotestsrc ! video/x-raw,format=RGB16",
    "videotestsrc ! video/x-raw,format=Y41B,width=64,height=48",
    "videotestsrc ! video/x-raw(memory:GLMemory)",
    "audiotestsrc",
    "audiotestsrc ! audio/x-raw,format=S16LE",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sources); i++) {
    gchar *desc = g_strdup_printf ("%s ! %s ! fakesink", sources[i], factory);
    GError *err = NULL;
    GstElement *pipeline;

    pipeline = gst_parse_launch (desc, &err);
    fail_unless (err != NULL, "%s: linked", desc);
    fail_unless (g_error_matches (err, GST_PARSE_ERROR, GST_PARSE_ERROR_LINK),
        "%s: %s", desc, err->message);
    fail_unless (strstr (err->message, "could not link") != NULL, "%s",
        err->message);
    g_clear_error (&err);
    if (pipeline) {
      /* What the parser left (the source not linked to the element) must
       * not run, nor crash: an error (no device here; on a machine with a
       * GPU, the source's not-linked), and no buffer reaches the sink. */
      GstElement *sink = find_by_factory (pipeline, "fakesink");
      GstPad *pad = gst_element_get_static_pad (sink, "sink");
      GstMessage *msg;
      gint buffers = 0;

      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffer,
          &buffers, NULL);
      fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
          GST_STATE_CHANGE_SUCCESS, "%s: playing", desc);
      msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
          30 * GST_SECOND, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
      fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
          "%s: no error", desc);
      gst_message_unref (msg);
      fail_unless_equals_int (gst_element_set_state (pipeline,
              GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
      fail_unless_equals_int (g_atomic_int_get (&buffers), 0);
      gst_object_unref (pad);
      gst_object_unref (sink);
      gst_object_unref (pipeline);
    }
    pipeline = gst_parse_launch_full (desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
        &err);
    fail_unless (pipeline == NULL, "%s", desc);
    fail_unless (g_error_matches (err, GST_PARSE_ERROR, GST_PARSE_ERROR_LINK));
    g_clear_error (&err);
    g_free (desc);
  }

  /* The same with the API. */
  {
    GstElement *src = gst_element_factory_make ("videotestsrc", NULL);
    GstElement *asrc = gst_element_factory_make ("audiotestsrc", NULL);
    GstElement *e = gst_element_factory_make (factory, NULL);
    GstElement *bin = gst_pipeline_new (NULL);
    GstCaps *caps;

    gst_bin_add_many (GST_BIN (bin), src, asrc, e, NULL);
    caps = gst_caps_from_string ("video/x-raw,format=RGB16");
    fail_if (gst_element_link_filtered (src, e, caps));
    gst_caps_unref (caps);
    caps = gst_caps_from_string ("video/x-raw,format=GRAY16_BE");
    fail_if (gst_element_link_filtered (src, e, caps));
    gst_caps_unref (caps);
    fail_if (gst_element_link (asrc, e));
    /* Still free to link to something it takes. */
    caps = gst_caps_from_string ("video/x-raw,format=NV12");
    fail_unless (gst_element_link_filtered (src, e, caps));
    gst_caps_unref (caps);
    gst_object_unref (bin);
  }
}

GST_START_TEST (test_boxblur_refuses_link)
{
  check_refused_link ("hipboxblur");
}

GST_END_TEST;

GST_START_TEST (test_histogram_refuses_link)
{
  check_refused_link ("hiphistogram");
}

GST_END_TEST;

/* ---- start errors ------------------------------------------------------ */

#define START_ERROR_ROUNDS 100

/* A pipeline of plain elements still runs to the end. */
static void
check_plain_pipeline_runs (void)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=7 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! identity name=id ! "
      "fakesink", NULL);
  GstElement *id;
  GstPad *pad;
  GstMessage *msg;
  gint buffers = 0;

  fail_unless (pipeline != NULL);
  id = gst_bin_get_by_name (GST_BIN (pipeline), "id");
  pad = gst_element_get_static_pad (id, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffer, &buffers,
      NULL);
  gst_object_unref (pad);
  gst_object_unref (id);
  fail_if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no EOS");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless_equals_int (g_atomic_int_get (&buffers), 7);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
}

/* Starting on a device that does not exist (here: no device at all on a
 * machine without a GPU) fails with one resource error naming the HIP
 * error, as often as it is tried, and leaves the process healthy. */
static void
check_start_error_repeated (const gchar * factory)
{
  gint round;

  for (round = 0; round < START_ERROR_ROUNDS; round++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
        "%s device-id=%d name=e ! fakesink", factory, 4000 + round);
    GstElement *pipeline = gst_parse_launch (desc, NULL);
    GstElement *e;
    GstStateChangeReturn ret;
    GstMessage *msg;
    guint errors = 0;

    fail_unless (pipeline != NULL);
    e = gst_bin_get_by_name (GST_BIN (pipeline), "e");
    ret = gst_element_set_state (pipeline, round % 2 ? GST_STATE_PLAYING :
        GST_STATE_PAUSED);
    if (ret == GST_STATE_CHANGE_ASYNC)
      ret = gst_element_get_state (pipeline, NULL, NULL, 10 * GST_SECOND);
    fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);

    while ((msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline),
                GST_MESSAGE_ERROR))) {
      GError *err = NULL;
      gchar *debug = NULL;

      gst_message_parse_error (msg, &err, &debug);
      fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (e), "error from %s: %s",
          GST_MESSAGE_SRC_NAME (msg), err->message);
      fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
              GST_RESOURCE_ERROR_NOT_FOUND), "%s", err->message);
      fail_unless (strstr (err->message, "HIP") != NULL, "%s", err->message);
      /* "...: <the runtime's error string>" */
      fail_unless (strstr (err->message, ": ") != NULL
          && strlen (strstr (err->message, ": ")) > 3, "%s", err->message);
      errors++;
      g_clear_error (&err);
      g_free (debug);
      gst_message_unref (msg);
    }
    fail_unless_equals_int (errors, 1);
    fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
    gst_object_unref (e);
    ASSERT_OBJECT_REFCOUNT (pipeline, "pipeline", 1);
    gst_object_unref (pipeline);
    g_free (desc);
  }
  check_plain_pipeline_runs ();
}

GST_START_TEST (test_boxblur_start_error_repeated)
{
  check_start_error_repeated ("hipboxblur");
}

GST_END_TEST;

GST_START_TEST (test_histogram_start_error_repeated)
{
  check_start_error_repeated ("hiphistogram");
}

GST_END_TEST;

/* ---- state cycles ------------------------------------------------------ */

#define STATE_CYCLES 1000

static void
cycle (GstElement * e, guint n)
{
  guint i;
  GstState state;

  for (i = 0; i < n; i++) {
    fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
        GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_get_state (e, &state, NULL, 0),
        GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (state, GST_STATE_READY);
    fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_get_state (e, &state, NULL, 0),
        GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (state, GST_STATE_NULL);
  }
}

static void
check_element_cycles (const gchar * factory)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  fail_unless (e != NULL);
  /* Properties set between cycles stay. */
  g_object_set (e, "device-id", 0, NULL);
  cycle (e, STATE_CYCLES);
  fail_unless_equals_int64 (get_int (G_OBJECT (e), "device-id"), 0);
  ASSERT_OBJECT_REFCOUNT (e, factory, 1);
  gst_object_unref (e);
}

GST_START_TEST (test_boxblur_state_cycles)
{
  check_element_cycles ("hipboxblur");
}

GST_END_TEST;

GST_START_TEST (test_histogram_state_cycles)
{
  check_element_cycles ("hiphistogram");
}

GST_END_TEST;

GST_START_TEST (test_pipeline_state_cycles)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc ! "
      "video/x-raw,format=NV12,width=64,height=48 ! hipboxblur radius=3 ! "
      "hiphistogram bins=16 ! hipboxblur border-mode=wrap ! fakesink", NULL);
  GstMessage *msg;

  fail_unless (pipeline != NULL);
  cycle (pipeline, STATE_CYCLES);
  /* Nothing went wrong on the way. */
  msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
  fail_unless (msg == NULL, "%" GST_PTR_FORMAT, msg);
  ASSERT_OBJECT_REFCOUNT (pipeline, "pipeline", 1);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Elements created and dropped by the thousand, in every state they can
 * reach here, with their properties set. */
GST_START_TEST (test_create_destroy)
{
  guint i;

  for (i = 0; i < STATE_CYCLES; i++) {
    GstElement *b = gst_element_factory_make ("hipboxblur", NULL);
    GstElement *h = gst_element_factory_make ("hiphistogram", NULL);

    g_object_set (b, "radius", i % 2001, "radius-x", (gint) (i % 7) - 1, NULL);
    g_object_set (h, "bins", 1 + i % 256, "roi-x", i, NULL);
    if (i % 2) {
      fail_unless_equals_int (gst_element_set_state (b, GST_STATE_READY),
          GST_STATE_CHANGE_SUCCESS);
      fail_unless_equals_int (gst_element_set_state (h, GST_STATE_READY),
          GST_STATE_CHANGE_SUCCESS);
      gst_element_set_state (b, GST_STATE_NULL);
      gst_element_set_state (h, GST_STATE_NULL);
    }
    fail_unless_equals_int64 (get_int (G_OBJECT (b), "radius"), i % 2001);
    fail_unless_equals_int64 (get_int (G_OBJECT (h), "bins"), 1 + i % 256);
    gst_object_unref (b);
    gst_object_unref (h);
  }
}

GST_END_TEST;

/* The plugin's host memory, found by its type once the plugin is loaded:
 * pinned with a GPU, pageable without one (or once pinned memory runs
 * out), it maps, holds what is written and honours the alignment asked
 * for; a share reads its parent's bytes and refuses to be written, since
 * other holders of the parent read them. */
GST_START_TEST (test_host_allocator)
{
  GstElement *e = gst_element_factory_make ("hipboxblur", NULL);
  GstAllocator *allocator = gst_allocator_find ("HipHostMemory");
  GstAllocationParams params;
  GstMemory *mem, *aligned, *share;
  GstMapInfo map;

  fail_unless (allocator != NULL, "HipHostMemory not registered");
  gst_allocation_params_init (&params);
  params.align = 255;
  aligned = gst_allocator_alloc (allocator, 1000, &params);
  fail_unless (aligned != NULL);
  fail_unless (gst_memory_map (aligned, &map, GST_MAP_READWRITE));
  fail_unless (((guintptr) map.data & 255) == 0, "%p not aligned", map.data);
  gst_memory_unmap (aligned, &map);

  params.align = 0;
  params.prefix = 16;
  params.padding = 8;
  mem = gst_allocator_alloc (allocator, 100000, &params);
  fail_unless (mem != NULL);
  fail_unless_equals_string (mem->allocator->mem_type, "HipHostMemory");
  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
  fail_unless_equals_uint64 (map.size, 100000);
  memset (map.data, 0x5a, map.size);
  map.data[10] = 0xa5;
  gst_memory_unmap (mem, &map);

  share = gst_memory_share (mem, 10, 50);
  fail_unless (gst_memory_map (share, &map, GST_MAP_READ));
  fail_unless_equals_uint64 (map.size, 50);
  fail_unless_equals_int (map.data[0], 0xa5);
  fail_unless_equals_int (map.data[49], 0x5a);
  gst_memory_unmap (share, &map);
  fail_if (gst_memory_map (share, &map, GST_MAP_WRITE),
      "a share of host memory maps writable");
  fail_unless (gst_memory_map (mem, &map, GST_MAP_READ));
  fail_unless_equals_int (map.data[10], 0xa5);
  gst_memory_unmap (mem, &map);

  gst_memory_unref (share);
  gst_memory_unref (mem);
  gst_memory_unref (aligned);
  gst_object_unref (allocator);
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
hardening_suite (void)
{
  Suite *s = suite_create ("hardening");
  TCase *tc = tcase_create ("general");

  /* Generous: the CI runs this under valgrind. */
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_boxblur_property_ranges);
  tcase_add_test (tc, test_histogram_property_ranges);
  tcase_add_test (tc, test_boxblur_border_nicks);
  tcase_add_test (tc, test_parse_out_of_range);
  tcase_add_test (tc, test_boxblur_refuses_caps);
  tcase_add_test (tc, test_histogram_refuses_caps);
  tcase_add_test (tc, test_boxblur_refuses_link);
  tcase_add_test (tc, test_histogram_refuses_link);
  tcase_add_test (tc, test_boxblur_start_error_repeated);
  tcase_add_test (tc, test_histogram_start_error_repeated);
  tcase_add_test (tc, test_boxblur_state_cycles);
  tcase_add_test (tc, test_histogram_state_cycles);
  tcase_add_test (tc, test_pipeline_state_cycles);
  tcase_add_test (tc, test_create_destroy);
  tcase_add_test (tc, test_host_allocator);
  return s;
}

GST_CHECK_MAIN (hardening);
