/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Benchmark: kernel times on device-resident frames next to a device copy
 * of the same frame, element throughput through real pipelines next to
 * the time the same frame's copies over the PCIe link take, and the CPU
 * reference on the same frames. Prints one table and writes it as CSV.
 *
 *   hipf-bench [--quick] [--kernels-only | --elements-only | --resident-only]
 *       [--split-radii] [--csv FILE] [--runs N]
 *
 * --quick runs the CPU rows only, on small frames, so CI keeps it working
 * without a GPU. The latency rows feed frames at a live source's pace and
 * give the median time a frame spends in the element (not what a sink that
 * syncs adds: it renders at the latency the pipeline reports); their copy
 * column holds the interval between frames, so that the ratio is the
 * latency in frames.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

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
    {"runs", 0, 0, G_OPTION_ARG_INT, &bench_runs, "Timed runs per row (median)",
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
  bench_rows_init ();

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
      /* Sobel (on the tensor cores where the device has them) and the
       * 15-tap Gaussian preset (its taps' products take two bytes: the
       * separable passes). */
      {"hipconvolve", "hipconvolve preset=sobel-x offset=128 "
            "frames-in-flight=4", "pinned in, 4 in flight, sobel-x",
          GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE, LINK_BOTH},
      {"hipconvolve", "hipconvolve preset=gaussian sigma=2.3 "
            "frames-in-flight=4", "pinned in, 4 in flight, 15-tap gaussian",
          GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE, LINK_BOTH},
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
      /* A USB camera's format, unpacked and packed on the device. */
      {"hipboxblur", "hipboxblur radius=6 frames-in-flight=4",
          "pinned in, 4 in flight", GST_VIDEO_FORMAT_YUY2, 3840, 2160, TRUE,
          LINK_BOTH},
      {"hiphist", "hiphistogram frames-in-flight=4",
          "pinned in, 4 in flight", GST_VIDEO_FORMAT_YUY2, 3840, 2160, TRUE,
          LINK_UP},
      /* 10-bit video as NVDEC decodes it. */
      {"hipboxblur", "hipboxblur radius=6 frames-in-flight=4",
          "pinned in, 4 in flight", GST_VIDEO_FORMAT_P010_10LE, 3840, 2160,
          TRUE, LINK_BOTH},
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
        bench_runs, ROTATION);
    bench_device (GST_VIDEO_FORMAT_RGBA, 3840, 2160, TRUE, &limits);
    bench_device (GST_VIDEO_FORMAT_GRAY8, 3840, 2160, FALSE, &limits);
    bench_device (GST_VIDEO_FORMAT_NV12, 3840, 2160, FALSE, &limits);
    bench_device (GST_VIDEO_FORMAT_RGB, 3840, 2160, FALSE, &limits);
    bench_device (GST_VIDEO_FORMAT_YUY2, 3840, 2160, FALSE, &limits);
    bench_device (GST_VIDEO_FORMAT_P010_10LE, 3840, 2160, FALSE, &limits);
    bench_device (GST_VIDEO_FORMAT_RGBA, 1920, 1080, FALSE, &limits);
    bench_convolve (GST_VIDEO_FORMAT_RGBA, 3840, 2160, &limits);
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
  bench_print_table (stdout, FALSE);
  if (csv) {
    FILE *f = fopen (csv, "w");
    if (!f) {
      g_printerr ("cannot write %s\n", csv);
      return 1;
    }
    bench_print_table (f, TRUE);
    fclose (f);
  }
  bench_rows_free ();
  return 0;
}
