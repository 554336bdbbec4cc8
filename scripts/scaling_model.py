#!/usr/bin/env python3
"""The performance model of docs/scaling.md: the time of one step on a rank from its parts,

    overlap off:  t = t_update + t_pack_unpack + t_link
    overlap on:   t = t_pack_unpack + max(t_core, t_link) + t_shell
    t_link = max over kinds of link (NVLink, NIC, ...) of  latency + bytes / bandwidth

(the pack and unpack kernels use the same memory bandwidth as the update, so they add to it;
the messages of one kind of link share it; different kinds run at once).

    project  weak and strong efficiency for a star stencil on GPUs, from the single-GPU parts in
             committed bench JSONs (default: H200, star M=4 float 512^3, cuda-star-tma) and stated
             link assumptions (NVLink within a node, a NIC per GPU between nodes).
    check    the model against what scripts/scaling.py and `wavefd probe` measured: each point's
             measured step beside the one composed from its measured parts and the link measured by
             the probe (without --probe: the exchange measured alone). On GPUs an overlapped step
             composes as max(core, exchange) + shell (the shell runs beside the core, after the
             exchange, but shares the GPU's memory bandwidth with it, so its time adds); on CPUs,
             where nothing runs beside the update, as core + exchange + shell.

    scripts/scaling_model.py project
    scripts/scaling_model.py check results/weak --probe probe-np1.json --probe probe-np2.json

Python 3 standard library only.
"""
import argparse
import glob
import json
import math
import os
import sys

PROG = "scaling_model.py"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
H200 = os.path.join(REPO, "bench", "results", "h200", "full-step-halo-transports-512")


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write(f"{PROG}: error: {message}\n")
        sys.exit(2)


def fail(message):
    sys.stderr.write(f"{PROG}: error: {message}\n")
    sys.exit(2)


def read_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        fail(f"{what} = '{path}' cannot be read: {e.strerror}")
    except ValueError as e:
        fail(f"{what} = '{path}' is not JSON: {e}")


def bench_case(path, what, variant):
    """The timed case of `variant` in a bench JSON, with the grid and stencil it ran on."""
    data = read_json(path, what)
    for case in data.get("cases", []):
        if case.get("variant") == variant and "full_step" in case:
            return data, case
    fail(f"{what} = '{path}' has no timed case of variant '{variant}'")


def balanced_grid(n):
    """[px, py, pz], px <= py <= pz, as close as the prime factors allow (scripts/scaling.py)."""
    dims, m, p = [1, 1, 1], n, 2
    factors = []
    while m > 1:
        while m % p == 0:
            factors.append(p)
            m //= p
        p += 1
    for f in sorted(factors, reverse=True):
        dims[dims.index(min(dims))] *= f
    return sorted(dims)


# ---------------------------------------------------------------------------------------------
# project

class GpuParts:
    """Single-GPU times of one step's parts at the measured size, scaled to other sizes: volume
    parts with the points, face parts with the face area; no part faster than the kernel floor."""

    def __init__(self, args):
        local, self.local_case = bench_case(args.bench_local, "--bench-local", args.variant)
        exch, self.exchange_case = bench_case(args.bench_exchange, "--bench-exchange", args.variant)
        if local["grid"] != exch["grid"]:
            fail(f"--bench-local and --bench-exchange ran on different grids ({local['grid']} and {exch['grid']})")
        self.n = local["grid"][0]
        if local["grid"] != [self.n] * 3:
            fail(f"--bench-local grid {local['grid']} is not a cube; accepted: n x n x n")
        self.radius = self.local_case["radius"]
        self.value_bytes = 4 if self.local_case["precision"] == "float" else 8
        self.copy_gbs = local["copy_probe"]["gb_per_s"]
        self.device = local.get("kokkos", {}).get("device", "?")
        self.kernel = self.local_case["kernel"]["seconds"]["min"]
        self.full_step = self.local_case["full_step"]["seconds"]["min"]
        # What one GPU's full step spends beyond the kernel: the ghost fill pass, or the ghost
        # images the kernel writes (parallel.ghost_fill = kernel); either scales with the faces.
        self.surplus = max(self.full_step - self.kernel, 0.0)
        parts = self.exchange_case["parts_alone_per_step_s"]
        self.pack_unpack = parts["halo"]["min"]  # pack + self-transfer + unpack, every face late
        self.core = parts["core"]["min"]
        self.shell = parts["shell"]["min"]
        self.floor = args.kernel_floor_us * 1e-6
        self.line = 128 // self.value_bytes  # the engine's x shell slabs are one 128-byte line wide

    def at(self, L):
        v, a = (L / self.n) ** 3, (L / self.n) ** 2
        f = self.floor
        R, w = self.radius, self.line
        shell_points = L ** 3 - max(L - 2 * w, 0) * max(L - 2 * R, 0) ** 2
        rate = self.n ** 3 / self.kernel  # interior points per second
        return {"kernel": max(self.kernel * v, f), "surplus": self.surplus * a,
                "pack_unpack": max(self.pack_unpack * a, 2 * f), "core": max(self.core * v, f),
                "shell": max(self.shell * a, 6 * f), "shell_at_interior_rate": max(shell_points / rate, 6 * f),
                "face_bytes": R * L * L * self.value_bytes}


