#!/usr/bin/env python3
"""Run a command with a small private tmpfs (a disk that fills up) or a read-only view over a
directory, in a private mount namespace: nothing is mounted on the host, and the mounts vanish
with the process.

    small_disk.py [--fill] [--report FILE] DIR SIZE -- CMD [ARG...]
    small_disk.py --read-only DIR [--report FILE] -- CMD [ARG...]
    small_disk.py --probe

DIR SIZE: a tmpfs of SIZE (e.g. 64k) is mounted on DIR, first holding a copy of what DIR held
(so a file the user owns there, e.g. a tuning file, is still there). --fill then fills it up, so
that every new block is refused (ENOSPC); the filler is a file named `.small_disk_fill`, left out of
the report. --read-only DIR makes DIR read-only (a read-only bind mount of itself), even for root.

The command runs in a child process; when it ends, the helper lists what the tmpfs holds into
--report (JSON: relative path -> [type, sha256 | link target]), because the tmpfs disappears with
the helper, and exits with the command's status (re-raising the signal that ended it). SIGINT and
SIGTERM are passed on to the command.

Needs root (CAP_SYS_ADMIN): the sequence is unshare(CLONE_NEWNS), bind-mount DIR on itself, make
that mount private (MS_PRIVATE: nothing propagates back to the host's mounts, even where / is a
shared mount or, in a chroot, no mount point at all), then mount the tmpfs on it. It uses mount(2)
through ctypes, since the development root has no `mount` binary. A failure to set up exits 77 with
one line `small_disk: ...`; callers report that as a skip.
"""
import ctypes
import hashlib
import json
import os
import signal
import sys
import tempfile

MS_RDONLY = 1
MS_REMOUNT = 32
MS_BIND = 4096
MS_PRIVATE = 1 << 18
SETUP_FAILED = 77
FILLER = ".small_disk_fill"

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]


def die(what):
    print(f"small_disk: {what}", file=sys.stderr)
    sys.exit(SETUP_FAILED)


