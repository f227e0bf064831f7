#!/usr/bin/env bash
# Blur one test frame with hipboxblur and save it before and after as PNG.
#
# Usage: pipelines/blur-demo.sh [radius] [outdir]
#   radius  box blur radius, 0..2000 (default 6)
#   outdir  where before.png and after.png go (default ./demo-out)
#
# hipboxblur is looked up in $GST_PLUGIN_PATH, which defaults to the nvidia
# build (build/nvidia/gst in the repository). scripts/demo.sh builds it and
# runs this script.
set -euo pipefail

radius=${1:-6}
outdir=${2:-./demo-out}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$root/build/nvidia/gst}

case $radius in
  '' | *[!0-9]*) echo "blur-demo: radius must be an integer 0..2000, got '$radius'" >&2; exit 2 ;;
esac

if ! gst-inspect-1.0 hipboxblur >/dev/null 2>&1; then
  echo "blur-demo: element hipboxblur not found in GST_PLUGIN_PATH=$GST_PLUGIN_PATH" >&2
  echo "blur-demo: build the plugin first (scripts/demo.sh does it) or set GST_PLUGIN_PATH" >&2
  exit 1
fi

mkdir -p "$outdir"

# A zone plate: rings that get finer away from the centre. The blur keeps
# the coarse inner rings and washes out the fine outer ones.
if ! gst-launch-1.0 \
  videotestsrc num-buffers=1 pattern=zone-plate kx2=20 ky2=20 \
  ! video/x-raw,format=RGBA,width=640,height=360 \
  ! tee name=t \
  t. ! queue ! pngenc ! filesink location="$outdir/before.png" \
  t. ! queue ! hipboxblur radius="$radius" ! pngenc ! filesink location="$outdir/after.png"
then
  # filesink has already created (empty) outputs: do not leave them behind.
  rm -f "$outdir/before.png" "$outdir/after.png"
  echo "blur-demo: the pipeline failed; see the ERROR above" >&2
  exit 1
fi

echo "blur-demo: wrote $outdir/before.png and $outdir/after.png (radius $radius)"
