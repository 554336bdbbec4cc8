# Spack recipe for kissfft, whose CMake package `wavefd +audio` uses (air absorption's short-time
# Fourier filter: kissfft::kissfft-float). Spack's builtin packages have none (spack-packages up
# to 2026-07 checked, under the names kissfft and kiss-fft), so this repository brings it. Only
# the float library (libkissfft-float) is built, with its headers (include/kissfft/) and its
# CMake package (lib/cmake/kissfft/ or lib64/...): no other datatype, tools, tests or pkg-config
# files. The versions are git tags (plain, not annotated) pinned to their commits.

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Kissfft(CMakePackage):
    """KISS FFT: a small mixed-radix FFT library in C, with real-input transforms (kiss_fftr)."""

    homepage = "https://github.com/mborgerding/kissfft"
    git = "https://github.com/mborgerding/kissfft.git"

    license("BSD-3-Clause")

    version("131.2.0", tag="131.2.0", commit="7bce4153c6bc8aba2db0e889e576f9d00505cbe1")
    version("131.1.0", tag="131.1.0", commit="8f47a67f595a6641c566087bf5277034be64f24d")

    variant("shared", default=True, description="Build a shared library (KISSFFT_STATIC=OFF)")

    depends_on("c", type="build")
    depends_on("cxx", type="build")  # project(kissfft) without LANGUAGES enables C and C++
    depends_on("cmake@3.6:", type="build", when="@:131.1")
    depends_on("cmake@3.10:", type="build", when="@131.2:")

    def patch(self):
        # The installed kissfft-config.cmake of 131.1.0 calls cmake_minimum_required(VERSION 3.3),
        # which CMake 4 refuses in every project that loads it (131.2.0 asks for 3.10). The
        # ...max form keeps 3.3 as the minimum and lets CMake 4 read it.
        if self.spec.satisfies("@:131.1"):
            filter_file(
                r"cmake_minimum_required\(VERSION 3\.3\)",
                "cmake_minimum_required(VERSION 3.3...3.10)",
                "kissfft-config.cmake.in",
            )

    def cmake_args(self):
        return [
            self.define("KISSFFT_DATATYPE", "float"),  # kiss_fft_scalar: kissfft::kissfft-float
            self.define("KISSFFT_STATIC", self.spec.satisfies("~shared")),
            self.define("KISSFFT_OPENMP", False),
            self.define("KISSFFT_TEST", False),
            self.define("KISSFFT_TOOLS", False),
            self.define("KISSFFT_PKGCONFIG", False),
        ]
