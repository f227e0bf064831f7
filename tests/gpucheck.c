/* gst-hip-filters
 * Copyright (C) 2026 gst-hip-filters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <sys/wait.h>
#include <unistd.h>

#include "gpucheck.h"
#include "hipf-runtime.h"
#include "testutil.h"

/* Asked in a child process: a runtime initialised before check forks each
 * test is unusable in the forked children. */
static gboolean
have_device (const gchar * name)
{
  pid_t pid = fork ();
  int status = 0;

  if (pid == 0) {
    int count = 0;
    hipError_t err = hipGetDeviceCount (&count);

    if (err != hipSuccess || count == 0)
      g_print ("SKIP %s: no HIP device (%s)\n", name,
          err != hipSuccess ? hipGetErrorString (err) : "none found");
    _exit (err == hipSuccess && count > 0 ? 0 : 1);
  }
  return pid > 0 && waitpid (pid, &status, 0) == pid && WIFEXITED (status)
      && WEXITSTATUS (status) == 0;
}

int
hipf_gpu_check_main (int argc, char **argv, Suite * (*suite) (void),
    const gchar * name, const gchar * file)
{
  gst_check_init (&argc, &argv);
  if (!have_device (name))
    return HIPF_TEST_SKIP;
  hipf_test_seed ();
  return gst_check_run_suite (suite (), name, file);
}

const gchar *
hipf_test_blur_path (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane)
{
  HipfBoxBlurPlan *plan = NULL;
  HipfBoxBlurPath path;
  hipError_t err = hipf_box_blur_plan_new (limits, plane, &plan);

  fail_unless (err == hipSuccess, "%s", hipGetErrorString (err));
  path = hipf_box_blur_plan_path (plan);
  hipf_box_blur_plan_free (plan);
  return hipf_box_blur_path_name (path);
}

hipError_t
hipf_test_blur (const HipfDeviceLimits * limits,
    const HipfBoxBlurPlane * plane, const void *src, gsize src_pitch,
    void *dst, gsize dst_pitch, void *scratch, hipStream_t stream)
{
  HipfBoxBlurPlan *plan = NULL;
  hipError_t err = hipf_box_blur_plan_new (limits, plane, &plan);

  if (err != hipSuccess)
    return err;
  err = hipf_box_blur_run (plan, src, src_pitch, dst, dst_pitch, scratch,
      stream);
  hipf_box_blur_plan_free (plan);
  return err;
}
