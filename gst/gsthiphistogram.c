/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-hiphistogram
 * @title: hiphistogram
 *
 * Counts the histogram of every channel of each frame on a HIP device and
 * reports it, with exposure statistics of the luma channel, in an element
 * message named `hiphistogram` and in a `GstHipHistogramMeta` custom meta on
 * the buffer. Frames pass through unchanged.
 *
 * With #GstHipHistogram:frames-in-flight above 1, the upload of a frame
 * overlaps the counting and readback of the frames before it; a frame
 * leaves, with its message and meta, as soon as the device is done with
 * it, at the latest once frames-in-flight - 1 newer frames have entered
 * the element (or at EOS), and the most latency this adds is reported in
 * the latency query. Uploads overlap only from pinned memory, which the
 * element offers upstream and reads in place.
 *
 * Frames in device memory (`memory:HipfDeviceMemory`, hipboxblur's output
 * for one) are counted in place on the device, and only the counts cross
 * the link. Where the two pads' memory differs, the frame moves: uploaded
 * where downstream takes device memory, downloaded where it takes system
 * memory (#GstHipfFilter).
 *
 * Channels are `red`, `green`, `blue`, `alpha` (where the format has one)
 * and `luma` = (77 R + 150 G + 29 B + 128) >> 8 for RGB formats; `luma`,
 * `u` and `v` for YUV formats; `luma` for GRAY8 and GRAY16_LE.
 *
 * 8-bit formats count 256 values a channel. The 16-bit formats count 1024:
 * P010_10LE and I420_10LE their ten bits exactly (P010's ten in the top of
 * its word, I420_10LE's ten in the bottom, the bits above them ignored),
 * GRAY16_LE the top ten bits of its samples, value v standing for the
 * samples v * 64 to v * 64 + 63. #GstHipHistogram:bins spreads over those
 * values: value v counts in bin v * bins / values, and formats of 256
 * values take at most 256 bins. The statistics (`mean`, `stddev`,
 * `median`, `min`, `max` and the zones') are in the format's own scale:
 * 0 to 255, 0 to 1023, and for GRAY16_LE 0 to 65472, each sample taken as
 * its top ten bits times 64 (its low six bits cleared).
 *
 * #GstHipHistogram:low-threshold, #GstHipHistogram:high-threshold and
 * #GstHipHistogram:target-mean stay in the 8-bit scale for every format,
 * so that one setting means the same whatever the format: a sample is
 * clipped where its top eight bits are at or below the low threshold (at
 * or above the high one), and `ev-correction` compares the target with
 * the mean brought to the 8-bit scale (divided by 4 for 10-bit formats,
 * 256 for GRAY16_LE).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m videotestsrc ! hiphistogram bins=16 interval=1000000000 ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "gsthiphistogram.h"
#include "gsthipmemorycaps.h"
#include "gsthipzones.h"

GST_DEBUG_CATEGORY_STATIC (gst_hip_histogram_debug);
#define GST_CAT_DEFAULT gst_hip_histogram_debug

#define DEFAULT_BINS 256
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_INTERVAL 0
#define DEFAULT_ATTACH_META TRUE
#define DEFAULT_LOW_THRESHOLD 4
#define DEFAULT_HIGH_THRESHOLD 251
#define DEFAULT_TARGET_MEAN 118
/* The thresholds' and target's scale, whatever the format. */
#define MAX_SAMPLE (HIPF_HISTOGRAM_VALUES - 1)
#define MAX_COPY_WORDS \
  MAX (HIPF_HISTOGRAM_COPY_WORDS, HIPF_HISTOGRAM_WIDE_COPY_WORDS)

enum
{
  PROP_0,
  PROP_BINS,
  PROP_ROI_X,
  PROP_ROI_Y,
  PROP_ROI_WIDTH,
  PROP_ROI_HEIGHT,
  PROP_POST_MESSAGES,
  PROP_INTERVAL,
  PROP_ATTACH_META,
  PROP_LOW_THRESHOLD,
  PROP_HIGH_THRESHOLD,
  PROP_TARGET_MEAN,
  PROP_ZONES,
  PROP_ZONE_HISTOGRAMS,
};

/* The properties one frame is counted with. */
typedef struct
{
  guint bins;
  guint roi_x, roi_y, roi_width, roi_height;
  gboolean post_messages;
  guint64 interval;
  gboolean attach_meta;
  guint low_threshold, high_threshold, target_mean;
  guint zone_cols, zone_rows;
  gboolean zone_histograms;
} Settings;

/* What the element keeps for one frame in flight. */
typedef struct
{
  Settings settings;            /* those of when the frame entered */
  GstHipMemory counts;
  gint counts_half;             /* the half of counts the next launch takes */
  gint counted_half;            /* the half the last launch took */
  GstHipMemory host_counts;
  /* Zone metering, where asked for: the grid the frame was metered in,
   * and its zones' words on the device (those of the pass of their own,
   * or a half of the histogram's buffer for them) and back on the host. */
  gboolean zoned;
  HipfZonesFrame zones;
  GstHipMemory zone_words, host_zone_words;
  const guint32 *metered;       /* the frame's words on the device */
  /* The zones counted in the histogram's launch: their buffer, whether
   * its start words are set, and the half the next launch takes. */
  GstHipMemory zone_halves;
  gboolean zone_halves_set;
  gint zone_half;
} Slot;

struct _GstHipHistogram
{
  GstHipfFilter parent;

  Settings settings;            /* under the object lock */

  /* streaming state */
  HipfHistogramFrame frame;     /* channels of the format, ROI unset */
  const gchar *channel_names[HIPF_HISTOGRAM_MAX_CHANNELS];
  guint luma_channel;
  guint values;                 /* a channel counts, 256 or 1024 */
  guint unit;                   /* a value's step in the format's scale */
  GstClockTime last_post;
  Slot slots[GST_HIP_IN_FLIGHT_MAX];
};

#define gst_hip_histogram_parent_class parent_class
G_DEFINE_TYPE (GstHipHistogram, gst_hip_histogram, GST_TYPE_HIPF_FILTER);
GST_ELEMENT_REGISTER_DEFINE (hiphistogram, "hiphistogram", GST_RANK_NONE,
    GST_TYPE_HIP_HISTOGRAM);

static void
gst_hip_histogram_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstHipHistogram *self = GST_HIP_HISTOGRAM (object);
  Settings *s = &self->settings;
  gboolean attach_meta, counts;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BINS:
      s->bins = g_value_get_uint (value);
      break;
    case PROP_ROI_X:
      s->roi_x = g_value_get_uint (value);
      break;
    case PROP_ROI_Y:
      s->roi_y = g_value_get_uint (value);
      break;
    case PROP_ROI_WIDTH:
      s->roi_width = g_value_get_uint (value);
      break;
    case PROP_ROI_HEIGHT:
      s->roi_height = g_value_get_uint (value);
      break;
    case PROP_POST_MESSAGES:
      s->post_messages = g_value_get_boolean (value);
      break;
    case PROP_INTERVAL:
      s->interval = g_value_get_uint64 (value);
      break;
    case PROP_ATTACH_META:
      s->attach_meta = g_value_get_boolean (value);
      break;
    case PROP_LOW_THRESHOLD:
      s->low_threshold = g_value_get_uint (value);
      break;
    case PROP_HIGH_THRESHOLD:
      s->high_threshold = g_value_get_uint (value);
      break;
    case PROP_TARGET_MEAN:
      s->target_mean = g_value_get_uint (value);
      break;
    case PROP_ZONES:{
      const gchar *text = g_value_get_string (value);
      guint cols, rows;

      if (gst_hipf_zones_parse (text, &cols, &rows)) {
        s->zone_cols = cols;
        s->zone_rows = rows;
      } else {
        g_warning ("%s: zones \"%s\" refused: COLSxROWS, each 1 to %d; "
            "keeping %ux%u", GST_OBJECT_NAME (self), text ? text : "(null)",
            HIPF_ZONES_MAX, s->zone_cols, s->zone_rows);
      }
      break;
    }
    case PROP_ZONE_HISTOGRAMS:
      s->zone_histograms = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  attach_meta = s->attach_meta;
  counts = s->post_messages || s->attach_meta;
  GST_OBJECT_UNLOCK (self);
  /* The meta needs a writable buffer; without it buffers pass untouched. */
  gst_hipf_filter_set_passthrough (GST_HIPF_FILTER (self), !attach_meta);
  /* With nothing to report, frames pass without waiting for newer ones. */
  gst_hip_in_flight_set_holding (&GST_HIPF_FILTER (self)->in_flight, counts);
}

static void
gst_hip_histogram_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstHipHistogram *self = GST_HIP_HISTOGRAM (object);
  Settings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BINS:
      g_value_set_uint (value, s->bins);
      break;
    case PROP_ROI_X:
      g_value_set_uint (value, s->roi_x);
      break;
    case PROP_ROI_Y:
      g_value_set_uint (value, s->roi_y);
      break;
    case PROP_ROI_WIDTH:
      g_value_set_uint (value, s->roi_width);
      break;
    case PROP_ROI_HEIGHT:
      g_value_set_uint (value, s->roi_height);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, s->post_messages);
      break;
    case PROP_INTERVAL:
      g_value_set_uint64 (value, s->interval);
      break;
    case PROP_ATTACH_META:
      g_value_set_boolean (value, s->attach_meta);
      break;
    case PROP_LOW_THRESHOLD:
      g_value_set_uint (value, s->low_threshold);
      break;
    case PROP_HIGH_THRESHOLD:
      g_value_set_uint (value, s->high_threshold);
      break;
    case PROP_TARGET_MEAN:
      g_value_set_uint (value, s->target_mean);
      break;
    case PROP_ZONES:
      g_value_take_string (value, g_strdup_printf ("%ux%u", s->zone_cols,
              s->zone_rows));
      break;
    case PROP_ZONE_HISTOGRAMS:
      g_value_set_boolean (value, s->zone_histograms);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_hip_histogram_start (GstBaseTransform * trans)
{
  GST_HIP_HISTOGRAM (trans)->last_post = GST_CLOCK_TIME_NONE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->start (trans);
}

static void
gst_hip_histogram_close (GstHipfFilter * filter)
{
  GstHipHistogram *self = GST_HIP_HISTOGRAM (filter);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (self->slots); i++) {
    gst_hip_device_free (&filter->device, &self->slots[i].counts);
    gst_hip_device_free_host (&filter->device, &self->slots[i].host_counts);
    gst_hip_device_free (&filter->device, &self->slots[i].zone_words);
    gst_hip_device_free (&filter->device, &self->slots[i].zone_halves);
    self->slots[i].zone_halves_set = FALSE;
    gst_hip_device_free_host (&filter->device,
        &self->slots[i].host_zone_words);
  }
}

