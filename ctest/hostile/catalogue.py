#!/usr/bin/env python3
"""The catalogue of hostile inputs and faults of issue 36: every case runs wavefd in a fresh work
directory and checks the contract for bad input.

    catalogue.py --exe build/openmp/wavefd [--only REGEX] [-j N] [--list] [CASEFILE.toml ...]

Without case files it runs every file in ctest/hostile/cases/. Python 3.12+, standard library only.

The contract (a case may relax a part of it where it says so):
  - the process ends before the case's timeout (a hang fails; on a timeout every process of the
    case's session is killed), and no process of its session is left running afterwards;
  - no death by a signal (under mpiexec: no "exited on signal" report), no MPI_Abort banner;
  - the expected exit code: 2 for bad input unless the case says otherwise, 0 for a success;
  - a failure prints exactly one line on stderr (under mpiexec: of the lines starting with
    "wavefd"), starting with "wavefd: error: " and matching the case's regex (usually the
    parameter, e.g. grid\\.n); with `accepted` (or --accepted, for every case that does not set
    accepted = false: a run that fails, not an input) it should hold "; accepted: " (counted
    apart, a failure only with strict = true or --strict-accepted, which CTest passes);
  - no "internal:" text, no control bytes (other than newline and tab) and only UTF-8 on stdout and
    on stderr's lines;
  - nothing left in the work directory that the case does not list in `expect` (those must exist
    and be complete: `json = true` parses, `regex` matches), and every file the case created
    beforehand byte-identical afterwards (a fifo still a fifo, a symlink still pointing where it
    did), unless the case lists it in `replace`.

A case file (TOML) holds an optional [defaults] table (any case key) and [[case]] tables:

  name      unique in the file                      args     the arguments after the executable
  exit      2 | 0 | [codes and "SIGINT"-like names]  regex    what the error line must match
  accepted  require "; accepted: " (counted)         strict   ... and fail without it
  ranks     [1, 2, 4]: run once per rank count; N > 1 runs `mpiexec -n N --oversubscribe`
  mpmd      [{n = 1, args = [...]}, {n = 1, args = [...]}]: mpiexec -n 1 EXE A : -n 1 EXE B
  files     [{path, text | hex | copy | dir | fifo (+ feed) | symlink | hardlink | chardev = [major,
             minor] | size, mode}]: made in the work directory first, in this order
  stdin     text written to the process through a pipe;  pipes = {name = text}: {PIPE:name} is
            /dev/fd/N, a pipe holding the text (as bash's <(...))
  env       extra environment;   timeout   seconds (default 30);   requires  ["mpi", "segyio",
            "no-segyio", "root"];   user = "nobody": run as uid 65534 (root only), so modes count
  expect    [path | {path, json, regex, optional}];   replace  [created paths that may change]
  stdout    a regex stdout must match
  leftover  a regex of work-directory paths that may stay (files of a process killed outright,
            which wavefd cannot remove: their names must say the run did not finish)
  disk      {dir, size = "64k", fill = true}: `dir` becomes a small private tmpfs (small_disk.py)
  readonly  [dirs]: read-only bind mounts of those directories (small_disk.py)
  signal    {send = "SIGINT", after = 1.5, glob = "out/*", grace = 30, target = "process"}: sent to
            the process (mpiexec under MPI; target = "group": to its whole process group, ranks
            included, as a terminal's Ctrl-C) once `after` seconds passed and a file matches `glob`

Placeholders in args, env, stdin, pipes and file texts: {EXE} {QS} {SMALL} {DATA} {INPUTS} {WORK}
{HOME} {TINY} {STINY} (ctest/hostile/decks: a run and a seismic deck of a fraction of a second, which
write s.json) {HOSTILE} (this directory) {PIPE:name} {X:N} (N times 'x') {R:N:text} (text N times)
{BYTES:hex} (raw bytes, e.g. not UTF-8).
A file spec's text or copy may be changed by `edit = [[old, new], ...]` (each must apply) and
`append = "..."`, then `f32 = [value, count]` adds count little-endian float32 values.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SMALL_DISK = HERE / "small_disk.py"
NOBODY = 65534
CASE_KEYS = {"name", "args", "mpmd", "exit", "regex", "accepted", "strict", "ranks", "files", "stdin", "pipes",
             "env", "timeout", "requires", "user", "expect", "replace", "stdout", "disk", "readonly", "signal",
             "note", "vmem_gb", "leftover"}
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMP_NUM_THREADS": "1",
           "OMP_PROC_BIND": "false", "KOKKOS_DISABLE_WARNINGS": "1"}
CRASH_TEXT = re.compile(r"exited on signal|terminated by signal|killed by signal|Segmentation fault|core dumped"
                        r"|\bAborted\b|Bus error|Floating point exception|terminate called", re.I)
ABORT_TEXT = re.compile(r"MPI_ABORT|MPI_Abort")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]")


# ---- options and cases ---------------------------------------------------------------------------

@dataclass
class Env:
    exe: str
    qs: str
    small: str
    data: str
    inputs: str
    mpiexec: str | None
    np_flag: str
    mpi_flags: list[str]
    have_mpi: bool
    have_segyio: bool
    tmp: str
    keep: bool
    strict_accepted: bool
    accepted_all: bool
    timeout_scale: float
    vmem_gb: float
    small_disk_ok: bool | None = None
    small_disk_why: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Run:
    file: str
    case: dict
    np: int  # 1: no launcher; > 1: mpiexec -n np; 0: MPMD

    @property
    def id(self):
        suffix = "" if self.np == 1 else ("@mpmd" if self.np == 0 else f"@np{self.np}")
        return f"{self.file}/{self.case['name']}{suffix}"


@dataclass
class Result:
    run: Run
    status: str  # PASS FAIL SKIP
    why: str = ""
    line: str = ""
    seconds: float = 0.0
    lacks_accepted: bool | None = None  # None: not an error line checked for it
    status_text: str = ""  # how the process ended: "exit 2", "SIGINT"


def load_cases(path: Path) -> list[dict]:
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    unknown = set(doc) - {"defaults", "case", "ctest_timeout", "description"}
    if unknown:
        raise SystemExit(f"catalogue: {path}: unknown top-level key(s) {sorted(unknown)}")
    defaults = doc.get("defaults", {})
    cases, names = [], set()
    for c in doc.get("case", []):
        merged = {**defaults, **c}
        if "env" in defaults and "env" in c:
            merged["env"] = {**defaults["env"], **c["env"]}
        bad = set(merged) - CASE_KEYS
        if bad:
            raise SystemExit(f"catalogue: {path}: case {c.get('name')}: unknown key(s) {sorted(bad)}")
        bad_req = set(merged.get("requires", [])) - {"mpi", "segyio", "no-segyio", "root"}
        if bad_req:
            raise SystemExit(f"catalogue: {path}: case {merged.get('name')}: unknown requirement(s) {sorted(bad_req)}")
        if "name" not in merged or ("args" not in merged and "mpmd" not in merged):
            raise SystemExit(f"catalogue: {path}: every case needs a name and args (or mpmd): {c}")
        if merged["name"] in names:
            raise SystemExit(f"catalogue: {path}: duplicate case name {merged['name']}")
        names.add(merged["name"])
        cases.append(merged)
    return cases


def expand_runs(file: str, cases: list[dict]) -> list[Run]:
    runs = []
    for c in cases:
        if "mpmd" in c:
            runs.append(Run(file, c, 0))
        else:
            for np in c.get("ranks", [1]):
                runs.append(Run(file, c, int(np)))
    return runs


# ---- placeholders --------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"\{(EXE|QS|SMALL|TINY|STINY|DATA|INPUTS|HOSTILE|WORK|HOME|PIPE|X|R|BYTES)(?::([^{}]*))?\}")


def substitute(text: str, env: Env, work: str, home: str, pipes: dict[str, str]) -> str:
    def one(m):
        key, arg = m.group(1), m.group(2)
        if key == "PIPE":
            if arg not in pipes:
                raise KeyError(f"no pipe named {arg!r}")
            return pipes[arg]
        if key == "X":
            return "x" * int(arg)
        if key == "R":
            count, _, text = arg.partition(":")
            return text * int(count)
        if key == "BYTES":
            return bytes.fromhex(arg).decode("utf-8", "surrogateescape")
        return {"EXE": env.exe, "QS": env.qs, "SMALL": env.small, "DATA": env.data, "INPUTS": env.inputs,
                "TINY": str(HERE / "decks/tiny.toml"), "STINY": str(HERE / "decks/seismic-tiny.toml"),
                "HOSTILE": str(HERE), "WORK": work, "HOME": home}[key]
    return PLACEHOLDER.sub(one, text)


# ---- the work directory --------------------------------------------------------------------------

def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def snapshot(root: str) -> dict[str, tuple[str, str]]:
    """Every entry below root: relative path -> (kind, content hash | link target | mode)."""
    entries: dict[str, tuple[str, str]] = {}

    def walk(d: str, rel: str):
        try:
            names = sorted(os.listdir(d))
        except OSError as e:
            entries[rel or "."] = ("unlistable", e.strerror or "")
            return
        for n in names:
            p, r = os.path.join(d, n), (os.path.join(rel, n) if rel else n)
            st = os.lstat(p)
            if stat.S_ISDIR(st.st_mode):
                entries[r] = ("dir", "")
                walk(p, r)
            elif stat.S_ISLNK(st.st_mode):
                entries[r] = ("symlink", os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                try:
                    entries[r] = ("file", sha256(p))
                except OSError:
                    entries[r] = ("file", f"unreadable size {st.st_size} mtime {st.st_mtime_ns}")
            elif stat.S_ISFIFO(st.st_mode):
                entries[r] = ("fifo", "")
            elif stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
                entries[r] = ("device", f"{os.major(st.st_rdev)},{os.minor(st.st_rdev)}")
            else:
                entries[r] = ("special", oct(st.st_mode))
    walk(root, "")
    return entries


def make_files(case: dict, env: Env, work: str, home: str, pipes: dict) -> list[threading.Thread]:
    """Creates the case's files; returns the fifo feeders (threads) to start with the process."""
    feeders = []
    sub_text = lambda t: substitute(t, env, work, home, pipes).encode("utf-8", "surrogateescape")
    for spec in case.get("files", []):
        path = os.path.join(work, substitute(spec["path"], env, work, home, pipes))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if spec.get("dir"):
            os.makedirs(path, exist_ok=True)
        elif spec.get("fifo"):
            os.mkfifo(path)
            if "feed" in spec:
                feeders.append(fifo_feeder(path, substitute(spec["feed"], env, work, home, pipes).encode(),
                                           int(spec.get("feed_times", 1))))
        elif "symlink" in spec:
            os.symlink(substitute(spec["symlink"], env, work, home, pipes), path)
        elif "hardlink" in spec:
            os.link(os.path.join(work, substitute(spec["hardlink"], env, work, home, pipes)), path)
        elif "chardev" in spec:
            major, minor = spec["chardev"]
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(major, minor))
        else:
            if "text" in spec:
                data = substitute(spec["text"], env, work, home, pipes).encode("utf-8", "surrogateescape")
            elif "hex" in spec:
                data = bytes.fromhex(spec["hex"])
            elif "copy" in spec:
                data = Path(substitute(spec["copy"], env, work, home, pipes)).read_bytes()
            else:
                data = b"\0" * int(spec.get("size", 0))
            for old, new in spec.get("edit", []):  # text edits of a copied deck, each must apply
                old_b, new_b = (sub_text(old), sub_text(new))
                if old_b not in data:
                    raise ValueError(f"edit of {spec['path']}: {old!r} not found")
                data = data.replace(old_b, new_b, 1)
            data += sub_text(spec.get("append", ""))
            if "f32" in spec:  # [value, count]: that many little-endian float32 values
                value, count = spec["f32"]
                data += struct.pack("<f", float(value)) * int(count)
            data *= int(spec.get("repeat", 1))
            with open(path, "wb") as f:
                f.write(data)
        if "mode" in spec and "symlink" not in spec:
            os.chmod(path, spec["mode"])
    return feeders


