#pragma once
// JSON outputs: written to a temporary file and renamed, so a failed run leaves no partial file.
#include <string>

#include <nlohmann/json.hpp>

namespace wavefd {

// Throws Error (naming `what`) unless `path`'s directory exists and is writable.
void check_writable(const std::string& path, const std::string& what);
void write_json_file(const std::string& path, const nlohmann::json& j, const std::string& what);

// {min, mean, max} of a per-rank value over all ranks (collective).
nlohmann::json over_ranks(double v);

}  // namespace wavefd