def mount(source, target, fstype, flags, data=None):
    enc = lambda s: None if s is None else os.fsencode(s)
    if _libc.mount(enc(source), enc(target), enc(fstype), flags, enc(data)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount({source}, {target}, {fstype}, {flags:#x}): {os.strerror(err)}")


def private_bind(directory):
    mount(directory, directory, None, MS_BIND)
    mount(None, directory, None, MS_PRIVATE)


def read_tree(root):
    """What a directory holds, to copy into the tmpfs: [(relative path, kind, payload)]."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        for name in sorted(dirnames):
            out.append((os.path.normpath(os.path.join(rel, name)), "dir", os.lstat(os.path.join(dirpath, name)).st_mode))
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            relname = os.path.normpath(os.path.join(rel, name))
            if os.path.islink(path):
                out.append((relname, "symlink", os.readlink(path)))
            elif os.path.isfile(path):
                with open(path, "rb") as f:
                    out.append((relname, "file", (f.read(), st.st_mode)))
    return out


def write_tree(root, tree):
    for rel, kind, payload in tree:
        path = os.path.join(root, rel)
        if kind == "dir":
            os.makedirs(path, exist_ok=True)
            os.chmod(path, payload & 0o7777)
        elif kind == "symlink":
            os.symlink(payload, path)
        else:
            data, mode = payload
            with open(path, "wb") as f:
                f.write(data)
            os.chmod(path, mode & 0o7777)


def fill(root):
    """Take every free block of the tmpfs."""
    with open(os.path.join(root, FILLER), "wb", buffering=0) as f:
        for chunk in (1 << 16, 4096, 512, 1):
            block = b"\0" * chunk
            while True:
                try:
                    f.write(block)
                except OSError:
                    break


def report_tree(root):
    entries = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            if rel == FILLER:
                continue
            st = os.lstat(path)
            if os.path.islink(path):
                entries[rel] = ["symlink", os.readlink(path)]
            elif os.path.isdir(path):
                entries[rel] = ["dir", ""]
            elif os.path.isfile(path):
                try:
                    with open(path, "rb") as f:
                        entries[rel] = ["file", hashlib.sha256(f.read()).hexdigest()]
                except OSError as e:
                    entries[rel] = ["file", f"unreadable ({e.strerror})"]
            else:
                entries[rel] = ["special", oct(st.st_mode)]
    return entries


def run(argv):
    fill_it, report, read_only, positional = False, None, [], []
    i = 0
    while i < len(argv) and argv[i] != "--":
        a = argv[i]
        if a == "--fill":
            fill_it = True
        elif a == "--report":
            i += 1
            report = argv[i]
        elif a == "--read-only":
            i += 1
            read_only.append(os.path.abspath(argv[i]))
        else:
            positional.append(a)
        i += 1
    cmd = argv[i + 1:]
    if not cmd or len(positional) not in (0, 2) or (not positional and not read_only):
        die("usage: small_disk.py [--fill] [--report FILE] [--read-only DIR] [DIR SIZE] -- CMD [ARG...]")
    directory = os.path.abspath(positional[0]) if positional else None
    if os.geteuid() != 0:
        die("needs root to mount a private tmpfs (running as uid %d)" % os.geteuid())
    try:
        seed = read_tree(directory) if directory else []
        st = os.stat(directory) if directory else None
        os.unshare(os.CLONE_NEWNS)
        if directory:
            private_bind(directory)
            mount("tmpfs", directory, "tmpfs", 0, f"size={positional[1]},mode={st.st_mode & 0o7777:o},uid={st.st_uid},gid={st.st_gid}")
            write_tree(directory, seed)
            if fill_it:
                fill(directory)
        for d in read_only:
            private_bind(d)
            mount(None, d, None, MS_BIND | MS_REMOUNT | MS_RDONLY)
    except (OSError, AttributeError) as e:
        die(f"cannot set up the mounts: {e}")

    child = os.fork()
    if child == 0:
        try:
            os.execvp(cmd[0], cmd)
        except OSError as e:
            print(f"small_disk: cannot run {cmd[0]}: {e.strerror}", file=sys.stderr)
            os._exit(127)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda s, _f: os.kill(child, s))
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except ChildProcessError:
            status = 0
            break
        except InterruptedError:
            continue
    if report:
        entries = report_tree(directory) if directory else {}
        with open(report, "w") as f:
            json.dump(entries, f)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        sys.exit(128 + sig)
    sys.exit(os.WEXITSTATUS(status))


def probe():
    """Whether this machine lets us do it: the same sequence on a scratch directory."""
    if os.geteuid() != 0:
        die("needs root to mount a private tmpfs (running as uid %d)" % os.geteuid())
    with tempfile.TemporaryDirectory(prefix="small-disk-probe-") as d:
        child = os.fork()
        if child == 0:
            try:
                os.unshare(os.CLONE_NEWNS)
                private_bind(d)
                mount("tmpfs", d, "tmpfs", 0, "size=64k")
                fill(d)
                try:
                    with open(os.path.join(d, "x"), "wb", buffering=0) as f:
                        f.write(b"x" * 8192)
                    os._exit(3)  # the tmpfs did not fill up
                except OSError:
                    pass
                sub = os.path.join(d, "ro")
                os.mkdir(sub)
                private_bind(sub)
                mount(None, sub, None, MS_BIND | MS_REMOUNT | MS_RDONLY)
                os._exit(0)
            except BaseException as e:  # noqa: BLE001: report anything, in the child
                print(f"small_disk: cannot set up the mounts: {e}", file=sys.stderr)
                os._exit(SETUP_FAILED)
        _, status = os.waitpid(child, 0)
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else SETUP_FAILED
        if code == 3:
            die("the tmpfs did not fill up")
        if code != 0:
            sys.exit(SETUP_FAILED)
        if os.listdir(d):
            die("the probe's tmpfs leaked into the host's view")
    print("small_disk: ok")


if __name__ == "__main__":
    if sys.argv[1:] == ["--probe"]:
        probe()
    else:
        run(sys.argv[1:])
