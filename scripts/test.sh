#!/usr/bin/env bash
# Build gst-hip-filters for both HIP platforms and run the test suite of each.
#
# Usage: scripts/test.sh
#   Installs missing Debian packages (scripts/setup-deps.sh --tests-only),
#   configures and builds build/nvidia and build/amd, and runs `meson test` in
#   both. Exits non-zero if any build or test fails. Tests that need a GPU are
#   reported as SKIP on machines without one.
#   Then runs the compiled tests of the nvidia build's cpu suite again under
#   valgrind memcheck (see run_valgrind below): any memory error or definite
#   leak fails the script.
#
# Environment:
#   HIPF_ARCHS_NVIDIA  e.g. sm_90 or sm_80,sm_90: the -Dhip-archs= of
#                      build/nvidia. Default: the compute capabilities that
#                      nvidia-smi reports, else sm_90 alone.
#   HIPF_ARCHS_AMD     e.g. gfx90a,gfx1030: likewise for build/amd. Default:
#                      the GPUs that rocm_agent_enumerator (or rocminfo)
#                      lists, else gfx90a alone.
#   "all" builds meson.build's full list (what `meson setup` without
#   -Dhip-archs builds). A build dir configured for other architectures is
#   reconfigured (`meson configure -Dhip-archs=`).
#   HIPF_VALGRIND      1: always run the valgrind step; 0: never; unset
#                      (auto): run it unless an NVIDIA driver is installed
#                      (memcheck is not usable over the CUDA driver)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
started=$SECONDS

bash scripts/setup-deps.sh --tests-only nvidia amd
source scripts/hip-archs.sh

declare -A result=()
# ninja's progress lines carry the seconds since the build started.
export NINJA_STATUS='[%f/%t %es] '

for platform in nvidia amd; do
  var=HIPF_ARCHS_${platform^^}
  if ! configure_build_dir "build/$platform" "$platform" "${!var:-$(detect_archs "$platform")}"; then
    result[$platform]="configure FAILED"
  fi
done

# Each build is mostly a few long compiles of the blur kernels, fewer than
# the cores' worth of work a build could use: the two builds overlap.
# build/amd builds in the background, its output kept in a log shown later,
# while build/nvidia builds and is tested.
amd_log=build/amd/meson-logs/test-sh-build.txt
amd_build=
if [ -z "${result[amd]:-}" ]; then
  echo "test.sh: building build/amd in the background (output: $amd_log)"
  # Unset, HIP_PLATFORM makes hipcc guess: nvidia where it finds nvcc but no
  # clang++, as on a machine with CUDA and only Debian's hipcc.
  HIP_PLATFORM=amd ninja -C build/amd >"$amd_log" 2>&1 &
  amd_build=$!
  # ninja passes the signal on to the compilers it runs.
  trap 'kill "$amd_build" 2>/dev/null || true' EXIT
fi

# test_build PLATFORM: meson test in build/PLATFORM, into result[PLATFORM].
test_build() {
  echo "test.sh: testing build/$1"
  if meson test -C "build/$1" --no-rebuild --print-errorlogs; then
    result[$1]=passed
  else
    result[$1]="tests FAILED"
  fi
}

if [ -z "${result[nvidia]:-}" ]; then
  echo "test.sh: building build/nvidia"
  if ninja -C build/nvidia; then
    test_build nvidia
  else
    result[nvidia]="build FAILED"
  fi
fi

# The cpu-suite tests that are compiled programs (valgrind over a Python
# script would check the interpreter, not this project), one name a line.
cpu_programs() {
  meson introspect --tests "$1" | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if not any(s == "cpu" or s.endswith(":cpu") for s in t.get("suite", [])):
        continue
    try:
        with open(t["cmd"][0], "rb") as f:
            if f.read(4) == b"\x7fELF":
                print(t["name"])
    except OSError:
        pass
'
}

# Memcheck over the CPU tests of build/nvidia: fails on any memory error
# (invalid access, uninitialised value, bad free) and on definite leaks.
# GLib's slice allocator and GC-friendly mode make leaks visible; GLib's
# suppressions plus tests/valgrind.supp (commented there) cover what is not
# ours. Forked check tests are leak-checked as they exit, and a valgrind
# error makes the test fail.
run_valgrind() {
  local dir=build/nvidia names
  case "${HIPF_VALGRIND:-auto}" in
    0)
      valgrind_skipped="skipped (HIPF_VALGRIND=0)"
      return 0 ;;
    auto)
      if { ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null | grep -q 'libcuda\.so\.1'; then
        valgrind_skipped="skipped: an NVIDIA driver is installed (HIPF_VALGRIND=1 forces it)"
        return 0
      fi ;;
  esac
  mapfile -t names < <(cpu_programs "$dir")
  if [ ${#names[@]} -eq 0 ]; then
    echo "test.sh: valgrind: no cpu-suite programs found in $dir" >&2
    return 1
  fi
  echo "test.sh: valgrind memcheck over build/nvidia: ${names[*]}"
  G_SLICE=always-malloc G_DEBUG=gc-friendly meson test -C "$dir" --no-rebuild \
    --print-errorlogs --timeout-multiplier 4 \
    --wrapper="valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite --suppressions=/usr/share/glib-2.0/valgrind/glib.supp --suppressions=$PWD/tests/valgrind.supp" \
    "${names[@]}"
}

valgrind_skipped=
if [ "${result[nvidia]}" = passed ]; then
  if run_valgrind; then
    result[valgrind]=${valgrind_skipped:-passed}
  else
    result[valgrind]="FAILED (build/nvidia/meson-logs/testlog-valgrind.txt)"
  fi
else
  result[valgrind]="not run (nvidia failed)"
fi

if [ -n "$amd_build" ]; then
  echo "test.sh: waiting for build/amd"
  amd_status=0
  wait "$amd_build" || amd_status=$?
  trap - EXIT
  cat "$amd_log"
  if [ "$amd_status" = 0 ]; then
    test_build amd
  else
    result[amd]="build FAILED"
  fi
fi

status=0
for platform in nvidia amd; do
  [ "${result[$platform]}" = passed ] || status=1
done
case "${result[valgrind]}" in
  passed|skipped*) ;;
  *) status=1 ;;
esac
echo "test.sh: nvidia: ${result[nvidia]}; amd: ${result[amd]}; valgrind: ${result[valgrind]} => $([ $status = 0 ] && echo OK || echo FAILED) in $((SECONDS - started)) s"
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
