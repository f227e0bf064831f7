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
 * With #GstHipBoxBlur:frames-in-flight above 1, uploads, kernels and
 * downloads of consecutive frames overlap (uploads on one stream, downloads
 * on another); a frame leaves the element as soon as the device is done
 * with it, pushed between frames by a thread of the element's own, at the
 * latest once frames-in-flight - 1 newer frames have entered (or at EOS),
 * and the most latency this adds is reported in the latency query. With
 * one frame in flight, a frame crosses the device in #GstHipBoxBlur:slices
 * of rows instead, each slice's download overlapping the next one's
 * kernels and later ones' uploads, with no added latency.
 * Frames in device memory (`memory:HipfDeviceMemory`, from another of the
 * plugin's elements) are blurred in place on the device, and the output
 * stays there where downstream takes device memory; frames in system
 * memory cross the link, from and to pinned memory (#GstHipfFilter).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! hipboxblur radius=6 border-mode=mirror ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "gsthipboxblur.h"
#include "gsthipmemorycaps.h"

GST_DEBUG_CATEGORY_STATIC (gst_hip_box_blur_debug);
#define GST_CAT_DEFAULT gst_hip_box_blur_debug

#define DEFAULT_RADIUS 1
#define DEFAULT_RADIUS_XY -1
#define DEFAULT_BORDER_MODE HIPF_BORDER_MIRROR
#define DEFAULT_SLICES 0

/* Each slice costs calls, launches and the rows its kernels blur again
 * around it, and the first slice's upload and the last one's download
 * cross the link alone: the fastest count grows with the square root of
 * the frame's bytes, one slice per this many squared
 * (docs/design/frame-pipeline.md has the measurements). */
#define SLICE_BYTES_UNIT 400000
/* Nor should a slice be shorter than the vertical radius, the rows its
 * windows reach beyond it on each side, which its kernels blur again. */
#define SLICE_MIN_ROWS 16

enum
{
  PROP_0,
  PROP_RADIUS,
  PROP_RADIUS_X,
  PROP_RADIUS_Y,
  PROP_BORDER_MODE,
  PROP_SLICES,
  PROP_STATS,
};

/* What the element keeps for one frame in flight. */
typedef struct
{
  GstHipMemory scratch;
  /* The frame's properties. */
  gint rx, ry;
  HipfBorderMode border;
} Slot;

struct _GstHipBoxBlur
{
  GstHipfFilter parent;

  /* properties, under the object lock */
  guint radius;
  gint radius_x;
  gint radius_y;
  HipfBorderMode border_mode;
  guint slices;

  /* streaming state */
  Slot slots[GST_HIP_IN_FLIGHT_MAX];
  /* Each plane's blur plan for each slice, made the first time a slice of
   * those parameters is blurred and kept while they hold (new caps or
   * properties plan again). */
  HipfBoxBlurPlan *plans[GST_VIDEO_MAX_PLANES][GST_HIP_IN_FLIGHT_MAX_SLICES];

  /* the stats property, under the object lock */
  guint last_slices;
};

#define gst_hip_box_blur_parent_class parent_class
G_DEFINE_TYPE (GstHipBoxBlur, gst_hip_box_blur, GST_TYPE_HIPF_FILTER);
GST_ELEMENT_REGISTER_DEFINE (hipboxblur, "hipboxblur", GST_RANK_NONE,
    GST_TYPE_HIP_BOX_BLUR);

/* Call with the object lock held. */
static void
effective_radii (GstHipBoxBlur * self, gint * rx, gint * ry)
{
  *rx = self->radius_x >= 0 ? self->radius_x : (gint) self->radius;
  *ry = self->radius_y >= 0 ? self->radius_y : (gint) self->radius;
}

/* Radius 0 passes frames through, and holds none back. */
static void
update_passthrough (GstHipBoxBlur * self)
{
  gint rx, ry;

  GST_OBJECT_LOCK (self);
  effective_radii (self, &rx, &ry);
  GST_OBJECT_UNLOCK (self);
  gst_hipf_filter_set_passthrough (GST_HIPF_FILTER (self), rx == 0 && ry == 0);
  gst_hip_in_flight_set_holding (&GST_HIPF_FILTER (self)->in_flight,
      rx != 0 || ry != 0);
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
    case PROP_SLICES:
      self->slices = g_value_get_uint (value);
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
    case PROP_SLICES:
      g_value_set_uint (value, self->slices);
      break;
    case PROP_STATS:
      g_value_take_boxed (value,
          gst_structure_new ("application/x-hipboxblur-stats",
              "slices", G_TYPE_UINT, self->last_slices,
              "slice-buffers", G_TYPE_UINT,
              GST_HIPF_FILTER (self)->slice_buffers, NULL));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
free_plans (GstHipBoxBlur * self)
{
  guint p, k;

  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    for (k = 0; k < GST_HIP_IN_FLIGHT_MAX_SLICES; k++) {
      hipf_box_blur_plan_free (self->plans[p][k]);
      self->plans[p][k] = NULL;
    }
  }
}

static void
gst_hip_box_blur_close (GstHipfFilter * filter)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (filter);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (self->slots); i++)
    gst_hip_device_free (&filter->device, &self->slots[i].scratch);
  free_plans (self);
  GST_OBJECT_LOCK (self);
  self->last_slices = 0;
  GST_OBJECT_UNLOCK (self);
}

