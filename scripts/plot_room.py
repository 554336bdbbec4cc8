#!/usr/bin/env python3
"""Pictures of a `wavefd room` run (docs/room.md): for one receiver, the impulse response, its
spectrum, and the energy decay curves (Schroeder) per octave band; and a plan of the room with its
sources and receivers. PNG files (matplotlib).

    scripts/plot_room.py --responses room-shoebox-ir.bin --summary wavefd-room.json \\
        --receiver 0 --out docs/figures/room-shoebox

writes <out>-response.png (response, spectrum, decay curves) and <out>-plan.png. The responses are
raw float32 after a one-line JSON header (receivers.file); the summary gives the room's size, the
positions and the octave bands the run reported. Octave bands are the summary's 6th-order Butterworth
band-pass filters (src/room/room_metrics.cpp), applied here the same way.

A room from a mesh has no shoebox to draw: give its cells as `--voxels FILE` (what the same deck
writes with --output.voxels FILE), and the plan is the horizontal slice of the cells through the
first source (or at --slice-z metres) and the vertical one along x through it: outside, air, and the
boundary cells in their materials' colours (include/wavefd/voxel_file.hpp has the format).
"""
import argparse
import json
import sys

import numpy as np


def read_responses(path):
    with open(path, "rb") as f:
        header = json.loads(f.readline())
        if header.get("wavefd") != "traces" or header.get("dtype") != "float32":
            sys.exit(f"plot_room: {path} is not a wavefd responses file")
        values = np.fromfile(f, "<f4").astype(float)
    return values.reshape(header["receivers"], header["samples"]), 1.0 / header["interval"]


def octave_band(x, rate, centre):
    """The band-pass of room_metrics.cpp: Butterworth order 3 per edge, bilinear, b = (1, 0, -1) sections."""
    low, high = centre / np.sqrt(2), centre * np.sqrt(2)
    w1, w2 = 2 * rate * np.tan(np.pi * low / rate), 2 * rate * np.tan(np.pi * high / rate)
    w0, bw = np.sqrt(w1 * w2), w2 - w1
    poles = []
    for k in range(3):
        p = np.exp(1j * np.pi * (2 * k + 4) / 6)
        root = np.sqrt(p * p * bw * bw - 4 * w0 * w0)
        for s in ((p * bw + root) / 2, (p * bw - root) / 2):
            z = (2 * rate + s) / (2 * rate - s)
            if z.imag > 0:
                poles.append(z)
    e = np.exp(-1j * 2 * np.arctan(w0 / (2 * rate)))
    h = np.prod([(1 - e * e) / (1 - 2 * z.real * e + abs(z) ** 2 * e * e) for z in poles])
    y = x / abs(h)
    for z in poles:
        a1, a2 = -2 * z.real, abs(z) ** 2
        out = np.empty_like(y)
        s1 = s2 = 0.0
        for n, v in enumerate(y):
            o = v + s1
            s1, s2 = -a1 * o + s2, -v - a2 * o
            out[n] = o
        y = out
    return y


def read_voxels(path):
    """The header and the cells (x fastest, 1: air) of a voxel file, and per boundary cell its
    material, in the order of the boundary cells (air with a face neighbour outside), ascending."""
    with open(path, "rb") as f:
        header = json.loads(f.readline())
        data = np.frombuffer(f.read(), dtype=np.uint8)
    if header.get("format") != "wavefd-voxels":
        sys.exit(f"plot_room: {path} is no voxel file")
    runs, boundary = header["air_runs"], header["boundary_cells"]
    # Unsigned LEB128 varints, vectorized: a byte below 0x80 ends a number.
    ends = np.flatnonzero(data < 0x80)[:runs]
    stop = ends[-1] + 1 if runs else 0
    group = np.repeat(np.arange(runs), np.diff(np.concatenate(([0], ends + 1))))
    first = np.concatenate(([0], ends[:-1] + 1))
    shift = 7 * (np.arange(stop) - first[group])
    values = np.zeros(runs, dtype=np.int64)
    np.add.at(values, group, (data[:stop].astype(np.int64) & 0x7F) << shift)
    nx, ny, nz = header["cells"]
    air = np.repeat(np.arange(runs) % 2, values).astype(np.uint8).reshape(nz, ny, nx)
    materials = data[stop:stop + boundary]
    return header, air, materials