static gboolean
gst_hip_histogram_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    GST_HIP_HISTOGRAM (trans)->last_post = GST_CLOCK_TIME_NONE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* The counts of every frame in flight, device and host. */
static gboolean
gst_hip_histogram_configure (GstHipfFilter * filter, const GstVideoInfo * info)
{
  GstHipHistogram *self = GST_HIP_HISTOGRAM (filter);
  HipfHistogramFrame *f = &self->frame;
  gsize counts_size;
  guint i;

  gst_hip_video_histogram_init (f, self->channel_names, &self->luma_channel,
      info, &filter->layout);
  self->values = hipf_histogram_values (f);
  self->unit = gst_hip_video_histogram_unit (info);
  GST_DEBUG_OBJECT (self, "%d channels of %u values, a value standing for %u",
      f->n_channels, self->values, self->unit);
  counts_size = f->n_channels * self->values * sizeof (guint32);
  for (i = 0; i < filter->in_flight.n_slots; i++) {
    Slot *slot = &self->slots[i];

    if (!gst_hip_device_alloc (&filter->device, &slot->counts,
            hipf_histogram_buffer_size (), "histograms")
        || !gst_hip_device_alloc_host (&filter->device, &slot->host_counts,
            hipf_histogram_copies (f) * counts_size, "histograms"))
      return FALSE;
  }
  return TRUE;
}

