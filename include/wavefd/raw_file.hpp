#pragma once
// Raw output files of the seismic model (traces, wavefield slices): one line of JSON naming the
// content, then little-endian float32 values, readable by numpy. Written through OutputFile
// (output_file.hpp): whole or not at all.
#include <functional>
#include <string>
#include <vector>

#include "wavefd/output_file.hpp"

namespace wavefd {

// For writers that open files by name (segyio): `write` fills the temporary file it is given and
// returns false when it could not; then the file is committed. Throws Error naming `key` when
// `write` failed or the commit did, leaving neither file behind.
void write_atomically(const std::string& path, const std::string& key,
                      const std::function<bool(const std::string& temporary)>& write, Sync sync = Sync::data);

// Writes `header` (one line, no newline in it) and `values`; throws Error naming `key` when it
// cannot, leaving neither the temporary file nor a partial `path`.
void write_raw_file(const std::string& path, const std::string& header, const std::vector<float>& values,
                    const std::string& key, Sync sync = Sync::data);

}  // namespace wavefd
