#!/usr/bin/env python3
"""What a large stencil buys a room: for star M = 1 (the 7-point scheme) and star M = 4, the cell size
at which the worst relative error of the modes' frequencies below `--fmax` (over every direction)
stays under a target, and the GPU time that cell size costs for a room of `--volume` m^3 and
`--seconds` of response, at the per-cell rates measured on one H100
(bench/results/h100/room-shoebox-hall/marginal.txt: 202.9 and 170.7 G cells/s).

    scripts/room_dispersion.py --fmax 2000 --volume 7200 --seconds 1

The error is the scheme's own: with the two-step scheme u+ - 2u + u- = lambda^2 L u and L's symbol
L(k) = sum_d (w_0 + 2 sum_m w_m cos(m k_d h)) (w the order-2M Fornberg weights), a mode of wavenumber
k has cos(omega dt) = 1 + lambda^2 L(k) / 2 against omega = c |k|. dt is 0.99 of each stencil's stable
step (the room decks' default).
"""
import argparse
from fractions import Fraction

import numpy as np


def star_weights(M):
    """Order-2M central weights of d2/dx2 on -M..M (Fornberg's recursion, exact fractions)."""
    nodes = list(range(-M, M + 1))
    n = len(nodes)
    c = [[Fraction(0)] * 3 for _ in range(n)]  # c[j][d]: weight of node j for derivative d at 0
    c1, c4 = Fraction(1), Fraction(nodes[0])
    c[0][0] = Fraction(1)
    for i in range(1, n):
        mn = min(i, 2)
        c2, c5, c4 = Fraction(1), c4, Fraction(nodes[i])
        for j in range(i):
            c3 = Fraction(nodes[i] - nodes[j])
            c2 *= c3
            if j == i - 1:
                for k in range(mn, 0, -1):
                    c[i][k] = c1 * (k * c[i - 1][k - 1] - c5 * c[i - 1][k]) / c2
                c[i][0] = -c1 * c5 * c[i - 1][0] / c2
            for k in range(mn, 0, -1):
                c[j][k] = (c4 * c[j][k] - k * c[j][k - 1]) / c3
            c[j][0] = c4 * c[j][0] / c3
        c1 = c2
    return [float(c[M + m][2]) for m in range(M + 1)]  # w_0 .. w_M


def symbol(w, kh):
    """L(k) for wavenumbers kh (..., 3) in radians per cell."""
    out = np.zeros(kh.shape[:-1])
    for d in range(3):
        out += w[0] + 2 * sum(w[m] * np.cos(m * kh[..., d]) for m in range(1, len(w)))
    return out


def courant_limit(w):
    return np.sqrt(4 / -symbol(w, np.full((1, 3), np.pi))[0])


def worst_error(w, h, fmax, c, cfl):
    lam = cfl * courant_limit(w)
    dt = lam * h / c
    kmax = 2 * np.pi * fmax / c
    # Directions over the octant; the error grows with |k|, so |k| = kmax is the worst.
    th, ph = np.meshgrid(np.linspace(0, np.pi / 2, 91), np.linspace(0, np.pi / 2, 91))
    k = kmax * np.stack([np.sin(th) * np.cos(ph), np.sin(th) * np.sin(ph), np.cos(th)], -1)
    arg = 1 + lam ** 2 * symbol(w, k * h) / 2
    omega = np.arccos(np.clip(arg, -1, 1)) / dt
    return np.max(np.abs(omega / (c * kmax) - 1)), dt


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fmax", type=float, default=2000)
    ap.add_argument("--volume", type=float, default=7200)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--speed", type=float, default=343)
    ap.add_argument("--cfl", type=float, default=0.99)
    a = ap.parse_args()
    rates = {1: 202.9e9, 4: 170.7e9}  # cells per second, one H100 (room-shoebox-hall/marginal.txt)
    print(f"room {a.volume:g} m^3, {a.seconds:g} s of response, modes below {a.fmax:g} Hz, dt at {a.cfl} of the limit")
    print("| target error | stencil | cell size | cells | steps | GPU time (one H100) | fields (float) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for target in (0.02, 0.01, 0.005, 0.002):
        for M in (1, 4):
            w = star_weights(M)
            lo, hi = 1e-4, 1.0  # metres: error(lo) < target < error(hi)
            for _ in range(80):
                mid = np.sqrt(lo * hi)
                (lo, hi) = (mid, hi) if worst_error(w, mid, a.fmax, a.speed, a.cfl)[0] < target else (lo, mid)
            h = lo
            dt = worst_error(w, h, a.fmax, a.speed, a.cfl)[1]
            cells, steps = a.volume / h ** 3, a.seconds / dt
            print(f"| {target * 100:g} % | star M={M} | {h * 1e3:.2f} mm | {cells:.3g} | {steps:.3g} | "
                  f"{cells * steps / rates[M]:.3g} s | {2 * 4 * cells / 2 ** 30:.3g} GiB |")


if __name__ == "__main__":
    main()
