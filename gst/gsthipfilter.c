/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:gsthipfilter
 * @title: GstHipfFilter
 *
 * The abstract base of the plugin's elements. It opens the HIP device
 * (#GstHipfFilter:device-id), negotiates caps in system memory and in
 * device memory (`memory:HipfDeviceMemory`) on both pads, offering device
 * memory first, decides the pools, and moves each frame on and off the
 * device through the frames in flight (#GstHipfFilter:frames-in-flight).
 *
 * A frame in system memory crosses the link (from and to pinned memory
 * where the elements around allow); a frame in the element's device memory
 * is read or written in place, and the next element's kernels wait for it
 * on the device. So in `hipboxblur ! hiphistogram` the frame crosses the
 * link once each way: the first element uploads, the last downloads.
 * Device memory of another device, or laid out otherwise, is read through
 * its CPU mapping: correct, and slow.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gsthipfilter.h"
#include "gsthipmemorycaps.h"
#ifdef HAVE_GST_CUDA
#include "gsthipcudainterop.h"
#define CUDA(self) ((GstHipfCuda *) (self)->cuda)
#endif

GST_DEBUG_CATEGORY_STATIC (gst_hipf_filter_debug);
#define GST_CAT_DEFAULT gst_hipf_filter_debug

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_FRAMES_IN_FLIGHT,
  PROP_FRAMES_VIA_HOST,
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_HIPF_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_HIPF_CAPS));
/* The same with the 16-bit formats, for the elements that take them. */
static GstStaticPadTemplate sink_template_16 =
GST_STATIC_PAD_TEMPLATE ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_HIPF_CAPS_ALL));
static GstStaticPadTemplate src_template_16 =
GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_HIPF_CAPS_ALL));

#define gst_hipf_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstHipfFilter, gst_hipf_filter, GST_TYPE_VIDEO_FILTER);

#define FRAME(trans, index) (&GST_HIPF_FILTER (trans)->frames[index])
#define KLASS(trans) GST_HIPF_FILTER_GET_CLASS (trans)

static void
gst_hipf_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstHipfFilter *self = GST_HIPF_FILTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      self->device_id = g_value_get_int (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      self->in_flight.frames_in_flight = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_hipf_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstHipfFilter *self = GST_HIPF_FILTER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, self->in_flight.frames_in_flight);
      break;
    case PROP_FRAMES_VIA_HOST:
      g_value_set_uint64 (value, self->frames_via_host);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Passthrough and in-place as the element asks and the caps allow: a frame
 * changes memory only through the device. */
static void
update_modes (GstHipfFilter * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  gboolean same, passthrough;

  /* Held from reading the modes to setting them: a property set from
   * another thread must not apply what new caps have just undone. */
  g_mutex_lock (&self->modes_lock);
  GST_OBJECT_LOCK (self);
  same = self->in_device == self->out_device
      && self->in_cuda == self->out_cuda;
  passthrough = self->passthrough && same;
  GST_OBJECT_UNLOCK (self);
  gst_base_transform_set_passthrough (trans, passthrough);
  if (KLASS (self)->reads_only)
    gst_base_transform_set_in_place (trans, same);
  g_mutex_unlock (&self->modes_lock);
}

void
gst_hipf_filter_set_passthrough (GstHipfFilter * filter, gboolean passthrough)
{
  GST_OBJECT_LOCK (filter);
  filter->passthrough = passthrough;
  GST_OBJECT_UNLOCK (filter);
  update_modes (filter);
}

guint
gst_hipf_filter_slice_buffers (GstHipfFilter * filter)
{
  guint n;

  GST_OBJECT_LOCK (filter);
  n = filter->slice_buffers;
  GST_OBJECT_UNLOCK (filter);
  return n;
}

static gboolean
gst_hipf_filter_start (GstBaseTransform * trans)
{
  GstHipfFilter *self = GST_HIPF_FILTER (trans);
  gint device_id;
  gboolean ok;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  self->frames_via_host = 0;
  GST_OBJECT_UNLOCK (self);
  if (!gst_hip_device_open (&self->device, GST_ELEMENT (self), device_id))
    return FALSE;
#ifdef HAVE_GST_CUDA
  /* device-id may have changed since READY. */
  gst_hipf_cuda_open (CUDA (self), GST_ELEMENT (self), self->device.device_id);
#endif
  ok = gst_hip_in_flight_start (&self->in_flight, &self->device);
  if (!ok)
    gst_hip_device_close (&self->device);
  gst_hip_device_release (&self->device);
  return ok;
}

