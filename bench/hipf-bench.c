/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Benchmark: kernel times on device-resident frames next to a device copy
 * of the same frame, element throughput through real pipelines next to
 * the time the same frame's copies over the PCIe link take, and the CPU
 * reference on the same frames. Prints one table and writes it as CSV.
 *
 *   hipf-bench [--quick] [--kernels-only | --elements-only] [--csv FILE] [--runs N]
 *
 * --quick runs the CPU rows only, on small frames, so CI keeps it working
 * without a GPU. The latency rows feed frames at a live source's pace and
 * give the median time a frame spends in the element (not what a sink that
 * syncs adds: it renders at the latency the pipeline reports); their copy
 * column holds the interval between frames, so that the ratio is the
 * latency in frames.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include "hipf-kernels.h"
#include "gsthipvideo.h"
#include "reference.h"
#include "bench.h"

#define ROTATION 4              /* input frames cycled so L2 cannot flatter */

typedef struct
{
  const gchar *what;
  const gchar *format;
  gint width, height;
  const gchar *params;
  gdouble time_us;              /* median; <0 when not measured */
  /* Device copy of the same frame; for element rows, the frame's copies
   * over the link that the element makes; or 0. */
  gdouble copy_us;
  gdouble fps;                  /* element and link rows */
} Row;

static GArray *rows;
static gint n_runs = 50;

void
add_row (const gchar * what, GstVideoFormat format, gint w, gint h,
    const gchar * params, gdouble time_us, gdouble copy_us, gdouble fps)
{
  Row r = { what, gst_video_format_to_string (format), w, h,
    g_intern_string (params), time_us, copy_us, fps
  };
  g_array_append_val (rows, r);
  g_printerr ("  %-10s %-6s %4dx%-4d %-34s", what, r.format, w, h, params);
  if (fps > 0)
    g_printerr (" %9.1f frames/s", fps);
  else
    g_printerr (" %9.1f us", time_us);
  if (time_us > 0 && copy_us > 0)
    g_printerr ("  (%.2fx copy)", time_us / copy_us);
  g_printerr ("\n");
}

static int
cmp_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

