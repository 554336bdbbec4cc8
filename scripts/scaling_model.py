#!/usr/bin/env python3
"""The performance model of docs/scaling.md: the time of one step on a rank from its parts,

    overlap off:  t = t_update + t_pack_unpack + t_link
    overlap on:   t = t_pack_unpack + max(t_core, t_link) + t_shell
    t_link = max over kinds of link (NVLink, NIC, ...) of  latency + bytes / bandwidth

(the pack and unpack kernels use the same memory bandwidth as the update, so they add to it;
the messages of one kind of link share it; different kinds run at once).

    project  weak efficiency at 8 to 4096 GPUs for a star stencil, from one rank's parts measured at
             this code on four H100s (committed bench JSONs: one GPU; 1x2x2 through peer, y and z
             late; an x split through peer, x faces first; nccl against peer) and stated network
             assumptions (peer inside a node, nccl and a NIC per GPU between nodes).
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
X_FIRST = os.path.join(REPO, "bench", "results", "h100-x4", "x-faces-sooner", "final")
DEFAULT_GRID = os.path.join(REPO, "bench", "results", "h100-x4", "default-grid-and-transport", "run1")


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


# ---------------------------------------------------------------------------------------------
# project

def point_step(path, what):
    """The full step of a scripts/scaling.py point JSON."""
    data = read_json(path, what)
    if "full_step_s" not in data:
        fail(f"{what} = '{path}' is not a point of scripts/scaling.py")
    return data["full_step_s"]


class RankParts:
    """One rank's parts, measured on one host at n^3 per GPU at this code, scaled to L^3 per GPU:
    volume parts with the points, face parts with the face area; no kernel faster than the floor.

      one GPU (--one):          kernel and full step (the reference of every efficiency)
      y and z late (--balanced, 1x2x2 through peer): core, shell (y and z slabs), exchange alone,
                                and what the step adds to core + shell (the residual)
      x first (--x-first, 2x1x2 through peer): core and shell with z late, and how far into the
                                step the update starts, i.e. what sending the x faces first costs
      nccl (--nccl-point, --peer-point: 1x2x2 through each in one call): what NCCL's copy kernels
                                take from the update per face, against peer's copy engines"""

    def __init__(self, args):
        one, c1 = bench_case(args.one, "--one", args.variant)
        bal, cb = bench_case(args.balanced, "--balanced", args.variant)
        xf, cx = bench_case(args.x_first, "--x-first", args.variant)
        self.n = one["grid"][0]
        if one["grid"] != [self.n] * 3:
            fail(f"--one grid {one['grid']} is not a cube; accepted: n x n x n")
        for data, what in ((bal, "--balanced"), (xf, "--x-first")):
            if data.get("parallel", {}).get("subdomain_largest") != [self.n] * 3:
                fail(f"{what} does not run {self.n}^3 per rank as --one does")
        if bal["parallel"]["rank_grid"] != [1, 2, 2] or xf["parallel"]["rank_grid"][0] < 2:
            fail("--balanced must be a 1x2x2 point and --x-first a point with x split")
        self.device = one.get("kokkos", {}).get("device", "?")
        self.copy_gbs = one["copy_probe"]["gb_per_s"]
        self.radius = c1["radius"]
        self.value_bytes = 4 if c1["precision"] == "float" else 8
        self.kernel = c1["kernel"]["seconds"]["min"]
        self.full_step = c1["full_step"]["seconds"]["min"]
        self.surplus = max(self.full_step - self.kernel, 0.0)
        part = lambda c, k: c["parts_alone_per_step_s"][k]["min"]  # noqa: E731
        self.core_yz, self.shell_yz, self.exchange_yz = part(cb, "core"), part(cb, "shell"), part(cb, "halo")
        self.balanced_step = cb["full_step"]["seconds"]["min"]
        self.residual = max(self.balanced_step - self.core_yz - self.shell_yz, 0.0)
        self.core_z, self.shell_z = part(cx, "core"), part(cx, "shell")
        self.x_first_step = cx["full_step"]["seconds"]["min"]
        # When the update started: its own mark where bench records one, else the core's end less
        # the core alone (which also counts the core's slowdown beside the late copies).
        t = cx["timeline_per_step_s"]
        self.early = max(t["core_start"]["mean"] if "core_start" in t else t["core"]["mean"] - self.core_z, 0.0)
        self.x_splits = xf["parallel"]["rank_grid"]
        nccl, peer = point_step(args.nccl_point, "--nccl-point"), point_step(args.peer_point, "--peer-point")
        self.nccl_per_face = max(nccl - peer, 0.0) / 4  # the 1x2x2 rank's four faces
        self.floor = args.kernel_floor_us * 1e-6
        self.paths = {k: os.path.relpath(getattr(args, k), REPO) for k in ("one", "balanced", "x_first", "nccl_point", "peer_point")}

    def at(self, L):
        v, a = (L / self.n) ** 3, (L / self.n) ** 2
        vol = lambda t: max(t * v, self.floor)  # noqa: E731
        # A core is the kernel's work less the shell's slabs, whose points grow with the face area.
        core = lambda c: max(self.kernel * v - (self.kernel - c) * a, self.floor)  # noqa: E731
        return {"kernel": vol(self.kernel), "reference": self.kernel * v + self.surplus * a,
                "core_yz": core(self.core_yz), "shell_yz": max(self.shell_yz * a, 4 * self.floor),
                "core_z": core(self.core_z), "shell_z": max(self.shell_z * a, 2 * self.floor),
                "peer_face": self.exchange_yz / 4 * a, "early": self.early * a, "residual": self.residual,
                "nccl_face": self.nccl_per_face * a, "face_bytes": self.radius * L * L * self.value_bytes}


