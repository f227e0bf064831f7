/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * hipconvolve's masks: text in and out, the presets, and the factoring of
 * 2D masks that are an outer product into a row and a column.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gsthipconvmask.h"

/* Integers of @text separated by spaces, tabs or commas, at most @max of
 * them, into @out; -1 on a malformed or out-of-range one (or more than
 * @max), with *@why set. */
static gint
parse_integers (const gchar * text, gint * out, gint max, gchar ** why)
{
  const gchar *p = text;
  gint n = 0;

  while (TRUE) {
    gchar *end;
    gint64 v;

    while (*p == ' ' || *p == '\t' || *p == ',')
      p++;
    if (*p == '\0')
      return n;
    v = g_ascii_strtoll (p, &end, 10);
    if (end == p) {
      *why = g_strdup_printf ("'%.16s' is not an integer", p);
      return -1;
    }
    if (v < -HIPF_CONVOLVE_MAX_WEIGHT || v > HIPF_CONVOLVE_MAX_WEIGHT) {
      *why = g_strdup_printf ("tap %" G_GINT64_FORMAT " is out of range", v);
      return -1;
    }
    if (n == max) {
      *why = g_strdup_printf ("more than %d taps", max);
      return -1;
    }
    out[n++] = (gint) v;
    p = end;
    if (*p != '\0' && *p != ' ' && *p != '\t' && *p != ',') {
      *why = g_strdup_printf ("'%.16s' is not an integer", p);
      return -1;
    }
  }
}

static gint64
weight (const gint * taps, gint n)
{
  gint64 w = 0;
  gint i;

  for (i = 0; i < n; i++)
    w += ABS ((gint64) taps[i]);
  return w;
}

gboolean
gst_hip_conv_mask_parse (const gchar * text, HipfConvolveMask * mask,
    gchar ** why)
{
  gchar **rows = g_strsplit (text ? text : "", ";", -1);
  gint taps[HIPF_CONVOLVE_MAX_SIDE * HIPF_CONVOLVE_MAX_SIDE];
  gint width = -1, height = g_strv_length (rows), j;
  gboolean ok = FALSE;

  *why = NULL;
  if (height < 1 || height > HIPF_CONVOLVE_MAX_SIDE || height % 2 == 0) {
    *why = g_strdup_printf ("%d rows: an odd number from 1 to %d is needed",
        height, HIPF_CONVOLVE_MAX_SIDE);
    goto done;
  }
  for (j = 0; j < height; j++) {
    gint n = parse_integers (rows[j], taps + j * HIPF_CONVOLVE_MAX_SIDE,
        HIPF_CONVOLVE_MAX_SIDE, why);

    if (n < 0)
      goto done;
    if (width >= 0 && n != width) {
      *why = g_strdup_printf ("row %d has %d taps, row 1 %d", j + 1, n,
          width);
      goto done;
    }
    width = n;
  }
  if (width < 1 || width % 2 == 0) {
    *why = g_strdup_printf ("%d columns: an odd number from 1 to %d is "
        "needed", width, HIPF_CONVOLVE_MAX_SIDE);
    goto done;
  }
  {
    gint64 w = 0;

    for (j = 0; j < height; j++)
      w += weight (taps + j * HIPF_CONVOLVE_MAX_SIDE, width);
    if (w > HIPF_CONVOLVE_MAX_WEIGHT) {
      *why = g_strdup_printf ("the taps weigh %" G_GINT64_FORMAT ", more "
          "than %d", w, HIPF_CONVOLVE_MAX_WEIGHT);
      goto done;
    }
  }
  mask->separable = FALSE;
  mask->width = width;
  mask->height = height;
  for (j = 0; j < height; j++)
    memcpy (mask->taps + j * width, taps + j * HIPF_CONVOLVE_MAX_SIDE,
        width * sizeof (gint));
  ok = TRUE;
done:
  g_strfreev (rows);
  return ok;
}

