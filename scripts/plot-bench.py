#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Plot median-filter throughput (ours and NPP, 8- and 16-bit) against the
window size from a bench-median CSV.

    scripts/plot-bench.py docs/bench/2026-11-22-h100/bench-median.csv \
        docs/median-throughput.png

Needs matplotlib (pip install matplotlib)."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src, dst):
    rows = list(csv.DictReader(open(src)))
    device = rows[0]["device"] if rows else "?"
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    for depth, colour in (("8", "tab:blue"), ("16", "tab:orange")):
        sel = [r for r in rows if r["depth"] == depth]
        win = [int(r["window"]) for r in sel]
        ours = [float(r["gpx_s"]) for r in sel]
        ax.plot(win, ours, "o-", color=colour, label=f"cudamedian {depth}-bit")
        npp = [(int(r["window"]), float(r["npp_gpx_s"])) for r in sel
               if r["npp_gpx_s"]]
        if npp:
            ax.plot(*zip(*npp), "x--", color=colour,
                    label=f"NPP nppiFilterMedian {depth}-bit")
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
    fig.savefig(dst)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
