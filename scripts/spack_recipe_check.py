# Run by scripts/check_spack_recipe.sh as `spack python scripts/spack_recipe_check.py REPO`.
# Concretizes every wavefd spec that spack/README.md names and every environment in
# spack/environments, checks what the recipe promises about Kokkos, NCCL and the compilers, and
# prints each spec's cmake_args (what `spack install` will hand to CMake).
# Exit code: the number of failed checks (0: all good).
#
# `... spack_recipe_check.py REPO --args "SPEC"` prints only SPEC's cmake_args, one a line,
# for configuring the project by hand with exactly what Spack would pass.
#
# Nothing in the repository is written: each environment is concretized from a copy of its
# spack.yaml in a temporary folder (its develop path made absolute). Everything runs under the
# `__main__` guard, since Spack's worker processes (compiler detection, Python >= 3.14's default
# `forkserver` start method) import this file again as a module.
import os
import re
import shutil
import sys
import tempfile

import spack.cmd
import spack.environment as ev
import spack.util.spack_yaml as syaml

REPO = ""
README = ""
ENVIRONMENTS = ""

# `spack install|spec|add [-flags] wavefd ...` in a README code line (comments dropped).
SPEC_LINE = re.compile(r"^\s*spack\s+(?:-e\s+\S+\s+)?(?:install|spec|add)\s+(?:-\S+\s+)*(wavefd\b[^#`]*)")

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"   FAIL: {what}")


def readme_specs():
    specs = []
    for line in open(README):
        m = SPEC_LINE.match(line)
        if m and m.group(1).strip() not in specs:
            specs.append(m.group(1).strip())
    return specs


def variant_values(spec, name):
    """A variant's values as a set of strings (multi-valued variants hold a tuple)."""
    value = spec.variants[name].value
    return {str(v) for v in (value if isinstance(value, (tuple, list)) else (value,))}


def cmake_args(spec):
    args = spec.package.cmake_args()
    return {a.split("=", 1)[0][2:].split(":")[0]: a.split("=", 1)[1] for a in args}


def check_wavefd(label, spec, dev_path=None):
    kokkos = spec["kokkos"]
    print(f"== {label}")
    print(f"   wavefd: {spec.format('{name}{@version}{variants}')}")
    print(f"   kokkos: {kokkos.format('{name}{@version}{variants}')}")
    check(kokkos.satisfies("@4.6:5.2"), f"{label}: Kokkos {kokkos.version} outside 4.6 ... 5.2")
    check(not kokkos.satisfies("cxxstd=17"), f"{label}: Kokkos is built as C++17, wavefd is C++20")
    if kokkos.satisfies("+cuda"):
        check(spec.satisfies("+cuda"), f"{label}: CUDA Kokkos but wavefd ~cuda")
        check(kokkos.satisfies("+wrapper"), f"{label}: CUDA Kokkos without +wrapper")
        if kokkos.satisfies("@:4"):
            check(kokkos.satisfies("+cuda_lambda"), f"{label}: Kokkos 4.x CUDA without +cuda_lambda")
        check(
            variant_values(spec, "cuda_arch") == variant_values(kokkos, "cuda_arch"),
            f"{label}: cuda_arch of wavefd and Kokkos differ",
        )
        if spec.satisfies("+kokkos-kernels"):
            check(spec["kokkos-kernels"].satisfies("+cuda"), f"{label}: Kokkos Kernels ~cuda")
    if kokkos.satisfies("+rocm"):
        check(spec.satisfies("+rocm"), f"{label}: HIP Kokkos but wavefd ~rocm")
        check(
            variant_values(spec, "amdgpu_target") == variant_values(kokkos, "amdgpu_target"),
            f"{label}: amdgpu_target of wavefd and Kokkos differ",
        )
    if dev_path:
        got = spec.variants["dev_path"].value if "dev_path" in spec.variants else None
        check(got and os.path.realpath(got) == dev_path, f"{label}: dev_path {got}, not {dev_path}")
    if spec.satisfies("+cuda +mpi"):
        # +nccl is the default wherever it exists; nccl must be built for wavefd's GPU.
        check(spec.satisfies("+nccl"), f"{label}: +cuda +mpi concretized ~nccl")
    if spec.satisfies("+nccl"):
        nccl = spec["nccl"]
        print(f"   nccl:   {nccl.format('{name}{@version}{variants}')}")
        check(nccl.satisfies("+cuda"), f"{label}: nccl ~cuda")
        check(
            variant_values(nccl, "cuda_arch") == variant_values(spec, "cuda_arch"),
            f"{label}: cuda_arch of wavefd and nccl differ",
        )

    args = cmake_args(spec)
    for key, value in args.items():
        print(f"   -D{key}={value}")
    check(args.get("Kokkos_ROOT") == str(kokkos.prefix), f"{label}: Kokkos_ROOT is not Kokkos' prefix")
    check(args.get("WAVEFD_ENABLE_MPI") == ("ON" if spec.satisfies("+mpi") else "OFF"),
          f"{label}: WAVEFD_ENABLE_MPI does not follow +mpi")
    check(args.get("WAVEFD_ENABLE_KOKKOSKERNELS") == ("ON" if spec.satisfies("+kokkos-kernels") else "OFF"),
          f"{label}: WAVEFD_ENABLE_KOKKOSKERNELS does not follow +kokkos-kernels")
    check(args.get("WAVEFD_ENABLE_SEGYIO") == ("ON" if spec.satisfies("+segyio") else "OFF"),
          f"{label}: WAVEFD_ENABLE_SEGYIO does not follow +segyio")
    check(args.get("WAVEFD_ENABLE_NCCL") == ("ON" if spec.satisfies("+nccl") else "OFF"),
          f"{label}: WAVEFD_ENABLE_NCCL does not follow +nccl")
    check(args.get("WAVEFD_HOST_ARCH") == "", f"{label}: WAVEFD_HOST_ARCH is not empty")
    if spec.satisfies("+segyio"):
        check(args.get("segyio_ROOT") == str(spec["segyio"].prefix), f"{label}: segyio_ROOT is not segyio's prefix")
    cxx = args.get("CMAKE_CXX_COMPILER", "")
    if spec.satisfies("+cuda"):
        check(cxx.endswith("/nvcc_wrapper"), f"{label}: CUDA build without nvcc_wrapper")
    elif spec.satisfies("+rocm"):
        check(cxx.endswith("/hipcc"), f"{label}: HIP build without hipcc")
    else:
        check(not cxx, f"{label}: host build sets CMAKE_CXX_COMPILER")


