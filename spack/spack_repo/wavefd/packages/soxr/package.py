# Spack recipe for libsoxr, the SoX resampler, which `wavefd +audio` links (WAVEFD_ENABLE_AUDIO).
# Spack's builtin packages have none (spack-packages up to 2026-07 checked, under the names soxr
# and libsoxr), so this repository brings it. Only libsoxr and soxr.h are built: no
# libsamplerate-like libsoxr-lsr, tests or examples. The versions are git tags pinned to their
# commits.

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Soxr(CMakePackage):
    """libsoxr, the SoX Resampler library: one-dimensional sample-rate conversion in C (the
    libsamplerate-like bindings are not built by this recipe)."""

    homepage = "https://sourceforge.net/projects/soxr/"
    git = "https://git.code.sf.net/p/soxr/code"

    license("LGPL-2.1-or-later")

    # The annotated tag 0.1.3 (object 6e80f8b5...) points to this commit.
    version("0.1.3", tag="0.1.3", commit="945b592b70470e29f917f4de89b4281fbbd540c0")

    variant("shared", default=True, description="Build libsoxr as a shared library")
    variant("openmp", default=False, description="OpenMP threads across channels (WITH_OPENMP)")

    depends_on("c", type="build")  # project(soxr C)
    depends_on("cmake@3.1:", type="build")

    def cmake_args(self):
        return [
            self.define_from_variant("BUILD_SHARED_LIBS", "shared"),
            self.define_from_variant("WITH_OPENMP", "openmp"),
            self.define("WITH_LSR_BINDINGS", False),
            # soxr's own FFT (PFFFT, bundled), never an installed libavcodec.
            self.define("WITH_AVFFT", False),
            self.define("BUILD_TESTS", False),
            self.define("BUILD_EXAMPLES", False),
            # 0.1.3 asks for cmake_minimum_required(VERSION 3.1), which CMake 4 refuses unless
            # this is set (CMake 3 ignores it). Spack's cmake@4 also sets it in the environment.
            self.define("CMAKE_POLICY_VERSION_MINIMUM", "3.5"),
        ]