static gboolean
gst_hipf_filter_stop (GstBaseTransform * trans)
{
  GstHipfFilter *self = GST_HIPF_FILTER (trans);
  GstHipDevice *dev = &self->device;
  guint i;

  gst_hip_in_flight_stop (&self->in_flight);
  for (i = 0; i < G_N_ELEMENTS (self->frames); i++) {
    gst_hip_device_free (dev, &self->frames[i].upload);
    gst_hip_device_free (dev, &self->frames[i].output[0]);
    gst_hip_device_free (dev, &self->frames[i].output[1]);
  }
  if (KLASS (self)->close)
    KLASS (self)->close (self);
  GST_OBJECT_LOCK (self);
  self->slice_buffers = 0;
  GST_OBJECT_UNLOCK (self);
  gst_hip_device_close (dev);
  return TRUE;
}

static GstCaps *
gst_hipf_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  gboolean with_cuda = FALSE;
  GstCaps *ret;

#ifdef HAVE_GST_CUDA
  with_cuda = gst_hipf_cuda_may_offer (CUDA (GST_HIPF_FILTER (trans)));
#endif
  ret = gst_hipf_caps_transform (caps, with_cuda, filter);

  GST_LOG_OBJECT (trans, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps, ret);
  return ret;
}

/* A peer that takes any caps (filesink, fakesink, appsink without caps)
 * gets system memory: it may well read the bytes without the video meta
 * that describes the device frame's padded layout. */
static GstCaps *
gst_hipf_filter_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  GstPad *other = direction == GST_PAD_SINK ? trans->srcpad : trans->sinkpad;
  GstCaps *peer = gst_pad_peer_query_caps (other, NULL);
  gboolean any = peer == NULL || gst_caps_is_any (peer);

  gst_clear_caps (&peer);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->fixate_caps (trans,
      direction, caps, gst_hipf_caps_prefer_memory (othercaps, any ?
          GST_HIPF_MEMORY_SYSTEM : GST_HIPF_MEMORY_DEVICE));
}

static gboolean
alloc_alternate (GstHipfFilter * self, GstHipfFrame * fr)
{
  gboolean had = fr->output[1].ptr != NULL;

  if (!gst_hip_device_alloc (&self->device, &fr->output[1], self->layout.size,
          "output frame for alternate slices"))
    return FALSE;
  if (!had) {
    GST_OBJECT_LOCK (self);
    self->slice_buffers++;
    GST_OBJECT_UNLOCK (self);
  }
  return TRUE;
}

/* Every frame's device memory up front, so that a frame too large for the
 * device fails negotiation rather than a later frame; device memory that
 * a frame brings needs no copy. */
static gboolean
gst_hipf_filter_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstHipfFilter *self = GST_HIPF_FILTER (filter);
  GstHipfFilterClass *klass = KLASS (self);
  GstHipDevice *dev = &self->device;
  gboolean slices, in_place_in, in_place_out;
  guint i;

  GST_OBJECT_LOCK (self);
  self->in_device = gst_hipf_caps_memory (incaps) == GST_HIPF_MEMORY_DEVICE;
  self->out_device = gst_hipf_caps_memory (outcaps) == GST_HIPF_MEMORY_DEVICE;
  self->in_cuda = gst_hipf_caps_memory (incaps) == GST_HIPF_MEMORY_CUDA;
  self->out_cuda = gst_hipf_caps_memory (outcaps) == GST_HIPF_MEMORY_CUDA;
  GST_OBJECT_UNLOCK (self);
  update_modes (self);
  gst_hip_video_layout_init (&self->layout, in_info);
  gst_hip_in_flight_set_format (&self->in_flight, in_info);
  if (!gst_hip_device_bind (dev))
    return FALSE;
  slices = !self->in_device && !self->out_device && !self->in_cuda
      && !self->out_cuda && klass->may_slice && klass->may_slice (self);
  /* The plugin's device memory is used in place, but for packed frames,
   * which are unpacked into planes and packed from them. */
  in_place_in = self->in_device && !self->layout.packed;
  in_place_out = self->out_device && !self->layout.packed;
  for (i = 0; i < self->in_flight.n_slots; i++) {
    GstHipfFrame *fr = &self->frames[i];
    gsize size = self->layout.size;

    if ((!in_place_in && !(klass->reads_only && in_place_out)
            && !gst_hip_device_alloc (dev, &fr->upload, size, "input frame"))
        || (!klass->reads_only && !in_place_out
            && !gst_hip_device_alloc (dev, &fr->output[0], size,
                "output frame"))
        || (slices && !alloc_alternate (self, fr)))
      return FALSE;
  }
  return klass->configure (self, in_info);
}

