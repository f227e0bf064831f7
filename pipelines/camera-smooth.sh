#!/usr/bin/env bash
# Live smoothing: the camera (or a moving test pattern when there is no
# camera) through hipboxblur to a window.
#
# Usage: pipelines/camera-smooth.sh
# Environment:
#   RADIUS        blur radius (default 6)
#   SINK          video sink (default autovideosink; e.g. SINK=fakesink)
#   NUM_BUFFERS   stop after this many frames (default: run until closed)
#   DEVICE        camera device (default /dev/video0)
#   GST_PLUGIN_PATH  defaults to build/nvidia/gst in the repository
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$root/build/nvidia/gst}
radius=${RADIUS:-6}
sink=${SINK:-autovideosink}
device=${DEVICE:-/dev/video0}

if [ -e "$device" ]; then
  src=(v4l2src device="$device")
else
  echo "camera-smooth: no $device, using videotestsrc" >&2
  src=(videotestsrc is-live=true pattern=ball)
fi
if [ -n "${NUM_BUFFERS:-}" ]; then
  src+=(num-buffers="$NUM_BUFFERS")
fi

# shellcheck disable=SC2086 # $sink may carry properties, e.g. "fakesink sync=false"
exec gst-launch-1.0 -e "${src[@]}" \
  ! videoconvert ! hipboxblur radius="$radius" ! videoconvert ! $sink
