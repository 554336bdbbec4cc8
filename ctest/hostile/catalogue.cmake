# The catalogue of hostile inputs and faults (issue 36's acceptance): ctest/hostile/catalogue.py runs
# the cases of one file of ctest/hostile/cases/ per test, hostile.<file>, each case in a fresh work
# directory with a timeout, and checks the contract (one line, exit code 2, nothing left behind,
# nothing lost, no hang, no crash; on 1 and on several ranks). `ctest -R hostile -V` shows one
# line per case; `python3 ctest/hostile/catalogue.py --exe build/openmp/wavefd --only REGEX` runs
# cases by hand (ctest/hostile/README.md).
#
# Included by ctest/CMakeLists.txt, which defines WAVEFD_EXE, QS, SMALL, DATA, CLI_DIR, the MPI
# variables, WAVEFD_HAVE_SEGYIO and Python3_*.
# The catalogue checks input and output handling, which the Kokkos backend does not change, and takes
# about 6 minutes of the CI machine's 2 cores: by default it is registered in one configuration, the
# one whose Kokkos has OpenMP (the openmp preset), not again in serial-kk. -DWAVEFD_HOSTILE_CATALOGUE=ON
# registers it anywhere.
if(Kokkos_ENABLE_OPENMP)
  set(hostile_default ON)
else()
  set(hostile_default OFF)
endif()
option(WAVEFD_HOSTILE_CATALOGUE "Register the catalogue of hostile inputs (ctest -R hostile)" ${hostile_default})
if(NOT WAVEFD_HOSTILE_CATALOGUE)
  message(STATUS "wavefd: the hostile-input catalogue is not registered (WAVEFD_HOSTILE_CATALOGUE=OFF)")
  return()
endif()
if(NOT Python3_FOUND OR Python3_VERSION VERSION_LESS 3.12)
  message(STATUS "wavefd: the hostile-input catalogue needs Python 3.12 or later (found ${Python3_VERSION}); not registered")
  return()
endif()

set(HOSTILE_DIR ${CMAKE_CURRENT_LIST_DIR})
# --strict-accepted: every error line of a bad input states what is accepted (issue 36's format).
set(HOSTILE_ARGS --exe ${WAVEFD_EXE} --qs ${QS} --small ${SMALL} --data ${DATA} --tmp ${CLI_DIR}/hostile
    --strict-accepted)
if(WAVEFD_HAVE_MPI)
  list(APPEND HOSTILE_ARGS --mpi --mpiexec ${MPIEXEC_EXECUTABLE} "--np-flag=${MPIEXEC_NUMPROC_FLAG}")
else()
  list(APPEND HOSTILE_ARGS --no-mpi)
endif()
if(WAVEFD_HAVE_SEGYIO)
  list(APPEND HOSTILE_ARGS --segyio)
else()
  list(APPEND HOSTILE_ARGS --no-segyio)
endif()

file(GLOB hostile_files CONFIGURE_DEPENDS ${HOSTILE_DIR}/cases/*.toml)
foreach(case_file IN LISTS hostile_files)
  get_filename_component(name ${case_file} NAME_WE)
  # Every case of mpi.toml runs under mpiexec; elsewhere the several-rank runs are skipped without MPI.
  if(name STREQUAL "mpi" AND NOT WAVEFD_HAVE_MPI)
    continue()
  endif()
  # A file whose every case needs segyio is named *segy*.toml.
  if(name MATCHES "segy" AND NOT WAVEFD_HAVE_SEGYIO)
    continue()
  endif()
  # Each file states how long CTest may give it (`ctest_timeout = N`, seconds): a hang fails its case
  # at the case's own timeout, so only a catalogue that hangs itself reaches this one.
  file(STRINGS ${case_file} timeout_line REGEX "^ctest_timeout *= *[0-9]+")
  set(timeout 900)
  if(timeout_line)
    string(REGEX REPLACE "^ctest_timeout *= *([0-9]+).*" "\\1" timeout "${timeout_line}")
  endif()
  add_test(NAME hostile.${name}
           COMMAND ${Python3_EXECUTABLE} ${HOSTILE_DIR}/catalogue.py ${HOSTILE_ARGS} ${case_file})
  set_tests_properties(hostile.${name} PROPERTIES TIMEOUT ${timeout} LABELS hostile
                       ENVIRONMENT "OMP_NUM_THREADS=2;OMP_PROC_BIND=false")
  # Files that start several ranks or long runs at once take both cores.
  if(name STREQUAL "mpi" OR name STREQUAL "faults" OR name STREQUAL "sizes_overflow")
    set_tests_properties(hostile.${name} PROPERTIES PROCESSORS 2)
  endif()
endforeach()
