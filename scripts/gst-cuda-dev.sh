#!/usr/bin/env bash
# GStreamer's CUDA library for building against, without
# libgstreamer-plugins-bad1.0-dev: that package pulls in some 200 others
# (OpenCV among them) for a dozen headers. The library itself comes with
# libgstreamer-plugins-bad1.0-0 (setup-deps.sh installs it); this takes the
# headers and the pkg-config file from the -dev package's .deb, unpacked
# into DEST (default build/deps), whose pkgconfig folder meson is then
# given (scripts/hip-archs.sh does that).
#
# Usage: scripts/gst-cuda-dev.sh [DEST]
# Exits 0 without doing anything where DEST already holds them, and 1 where
# they cannot be had (no package lists, no network): the build then goes
# on without memory:CUDAMemory.
set -euo pipefail

dest=$(realpath -m "${1:-$(dirname "${BASH_SOURCE[0]}")/../build/deps}")
pc=$dest/pkgconfig/gstreamer-cuda-1.0.pc
[ -f "$pc" ] && exit 0

lib=$(dpkg -L libgstreamer-plugins-bad1.0-0 2>/dev/null | grep '/libgstcuda-1\.0\.so\.0$' | head -n 1) || true
if [ -z "$lib" ]; then
  echo "gst-cuda-dev: libgstreamer-plugins-bad1.0-0 is not installed" >&2
  exit 1
fi
version=$(dpkg-query -W -f='${Version}' libgstreamer-plugins-bad1.0-0)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && apt-get download -q "libgstreamer-plugins-bad1.0-dev=$version" >/dev/null 2>&1); then
  echo "gst-cuda-dev: could not download libgstreamer-plugins-bad1.0-dev $version" >&2
  exit 1
fi
dpkg-deb -x "$tmp"/libgstreamer-plugins-bad1.0-dev_*.deb "$tmp/x"
mkdir -p "$dest/include/gstreamer-1.0/gst" "$dest/lib" "$dest/pkgconfig"
cp -r "$tmp/x/usr/include/gstreamer-1.0/gst/cuda" "$dest/include/gstreamer-1.0/gst/"
ln -sf "$lib" "$dest/lib/libgstcuda-1.0.so"
sed -e "s|^prefix=.*|prefix=$dest|" -e 's|^libdir=.*|libdir=${prefix}/lib|' \
  "$tmp"/x/usr/lib/*/pkgconfig/gstreamer-cuda-1.0.pc >"$pc"
echo "gst-cuda-dev: GStreamer's CUDA library headers in $dest"
