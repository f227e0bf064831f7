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
 * The element offers upstream a pool of pinned host memory and writes its
 * output to pinned memory, so that frames cross the link by DMA.
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
#include "gsthipallocator.h"
#include "gsthipinflight.h"

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
  PROP_DEVICE_ID,
  PROP_FRAMES_IN_FLIGHT,
  PROP_SLICES,
  PROP_STATS,
};

/* One frame on its way through the device: its buffers stay mapped until
 * the download into the output has finished. The output buffer itself is
 * the in-flight slot's. */
typedef struct
{
  GstBuffer *inbuf;
  GstVideoFrame in_frame;
  GstVideoFrame out_frame;
  GstHipMemory src;
  /* Slices write these in turn: a slice's kernels blur the rows its
   * windows reach beyond it too, over rows of its neighbours. */
  GstHipMemory dst[2];
  GstHipMemory scratch;
  gboolean borrowed;            /* frames mapped by the caller */
  /* The frame's properties, and the first rows of the slices it is
   * uploaded in and of those it is blurred and downloaded in (the last
   * one's end after them). */
  gint rx, ry;
  HipfBorderMode border;
  gint up[GST_HIP_IN_FLIGHT_MAX_SLICES + 1];
  gint rows[GST_HIP_IN_FLIGHT_MAX_SLICES + 1];
} Slot;

struct _GstHipBoxBlur
{
  GstVideoFilter parent;

  /* properties, under the object lock */
  guint radius;
  gint radius_x;
  gint radius_y;
  HipfBorderMode border_mode;
  gint device_id;
  guint slices;

  /* streaming state */
  GstHipDevice device;
  GstHipVideoLayout layout;
  gsize scratch_size;
  GstHipInFlight in_flight;     /* holds the frames-in-flight property */
  Slot slots[GST_HIP_IN_FLIGHT_MAX];
  /* Each plane's blur plan for each slice, made the first time a slice of
   * those parameters is blurred and kept while they hold (new caps or
   * properties plan again). */
  HipfBoxBlurPlan *plans[GST_VIDEO_MAX_PLANES][GST_HIP_IN_FLIGHT_MAX_SLICES];

  /* the stats property, under the object lock */
  guint last_slices;
  guint slice_buffers;
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

/* Radius 0 passes frames through, and holds none back. */
static void
update_passthrough (GstHipBoxBlur * self)
{
  gint rx, ry;

  GST_OBJECT_LOCK (self);
  effective_radii (self, &rx, &ry);
  GST_OBJECT_UNLOCK (self);
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self),
      rx == 0 && ry == 0);
  gst_hip_in_flight_set_holding (&self->in_flight, rx != 0 || ry != 0);
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
    case PROP_FRAMES_IN_FLIGHT:
      self->in_flight.frames_in_flight = g_value_get_uint (value);
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
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, self->in_flight.frames_in_flight);
      break;
    case PROP_SLICES:
      g_value_set_uint (value, self->slices);
      break;
    case PROP_STATS:
      g_value_take_boxed (value,
          gst_structure_new ("application/x-hipboxblur-stats",
              "slices", G_TYPE_UINT, self->last_slices,
              "slice-buffers", G_TYPE_UINT, self->slice_buffers, NULL));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* The device is done with slot @index: its frames are unmapped. */
static void
release_frame (GstBaseTransform * trans, guint index)
{
  Slot *slot = &GST_HIP_BOX_BLUR (trans)->slots[index];

  if (!slot->borrowed) {
    gst_video_frame_unmap (&slot->in_frame);
    gst_video_frame_unmap (&slot->out_frame);
    gst_buffer_unref (slot->inbuf);
  }
  slot->inbuf = NULL;
  slot->borrowed = FALSE;
}

