#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""docs/perf-morph-size.png: cudamorph's device time against the size of
the structuring element (rectangles, disks, lines at 0, 45 and 90 degrees),
with NVIDIA NPP where it was measured, and ours at four frame sizes.

    scripts/plot-morph-size.py [--out docs/perf-morph-size.png]

Reads the raw CSVs of bench-morph kept under docs/bench/ (nothing is typed
in here):

* ours: docs/bench/2026-11-26-s13/runs-rows/morph-WxH-rN.csv (H100,
  2026-11-26, `bench-morph --width W --height H --npp-max-mask 0
  [--runs-rows 4]`); r0 (the automatic choice) at 512x512 and 1024x1024,
  r4 at 1920x1080 and 3840x2160, which is what the plan takes there
  (docs/bench/history.md, "The runs pass on small frames");
* NPP 13.0.1: docs/bench/2026-11-24-h100-s7/bench-morph.csv (H100,
  2026-11-24, `bench-morph --compare`), the newest run that timed NPP.

Needs matplotlib (python3 -m pip install matplotlib)."""
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from plot_common import ROOT, out_arg  # noqa: E402

BENCH = os.path.join(ROOT, "docs", "bench")
OURS = os.path.join(BENCH, "2026-11-26-s13", "runs-rows", "morph-{}-{}.csv")
NPP = os.path.join(BENCH, "2026-11-24-h100-s7", "bench-morph.csv")
SIZES = (("3840x2160", "r4"), ("1920x1080", "r4"), ("1024x1024", "r0"),
         ("512x512", "r0"))

# (label, colour, [(side in pixels, bench-morph case), ...])
SHAPES = (
    ("erode rect", "tab:blue",
     [(n, f"erode rect {n}x{n}") for n in (3, 5, 7, 15, 31, 63, 127, 255)]),
    ("open rect", "tab:cyan",
     [(n, f"open rect {n}x{n}") for n in (3, 15, 31, 63, 127, 255)]),
    ("erode disk (side 2r+1)", "tab:green",
     [(2 * r + 1, f"erode disk r{r}") for r in (3, 7, 15, 31)]),
    ("erode line 0°", "tab:orange",
     [(n, f"erode line {n}@0") for n in (3, 15, 31, 63, 127, 255)]),
    ("erode line 90°", "tab:red",
     [(n, f"erode line {n}@90") for n in (3, 15, 31, 63, 127, 255)]),
    ("erode line 45°", "tab:purple",
     [(n, f"erode line {n}@45") for n in (3, 15, 31, 63, 127, 255)]),
)


def load(path):
    with open(path) as f:
        return {r["case"]: r for r in csv.DictReader(f)}


def series(rows, cases, column):
    pts = []
    for side, case in cases:
        r = rows.get(case)
        if r and r.get(column):
            pts.append((side, float(r[column]) * 1000.0))  # ms -> us
    return pts


def main():
    out = out_arg(__doc__, "perf-morph-size.png")

    ours = {s: load(OURS.format(s, r)) for s, r in SIZES}
    npp = load(NPP)
    device = next(iter(ours["3840x2160"].values()))["device"]

    fig, (a4k, asz) = plt.subplots(1, 2, figsize=(11, 4.6), dpi=90)
    for label, colour, cases in SHAPES:
        pts = series(ours["3840x2160"], cases, "ms")
        a4k.plot(*zip(*pts), "o-", color=colour, label=label, ms=4)
        nppts = series(npp, cases, "npp_ms")
        if nppts:
            a4k.plot(*zip(*nppts), "x--", color=colour, alpha=0.7, ms=5)
    a4k.plot([], [], "k-o", ms=4, label="cudamorph (2026-11-26)")
    a4k.plot([], [], "k--x", ms=5, alpha=0.7,
             label="NPP 13.0.1 (2026-11-24)")
    a4k.text(0.98, 0.02, "NPP: masks over 4,096 pixels not run",
             transform=a4k.transAxes, ha="right", va="bottom", fontsize=7)
    a4k.set_title(f"3840x2160 GRAY8, {device}", fontsize=10)
    a4k.set_ylabel("device time per frame (µs, log)")
    a4k.legend(fontsize=7, ncol=2, loc="upper left")

    styles = ("-", "--", "-.", ":")
    for (size, _), ls in zip(SIZES, styles):
        for label, colour, cases in (SHAPES[0], SHAPES[2], SHAPES[5]):
            pts = series(ours[size], cases, "ms")
            asz.plot(*zip(*pts), marker="o", ls=ls, color=colour, ms=3)
    for label, colour, _ in (SHAPES[0], SHAPES[2], SHAPES[5]):
        asz.plot([], [], "-", color=colour, label=label)
    for (size, _), ls in zip(SIZES, styles):
        asz.plot([], [], "k", ls=ls, label=size.replace("x", "×"))
    asz.set_title("cudamorph by frame size (2026-11-26, same GPU)",
                  fontsize=10)
    asz.legend(fontsize=7, ncol=2, loc="upper left")

    for ax in (a4k, asz):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks([3, 7, 15, 31, 63, 127, 255])
        ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.set_xlabel("structuring element side / line length (pixels)")
        ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out)


if __name__ == "__main__":
    main()
