#!/usr/bin/env python3
"""Weak or strong scaling series of `wavefd bench` under a launcher (mpirun, srun, ...): one
bench per rank count, one JSON per point (provenance, rank grid, subdomain, the full step with
its per-rank breakdown). scripts/plot_scaling.py draws them; scripts/scaling_model.py checks
them against the performance model (docs/scaling.md).

    weak:   the subdomain per rank is fixed (--local); wavefd chooses the rank grid for a grid
            of the subdomain's shape (`bench --local`: as `run` would split such a grid), and
            the global grid grows with it;
    strong: the global grid is fixed (--global); wavefd chooses the rank grid, as `run` does.

    scripts/scaling.py weak --local 256 256 256 --ranks 1,2,4,8 --out results/weak \\
        -- --family star --M 4
    scripts/scaling.py strong --global 512 512 512 --ranks 8,64 --out results/strong \\
        --launcher 'srun -N {nodes} -n {np} --gpus-per-task=1' --ranks-per-node 8 -- --family star --M 4

Everything after `--` goes to `wavefd bench` as it is (stencil options, --transport,
--overlap, --tiles, ...). The launcher is a template: {np} is the rank count, {nodes} the
nodes at --ranks-per-node ranks per node. Python 3 standard library only.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys

PROG = "scaling.py"


class OneLineParser(argparse.ArgumentParser):
    """Bad input: one line naming the parameter and what is accepted, exit status 2."""

    def error(self, message):
        sys.stderr.write(f"{PROG}: error: {message}\n")
        sys.exit(2)


def fail(message, code=2):
    sys.stderr.write(f"{PROG}: error: {message}\n")
    sys.exit(code)


def factorize(n):
    primes, p = [], 2
    while n > 1:
        while n % p == 0:
            primes.append(p)
            n //= p
        p += 1
    return primes


def balanced_rank_grid(ranks):
    """[px, py, pz] with px <= py <= pz as close to each other as the factors allow (what
    MPI_Dims_create gives, largest along z): each prime factor, largest first, goes to the axis
    with the fewest ranks so far."""
    dims = [1, 1, 1]
    for p in sorted(factorize(ranks), reverse=True):
        dims[dims.index(min(dims))] *= p
    return sorted(dims)


def positive_ints(text, what, count=None):
    try:
        values = [int(v) for v in text.replace(",", " ").split()]
    except ValueError:
        values = []
    if not values or any(v < 1 for v in values) or (count and len(values) != count):
        shape = f"{count} integers >= 1" if count else "a comma-separated list of integers >= 1"
        fail(f"{what} = '{text}' is not valid; accepted: {shape}")
    return values


def parse_args(argv):
    if "--" in argv:
        at = argv.index("--")
        argv, bench_args = argv[:at], argv[at + 1:]
    else:
        bench_args = []
    ap = OneLineParser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["weak", "strong"], help="weak: --local fixed; strong: --global fixed")
    ap.add_argument("--ranks", required=True, help="rank counts, e.g. 1,2,4,8")
    ap.add_argument("--local", nargs=3, metavar=("NX", "NY", "NZ"), help="weak: the subdomain of each rank")
    ap.add_argument("--global", dest="global_n", nargs=3, metavar=("NX", "NY", "NZ"), help="strong: the whole grid")
    ap.add_argument("--out", required=True, help="directory for the point JSONs (created)")
    ap.add_argument("--wavefd", default=None, help="the wavefd executable (default: build/openmp/wavefd, else PATH)")
    ap.add_argument("--launcher", default="mpirun -np {np}",
                    help="launch command template: {np} ranks, {nodes} nodes (default: 'mpirun -np {np}')")
    ap.add_argument("--ranks-per-node", type=int, default=1, help="for {nodes} in the launcher (default 1)")
    ap.add_argument("--split", default="auto",
                    help="the rank grid: auto (wavefd's choice, as `run` makes it), balanced (as MPI_Dims_create, "
                         "the largest factor along z) or z (1 x 1 x N: at most two faces per rank, whole planes)")
    ap.add_argument("--variant", default="auto", help="bench --variant: one variant (default auto)")
    ap.add_argument("--precision", default="float", help="bench --precision: one precision (default float)")
    ap.add_argument("--steps", type=int, default=10, help="bench --steps (default 10)")
    ap.add_argument("--reps", type=int, default=5, help="bench --reps (default 5)")
    ap.add_argument("--warmup", type=int, default=1, help="bench --warmup (default 1)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds one point may take (default 3600)")
    args = ap.parse_args(argv)
    args.bench_args = bench_args
    args.rank_counts = positive_ints(args.ranks, "--ranks")
    if args.mode == "weak":
        if not args.local or args.global_n:
            fail("weak scaling takes --local NX NY NZ (the subdomain per rank) and not --global")
        args.local = positive_ints(" ".join(args.local), "--local", 3)
    else:
        if not args.global_n or args.local:
            fail("strong scaling takes --global NX NY NZ (the whole grid) and not --local")
        args.global_n = positive_ints(" ".join(args.global_n), "--global", 3)
    if args.split not in ("auto", "balanced", "z"):
        fail(f"--split = '{args.split}' is not valid; accepted: auto, balanced, z")
    if "{np}" not in args.launcher:
        fail(f"--launcher = '{args.launcher}' has no {{np}}; accepted: a command template such as 'mpirun -np {{np}}'")
    if args.ranks_per_node < 1:
        fail(f"--ranks-per-node = {args.ranks_per_node} must be >= 1")
    for name in ("steps", "reps"):
        if getattr(args, name) < 1:
            fail(f"--{name} = {getattr(args, name)} must be >= 1")
    if args.warmup < 0:
        fail(f"--warmup = {args.warmup} must be >= 0")
    if args.timeout <= 0:
        fail(f"--timeout = {args.timeout} must be > 0 (seconds)")
    for owned in ("--n", "--ranks", "--json", "--variant", "--precision", "--steps", "--reps", "--warmup", "--op",
                  "--sweep"):
        if owned in bench_args:
            fail(f"bench argument {owned} after '--' is set by {PROG} itself; accepted: stencil, --transport, "
                 "--overlap, --tiles, --gpu-aware and Kokkos options")
    args.wavefd = args.wavefd or default_wavefd()
    if not os.access(args.wavefd, os.X_OK):
        fail(f"--wavefd = '{args.wavefd}' is not an executable file")
    return args


def default_wavefd():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    built = os.path.join(repo, "build", "openmp", "wavefd")
    if os.access(built, os.X_OK):
        return built
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if os.access(os.path.join(d, "wavefd"), os.X_OK):
            return os.path.join(d, "wavefd")
    return built


def write_atomic(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def run_point(args, ranks, index):
    """Runs one bench and returns the point's JSON (or stops the series with one line)."""
    chosen = None  # auto: wavefd's own choice
    if args.split == "z":
        chosen = [1, 1, ranks]
    elif args.split == "balanced":
        chosen = balanced_rank_grid(ranks)
    if args.mode == "weak":  # bench picks the rank grid (or takes --ranks) and multiplies the subdomain up
        grid_args = ["--local", *map(str, args.local)]
    else:
        grid_args = ["--n", *map(str, args.global_n)]
    split = ["--ranks", ",".join(map(str, chosen))] if chosen else []
    bench_json = os.path.join(args.out, f".{args.mode}-np{ranks:05d}.bench.json")
    nodes = -(-ranks // args.ranks_per_node)
    launcher = shlex.split(args.launcher.replace("{np}", str(ranks)).replace("{nodes}", str(nodes)))
    command = launcher + [args.wavefd, "bench", *grid_args, *split, "--variant", args.variant,
                          "--precision", args.precision, "--steps", str(args.steps), "--reps", str(args.reps),
                          "--warmup", str(args.warmup), "--json", bench_json, *args.bench_args]
    print(f"{PROG}: {args.mode} point {index + 1}/{len(args.rank_counts)}: {shlex.join(command)}", flush=True)
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
    except FileNotFoundError:
        fail(f"--launcher = '{args.launcher}': '{launcher[0]}' was not found")
    except subprocess.TimeoutExpired:
        fail(f"{ranks} ranks: the bench ran longer than --timeout = {args.timeout:g} s", 1)
    sys.stdout.write(proc.stdout)
    if proc.returncode != 0 or not os.path.exists(bench_json):
        ours = [l for l in proc.stderr.splitlines() if l.startswith("wavefd")] or proc.stderr.strip().splitlines()
        if os.path.exists(bench_json):
            os.remove(bench_json)
        fail(f"{ranks} ranks: wavefd bench exited with {proc.returncode}: {ours[-1] if ours else '(no message)'}", 1)
    with open(bench_json) as f:
        bench = json.load(f)
    os.remove(bench_json)
    timed = [c for c in bench.get("cases", []) if "full_step" in c]
    if len(timed) != 1:
        fail(f"{ranks} ranks: the bench timed {len(timed)} cases; accepted: bench arguments that select one variant, "
             "one tile and one precision", 1)
    case = timed[0]
    par = bench["parallel"]
    return {
        "scaling": {"mode": args.mode, "ranks": ranks, "rank_grid": par["rank_grid"], "global": bench["grid"],
                    "subdomain_largest": par["subdomain_largest"], "subdomain_smallest": par["subdomain_smallest"],
                    "transport": par["transport"], "overlap": par["overlap"], "point": index},
        "full_step_s": case["full_step"]["seconds"]["min"],
        "breakdown_per_rank_s": case["per_rank_per_step_s"],
        "case": case,
        "command": command,
        "launcher": args.launcher,
        "harness": {"script": PROG, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                    "host": platform.node(), "python": platform.python_version()},
        "provenance": bench.get("provenance", {}),
        "bench": {k: v for k, v in bench.items() if k != "cases"},
    }


def main(argv):
    args = parse_args(argv)
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        fail(f"--out = '{args.out}' cannot be created: {e.strerror}")
    if not os.access(args.out, os.W_OK):
        fail(f"--out = '{args.out}' is not writable")
    for index, ranks in enumerate(args.rank_counts):
        point = run_point(args, ranks, index)
        path = os.path.join(args.out, f"{args.mode}-np{ranks:05d}.json")
        write_atomic(path, point)
        s = point["scaling"]
        print(f"{PROG}: {ranks} ranks as {s['rank_grid']}, grid {s['global']}, subdomain {s['subdomain_largest']}: "
              f"full step {point['full_step_s'] * 1e3:.4f} ms -> {path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
