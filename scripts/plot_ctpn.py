#!/usr/bin/env python3
"""CTPN against stencil size K per family (Hamilton et al. 2015, Fig. 7) from a
`wavefd bench --sweep hamilton --json FILE` result. One panel per precision, one line per
(family, variant).

    scripts/plot_ctpn.py sweep.json -o ctpn.png
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
    ap.add_argument("json", help="bench JSON with a 'cases' list (from --sweep hamilton)")
    ap.add_argument("-o", "--output", default="ctpn.png", help="image file (PNG, PDF or SVG)")
    ap.add_argument("--full-step", action="store_true", help="plot the full step instead of the kernel alone")
    args = ap.parse_args()
    part = "full_step" if args.full_step else "kernel"
    with open(args.json) as f:
        data = json.load(f)
    cases = [c for c in data.get("cases", []) if figures(c, part) and "family" in c]
    if not cases:
        sys.exit(f"plot_ctpn: {args.json} has no timed cases with a 'family' (run bench --sweep hamilton)")
    precisions = sorted({c["precision"] for c in cases}, key=lambda p: p != "float")
    fig, axes = plt.subplots(1, len(precisions), figsize=(6 * len(precisions), 4.5), squeeze=False)
    for ax, prec in zip(axes[0], precisions):
        series = {}
        for c in cases:
            if c["precision"] == prec:
                series.setdefault((c["family"], c["variant"]), []).append((c["K"], figures(c, part)["ctpn_ns"] * 1e3))
        for (family, variant), pts in sorted(series.items()):
            pts.sort()
            ax.plot([k for k, _ in pts], [t for _, t in pts], marker="o", ms=3, label=f"{family} / {variant}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("stencil points K")
        ax.set_ylabel("CTPN (ps per point per step)")
        ax.set_title(f"{prec}, grid {'x'.join(str(v) for v in data.get('grid', []))}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    device = data.get("kokkos", {}).get("device", "")
    fig.suptitle(f"wavefd CTPN vs K on {device}")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot_ctpn: wrote {args.output} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
