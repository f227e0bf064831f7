#!/usr/bin/env python3
"""Live exposure monitor built on hiphistogram.

Runs

    <source> ! videoconvert ! hiphistogram interval=<ns> ! fakesink sync=true

and prints one line per hiphistogram bus message: running time, luma mean,
standard deviation, median, the clipped fractions at both ends, the exposure
correction in EV and a hint (underexposed / ok / overexposed).

Usage:
    pipelines/exposure-monitor.py [--source "DESCRIPTION"] [--seconds N]
        [--interval-ms 1000] [--roi x,y,w,h] [--save-last FILE]

The default source is `v4l2src device=/dev/video0` when /dev/video0 exists,
else a moving test pattern (videotestsrc, 1280x720 at 30 fps).
GST_PLUGIN_PATH defaults to build/nvidia/gst in the repository.

Exit status: 0 after --seconds, end of stream or Ctrl-C; 1 on a pipeline
error or when hiphistogram cannot be found; 2 on bad arguments.
"""

import argparse
import math
import os
import sys

PROG = "exposure-monitor"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# hiphistogram lives in the repository's build unless told otherwise; this
# must be in the environment before Gst.init() scans the plugins.
if not os.environ.get("GST_PLUGIN_PATH"):
    os.environ["GST_PLUGIN_PATH"] = os.path.join(ROOT, "build", "nvidia", "gst")


def _import_gst():
    """Import Gst from PyGObject. A python3 without PyGObject (a pyenv or
    venv interpreter first in PATH, say) is replaced by the system one."""
    try:
        import gi
    except ImportError:
        system = "/usr/bin/python3"
        script = sys.argv[0] if sys.argv else ""
        if (os.path.exists(system) and os.path.isfile(script)
                and os.path.realpath(sys.executable) != os.path.realpath(system)
                and not os.environ.get("HIPF_PY_REEXEC")):
            os.environ["HIPF_PY_REEXEC"] = "1"
            os.execv(system, [system] + sys.argv)
        sys.exit(f"{PROG}: error: PyGObject is missing "
                 "(Debian: apt-get install python3-gi gir1.2-gstreamer-1.0)")
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst as _Gst
    return _Gst


Gst = _import_gst()
Gst.init(None)

ELEMENT = "hiphistogram"
NONE_TIME = (1 << 64) - 1  # GST_CLOCK_TIME_NONE
EV_LIMIT = 0.5  # |ev-correction| beyond this is under/overexposed
CLIP_LIMIT = 0.02  # clipped fraction beyond this is under/overexposed


# ---------------------------------------------------------------- formatting

def format_time(ns):
    """Nanoseconds as H:MM:SS.mmm (GST_CLOCK_TIME_NONE as -:--:--.---)."""
    if ns is None or ns < 0 or ns >= NONE_TIME:
        return "-:--:--.---"
    ms = ns // 1000000
    s, ms = divmod(ms, 1000)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}.{ms:03d}"


def exposure_hint(ev, clipped_low, clipped_high):
    """underexposed / ok / overexposed.

    The EV correction decides first (beyond +-0.5 EV); otherwise clipping of
    more than 2 % at one end does (the larger one when both ends clip)."""
    if ev is not None and not math.isnan(ev):
        if ev > EV_LIMIT:
            return "underexposed"
        if ev < -EV_LIMIT:
            return "overexposed"
    low = clipped_low if clipped_low is not None else 0.0
    high = clipped_high if clipped_high is not None else 0.0
    if low > CLIP_LIMIT or high > CLIP_LIMIT:
        return "underexposed" if low >= high else "overexposed"
    return "ok"


def field(structure, name, default=None):
    """A scalar field of a Gst.Structure (no GstValueArray needed here, so
    this works without gst-python's overrides)."""
    if not structure.has_field(name):
        return default
    try:
        return structure.get_value(name)
    except TypeError:
        return default


def _num(value, fmt, missing="?"):
    if value is None:
        return missing
    try:
        return format(value, fmt)
    except (TypeError, ValueError):
        return missing


