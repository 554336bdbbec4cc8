# Spack recipe for segyio's C library, which `wavefd +segyio` links (WAVEFD_ENABLE_SEGYIO). Spack's
# builtin packages have none (spack-packages up to 2026-07 checked), so this repository brings it.
# Only the C library and its header are built: no Python bindings, applications, Matlab files or
# manuals. The versions are git tags pinned to their commits.

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Segyio(CMakePackage):
    """segyio: a small C library for reading and writing SEG-Y and Seismic Unix files (its Python
    bindings are not built by this recipe)."""

    homepage = "https://github.com/equinor/segyio"
    git = "https://github.com/equinor/segyio.git"

    license("LGPL-3.0-only")

    version("1.9.14", tag="v1.9.14", commit="88ffaa6c3f33e3085948127740b2eb1e797fa73f")
    version("1.9.13", tag="v1.9.13", commit="142e45a2b941a1b603723c38882b193db1c1d968")

    variant("shared", default=True, description="Build libsegyio as a shared library")

    depends_on("c", type="build")
    depends_on("cxx", type="build")  # project(segyio LANGUAGES C CXX)
    depends_on("cmake@3.18:", type="build")

    def cmake_args(self):
        v = self.spec.version
        return [
            self.define_from_variant("BUILD_SHARED_LIBS", "shared"),
            self.define("BUILD_PYTHON", False),
            self.define("BUILD_BIN", False),
            self.define("BUILD_MEX", False),
            self.define("BUILD_DOC", False),
            self.define("BUILD_TESTING", False),
            # The version otherwise comes from `git describe`, which a clone without tags lacks.
            self.define("segyio_MAJOR", str(v[0])),
            self.define("segyio_MINOR", str(v[1])),
            self.define("segyio_PATCH", str(v[2])),
        ]