static void
plane_params (const GstHipPlane * plane, gint rx, gint ry,
    HipfBorderMode border, HipfBoxBlurPlane * params)
{
  params->width = plane->width;
  params->height = plane->height;
  params->channels = plane->channels;
  params->sample_bytes = plane->sample_bytes;
  params->shift = plane->shift;
  /* A plane subsampled by 2^s covers 2^s luma samples per sample. */
  params->radius_x = (rx + (1 << plane->w_sub) - 1) >> plane->w_sub;
  params->radius_y = (ry + (1 << plane->h_sub) - 1) >> plane->h_sub;
  params->border = border;
  params->after_plane = 0;
}

/* How many slices a frame crosses the device in: @requested, or with one
 * frame in flight as many as are large enough (with more, the frames
 * already keep both copy engines busy, and slices only add calls). Wrapped
 * rows read the far end of the frame, which only the last slice uploads. */
static guint
count_slices (GstHipBoxBlur * self, guint requested, gint ry,
    HipfBorderMode border)
{
  GstHipfFilter *filter = GST_HIPF_FILTER (self);
  const GstHipVideoLayout *layout = &filter->layout;
  guint n;

  if (border == HIPF_BORDER_WRAP)
    return 1;
  if (requested > 0)
    return requested;
  if (filter->in_flight.n_slots > 1)
    return 1;
  n = (guint) (sqrt ((gdouble) layout->size / SLICE_BYTES_UNIT) + 0.5);
  n = MIN (n, (guint) (layout->height / MAX (ry, SLICE_MIN_ROWS)));
  return CLAMP (n, 1, GST_HIP_IN_FLIGHT_MAX_SLICES);
}

/* Whether frames of the negotiated size may cross the device in slices
 * with the properties as they are. The count at radius 0 bounds the count
 * at any radius. */
static gboolean
gst_hip_box_blur_may_slice (GstHipfFilter * filter)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (filter);
  guint requested;

  GST_OBJECT_LOCK (self);
  requested = self->slices;
  GST_OBJECT_UNLOCK (self);
  return count_slices (self, requested, 0, HIPF_BORDER_ZERO) > 1;
}

/* Prefix-sum scratch for every frame in flight: its size depends on the
 * planes' sizes only, not on the radii, and serves the slices as well. */
static gboolean
gst_hip_box_blur_configure (GstHipfFilter * filter, const GstVideoInfo * info)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (filter);
  gsize scratch = 0;
  guint p;

  for (p = 0; p < filter->layout.n_planes; p++) {
    HipfBoxBlurPlane params;

    plane_params (&filter->layout.planes[p], 0, 0, HIPF_BORDER_ZERO, &params);
    scratch = MAX (scratch,
        hipf_box_blur_scratch_size (&filter->device.limits, &params));
  }
  for (p = 0; p < filter->in_flight.n_slots; p++) {
    if (!gst_hip_device_alloc (&filter->device, &self->slots[p].scratch,
            scratch, "blur prefix sums"))
      return FALSE;
  }
  return TRUE;
}

