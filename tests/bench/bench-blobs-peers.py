#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The peers of bench-blobs on the same frames: CV-CUDA's label with its
statistics, cuCIM's label + regionprops_table, OpenCV's
connectedComponentsWithStats on the host's cores; each only where it can
be imported.

    bench-blobs-peers.py --write DIR     # camera, moon, coins, page (PGM)
    bench-blobs --image DIR/camera.pgm ... --dump DIR
    bench-blobs-peers.py --dir DIR [--runs 7]

--write DIR writes scikit-image's camera, moon, coins and page (8-bit
PGM, not tiled: bench-blobs tiles them). --dir DIR times the peers on
every frame bench-blobs --dump left there (<frame>.pgm, thresholded as
its <frame>.areas says; 8-connectivity, and 4-connectivity against
<frame>.areas4 for CV-CUDA, whose 2-D labelling has no other) and
compares their blobs with ours: the count and the areas (sorted: OpenCV
numbers its blobs by 2x2 blocks, not by first pixels, and the GPU peers
promise no order; "same order" says whether the peer's order is ours
too). Times: the median of
--runs calls after a warm-up, each waited for (the GPU peers synchronise
with the host), so they are call times; ours in bench-blobs are device
times.
"""
import argparse
import glob
import os
import statistics
import sys
import time

import numpy as np

from peer_frames import read_pgm, write_pgm

IMAGES = ("camera", "moon", "coins", "page")


def read_areas(path):
    with open(path) as f:
        head = f.readline().split()
        areas = np.array([int(v) for v in f.read().split()], np.int64)
    return int(head[1]), int(head[3]), areas


def median_ms(fn, runs, sync, limit_s=3.0):
    """median wall-clock ms of fn() (sync() after each) after a warm-up
    call; fewer runs when they take long, none when the warm-up took
    more than limit_s (its time then); returns (ms, last result)"""
    t0 = time.perf_counter()
    out = fn()
    sync()
    first = time.perf_counter() - t0
    if first > limit_s:
        return first * 1e3, out
    times = []
    start = time.perf_counter()
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
        if time.perf_counter() - start > limit_s:
            break
    return statistics.median(times), out


def peers():
    """{name: (setup(binary, image) -> state, run(state), areas(out))}"""
    found = {}
    try:
        import cv2
        found["OpenCV %s (%d threads)" % (cv2.__version__,
                                          cv2.getNumThreads())] = "opencv"
    except ImportError as e:
        print("OpenCV not importable (%s)" % e)
    try:
        import cupy  # noqa: F401
        import cucim
        found["cuCIM %s" % cucim.__version__] = "cucim"
    except ImportError as e:
        print("cuCIM not importable (%s)" % e)
    try:
        import cupy  # noqa: F401
        import cvcuda
        found["CV-CUDA %s" % getattr(cvcuda, "__version__", "?")] = "cvcuda"
    except ImportError as e:
        print("CV-CUDA not importable (%s)" % e)
    return found


def run_opencv(binary, img, runs, conn):
    import cv2

    def fn():
        return cv2.connectedComponentsWithStats(binary, connectivity=conn,
                                                ltype=cv2.CV_32S)
    ms, out = median_ms(fn, runs, lambda: None)
    n, _, stats, _ = out
    # label 0 is the background; the others in the order of first pixels
    return ms, n - 1, stats[1:, cv2.CC_STAT_AREA].astype(np.int64)


def run_cucim(binary, img, runs, conn):
    import cupy as cp
    from cucim.skimage import measure

    dbin = cp.asarray(binary > 0)
    dimg = cp.asarray(img)

    def fn():
        lab = measure.label(dbin, connectivity=2 if conn == 8 else 1)
        return measure.regionprops_table(
            lab, intensity_image=dimg,
            properties=("label", "bbox", "area", "centroid",
                        "intensity_min", "intensity_max", "intensity_mean"))
    ms, out = median_ms(fn, runs, cp.cuda.Device().synchronize)
    areas = cp.asnumpy(cp.asarray(out["area"])).astype(np.int64)
    return ms, len(areas), areas


def run_cvcuda(binary, img, runs, conn):
    import cupy as cp
    import cvcuda

    h, w = binary.shape
    src = cvcuda.as_tensor(cp.asarray(binary).reshape(1, h, w), "NHW")
    bg = cvcuda.as_tensor(cp.zeros((1,), cp.uint8), "N")
    max_labels = w * h // 4 + 2

    def fn():
        return cvcuda.label(src, connectivity=cvcuda.CONNECTIVITY_4_2D
                            if conn == 4 else cvcuda.CONNECTIVITY_8_2D,
                            assign_labels=cvcuda.LABEL.SEQUENTIAL,
                            count=True, stats=True, max_labels=max_labels,
                            bg_label=bg)
    ms, out = median_ms(fn, runs, cp.cuda.Device().synchronize)
    _, count, stats = out
    n = int(cp.asnumpy(cp.asarray(count.cuda()))[0])
    st = cp.asnumpy(cp.asarray(stats.cuda()))[0][:n]
    # columns: label, bbox x, y, width, height, area, ...
    return ms, n, st[:, 5].astype(np.int64)


RUNNERS = {"opencv": run_opencv, "cucim": run_cucim, "cvcuda": run_cvcuda}
# the connectivity each peer is timed at (CV-CUDA 0.19: "Full neighborhood
# labeling not supported yet" for 8-connected 2-D labels)
CONNECTIVITY = {"opencv": 8, "cucim": 8, "cvcuda": 4}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write")
    ap.add_argument("--dir")
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()

    if a.write:
        from skimage import data
        os.makedirs(a.write, exist_ok=True)
        for name in IMAGES:
            img = getattr(data, name)()
            if img.ndim == 3:
                img = img[..., 0]
            write_pgm(os.path.join(a.write, name + ".pgm"),
                      img.astype(np.uint8))
        return 0
    if not a.dir:
        ap.error("--write DIR or --dir DIR")

    found = peers()
    print("| frame | connectivity | peer | ms (call) | blobs | ours | "
          "areas equal | same order |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    failed = 0
    for areas_path in sorted(glob.glob(os.path.join(a.dir, "*.areas"))):
        frame = os.path.basename(areas_path)[:-len(".areas")]
        img = read_pgm(areas_path[:-len(".areas")] + ".pgm")
        for name, key in found.items():
            conn = CONNECTIVITY[key]
            path = areas_path + ("4" if conn == 4 else "")
            if not os.path.exists(path):
                continue
            threshold, total, ours = read_areas(path)
            binary = np.where(img >= threshold, 255, 0).astype(np.uint8)
            try:
                ms, n, areas = RUNNERS[key](binary, img, a.runs, conn)
            except Exception as e:  # a peer that fails is said, not fatal
                print("| %s | %d | %s | failed: %s | | | | |"
                      % (frame, conn, name, e))
                continue
            same = n == total and np.array_equal(np.sort(areas),
                                                 np.sort(ours))
            order = n == total and np.array_equal(areas, ours)
            failed += not same
            print("| %s | %d | %s | %.3f | %d | %d | %s | %s |"
                  % (frame, conn, name, ms, n, total,
                     "yes" if same else "NO", "yes" if order else "no"))
            sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
