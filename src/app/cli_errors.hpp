#pragma once
// The command line's errors in wavefd's one format, "<parameter> = <value> ...; accepted: <range>":
// the words are checked against the options CLI11 knows before CLI11 parses them (an unknown
// flag, a key given twice, too few or too many values, a value that is no number), so that its
// own messages and exit codes never reach the user; what CLI11 still refuses is mapped after.
// And the error line itself: whatever input it echoes is made safe for a terminal; and the parsed
// command line as the ranks compare it.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "wavefd/parallel.hpp"

namespace wavefd::app {

// Checks `args` (the words after the program name, `run`'s deck expanded: its words run up to
// `deck_end`, the flags from the command line follow) against the commands and options of
// `app`. Throws Error naming the first problem. --help and --version pass: CLI11 answers them.
void check_words(const CLI::App& app, const std::vector<std::string>& args, std::size_t deck_end = 0);

// Refuses a key given twice among `overrides` (seismic: "--section.key value..." words).
void check_given_once(const std::vector<std::string>& overrides);

// The command `sub` (parsed) as the ranks compare it: {"command", name}, then every option's
// value (given, or its default) in a normal form (true for 1, 0.5 for .50), keyed as messages
// name it. Not the deck's path (ranks may read copies of one deck) nor Kokkos' flags (the device
// differs per rank), which never reach CLI11.
Settings option_settings(const CLI::App& sub);

// A CLI11 error that check_words did not foresee, as one line in wavefd's format.
std::string explain(const CLI::ParseError& e, const CLI::App& app, const std::vector<std::string>& args);

// `text` as a terminal shows it safely on one line: control bytes (newlines and escapes among
// them), C1 controls, line separators and bidirectional overrides as \xNN, invalid UTF-8 bytes too.
std::string printable(const std::string& text);

}  // namespace wavefd::app
