#!/usr/bin/env python3
"""Why half's traces miss 1 % on minimod's deck, in one dimension: the leapfrog stored as (u^n, u^n-1)
against (u^n, v^n = u^n - u^n-1), each in float32 and float16 with float arithmetic, against float64.
minimod's numbers: 2000 m/s, 20 m, dt 1.61 ms, 8th order, a 10 Hz Ricker; the receiver 100 cells
from the source, 1000 steps. Rounding u^n+1 moves the velocity it implies (u^n+1 - u^n, about
omega dt |u|) by eps |u|: stored as a difference of two 16-bit values, the velocity loses about
log2(1 / (omega dt)) of its 11 bits. Stored itself, it keeps them."""
import numpy as np

N, h, c, dt, steps = 1400, 20.0, 2000.0, 0.00161015, 1000
weights = np.array([-205 / 72, 8 / 5, -1 / 5, 8 / 315, -1 / 560])
courant2 = (c * dt / h) ** 2
source, receiver = 700, 800
f0 = 10.0


def ricker(t):
    x = (np.pi * f0 * (t - 1.5 / f0)) ** 2
    return (1 - 2 * x) * np.exp(-x)


def laplacian(u):
    out = weights[0] * u
    for m in range(1, 5):
        out[m:-m] += weights[m] * (u[2 * m:] + u[:-2 * m])
    out[:4] = out[-4:] = 0
    return out


def run(stored, form):
    arithmetic = np.float64 if stored == np.float64 else np.float32
    u, other = np.zeros(N, stored), np.zeros(N, stored)  # other: u^n-1 ('previous') or v^n ('velocity')
    trace = []
    for n in range(steps):
        un, on = u.astype(arithmetic), other.astype(arithmetic)
        if form == 'previous':
            nxt = 2 * un - on + courant2 * laplacian(un)
            nxt[source] += ricker((n + 1) * dt)
            other, u = u, nxt.astype(stored)
        else:
            v = on + courant2 * laplacian(un)
            v[source] += ricker((n + 1) * dt)
            other = v.astype(stored)
            u = (un + other.astype(arithmetic)).astype(stored)
        trace.append(float(u[receiver]))
    return np.array(trace)


reference = run(np.float64, 'previous')
for stored in (np.float32, np.float16):
    for form in ('previous', 'velocity'):
        t = run(stored, form)
        print(f"{stored.__name__:8s} (u, {form:8s}): relative L2 {np.linalg.norm(t - reference) / np.linalg.norm(reference):.3g}")
