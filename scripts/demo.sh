#!/usr/bin/env bash
# Build the plugin and blur a test frame with it (see pipelines/blur-demo.sh).
#
# Usage: scripts/demo.sh [radius] [outdir]
#   Writes before.png and after.png to outdir (default ./demo-out).
#
# Environment:
#   HIP_PLATFORM  nvidia (default) or amd: which build to make and use
#   HIPF_ARCHS    passed as -Dhip-archs= when build/<platform> is first
#                 configured, e.g. sm_90 (default: meson's)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
platform=${HIP_PLATFORM:-nvidia}
case $platform in
  nvidia | amd) ;;
  *) echo "demo: HIP_PLATFORM must be nvidia or amd, got '$platform'" >&2; exit 2 ;;
esac
dir=$root/build/$platform

bash "$root/scripts/setup-deps.sh" "$platform"

if [ ! -f "$dir/build.ninja" ]; then
  opts=(-Dhip-platform="$platform")
  if [ -n "${HIPF_ARCHS:-}" ]; then
    opts+=(-Dhip-archs="$HIPF_ARCHS")
  fi
  meson setup "$dir" "$root" "${opts[@]}"
fi
ninja -C "$dir"

GST_PLUGIN_PATH=$dir/gst exec bash "$root/pipelines/blur-demo.sh" "$@"
