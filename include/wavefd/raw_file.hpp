#pragma once
// Raw output files of the seismic model (traces, wavefield slices): one line of JSON naming the
// content, then little-endian float32 values, readable by numpy. A file is written whole or not
// at all: into a temporary name beside it, then renamed.
#include <functional>
#include <string>
#include <vector>

namespace wavefd {

// The directory `path` would be created in, when it is missing or not writable; else "".
std::string unwritable_directory(const std::string& path);
// Throws Error naming `key` when `path` could not be created (its directory missing or read-only).
void check_output_path(const std::string& path, const std::string& key);

// Writes a file whole or not at all: `write` fills the temporary file it is given (a path beside
// `path`) and returns false when it could not; then that file is renamed to `path`. Throws Error
// naming `key` when `write` failed or the rename did, leaving neither file behind.
void write_atomically(const std::string& path, const std::string& key,
                      const std::function<bool(const std::string& temporary)>& write);

// Writes `header` (one line, no newline in it) and `values`; throws Error naming `key` when it
// cannot, leaving neither the temporary file nor a partial `path`.
void write_raw_file(const std::string& path, const std::string& header, const std::vector<float>& values,
                    const std::string& key);

}  // namespace wavefd
