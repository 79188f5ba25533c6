# SPDX-License-Identifier: LGPL-2.1-or-later
"""The frames the bench-*-peers.py scripts share with the benchmarks:
scikit-image's photographs tiled over a frame, and binary PGM files (8-bit
written; 8- or 16-bit read, as `bench-* --dump` leaves them)."""
import numpy as np


def tiled(name, w, h):
    """scikit-image's data.NAME (its first channel), tiled over w x h"""
    from skimage import data
    img = getattr(data, name)()
    if img.ndim == 3:
        img = img[..., 0]
    img = img.astype(np.uint8)
    reps = (h // img.shape[0] + 1, w // img.shape[1] + 1)
    return np.ascontiguousarray(np.tile(img, reps)[:h, :w])


def write_pgm(path, img):
    with open(path, "wb") as f:
        f.write(b"P5 %d %d 255\n" % (img.shape[1], img.shape[0]))
        f.write(np.ascontiguousarray(img).tobytes())


def read_pgm(path):
    with open(path, "rb") as f:
        parts = f.read().split(maxsplit=4)
    w, h, maxv = int(parts[1]), int(parts[2]), int(parts[3])
    if maxv > 255:
        return np.frombuffer(parts[4], ">u2")[:w * h].reshape(h, w).astype(
            np.uint16)
    return np.frombuffer(parts[4], np.uint8)[:w * h].reshape(h, w).copy()
