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
