# shellcheck shell=bash
# Sourced by scripts/test.sh and scripts/demo.sh: which GPU architectures a
# build directory is configured for when the caller names none.
#
# meson.build's defaults (every supported architecture) cost a kernel compile
# each; these scripts build only what this machine can run, or one
# architecture per platform where it has no GPU, which still checks that the
# kernels compile and link.

hipf_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Prints the architectures of this machine's GPUs for platform $1 (nvidia or
# amd), comma-separated, or one architecture where there are none.
detect_archs() {
  local found
  case $1 in
    nvidia)
      # compute_cap reads e.g. "8.9" or "12.0": sm_89, sm_120. Sorted oldest
      # first: meson.build adds PTX for the last one.
      found=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
        sed -n 's/^ *\([0-9]*\)\.\([0-9]\) *$/sm_\1\2/p' | sort -uV | paste -sd, -) || true
      echo "${found:-sm_90}" ;;
    amd)
      # gfx000 is the CPU agent; feature suffixes (gfx90a:xnack-) are dropped.
      # rocm_agent_enumerator fails without /dev/kfd; rocminfo is the fallback.
      found=$({ rocm_agent_enumerator 2>/dev/null ||
                rocminfo 2>/dev/null | awk '$1 == "Name:" { print $2 }'; } |
        sed -n 's/^\(gfx[0-9a-f]*\).*/\1/p' | grep -vx gfx000 | sort -uV | paste -sd, -) || true
      echo "${found:-gfx90a}" ;;
  esac
}

# configure_build_dir DIR PLATFORM ARCHS: `meson setup` DIR for PLATFORM and
# ARCHS (comma-separated; "all" for meson.build's full list) the first time;
# where DIR is already configured for other architectures, `meson configure`
# it (ninja then rebuilds the kernels).
configure_build_dir() {
  local dir=$1 platform=$2 archs=${3// /} me current
  me=$(basename "$0")
  if [ "$archs" = all ]; then
    archs=
  fi
  if [ ! -f "$dir/build.ninja" ]; then
    echo "$me: configuring $dir: -Dhip-platform=$platform -Dhip-archs=${archs:-(all)}"
    # build/deps: GStreamer's CUDA library headers (scripts/gst-cuda-dev.sh)
    meson setup "$dir" "$hipf_root" -Dhip-platform="$platform" -Dhip-archs="$archs" \
      -Dpkg_config_path="$hipf_root/build/deps/pkgconfig"
    return
  fi
  current=$(meson introspect --buildoptions "$dir" | python3 -c '
import json, sys
print(",".join(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "hip-archs")))') ||
    return 1
  if [ "$current" != "$archs" ]; then
    echo "$me: $dir is configured for ${current:-all architectures}; meson configure -Dhip-archs=${archs:-(all)}"
    meson configure "$dir" -Dhip-archs="$archs"
  fi
}
