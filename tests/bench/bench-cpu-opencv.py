#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""backend=cpu (tests/bench/bench-cpu) beside OpenCV on the same machine,
in one run, as a Markdown table.

    tests/bench/bench-cpu-opencv.py [--bench-cpu build/tests/bench-cpu]
        [--width W] [--height H] [--threads N] [--runs R]

Runs bench-cpu (the filters the elements run with backend=cpu) with the
same size, threads and runs, then OpenCV's equivalents on a random 8-bit
frame (never zeros), replicated borders, the median of R runs after one
warm-up; prints each row's times and the ratio ours / OpenCV. Our disk of
radius 7 stands beside OpenCV's 15x15 ellipse (not the same set of
pixels: the cost is comparable, the output is not). Needs numpy and
OpenCV (Debian: python3-opencv; PyPI: opencv-python-headless); without
--bench-cpu, OpenCV alone.
"""
import argparse
import os
import re
import subprocess
import time

import cv2
import numpy as np


def median_ms(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return sorted(times)[runs // 2] * 1e3


def opencv_rows(img, runs):
    """{our row name: OpenCV's ms}"""
    border = cv2.BORDER_REPLICATE
    shapes = {
        "rect 15x15": cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15)),
        "rect 101x101": cv2.getStructuringElement(cv2.MORPH_RECT, (101, 101)),
        "disk r7": cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15)),
    }
    ops = {"erode": None, "dilate": None, "open": cv2.MORPH_OPEN,
           "close": cv2.MORPH_CLOSE, "gradient": cv2.MORPH_GRADIENT,
           "tophat": cv2.MORPH_TOPHAT}
    rows = {}
    for op, code in ops.items():
        for sname, k in shapes.items():
            if sname == "rect 101x101" and op != "erode":
                continue
            if op == "erode":
                fn = lambda k=k: cv2.erode(img, k, borderType=border)
            elif op == "dilate":
                fn = lambda k=k: cv2.dilate(img, k, borderType=border)
            else:
                fn = lambda k=k, c=code: cv2.morphologyEx(img, c, k,
                                                          borderType=border)
            rows[f"{op} {sname}"] = median_ms(fn, runs)
    for side in (3, 5, 7, 15):
        rows[f"median {side}x{side}"] = median_ms(
            lambda s=side: cv2.medianBlur(img, s), runs)
    # 16-bit: OpenCV's median takes 16-bit samples for 3 and 5 only
    img16 = np.random.default_rng(2).integers(1, 65536, img.shape,
                                              dtype=np.uint16)
    rows["erode rect 15x15 16-bit"] = median_ms(
        lambda: cv2.erode(img16, shapes["rect 15x15"], borderType=border),
        runs)
    rows["open disk r7 16-bit"] = median_ms(
        lambda: cv2.morphologyEx(img16, cv2.MORPH_OPEN, shapes["disk r7"],
                                 borderType=border), runs)
    for side in (3, 5):
        rows[f"median {side}x{side} 16-bit"] = median_ms(
            lambda s=side: cv2.medianBlur(img16, s), runs)
    return rows


def our_rows(bench_cpu, a):
    """{row name: ms} from bench-cpu's lines 'name  12.34 ms  ...'"""
    out = subprocess.run([bench_cpu, "--width", str(a.width), "--height",
                          str(a.height), "--threads", str(a.threads),
                          "--runs", str(a.runs)], check=True,
                         capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        m = re.match(r"(.+?)\s+([0-9.]+) ms", line)
        if m:
            rows[m.group(1).strip()] = float(m.group(2))
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bench-cpu", help="path of bench-cpu (build/tests/)")
    p.add_argument("--width", type=int, default=1920)
    p.add_argument("--height", type=int, default=1080)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--runs", type=int, default=9)
    a = p.parse_args()
    cv2.setNumThreads(a.threads)
    img = np.random.default_rng(1).integers(1, 256, (a.height, a.width),
                                            dtype=np.uint8)
    ours = our_rows(a.bench_cpu, a) if a.bench_cpu else {}
    cv = opencv_rows(img, a.runs)
    print(f"{a.width}x{a.height} GRAY8, {a.threads} threads, median of "
          f"{a.runs} runs; OpenCV {cv2.__version__} "
          f"({cv2.getNumThreads()} threads)\n")
    print("| operation | backend=cpu (ms) | OpenCV (ms) | ours / OpenCV |")
    print("| --- | --- | --- | --- |")
    for name, t in cv.items():
        o = ours.get(name)
        shown = name.replace("disk r7", "disk r7 (OpenCV: 15x15 ellipse)")
        if o is None:
            print(f"| {shown} | - | {t:.2f} | - |")
        else:
            print(f"| {shown} | {o:.2f} | {t:.2f} | {o / t:.2f} |")
    for name in ("erode rect 15x15 (definition)",):
        if name in ours:
            print(f"| {name} | {ours[name]:.2f} | - | - |")


if __name__ == "__main__":
    main()
