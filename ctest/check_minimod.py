#!/usr/bin/env python3
"""Checks a `wavefd seismic` summary's min and max of u against a reference code's output, within
1e-3 relative:

  check_minimod.py SUMMARY.json MIN MAX WHERE CONVENTION

WHERE names the reference (it is printed); CONVENTION is the profile and source term the summary
must record as having run (minimod or minimod-2021). CTest passes the two references of docs/seismic.md:
inputs/seismic-minimod-100.toml against minimod's printed result (-0.205806 / 0.140146, results/
Time.md of gpa-minimod-artifacts at 6efe3ca, the 2020 code), inputs/seismic-minimod-cpe21-100.toml
against the 2021 code's GPU output on an H100 (-0.177872 / 0.115114, CPE21-Artifact)."""
import json
import sys

if len(sys.argv) != 6:
    sys.exit(__doc__)
summary, want_min, want_max, where, convention = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), *sys.argv[4:]
run = json.load(open(summary))
result, model = run["result"], run["model"]
failed = False
for key in ("profile", "source_term"):
    print(f"model.{key}: {model[key]} (expected {convention})")
    failed = failed or model[key] != convention
for key, want in (("min_u", want_min), ("max_u", want_max)):
    got = result[key]
    error = abs(got - want) / abs(want)
    print(f"{key}: {got:.6g} against {where}'s {want}, relative difference {error:.2e}")
    failed = failed or not error <= 1e-3
sys.exit(1 if failed else 0)
