#!/usr/bin/env python3
"""Room responses against the double run's: relative L2 misfit over both receivers and the largest
sample error against the responses' peak, over the first t seconds, of the responses as they are
and after a DC blocker (a first-order high-pass at 10 Hz, far below the 63 Hz octave band: the
closed room's constant-pressure mode drifts, docs/room.md); the offset (both receivers' mean over
the last 0.1 s, and their rms about it) of every run; then the acoustic parameters of each
summary, broadband and per octave band. Usage: misfit.py DOUBLE.bin OTHER.bin..."""
import json, math, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'scripts'))
from plot_room import read_responses  # noqa: E402


def responses(path):
    values, rate = read_responses(path)
    return rate, [list(trace) for trace in values]


def dc_blocked(trace, rate, corner=10.0):
    r = 1 - 2 * math.pi * corner / rate
    out, x1, y1 = [], 0.0, 0.0
    for x in trace:
        y1 = x - x1 + r * y1
        x1 = x
        out.append(y1)
    return out


rate, raw_reference = responses(sys.argv[1])
samples = len(raw_reference[0])
for path in sys.argv[2:]:
  raw = responses(path)[1]
  for blocked in (False, True):
    got = [dc_blocked(g, rate) for g in raw] if blocked else raw
    reference = [dc_blocked(r, rate) for r in raw_reference] if blocked else raw_reference
    for t in (0.05, 0.1, 0.25, 0.5, 1.0):
        n = min(samples, int(round(t * rate)))
        diff = sum((g[j] - r[j]) ** 2 for g, r in zip(got, reference) for j in range(n))
        norm = sum(r[j] ** 2 for r in reference for j in range(n))
        worst = max(abs(g[j] - r[j]) for g, r in zip(got, reference) for j in range(n))
        peak = max(abs(r[j]) for r in reference for j in range(n))
        print(f"{path}{' DC-blocked' if blocked else ''} first {t:g} s ({n} samples): relative L2 {math.sqrt(diff / norm):.3g}, "
              f"largest sample error {worst / peak:.3g} of the peak")
for path in sys.argv[1:]:
    raw = responses(path)[1]
    n = int(round(0.1 * rate))
    tail = [x for trace in raw for x in trace[-n:]]
    mean = sum(tail) / len(tail)
    rms = math.sqrt(sum((x - mean) ** 2 for x in tail) / len(tail))
    print(f"{path} last 0.1 s ({n} samples): mean {mean:.3g}, rms about it {rms:.3g}")
for path in sys.argv[1:]:
    summary = path.replace('responses-', 'summary-').replace('.bin', '.json')
    if not os.path.exists(summary):
        continue
    s = json.load(open(summary))
    a = s['acoustics']['receivers']
    bands = s['acoustics']['bands_hz']
    shown = lambda v: 'n/a' if v is None else f'{v:.4g}'
    for r, rec in enumerate(a):
        print(f"{summary} receiver {r}: max |u| {s['result']['max_abs_u']:.4g}; " + '; '.join(
            f"{'broadband' if b == 0 else f'{b:g} Hz'}: T30 {shown(rec['T30_s'][i])} s, EDT {shown(rec['EDT_s'][i])} s, "
            f"C80 {shown(rec['C80_dB'][i])} dB" for i, b in enumerate(bands)))