def link_faces(P, block):
    """Faces of the worst-placed rank that leave through each kind of link, per axis summed:
    (within the node, between nodes). The node holds a block of ranks; a periodic axis of P ranks
    in blocks of b: P = 1 exchanges with itself (no link), P = b keeps both faces in the node, b = 1
    sends both out, otherwise the rank at a block's edge sends one face out."""
    intra = inter = 0
    for p, b in zip(P, block):
        if p == 1:
            continue
        out = 0 if p <= b else (2 if b == 1 else 1)
        inter += out
        intra += 2 - out
    return intra, inter


def node_block(P, gpus_per_node):
    """How a node's GPUs sit in the rank grid: a balanced block that divides it (the whole grid when
    it fits in one node)."""
    total = P[0] * P[1] * P[2]
    if total <= gpus_per_node:
        return list(P)
    block = balanced_grid(gpus_per_node)
    if any(p % b for p, b in zip(P, block)):
        fail(f"a node of {gpus_per_node} GPUs as {block} does not tile the rank grid {P}")
    return block


def step_model(parts, L, P, args, nic_gbit):
    t = parts.at(L)
    intra, inter = link_faces(P, node_block(P, args.gpus_per_node))
    nvlink = args.nvlink_gbs * args.nvlink_efficiency * 1e9
    nic = nic_gbit / 8 * args.nic_efficiency * 1e9
    t_intra = args.nvlink_latency_us * 1e-6 + intra * t["face_bytes"] / nvlink if intra else 0.0
    t_inter = args.nic_latency_us * 1e-6 + inter * t["face_bytes"] / nic if inter else 0.0
    link = max(t_intra, t_inter)
    off = t["kernel"] + t["pack_unpack"] + link
    on = t["pack_unpack"] + max(t["core"], link) + t["shell"]
    target = t["pack_unpack"] + max(t["core"], link) + t["shell_at_interior_rate"]
    return {"intra": intra, "inter": inter, "link": link, "off": off, "on": on, "target": target,
            "reference": t["kernel"] + t["surplus"]}