gboolean
gst_hip_conv_taps_parse (const gchar * text, gint * taps, gint * n,
    gchar ** why)
{
  gint got;

  *why = NULL;
  got = parse_integers (text ? text : "", taps, HIPF_CONVOLVE_MAX_TAPS, why);
  if (got < 0)
    return FALSE;
  if (got % 2 == 0) {
    *why = g_strdup_printf ("%d taps: an odd number from 1 to %d is needed",
        got, HIPF_CONVOLVE_MAX_TAPS);
    return FALSE;
  }
  *n = got;
  return TRUE;
}

gboolean
gst_hip_conv_mask_set_separable (HipfConvolveMask * mask,
    const gint * taps_x, gint n_x, const gint * taps_y, gint n_y,
    gchar ** why)
{
  gint64 wx = weight (taps_x, n_x), wy = weight (taps_y, n_y);
  /* Each vector too: an all-zero one would let the other's row sums
   * overflow before the product is 0. */
  gint64 w = MAX (wx * wy, MAX (wx, wy));

  *why = NULL;
  if (n_x < 1 || n_y < 1 || n_x % 2 == 0 || n_y % 2 == 0
      || n_x > HIPF_CONVOLVE_MAX_TAPS || n_y > HIPF_CONVOLVE_MAX_TAPS) {
    *why = g_strdup_printf ("%d x %d taps: odd numbers from 1 to %d are "
        "needed", n_x, n_y, HIPF_CONVOLVE_MAX_TAPS);
    return FALSE;
  }
  if (w > HIPF_CONVOLVE_MAX_WEIGHT) {
    *why = g_strdup_printf ("the taps weigh %" G_GINT64_FORMAT ", more than "
        "%d", w, HIPF_CONVOLVE_MAX_WEIGHT);
    return FALSE;
  }
  mask->separable = TRUE;
  mask->n_x = n_x;
  mask->n_y = n_y;
  memcpy (mask->taps_x, taps_x, n_x * sizeof (gint));
  memcpy (mask->taps_y, taps_y, n_y * sizeof (gint));
  return TRUE;
}

