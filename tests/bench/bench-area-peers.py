#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The peers of bench-area on the same frames: scikit-image
(morphology.area_opening), DIPlib (dip.AreaOpening) and Higra (max-tree,
area, reconstruct_leaf_data), each on the host's CPU cores, each only
where it imports, each output checked against ours.

    bench-area-peers.py --write DIR
    bench-area-peers.py --dir DIR [--runs 5] [--higra-runs N]
                        [--sk-max-px 2100000] [--sk-frames camera,noise]
                        [--sk-area 64] [--conn 8] [--close]

--write DIR writes camera, coins, page and moon from scikit-image's data,
each tiled over 3840x2160 (8-bit binary PGM), for bench-area --image.
--dir DIR reads what `bench-area --dump DIR` left there: the frames
(NAME-WxH-DEPTH.pgm) and our results (NAME-WxH-DEPTH-area-open-A.pgm),
times each peer on every frame and min_area found (wall clock, median of
--runs; scikit-image, by far the slowest, once, and only on frames of at
most --sk-max-px pixels, of the --sk-frames named, at --sk-area only
when given; Higra --higra-runs times) and says whether its output equals
ours.
DIPlib runs on its default threads (all cores), scikit-image and Higra on
one.
"""
import argparse
import glob
import os
import re
import statistics
import sys
import time

import numpy as np

from peer_frames import read_pgm, tiled, write_pgm

IMAGES = ("camera", "coins", "page", "moon")


def peers(conn, close):
    """{name: (version, fn(img, min_area))} of the importable peers"""
    out = {}
    try:
        from skimage import morphology
        import skimage
        fn = morphology.area_closing if close else morphology.area_opening
        out["scikit-image"] = (skimage.__version__, lambda img, a: fn(
            img, area_threshold=a, connectivity=1 if conn == 4 else 2))
    except ImportError as e:
        print("scikit-image not importable (%s)" % e)
    try:
        import diplib as dip
        pol = "closing" if close else "opening"
        out["DIPlib"] = ("%s, %d threads" % (dip.__version__,
                                              dip.GetNumberOfThreads()),
                         lambda img, a: np.asarray(dip.AreaOpening(
                             dip.Image(img), None, a,
                             1 if conn == 4 else 2, pol)))
    except ImportError as e:
        print("DIPlib not importable (%s)" % e)
    try:
        import higra as hg

        def higra_fn(img, a):
            g = (hg.get_4_adjacency_graph if conn == 4 else
                 hg.get_8_adjacency_graph)(img.shape)
            tree, alt = (hg.component_tree_min_tree if close else
                         hg.component_tree_max_tree)(g, img)
            area = hg.attribute_area(tree)
            return hg.reconstruct_leaf_data(tree, alt, area < a)
        try:
            from importlib.metadata import version
            hv = version("higra")
        except Exception:
            hv = "?"
        out["Higra"] = (hv, higra_fn)
    except ImportError as e:
        print("Higra not importable (%s)" % e)
    return out


def main_dir(d, runs, hg_runs, sk_max, sk_frames, sk_area, conn, close):
    ps = peers(conn, close)
    print("peers: " + ", ".join("%s %s" % (n, v[0]) for n, v in ps.items())
          + "; %d CPUs; %d-connectivity, %s" % (
              os.cpu_count(), conn, "closing" if close else "opening"))
    print("| frame | size | depth | min_area | peer | ms | equal to ours |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    failed = 0
    op = "area-close" if close else "area-open"
    for frame in sorted(glob.glob(os.path.join(d, "*.pgm"))):
        m = re.match(r"(.+)-(\d+)x(\d+)-(8|16)\.pgm$",
                     os.path.basename(frame))
        if not m:
            continue
        name, w, h, depth = m.group(1), m.group(2), m.group(3), m.group(4)
        img = read_pgm(frame)
        for res in sorted(glob.glob(frame[:-4] + "-%s-*.pgm" % op)):
            a = int(res[:-4].rsplit("-", 1)[1])
            ours = read_pgm(res)
            for peer, (_, fn) in ps.items():
                n = runs
                if peer == "scikit-image":
                    if img.size > sk_max or (sk_frames and
                                             name not in sk_frames) or (
                                                 sk_area and a != sk_area):
                        continue
                    n = 1
                if peer == "Higra" and hg_runs:
                    n = hg_runs
                ms = []
                for _ in range(n):
                    t0 = time.perf_counter()
                    got = fn(img, a)
                    ms.append((time.perf_counter() - t0) * 1000.0)
                same = np.array_equal(np.asarray(got), ours)
                failed += not same
                print("| %s | %sx%s | %s | %d | %s | %.0f | %s |" % (
                    name, w, h, depth, a, peer, statistics.median(ms),
                    "yes" if same else "NO"))
                sys.stdout.flush()
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write")
    ap.add_argument("--dir")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sk-max-px", type=int, default=2100000)
    ap.add_argument("--sk-frames", default="")
    ap.add_argument("--sk-area", type=int, default=0)
    ap.add_argument("--higra-runs", type=int, default=0)
    ap.add_argument("--conn", type=int, default=8)
    ap.add_argument("--close", action="store_true")
    a = ap.parse_args()
    if a.write:
        for name in IMAGES:
            write_pgm("%s/%s.pgm" % (a.write, name), tiled(name, 3840, 2160))
        return 0
    if a.dir:
        return main_dir(a.dir, a.runs, a.higra_runs, a.sk_max_px,
                        [f for f in a.sk_frames.split(",") if f], a.sk_area,
                        a.conn, a.close)
    ap.print_usage()
    return 2


if __name__ == "__main__":
    sys.exit(main())