def project(args):
    parts = GpuParts(args)
    ms = lambda s: f"{s * 1e3:.3f}"  # noqa: E731
    us = lambda s: f"{s * 1e6:.0f}"  # noqa: E731
    print(f"# Inputs: {parts.device}, {parts.local_case['stencil']} {parts.local_case['precision']} "
          f"{parts.n}^3, variant {args.variant} (copy {parts.copy_gbs:.0f} GB/s)")
    print(f"#   {os.path.relpath(args.bench_local, REPO)}: kernel {us(parts.kernel)} us, full step {us(parts.full_step)} us "
          f"(ghosts: {parts.local_case['full_step'].get('ghost_fill', 'separate')}; {us(parts.surplus)} us beyond the kernel)")
    print(f"#   {os.path.relpath(args.bench_exchange, REPO)}: exchange alone (pack + self-transfer + unpack, 6 faces) "
          f"{us(parts.pack_unpack)} us, core {us(parts.core)} us, shell {us(parts.shell)} us (all faces late)")
    print(f"# Links: NVLink {args.nvlink_gbs:g} GB/s per direction x {args.nvlink_efficiency:g}, latency "
          f"{args.nvlink_latency_us:g} us; NIC {'/'.join(f'{g:g}' for g in args.nic_gbit)} Gb/s per GPU x "
          f"{args.nic_efficiency:g}, latency {args.nic_latency_us:g} us; {args.gpus_per_node} GPUs per node; "
          f"kernel floor {args.kernel_floor_us:g} us")
    # The composition rule on one GPU, against the self-exchange full steps measured with overlap
    # off and on (every face through the transport, no link: t_link = 0).
    _, off_case = bench_case(args.bench_exchange_off, "--bench-exchange-off", args.variant)
    measured_off, measured_on = off_case["full_step"]["seconds"]["min"], parts.exchange_case["full_step"]["seconds"]["min"]
    model_off = parts.kernel + parts.pack_unpack
    model_on = parts.pack_unpack + parts.core + parts.shell
    print(f"# Check on one GPU (self-exchange, t_link = 0): overlap off {us(model_off)} us modelled, "
          f"{us(measured_off)} measured ({100 * (model_off / measured_off - 1):+.1f} %); overlap on {us(model_on)} us "
          f"modelled, {us(measured_on)} measured ({100 * (model_on / measured_on - 1):+.1f} %)")
    print("# E = one GPU's full step at the measured rate (kernel by volume + the rest by face area) / the modelled step;")
    print("# strong: E = t1(global) / (N t_N); 'target' = overlap with the shell at the interior's rate (not measured)")
    for mode in ("weak", "strong"):
        for L0 in args.sizes:
            print(f"\n## {mode}, {L0}^3 per GPU" + (f" on {args.gpus[0]} GPUs (global {round(L0 * args.gpus[0] ** (1 / 3))}^3)"
                                                   if mode == "strong" else ""))
            head = "| GPUs | rank grid | local | faces NVLink/NIC |"
            rule = "|-----:|-----------|------:|:----------------:|"
            for g in args.nic_gbit:
                head += f" link {g:g}G us | no overlap ms (E) | overlap ms (E) | target (E) |"
                rule += "----------:|------------------:|---------------:|-----------:|"
            print(head)
            print(rule)
            G = L0 * args.gpus[0] ** (1 / 3)  # strong: the grid that fills the first point at L0^3
            for N in args.gpus:
                P = balanced_grid(N)
                L = L0 if mode == "weak" else G / N ** (1 / 3)
                row = f"| {N} | {'x'.join(map(str, P))} | {L:.0f}^3 |"
                for g in args.nic_gbit:
                    m = step_model(parts, L, P, args, g)
                    if mode == "weak":
                        ref = m["reference"]
                    else:
                        ref = (lambda t: t["kernel"] + t["surplus"])(parts.at(G)) / N
                    eff = lambda t: f"{ms(t)} ({ref / t:.2f})"  # noqa: E731
                    if g == args.nic_gbit[0]:
                        row += f" {m['intra']}/{m['inter']} |"
                    row += f" {us(m['link'])} | {eff(m['off'])} | {eff(m['on'])} | {ref / m['target']:.2f} |"
                print(row)
    return 0


# ---------------------------------------------------------------------------------------------
# check

def load_points(paths):
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "*.json"))) if os.path.isdir(p) else [p]
    points = [read_json(f, "point") for f in files]
    points = [p for p in points if "scaling" in p]
    if not points:
        fail("no scaling point JSON among the inputs (write them with scripts/scaling.py)")
    return sorted(points, key=lambda p: (p["scaling"]["mode"], p["scaling"]["ranks"]))