static gboolean
gst_hip_box_blur_start (GstBaseTransform * trans)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);
  gint device_id;
  gboolean ok;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  if (!gst_hip_device_open (&self->device, GST_ELEMENT (self), device_id))
    return FALSE;
  ok = gst_hip_in_flight_start (&self->in_flight, &self->device);
  if (!ok)
    gst_hip_device_close (&self->device);
  gst_hip_device_release (&self->device);
  return ok;
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

static gboolean
gst_hip_box_blur_stop (GstBaseTransform * trans)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);
  guint i;

  gst_hip_in_flight_stop (&self->in_flight);
  for (i = 0; i < G_N_ELEMENTS (self->slots); i++) {
    gst_hip_device_free (&self->device, &self->slots[i].src);
    gst_hip_device_free (&self->device, &self->slots[i].dst[0]);
    gst_hip_device_free (&self->device, &self->slots[i].dst[1]);
    gst_hip_device_free (&self->device, &self->slots[i].scratch);
  }
  free_plans (self);
  GST_OBJECT_LOCK (self);
  self->last_slices = 0;
  self->slice_buffers = 0;
  GST_OBJECT_UNLOCK (self);
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
  const GstHipVideoLayout *layout = &self->layout;
  guint n;

  if (border == HIPF_BORDER_WRAP)
    return 1;
  if (requested > 0)
    return requested;
  if (self->in_flight.n_slots > 1)
    return 1;
  n = (guint) (sqrt ((gdouble) layout->size / SLICE_BYTES_UNIT) + 0.5);
  n = MIN (n, (guint) (layout->height / MAX (ry, SLICE_MIN_ROWS)));
  return CLAMP (n, 1, GST_HIP_IN_FLIGHT_MAX_SLICES);
}

/* Whether frames of the negotiated size may cross the device in slices
 * with the properties as they are: only then does each slot hold a second
 * output frame for the slices to write in turn. The count at radius 0
 * bounds the count at any radius. */
static gboolean
may_slice (GstHipBoxBlur * self)
{
  guint requested;

  GST_OBJECT_LOCK (self);
  requested = self->slices;
  GST_OBJECT_UNLOCK (self);
  return count_slices (self, requested, 0, HIPF_BORDER_ZERO) > 1;
}

static gboolean
alloc_alternate (GstHipBoxBlur * self, Slot * slot)
{
  gboolean had = slot->dst[1].ptr != NULL;

  if (!gst_hip_device_alloc (&self->device, &slot->dst[1],
          self->layout.size, "output frame for alternate slices"))
    return FALSE;
  if (!had) {
    GST_OBJECT_LOCK (self);
    self->slice_buffers++;
    GST_OBJECT_UNLOCK (self);
  }
  return TRUE;
}

static gboolean
gst_hip_box_blur_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (filter);
  gsize scratch = 0;
  gboolean slices;
  guint p;

  gst_hip_video_layout_init (&self->layout, in_info);
  gst_hip_in_flight_set_format (&self->in_flight, in_info);
  for (p = 0; p < self->layout.n_planes; p++) {
    HipfBoxBlurPlane params;

    /* Scratch depends on the plane's size only, not on the radii, and
     * serves the plane's slices as well. */
    plane_params (&self->layout.planes[p], 0, 0, HIPF_BORDER_ZERO, &params);
    scratch = MAX (scratch,
        hipf_box_blur_scratch_size (&self->device.limits, &params));
  }

  self->scratch_size = scratch;
  /* Every slot's device memory up front, so a frame too large for the
   * device fails negotiation rather than a later frame. */
  if (!gst_hip_device_bind (&self->device))
    return FALSE;
  slices = may_slice (self);
  for (p = 0; p < self->in_flight.n_slots; p++) {
    Slot *slot = &self->slots[p];

    if (!gst_hip_device_alloc (&self->device, &slot->src, self->layout.size,
            "input frame")
        || !gst_hip_device_alloc (&self->device, &slot->dst[0],
            self->layout.size, "output frame")
        || (slices && !alloc_alternate (self, slot))
        || !gst_hip_device_alloc (&self->device, &slot->scratch, scratch,
            "blur prefix sums"))
      return FALSE;
  }
  return TRUE;
}

