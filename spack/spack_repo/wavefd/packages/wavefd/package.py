# Spack recipe for wavefd. It mirrors the top-level CMakeLists.txt:
#
#   Spack                       CMake
#   +mpi / ~mpi                 -DWAVEFD_ENABLE_MPI=ON / OFF
#   +kokkos-kernels / ~...      -DWAVEFD_ENABLE_KOKKOSKERNELS=ON / OFF
#   +nccl / ~nccl (+cuda +mpi)  -DWAVEFD_ENABLE_NCCL=ON / OFF (OFF on every other spec), NCCL_ROOT
#   +segyio / ~segyio           -DWAVEFD_ENABLE_SEGYIO=ON / OFF (segyio: packages/segyio here)
#   +audio / ~audio             -DWAVEFD_ENABLE_AUDIO=ON / OFF, sndfile_ROOT and soxr_ROOT in the
#                               environment (libsndfile: builtin; soxr, kissfft: packages/ here)
#   +mesh / ~mesh               -DWAVEFD_ENABLE_MESH=ON / OFF (assimp, cgal: builtin)
#   spack install --test=root   -DWAVEFD_ENABLE_TESTS=ON (OFF otherwise)
#   (always)                    -DKokkos_ROOT=<kokkos prefix>
#   (always)                    -DWAVEFD_HOST_ARCH= (empty: Spack's compiler wrapper passes the
#                               target's -march itself)
#   +cuda                       -DCMAKE_CXX_COMPILER=<Kokkos' compiler: nvcc_wrapper>
#   +rocm                       -DCMAKE_CXX_COMPILER=<hipcc>
#
# The CMake options default to AUTO (ON when found); Spack always passes ON or OFF, so what
# gets linked follows the spec and never what else happens to be installed.
# Every CMake option the project adds gets its variant here and a row in spack/README.md.
#
# Package API v2 layout (spack_repo/wavefd/packages/wavefd/package.py), read by Spack 1.0 and
# later with the builtin packages of spack-packages v2025.07 or later
# (scripts/check_spack_recipe.sh, scripts/check_spack_install.sh).

import os

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage
from spack_repo.builtin.build_systems.rocm import ROCmPackage

from spack.package import *

#: The wavefd checkout this recipe lives in: <root>/spack/spack_repo/wavefd/packages/wavefd/.
_CHECKOUT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), *[".."] * 5))


