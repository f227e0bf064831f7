#!/usr/bin/env python3
# gst-hip-filters
# Copyright (C) 2026 gst-hip-filters contributors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Compare hipf-bench CSV files of two builds, row by row.

Usage: bench/compare.py BEFORE.csv[,BEFORE2.csv...] AFTER.csv[,AFTER2.csv...]
       [--limit PERCENT]

Each side may name several CSVs (runs of the same build interleaved with
the other's): a row's figure is then the median over them. Rows compare
their ratio column, a time over the same run's reference (the device copy
for kernel rows, the link row before them for element rows), so that a
slower clock or link between runs does not count as a change.
Prints both ratios and the change; exits 1 when a row changed by more
than --limit percent (default 5) for the worse.
"""
import argparse
import csv
import statistics
import sys


def load(paths):
    rows = {}
    order = []
    for path in paths.split(','):
        with open(path, newline='') as f:
            for r in csv.DictReader(f):
                key = (r['what'], r['format'], r['width'], r['height'],
                       r['params'])
                ratio = float(r['ratio'])
                if ratio <= 0:
                    continue
                if key not in rows:
                    order.append(key)
                rows.setdefault(key, []).append(ratio)
    return order, {k: statistics.median(v) for k, v in rows.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('before')
    ap.add_argument('after')
    ap.add_argument('--limit', type=float, default=5.0)
    args = ap.parse_args()
    order, before = load(args.before)
    _, after = load(args.after)
    worse = 0
    print(f"{'what':<10} {'format':<6} {'size':<10} {'params':<40} "
          f"{'before':>7} {'after':>7} {'change':>7}")
    for key in order:
        if key not in after:
            continue
        b, a = before[key], after[key]
        # Every ratio is a time over the same run's reference time.
        change = (a / b - 1) * 100
        flag = ''
        if change > args.limit:
            worse += 1
            flag = '  <-- worse'
        what, fmt, w, h, params = key
        print(f"{what:<10} {fmt:<6} {w + 'x' + h:<10} {params:<40} "
              f"{b:7.3f} {a:7.3f} {change:+6.1f}%{flag}")
    print(f"compare: {len(order)} rows, {worse} worse by more than "
          f"{args.limit:g} %")
    return 1 if worse else 0


if __name__ == '__main__':
    sys.exit(main())