def node_block(P, gpus_per_node):
    """The ranks one node holds: consecutive ranks, x fastest (as mpirun and srun place them), so a
    block that fills x first, then y, then z."""
    block, left = [1, 1, 1], gpus_per_node
    for a in range(3):
        take = math.gcd(P[a], left)
        block[a], left = take, left // take
    if left != 1:
        fail(f"a node of {gpus_per_node} GPUs does not tile the rank grid {'x'.join(map(str, P))}")
    return block


def faces_by_link(P, block):
    """Per axis, the faces of the worst-placed rank inside its node and through the network: a
    periodic axis of P ranks in node blocks of b: none for P = 1 (the rank wraps its own), both
    inside for P = b, both out for b = 1, else the rank at a block's edge sends one out."""
    out = []
    for p, b in zip(P, block):
        if p == 1:
            out.append((0, 0))
            continue
        inter = 0 if p <= b else (2 if b == 1 else 1)
        out.append((2 - inter, inter))
    return out


def step_model(parts, L, P, args, nic_gbit, early_at_copy_rate=False):
    """One overlapped step of the worst-placed rank: peer inside a node, nccl between nodes; x faces
    first (the update waits for them), y and z late (beside the core, then the shell)."""
    t = parts.at(L)
    faces = faces_by_link(P, node_block(P, args.gpus_per_node))
    nic = nic_gbit / 8 * args.nic_efficiency * 1e9
    nic_latency = args.nic_latency_us * 1e-6
    x_intra, x_inter = faces[0]
    early = 0.0
    if x_intra + x_inter:
        if early_at_copy_rate:  # a target: the x faces at the NVLink rate the model assumes
            early = x_intra * t["face_bytes"] / (args.nvlink_gbs * args.nvlink_efficiency * 1e9)
        else:  # as measured: the x-first point's delay, per face
            early = t["early"] * x_intra / 2
        if x_inter:
            early += nic_latency + x_inter * t["face_bytes"] / nic
    late_intra = sum(f[0] for f in faces[1:])
    late_inter = sum(f[1] for f in faces[1:])
    link = max(late_intra * t["peer_face"], nic_latency + late_inter * t["face_bytes"] / nic if late_inter else 0.0)
    if P[1] > 1:
        core, shell, residual = t["core_yz"], t["shell_yz"], t["residual"]
    elif P[2] > 1:
        core, shell, residual = t["core_z"], t["shell_z"], t["residual"]
    else:
        core, shell, residual = t["kernel"], 0.0, 0.0
    nccl = (late_inter + x_inter) * t["nccl_face"]
    on = early + max(core, link) + shell + nccl + residual
    return {"faces": faces, "early": early, "link": link, "on": on, "reference": t["reference"],
            "inter": late_inter + x_inter}


