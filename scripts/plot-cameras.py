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
import argparse
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs",
                                                  "perf-cameras.png"))
    args = ap.parse_args()

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
    ac.plot(*column(chain126, 1), "o-", color="tab:blue",
            label="one process, N pipelines, 1.26 (H200)")
    ac.plot(*column(chain122, 1), "o--", color="tab:blue", alpha=0.6,
            label="one process, N pipelines, 1.22 (H200)")
    ac.plot(*column(chain126, 2), "s-", color="tab:red",
            label="N processes, no MPS, 1.26 (H200)")
    ac.plot(*column(chain122, 2), "s--", color="tab:red", alpha=0.6,
            label="N processes, no MPS, 1.22 (H200)")
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
    am.plot(*column(med126, 1), "o-", color="tab:blue",
            label="one process, 1.26")
    am.plot(*column(med122, 1), "o--", color="tab:blue", alpha=0.6,
            label="one process, 1.22")
    am.plot(*column(med126, 2), "s-", color="tab:red",
            label="N processes, 1.26")
    am.plot(*column(med122, 2), "s--", color="tab:red", alpha=0.6,
            label="N processes, 1.22")
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
    fig.savefig(args.out)


if __name__ == "__main__":
    main()
