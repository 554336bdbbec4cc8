# Spack recipe for wavefd. It mirrors the top-level CMakeLists.txt:
#
#   Spack                       CMake
#   +mpi / ~mpi                 -DWAVEFD_ENABLE_MPI=ON / OFF
#   +kokkos-kernels / ~...      -DWAVEFD_ENABLE_KOKKOSKERNELS=ON / OFF
#   spack install --test=root   -DWAVEFD_ENABLE_TESTS=ON (OFF otherwise)
#   (always)                    -DKokkos_ROOT=<kokkos prefix>
#   +cuda / ^kokkos+cuda        -DCMAKE_CXX_COMPILER=<Kokkos' compiler: nvcc_wrapper>
#   +rocm / ^kokkos+rocm        -DCMAKE_CXX_COMPILER=<hipcc>
#
# The CMake options default to AUTO (ON when found); Spack always passes ON or OFF, so what
# gets linked follows the spec and never what else happens to be installed.
# The Kokkos backend is the user's choice: +cuda cuda_arch=..., +rocm amdgpu_target=...,
# +openmp are passed through to Kokkos (and to Kokkos Kernels where it has the variant).

from spack.package import *

try:  # Spack >= 1.0: the build-system base classes live in the builtin package repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
    from spack_repo.builtin.build_systems.rocm import ROCmPackage
except ImportError:  # Spack 0.x: `from spack.package import *` provides them
    pass