class Wavefd(CMakePackage, CudaPackage, ROCmPackage):
    """wavefd: a performance-portable proxy app for high-order finite-difference wave
    stencils on Kokkos (two-step wave updates, eigenmode verification, stencil and
    derivative benchmarks)."""

    # The project has no public home: every version is built from a checkout. The usual way is
    # `spack develop --path <checkout> wavefd@main` (the environments in spack/environments do
    # it for you), which builds the checkout's working tree. Without `spack develop`, Spack clones
    # the `main` branch of the local checkout this recipe lives in (never a network URL).
    git = f"file://{_CHECKOUT}"

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
    variant(
        "nccl",
        default=True,
        when="+cuda+mpi",
        description="NCCL halo transport, parallel.transport = nccl (WAVEFD_ENABLE_NCCL)",
    )
    variant(
        "segyio",
        default=False,
        description="SEG-Y receiver traces and velocity models through segyio (WAVEFD_ENABLE_SEGYIO)",
    )
    variant(
        "audio",
        default=False,
        description="Room responses as WAV, audio-file sources and air absorption through "
        "libsndfile, libsoxr and kissfft (WAVEFD_ENABLE_AUDIO)",
    )
    variant(
        "mesh",
        default=False,
        description="Rooms from triangle meshes through assimp and CGAL (WAVEFD_ENABLE_MESH)",
    )
    # +cuda / cuda_arch come from CudaPackage, +rocm / amdgpu_target (and hip) from ROCmPackage.

    # Language dependency: needed by Spack >= 1.0 to provide a C++ compiler (C++20).
    depends_on("cxx", type="build")
    depends_on("cmake@3.25:", type="build")  # cmake_minimum_required(VERSION 3.25)

    # The Kokkos releases wavefd is tested with (README: Kokkos 4.6 ... 5.2).
    depends_on("kokkos@4.6:5.2")  # find_package(Kokkos 4.6 REQUIRED)
    depends_on("cli11@2.3:")  # find_package(CLI11 REQUIRED)
    depends_on("nlohmann-json@3:")  # find_package(nlohmann_json 3 REQUIRED)
    depends_on("tomlplusplus@3:")  # find_package(tomlplusplus 3 REQUIRED): seismic decks
    depends_on("mpi", when="+mpi")  # find_package(MPI COMPONENTS CXX)
    depends_on("kokkos-kernels@4.6:5.2", when="+kokkos-kernels")  # find_package(KokkosKernels)
    depends_on("segyio", when="+segyio")  # segyio/segy.h and libsegyio, found through segyio_ROOT
    # Audio: sndfile.h + libsndfile and soxr.h + libsoxr, found through $sndfile_ROOT / $soxr_ROOT
    # (set below); kissfft's CMake package (kissfft::kissfft-float) through CMAKE_PREFIX_PATH.
    depends_on("libsndfile", when="+audio")
    depends_on("soxr", when="+audio")
    depends_on("kissfft", when="+audio")
    # Meshes: assimp's and CGAL's CMake packages (assimp::assimp, CGAL::CGAL) through
    # CMAKE_PREFIX_PATH. assimp 5.1 is the first whose CMake package is the one CMake generates
    # (install(EXPORT), namespace assimp::); 5.0's was written by hand. src/room/room_mesh.cpp
    # uses CGAL::AABB_traits_3 and AABB_triangle_primitive_3, which CGAL 6.0 introduced. CGAL 5
    # and later is header-only; Spack's cgal brings boost (and gmp, mpfr with its default +gmp).
    depends_on("assimp@5.1:", when="+mesh")
    depends_on("cgal@6:", when="+mesh")
    depends_on("googletest", type="test")  # ctest/: find_package(GTest REQUIRED)

    # wavefd is C++20 (CMAKE_CXX_STANDARD 20): Kokkos must be built for the same standard.
    # Kokkos 4.x defaults to cxxstd=17, 5.x to 20; this makes the concretizer pick 20 or 23.
    conflicts("^kokkos cxxstd=17", msg="wavefd is C++20: build Kokkos with cxxstd=20")

    # ---- Kokkos backend pass-through ------------------------------------------------------
    # The backend is chosen on wavefd; a backend asked for on Kokkos alone (`^kokkos+cuda`)
    # turns it on for wavefd too, so that wavefd's own CUDA/HIP sources meet the right compiler.
    requires("+cuda", when="^kokkos+cuda", msg="a CUDA Kokkos needs wavefd +cuda cuda_arch=<GPU>")
    requires("+rocm", when="^kokkos+rocm", msg="a HIP Kokkos needs wavefd +rocm amdgpu_target=<GPU>")

    # OpenMP (host).
    depends_on("kokkos+openmp", when="+openmp")

    # CUDA. Kokkos must be built with nvcc_wrapper (+wrapper), which wavefd then also uses
    # as its C++ compiler. Kokkos 4.x also needs +cuda_lambda (Kokkos 5 always enables
    # lambdas and has no such variant): a conflict rather than a dependency, since a
    # dependency on kokkos conditional on kokkos' own version is self-referential.
    depends_on("kokkos+cuda+wrapper", when="+cuda")
    conflicts(
        "^kokkos~cuda_lambda", when="+cuda ^kokkos@:4", msg="Kokkos 4.x with CUDA needs +cuda_lambda"
    )
    # Kokkos Kernels (CudaPackage too) follows; its +cuda only asks for kokkos+cuda.
    depends_on("kokkos-kernels+cuda", when="+kokkos-kernels+cuda")
    # NCCL (nccl.h and libnccl, found through NCCL_ROOT). Spack's nccl refuses cuda_arch=none,
    # so it gets wavefd's cuda_arch, below; a bare depends_on("nccl") cannot concretize.
    depends_on("nccl+cuda", when="+nccl")
    # Kokkos takes exactly one cuda_arch, and wavefd's mirrors it (e.g. cuda_arch=90 for
    # H100), whichever of the two the user gave it on.
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
        requires(f"cuda_arch={_arch}", when=f"^kokkos+cuda cuda_arch={_arch}")
        depends_on(
            f"kokkos-kernels+cuda cuda_arch={_arch}",
            when=f"+kokkos-kernels+cuda cuda_arch={_arch}",
        )
        depends_on(f"nccl+cuda cuda_arch={_arch}", when=f"+nccl cuda_arch={_arch}")
    conflicts("cuda_arch=none", when="+cuda", msg="+cuda needs cuda_arch=<GPU>, e.g. 90 (H100)")

    # ROCm/HIP. Kokkos Kernels has no +rocm variant: it is built for the HIP backend of the
    # Kokkos it depends on, which is the same kokkos node as wavefd's. hipcc comes with the
    # `hip` dependency of ROCmPackage.
    depends_on("kokkos+rocm", when="+rocm")
    # Kokkos takes exactly one amdgpu_target, and wavefd's mirrors it (e.g. gfx90a for MI250X).
    for _target in ROCmPackage.amdgpu_targets:
        depends_on(f"kokkos+rocm amdgpu_target={_target}", when=f"+rocm amdgpu_target={_target}")
        requires(f"amdgpu_target={_target}", when=f"^kokkos+rocm amdgpu_target={_target}")
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
            # Spack's compiler wrapper passes the target's -march itself.
            self.define("WAVEFD_HOST_ARCH", ""),
        ]
        if spec.satisfies("+kokkos-kernels"):
            args.append(self.define("KokkosKernels_ROOT", spec["kokkos-kernels"].prefix))
        args.append(self.define("WAVEFD_ENABLE_NCCL", spec.satisfies("+nccl")))
        args.append(self.define_from_variant("WAVEFD_ENABLE_SEGYIO", "segyio"))
        if spec.satisfies("+segyio"):
            args.append(self.define("segyio_ROOT", spec["segyio"].prefix))
        # kissfft, assimp and CGAL are found as CMake packages, with no hint of ours: Spack's
        # CMakePackage (CMakeBuilder.std_args) always passes -DCMAKE_PREFIX_PATH, the prefixes of
        # the direct build/test dependencies and of all link dependencies, transitively (cgal's
        # boost, gmp, mpfr and eigen too), where find_package(<name> CONFIG) looks in
        # <prefix>/lib*/cmake/<name>*/ (get_cmake_prefix_path; system prefixes are left out).
        args.append(self.define_from_variant("WAVEFD_ENABLE_AUDIO", "audio"))
        args.append(self.define_from_variant("WAVEFD_ENABLE_MESH", "mesh"))

        # Same compilers as the `cuda` and `hip` presets of CMakePresets.json.
        if spec.satisfies("+rocm"):
            args.append(self.define("CMAKE_CXX_COMPILER", self._hipcc()))
        elif spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CXX_COMPILER", self._kokkos_cxx()))
        return args

    def setup_build_environment(self, env):
        # CMakeLists.txt looks for nccl.h and libnccl under $NCCL_ROOT (NCCL has no CMake package).
        if self.spec.satisfies("+nccl"):
            env.set("NCCL_ROOT", self.spec["nccl"].prefix)
        # It looks for sndfile.h / libsndfile and soxr.h / libsoxr under $sndfile_ROOT and
        # $soxr_ROOT: HINTS ENV only, since a find_path / find_library outside a find module
        # reads no -Dsndfile_ROOT (unlike segyio's, which names ${segyio_ROOT} too).
        if self.spec.satisfies("+audio"):
            env.set("sndfile_ROOT", self.spec["libsndfile"].prefix)
            env.set("soxr_ROOT", self.spec["soxr"].prefix)
        # As the test presets of CMakePresets.json: with tests run in parallel, OpenMP
        # threads must not be pinned (only matters for `spack install --test=root`).
        env.set("OMP_PROC_BIND", "false")

    # Stand-alone tests (`spack test run wavefd`): they need no GPU, so they also pass on
    # the login node of a GPU cluster, where the installed binary is usually checked.
    def test_version(self):
        """`wavefd --version` prints the version the package was built from"""
        wavefd = Executable(self.prefix.bin.wavefd)
        out = wavefd("--version", output=str, error=str)
        assert out.strip(), "wavefd --version printed nothing"

    def test_stencil(self):
        """`wavefd stencil` builds the 25-point star stencil and its stability limit"""
        wavefd = Executable(self.prefix.bin.wavefd)
        out = wavefd("stencil", "--family", "star", "--M", "4", output=str, error=str)
        assert "K: 25" in out, out
        assert "radius: 4" in out, out