static gboolean
gst_hipf_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstHipfFilter *self = GST_HIPF_FILTER (trans);

  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
          decide_query, query))
    return FALSE;
  if (decide_query == NULL)     /* passthrough: downstream answers */
    return TRUE;
  gst_hipf_allocation_propose (query, self->device.device_id, self->cuda,
      self->in_flight.n_slots + 1);
  return TRUE;
}

static gboolean
gst_hipf_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstHipfFilter *self = GST_HIPF_FILTER (trans);

  if (!gst_base_transform_is_in_place (trans)
      && !gst_hipf_allocation_decide (query, self->device.device_id,
          self->cuda, self->layout.size, self->in_flight.n_slots + 1))
    return FALSE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

/* The in-flight callbacks: a frame's upload, kernels and download. */

static gboolean
slice_frame (GstBaseTransform * trans, guint index, GstHipSlices * s)
{
  GstHipfFilter *self = GST_HIPF_FILTER (trans);
  GstHipfFrame *fr = FRAME (trans, index);

  s->n = 1;
  fr->up[0] = fr->rows[0] = 0;
  fr->up[1] = fr->rows[1] = self->layout.height;
  /* Slices overlap the link's two directions: only where the frame
   * crosses it both ways. */
  if (!fr->compute || !fr->in_host || !fr->out_host || !KLASS (self)->slice)
    return TRUE;
  if (!KLASS (self)->slice (self, index, s))
    return FALSE;
  if (s->n > 1) {
    if (!gst_hip_device_bind (&self->device) || !alloc_alternate (self, fr))
      return FALSE;
    fr->dst[1] = fr->output[1].ptr;
  }
  return TRUE;
}

static gboolean
upload_frame (GstBaseTransform * trans, guint index, guint slice,
    hipStream_t stream)
{
  GstHipfFilter *self = GST_HIPF_FILTER (trans);
  GstHipfFrame *fr = FRAME (trans, index);

  if (!gst_hip_device_bind (&self->device))
    return FALSE;
  /* The plugin's device memory: once its writer is done. */
  if (fr->in_mem && !fr->in_cuda && slice == 0
      && !gst_hip_device_check (&self->device,
          gst_hipf_device_memory_wait ((GstHipfDeviceMemory *) fr->in_mem,
              stream), "hipStreamWaitEvent"))
    return FALSE;
  if (fr->in_mem && !fr->in_copy)
    return TRUE;
  return gst_hip_video_upload (&self->device, stream, &self->layout,
      &fr->in_frame, fr->in_copy, fr->src, fr->up[slice], fr->up[slice + 1]);
}

static gboolean
compute_frame (GstBaseTransform * trans, guint index, guint slice,
    hipStream_t stream)
{
  GstHipfFilter *self = GST_HIPF_FILTER (trans);

  return !FRAME (trans, index)->compute
      || KLASS (self)->compute (self, index, slice, stream);
}

/* The output where it crosses the link, or where it is device memory
 * that the kernels did not write, a copy of their source; then the
 * element's results. */
