#!/usr/bin/env python3
"""check_segy_traces.py SEGY RAW: the SEG-Y receiver traces of a `wavefd seismic` run, read with
python3-segyio, hold what the raw traces of the same run hold (read with numpy): the receivers'
positions, the sample interval and every sample, bit for bit. CTest runs it where python3-segyio
is installed, check_segy_traces (segyio's C API) elsewhere. Prints one line when they match.
"""
import json
import sys

import numpy as np
import segyio


def fail(what):
    sys.exit(f"check_segy_traces.py: {what}")


def main():
    if len(sys.argv) != 3:
        fail("usage: check_segy_traces.py SEGY RAW")
    with open(sys.argv[2], "rb") as f:
        h = json.loads(f.readline())
        raw = np.fromfile(f, "<f4").reshape(h["receivers"], h["samples"])
    positions = np.array(h["positions"])
    with segyio.open(sys.argv[1], ignore_geometry=True) as f:
        if int(f.format) != 5:
            fail(f"format {f.format}, not 5 (IEEE float)")
        data = f.trace.raw[:]
        if data.shape != raw.shape:
            fail(f"{data.shape} traces x samples, raw has {raw.shape}")
        dt_us = segyio.tools.dt(f)
        if round(dt_us) != round(h["interval"] * 1e6):
            fail(f"sample interval {dt_us} us, raw has {h['interval']} s")
        field = segyio.TraceField
        for name, key in (("SourceGroupScalar", field.SourceGroupScalar), ("ElevationScalar", field.ElevationScalar)):
            if set(f.attributes(key)[:]) != {-100}:
                fail(f"{name} is not -100 on every trace")
        got = np.stack([f.attributes(field.GroupX)[:], f.attributes(field.GroupY)[:],
                        -f.attributes(field.ReceiverGroupElevation)[:]], axis=1) / 100.0
        if not np.allclose(got, positions, atol=0.005):
            fail(f"receiver positions {got.tolist()} differ from the raw file's {positions.tolist()}")
    if not np.array_equal(data, raw):
        fail("the samples differ from the raw traces")
    if not np.abs(raw).max() > 0:
        fail("every sample is 0")
    print(f"check_segy_traces.py: {data.shape[0]} traces x {data.shape[1]} samples ({dt_us:g} us apart, "
          f"peak |u| {np.abs(raw).max():g}) match the raw traces")


if __name__ == "__main__":
    main()
