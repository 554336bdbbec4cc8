#!/usr/bin/env python3
"""Medians and spreads of scripts/cpu_bench.sh's rounds: per case and variant, the full step and
the kernel alone (Gpts/s, median over rounds, min..max), the copy probe per round, and the
quickstart's rate.  Usage: scripts/cpu_bench_summary.py DIR"""
import glob
import json
import os
import re
import statistics
import sys
from collections import defaultdict


def main() -> int:
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: cpu_bench_summary.py DIR (a folder of scripts/cpu_bench.sh)", file=sys.stderr)
        return 2
    folder = sys.argv[1]
    step, kernel, roof, copies = defaultdict(list), defaultdict(list), defaultdict(list), []
    best = defaultdict(list)  # case -> the best full step of each round
    for path in sorted(glob.glob(os.path.join(folder, "*-r*.json")), key=os.path.getmtime):
        name = os.path.basename(path)
        case = re.sub(r"-r\d+\.json$", "", name)
        data = json.load(open(path))
        if case.startswith("run-"):
            step[(case, data["config"]["variant"] if "variant" in data.get("config", {}) else "auto")].append(
                data["timing"]["gpts_per_s"])
            continue
        copies.append(data["copy_probe"]["gb_per_s"])
        this_round = []  # the verified variants' full steps
        for c in data["cases"]:
            if not c["verification"]["passed"]:
                continue
            key = (case, c["variant"])
            this_round.append(c["full_step"]["gpts_per_s"])
            step[key].append(c["full_step"]["gpts_per_s"])
            kernel[key].append(c["kernel"]["gpts_per_s"])
            roof[key].append(c["roof"]["full_step_percent"])
        if this_round:
            best[case].append(max(this_round))

    def spread(v):
        return f"{statistics.median(v):.3f} ({min(v):.3f}..{max(v):.3f})"

    print("| case | variant | rounds | full step Gpts/s, median (min..max) | kernel Gpts/s | full step % of roof |")
    print("|---|---|---:|---|---|---:|")
    for key in sorted(step):
        k = kernel.get(key)
        r = roof.get(key)
        print(f"| {key[0]} | {key[1]} | {len(step[key])} | {spread(step[key])} | {spread(k) if k else '-'} | "
              f"{statistics.median(r):.1f} |" if r else f"| {key[0]} | {key[1]} | {len(step[key])} | {spread(step[key])} | - | - |")
    print("\n| case | best variant's full step per round, Gpts/s | median |")
    print("|---|---|---:|")
    for case in sorted(best):
        print(f"| {case} | {' / '.join(f'{v:.3f}' for v in best[case])} | {statistics.median(best[case]):.3f} |")
    if copies:
        print(f"\ncopy probe: median {statistics.median(copies):.1f} GB/s over {len(copies)} runs "
              f"({min(copies):.1f}..{max(copies):.1f}); consecutive runs differ by at most "
              f"{max([abs(a - b) / max(a, b) * 100 for a, b in zip(copies, copies[1:])] or [0]):.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