def format_line(structure):
    """One line for a hiphistogram message structure."""
    mean = field(structure, "mean")
    stddev = field(structure, "stddev")
    median = field(structure, "median")
    low = field(structure, "clipped-low")
    high = field(structure, "clipped-high")
    ev = field(structure, "ev-correction")
    low_pct = None if low is None else 100.0 * low
    high_pct = None if high is None else 100.0 * high
    return (f"{format_time(field(structure, 'running-time'))}"
            f"  mean {_num(mean, '6.1f')}"
            f"  stddev {_num(stddev, '5.1f')}"
            f"  median {_num(median, '3d')}"
            f"  clip-low {_num(low_pct, '5.1f')}%"
            f"  clip-high {_num(high_pct, '5.1f')}%"
            f"  {_num(ev, '+5.2f')} EV"
            f"  {exposure_hint(ev, low, high)}")


# ----------------------------------------------------------------- pipeline

def default_source():
    if os.path.exists("/dev/video0"):
        return "v4l2src device=/dev/video0"
    return ("videotestsrc is-live=true pattern=ball ! "
            "video/x-raw,width=1280,height=720,framerate=30/1")


def parse_roi(text):
    """'x,y,w,h' -> (x, y, w, h); w or h 0 = to the frame edge."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(
            f"ROI must be x,y,w,h with four non-negative integers, got '{text}'")
    values = tuple(int(p) for p in parts)
    if any(v > 0xFFFFFFFF for v in values):
        raise argparse.ArgumentTypeError(f"ROI value out of range in '{text}'")
    return values


def pipeline_description(source, interval_ns=0, roi=None):
    props = [f"name=hist interval={int(interval_ns)}"]
    if roi is not None:
        x, y, w, h = roi
        props.append(f"roi-x={x} roi-y={y} roi-width={w} roi-height={h}")
    return (f"{source} ! videoconvert ! {ELEMENT} {' '.join(props)}"
            " ! fakesink sync=true")


def check_element(prog=PROG):
    """None when hiphistogram can be created, else an explanation."""
    if Gst.ElementFactory.find(ELEMENT) is not None:
        return None
    path = os.environ.get("GST_PLUGIN_PATH", "")
    plugin = Gst.Registry.get().find_plugin("hipfilters")
    if plugin is not None:
        why = (f"the hipfilters plugin found ({plugin.get_filename()}) has no "
               f"{ELEMENT} element: rebuild it (e.g. ninja -C build/nvidia)")
    else:
        why = ("the hipfilters plugin was not found: build it "
               "(ninja -C build/nvidia) and point GST_PLUGIN_PATH at its gst "
               "folder")
    return (f"{prog}: error: element '{ELEMENT}' not found; {why}.\n"
            f"{prog}: GST_PLUGIN_PATH={path}\n"
            f"{prog}: check with: GST_PLUGIN_PATH={path} gst-inspect-1.0 {ELEMENT}")


def report_error(msg, prog=PROG):
    """Prints an ERROR message's text and debug string to stderr."""
    err, debug = msg.parse_error()
    src = msg.src.get_path_string() if msg.src else "pipeline"
    print(f"{prog}: error from {src}: {err.message}", file=sys.stderr)
    if debug:
        print(f"{prog}: debug: {debug}", file=sys.stderr)


