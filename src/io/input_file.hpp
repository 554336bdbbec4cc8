#pragma once
// Input files (decks, stencil files, the tuning file, velocity models): every condition that keeps
// one from being read is one Error, "<subject> cannot be read: <why>; accepted: ...", where
// <subject> is how the message names the file ("deck 'x.toml'", "velocity.file = 'v.bin'").
// Plain POSIX, no Kokkos: used by the stencil and seismic libraries as well.
#include <optional>
#include <string>

namespace wavefd {

// The whole text of `path`, read once per process: a later call for the same path returns the
// same text (unless it is a regular file that changed since), so a deck given as a pipe (`<(...)`,
// /dev/stdin) is read by main() and found again by the command. Regular files and pipes only (a
// device could be endless); text only (a NUL byte is refused); at most 64 MiB.
const std::string& read_input(const std::string& path, const std::string& subject);

// The same checks, read now on every call (files wavefd itself rewrites, like the tuning file);
// nullopt when `path` does not exist and `missing_ok`.
std::optional<std::string> read_input_now(const std::string& path, const std::string& subject, bool missing_ok);

// What a file that is not a regular one is, for messages: "a directory", "a pipe (FIFO)".
std::string file_kind(unsigned mode);

// For readers that open `path` themselves and seek in it (velocity models): throws the same
// Errors unless it is a regular file this process can read.
void check_regular_input(const std::string& path, const std::string& subject);

}  // namespace wavefd