/* The region of interest, given in luma samples, on each plane. */
static void
apply_roi (HipfHistogramFrame * f, const GstHipVideoLayout * layout,
    const Settings * s)
{
  guint p;

  for (p = 0; p < (guint) f->n_planes; p++) {
    HipfHistogramPlane *pl = &f->planes[p];
    const GstHipPlane *lp = &layout->planes[p];
    /* Extent in luma samples, clamped to the frame, then every chroma
     * sample the region touches. */
    guint64 w = (guint64) layout->planes[0].width;
    guint64 h = (guint64) layout->planes[0].height;
    guint64 x0 = MIN (s->roi_x, w), y0 = MIN (s->roi_y, h);
    guint64 x1 = s->roi_width ? MIN (x0 + s->roi_width, w) : w;
    guint64 y1 = s->roi_height ? MIN (y0 + s->roi_height, h) : h;
    gint px0 = x0 >> lp->w_sub, py0 = y0 >> lp->h_sub;
    gint px1 = (x1 + (1 << lp->w_sub) - 1) >> lp->w_sub;
    gint py1 = (y1 + (1 << lp->h_sub) - 1) >> lp->h_sub;

    pl->roi_x = px0;
    pl->roi_y = py0;
    pl->roi_width = x1 > x0 ? px1 - px0 : 0;
    pl->roi_height = y1 > y0 ? py1 - py0 : 0;
  }
}