def fifo_feeder(path: str, data: bytes, times: int) -> threading.Thread:
    """A writer for a fifo: waits for a reader (without blocking the catalogue), writes, closes."""
    stop = threading.Event()

    def feed():
        done = 0
        while done < times and not stop.is_set():
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # ENXIO: no reader yet
                time.sleep(0.01)
                continue
            try:
                os.set_blocking(fd, True)
                os.write(fd, data)
            except OSError:
                pass
            finally:
                os.close(fd)
            done += 1
    t = threading.Thread(target=feed, daemon=True)
    t.stop = stop  # type: ignore[attr-defined]
    return t


def chown_tree(root: str, uid: int):
    os.chown(root, uid, uid)
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            os.chown(os.path.join(dirpath, n), uid, uid, follow_symlinks=False)


# ---- processes -----------------------------------------------------------------------------------

def session_pids(sid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == sid:
            pids.append(int(entry))
    return pids


def kill_session(sid: int):
    for _ in range(50):
        pids = session_pids(sid)
        if not pids:
            return
        for p in pids:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.05)


def process_names(pids: list[int]) -> str:
    names = []
    for p in pids:
        try:
            names.append(f"{Path(f'/proc/{p}/comm').read_text().strip()}({p})")
        except OSError:
            pass
    return ", ".join(names)


