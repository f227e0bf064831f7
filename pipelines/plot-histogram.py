#!/usr/bin/env python3
"""Plot one hiphistogram message to a PNG.

Usage:
    pipelines/plot-histogram.py --message FILE [-o histogram.png] [--log]
    pipelines/plot-histogram.py --source "DESCRIPTION" [--roi x,y,w,h] [-o ...]

--message FILE reads a hiphistogram structure serialized by
gst_structure_to_string (as written by exposure-monitor.py --save-last FILE,
or lines of `gst-launch-1.0 ... -m` output; the last hiphistogram message in
the file is used). --source runs `DESCRIPTION ! videoconvert ! hiphistogram
! fakesink`, takes the first message and plots it.

Every channel is drawn in its own colour (red, green, blue, alpha grey, luma
black, u purple, v orange) over the format's sample values (0..255 for 8-bit
formats, up to the message's max-value for wider ones); the title carries the
statistics of the message.

Exit status: 0 when the PNG was written, 1 on errors, 2 on bad arguments.
"""

import argparse
import importlib.util
import os
import re
import sys

PROG = "plot-histogram"
HERE = os.path.dirname(os.path.abspath(__file__))

# ----------------------------------------------------------------------------
# Reading GStreamer's structure serialization
#
# gst_structure_to_string() writes e.g.
#   hiphistogram, timestamp=(guint64)0, channels=(string)< red, green >,
#   histograms=(uint)< < (uint)1, (uint)2 >, < (uint)3, (uint)4 > >,
#   mean=(double)118.5, median=(uint)120, name=(string)"a\ b";
# GstValueArray is < ... >, GstValueList is { ... }; a (type) may prefix a
# field or an element and applies to the elements inside a list (GStreamer
# 1.22 writes the outer array of arrays as (uint)< ... >); strings that
# need it are quoted, with \c and \ooo (octal byte) escapes.
# ----------------------------------------------------------------------------

_INT_TYPES = {"int", "i", "uint", "u", "gint", "guint", "int64", "uint64",
              "gint64", "guint64", "long", "ulong", "glong", "gulong",
              "char", "uchar", "gchar", "guchar", "bitmask", "flagset"}
_FLOAT_TYPES = {"double", "d", "float", "f", "gdouble", "gfloat"}
_STRING_TYPES = {"string", "str", "s", "gchararray"}
_BOOL_TYPES = {"boolean", "bool", "b", "gboolean"}
# GST_ASCII_IS_STRING: characters GStreamer leaves unquoted.
_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz"
                         "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+/:.")


class ParseError(ValueError):
    pass