/* @n counts as a GstValueArray of guint. A report holds up to 3,072 of
 * them, so each is set in a copy of one initialized value (the array takes
 * values in by copying them too) rather than initialized on its own, into
 * an array allocated whole. */
static void
init_count_array (GValue * array, const guint32 * counts, guint n)
{
  GValue count = G_VALUE_INIT;
  guint i;

  gst_value_array_init (array, n);
  g_value_init (&count, G_TYPE_UINT);
  for (i = 0; i < n; i++) {
    GValue v = count;

    g_value_set_uint (&v, counts[i]);
    gst_value_array_append_and_take_value (array, &v);
  }
}

/* Sets in @st the histograms at the requested bins and the luma
 * statistics. The message and the meta each get a report built for them:
 * a copy goes through GValue's generic paths for every value, and costs
 * more than building one. */
/* @ts in the segment's running or stream time; NONE where the segment does
 * not count time (an appsrc left in bytes, say), which has neither. */
static GstClockTime
segment_time (const GstSegment * segment, GstClockTime ts, gboolean running)
{
  if (segment->format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  return running ? gst_segment_to_running_time (segment, GST_FORMAT_TIME, ts)
      : gst_segment_to_stream_time (segment, GST_FORMAT_TIME, ts);
}

/* Bins a report holds: @bins, or the format's values where fewer. */
static guint
report_bins (GstHipHistogram * self, const Settings * s)
{
  return MIN (s->bins, self->values);
}

/* The luma statistics from its counts, in the format's scale: value v of
 * the counts stands for v * unit. Clipping compares the top eight bits of
 * a value, v * 256 / values, with the 8-bit thresholds. */
static void
fill_stats (GstHipHistogram * self, const guint32 * luma, const Settings * s,
    GstStructure * st)
{
  const guint values = self->values, unit = self->unit;
  guint64 pixels = 0, low = 0, high = 0, acc = 0;
  gdouble sum = 0, sq = 0, mean = 0, stddev = 0;
  guint median = 0, min = 0, max = 0, v;
  gboolean seen = FALSE;

  for (v = 0; v < values; v++) {
    guint top = v * HIPF_HISTOGRAM_VALUES / values;

    pixels += luma[v];
    sum += (gdouble) v * luma[v];
    if (luma[v] && !seen) {
      min = v;
      seen = TRUE;
    }
    if (luma[v])
      max = v;
    if (top <= s->low_threshold)
      low += luma[v];
    if (top >= s->high_threshold)
      high += luma[v];
  }
  if (pixels) {
    mean = sum / pixels;
    for (v = 0; v < values; v++)
      sq += luma[v] * (v - mean) * (v - mean);
    stddev = sqrt (sq / pixels);
    /* Lower median: the smallest value with half the samples at or below. */
    for (v = 0; v < values; v++) {
      acc += luma[v];
      if (2 * acc >= pixels) {
        median = v;
        break;
      }
    }
  }

  gst_structure_set (st,
      "pixels", G_TYPE_UINT64, pixels,
      "mean", G_TYPE_DOUBLE, mean * unit,
      "stddev", G_TYPE_DOUBLE, stddev * unit,
      "median", G_TYPE_UINT, median * unit,
      "min", G_TYPE_UINT, min * unit,
      "max", G_TYPE_UINT, max * unit,
      /* The scale's top, so that readers need not know the format. */
      "max-value", G_TYPE_UINT, values * unit - 1,
      "clipped-low", G_TYPE_DOUBLE, pixels ? (gdouble) low / pixels : 0.0,
      "clipped-high", G_TYPE_DOUBLE, pixels ? (gdouble) high / pixels : 0.0,
      /* The mean in the 8-bit scale of the target. A black frame reads as
       * mean 1 so the correction stays finite. */
      "ev-correction", G_TYPE_DOUBLE, log2 (s->target_mean /
          MAX (mean * HIPF_HISTOGRAM_VALUES / values, 1.0)), NULL);
}

static void
fill_report (GstHipHistogram * self, const guint32 * counts,
    const Settings * s, GstBuffer * buf, GstStructure * st)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstClockTime ts = GST_BUFFER_PTS (buf);
  const guint values = self->values, bins = report_bins (self, s);
  guint n = self->frame.n_channels, c, v;
  GValue channels = G_VALUE_INIT, histograms = G_VALUE_INIT;

  gst_value_array_init (&channels, n);
  gst_value_array_init (&histograms, n);
  for (c = 0; c < n; c++) {
    const guint32 *hist = counts + c * values;
    GValue channel = G_VALUE_INIT, binned_counts = G_VALUE_INIT;
    guint32 binned[HIPF_HISTOGRAM_WIDE_VALUES] = { 0 };

    g_value_init (&channel, G_TYPE_STRING);
    g_value_set_static_string (&channel, self->channel_names[c]);
    gst_value_array_append_and_take_value (&channels, &channel);
    for (v = 0; v < values; v++)
      binned[v * bins / values] += hist[v];
    init_count_array (&binned_counts, binned, bins);
    gst_value_array_append_and_take_value (&histograms, &binned_counts);
  }

  gst_structure_set (st,
      "timestamp", G_TYPE_UINT64, ts,
      "stream-time", G_TYPE_UINT64, segment_time (&trans->segment, ts, FALSE),
      "running-time", G_TYPE_UINT64, segment_time (&trans->segment, ts, TRUE),
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buf), NULL);
  gst_structure_take_value (st, "channels", &channels);
  gst_structure_take_value (st, "histograms", &histograms);
  fill_stats (self, counts + self->luma_channel * values, s, st);
}

