#!/usr/bin/env python3
"""GPU-free check of exposure-monitor.py and plot-histogram.py.

Builds hiphistogram messages as GStreamer structures (Gst.Structure.
new_from_string, as the element's fields would be), checks that the
to_string() serialization is read back exactly (by the fallback parser and,
where gst-python's overrides are installed, by them too), formats monitor
lines, plots PNGs through plot-histogram.py's command line and checks them.
Last, exposure-monitor.py runs a short test pattern: on a machine with a GPU
and hiphistogram that prints lines, otherwise it must fail with a clear
message (exit 1, no traceback).

Usage: pipelines/test-plot-histogram.py [--keep DIR]
  --keep DIR  write the PNGs and message files to DIR and keep them
Exit status: 0 pass, 1 fail, 77 skip (PyGObject/GStreamer/matplotlib missing).
"""

import importlib.util
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77


def _python_with_gi():
    try:
        import gi  # noqa: F401
    except ImportError:
        system = "/usr/bin/python3"
        if (os.path.exists(system) and not os.environ.get("HIPF_PY_REEXEC")
                and os.path.realpath(sys.executable) != os.path.realpath(system)):
            os.environ["HIPF_PY_REEXEC"] = "1"
            os.execv(system, [system] + sys.argv)
        print("SKIP: PyGObject missing (python3-gi)")
        sys.exit(SKIP)


_python_with_gi()
try:
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import GObject, Gst
    import matplotlib  # noqa: F401
except (ImportError, ValueError) as e:
    print(f"SKIP: {e}")
    sys.exit(SKIP)
Gst.init(None)


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


plot_mod = load("plot_histogram", "plot-histogram.py")
mon = load("exposure_monitor", "exposure-monitor.py")

failures = []


def check(cond, what):
    if cond:
        print(f"ok   {what}")
    else:
        print(f"FAIL {what}")
        failures.append(what)
    return cond


# ---------------------------------------------------------------------------
# Synthetic frames and their messages, computed as the element defines them.

def luma_of(r, g, b):
    return (77 * r + 150 * g + 29 * b + 128) >> 8