static gboolean
download_frame (GstBaseTransform * trans, guint index, guint slice,
    hipStream_t stream)
{
  GstHipfFilter *self = GST_HIPF_FILTER (trans);
  GstHipfFilterClass *klass = KLASS (self);
  GstHipDevice *dev = &self->device;
  GstHipfFrame *fr = FRAME (trans, index);
  gboolean last = slice + 1 == self->in_flight.slots[index].n_slices;
  const guint8 *from = fr->compute && !klass->reads_only ?
      fr->dst[slice % 2] : fr->src;

  if ((fr->out_host || fr->out_copy) && !gst_hip_video_download (dev, stream,
          &self->layout, from, &fr->out_frame, fr->out_copy, fr->rows[slice],
          fr->rows[slice + 1]))
    return FALSE;
  if (fr->out_mem && !fr->out_cuda) {
    if (!fr->out_copy && from != fr->out_map.data
        && !gst_hip_device_copy_2d (dev, stream,
            fr->out_map.data, self->layout.size, from, self->layout.size,
            self->layout.size, 1, hipMemcpyDeviceToDevice))
      return FALSE;
    if (last && !gst_hip_device_check (dev,
            gst_hipf_device_memory_set_ready ((GstHipfDeviceMemory *)
                fr->out_mem, stream), "hipEventRecord"))
      return FALSE;
  }
  return !last || !fr->compute || !klass->readback
      || klass->readback (self, index, stream);
}

static void
release_frame (GstBaseTransform * trans, guint index)
{
  GstHipfFrame *fr = FRAME (trans, index);

  if (!fr->borrowed) {
    if (fr->in_host)
      gst_video_frame_unmap (&fr->in_frame);
    if (fr->out_host)
      gst_video_frame_unmap (&fr->out_frame);
  }
  if (fr->in_mem)
    gst_memory_unmap (fr->in_mem, &fr->in_map);
  if (fr->out_mem)
    gst_memory_unmap (fr->out_mem, &fr->out_map);
  gst_clear_buffer (&fr->inbuf);
  fr->in_mem = fr->out_mem = NULL;
  fr->in_host = fr->out_host = fr->borrowed = FALSE;
  fr->in_cuda = fr->out_cuda = FALSE;
  fr->in_copy = fr->out_copy = FALSE;
}

static void
finish_frame (GstBaseTransform * trans, guint index, GstBuffer * outbuf)
{
  GstHipfFilter *self = GST_HIPF_FILTER (trans);

  if (FRAME (trans, index)->compute && KLASS (self)->finish)
    KLASS (self)->finish (self, index, outbuf);
}

/* @frame: the planes of @buf, whose memory is mapped for the device at
 * @data, as its video meta places them. */
static void
device_frame (GstVideoFrame * frame, const GstVideoInfo * info,
    GstBuffer * buf, guint8 * data)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  guint p;

  memset (frame, 0, sizeof (*frame));
  frame->info = *info;
  for (p = 0; p < meta->n_planes; p++) {
    GST_VIDEO_INFO_PLANE_OFFSET (&frame->info, p) = meta->offset[p];
    GST_VIDEO_INFO_PLANE_STRIDE (&frame->info, p) = meta->stride[p];
    frame->data[p] = data + meta->offset[p];
  }
  frame->buffer = buf;
}

/* Maps the frame's one device memory for the device, or returns FALSE. */
static gboolean
map_device (GstBuffer * buf, GstMemory ** mem, GstMapInfo * map,
    GstMapFlags flags)
{
  *mem = gst_buffer_peek_memory (buf, 0);
  if (gst_memory_map (*mem, map, flags | GST_MAP_HIPF))
    return TRUE;
  *mem = NULL;
  return FALSE;
}

/* Maps @inbuf (taken) and @outbuf into frame @fr: each side in place in
 * the element's device memory where it is there, otherwise mapped for
 * the link; the device buffers the frame needs besides. */