/* Whether a frame at @running_time posts its message. A frame with no
 * running time cannot be placed in an interval, so it posts none while one
 * is set. Running time that goes back (a new segment) starts anew. */
static gboolean
interval_elapsed (GstHipHistogram * self, const Settings * s,
    GstClockTime running_time)
{
  if (s->interval == 0)
    return TRUE;
  if (!GST_CLOCK_TIME_IS_VALID (running_time))
    return FALSE;
  /* A difference, not a sum: an interval near G_MAXUINT64 must not wrap. */
  if (GST_CLOCK_TIME_IS_VALID (self->last_post)
      && running_time >= self->last_post
      && running_time - self->last_post < s->interval)
    return FALSE;
  self->last_post = running_time;
  return TRUE;
}

/* One consistent set of properties per frame; with nothing to report,
 * no kernels. */
static gboolean
gst_hip_histogram_begin (GstHipfFilter * filter, guint index)
{
  GstHipHistogram *self = GST_HIP_HISTOGRAM (filter);
  Settings *s = &self->slots[index].settings;

  GST_OBJECT_LOCK (self);
  *s = self->settings;
  GST_OBJECT_UNLOCK (self);
  return s->post_messages || s->attach_meta;
}

/* The zones' statistics in a launch of their own after the histogram's. */
static gboolean
meter_zones (GstHipHistogram * self, guint index, hipStream_t stream)
{
  GstHipfFilter *filter = GST_HIPF_FILTER (self);
  GstHipDevice *dev = &filter->device;
  Slot *slot = &self->slots[index];
  gsize bytes = hipf_zones_words (&slot->zones) * sizeof (guint32);

  if (!gst_hip_device_alloc (dev, &slot->zone_words, bytes, "zones"))
    return FALSE;
  slot->metered = slot->zone_words.ptr;
  return gst_hip_device_launched (dev, hipf_zones (&dev->limits,
          &slot->zones, filter->frames[index].src, slot->zone_words.ptr,
          stream), "hipf_zones");
}

/* The histogram's launch with the zones counted in it: the buffer of
 * their two halves, set once before its first launch. */
