#!/usr/bin/env python3
"""Parallel efficiency and the time breakdown against ranks, from the point JSONs that
scripts/scaling.py writes (directories are searched for *.json; one series per mode).

    scripts/plot_scaling.py results/weak results/strong -o scaling.png

Efficiency is relative to the series' smallest rank count N0: weak t(N0) / t(N), strong
N0 t(N0) / (N t(N)), t the full step (the slowest rank's, min over repetitions). The breakdown
shows the per-rank mean of each part per step: the halo's host phases in the full step (pack,
wait, unpack; on one rank with transport local, the ghost fill timed alone) and the core and
shell updates each timed alone, the full step beside them.
"""
import argparse
import glob
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PARTS = ["pack", "wait", "unpack", "core", "shell"]


def part_ms(point, part):
    """Per-rank mean of a part, ms per step. With transport local (one rank) the ghost fill has
    no host phases: it is shown as its time alone, under "pack"."""
    per_rank = point["breakdown_per_rank_s"]
    if point["scaling"]["transport"] == "local" and part in ("pack", "wait", "unpack"):
        return per_rank["halo"]["mean"] * 1e3 if part == "pack" else 0.0
    return per_rank[part]["mean"] * 1e3


def load_points(paths):
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "*.json"))) if os.path.isdir(p) else [p]
    series = {}
    for name in files:
        try:
            with open(name) as f:
                point = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f"plot_scaling: error: {name} cannot be read as JSON: {e}")
        if "scaling" not in point:
            continue  # not a point of scripts/scaling.py
        series.setdefault(point["scaling"]["mode"], []).append(point)
    for points in series.values():
        points.sort(key=lambda p: p["scaling"]["ranks"])
    return series


def efficiency(points, mode):
    base = points[0]
    n0, t0 = base["scaling"]["ranks"], base["full_step_s"]
    if mode == "weak":
        return [t0 / p["full_step_s"] for p in points]
    return [n0 * t0 / (p["scaling"]["ranks"] * p["full_step_s"]) for p in points]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help="point JSONs or directories of them")
    ap.add_argument("-o", "--output", default="scaling.png", help="image file (PNG, PDF or SVG)")
    args = ap.parse_args()
    series = load_points(args.inputs)
    if not series:
        sys.exit("plot_scaling: error: no scaling point JSON among the inputs (write them with scripts/scaling.py)")
    modes = sorted(series)
    fig, axes = plt.subplots(2, len(modes), figsize=(6 * len(modes), 8), squeeze=False)
    for col, mode in enumerate(modes):
        points = series[mode]
        ranks = [p["scaling"]["ranks"] for p in points]
        eff = efficiency(points, mode)
        ax = axes[0][col]
        ax.plot(ranks, eff, marker="o", label="measured")
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_xscale("log", base=2)
        ax.set_xticks(ranks, [str(r) for r in ranks])
        ax.set_ylim(0, max(1.1, max(eff) * 1.1))
        ax.set_xlabel("ranks")
        ax.set_ylabel(f"{mode} efficiency (vs {ranks[0]} rank{'s' if ranks[0] > 1 else ''})")
        sub = points[0]["scaling"]
        size = "subdomain " + "x".join(map(str, sub["subdomain_largest"])) if mode == "weak" else \
            "grid " + "x".join(map(str, sub["global"]))
        ax.set_title(f"{mode} scaling, {size}, {points[0]['case']['stencil']} {points[0]['case']['precision']}")
        ax.grid(True, alpha=0.3)

        ax = axes[1][col]
        x = range(len(points))
        bottom = [0.0] * len(points)
        for part in PARTS:
            ms = [part_ms(p, part) for p in points]
            label = "pack (local: the ghost fill)" if part == "pack" and any(
                p["scaling"]["transport"] == "local" for p in points) else part
            ax.bar(x, ms, bottom=bottom, label=label, width=0.6)
            bottom = [b + m for b, m in zip(bottom, ms)]
        ax.plot(x, [p["full_step_s"] * 1e3 for p in points], "k*-", label="full step (slowest rank)")
        ax.set_xticks(list(x), [f"{r}\n{'x'.join(map(str, p['scaling']['rank_grid']))}" for r, p in zip(ranks, points)])
        ax.set_xlabel("ranks (rank grid)")
        ax.set_ylabel("ms per step (per-rank mean)")
        ways = []  # transport and overlap as the points ran, in rank order
        for p in points:
            way = f"{p['scaling']['transport']}, overlap {'on' if p['scaling']['overlap'] else 'off'}"
            ways += [] if way in ways else [way]
        ax.set_title("breakdown; " + " / ".join(ways), fontsize=9)
        ax.legend(fontsize=7)
        ax.grid(True, axis="y", alpha=0.3)
    device = series[modes[0]][0].get("provenance", {}).get("device", "")
    fig.suptitle(f"wavefd scaling on {device}")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    counts = ", ".join(f"{m} {len(series[m])}" for m in modes)
    print(f"plot_scaling: wrote {args.output} ({counts} points)")


if __name__ == "__main__":
    main()