class _Parser:
    def __init__(self, text):
        self.s = text
        self.i = 0

    def fail(self, what):
        context = self.s[max(0, self.i - 20):self.i + 20]
        raise ParseError(f"{what} at offset {self.i} (near {context!r})")

    def ws(self):
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1

    def peek(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def expect(self, c):
        self.ws()
        if self.peek() != c:
            self.fail(f"expected {c!r}")
        self.i += 1

    def token(self):
        """An unquoted word; backslash escapes are kept as their char."""
        out = bytearray()
        while self.i < len(self.s):
            c = self.s[self.i]
            if c in _TOKEN_CHARS:
                out += c.encode()
                self.i += 1
            elif c == "\\" and self.i + 1 < len(self.s):
                self.i = self._escape(out)
            else:
                break
        if not out:
            self.fail("expected a value")
        return out.decode("utf-8", "replace")

    def _escape(self, out):
        """Decodes the escape at self.i (a backslash) into OUT; returns the
        index after it."""
        j = self.i + 1
        octal = self.s[j:j + 3]
        if len(octal) == 3 and all(c in "01234567" for c in octal):
            out.append(int(octal, 8) & 0xFF)
            return j + 3
        out += self.s[j].encode()
        return j + 1

    def quoted(self):
        self.i += 1  # opening quote
        out = bytearray()
        while True:
            if self.i >= len(self.s):
                self.fail("unterminated string")
            c = self.s[self.i]
            if c == '"':
                self.i += 1
                return out.decode("utf-8", "replace")
            if c == "\\" and self.i + 1 < len(self.s):
                self.i = self._escape(out)
            else:
                out += c.encode()
                self.i += 1

    def bracketed(self):
        """[ ... ] (a range or a nested structure), kept as its text."""
        start, depth, quote = self.i, 0, False
        while self.i < len(self.s):
            c = self.s[self.i]
            if quote:
                if c == "\\":
                    self.i += 1
                elif c == '"':
                    quote = False
            elif c == '"':
                quote = True
            elif c == "[":
                depth += 1
            elif c == "]":
                depth -= 1
                if depth == 0:
                    self.i += 1
                    return self.s[start:self.i]
            self.i += 1
        self.fail("unterminated [")

    def value(self, type_hint=None):
        self.ws()
        if self.peek() == "(":
            end = self.s.find(")", self.i)
            if end < 0:
                self.fail("unterminated (type)")
            type_hint = self.s[self.i + 1:end].strip()
            self.i = end + 1
            self.ws()
        c = self.peek()
        if c in ("<", "{"):
            return self.sequence(">" if c == "<" else "}", type_hint)
        if c == "[":
            return self.bracketed()
        if c == '"':
            text = self.quoted()
            return text if type_hint in _STRING_TYPES or type_hint is None \
                else _convert(text, type_hint)
        return _convert(self.token(), type_hint)

    def sequence(self, close, type_hint):
        self.i += 1
        items = []
        self.ws()
        if self.peek() == close:
            self.i += 1
            return items
        while True:
            items.append(self.value(type_hint))
            self.ws()
            c = self.peek()
            self.i += 1
            if c == close:
                return items
            if c != ",":
                self.i -= 1
                self.fail(f"expected ',' or {close!r}")

    def structure(self):
        self.ws()
        name = self.quoted() if self.peek() == '"' else self.token()
        fields = {}
        while True:
            self.ws()
            c = self.peek()
            if c in ("", ";"):
                break
            self.expect(",")
            self.ws()
            if self.peek() in ("", ";"):
                break
            eq = self.s.find("=", self.i)
            if eq < 0:
                self.fail("expected field=value")
            key = self.s[self.i:eq].strip()
            if not key:
                self.fail("empty field name")
            self.i = eq + 1
            fields[key] = self.value()
        if self.peek() == ";":
            self.i += 1
        self.ws()
        if self.i != len(self.s):
            self.fail("unexpected text after the structure")
        return name, fields


def _convert(text, type_hint):
    t = (type_hint or "").strip()
    try:
        if t in _INT_TYPES:
            try:
                return int(text)
            except ValueError:
                return int(text, 0)
        if t in _FLOAT_TYPES:
            return float(text)
        if t in _BOOL_TYPES:
            return text.lower() in ("true", "t", "yes", "1")
        if t in _STRING_TYPES:
            return text
    except ValueError:
        raise ParseError(f"{text!r} is not a valid {t}") from None
    for conv in (int, float):  # no or an unknown type
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_structure_string(text):
    """Parses gst_structure_to_string output into (name, {field: value});
    GstValueArray and GstValueList become Python lists."""
    return _Parser(text.strip()).structure()


def _native(value):
    """gst-python's Gst.ValueArray / Gst.ValueList (.array) to lists."""
    array = getattr(value, "array", None)
    if array is not None and not isinstance(value, (str, bytes)):
        return [_native(v) for v in array]
    if isinstance(value, (list, tuple)):
        return [_native(v) for v in value]
    return value


def structure_fields(structure):
    """The fields of a Gst.Structure as {name: value} with arrays as lists.

    With gst-python's overrides (Debian: python3-gst-1.0) the values are read
    directly; without them PyGObject cannot convert GstValueArray, and the
    structure's to_string() is parsed instead."""
    try:
        fields = {}
        for i in range(structure.n_fields()):
            name = structure.nth_field_name(i)
            fields[name] = _native(structure.get_value(name))
        return fields
    except TypeError:  # "unknown type GstValueArray": no overrides
        return parse_structure_string(structure.to_string())[1]


# ----------------------------------------------------------------------------
# Finding the message in a file

_GOT_MESSAGE = re.compile(r'\(element\):\s*(hiphistogram,.*)$')


def read_message_file(path):
    """The fields of the last hiphistogram structure in PATH."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    candidates = []
    stripped = text.strip()
    if stripped.startswith("hiphistogram"):
        candidates.append(stripped)  # one structure, maybe over lines
    for line in reversed(text.splitlines()):
        line = line.strip()
        m = _GOT_MESSAGE.search(line)  # gst-launch-1.0 -m output
        if m:
            candidates.append(m.group(1))
        elif line.startswith("hiphistogram,"):
            candidates.append(line)
    first_error = None
    for c in candidates:
        try:
            name, fields = parse_structure_string(c)
        except ParseError as e:
            first_error = first_error or e
            continue
        if name == "hiphistogram":
            return fields
    if first_error:
        raise ParseError(f"{path}: {first_error}")
    raise ParseError(f"{path}: no hiphistogram structure found")


# ----------------------------------------------------------------------------
# Plotting

COLOURS = {"red": "#d62728", "green": "#2ca02c", "blue": "#1f5fd6",
           "alpha": "#8c8c8c", "luma": "#000000", "y": "#000000",
           "u": "#8e44ad", "v": "#ff8c00"}


def _pct(x):
    return f"{100.0 * x:.1f} %" if isinstance(x, (int, float)) else "?"


def _fmt(x, spec):
    try:
        return format(x, spec)
    except (TypeError, ValueError):
        return "?"


def describe(fields):
    """Two title lines with the statistics."""
    mon = _monitor()
    ev = fields.get("ev-correction")
    low, high = fields.get("clipped-low"), fields.get("clipped-high")
    hint = mon.exposure_hint(ev, low, high) if isinstance(ev, (int, float)) else "?"
    line1 = (f"mean {_fmt(fields.get('mean'), '.1f')}   "
             f"median {_fmt(fields.get('median'), 'd')}   "
             f"stddev {_fmt(fields.get('stddev'), '.1f')}   "
             f"min {_fmt(fields.get('min'), 'd')}   "
             f"max {_fmt(fields.get('max'), 'd')}")
    line2 = (f"clipped low {_pct(low)} / high {_pct(high)}   "
             f"{_fmt(ev, '+.2f')} EV ({hint})   "
             f"running time {mon.format_time(fields.get('running-time'))}   "
             f"{fields.get('pixels', '?')} px")
    return line1, line2


def check_fields(fields):
    channels = fields.get("channels")
    hists = fields.get("histograms")
    if not isinstance(channels, list) or not isinstance(hists, list):
        raise ValueError("the message has no channels/histograms arrays")
    if len(channels) != len(hists):
        raise ValueError(f"{len(channels)} channels but {len(hists)} histograms")
    if not hists:
        raise ValueError("the message has no histograms")
    bins = len(hists[0])
    if not 1 <= bins <= 1024:
        raise ValueError(f"histogram with {bins} bins (expected 1..1024)")
    for name, h in zip(channels, hists):
        if not isinstance(h, list) or len(h) != bins:
            raise ValueError(f"channel {name}: expected {bins} bins")
        if not all(isinstance(v, int) and v >= 0 for v in h):
            raise ValueError(f"channel {name}: counts are not non-negative integers")
    return [str(c) for c in channels], hists, bins


def value_scale(fields):
    """How many values the format's samples span: 256 for 8-bit formats,
    1024 or 65536 for wider ones (the message's max-value + 1)."""
    top = fields.get("max-value", 255)
    if not isinstance(top, int) or top < 1:
        raise ValueError(f"max-value {top!r} is not a positive integer")
    return top + 1


def zone_grid(fields):
    """(cols, rows) of a message with zones, else None."""
    zones, means = fields.get("zones"), fields.get("zone-mean")
    if not zones or not means:
        return None
    try:
        cols, rows = (int(v) for v in str(zones).split("x"))
    except ValueError:
        raise ValueError(f"zones '{zones}' is not COLSxROWS")
    if cols * rows != len(means):
        raise ValueError(f"{len(means)} zone means for {zones} zones")
    return cols, rows


def plot_zones(ax, fields, grid):
    """The zones' mean luma as a heat map laid out as the frame (row-major,
    top row first), each zone marked with its mean and, where it clips at
    the top beyond 2 %, a red edge."""
    from matplotlib.patches import Rectangle

    cols, rows = grid
    means = fields["zone-mean"]
    high = fields.get("zone-clipped-high") or [0.0] * len(means)
    top = value_scale(fields) - 1
    cells = [means[j * cols:(j + 1) * cols] for j in range(rows)]
    image = ax.imshow(cells, cmap="magma", vmin=0, vmax=top,
                      extent=(0, cols, rows, 0), interpolation="nearest")
    for j in range(rows):
        for i in range(cols):
            k = j * cols + i
            if cols * rows <= 256:
                ax.text(i + 0.5, j + 0.5, f"{means[k]:.0f}", ha="center",
                        va="center", fontsize=7,
                        color="white" if means[k] < (top + 1) / 2 else "black")
            if high[k] > 0.02:
                ax.add_patch(Rectangle((i, j), 1, 1, fill=False,
                                       edgecolor="red", linewidth=1.5))
    ax.set_title(f"zone mean luma ({cols}x{rows})", fontsize=10)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)


def plot(fields, out, log=False, only=None, title=None, dpi=100):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    channels, hists, bins = check_fields(fields)
    if only:
        missing = [c for c in only if c not in channels]
        if missing:
            raise ValueError(f"no channel {', '.join(missing)} in the message "
                             f"(it has {', '.join(channels)})")
        keep = [channels.index(c) for c in only]
        channels = [channels[k] for k in keep]
        hists = [hists[k] for k in keep]

    # Sample v is counted in bin v*bins/scale: bin i covers
    # [i*scale/bins, (i+1)*scale/bins).
    scale = value_scale(fields)
    edges = [i * scale / bins for i in range(bins + 1)]
    grid = zone_grid(fields)
    if grid:
        fig, (ax, zax) = plt.subplots(
            1, 2, figsize=(15, 5.6), dpi=dpi,
            gridspec_kw={"width_ratios": [2, 1]})
        plot_zones(zax, fields, grid)
    else:
        fig, ax = plt.subplots(figsize=(10, 5.6), dpi=dpi)
    cycle = iter(plt.rcParams["axes.prop_cycle"].by_key().get("color", ["#333333"]))
    ymax = 0
    for name, counts in zip(channels, hists):
        colour = COLOURS.get(name.lower()) or next(cycle, "#333333")
        nonzero = [i for i, v in enumerate(counts) if v]
        label = name
        if len(nonzero) == 1:
            # A constant channel (typically alpha = 255) is one spike as high
            # as the frame: keep it from flattening the other channels.
            b = nonzero[0]
            lo, hi = -(-b * scale // bins), -(-(b + 1) * scale // bins) - 1
            label += f" (constant {lo})" if lo == hi else f" (all in {lo}..{hi})"
        else:
            ymax = max(ymax, max(counts))
        base = 0.5 if log else 0
        ax.stairs(counts, edges, baseline=base, fill=True, color=colour,
                  alpha=0.08 if colour == "#000000" else 0.18, linewidth=0)
        ax.stairs(counts, edges, baseline=base, color=colour, linewidth=1.3,
                  label=label)
    if ymax == 0:
        ymax = max(max(h) for h in hists) or 1

    ax.set_xlim(0, scale)
    ax.set_xticks(range(0, scale + 1, scale // 8))
    ax.set_xlabel("sample value" + (f" ({bins} bins)" if bins != 256 else ""))
    ax.set_ylabel("samples per bin")
    if log:
        ax.set_yscale("log")
        ax.set_ylim(0.5, max(max(h) for h in hists) * 2)
    else:
        ax.set_ylim(0, ymax * 1.08)
    for key, style in (("mean", "--"), ("median", ":")):
        v = fields.get(key)
        if isinstance(v, (int, float)) and 0 <= v <= scale:
            # Sample value v is drawn over [v, v + 1): mark its middle.
            ax.axvline(v + 0.5, color="#444444",
                       linestyle=style, linewidth=1, label=f"luma {key}")
    ax.grid(True, alpha=0.25)
    ax.legend(loc="best", fontsize="small", framealpha=0.85)
    line1, line2 = describe(fields)
    ax.set_title(f"{title or 'hiphistogram'}\n{line1}\n{line2}", fontsize=10)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


# ----------------------------------------------------------------------------

_MONITOR = None


def _monitor():
    """exposure-monitor.py, next to this script, as a module (pipeline,
    plugin path and formatting helpers are shared)."""
    global _MONITOR
    if _MONITOR is None:
        path = os.path.join(HERE, "exposure-monitor.py")
        spec = importlib.util.spec_from_file_location("exposure_monitor", path)
        _MONITOR = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_MONITOR)
    return _MONITOR


def grab_first(source, roi=None, timeout=10.0):
    """Runs SOURCE through hiphistogram; the first message's fields and its
    serialization, or None (errors printed) and the exit status."""
    mon = _monitor()
    problem = mon.check_element(PROG)
    if problem:
        print(problem, file=sys.stderr)
        return None, None
    description = mon.pipeline_description(source, interval_ns=0, roi=roi)
    print(f"{PROG}: {description}", file=sys.stderr)
    got = []

    def on_histogram(st):
        got.append((structure_fields(st), st.to_string()))
        return False

    status = mon.run(description, on_histogram, seconds=timeout, prog=PROG)
    if got:
        return got[0]
    if status == 0:
        print(f"{PROG}: error: no hiphistogram message within {timeout:g} s",
              file=sys.stderr)
    return None, None


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="plot-histogram.py",
        description="Plot one hiphistogram message to a PNG.")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--message", metavar="FILE",
                     help="file with the message structure as "
                          "gst_structure_to_string writes it (e.g. from "
                          "exposure-monitor.py --save-last FILE, or "
                          "gst-launch-1.0 -m output: the last message is used)")
    src.add_argument("--source", metavar="DESCRIPTION",
                     help="gst-launch source description to run through "
                          "hiphistogram; the first message is plotted "
                          "('default' = exposure-monitor.py's default source)")
    ap.add_argument("-o", "--output", default="histogram.png",
                    help="PNG to write (default histogram.png)")
    ap.add_argument("--log", action="store_true", help="logarithmic y axis")
    ap.add_argument("--channels", default=None,
                    help="comma-separated channels to draw (default: all)")
    ap.add_argument("--title", default=None, help="first title line")
    ap.add_argument("--roi", default=None, metavar="X,Y,W,H",
                    help="with --source: hiphistogram's region of interest")
    ap.add_argument("--timeout", type=float, default=10.0,
                    help="with --source: give up after this many seconds "
                         "(default 10)")
    ap.add_argument("--save-message", metavar="FILE", default=None,
                    help="with --source: also save the message to FILE")
    ap.add_argument("--dpi", type=int, default=100, help="PNG resolution (default 100)")
    args = ap.parse_args(argv)
    only = [c.strip() for c in args.channels.split(",") if c.strip()] \
        if args.channels else None
    _monitor()  # imports Gst (and finds a python3 that has it)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(f"{PROG}: error: matplotlib is missing "
              "(Debian: apt-get install python3-matplotlib)", file=sys.stderr)
        return 1

    if args.message:
        if args.roi or args.save_message:
            ap.error("--roi and --save-message go with --source")
        try:
            fields = read_message_file(args.message)
        except OSError as e:
            print(f"{PROG}: error: cannot read {args.message}: {e.strerror or e}",
                  file=sys.stderr)
            return 1
        except ParseError as e:
            print(f"{PROG}: error: {e}", file=sys.stderr)
            return 1
    else:
        mon = _monitor()
        roi = None
        if args.roi:
            try:
                roi = mon.parse_roi(args.roi)
            except argparse.ArgumentTypeError as e:
                ap.error(str(e))
        source = mon.default_source() if args.source == "default" else args.source
        fields, text = grab_first(source, roi=roi, timeout=args.timeout)
        if fields is None:
            return 1
        if args.save_message:
            try:
                mon.save_text(args.save_message, text)
            except OSError as e:
                print(f"{PROG}: error: cannot write {args.save_message}: "
                      f"{e.strerror or e}", file=sys.stderr)
                return 1

    try:
        plot(fields, args.output, log=args.log, only=only, title=args.title,
             dpi=args.dpi)
    except ValueError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{PROG}: error: cannot write {args.output}: {e.strerror or e}",
              file=sys.stderr)
        return 1
    print(f"{PROG}: wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
