/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-hipconvolve
 * @title: hipconvolve
 *
 * Applies any integer mask around every sample of every plane on a HIP
 * device: out = clamp (round (sum / divisor) + offset, 0, 255), exactly
 * (kernels/convolve/mask.h has the arithmetic). The mask is a 2D one
 * (#GstHipConvolve:kernel), a row and a column (#GstHipConvolve:kernel-x
 * and #GstHipConvolve:kernel-y), or a #GstHipConvolve:preset; a 2D mask
 * that is the outer product of two integer vectors runs as two passes by
 * itself. Without a mask frames pass through.
 *
 * ## Example
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! hipconvolve preset=sobel-x offset=128 ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gsthipconvolve.h"
#include "gsthipconvmask.h"
#include "gsthipborder.h"

GST_DEBUG_CATEGORY_STATIC (gst_hip_convolve_debug);
#define GST_CAT_DEFAULT gst_hip_convolve_debug

#define DEFAULT_PRESET GST_HIP_CONVOLVE_PRESET_NONE
#define DEFAULT_SIGMA 1.0
#define DEFAULT_DIVISOR 0
#define DEFAULT_OFFSET 0
#define DEFAULT_BORDER_MODE HIPF_BORDER_MIRROR
#define DEFAULT_LUMA_ONLY FALSE
#define MAX_OFFSET 65535

enum
{
  PROP_0,
  PROP_KERNEL,
  PROP_KERNEL_X,
  PROP_KERNEL_Y,
  PROP_PRESET,
  PROP_SIGMA,
  PROP_DIVISOR,
  PROP_OFFSET,
  PROP_BORDER_MODE,
  PROP_LUMA_ONLY,
};

/* The properties, under the object lock. */
typedef struct
{
  HipfConvolveMask kernel;      /* width 0: none */
  gint taps_x[HIPF_CONVOLVE_MAX_TAPS], n_x;     /* n 0: none */
  gint taps_y[HIPF_CONVOLVE_MAX_TAPS], n_y;
  GstHipConvolvePreset preset;
  gdouble sigma;
  gint divisor, offset;
  HipfBorderMode border;
  gboolean luma_only;
} Settings;

typedef struct
{
  /* The frame's mask, in pinned memory: its taps' copy to the device then
   * waits for nothing on the host. */
  GstHipMemory host_mask;
  HipfConvolveMask *mask;
  HipfBorderMode border;
  gboolean luma_only;
  GstHipMemory scratch[GST_VIDEO_MAX_PLANES];
} Slot;

struct _GstHipConvolve
{
  GstHipfFilter parent;

  Settings settings;
  gboolean is_yuv;
  gint luma_channel;            /* of plane 0 */
  /* GST_HIP_IN_FLIGHT_MAX of them: a mask each is too much for the
   * instance itself. */
  Slot *slots;
};

GType
gst_hip_convolve_preset_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_HIP_CONVOLVE_PRESET_NONE, "The kernel, or kernel-x and kernel-y",
        "none"},
    {GST_HIP_CONVOLVE_PRESET_GAUSSIAN, "Gaussian of sigma, separable",
        "gaussian"},
    {GST_HIP_CONVOLVE_PRESET_SHARPEN, "0 -1 0; -1 5 -1; 0 -1 0", "sharpen"},
    {GST_HIP_CONVOLVE_PRESET_LAPLACIAN, "0 1 0; 1 -4 1; 0 1 0 (sums to 0: "
          "divisor 1)", "laplacian"},
    {GST_HIP_CONVOLVE_PRESET_SOBEL_X, "-1 0 1; -2 0 2; -1 0 1, separable",
        "sobel-x"},
    {GST_HIP_CONVOLVE_PRESET_SOBEL_Y, "-1 -2 -1; 0 0 0; 1 2 1, separable",
        "sobel-y"},
    {GST_HIP_CONVOLVE_PRESET_EMBOSS, "-2 -1 0; -1 1 1; 0 1 2", "emboss"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstHipConvolvePreset", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_hip_convolve_parent_class parent_class
G_DEFINE_TYPE (GstHipConvolve, gst_hip_convolve, GST_TYPE_HIPF_FILTER);
GST_ELEMENT_REGISTER_DEFINE (hipconvolve, "hipconvolve", GST_RANK_NONE,
    GST_TYPE_HIP_CONVOLVE);

/* The mask the settings make, with its divisor and offset: the preset,
 * else kernel-x and kernel-y where both are set, else the kernel. FALSE
 * where there is none. */
static gboolean
resolve_mask (const Settings * s, HipfConvolveMask * m)
{
  gchar *why = NULL;
  gint64 sum;

  if (s->preset != GST_HIP_CONVOLVE_PRESET_NONE) {
    if (!gst_hip_conv_mask_preset (s->preset, s->sigma, m))
      return FALSE;
  } else if (s->n_x > 0 && s->n_y > 0) {
    if (!gst_hip_conv_mask_set_separable (m, s->taps_x, s->n_x, s->taps_y,
            s->n_y, &why)) {
      g_free (why);
      return FALSE;
    }
  } else if (s->kernel.width > 0) {
    *m = s->kernel;
    gst_hip_conv_mask_factor (m);
  } else {
    return FALSE;
  }
  sum = gst_hip_conv_mask_sum (m);
  m->divisor = s->divisor != 0 ? s->divisor : sum != 0 ? (gint) sum : 1;
  m->offset = s->offset;
  return TRUE;
}

static void
update_passthrough (GstHipConvolve * self)
{
  HipfConvolveMask *m = g_new (HipfConvolveMask, 1);
  gboolean none;

  GST_OBJECT_LOCK (self);
  none = !resolve_mask (&self->settings, m);
  GST_OBJECT_UNLOCK (self);
  g_free (m);
  gst_hipf_filter_set_passthrough (GST_HIPF_FILTER (self), none);
}

/* Whether @taps, set as the row (PROP_KERNEL_X) or the column, make a
 * separable mask with the other vector that stays within the weight
 * bound (or stand within it alone, where the other is unset). */
static gboolean
separable_fits (const Settings * s, guint prop_id, const gint * taps, gint n,
    gchar ** why)
{
  HipfConvolveMask *m = g_new (HipfConvolveMask, 1);
  static const gint one = 1;
  gboolean x = prop_id == PROP_KERNEL_X;
  const gint *other = x ? s->taps_y : s->taps_x;
  gint n_other = x ? s->n_y : s->n_x;
  gboolean ok;

  if (n_other == 0) {
    other = &one;
    n_other = 1;
  }
  ok = x ? gst_hip_conv_mask_set_separable (m, taps, n, other, n_other, why) :
      gst_hip_conv_mask_set_separable (m, other, n_other, taps, n, why);
  g_free (m);
  return ok;
}

static void
gst_hip_convolve_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstHipConvolve *self = GST_HIP_CONVOLVE (object);
  Settings *s = &self->settings;
  gchar *why = NULL;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL:{
      const gchar *text = g_value_get_string (value);
      HipfConvolveMask m = s->kernel;

      if (text == NULL || *text == '\0')
        s->kernel.width = 0;
      else if (gst_hip_conv_mask_parse (text, &m, &why))
        s->kernel = m;
      break;
    }
    case PROP_KERNEL_X:
    case PROP_KERNEL_Y:{
      const gchar *text = g_value_get_string (value);
      gint *taps = prop_id == PROP_KERNEL_X ? s->taps_x : s->taps_y;
      gint *n = prop_id == PROP_KERNEL_X ? &s->n_x : &s->n_y;
      gint parsed[HIPF_CONVOLVE_MAX_TAPS], got;

      if (text == NULL || *text == '\0')
        *n = 0;
      else if (gst_hip_conv_taps_parse (text, parsed, &got, &why)
          && separable_fits (s, prop_id, parsed, got, &why)) {
        memcpy (taps, parsed, got * sizeof (gint));
        *n = got;
      }
      break;
    }
    case PROP_PRESET:
      s->preset = g_value_get_enum (value);
      break;
    case PROP_SIGMA:
      s->sigma = g_value_get_double (value);
      break;
    case PROP_DIVISOR:
      s->divisor = g_value_get_int (value);
      break;
    case PROP_OFFSET:
      s->offset = g_value_get_int (value);
      break;
    case PROP_BORDER_MODE:{
      HipfBorderMode mode = g_value_get_enum (value);

      /* Averaging over the samples inside means nothing for a signed
       * mask: refused. */
      if (mode == HIPF_BORDER_VALID)
        why = g_strdup ("border-mode=valid is not defined for masks");
      else
        s->border = mode;
      break;
    }
    case PROP_LUMA_ONLY:
      s->luma_only = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
  if (why) {
    g_warning ("%s: %s refused: %s", GST_OBJECT_NAME (self),
        g_param_spec_get_name (pspec), why);
    g_free (why);
  }
  update_passthrough (self);
}