def boundary_mask(air):
    """Air cells with a face neighbour outside (or beyond the grid): the boundary cells."""
    padded = np.pad(air, 1)
    inner = np.ones_like(air, dtype=bool)
    for axis in range(3):
        for step in (-1, 1):
            inner &= np.roll(padded, step, axis=axis)[1:-1, 1:-1, 1:-1] == 1
    return (air == 1) & ~inner


def plot_voxel_plan(plt, path, model, slice_z, out):
    """The cells in two slices through the first source: horizontal (at slice_z, default the
    source's height) and vertical along x; outside, air, and boundary cells in their materials'
    colours, with the sources and receivers."""
    header, air, materials = read_voxels(path)
    h, origin = header["spacing"], header["origin"]
    nx, ny, nz = header["cells"]
    source = model["sources"][0]["position"] if model["sources"] else [origin[d] + n * h / 2 for d, n in
                                                                       enumerate(header["cells"])]
    if slice_z is not None:
        source = [source[0], source[1], slice_z]
    at = [int(np.clip(np.floor((source[d] - origin[d]) / h), 0, n - 1)) for d, n in enumerate(header["cells"])]
    walls = boundary_mask(air)
    material = np.full(air.shape, np.nan)
    material[walls] = materials  # the boundary cells in the file's (ascending) order
    names = header["materials"]
    cmap = plt.get_cmap("tab10", max(len(names), 1))
    fig, axes = plt.subplots(2, 1, figsize=(7, 7 * (ny + nz) / nx + 1.6), height_ratios=[ny, nz])
    slices = [(air[at[2]], material[at[2]], (0, 1), f"z = {origin[2] + (at[2] + 0.5) * h:.2f} m"),
              (air[:, at[1], :], material[:, at[1], :], (0, 2), f"y = {origin[1] + (at[1] + 0.5) * h:.2f} m")]
    for ax, (cells, walls_here, (u, v), where) in zip(axes, slices):
        extent = (origin[u], origin[u] + header["cells"][u] * h, origin[v], origin[v] + header["cells"][v] * h)
        ax.imshow(cells, origin="lower", extent=extent, cmap="Blues", vmin=0, vmax=4, interpolation="nearest")
        ax.imshow(walls_here, origin="lower", extent=extent, cmap=cmap, vmin=-0.5, vmax=len(names) - 0.5,
                  interpolation="nearest")
        for m in sorted(set(int(x) for x in walls_here[~np.isnan(walls_here)])):
            ax.plot([], [], "s", color=cmap(m), label=names[m])
        for s in model["sources"]:
            ax.plot(s["position"][u], s["position"][v], "r*", ms=12)
        for i, r in enumerate(model["receivers"]):
            ax.plot(r[u], r[v], "ko", ms=4)
            ax.annotate(str(i), (r[u], r[v]), textcoords="offset points", xytext=(5, 5))
        ax.legend(fontsize=7, loc="upper right", title="walls in this slice", title_fontsize=7)
        ax.set(xlabel="xyz"[u] + " (m)", ylabel="xyz"[v] + " (m)", aspect="equal", title=f"the cells at {where}")
    fig.suptitle(f"{header['mesh'].split('/')[-1]} ({h:g} m cells, {nx} x {ny} x {nz}): source red, receivers black "
                 "(all projected)", fontsize=9)
    fig.tight_layout()
    fig.savefig(f"{out}-plan.png", dpi=110)