def histogram(values, bins):
    h = [0] * bins
    for v in values:
        h[v * bins // 256] += 1
    return h


def stats(luma, low_threshold=4, high_threshold=251, target=118):
    n = len(luma)
    mean = sum(luma) / n
    var = sum((v - mean) ** 2 for v in luma) / n
    s = sorted(luma)
    return {
        "pixels": n, "mean": mean, "stddev": math.sqrt(var),
        "median": s[(n - 1) // 2], "min": s[0], "max": s[-1],
        "clipped-low": sum(1 for v in luma if v <= low_threshold) / n,
        "clipped-high": sum(1 for v in luma if v >= high_threshold) / n,
        # hiphistogram reads a black frame as mean 1 to stay finite
        "ev-correction": math.log2(target / max(mean, 1.0)),
    }


def rgba_frame(w=160, h=90, seed=1):
    """A dim scene with a blown-out window: underexposed-ish, with clipping."""
    rnd = random.Random(seed)
    px = []
    for y in range(h):
        for x in range(w):
            if 110 <= x < 140 and 10 <= y < 40:  # window, clipped white
                r = g = b = 255
            else:
                base = 20 + 60 * x / w + 25 * y / h
                r = base + 25 + rnd.gauss(0, 9)
                g = base + 5 + rnd.gauss(0, 9)
                b = base - 10 + rnd.gauss(0, 12)
                r, g, b = (max(0, min(255, int(round(c)))) for c in (r, g, b))
            px.append((r, g, b, 255))
    return px


def rgba_message(bins=256):
    px = rgba_frame()
    red, green, blue, alpha = ([p[i] for p in px] for i in range(4))
    luma = [luma_of(p[0], p[1], p[2]) for p in px]
    channels = ["red", "green", "blue", "alpha", "luma"]
    hists = [histogram(c, bins) for c in (red, green, blue, alpha, luma)]
    fields = {"timestamp": 1_000_000_000, "stream-time": 1_000_000_000,
              "running-time": 3_723_456_000_000, "duration": 33_333_333,
              "channels": channels, "histograms": hists}
    fields.update(stats(luma))
    return fields


def yuv_message(bins=64):
    """I420-like: full-size luma, quarter-size u and v."""
    rnd = random.Random(2)
    luma = [max(0, min(255, int(rnd.gauss(200, 30)))) for _ in range(64 * 48)]
    u = [max(0, min(255, int(rnd.gauss(110, 12)))) for _ in range(32 * 24)]
    v = [max(0, min(255, int(rnd.gauss(150, 15)))) for _ in range(32 * 24)]
    fields = {"timestamp": 0, "stream-time": 0, "running-time": 0,
              "duration": (1 << 64) - 1,  # GST_CLOCK_TIME_NONE
              "channels": ["luma", "u", "v"],
              "histograms": [histogram(c, bins) for c in (luma, u, v)]}
    fields.update(stats(luma))
    return fields


def black_message():
    """GRAY8, all black: mean 0, ev-correction log2(118)."""
    luma = [0] * (16 * 16)
    fields = {"timestamp": 0, "stream-time": 0, "running-time": 5_000_000,
              "duration": 0, "channels": ["luma"],
              "histograms": [histogram(luma, 256)]}
    fields.update(stats(luma))
    return fields


U64 = ("timestamp", "stream-time", "running-time", "duration", "pixels")
UINT = ("median", "min", "max")
DOUBLE = ("mean", "stddev", "clipped-low", "clipped-high", "ev-correction")


def serialize(fields):
    """The string a test would hand Gst.Structure.new_from_string, in the
    form the brief gives (GstValueArray of GstValueArrays of uint)."""
    parts = ["hiphistogram"]
    for k in ("timestamp", "stream-time", "running-time", "duration"):
        parts.append(f"{k}=(guint64){fields[k]}")
    parts.append("channels=(string)< " + ", ".join(fields["channels"]) + " >")
    parts.append("histograms=(GstValueArray)< " + ", ".join(
        "< " + ", ".join(f"(uint){c}" for c in h) + " >"
        for h in fields["histograms"]) + " >")
    parts.append(f"pixels=(guint64){fields['pixels']}")
    for k in ("mean", "stddev"):
        parts.append(f"{k}=(double){fields[k]!r}")
    for k in UINT:
        parts.append(f"{k}=(uint){fields[k]}")
    for k in ("clipped-low", "clipped-high", "ev-correction"):
        parts.append(f"{k}=(double){fields[k]!r}")
    return ", ".join(parts) + ";"


def type_name(st, field):
    return GObject.type_name(st.get_field_type(field))


def same(a, b):
    """Equality where floats must match exactly (nan == nan)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


# ---------------------------------------------------------------------------

def png_info(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def run(cmd, timeout=120):
    env = dict(os.environ, MPLBACKEND="Agg")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def test_structures(outdir):
    msgs = {"rgba": rgba_message(), "rgba-16bins": rgba_message(bins=16),
            "yuv-64bins": yuv_message(), "black": black_message()}
    overrides = None
    texts = {}
    for name, fields in msgs.items():
        st = Gst.Structure.new_from_string(serialize(fields))
        if not check(st is not None, f"{name}: Gst.Structure.new_from_string accepts it"):
            continue
        check(st.get_name() == "hiphistogram", f"{name}: structure name")
        check(type_name(st, "histograms") == "GstValueArray"
              and type_name(st, "channels") == "GstValueArray",
              f"{name}: channels/histograms are GstValueArray")
        check(all(type_name(st, k) == "guint64" for k in U64)
              and all(type_name(st, k) == "guint" for k in UINT)
              and all(type_name(st, k) == "gdouble" for k in DOUBLE),
              f"{name}: scalar field types")
        text = st.to_string()
        texts[name] = text
        # GStreamer 1.22 writes the outer array as (uint)< < (uint)1, ... > >.
        check(re.search(r"histograms=\([a-zA-Z0-9]+\)< < \(uint\)\d+", text) is not None
              and "channels=(string)< " in text and text.endswith(";"),
              f"{name}: to_string() has the expected array syntax")
        pname, parsed = plot_mod.parse_structure_string(text)
        check(pname == "hiphistogram" and same(parsed, fields),
              f"{name}: parser reads to_string() back exactly")
        via = plot_mod.structure_fields(st)
        check(same(via, fields), f"{name}: structure_fields() reads it back")
        try:
            st.get_value("histograms")
            overrides = True
        except TypeError:
            overrides = False
        again = Gst.Structure.new_from_string(text)
        check(again is not None and again.to_string() == text,
              f"{name}: to_string() round-trips through new_from_string")
        with open(os.path.join(outdir, f"{name}.txt"), "w") as f:
            f.write(text + "\n")
    print(f"info gst-python overrides: {'present' if overrides else 'absent (to_string parser used)'}")
    return msgs, texts


def test_parser_edges():
    text = ('hiphistogram, s=(string)"a\\ b\\"c\\303\\251", e=(GstValueArray)< >, '
            'l=(int){ 1, 2 }, f=(double)< 1.5, -inf, 2.0000000000000002e-05 >, '
            'fr=(fraction)30/1, b=(boolean)true, n=(GstValueArray)< < >, < (uint)7 > >')
    st = Gst.Structure.new_from_string(text)
    check(st is not None, "edge cases: GStreamer accepts the structure")
    name, f = plot_mod.parse_structure_string(st.to_string())
    check(f.get("s") == 'a b"c\u00e9' and f.get("e") == [] and f.get("l") == [1, 2]
          and f.get("f") == [1.5, -math.inf, 2.0000000000000002e-05]
          and f.get("b") is True and f.get("n") == [[], [7]] and "fr" in f,
          "edge cases: quoted/escaped strings, empty arrays, lists, inf, bool")
    for bad in ("hiphistogram, h=(uint)< 1, 2", "hiphistogram, s=(string)\"x",
                "hiphistogram, a=(uint)< 1 2 >", "hiphistogram, a=(uint)x"):
        try:
            plot_mod.parse_structure_string(bad)
            check(False, f"parser rejects {bad!r}")
        except plot_mod.ParseError:
            check(True, f"parser rejects {bad!r}")


def test_monitor_lines(texts):
    st = Gst.Structure.new_from_string(texts["rgba"])
    line = mon.format_line(st)
    print(f"info {line}")
    f = plot_mod.parse_structure_string(texts["rgba"])[1]
    check(line.startswith("1:02:03.456  ") and f"mean {f['mean']:6.1f}" in line
          and f"median {f['median']:3d}" in line
          and f"{f['ev-correction']:+5.2f} EV" in line
          and f"clip-high {100 * f['clipped-high']:5.1f}%" in line
          and line.count("\n") == 0,
          "monitor line: time, mean, median, clipping, EV")
    black = mon.format_line(Gst.Structure.new_from_string(texts["black"]))
    check("+6.88 EV" in black and black.endswith("underexposed")
          and black.startswith("0:00:00.005"), f"monitor line for a black frame: {black}")
    check(mon.format_time((1 << 64) - 1) == "-:--:--.---", "GST_CLOCK_TIME_NONE time")
    cases = [((0.0, 0.0, 0.0), "ok"), ((0.6, 0.0, 0.0), "underexposed"),
             ((-0.6, 0.0, 0.0), "overexposed"), ((0.4, 0.0, 0.03), "overexposed"),
             ((-0.4, 0.03, 0.0), "underexposed"), ((0.0, 0.05, 0.03), "underexposed"),
             ((0.0, 0.02, 0.02), "ok"), ((math.inf, 0.0, 0.0), "underexposed"),
             ((math.nan, 0.0, 0.0), "ok")]
    check(all(mon.exposure_hint(*a) == want for a, want in cases), "exposure hints")


def test_plots(outdir, texts):
    msgs_rgba = rgba_message()
    script = os.path.join(HERE, "plot-histogram.py")
    py = sys.executable
    jobs = [("rgba", []), ("rgba", ["--log"]), ("rgba-16bins", []),
            ("yuv-64bins", ["--log"]), ("black", []),
            ("rgba", ["--channels", "luma", "--title", "luma only"])]
    for name, extra in jobs:
        out = os.path.join(outdir, f"{name}{''.join(a for a in extra if a.startswith('--'))}.png")
        rc, _, err = run([py, script, "--message", os.path.join(outdir, f"{name}.txt"),
                          "-o", out] + extra)
        info = png_info(out) if os.path.exists(out) else None
        check(rc == 0 and info == (1000, 560) and os.path.getsize(out) > 15000,
              f"plot {name} {' '.join(extra)} -> {os.path.basename(out)} "
              f"(rc {rc}, {info}, {os.path.getsize(out) if info else 0} bytes)"
              + (f"\n{err}" if rc else ""))

    # Zones: a heat map beside the histogram; a grid that does not match
    # its means is an error.
    def with_zones(zones, means, high):
        return (serialize(msgs_rgba)[:-1] + f", zones=(string){zones}"
                + ", zone-mean=(double)< " + ", ".join(f"(double){m!r}" for m in means)
                + " >, zone-clipped-high=(double)< "
                + ", ".join(f"(double){h!r}" for h in high) + " >;")
    means = [float(16 * k + 3) for k in range(12)]
    high = [0.0] * 11 + [0.25]
    for name, zones, n in (("zones", "4x3", 12), ("zones-bad", "5x3", 12)):
        st = Gst.Structure.new_from_string(with_zones(zones, means[:n], high[:n]))
        check(st is not None, f"{name}: message with zones")
        path = os.path.join(outdir, f"{name}.txt")
        with open(path, "w") as f:
            f.write(st.to_string() + "\n")
        out = os.path.join(outdir, f"{name}.png")
        rc, _, err = run([py, script, "--message", path, "-o", out])
        if name == "zones":
            check(rc == 0 and png_info(out) == (1500, 560),
                  f"zones heat map beside the histogram (rc {rc}, "
                  f"{png_info(out) if os.path.exists(out) else None})\n{err}")
        else:
            check(rc == 1 and "zone means" in err and "Traceback" not in err,
                  f"mismatched zones rejected: {err.strip()}")

    # A 10-bit format: 1024 bins over its scale, max-value 1023.
    check(plot_mod.value_scale({"max-value": 1023}) == 1024
          and plot_mod.value_scale({"max-value": 65535}) == 65536
          and plot_mod.value_scale({}) == 256, "the scale from max-value")
    try:
        plot_mod.value_scale({"max-value": "wide"})
        check(False, "a max-value that is not a number is refused")
    except ValueError:
        pass
    counts = ", ".join(f"(uint){(k * 37) % 1000}" for k in range(1024))
    st = Gst.Structure.new_from_string(
        "hiphistogram, channels=(string)< luma >, histograms=(GstValueArray)"
        f"< < {counts} > >, max-value=(uint)1023, mean=(double)600.5, "
        "median=(uint)610, min=(uint)1, max=(uint)1023, pixels=(guint64)511488;")
    check(st is not None, "10-bit message")
    path = os.path.join(outdir, "wide.txt")
    with open(path, "w") as f:
        f.write(st.to_string() + "\n")
    out = os.path.join(outdir, "wide.png")
    rc, _, err = run([py, script, "--message", path, "-o", out])
    check(rc == 0 and png_info(out) == (1000, 560),
          f"10-bit histogram plotted (rc {rc})\n{err}")

    # gst-launch-1.0 -m output: the last hiphistogram message counts.
    launch = os.path.join(outdir, "gst-launch-m.txt")
    with open(launch, "w") as f:
        f.write("Setting pipeline to PLAYING ...\n")
        f.write('Got message #12 from element "hiphistogram0" (element): '
                + texts["black"] + "\n")
        f.write('Got message #14 from element "hiphistogram0" (element): '
                + texts["yuv-64bins"] + "\n")
        f.write("Got EOS from element \"pipeline0\".\n")
    picked = plot_mod.read_message_file(launch)
    check(picked["channels"] == ["luma", "u", "v"], "gst-launch -m output: last message read")
    out = os.path.join(outdir, "from-gst-launch.png")
    rc, _, err = run([py, script, "--message", launch, "-o", out])
    check(rc == 0 and png_info(out) is not None, "plot from gst-launch -m output")

    # Bad input: a clear error, exit 1, no traceback.
    bad = os.path.join(outdir, "bad.txt")
    with open(bad, "w") as f:
        f.write("hiphistogram, histograms=(uint)< < (uint)1, (uint)2 >\n")
    rc, _, err = run([py, script, "--message", bad, "-o", os.path.join(outdir, "bad.png")])
    check(rc == 1 and "plot-histogram: error:" in err and "Traceback" not in err,
          f"truncated message rejected: {err.strip()}")
    rc, _, err = run([py, script, "--message", os.path.join(outdir, "rgba.txt"),
                      "--channels", "cyan", "-o", os.path.join(outdir, "bad.png")])
    check(rc == 1 and "no channel cyan" in err and "Traceback" not in err,
          "unknown channel rejected")
    rc, _, err = run([py, script, "--message", os.path.join(outdir, "missing.txt")])
    check(rc == 1 and "cannot read" in err, "missing message file rejected")


def test_monitor_bus(texts):
    """run() on pipelines without hiphistogram: messages posted by a pad
    probe as the element would post them, end of stream, errors."""
    import contextlib
    import io

    pipeline = Gst.parse_launch("videotestsrc num-buffers=4 ! identity name=id ! fakesink")
    ident = pipeline.get_by_name("id")

    def post(pad, info):
        st = Gst.Structure.new_from_string(texts["rgba"])
        ident.post_message(Gst.Message.new_element(ident, st))
        return Gst.PadProbeReturn.OK

    ident.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, post)
    lines, saved = [], []

    def on_histogram(st):
        lines.append(mon.format_line(st))
        saved.append(plot_mod.structure_fields(st))
        return True

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = mon.run(pipeline, on_histogram, seconds=20)
    check(rc == 0 and len(lines) == 4 and all(x.endswith("underexposed") for x in lines)
          and saved[0]["channels"] == ["red", "green", "blue", "alpha", "luma"],
          f"bus: 4 posted messages read, then EOS (rc {rc}, {len(lines)} lines)")

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = mon.run("filesrc location=/nonexistent/x ! fakesink", on_histogram, seconds=20)
    text = err.getvalue()
    check(rc == 1 and "error from" in text and "debug:" in text,
          f"bus: ERROR reported with its debug string: {text.splitlines()[0] if text else ''}")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = mon.run("nosuchelement ! fakesink", on_histogram)
    check(rc == 1 and "cannot build the pipeline" in err.getvalue(),
          "bad pipeline description reported")
    with contextlib.redirect_stderr(io.StringIO()):
        rc = mon.run("videotestsrc is-live=true ! fakesink sync=true", on_histogram,
                     seconds=0.5)
    check(rc == 0, "--seconds stops a live source")


def test_monitor_run(outdir):
    """On a machine without the element or a GPU this must fail cleanly."""
    script = os.path.join(HERE, "exposure-monitor.py")
    last = os.path.join(outdir, "last.txt")
    try:
        rc, out, err = run([sys.executable, script, "--source",
                            "videotestsrc num-buffers=3 ! video/x-raw,width=320,height=240",
                            "--interval-ms", "0", "--seconds", "20",
                            "--save-last", last], timeout=60)
    except subprocess.TimeoutExpired:
        check(False, "exposure-monitor.py ends by itself")
        return
    lines = out.splitlines()
    line_re = re.compile(r"^\d+:\d\d:\d\d\.\d{3}  mean .* EV  (underexposed|ok|overexposed)$")
    if rc == 0:
        check(len(lines) >= 1 and all(line_re.match(x) for x in lines),
              f"exposure-monitor.py ran: {len(lines)} lines")
        check(os.path.exists(last)
              and plot_mod.read_message_file(last).get("pixels") == 320 * 240,
              "--save-last wrote a readable message")
    else:
        first = err.strip().splitlines()[-1] if err.strip() else ""
        check(rc == 1 and "Traceback" not in err and "exposure-monitor: error" in err,
              f"exposure-monitor.py fails cleanly without element/GPU: {first}")


def main():
    keep = None
    args = sys.argv[1:]
    if args[:1] == ["--keep"] and len(args) == 2:
        keep = args[1]
        os.makedirs(keep, exist_ok=True)
    elif args:
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory(prefix="hiphist-test-") as tmp:
        outdir = keep or tmp
        _, texts = test_structures(outdir)
        test_parser_edges()
        if len(texts) == 4:
            test_monitor_lines(texts)
            test_plots(outdir, texts)
            test_monitor_bus(texts)
        test_monitor_run(outdir)
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