static gint
gcd (gint a, gint b)
{
  a = ABS (a);
  b = ABS (b);
  while (b) {
    gint t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* A rank-one integer mask is u v^T with v its first nonzero row over that
 * row's gcd: every row is a rational multiple of v, and a rational
 * multiple of a vector whose gcd is 1 is integer only where the multiple
 * is. */
gboolean
gst_hip_conv_mask_factor (HipfConvolveMask * mask)
{
  const gint w = mask->width, h = mask->height;
  gint row = -1, col = -1, g = 0, i, j;
  gint u[HIPF_CONVOLVE_MAX_SIDE], v[HIPF_CONVOLVE_MAX_SIDE];

  if (mask->separable)
    return TRUE;
  for (j = 0; j < h && row < 0; j++)
    for (i = 0; i < w; i++)
      if (mask->taps[j * w + i] != 0) {
        row = j;
        col = i;
        break;
      }
  if (row < 0)
    return FALSE;               /* all zero: nothing worth two passes */
  for (i = 0; i < w; i++)
    g = gcd (g, mask->taps[row * w + i]);
  for (i = 0; i < w; i++)
    v[i] = mask->taps[row * w + i] / g;
  for (j = 0; j < h; j++) {
    /* Row j is u[j] v, where it is a multiple of v at all. */
    if (mask->taps[j * w + col] % v[col] != 0)
      return FALSE;
    u[j] = mask->taps[j * w + col] / v[col];
    for (i = 0; i < w; i++)
      if ((gint64) u[j] * v[i] != mask->taps[j * w + i])
        return FALSE;
  }
  mask->separable = TRUE;
  mask->n_x = w;
  mask->n_y = h;
  memcpy (mask->taps_x, v, w * sizeof (gint));
  memcpy (mask->taps_y, u, h * sizeof (gint));
  return TRUE;
}

/* The Gaussian's taps: t_i = round (1000 g_i / sum g), g_i = exp (-i^2 /
 * (2 sigma^2)) for i in [-r, r], r = ceil (3 sigma) (at most 127), with
 * the zero taps at both ends dropped. The same taps make the row and the
 * column; their sum is the divisor. */
static gint
gaussian_taps (gdouble sigma, gint * taps)
{
  gint r = MIN ((gint) ceil (3 * sigma), (HIPF_CONVOLVE_MAX_TAPS - 1) / 2);
  gdouble g[HIPF_CONVOLVE_MAX_TAPS], sum = 0;
  gint i, n = 2 * r + 1, first = 0;

  for (i = -r; i <= r; i++) {
    g[i + r] = exp (-(gdouble) i * i / (2 * sigma * sigma));
    sum += g[i + r];
  }
  for (i = 0; i < n; i++)
    taps[i] = (gint) floor (1000 * g[i] / sum + 0.5);
  while (first < r && taps[first] == 0)
    first++;
  memmove (taps, taps + first, (n - 2 * first) * sizeof (gint));
  return n - 2 * first;
}

gboolean
gst_hip_conv_mask_preset (GstHipConvolvePreset preset, gdouble sigma,
    HipfConvolveMask * mask)
{
  static const gint sharpen[] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  static const gint laplacian[] = { 0, 1, 0, 1, -4, 1, 0, 1, 0 };
  static const gint emboss[] = { -2, -1, 0, -1, 1, 1, 0, 1, 2 };
  static const gint smooth[] = { 1, 2, 1 }, diff[] = { -1, 0, 1 };
  gint taps[HIPF_CONVOLVE_MAX_TAPS], n;
  gchar *why = NULL;
  const gint *m = NULL;

  switch (preset) {
    case GST_HIP_CONVOLVE_PRESET_GAUSSIAN:
      n = gaussian_taps (sigma, taps);
      return gst_hip_conv_mask_set_separable (mask, taps, n, taps, n, &why);
    case GST_HIP_CONVOLVE_PRESET_SOBEL_X:
      return gst_hip_conv_mask_set_separable (mask, diff, 3, smooth, 3, &why);
    case GST_HIP_CONVOLVE_PRESET_SOBEL_Y:
      return gst_hip_conv_mask_set_separable (mask, smooth, 3, diff, 3, &why);
    case GST_HIP_CONVOLVE_PRESET_SHARPEN:
      m = sharpen;
      break;
    case GST_HIP_CONVOLVE_PRESET_LAPLACIAN:
      m = laplacian;
      break;
    case GST_HIP_CONVOLVE_PRESET_EMBOSS:
      m = emboss;
      break;
    case GST_HIP_CONVOLVE_PRESET_NONE:
      return FALSE;
  }
  mask->separable = FALSE;
  mask->width = mask->height = 3;
  memcpy (mask->taps, m, 9 * sizeof (gint));
  return TRUE;
}

gint64
gst_hip_conv_mask_sum (const HipfConvolveMask * mask)
{
  gint64 s = 0, sx = 0, sy = 0;
  gint i;

  if (mask->separable) {
    for (i = 0; i < mask->n_x; i++)
      sx += mask->taps_x[i];
    for (i = 0; i < mask->n_y; i++)
      sy += mask->taps_y[i];
    return sx * sy;
  }
  for (i = 0; i < mask->width * mask->height; i++)
    s += mask->taps[i];
  return s;
}

gchar *
gst_hip_conv_mask_to_string (const HipfConvolveMask * mask)
{
  GString *s = g_string_new (NULL);
  gint w = mask->separable ? mask->n_x : mask->width;
  gint h = mask->separable ? mask->n_y : mask->height;
  gint i, j;

  for (j = 0; j < h; j++) {
    if (j)
      g_string_append (s, "; ");
    for (i = 0; i < w; i++)
      g_string_append_printf (s, i ? " %d" : "%d", mask->separable ?
          mask->taps_y[j] * mask->taps_x[i] : mask->taps[j * w + i]);
  }
  return g_string_free (s, FALSE);
}
