#!/usr/bin/env python3
"""Checks a `wavefd seismic inputs/seismic-minimod-100.toml` summary against the reference code's
printed result (results/Time.md of minimod's artifact): min u = -0.205806, max u = 0.140146 after
1000 steps, within 1e-3 relative."""
import json
import sys

PRINTED = {"min_u": -0.205806, "max_u": 0.140146}

result = json.load(open(sys.argv[1]))["result"]
failed = False
for key, want in PRINTED.items():
    got = result[key]
    error = abs(got - want) / abs(want)
    print(f"{key}: {got:.6g} against minimod's {want}, relative difference {error:.2e}")
    failed = failed or not error <= 1e-3
sys.exit(1 if failed else 0)
