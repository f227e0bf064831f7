/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-hipexposure
 * @title: hipexposure
 *
 * Draws an exposure overlay on the frame on a HIP device, as camera
 * monitors do: a graph of the frame's luma histogram in a box, zebra
 * stripes over samples at or above a threshold (diagonal, moving a pixel
 * a frame), and false colour by luma band. What it draws, exactly, is in
 * kernels/overlay/exposure.h. It changes the picture, so it goes before the
 * sink that shows it (after a tee whose other branch keeps the clean
 * stream).
 *
 * It takes GRAY16_LE, P010_10LE and I420_10LE too, in system memory and
 * the plugin's device memory. Their samples are judged by their top eight
 * bits, so zebra-threshold and the false-colour bands mean the same on
 * every format, and the colours drawn are the 8-bit ones brought to the
 * format's range (times 4 for the 10-bit formats, 257 for GRAY16_LE).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! hipexposure zebra=true ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthipexposure.h"
#include "gsthipexposureframe.h"
#include "gsthipmemorycaps.h"

GST_DEBUG_CATEGORY_STATIC (gst_hip_exposure_debug);
#define GST_CAT_DEFAULT gst_hip_exposure_debug

#define DEFAULT_FALSE_COLOR FALSE
#define DEFAULT_ZEBRA TRUE
#define DEFAULT_ZEBRA_THRESHOLD 235
#define DEFAULT_HISTOGRAM TRUE
#define DEFAULT_GRAPH_X 16
#define DEFAULT_GRAPH_Y 16
#define DEFAULT_GRAPH_WIDTH 256
#define DEFAULT_GRAPH_HEIGHT 128
#define DEFAULT_GRAPH_OPACITY 160
#define DEFAULT_GRAPH_MODE GST_HIP_EXPOSURE_GRAPH_LUMA
#define MIN_GRAPH 16
#define MAX_GRAPH 8192

enum
{
  PROP_0,
  PROP_FALSE_COLOR,
  PROP_ZEBRA,
  PROP_ZEBRA_THRESHOLD,
  PROP_HISTOGRAM,
  PROP_GRAPH_X,
  PROP_GRAPH_Y,
  PROP_GRAPH_WIDTH,
  PROP_GRAPH_HEIGHT,
  PROP_GRAPH_OPACITY,
  PROP_GRAPH_MODE,
};

/* The properties one frame is drawn with. */
typedef struct
{
  gboolean false_color, zebra, histogram;
  guint zebra_threshold;
  guint graph_x, graph_y, graph_width, graph_height, graph_opacity;
  GstHipExposureGraph graph_mode;
} Settings;

typedef struct
{
  Settings settings;
  guint frame;                  /* the zebra's phase */
  GstHipMemory scratch;         /* the graph's counts and bar heights */
} Slot;

struct _GstHipExposure
{
  GstHipfFilter parent;

  Settings settings;            /* under the object lock */
  guint frames;                 /* frames begun, for the zebra's motion */
  gint width, height;           /* negotiated, under the object lock */

  /* streaming state */
  HipfExposureFrame overlay;    /* the planes and their roles */
  Slot slots[GST_HIP_IN_FLIGHT_MAX];
};

