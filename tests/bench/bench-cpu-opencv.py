#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""OpenCV's equivalents of tests/bench/bench-cpu.c on the same machine.

    tests/bench/bench-cpu-opencv.py [--width W] [--height H] [--threads N]

Needs numpy and OpenCV (Debian: python3-opencv). Random 8-bit frames,
replicated borders, the median of 5 runs after one warm-up, in Gpx/s.
"""
import argparse
import os
import time

import cv2
import numpy as np


def bench(name, fn, pixels, runs=5):
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    t = sorted(times)[runs // 2]
    print(f"{name:<28} {t * 1e3:8.2f} ms  {pixels / t / 1e9:7.3f} Gpx/s")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--width", type=int, default=3840)
    p.add_argument("--height", type=int, default=2160)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    a = p.parse_args()
    cv2.setNumThreads(a.threads)
    img = np.random.default_rng(1).integers(1, 256, (a.height, a.width),
                                            dtype=np.uint8)
    rect = cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15))
    border = cv2.BORDER_REPLICATE
    n = a.width * a.height
    print(f"OpenCV {cv2.__version__}, {a.width}x{a.height} GRAY8, "
          f"{cv2.getNumThreads()} threads")
    bench("erode rect 15x15", lambda: cv2.erode(img, rect,
                                                borderType=border), n)
    bench("erode ellipse 15x15", lambda: cv2.erode(img, disk,
                                                   borderType=border), n)
    bench("median 3x3", lambda: cv2.medianBlur(img, 3), n)
    bench("median 5x5", lambda: cv2.medianBlur(img, 5), n)
    bench("median 7x7", lambda: cv2.medianBlur(img, 7), n)


if __name__ == "__main__":
    main()
