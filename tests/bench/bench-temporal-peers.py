#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The peers of bench-temporal on the same frames: FFmpeg's tmedian (the
ffmpeg binary, when there is one) and numpy on the host's cores, each
checked against the definition (docs/design.md: the rank
floor(p/100 (n-1) + 1/2) of the window's n samples) and, with --bench,
against bench-temporal's own output for the same window.

    bench-temporal-peers.py [--bench build-gpu/tests/bench/bench-temporal]
        [--ffmpeg PATH] [--size 3840x2160] [--frames 5,9,25,255] [--depths 8,16]
        [--size-255 640x360] [--threads 16] [--runs 3] [--tmp DIR]

For each row: F random frames (seeded), written as one raw file.
 - numpy: np.percentile(stack, p, axis=0, method='nearest') of the
   (F, H, W) stack on one thread, and np.partition at our rank on
   --threads threads (row bands; numpy releases the GIL in partition),
   the median of --runs wall-clock runs. No method of np.percentile is
   the rank for every (n, p) (the script counts them first): 'nearest'
   rounds (n-1) p/100 half to even, the definition half up, so they
   differ where it ends in .5 (an even F at p = 50); the row says whether
   'nearest' gave the definition's output.
 - FFmpeg: tmedian=radius=r:percentile=p/100 (r = (F-1)/2, an odd F: its
   window is the 2r+1 frames centred on the output, ours the F frames
   ending with it, so its output centred on frame r is ours for the
   file's frames), -filter_threads --threads, over the file's frames
   twice over, the wall clock of the whole run per output frame (reading
   the raw frames included). --ffmpeg names the binary (a static build
   serves where none is installed). Its rank is int(2r p), truncated: the
   same as ours at p = 50.
 - bench-temporal (--bench): the file's frames pushed through the CUDA
   plan, its output dumped and compared; its device time printed beside.
Rows for F = 255 use --size-255 (the peers would take minutes at 4K).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np


def rank(p, n):
    k = int(np.floor(p / 100.0 * (n - 1) + 0.5))
    return min(max(k, 0), n - 1)


def nearest_agreement():
    """numpy's 'nearest' index against the rank, every n and a few p"""
    same, differ = 0, []
    for n in range(1, 256):
        idx = np.arange(n, dtype=np.float64)[:, None]
        for p in (0, 10, 12.5, 25, 37.3, 50, 66.6, 75, 90, 99.9, 100):
            got = int(np.percentile(idx, p, axis=0, method="nearest")[0])
            if got == rank(p, n):
                same += 1
            else:
                differ.append((n, p, got, rank(p, n)))
    return same, differ


def wall(fn, runs):
    times = []
    out = None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def numpy_rank(stack, k, threads):
    """the rank-k sample along axis 0, rows split among threads"""
    if threads <= 1:
        return np.partition(stack, k, axis=0)[k]
    h = stack.shape[1]
    bands = [(h * i // threads, h * (i + 1) // threads)
             for i in range(threads)]
    out = np.empty(stack.shape[1:], stack.dtype)

    def band(b):
        y0, y1 = b
        out[y0:y1] = np.partition(stack[:, y0:y1], k, axis=0)[k]

    with ThreadPoolExecutor(threads) as ex:
        list(ex.map(band, bands))
    return out


def run_ffmpeg(ffmpeg, path, w, h, f, p, dtype, threads, tmp):
    """tmedian over the file's F frames twice over (2F in): the wall clock
    per output frame, and the output whose window is the file's F frames.
    FFmpeg 9 outputs only the frames of full windows (2F - 2r, output i
    centred on input i + r); older versions every frame (their first r
    windows cut short)"""
    r = (f - 1) // 2
    pix = "gray" if dtype == np.uint8 else "gray16le"
    twice = os.path.join(tmp, "twice.raw")
    with open(twice, "wb") as out_file:
        for _ in range(2):
            with open(path, "rb") as in_file:
                shutil.copyfileobj(in_file, out_file)
    out = os.path.join(tmp, "tmedian.raw")
    cmd = [ffmpeg, "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", pix,
           "-s", "%dx%d" % (w, h), "-i", twice, "-filter_threads",
           str(threads), "-vf", "tmedian=radius=%d:percentile=%g" %
           (r, p / 100.0), "-f", "rawvideo", "-pix_fmt", pix, out]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    seconds = time.perf_counter() - t0
    frames = np.fromfile(out, dtype).reshape(-1, h, w)
    os.remove(twice)
    os.remove(out)
    if len(frames) == 2 * f:
        first = r
    elif len(frames) == 2 * f - 2 * r:
        first = 0
    else:
        raise RuntimeError("tmedian gave %d frames for %d" % (len(frames),
                                                              2 * f))
    return seconds / len(frames), frames[first]


def run_bench(bench, path, w, h, f, p, depth, tmp):
    dump = os.path.join(tmp, "ours.raw")
    cmd = [bench, "--width", str(w), "--height", str(h), "--frames", str(f),
           "--depth", str(depth), "--percentile", str(p), "--runs", "20",
           "--no-check", "--frames-file", path, "--dump", dump]
    res = subprocess.run(cmd, check=True, capture_output=True, text=True)
    us = None
    for line in res.stdout.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) >= 5 and cells[0] == str(depth) and cells[1] == str(f):
            us = float(cells[4])
    dtype = np.uint8 if depth == 8 else np.uint16
    return us, np.fromfile(dump, dtype).reshape(h, w)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bench")
    ap.add_argument("--ffmpeg", help="the ffmpeg binary (default: ffmpeg "
                    "on PATH; a static build serves where none is installed)")
    ap.add_argument("--size", default="3840x2160")
    ap.add_argument("--size-255", default="640x360")
    ap.add_argument("--frames", default="5,9,25,255")
    ap.add_argument("--depths", default="8")
    ap.add_argument("--percentile", type=float, default=50)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tmp", default=None)
    a = ap.parse_args()
    ffmpeg = shutil.which(a.ffmpeg or "ffmpeg")
    tmp = a.tmp or tempfile.mkdtemp(prefix="bench-temporal-")
    rng = np.random.default_rng(38)
    p = a.percentile

    print("numpy %s, %d threads; ffmpeg: %s; bench-temporal: %s" %
          (np.__version__, a.threads, ffmpeg or "not found",
           a.bench or "not given"))
    same, differ = nearest_agreement()
    print("np.percentile(method='nearest') gives the rank for %d of %d "
          "(n, p) pairs (n = 1..255); it differs at %s" %
          (same, same + len(differ), ", ".join(
              "n=%d p=%g (numpy %d, rank %d)" % d for d in differ[:4]) +
           (" ..." if len(differ) > 4 else "")))
    print("percentile %g; ms per output frame (wall clock on the host; "
          "bench-temporal: device time)\n" % p)
    print("| size | depth | frames | np.percentile 1 thread | np.partition "
          "%d threads | 'nearest' == rank | ffmpeg tmedian | "
          "tmedian == rank | bench-temporal | bench == rank |" % a.threads)
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for depth in [int(d) for d in a.depths.split(",")]:
        dtype = np.uint8 if depth == 8 else np.uint16
        for f in [int(x) for x in a.frames.split(",")]:
            w, h = map(int, (a.size_255 if f >= 255 else a.size).split("x"))
            stack = rng.integers(0, 1 << depth, size=(f, h, w), dtype=dtype)
            path = os.path.join(tmp, "frames.raw")
            stack.tofile(path)
            k = rank(p, f)
            tn, want = wall(lambda: numpy_rank(stack, k, a.threads), a.runs)
            t1, nearest = wall(lambda: np.percentile(
                stack, p, axis=0, method="nearest"), 1)
            near_ok = np.array_equal(nearest.astype(dtype), want)
            ok_threads = np.array_equal(want[:8], numpy_rank(stack[:, :8], k,
                                                              1))
            ff, ff_ok = "-", "-"
            if ffmpeg and f % 2 == 1:
                sec, out = run_ffmpeg(ffmpeg, path, w, h, f, p, dtype,
                                      a.threads, tmp)
                ff = "%.1f" % (1e3 * sec)
                ff_ok = "yes" if np.array_equal(out, want) else "NO"
            ours, ours_ok = "-", "-"
            if a.bench:
                us, out = run_bench(a.bench, path, w, h, f, p, depth, tmp)
                ours = "%.3f" % (us / 1e3) if us else "?"
                ours_ok = "yes" if np.array_equal(out, want) else "NO"
            print("| %dx%d | %d | %d | %.1f | %.1f%s | %s | %s | %s | %s | "
                  "%s |" % (w, h, depth, f, 1e3 * t1, 1e3 * tn,
                            "" if ok_threads else " (differs!)",
                            "yes" if near_ok else "no (ties at .5)", ff,
                            ff_ok, ours, ours_ok))
            sys.stdout.flush()
            os.remove(path)
    if not a.tmp:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
