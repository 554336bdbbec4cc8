#pragma once
// Kokkos' own command-line flags (--kokkos-...), checked before Kokkos::initialize sees them:
// Kokkos aborts with a backtrace on a bad value (--kokkos-num-threads=0) and only warns about a
// flag it does not know, then runs on. The flags and their forms are those of Kokkos 4.6 to 5.2
// (core/src/impl/Kokkos_Core.cpp and Kokkos_Profiling.cpp): every value follows '=' (Kokkos
// takes no `--kokkos-num-threads 4`), booleans may stand alone.
#include <string>
#include <vector>

namespace wavefd::app {

// Throws Error naming the first bad flag: one Kokkos does not know (listing those it does), a
// missing or malformed value, a value out of range, a flag given twice, a tool library path that
// is no file; and the KOKKOS_* environment variables Kokkos would abort on (KOKKOS_NUM_THREADS=0). `flags` are the words
// that start with --kokkos-; `next` holds, for each, the word after it on the command line (''
// at the end), so `--kokkos-num-threads 4` is told to write `--kokkos-num-threads=4`.
void check_kokkos_flags(const std::vector<std::string>& flags, const std::vector<std::string>& next);

}  // namespace wavefd::app
