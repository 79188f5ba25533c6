#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""docs/perf-cameras.png: many cameras at 1920x1080, frames/s of all
pipelines together against their number, in one process or in as many
processes, with and without NVIDIA MPS.

    scripts/plot-cameras.py [--out docs/perf-cameras.png]

Reads the raw output kept under docs/bench/2026-11-26-s11/ (nothing is
typed in here); docs/bench/history.md, "Against the bound,
1920x1080":

* streams-122.txt, streams-126.txt: `tests/bench/bench-streams.sh
  BUILD_DIR` (N = 1, 4, 8, 16), H200, GStreamer 1.22 and 1.26 bundles, one call, common window;
* mps-126.txt: `tests/bench/bench-mps.sh`, H100, GStreamer 1.26, N
  processes without and with an MPS control daemon;
* chain-1080.txt: `bench-chain`, the chain's device time back to back on
  the H200 (the GPU-time bound; its two runs).

Needs matplotlib (python3 -m pip install matplotlib)."""
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from plot_common import ROOT, out_arg  # noqa: E402

S11 = os.path.join(ROOT, "docs", "bench", "2026-11-26-s11")


def tables(path):
    """{heading: [[cells], ...]} of the markdown tables in a file."""
    out, head = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("## "):
                head = line[3:]
                out[head] = []
            elif line.startswith("|") and not line.startswith("| ---"):
                cells = [c.strip() for c in line.strip("|").split("|")]
                if cells[0] != "N":
                    out.setdefault(head, []).append(cells)
    return out


def column(rows, i):
    return [int(r[0]) for r in rows], [float(r[i]) for r in rows]


def both_bundles(ax, rows126, rows122, modes, card):
    """Columns 1 and 2 (@modes: one process, N processes) of one table
    measured with GStreamer 1.26 and 1.22, the older one dashed and paler."""
    for i, (mode, marker, colour) in enumerate(
            zip(modes, "os", ("tab:blue", "tab:red")), 1):
        ax.plot(*column(rows126, i), marker + "-", color=colour,
                label=f"{mode}, 1.26{card}")
        ax.plot(*column(rows122, i), marker + "--", color=colour, alpha=0.6,
                label=f"{mode}, 1.22{card}")


def main():
    out = out_arg(__doc__, "perf-cameras.png")

    t122 = tables(os.path.join(S11, "streams-122.txt"))
    t126 = tables(os.path.join(S11, "streams-126.txt"))
    mps = tables(os.path.join(S11, "mps-126.txt"))
    mps = next(iter(mps.values()))
    with open(os.path.join(S11, "chain-1080.txt")) as f:
        bounds = [float(v) for v in re.findall(
            r"GPU-time bound: (\d+) frames/s", f.read())]
    bound = min(bounds)

    def pick(t, prefix):
        return next(v for k, v in t.items() if k.startswith(prefix))

    fig, (ac, am) = plt.subplots(1, 2, figsize=(11, 4.4), dpi=90,
                                 gridspec_kw={"width_ratios": [1.6, 1]})
    chain126 = pick(t126, "NV12")
    chain122 = pick(t122, "NV12")
    both_bundles(ac, chain126, chain122, ("one process, N pipelines",
                                          "N processes, no MPS"), " (H200)")
    ac.plot(*column(mps, 1), "^:", color="tab:red",
            label="N processes, no MPS, 1.26 (H100)")
    ac.plot(*column(mps, 2), "^-", color="tab:green",
            label="N processes under MPS, 1.26 (H100)")
    ac.axhline(bound, color="k", ls=":", lw=1)
    ac.text(16, bound, "summed device time of the chain: "
            + "–".join(f"{b:,.0f}" for b in sorted(bounds))
            + " frames/s (H200)",
            ha="right", va="bottom", fontsize=7)
    ac.set_title("NV12 in CUDA memory: median 5 ! open disk 7 ! "
                 "tophat line 31@30", fontsize=9)

    med126 = pick(t126, "GRAY8")
    med122 = pick(t122, "GRAY8")
    both_bundles(am, med126, med122, ("one process", "N processes"), "")
    am.set_title("GRAY8 via the pinned pool, median 5 (H200)", fontsize=9)

    for ax in (ac, am):
        ax.set_xscale("log", base=2)
        ax.set_xticks([1, 4, 8, 16])
        ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.set_xlabel("cameras (pipelines or processes)")
        ax.set_ylabel("frames/s, all cameras together (1920×1080)")
        ax.set_ylim(0, None)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="lower right" if ax is am else "best")
    fig.tight_layout()
    fig.savefig(out)


if __name__ == "__main__":
    main()