def run(description, on_histogram, seconds=0.0, prog=PROG):
    """Plays DESCRIPTION (a gst-launch description, or a pipeline) and calls
    on_histogram(structure) for every hiphistogram element message (the
    structure is only valid during the call); it returns False to stop.
    Stops after SECONDS (0: no limit), at end of stream or on Ctrl-C.
    Returns the exit status (0, or 1 on error)."""
    import time

    if isinstance(description, Gst.Element):
        pipeline = description
    else:
        try:
            pipeline = Gst.parse_launch(description)
        except Exception as e:  # GLib.Error
            print(f"{prog}: error: cannot build the pipeline: "
                  f"{getattr(e, 'message', e)}", file=sys.stderr)
            print(f"{prog}: pipeline: {description}", file=sys.stderr)
            return 1

    bus = pipeline.get_bus()
    wanted = (Gst.MessageType.ELEMENT | Gst.MessageType.EOS
              | Gst.MessageType.ERROR | Gst.MessageType.WARNING)
    status = 0
    try:
        if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
            # An element failed to start; its error is normally on the bus.
            msg = bus.timed_pop_filtered(Gst.SECOND, Gst.MessageType.ERROR)
            if msg is None:
                print(f"{prog}: error: the pipeline failed to start",
                      file=sys.stderr)
                return 1
            report_error(msg, prog)
            return 1
        deadline = time.monotonic() + seconds if seconds and seconds > 0 else None
        while True:
            wait = 0.1
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                wait = min(wait, left)
            msg = bus.timed_pop_filtered(int(wait * Gst.SECOND), wanted)
            if msg is None:
                continue
            if msg.type == Gst.MessageType.ELEMENT:
                st = msg.get_structure()
                if st is not None and st.get_name() == ELEMENT:
                    if on_histogram(st) is False:
                        break
            elif msg.type == Gst.MessageType.EOS:
                break
            elif msg.type == Gst.MessageType.ERROR:
                report_error(msg, prog)
                status = 1
                break
            elif msg.type == Gst.MessageType.WARNING:
                err, debug = msg.parse_warning()
                src = msg.src.get_path_string() if msg.src else "pipeline"
                print(f"{prog}: warning from {src}: {err.message}", file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        pipeline.set_state(Gst.State.NULL)
    return status


def save_text(path, text):
    """Writes TEXT to PATH atomically (a reader never sees half a file)."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    os.replace(tmp, path)


# --------------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="exposure-monitor.py",
        description="Print exposure statistics of a live video source, "
                    "measured by hiphistogram on the GPU: one line per "
                    "hiphistogram message.",
        epilog="Hint: ev-correction beyond +-0.5 EV says under/overexposed; "
               "otherwise more than 2% clipped at one end does. "
               "GST_PLUGIN_PATH defaults to build/nvidia/gst in the repository.")
    ap.add_argument("--source", default=None,
                    help="gst-launch description of the source (default: "
                         "v4l2src device=/dev/video0 if it exists, else a "
                         "moving videotestsrc pattern at 1280x720, 30 fps)")
    ap.add_argument("--seconds", type=float, default=0.0,
                    help="stop after this many seconds (default 0: run until "
                         "end of stream or Ctrl-C)")
    ap.add_argument("--interval-ms", type=float, default=1000.0,
                    help="at most one message per this many ms of running "
                         "time (hiphistogram's interval; 0 = every frame; "
                         "default 1000)")
    ap.add_argument("--roi", type=parse_roi, default=None, metavar="X,Y,W,H",
                    help="measure only this rectangle (luma pixels; W or H 0 "
                         "= to the frame edge)")
    ap.add_argument("--save-last", metavar="FILE", default=None,
                    help="write each message, serialized by "
                         "gst_structure_to_string, to FILE (replacing it); "
                         "plot it with pipelines/plot-histogram.py --message FILE")
    args = ap.parse_args(argv)
    if args.seconds < 0 or math.isnan(args.seconds):
        ap.error("--seconds must be >= 0")
    if args.interval_ms < 0 or math.isnan(args.interval_ms):
        ap.error("--interval-ms must be >= 0")

    problem = check_element()
    if problem:
        print(problem, file=sys.stderr)
        return 1

    source = args.source or default_source()
    description = pipeline_description(
        source, interval_ns=round(args.interval_ms * 1e6), roi=args.roi)
    print(f"{PROG}: {description}", file=sys.stderr)

    failed = []

    def on_histogram(st):
        try:
            print(format_line(st), flush=True)
        except BrokenPipeError:  # e.g. | head: stop quietly
            sys.stdout = open(os.devnull, "w")
            return False
        if args.save_last:
            try:
                save_text(args.save_last, st.to_string())
            except OSError as e:
                print(f"{PROG}: error: cannot write {args.save_last}: "
                      f"{e.strerror or e}", file=sys.stderr)
                failed.append(e)
                return False
        return True

    status = run(description, on_histogram, seconds=args.seconds)
    return 1 if failed else status


if __name__ == "__main__":
    sys.exit(main())