/* One consistent set of properties per frame; at radius 0 (where the
 * caps' memory differs, so that the frame cannot pass through) it is only
 * moved. */
static gboolean
gst_hip_box_blur_begin (GstHipfFilter * filter, guint index)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (filter);
  Slot *slot = &self->slots[index];

  GST_OBJECT_LOCK (self);
  effective_radii (self, &slot->rx, &slot->ry);
  slot->border = self->border_mode;
  GST_OBJECT_UNLOCK (self);
  return slot->rx != 0 || slot->ry != 0;
}

/* The slices blurred lie the rows their windows reach below them above
 * those uploaded, so that each needs the upload of its own slice only, and
 * its download starts as soon as that has landed. */
static gboolean
gst_hip_box_blur_slice (GstHipfFilter * filter, guint index, GstHipSlices * s)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (filter);
  const GstHipVideoLayout *layout = &filter->layout;
  GstHipfFrame *fr = &filter->frames[index];
  Slot *slot = &self->slots[index];
  guint requested, k, p;
  gint step, reach = 0, align = 1 << layout->max_h_sub;

  GST_OBJECT_LOCK (self);
  requested = self->slices;
  GST_OBJECT_UNLOCK (self);

  /* Slices start on rows of every plane. */
  s->n = count_slices (self, requested, slot->ry, slot->border);
  step = GST_ROUND_UP_N ((layout->height + s->n - 1) / s->n, align);
  s->n = (layout->height + step - 1) / step;
  for (p = 0; p < layout->n_planes; p++) {
    HipfBoxBlurPlane params;

    plane_params (&layout->planes[p], slot->rx, slot->ry, slot->border,
        &params);
    reach = MAX (reach, params.radius_y << layout->planes[p].h_sub);
  }
  reach = GST_ROUND_UP_N (reach, align);
  for (k = 0; k <= s->n; k++) {
    fr->up[k] = MIN ((gint) k * step, layout->height);
    fr->rows[k] = k == 0 || k == s->n ? fr->up[k] :
        MAX (fr->up[k] - reach, 0);
  }

  for (k = 0; k < s->n; k++) {
    s->needs[k] = k;
    for (p = 0; p < layout->n_planes; p++) {
      const GstHipPlane *plane = &layout->planes[p];
      HipfBoxBlurPlane params;
      gint a, b, last_row;

      plane_params (plane, slot->rx, slot->ry, slot->border, &params);
      gst_hip_video_plane_rows (layout, p, fr->rows[k], fr->rows[k + 1],
          &a, &b);
      if (a >= b)
        continue;
      last_row = (MIN (b + params.radius_y, plane->height) - 1) <<
          plane->h_sub;
      s->needs[k] = MAX (s->needs[k], (guint) (last_row / step));
    }
  }
  GST_LOG_OBJECT (self, "%u slices of %d rows", s->n, step);
  GST_OBJECT_LOCK (self);
  self->last_slices = s->n;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
same_plane (const HipfBoxBlurPlane * a, const HipfBoxBlurPlane * b)
{
  return a->width == b->width && a->height == b->height
      && a->channels == b->channels && a->radius_x == b->radius_x
      && a->radius_y == b->radius_y && a->border == b->border
      && a->after_plane == b->after_plane
      && a->sample_bytes == b->sample_bytes && a->shift == b->shift;
}

/* The plan for plane @p of slice @slice with @params: the one kept, or a
 * new one where the parameters changed. */
static const HipfBoxBlurPlan *
plan_for (GstHipBoxBlur * self, guint p, guint slice,
    const HipfBoxBlurPlane * params)
{
  HipfBoxBlurPlan **plan = &self->plans[p][slice];

  if (*plan && same_plane (hipf_box_blur_plan_plane (*plan), params))
    return *plan;
  hipf_box_blur_plan_free (*plan);
  *plan = NULL;
  if (!gst_hip_device_check (&GST_HIPF_FILTER (self)->device,
          hipf_box_blur_plan_new (&GST_HIPF_FILTER (self)->device.limits, params, plan),
          "hipf_box_blur_plan_new"))
    return NULL;
  GST_DEBUG_OBJECT (self, "plane %u slice %u (%dx%d, %d channels), radius "
      "%d,%d: %s kernels", p, slice, params->width, params->height,
      params->channels, params->radius_x, params->radius_y,
      hipf_box_blur_path_name (hipf_box_blur_plan_path (*plan)));
  return *plan;
}