static void
gst_hip_convolve_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstHipConvolve *self = GST_HIP_CONVOLVE (object);
  const Settings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL:
      g_value_take_string (value, s->kernel.width > 0 ?
          gst_hip_conv_mask_to_string (&s->kernel) : NULL);
      break;
    case PROP_KERNEL_X:
    case PROP_KERNEL_Y:{
      const gint *taps = prop_id == PROP_KERNEL_X ? s->taps_x : s->taps_y;
      gint n = prop_id == PROP_KERNEL_X ? s->n_x : s->n_y, i;
      GString *str = g_string_new (NULL);

      for (i = 0; i < n; i++)
        g_string_append_printf (str, i ? " %d" : "%d", taps[i]);
      g_value_take_string (value, n ? g_string_free (str, FALSE) : NULL);
      if (!n)
        g_string_free (str, TRUE);
      break;
    }
    case PROP_PRESET:
      g_value_set_enum (value, s->preset);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, s->sigma);
      break;
    case PROP_DIVISOR:
      g_value_set_int (value, s->divisor);
      break;
    case PROP_OFFSET:
      g_value_set_int (value, s->offset);
      break;
    case PROP_BORDER_MODE:
      g_value_set_enum (value, s->border);
      break;
    case PROP_LUMA_ONLY:
      g_value_set_boolean (value, s->luma_only);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_hip_convolve_configure (GstHipfFilter * filter, const GstVideoInfo * info)
{
  GstHipConvolve *self = GST_HIP_CONVOLVE (filter);
  guint i;

  self->is_yuv = GST_VIDEO_INFO_IS_YUV (info);
  self->luma_channel = filter->layout.packed ? 0 :
      GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_Y);
  for (i = 0; i < filter->in_flight.n_slots; i++) {
    Slot *slot = &self->slots[i];

    if (!gst_hip_device_alloc_host (&filter->device, &slot->host_mask,
            sizeof (HipfConvolveMask), "mask"))
      return FALSE;
    slot->mask = slot->host_mask.ptr;
  }
  return TRUE;
}

