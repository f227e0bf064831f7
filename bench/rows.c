/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The benchmark's table: its rows, and helpers every kind of row uses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

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
gint bench_runs = 50;

void
bench_rows_init (void)
{
  rows = g_array_new (FALSE, FALSE, sizeof (Row));
}

void
bench_rows_free (void)
{
  g_array_free (rows, TRUE);
}

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

gdouble
bench_median (gdouble * v, gint n)
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

void
bench_print_table (FILE * out, gboolean csv)
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