/* Slot @index's frame through the device, in the three parts a slice
 * GstHipInFlight enqueues: upload, one blur per plane, download. Nothing
 * here waits. The slices blurred lie the rows their windows reach below
 * them above those uploaded, so that each needs the upload of its own
 * slice only, and its download starts as soon as that has landed. */
static gboolean
slice_frame (GstBaseTransform * trans, guint index, GstHipSlices * s)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);
  const GstHipVideoLayout *layout = &self->layout;
  Slot *slot = &self->slots[index];
  guint requested, k, p;
  gint step, reach = 0, align = 1 << layout->max_h_sub;

  /* One consistent set of properties per frame. */
  GST_OBJECT_LOCK (self);
  effective_radii (self, &slot->rx, &slot->ry);
  slot->border = self->border_mode;
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
    slot->up[k] = MIN ((gint) k * step, layout->height);
    slot->rows[k] = k == 0 || k == s->n ? slot->up[k] :
        MAX (slot->up[k] - reach, 0);
  }

  for (k = 0; k < s->n; k++) {
    s->needs[k] = k;
    for (p = 0; p < layout->n_planes; p++) {
      const GstHipPlane *plane = &layout->planes[p];
      HipfBoxBlurPlane params;
      gint a, b, last_row;

      plane_params (plane, slot->rx, slot->ry, slot->border, &params);
      gst_hip_video_plane_rows (layout, p, slot->rows[k], slot->rows[k + 1],
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
  /* Allocated at negotiation where slices were to be expected; here where
   * a property changed since (a no-op once allocated), once a slot: it
   * stays until the element stops. */
  return s->n == 1 || (gst_hip_device_bind (&self->device)
      && alloc_alternate (self, slot));
}

static gboolean
upload_frame (GstBaseTransform * trans, guint index, guint slice,
    hipStream_t stream)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);
  Slot *slot = &self->slots[index];

  return gst_hip_device_bind (&self->device)
      && gst_hip_video_upload (&self->device, stream, &self->layout,
      &slot->in_frame, slot->src.ptr, slot->up[slice], slot->up[slice + 1]);
}

