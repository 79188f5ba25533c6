#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""docs/perf-recon.png: cudamorph's reconstruction operations per image at
3840x2160 and 1920x1080, against the issue's targets, and beside cuCIM
(GPU) and scikit-image (CPU).

    scripts/plot-recon.py [--out docs/perf-recon.png]

Reads the raw output kept under docs/bench/2026-11-26-s18/recon/ (nothing is
typed in here); docs/bench/history.md, "Final figures (95ced7c,
call G) and the peers (calls G, H)":

* ours: callG-recon-{4k,1080}-final.txt (`bench-recon --image camera.pgm
  --image moon.pgm --image coins.pgm --image page.pgm --runs 11 [--size
  1920x1080] --check`, H100, device time, median of 11);
* cuCIM 26.10 and scikit-image 0.26: callG-peers-{4k,1080}.txt
  (`bench-recon-peers.py`), and callH-peers-4k-gpu.txt for the 4K rows that
  call G's time limit cut off (page).

Needs matplotlib (python3 -m pip install matplotlib)."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from plot_common import ROOT, out_arg  # noqa: E402

RECON = os.path.join(ROOT, "docs", "bench", "2026-11-26-s18", "recon")
IMAGES = ("camera", "moon", "coins", "page")
FRAMES = (("4k", "3840×2160", 2.0), ("1080", "1920×1080", 0.6))


def md_rows(path):
    """Rows of the markdown tables in a file, as lists of cells."""
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("|") or line.startswith("| ---"):
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows.append(cells)
    return rows


def ours(frame):
    """{(image, depth, operation): (ms, passes)} of bench-recon."""
    out = {}
    for c in md_rows(os.path.join(RECON, f"callG-recon-{frame}-final.txt")):
        if c[0] == "image":
            continue
        out[(c[0].replace(".pgm", ""), c[1], c[2])] = (float(c[5]), int(c[4]))
    return out


def peers(frame):
    """{(image, operation): (cuCIM ms, scikit-image ms or None)}."""
    out = {}
    files = [f"callG-peers-{frame}.txt"]
    if frame == "4k":
        files.append("callH-peers-4k-gpu.txt")
    for name in files:
        for c in md_rows(os.path.join(RECON, name)):
            if c[0] == "image" or (c[0], c[1]) in out:
                continue
            num = (lambda v: None if v in ("-", "") else float(v))
            out[(c[0], c[1])] = (num(c[2]), num(c[3]))
    return out


def main():
    out = out_arg(__doc__, "perf-recon.png")

    fig, axes = plt.subplots(2, 2, figsize=(11, 7.4), dpi=85)
    ours_bars = (("fill-holes", "8", "fill holes 8-bit", "tab:blue"),
                 ("fill-holes", "16", "fill holes 16-bit", "tab:cyan"),
                 ("open-rec disk r7", "8", "open-rec r7 8-bit", "tab:green"),
                 ("hdome h=10", "8", "hdome h=10 8-bit", "tab:olive"))
    x = range(len(IMAGES))
    for col, (frame, title, target) in enumerate(FRAMES):
        o = ours(frame)
        ax = axes[0][col]
        w = 0.2
        for i, (op, depth, label, colour) in enumerate(ours_bars):
            vals = [o[(im, depth, op)][0] for im in IMAGES]
            bars = ax.bar([k + (i - 1.5) * w for k in x], vals, w,
                          label=label, color=colour)
            if op == "fill-holes" and depth == "8":
                for b, im in zip(bars, IMAGES):
                    ax.annotate(f"{o[(im, depth, op)][1]}",
                                (b.get_x() + b.get_width() / 2,
                                 b.get_height()),
                                ha="center", va="bottom", fontsize=6)
        ax.axhline(target, color="k", ls="--", lw=0.8)
        ax.text(1.5, target, f"target {target} ms (8-bit)",
                ha="center", va="bottom", fontsize=7)
        top = max(o[(im, "16", "fill-holes")][0] for im in IMAGES)
        ax.set_ylim(0, top * 1.45)
        ax.set_xticks(list(x))
        ax.set_xticklabels(IMAGES)
        ax.set_ylabel("ms per frame (device time)")
        ax.set_title(f"cudamorph, {title}, H100 (numbers: passes)",
                     fontsize=10)
        ax.legend(fontsize=7, loc="upper right", ncol=2)
        ax.grid(True, axis="y", alpha=0.3)

        p = peers(frame)
        ax = axes[1][col]
        groups = (("fill-holes", "fill holes"), ("open-rec disk r7",
                                                 "open-rec r7"))
        series = []
        for op, oplabel in groups:
            series.append((f"cudamorph {oplabel}",
                           [o[(im, "8", op)][0] for im in IMAGES],
                           "tab:blue" if op == "fill-holes" else "tab:green",
                           ""))
            series.append((f"cuCIM 26.10 {oplabel}",
                           [p.get((im, op), (None, None))[0]
                            for im in IMAGES],
                           "tab:blue" if op == "fill-holes" else "tab:green",
                           "//"))
            sk = [p.get((im, op), (None, None))[1] for im in IMAGES]
            if any(v is not None for v in sk):
                series.append((f"scikit-image 0.26 {oplabel} (CPU)", sk,
                               "tab:blue" if op == "fill-holes"
                               else "tab:green", ".."))
        w = 0.8 / len(series)
        for i, (label, vals, colour, hatch) in enumerate(series):
            xs = [k + (i - (len(series) - 1) / 2) * w
                  for k, v in zip(x, vals) if v is not None]
            vs = [v for v in vals if v is not None]
            ax.bar(xs, vs, w, label=label, color=colour, hatch=hatch,
                   alpha=1.0 if not hatch else 0.45, edgecolor="k", lw=0.3)
        if frame == "4k":
            ax.text(3.0, 3e3, "scikit-image\nnot run", ha="center",
                    fontsize=6)
        ax.set_yscale("log")
        ax.set_xticks(list(x))
        ax.set_xticklabels(IMAGES)
        ax.set_ylabel("ms per frame (log)")
        ax.set_title(f"8-bit against the peers, {title}"
                     + ("" if frame == "4k" else " (scikit-image not run)"),
                     fontsize=10)
        ax.legend(fontsize=6, loc="upper left", ncol=2)
        ax.set_ylim(0.1, 3e5)
        ax.grid(True, axis="y", which="major", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out)


if __name__ == "__main__":
    main()
