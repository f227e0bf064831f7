#!/bin/bash
# Everything worth running on a GPU machine, in one go: the test suite,
# compute-sanitizer on the GPU tests, the demo pipeline and the benchmark
# (CONTRIBUTING.md, "Running on a GPU machine"):
#   scripts/on-gpu.sh build-gpu [steps...]
# Steps: tests memcheck racecheck initcheck synccheck demo bench (default: all
# but bench). Logs and outputs go to $OUT; a short summary is printed last.
set -u
build=${1:-build-gpu}
shift || true
steps=${*:-tests memcheck racecheck initcheck synccheck demo}
out=${OUT:-/tmp/hipf-out}
mkdir -p "$out"
export GST_PLUGIN_PATH_1_0=$PWD/$build/gst
summary=()

sanitize() {
  local tool=$1 t test
  # The small and padded cases cover every kernel path at a size the
  # sanitizers get through in minutes.
  for t in boxblur-gpu histogram-gpu memory-gpu exposure-gpu convolve-gpu; do
    test=$build/tests/test-$t
    [ -x "$test" ] || continue
    # racecheck is the slowest tool: it gets the cases with few frames, and
    # VGA, where bands take more than one step.
    local checks=test_small_frames,test_padded_output,test_wide_rows,test_strips,test_short_starts,test_slices_in_flight,test_alternate_alloc_fails,test_counts_small,test_api_regions,test_zones,test_zones_fused,test_api_zones,test_wide_samples
    [ "$tool" = racecheck ] && checks=test_padded_output,test_frames_in_flight,test_slices_in_flight,test_vga,test_exposure_settings,test_large_and_padded,test_zone_changes
    [ "$t" = memory-gpu ] && checks=test_blur_paths,test_histogram_paths,test_chain,test_tee_with_cpu_branch,test_cpu_write,test_foreign_layout
    [ "$t" = exposure-gpu ] && checks=test_overlays,test_box_refused
    [ "$t" = convolve-gpu ] && checks=test_paths,test_masks,test_separable,test_presets
    GST_CHECKS=${SANITIZE_CHECKS:-$checks} \
      timeout "${SANITIZE_TIMEOUT:-240}" compute-sanitizer --tool "$tool" \
      --error-exitcode 3 "$test" \
      >"$out/$tool-$t.log" 2>&1
    summary+=("$tool $t: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool-$t.log" | tail -n 1)")
  done
}

for step in $steps; do
  case $step in
    tests)
      timeout "${TESTS_TIMEOUT:-560}" meson test -C "$build" --no-rebuild \
        --print-errorlogs >"$out/tests.log" 2>&1
      rc=$?
      cp "$build/meson-logs/testlog.txt" "$out/testlog.txt" 2>/dev/null
      summary+=("tests: rc=$rc $(grep -E '^(Ok|Fail|Skipped|Timeout):' "$out/tests.log" | tr -s ' ' | tr '\n' ' ')")
      ;;
    memcheck|racecheck|initcheck|synccheck) sanitize "$step" ;;
    demo)
      GST_PLUGIN_PATH=$GST_PLUGIN_PATH_1_0 bash pipelines/blur-demo.sh 6 "$out" >"$out/demo.log" 2>&1
      rc=$?
      summary+=("demo: rc=$rc $(cd "$out" && echo *.png)")
      ;;
    bench)
      # BENCH_ARGS: e.g. --elements-only
      timeout "${BENCH_TIMEOUT:-240}" "$build/bench/hipf-bench" ${BENCH_ARGS:-} \
        --csv "$out/bench.csv" >"$out/bench.txt" 2>"$out/bench.err"
      summary+=("bench: rc=$?")
      cat "$out/bench.txt"
      ;;
  esac
done

echo "==== summary"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
printf '%s\n' "${summary[@]}"