def environment_copy(name, tmp):
    """A copy of spack/environments/NAME/spack.yaml in TMP/NAME, its develop and repos paths
    absolute (read against the original folder), so that concretizing it never touches the
    checkout."""
    source = os.path.join(ENVIRONMENTS, name)
    with open(os.path.join(source, "spack.yaml")) as f:
        data = syaml.load(f)
    for entry in (data["spack"].get("develop") or {}).values():
        if "path" in entry:
            entry["path"] = os.path.realpath(os.path.join(source, entry["path"]))
    repos = data["spack"].get("repos") or {}
    for key, entry in repos.items():
        if isinstance(entry, str):
            repos[key] = os.path.realpath(os.path.join(source, entry))
    copy = os.path.join(tmp, name)
    os.makedirs(copy)
    with open(os.path.join(copy, "spack.yaml"), "w") as f:
        syaml.dump(data, stream=f)
    return copy


def main():
    global REPO, README, ENVIRONMENTS
    REPO = os.path.realpath(sys.argv[1])
    README = os.path.join(REPO, "spack", "README.md")
    ENVIRONMENTS = os.path.join(REPO, "spack", "environments")

    if len(sys.argv) == 4 and sys.argv[2] == "--args":
        for arg in spack.cmd.parse_specs(sys.argv[3], concretize=True)[0].package.cmake_args():
            print(arg)
        return 0

    for text in readme_specs():
        try:
            concrete = spack.cmd.parse_specs(text, concretize=True)[0]
        except Exception as e:  # the concretizer's own message says why
            check(False, f"spack spec {text}: {e}")
            continue
        check_wavefd(f"spack spec {text}", concrete)

    tmp = tempfile.mkdtemp(prefix="wavefd-spack-envs-")
    try:
        for name in sorted(os.listdir(ENVIRONMENTS)):
            env = ev.Environment(environment_copy(name, tmp))
            ev.activate(env)  # its configuration (develop:, concretizer:, packages:) applies
            try:
                pairs = env.concretize(force=True)  # in memory: no spack.lock is written
            except Exception as e:
                check(False, f"environment {name}: {e}")
                continue
            finally:
                ev.deactivate()
            roots = [concrete for _, concrete in pairs if concrete.name == "wavefd"]
            check(len(roots) == 1, f"environment {name}: {len(roots)} wavefd roots")
            for concrete in roots:
                check_wavefd(f"environment {name}", concrete, dev_path=REPO)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"{len(failures)} failed")
    return min(len(failures), 100)


if __name__ == "__main__":
    sys.exit(main())