def probe_links(probes, ranks, transport):
    """From the probe run with as many ranks as the point (the same contention for the cores):
    latency (smallest message) and bandwidth (largest) per kind of link, medians over pairs, and
    each rank's node (wavefd's communication node: NCCL_HOSTID where set, so pseudo-nodes count)."""
    for path, data in probes:
        if data.get("probe", {}).get("ranks") != ranks:
            continue
        for t in data.get("transports", []):
            if t["transport"] == transport:
                links = {link: (s["latency_s"]["median"], s["bandwidth_gb_per_s"]["median"] * 1e9)
                         for link, s in t["summary"].items()}
                return links, data.get("hosts") or ["localhost"] * ranks
        fail(f"--probe = '{path}' has no results for transport '{transport}'")
    fail(f"no --probe ran on {ranks} ranks; accepted: one probe per rank count of the points")


def face_links(rank_grid, hosts):
    """Per rank, per axis split over several ranks: the kinds of link of its two faces ('node' when the
    neighbour (periodic) is on the rank's node, else 'network'). Ranks are numbered x fastest, as in
    wavefd, and placed on nodes as in the probe of the same rank count (the same launcher)."""
    px, py, pz = rank_grid
    out = []
    for r in range(px * py * pz):
        c = [r % px, (r // px) % py, r // (px * py)]
        faces = []
        for a in range(3):
            if rank_grid[a] == 1:
                continue
            for step in (-1, 1):
                n = list(c)
                n[a] = (n[a] + step) % rank_grid[a]
                other = n[0] + px * (n[1] + py * n[2])
                faces.append((a, "node" if hosts[other] == hosts[r] else "network"))
        out.append(faces)
    return out


def check(args):
    points = load_points(args.points)
    probes = [(path, read_json(path, "--probe")) for path in args.probe or []]
    print("| mode | ranks | rank grid | subdomain | overlap | measured step ms | parts sum ms | model ms "
          "| halo alone ms | model halo ms |")
    print("|------|------:|-----------|-----------|---------|-----------------:|-------------:|---------:"
          "|--------------:|--------------:|")
    worst = 0.0
    for p in points:
        s, case = p["scaling"], p["case"]
        transport = s["transport"] if s["transport"] != "local" else None
        part = lambda k: case["parts_alone_per_step_s"][k]["min"]  # noqa: E731  slowest rank, best rep
        kernel, halo, core, shell = case["kernel"]["seconds"]["min"], part("halo"), part("core"), part("shell")
        # The link: each face of a rank through the kind of link to its neighbour, by the probe's
        # nodes (node or network); an axis of one rank sends nothing (the step wraps its ghosts in
        # place). One exchange packs all faces in one kernel and unpacks them in one, so its fixed
        # cost is paid once per kind. The faces of one kind share its bandwidth; on a GPU different
        # kinds run at once, on a CPU their bytes go one after another (no copy engine works beside
        # the cores), so they add up. The slowest rank sets the step.
        backends = p.get("provenance", {}).get("kokkos", {}).get("backends", [])
        on_gpu = any(b in ("CUDA", "HIP", "SYCL") for b in backends)
        model_halo = None
        if transport and probes:
            links, hosts = probe_links(probes, s["ranks"], transport)
            value_bytes = 4 if case["precision"] == "float" else 8
            n, R = s["subdomain_largest"], case["radius"]
            model_halo = 0.0
            for faces in face_links(s["rank_grid"], hosts):
                per_kind = {}
                for a, kind in faces:
                    if kind not in links:
                        fail(f"the --probe on {s['ranks']} ranks has no '{kind}' pairs; probe the points' split")
                    face = R * n[(a + 1) % 3] * n[(a + 2) % 3] * value_bytes
                    per_kind[kind] = per_kind.get(kind, 0.0) + face / links[kind][1]
                times = [links[k][0] + t for k, t in per_kind.items()]
                model_halo = max(model_halo, (max(times) if on_gpu else sum(times)) if times else 0.0)
        halo_used = model_halo if model_halo is not None else halo
        # On a GPU the exchange and then the shell run on their own stream beside the core; the shell
        # needs the same memory bandwidth as the core, so its time adds. On a CPU nothing runs beside
        # the update, so the core, the exchange and the shell follow each other. Without overlap:
        # the exchange, then the whole update.
        if s["overlap"] and on_gpu:
            sum_parts, model = max(core, halo) + shell, max(core, halo_used) + shell
        elif s["overlap"]:
            sum_parts, model = core + halo + shell, core + halo_used + shell
        else:
            sum_parts, model = kernel + halo, kernel + halo_used
        measured = p["full_step_s"]
        worst = max(worst, abs(model / measured - 1))
        fmt = lambda t: "-" if t is None else f"{t * 1e3:.3f}"  # noqa: E731
        print(f"| {s['mode']} | {s['ranks']} | {'x'.join(map(str, s['rank_grid']))} | "
              f"{'x'.join(map(str, s['subdomain_largest']))} | {'on' if s['overlap'] else 'off'} | {fmt(measured)} | "
              f"{fmt(sum_parts)} | {fmt(model)} | {fmt(halo)} | {fmt(model_halo)} |")
    print(f"\n{PROG}: {len(points)} points; the model is within {100 * worst:.0f} % of the measured step at worst")
    return 0


def main(argv):
    ap = OneLineParser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    pr = sub.add_parser("project", help="weak and strong efficiency on GPUs (default: H200 inputs)")
    pr.add_argument("--bench-local", default=os.path.join(H200, "bench-local-kernel.json"),
                    help="bench JSON, one GPU, transport local: kernel and full step (its ghosts filled either way)")
    pr.add_argument("--bench-exchange", default=os.path.join(H200, "bench-nccl-overlap-true.json"),
                    help="bench JSON, one GPU, an exchanging transport in self-exchange: exchange, core, shell")
    pr.add_argument("--bench-exchange-off", default=os.path.join(H200, "bench-nccl-overlap-false.json"),
                    help="bench JSON as --bench-exchange with overlap off (checks the composition on one GPU)")
    pr.add_argument("--variant", default="cuda-star-tma", help="the variant whose parts are used")
    pr.add_argument("--sizes", default="512,1000", help="subdomain edge per GPU (weak), or at the first GPU count (strong)")
    pr.add_argument("--gpus", default="8,64,512,4096", help="GPU counts")
    pr.add_argument("--gpus-per-node", type=int, default=8)
    pr.add_argument("--nvlink-gbs", type=float, default=450.0, help="NVLink GB/s per direction per GPU (H100/H200: 450)")
    pr.add_argument("--nvlink-efficiency", type=float, default=0.8, help="fraction of it a halo exchange gets")
    pr.add_argument("--nvlink-latency-us", type=float, default=10.0, help="per grouped exchange")
    pr.add_argument("--nic-gbit", default="400,200", help="NIC Gb/s per GPU (one per GPU), one column each")
    pr.add_argument("--nic-efficiency", type=float, default=0.9)
    pr.add_argument("--nic-latency-us", type=float, default=15.0, help="per grouped exchange")
    pr.add_argument("--kernel-floor-us", type=float, default=5.0, help="the shortest a kernel launch takes")
    ck = sub.add_parser("check", help="the model against measured scaling points and a probe")
    ck.add_argument("points", nargs="+", help="point JSONs of scripts/scaling.py, or directories of them")
    ck.add_argument("--probe", action="append",
                    help="`wavefd probe --json` of the same machine and transport, one per rank count (repeat); "
                         "without it the exchange is the one measured alone")
    args = ap.parse_args(argv)
    if args.command == "project":
        def numbers(text, what, kind):
            try:
                values = [kind(v) for v in text.split(",")]
            except ValueError:
                values = []
            if not values or any(v <= 0 for v in values):
                fail(f"{what} = '{text}' is not valid; accepted: a comma-separated list of numbers > 0")
            return values
        args.sizes = numbers(args.sizes, "--sizes", int)
        args.gpus = numbers(args.gpus, "--gpus", int)
        args.nic_gbit = numbers(args.nic_gbit, "--nic-gbit", float)
        for name in ("gpus_per_node", "nvlink_gbs", "nvlink_efficiency", "nic_efficiency"):
            if getattr(args, name) <= 0:
                fail(f"--{name.replace('_', '-')} = {getattr(args, name)} must be > 0")
        return project(args)
    return check(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
