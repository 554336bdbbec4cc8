#pragma once
// JSON outputs (summaries, bench/tune/probe results, the tuning cache), written through OutputFile:
// whole or not at all.
#include <string>

#include <nlohmann/json.hpp>

#include "wavefd/output_file.hpp"

namespace wavefd {

void write_json_file(const std::string& path, const nlohmann::json& j, const std::string& what);

// {min, mean, max} of a per-rank value over all ranks (collective).
nlohmann::json over_ranks(double v);

}  // namespace wavefd
