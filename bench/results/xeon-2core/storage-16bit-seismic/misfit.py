#!/usr/bin/env python3
"""Traces against the double run's: relative L2 misfit over all receivers and the largest sample
error against the traces' peak, over the first N samples. Usage: misfit.py DOUBLE.bin OTHER.bin..."""
import json, math, struct, sys


def traces(path):
    with open(path, 'rb') as f:
        header = json.loads(f.readline())
        data = f.read()
    values = struct.unpack('<%df' % (len(data) // 4), data)
    receivers = len(header['positions'])
    samples = len(values) // receivers
    return [values[r * samples:(r + 1) * samples] for r in range(receivers)]


reference = traces(sys.argv[1])
samples = len(reference[0])
for path in sys.argv[2:]:
    got = traces(path)
    for n in sorted({min(n, samples) for n in (100, 250, 500, 1001)}):
        diff = sum((g[j] - r[j]) ** 2 for g, r in zip(got, reference) for j in range(n))
        norm = sum(r[j] ** 2 for r in reference for j in range(n))
        worst = max(abs(g[j] - r[j]) for g, r in zip(got, reference) for j in range(n))
        peak = max(abs(r[j]) for r in reference for j in range(n))
        print(f"{path} first {n} samples: relative L2 {math.sqrt(diff / norm):.3g}, "
              f"largest sample error {worst / peak:.3g} of the peak")