def signal_number(name) -> int:
    return int(getattr(signal, name)) if isinstance(name, str) else int(name)


# ---- one run -------------------------------------------------------------------------------------

def capability_skip(run: Run, env: Env) -> str | None:
    c = run.case
    req = set(c.get("requires", []))
    if run.np != 1 and not env.have_mpi:
        return "needs MPI (this build has none)"
    if "mpi" in req and not env.have_mpi:
        return "needs MPI"
    if "segyio" in req and not env.have_segyio:
        return "needs a build with segyio"
    if "no-segyio" in req and env.have_segyio:
        return "needs a build without segyio"
    if ("root" in req or c.get("disk") or c.get("readonly")) and os.geteuid() != 0:
        return "needs root (private mounts)"
    if any("chardev" in f for f in c.get("files", [])) and os.geteuid() != 0:
        return "needs root (mknod of a device node)"
    if run.np != 1 and ("pipes" in c or "user" in c):
        return "pipes and other users are single-rank cases"
    if c.get("disk") or c.get("readonly"):
        with env.lock:
            if env.small_disk_ok is None:
                p = subprocess.run([sys.executable, str(SMALL_DISK), "--probe"], capture_output=True, text=True)
                env.small_disk_ok = p.returncode == 0
                env.small_disk_why = (p.stderr.strip() or p.stdout.strip() or f"exit {p.returncode}")
        if not env.small_disk_ok:
            return f"no private tmpfs here: {env.small_disk_why}"
    return None


