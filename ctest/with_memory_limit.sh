#!/bin/sh
# with_memory_limit.sh KBYTES PROGRAM [ARG...]: runs PROGRAM with its virtual memory limited (ulimit -v),
# so that one rank of an MPI job (mpiexec's MPMD form) can be made to fail an allocation.
limit=$1
shift
ulimit -v "$limit" || exit 97
exec "$@"
