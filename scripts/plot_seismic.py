#!/usr/bin/env python3
"""Pictures of a `wavefd seismic` run: a wavefield slice (output.slices) and the shot gather of the
receiver traces (receivers.file), as PNG files (matplotlib).

    scripts/plot_seismic.py --slice seismic-layered-slice-000800.bin --traces seismic-layered-traces.bin \\
        --out docs/figures/seismic-layered

writes <out>-slice.png and <out>-gather.png. The slice is raw float32 after a one-line JSON header
(docs/seismic.md), the traces that or SEG-Y as wavefd writes it (receivers.format, read here with
numpy alone); each is optional. Amplitudes are clipped at a percentile of |value|
(--clip, default 99) so that the strong direct wave does not hide the reflections.
"""
import argparse
import json
import sys

import numpy as np


def read_raw(path, kind):
    with open(path, "rb") as f:
        header = json.loads(f.readline())
        if header.get("wavefd") != kind or header.get("dtype") != "float32":
            sys.exit(f"plot_seismic: {path} is not a wavefd {kind} file")
        values = np.fromfile(f, "<f4")
    return header, values


def read_traces(path):
    """Receiver traces as (receivers x samples, receiver x in m, interval in s), from a raw file or
    from SEG-Y as wavefd writes it: rev 1, big-endian IEEE floats, GroupX scaled by its scalar."""
    with open(path, "rb") as f:
        if f.read(1) == b"{":
            h, v = read_raw(path, "traces")
            return v.reshape(h["receivers"], h["samples"]), np.array([p[0] for p in h["positions"]]), h["interval"]
        f.seek(3200)
        binary = f.read(400)
        word = lambda at: int.from_bytes(binary[at:at + 2], "big", signed=True)
        interval_us, samples, fmt, extended = word(16), word(20), word(24), word(304)
        if len(binary) < 400 or fmt != 5 or samples <= 0:
            sys.exit(f"plot_seismic: {path} is neither a wavefd trace file nor SEG-Y of IEEE floats (format 5)")
        f.seek(3600 + 3200 * max(extended, 0))
        trace = np.dtype({"names": ["scalar", "x", "u"], "formats": [">i2", ">i4", (">f4", (samples,))],
                          "offsets": [70, 80, 240], "itemsize": 240 + 4 * samples})
        t = np.fromfile(f, trace)
    scalar = t["scalar"].astype(float)
    factor = np.where(scalar < 0, -1 / np.where(scalar == 0, 1, scalar), np.where(scalar == 0, 1, scalar))
    return t["u"].astype(np.float32), t["x"] * factor, interval_us * 1e-6


def clip_level(values, percentile):
    level = np.percentile(np.abs(values), percentile)
    return level if level > 0 else 1.0


def plot_slice(path, out, percentile):
    import matplotlib.pyplot as plt

    h, v = read_raw(path, "slice")
    plane = v.reshape(h["n"][1], h["n"][0])  # rows along the second axis
    a, b = h["axes"]
    extent = [0, (h["n"][0] - 1) * h["spacing"], (h["n"][1] - 1) * h["spacing"], 0]
    level = clip_level(plane, percentile)
    fig, ax = plt.subplots(figsize=(8, 8 * h["n"][1] / h["n"][0] + 0.8))
    im = ax.imshow(plane, cmap="seismic", vmin=-level, vmax=level, extent=extent, aspect="equal")
    ax.set_xlabel(f"{a} (m)")
    ax.set_ylabel(f"{b} (m)" + (", depth" if b == "z" else ""))
    ax.set_title(f"u at t = {h['time']:.3f} s (step {h['step']}), {h['normal']} = {h['position']:g} m")
    fig.colorbar(im, ax=ax, shrink=0.8, label=f"u (clipped at the {percentile:g}th percentile of |u|)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"plot_seismic: {out}")


def plot_gather(path, out, percentile):
    import matplotlib.pyplot as plt

    traces, x, interval = read_traces(path)
    t_end = (traces.shape[1] - 1) * interval
    level = clip_level(traces, percentile)
    fig, ax = plt.subplots(figsize=(7, 7))
    im = ax.imshow(traces.T, cmap="gray", vmin=-level, vmax=level, aspect="auto",
                   extent=[x.min(), x.max(), t_end, 0])
    ax.set_xlabel("receiver x (m)")
    ax.set_ylabel("time (s)")
    ax.set_title(f"shot gather: {traces.shape[0]} receivers, a sample every {interval * 1e3:.2f} ms")
    fig.colorbar(im, ax=ax, shrink=0.8, label="u")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"plot_seismic: {out}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--slice", help="a slice file (output.slices)")
    p.add_argument("--traces", help="a trace file (receivers.file)")
    p.add_argument("--out", required=True, help="prefix of the PNG files")
    p.add_argument("--clip", type=float, default=99, help="clip at this percentile of |value| (0 < clip <= 100)")
    a = p.parse_args()
    if not (0 < a.clip <= 100):
        sys.exit(f"plot_seismic: --clip = {a.clip} is outside 0 < clip <= 100")
    if not a.slice and not a.traces:
        sys.exit("plot_seismic: give --slice, --traces or both")
    import matplotlib
    matplotlib.use("Agg")
    if a.slice:
        plot_slice(a.slice, a.out + "-slice.png", a.clip)
    if a.traces:
        plot_gather(a.traces, a.out + "-gather.png", a.clip)


if __name__ == "__main__":
    main()