class Wavefd(CMakePackage, CudaPackage, ROCmPackage):
    """wavefd: a performance-portable proxy app for high-order finite-difference wave
    stencils on Kokkos (two-step wave updates, eigenmode verification, stencil and
    derivative benchmarks)."""

    # Placeholders: the project has no public home yet.
    homepage = "https://github.com/wavefd/wavefd"
    git = "https://github.com/wavefd/wavefd.git"

    # No maintainers yet: add `maintainers("github-handle")` here.
    # No license(...) directive: the project has not declared one.

    version("main", branch="main")

    variant("mpi", default=True, description="Build with MPI (WAVEFD_ENABLE_MPI)")
    variant(
        "kokkos-kernels",
        default=False,
        description="Build with Kokkos Kernels (WAVEFD_ENABLE_KOKKOSKERNELS)",
    )
    variant("openmp", default=False, description="Require the OpenMP backend in Kokkos")
    # +cuda / cuda_arch come from CudaPackage, +rocm / amdgpu_target from ROCmPackage.

    # Language dependency: needed by Spack >= 1.0 to provide a C++ compiler (C++20).
    depends_on("cxx", type="build")
    depends_on("cmake@3.25:", type="build")  # cmake_minimum_required(VERSION 3.25)

    depends_on("kokkos@4.6:")  # find_package(Kokkos 4.6 REQUIRED)
    depends_on("cli11@2.3:")  # find_package(CLI11 REQUIRED)
    depends_on("nlohmann-json@3:")  # find_package(nlohmann_json 3 REQUIRED)
    depends_on("mpi", when="+mpi")  # find_package(MPI COMPONENTS CXX)
    depends_on("kokkos-kernels@4.6:", when="+kokkos-kernels")  # find_package(KokkosKernels)
    depends_on("googletest", type="test")  # ctest/: find_package(GTest REQUIRED)

    # ---- Kokkos backend pass-through ------------------------------------------------------
    # OpenMP (host).
    depends_on("kokkos+openmp", when="+openmp")

    # CUDA. Kokkos must be built with nvcc_wrapper (+wrapper), which wavefd then also uses
    # as its C++ compiler. +cuda_lambda only exists (and is only needed) up to Kokkos 4.x;
    # Kokkos 5 always enables lambdas, hence the condition on the Kokkos version.
    depends_on("kokkos+cuda+wrapper", when="+cuda")
    depends_on("kokkos+cuda_lambda", when="+cuda ^kokkos@:4")
    # Kokkos Kernels (CudaPackage too) follows; its +cuda only asks for kokkos+cuda.
    depends_on("kokkos-kernels+cuda", when="+kokkos-kernels+cuda")
    # Kokkos takes exactly one cuda_arch: give wavefd one too (e.g. cuda_arch=90 for H100).
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
        depends_on(
            f"kokkos-kernels+cuda cuda_arch={_arch}",
            when=f"+kokkos-kernels+cuda cuda_arch={_arch}",
        )
    conflicts("cuda_arch=none", when="+cuda", msg="+cuda needs cuda_arch=<GPU>, e.g. 90 (H100)")

    # ROCm/HIP. Kokkos Kernels has no +rocm variant: it is built for the HIP backend of the
    # Kokkos it depends on, which is the same kokkos node as wavefd's.
    depends_on("kokkos+rocm", when="+rocm")
    depends_on("hip", when="+rocm")  # hipcc, the C++ compiler of a HIP build
    # Kokkos takes exactly one amdgpu_target: give wavefd one too (e.g. gfx90a for MI250X).
    for _target in ROCmPackage.amdgpu_targets:
        depends_on(f"kokkos+rocm amdgpu_target={_target}", when=f"+rocm amdgpu_target={_target}")
    conflicts(
        "amdgpu_target=none", when="+rocm", msg="+rocm needs amdgpu_target=<GPU>, e.g. gfx90a"
    )

    conflicts("+cuda", when="+rocm", msg="Kokkos has one device backend: +cuda or +rocm")

    sanity_check_is_file = [join_path("bin", "wavefd")]
    sanity_check_is_dir = [join_path("share", "wavefd", "inputs")]

    def _kokkos_cxx(self):
        """The C++ compiler Kokkos was built with: nvcc_wrapper for a CUDA Kokkos."""
        kokkos = self.spec["kokkos"]
        # Spack <= 0.21: the kokkos package sets spec.kokkos_cxx in setup_dependent_package.
        cxx = getattr(kokkos, "kokkos_cxx", None)
        if not cxx:
            # Later Spack: a property of the kokkos package (what Kokkos' docs recommend).
            cxx = getattr(kokkos.package, "kokkos_cxx", None)
        if not cxx:
            cxx = join_path(self.spec["kokkos-nvcc-wrapper"].prefix.bin, "nvcc_wrapper")
        return cxx

    def _hipcc(self):
        hip = self.spec["hip"]
        return getattr(hip, "hipcc", None) or join_path(hip.prefix.bin, "hipcc")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define_from_variant("WAVEFD_ENABLE_MPI", "mpi"),
            self.define_from_variant("WAVEFD_ENABLE_KOKKOSKERNELS", "kokkos-kernels"),
            self.define("WAVEFD_ENABLE_TESTS", self.run_tests),
        ]
        if spec.satisfies("+kokkos-kernels"):
            args.append(self.define("KokkosKernels_ROOT", spec["kokkos-kernels"].prefix))

        # Same compilers as the `cuda` and `hip` presets of CMakePresets.json. Decided on the
        # Kokkos node, so that `wavefd ^kokkos+cuda ...` without +cuda builds as well.
        if spec.satisfies("^kokkos+rocm"):
            args.append(self.define("CMAKE_CXX_COMPILER", self._hipcc()))
        elif spec.satisfies("^kokkos+cuda"):
            args.append(self.define("CMAKE_CXX_COMPILER", self._kokkos_cxx()))
        return args

    def setup_build_environment(self, env):
        # As the test presets of CMakePresets.json: with tests run in parallel, OpenMP
        # threads must not be pinned (only matters for `spack install --test=root`).
        env.set("OMP_PROC_BIND", "false")

    def test_info(self):
        """`wavefd info` lists the Kokkos backend and the registered kernel variants"""
        wavefd = Executable(self.prefix.bin.wavefd)
        out = wavefd("info", output=str.split, error=str.split)
        assert "mdrange-general" in out
