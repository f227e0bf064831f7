#!/usr/bin/env python3
"""GPU-free check of exposure-control.py: its control law on made-up
measurements (with and without zones), the controls it would set, its
arguments, and a dry run on the test pattern, which prints corrections on a
machine with a GPU and otherwise fails with a clear message (exit 1, no
traceback).

Exit status: 0 pass, 1 fail, 77 skip (PyGObject or GStreamer missing).
"""

import importlib.util
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77
SCRIPT = os.path.join(HERE, "exposure-control.py")


def load():
    """The script as a module; the monitor it loads runs this test again
    under the system python where this one lacks PyGObject."""
    system = "/usr/bin/python3"
    if importlib.util.find_spec("gi") is None and (
            os.environ.get("HIPF_PY_REEXEC") or not os.path.exists(system)
            or os.path.realpath(sys.executable) == os.path.realpath(system)):
        print("SKIP: PyGObject missing")
        sys.exit(SKIP)
    spec = importlib.util.spec_from_file_location("exposure_control", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check(cond, what):
    if not cond:
        print(f"FAIL: {what}")
        sys.exit(1)


def main():
    ec = load()

    w = ec.centre_weights(3, 3)
    check(len(w) == 9 and w[4] == max(w) and w[0] == w[2] == w[6] == w[8],
          f"centre weights {w}")
    check(abs(w[4] - 3.0) < 1e-9 and min(w) >= 1.0, f"weights range {w}")

    # Without zones: the frame's ev-correction.
    check(ec.correction({"ev-correction": 0.75}, 118) == 0.75, "ev-correction")
    try:
        ec.correction({}, 118)
        check(False, "a message without ev-correction is refused")
    except ValueError:
        pass
    # With zones: the weighted mean decides; a clipped zone holds back.
    flat = {"zones": "4x3", "zone-mean": [59.0] * 12,
            "zone-clipped-high": [0.0] * 12, "ev-correction": 9.0}
    check(abs(ec.correction(flat, 118) - 1.0) < 1e-9, "zones: one EV up")
    clipped = dict(flat, **{"zone-clipped-high": [0.0] * 11 + [0.05]})
    check(ec.correction(clipped, 118) == -0.25, "a clipped zone holds back")
    bright = dict(flat, **{"zone-mean": [236.0] * 12})
    check(abs(ec.correction(bright, 118) + 1.0) < 1e-9, "zones: one EV down")
    # A 10-bit format's means come in its own scale, max-value 1023.
    # 236 of 1024 values is 59 of 256: one EV below the target 118.
    wide = dict(flat, **{"zone-mean": [236.0] * 12, "max-value": 1023})
    check(abs(ec.correction(wide, 118) - 1.0) < 1e-9, "10-bit zones: one EV up")
    try:
        ec.correction(dict(flat, **{"zone-mean": [59.0] * 5}), 118)
        check(False, "a zone count that does not match is refused")
    except ValueError:
        pass

    # The control law.
    check(ec.next_exposure(100, 0.05, 0.5, 0.1, 1, 5000) == 100, "deadband")
    check(ec.next_exposure(100, 1.0, 0.5, 0.1, 1, 5000) == round(100 * math.sqrt(2)),
          "half an EV up")
    check(ec.next_exposure(100, -2.0, 1.0, 0.1, 1, 5000) == 25, "two EV down")
    check(ec.next_exposure(4000, 3.0, 1.0, 0.1, 1, 5000) == 5000, "clamped high")
    check(ec.next_exposure(2, -3.0, 1.0, 0.1, 1, 5000) == 1, "clamped low")

    st = ec.monitor.Gst.Structure.new_from_string(
        ec.controls("exposure_time_absolute", 312))
    check(st is not None and st.get_value("exposure_time_absolute") == 312
          and st.get_value("auto_exposure") == 1, "extra-controls structure")

    # Arguments refused before anything runs.
    for bad in (["--gain", "2"], ["--min", "10", "--start", "5"],
                ["--source", "videotestsrc"]):
        r = subprocess.run([sys.executable, SCRIPT] + bad,
                           capture_output=True, text=True, timeout=60)
        check(r.returncode == 2, f"{bad}: exit {r.returncode}")

    # A dry run on the test pattern.
    r = subprocess.run([sys.executable, SCRIPT, "--dry-run", "--seconds", "3",
                        "--device", "/nonexistent", "--interval-ms", "100"],
                       capture_output=True, text=True, timeout=120)
    check("Traceback" not in r.stderr, f"dry run traceback:\n{r.stderr}")
    if r.returncode == 0:
        lines = [l for l in r.stdout.splitlines() if "would set" in l]
        check(lines, f"dry run printed no corrections:\n{r.stdout}")
    else:
        check(r.returncode == 1 and "error" in r.stderr,
              f"dry run failed unclearly (exit {r.returncode}):\n{r.stderr}")
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
