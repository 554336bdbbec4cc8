#!/usr/bin/env python3
"""Memory roofline from `wavefd bench --json` results: achieved GFLOP/s against arithmetic
intensity, with the memory roof set by the copy bandwidth measured in the same run.

Per point and step the update does K multiply-adds (2K flops) and moves at least 3 values
(read u, read u-, write u+): intensity = 2K / (3 * sizeof(T)) flops per byte.

    scripts/plot_roofline.py star4.json box222.json -o roofline.png [--peak-gflops 67000]
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def figures(case, part):
    """A timed case's figures for `part` ("kernel" or "full_step"); None if it was not timed.
    Results written before the full step became the headline hold the kernel's at the top level."""
    if part in case:
        return case[part]
    return case if part == "kernel" and "gpts_per_s" in case else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="bench JSON files")
    ap.add_argument("-o", "--output", default="roofline.png", help="image file")
    ap.add_argument("--peak-gflops", type=float, default=None, help="compute roof to draw (GFLOP/s)")
    ap.add_argument("--full-step", action="store_true", help="plot the full step instead of the kernel alone")
    args = ap.parse_args()
    part = "full_step" if args.full_step else "kernel"
    points, copy_gbs = [], []
    for path in args.json:
        with open(path) as f:
            data = json.load(f)
        copy_gbs.append(data["copy_probe"]["gb_per_s"])
        for c in data.get("cases", []):
            fig = figures(c, part)
            if not fig:
                continue
            K = c.get("K", data.get("stencil", {}).get("K"))
            name = c.get("stencil", data.get("stencil", {}).get("name", "?"))
            size = 4 if c["precision"] == "float" else 8
            ai = 2.0 * K / (3 * size)
            points.append((ai, 2.0 * K * fig["gpts_per_s"], f"{name} {c['variant']} {c['precision']}"))
    if not points:
        sys.exit("plot_roofline: no timed cases in the input")
    bw = min(copy_gbs)
    fig, ax = plt.subplots(figsize=(7, 5))
    xs = [p[0] for p in points]
    lo, hi = min(xs) / 2, max(xs) * 2
    ax.plot([lo, hi], [bw * lo, bw * hi], "k-", lw=1, label=f"memory roof {bw:.0f} GB/s (copy probe)")
    if args.peak_gflops:
        ax.axhline(args.peak_gflops, color="gray", ls="--", label=f"compute roof {args.peak_gflops:.0f} GFLOP/s")
    for ai, gflops, label in points:
        ax.plot(ai, gflops, "o", ms=4)
        ax.annotate(label, (ai, gflops), fontsize=6, xytext=(3, 2), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (flop per minimal byte)")
    ax.set_ylabel("GFLOP/s (2K flops per point)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot_roofline: wrote {args.output} ({len(points)} cases)")


if __name__ == "__main__":
    main()
