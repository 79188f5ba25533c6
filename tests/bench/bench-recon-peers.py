#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The peers of bench-recon on the same images: scikit-image (CPU) and
cuCIM (GPU) for fill holes and opening by reconstruction (disk r7),
8-connectivity, uint8.

    bench-recon-peers.py --write DIR       # tiled photographs as PGM files
    bench-recon-peers.py [--size 3840x2160] [--runs 5] [--no-cpu]
    bench-recon-peers.py --cpu DIR [--runs 5]

--cpu DIR: the peers of backend=cpu on the frames `bench-cpu --write DIR`
leaves (blobs, noise, binary) and checked against its results there:
scikit-image's reconstruction (fill holes from the frame's border, and
the opening by reconstruction after its erosion by disk(7), borders
replicated: mode='nearest'), DIPlib's MorphologicalReconstruction (its
erosion by the same disk, "zero order" borders) on its default threads,
and scipy.ndimage.binary_fill_holes on the binary frame; each the median
of --runs wall-clock runs (three at most for scikit-image).

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
from skimage import morphology

from peer_frames import read_pgm, tiled, write_pgm

IMAGES = ("camera", "moon", "coins", "page")


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


def median_ms(fn, runs):
    ms = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        ms.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(ms), out


def cpu_peers(img, binary):
    """{(operation, peer): callable returning a uint8 array} on img"""
    import diplib as dip
    from scipy import ndimage

    box = np.ones((3, 3), dtype=bool)
    disk = morphology.disk(7)
    dip_disk = dip.SE(dip.Image(disk.astype(bool)))

    def sk_fill():
        r = morphology.reconstruction(fill_holes_seed(np, img), img,
                                      method="erosion", footprint=box)
        return r.astype(np.uint8)

    def sk_open():
        marker = morphology.erosion(img, disk, mode="nearest")
        r = morphology.reconstruction(marker, img, method="dilation",
                                      footprint=box)
        return r.astype(np.uint8)

    def dip_fill():
        return np.asarray(dip.MorphologicalReconstruction(
            dip.Image(fill_holes_seed(np, img)), dip.Image(img), 2,
            "erosion"))

    def dip_open():
        marker = dip.Erosion(dip.Image(img), dip_disk,
                             boundaryCondition=["zero order"])
        return np.asarray(dip.MorphologicalReconstruction(
            marker, dip.Image(img), 2, "dilation"))

    def scipy_fill():
        return ndimage.binary_fill_holes(img > 0, structure=box).astype(
            np.uint8) * 255

    ops = {("fill-holes", "scikit-image"): sk_fill,
           ("fill-holes", "DIPlib"): dip_fill}
    if binary:
        ops[("fill-holes", "scipy")] = scipy_fill
    else:
        ops[("open-rec", "scikit-image")] = sk_open
        ops[("open-rec", "DIPlib")] = dip_open
    return ops


def main_cpu(d, runs):
    import diplib as dip
    import scipy
    import skimage

    print("scikit-image %s, DIPlib %s (%d threads), scipy %s; frames of "
          "%s, uint8, 8-connectivity" % (skimage.__version__, dip.__version__,
                                         dip.GetNumberOfThreads(),
                                         scipy.__version__, d))
    print("| frame | operation | peer | ms | equal to ours |")
    print("| --- | --- | --- | --- | --- |")
    failed = 0
    for frame in ("blobs", "noise", "binary"):
        img = read_pgm("%s/%s.pgm" % (d, frame))
        for (op, peer), fn in cpu_peers(img, frame == "binary").items():
            ours = read_pgm("%s/%s-%s.pgm" % (d, frame, op))
            ms, out = median_ms(fn, min(runs, 3) if peer == "scikit-image"
                                else runs)
            same = np.array_equal(out, ours)
            failed += not same
            print("| %s | %s | %s | %.1f | %s |" % (frame, op, peer, ms,
                                                    "yes" if same else "NO"))
            sys.stdout.flush()
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write")
    ap.add_argument("--size", default="3840x2160")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-cpu", action="store_true")
    ap.add_argument("--cpu")
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.split("x"))

    if a.cpu:
        return main_cpu(a.cpu, a.runs)

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