def decay_curve(x):
    energy = np.cumsum((x * x)[::-1])[::-1]
    return 10 * np.log10(np.maximum(energy / energy[0], 1e-30))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--responses", required=True, help="receivers.file of the run (raw float32 + JSON)")
    ap.add_argument("--summary", required=True, help="output.summary of the run")
    ap.add_argument("--receiver", type=int, default=0)
    ap.add_argument("--out", required=True, help="file name prefix of the pictures")
    ap.add_argument("--voxels", help="a room from a mesh: its cells (output.voxels of the same deck), for the plan")
    ap.add_argument("--slice-z", type=float, help="height of the plan's slice in metres (default: the first source's)")
    a = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    responses, rate = read_responses(a.responses)
    summary = json.load(open(a.summary))
    if not 0 <= a.receiver < len(responses):
        sys.exit(f"plot_room: --receiver {a.receiver} is outside 0..{len(responses) - 1}")
    h = responses[a.receiver]
    t = np.arange(len(h)) / rate
    model, acoustics = summary["model"], summary.get("acoustics", {})

    fig, ax = plt.subplots(3, 1, figsize=(8, 10))
    ax[0].plot(t * 1e3, h, lw=0.6)
    ax[0].set(xlabel="time (ms)", ylabel="pressure (arb.)", title=f"receiver {a.receiver}: impulse response")
    spectrum = np.abs(np.fft.rfft(h))
    f = np.fft.rfftfreq(len(h), 1 / rate)
    ax[1].semilogx(f[1:], 20 * np.log10(np.maximum(spectrum[1:] / spectrum.max(), 1e-12)), lw=0.6)
    ax[1].set(xlabel="frequency (Hz)", ylabel="dB", ylim=(-80, 3), title="spectrum")
    ax[2].plot(t, decay_curve(h), label="broadband", color="k")
    for c in [b for b in acoustics.get("bands_hz", []) if b > 0]:
        ax[2].plot(t, decay_curve(octave_band(h, rate, c)), lw=0.8, label=f"{c:g} Hz")
    ax[2].set(xlabel="time (s)", ylabel="energy to come (dB)", ylim=(-70, 2), title="energy decay (Schroeder)")
    if acoustics.get("sabine_s"):
        ax[2].plot([0, acoustics["sabine_s"]], [0, -60], "k--", lw=0.8, label=f"Sabine {acoustics['sabine_s']:.2f} s")
    ax[2].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(f"{a.out}-response.png", dpi=110)

    if model["shoebox"] is None:
        if not a.voxels:
            sys.exit("plot_room: a room from a mesh needs --voxels FILE (its cells, as --output.voxels FILE writes them) "
                     "for its plan; the response was drawn")
        plot_voxel_plan(plt, a.voxels, model, a.slice_z, a.out)
        print(f"plot_room: wrote {a.out}-response.png and {a.out}-plan.png")
        return
    size = model["shoebox"]
    fig, ax = plt.subplots(figsize=(6, 6 * size[1] / size[0] + 0.5))
    ax.add_patch(plt.Rectangle((0, 0), size[0], size[1], fill=False, lw=2))
    for s in model["sources"]:
        ax.plot(s["position"][0], s["position"][1], "r*", ms=12)
    for i, r in enumerate(model["receivers"]):
        ax.plot(r[0], r[1], "bo")
        ax.annotate(str(i), (r[0], r[1]), textcoords="offset points", xytext=(5, 5))
    ax.set(xlabel="x (m)", ylabel="y (m)", aspect="equal", xlim=(-0.2, size[0] + 0.2), ylim=(-0.2, size[1] + 0.2),
           title=f"{size[0]:g} x {size[1]:g} x {size[2]:g} m, {model['cells'][0]} x {model['cells'][1]} x "
                 f"{model['cells'][2]} cells: source (red), receivers (blue)")
    fig.tight_layout()
    fig.savefig(f"{a.out}-plan.png", dpi=110)
    print(f"plot_room: wrote {a.out}-response.png and {a.out}-plan.png")


if __name__ == "__main__":
    main()
