#!/usr/bin/env python3
"""Steers a V4L2 camera's exposure from hiphistogram's measurements.

Runs

    v4l2src name=cam ! videoconvert ! hiphistogram interval=<ns> ! <sink>

and, at each hiphistogram message, moves the camera's exposure towards the
target by a fraction of the correction the message gives, and sets it through
v4l2src's extra-controls (manual exposure). The correction is the frame's
ev-correction; where the message carries zones (hiphistogram zones=COLSxROWS),
their means weighted towards the centre decide instead, and a zone clipped at
the top holds the exposure back. --dry-run prints what it would set, and takes
a moving test pattern where there is no camera.

Usage:
    pipelines/exposure-control.py [--device /dev/video0] [--dry-run]
        [--source "DESCRIPTION"] [--seconds N] [--interval-ms 500]
        [--control exposure_time_absolute] [--start 156] [--min 1]
        [--max 5000] [--gain 0.5] [--deadband 0.1] [--target 118]

Exit status: 0 after --seconds, end of stream or Ctrl-C; 1 on a pipeline
error or when hiphistogram cannot be found; 2 on bad arguments.
"""

import argparse
import importlib.util
import math
import os
import sys

PROG = "exposure-control"
HERE = os.path.dirname(os.path.abspath(__file__))
CLIP_LIMIT = 0.02  # a zone clipped at the top beyond this holds exposure back


def _load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The monitor's pipeline runner and the plot script's structure reader
# (which reads arrays with or without gst-python's overrides).
monitor = _load("exposure_monitor", "exposure-monitor.py")
plot = _load("plot_histogram", "plot-histogram.py")


# ------------------------------------------------------------------- control

def centre_weights(cols, rows):
    """Row-major weights, 3 at the centre falling to 1 at the corners."""
    weights = []
    for j in range(rows):
        for i in range(cols):
            dx = ((i + 0.5) / cols - 0.5) * 2
            dy = ((j + 0.5) / rows - 0.5) * 2
            weights.append(1.0 + 2.0 * max(0.0, 1.0 - math.hypot(dx, dy)))
    return weights


def correction(fields, target):
    """The correction in EV a message asks for: from its zones where it has
    them (centre-weighted mean; no brighter while a zone clips at the top),
    else its ev-correction."""
    zones = fields.get("zones")
    means = fields.get("zone-mean")
    if zones and means:
        cols, rows = (int(v) for v in str(zones).split("x"))
        weights = centre_weights(cols, rows)
        if len(means) != len(weights):
            raise ValueError(f"{len(means)} zone means for {zones} zones")
        mean = sum(w * m for w, m in zip(weights, means)) / sum(weights)
        # The target is in the 8-bit scale; 10- and 16-bit formats report
        # theirs (max-value 1023 or 65535). Brought down as the element's
        # ev-correction brings its mean: times 256 over the scale's size.
        mean *= 256.0 / (fields.get("max-value", 255) + 1)
        ev = math.log2(target / max(mean, 1.0))
        high = fields.get("zone-clipped-high") or []
        if high and max(high) > CLIP_LIMIT:
            ev = min(ev, -0.25)
        return ev
    ev = fields.get("ev-correction")
    if ev is None or math.isnan(ev):
        raise ValueError("no ev-correction in the message")
    return ev


def next_exposure(current, ev, gain, deadband, low, high):
    """The exposure after a correction of EV: a GAIN fraction of it, none
    within DEADBAND, rounded and kept within [LOW, HIGH]."""
    if abs(ev) < deadband:
        return current
    value = round(current * 2.0 ** (gain * ev))
    return max(low, min(high, value))


def controls(name, value):
    """v4l2src's extra-controls: manual exposure (auto_exposure 1) at VALUE."""
    return f"c,auto_exposure=1,{name}={int(value)}"


# ----------------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="exposure-control.py",
        description="Steer a V4L2 camera's exposure from hiphistogram's "
                    "measurements on the GPU.")
    ap.add_argument("--device", default="/dev/video0", help="V4L2 device")
    ap.add_argument("--dry-run", action="store_true",
                    help="print what would be set, set nothing (a moving test "
                         "pattern stands in where the device does not exist)")
    ap.add_argument("--source", default=None,
                    help="gst-launch description of the source instead of "
                         "v4l2src (only with --dry-run)")
    ap.add_argument("--seconds", type=float, default=0.0,
                    help="stop after this many seconds (0: no limit)")
    ap.add_argument("--interval-ms", type=float, default=500.0,
                    help="at most one correction per this many ms")
    ap.add_argument("--control", default="exposure_time_absolute",
                    help="the V4L2 control to set (exposure_absolute on "
                         "older drivers)")
    ap.add_argument("--start", type=int, default=156,
                    help="the exposure to start from, in the control's units")
    ap.add_argument("--min", type=int, default=1, dest="low")
    ap.add_argument("--max", type=int, default=5000, dest="high")
    ap.add_argument("--gain", type=float, default=0.5,
                    help="fraction of the correction taken each time (0-1]")
    ap.add_argument("--deadband", type=float, default=0.1,
                    help="corrections smaller than this many EV are left")
    ap.add_argument("--target", type=float, default=118.0,
                    help="mean luma of a well exposed frame, for zones")
    args = ap.parse_args(argv)
    if not 0 < args.gain <= 1:
        ap.error("--gain must be in (0, 1]")
    if args.low < 1 or args.high < args.low or not args.low <= args.start <= args.high:
        ap.error("--min, --start and --max must satisfy 1 <= min <= start <= max")
    if args.deadband < 0 or args.seconds < 0 or args.interval_ms < 0:
        ap.error("--deadband, --seconds and --interval-ms must be >= 0")
    if args.source and not args.dry_run:
        ap.error("--source only with --dry-run: the exposure is set on v4l2src")

    problem = monitor.check_element(PROG)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    camera = os.path.exists(args.device)
    if args.source:
        source = args.source
    elif camera:
        source = (f"v4l2src name=cam device={args.device} "
                  f"extra-controls=\"{controls(args.control, args.start)}\"")
    elif args.dry_run:
        source = monitor.default_source()
    else:
        print(f"{PROG}: error: {args.device} does not exist (--dry-run runs "
              "on a test pattern)", file=sys.stderr)
        return 1
    description = monitor.pipeline_description(
        source, interval_ns=round(args.interval_ms * 1e6))
    pipeline = monitor.Gst.parse_launch(description)
    cam = pipeline.get_by_name("cam")
    state = {"exposure": args.start}
    print(f"{PROG}: {description}", file=sys.stderr)

    def on_histogram(st):
        try:
            ev = correction(plot.structure_fields(st), args.target)
        except ValueError as e:
            print(f"{PROG}: warning: {e}", file=sys.stderr)
            return True
        new = next_exposure(state["exposure"], ev, args.gain, args.deadband,
                            args.low, args.high)
        verb = "would set" if args.dry_run else "set"
        print(f"{monitor.format_time(monitor.field(st, 'running-time'))}"
              f"  {ev:+5.2f} EV  {verb} {args.control}={new}", flush=True)
        if new != state["exposure"] and not args.dry_run and cam is not None:
            cam.set_property("extra-controls", monitor.Gst.Structure.
                             new_from_string(controls(args.control, new)))
        state["exposure"] = new
        return True

    return monitor.run(pipeline, on_histogram, seconds=args.seconds, prog=PROG)


if __name__ == "__main__":
    sys.exit(main())