def command_line(run: Run, env: Env, sub) -> list[str]:
    c = run.case
    if run.np == 1:
        return [env.exe] + [sub(a) for a in c["args"]]
    launcher = [env.mpiexec] + env.mpi_flags
    if run.np > 1:
        return launcher + [env.np_flag, str(run.np), env.exe] + [sub(a) for a in c["args"]]
    cmd = list(launcher)
    for i, part in enumerate(c["mpmd"]):
        if i:
            cmd.append(":")
        cmd += [env.np_flag, str(part.get("n", 1)), env.exe] + [sub(a) for a in part["args"]]
    return cmd


def check_text(what: str, text: str) -> str | None:
    if "\ufffd" in text:
        return f"{what} is not UTF-8"
    m = CONTROL.search(text)
    if m:
        return f"control byte {m.group(0)!r} on {what}"
    return None


def run_one(run: Run, env: Env) -> Result:
    c = run.case
    skip = capability_skip(run, env)
    if skip:
        return Result(run, "SKIP", skip)
    base = tempfile.mkdtemp(prefix="case-", dir=env.tmp)
    work, home = os.path.join(base, "work"), os.path.join(base, "home")
    os.chmod(base, 0o755)  # a case run as another user must reach its work directory
    os.makedirs(work)
    os.makedirs(home)
    started = time.monotonic()
    try:
        return execute(run, env, base, work, home, started)
    except (KeyError, ValueError, OSError) as e:
        return Result(run, "FAIL", f"catalogue error: {type(e).__name__}: {e}", seconds=time.monotonic() - started)
    finally:
        if not env.keep:
            shutil.rmtree(base, ignore_errors=True)


