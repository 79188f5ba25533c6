# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the plot scripts share: the tree's root, the --out argument."""
import argparse
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def out_arg(doc, png):
    """Where to write the figure: --out, docs/@png by default (@doc: the
    script's docstring, whose first line describes it)."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", png))
    return ap.parse_args().out