static gboolean
map_frame (GstHipfFilter * self, GstHipfFrame * fr, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  GstHipfFilterClass *klass = KLASS (self);
  GstHipDevice *dev = &self->device;
  gint id = dev->device_id;
  /* An analyser's output in place is its input. */
  gboolean same = klass->reads_only && gst_base_transform_is_in_place (trans);

  fr->inbuf = inbuf;
  fr->src = fr->dst[0] = fr->dst[1] = NULL;
  if (self->in_device && gst_hipf_device_buffer_fits (inbuf, id, &self->layout)
      && map_device (inbuf, &fr->in_mem, &fr->in_map, GST_MAP_READ)) {
    /* Packed frames are unpacked into the planes the kernels read. */
    if (self->layout.packed) {
      device_frame (&fr->in_frame, &filter->in_info, inbuf, fr->in_map.data);
      fr->in_copy = TRUE;
    } else {
      fr->src = fr->in_map.data;
    }
  }
#ifdef HAVE_GST_CUDA
  else if (self->in_cuda && gst_hipf_cuda_map (CUDA (self), inbuf,
          &filter->in_info, GST_MAP_READ, &fr->in_frame, &fr->in_mem,
          &fr->in_map))
    fr->in_cuda = fr->in_copy = TRUE;
#endif
  else if (gst_hip_in_flight_map_input (&self->in_flight, &fr->in_frame,
          &filter->in_info, &self->layout, inbuf))
    fr->in_host = TRUE;
  else
    return FALSE;

  if (!same && self->out_device
      && gst_hipf_device_buffer_fits (outbuf, id, &self->layout)
      && map_device (outbuf, &fr->out_mem, &fr->out_map, GST_MAP_WRITE)) {
    if (self->layout.packed) {
      /* Packed from the planes the kernels wrote. */
      device_frame (&fr->out_frame, &filter->out_info, outbuf,
          fr->out_map.data);
      fr->out_copy = TRUE;
    } else {
      fr->dst[0] = fr->dst[1] = fr->out_map.data;
      /* Uploaded straight into the output where no kernel writes it. */
      if (fr->in_host && (klass->reads_only || !fr->compute))
        fr->src = fr->out_map.data;
    }
#ifdef HAVE_GST_CUDA
  } else if (!same && self->out_cuda && gst_hipf_cuda_map (CUDA (self),
          outbuf, &filter->out_info, GST_MAP_WRITE, &fr->out_frame,
          &fr->out_mem, &fr->out_map)) {
    fr->out_cuda = fr->out_copy = TRUE;
#endif
  } else if (!same) {
    if (!gst_video_frame_map (&fr->out_frame, &filter->out_info, outbuf,
            GST_MAP_WRITE)) {
      GST_ELEMENT_ERROR (self, STREAM, FAILED, (NULL),
          ("could not map the output buffer"));
      return FALSE;
    }
    fr->out_host = TRUE;
  }

  /* Device memory the element could not use on its device went through
   * its CPU mapping: correct, and what the property tells. */
  if (((self->in_device || self->in_cuda) && fr->in_host)
      || ((self->out_device || self->out_cuda) && fr->out_host)) {
    GST_OBJECT_LOCK (self);
    self->frames_via_host++;
    GST_OBJECT_UNLOCK (self);
  }
  if (!gst_hip_device_bind (dev))
    return FALSE;
  if (fr->src == NULL) {
    if (!gst_hip_device_alloc (dev, &fr->upload, self->layout.size,
            "input frame"))
      return FALSE;
    fr->src = fr->upload.ptr;
  }
  if (fr->dst[0] == NULL && !klass->reads_only) {
    if (!gst_hip_device_alloc (dev, &fr->output[0], self->layout.size,
            "output frame"))
      return FALSE;
    fr->dst[0] = fr->dst[1] = fr->output[0].ptr;
  }
  return TRUE;
}