GType
gst_hip_exposure_graph_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_HIP_EXPOSURE_GRAPH_LUMA, "The luma histogram, white bars", "luma"},
    {GST_HIP_EXPOSURE_GRAPH_RGB, "The red, green and blue histograms, each "
          "in its colour, added where they overlap", "rgb"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstHipExposureGraph", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_hip_exposure_parent_class parent_class
G_DEFINE_TYPE (GstHipExposure, gst_hip_exposure, GST_TYPE_HIPF_FILTER);
GST_ELEMENT_REGISTER_DEFINE (hipexposure, "hipexposure", GST_RANK_NONE,
    GST_TYPE_HIP_EXPOSURE);

/* Nothing drawn: frames pass through. */
static void
update_passthrough (GstHipExposure * self)
{
  gboolean idle;

  GST_OBJECT_LOCK (self);
  idle = !self->settings.false_color && !self->settings.zebra
      && !self->settings.histogram;
  GST_OBJECT_UNLOCK (self);
  gst_hipf_filter_set_passthrough (GST_HIPF_FILTER (self), idle);
}

/* Once caps are known, a position or size that takes the box out of the
 * frame along its own axis is refused, the old value kept. Only that axis
 * is checked, so a box clipped on the other one (the default box on a
 * small frame) can still be moved and resized one property at a time.
 * Before caps, any box is taken and clipped when they come. Call with the
 * object lock held. */
static gboolean
graph_fits (GstHipExposure * self, const Settings * s, guint prop_id)
{
  if (self->width == 0)
    return TRUE;
  switch (prop_id) {
    case PROP_GRAPH_X:
    case PROP_GRAPH_WIDTH:
      return (guint64) s->graph_x + s->graph_width <= (guint64) self->width;
    case PROP_GRAPH_Y:
    case PROP_GRAPH_HEIGHT:
      return (guint64) s->graph_y + s->graph_height <= (guint64) self->height;
    default:
      return TRUE;
  }
}

static void
gst_hip_exposure_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstHipExposure *self = GST_HIP_EXPOSURE (object);
  Settings s;

  GST_OBJECT_LOCK (self);
  s = self->settings;
  switch (prop_id) {
    case PROP_FALSE_COLOR:
      s.false_color = g_value_get_boolean (value);
      break;
    case PROP_ZEBRA:
      s.zebra = g_value_get_boolean (value);
      break;
    case PROP_ZEBRA_THRESHOLD:
      s.zebra_threshold = g_value_get_uint (value);
      break;
    case PROP_HISTOGRAM:
      s.histogram = g_value_get_boolean (value);
      break;
    case PROP_GRAPH_X:
      s.graph_x = g_value_get_uint (value);
      break;
    case PROP_GRAPH_Y:
      s.graph_y = g_value_get_uint (value);
      break;
    case PROP_GRAPH_WIDTH:
      s.graph_width = g_value_get_uint (value);
      break;
    case PROP_GRAPH_HEIGHT:
      s.graph_height = g_value_get_uint (value);
      break;
    case PROP_GRAPH_OPACITY:
      s.graph_opacity = g_value_get_uint (value);
      break;
    case PROP_GRAPH_MODE:
      s.graph_mode = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  if (graph_fits (self, &s, prop_id)) {
    self->settings = s;
    GST_OBJECT_UNLOCK (self);
  } else {
    gint w = self->width, h = self->height;

    GST_OBJECT_UNLOCK (self);
    g_warning ("%s: histogram box %u,%u %ux%u leaves the %dx%d frame: "
        "refused", GST_OBJECT_NAME (self), s.graph_x, s.graph_y,
        s.graph_width, s.graph_height, w, h);
  }
  update_passthrough (self);
}

static void
gst_hip_exposure_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstHipExposure *self = GST_HIP_EXPOSURE (object);
  const Settings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_FALSE_COLOR:
      g_value_set_boolean (value, s->false_color);
      break;
    case PROP_ZEBRA:
      g_value_set_boolean (value, s->zebra);
      break;
    case PROP_ZEBRA_THRESHOLD:
      g_value_set_uint (value, s->zebra_threshold);
      break;
    case PROP_HISTOGRAM:
      g_value_set_boolean (value, s->histogram);
      break;
    case PROP_GRAPH_X:
      g_value_set_uint (value, s->graph_x);
      break;
    case PROP_GRAPH_Y:
      g_value_set_uint (value, s->graph_y);
      break;
    case PROP_GRAPH_WIDTH:
      g_value_set_uint (value, s->graph_width);
      break;
    case PROP_GRAPH_HEIGHT:
      g_value_set_uint (value, s->graph_height);
      break;
    case PROP_GRAPH_OPACITY:
      g_value_set_uint (value, s->graph_opacity);
      break;
    case PROP_GRAPH_MODE:
      g_value_set_enum (value, s->graph_mode);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_hip_exposure_configure (GstHipfFilter * filter, const GstVideoInfo * info)
{
  GstHipExposure *self = GST_HIP_EXPOSURE (filter);
  guint i;

  GST_OBJECT_LOCK (self);
  self->width = GST_VIDEO_INFO_WIDTH (info);
  self->height = GST_VIDEO_INFO_HEIGHT (info);
  GST_OBJECT_UNLOCK (self);
  gst_hipf_exposure_frame_init (&self->overlay, info, &filter->layout);
  GST_DEBUG_OBJECT (self, "%d-byte samples, %d bits from bit %d, colours "
      "times %d", self->overlay.sample_bytes, self->overlay.depth,
      self->overlay.shift, self->overlay.colour_scale);
  for (i = 0; i < filter->in_flight.n_slots; i++) {
    if (!gst_hip_device_alloc (&filter->device, &self->slots[i].scratch,
            HIPF_EXPOSURE_SCRATCH_BYTES, "graph"))
      return FALSE;
  }
  return TRUE;
}

static gboolean
gst_hip_exposure_begin (GstHipfFilter * filter, guint index)
{
  GstHipExposure *self = GST_HIP_EXPOSURE (filter);
  Slot *slot = &self->slots[index];

  GST_OBJECT_LOCK (self);
  slot->settings = self->settings;
  slot->frame = self->frames++;
  GST_OBJECT_UNLOCK (self);
  return slot->settings.false_color || slot->settings.zebra
      || slot->settings.histogram;
}

static gboolean
gst_hip_exposure_compute (GstHipfFilter * filter, guint index, guint slice,
    hipStream_t stream)
{
  GstHipExposure *self = GST_HIP_EXPOSURE (filter);
  GstHipDevice *dev = &filter->device;
  GstHipfFrame *fr = &filter->frames[index];
  Slot *slot = &self->slots[index];
  const Settings *s = &slot->settings;
  HipfExposureFrame f = self->overlay;

  f.false_color = s->false_color;
  f.zebra = s->zebra;
  f.zebra_threshold = s->zebra_threshold;
  f.frame = slot->frame;
  f.graph = s->histogram;
  f.graph_x = s->graph_x;
  f.graph_y = s->graph_y;
  f.graph_width = s->graph_width;
  f.graph_height = s->graph_height;
  f.graph_opacity = s->graph_opacity;
  f.graph_rgb = s->graph_mode == GST_HIP_EXPOSURE_GRAPH_RGB;
  return gst_hip_device_launched (dev, hipf_exposure_draw (&dev->limits, &f,
          fr->src, fr->dst[slice % 2], slot->scratch.ptr, stream),
      "hipf_exposure_draw");
}

static void
gst_hip_exposure_close (GstHipfFilter * filter)
{
  GstHipExposure *self = GST_HIP_EXPOSURE (filter);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (self->slots); i++) {
    gst_hip_device_free (&filter->device, &self->slots[i].scratch);
  }
  GST_OBJECT_LOCK (self);
  self->width = self->height = 0;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_hip_exposure_class_init (GstHipExposureClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstHipfFilterClass *hipf_class = GST_HIPF_FILTER_CLASS (klass);
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_hip_exposure_set_property;
  gobject_class->get_property = gst_hip_exposure_get_property;

  g_object_class_install_property (gobject_class, PROP_FALSE_COLOR,
      g_param_spec_boolean ("false-color", "False colour",
          "Paint each sample in its luma band's colour (purple, blue, dark "
          "grey, green for skin, light grey, yellow, orange, red)",
          DEFAULT_FALSE_COLOR, live));
  g_object_class_install_property (gobject_class, PROP_ZEBRA,
      g_param_spec_boolean ("zebra", "Zebra",
          "Black diagonal stripes, moving, over samples at or above "
          "zebra-threshold", DEFAULT_ZEBRA, live));
  g_object_class_install_property (gobject_class, PROP_ZEBRA_THRESHOLD,
      g_param_spec_uint ("zebra-threshold", "Zebra threshold",
          "Luma at or above which zebra stripes show, in the 8-bit scale (the "
          "top eight bits of a 16-bit format's luma are compared)", 0, 255,
          DEFAULT_ZEBRA_THRESHOLD, live));
  g_object_class_install_property (gobject_class, PROP_HISTOGRAM,
      g_param_spec_boolean ("histogram", "Histogram",
          "Draw a graph of the frame's luma histogram in the histogram box",
          DEFAULT_HISTOGRAM, live));
  g_object_class_install_property (gobject_class, PROP_GRAPH_X,
      g_param_spec_uint ("histogram-x", "Histogram x",
          "Left edge of the histogram box, in luma samples; once caps are "
          "set, a position or size that takes the box out of the frame is "
          "refused", 0, MAX_GRAPH, DEFAULT_GRAPH_X,
          live));
  g_object_class_install_property (gobject_class, PROP_GRAPH_Y,
      g_param_spec_uint ("histogram-y", "Histogram y",
          "Top edge of the histogram box, in luma samples", 0, MAX_GRAPH,
          DEFAULT_GRAPH_Y, live));
  g_object_class_install_property (gobject_class, PROP_GRAPH_WIDTH,
      g_param_spec_uint ("histogram-width", "Histogram width",
          "Width of the histogram box, in luma samples", MIN_GRAPH,
          MAX_GRAPH, DEFAULT_GRAPH_WIDTH, live));
  g_object_class_install_property (gobject_class, PROP_GRAPH_HEIGHT,
      g_param_spec_uint ("histogram-height", "Histogram height",
          "Height of the histogram box, in luma samples", MIN_GRAPH,
          MAX_GRAPH, DEFAULT_GRAPH_HEIGHT, live));
  g_object_class_install_property (gobject_class, PROP_GRAPH_OPACITY,
      g_param_spec_uint ("histogram-opacity", "Histogram opacity",
          "Opacity of the histogram box: 0 transparent, 255 opaque", 0, 255,
          DEFAULT_GRAPH_OPACITY, live));
  g_object_class_install_property (gobject_class, PROP_GRAPH_MODE,
      g_param_spec_enum ("histogram-mode", "Histogram mode",
          "What the graph shows: the luma histogram, or those of red, green "
          "and blue in their colours", GST_TYPE_HIP_EXPOSURE_GRAPH,
          DEFAULT_GRAPH_MODE, live));

  gst_hipf_filter_class_take_16_bit (element_class);
  gst_element_class_set_static_metadata (element_class, "HIP exposure overlay",
      "Filter/Effect/Video/Hardware",
      "Histogram graph, zebra stripes and false colour drawn on a HIP device",
      "gst-hip-filters contributors");

  hipf_class->configure = GST_DEBUG_FUNCPTR (gst_hip_exposure_configure);
  hipf_class->begin = GST_DEBUG_FUNCPTR (gst_hip_exposure_begin);
  hipf_class->compute = GST_DEBUG_FUNCPTR (gst_hip_exposure_compute);
  hipf_class->close = GST_DEBUG_FUNCPTR (gst_hip_exposure_close);

  gst_type_mark_as_plugin_api (GST_TYPE_HIP_EXPOSURE_GRAPH, 0);
  GST_DEBUG_CATEGORY_INIT (gst_hip_exposure_debug, "hipexposure", 0,
      "HIP exposure overlay");
}

static void
gst_hip_exposure_init (GstHipExposure * self)
{
  Settings *s = &self->settings;

  s->false_color = DEFAULT_FALSE_COLOR;
  s->zebra = DEFAULT_ZEBRA;
  s->zebra_threshold = DEFAULT_ZEBRA_THRESHOLD;
  s->histogram = DEFAULT_HISTOGRAM;
  s->graph_x = DEFAULT_GRAPH_X;
  s->graph_y = DEFAULT_GRAPH_Y;
  s->graph_width = DEFAULT_GRAPH_WIDTH;
  s->graph_height = DEFAULT_GRAPH_HEIGHT;
  s->graph_opacity = DEFAULT_GRAPH_OPACITY;
  s->graph_mode = DEFAULT_GRAPH_MODE;
}
