#!/usr/bin/env bash
# Build the plugin and blur a test frame with it (see pipelines/blur-demo.sh).
#
# Usage: scripts/demo.sh [radius] [outdir]
#   Writes before.png and after.png to outdir (default ./demo-out).
#
# Environment:
#   HIP_PLATFORM  nvidia (default) or amd: which build to make and use
#   HIPF_ARCHS    the -Dhip-archs= of build/<platform>, e.g. sm_90, or "all"
#                 for meson.build's full list. Default: this machine's GPUs
#                 (nvidia-smi, rocm_agent_enumerator), else sm_90 or gfx90a.
#                 A build dir configured for others is reconfigured.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
platform=${HIP_PLATFORM:-nvidia}
case $platform in
  nvidia | amd) ;;
  *) echo "demo: HIP_PLATFORM must be nvidia or amd, got '$platform'" >&2; exit 2 ;;
esac
dir=$root/build/$platform
# hipcc reads it too: unset, it picks nvidia where it finds nvcc but no clang++.
export HIP_PLATFORM=$platform

bash "$root/scripts/setup-deps.sh" "$platform"
source "$root/scripts/hip-archs.sh"

configure_build_dir "$dir" "$platform" "${HIPF_ARCHS:-$(detect_archs "$platform")}"
ninja -C "$dir"

GST_PLUGIN_PATH=$dir/gst exec bash "$root/pipelines/blur-demo.sh" "$@"
