/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-hipboxblur
 * @title: hipboxblur
 *
 * Blurs every plane of a video frame with a box (mean) filter on a HIP
 * device. The output is exact: each sample is the rounded integer mean of
 * the (2 radius-x + 1) x (2 radius-y + 1) window around it, with samples
 * outside the frame given by #GstHipBorderMode. Planes subsampled by two use
 * half the radius, rounded up. A radius of 0 passes frames through.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! hipboxblur radius=6 border-mode=mirror ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthipboxblur.h"

GST_DEBUG_CATEGORY_STATIC (gst_hip_box_blur_debug);
#define GST_CAT_DEFAULT gst_hip_box_blur_debug

#define DEFAULT_RADIUS 1
#define DEFAULT_RADIUS_XY -1
#define DEFAULT_BORDER_MODE HIPF_BORDER_MIRROR

enum
{
  PROP_0,
  PROP_RADIUS,
  PROP_RADIUS_X,
  PROP_RADIUS_Y,
  PROP_BORDER_MODE,
  PROP_DEVICE_ID,
};

struct _GstHipBoxBlur
{
  GstVideoFilter parent;

  /* properties, under the object lock */
  guint radius;
  gint radius_x;
  gint radius_y;
  HipfBorderMode border_mode;
  gint device_id;

  /* streaming state */
  GstHipDevice device;
  GstHipVideoLayout layout;
  GstHipMemory src;
  GstHipMemory dst;
  GstHipMemory scratch;
};

GType
gst_hip_border_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {HIPF_BORDER_ZERO, "Samples outside the frame are 0", "zero"},
    {HIPF_BORDER_CLAMP, "Samples outside the frame repeat the nearest edge "
          "sample", "clamp"},
    {HIPF_BORDER_MIRROR, "The frame is reflected about its edge samples, "
          "which are not repeated (d c b | a b c d)", "mirror"},
    {HIPF_BORDER_WRAP, "The frame repeats periodically", "wrap"},
    {HIPF_BORDER_VALID, "Only samples inside the frame are averaged",
        "valid"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstHipBorderMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_hip_box_blur_parent_class parent_class
G_DEFINE_TYPE (GstHipBoxBlur, gst_hip_box_blur, GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE (hipboxblur, "hipboxblur", GST_RANK_NONE,
    GST_TYPE_HIP_BOX_BLUR);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (GST_HIP_VIDEO_FORMATS)));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (GST_HIP_VIDEO_FORMATS)));

/* Call with the object lock held. */
static void
effective_radii (GstHipBoxBlur * self, gint * rx, gint * ry)
{
  *rx = self->radius_x >= 0 ? self->radius_x : (gint) self->radius;
  *ry = self->radius_y >= 0 ? self->radius_y : (gint) self->radius;
}

static void
update_passthrough (GstHipBoxBlur * self)
{
  gint rx, ry;

  GST_OBJECT_LOCK (self);
  effective_radii (self, &rx, &ry);
  GST_OBJECT_UNLOCK (self);
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self),
      rx == 0 && ry == 0);
}

static void
gst_hip_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_RADIUS:
      self->radius = g_value_get_uint (value);
      break;
    case PROP_RADIUS_X:
      self->radius_x = g_value_get_int (value);
      break;
    case PROP_RADIUS_Y:
      self->radius_y = g_value_get_int (value);
      break;
    case PROP_BORDER_MODE:
      self->border_mode = g_value_get_enum (value);
      break;
    case PROP_DEVICE_ID:
      self->device_id = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
  update_passthrough (self);
}

static void
gst_hip_box_blur_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_RADIUS:
      g_value_set_uint (value, self->radius);
      break;
    case PROP_RADIUS_X:
      g_value_set_int (value, self->radius_x);
      break;
    case PROP_RADIUS_Y:
      g_value_set_int (value, self->radius_y);
      break;
    case PROP_BORDER_MODE:
      g_value_set_enum (value, self->border_mode);
      break;
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
release_memory (GstHipBoxBlur * self)
{
  gst_hip_device_free (&self->device, &self->src);
  gst_hip_device_free (&self->device, &self->dst);
  gst_hip_device_free (&self->device, &self->scratch);
}

static gboolean
gst_hip_box_blur_start (GstBaseTransform * trans)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  return gst_hip_device_open (&self->device, GST_ELEMENT (self), device_id);
}

static gboolean
gst_hip_box_blur_stop (GstBaseTransform * trans)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);

  release_memory (self);
  gst_hip_device_close (&self->device);
  return TRUE;
}

static void
plane_params (const GstHipPlane * plane, gint rx, gint ry,
    HipfBorderMode border, HipfBoxBlurPlane * params)
{
  params->width = plane->width;
  params->height = plane->height;
  params->channels = plane->channels;
  /* A plane subsampled by 2^s covers 2^s luma samples per sample. */
  params->radius_x = (rx + (1 << plane->w_sub) - 1) >> plane->w_sub;
  params->radius_y = (ry + (1 << plane->h_sub) - 1) >> plane->h_sub;
  params->border = border;
}

