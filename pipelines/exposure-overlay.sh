#!/usr/bin/env bash
# A live exposure monitor: the camera (or a moving test pattern when there
# is no camera) with hipexposure's overlay, histogram graph and zebra
# stripes (and false colour with FALSE_COLOR=1), to a window.
#
# Usage: pipelines/exposure-overlay.sh
# Environment:
#   ZEBRA          zebra threshold (default 235)
#   FALSE_COLOR    1: false colour instead of the picture (default 0)
#   SINK           video sink (default autovideosink; e.g. SINK=fakesink)
#   NUM_BUFFERS    stop after this many frames (default: run until closed)
#   DEVICE         camera device (default /dev/video0)
#   GST_PLUGIN_PATH  defaults to build/nvidia/gst in the repository
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$root/build/nvidia/gst}
zebra=${ZEBRA:-235}
false_color=$([ "${FALSE_COLOR:-0}" = 1 ] && echo true || echo false)
sink=${SINK:-autovideosink}
device=${DEVICE:-/dev/video0}

if [ -e "$device" ]; then
  src=(v4l2src device="$device")
else
  echo "exposure-overlay: no $device, using videotestsrc" >&2
  # A bright moving ball on a gradient: some of it above the zebra threshold.
  src=(videotestsrc is-live=true pattern=ball background-color=0xff808080)
fi
if [ -n "${NUM_BUFFERS:-}" ]; then
  src+=(num-buffers="$NUM_BUFFERS")
fi

# shellcheck disable=SC2086 # $sink may carry properties, e.g. "fakesink sync=false"
exec gst-launch-1.0 -e "${src[@]}" ! videoconvert \
  ! hipexposure zebra=true zebra-threshold="$zebra" histogram=true \
    false-color="$false_color" \
  ! videoconvert ! $sink