/* Each plane's rows of the slice, blurred as a plane of their own that
 * holds the rows their windows reach; where that plane ends inside the
 * frame, its rows near the end are wrong and left to the other slices. */
static gboolean
gst_hip_box_blur_compute (GstHipfFilter * filter, guint index, guint slice,
    hipStream_t stream)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (filter);
  GstHipDevice *dev = &filter->device;
  GstHipfFrame *fr = &filter->frames[index];
  Slot *slot = &self->slots[index];
  const guint8 *src = fr->src;
  guint8 *dst = fr->dst[slice % 2];
  guint p;

  for (p = 0; p < filter->layout.n_planes; p++) {
    const GstHipPlane *plane = &filter->layout.planes[p];
    HipfBoxBlurPlane params;
    const HipfBoxBlurPlan *plan;
    gint a, b, top;
    gsize offset;

    plane_params (plane, slot->rx, slot->ry, slot->border, &params);
    gst_hip_video_plane_rows (&filter->layout, p, fr->rows[slice],
        fr->rows[slice + 1], &a, &b);
    if (a >= b)
      continue;
    top = MAX (a - params.radius_y, 0);
    params.height = MIN (b + params.radius_y, plane->height) - top;
    params.after_plane = p > 0;
    offset = plane->offset + plane->pitch * top;
    plan = plan_for (self, p, slice, &params);
    if (plan == NULL || !gst_hip_device_launched (dev,
            hipf_box_blur_run (plan, src + offset, plane->pitch, dst + offset,
                plane->pitch, slot->scratch.ptr, stream), "hipf_box_blur_run"))
      return FALSE;
  }
  return TRUE;
}

static void
gst_hip_box_blur_class_init (GstHipBoxBlurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstHipfFilterClass *hipf_class = GST_HIPF_FILTER_CLASS (klass);
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
  g_object_class_install_property (gobject_class, PROP_SLICES,
      g_param_spec_uint ("slices", "Slices",
          "Slices of rows a frame crosses the device in, each uploaded, "
          "blurred and downloaded while the next is uploaded; 0 picks by "
          "frame size and radius with one frame in flight, and takes whole "
          "frames with more (wrap borders always take whole frames)",
          0, GST_HIP_IN_FLIGHT_MAX_SLICES, DEFAULT_SLICES,
          flags | GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstHipBoxBlur:stats:
   *
   * How frames cross the device: `slices` (guint), the slices the last
   * frame crossed in (0 before the first frame), and `slice-buffers`
   * (guint), the frames in flight that hold a second device output frame
   * for their slices to write in turn.
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "How frames cross the device: slices (slices the last frame "
          "crossed in) and slice-buffers (frames in flight holding a second "
          "device output frame for slices)", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_hipf_filter_class_take_16_bit (element_class);
  gst_element_class_set_static_metadata (element_class, "HIP box blur",
      "Filter/Effect/Video/Hardware",
      "Exact box blur of every plane on a HIP device",
      "gst-hip-filters contributors");

  hipf_class->configure = GST_DEBUG_FUNCPTR (gst_hip_box_blur_configure);
  hipf_class->may_slice = GST_DEBUG_FUNCPTR (gst_hip_box_blur_may_slice);
  hipf_class->begin = GST_DEBUG_FUNCPTR (gst_hip_box_blur_begin);
  hipf_class->slice = GST_DEBUG_FUNCPTR (gst_hip_box_blur_slice);
  hipf_class->compute = GST_DEBUG_FUNCPTR (gst_hip_box_blur_compute);
  hipf_class->close = GST_DEBUG_FUNCPTR (gst_hip_box_blur_close);

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
  self->slices = DEFAULT_SLICES;
}