static gboolean
gst_hip_box_blur_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (filter);
  gsize scratch = 0;
  guint p;

  gst_hip_video_layout_init (&self->layout, in_info);
  for (p = 0; p < self->layout.n_planes; p++) {
    HipfBoxBlurPlane params;

    /* Scratch depends on the plane's size only, not on the radii. */
    plane_params (&self->layout.planes[p], 0, 0, HIPF_BORDER_ZERO, &params);
    scratch = MAX (scratch,
        hipf_box_blur_scratch_size (&self->device.limits, &params));
  }

  return gst_hip_device_bind (&self->device)
      && gst_hip_device_alloc (&self->device, &self->src, self->layout.size,
      "input frame")
      && gst_hip_device_alloc (&self->device, &self->dst, self->layout.size,
      "output frame")
      && gst_hip_device_alloc (&self->device, &self->scratch, scratch,
      "blur prefix sums");
}

static GstFlowReturn
gst_hip_box_blur_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (filter);
  GstHipDevice *dev = &self->device;
  guint8 *src = self->src.ptr, *dst = self->dst.ptr;
  HipfBorderMode border;
  gint rx, ry;
  guint p;

  /* One consistent set of properties per frame. */
  GST_OBJECT_LOCK (self);
  effective_radii (self, &rx, &ry);
  border = self->border_mode;
  GST_OBJECT_UNLOCK (self);

  if (rx == 0 && ry == 0)
    return gst_video_frame_copy (out_frame, in_frame) ? GST_FLOW_OK :
        GST_FLOW_ERROR;

  if (!gst_hip_device_bind (dev)
      || !gst_hip_video_upload (dev, &self->layout, in_frame, src))
    return GST_FLOW_ERROR;

  for (p = 0; p < self->layout.n_planes; p++) {
    const GstHipPlane *plane = &self->layout.planes[p];
    HipfBoxBlurPlane params;

    plane_params (plane, rx, ry, border, &params);
    if (!gst_hip_device_launched (dev, hipf_box_blur (&dev->limits, &params,
                src + plane->offset, plane->pitch, dst + plane->offset,
                plane->pitch, self->scratch.ptr, dev->stream), "hipf_box_blur"))
      return GST_FLOW_ERROR;
  }

  if (!gst_hip_video_download (dev, &self->layout, dst, out_frame)
      || !gst_hip_device_synchronize (dev))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

static void
gst_hip_box_blur_class_init (GstHipBoxBlurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_hip_box_blur_set_property;
  gobject_class->get_property = gst_hip_box_blur_get_property;

  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_uint ("radius", "Radius",
          "Half the window size in both directions: the window is "
          "(2 radius + 1) samples wide and high; 0 passes frames through",
          0, HIPF_BOX_BLUR_MAX_RADIUS, DEFAULT_RADIUS,
          flags | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_RADIUS_X,
      g_param_spec_int ("radius-x", "Horizontal radius",
          "Horizontal radius; -1 uses radius", -1, HIPF_BOX_BLUR_MAX_RADIUS,
          DEFAULT_RADIUS_XY,
          flags | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_RADIUS_Y,
      g_param_spec_int ("radius-y", "Vertical radius",
          "Vertical radius; -1 uses radius", -1, HIPF_BOX_BLUR_MAX_RADIUS,
          DEFAULT_RADIUS_XY,
          flags | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_BORDER_MODE,
      g_param_spec_enum ("border-mode", "Border mode",
          "What the window sees beyond the edges of the frame",
          GST_TYPE_HIP_BORDER_MODE, DEFAULT_BORDER_MODE,
          flags | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "HIP device to run on; -1 uses the default device", -1, G_MAXINT16,
          GST_HIP_DEVICE_ID_DEFAULT, flags | GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "HIP box blur",
      "Filter/Effect/Video", "Exact box blur of every plane on a HIP device",
      "gst-hip-filters contributors");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_hip_box_blur_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_hip_box_blur_stop);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_hip_box_blur_set_info);
  filter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_hip_box_blur_transform_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_HIP_BORDER_MODE, 0);
  GST_DEBUG_CATEGORY_INIT (gst_hip_box_blur_debug, "hipboxblur", 0,
      "HIP box blur");
}

static void
gst_hip_box_blur_init (GstHipBoxBlur * self)
{
  self->radius = DEFAULT_RADIUS;
  self->radius_x = DEFAULT_RADIUS_XY;
  self->radius_y = DEFAULT_RADIUS_XY;
  self->border_mode = DEFAULT_BORDER_MODE;
  self->device_id = GST_HIP_DEVICE_ID_DEFAULT;
}
