#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Side-by-side table of scripts/bench-compare's raw output.

Reads OUT/{morph,median,linspectrum}-{old,new}-R.csv,
OUT/pipeline-{old,new}-R.txt and OUT/blobs-{old,new}-R.txt, joins the
rows of the two revisions on their describing columns, takes the median of each row's runs (not the
best: a few small kernels are bimodal, fast in one run of five) and
prints old, new and new/old; rows beyond the tolerance
(3 % for kernels, 5 % for pipelines) are marked with '!'. Exit status 1
when a row is marked or a row exists on one side only.
"""
import csv
import glob
import os
import re
import sys

TIME_COLUMNS = ("ms", "median_ms")
# measured or descriptive of the run, not of the case
SKIP = {"device", "ms", "gpx_s", "npp_ms", "npp_gpx_s", "call_ms",
        "npp_runs", "npp_mismatches", "median_ms", "min_ms", "gpx_per_s",
        "vs_L11", "algorithm", "plan"}


def read_csv_rows(path):
    rows = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            tcol = next((c for c in TIME_COLUMNS if row.get(c)), None)
            if tcol is None:
                continue
            key = " ".join(f"{k}={v}" for k, v in row.items()
                           if k not in SKIP and v != "")
            how = row.get("algorithm") or row.get("plan") or ""
            # --compare style duplicates: keep each path apart
            n = 1
            base = key
            while key in rows:
                n += 1
                key = f"{base} #{n}"
            rows[key] = (float(row[tcol]), how)
    return rows


LINE = re.compile(r"^(?P<what>[^,]+),.*?: (?P<fps>[0-9.]+) frames/s.*\| (?P<chain>.*)$")


def read_pipeline_rows(path):
    rows = {}
    with open(path) as f:
        for line in f:
            m = LINE.match(line.strip())
            if m:
                rows[f"{m['what']} | {m['chain']}"] = (float(m["fps"]), "")
    return rows


def read_blobs_rows(path):
    """bench-blobs' markdown table: | image | size | variant | blobs | ms
    | ...; the blob count joins the key (a revision that labels a frame
    otherwise has no comparable time), a row the reference did not
    equal is left out (then reported on one side only)"""
    rows = {}
    with open(path) as f:
        for line in f:
            c = [x.strip() for x in line.split("|")]
            if len(c) < 8 or c[1] in ("", "image", "---") or "NO" in c[-2:]:
                continue
            try:
                rows[f"{c[1]} {c[2]} {c[3]}, {c[4]} blobs"] = (float(c[5]), "")
            except ValueError:
                continue
    return rows


def median_of_runs(paths, reader):
    runs = {}
    for p in paths:
        for k, (v, how) in reader(p).items():
            runs.setdefault(k, ([], how))[0].append(v)
    merged = {}
    for k, (vs, how) in runs.items():
        vs.sort()
        n = len(vs)
        merged[k] = (vs[n // 2] if n % 2 else 0.5 * (vs[n // 2 - 1] + vs[n // 2]),
                     how)
    return merged


def table(out, name, reader, unit, higher, tol):
    old = median_of_runs(
        sorted(glob.glob(os.path.join(out, f"{name}-old-*.{unit[1]}"))), reader)
    new = median_of_runs(
        sorted(glob.glob(os.path.join(out, f"{name}-new-*.{unit[1]}"))), reader)
    if not old and not new:
        return 0
    bad = 0
    print(f"\n## {name} ({unit[0]}; median of the runs; '!' beyond "
          f"{tol * 100:.0f} %, '~' path differs)")
    print(f"{'old':>10} {'new':>10} {'new/old':>8}   case")
    for k in list(old) + [k for k in new if k not in old]:
        o, n = old.get(k), new.get(k)
        if o is None or n is None:
            bad += 1
            side = "new only" if o is None else "old only"
            v = (n or o)[0]
            print(f"{'' if o is None else f'{v:.4f}':>10} "
                  f"{'' if n is None else f'{v:.4f}':>10} {side:>8} ! {k}")
            continue
        ratio = n[0] / o[0] if o[0] else float("inf")
        worse = ratio < 1 - tol if higher else ratio > 1 + tol
        better = ratio > 1 + tol if higher else ratio < 1 - tol
        mark = "!" if worse or better else " "
        mark += "~" if o[1] != n[1] else " "
        bad += mark[0] == "!"
        print(f"{o[0]:10.4f} {n[0]:10.4f} {ratio:8.3f} {mark} {k}")
    print(f"{bad} of {len(set(old) | set(new))} rows marked")
    return bad


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/bench-compare"
    bad = 0
    for name in ("morph", "median", "linspectrum"):
        bad += table(out, name, read_csv_rows, ("ms", "csv"), False, 0.03)
    bad += table(out, "pipeline", read_pipeline_rows, ("frames/s", "txt"),
                 True, 0.05)
    bad += table(out, "blobs", read_blobs_rows, ("ms", "txt"), False, 0.03)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
