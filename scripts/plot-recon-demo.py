#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""docs/recon-demo.png: cudamorph's fill-holes and hdome on a photograph.

    GST_PLUGIN_PATH=build/gst scripts/plot-recon-demo.py [--backend cpu]

The photograph is scikit-image's "coins" (Greek coins from the Brooklyn
Museum collection, no known copyright restrictions). Each panel is the
output of a gst-launch-1.0 pipeline through cudamorph (pngdec ! videoconvert
! GRAY8 ! cudamorph ... ! pngenc); the script only lays them side by side.
Needs scikit-image, numpy and Pillow.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw
from skimage import data

PANELS = (
    ("photograph", None),
    ("fill-holes", "operation=fill-holes"),
    ("hdome h=40 (x6)", "operation=hdome dome-height=40"),
)


def run_cudamorph(src, dst, props, backend):
    cmd = ("gst-launch-1.0 -q filesrc location=%s ! pngdec ! videoconvert ! "
           "video/x-raw,format=GRAY8 ! cudamorph backend=%s %s ! "
           "videoconvert ! pngenc ! filesink location=%s"
           % (src, backend, props, dst))
    subprocess.run(cmd, shell=True, check=True)
    return np.asarray(Image.open(dst).convert("L"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--out", default="docs/recon-demo.png")
    a = ap.parse_args()

    coins = data.coins()
    panels = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "coins.png")
        Image.fromarray(coins).save(src)
        for i, (title, props) in enumerate(PANELS):
            if props is None:
                img = coins
            else:
                img = run_cudamorph(src, os.path.join(tmp, "%d.png" % i),
                                    props, a.backend)
            if "x6" in title:   # domes are at most h high: make them visible
                img = np.clip(img.astype(np.int32) * 6, 0, 255).astype(
                    np.uint8)
            panels.append((title, img))

    h, w = coins.shape
    pad, top = 8, 22
    sheet = Image.new("L", (len(panels) * (w + pad) + pad, h + top + pad),
                      255)
    draw = ImageDraw.Draw(sheet)
    for i, (title, img) in enumerate(panels):
        x = pad + i * (w + pad)
        sheet.paste(Image.fromarray(img), (x, top))
        draw.text((x, 5), title, fill=0)
    sheet.save(a.out, optimize=True)
    print("wrote", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