static gdouble
median (gdouble * v, gint n)
{
  qsort (v, n, sizeof (gdouble), cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void
fill_random (guint8 * data, gsize size, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  gsize i;

  for (i = 0; i + 4 <= size; i += 4) {
    guint32 v = g_rand_int (rand);
    memcpy (data + i, &v, 4);
  }
  for (; i < size; i++)
    data[i] = g_rand_int (rand);
  g_rand_free (rand);
}

/* ---- device-only rows ---------------------------------------------------- */

#define CHECK(call) G_STMT_START {                                        \
  hipError_t _e = (call);                                                 \
  if (_e != hipSuccess) {                                                 \
    g_printerr ("%s failed: %s\n", #call, hipGetErrorString (_e));       \
    exit (1);                                                             \
  }                                                                       \
} G_STMT_END

typedef struct
{
  GstVideoInfo info;
  GstHipVideoLayout layout;
  guint8 *src[ROTATION], *dst;
  void *scratch;
  guint32 *counts;
  gint counts_half;             /* the half the next histogram adds into */
  hipStream_t stream;
} DevFrame;

/* The copy every kernel row is set against: the frame's bytes, rounded up
 * to whole 4 KB (COPY_GRANULE). The runtime copies a size with a tail past
 * such a multiple more slowly (H100: 3840x2160 RGBA 26.4 us, 29.7 with 64
 * bytes more; NV12's 12,441,600 bytes 13.7 us, 10.5 rounded up), which
 * would flatter every ratio against it. */
#define COPY_GRANULE 4096

static gsize
copy_bytes (const DevFrame * f)
{
  return GST_ROUND_UP_N (f->layout.size - GST_HIP_VIDEO_SLACK, COPY_GRANULE);
}

static void
dev_frame_init (DevFrame * f, GstVideoFormat format, gint w, gint h,
    const HipfDeviceLimits * limits, gboolean constant)
{
  guint8 *host;
  guint p, i;
  gsize scratch = 0, alloc;

  memset (f, 0, sizeof (*f));
  gst_video_info_set_format (&f->info, format, w, h);
  gst_hip_video_layout_init (&f->layout, &f->info);
  for (p = 0; p < f->layout.n_planes; p++) {
    const GstHipPlane *pl = &f->layout.planes[p];
    HipfBoxBlurPlane bp = { pl->width, pl->height, pl->channels, 0, 0,
      HIPF_BORDER_ZERO
    };
    scratch = MAX (scratch, hipf_box_blur_scratch_size (limits, &bp));
  }
  /* Room for the copy's rounded-up bytes too. */
  alloc = MAX (f->layout.size, copy_bytes (f));
  host = g_malloc (f->layout.size);
  CHECK (hipStreamCreateWithFlags (&f->stream, hipStreamNonBlocking));
  for (i = 0; i < ROTATION; i++) {
    CHECK (hipMalloc ((void **) &f->src[i], alloc));
    if (constant)
      memset (host, 97, f->layout.size);
    else
      fill_random (host, f->layout.size, 1234 + i);
    CHECK (hipMemcpyAsync (f->src[i], host, f->layout.size,
            hipMemcpyHostToDevice, f->stream));
    CHECK (hipStreamSynchronize (f->stream));
  }
  CHECK (hipMalloc ((void **) &f->dst, alloc));
  CHECK (hipMalloc (&f->scratch, scratch));
  CHECK (hipMalloc ((void **) &f->counts,
          hipf_histogram_buffer_size ()));
  CHECK (hipMemsetAsync (f->counts, 0,
          hipf_histogram_buffer_size (), f->stream));
  g_free (host);
}

static void
dev_frame_clear (DevFrame * f)
{
  guint i;

  for (i = 0; i < ROTATION; i++)
    hipFree (f->src[i]);
  hipFree (f->dst);
  hipFree (f->scratch);
  hipFree (f->counts);
  hipStreamDestroy (f->stream);
}

typedef struct
{
  const HipfDeviceLimits *limits;
  gint radius_x, radius_y;
  HipfBorderMode border;
  HipfHistogramFrame hist;
  HipfBoxBlurPlan *plans[GST_VIDEO_MAX_PLANES];  /* made by time_blur */
} OpArgs;

typedef void (*DevOp) (DevFrame * f, const guint8 * src, const OpArgs * a);

/* Device copies enqueued ahead of the timed runs: the host then enqueues
 * the runs while the device is still busy, so no run waits for the host
 * and the events time the device work alone. */
#define HEAD_START_COPIES 64

static void op_copy (DevFrame * f, const guint8 * src, const OpArgs * a);

static gdouble
time_op (DevFrame * f, DevOp op, const OpArgs * a)
{
  gdouble *t = g_new (gdouble, n_runs);
  hipEvent_t *ev = g_new (hipEvent_t, 2 * n_runs);
  gdouble m;
  gint i;

  for (i = 0; i < 2 * n_runs; i++)
    CHECK (hipEventCreateWithFlags (&ev[i], hipEventDefault));
  for (i = 0; i < 3; i++)
    op (f, f->src[i % ROTATION], a);
  for (i = 0; i < HEAD_START_COPIES; i++)
    op_copy (f, f->src[i % ROTATION], a);
  for (i = 0; i < n_runs; i++) {
    CHECK (hipEventRecord (ev[2 * i], f->stream));
    op (f, f->src[i % ROTATION], a);
    CHECK (hipEventRecord (ev[2 * i + 1], f->stream));
  }
  CHECK (hipStreamSynchronize (f->stream));
  for (i = 0; i < n_runs; i++) {
    gfloat ms;

    CHECK (hipEventElapsedTime (&ms, ev[2 * i], ev[2 * i + 1]));
    t[i] = ms * 1000.0;
  }
  for (i = 0; i < 2 * n_runs; i++)
    CHECK (hipEventDestroy (ev[i]));
  m = median (t, n_runs);
  g_free (ev);
  g_free (t);
  return m;
}

static void
op_copy (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  CHECK (hipMemcpyAsync (f->dst, src, copy_bytes (f), hipMemcpyDeviceToDevice,
          f->stream));
}

static void
op_blur (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  guint p;

  for (p = 0; p < f->layout.n_planes; p++) {
    const GstHipPlane *pl = &f->layout.planes[p];

    CHECK (hipf_box_blur_run (a->plans[p], src + pl->offset, pl->pitch,
            f->dst + pl->offset, pl->pitch, f->scratch, f->stream));
  }
}

/* The frame's blur at @a's radii, planned once as the elements plan it,
 * then timed. */
static gdouble
time_blur (DevFrame * f, OpArgs * a)
{
  gdouble t;
  guint p;

  for (p = 0; p < f->layout.n_planes; p++) {
    const GstHipPlane *pl = &f->layout.planes[p];
    HipfBoxBlurPlane bp = { pl->width, pl->height, pl->channels,
      (a->radius_x + (1 << pl->w_sub) - 1) >> pl->w_sub,
      (a->radius_y + (1 << pl->h_sub) - 1) >> pl->h_sub, a->border, p > 0
    };

    CHECK (hipf_box_blur_plan_new (a->limits, &bp, &a->plans[p]));
  }
  t = time_op (f, op_blur, a);
  for (p = 0; p < f->layout.n_planes; p++) {
    hipf_box_blur_plan_free (a->plans[p]);
    a->plans[p] = NULL;
  }
  return t;
}

static void
op_histogram (DevFrame * f, const guint8 * src, const OpArgs * a)
{
  CHECK (hipf_histogram (a->limits, &a->hist, src, f->counts, f->counts_half,
          f->stream));
  f->counts_half = !f->counts_half;
}

static const gchar *border_nicks[] = { "zero", "clamp", "mirror", "wrap",
  "valid"
};

static void
bench_device (GstVideoFormat format, gint w, gint h, gboolean all_modes,
    const HipfDeviceLimits * limits)
{
  static const gint radii[] = { 1, 6, 50, 200 };
  DevFrame f;
  OpArgs a = { limits };
  const gchar *names[HIPF_HISTOGRAM_MAX_CHANNELS];
  guint luma, r, m, p;
  gdouble copy;
  gint constant;

  for (constant = 0; constant < 2; constant++) {
    dev_frame_init (&f, format, w, h, limits, constant);
    copy = time_op (&f, op_copy, &a);
    if (!constant)
      add_row ("copy", format, w, h, "device to device", copy, 0, 0);
    gst_hip_video_histogram_init (&a.hist, names, &luma, &f.info, &f.layout);
    for (p = 0; p < (guint) a.hist.n_planes; p++) {
      a.hist.planes[p].roi_width = a.hist.planes[p].width;
      a.hist.planes[p].roi_height = a.hist.planes[p].height;
    }
    add_row ("histogram", format, w, h, constant ? "constant frame" :
        "random frame", time_op (&f, op_histogram, &a), copy, 0);
    if (!constant) {
      for (r = 0; r < G_N_ELEMENTS (radii); r++)
        for (m = 0; m < G_N_ELEMENTS (border_nicks); m++) {
          gchar *params;

          if (!all_modes && m != HIPF_BORDER_MIRROR)
            continue;
          a.radius_x = a.radius_y = radii[r];
          a.border = m;
          params = g_strdup_printf ("radius %d %s", radii[r], border_nicks[m]);
          add_row ("blur", format, w, h, params, time_blur (&f, &a), copy,
              0);
          g_free (params);
        }
    }
    dev_frame_clear (&f);
  }
}

gdouble
bench_kernel_us (GstVideoFormat format, gint w, gint h, gint radius,
    const HipfDeviceLimits * limits)
{
  DevFrame f;
  OpArgs a = { limits, radius, radius, HIPF_BORDER_MIRROR };
  const gchar *names[HIPF_HISTOGRAM_MAX_CHANNELS];
  guint luma, p;
  gdouble t;

  dev_frame_init (&f, format, w, h, limits, FALSE);
  if (radius >= 0) {
    t = time_blur (&f, &a);
  } else {
    gst_hip_video_histogram_init (&a.hist, names, &luma, &f.info, &f.layout);
    for (p = 0; p < (guint) a.hist.n_planes; p++) {
      a.hist.planes[p].roi_width = a.hist.planes[p].width;
      a.hist.planes[p].roi_height = a.hist.planes[p].height;
    }
    t = time_op (&f, op_histogram, &a);
  }
  dev_frame_clear (&f);
  return t;
}

/* Blur rows with the horizontal and the vertical radius apart (mirror
 * border), each next to the frame's copy: what each direction of a
 * radius costs. */
static void
bench_split_radii (GstVideoFormat format, gint w, gint h,
    const HipfDeviceLimits * limits)
{
  static const gint split[][2] = { {6, 1}, {1, 6} };
  DevFrame f;
  OpArgs a = { limits };
  gdouble copy;
  guint i;

  dev_frame_init (&f, format, w, h, limits, FALSE);
  copy = time_op (&f, op_copy, &a);
  a.border = HIPF_BORDER_MIRROR;
  for (i = 0; i < G_N_ELEMENTS (split); i++) {
    gchar *params = g_strdup_printf ("radius %d,%d mirror", split[i][0],
        split[i][1]);

    a.radius_x = split[i][0];
    a.radius_y = split[i][1];
    add_row ("blur", format, w, h, params, time_blur (&f, &a), copy, 0);
    g_free (params);
  }
  dev_frame_clear (&f);
}

/* ---- PCIe link rows ------------------------------------------------------- */

/* Frames a timed batch of link copies moves, and the batches whose median
 * is reported. */
#define LINK_FRAMES 16
#define LINK_BATCHES 5

typedef enum
{
  LINK_UP,                      /* host to device */
  LINK_BOTH,                    /* and device to host at once, two streams */
} LinkDirection;

static const gchar *link_names[] = { "host to device", "both ways at once" };

/* Time a frame of @size takes over the link, per frame, from host memory
 * that is pinned or pageable (the element's output pool is pinned, so
 * downloads always land in pinned memory): what an element that moves
 * frames that way can reach at best, measured in the same run. */
static gdouble
time_link (gsize size, gboolean pinned, LinkDirection dir)
{
  guint8 *in[ROTATION], *out[ROTATION], *dev[2 * ROTATION];
  hipStream_t up, down;
  hipEvent_t start, stop, down_done;
  gdouble t[LINK_BATCHES];
  gint b, i;

  for (i = 0; i < ROTATION; i++) {
    if (pinned)
      CHECK (hipHostMalloc ((void **) &in[i], size, hipHostMallocDefault));
    else
      in[i] = g_malloc (size);
    fill_random (in[i], size, 5 + i);
    CHECK (hipHostMalloc ((void **) &out[i], size, hipHostMallocDefault));
  }
  for (i = 0; i < 2 * ROTATION; i++)
    CHECK (hipMalloc ((void **) &dev[i], size));
  CHECK (hipStreamCreateWithFlags (&up, hipStreamNonBlocking));
  CHECK (hipStreamCreateWithFlags (&down, hipStreamNonBlocking));
  CHECK (hipEventCreateWithFlags (&start, hipEventDefault));
  CHECK (hipEventCreateWithFlags (&stop, hipEventDefault));
  CHECK (hipEventCreateWithFlags (&down_done, hipEventDisableTiming));

  /* Batch -1 warms the link up and is not timed. */
  for (b = -1; b < LINK_BATCHES; b++) {
    gfloat ms;

    CHECK (hipEventRecord (start, up));
    CHECK (hipStreamWaitEvent (down, start, 0));
    for (i = 0; i < LINK_FRAMES; i++) {
      CHECK (hipMemcpyAsync (dev[i % ROTATION], in[i % ROTATION], size,
              hipMemcpyHostToDevice, up));
      if (dir == LINK_BOTH)
        CHECK (hipMemcpyAsync (out[i % ROTATION],
                dev[ROTATION + i % ROTATION], size, hipMemcpyDeviceToHost,
                down));
    }
    CHECK (hipEventRecord (down_done, down));
    CHECK (hipStreamWaitEvent (up, down_done, 0));
    CHECK (hipEventRecord (stop, up));
    CHECK (hipEventSynchronize (stop));
    CHECK (hipEventElapsedTime (&ms, start, stop));
    if (b >= 0)
      t[b] = ms * 1000.0 / LINK_FRAMES;
  }

  hipEventDestroy (start);
  hipEventDestroy (stop);
  hipEventDestroy (down_done);
  hipStreamDestroy (up);
  hipStreamDestroy (down);
  for (i = 0; i < 2 * ROTATION; i++)
    hipFree (dev[i]);
  for (i = 0; i < ROTATION; i++) {
    if (pinned)
      hipHostFree (in[i]);
    else
      g_free (in[i]);
    hipHostFree (out[i]);
  }
  return median (t, LINK_BATCHES);
}

/* ---- element rows --------------------------------------------------------- */

static void
free_pinned (gpointer data)
{
  hipHostFree (data);
}

/* An error stops the pipeline's streaming thread, and a push into a full
 * appsrc would then wait for ever: flushing the source lets it return. */
static GstBusSyncReply
unblock_on_error (GstBus * bus, GstMessage * msg, gpointer src)
{
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_element_send_event (GST_ELEMENT (src), gst_event_new_flush_start ());
  return GST_BUS_PASS;
}


/* When each frame entered and left the element, by its index. */
typedef struct
{
  gint rate;
  gint64 *t;
  gint frames;
} PassTimes;

static GstPadProbeReturn
note_pass (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  PassTimes *p = data;
  GstClockTime pts = GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info));
  guint64 i;

  if (!GST_CLOCK_TIME_IS_VALID (pts))
    return GST_PAD_PROBE_OK;
  i = gst_util_uint64_scale_round (pts, p->rate, GST_SECOND);
  if (i < (guint64) p->frames)
    p->t[i] = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

/* Runs @frames frames through @element and returns its frames/s. With
 * @pace, frames enter at that many a second, as from a live source, and
 * @latency_us gets the median time from a frame entering the element to
 * its leaving it. */
static gdouble
bench_element (const gchar * element, GstVideoFormat format, gint w, gint h,
    gboolean pinned, gint frames, gint pace, gdouble * latency_us)
{
  const gint rate = pace > 0 ? pace : 30;
  GstVideoInfo info;
  GstBuffer *pool[ROTATION];
  GstElement *pipeline, *src, *under_test;
  PassTimes in = { rate, g_new0 (gint64, frames), frames };
  PassTimes out = { rate, g_new0 (gint64, frames), frames };
  GstBus *bus;
  GstMessage *msg;
  GError *error = NULL;
  gchar *desc;
  gint64 t0, t1;
  gint i;

  desc = g_strdup_printf ("appsrc name=src format=time is-live=false "
      "max-buffers=8 block=true ! %s name=under_test ! video/x-raw ! "
      "fakesink sync=false",
      element);
  pipeline = gst_parse_launch_full (desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &error);
  g_free (desc);
  if (pipeline == NULL) {
    g_printerr ("%s: %s\n", element, error->message);
    g_error_free (error);
    g_free (in.t);
    g_free (out.t);
    return 0;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  under_test = gst_bin_get_by_name (GST_BIN (pipeline), "under_test");
  if (pace > 0) {
    GstPad *sink = gst_element_get_static_pad (under_test, "sink");
    GstPad *srcpad = gst_element_get_static_pad (under_test, "src");

    gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER, note_pass, &in, NULL);
    gst_pad_add_probe (srcpad, GST_PAD_PROBE_TYPE_BUFFER, note_pass, &out,
        NULL);
    gst_object_unref (sink);
    gst_object_unref (srcpad);
  }
  bus = gst_element_get_bus (pipeline);
  gst_bus_set_sync_handler (bus, unblock_on_error, src, NULL);

  gst_video_info_set_format (&info, format, w, h);
  info.fps_n = rate;
  info.fps_d = 1;
  for (i = 0; i < ROTATION; i++) {
    guint8 *data;

    if (pinned) {
      CHECK (hipHostMalloc ((void **) &data, info.size, hipHostMallocDefault));
      pool[i] = gst_buffer_new_wrapped_full (0, data, info.size, 0, info.size,
          data, free_pinned);
    } else {
      data = g_malloc (info.size);
      pool[i] = gst_buffer_new_wrapped (data, info.size);
    }
    fill_random (data, info.size, 99 + i);
  }

  {
    GstCaps *caps = gst_video_info_to_caps (&info);
    g_object_set (src, "caps", caps, NULL);
    gst_caps_unref (caps);
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  t0 = 0;
  for (i = 0; i < frames; i++) {
    GstBuffer *buf = gst_buffer_copy (pool[i % ROTATION]);      /* shares memory */

    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, rate);
    GST_BUFFER_DURATION (buf) = GST_SECOND / rate;
    if (i == WARM_UP)
      t0 = g_get_monotonic_time ();
    if (pace > 0 && i > WARM_UP) {
      gint64 due = t0 + gst_util_uint64_scale (i - WARM_UP, G_USEC_PER_SEC,
          pace);
      gint64 now = g_get_monotonic_time ();

      if (due > now)
        g_usleep (due - now);
    }
    if (gst_app_src_push_buffer (GST_APP_SRC (src), buf) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  t1 = g_get_monotonic_time ();
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err;
    gst_message_parse_error (msg, &err, NULL);
    g_printerr ("%s: %s\n", element, err->message);
    g_error_free (err);
    t1 = t0;
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (under_test);
  gst_object_unref (pipeline);
  for (i = 0; i < ROTATION; i++)
    gst_buffer_unref (pool[i]);
  if (pace > 0) {
    gdouble *lat = g_new (gdouble, frames);
    gint n = 0;

    for (i = WARM_UP; i < frames; i++)
      if (in.t[i] && out.t[i])
        lat[n++] = out.t[i] - in.t[i];
    *latency_us = n == frames - WARM_UP ? median (lat, n) : 0;
    if (n < frames - WARM_UP)
      g_printerr ("%s: %d of %d frames did not pass\n", element,
          frames - WARM_UP - n, frames - WARM_UP);
    g_free (lat);
  }
  g_free (in.t);
  g_free (out.t);
  return t1 > t0 ? (frames - WARM_UP) * 1e6 / (t1 - t0) : 0;
}

/* ---- CPU reference rows ----------------------------------------------------- */

static void
bench_cpu (GstVideoFormat format, gint w, gint h, gint radius)
{
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstVideoFrame fi, fo;
  RefHistogram *hist = g_new (RefHistogram, 1);
  gchar *params;
  gint64 t0, t1, t2;

  gst_video_info_set_format (&info, format, w, h);
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_video_frame_map (&fi, &info, in, GST_MAP_READWRITE);
  gst_video_frame_map (&fo, &info, out, GST_MAP_WRITE);
  fill_random (GST_VIDEO_FRAME_PLANE_DATA (&fi, 0), info.size, 7);
  t0 = g_get_monotonic_time ();
  ref_box_blur_frame (&fi, &fo, radius, radius, REF_BORDER_MIRROR);
  t1 = g_get_monotonic_time ();
  ref_histogram_frame (&fi, 0, 0, 0, 0, hist);
  t2 = g_get_monotonic_time ();
  params = g_strdup_printf ("cpu reference, radius %d mirror", radius);
  add_row ("blur", format, w, h, params, (gdouble) (t1 - t0), 0, 0);
  add_row ("histogram", format, w, h, "cpu reference", (gdouble) (t2 - t1), 0,
      0);
  g_free (params);
  gst_video_frame_unmap (&fi);
  gst_video_frame_unmap (&fo);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  g_free (hist);
}

/* ---- report --------------------------------------------------------------- */

static void
print_table (FILE * out, gboolean csv)
{
  guint i;

  if (csv)
    fprintf (out, "what,format,width,height,params,time_us,copy_us,ratio,fps\n");
  else
    printf ("%-10s %-6s %-9s %-34s %11s %9s %7s %10s\n", "what", "format",
        "size", "params", "time (us)", "copy (us)", "ratio", "frames/s");
  for (i = 0; i < rows->len; i++) {
    Row *r = &g_array_index (rows, Row, i);
    gdouble ratio = r->copy_us > 0 ? r->time_us / r->copy_us : 0;

    if (csv)
      fprintf (out, "%s,%s,%d,%d,\"%s\",%.2f,%.2f,%.3f,%.1f\n", r->what,
          r->format, r->width, r->height, r->params, r->time_us, r->copy_us,
          ratio, r->fps);
    else {
      gchar size[32], time[16] = "", copy[16] = "", rat[16] = "", fps[16] = "";

      g_snprintf (size, sizeof (size), "%dx%d", r->width, r->height);
      if (r->time_us > 0)
        g_snprintf (time, sizeof (time), "%.1f", r->time_us);
      if (r->copy_us > 0)
        g_snprintf (copy, sizeof (copy), "%.1f", r->copy_us);
      if (ratio > 0)
        g_snprintf (rat, sizeof (rat), "%.2fx", ratio);
      if (r->fps > 0)
        g_snprintf (fps, sizeof (fps), "%.1f", r->fps);
      printf ("%-10s %-6s %-9s %-34s %11s %9s %7s %10s\n", r->what, r->format,
          size, r->params, time, copy, rat, fps);
    }
  }
}

int
main (int argc, char **argv)
{
  gboolean quick = FALSE, kernels_only = FALSE, elements_only = FALSE;
  gboolean resident_only = FALSE;
  gboolean split_radii = FALSE;
  gchar *csv = NULL;
  GOptionEntry entries[] = {
    {"quick", 'q', 0, G_OPTION_ARG_NONE, &quick,
        "CPU rows only, small frames (no GPU needed)", NULL},
    {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, "Write the table as CSV",
        "FILE"},
    {"runs", 0, 0, G_OPTION_ARG_INT, &n_runs, "Timed runs per row (median)",
        "N"},
    {"kernels-only", 'k', 0, G_OPTION_ARG_NONE, &kernels_only,
        "Device kernel rows only (no pipelines, no CPU reference)", NULL},
    {"resident-only", 'r', 0, G_OPTION_ARG_NONE, &resident_only,
        "Rows of frames that stay on the device between elements only",
        NULL},
    {"elements-only", 'e', 0, G_OPTION_ARG_NONE, &elements_only,
        "Element rows only, each after its link row (no kernel or CPU rows)",
        NULL},
    {"split-radii", 0, 0, G_OPTION_ARG_NONE, &split_radii,
        "Also blur rows with radius 6,1 and 1,6 (GRAY8, RGB, RGBA)", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- gst-hip-filters benchmark");
  GError *err = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  rows = g_array_new (FALSE, FALSE, sizeof (Row));

  if (quick) {
    g_printerr ("quick mode: CPU reference rows only\n");
    bench_cpu (GST_VIDEO_FORMAT_RGBA, 320, 180, 6);
    bench_cpu (GST_VIDEO_FORMAT_NV12, 320, 180, 6);
  } else {
    HipfDeviceLimits limits;
    int device = 0;
    static const gint frames = 400;
    /* Pageable and pinned input, one and several frames in flight. */
    static const struct
    {
      const gchar *name, *element, *params;
      GstVideoFormat format;
      gint width, height;
      gboolean pinned;
      LinkDirection link;       /* the copies the element makes a frame */
    } pipelines[] = {
      {"hipboxblur", "hipboxblur radius=6", "pageable in",
          GST_VIDEO_FORMAT_RGBA, 3840, 2160, FALSE, LINK_BOTH},
      {"hipboxblur", "hipboxblur radius=6", "pinned in",
          GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE, LINK_BOTH},
      {"hipboxblur", "hipboxblur radius=6 frames-in-flight=4",
          "pageable in, 4 in flight", GST_VIDEO_FORMAT_RGBA, 3840, 2160, FALSE,
          LINK_BOTH},
      {"hipboxblur", "hipboxblur radius=6 frames-in-flight=4",
          "pinned in, 4 in flight", GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE,
          LINK_BOTH},
      /* Large radii: the band kernels, and slices that blur more rows
       * again around them. */
      {"hipboxblur", "hipboxblur radius=50", "pinned in, radius 50",
          GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE, LINK_BOTH},
      {"hipboxblur", "hipboxblur radius=50 frames-in-flight=4",
          "pinned in, 4 in flight, radius 50", GST_VIDEO_FORMAT_RGBA, 3840,
          2160, TRUE, LINK_BOTH},
      {"hipboxblur", "hipboxblur radius=200", "pinned in, radius 200",
          GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE, LINK_BOTH},
      {"hipboxblur", "hipboxblur radius=200 frames-in-flight=4",
          "pinned in, 4 in flight, radius 200", GST_VIDEO_FORMAT_RGBA, 3840,
          2160, TRUE, LINK_BOTH},
      /* Whole frames, against the slices one frame in flight takes. */
      {"hipboxblur", "hipboxblur radius=6 slices=1",
          "pinned in, whole frames", GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE,
          LINK_BOTH},
      {"hiphist", "hiphistogram", "pageable in",
          GST_VIDEO_FORMAT_RGBA, 3840, 2160, FALSE, LINK_UP},
      {"hiphist", "hiphistogram", "pinned in",
          GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE, LINK_UP},
      {"hiphist", "hiphistogram frames-in-flight=4",
          "pageable in, 4 in flight", GST_VIDEO_FORMAT_RGBA, 3840, 2160, FALSE,
          LINK_UP},
      {"hiphist", "hiphistogram frames-in-flight=4",
          "pinned in, 4 in flight", GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE,
          LINK_UP},
      /* Smaller frames, where each frame's own costs weigh more against
       * the link than at 4K. */
      {"hipboxblur", "hipboxblur radius=6", "pinned in",
          GST_VIDEO_FORMAT_NV12, 1920, 1080, TRUE, LINK_BOTH},
      {"hipboxblur", "hipboxblur radius=6 frames-in-flight=4",
          "pinned in, 4 in flight", GST_VIDEO_FORMAT_NV12, 1920, 1080, TRUE,
          LINK_BOTH},
      {"hipboxblur", "hipboxblur radius=6", "pinned in",
          GST_VIDEO_FORMAT_RGBA, 1920, 1080, TRUE, LINK_BOTH},
      {"hipboxblur", "hipboxblur radius=6 frames-in-flight=4",
          "pinned in, 4 in flight", GST_VIDEO_FORMAT_RGBA, 1920, 1080, TRUE,
          LINK_BOTH},
    };
    /* Frames at a live pace: how long each stays in the element. */
    static const struct
    {
      const gchar *name, *element, *params;
    } paced[] = {
      {"hipboxblur", "hipboxblur radius=6", "60/s in, pinned, latency"},
      {"hipboxblur", "hipboxblur radius=6 frames-in-flight=4",
          "60/s in, pinned, 4 in flight, latency"},
      {"hiphist", "hiphistogram frames-in-flight=4",
          "60/s in, pinned, 4 in flight, latency"},
    };
    static const gint pace = 60, paced_frames = WARM_UP + 60;
    guint i;

    CHECK (hipSetDevice (device));
    CHECK (hipf_device_limits_query (device, &limits));
    if (resident_only) {
      bench_resident (&limits);
      goto table;
    }
    if (elements_only)
      goto elements;
    g_printerr ("device kernels (median of %d runs, %d frames rotated):\n",
        n_runs, ROTATION);
    bench_device (GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE, &limits);
    bench_device (GST_VIDEO_FORMAT_GRAY8, 3840, 2160, FALSE, &limits);
    bench_device (GST_VIDEO_FORMAT_NV12, 3840, 2160, FALSE, &limits);
    bench_device (GST_VIDEO_FORMAT_RGB, 3840, 2160, FALSE, &limits);
    bench_device (GST_VIDEO_FORMAT_RGBA, 1920, 1080, FALSE, &limits);
    if (split_radii) {
      bench_split_radii (GST_VIDEO_FORMAT_GRAY8, 3840, 2160, &limits);
      bench_split_radii (GST_VIDEO_FORMAT_RGB, 3840, 2160, &limits);
      bench_split_radii (GST_VIDEO_FORMAT_RGBA, 3840, 2160, &limits);
    }
    if (kernels_only)
      goto table;

  elements:

    /* Each element row is a ratio to the copies that element makes a
     * frame over the link, timed just before it: the link's rate moves
     * within a run (both ways at once, 660 to 900 us a 4K RGBA frame). */
    g_printerr ("elements (%d frames through appsrc ! element ! fakesink), "
        "each after the link (median of %d batches of %d frames):\n", frames,
        LINK_BATCHES, LINK_FRAMES);
    for (i = 0; i < G_N_ELEMENTS (pipelines); i++) {
      GstVideoInfo info;
      gchar *params;
      gdouble link, fps;

      gst_video_info_set_format (&info, pipelines[i].format,
          pipelines[i].width, pipelines[i].height);
      link = time_link (info.size, pipelines[i].pinned, pipelines[i].link);
      params = g_strdup_printf ("%s, %s in", link_names[pipelines[i].link],
          pipelines[i].pinned ? "pinned" : "pageable");
      add_row ("link", pipelines[i].format, pipelines[i].width,
          pipelines[i].height, params, link, 0, 1e6 / link);
      g_free (params);
      fps = bench_element (pipelines[i].element, pipelines[i].format,
          pipelines[i].width, pipelines[i].height, pipelines[i].pinned,
          frames, 0, NULL);
      add_row (pipelines[i].name, pipelines[i].format, pipelines[i].width,
          pipelines[i].height, pipelines[i].params, fps > 0 ? 1e6 / fps : 0,
          link, fps);
    }
    for (i = 0; i < G_N_ELEMENTS (paced); i++) {
      gdouble latency = 0;

      bench_element (paced[i].element, GST_VIDEO_FORMAT_RGBA, 3840, 2160,
          TRUE, paced_frames, pace, &latency);
      add_row (paced[i].name, GST_VIDEO_FORMAT_RGBA, 3840, 2160,
          paced[i].params, latency, 1e6 / pace, 0);
    }
    bench_resident (&limits);
    if (!elements_only) {
      g_printerr ("cpu reference:\n");
      bench_cpu (GST_VIDEO_FORMAT_RGBA, 3840, 2160, 6);
    }
  }

table:
  print_table (stdout, FALSE);
  if (csv) {
    FILE *f = fopen (csv, "w");
    if (!f) {
      g_printerr ("cannot write %s\n", csv);
      return 1;
    }
    print_table (f, TRUE);
    fclose (f);
  }
  g_array_free (rows, TRUE);
  return 0;
}
