# Issue 36, deliverables 3 and 4: every bad input in wavefd's one format and exit code 2 (the
# command line, CLI11's parse errors included; decks read with toml++; input files that cannot be
# read; control bytes escaped; Kokkos' own flags), decks from a pipe, and ranks that disagree.
#
# Included by ctest/CMakeLists.txt, which defines WAVEFD_EXE, QS, SMALL, DATA, CLI_DIR and, with
# MPI, MPI_ENV. The regular expressions write "; accepted" as ". accepted": a ';' would split them.

# wavefd_cli_error() with the exit code asserted as well: 2 for every bad input.
function(wavefd_input_error name regex)
  string(REPLACE ";" "|" args "${ARGN}")
  add_test(NAME cli.error.${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=${WAVEFD_EXE} "-DREGEX=${regex}" -DWORKDIR=${CLI_DIR}/${name} -DEXPECT_RC=2
                   "-DARGS=${args}" -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_expect_error.cmake)
endfunction()
# The same through `bash -c SCRIPT wavefd ARGS...` (pipes, process substitution): SCRIPT runs
# "$0", the executable.
function(wavefd_input_error_sh name regex script)
  string(REPLACE ";" "|" args "${ARGN}")
  add_test(NAME cli.error.${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=bash "-DREGEX=${regex}" -DWORKDIR=${CLI_DIR}/${name} -DEXPECT_RC=2
                   "-DARGS=-c|${script}|${WAVEFD_EXE}|${args}" -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_expect_error.cmake)
endfunction()
set(ACCEPTED_SHAPE "3 integers: Global interior points nx ny nz")

# ---- Command-line parse errors: CLI11's classes, each in wavefd's words ---------------------------
wavefd_input_error(parse_not_an_integer "grid.n = 'abc' is not an integer. accepted: ${ACCEPTED_SHAPE}"
                   "run;${QS};--grid.n;abc;32;32")
wavefd_input_error(parse_too_many_values "grid.n = 1 2 3 4 has 4 values, 3 are needed. accepted: ${ACCEPTED_SHAPE}"
                   "run;${QS};--grid.n;1;2;3;4")
wavefd_input_error(parse_no_value "scheme.steps has no value. accepted: an integer: Time steps, >= 1" "run;${QS};--scheme.steps")
wavefd_input_error(parse_not_a_number "scheme.courant = 'fast' is not a number. accepted: a number: Courant number"
                   "run;${QS};--scheme.courant;fast")
wavefd_input_error(parse_not_a_boolean "grid.pad = 'maybe' is not true or false. accepted: true or false: Pad rows"
                   "run;${QS};--grid.pad;maybe")
wavefd_input_error(parse_unknown_flag
                   "--grid.nx is not an option of wavefd run. accepted: the options `wavefd run --help` lists \\(did you mean --grid.n\\?\\)"
                   "run;${QS};--grid.nx;4")
wavefd_input_error(parse_given_twice "^wavefd: error: scheme.steps is given twice \\(10, 20\\). accepted: each key once$"
                   "run;${QS};--scheme.steps;10;--scheme.steps;20")
wavefd_input_error(parse_stray_word "'extra' is not expected here. accepted: wavefd run DECK.toml" "run;${QS};extra")
wavefd_input_error(parse_deck_not_first "'.*quickstart.toml' is not expected here. accepted: wavefd run DECK.toml"
                   "run;--scheme.steps;5;${QS}")
wavefd_input_error(parse_values_in_deck "grid.n = 16 16 has 2 values, 3 are needed \\(in deck '.*run-two-values.toml'\\)"
                   "run;${DATA}/run-two-values.toml")
wavefd_input_error(parse_integer_out_of_range "scheme.steps = 99999999999999999999999 is out of range. accepted: an integer"
                   "run;${QS};--scheme.steps;99999999999999999999999")
wavefd_input_error(parse_out_of_range "--M = 99999999999 is out of range. accepted: an integer: star: radius M"
                   "stencil;--family;star;--M;99999999999")
wavefd_input_error(parse_flag_value "--print = 'maybe' is not true or false. accepted: the flag alone, or =true.false"
                   "stencil;--print=maybe")
wavefd_input_error(parse_unknown_command
                   "command = 'frobnicate' is unknown. accepted: run, seismic, room, verify, bench, tune, probe, stencil, info"
                   "frobnicate")
wavefd_input_error(parse_no_command "command is missing. accepted: run, seismic, room, verify")
wavefd_input_error(parse_unknown_top_option "--versio is not an option of wavefd. accepted: a command \\(run, " "--versio")
wavefd_input_error(parse_seismic_without_deck "deck is missing. accepted: Seismic deck \\(TOML\\)" "seismic")
wavefd_input_error(parse_seismic_override_twice "scheme.steps is given twice \\(10, 20\\). accepted: each key once"
                   "seismic;${SMALL};--scheme.steps;10;--scheme.steps=20")
# The other commands' options map the same way.
wavefd_input_error(parse_bench_too_few "--n = 1 2 has 2 values, 3 are needed. accepted: 3 integers: Grid nx ny nz"
                   "bench;--n;1;2")
wavefd_input_error(parse_tune_ranks_delimited "--ranks = 1,1 has 2 values, 3 are needed. accepted: 3 integers: Rank grid"
                   "tune;--ranks;1,1")
wavefd_input_error(parse_probe_not_an_integer "--iters = 'x' is not an integer. accepted: an integer: Exchanges"
                   "probe;--iters;x")
wavefd_input_error(parse_verify_flag_value "--quick = '3x' is not true or false" "verify;--quick=3x")
wavefd_input_error(parse_info_unknown_flag "--foo is not an option of wavefd info" "info;--foo")
# --help and --version still answer with exit code 0.
add_test(NAME cli.help_exit_0 COMMAND wavefd run --help)
set_tests_properties(cli.help_exit_0 PROPERTIES PASS_REGULAR_EXPRESSION "--grid.n INT")
add_test(NAME cli.version_exit_0 COMMAND wavefd --version)

# Control bytes in echoed input are escaped: the line stays one line and no escape reaches the terminal.
string(ASCII 1 ctrl_a)
string(ASCII 27 escape)
string(ASCII 10 newline)
wavefd_input_error(escaped_control_bytes "scheme.variant = 'x\\\\x01\\\\x1b\\[31m\\\\x0ay' is unknown"
                   "run;${QS};--scheme.variant;x${ctrl_a}${escape}[31m${newline}y")

# ---- Decks: read with toml++ (file and line), once, from a file or a pipe -------------------------
wavefd_input_error(run_deck_syntax_error "deck .*run-broken.toml:4: Error while parsing array" "run;${DATA}/run-broken.toml")
wavefd_input_error(run_deck_table_twice "deck .*run-duplicate-table.toml:5: .*cannot redefine existing table 'grid'"
                   "run;${DATA}/run-duplicate-table.toml")
wavefd_input_error(run_deck_wrong_type
                   "deck '.*run-steps-text.toml': scheme.steps = 'ten' is a string. accepted: an integer \\(Time steps"
                   "run;${DATA}/run-steps-text.toml")
wavefd_input_error(run_deck_wrong_type_in_array "deck '.*run-mixed-array.toml': grid.n\\[1\\] = '16' is a string"
                   "run;${DATA}/run-mixed-array.toml")
wavefd_input_error(run_deck_date "run-date.toml:2: scheme.steps = 1979-05-27 cannot be given as a flag" "run;${DATA}/run-date.toml")

# ---- Input files: one message for each reason a file cannot be read ------------------------------
set(A_DIRECTORY "cannot be read: it is a directory. accepted: a readable")
wavefd_input_error(run_deck_directory "deck '.*data' ${A_DIRECTORY}" "run;${DATA}")
wavefd_input_error(run_deck_binary "deck '.*run-binary.toml' cannot be read: it holds binary data \\(a NUL byte at offset 24\\)"
                   "run;${DATA}/run-binary.toml")
wavefd_input_error(run_deck_device "deck '/dev/zero' cannot be read: it is a character device" "run;/dev/zero")
wavefd_input_error(seismic_deck_directory "deck '.*data' ${A_DIRECTORY}" "seismic;${DATA}")
wavefd_input_error(tune_seismic_deck_directory "deck '.*data' ${A_DIRECTORY}" "tune;--seismic;${DATA}")
wavefd_input_error(tuning_file_directory "scheme.tuning = '.*data' ${A_DIRECTORY}" "run;${QS};--scheme.tuning;${DATA}")
wavefd_input_error(custom_stencil_directory "stencil.file = '.*data' ${A_DIRECTORY}"
                   "run;${QS};--stencil.family;custom;--stencil.file;${DATA}")
wavefd_input_error(velocity_file_directory "velocity.file = '.*data' ${A_DIRECTORY} regular file"
                   "seismic;${SMALL};--velocity.model;file;--velocity.file;${DATA}")
wavefd_input_error_sh(velocity_file_pipe "velocity.file = '/dev/fd/[0-9]+' cannot be read: it is a pipe.*accepted: a readable regular file"
                      "exec \"$0\" \"$@\" --velocity.file <(echo not-a-model)"
                      "seismic;${SMALL};--velocity.model;file")

# Decks from a pipe work for every command that reads one (each is read once).
set(TINY_RUN --grid.n 16 16 16 --scheme.steps 2 --output.summary= --output.progress none)  # `--key=`: the empty value
add_test(NAME cli.deck_from_stdin_run COMMAND bash -c "exec \"$0\" run /dev/stdin \"$@\" < \"${QS}\"" ${WAVEFD_EXE} ${TINY_RUN})
add_test(NAME cli.deck_from_process_substitution_run
         COMMAND bash -c "exec \"$0\" run <(cat \"${QS}\") \"$@\"" ${WAVEFD_EXE} ${TINY_RUN})
set_tests_properties(cli.deck_from_stdin_run cli.deck_from_process_substitution_run PROPERTIES
                     PASS_REGULAR_EXPRESSION "wavefd run: star M=4 .*16 x 16 x 16 periodic.*wavefd run: [0-9.]+ s")
add_test(NAME cli.deck_from_stdin_seismic
         COMMAND bash -c "exec \"$0\" seismic /dev/stdin \"$@\" < \"${SMALL}\"" ${WAVEFD_EXE}
                 --scheme.steps 2 --output.summary "" --output.progress none)
set_tests_properties(cli.deck_from_stdin_seismic PROPERTIES PASS_REGULAR_EXPRESSION "wavefd seismic: [0-9.]+ s for 2 steps")
add_test(NAME cli.deck_from_process_substitution_tune_seismic
         COMMAND bash -c "exec \"$0\" tune --seismic <(cat \"${SMALL}\") \"$@\"" ${WAVEFD_EXE}
                 --variant layer --steps 1 --warmup 0 --reps 1 --tuning-file ${CLI_DIR}/pipe-tuning.json)
set_tests_properties(cli.deck_from_process_substitution_tune_seismic PROPERTIES
                     PASS_REGULAR_EXPRESSION "layer +default +inner box")
set_tests_properties(cli.deck_from_stdin_run cli.deck_from_process_substitution_run cli.deck_from_stdin_seismic
                     cli.deck_from_process_substitution_tune_seismic PROPERTIES
                     ENVIRONMENT "OMP_NUM_THREADS=2;OMP_PROC_BIND=false" TIMEOUT 120)

# ---- Kokkos' own flags, checked before Kokkos sees them -------------------------------------------
wavefd_input_error(kokkos_zero_threads
                   "^wavefd: error: --kokkos-num-threads = 0 is outside N >= 1. accepted: an integer >= 1$"
                   "run;${QS};--kokkos-num-threads=0")
wavefd_input_error(kokkos_misspelt
                   "--kokkos-num-thread is not a Kokkos flag. accepted: --kokkos-num-threads=N, --kokkos-device-id=N, "
                   "run;${QS};--kokkos-num-thread=2")
wavefd_input_error(kokkos_value_after_space
                   "--kokkos-num-threads needs its value after '=' \\(--kokkos-num-threads=2\\)" "run;${QS};--kokkos-num-threads;2")
wavefd_input_error(kokkos_negative_device "--kokkos-device-id = -1 is outside N >= 0. accepted: an integer >= 0"
                   "run;${QS};--kokkos-device-id=-1")
wavefd_input_error(kokkos_map_device_by "--kokkos-map-device-id-by = 'node' is unknown. accepted: mpi_rank, random"
                   "run;${QS};--kokkos-map-device-id-by=node")
wavefd_input_error(kokkos_not_a_boolean "--kokkos-disable-warnings = 'maybe' is not a boolean"
                   "run;${QS};--kokkos-disable-warnings=maybe")
wavefd_input_error(kokkos_given_twice "--kokkos-num-threads is given twice \\(1, 2\\)"
                   "run;${QS};--kokkos-num-threads=1;--kokkos-num-threads=2")
wavefd_input_error(kokkos_tool_library_missing "--kokkos-tools-libs = '/nonexistent/libkp_none.so' is no file"
                   "run;${QS};--kokkos-tools-libs=/nonexistent/libkp_none.so")
wavefd_input_error(kokkos_environment_zero_threads "KOKKOS_NUM_THREADS = '0' \\(environment\\) is outside N >= 1"
                   "run;${QS}")
set_tests_properties(cli.error.kokkos_environment_zero_threads PROPERTIES ENVIRONMENT "KOKKOS_NUM_THREADS=0")
add_test(NAME cli.kokkos_flags_accepted
         COMMAND wavefd run ${QS} ${TINY_RUN} --kokkos-num-threads=2 --kokkos-disable-warnings --kokkos-tune-internals=no)
set_tests_properties(cli.kokkos_flags_accepted PROPERTIES PASS_REGULAR_EXPRESSION "wavefd run: [0-9.]+ s"
                     FAIL_REGULAR_EXPRESSION "Warning|error")

# ---- Rank agreement: ranks started with different settings stop together ------------------------
# MPMD launches, `mpiexec -n A wavefd ARGS_A : -n B wavefd ARGS_B`: one line from rank 0, exit code
# 2, no hang (the harness's timeout), no MPI_Abort banner.
if(WAVEFD_HAVE_MPI)
  function(wavefd_mpmd_error name regex np_a args_a np_b args_b)
    string(REPLACE ";" "|" a "${args_a}")
    string(REPLACE ";" "|" b "${args_b}")
    math(EXPR np "${np_a} + ${np_b}")
    set(launcher "${MPIEXEC_EXECUTABLE}|${MPIEXEC_NUMPROC_FLAG}|${np_a}|${WAVEFD_EXE}|${a}|:|${MPIEXEC_NUMPROC_FLAG}|${np_b}")
    add_test(NAME mpi.error.${name}_np_${np}
             COMMAND ${CMAKE_COMMAND} -DEXE=${WAVEFD_EXE} "-DREGEX=${regex}" -DWORKDIR=${CLI_DIR}/mpmd_${name}_${np}
                     -DEXPECT_RC=2 "-DARGS=${b}" "-DLAUNCHER=${launcher}" -P ${CMAKE_CURRENT_SOURCE_DIR}/cli_expect_error.cmake)
    set_tests_properties(mpi.error.${name}_np_${np} PROPERTIES TIMEOUT 90 ENVIRONMENT "${MPI_ENV}")
  endfunction()
  set(DISAGREE "accepted: the same configuration on every rank$")
  wavefd_mpmd_error(agree_steps "the ranks disagree: scheme.steps = 2 on rank 0, 3 on rank 1. ${DISAGREE}"
                    1 "run;${QS};--scheme.steps;2" 1 "run;${QS};--scheme.steps;3")
  wavefd_mpmd_error(agree_steps "the ranks disagree: scheme.steps = 2 on rank 0, 3 on rank 2 \\(and 1 other rank\\). ${DISAGREE}"
                    2 "run;${QS};--scheme.steps;2" 2 "run;${QS};--scheme.steps;3")
  wavefd_mpmd_error(agree_steps_one_of_four "scheme.steps = 3 on rank 0, 2 on rank 1 \\(and 2 other ranks\\)"
                    1 "run;${QS};--scheme.steps;3" 3 "run;${QS};--scheme.steps;2")
  wavefd_mpmd_error(agree_run_and_seismic "the ranks disagree: command = run on rank 0, seismic on rank 1. ${DISAGREE}"
                    1 "run;${QS}" 1 "seismic;${SMALL}")
  wavefd_mpmd_error(agree_run_and_seismic "command = seismic on rank 0, run on rank 2 \\(and 1 other rank\\)"
                    2 "seismic;${SMALL}" 2 "run;${QS}")
  wavefd_mpmd_error(agree_run_and_stencil "command = run on rank 0, stencil on rank 1" 1 "run;${QS}" 1 "stencil")
  wavefd_mpmd_error(agree_help_and_run "command = run --help on rank 0, run on rank 1" 1 "run;--help" 1 "run;${QS}")
  wavefd_mpmd_error(agree_deck_files "grid.n = 128 128 128 on rank 0, 20 16 16 on rank 1"
                    1 "run;${QS}" 1 "run;${DATA}/run-other-grid.toml")
  wavefd_mpmd_error(agree_deck_files "grid.n = 128 128 128 on rank 0, 20 16 16 on rank 2 \\(and 1 other rank\\)"
                    2 "run;${QS}" 2 "run;${DATA}/run-other-grid.toml")
  wavefd_mpmd_error(agree_seismic_overrides "scheme.steps = 2 on rank 0, 3 on rank 1"
                    1 "seismic;${SMALL};--scheme.steps;2" 1 "seismic;${SMALL};--scheme.steps;3")
  wavefd_mpmd_error(agree_bench_options "--n = 16 16 16 on rank 0, 24 16 16 on rank 1"
                    1 "bench;--n;16;16;16" 1 "bench;--n;24;16;16")
  # A parse error on one rank is still that rank's own message, once.
  wavefd_mpmd_error(agree_parse_error_on_one_rank "rank 1: --grid.nx is not an option of wavefd run"
                    1 "run;${QS}" 1 "run;${QS};--grid.nx;3")
  # Copies of one deck, and Kokkos flags that differ per rank, are the same configuration: it runs.
  configure_file(${QS} ${CLI_DIR}/quickstart-copy.toml COPYONLY)
  add_test(NAME mpi.agree_deck_copies_np_2
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 1 ${WAVEFD_EXE} run ${QS} ${TINY_RUN} --kokkos-num-threads=1
                   : ${MPIEXEC_NUMPROC_FLAG} 1 ${WAVEFD_EXE} run ${CLI_DIR}/quickstart-copy.toml ${TINY_RUN})
  set_tests_properties(mpi.agree_deck_copies_np_2 PROPERTIES TIMEOUT 90 ENVIRONMENT "${MPI_ENV}"
                       PASS_REGULAR_EXPRESSION "2 rank\\(s\\) as \\[1, 1, 2\\].*wavefd run: [0-9.]+ s")
endif()