static gboolean
same_plane (const HipfBoxBlurPlane * a, const HipfBoxBlurPlane * b)
{
  return a->width == b->width && a->height == b->height
      && a->channels == b->channels && a->radius_x == b->radius_x
      && a->radius_y == b->radius_y && a->border == b->border
      && a->after_plane == b->after_plane;
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
  if (!gst_hip_device_check (&self->device,
          hipf_box_blur_plan_new (&self->device.limits, params, plan),
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
blur_slice (GstBaseTransform * trans, guint index, guint slice,
    hipStream_t stream)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);
  GstHipDevice *dev = &self->device;
  Slot *slot = &self->slots[index];
  guint8 *src = slot->src.ptr, *dst = slot->dst[slice % 2].ptr;
  guint p;

  for (p = 0; p < self->layout.n_planes; p++) {
    const GstHipPlane *plane = &self->layout.planes[p];
    HipfBoxBlurPlane params;
    const HipfBoxBlurPlan *plan;
    gint a, b, top;
    gsize offset;

    plane_params (plane, slot->rx, slot->ry, slot->border, &params);
    gst_hip_video_plane_rows (&self->layout, p, slot->rows[slice],
        slot->rows[slice + 1], &a, &b);
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

static gboolean
download_frame (GstBaseTransform * trans, guint index, guint slice,
    hipStream_t stream)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);
  Slot *slot = &self->slots[index];

  return gst_hip_video_download (&self->device, stream, &self->layout,
      slot->dst[slice % 2].ptr, &slot->out_frame, slot->rows[slice],
      slot->rows[slice + 1]);
}

/* Maps @inbuf and @outbuf into the next free slot and starts the frame. */
static GstFlowReturn
submit_frame (GstHipBoxBlur * self, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  Slot *slot = &self->slots[gst_hip_in_flight_next (&self->in_flight)];

  if (!gst_hip_in_flight_map_input (&self->in_flight, &slot->in_frame,
          &filter->in_info, &self->layout, inbuf)) {
    gst_buffer_unref (inbuf);
    gst_buffer_unref (outbuf);
    return GST_FLOW_ERROR;
  }
  if (!gst_video_frame_map (&slot->out_frame, &filter->out_info, outbuf,
          GST_MAP_WRITE)) {
    gst_video_frame_unmap (&slot->in_frame);
    GST_ELEMENT_ERROR (self, STREAM, FAILED, (NULL),
        ("could not map the output buffer"));
    gst_buffer_unref (inbuf);
    gst_buffer_unref (outbuf);
    return GST_FLOW_ERROR;
  }
  slot->inbuf = inbuf;
  return gst_hip_in_flight_submit (&self->in_flight, outbuf);
}

static GstFlowReturn
gst_hip_box_blur_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);
  GstBuffer *outbuf;
  GstFlowReturn ret;

  /* Caps that came while passing through decided no output pool: blurring
   * now, this frame decides one, and upstream asks again and gets the
   * pinned pool. Checked here, on the thread that sets the pool. */
  if (!gst_base_transform_is_passthrough (trans)) {
    GstBufferPool *pool = gst_base_transform_get_buffer_pool (trans);

    if (pool == NULL) {
      gst_base_transform_reconfigure_src (trans);
      gst_base_transform_reconfigure_sink (trans);
    }
    gst_clear_object (&pool);
  }
  ret = gst_hip_in_flight_accept (&self->in_flight,
      GST_BASE_TRANSFORM_CLASS (parent_class), is_discont, input, &input);
  if (input == NULL)
    return ret;
  /* Passthrough is decided once, by prepare_output_buffer handing back the
   * input itself: the radius may change from another thread meanwhile.
   * Passed-through buffers must not overtake frames in flight: they wait in
   * queued_buf, and generate_output hands the older frames out first. */
  ret = gst_hip_in_flight_prepare_output (&self->in_flight, input, &outbuf);
  if (ret != GST_FLOW_OK)
    return ret;
  if (outbuf == input) {
    gst_hip_in_flight_pass (&self->in_flight, input);
    return GST_FLOW_OK;
  }
  return submit_frame (self, input, outbuf);
}

static GstFlowReturn
gst_hip_box_blur_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  return gst_hip_in_flight_generate_output (&GST_HIP_BOX_BLUR
      (trans)->in_flight, outbuf);
}

static gboolean
gst_hip_box_blur_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  if (gst_hip_in_flight_sink_event (&GST_HIP_BOX_BLUR (trans)->in_flight,
          event))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static gboolean
gst_hip_box_blur_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  gboolean ret;

  gst_hip_in_flight_sink_query (&GST_HIP_BOX_BLUR (trans)->in_flight,
      direction, query);
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
  if (ret)
    gst_hip_in_flight_query (&GST_HIP_BOX_BLUR (trans)->in_flight, direction,
        query);
  return ret;
}

/* Makes the plugin's pinned memory the first allocator of @query, keeping
 * the alignment and padding asked for, and @pool (if any, taken) its first
 * pool. */
static void
put_first (GstQuery * query, GstBufferPool * pool, guint size, guint min,
    guint max)
{
  GstAllocator *allocator = gst_hip_host_allocator_get ();
  GstAllocationParams params;

  gst_allocation_params_init (&params);
  if (gst_query_get_n_allocation_params (query) > 0) {
    GstAllocator *theirs = NULL;

    gst_query_parse_nth_allocation_param (query, 0, &theirs, &params);
    gst_clear_object (&theirs);
    gst_query_set_nth_allocation_param (query, 0, allocator, &params);
  } else {
    gst_query_add_allocation_param (query, allocator, &params);
  }
  gst_object_unref (allocator);
  if (pool == NULL)
    return;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
}

