#!/usr/bin/env python3
"""Prints `weir analyze` findings (its stdout, one warning a line) with the
source lines they point to, for judging them by hand (RESULTS.md): the
finding's line and the related location in the message ("source: ... at
FILE:LINE:COL"), each with CONTEXT lines around it. With --sample N, a
random sample of N findings (random.Random(SEED)), sorted by position.

  show_findings.py FINDINGS.txt --root SRC_DIR [--root DIR2] [--sample 40 --seed 1] [--context 3]
"""
import argparse
import os
import random
import re

LOC = re.compile(r"([^\s:()']+\.[ch]):(\d+):(\d+)")


def find(path, roots):
    if os.path.isabs(path) and os.path.exists(path):
        return path
    for root in roots:
        for cand in (os.path.join(root, path), os.path.join(root, path.split("/", 1)[-1])):
            if os.path.exists(cand):
                return cand
    return None


def show(path, line, roots, context):
    real = find(path, roots)
    if not real:
        return "    (source %s not found)" % path
    with open(real, errors="replace") as f:
        lines = f.readlines()
    lo, hi = max(1, line - context), min(len(lines), line + context)
    return "\n".join("  %s%5d| %s" % (">" if n == line else " ", n, lines[n - 1].rstrip()) for n in range(lo, hi + 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("findings")
    ap.add_argument("--root", action="append", default=[])
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--context", type=int, default=3)
    args = ap.parse_args()
    with open(args.findings) as f:
        items = [(i + 1, l.rstrip("\n")) for i, l in enumerate(f) if "warning:" in l]
    total = len(items)
    if args.sample and args.sample < total:
        items = sorted(random.Random(args.seed).sample(items, args.sample))
    print("%d findings%s" % (total, ", sample of %d (seed %d)" % (len(items), args.seed)
                             if len(items) < total else ""))
    # Findings on the same line with the same message (one per column or
    # argument) are judged together: shown once, with their numbers.
    groups = {}
    for number, text in items:
        key = re.sub(r"^([^:]+:\d+):\d+:", r"\1:", text)
        groups.setdefault(key, []).append((number, text))
    for numbers_texts in groups.values():
        number, text = numbers_texts[0]
        others = [n for n, _ in numbers_texts[1:]]
        print("\n#%d%s %s" % (number, " (+#%s)" % ",#".join(map(str, others)) if others else "", text))
        for k, m in enumerate(LOC.finditer(text)):
            print("  [%s] %s:%s" % ("finding" if k == 0 else "related", m.group(1), m.group(2)))
            print(show(m.group(1), int(m.group(2)), args.root, args.context))


if __name__ == "__main__":
    main()