static GstFlowReturn
gst_hipf_filter_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstHipfFilter *self = GST_HIPF_FILTER (trans);
  GstHipInFlight *f = &self->in_flight;
  GstHipfFrame *fr;
  GstBuffer *outbuf;
  GstFlowReturn ret;
  guint index;

  /* Caps that came while passing through decided no output pool: now
   * this frame decides one, and upstream asks again and gets the element's
   * own. Checked here, on the thread that sets the pool. */
  if (!gst_base_transform_is_passthrough (trans)
      && !gst_base_transform_is_in_place (trans)) {
    GstBufferPool *pool = gst_base_transform_get_buffer_pool (trans);

    if (pool == NULL) {
      gst_base_transform_reconfigure_src (trans);
      gst_base_transform_reconfigure_sink (trans);
    }
    gst_clear_object (&pool);
  }
  ret = gst_hip_in_flight_accept (f, GST_BASE_TRANSFORM_CLASS (parent_class),
      is_discont, input, &input);
  if (input == NULL)
    return ret;
  if (!GST_VIDEO_FILTER (self)->negotiated) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL), ("not negotiated"));
    gst_buffer_unref (input);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  /* An element that writes its output passes the frame through where
   * prepare_output_buffer hands back the input itself, decided once: a
   * property may change from another thread meanwhile. An analyser gets
   * its input back whenever it works in place, and begin decides. Buffers
   * passed on must not overtake frames in flight: they wait in queued_buf,
   * and generate_output hands the older frames out first. */
  ret = gst_hip_in_flight_prepare_output (f, input, &outbuf);
  if (ret != GST_FLOW_OK)
    return ret;
  if (outbuf == input && !KLASS (self)->reads_only) {
    gst_hip_in_flight_pass (f, outbuf);
    return GST_FLOW_OK;
  }
  index = gst_hip_in_flight_next (f);
  fr = &self->frames[index];
  fr->compute = KLASS (self)->begin (self, index);
  if (!fr->compute && gst_base_transform_is_in_place (trans)) {
    if (outbuf != input)
      gst_buffer_unref (input);
    gst_hip_in_flight_pass (f, outbuf);
    return GST_FLOW_OK;
  }
  /* The frame holds its input until the device is done with it; an
   * output in place leaves writable once it is. */
  if (outbuf == input)
    gst_buffer_ref (input);
  if (!map_frame (self, fr, input, outbuf)) {
    release_frame (trans, index);
    gst_buffer_unref (outbuf);
    return GST_FLOW_ERROR;
  }
  return gst_hip_in_flight_submit (f, outbuf);
}

static GstFlowReturn
gst_hipf_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  return gst_hip_in_flight_generate_output (&GST_HIPF_FILTER
      (trans)->in_flight, outbuf);
}

static gboolean
gst_hipf_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  if (gst_hip_in_flight_sink_event (&GST_HIPF_FILTER (trans)->in_flight,
          event))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static gboolean
gst_hipf_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstHipInFlight *f = &GST_HIPF_FILTER (trans)->in_flight;
  gboolean ret;

#ifdef HAVE_GST_CUDA
  if (gst_hipf_cuda_query (CUDA (GST_HIPF_FILTER (trans)), GST_ELEMENT (trans),
          query))
    return TRUE;
#endif
  gst_hip_in_flight_sink_query (f, direction, query);
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
  if (ret)
    gst_hip_in_flight_query (f, direction, query);
  return ret;
}

static gboolean
gst_hipf_filter_post_message (GstElement * element, GstMessage * msg)
{
  msg = gst_hip_in_flight_post_message (&GST_HIPF_FILTER (element)->in_flight,
      msg);
  return GST_ELEMENT_CLASS (parent_class)->post_message (element, msg);
}

#ifdef HAVE_GST_CUDA
/* The CUDA context is there before the elements upstream, which go to
 * READY later, ask for one. */
static GstStateChangeReturn
gst_hipf_filter_change_state (GstElement * element, GstStateChange transition)
{
  GstHipfFilter *self = GST_HIPF_FILTER (element);
  GstStateChangeReturn ret;
  gint device_id;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY) {
    GST_OBJECT_LOCK (self);
    device_id = self->device_id;
    GST_OBJECT_UNLOCK (self);
    gst_hipf_cuda_open (CUDA (self), element, device_id);
  }
  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_hipf_cuda_close (CUDA (self));
  return ret;
}

static void
gst_hipf_filter_set_context (GstElement * element, GstContext * context)
{
  GstHipfFilter *self = GST_HIPF_FILTER (element);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  gst_hipf_cuda_set_context (CUDA (self), element, context, device_id);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}
#endif

