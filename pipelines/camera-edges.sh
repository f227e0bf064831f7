#!/usr/bin/env bash
# Edges on the camera: hipconvolve with a Sobel preset (or any mask) on the
# camera, or a moving test pattern when there is no camera, to a window.
# Signed responses sit around grey (offset 128).
#
# Usage: pipelines/camera-edges.sh
# Environment:
#   PRESET        hipconvolve preset (default sobel-x; e.g. laplacian)
#   KERNEL        a mask of your own instead, e.g. "0 -1 0; -1 4 -1; 0 -1 0"
#   SINK          video sink (default autovideosink; e.g. SINK=fakesink)
#   NUM_BUFFERS   stop after this many frames (default: run until closed)
#   DEVICE        camera device (default /dev/video0)
#   GST_PLUGIN_PATH  defaults to build/nvidia/gst in the repository
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$root/build/nvidia/gst}
sink=${SINK:-autovideosink}
device=${DEVICE:-/dev/video0}

if [ -e "$device" ]; then
  src=(v4l2src device="$device")
else
  echo "camera-edges: no $device, using videotestsrc" >&2
  src=(videotestsrc is-live=true pattern=ball)
fi
if [ -n "${NUM_BUFFERS:-}" ]; then
  src+=(num-buffers="$NUM_BUFFERS")
fi
if [ -n "${KERNEL:-}" ]; then
  mask=(kernel="$KERNEL" divisor=1)
else
  mask=(preset="${PRESET:-sobel-x}")
fi

# Luma only on the camera's YUV: edges in grey, chroma left as it came.
# shellcheck disable=SC2086 # $sink may carry properties, e.g. "fakesink sync=false"
exec gst-launch-1.0 -e "${src[@]}" \
  ! videoconvert ! video/x-raw,format=NV12 \
  ! hipconvolve "${mask[@]}" offset=128 luma-only=true \
  ! videoconvert ! $sink