static gboolean
count_with_zones (GstHipHistogram * self, guint index,
    const HipfHistogramFrame * frame, hipStream_t stream)
{
  GstHipfFilter *filter = GST_HIPF_FILTER (self);
  GstHipDevice *dev = &filter->device;
  Slot *slot = &self->slots[index];
  hipError_t err;

  if (!gst_hip_device_alloc (dev, &slot->zone_halves,
          hipf_histogram_zones_buffer_size (), "zones"))
    return FALSE;
  if (!slot->zone_halves_set) {
    if (!gst_hip_device_launched (dev,
            hipf_histogram_zones_buffer_init (slot->zone_halves.ptr, stream),
            "hipf_histogram_zones_buffer_init"))
      return FALSE;
    slot->zone_halves_set = TRUE;
  }
  slot->metered = hipf_histogram_zones_words (slot->zone_halves.ptr,
      slot->zone_half);
  err = hipf_histogram_zones (&dev->limits, frame, &slot->zones,
      filter->frames[index].src, slot->counts.ptr, slot->counts_half,
      slot->zone_halves.ptr, slot->zone_half, stream);
  /* As for the counts' halves below. */
  if (err == hipSuccess) {
    slot->counts_half = !slot->counts_half;
    slot->zone_half = !slot->zone_half;
  }
  return gst_hip_device_launched (dev, err, "hipf_histogram_zones");
}

/* The histogram, and the zones' statistics where a grid or their
 * histograms are asked for: counted in the histogram's launch where it
 * takes them (hipf_histogram_zones_fuse ()), else in a launch of their
 * own after it. */
static gboolean
gst_hip_histogram_compute (GstHipfFilter * filter, guint index, guint slice,
    hipStream_t stream)
{
  GstHipHistogram *self = GST_HIP_HISTOGRAM (filter);
  GstHipDevice *dev = &filter->device;
  Slot *slot = &self->slots[index];
  const Settings *s = &slot->settings;
  HipfHistogramFrame frame = self->frame;
  hipError_t err;

  apply_roi (&frame, &filter->layout, s);
  slot->counted_half = slot->counts_half;
  slot->zoned = s->zone_cols * s->zone_rows > 1 || s->zone_histograms;
  if (slot->zoned) {
    gst_hipf_zones_frame_init (&slot->zones,
        &GST_VIDEO_FILTER (self)->in_info, &filter->layout, s->zone_cols,
        s->zone_rows, s->low_threshold, s->high_threshold,
        s->zone_histograms);
    if (!gst_hip_device_alloc_host (dev, &slot->host_zone_words,
            hipf_zones_words (&slot->zones) * sizeof (guint32), "zones"))
      return FALSE;
    if (hipf_histogram_zones_fuse (&dev->limits, &frame, &slot->zones))
      return count_with_zones (self, index, &frame, stream);
  }
  err = hipf_histogram (&dev->limits, &frame, filter->frames[index].src,
      slot->counts.ptr, slot->counts_half, stream);
  /* A launch that started took its half and cleared the other, even one
   * whose failure is only injected: the next launch takes the other. */
  if (err == hipSuccess)
    slot->counts_half = !slot->counts_half;
  return gst_hip_device_launched (dev, err, "hipf_histogram")
      && (!slot->zoned || meter_zones (self, index, stream));
}

/* The copies of the counts come back as rows of one copy each, added up
 * once they are back. */
static gboolean
gst_hip_histogram_readback (GstHipfFilter * filter, guint index,
    hipStream_t stream)
{
  GstHipHistogram *self = GST_HIP_HISTOGRAM (filter);
  Slot *slot = &self->slots[index];
  const guint32 *counts = hipf_histogram_counts (slot->counts.ptr,
      slot->counted_half);
  gsize size = self->frame.n_channels * self->values * sizeof (guint32);

  gsize zone_bytes = slot->zoned ?
      hipf_zones_words (&slot->zones) * sizeof (guint32) : 0;

  return gst_hip_device_copy_2d (&filter->device, stream,
      slot->host_counts.ptr, size, counts,
      hipf_histogram_copy_words (&self->frame) * sizeof (guint32), size,
      hipf_histogram_copies (&self->frame), hipMemcpyDeviceToHost)
      && (!slot->zoned || gst_hip_device_copy_2d (&filter->device, stream,
          slot->host_zone_words.ptr, zone_bytes, slot->metered,
          zone_bytes, zone_bytes, 1, hipMemcpyDeviceToHost));
}

