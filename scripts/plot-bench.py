#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Plot median-filter throughput (ours and NPP, 8- and 16-bit) against the
window size from bench-median CSVs.

    scripts/plot-bench.py docs/bench/2026-11-22-h100/bench-median.csv \
        docs/median-throughput.png

Several CSVs (runs of the same benchmark) give the median of their runs for
each depth and window; --npp takes NPP's columns from another CSV (the
newest run that timed NPP) and --label names the two in the legend. The
current page's plot (docs/PERFORMANCE.md):

    scripts/plot-bench.py \
        --npp docs/bench/2026-11-22-h100/bench-median-current.csv \
        --label "2026-11-26, device time" \
        --npp-label "2026-11-22, call time" \
        docs/bench/2026-11-26-s13/old-vs-new/median-new-[1-4].csv \
        docs/perf-median.png

Needs matplotlib (python3 -m pip install matplotlib)."""
import argparse
import csv
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            rows += list(csv.DictReader(f))
    return rows


def by_window(rows, depth, column):
    """[(window, median of column over the rows)] for one depth."""
    acc = {}
    for r in rows:
        if r["depth"] == depth and r.get(column):
            acc.setdefault(int(r["window"]), []).append(float(r[column]))
    return sorted((w, statistics.median(v)) for w, v in acc.items())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--npp", help="CSV to take NPP's columns from")
    ap.add_argument("--label", default="", help="legend note for ours")
    ap.add_argument("--npp-label", default="", help="legend note for NPP")
    ap.add_argument("src", nargs="+", help="bench-median CSV(s)")
    ap.add_argument("dst", help="PNG to write")
    args = ap.parse_args()

    rows = read(args.src)
    npp_rows = read([args.npp]) if args.npp else rows
    device = rows[0]["device"] if rows else "?"
    note = f" ({args.label})" if args.label else ""
    npp_note = f" ({args.npp_label})" if args.npp_label else ""
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    for depth, colour in (("8", "tab:blue"), ("16", "tab:orange")):
        ours = by_window(rows, depth, "gpx_s")
        ax.plot(*zip(*ours), "o-", color=colour,
                label=f"cudamedian {depth}-bit{note}")
        npp = by_window(npp_rows, depth, "npp_gpx_s")
        if npp:
            ax.plot(*zip(*npp), "x--", color=colour,
                    label=f"NPP nppiFilterMedian {depth}-bit{npp_note}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks([3, 5, 7, 9, 11, 15, 21, 31, 63])
    ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.set_xlabel("window side (pixels)")
    ax.set_ylabel("Gpx/s (3840x2160, kernel time)")
    ax.set_title(f"Median filter throughput, {device}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.dst)


if __name__ == "__main__":
    main()