def project(args):
    parts = RankParts(args)
    us = lambda s: f"{s * 1e6:.0f}"  # noqa: E731
    print(f"# Inputs: {parts.device}, {parts.n}^3 per GPU, variant {args.variant} (copy {parts.copy_gbs:.0f} GB/s)")
    print(f"#   {parts.paths['one']}: kernel {us(parts.kernel)} us, full step {us(parts.full_step)} us")
    print(f"#   {parts.paths['balanced']}: y and z late: core {us(parts.core_yz)} us, shell {us(parts.shell_yz)} us, "
          f"exchange alone {us(parts.exchange_yz)} us (4 faces), step {us(parts.balanced_step)} us "
          f"(+{us(parts.residual)} beyond core + shell)")
    print(f"#   {parts.paths['x_first']}: x first ({'x'.join(map(str, parts.x_splits))}): the update starts "
          f"{us(parts.early)} us in; core {us(parts.core_z)} us, shell {us(parts.shell_z)} us (z late), step "
          f"{us(parts.x_first_step)} us")
    print(f"#   {parts.paths['nccl_point']} against {parts.paths['peer_point']}: nccl takes {us(parts.nccl_per_face)} us "
          f"a face from the update")
    print(f"# Links: peer inside a node (its measured exchange, per face; x faces first), nccl between nodes: NIC "
          f"{'/'.join(f'{g:g}' for g in args.nic_gbit)} Gb/s per GPU x {args.nic_efficiency:g}, latency "
          f"{args.nic_latency_us:g} us; {args.gpus_per_node} GPUs per node, consecutive ranks (x fastest); "
          f"kernel floor {args.kernel_floor_us:g} us")
    one_node = argparse.Namespace(**{**vars(args), "gpus_per_node": 4})
    for P, measured in (([1, 2, 2], parts.balanced_step), (parts.x_splits, parts.x_first_step)):
        m = step_model(parts, parts.n, P, one_node, args.nic_gbit[0])
        print(f"# Check on the host measured ({'x'.join(map(str, P))}, 4 GPUs in one node): {us(m['on'])} us modelled, "
              f"{us(measured)} measured ({100 * (m['on'] / measured - 1):+.1f} %)")
    print("# E = one GPU's full step at the measured rate (kernel by volume + the rest by face area) / the modelled step;")
    print("# 'x at copy rate' = the x faces first at the NVLink rate assumed (--nvlink-*), a target, not measured")
    for L in args.sizes:
        print(f"\n## weak, {L}^3 per GPU")
        head = "| GPUs | rank grid | faces x, y, z (node+network) |"
        rule = "|-----:|-----------|:----------------------------:|"
        for g in args.nic_gbit:
            head += f" {g:g}G: network us | step ms (E) | x at copy rate (E) |"
            rule += "-------------:|------------:|-------------------:|"
        print(head)
        print(rule)
        for N, P in args.grids:
            faces = faces_by_link(P, node_block(P, args.gpus_per_node))
            row = f"| {N} | {'x'.join(map(str, P))} | {', '.join(f'{i}+{o}' for i, o in faces)} |"
            for g in args.nic_gbit:
                m = step_model(parts, L, P, args, g)
                target = step_model(parts, L, P, args, g, early_at_copy_rate=True)
                ref = m["reference"]
                network = m["link"] if m["inter"] else 0.0
                row += f" {us(network)} | {m['on'] * 1e3:.3f} ({ref / m['on']:.2f}) | {ref / target['on']:.2f} |"
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
    pr = sub.add_parser("project", help="weak efficiency on GPUs at scale, from this code's parts on four H100s")
    pr.add_argument("--one", default=os.path.join(X_FIRST, "one.json"),
                    help="bench JSON, one GPU, transport local: kernel and full step")
    pr.add_argument("--balanced", default=os.path.join(X_FIRST, "weak-1x2x2.json"),
                    help="bench JSON, 4 GPUs on 1x2x2 through peer: core, shell and exchange with y and z late")
    pr.add_argument("--x-first", default=os.path.join(X_FIRST, "weak-2x1x2.json"),
                    help="bench JSON, 4 GPUs with x split through peer (x faces first): core, shell, timeline")
    pr.add_argument("--nccl-point", default=os.path.join(DEFAULT_GRID, "weak-nccl", "weak-np00004.json"),
                    help="scaling.py point, 1x2x2 through nccl (the same call as --peer-point)")
    pr.add_argument("--peer-point", default=os.path.join(DEFAULT_GRID, "weak-1", "weak-np00004.json"),
                    help="scaling.py point, 1x2x2 through peer")
    pr.add_argument("--variant", default="cuda-star-tma", help="the variant whose parts are used")
    pr.add_argument("--sizes", default="512,1000", help="subdomain edge per GPU")
    pr.add_argument("--grids", default="8:1x2x4,64:1x8x8,512:4x8x16,4096:8x16x32",
                    help="GPUs:rank grid, comma-separated (default: the grids wavefd picks for a cube, "
                         "ctest/test_decomposition.cpp)")
    pr.add_argument("--gpus-per-node", type=int, default=8)
    pr.add_argument("--nvlink-gbs", type=float, default=450.0, help="NVLink GB/s per direction per GPU (H100/H200: 450)")
    pr.add_argument("--nvlink-efficiency", type=float, default=0.8, help="fraction of it the x faces' copy would get")
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
        args.nic_gbit = numbers(args.nic_gbit, "--nic-gbit", float)
        grids = []
        for item in args.grids.split(","):
            try:
                count, grid = item.split(":")
                N, P = int(count), [int(v) for v in grid.split("x")]
            except ValueError:
                N, P = 0, []
            if len(P) != 3 or N < 1 or min(P) < 1 or P[0] * P[1] * P[2] != N:
                fail(f"--grids = '{args.grids}' is not valid; accepted: N:PXxPYxPZ,... with PX PY PZ = N")
            grids.append((N, P))
        args.grids = grids
        for name in ("gpus_per_node", "nvlink_gbs", "nvlink_efficiency", "nic_efficiency"):
            if getattr(args, name) <= 0:
                fail(f"--{name.replace('_', '-')} = {getattr(args, name)} must be > 0")
        return project(args)
    return check(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