/* Slot @index's counts are back: the report leaves with @buf, in order. */
static void
gst_hip_histogram_finish (GstHipfFilter * filter, guint index, GstBuffer * buf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (filter);
  GstHipHistogram *self = GST_HIP_HISTOGRAM (filter);
  Slot *slot = &self->slots[index];
  const Settings *s = &slot->settings;
  const gsize words = self->frame.n_channels * self->values;
  guint32 counts[MAX_COPY_WORDS];
  gboolean meta = s->attach_meta && gst_buffer_is_writable (buf);
  /* A message only where one is due. */
  gboolean message = s->post_messages && interval_elapsed (self, s,
      segment_time (&trans->segment, GST_BUFFER_PTS (buf), TRUE));

  if (!meta && !message)
    return;
  hipf_histogram_add_copies (slot->host_counts.ptr,
      hipf_histogram_copies (&self->frame), words, words, counts);
  if (meta) {
    GstCustomMeta *custom =
        gst_buffer_add_custom_meta (buf, GST_HIP_HISTOGRAM_META_NAME);

    fill_report (self, counts, s, buf, gst_custom_meta_get_structure (custom));
    if (slot->zoned)
      gst_hipf_zones_report (gst_custom_meta_get_structure (custom),
          &slot->zones, slot->host_zone_words.ptr, report_bins (self, s),
          self->unit);
  }
  if (message) {
    GstStructure *report = gst_structure_new_empty ("hiphistogram");

    fill_report (self, counts, s, buf, report);
    if (slot->zoned)
      gst_hipf_zones_report (report, &slot->zones, slot->host_zone_words.ptr,
          report_bins (self, s), self->unit);
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_element (GST_OBJECT (self), report));
  }
}

