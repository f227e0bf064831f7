#!/usr/bin/env bash
# Install the Debian packages gst-hip-filters needs to build, test and demo.
#
# Usage: scripts/setup-deps.sh [--tests-only] [nvidia] [amd]
#   The arguments name the HIP platforms that will be built (default: both).
#   --tests-only leaves out what only the demo and pipelines/ use
#   (gstreamer1.0-plugins-good: pngenc, v4l2src; some 60 packages in all).
#   For nvidia the CUDA toolkit must already be at $CUDA_PATH
#   (default /usr/local/cuda): it is not a Debian package.
#
# Packages are only installed (with apt-get, through sudo when not root)
# when at least one of them is missing.
set -euo pipefail

tests_only=0
platforms=()
for arg in "$@"; do
  case $arg in
    --tests-only) tests_only=1 ;;
    *) platforms+=("$arg") ;;
  esac
done
if [ ${#platforms[@]} -eq 0 ]; then
  platforms=(nvidia amd)
fi

packages=(
  # build
  meson ninja-build pkg-config gcc g++
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  # run and test (the tests use only core and base elements)
  gstreamer1.0-tools gstreamer1.0-plugins-base
  valgrind
  # histogram plot script and exposure monitor, and their test
  # (python3-gst-1.0: gst-python's overrides, which read GstValueArray
  # fields; without them the scripts parse the structure's serialization)
  python3-gi python3-matplotlib gir1.2-gstreamer-1.0 python3-gst-1.0
)
if [ "$tests_only" = 0 ]; then
  packages+=(gstreamer1.0-plugins-good)
fi

want_nvidia=0
for p in "${platforms[@]}"; do
  case "$p" in
    # GStreamer's CUDA library, for memory:CUDAMemory (its headers come
    # from scripts/gst-cuda-dev.sh, not from the -dev package's 200 others)
    nvidia) want_nvidia=1; packages+=(libgstreamer-plugins-bad1.0-0) ;;
    amd) packages+=(hipcc libamdhip64-dev) ;;
    *) echo "setup-deps: unknown HIP platform '$p' (use nvidia or amd)" >&2; exit 2 ;;
  esac
done

cuda_path=${CUDA_PATH:-/usr/local/cuda}
if [ "$want_nvidia" = 1 ] && [ ! -x "$cuda_path/bin/nvcc" ]; then
  echo "setup-deps: error: $cuda_path/bin/nvcc not found." >&2
  echo "setup-deps: the nvidia platform needs the CUDA toolkit (CUDA 13) at $cuda_path;" >&2
  echo "setup-deps: install it there (or set CUDA_PATH), or build only the amd platform." >&2
  exit 1
fi

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  if [ "$status" != installed ]; then
    missing+=("$pkg")
  fi
done

# The headers of GStreamer's CUDA library, once the library is installed.
cuda_headers() {
  if [ "$want_nvidia" = 1 ] && ! bash "$(dirname "${BASH_SOURCE[0]}")/gst-cuda-dev.sh"; then
    echo "setup-deps: building without memory:CUDAMemory" >&2
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all ${#packages[@]} Debian packages present"
  cuda_headers
  exit 0
fi

echo "setup-deps: installing: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "setup-deps: error: not root and sudo is not available; install as root:" >&2
  echo "  apt-get install ${missing[*]}" >&2
  exit 1
fi

# Update first: a fresh image has no package lists, or stale ones.
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
cuda_headers
echo "setup-deps: done"
