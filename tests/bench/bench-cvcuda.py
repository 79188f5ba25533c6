#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""CV-CUDA's morphology and median on the rows of bench-morph and
bench-median that it has: rectangles (erode, dilate, open, close; lines
along the axes are 1xL and Lx1 rectangles) and the median by a square
window, 8- and 16-bit, random frames.

    bench-cvcuda.py [--size 3840x2160] [--runs 30] [--batch 20] [--csv FILE]

Each case is timed two ways with CuPy events on one stream after a
warm-up: "call" brackets one call (host work of the Python binding
included, as a user of the call sees it), "device" brackets --batch calls
queued back to back and divides by --batch (outputs preallocated: the
`_into` calls), which approaches the device's
time once the GPU is the slower side. The median of --runs of each.
A case whose second call takes over 20 ms is timed 3 times, one call
a batch. CV-CUDA has no disks, diamonds, octagons, crosses, custom masks or lines
at other angles: those rows of bench-morph have no CV-CUDA figure.

Before timing, each operation's output on a 257x263 crop is checked
against OpenCV's on the host (replicated borders on both), so that the
figures are for the operation the row names.
"""
import argparse
import statistics
import sys

import numpy as np


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--size", default="3840x2160")
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--batch", type=int, default=20)
    p.add_argument("--csv")
    return p.parse_args()


def morph_cases():
    for k in (3, 5, 7, 15, 31, 63, 127, 255):
        yield ("erode rect %dx%d" % (k, k), "ERODE", (k, k))
    for k in (3, 15, 31, 63, 127, 255):
        yield ("open rect %dx%d" % (k, k), "OPEN", (k, k))
    for k in (15, 255):
        yield ("dilate rect %dx%d" % (k, k), "DILATE", (k, k))
        yield ("close rect %dx%d" % (k, k), "CLOSE", (k, k))
    for k in (3, 15, 31, 63, 127, 255):
        yield ("erode line %d at 0deg" % k, "ERODE", (k, 1))
        yield ("erode line %d at 90deg" % k, "ERODE", (1, k))


MEDIAN_SIDES = (3, 5, 7, 9, 11, 13, 15, 21, 31)


def cv2_reference(kind, mask, crop):
    import cv2
    kernel = np.ones((mask[1], mask[0]), np.uint8)
    op = {"ERODE": cv2.MORPH_ERODE, "DILATE": cv2.MORPH_DILATE,
          "OPEN": cv2.MORPH_OPEN, "CLOSE": cv2.MORPH_CLOSE}[kind]
    return cv2.morphologyEx(crop, op, kernel, borderType=cv2.BORDER_REPLICATE)


def main():
    args = parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    try:
        import cupy as cp
        import cvcuda
    except ImportError as e:
        print("CV-CUDA or CuPy missing: %s" % e)
        return 77

    stream = cp.cuda.Stream(non_blocking=True)
    cv_stream = cvcuda.as_stream(stream)
    print("cvcuda %s, cupy %s, %s, %dx%d, runs %d, batch %d" % (
        getattr(cvcuda, "__version__", "?"), cp.__version__,
        cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), w, h,
        args.runs, args.batch))

    rng = np.random.default_rng(7)
    rows = []

    def tensor(a):
        return cvcuda.as_tensor(a.reshape(1, a.shape[0], a.shape[1], 1),
                                "NHWC")

    def time_case(fn):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        with stream:
            fn()
            start.record(stream)
            fn()
            stop.record(stream)
            stop.synchronize()
            # a slow case (CV-CUDA's cost grows with the mask) gets few runs
            slow = cp.cuda.get_elapsed_time(start, stop) > 20.0
            runs = 3 if slow else args.runs
            batch = 1 if slow else args.batch
            call, dev = [], []
            for _ in range(runs):
                start.record(stream)
                fn()
                stop.record(stream)
                stop.synchronize()
                call.append(cp.cuda.get_elapsed_time(start, stop))
            for _ in range(max(3, runs // 3)):
                start.record(stream)
                for _ in range(batch):
                    fn()
                stop.record(stream)
                stop.synchronize()
                dev.append(cp.cuda.get_elapsed_time(start, stop) / batch)
        return statistics.median(call), statistics.median(dev)

    def emit(depth, case, fn, checked):
        try:
            call_ms, dev_ms = time_case(fn)
        except Exception as e:  # a case the library refuses
            print("%-6s %-26s refused: %s" % (depth, case, e))
            rows.append((depth, case, "", "", "", checked))
            return
        gpx = w * h / (dev_ms * 1e-3) / 1e9
        print("%-6s %-26s call %8.1f us  device %8.1f us  %7.1f Gpx/s  %s" %
              (depth, case, call_ms * 1e3, dev_ms * 1e3, gpx, checked))
        rows.append((depth, case, "%.1f" % (call_ms * 1e3),
                     "%.1f" % (dev_ms * 1e3), "%.2f" % gpx, checked))

    for depth, dtype, hi in (("8-bit", np.uint8, 256), ("16-bit", np.uint16, 65536)):
        host = rng.integers(0, hi, size=(h, w), dtype=np.int64).astype(dtype)
        src_cp = cp.asarray(host)
        src = tensor(src_cp)
        crop = np.ascontiguousarray(host[:263, :257])
        crop_t = tensor(cp.asarray(crop))
        workspace = cvcuda.Tensor((1, h, w, 1), dtype, "NHWC")
        dst = cvcuda.Tensor((1, h, w, 1), dtype, "NHWC")
        crop_ws = cvcuda.Tensor((1, 263, 257, 1), dtype, "NHWC")
        border = cvcuda.Border.REPLICATE

        for case, kind, mask in morph_cases():
            mtype = getattr(cvcuda.MorphologyType, kind)
            needs_ws = kind in ("OPEN", "CLOSE")
            checked = "unchecked"
            try:
                got = cvcuda.morphology(crop_t, mtype, mask, (-1, -1),
                                        workspace=crop_ws if needs_ws else None,
                                        border=border)
                got = cp.asnumpy(cp.asarray(got.cuda())).reshape(crop.shape)
                import cv2  # noqa: F401  (checked only where OpenCV is)
                checked = "== OpenCV" if np.array_equal(
                    got, cv2_reference(kind, mask, crop)) else "!= OpenCV"
            except ImportError:
                pass
            except Exception as e:
                checked = "check failed: %s" % e

            def fn(mtype=mtype, mask=mask, needs_ws=needs_ws):
                cvcuda.morphology_into(dst, src, mtype, mask, (-1, -1),
                                       workspace=workspace if needs_ws
                                       else None,
                                       border=border, stream=cv_stream)
            emit(depth, case, fn, checked)

        for k in MEDIAN_SIDES:
            checked = "unchecked"
            try:
                import cv2
                got = cvcuda.median_blur(crop_t, (k, k))
                got = cp.asnumpy(cp.asarray(got.cuda())).reshape(crop.shape)
                # OpenCV's medianBlur replicates borders; it takes 16-bit
                # only up to 5x5
                if dtype == np.uint8 or k <= 5:
                    checked = "== OpenCV" if np.array_equal(
                        got, cv2.medianBlur(crop, k)) else "!= OpenCV"
            except ImportError:
                pass
            except Exception as e:
                checked = "check failed: %s" % e

            def fn(k=k):
                cvcuda.median_blur_into(dst, src, (k, k), stream=cv_stream)
            emit(depth, "median %dx%d" % (k, k), fn, checked)

    if args.csv:
        with open(args.csv, "w") as f:
            f.write("depth,case,call_us,device_us,gpx_s,check\n")
            for r in rows:
                f.write(",".join(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