/* One consistent set of properties per frame. */
static gboolean
gst_hip_convolve_begin (GstHipfFilter * filter, guint index)
{
  GstHipConvolve *self = GST_HIP_CONVOLVE (filter);
  Slot *slot = &self->slots[index];
  gboolean any;

  GST_OBJECT_LOCK (self);
  any = resolve_mask (&self->settings, slot->mask);
  slot->border = self->settings.border;
  slot->luma_only = self->settings.luma_only;
  GST_OBJECT_UNLOCK (self);
  return any;
}

static gboolean
gst_hip_convolve_compute (GstHipfFilter * filter, guint index, guint slice,
    hipStream_t stream)
{
  GstHipConvolve *self = GST_HIP_CONVOLVE (filter);
  GstHipDevice *dev = &filter->device;
  GstHipfFrame *fr = &filter->frames[index];
  Slot *slot = &self->slots[index];
  guint8 *dst = fr->dst[slice % 2];
  guint p;

  for (p = 0; p < filter->layout.n_planes; p++) {
    const GstHipPlane *pl = &filter->layout.planes[p];
    HipfConvolvePlane plane = { pl->width, pl->height, pl->channels,
      (1u << pl->channels) - 1, slot->border
    };
    const gboolean luma_only = slot->luma_only && self->is_yuv;

    if (luma_only && p > 0) {
      /* Chroma planes as they are. */
      if (!gst_hip_device_copy_2d (dev, stream, dst + pl->offset, pl->pitch,
              fr->src + pl->offset, pl->pitch, gst_hip_plane_row_bytes (pl),
              pl->height, hipMemcpyDeviceToDevice))
        return FALSE;
      continue;
    }
    if (luma_only)
      plane.channel_mask = 1u << self->luma_channel;
    if (!gst_hip_device_alloc (dev, &slot->scratch[p],
            hipf_convolve_scratch_size (&dev->limits, &plane, slot->mask),
            "convolution")
        || !gst_hip_device_launched (dev, hipf_convolve_run (&dev->limits,
                &plane, slot->mask, fr->src + pl->offset, pl->pitch,
                dst + pl->offset, pl->pitch, slot->scratch[p].ptr, stream),
            "hipf_convolve_run"))
      return FALSE;
  }
  return TRUE;
}

static void
gst_hip_convolve_close (GstHipfFilter * filter)
{
  GstHipConvolve *self = GST_HIP_CONVOLVE (filter);
  guint i, p;

  for (i = 0; i < GST_HIP_IN_FLIGHT_MAX; i++) {
    for (p = 0; p < GST_VIDEO_MAX_PLANES; p++)
      gst_hip_device_free (&filter->device, &self->slots[i].scratch[p]);
    gst_hip_device_free_host (&filter->device, &self->slots[i].host_mask);
    self->slots[i].mask = NULL;
  }
}