def execute(run: Run, env: Env, base: str, work: str, home: str, started: float) -> Result:
    c = run.case
    read_ends, write_ends, pipes = [], [], {}
    for name, text in c.get("pipes", {}).items():
        r, w = os.pipe()
        read_ends.append(r)
        write_ends.append((w, name))
        pipes[name] = f"/dev/fd/{r}"
    sub = lambda s: substitute(s, env, work, home, pipes)
    for w, name in write_ends:
        data = sub(c["pipes"][name]).encode("utf-8", "surrogateescape")
        if len(data) > 60000:
            raise ValueError(f"pipe {name} holds more than a pipe buffer")
        os.write(w, data)
        os.close(w)

    feeders = make_files(c, env, work, home, pipes)
    nobody = c.get("user") == "nobody" and os.geteuid() == 0
    if nobody:
        chown_tree(work, NOBODY)
        chown_tree(home, NOBODY)
    before = snapshot(work)

    cmd = command_line(run, env, sub)
    vmem = float(c.get("vmem_gb", env.vmem_gb))
    if vmem > 0:  # a safety net: an allocation wavefd should have refused cannot take the machine
        cmd = ["/bin/sh", "-c", f'ulimit -v {int(vmem * 1024 * 1024)} && exec "$@"', "sh"] + cmd
    report = None
    if c.get("disk") or c.get("readonly"):
        report = os.path.join(base, "small_disk_report.json")
        wrap = [sys.executable, str(SMALL_DISK), "--report", report]
        for d in c.get("readonly", []):
            wrap += ["--read-only", os.path.join(work, d)]
        if c.get("disk"):
            d = c["disk"]
            wrap += (["--fill"] if d.get("fill", True) else []) + [os.path.join(work, d["dir"]), d.get("size", "64k")]
        cmd = wrap + ["--"] + cmd

    penv = {k: v for k, v in os.environ.items() if not k.startswith(("WAVEFD_", "OMPI_", "PRTE_", "PMIX_"))}
    penv.update({"HOME": home, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "2"), "OMP_PROC_BIND": "false",
                 "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    # Open MPI probes its network transports at every start (a second per process here); every rank
    # of a case is on this host, so shared memory is all it needs. A value set outside wins.
    penv.setdefault("OMPI_MCA_btl", os.environ.get("OMPI_MCA_btl", "self" if run.np == 1 else "self,sm"))
    if run.np != 1:
        penv.update(MPI_ENV)
    for k, v in c.get("env", {}).items():
        penv[k] = sub(str(v))

    out_path, err_path = os.path.join(base, "stdout"), os.path.join(base, "stderr")
    timeout = float(c.get("timeout", 30)) * env.timeout_scale
    stdin_text = c.get("stdin")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        kwargs = {}
        if nobody:
            kwargs = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
        proc = subprocess.Popen(cmd, cwd=work, env=penv, stdout=out, stderr=err,
                                stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
                                start_new_session=True, pass_fds=read_ends, **kwargs)
    for r in read_ends:
        os.close(r)
    for t in feeders:
        t.start()
    if stdin_text is not None:
        def write_stdin():
            try:
                proc.stdin.write(sub(stdin_text).encode("utf-8", "surrogateescape"))
            except OSError:
                pass
            try:
                proc.stdin.close()
            except OSError:
                pass
        threading.Thread(target=write_stdin, daemon=True).start()

    fail = None
    sent = None
    deadline = started + timeout
    if "signal" in c:
        s = c["signal"]
        signum = signal_number(s.get("send", "SIGINT"))
        after, glob = float(s.get("after", 1.5)), s.get("glob")
        wait_until = time.monotonic() + float(s.get("wait", 20))
        while proc.poll() is None:
            ready = time.monotonic() - started >= after and (not glob or list(Path(work).glob(glob)))
            if ready:
                if s.get("target", "process") == "group":  # as a terminal's Ctrl-C: every process of the group
                    os.killpg(proc.pid, signum)
                else:
                    proc.send_signal(signum)
                sent = time.monotonic()
                deadline = sent + float(s.get("grace", 30))
                break
            if time.monotonic() > wait_until:
                fail = f"nothing matched {glob!r} within {s.get('wait', 20)} s: signal not sent"
                break
            time.sleep(0.02)
        else:
            fail = f"ended before the signal (exit {proc.returncode}): the run must last longer"
    hung = False
    while proc.poll() is None:
        if time.monotonic() > deadline:
            hung = True
            break
        time.sleep(0.01)
    if hung:
        kill_session(proc.pid)
        proc.wait()
    for t in feeders:
        t.stop.set()
    leftover = [] if hung else session_pids(proc.pid)
    if leftover:
        for _ in range(40):  # a launcher's helpers may take a moment to go
            time.sleep(0.05)
            leftover = session_pids(proc.pid)
            if not leftover:
                break
        if leftover:
            names = process_names(leftover)
            kill_session(proc.pid)
    seconds = time.monotonic() - started
    rc = proc.returncode
    raw_out = Path(out_path).read_bytes().decode("utf-8", "replace")
    raw_err = Path(err_path).read_bytes().decode("utf-8", "replace")

    if run.np == 1:
        lines = [l for l in raw_err.splitlines() if l.strip()]
    else:
        lines = [l for l in raw_err.splitlines() if l.startswith("wavefd")]
    if report is not None and rc == 77 and raw_err.startswith("small_disk:"):
        return Result(run, "SKIP", raw_err.strip().splitlines()[0], seconds=seconds)
    shown = lines[0] if len(lines) == 1 else " | ".join(lines[:3]) + (" | ..." if len(lines) > 3 else "")
    ended = f"exit {rc}" if rc >= 0 else signal.Signals(-rc).name
    res = lambda status, why="", lacks=None: Result(run, status, why, shown, seconds, lacks, ended)

    if fail:
        return res("FAIL", fail)
    if hung:
        what = " after the signal" if sent else ""
        return res("FAIL", f"hang: still running{what} after {deadline - (sent or started):.0f} s (killed)")
    if leftover:
        return res("FAIL", f"processes left running after the launcher ended: {names}")

    allowed = c.get("exit", 2)
    allowed = allowed if isinstance(allowed, list) else [allowed]
    allowed_codes = {a for a in allowed if isinstance(a, int)}
    allowed_signals = {signal_number(a) for a in allowed if isinstance(a, str)}
    if rc < 0:
        if -rc not in allowed_signals:
            return res("FAIL", f"died from {signal.Signals(-rc).name}")
    elif rc not in allowed_codes:
        return res("FAIL", f"exit code {rc}, expected {' or '.join(map(str, allowed))}")
    if run.np != 1:
        if ABORT_TEXT.search(raw_err + raw_out):
            return res("FAIL", "MPI_Abort banner")
    others = "\n".join(l for l in raw_err.splitlines() if not l.startswith("wavefd"))
    m = CRASH_TEXT.search(others)
    if m and not (rc < 0 and -rc in allowed_signals):
        return res("FAIL", f"crash report on stderr: {m.group(0)!r}")
    for text, what in ((raw_out, "stdout"), ("\n".join(lines), "stderr")):
        bad = check_text(what, text)
        if bad:
            return res("FAIL", bad)
    if "internal:" in raw_err or "internal:" in raw_out:
        return res("FAIL", "'internal:' text")

    lacks = None
    interrupted = rc < 0 or (sent is not None)
    if rc == 0:
        errs = [l for l in lines if l.startswith("wavefd: error")]
        if errs:
            return res("FAIL", "exit 0 with an error line")
        if "stdout" in c and not re.search(c["stdout"], raw_out, re.S):
            return res("FAIL", f"stdout does not match {c['stdout']!r}")
    elif interrupted:
        if len(lines) > 1:
            return res("FAIL", f"{len(lines)} lines on stderr after the signal, expected at most one")
        if lines and not lines[0].startswith("wavefd: "):
            return res("FAIL", "stderr line does not start with 'wavefd: '")
    else:
        if len(lines) != 1:
            return res("FAIL", f"{len(lines)} lines on stderr, expected one")
        line = lines[0]
        if not line.startswith("wavefd: error: "):
            return res("FAIL", "stderr line does not start with 'wavefd: error: '")
        if "regex" in c and not re.search(c["regex"], line):
            return res("FAIL", f"stderr does not match {c['regex']!r}")
        if c.get("accepted", env.accepted_all):
            lacks = "; accepted: " not in line
            if lacks and (c.get("strict", False) or env.strict_accepted):
                return res("FAIL", "no '; accepted: ' in the message", lacks)

    after = snapshot(work)
    if report is not None and c.get("disk"):
        rel = c["disk"]["dir"].strip("/")
        try:
            inside = json.loads(Path(report).read_text())
        except (OSError, ValueError):
            return res("FAIL", "small_disk.py wrote no report", lacks)
        after = {k: v for k, v in after.items() if not (k == rel or k.startswith(rel + "/"))}
        after[rel] = ("dir", "")
        for k, (kind, payload) in inside.items():
            after[f"{rel}/{k}"] = (kind, payload)
    replace = {sub(p) for p in c.get("replace", [])}
    expect = []
    for e in c.get("expect", []):
        e = {"path": e} if isinstance(e, str) else dict(e)
        e["path"] = sub(e["path"])
        expect.append(e)
    expected_paths = {e["path"] for e in expect}
    for path, (kind, payload) in before.items():
        if path in replace:
            continue
        now = after.get(path)
        if now is None:
            return res("FAIL", f"{path} (made before the run) is gone", lacks)
        if now[0] != kind:
            return res("FAIL", f"{path} was a {kind}, now a {now[0]}", lacks)
        if now[1] != payload:
            return res("FAIL", f"{path} (made before the run) was changed", lacks)
    may_stay = re.compile(c["leftover"]) if "leftover" in c else None
    left = sorted(p for p in after if p not in before and p not in expected_paths
                  and not any(q.startswith(p + "/") for q in expected_paths)
                  and not (may_stay and may_stay.fullmatch(p)))
    if left:
        return res("FAIL", "left behind: " + ", ".join(left[:6]) + (" ..." if len(left) > 6 else ""), lacks)
    for e in expect:
        p = os.path.join(work, e["path"])
        if e["path"] not in after:
            if e.get("optional"):
                continue
            return res("FAIL", f"expected {e['path']} is missing", lacks)
        if (e.get("json") or "regex" in e) and after[e["path"]][0] == "file" and not c.get("disk"):
            text = Path(p).read_bytes().decode("utf-8", "replace")
            if e.get("json"):
                try:
                    json.loads(text)
                except ValueError as x:
                    return res("FAIL", f"{e['path']} is not valid JSON ({x})", lacks)
            if "regex" in e and not re.search(e["regex"], text, re.S):
                return res("FAIL", f"{e['path']} does not match {e['regex']!r}", lacks)
    return res("PASS", "", lacks)


# ---- main ----------------------------------------------------------------------------------------

def detect(exe: str) -> tuple[bool, bool]:
    """MPI from `wavefd info`; segyio from the executable's dynamic dependencies (info does not say)."""
    try:
        p = subprocess.run([exe, "info"], capture_output=True, text=True, timeout=60,
                           env={**os.environ, "OMP_NUM_THREADS": "1", "OMP_PROC_BIND": "false"})
        mpi = re.search(r"^MPI: enabled", p.stdout, re.M) is not None
    except (OSError, subprocess.TimeoutExpired):
        mpi = False
    try:
        segy = b"libsegyio" in Path(exe).read_bytes()
    except OSError:
        segy = False
    return mpi, segy


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="case files (default: every cases/*.toml)")
    ap.add_argument("--exe", required=True, help="the wavefd executable")
    ap.add_argument("--qs", default=str(REPO / "inputs/quickstart.toml"))
    ap.add_argument("--small", default=str(REPO / "inputs/seismic-small.toml"))
    ap.add_argument("--data", default=str(REPO / "ctest/data"))
    ap.add_argument("--mpiexec", default=shutil.which("mpiexec"))
    ap.add_argument("--np-flag", default="-n")
    ap.add_argument("--mpi-flags", default="--oversubscribe", help="launcher flags before -n (space-separated)")
    ap.add_argument("--mpi", dest="mpi", action="store_true", default=None, help="the build has MPI")
    ap.add_argument("--no-mpi", dest="mpi", action="store_false")
    ap.add_argument("--segyio", dest="segyio", action="store_true", default=None, help="the build has segyio")
    ap.add_argument("--no-segyio", dest="segyio", action="store_false")
    ap.add_argument("--only", help="run the cases whose id (file/name[@npN]) matches this regex")
    ap.add_argument("-j", type=int, default=1, help="cases run at once (threads)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--tmp", default=None, help="where the work directories go (default: the system's)")
    ap.add_argument("--keep", action="store_true", help="keep the work directories")
    ap.add_argument("--accepted", action="store_true", help="check '; accepted: ' in every error line (counted)")
    ap.add_argument("--strict-accepted", action="store_true", help="... and fail the cases without it")
    ap.add_argument("--timeout-scale", type=float, default=1.0)
    ap.add_argument("--vmem-gb", type=float, default=2.0,
                    help="address-space limit per process (ulimit -v), a safety net; 0: none")
    ap.add_argument("--quiet", action="store_true", help="print only the failures and the summary")
    a = ap.parse_args()

    files = [Path(f) for f in a.files] or sorted((HERE / "cases").glob("*.toml"))
    runs = []
    for f in files:
        runs += expand_runs(f.stem, load_cases(f))
    if a.only:
        runs = [r for r in runs if re.search(a.only, r.id)]
    if a.list:
        for r in runs:
            print(r.id)
        print(f"catalogue: {len(runs)} runs of {len({(r.file, r.case['name']) for r in runs})} cases")
        return 0

    exe = os.path.abspath(a.exe)
    if not os.access(exe, os.X_OK):
        print(f"catalogue: --exe {a.exe} is not an executable", file=sys.stderr)
        return 2
    mpi, segy = a.mpi, a.segyio
    if mpi is None or segy is None:
        dm, ds = detect(exe)
        mpi = dm if mpi is None else mpi
        segy = ds if segy is None else segy
    mpi = mpi and bool(a.mpiexec)
    os.makedirs(a.tmp, exist_ok=True) if a.tmp else None
    tmp = tempfile.mkdtemp(prefix="wavefd-hostile-", dir=a.tmp)
    os.chmod(tmp, 0o755)
    env = Env(exe=exe, qs=os.path.abspath(a.qs), small=os.path.abspath(a.small), data=os.path.abspath(a.data),
              inputs=os.path.abspath(os.path.dirname(a.qs)), mpiexec=a.mpiexec, np_flag=a.np_flag,
              mpi_flags=a.mpi_flags.split(), have_mpi=mpi, have_segyio=segy, tmp=tmp, keep=a.keep,
              strict_accepted=a.strict_accepted, accepted_all=a.accepted or a.strict_accepted,
              timeout_scale=a.timeout_scale, vmem_gb=a.vmem_gb)
    print(f"catalogue: {len(runs)} runs, {exe}, MPI {'yes' if mpi else 'no'}, segyio {'yes' if segy else 'no'}, "
          f"-j {a.j}", flush=True)

    t0 = time.monotonic()
    results: list[Result] = []
    print_lock = threading.Lock()

    def report(r: Result):
        with print_lock:
            results.append(r)
            if a.quiet and r.status != "FAIL":
                return
            text = f"{r.status} {r.run.id} ({r.seconds:.1f} s{', ' + r.status_text if r.status_text else ''})"
            if r.why:
                text += f": {r.why}"
            if r.line and r.status != "SKIP":
                text += f"\n    stderr: {r.line[:400]}"
            if r.lacks_accepted and r.status == "PASS":
                text += "\n    note: no '; accepted: ' in the message"
            print(text, flush=True)

    if a.j <= 1:
        for r in runs:
            report(run_one(r, env))
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as pool:
            for fut in concurrent.futures.as_completed([pool.submit(run_one, r, env) for r in runs]):
                report(fut.result())
    if not a.keep:
        shutil.rmtree(tmp, ignore_errors=True)

    count = lambda s: sum(1 for r in results if r.status == s)
    checked = [r for r in results if r.lacks_accepted is not None]
    lacking = [r for r in checked if r.lacks_accepted]
    failed = sorted(r.run.id for r in results if r.status == "FAIL")
    print(f"catalogue: {len(results)} runs: {count('PASS')} passed, {count('FAIL')} failed, {count('SKIP')} skipped "
          f"in {time.monotonic() - t0:.0f} s; {len(lacking)} of {len(checked)} error lines checked lack '; accepted: '")
    if failed:
        print("catalogue: failed: " + " ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
