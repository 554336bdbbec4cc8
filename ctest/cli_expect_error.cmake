# Runs EXE with ARGS in a fresh WORKDIR and asserts the contract for bad input: exit code != 0,
# exactly one line on stderr matching REGEX and starting with "PREFIX: error:" (PREFIX: wavefd
# unless given, e.g. a script's name), and no file left behind (no partial summary). With LAUNCHER
# (mpiexec -n N ...) every rank runs it: the error is still printed once, no rank hangs (TIMEOUT),
# and only the launcher may add lines of its own.
if(NOT PREFIX)
  set(PREFIX wavefd)
endif()
string(REPLACE "|" ";" ARGS "${ARGS}")
string(REPLACE "|" ";" LAUNCHER "${LAUNCHER}")
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR})
execute_process(COMMAND ${LAUNCHER} ${EXE} ${ARGS} WORKING_DIRECTORY ${WORKDIR} TIMEOUT 60
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(LAUNCHER)
  # Keep our lines only: the launcher reports the non-zero exit in its own words.
  string(REPLACE ";" "<semicolon>" err "${err}")  # MATCHALL returns a list, split at ';'
  string(REGEX MATCHALL "${PREFIX}[^\n]*" ours "${err}")
  list(JOIN ours "\n" err)
  string(REPLACE "<semicolon>" ";" err "${err}")
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit code; got 0\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT rc MATCHES "^[0-9]+$")
  message(FATAL_ERROR "the program did not exit normally: ${rc}\nstderr: ${err}")
endif()
string(STRIP "${err}" err_stripped)
string(REGEX MATCHALL "\n" newlines "${err_stripped}")
list(LENGTH newlines n_newlines)
if(NOT n_newlines EQUAL 0)
  message(FATAL_ERROR "expected one line on stderr, got:\n${err}")
endif()
if(NOT err_stripped MATCHES "^${PREFIX}: error: " OR NOT err_stripped MATCHES "${REGEX}")
  message(FATAL_ERROR "stderr does not match '${REGEX}':\n${err}")
endif()
file(GLOB left ${WORKDIR}/*)
if(left)
  message(FATAL_ERROR "files left behind: ${left}")
endif()
message(STATUS "rc=${rc}: ${err_stripped}")