static void
gst_hip_histogram_class_init (GstHipHistogramClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstHipfFilterClass *hipf_class = GST_HIPF_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
  const GParamFlags live = flags | GST_PARAM_MUTABLE_PLAYING;
  /* Tagged as describing the pixels, so that elements which change them
   * (filters, converters) drop it rather than carry a stale histogram. */
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_COLORSPACE_STR, NULL
  };

  gobject_class->set_property = gst_hip_histogram_set_property;
  gobject_class->get_property = gst_hip_histogram_get_property;

  g_object_class_install_property (gobject_class, PROP_BINS,
      g_param_spec_uint ("bins", "Bins",
          "Bins per channel, spread over the values the format counts (256, "
          "1024 for 16-bit formats): value v counts in bin v * bins / values; "
          "at most 256 for 8-bit formats",
          1, HIPF_HISTOGRAM_WIDE_VALUES, DEFAULT_BINS, live));
  g_object_class_install_property (gobject_class, PROP_ROI_X,
      g_param_spec_uint ("roi-x", "ROI x",
          "Left edge of the region counted, in luma samples", 0, G_MAXINT, 0,
          live));
  g_object_class_install_property (gobject_class, PROP_ROI_Y,
      g_param_spec_uint ("roi-y", "ROI y",
          "Top edge of the region counted, in luma samples", 0, G_MAXINT, 0,
          live));
  g_object_class_install_property (gobject_class, PROP_ROI_WIDTH,
      g_param_spec_uint ("roi-width", "ROI width",
          "Width of the region counted, in luma samples; 0 reaches the right "
          "edge of the frame", 0, G_MAXINT, 0, live));
  g_object_class_install_property (gobject_class, PROP_ROI_HEIGHT,
      g_param_spec_uint ("roi-height", "ROI height",
          "Height of the region counted, in luma samples; 0 reaches the "
          "bottom edge of the frame", 0, G_MAXINT, 0, live));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post a hiphistogram element message on the bus",
          DEFAULT_POST_MESSAGES, live));
  g_object_class_install_property (gobject_class, PROP_INTERVAL,
      g_param_spec_uint64 ("interval", "Interval",
          "Least running time between two messages in nanoseconds; each "
          "carries the latest frame's histograms, and frames without a running "
          "time post none. 0 posts one per frame",
          0, G_MAXUINT64, DEFAULT_INTERVAL, live));
  g_object_class_install_property (gobject_class, PROP_ATTACH_META,
      g_param_spec_boolean ("attach-meta", "Attach meta",
          "Attach a " GST_HIP_HISTOGRAM_META_NAME " to every buffer",
          DEFAULT_ATTACH_META, live));
  g_object_class_install_property (gobject_class, PROP_LOW_THRESHOLD,
      g_param_spec_uint ("low-threshold", "Low threshold",
          "Luma at or below which a sample counts as clipped-low, in the "
          "8-bit scale for every format (16-bit formats compare their "
          "samples' top eight bits)", 0,
          MAX_SAMPLE, DEFAULT_LOW_THRESHOLD, live));
  g_object_class_install_property (gobject_class, PROP_HIGH_THRESHOLD,
      g_param_spec_uint ("high-threshold", "High threshold",
          "Luma at or above which a sample counts as clipped-high, in the "
          "8-bit scale for every format (16-bit formats compare their "
          "samples' top eight bits)", 0,
          MAX_SAMPLE, DEFAULT_HIGH_THRESHOLD, live));
  g_object_class_install_property (gobject_class, PROP_TARGET_MEAN,
      g_param_spec_uint ("target-mean", "Target mean",
          "Mean luma of a well exposed frame, for ev-correction, in the "
          "8-bit scale for every format", 1,
          MAX_SAMPLE, DEFAULT_TARGET_MEAN, live));
  /**
   * GstHipHistogram:zones:
   *
   * Zone metering: "COLSxROWS" zones of the whole frame (zone (i, j)
   * covering luma columns [i W / COLS, (i + 1) W / COLS) and rows likewise),
   * each reported in row-major order as `zone-mean`, `zone-min`,
   * `zone-max` (in the format's scale, as the frame's statistics),
   * `zone-clipped-low` and `zone-clipped-high` of luma, with the
   * grid as `zones`. "1x1" reports no zones (unless zone-histograms is set).
   * A malformed value is refused with a warning, the old one kept.
   */
  g_object_class_install_property (gobject_class, PROP_ZONES,
      g_param_spec_string ("zones", "Zones",
          "Zones of the frame metered, COLSxROWS, each 1 to 64; 1x1 meters "
          "none", "1x1", live));
  g_object_class_install_property (gobject_class, PROP_ZONE_HISTOGRAMS,
      g_param_spec_boolean ("zone-histograms", "Zone histograms",
          "Also report each zone's luma histogram (zone-histograms, in bins "
          "bins)", FALSE, live));
  gst_hipf_filter_class_take_16_bit (element_class);
  gst_element_class_set_static_metadata (element_class, "HIP histogram",
      "Filter/Analyzer/Video/Hardware",
      "Per-frame histograms and exposure statistics counted on a HIP device",
      "gst-hip-filters contributors");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_hip_histogram_start);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_hip_histogram_sink_event);
  hipf_class->reads_only = TRUE;
  hipf_class->configure = GST_DEBUG_FUNCPTR (gst_hip_histogram_configure);
  hipf_class->begin = GST_DEBUG_FUNCPTR (gst_hip_histogram_begin);
  hipf_class->compute = GST_DEBUG_FUNCPTR (gst_hip_histogram_compute);
  hipf_class->readback = GST_DEBUG_FUNCPTR (gst_hip_histogram_readback);
  hipf_class->finish = GST_DEBUG_FUNCPTR (gst_hip_histogram_finish);
  hipf_class->close = GST_DEBUG_FUNCPTR (gst_hip_histogram_close);

  gst_meta_register_custom (GST_HIP_HISTOGRAM_META_NAME, tags, NULL, NULL,
      NULL);
  GST_DEBUG_CATEGORY_INIT (gst_hip_histogram_debug, "hiphistogram", 0,
      "HIP histogram");
}

static void
gst_hip_histogram_init (GstHipHistogram * self)
{
  Settings *s = &self->settings;

  s->bins = DEFAULT_BINS;
  s->post_messages = DEFAULT_POST_MESSAGES;
  s->interval = DEFAULT_INTERVAL;
  s->attach_meta = DEFAULT_ATTACH_META;
  s->low_threshold = DEFAULT_LOW_THRESHOLD;
  s->high_threshold = DEFAULT_HIGH_THRESHOLD;
  s->target_mean = DEFAULT_TARGET_MEAN;
  s->zone_cols = s->zone_rows = 1;
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}
