/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef HIPF_TESTUTIL_H
#define HIPF_TESTUTIL_H

#include <gst/video/video.h>
#include <gst/check/gstharness.h>

/* Seed of this run: HIPF_TEST_SEED if set, else random; printed once. */
guint32 hipf_test_seed (void);
GRand *hipf_test_rand (void);

/* A frame of random bytes (padding too) whose plane strides exceed the
 * tight row size by @padding bytes (0: GStreamer's default strides), with a
 * video meta describing them. @info receives the layout used. */
GstBuffer *hipf_test_frame_new (GstVideoFormat format, gint width,
    gint height, guint padding, GstVideoInfo * info);
/* A random unpadded frame with @pts and @duration. */
GstBuffer *hipf_test_timed_frame_new (GstVideoFormat format, gint width,
    gint height, GstClockTime pts, GstClockTime duration);
/* The same from a generator of the caller's, for threads of their own. */
GstBuffer *hipf_test_frame_new_with_rand (GRand * rand, GstVideoFormat format,
    gint width, gint height, guint padding, GstVideoInfo * info);

/* Compares the visible samples of two frames of one format; on a mismatch
 * returns FALSE and a description of the first difference. */
gboolean hipf_test_frames_equal (const GstVideoFrame * got,
    const GstVideoFrame * expected, gchar ** where);

/* The bytes of @frame outside its visible samples equal those of @orig,
 * a copy of the frame's memory taken earlier. */
gboolean hipf_test_padding_unchanged (const GstVideoFrame * frame,
    const guint8 * orig);

/* Pops the LATENCY message @bus must hold, and fails on a second; like
 * gst_bus_pop_filtered(), drops the messages of other types before it. */
void hipf_test_pop_latency_message (GstBus * bus);
/* Polls @done (@data) until it holds, for at most ten seconds: what an
 * element does from a thread of its own; FALSE if it never held. */
gboolean hipf_test_wait_for (gboolean (*done) (gpointer data), gpointer data);
/* The same until @h has received @n buffers. */
gboolean hipf_test_wait_received (GstHarness * h, guint n);
/* The element accepts every one of @formats on its sink pad, in system and
 * device memory, and rejects other formats (the plugin's others too). */
void hipf_test_check_caps (const gchar * element,
    const GstVideoFormat * formats, guint n_formats);
/* Which memories @element's pad templates offer the 16-bit formats in:
 * where @wide, all three in system and device memory, and P010_10LE and
 * I420_10LE (never GRAY16_LE, which GStreamer 1.22's CUDA allocator does
 * not lay out) in CUDA memory where the plugin was built with it
 * (HIPF_TEST_CUDA); none of them anywhere otherwise. */
void hipf_test_check_wide_memories (const gchar * element, gboolean wide);

/* The plugin's device memory: its caps feature and memory type. */
#define HIPF_TEST_DEVICE_FEATURE "memory:HipfDeviceMemory"
#define HIPF_TEST_DEVICE_MEMORY "HipfDeviceMemory"

/* A harness around @launch (gst-launch syntax, the element under test
 * named "e"), fed frames of @format in system memory: they reach it in
 * device memory where @in_device, moved there by @uploader ahead of it,
 * and it hands them out in device memory where @out_device. */
GstHarness *hipf_test_path_harness (const gchar * launch,
    const gchar * uploader, GstVideoFormat format, gint width, gint height,
    gboolean in_device, gboolean out_device);
/* Whether the negotiated caps of @element's pad are in device memory. */
gboolean hipf_test_pad_in_device (GstElement * element,
    const gchar * pad_name);
gboolean hipf_test_buffer_in_device (GstBuffer * buf);
void hipf_test_check_start_error (const gchar * element);

/* Every format the elements take, and whether a HIP device is present. */
extern const GstVideoFormat hipf_test_formats[];
extern const guint hipf_test_n_formats;
/* Those and the 16-bit formats only hipboxblur takes. */
extern const GstVideoFormat hipf_test_blur_formats[];
extern const guint hipf_test_n_blur_formats;

#endif