static void
gst_hipf_filter_finalize (GObject * object)
{
#ifdef HAVE_GST_CUDA
  gst_hipf_cuda_free (CUDA (GST_HIPF_FILTER (object)));
#endif
  g_mutex_clear (&GST_HIPF_FILTER (object)->modes_lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* For callers that hand frames in directly, in system memory: one frame,
 * start to end. */
static GstFlowReturn
gst_hipf_filter_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstHipfFilter *self = GST_HIPF_FILTER (filter);
  GstHipInFlight *f = &self->in_flight;
  GstHipfFrame *fr;
  guint index;

  if (f->pending >= f->n_slots)
    return GST_FLOW_ERROR;
  index = gst_hip_in_flight_next (f);
  fr = &self->frames[index];
  fr->compute = KLASS (self)->begin (self, index);
  fr->in_frame = *in_frame;
  fr->out_frame = *out_frame;
  fr->borrowed = fr->in_host = fr->out_host = TRUE;
  if (!gst_hip_device_bind (&self->device)
      || !gst_hip_device_alloc (&self->device, &fr->upload, self->layout.size,
          "input frame")
      || !gst_hip_device_alloc (&self->device, &fr->output[0],
          self->layout.size, "output frame")) {
    release_frame (GST_BASE_TRANSFORM (self), index);
    return GST_FLOW_ERROR;
  }
  fr->src = fr->upload.ptr;
  fr->dst[0] = fr->dst[1] = fr->output[0].ptr;
  return gst_hip_in_flight_run (f);
}

static void
gst_hipf_filter_class_init (GstHipfFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS (klass);

  gobject_class->set_property = gst_hipf_filter_set_property;
  gobject_class->get_property = gst_hipf_filter_get_property;
  gobject_class->finalize = gst_hipf_filter_finalize;
  element_class->post_message = gst_hipf_filter_post_message;
#ifdef HAVE_GST_CUDA
  element_class->change_state = gst_hipf_filter_change_state;
  element_class->set_context = gst_hipf_filter_set_context;
#endif

  /**
   * GstHipfFilter:device-id:
   *
   * The HIP device the element runs on.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "HIP device to run on; -1 uses the device current on the thread "
          "that starts the element (0 unless the application chose one)",
          -1, G_MAXINT16, GST_HIP_DEVICE_ID_DEFAULT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  gst_hip_in_flight_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT);
  /**
   * GstHipfFilter:frames-via-host:
   *
   * Frames whose caps said device memory (the plugin's, or CUDA memory)
   * but whose memory the element could not use on its device (another
   * device's or CUDA context's, or laid out otherwise), so that it read or
   * wrote them through their CPU mapping, since the element started: 0
   * while frames stay on the GPU.
   */
  g_object_class_install_property (gobject_class, PROP_FRAMES_VIA_HOST,
      g_param_spec_uint64 ("frames-via-host", "Frames via host",
          "Frames in device memory that the element could not use on its "
          "device and went through their CPU mapping, since it started "
          "(0 while frames stay on the GPU)", 0, G_MAXUINT64, 0,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_hipf_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_hipf_filter_stop);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_hipf_filter_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_hipf_filter_fixate_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_hipf_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_hipf_filter_decide_allocation);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_hipf_filter_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_hipf_filter_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_hipf_filter_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_hipf_filter_query);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_hipf_filter_set_info);
  filter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_hipf_filter_transform_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_HIPF_FILTER, 0);
  GST_DEBUG_CATEGORY_INIT (gst_hipf_filter_debug, "hipffilter", 0,
      "HIP filter base class");
}

static void
gst_hipf_filter_init (GstHipfFilter * self)
{
  static const GstHipInFlightFuncs funcs = {
    .slice = slice_frame,
    .upload = upload_frame,
    .compute = compute_frame,
    .download = download_frame,
    .release = release_frame,
    .finish = finish_frame,
  };

  self->device_id = GST_HIP_DEVICE_ID_DEFAULT;
  g_mutex_init (&self->modes_lock);
#ifdef HAVE_GST_CUDA
  self->cuda = gst_hipf_cuda_new ();
#endif
  /* Downstream's caps would otherwise come first in caps queries, and a
   * system-memory sink at the end of a chain would pull every element
   * before it into system memory. */
  gst_base_transform_set_prefer_passthrough (GST_BASE_TRANSFORM (self), FALSE);
  gst_hip_in_flight_init (&self->in_flight, GST_BASE_TRANSFORM (self), &funcs);
}

void
gst_hipf_filter_class_take_16_bit (GstElementClass * element_class)
{
  gst_element_class_add_static_pad_template (element_class, &sink_template_16);
  gst_element_class_add_static_pad_template (element_class, &src_template_16);
}