/* Upstream may fill pinned memory directly. */
static gboolean
gst_hip_box_blur_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);
  guint min = self->in_flight.n_slots + 1;
  GstBufferPool *pool;
  GstCaps *caps;
  gboolean need_pool;
  GstVideoInfo info;

  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
          decide_query, query))
    return FALSE;
  if (decide_query == NULL)     /* passthrough: downstream answers */
    return TRUE;
  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return TRUE;
  /* First, in place of the system-memory pool and allocator that
   * GstVideoFilter proposed: upstream takes the first entry. */
  pool = need_pool ? gst_hip_host_buffer_pool_new (caps, min, 0) : NULL;
  put_first (query, pool, info.size, min, 0);
  return TRUE;
}

/* Output buffers come from a pool of pinned memory, whatever downstream
 * offers: downstream of this element is always system memory. */
static gboolean
gst_hip_box_blur_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (trans);
  GstBufferPool *pool = NULL;
  GstCaps *caps;
  GstVideoInfo info;
  guint size = 0, min = 0, max = 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (pool)
    gst_object_unref (pool);
  /* Frames in flight hold their output buffers. */
  min = MAX (min, self->in_flight.n_slots + 1);
  if (max && max < min)
    max = min;
  pool = gst_hip_host_buffer_pool_new (caps, min, max);
  if (!pool)
    return FALSE;
  put_first (query, pool, info.size, min, max);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

/* For callers that hand frames in directly: one frame, start to end. */
static GstFlowReturn
gst_hip_box_blur_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstHipBoxBlur *self = GST_HIP_BOX_BLUR (filter);
  GstHipInFlight *f = &self->in_flight;
  Slot *slot;

  if (f->pending >= f->n_slots)
    return GST_FLOW_ERROR;
  slot = &self->slots[gst_hip_in_flight_next (f)];
  slot->in_frame = *in_frame;
  slot->out_frame = *out_frame;
  slot->borrowed = TRUE;
  return gst_hip_in_flight_run (f);
}

static gboolean
gst_hip_box_blur_post_message (GstElement * element, GstMessage * msg)
{
  msg = gst_hip_in_flight_post_message (&GST_HIP_BOX_BLUR (element)->in_flight,
      msg);
  return GST_ELEMENT_CLASS (parent_class)->post_message (element, msg);
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
  element_class->post_message = gst_hip_box_blur_post_message;

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
          "HIP device to run on; -1 uses the device current on the thread "
          "that starts the element (0 unless the application chose one)",
          -1, G_MAXINT16,
          GST_HIP_DEVICE_ID_DEFAULT, flags | GST_PARAM_MUTABLE_READY));
  gst_hip_in_flight_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT);
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

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "HIP box blur",
      "Filter/Effect/Video/Hardware",
      "Exact box blur of every plane on a HIP device",
      "gst-hip-filters contributors");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_hip_box_blur_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_hip_box_blur_stop);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_hip_box_blur_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_hip_box_blur_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_hip_box_blur_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_hip_box_blur_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_hip_box_blur_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_hip_box_blur_decide_allocation);
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
  static const GstHipInFlightFuncs funcs = {
    .slice = slice_frame,
    .upload = upload_frame,
    .compute = blur_slice,
    .download = download_frame,
    .release = release_frame,
  };

  self->radius = DEFAULT_RADIUS;
  self->radius_x = DEFAULT_RADIUS_XY;
  self->radius_y = DEFAULT_RADIUS_XY;
  self->border_mode = DEFAULT_BORDER_MODE;
  self->device_id = GST_HIP_DEVICE_ID_DEFAULT;
  self->slices = DEFAULT_SLICES;
  gst_hip_in_flight_init (&self->in_flight, GST_BASE_TRANSFORM (self), &funcs);
}