static void
gst_hip_convolve_finalize (GObject * object)
{
  GstHipConvolve *self = GST_HIP_CONVOLVE (object);

  g_free (self->slots);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_hip_convolve_class_init (GstHipConvolveClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstHipfFilterClass *hipf_class = GST_HIPF_FILTER_CLASS (klass);
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_hip_convolve_set_property;
  gobject_class->get_property = gst_hip_convolve_get_property;
  gobject_class->finalize = gst_hip_convolve_finalize;

  g_object_class_install_property (gobject_class, PROP_KERNEL,
      g_param_spec_string ("kernel", "Kernel",
          "The mask as rows of integers separated by ';', e.g. \"1 2 1; 2 4 "
          "2; 1 2 1\": odd width and height up to 31, the absolute taps "
          "summing to at most 8388608; a malformed one is refused. Used "
          "where neither a preset nor kernel-x and kernel-y are set", NULL,
          live));
  g_object_class_install_property (gobject_class, PROP_KERNEL_X,
      g_param_spec_string ("kernel-x", "Horizontal kernel",
          "A separable mask's row, an odd number up to 255 of integers; "
          "with kernel-y, used where no preset is set", NULL, live));
  g_object_class_install_property (gobject_class, PROP_KERNEL_Y,
      g_param_spec_string ("kernel-y", "Vertical kernel",
          "A separable mask's column, an odd number up to 255 of integers",
          NULL, live));
  g_object_class_install_property (gobject_class, PROP_PRESET,
      g_param_spec_enum ("preset", "Preset",
          "A built-in mask, used before any kernel",
          GST_TYPE_HIP_CONVOLVE_PRESET, DEFAULT_PRESET, live));
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the gaussian preset, in samples",
          GST_HIP_CONVOLVE_MIN_SIGMA, GST_HIP_CONVOLVE_MAX_SIGMA,
          DEFAULT_SIGMA, live));
  g_object_class_install_property (gobject_class, PROP_DIVISOR,
      g_param_spec_int ("divisor", "Divisor",
          "What the sum is divided by (rounded to nearest, halves up); 0 "
          "takes the mask's sum, or 1 where it sums to 0",
          -HIPF_CONVOLVE_MAX_WEIGHT, HIPF_CONVOLVE_MAX_WEIGHT,
          DEFAULT_DIVISOR, live));
  g_object_class_install_property (gobject_class, PROP_OFFSET,
      g_param_spec_int ("offset", "Offset",
          "Added to the rounded quotient before clamping to 0 - 255 (128 "
          "shows signed edges)", -MAX_OFFSET, MAX_OFFSET, DEFAULT_OFFSET,
          live));
  g_object_class_install_property (gobject_class, PROP_BORDER_MODE,
      g_param_spec_enum ("border-mode", "Border mode",
          "What the mask sees beyond the edges of the frame; valid is "
          "refused", GST_TYPE_HIP_BORDER_MODE, DEFAULT_BORDER_MODE, live));
  g_object_class_install_property (gobject_class, PROP_LUMA_ONLY,
      g_param_spec_boolean ("luma-only", "Luma only",
          "For YUV formats, convolve luma and pass chroma as it is",
          DEFAULT_LUMA_ONLY, live));

  gst_element_class_set_static_metadata (element_class, "HIP convolution",
      "Filter/Effect/Video/Hardware",
      "Exact integer 2D convolution of every plane on a HIP device",
      "gst-hip-filters contributors");

  hipf_class->configure = GST_DEBUG_FUNCPTR (gst_hip_convolve_configure);
  hipf_class->begin = GST_DEBUG_FUNCPTR (gst_hip_convolve_begin);
  hipf_class->compute = GST_DEBUG_FUNCPTR (gst_hip_convolve_compute);
  hipf_class->close = GST_DEBUG_FUNCPTR (gst_hip_convolve_close);

  gst_type_mark_as_plugin_api (GST_TYPE_HIP_CONVOLVE_PRESET, 0);
  GST_DEBUG_CATEGORY_INIT (gst_hip_convolve_debug, "hipconvolve", 0,
      "HIP convolution");
}

static void
gst_hip_convolve_init (GstHipConvolve * self)
{
  Settings *s = &self->settings;

  self->slots = g_new0 (Slot, GST_HIP_IN_FLIGHT_MAX);
  s->preset = DEFAULT_PRESET;
  s->sigma = DEFAULT_SIGMA;
  s->divisor = DEFAULT_DIVISOR;
  s->offset = DEFAULT_OFFSET;
  s->border = DEFAULT_BORDER_MODE;
  s->luma_only = DEFAULT_LUMA_ONLY;
  gst_hipf_filter_set_passthrough (GST_HIPF_FILTER (self), TRUE);
}
