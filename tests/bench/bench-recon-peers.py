#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The peers of bench-recon on the same images: scikit-image (CPU) and
cuCIM (GPU) for fill holes and opening by reconstruction (disk r7),
8-connectivity, uint8.

    bench-recon-peers.py --write DIR       # tiled photographs as PGM files
    bench-recon-peers.py [--size 3840x2160] [--runs 5] [--no-cpu]

--write DIR writes camera, moon, coins and page from scikit-image's data,
each tiled over 3840x2160 (8-bit binary PGM), for bench-recon --image.
Without it the script times the peers on the same tiled frames: cuCIM
with CuPy events around each call after a warm-up (median of --runs; its
reconstruction synchronises with the host inside, so this is the call's
time), scikit-image with a wall clock (median of up to three runs).
"""
import argparse
import statistics
import sys
import time

import numpy as np
from skimage import data, morphology

IMAGES = ("camera", "moon", "coins", "page")


def tiled(name, w, h):
    img = getattr(data, name)()
    if img.ndim == 3:
        img = img[..., 0]
    img = img.astype(np.uint8)
    reps = (h // img.shape[0] + 1, w // img.shape[1] + 1)
    return np.ascontiguousarray(np.tile(img, reps)[:h, :w])


def write_pgm(path, img):
    with open(path, "wb") as f:
        f.write(b"P5 %d %d 255\n" % (img.shape[1], img.shape[0]))
        f.write(img.tobytes())


def fill_holes_seed(xp, img):
    seed = img.copy()
    seed[1:-1, 1:-1] = 255
    return seed


def run_ops(mod_morph, xp, img):
    """the two operations as callables on img (numpy or cupy)"""
    footprint = xp.ones((3, 3), dtype=bool)
    disk = mod_morph.disk(7)

    def fill():
        return mod_morph.reconstruction(fill_holes_seed(xp, img), img,
                                        method="erosion",
                                        footprint=footprint)

    def openrec():
        return mod_morph.reconstruction(mod_morph.erosion(img, disk), img,
                                        method="dilation",
                                        footprint=footprint)

    return (("fill-holes", fill), ("open-rec disk r7", openrec))


def time_cucim(img_np, runs):
    import cupy as cp
    from cucim.skimage import morphology as cm

    img = cp.asarray(img_np)
    out = {}
    for name, fn in run_ops(cm, cp, img):
        fn()
        cp.cuda.Device().synchronize()
        ms = []
        for _ in range(runs):
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            ms.append(cp.cuda.get_elapsed_time(start, stop))
        out[name] = statistics.median(ms)
    return out


def time_skimage(img, runs):
    out = {}
    for name, fn in run_ops(morphology, np, img):
        ms = []
        for _ in range(min(runs, 3)):
            t0 = time.perf_counter()
            fn()
            ms.append((time.perf_counter() - t0) * 1000.0)
        out[name] = statistics.median(ms)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write")
    ap.add_argument("--size", default="3840x2160")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-cpu", action="store_true")
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.split("x"))

    if a.write:
        for name in IMAGES:
            write_pgm("%s/%s.pgm" % (a.write, name), tiled(name, 3840, 2160))
        return 0

    try:
        import cucim  # noqa: F401
        have_cucim = True
    except ImportError as e:
        print("cuCIM not importable (%s): its columns are empty" % e)
        have_cucim = False
    import skimage
    print("scikit-image %s%s, frame %dx%d uint8, 8-connectivity"
          % (skimage.__version__,
             ", cuCIM %s" % cucim.__version__ if have_cucim else "", w, h))
    print("| image | operation | cuCIM ms | scikit-image ms |")
    print("| --- | --- | --- | --- |")
    for name in IMAGES:
        img = tiled(name, w, h)
        gpu = time_cucim(img, a.runs) if have_cucim else {}
        cpu = {} if a.no_cpu else time_skimage(img, a.runs)
        for op in ("fill-holes", "open-rec disk r7"):
            print("| %s | %s | %s | %s |" % (
                name, op,
                "%.1f" % gpu[op] if op in gpu else "-",
                "%.0f" % cpu[op] if op in cpu else "-"))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
