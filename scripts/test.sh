#!/usr/bin/env bash
# Build gst-hip-filters for both HIP platforms and run the test suite of each.
#
# Usage: scripts/test.sh
#   Installs missing Debian packages (scripts/setup-deps.sh), then configures
#   (first time only) and builds build/nvidia and build/amd, and runs
#   `meson test` in both. Exits non-zero if any build or test fails.
#   Tests that need a GPU are reported as SKIP on machines without one.
#
# Environment:
#   HIPF_ARCHS_NVIDIA  e.g. sm_90 or sm_80,sm_90: passed as -Dhip-archs= when
#                      build/nvidia is first configured (default: meson's)
#   HIPF_ARCHS_AMD     e.g. gfx90a,gfx1030: likewise for build/amd
#   Already configured build dirs are rebuilt as they are; to change the
#   architectures later use `meson configure build/<platform> -Dhip-archs=...`
#   or delete the build dir.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup-deps.sh nvidia amd

declare -A result=()

configure_and_build() {
  local platform=$1 archs=$2 dir=build/$1
  local opts=(-Dhip-platform="$platform")
  if [ -n "$archs" ]; then
    opts+=(-Dhip-archs="$archs")
  fi
  if [ ! -f "$dir/build.ninja" ]; then
    echo "test.sh: configuring $dir (${opts[*]})"
    meson setup "$dir" "${opts[@]}" || return 1
  elif [ -n "$archs" ]; then
    echo "test.sh: $dir is already configured; HIPF_ARCHS_${platform^^} is not re-applied"
  fi
  echo "test.sh: building $dir"
  ninja -C "$dir"
}

for platform in nvidia amd; do
  case $platform in
    nvidia) archs=${HIPF_ARCHS_NVIDIA:-} ;;
    amd) archs=${HIPF_ARCHS_AMD:-} ;;
  esac
  if ! configure_and_build "$platform" "$archs"; then
    result[$platform]="build FAILED"
    continue
  fi
  echo "test.sh: testing build/$platform"
  if meson test -C "build/$platform" --print-errorlogs; then
    result[$platform]=passed
  else
    result[$platform]="tests FAILED"
  fi
done

status=0
for platform in nvidia amd; do
  [ "${result[$platform]}" = passed ] || status=1
done
echo "test.sh: nvidia: ${result[nvidia]}; amd: ${result[amd]} => $([ $status = 0 ] && echo OK || echo FAILED)"
# One closing line over both platforms, from meson's machine-readable logs.
python3 - build/nvidia/meson-logs/testlog.json build/amd/meson-logs/testlog.json <<'PY' || true
import json, sys
count = {"OK": 0, "FAIL": 0, "SKIP": 0}
for path in sys.argv[1:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        continue
    for line in lines:
        r = json.loads(line).get("result")
        if r in ("OK", "EXPECTEDFAIL"):
            count["OK"] += 1
        elif r == "SKIP":
            count["SKIP"] += 1
        else:
            count["FAIL"] += 1
print(f"tests: {count['OK']} passed, {count['FAIL']} failed, {count['SKIP']} skipped")
PY
exit $status
